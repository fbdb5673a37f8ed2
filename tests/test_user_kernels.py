"""Your own kernel: spec files and flags build the same Kernel objects; compile needs no GPU (CPU),
check judges them on the GPU (skipped with the reason without one)."""

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import tcraw
from tcraw import kernels
from tcraw.cli import main

ROOT = Path(__file__).resolve().parent.parent
GOOD, BUGGY = ROOT / "examples" / "wmma_smem_64.py", ROOT / "examples" / "edge_bug.py"


def test_specs_load_and_compile_to_tensor_instructions(capsys):
    (good,), (buggy,) = kernels.load_spec(GOOD), kernels.load_spec(BUGGY)
    assert good.precision.key == "fp16" and good.tile == (64, 64, 32) and buggy.tile == (1, 1, 1)
    assert good.geometry(128, 192, 64) == tcraw.Geometry((3, 2, 1), (128, 1, 1))
    assert main(["compile", "--spec", str(GOOD), "--arch", "sm_80,sm_90", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["status"] for r in rows] == ["ok", "ok"] and all(r["spill_bytes"] == 0 for r in rows)
    if rows[0].get("sass") is not None:   # with cuobjdump (the dev extra): the tensor cores are used
        assert rows[0]["sass"].get("HMMA", 0) > 0


def test_flags_declare_the_same_kernel_as_a_spec():
    (spec,) = kernels.load_spec(BUGGY)
    flags = kernels.user_kernel(ROOT / "examples" / "edge_bug.cu", "edge_bug", "fp16", block=(16, 16),
                                block_tile=(16, 16), name="student_edge_bug")
    for field in ("name", "source", "entry", "precision", "tile"):
        assert getattr(flags, field) == getattr(spec, field), field
    assert flags.geometry(33, 17, 5) == spec.geometry(33, 17, 5)
    # the flags a child process needs to declare it again (--isolate, check)
    assert "--source" in flags.origin and spec.origin[0] == "--spec"


@pytest.mark.parametrize("argv,needle", [
    (["compile", "--spec", "/nonexistent.py"], "does not exist"),
    (["run", "--source", "x.cu", "--entry", "f", "--block", "16", "--precision", "fp32"], "x.cu is not a file"),
    (["run", "--entry", "f"], "give --source too"),
    (["compile", "--source", str(ROOT / "examples" / "edge_bug.cu"), "--entry", "edge_bug"], "--block"),
    (["compile", "--source", str(ROOT / "examples" / "edge_bug.cu"), "--entry", "edge_bug",
      "--block", "16,0", "--precision", "fp16"], "--block"),
    (["run", "--source", str(ROOT / "examples" / "edge_bug.cu"), "--entry", "edge_bug", "--precision", "fp16",
      "--block", "2000"], "at most 1024 threads"),
    (["compile", "--source", str(ROOT / "examples" / "edge_bug.cu"), "--entry", "edge_bug", "--precision", "fp16",
      "--block", "32,32,2"], "at most 1024 threads"),
    (["run", "--source", str(ROOT / "examples" / "edge_bug.cu"), "--entry", "edge_bug", "--precision", "fp16",
      "--block", "16", "--smem", "99999999999"], "dynamic shared memory (--smem, smem_bytes=) is a whole number"),
    (["run", "--source", str(ROOT / "examples" / "edge_bug.cu"), "--entry", "edge_bug", "--precision", "fp16",
      "--block", "16", "--tile", "99999999999,1,1"], "below 2^31"),
    (["bench", "--spec", str(ROOT / "examples" / "wmma_smem_64.py"), "--precision", "fp32"],
     "none of the user kernels is fp32 (they are fp16)"),
    (["compile", "--source", str(ROOT / "examples" / "edge_bug.cu"), "--entry", "edge_bug", "--precision", "fp16",
      "--block", "16", "--define", "1BAD=3"], "NAME a C identifier"),
    (["compile", "--source", str(ROOT / "examples" / "edge_bug.cu"), "--entry", "edge_bug", "--precision", "fp16",
      "--block", "16", "--define", "A B=3"], "NAME a C identifier"),
    (["compile", "--source", str(ROOT / "examples" / "edge_bug.cu"), "--entry", "edge_bug", "--precision", "fp16",
      "--block", "16", "--define", "A=1\nB"], "on one line"),   # (NVRTC refuses it: every arch's compile failed)
    (["compile", "--source", str(ROOT / "examples" / "edge_bug.cu"), "--entry", "edge_bug", "--precision", "fp16",
      "--block", "16", "--smem", "-1"], "--smem is the dynamic shared memory in bytes, 0 or more (got -1)"),
    (["compile", "--source", str(ROOT / "examples" / "edge_bug.cu"), "--entry", "edge_bug", "--precision", "fp16",
      "--block", "16", "--min-arch", "7"], "--min-arch '7': write a compute capability such as 80"),
    (["compile", "--source", str(ROOT / "examples" / "edge_bug.cu"), "--entry", "edge_bug", "--precision", "fp16",
      "--block", "16", "--min-arch", "999"], "--min-arch is a compute capability from 50 to 200"),
    (["check"], "name the kernel"),
    (["check", "--kernel", "naive_fp32", "--shapes", "1,2"], "--shapes"),
    (["check", "--kernel", "naive_fp32", "--timeout", "0"], "--timeout"),
])
def test_bad_user_kernel_declarations_are_exit_2(argv, needle, capsys):
    assert main(argv) == 2
    assert needle in capsys.readouterr().err


@pytest.mark.parametrize("block,block_tile,smem", [((2048, 1, 1), (16, 16), 0), ((16, 16, 1, 1), (16, 16), 0),
                                                    (("16", 1, 1), (16, 16), 0), ((16, 1, 1), (0, 16), 0),
                                                    ((16, 1, 1), (16, 16), -5), ((16, 1, 1), (16, 16), 1.5),
                                                    ((1, 1, 65), (16, 16), 0)])
def test_a_geometry_no_gpu_can_launch_is_refused_where_it_is_declared(block, block_tile, smem):
    """tile_geometry (specs and --source flags alike): a block of more than 1024 threads or z > 64,
    a block tile or block not whole numbers ≥ 1, shared memory below 0 or above any block's — a
    UsageError on any machine, not a launch error on the GPU."""
    with pytest.raises(tcraw.UsageError):
        kernels.tile_geometry(block, block_tile, smem)


def test_a_geometry_function_giving_more_shared_memory_than_any_block_has_is_the_declarations_fault(tmp_path):
    """A spec's own geometry() is held to tile_geometry's limits where it is read: 10^9 bytes of
    shared memory is refused by load_spec and compile on any machine, not met at a launch."""
    (tmp_path / "big.py").write_text(
        "from tcraw import Geometry, Kernel\n"
        f"KERNELS = [Kernel(name='big', source={str(ROOT / 'examples' / 'edge_bug.cu')!r}, entry='edge_bug', "
        "precision='fp16', min_arch=75, tile=(1, 1, 1), geometry=lambda m, n, k: Geometry((1, 1, 1), (16, 16, 1), "
        "10**9))]\n")
    with pytest.raises(tcraw.UsageError, match=r"smem_bytes from 0 to 232448 \(the most any GPU gives a block"):
        tcraw.load_spec(tmp_path / "big.py")


def test_what_a_kernel_list_cannot_mean_is_refused_before_any_gpu(tmp_path):
    """Two different kernels of one name (select would keep one; a child runs one by name), and a
    source NVRTC would read only in part (a 0xFF byte): refused by select and run_problem before a
    GPU is opened — a UsageError on any machine. The same build twice is one kernel."""
    edge = ROOT / "examples" / "edge_bug.cu"
    mine = kernels.user_kernel(edge, "edge_bug", "fp16", block=(16, 16), name="same")
    again = kernels.user_kernel(edge, "edge_bug", "fp16", block=(16, 16), name="same")
    other = kernels.user_kernel(edge, "edge_bug", "fp16", block=(16, 16), name="same", defines=("X=1",))
    assert [k.name for k in tcraw.select(["same"], extra=[mine, again])] == ["same"]
    for call in (lambda: tcraw.select(["same"], extra=[mine, other]),
                 lambda: tcraw.run_problem(0, [mine, other], (64, 64, 64), open_device=pytest.fail)):
        with pytest.raises(tcraw.UsageError, match="two different kernels are named 'same'; give each its own"):
            call()
    latin = tmp_path / "latin.cu"
    latin.write_bytes(b"// \xff\n" + edge.read_bytes())
    with pytest.raises(tcraw.UsageError, match="holds a 0xFF byte at offset 3"):
        tcraw.run_problem(0, [kernels.user_kernel(latin, "edge_bug", "fp16", block=(16, 16))], (64, 64, 64),
                          open_device=pytest.fail)
    # what the source refuses on any arch — an entry it lacks, parameters a launch does not pass
    for entry, refusal in (("nope", "has no entry 'nope'; its kernels are: edge_bug"), ("edge_bug", "takes 4")):
        src = edge if entry == "nope" else tmp_path / "four.cu"
        if entry == "edge_bug":
            src.write_text('#include <cuda_fp16.h>\nextern "C" __global__ void edge_bug(const __half* A, '
                           "const __half* B, float* C, int M) {}\n")
        for call in (lambda k: tcraw.run_problem(0, [k], (64, 64, 64), open_device=pytest.fail),
                     lambda k: tcraw.check_kernels(0, [k], open_device=pytest.fail),
                     lambda k: tcraw.bench_plan(0, None, [64], extra=[k]),
                     lambda k: tcraw.run_profile(k, (64, 64, 64), ncu="/nonexistent/ncu", run=pytest.fail)):
            with pytest.raises(tcraw.UsageError, match=refusal):
                call(kernels.user_kernel(src, entry, "fp16", block=(16, 16)))


def test_a_users_kernel_that_does_not_compile_is_said_before_the_gpu_and_left_to_its_rows(tmp_path):
    """A compile error is no refusal of the request: run notes it first (NVRTC's first error, its
    file and line) and goes on — here to the GPU it does not find; there its rows carry it."""
    src = tmp_path / "broken.cu"
    src.write_text('extern "C" __global__ void mm(const float* A, const float* B, float* C, int M, int N, int K) '
                   "{ C[0] = 1 }\n")
    said = []

    def no_gpu(index):
        raise tcraw.NoDeviceError("no GPU here")
    with pytest.raises(tcraw.NoDeviceError):
        tcraw.run_problem(0, [kernels.user_kernel(src, "mm", "fp32", block=(16,))], (64, 64, 64), note=said.append,
                          open_device=no_gpu)
    assert len(said) == 1 and said[0].startswith("mm: does not build here — ") and "broken.cu(1): error" in said[0]


def test_a_spec_may_list_the_registrys_06_under_names_of_its_own(tmp_path, capsys):
    """A spec listing kernels.wgmma_kernel(...) — the pick, and one configuration fixed — compiles
    (its source is cuda_src's, not a file beside the spec), and the pick's configurations run and
    record under the spec's name and origin, not the registry's."""
    spec = tmp_path / "sixes.py"
    spec.write_text("from tcraw import kernels\n"
                    "KERNELS = [kernels.wgmma_kernel('fp16', name='my_pick'),\n"
                    "           kernels.wgmma_kernel('fp16', {**kernels.WGMMA_TILE, 'BN': 128}, name='my_128',"
                    " choose=False)]\n")
    pick, fixed = kernels.load_spec(spec)
    assert Path(pick.source) == ROOT / "cuda_src" / "06_wgmma_tma_hopper.cu" == Path(fixed.source)
    configured = pick.configured(1024, 1024, 8192, 132)
    assert configured.variant and configured.name == "my_pick" and configured.origin == ("--spec", str(spec))
    assert configured.file_stem == f"my_pick[{configured.variant}]" and configured.source == pick.source
    assert {c.name for c in pick.configurations()} == {"my_pick"}
    assert main(["compile", "--spec", str(spec), "--arch", "sm_90a", "--format", "json"]) == 0
    assert [r["status"] for r in json.loads(capsys.readouterr().out)] == ["ok", "ok"]
    # the fixed one alone: its rows are my_128[BN=128] — built (0), or refused for sm_80 (2)
    assert main(["compile", "--spec", str(spec), "--kernel", "my_128", "--arch", "sm_90"]) == 0
    assert main(["compile", "--spec", str(spec), "--kernel", "my_128", "--arch", "sm_80"]) == 2
    assert "built for sm_90a" in capsys.readouterr().err
    # renamed in Python, not declared so: each configuration still runs and records as the copy
    from dataclasses import replace
    copy = replace(kernels.KERNELS["wgmma_tma_fp16"], name="renamed")
    assert copy.configured(512, 512, 32768, 132).name == "renamed"
    assert {c.name for c in copy.configurations()} == {"renamed"}
    # a file of that name beside the spec is the spec's own, not tcraw's
    (tmp_path / "06_wgmma_tma_hopper.cu").write_text("// the spec's own\n")
    assert kernels.load_spec(spec)[0].source == str(tmp_path / "06_wgmma_tma_hopper.cu")
    # a relative source that is neither beside the spec nor tcraw's is named beside the spec
    (tmp_path / "missing.py").write_text(
        "import tcraw\nKERNELS = [tcraw.Kernel(name='f', source='nowhere.cu', entry='f', precision='fp16',"
        " min_arch=70, tile=(1, 1, 1), geometry=tcraw.tile_geometry((32, 1, 1), (32, 1)))]\n")
    assert main(["compile", "--spec", str(tmp_path / "missing.py")]) == 2
    assert str(tmp_path / "nowhere.cu") in capsys.readouterr().err
    (tmp_path / "long.py").write_text(                     # a name no file system takes: refused, not raised
        "import tcraw\nKERNELS = [tcraw.Kernel(name='f', source='" + "x" * 300 + ".cu', entry='f', precision='fp16',"
        " min_arch=70, tile=(1, 1, 1), geometry=tcraw.tile_geometry((32, 1, 1), (32, 1)))]\n")
    assert main(["compile", "--spec", str(tmp_path / "long.py")]) == 2
    assert "kernel f's source" in (err := capsys.readouterr().err) and "is not a file" in err


def test_a_spec_that_raises_or_sets_nothing_is_named(tmp_path, capsys):
    bad = tmp_path / "bad.py"
    bad.write_text("raise RuntimeError('oops')\n")
    assert main(["compile", "--spec", str(bad)]) == 2
    assert "bad.py failed to load (line 1): RuntimeError: oops" in capsys.readouterr().err   # (its line named)
    bad.write_text("KERNELS = []\n")
    assert main(["compile", "--spec", str(bad)]) == 2
    assert "non-empty list" in capsys.readouterr().err
    # tcraw's own refusal of what the spec asks for names the file too
    bad.write_text("from tcraw import kernels\nKERNELS = [kernels.wgmma_kernel('fp16', {'SWAP_AB': 1, 'BN': 88, "
                   "'CLUSTER': 4}, name='mine', choose=False)]\n")
    assert main(["compile", "--spec", str(bad)]) == 2
    assert re.search(r"spec file .*bad\.py \(line 2\): SWAP_AB=1 takes BN \(M's tile\) a multiple of 16 ",
                     capsys.readouterr().err)
    # macros of the kernel's own that one of the configurations it picks from cannot take: named, with it
    bad.write_text("from tcraw import kernels\nKERNELS = [kernels.wgmma_kernel('fp16', {'A_ROWS': 64}, name='mine')]\n")
    assert main(["compile", "--spec", str(bad), "--arch", "sm_90a", "--out", str(tmp_path / "out")]) == 2
    assert re.search(r"declared with A_ROWS=64 of its own\) — in mine's configuration \S+, one of those it picks",
                     capsys.readouterr().err)


def test_a_compile_error_shows_nvrtc_log_against_the_users_file(tmp_path, capsys):
    src = tmp_path / "mine.cu"
    src.write_text('extern "C" __global__ void mine(const float* A, const float* B, float* C, int M, int N, int K) {\n'
                   "    C[0] = undeclared;\n}\n")
    rc = main(["compile", "--source", str(src), "--entry", "mine", "--block", "32", "--precision", "fp32",
               "--arch", "sm_90"])
    err = capsys.readouterr().err
    assert rc == 1 and re.search(r"mine\.cu\(2\): error: identifier \"undeclared\" is undefined", err), err


def test_a_missing_entry_lists_the_cubins_entries(tmp_path, capsys):
    src = tmp_path / "two.cu"
    src.write_text('extern "C" __global__ void alpha(float* x) {}\nextern "C" __global__ void beta(float* x) {}\n')
    assert main(["compile", "--source", str(src), "--entry", "gamma", "--block", "32", "--precision",
                 "fp32", "--arch", "sm_90"]) == 2
    err = capsys.readouterr().err
    assert "no entry 'gamma'" in err and "alpha, beta" in err


def test_every_public_name_has_a_docstring():
    import inspect
    for name in tcraw.__all__:
        obj = getattr(tcraw, name)
        if inspect.isfunction(obj) or inspect.isclass(obj):
            assert (obj.__doc__ or "").strip() and not obj.__doc__.startswith(f"{name}("), name


def readme_python_blocks():
    text = (ROOT / "README.md").read_text()
    return re.findall(r"```python\n(.*?)```", text, re.S)


def test_the_readme_has_python_examples():
    assert len(readme_python_blocks()) >= 2


@pytest.mark.gpu
@pytest.mark.parametrize("block", readme_python_blocks(), ids=lambda b: b.splitlines()[-1][:40])
def test_readme_python_examples_run(device, block):
    p = subprocess.run([sys.executable, "-c", block], capture_output=True, text=True, timeout=600,
                       cwd=ROOT, env={**__import__("os").environ, "TCRAW_BACKEND": device.drv.name})
    assert p.returncode == 0, p.stderr[-3000:]


@pytest.mark.gpu
def test_check_passes_the_correct_example_and_catches_the_bug_by_its_guard_band(device):
    def check(spec):
        p = subprocess.run([sys.executable, "-m", "tcraw", "check", "--spec", str(spec), "--backend",
                            device.drv.name, "--format", "json", "--seed", "5"],
                           capture_output=True, text=True, timeout=900)
        return p.returncode, json.loads(p.stdout) if p.stdout.strip() else [], p.stderr
    rc, rows, err = check(GOOD)
    assert rc == 0 and rows and all(r["passed"] for r in rows), err[-2000:]
    rc, rows, err = check(BUGGY)
    caught = [r for r in rows if r.get("out_of_bounds")]
    assert rc == 1 and caught, err[-2000:]
    m, n = caught[0]["m"], caught[0]["n"]
    assert caught[0]["out_of_bounds"].startswith("C: ")
    assert f"first at byte offset {m * n * 4} (past its end; element index {m * n})" in caught[0]["out_of_bounds"]


@pytest.mark.gpu
def test_a_hang_is_reported_as_a_hang(device, tmp_path):
    src = tmp_path / "spin.cu"
    src.write_text('extern "C" __global__ void spin(const float* A, const float* B, float* C, int M, int N, int K) {\n'
                   '    for (;;) asm volatile("nanosleep.u32 1000;");\n}\n')
    p = subprocess.run([sys.executable, "-m", "tcraw", "check", "--source", str(src), "--entry", "spin",
                        "--block", "32", "--precision", "fp32", "--shapes", "4,4,4", "--timeout", "20",
                        "--backend", device.drv.name, "--format", "json"],
                       capture_output=True, text=True, timeout=300)
    rows = json.loads(p.stdout)
    assert p.returncode == 1 and "hang" in (rows[0]["error"] or ""), (rows[0], p.stderr[-2000:])


@pytest.mark.gpu
def test_a_launch_that_does_not_match_the_signature_is_refused(device):
    from tcraw.errors import UsageError
    cubin = tcraw.compile_source('extern "C" __global__ void k(float* x, int n) { if (n) x[0] = 1; }\n', device.arch)
    with tcraw.Module(device, cubin.image) as mod, tcraw.DeviceBuffer(device, 64, np.float32) as buf:
        fn = mod.function("k")
        with pytest.raises(UsageError, match="takes 2 arguments"):
            tcraw.launch(fn, (1, 1, 1), (1, 1, 1), [buf])
        with pytest.raises(UsageError, match="argument 1 of k is 4 bytes"):
            tcraw.launch(fn, (1, 1, 1), (1, 1, 1), [buf, np.int64(1)])
        with pytest.raises(UsageError, match="threads"):
            tcraw.launch(fn, (1, 1, 1), (2048, 1, 1), [buf, np.int32(1)])
        with pytest.raises(tcraw.CubinError, match="it has: k"):
            mod.function("nope")


@pytest.mark.gpu
def test_sanitize_sees_the_stray_write_that_the_guard_band_caught(device):
    from tcraw.check import find_sanitizer
    if not find_sanitizer():
        pytest.skip("no compute-sanitizer (CUDA_HOME/bin or PATH)")
    p = subprocess.run([sys.executable, "-m", "tcraw", "check", "--spec", str(BUGGY), "--shapes", "7,13,31",
                        "--sanitize", "--backend", device.drv.name, "--format", "json"],
                       capture_output=True, text=True, timeout=600)
    rows = {r["case"].split(" (")[0]: r for r in json.loads(p.stdout)}
    assert p.returncode == 1
    assert rows["normal 7×13×31"]["out_of_bounds"].startswith("C: 52 byte(s)")
    assert not rows["compute-sanitizer memcheck"]["passed"], rows["compute-sanitizer memcheck"]


def test_list_shows_a_users_kernels_after_the_registry(capsys):
    assert main(["list", "--spec", str(GOOD), "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["name"] for r in rows] == [*kernels.KERNELS, "student_wmma_64"]


def test_an_isolated_checks_extras_child_names_no_empty_shapes():
    """The last child of an isolated check runs only the rerun and NaN/Inf cases: it says so with
    --extras-only, which the CLI takes, and not with an empty --shapes (refused as a mistake)."""
    from tcraw.check import child_command
    from tcraw.cli import build_parser
    cmd = child_command(kernels.KERNELS["naive_fp32"], 0, [], 5, True)
    assert "--extras-only" in cmd and "--shapes" not in cmd
    args = build_parser().parse_args(cmd[3:])
    assert args.extras_only and args.shapes is None
    assert "--shapes" in child_command(kernels.KERNELS["naive_fp32"], 0, [(3, 4, 5)], 5, False)


def test_no_sanitizer_run_without_shapes():
    """An isolated check's extras are not sanitizer cases: with no shapes there is nothing to run
    (and no child command that the CLI would refuse)."""
    from tcraw.check import run_sanitizer
    assert run_sanitizer(kernels.KERNELS["naive_fp32"], 0, [], 5) == []


def test_a_function_like_define_reaches_nvrtc(capsys):
    """--define takes NAME, NAME=VALUE and a function-like macro's NAME(ARGS)=VALUE, as NVRTC's -D
    does (only names that are no C identifier are refused, before NVRTC)."""
    argv = ["compile", "--source", str(ROOT / "examples" / "edge_bug.cu"), "--entry", "edge_bug", "--precision",
            "fp16", "--block", "16,16", "--block-tile", "16,16", "--arch", "sm_90", "--define", "SQR(x)=((x)*(x))",
            "--define", "ONE=1", "--define", "FLAG"]
    assert main(argv) == 0, capsys.readouterr().err


def test_bench_keeps_a_specs_kernels_of_the_precisions_asked(tmp_path, capsys):
    """A spec with kernels of two precisions benched for one of them: the others are left out, as
    run and sweep leave them out (none left: refused by name, as they refuse it)."""
    from tcraw import bench
    two = tmp_path / "two.py"
    two.write_text("from tcraw import Kernel, tile_geometry\n"
                   f"KERNELS = [Kernel(name='mine_' + p, source={str(ROOT / 'examples' / 'edge_bug.cu')!r}, "
                   "entry='edge_bug', precision=p, min_arch=70, tile=(1, 1, 1), "
                   "geometry=tile_geometry((16, 16, 1), (16, 16))) for p in ('fp16', 'bf16')]\n")
    extra = kernels.load_spec(two)

    class Opened(Exception):
        pass

    def open_device(index):
        raise Opened   # past every check made before the GPU
    with pytest.raises(Opened):
        bench.bench_vs_cublas(0, ["fp16"], [64], extra=extra, open_device=open_device)
    with pytest.raises(tcraw.UsageError, match="none of the user kernels is fp32"):
        bench.bench_vs_cublas(0, ["fp32"], [64], extra=extra, open_device=open_device)


WMMA_SPEC = ("from tcraw import Kernel, tile_geometry\n"
             "base = dict(source='{src}', precision='fp16', min_arch=70, tile=(64, 64, 32), align=32,\n"
             "            geometry=tile_geometry(block=(128, 1, 1), block_tile=(64, 64)))\n")


@pytest.mark.parametrize("field,value", [("align", 0), ("align", 3), ("align", "32"), ("cluster", 0), ("cluster", 17),
                                         ("pitch", -1), ("pitch", 24), ("b_layouts", ()), ("b_layouts", ("diag",)),
                                         ("b_layouts", "col"), ("max_m", -3), ("workspace", 5), ("tile", (1, 1, 2**31))])
def test_every_field_a_launch_does_arithmetic_with_is_checked_where_it_is_declared(field, value):
    """A pointer modulo align, SMs modulo cluster, B's layout looked up in b_layouts: a wrong value
    would fail in the launch, far from the spec that set it (and lose the other kernels' rows)."""
    base = kernels.KERNELS["naive_fp32"]
    with pytest.raises(tcraw.UsageError, match=field):
        tcraw.Kernel(**{**{f: getattr(base, f) for f in ("name", "source", "entry", "precision", "min_arch", "tile",
                                                         "geometry")}, field: value})


@pytest.mark.parametrize("geometry,needle", [("lambda m, n, k: (1, 1, 1)", "gave (1, 1, 1)"),
                                             ("lambda: 3", "raised TypeError"),
                                             ("lambda m, n, k: Geometry((1, 1, 1), (2048, 1, 1))", "1024 threads")])
def test_a_spec_whose_geometry_gives_no_launch_is_refused_when_it_loads(tmp_path, capsys, geometry, needle):
    (tmp_path / "k.cu").write_text('extern "C" __global__ void k(float* c) {}\n')
    spec = tmp_path / "spec.py"
    spec.write_text("from tcraw import Geometry, Kernel\n"
                    f"KERNELS = [Kernel(name='k', source='k.cu', entry='k', precision='fp32', min_arch=70, "
                    f"tile=(1, 1, 1), geometry={geometry})]\n")
    assert main(["compile", "--spec", str(spec), "--arch", "sm_80"]) == 2
    err = capsys.readouterr().err
    assert f"spec file {spec}: kernel k: its geometry" in err and needle in err, err


def test_a_grid_past_a_devices_limits_is_the_problems_not_the_declarations():
    """A problem too tall for grid.y is left to the launch (runtime.check_geometry names the device's
    limit): geometry_at refuses only what no problem could launch."""
    g = kernels.KERNELS["naive_fp32"].launch_geometry(2**20, 64, 64, 132)
    assert g.grid[1] > 65535


def test_one_kernels_refusal_keeps_the_others_rows_and_cubins(tmp_path, capsys):
    """A kernel whose cubin disowns its declaration (no such entry) is a "refused" row, exit 2 —
    the other kernels still build, and --out still gets their cubins and the manifest."""
    spec = tmp_path / "two.py"
    spec.write_text(WMMA_SPEC.format(src=ROOT / "examples" / "wmma_smem_64.cu")
                    + "KERNELS = [Kernel(name='good', entry='wmma_smem_64', **base),\n"
                      "           Kernel(name='bad', entry='nothere', **base)]\n")
    out = tmp_path / "cubins"
    assert main(["compile", "--spec", str(spec), "--arch", "sm_80", "--out", str(out), "--format", "json"]) == 2
    captured = capsys.readouterr()
    assert "kernel bad:" in captured.err and "no entry 'nothere'" in captured.err
    statuses = {r["kernel"]: r["status"] for r in json.loads(captured.out)}
    assert statuses == {"good": "ok", "bad": "refused", "reference_fp64": "ok"}
    manifest = {r["kernel"]: r["status"] for r in json.loads((out / "manifest.json").read_text())}
    assert manifest == statuses and (out / "good.sm_80.cubin").is_file()


def test_a_specs_missing_source_is_refused_where_that_kernel_is_used(tmp_path, capsys):
    """Only the kernel whose source is gone: `--kernel good` compiles as if it were not there,
    compile gives it a refused row beside the other's, and run, sweep and check refuse it before
    they open a GPU."""
    spec = tmp_path / "gone.py"
    spec.write_text(WMMA_SPEC.format(src=ROOT / "examples" / "wmma_smem_64.cu")
                    + "KERNELS = [Kernel(name='good', entry='wmma_smem_64', **base),\n"
                      f"  Kernel(name='g', entry='g', **{{**base, 'source': {str(tmp_path / 'gone.cu')!r}}})]\n")
    good, gone = kernels.load_spec(spec)
    assert main(["compile", "--spec", str(spec), "--arch", "sm_80", "--kernel", "good"]) == 0
    capsys.readouterr()
    assert main(["compile", "--spec", str(spec), "--arch", "sm_80", "--format", "json"]) == 2
    captured = capsys.readouterr()
    assert "gone.cu" in captured.err and [r["status"] for r in json.loads(captured.out)] == ["ok", "refused"]
    for call in (lambda: tcraw.run_problem(0, [good, gone], (64, 64, 64)),
                 lambda: tcraw.run_sweep([0], [gone], [64], explicit=True, inputs="normal", seed=1, iters=1, warmup=0),
                 lambda: tcraw.check_kernels(0, [gone])):
        with pytest.raises(tcraw.UsageError, match=r"kernel g's source .*gone\.cu is not a file"):
            call()


@pytest.mark.parametrize("overrides,needle", [
    (dict(block=0), "block="), (dict(block=("a",)), "block="), (dict(tile=None), "tile="),
    (dict(source=None), "source is a path"), (dict(defines=5), "defines"), (dict(include_dirs=[3]), "include_dirs"),
    (dict(name="naive_fp32"), "built-in kernel's name"), (dict(name=""), "an empty name"),
    (dict(defines=("A=1", "A=2")), "give A twice"),
])
def test_user_kernel_refuses_what_it_would_misread(overrides, needle):
    """Python's user_kernel as strictly as the flags: defines and include directories as texts (one
    alone is one, never read a letter at a time), no empty or built-in name, no macro given twice
    (NVRTC keeps the last)."""
    args = dict(source=ROOT / "examples" / "edge_bug.cu", entry="edge_bug", precision="fp16", block=(16, 16))
    with pytest.raises(tcraw.UsageError, match=re.escape(needle)):
        kernels.user_kernel(**{**args, **overrides})


def test_user_kernels_block_of_one_size_reads_as_the_flags_do():
    """block=256 is --block 256: (256, 1, 1), the same kernel as block=(256,)."""
    args = dict(source=ROOT / "examples" / "edge_bug.cu", entry="edge_bug", precision="fp16")
    one, listed = kernels.user_kernel(**args, block=256), kernels.user_kernel(**args, block=(256,))
    assert one.geometry_at(64, 64, 64) == listed.geometry_at(64, 64, 64) and one.origin == listed.origin
    assert one.geometry_at(64, 64, 64).block == (256, 1, 1)


@pytest.mark.parametrize("call,needle", [
    (lambda c, k: c.compile_cubin("naive_fp32", "sm_80"), "takes a tcraw Kernel"),
    (lambda c, k: c.compile_cubin(k, "sm_80", backend="foo"), "unknown backend 'foo'"),
    (lambda c, k: c.compile_cubin(k, "sm_80", backend=5), "backend is a name"),
    (lambda c, k: c.compile_cubin(k, "sm_80", cache=5), "cache is None"),
    (lambda c, k: c.compile_table(k, ["sm_80"]), "list of tcraw Kernels"),
    (lambda c, k: kernels.load_spec(None), "a spec file is a path"),
])
def test_the_compile_calls_refuse_what_they_cannot_take(call, needle):
    from tcraw import compiler
    with pytest.raises(tcraw.UsageError, match=re.escape(needle)):
        call(compiler, kernels.KERNELS["naive_fp32"])


@pytest.mark.parametrize("factory,most", [(lambda t: kernels.wmma_pipelined_kernel("fp16", t), 4),
                                          (lambda t: kernels.mma_sync_kernel("fp16", t), 4),
                                          (lambda t: kernels.dmma_kernel(t), 6)])
def test_a_rungs_stages_past_any_gpus_shared_memory_are_refused(factory, most):
    """04, 05 and 08 refuse stages no block can hold (as 06 and 09 do): built, they would fail only
    at the launch."""
    with pytest.raises(tcraw.UsageError, match=f"at most STAGES={most} at this tile"):
        factory({"STAGES": 99})
    assert factory({"STAGES": most}).geometry(1, 1, 1).smem_bytes <= kernels.SM90_SMEM_BYTES
