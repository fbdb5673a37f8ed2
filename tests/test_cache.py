"""The cubin cache: keys, corruption, concurrent writers, unwritable directories (CPU)."""

import subprocess
import sys
import textwrap

from pathlib import Path

import pytest

from tcraw import cache, compiler, kernels
from tcraw.cache import CubinCache, cache_key
from tcraw.cubin import elf_arch

KERNEL = kernels.KERNELS["wmma_fp16"]


def key(**change):
    args = dict(source="src", options=["--gpu-architecture=sm_90", "-DX"], arch="sm_90",
                nvrtc_version=(13, 0), include_dir=None)
    args.update(change)
    return cache_key(**args)


def test_key_is_stable_and_changes_with_every_part():
    assert key() == key()
    variants = [key(source="src2"), key(options=["--gpu-architecture=sm_90", "-DY"]),
                key(arch="sm_80"), key(nvrtc_version=(13, 1))]
    assert len({key(), *variants}) == 1 + len(variants)


def test_key_ignores_where_the_headers_live_but_not_what_they_say(tmp_path):
    one, two = tmp_path / "one", tmp_path / "two"
    for d in (one, two):
        d.mkdir()
        (d / "h.h").write_text("#define A 1\n")
    src = "#include <h.h>\n"
    cache._header_digest_memo.clear()
    k1 = key(source=src, include_dir=one, options=[f"-I{one}"])
    k2 = key(source=src, include_dir=two, options=[f"-I{two}"])
    assert k1 == k2
    (two / "h.h").write_text("#define A 2\n")
    cache._header_digest_memo.clear()
    assert key(source=src, include_dir=two, options=[f"-I{two}"]) != k1


def test_nested_headers_are_followed(tmp_path):
    (tmp_path / "a.h").write_text('#include "sub/b.h"\n')
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.h").write_text("#include <c.h>\n")
    (tmp_path / "c.h").write_text("// leaf\n")
    found = cache.included_headers("#include <a.h>\n", tmp_path)
    assert sorted(Path(p).name for p in found) == ["a.h", "b.h", "c.h"]


def test_warm_compile_comes_from_the_cache(tmp_path):
    store = CubinCache(tmp_path)
    cold = compiler.compile_cubin(KERNEL, "sm_90", cache=store)
    warm = compiler.compile_cubin(KERNEL, "sm_90", cache=store)
    assert not cold.cached and warm.cached
    assert warm.image == cold.image and warm.registers == cold.registers and warm.log == cold.log


@pytest.mark.parametrize("damage", ["truncate", "flip", "empty"])
def test_corrupt_entry_is_recompiled(tmp_path, damage):
    store = CubinCache(tmp_path)
    good = compiler.compile_cubin(KERNEL, "sm_90", cache=store)
    (entry,) = store.entries()
    blob = entry.read_bytes()
    entry.write_bytes({"truncate": blob[: len(blob) // 2],
                       "flip": blob[:100] + bytes([blob[100] ^ 1]) + blob[101:],
                       "empty": b""}[damage])
    again = compiler.compile_cubin(KERNEL, "sm_90", cache=store)
    assert not again.cached and again.image == good.image
    assert compiler.compile_cubin(KERNEL, "sm_90", cache=store).cached  # the entry was rewritten


def test_unwritable_cache_dir_still_compiles(tmp_path):
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    store = CubinCache(blocker / "cache")   # a directory under a file can never be made
    cubin = compiler.compile_cubin(KERNEL, "sm_90", cache=store)
    assert elf_arch(cubin.image)[1] == 90
    assert not store.writable and "cannot write" in store.problem


def test_compile_error_is_not_cached(tmp_path, monkeypatch):
    from tcraw.errors import CompileError
    store = CubinCache(tmp_path)
    monkeypatch.setattr(compiler, "build_options", lambda *a, **k: ["--gpu-architecture=sm_90", "-DNO_SUCH_MACRO"])
    with pytest.raises(CompileError):
        compiler.compile_cubin(KERNEL, "sm_90", cache=store)  # 02 refuses to build without a precision
    assert store.entries() == []


def test_concurrent_writers_leave_one_good_entry(tmp_path):
    script = textwrap.dedent(f"""
        from tcraw import compiler, kernels
        from tcraw.cache import CubinCache
        c = compiler.compile_cubin(kernels.KERNELS["naive_fp32"], "sm_90", cache=CubinCache({str(tmp_path)!r}))
        assert c.image[:4] == b"\\x7fELF"
    """)
    procs = [subprocess.Popen([sys.executable, "-c", script]) for _ in range(4)]
    assert all(p.wait(timeout=300) == 0 for p in procs)
    store = CubinCache(tmp_path)
    assert len(store.entries()) == 1
    assert not list(tmp_path.glob("*.tmp"))
    assert compiler.compile_cubin(kernels.KERNELS["naive_fp32"], "sm_90", cache=store).cached
