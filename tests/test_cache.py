"""The cubin cache: keys, corruption, concurrent writers, unwritable directories, kept SASS
counts (CPU)."""

import re
import subprocess
import sys
import textwrap

import pytest

from tcraw import cache, compiler, kernels, sass
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
                key(arch="sm_80"), key(nvrtc_version=(13, 1)), key(nvrtc_version=(13, 0, 123456))]
    assert len({key(), *variants}) == 1 + len(variants)


def test_the_key_tells_two_nvrtc_builds_of_one_minor_apart(monkeypatch, tmp_path):
    """nvrtcVersion gives major.minor alone; the library's size tells patch releases apart."""
    from tcraw.driver import get_backend
    backend = get_backend()
    built = compiler.nvrtc_build(backend)
    assert built[:2] == compiler.nvrtc_version(backend) and built[2] > 1 << 20
    store = CubinCache(tmp_path)
    compiler.compile_cubin(KERNEL, "sm_90", cache=store)
    assert compiler.compile_cubin(KERNEL, "sm_90", cache=store).cached
    monkeypatch.setattr(compiler, "nvrtc_build", lambda b: (*built[:2], built[2] + 1))   # (another build)
    assert not compiler.compile_cubin(KERNEL, "sm_90", cache=store).cached
    assert compiler.compile_cubin(KERNEL, "sm_90", cache=store).cached


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
    assert [name for name, _ in found] == ["a.h", "c.h", "sub/b.h"]   # each as included


def _source_dirs(tmp_path, *contents):
    """A shared include dir and one source dir per content, each with local.cuh saying it, at
    different depths so that no path relative to the include dir is alike."""
    inc = tmp_path / "inc"
    inc.mkdir()
    (inc / "lib.h").write_text("#define L 1\n")
    dirs = []
    for i, text in enumerate(contents):
        d = tmp_path.joinpath(*[f"install{i}"] * (i + 1), "cuda_src")
        d.mkdir(parents=True)
        (d / "local.cuh").write_text(text)
        dirs.append(d)
    return inc, dirs


def _key_in(source_dir, inc):
    return key(source='#include "local.cuh"\n#include <lib.h>\n', include_dir=inc, source_dir=source_dir,
               options=["--gpu-architecture=sm_90", f"-I{source_dir}", f"-I{inc}"])


def test_key_ignores_where_tcraw_is_installed(tmp_path):
    inc, (one, two) = _source_dirs(tmp_path, "#define X 1\n", "#define X 1\n")
    cache._header_digest_memo.clear()
    k1 = _key_in(one, inc)
    cache._header_digest_memo.clear()   # as a second install's own process would
    assert _key_in(two, inc) == k1
    (two / "local.cuh").write_text("#define X 2\n")
    cache._header_digest_memo.clear()
    assert _key_in(two, inc) != k1


def test_header_memo_tells_source_dirs_apart(tmp_path):
    inc, (one, two) = _source_dirs(tmp_path, "#define X 1\n", "#define X 2\n")
    cache._header_digest_memo.clear()
    assert _key_in(one, inc) != _key_in(two, inc)   # no clear between: the memo must not answer


@pytest.mark.parametrize("include", ['"common.cuh"', "<common.cuh>"])
def test_a_header_edit_is_a_new_compile_wherever_nvrtc_found_it(tmp_path, include):
    """The key hashes the header NVRTC uses for y/h.cuh's include: "common.cuh" the one beside
    it; <common.cuh> the include directory's, never one beside the includer. Editing that one
    compiles again (the cubin holds the new value), editing the other does not."""
    for d in ("y", "inc"):
        (tmp_path / d).mkdir()
    src = tmp_path / "k.cu"
    src.write_text('#include "y/h.cuh"\nextern "C" __global__ void k(int *p) { p[0] = V; }\n')
    (tmp_path / "y" / "h.cuh").write_text(f"#include {include}\n")
    used, other = tmp_path / "inc" / "common.cuh", tmp_path / "y" / "common.cuh"
    if include.startswith('"'):
        used, other = other, used
    store = CubinCache(tmp_path / "cache")
    build = lambda: compiler.compile_source(src, "sm_90", include_dirs=[tmp_path / "inc"], cache=store)  # noqa: E731
    for value in (0x13572468, 0x24681357):
        used.write_text(f"#define V {value}\n")
        other.write_text(f"#define V {0x7EADBEEF}\n")
        cold, warm = build(), build()
        assert not cold.cached and warm.cached and warm.image == cold.image
        assert value.to_bytes(4, "little") in cold.image and (0x7EADBEEF).to_bytes(4, "little") not in cold.image
    other.write_text(f"#define V {0x7EADBEEE}\n")   # (the header NVRTC does not read: the same key)
    assert build().cached


def test_includes_resolve_as_nvccs(tmp_path):
    """<mma.h> is CUDA's even with an mma.h of the user's beside the source; a header's "name"
    is looked for beside that header and in the include directories, not beside the source."""
    (tmp_path / "mma.h").write_text("#define MY_OWN_MMA_H 1\n")
    src = tmp_path / "k.cu"
    src.write_text('#include <mma.h>\n#include "mma.h"\nusing namespace nvcuda;\n'
                   'extern "C" __global__ void k(float *c) { wmma::fragment<wmma::accumulator, 16, 16, 16, '
                   'float> acc; wmma::fill_fragment(acc, MY_OWN_MMA_H); '
                   'wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major); }\n')
    assert compiler.compile_source(src, "sm_80", cache=False).kernel == "k"
    (tmp_path / "y").mkdir()
    (tmp_path / "y" / "h.cuh").write_text('#include "common.cuh"\n')
    (tmp_path / "common.cuh").write_text("#define V 1\n")
    src.write_text('#include "y/h.cuh"\nextern "C" __global__ void k(int *p) { p[0] = V; }\n')
    with pytest.raises(compiler.CompileError, match='cannot open source file "common.cuh"'):
        compiler.compile_source(src, "sm_90", cache=False)
    assert compiler.compile_source(src, "sm_90", include_dirs=[tmp_path], cache=False).kernel == "k"


def test_a_cache_dir_that_cannot_be_says_why(tmp_path, monkeypatch, capsys):
    """mkdir says "File exists" of a dangling link and of a file alike: each is named as what it is."""
    from tcraw.cli import main
    (tmp_path / "link").symlink_to(tmp_path / "gone")
    (tmp_path / "file").write_text("")
    for where, why in ((tmp_path / "link", "is a link to .*gone, which does not exist"),
                       (tmp_path / "file" / "sub", "file is a file, not a directory")):
        monkeypatch.setenv("TCRAW_CACHE_DIR", str(where))
        assert main(["cache", "info"]) == 2
        assert re.search(why, capsys.readouterr().err)
        store = CubinCache()
        compiler.compile_cubin(KERNEL, "sm_90", cache=store)
        assert re.search(why, store.problem)


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


def test_one_bad_entry_does_not_disable_the_cache(tmp_path):
    store = CubinCache(tmp_path)
    bad, good = "a" * 64, "b" * 64
    store.path(bad).mkdir()                 # an entry path that no rename can replace
    assert not store.store(bad, {}, b"x")
    assert store.writable and store.problem is None
    assert not list(tmp_path.glob(".*.tmp"))
    assert store.store(good, {"log": ""}, b"y") and store.load(good) == ({"log": ""}, b"y")
    assert store.load(bad) is None
    assert not compiler.compile_cubin(KERNEL, "sm_90", cache=store).cached
    assert compiler.compile_cubin(KERNEL, "sm_90", cache=store).cached


def test_clear_removes_its_entries_sidecars_and_leftovers_and_nothing_else(tmp_path):
    store = CubinCache(tmp_path)
    assert store.store("b" * 64, {}, b"y")
    (store.path("a" * 64) / "inside").mkdir(parents=True)
    (tmp_path / f"{'c' * 64}.sass.json").write_text("{}")
    (tmp_path / f".{'d' * 16}.x1y2z3.tmp").write_bytes(b"half an entry")
    # names the cache never gives stay, whatever they end in: TCRAW_CACHE_DIR may be someone's folder
    foreign = ["notes.txt", "report.sass.json", "project.tcc", "ABC.tcc", ".hidden.tmp", f"{'e' * 63}.tcc"]
    for name in foreign:
        (tmp_path / name).write_text("not the cache's")
    (tmp_path / "project.tcc").unlink()
    (tmp_path / "project.tcc" / "main.c").parent.mkdir()
    (tmp_path / "project.tcc" / "main.c").write_text("int main;")
    assert len(store.entries()) == 2
    assert store.clear() == 4
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(foreign)
    assert (tmp_path / "project.tcc" / "main.c").is_file()
    assert store.clear() == 0


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


SASS_LINE = "        /*0010*/                   HMMA.16816.F32 R0, R4, R8, R0 ;"


@pytest.fixture
def fake_cuobjdump(tmp_path, monkeypatch):
    """(tool, runs): a cuobjdump that prints one function of one HMMA and an EXIT, and how many
    times it ran."""
    monkeypatch.setenv("TCRAW_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("TCRAW_NO_CACHE", raising=False)
    counter = tmp_path / "runs"
    tool = tmp_path / "cuobjdump"
    tool.write_text(f"#!/bin/sh\necho run >> '{counter}'\necho '\t\tFunction : k'\n"
                    f"echo '{SASS_LINE}'\necho '        /*0020*/                   EXIT ;'\n")
    tool.chmod(0o755)
    return str(tool), lambda: len(counter.read_text().splitlines()) if counter.exists() else 0


def test_sass_counts_are_kept_per_cubin(fake_cuobjdump):
    tool, runs = fake_cuobjdump
    first = sass.tensor_op_counts(b"cubin one", tool)
    assert first == {"HMMA": 1} and runs() == 1
    assert sass.tensor_op_counts(b"cubin one", tool) == first and runs() == 1
    assert sass.tensor_op_counts(b"cubin two", tool) == first and runs() == 2   # another cubin
    assert CubinCache().clear() == 2   # the kept counts go with the cache


def test_sass_counts_not_kept_without_the_cache(fake_cuobjdump, monkeypatch):
    tool, runs = fake_cuobjdump
    monkeypatch.setenv("TCRAW_NO_CACHE", "1")
    assert [sass.tensor_op_counts(b"cubin", tool) for _ in range(2)] == [{"HMMA": 1}] * 2
    assert runs() == 2 and not cache.cache_dir().exists()


def test_sass_counts_survive_an_unwritable_cache(fake_cuobjdump, tmp_path, monkeypatch):
    tool, runs = fake_cuobjdump
    (tmp_path / "a_file").write_text("")
    monkeypatch.setenv("TCRAW_CACHE_DIR", str(tmp_path / "a_file" / "cache"))
    assert [sass.tensor_op_counts(b"cubin", tool) for _ in range(2)] == [{"HMMA": 1}] * 2
    assert runs() == 2


@pytest.mark.parametrize("kept", ['{"HMMA": "lots"}', '{"x": {"y": 1}}', '{"HMMA.16816.F32": -5}', '{"HMMA": true}',
                                  '{"EXIT": 3}', "[1, 2]", "not json"])
def test_damaged_sass_counts_are_counted_again(fake_cuobjdump, kept):
    """A kept count that is not {tensor opcode form: count ≥ 0} is counted again from the cubin,
    as a damaged cubin is compiled again — not served, not a crash of the table it feeds."""
    tool, runs = fake_cuobjdump
    assert sass.tensor_op_counts(b"cubin", tool) == {"HMMA": 1} and runs() == 1
    [entry] = cache.cache_dir().glob("*" + cache.SASS_SUFFIX)
    entry.write_text(kept)
    assert sass.tensor_op_counts(b"cubin", tool) == {"HMMA": 1} and runs() == 2
    assert sass.tensor_op_counts(b"cubin", tool) == {"HMMA": 1} and runs() == 2   # kept again, whole


def test_the_cache_lives_where_the_environment_says(tmp_path, monkeypatch):
    """TCRAW_CACHE_DIR (~ expanded; blank is unset; relative: from the working directory), else an
    absolute XDG_CACHE_HOME — a relative one is ignored, as the XDG spec has it — else ~/.cache/tcraw."""
    monkeypatch.delenv("TCRAW_CACHE_DIR", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache.cache_dir() == tmp_path / "xdg" / "tcraw"
    for relative in ("relx", ""):
        monkeypatch.setenv("XDG_CACHE_HOME", relative)
        assert cache.cache_dir() == tmp_path / ".cache" / "tcraw"
    monkeypatch.setenv("TCRAW_CACHE_DIR", "~/mine")
    assert cache.cache_dir() == tmp_path / "mine"
    monkeypatch.setenv("TCRAW_CACHE_DIR", "  ")
    assert cache.cache_dir() == tmp_path / ".cache" / "tcraw"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TCRAW_CACHE_DIR", "rel")   # (from the working directory, named absolute)
    assert cache.cache_dir() == tmp_path / "rel" and cache.cache_dir().is_absolute()
