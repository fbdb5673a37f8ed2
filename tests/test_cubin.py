"""The cubin ELF reader on any machine: real cubins read as before, and every malformed input —
not an ELF, not 64-bit, not CUDA, cut short anywhere, bytes flipped — is a CubinError."""

import ctypes.util
import glob
import json
import os
import random
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from tcraw import compiler, cubin, kernels
from tcraw.cubin import EM_CUDA, elf_arch, entries, kernel_param_sizes, kernel_resources, sections
from tcraw.errors import ArchError, CubinError, UsageError

NAIVE = kernels.KERNELS["naive_fp32"]
WMMA = kernels.KERNELS["wmma_fp16"]


@pytest.fixture(scope="module")
def naive():
    return compiler.compile_cubin(NAIVE, "sm_90").image


@pytest.fixture(scope="module")
def wmma():
    return compiler.compile_cubin(WMMA, "sm_80").image


def readers(entry):
    """Every public reader, as a one-argument call on an image."""
    return {
        "sections": lambda image: sections(image, "t.cubin"),
        "entries": lambda image: entries(image, "t.cubin"),
        "elf_arch": lambda image: elf_arch(image, "t.cubin"),
        "kernel_resources": lambda image: kernel_resources(image, entry, "t.cubin"),
        "kernel_param_sizes": lambda image: kernel_param_sizes(image, entry, "t.cubin"),
    }


def assert_refused(image, entry="naive_fp32"):
    for name, read in readers(entry).items():
        with pytest.raises(CubinError) as exc:
            read(image)
        assert "t.cubin" in str(exc.value) and "tcraw compile --arch" in str(exc.value), name


def with_byte(image, at, value):
    out = bytearray(image)
    out[at] = value
    return bytes(out)


# -- real cubins ------------------------------------------------------------------------------------

def test_a_real_cubin_reads_as_ptxas_says():
    """Registers, shared memory and stack agree with ptxas -v of a fresh compile (no caches)."""
    for kernel, arch in ((NAIVE, "sm_90"), (WMMA, "sm_80"), (kernels.KERNELS["tiled_simt_fp32"], "sm_80")):
        built = compiler.compile_cubin(kernel, arch, cache=False)
        if f"Compiling entry function '{kernel.entry}'" not in built.log:
            pytest.skip("NVRTC served the compile from its own cache: no ptxas log to compare with")
        logged = compiler.parse_ptxas_log(built.log, kernel.entry)
        found = kernel_resources(built.image, kernel.entry, "fresh.cubin")
        assert found == {k: logged[k] for k in found}, kernel.name
        assert found["registers"] > 0
        assert kernel_param_sizes(built.image, kernel.entry) == [8, 8, 8, 4, 4, 4], kernel.name
        assert elf_arch(built.image) == (EM_CUDA, int(arch[3:]))


def test_every_nv_info_record_of_real_cubins_parses_to_the_section_end():
    """Records are 4-byte aligned, BVAL and NVAL included: walking them never falls out of step
    (tiled_simt_fp32 for sm_80 has a BVAL record)."""
    for kernel, arch in ((NAIVE, "sm_90"), (WMMA, "sm_80"), (kernels.KERNELS["tiled_simt_fp32"], "sm_80")):
        image = compiler.compile_cubin(kernel, arch).image
        for sec in sections(image).values():
            if sec.name.startswith(".nv.info"):
                records = list(cubin._attributes(image, sec, None))  # CubinError if out of step
                assert records, sec.name


def test_entries_of_the_02_wmma_naive_cubin(wmma):
    assert WMMA.source == "02_wmma_naive.cu"
    found = entries(wmma)
    assert WMMA.entry in found
    assert all(isinstance(name, str) and name for name in found)


def test_entries_accepts_bytearray_and_memoryview(naive):
    assert entries(bytearray(naive)) == entries(memoryview(naive)) == entries(naive) == ["naive_fp32"]


def test_missing_entry_names_the_kernels_there_are(wmma):
    for read in (kernel_resources, kernel_param_sizes):
        with pytest.raises(CubinError) as exc:
            read(wmma, "no_such_kernel", "dir/wmma_fp16.sm_80.cubin")
        msg = str(exc.value)
        assert "'no_such_kernel'" in msg and repr(WMMA.entry) in msg
        assert "dir/wmma_fp16.sm_80.cubin" in msg and "tcraw compile --arch" in msg
    assert issubclass(CubinError, UsageError) and CubinError.exit_code == 2


def test_load_prebuilt_of_a_garbage_or_wrong_cubin_is_a_cubin_error(tmp_path, wmma):
    """What `tcraw run --cubin-dir DIR` meets: a garbage file, and another kernel's cubin."""
    (tmp_path / "naive_fp32.sm_90.cubin").write_bytes(b"not a cubin at all\n")
    with pytest.raises(CubinError, match="not an ELF"):
        compiler.load_prebuilt(NAIVE, compiler.Arch(90), tmp_path)
    (tmp_path / "naive_fp32.sm_90.cubin").write_bytes(compiler.compile_cubin(WMMA, "sm_90").image)
    with pytest.raises(CubinError, match=f"no kernel 'naive_fp32'.*{WMMA.entry}"):
        compiler.load_prebuilt(NAIVE, compiler.Arch(90), tmp_path)


@pytest.mark.parametrize("cc", [80, 86, 89])
def test_load_prebuilt_runs_an_older_minor_of_the_same_major(tmp_path, cc):
    """An Ampere or Ada GPU takes sm_80's cubin (SASS runs forward within a major); sm_90 does not."""
    (tmp_path / "naive_fp32.sm_80.cubin").write_bytes(compiler.compile_cubin(NAIVE, "sm_80").image)
    found = compiler.load_prebuilt(NAIVE, compiler.Arch(cc), tmp_path)
    assert str(found.arch) == "sm_80" and found.cached and found.registers > 0
    with pytest.raises(ArchError, match="it has: sm_80"):
        compiler.load_prebuilt(NAIVE, compiler.Arch(90), tmp_path)


def test_a_prebuilt_cubin_is_what_its_manifest_says(tmp_path):
    """compile --out records each cubin's digest and its source's; a cubin-only run refuses one
    damaged, copied in by hand, named for another arch or built from another version of the
    source, and compiles into a directory keep the manifest's other rows."""
    out = tmp_path / "cubins"
    compiler.compile_table([NAIVE], "sm_80", out=out, note=print)
    compiler.compile_table([NAIVE, WMMA], "sm_90", out=out, note=print)
    rows = json.loads((out / "manifest.json").read_text())
    assert {(r["kernel"], r["arch"]) for r in rows} == {("naive_fp32", "sm_80"), ("reference_fp64", "sm_80"),
                                                         ("naive_fp32", "sm_90"), ("wmma_fp16", "sm_90"),
                                                         ("reference_fp64", "sm_90")}
    assert all(r["cubin"] == f"{r['kernel']}.{r['arch']}.cubin" and len(r["cubin_sha256"]) == 64 for r in rows)
    assert str(compiler.load_prebuilt(NAIVE, compiler.Arch(90), out).arch) == "sm_90"
    cubin90, cubin80 = out / "naive_fp32.sm_90.cubin", out / "naive_fp32.sm_80.cubin"
    good = cubin90.read_bytes()
    cubin90.write_bytes(with_byte(good, 3000, good[3000] ^ 0xFF))
    with pytest.raises(CubinError, match="not the cubin its manifest records"):
        compiler.load_prebuilt(NAIVE, compiler.Arch(90), out)
    cubin90.write_bytes(cubin80.read_bytes())
    with pytest.raises(CubinError, match="not the cubin its manifest records"):
        compiler.load_prebuilt(NAIVE, compiler.Arch(90), out)
    by_hand = tmp_path / "by_hand"   # (no manifest: trusted, its ELF still read)
    by_hand.mkdir()
    (by_hand / "naive_fp32.sm_90.cubin").write_bytes(cubin80.read_bytes())
    with pytest.raises(CubinError, match="named for sm_90 but its ELF says sm_80"):
        compiler.load_prebuilt(NAIVE, compiler.Arch(90), by_hand)
    cubin90.write_bytes(with_byte(good, 3000, good[3000] ^ 0xFF))   # (damaged, and its row's digest taken out)
    for field in ("cubin_sha256", "built_with"):
        edited = [{**r, field: None} if r["cubin"] == cubin90.name else r for r in rows]
        (out / "manifest.json").write_text(json.dumps(edited))
        with pytest.raises(CubinError, match=f"row of naive_fp32.sm_90.cubin records no {field}"):
            compiler.load_prebuilt(NAIVE, compiler.Arch(90), out)
    (out / "manifest.json").write_text(json.dumps(rows))
    cubin90.write_bytes(good)
    (out / "naive_fp32.sm_89.cubin").write_bytes(compiler.compile_cubin(NAIVE, "sm_89").image)   # (by hand)
    with pytest.raises(CubinError, match="does not list naive_fp32.sm_89.cubin"):
        compiler.load_prebuilt(NAIVE, compiler.Arch(89), out)
    (out / "manifest.json").write_text("{broken")
    with pytest.raises(CubinError, match="manifest.json cannot be read"):
        compiler.load_prebuilt(NAIVE, compiler.Arch(90), out)
    # a compile into it replaces the broken manifest with its rows, and says which cubins that leaves unlisted
    notes = []
    compiler.compile_table([NAIVE], "sm_90", out=out, note=notes.append)
    said = [n for n in notes if "manifest.json cannot be read" in n]
    assert len(said) == 1 and "replaced by this compile's rows" in said[0], notes
    assert "4 cubin(s) there are now unlisted" in said[0] and "naive_fp32.sm_80.cubin" in said[0], said
    assert "naive_fp32.sm_90.cubin" not in said[0]
    rows = json.loads((out / "manifest.json").read_text())
    assert {(r["kernel"], r["arch"]) for r in rows} == {("naive_fp32", "sm_90"), ("reference_fp64", "sm_90")}
    with pytest.raises(CubinError, match="does not list naive_fp32.sm_80.cubin"):
        compiler.load_prebuilt(NAIVE, compiler.Arch(80), out)
    # JSON whose rows are not a manifest's (a cubin named by a number, a kernel by a list): refused, then replaced
    for odd in ('[{"kernel": "naive_fp32", "arch": "sm_90", "cubin": 5}]', '[{"kernel": ["a"], "arch": "sm_90"}]'):
        (out / "manifest.json").write_text(odd)
        with pytest.raises(CubinError, match="manifest.json is not a list of rows, each with a kernel and an arch"):
            compiler.load_prebuilt(NAIVE, compiler.Arch(90), out)
        notes.clear()
        compiler.compile_table([NAIVE], "sm_90", out=out, note=notes.append)
        assert any("is not a list of rows" in n and "replaced by this compile's rows" in n for n in notes), notes
        assert str(compiler.load_prebuilt(NAIVE, compiler.Arch(90), out).arch) == "sm_90"
    # JSON that is no list at all is someone else's manifest.json: refused before any compile, kept
    for foreign, what in (('{"name": "my project"}', "a JSON object"), ("3", "a JSON number"),
                          ('[1, {"files": ["a"]}]', r"a JSON list of no rows of tcraw's \(none names a kernel\)")):
        (out / "manifest.json").write_text(foreign)
        with pytest.raises(UsageError, match=f"manifest.json is {what}, not tcraw's list of rows: compile into "
                                             "another directory, or move that file away"):
            compiler.compile_table([NAIVE], "sm_90", out=out, note=pytest.fail)
        assert (out / "manifest.json").read_text() == foreign


def test_a_prebuilt_cubin_of_another_version_of_its_source_is_stale(tmp_path):
    src = tmp_path / "k.cu"
    src.write_text('extern "C" __global__ void mm(const float* A, const float* B, float* C, int M, int N, int K) '
                   "{ C[0] = A[0]; }\n")
    mine = kernels.user_kernel(src, "mm", "fp32", block=(16,))
    compiler.compile_table([mine], "sm_80", out=tmp_path / "o", note=print)
    assert compiler.load_prebuilt(mine, compiler.Arch(80), tmp_path / "o").kernel == "mm"
    src.write_text(src.read_text().replace("A[0]", "B[0]"))
    with pytest.raises(CubinError, match="built from another version of .*k.cu"):
        compiler.load_prebuilt(mine, compiler.Arch(80), tmp_path / "o")


def test_a_prebuilt_cubin_built_with_other_macros_or_after_a_failed_rebuild(tmp_path):
    """The manifest records the entry, precision and -D macros (a --define changed is another
    cubin); a rebuild that fails leaves the last good cubin listed, which its digests then judge."""
    src = tmp_path / "k.cu"
    good = ('extern "C" __global__ void mm(const float* A, const float* B, float* C, int M, int N, int K) '
            "{ C[0] = A[0] * S; }\n")
    src.write_text(good)
    scaled = kernels.user_kernel(src, "mm", "fp32", block=(16,), defines=("S=2.0f",))
    out = tmp_path / "o"
    compiler.compile_table([scaled], "sm_80", out=out, note=print)
    assert compiler.load_prebuilt(scaled, compiler.Arch(80), out).kernel == "mm"
    other = kernels.user_kernel(src, "mm", "fp32", block=(16,), defines=("S=3.0f",))
    with pytest.raises(CubinError, match="built as mm fp32 -DS=2.0f, not as mm is declared here"):
        compiler.load_prebuilt(other, compiler.Arch(80), out)
    src.write_text(good + "this does not compile\n")
    assert compiler.compile_table([scaled], "sm_80", out=out, note=lambda m: None)[0]["status"] == "error"
    src.write_text(good)
    assert compiler.load_prebuilt(scaled, compiler.Arch(80), out).kernel == "mm"


def test_compiles_into_one_directory_take_turns_at_its_manifest(tmp_path):
    """A compile --out writes its manifest under the directory's lock: while another holds it,
    it waits, then merges its rows with what the other wrote (none lost)."""
    import fcntl
    import time
    compiler.compile_table([NAIVE], "sm_80", out=tmp_path, note=print)
    with open(tmp_path / ".manifest.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        child = subprocess.Popen([sys.executable, "-m", "tcraw", "compile", "--arch", "sm_80", "--kernel",
                                  "wmma_fp16", "--out", str(tmp_path), "--format", "json"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while not (tmp_path / "wmma_fp16.sm_80.cubin").exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(1.0)
        assert child.poll() is None   # (its cubin written, its manifest waiting for the lock)
        rows = json.loads((tmp_path / "manifest.json").read_text())
        (tmp_path / "by_the_other.sm_80.cubin").write_bytes(b"x")
        (tmp_path / "manifest.json").write_text(json.dumps([*rows, {"kernel": "by_the_other", "arch": "sm_80",
                                                                     "cubin": "by_the_other.sm_80.cubin"}]))
    assert child.wait(timeout=120) == 0
    listed = {r["cubin"] for r in json.loads((tmp_path / "manifest.json").read_text())}
    assert listed == {p.name for p in tmp_path.glob("*.cubin")} and "by_the_other.sm_80.cubin" in listed


def test_a_cubin_dirs_manifest_that_cannot_be_read_is_refused_before_any_gpu(tmp_path):
    (tmp_path / "naive_fp32.sm_90.cubin").write_bytes(b"x")
    (tmp_path / "manifest.json").symlink_to(tmp_path / "gone.json")
    with pytest.raises(CubinError, match="manifest.json does not exist"):
        compiler.check_cubin_dir(tmp_path)


def test_an_interrupted_compile_out_lists_what_it_wrote_and_keeps_its_rows(tmp_path, monkeypatch):
    built = []
    real = compiler.compile_cubin

    def compile_twice(kernel, arch, *args, **kwargs):
        if len(built) == 2:
            raise KeyboardInterrupt
        built.append(kernel.name)
        return real(kernel, arch, *args, **kwargs)
    monkeypatch.setattr(compiler, "compile_cubin", compile_twice)
    with pytest.raises(KeyboardInterrupt) as exc:
        compiler.compile_table([NAIVE, WMMA], "sm_80,sm_90", out=tmp_path, note=print)
    assert [r["kernel"] for r in exc.value.rows] == ["naive_fp32", "naive_fp32"]
    listed = json.loads((tmp_path / "manifest.json").read_text())
    assert sorted(r["cubin"] for r in listed) == sorted(p.name for p in tmp_path.glob("*.cubin"))


@pytest.mark.parametrize("when", ["after the rename", "before the rename"])
def test_a_compile_out_interrupted_as_it_writes_a_cubin_lists_exactly_the_files_there(tmp_path, monkeypatch, when):
    """^C (or SIGTERM) can land between a cubin's rename into place and its row: the manifest still
    lists it — and a cubin whose rename never came is neither listed nor left as a temporary file."""
    real = compiler._write_file

    def write_then_stop(path, data):
        if Path(path).suffix != ".cubin" or when == "after the rename":
            real(path, data)
        else:   # (the temporary file written, the rename not yet made)
            with monkeypatch.context() as m:
                m.setattr(compiler.os, "chmod", lambda *a: (_ for _ in ()).throw(KeyboardInterrupt()))
                real(path, data)
        if Path(path).suffix == ".cubin":
            raise KeyboardInterrupt
    monkeypatch.setattr(compiler, "_write_file", write_then_stop)
    with pytest.raises(KeyboardInterrupt) as exc:
        compiler.compile_table([NAIVE], "sm_80", out=tmp_path, note=print)
    monkeypatch.undo()
    listed = json.loads((tmp_path / "manifest.json").read_text())
    assert sorted(r["cubin"] for r in listed) == sorted(p.name for p in tmp_path.glob("*.cubin"))
    assert len(listed) == len(exc.value.rows) == (1 if when == "after the rename" else 0)
    assert not [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_a_terminated_compile_out_lists_what_it_wrote_as_an_interrupted_one_does(tmp_path):
    """SIGTERM (timeout, a CI runner, docker stop) is met as ^C is: exit 143, the manifest lists
    every cubin written, so a cubin-only run checks them rather than trusting a bare directory."""
    import os
    import signal
    import subprocess
    import sys
    import time
    out = tmp_path / "cubins"
    env = {**os.environ, "TCRAW_NO_CACHE": "1"}
    p = subprocess.Popen([sys.executable, "-m", "tcraw", "compile", "--arch", "sm_80,sm_90", "--out", str(out)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    deadline = time.monotonic() + 120
    while not any(out.glob("*.cubin")) and p.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert p.poll() is None, "the compile ended before it could be terminated"
    p.send_signal(signal.SIGTERM)
    _, err = p.communicate(timeout=120)
    assert p.returncode == 143 and "tcraw: terminated" in err, err
    listed = json.loads((out / "manifest.json").read_text())
    assert listed and sorted(r["cubin"] for r in listed) == sorted(p.name for p in out.glob("*.cubin"))


def test_prebuilt_candidates_of_every_arch_are_targets_of_its_major():
    """Every device arch has candidates, its own first, all of its major, 'a' only its own."""
    for cc in range(50, 130):
        found = compiler.prebuilt_candidates(compiler.Arch(cc))
        assert found[0] == compiler.Arch(cc) and {a.cc // 10 for a in found} == {cc // 10}
        assert all(a.cc == cc for a in found if a.suffix == "a")
        assert any(a.suffix == "a" for a in found) == (cc >= 90)
        assert {a.cc for a in found if a.suffix == "f"} == ({c for c in range(cc // 10 * 10, cc + 1)} if cc >= 100
                                                             else set())   # ('f': the family's, its minor or below)


# -- malformed input -----------------------------------------------------------------------------

@pytest.mark.parametrize("image", [b"", b"\x00", b"hello world, not an elf" * 4, b"\x7fEL", b"\x7fELF",
                                   bytes(random.Random(1).randrange(256) for _ in range(4096))],
                         ids=["empty", "one-byte", "text", "short-magic", "magic-only", "random"])
def test_not_a_cubin_at_all(image):
    assert_refused(image)


@pytest.mark.parametrize("where", [1, 4, 16, 63, 64, "shoff", "half", "minus-64", "minus-1"])
def test_a_truncated_cubin(naive, where):
    shoff = struct.unpack_from("<Q", naive, 0x28)[0]
    cut = {"shoff": shoff, "half": len(naive) // 2, "minus-64": len(naive) - 64,
           "minus-1": len(naive) - 1}.get(where, where)
    assert_refused(naive[:cut])


def test_every_truncation_point_is_refused(naive):
    for cut in range(len(naive)):
        for name, read in readers("naive_fp32").items():
            try:
                read(naive[:cut])
            except CubinError:
                continue
            pytest.fail(f"{name} accepted the cubin cut to {cut} of {len(naive)} bytes")


def test_a_32_bit_elf(naive):
    assert_refused(with_byte(naive, 4, 1))
    with pytest.raises(CubinError, match="64-bit"):
        elf_arch(with_byte(naive, 4, 1))


def test_a_big_endian_elf(naive):
    assert_refused(with_byte(naive, 5, 2))


def test_an_elf_for_another_machine(naive):
    x86 = bytearray(naive)
    struct.pack_into("<H", x86, 18, 62)  # EM_X86_64
    assert_refused(bytes(x86))
    with pytest.raises(CubinError, match="not a CUDA ELF"):
        kernel_resources(bytes(x86), "naive_fp32")


def test_offsets_past_the_end(naive):
    secs = list(sections(naive).values())
    shoff = struct.unpack_from("<Q", naive, 0x28)[0]
    cases = {
        "section table": (0x28, "<Q", len(naive)),          # e_shoff
        "section count": (0x3C, "<H", 0xFFFF),              # e_shnum
        "name table index": (0x3E, "<H", len(secs)),        # e_shstrndx
    }
    text = next(i for i, s in enumerate(secs) if s.name == ".text.naive_fp32")
    cases["section offset"] = (shoff + text * 64 + 24, "<Q", len(naive) - 8)
    info = next(i for i, s in enumerate(secs) if s.name == ".nv.info.naive_fp32")
    cases["section size"] = (shoff + info * 64 + 32, "<Q", 1 << 40)
    cases["section name"] = (shoff + info * 64, "<I", 1 << 20)
    for what, (at, fmt, value) in cases.items():
        bad = bytearray(naive)
        struct.pack_into(fmt, bad, at, value)
        for name, read in readers("naive_fp32").items():
            with pytest.raises(CubinError):
                read(bytes(bad))


def test_a_truncated_nv_info_record(naive):
    """A record whose length runs past its section, and a section cut mid-record."""
    info = sections(naive)[".nv.info.naive_fp32"]
    long_record = bytearray(naive)
    assert naive[info.offset] == cubin.EIFMT_SVAL
    struct.pack_into("<H", long_record, info.offset + 2, 0xFFFF)
    with pytest.raises(CubinError, match="truncated record"):
        kernel_param_sizes(bytes(long_record), "naive_fp32")
    shoff = struct.unpack_from("<Q", naive, 0x28)[0]
    index = list(sections(naive)).index(".nv.info.naive_fp32")
    short = bytearray(naive)
    struct.pack_into("<Q", short, shoff + index * 64 + 32, info.size - 2)   # sh_size
    with pytest.raises(CubinError, match="truncated record"):
        kernel_param_sizes(bytes(short), "naive_fp32")


def test_not_bytes():
    for read in readers("naive_fp32").values():
        for junk in (None, "a string", 42):
            with pytest.raises(CubinError):
                read(junk)


def test_random_byte_flips_give_a_result_or_a_cubin_error(naive, wmma):
    """Seeded fuzz: flip bytes anywhere, or in the headers, section table and .nv.info, where
    they matter. Every reader either returns or raises CubinError, nothing else."""
    rng = random.Random(20240607)
    shoff = struct.unpack_from("<Q", naive, 0x28)[0]
    images = [(naive, "naive_fp32", [(0, 64), (shoff, len(naive))]
               + [(s.offset, s.offset + s.size) for s in sections(naive).values()
                  if s.name.startswith(".nv.info") or s.name == ".shstrtab"]),
              (wmma, WMMA.entry, [(0, len(wmma))])]
    for _ in range(3000):
        image, entry, regions = rng.choice(images)
        bad = bytearray(image)
        lo, hi = rng.choice(regions)
        for _ in range(rng.randint(1, 6)):
            bad[rng.randrange(lo, hi)] = rng.choice([0, 1, 2, 3, 4, 0xFF, rng.randrange(256)])
        for read in readers(entry).values():
            try:
                read(bytes(bad))
            except CubinError:
                pass


# -- a library that is not NVRTC -----------------------------------------------------------------

def not_nvrtc_library():
    for name in ("c", "m"):
        found = ctypes.util.find_library(name)
        if found:
            hits = [p for d in ("/lib64", "/usr/lib64", "/lib", "/usr/lib", "/lib/*-linux-gnu",
                                "/usr/lib/*-linux-gnu") for p in glob.glob(os.path.join(d, found))]
            return hits[0] if hits else found
    pytest.skip("no libc or libm to stand in for a library that is not NVRTC")


def test_tcraw_nvrtc_library_that_is_not_nvrtc_is_named_not_crashed_on():
    """The variable set wrong is a usage error (exit 2, README), naming it and how to set it."""
    lib = not_nvrtc_library()
    env = {**os.environ, "TCRAW_BACKEND": "ctypes", "TCRAW_NVRTC_LIBRARY": lib}
    p = subprocess.run([sys.executable, "-m", "tcraw", "compile", "--arch", "sm_90", "--kernel",
                        "naive_fp32"], capture_output=True, text=True, timeout=120, env=env)
    assert p.returncode == 2, p.stderr
    assert "point TCRAW_NVRTC_LIBRARY at a libnvrtc.so" in p.stderr and "pip install" not in p.stderr
    assert "Traceback" not in p.stderr
    assert "not NVRTC" in p.stderr and "nvrtcVersion" in p.stderr
    assert f"TCRAW_NVRTC_LIBRARY={lib}" in p.stderr


def test_tcraw_nvrtc_library_that_does_not_exist_says_so():
    env = {**os.environ, "TCRAW_BACKEND": "ctypes", "TCRAW_NVRTC_LIBRARY": "/nonexistent/libnvrtc.so.13"}
    p = subprocess.run([sys.executable, "-m", "tcraw", "compile", "--arch", "sm_90", "--kernel",
                        "naive_fp32"], capture_output=True, text=True, timeout=120, env=env)
    assert p.returncode == 2, p.stderr
    assert "Traceback" not in p.stderr and p.stdout == ""   # (one line, not a table of every kernel refused)
    assert "TCRAW_NVRTC_LIBRARY=/nonexistent/libnvrtc.so.13: no such file" in p.stderr


def test_load_prebuilt_from_a_directory_with_no_cubins_says_so(tmp_path):
    """The library refuses an empty --cubin-dir as the CLI does before it opens the GPU."""
    with pytest.raises(UsageError, match="holds no .cubin files"):
        compiler.load_prebuilt(NAIVE, compiler.Arch(90), tmp_path)
    with pytest.raises(UsageError, match="is not a directory"):
        compiler.load_prebuilt(NAIVE, compiler.Arch(90), tmp_path / "none")
