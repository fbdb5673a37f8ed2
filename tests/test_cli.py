"""The command line on any machine: exit codes, messages, JSON records."""

import json
import os
import re
import subprocess
import sys

import pytest

from tcraw import compiler, driver, kernels
from tcraw.cli import main
from tcraw.errors import NoDeviceError, UsageError


def has_gpu():
    try:
        driver.get_backend().init()
        return driver.get_backend().device_count() > 0
    except NoDeviceError:
        return False


def run_cli(*args):
    p = subprocess.run([sys.executable, "-m", "tcraw", *args], capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def test_list_names_every_kernel(capsys):
    assert main(["list", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["name"] for r in rows] == list(kernels.KERNELS)


def test_compile_json_records(capsys):
    assert main(["compile", "--arch", "sm_90", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["kernel"] for r in rows} == set(kernels.KERNELS)
    for r in rows:  # arch-specific kernels (wgmma) are built as sm_90a for an sm_90 request
        assert r["arch"] == ("sm_90a" if kernels.KERNELS[r["kernel"]].arch_specific else "sm_90")
        assert r["status"] == "ok"
        assert r["registers"] > 0 and r["cubin_bytes"] > 0 and r["spill_bytes"] == 0


def test_compile_all_lists_every_supported_arch(capsys):
    from tcraw.compiler import supported_archs
    assert main(["compile", "--arch", "all", "--kernel", "naive_fp32,wmma_fp16", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == 2 * len(supported_archs())
    for r in rows:   # under NVRTC 12 the list starts at sm_50, below WMMA's sm_70
        runs = kernels.KERNELS[r["kernel"]].runs_on(compiler_arch(r["arch"]).cc)
        assert r["status"] == ("ok" if runs else "below-min-arch"), r


def test_compile_out_of_a_kernel_no_asked_arch_takes_is_refused_as_without_out(tmp_path, capsys):
    """06 at sm_80 (exit 2): with --out, its small-M configurations — 09's and 10's code, which
    build there — are not 06 built."""
    for extra in ([], ["--out", str(tmp_path)]):
        assert main(["compile", "--arch", "sm_80", "--kernel", "wgmma_tma_fp16", *extra]) == 2, extra


def test_compile_writes_cubins_and_manifest(tmp_path, capsys):
    assert main(["compile", "--arch", "sm_80,sm_90", "--kernel", "wmma_bf16", "--out", str(tmp_path)]) == 0
    assert (tmp_path / "wmma_bf16.sm_90.cubin").read_bytes()[:4] == b"\x7fELF"
    rows = json.loads((tmp_path / "manifest.json").read_text())
    # the fp64 device reference rides along: a cubin-only run verifies big problems with it
    assert sorted((r["kernel"], r["arch"]) for r in rows) == [
        ("reference_fp64", "sm_80"), ("reference_fp64", "sm_90"), ("wmma_bf16", "sm_80"), ("wmma_bf16", "sm_90")]
    assert (tmp_path / "reference_fp64.sm_90.cubin").is_file()


def test_compile_below_min_arch_is_exit_2_naming_the_minimum():
    rc, out, err = run_cli("compile", "--arch", "sm_75", "--kernel", "wmma_tf32")
    assert rc == 2
    assert "sm_80" in err and "Traceback" not in err


def test_compile_mixed_archs_reports_status_rows(capsys):
    assert main(["compile", "--arch", "sm_70,sm_75,sm_80", "--kernel", "wmma_bf16", "--format", "json"]) == 0
    status = {r["arch"]: r["status"] for r in json.loads(capsys.readouterr().out)}
    assert status == {"sm_70": "below-min-arch", "sm_75": "below-min-arch", "sm_80": "ok"}


def test_unsupported_arch_row(capsys):
    from tcraw.compiler import supported_archs
    missing = next(f"sm_{cc}" for cc in range(50, 90) if cc not in {a.cc for a in supported_archs()})
    assert main(["compile", "--arch", f"{missing},sm_90", "--kernel", "naive_fp32", "--format", "json"]) == 0
    status = {r["arch"]: r["status"] for r in json.loads(capsys.readouterr().out)}
    assert status == {missing: "unsupported-by-nvrtc", "sm_90": "ok"}


def compiler_arch(text):
    from tcraw.compiler import Arch
    return Arch.parse(text)


@pytest.mark.parametrize("args,needle", [
    (["run", "--kernel", "nope"], "known kernels"),
    (["run", "--size", "0"], "--size is M = N = K, a whole number from 1"),
    (["run", "-m", "-3"], "M must be"),
    (["run", "--precision", "fp4"], "unknown precision"),
    (["compile", "--arch", "hopper"], "sm_90"),
    (["run", "--inputs", "zeros"], "invalid choice"),
    (["run", "--save", "x", "--isolate"], "drop --isolate"),
    (["run", "--iters", "0"], "--iters must be an integer in [1"),
    (["sweep", "--iters", "0"], "--iters must be"),
    (["bench", "--warmup", "-1"], "--warmup must be"),
    (["run", "--seed", "-1"], "--seed must be"),
    (["run", "--device", "-1"], "--device takes a GPU index"),
    (["sweep", "--device", "first"], "--device takes a GPU index ≥ 0 or all"),
    (["bench", "--device", "all"], "one GPU at a time"),
    (["run", "--precision", ","], "empty list"),
    (["run", "--precision", "all,fp4"], "unknown precision 'fp4'"),
    (["run", "--b-layout", "col"], "read B row-major, not col-major"),
    (["run", "--b-layout", "col", "--precision", "int8"], "name them alone (--kernel wgmma_kmajor_int8)"),
    (["run", "--b-layout", "row", "--precision", "fp8"], "reads B col-major, not row-major"),
    (["run", "--kernel", "naive_fp32", "--precision", "fp16"], "leaves out"),
    (["run", "-m", str(2**31)], "below 2^31"),
    (["run", "--cubin-dir", "/nonexistent/cubins"], "not a directory"),
    (["compile", "--arch", "sm_90f", "--kernel", "naive_fp32"], "sm_90f"),
    (["sweep", "--sizes", "64,big"], "whole numbers"),
    (["bench", "--precision", "fp16acc16"], "no ladder"),
    (["compile", "--arch", "sm_130"], "a newer NVRTC may target it"),
    (["compile", "--arch", "sm_99"], "this NVRTC has no such target"),
    (["compile", "--kernel", "wmma_bf16", "--arch", "sm_75"], "needs sm_80"),
    (["check", "--kernel", "naive_fp32", "--no-isolate", "--timeout", "5"], "drop one of them"),
    (["compile", "--spec", "/"], "is a directory"),
    (["check", "--kernel", "naive_fp32", "--timeout", str(2**31)], "--timeout must be a whole number of seconds"),
    (["profile", "--kernel", "naive_fp32", "--timeout", "99999999999"], "in [1, 604800]"),
    (["profile", "--kernel", "naive_fp32", "--roofline", ""], "a file to draw to"),
    (["run", "--cubin-dir", ""], "got an empty name"),
    (["list", "--precision", "fp16"], "give --source too, or drop --precision"),
    (["compile", "--source", "cuda_src/01_naive_fp32.cu", "--entry", "naive_fp32", "--name", "mine", "--block", "16",
      "--precision", "fp16,fp32"], "one kernel of one precision"),
    (["compile", "--source", "cuda_src/01_naive_fp32.cu", "--entry", "naive_fp32", "--name", "mine", "--block", "16",
      "--block-tile", f"{2**40},1", "--precision", "fp32"], "from 1 to 2^31"),
    # a value starting with '-' reads as an option to argparse: the message says how to give it
    (["compile", "--source", "cuda_src/01_naive_fp32.cu", "--entry", "naive_fp32", "--block", "-16,16",
      "--precision", "fp32"], "a value that starts with '-' goes after '=': --block=-…"),
    (["compile", "--define", "-DFOO"], "nvcc's -DFOO is --define FOO here"),
    (["compile", "--source", "cuda_src/01_naive_fp32.cu", "--entry", "naive_fp32", "--block=-16,16",
      "--precision", "fp32"], "--block takes whole numbers separated by commas, got '-16,16'"),
])
def test_bad_usage_is_exit_2_with_a_message(args, needle):
    rc, out, err = run_cli(*args)
    assert rc == 2, err
    assert needle in err and "Traceback" not in err


@pytest.mark.skipif(has_gpu(), reason="this machine has a GPU; the no-driver path cannot be seen here")
def test_run_without_a_driver_exits_3_plainly():
    rc, out, err = run_cli("run")
    assert rc == 3
    assert "no CUDA driver" in err and "Traceback" not in err


@pytest.mark.skipif(has_gpu(), reason="this machine has a GPU; the no-driver path cannot be seen here")
def test_a_layout_the_fp32_baseline_cannot_read_leaves_it_out():
    """--precision fp8 --b-layout col: the FP8 kernels read B col-major; the FP32 baseline a
    family's selection brings (row-major only) was not asked for, so it stays out rather than
    refusing the request (which reaches the missing driver here)."""
    rc, out, err = run_cli("run", "--precision", "fp8", "--b-layout", "col")
    assert rc == 3 and "no CUDA driver" in err, err
    assert [k.name for k in kernels.select(None, ["fp8"], b_layout="col")] == \
        [k.name for k in kernels.select(None, ["fp8"])][1:]


def test_version_is_the_packages():
    import tcraw
    rc, out, err = run_cli("--version")
    assert rc == 0 and out.strip() == f"tcraw {tcraw.__version__}", (out, err)


def test_info_works_with_or_without_a_gpu():
    rc, out, err = run_cli("info", "--format", "json")
    assert rc == 0, err
    info = json.loads(out)
    assert info["nvrtc_archs"] and info["include_dirs"] and info["toolchain"]["cuda_major"] in (12, 13)
    assert (info["gpu"] is not None) == has_gpu()
    import tcraw   # (the library's own: the same keys, the same answer on the GPU)
    mine = tcraw.machine_info()
    assert mine.keys() == info.keys() and mine["nvrtc_archs"] == info["nvrtc_archs"]
    assert (mine["gpu"] or {}).get("name") == (info["gpu"] or {}).get("name")
    with pytest.raises(tcraw.UsageError, match="device"):
        tcraw.machine_info("a")


def test_info_names_the_cublas_the_yardstick_would_time(monkeypatch):
    """Its version from cublasGetProperty and its path (no GPU needed) — cuBLAS's rates vary by
    build, so a run's ratios name what they were against — or why there is none."""
    import ctypes

    import tcraw
    from tcraw.driver import cublas
    info = tcraw.machine_info()
    assert (info["cublas"] is None) == ("cublas_problem" in info)
    assert info["cublas"] is None or re.fullmatch(r"\d+\.\d+\.\d+ \(.+\)", info["cublas"]), info["cublas"]

    class Lib:   # (libraryPropertyType 0, 1, 2: major, minor, patch)
        def cublasGetProperty(self, prop, out):
            ctypes.cast(out, ctypes.POINTER(ctypes.c_int))[0] = (13, 1, 4)[prop]
            return 0
    monkeypatch.setattr(cublas, "open_library", lambda *a: ("/opt/x/libcublas.so.13", Lib()))
    assert cublas.library_info() == ("13.1.4 (/opt/x/libcublas.so.13)", None)
    assert tcraw.machine_info()["cublas"] == "13.1.4 (/opt/x/libcublas.so.13)"
    monkeypatch.setattr(Lib, "cublasGetProperty", lambda self, prop, out: 7)   # (CUBLAS_STATUS_INVALID_VALUE)
    version, problem = cublas.library_info()
    assert version is None and "cublasGetProperty" in problem
    # (bench names the yardsticks it opened alike, from their handles' version numbers)
    assert [cublas.dotted(v) for v in (130104, 120902, 110000, None)] == ["13.1.4", "12.9.2", "11.0.0", "?"]


def test_ctypes_backend_without_libnvrtc_says_what_to_install(monkeypatch):
    """No libnvrtc anywhere: NoNvrtcError (exit 3) saying what to install. (One named by
    TCRAW_NVRTC_LIBRARY that is not there is the variable's fault: test_cubin's, exit 2.)"""
    from tcraw.driver import ctypes_backend
    from tcraw.errors import NoNvrtcError
    monkeypatch.delenv("TCRAW_NVRTC_LIBRARY", raising=False)
    monkeypatch.setattr(ctypes_backend, "_find_nvrtc", lambda: None)
    with pytest.raises(NoNvrtcError, match=r"NVRTC is not available \(no libnvrtc found\).*cuda-toolkit\[nvrtc"):
        ctypes_backend._load_nvrtc()


@pytest.mark.parametrize("backend", ["bindings", "ctypes"])
def test_trace_prints_every_nvrtc_call(backend):
    import os
    from conftest import bindings_nvrtc_mismatch
    if backend == "bindings" and (why := bindings_nvrtc_mismatch()):
        pytest.skip(why)
    env = {**os.environ, "TCRAW_NO_CACHE": "1"}  # a real compile, not a cache hit
    p = subprocess.run([sys.executable, "-m", "tcraw", "compile", "--arch", "sm_90", "--kernel",
                        "naive_fp32", "--trace", "--backend", backend],
                       capture_output=True, text=True, timeout=120, env=env)
    assert p.returncode == 0, p.stderr
    for call in ("nvrtcGetSupportedArchs", "nvrtcCreateProgram", "nvrtcCompileProgram",
                 "nvrtcGetProgramLog", "nvrtcGetCUBIN", "nvrtcDestroyProgram"):
        assert f"[tcraw] {call}(" in p.stderr, call
    assert "-> ('NVRTC_SUCCESS', 0)" in p.stderr


@pytest.mark.skipif(has_gpu(), reason="this machine has a GPU: the child would not fail")
def test_isolated_child_that_fails_becomes_a_failed_row(monkeypatch):
    """The parent told a GPU 0 exists (existing_ordinal passed), the child finds no driver: the
    child's own message becomes the kernel's failed row, and nothing is raised."""
    import tcraw.runtime
    from tcraw.sweep import run_isolated
    monkeypatch.setattr(tcraw.runtime, "existing_ordinal", lambda ordinal, backend=None: ordinal)
    (row,) = run_isolated(0, kernels.KERNELS["wmma_fp16"], (16, 16, 16), inputs="normal", seed=1,
                          iters=1, warmup=0)
    assert row["kernel"] == "wmma_fp16" and row["passed"] is False and row["device_index"] == 0
    assert "child process failed" in row["error"] and "no CUDA driver" in row["error"]


@pytest.mark.skipif(has_gpu(), reason="this machine has a GPU: the parent's check would pass")
def test_isolated_runs_refuse_a_machine_without_a_driver_instead_of_failing_the_kernel():
    """run_isolated and check_isolated ask the driver for the GPU before any child: no driver is
    NoDeviceError (as run_problem, check_kernels and run_sweep raise), not a kernel's failed row
    that a script reading `passed` would blame on the kernel; an index that is no index is a
    UsageError on any machine."""
    from tcraw import UsageError, check_isolated
    from tcraw.sweep import run_isolated
    kern = kernels.KERNELS["wmma_fp16"]
    with pytest.raises(NoDeviceError, match="no CUDA driver"):
        run_isolated(0, kern, (16, 16, 16), inputs="normal", seed=1, iters=1, warmup=0)
    with pytest.raises(NoDeviceError, match="no CUDA driver"):
        check_isolated(kern, 5, [(16, 16, 16)], 7, note=pytest.fail)
    with pytest.raises(UsageError, match="a device is a GPU index"):
        run_isolated("a", kern, (16, 16, 16), inputs="normal", seed=1, iters=1, warmup=0)
    # the request before the machine: what is wrong with it is a UsageError here too
    for call in (lambda: run_isolated(0, kern, (0, 16, 16), inputs="normal", seed=1, iters=1, warmup=0),
                 lambda: run_isolated(0, kern, (16, 16, 16), inputs="ints", seed=1, iters=1, warmup=0),
                 lambda: run_isolated(0, "wmma_fp16", (16, 16, 16), inputs="normal", seed=1, iters=1, warmup=0),
                 lambda: check_isolated(kern, 0, "16,16,16", 7),
                 lambda: check_isolated(None, 0, [(16, 16, 16)], 7)):
        with pytest.raises(UsageError):
            call()


def test_a_kernel_needing_more_shared_memory_than_the_device_has_is_refused_by_name():
    """sm_86/sm_89 offer 99 KiB per block; the pipelined kernels' stages need more. Such a device
    gets a refusal naming both numbers (a skip note, or an error when the kernel was asked for)."""
    from types import SimpleNamespace
    from tcraw.errors import UsageError
    ada = SimpleNamespace(name="RTX 4090", arch="sm_89", cc=89, max_smem_optin=101376)
    refusal = kernels.KERNELS["wmma_pipelined_fp16"].device_refusal(ada)
    assert isinstance(refusal, UsageError) and "101376" in str(refusal) and "156672" in str(refusal)
    assert kernels.KERNELS["tiled_simt_fp32"].device_refusal(ada) is None
    assert "sm_90a" in str(kernels.KERNELS["wgmma_tma_fp16"].device_refusal(ada))


def test_a_kernel_named_below_the_device_is_refused_and_an_unnamed_one_skipped(capsys):
    from types import SimpleNamespace
    from tcraw.errors import ArchError
    from tcraw.kernels import runnable as _runnable
    ampere = SimpleNamespace(name="A100", arch="sm_80", cc=80, max_smem_optin=166912)
    wgmma, naive = kernels.KERNELS["wgmma_tma_fp16"], kernels.KERNELS["naive_fp32"]
    with pytest.raises(ArchError, match="sm_90a"):
        _runnable(ampere, [naive, wgmma], explicit=True)
    notes = []
    assert _runnable(ampere, [naive, wgmma], explicit=False, note=notes.append) == [naive]
    assert len(notes) == 1 and notes[0].startswith("skipped: ") and "sm_90a" in notes[0]


def test_a_problem_the_host_cannot_hold_is_refused_before_the_gpu(monkeypatch, capsys):
    """The CPU-side reference and check need host memory: refused up front, with the numbers."""
    import tcraw.cli as cli
    from tcraw import matmul
    monkeypatch.setattr(matmul, "host_available", lambda: 2**30)
    monkeypatch.setattr(cli, "_open_device", lambda *_: pytest.fail("the GPU was opened"))
    assert main(["run", "--size", "16384"]) == 2
    err = capsys.readouterr().err
    assert "host memory" in err and "1.0 GiB are available" in err
    assert main(["check", "--kernel", "naive_fp32", "--shapes", "64,64,64;16384,16384,16384"]) == 2   # (its own
    assert "16384×16384×16384 needs about" in capsys.readouterr().err                            # device path)


def test_an_unwritable_output_is_refused_before_the_work(tmp_path, monkeypatch, capsys):
    import tcraw.cli as cli
    monkeypatch.setattr(cli, "_open_device", lambda *_: pytest.fail("the GPU was opened"))
    blocker = tmp_path / "file"
    blocker.write_text("")
    for argv in (["run", "--save", str(blocker / "x")], ["sweep", "--out", str(blocker)],
                 ["bench", "--sizes", "256", "--out", str(blocker / "y")],   # (8192³ may not fit the host's memory)
                 ["compile", "--kernel", "naive_fp32", "--arch", "sm_90", "--out", str(blocker)]):
        assert main(argv) == 2, argv
        assert f"{blocker} is a file, not a directory" in capsys.readouterr().err


def test_a_result_file_that_cannot_be_written_is_refused_before_the_work(tmp_path, monkeypatch, capsys):
    """The files a run writes into --out / --save / --raw, checked with the directory: where one of
    them is a directory (or a file that cannot be overwritten), exit 2 naming it, before the GPU."""
    import tcraw.cli as cli
    monkeypatch.setattr(cli, "_open_device", lambda *_: pytest.fail("the GPU was opened"))
    (tmp_path / "mine.txt").write_text("64 64 64\n")   # (a suite of shapes: bench writes suites.* too)
    for argv, name in ((["sweep", "--sizes", "64", "--kernel", "naive_fp32", "--out"], "sweep.csv"),
                       (["bench", "--shapes", str(tmp_path / "mine.txt"), "--out"], "suites.json"),
                       (["bench", "--sizes", "256", "--out"], "bench.csv"),
                       (["run", "--size", "64", "--kernel", "naive_fp32,wmma_fp16", "--save"], "B_fp16.npy"),
                       (["run", "--size", "64", "--kernel", "naive_fp32", "--save"], "C_naive_fp32.npy"),
                       (["run", "--size", "64", "--kernel", "naive_fp32", "--save"], "records.json"),
                       (["profile", "--kernel", "naive_fp32", "--size", "64", "--raw"], "naive_fp32.64x64x64.ncu-rep")):
        out = tmp_path / name.replace(".", "_")
        (out / name).mkdir(parents=True)
        assert main([*argv, str(out)]) == 2, argv
        assert f"{out / name} is a directory, and the run writes its {name} there" in capsys.readouterr().err
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "sweep.json").write_text("[]")
    (locked / "sweep.json").chmod(0o444)
    if not os.access(locked / "sweep.json", os.W_OK):   # (root may write anything)
        assert main(["sweep", "--sizes", "64", "--kernel", "naive_fp32", "--out", str(locked)]) == 2
        assert "sweep.json is a file you cannot overwrite" in capsys.readouterr().err


def test_compile_for_a_named_gpu_that_is_not_there_exits_3(monkeypatch, capsys):
    """--device names the GPU whose arch to build for: where there is none, exit 3 saying so — not
    every arch, as compile does when no GPU was named; --arch needs none, and with --device one of
    the two would be ignored: refused."""
    import tcraw.cli as cli

    def no_gpu(index):
        raise NoDeviceError("no CUDA driver on this machine")
    monkeypatch.setattr(cli, "_open_device", no_gpu)
    assert main(["compile", "--kernel", "naive_fp32", "--device", "5"]) == 3
    assert "--device 5 names a GPU to build for, and there is none" in capsys.readouterr().err
    assert main(["compile", "--kernel", "naive_fp32", "--device", "5", "--arch", "sm_80"]) == 2
    assert "--device builds for that GPU's arch and --arch names the archs: give one" in capsys.readouterr().err
    assert main(["compile", "--kernel", "naive_fp32", "--arch", "sm_80,sm_90"]) == 0
    capsys.readouterr()
    assert main(["compile", "--kernel", "naive_fp32"]) == 0   # (no GPU named: every arch, with a note)
    assert "compiling for every arch" in capsys.readouterr().err


def test_rows_are_printed_even_when_writing_them_fails(tmp_path, monkeypatch, capsys):
    """A sweep's rows are never lost: printed first, and a failed write is a one-line exit 2."""
    from types import SimpleNamespace
    import tcraw.cli as cli
    from tcraw import report, sweep

    class FakeDevice(SimpleNamespace):
        def __enter__(self): return self
        def __exit__(self, *exc): return None
        def mem_info(self): return 2**40, 2**40
    monkeypatch.setattr(cli, "_open_device", lambda i: FakeDevice(name="GPU", arch="sm_90", cc=90,
                                                                   max_smem_optin=232448, sm_count=132))
    monkeypatch.setattr(sweep, "isolated_rows", lambda index, kern, shape, **kw: [
        {"kernel": kern.name, "m": shape[0], "n": shape[1], "k": shape[2], "passed": True,
         "time_ms": 1.0, "device_index": index, "device": "GPU", "arch": "sm_90"}])

    def disk_full(*_a):
        raise OSError(28, "No space left on device", str(tmp_path / "sweep.csv"))
    monkeypatch.setattr(report, "write_rows", disk_full)
    rc = main(["sweep", "--sizes", "64", "--kernel", "naive_fp32", "--out", str(tmp_path), "--format", "json"])
    out, err = capsys.readouterr()
    assert rc == 2 and "No space left on device" in err and "printed above" in err
    assert f"could not write {tmp_path / 'sweep.csv'} (" in err   # (the file, not only its directory)
    assert json.loads(out)[0]["kernel"] == "naive_fp32"


def test_sweep_over_every_gpu_runs_one_worker_per_gpu_at_once(monkeypatch, capsys):
    """Two GPUs, isolated: each device's kernels run while the other's do. Every child call waits
    at a two-party barrier, which only a concurrent partner can release."""
    import threading
    from types import SimpleNamespace
    import tcraw.cli as cli
    from tcraw import sweep

    class FakeDevice(SimpleNamespace):
        def __enter__(self): return self
        def __exit__(self, *exc): return None
        def mem_info(self): return 2**40, 2**40
    monkeypatch.setattr(cli, "_open_device", lambda i: FakeDevice(name=f"GPU{i}", arch="sm_90", cc=90,
                                                                   max_smem_optin=232448, sm_count=132))
    monkeypatch.setattr(cli, "_device_indices", lambda spec: [0, 1])
    barrier = threading.Barrier(2, timeout=20)

    def child(index, kern, shape, **kw):
        barrier.wait()   # BrokenBarrierError (a failed test) if the other GPU's worker is not running
        return [{"kernel": kern.name, "m": shape[0], "n": shape[1], "k": shape[2], "passed": True,
                 "time_ms": 1.0, "device_index": index}]
    monkeypatch.setattr(sweep, "isolated_rows", child)
    assert main(["sweep", "--sizes", "64,128", "--kernel", "naive_fp32,wmma_fp16", "--device", "all",
                 "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["device_index"], r["device"]) for r in rows] == [(0, "GPU0")] * 4 + [(1, "GPU1")] * 4


@pytest.mark.parametrize("env,argv,needle", [
    ({"TCRAW_CUOBJDUMP": "/nonexistent/cuobjdump", "TCRAW_NO_CACHE": "1"},
     ["compile", "--kernel", "naive_fp32", "--arch", "sm_80"], "TCRAW_CUOBJDUMP"),
    ({"TCRAW_DEBUG": "maybe"}, ["list"], "TCRAW_DEBUG"),
    ({"TCRAW_NO_CACHE": "maybe"}, ["run"], "TCRAW_NO_CACHE"),   # (before the GPU is looked for)
    ({"TCRAW_CACHE_DIR": "/etc/passwd"}, ["cache", "info"], "not a directory"),
    ({"TCRAW_CUDA_INCLUDE": "/nonexistent/include"}, ["compile", "--kernel", "naive_fp32", "--arch", "sm_80"],
     "/nonexistent/include is not a directory"),
    ({"TCRAW_CUDA_INCLUDE": os.pathsep}, ["list"], "names no directory"),
])
def test_environment_values_that_cannot_work_are_refused(monkeypatch, capsys, env, argv, needle):
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    assert main(argv) == 2
    assert needle in capsys.readouterr().err


def test_a_cuda_include_of_no_directory_is_refused_by_the_library_too(monkeypatch):
    """The API refuses TCRAW_CUDA_INCLUDE where the CLI does (validate.env_dirs, one parse of it)."""
    from tcraw import UsageError, compiler
    monkeypatch.setenv("TCRAW_CUDA_INCLUDE", "/nonexistent/include")
    with pytest.raises(UsageError, match="/nonexistent/include is not a directory"):
        compiler.find_include_dirs()


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here to make standard output fail")
def test_standard_output_that_fails_is_a_one_line_error_not_a_bug():
    """A full disk behind standard output is the machine's failure: exit 2 and a line, not 70 — with
    standard output buffered (where the write fails at the last flush) or not."""
    for unbuffered in ("", "1"):
        env = {**os.environ, "PYTHONUNBUFFERED": unbuffered}
        with open("/dev/full", "w") as full:
            p = subprocess.run([sys.executable, "-m", "tcraw", "list"], stdout=full, stderr=subprocess.PIPE,
                               text=True, timeout=120, env=env)
        assert p.returncode == 2, p.stderr
        assert p.stderr.strip().splitlines() == ["tcraw: could not write the output: No space left on device"]


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_a_standard_output_without_the_tables_characters_gets_them_escaped(encoding):
    """× → µ on an ASCII or Latin-1 standard output: escaped, as Python escapes standard error's —
    never exit 70 after the work (a run's rows would be lost with it)."""
    for fmt in ("table", "csv"):
        p = subprocess.run([sys.executable, "-m", "tcraw", "list", "--format", fmt], capture_output=True,
                           timeout=120, env={**os.environ, "PYTHONIOENCODING": encoding})
        assert p.returncode == 0, p.stderr
        assert b"wmma_fp16" in p.stdout and (b"\\u2192" in p.stdout or b"\\xd7" in p.stdout)


def test_the_compile_table_counts_unbuildable_configurations_and_says_each_nvrtc_fix(capsys):
    """The table (not JSON): 06's configurations that cannot build for an arch asked for are
    counted, not listed; an arch this NVRTC cannot target gets its row's fix, whole, once."""
    from tcraw.cli import _print_compile_rows
    fix = "sm_70 is not supported by the installed NVRTC 13.5 (it targets sm_75, ...); sm_70 needs NVRTC 12: do X"
    rows = [{"kernel": "k", "arch": "sm_70", "status": "unsupported-by-nvrtc", "detail": fix},
            {"kernel": "j", "arch": "sm_70", "status": "unsupported-by-nvrtc", "detail": fix},
            {"kernel": "w[BN=128]", "arch": "sm_80", "status": "arch-specific", "detail": "built for sm_90a"},
            {"kernel": "w", "arch": "sm_80", "status": "arch-specific", "detail": "built for sm_90a"}]
    _print_compile_rows(rows, "table", {"k", "j", "w"})
    out, err = capsys.readouterr()
    assert "w[BN=128]" not in out and "\nw " in out and "sm_70 is not supported by the installed NVRTC 13.5" in out
    assert err.count(f"tcraw compile: {fix}") == 1 and "1 row of configurations that cannot be built" in err
    _print_compile_rows(rows, "json", {"k", "j", "w"})
    out, err = capsys.readouterr()
    assert len(json.loads(out)) == 4 and not err
    _print_compile_rows(rows[:2], "table", {"k", "j"}, said=fix)   # (all unbuildable: the error says it once)
    assert "tcraw compile: sm_70" not in capsys.readouterr().err


def test_a_closed_standard_output_is_no_error():
    """`tcraw list >&-`: nothing to write to, nothing lost — exit 0, not a bug's 70."""
    p = subprocess.run([sys.executable, "-m", "tcraw", "list"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True, timeout=120, preexec_fn=lambda: os.close(1))
    assert p.returncode == 0 and not p.stderr, p.stderr


def test_archs_and_shapes_read_as_their_tools_print_them():
    """9.0 (nvidia-smi's compute_cap) is sm_90; a shape row is three fields, an empty one refused."""
    from tcraw.bench import shape_row
    assert [str(compiler.Arch.parse(t)) for t in ("9.0", "8.6", "12.0", "sm_90a")] == ["sm_90", "sm_86", "sm_120",
                                                                                      "sm_90a"]
    rows = ("64 32 16", "64,32,16", "64x32x16", " 64 × 32 × 16 ", "64, 32, 16")
    assert {shape_row(t) for t in rows} == {(64, 32, 16)}
    for bad in ("1,,2,3", "x1x2x3", "1x2x3x", "64,64", "a,b,c"):
        with pytest.raises(UsageError, match="is not a shape"):
            shape_row(bad)


def test_a_typo_is_answered_with_the_nearest_names():
    """A kernel, a precision or a suite misspelled: the nearest names beside the list (by the CLI
    and by tcraw's tables alike — KERNELS["typo"] is a KeyError that is also a UsageError)."""
    import tcraw
    for argv, near in ((["run", "--kernel", "wmma_fp61"], "did you mean wmma_fp64 or wmma_fp16?"),
                       (["run", "--precision", "FP16"], "did you mean fp16?"),
                       (["bench", "--shapes", "LLM"], "did you mean llm?")):
        with pytest.raises(tcraw.UsageError, match=re.escape(near)):
            main_raises(argv)
    for table, key, near in ((tcraw.KERNELS, "wmma_bf61", "wmma_bf16"), (tcraw.PRECISIONS, "tf23", "tf32"),
                             (tcraw.SUITES, "squares", "square")):
        with pytest.raises(KeyError) as exc:
            table[key]
        assert isinstance(exc.value, tcraw.UnknownName) and f"did you mean {near}" in str(exc.value)
        assert str(exc.value).startswith("unknown ")


def test_precision_selects_by_family_or_by_one_precisions_key():
    """--precision fp16 is the family (fp16acc16's kernel too); fp16acc16 or fp8e4m3 — the key
    `tcraw list` shows — that precision's kernels alone."""
    fam = {k.name for k in kernels.select(None, ["fp16"])}
    key = {k.name for k in kernels.select(None, ["fp16acc16"])}
    assert "wmma_fp16acc16" in fam and "wmma_fp16" in fam
    assert key == {"wmma_fp16acc16", kernels.BASELINE}
    e4m3 = [k for k in kernels.select(None, ["fp8e4m3"]) if k.name != kernels.BASELINE]
    assert e4m3 and all(k.precision.key == "fp8e4m3" for k in e4m3)
    with pytest.raises(UsageError, match="kernel wmma_fp16 is fp16, which --precision fp16acc16 leaves out"):
        kernels.select(["wmma_fp16"], ["fp16acc16"])
    # extra: None is none, a generator is read once (its kernels kept), anything but Kernels refused
    assert kernels.select(None, ["fp16"], None) == kernels.select(None, ["fp16"])
    mine = kernels.user_kernel(compiler.CUDA_SRC.parent / "examples" / "edge_bug.cu", "edge_bug", "fp16",
                               block=(16, 16), name="mine")
    assert [k.name for k in kernels.select(None, ["fp16"], (k for k in [mine]))] == ["mine"]
    with pytest.raises(UsageError, match="extra is a list of tcraw Kernels"):
        kernels.select(None, None, ["wmma_fp16"])


def main_raises(argv):
    """main's UsageError raised, not printed: the CLI's parse and checks, by the library's type."""
    from tcraw import cli
    args = cli.build_parser().parse_args(argv)
    args.fn(args)


def test_a_cubin_dir_with_no_cubins_is_refused_before_the_gpu(tmp_path, capsys):
    assert main(["run", "--cubin-dir", str(tmp_path)]) == 2
    assert "holds no .cubin files" in capsys.readouterr().err


def test_a_spec_kernel_that_cannot_work_is_refused_at_load(tmp_path, capsys):
    spec = tmp_path / "bad.py"
    spec.write_text("from tcraw import Kernel, tile_geometry\n"
                    "KERNELS = [Kernel(name='k', source='k.cu', entry='k', precision='fp16', min_arch=70,\n"
                    "                  tile=(0, 16, 16), geometry=tile_geometry((32, 1, 1), (16, 16)))]\n")
    assert main(["compile", "--spec", str(spec)]) == 2
    assert "tile must be three whole numbers" in capsys.readouterr().err
    spec.write_text(spec.read_text().replace("(0, 16, 16)", "(16, 16, 16)").replace("name='k'", "name='a,b'"))
    assert main(["compile", "--spec", str(spec)]) == 2
    assert "kernel name 'a,b'" in capsys.readouterr().err
    good = spec.read_text().replace("name='a,b'", "name='k'")
    for old, wrong, needle in (("precision='fp16'", "precision=16", "precision is a key such as \"fp16\""),
                               ("min_arch=70,", "min_arch=70, include_dirs=(5,),", "include_dirs is a tuple"),
                               ("min_arch=70,", "min_arch=70, defines=128,", "defines is a tuple")):
        spec.write_text(good.replace(old, wrong))
        for command in ("list", "compile"):   # (list read the precision's label: exit 70 before)
            assert main([command, "--spec", str(spec)]) == 2, wrong
            assert needle in capsys.readouterr().err
    # lists and paths are taken where tuples of text are written
    spec.write_text(good.replace("min_arch=70,", "min_arch=70, include_dirs=[pathlib.Path('inc')], defines=['X=1'],")
                    .replace("from tcraw", "import pathlib\nfrom tcraw"))
    (tmp_path / "inc").mkdir()
    assert main(["compile", "--spec", str(spec), "--arch", "sm_80"]) == 2   # (its source is not there yet:
    assert "kernel k's source" in capsys.readouterr().err                     # a refused row)
    (tmp_path / "k.cu").write_text('extern "C" __global__ void k() {}\n')
    assert main(["list", "--spec", str(spec)]) == 0, capsys.readouterr().err
    (k,) = kernels.load_spec(spec)
    assert k.include_dirs == (str(tmp_path / "inc"),) and k.defines == ("X=1",)


def test_a_kernel_built_in_python_is_not_sent_to_a_child(capsys):
    """A child process cannot declare a Kernel made in Python: isolation refuses it up front."""
    from tcraw import Kernel, UsageError, run_problem, tile_geometry
    mine = Kernel(name="mine", source="01_naive_fp32.cu", entry="naive_fp32", precision="fp32", min_arch=50,
                  tile=(1, 1, 1), geometry=tile_geometry((16, 16, 1), (16, 16)))
    with pytest.raises(UsageError, match="built in Python"):
        run_problem(0, [mine], (16, 16, 16), isolate=True, open_device=lambda i: pytest.fail("opened"))


def test_check_without_compute_sanitizer_is_refused_before_the_battery(monkeypatch, capsys):
    import tcraw.check as check
    import tcraw.cli as cli
    monkeypatch.setattr(check, "find_sanitizer", lambda: None)
    monkeypatch.setattr(cli, "_open_device", lambda *_: pytest.fail("the GPU was opened"))
    assert main(["check", "--kernel", "naive_fp32", "--sanitize"]) == 3   # (the machine lacks a tool, like ncu)
    assert "compute-sanitizer" in capsys.readouterr().err


def test_cache_clear_says_how_many_entries_and_files_it_removed(monkeypatch, capsys, tmp_path):
    """`cache info` counts entries; `cache clear` says the entries too, beside the files it
    removed (an entry's SASS counts are a file of their own), so the two read alike."""
    monkeypatch.setenv("TCRAW_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("TCRAW_NO_CACHE", raising=False)
    assert main(["compile", "--kernel", "naive_fp32", "--arch", "sm_80", "--format", "json"]) == 0
    capsys.readouterr()
    assert main(["cache", "info", "--format", "json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert main(["cache", "clear", "--format", "json"]) == 0
    cleared = json.loads(capsys.readouterr().out)
    assert info["entries"] == cleared["entries"] == 1 and cleared["removed"] >= 1
    assert main(["cache", "info", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["entries"] == 0
    # the library's own: the same report, a directory of its own, and a bad action named
    import tcraw
    assert tcraw.cache_report() == {**info, "entries": 0, "bytes": 0}
    assert tcraw.cache_report("info", tmp_path / "none")["entries"] == 0
    with pytest.raises(tcraw.UsageError, match="actions are info and clear, not 'purge'"):
        tcraw.cache_report("purge")
