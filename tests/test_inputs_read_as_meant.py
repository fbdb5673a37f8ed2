"""What two new users' probes found (2026-12-05), each now refused with a typed error naming the
fix, or read as the user meant (CPU: every case here is judged before any GPU)."""

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import tcraw
from tcraw import compiler, kernels
from tcraw.cache import CubinCache
from tcraw.cli import main
from tcraw.errors import CubinError, UsageError

ROOT = Path(__file__).resolve().parent.parent
SCALAR = ('extern "C" __global__ void scalar_mm(const float* A, const float* B, float* C, int M, int N, int K) {\n'
          "  int r = blockIdx.y * blockDim.y + threadIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;\n"
          "  if (r < M && c < N) { float s = 0; for (int k = 0; k < K; ++k) s += A[r * K + k] * B[k * N + c];"
          " C[r * N + c] = s; }\n}\n")
K = kernels.KERNELS
RUN = dict(explicit=True, inputs="normal", seed=1, iters=1, warmup=0)


# -- sources: where they are read from, and how ---------------------------------------------------

def test_a_relative_source_is_the_working_directorys_not_tcraws(tmp_path, monkeypatch):
    """compile_source("hold_gpu.cu") in a directory with a file of that name compiled tcraw's own."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "hold_gpu.cu").write_text(SCALAR)
    assert compiler.compile_source("hold_gpu.cu", "sm_80", cache=False).entries() == ["scalar_mm"]
    (tmp_path / "mine.cu").write_text(SCALAR)   # a Kernel's relative source is cuda_src/'s: told so
    mine = tcraw.Kernel(name="mine", source="mine.cu", entry="scalar_mm", precision="fp32", min_arch=70,
                        tile=(1, 1, 1), geometry=tcraw.tile_geometry((16, 16, 1), (16, 16)))
    with pytest.raises(UsageError, match="in the working directory: give its absolute path"):
        compiler.compile_cubin(mine, "sm_80", cache=False)


def test_a_byte_order_mark_and_latin_1_in_a_comment_compile_as_nvcc_compiles_them(tmp_path):
    bom, latin = tmp_path / "bom.cu", tmp_path / "latin1.cu"
    bom.write_bytes(b"\xef\xbb\xbf" + SCALAR.encode())
    latin.write_bytes(b"// r\xe9sum\xe9\n" + SCALAR.encode())
    for path in (bom, latin):
        assert compiler.compile_source(path, "sm_80", cache=CubinCache(tmp_path / "c")).entries() == ["scalar_mm"]


def test_cccl_headers_come_with_the_toolchain(tmp_path):
    """<cooperative_groups.h> needs CCCL's nv/target; <cuda/barrier> and <cuda/pipeline> are CCCL's."""
    src = tmp_path / "cg.cu"
    src.write_text("#include <cooperative_groups.h>\n#include <cuda/barrier>\n#include <cuda/pipeline>\n"
                   + SCALAR.replace("C[r * N + c] = s; }", "C[r * N + c] = s; }\n"
                                    "  cooperative_groups::this_thread_block().sync();"))
    assert compiler.compile_source(src, "sm_90", cache=False).entries() == ["scalar_mm"]


def test_an_include_of_a_macros_file_is_compiled_every_time_never_served_stale(tmp_path):
    (tmp_path / "cfg.cuh").write_text("#define VALUE 1\n")
    src = tmp_path / "macinc.cu"
    src.write_text('#define STR2(x) #x\n#define STR(x) STR2(x)\n#include STR(CFG)\n'
                   'extern "C" __global__ void mi(int* p) { p[0] = VALUE; }\n')
    store = CubinCache(tmp_path / "c")
    first = compiler.compile_source(src, "sm_80", defines=("CFG=cfg.cuh",), cache=store)
    (tmp_path / "cfg.cuh").write_text("#error stale\n")
    with pytest.raises(tcraw.CompileError, match="stale"):
        compiler.compile_source(src, "sm_80", defines=("CFG=cfg.cuh",), cache=store)
    assert not first.cached and not store.entries()


def test_a_header_edited_between_two_compiles_of_one_process_is_a_new_key(tmp_path):
    """(The digest of the headers was remembered for the process: a notebook's second compile
    after an edit got the old cubin.)"""
    (tmp_path / "h.cuh").write_text("#define VALUE 1\n")
    src = tmp_path / "k.cu"
    src.write_text('#include "h.cuh"\nextern "C" __global__ void k(int* p) { p[0] = VALUE; }\n')
    store = CubinCache(tmp_path / "c")
    one = compiler.compile_source(src, "sm_80", cache=store)
    (tmp_path / "h.cuh").write_text("#define VALUE 22222\n")
    two = compiler.compile_source(src, "sm_80", cache=store)
    assert not two.cached and two.image != one.image
    assert compiler.compile_source(src, "sm_80", cache=store).cached   # unchanged again: the entry serves
    (tmp_path / "inc").mkdir()   # a header made where the include is looked for first is read too
    (tmp_path / "h.cuh").rename(tmp_path / "inc" / "h.cuh")
    three = compiler.compile_source(src, "sm_80", include_dirs=(tmp_path / "inc",), cache=store)
    (tmp_path / "h.cuh").write_text("#define VALUE 3\n")
    assert compiler.compile_source(src, "sm_80", include_dirs=(tmp_path / "inc",), cache=store).image != three.image


def test_a_wrong_entry_is_named_not_read_as_no_tensor_instructions():
    cubin = compiler.compile_source(SCALAR, "sm_80", cache=False)
    for call in (lambda: cubin.sass_counts("nope"), lambda: cubin.resources("nope"),
                 lambda: compiler.compile_source(SCALAR, "sm_80", entry="nope", cache=False)):
        with pytest.raises(CubinError, match="no kernel 'nope'; it contains 'scalar_mm' \\(a kernel is named"):
            call()


# -- declarations ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["reference_fp64", "cublas", "cublaslt", "naive_fp32"])
def test_names_tcraws_files_and_rows_carry_are_not_yours(name, tmp_path):
    with pytest.raises(UsageError, match="built-in kernel's name"):
        tcraw.user_kernel(ROOT / "examples" / "edge_bug.cu", "edge_bug", "fp16", block=(16, 16), name=name)


def test_a_name_too_long_for_a_file_or_a_symbol_for_a_name_is_refused_where_declared():
    with pytest.raises(UsageError, match="at most 160"):
        tcraw.user_kernel(ROOT / "examples" / "edge_bug.cu", "edge_bug", "fp16", block=(16, 16), name="L" * 161)
    with pytest.raises(UsageError, match="with --name"):
        tcraw.user_kernel(ROOT / "examples" / "edge_bug.cu", "tmm<16>", "fp16", block=(16, 16))


def test_numpy_integers_and_paths_declare_a_kernel_as_ints_and_text_do():
    k = tcraw.Kernel(name="k", source=Path("edge_bug.cu"), entry="e", precision="fp16", min_arch=np.int64(80),
                     tile=(np.int32(16), 16, np.uint8(16)), align=np.int64(32),
                     geometry=tcraw.tile_geometry((16, 16, 1), (16, 16)))
    assert (k.source, k.min_arch, k.tile, k.align) == ("edge_bug.cu", 80, (16, 16, 16), 32)
    assert all(type(v) is int for v in (k.min_arch, *k.tile, k.align))


def test_a_scalar_kernels_block_computes_one_element_a_thread_by_default():
    """The default block tile was the 1 × 1 padding tile: a block of 256 threads for each element
    of C, a grid 256 times too big (the time, and writes past C, wrong)."""
    k = tcraw.user_kernel(ROOT / "examples" / "edge_bug.cu", "edge_bug", "fp16", block=(16, 8))
    assert k.geometry(64, 64, 64) == tcraw.Geometry((4, 8, 1), (16, 8, 1))
    wmma = tcraw.user_kernel(ROOT / "examples" / "edge_bug.cu", "edge_bug", "fp16", block=(128,), tile=(64, 64, 32))
    assert wmma.geometry(128, 128, 64).grid == (2, 2, 1)   # a padding tile: still one a block


def test_a_launch_table_that_is_no_int_array_is_a_refused_row(tmp_path, capsys):
    src = tmp_path / "tlc.cu"
    src.write_text('extern "C" __constant__ char tcraw_launch[] = {1, 2, 3};\n' + SCALAR.replace(
        "{\n", "{\n  if (!tcraw_launch[0]) return;\n", 1))
    assert main(["compile", "--source", str(src), "--entry", "scalar_mm", "--precision", "fp32", "--block", "16,16",
                 "--arch", "sm_80", "--format", "json"]) == 2
    captured = capsys.readouterr()
    assert json.loads(captured.out)[0]["status"] == "refused" and "not an array of int" in captured.err


def test_a_kernel_changed_after_its_declaration_is_not_sent_to_a_child():
    """A child rebuilds a kernel from its spec or flags: a replace()d copy would be judged as declared."""
    (spec,) = kernels.load_spec(ROOT / "examples" / "edge_bug.py")
    flags = tcraw.user_kernel(ROOT / "examples" / "edge_bug.cu", "edge_bug", "fp16", block=(16, 16))
    aligned = tcraw.user_kernel(ROOT / "examples" / "edge_bug.cu", "edge_bug", "fp16", block=(16, 16), align=32)
    for k in (spec, flags, aligned):   # (--align travels with the flags)
        assert kernels.child_args(k)[-2:] == ["--kernel", k.name]
    for k, field in ((dataclasses.replace(spec, min_arch=90), "min_arch"),
                     (dataclasses.replace(flags, defines=("X=1",)), "defines"),
                     (dataclasses.replace(flags, align=32), "align"),
                     (dataclasses.replace(spec, geometry=tcraw.tile_geometry((32, 8, 1), (16, 16))), "geometry")):
        with pytest.raises(UsageError, match=f"differs from what .* declares \\(its {field}"):
            kernels.child_args(k)


def test_an_isolated_checks_last_child_takes_the_extra_cases_alone():
    """check_isolated runs the rerun and NaN/Inf cases as `--extras-only` (shapes=[]): not refused."""
    with pytest.raises(tcraw.NoDeviceError):
        tcraw.check_kernels(0, [K["naive_fp32"]], shapes=[], isolate=False, open_device=_no_gpu)
    with pytest.raises(UsageError, match="empty only with extras"):
        tcraw.check_kernels(0, [K["naive_fp32"]], shapes=[], extras=False, open_device=_no_gpu)


def _no_gpu(index):
    raise tcraw.NoDeviceError("no GPU in this test")


def test_bench_and_profile_refuse_a_kernel_whose_source_went_before_the_gpu(tmp_path, capsys):
    spec = tmp_path / "gone.py"
    spec.write_text("from tcraw import Kernel, tile_geometry\n"
                    "KERNELS = [Kernel(name='g', source='gone.cu', entry='g', precision='fp16', min_arch=70,\n"
                    "                  tile=(1, 1, 1), geometry=tile_geometry((16, 16, 1), (16, 16)))]\n")
    for argv in (["bench", "--spec", str(spec), "--sizes", "64"], ["profile", "--spec", str(spec)]):
        assert main(argv) == 2, argv
        assert "kernel g's source" in capsys.readouterr().err


def test_a_spec_imports_a_module_beside_it(tmp_path):
    (tmp_path / "shapes_helper.py").write_text("BLOCK = (16, 16, 1)\n")
    (tmp_path / "k.cu").write_text(SCALAR)
    (tmp_path / "spec.py").write_text(
        "import shapes_helper\nfrom tcraw import Kernel, tile_geometry\n"
        "KERNELS = [Kernel(name='mine', source='k.cu', entry='scalar_mm', precision='fp32', min_arch=70,\n"
        "                  tile=(1, 1, 1), geometry=tile_geometry(shapes_helper.BLOCK, (16, 16)))]\n")
    (k,) = kernels.load_spec(tmp_path / "spec.py")
    assert k.geometry(32, 32, 1).block == (16, 16, 1) and str(tmp_path) not in sys.path
    assert "shapes_helper" not in sys.modules   # (the next spec's own helper of that name is its own)


# -- the command line -----------------------------------------------------------------------------

@pytest.mark.parametrize("argv,needle", [
    (["compile", "--spec", "a.py", "--spec", "b.py"], "--spec was given twice"),
    (["run", "--size", "64", "--size", "128"], "--size was given twice"),
    (["run", "--it", "5"], "unrecognized arguments: --it"),          # no abbreviations guessed
    (["run", "--size", "1_024"], "'1_024' is not a whole number"),
    (["run", "-m", "١٢"], "is not a whole number"),
    (["sweep", "--sizes", "２５６"], "--sizes takes whole numbers"),
    (["run", "--b-layout", "col"], "name kernels that read it"),
    (["check", "--kernel", "naive_fp32", "--shapes", "llm"], "suites and files of shapes are bench's"),
    (["sweep", "--sizes", "64", "--out", __file__], "is a file, not a directory"),
    (["sweep", "--sizes", "64", "--out", __file__ + "/x"], "is a file, not a directory"),
    (["bench", "--precision", "fp16acc16"], "bench has no ladder for 'fp16acc16'"),
])
def test_what_argparse_let_through_is_refused(argv, needle, capsys):
    assert main(argv) == 2
    assert needle in capsys.readouterr().err


def test_a_list_is_comma_separated_space_separated_or_repeated(capsys):
    """DESIGN.md writes `--kernel NAME…`: names one after another are the list they read as."""
    for argv in (["--kernel", "naive_fp32,wmma_fp16", "--arch", "sm_80,sm_86"],
                 ["--kernel", "naive_fp32", "wmma_fp16", "--arch", "sm_80", "sm_86"],
                 ["--kernel", "naive_fp32", "--kernel", "wmma_fp16", "--arch", "sm_80", "--arch", "sm_86"]):
        assert main(["compile", *argv, "--format", "json"]) == 0
        rows = json.loads(capsys.readouterr().out)
        assert [(r["kernel"], r["arch"]) for r in rows] == [("naive_fp32", "sm_80"), ("naive_fp32", "sm_86"),
                                                             ("wmma_fp16", "sm_80"), ("wmma_fp16", "sm_86")]


def test_compile_out_keeps_every_row_when_one_cubin_cannot_be_written(tmp_path, capsys):
    out = tmp_path / "out"
    (out / "wmma_fp16.sm_80.cubin").mkdir(parents=True)
    assert main(["compile", "--arch", "sm_80", "--kernel", "naive_fp32,wmma_fp16,wmma_bf16", "--out", str(out),
                 "--format", "json"]) == 2
    rows = {r["kernel"]: r["status"] for r in json.loads(capsys.readouterr().out)}
    assert rows == {"naive_fp32": "ok", "wmma_fp16": "unwritten", "wmma_bf16": "ok", "reference_fp64": "ok"}
    assert (out / "wmma_bf16.sm_80.cubin").is_file() and (out / "manifest.json").is_file()
    (tmp_path / "two" / "manifest.json").mkdir(parents=True)   # found before anything is built
    assert main(["compile", "--arch", "sm_80", "--kernel", "naive_fp32", "--out", str(tmp_path / "two")]) == 2
    assert "manifest.json is a directory" in capsys.readouterr().err


def test_missing_cuda_headers_are_refused_rows_exit_2_not_compile_errors(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("TCRAW_CUDA_INCLUDE", str(tmp_path))
    monkeypatch.setenv("TCRAW_NO_CACHE", "1")
    assert main(["compile", "--arch", "sm_80", "--kernel", "wmma_fp16,naive_fp32,wmma_bf16", "--format", "json"]) == 2
    captured = capsys.readouterr()
    assert [r["status"] for r in json.loads(captured.out)] == ["refused", "ok", "refused"]
    assert captured.err.count("crt/mma.h") == 1   # (said once, for every kernel it stops)


def test_bench_leaves_no_out_directory_behind_a_refused_request(tmp_path, capsys):
    out = tmp_path / "new" / "deep"
    assert main(["bench", "--kernel", "nope", "--out", str(out)]) == 2
    assert not (tmp_path / "new").exists()


@pytest.mark.parametrize("argv", [["bench", "--kernel", "naive_fp32", "--sizes", "64"], ["sweep", "--sizes", "64"],
                                  ["run", "--size", "64", "--save"]])
def test_a_command_refused_at_the_gpu_leaves_no_empty_out_behind(tmp_path, monkeypatch, capsys, argv):
    """--out is made (and proven writable) before the GPU is asked for; refused there, the
    directories it made go again — one that was there stays."""
    from tcraw import cli
    monkeypatch.setattr(cli, "_open_device", _no_gpu)
    out = tmp_path / "new" / "deep"
    assert main([*argv, *([] if argv[-1] == "--save" else ["--out"]), str(out)]) == 3
    assert not (tmp_path / "new").exists()
    (tmp_path / "kept").mkdir()
    assert main([*argv, *([] if argv[-1] == "--save" else ["--out"]), str(tmp_path / "kept")]) == 3
    assert (tmp_path / "kept").is_dir()


def test_make_clean_refuses_an_out_that_is_no_build_directory(tmp_path):
    """In a checkout of its own, with DRY_RUN=1 (scripts/clean.sh then only says what it would
    remove: a guard that failed here must not remove anything)."""
    work = tmp_path / "checkout"
    (work / "scripts").mkdir(parents=True)
    for name in ("Makefile", "scripts/clean.sh"):
        (work / name).write_text((ROOT / name).read_text())
    (work / "docs").mkdir()
    (work / "docs" / "a.md").write_text("kept\n")
    (work / ".venv").mkdir()
    (work / ".venv" / "pyvenv.cfg").write_text("home = /usr\n")

    def clean(out):
        return subprocess.run(["make", "-s", "clean", f"OUT={out}"], cwd=work, capture_output=True, text=True,
                              env={**os.environ, "DRY_RUN": "1"})
    done = clean("docs")   # (no git here: inside the checkout only build/ is removed)
    assert done.returncode == 2 and "which git does not track" in done.stderr
    subprocess.run(["git", "init", "-q", "."], cwd=work, check=True)
    subprocess.run(["git", "add", "docs/a.md"], cwd=work, check=True)
    for out, why in [*((o, "is not a build directory") for o in (".", "/", "//", "..", str(tmp_path),
                                                                    str(work) + "/", os.path.expanduser("~"))),
                     *((o, "must be one directory path") for o in ("", "my out", "x*", "o'q", "b?", "[ab]", "a$$b",
                                                                    "a`b", "a\\b")),
                     ("docs", "holds files git tracks"), (".git", "git's own directory"),
                     (".git/hooks", "git's own directory"), (".venv", "is a Python venv")]:
        done = clean(out)
        assert done.returncode == 2 and why in done.stderr and "would remove" not in done.stdout, out
    # outside build/, only what the make targets write: a directory of anything else (OUT=/etc), or
    # a file, is refused; one of cubins/, sweep/, bench/ and sanitize.log (or nothing yet) is removed
    made = tmp_path / "made"
    for name in ("cubins", "sweep", "bench"):
        (made / name).mkdir(parents=True)
    (made / "sanitize.log").write_text("log\n")
    (tmp_path / "mixed").mkdir()
    (tmp_path / "mixed" / "notes.txt").write_text("kept\n")
    (tmp_path / "a_file").write_text("kept\n")
    for out, why in [("/etc", "holds "), (str(tmp_path / "mixed"), "holds notes.txt, which no make target writes"),
                     (str(tmp_path / "a_file"), "is not a directory")]:
        done = clean(out)
        assert done.returncode == 2 and why in done.stderr and "would remove" not in done.stdout, out
    (work / "build" / "lib").mkdir(parents=True)   # (build/ is tcraw's own: whatever it holds)
    for out in ("build", "results", str(tmp_path / "elsewhere" / "out"), str(made)):
        done = clean(out)
        assert done.returncode == 0 and done.stdout == f"would remove {out} .pytest_cache\n", out


def test_make_clean_of_a_link_with_a_slash_removes_the_link_not_what_it_points_to(tmp_path):
    """OUT=out/ where out is a link to a directory of build output: the link goes, the directory it
    points to keeps what it holds (rm -rf out/ would have emptied it)."""
    work = tmp_path / "checkout"
    (work / "scripts").mkdir(parents=True)
    for name in ("Makefile", "scripts/clean.sh"):
        (work / name).write_text((ROOT / name).read_text())
    target = tmp_path / "elsewhere"
    (target / "cubins").mkdir(parents=True)
    (target / "cubins" / "kept.cubin").write_text("kept\n")
    (work / "out").symlink_to(target)
    for out in ("out/", "out//", "out/."):
        done = subprocess.run(["make", "-s", "clean", f"OUT={out}"], cwd=work, capture_output=True, text=True,
                              env={**os.environ, "DRY_RUN": "1"})
        assert done.returncode == 0 and done.stdout == "would remove out .pytest_cache\n", done.stderr
    done = subprocess.run(["make", "-s", "clean", "OUT=out/"], cwd=work, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert not os.path.lexists(work / "out") and (target / "cubins" / "kept.cubin").is_file()


def test_make_passes_one_out_and_lists_as_tcraw_reads_them():
    """An empty OUT (which made /cubins) is refused by every target that writes there; KERNELS
    space-separated reaches sanitize as a list; run takes DEVICE, KERNELS and CUBINS."""
    env = {k: v for k, v in os.environ.items() if k not in ("OUT", "KERNELS", "ARCHS", "DEVICE", "CUBINS", "SIZES")}

    def dry(*argv):   # (the Makefile's defaults, whatever this shell's environment sets)
        return subprocess.run(["make", "-n", *argv], cwd=ROOT, capture_output=True, text=True, env=env)
    for target in ("compile", "cubins", "sweep", "bench", "sanitize", "clean"):
        done = dry(target, "OUT=")
        assert done.returncode == 2 and 'OUT="" must be one directory path' in done.stderr, target
    assert "KERNELS=a,b bash scripts/sanitize.sh" in dry("sanitize", "KERNELS=a b").stdout
    for spelt in ("80 90", "80,90", "80, 90", " 80 ,90 "):   # (a list as tcraw reads one; "80,,90" stays, refused)
        assert "--arch 80,90 --out" in dry("compile", f"ARCHS={spelt}").stdout, spelt
    assert "--arch 80,,90 --out" in dry("compile", "ARCHS=80,,90").stdout
    for wrong, needle in (("KERNEL=a", "the variable is KERNELS"), ("ARCH=90", "the variable is ARCHS")):
        assert needle in dry("compile", wrong).stderr
    for cuda in ("11", "12.4", "", "12 13"):
        assert f'CUDA="{cuda}": give 12 or 13' in dry("install", f"CUDA={cuda}").stderr
    assert 'VENV="a b" must be one directory path' in dry("install", "VENV=a b").stderr
    run = dry("run", "KERNELS=a b", "DEVICE=1", "CUBINS=c").stdout
    assert "--device 1 --kernel a,b" in run and '--cubin-dir "c"' in run
    assert '--arch 90 --out "build/cubins"' in dry("cubins", "ARCHS=90").stdout
    assert dry("compile", "OUT=a`b").returncode == 2
    env.update(OUT="/elsewhere", KERNELS="nope", CUDA="/usr/local/cuda")   # (set for other tools: not read)
    assert '--out "build/cubins"' in dry("compile").stdout and "--kernel" not in dry("compile").stdout
    assert "'.[dev,cu13]'" in dry("install").stdout


def test_make_sanitize_checks_kernels_then_the_sanitizer_in_one_line(tmp_path):
    env = {**os.environ, "PY": sys.executable, "SANITIZER": str(tmp_path / "none")}
    bad = subprocess.run(["bash", "scripts/sanitize.sh", str(tmp_path / "log")], cwd=ROOT, capture_output=True,
                         text=True, env={**env, "KERNELS": "nope"})
    assert bad.returncode == 2 and "unknown kernel 'nope'" in bad.stderr
    none = subprocess.run(["bash", "scripts/sanitize.sh", str(tmp_path / "log")], cwd=ROOT, capture_output=True,
                          text=True, env={**env, "KERNELS": "wmma_fp16"})
    assert none.returncode == 3 and none.stderr.count("\n") == 1 and "compute-sanitizer not found" in none.stderr
    gap = subprocess.run(["bash", "scripts/sanitize.sh", str(tmp_path / "log")], cwd=ROOT, capture_output=True,
                         text=True, env={**env, "KERNELS": "naive_fp32,,wmma_fp16"})
    assert gap.returncode == 2 and "has an empty item" in gap.stderr
    # a sanitizer that says what it was asked to run, and exits as tcraw did: 0, or 3 (no usable GPU)
    fake = tmp_path / "fake-sanitizer"
    fake.write_text(f'#!/bin/sh\necho "$@" >> {tmp_path / "asked"}\nexit ${{FAKE_RC:-0}}\n')
    fake.chmod(0o755)
    env.update(SANITIZER=str(fake), KERNELS="naive_fp32, wmma_fp16")
    ran = subprocess.run(["bash", "scripts/sanitize.sh", str(tmp_path / "log")], cwd=ROOT, capture_output=True,
                         text=True, env=env)
    asked = (tmp_path / "asked").read_text().splitlines()
    assert ran.returncode == 0 and len(asked) == 32 and all("--kernel naive_fp32,wmma_fp16 " in a for a in asked)
    (tmp_path / "asked").unlink()
    no_gpu = subprocess.run(["bash", "scripts/sanitize.sh", str(tmp_path / "log")], cwd=ROOT, capture_output=True,
                            text=True, env={**env, "FAKE_RC": "3"})
    assert no_gpu.returncode == 3 and "no usable GPU" in no_gpu.stderr and len((tmp_path / "asked").read_text()
                                                                                  .splitlines()) == 1
    unwritable = subprocess.run(["bash", "scripts/sanitize.sh", str(fake / "log")], cwd=ROOT, capture_output=True,
                                text=True, env=env)
    assert unwritable.returncode == 2 and f"cannot write {fake / 'log'}" in unwritable.stderr


@pytest.mark.parametrize("argv,code,needle", [
    (["scripts/bench_cache.py", "--arch", "sm_5"], 2, "cannot read 'sm_5'"),
    (["scripts/bench_cache.py", "--repeat", "0"], 2, "--repeat 0"),
    (["scripts/bench_launch.py", "--launches", "0"], 2, "--launches 0"),
    (["scripts/tune_ladder.py", "--family", "simt", "--variants", "BK=16", "--sizes", ""], 2, "--sizes ''"),
    (["scripts/tune_ladder.py", "--family", "simt", "--variants", "BK=16,,TM=4"], 2, "has an empty item"),
    (["scripts/sass_digests.py", "--kernels", "naive_fp32", "--out", "."], 2, "--out .: a directory"),
    (["scripts/sass_digests.py", "--kernels", "naive_fp32,,wmma_fp16", "--out", "x.json"], 2, "has an empty item"),
    (["scripts/sass_digests.py", "--compare", "pyproject.toml", "README.md"], 2, "cannot read it as JSON"),
    (["scripts/sass_digests.py", "--compare", "a.json", "b.json", "--out", "c.json"], 2, "not both"),
])
def test_the_benchmark_scripts_say_one_line_not_a_traceback(argv, code, needle):
    done = subprocess.run([sys.executable, *argv], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == code and needle in done.stderr and "Traceback" not in done.stderr, done.stderr


# -- the library, as strictly as the command line -------------------------------------------------

@pytest.mark.parametrize("call,needle", [
    (lambda: tcraw.run_problem(0, [K["wmma_fp16"]], (64, 64, 64), inputs="uniform"), "one of normal, int"),
    (lambda: tcraw.run_problem(0, [K["wmma_fp16"]], (64, 64, 64), cubin_dir="/nonexistent"), "--cubin-dir"),
    (lambda: tcraw.run_problem(0, [K["wmma_fp16"]], (64, 64, 64), backend="cuda"), "backend is the name"),
    (lambda: tcraw.run_problem(0, ["wmma_fp16"], (64, 64, 64)), "tcraw.select"),
    (lambda: tcraw.run_problem(0, "wmma_fp16", (64, 64, 64)), "tcraw.select"),
    (lambda: tcraw.run_problem(0, [K["wmma_fp16"]], 64), "(M, N, K), three whole numbers"),
    (lambda: tcraw.run_sweep(0, [K["wmma_fp16"]], [64], **RUN), "device_indices"),
    (lambda: tcraw.run_sweep([0], [K["wmma_fp16"]], [], **RUN), "sizes are a non-empty list"),
    (lambda: tcraw.run_sweep([0], "wmma_fp16", [64], **RUN), "tcraw.select"),
    (lambda: tcraw.check_kernels(0, [K["wmma_fp16"]], shapes=[64]), "(M, N, K)"),
    (lambda: tcraw.check_kernels(0, [K["wmma_fp16"]], shapes="1,2,3"), "shapes is a list of (M, N, K)"),
    (lambda: tcraw.check_kernels(0, [K["wmma_fp16"]], backend="nope"), "backend is the name"),
    (lambda: tcraw.Device(-1), "GPU index"),
    (lambda: tcraw.bench_vs_cublas(0, [], [64]), "non-empty list of names"),
    (lambda: tcraw.bench_vs_cublas(0, ["fp16"], [64], extra="x"), "extra is a list of tcraw Kernels"),
    (lambda: tcraw.bench_vs_cublas(0, ["fp16"], [64], kernels="nope"), "--kernel nope: not a rung"),
    (lambda: tcraw.compile_table([K["naive_fp32"]], []), "no arch given"),
    (lambda: tcraw.compile_table([], "sm_80"), "non-empty list of tcraw Kernels"),
    (lambda: tcraw.get_kernel(["x"]), "named by text"),
    (lambda: tcraw.suite_summary([{"x": 1}]), "suite_summary takes bench's rows"),
    (lambda: tcraw.profile.roofline_png([], {}, "/"), "is a directory"),
    (lambda: compiler.compile_source(SCALAR, "sm_80", include_dirs=(__file__,), cache=False), "is a file, not a dir"),
    # (a GPU's index where its opened Device is wanted, or nothing: named, not an AttributeError)
    (lambda: tcraw.run_matmul(0, K["wmma_fp16"], tcraw.make_problem(None, "fp16", *tcraw.base_matrices(
        8, 8, 8, "int", 1), "int")), "run_matmul takes an open tcraw.Device"),
    (lambda: tcraw.check_in_process(None, K["wmma_fp16"], [(8, 8, 8)], 1, None), "check_in_process takes an open"),
    (lambda: tcraw.run_kernels(0, [K["wmma_fp16"]], (8, 8, 8), inputs="int", seed=1, iters=1, warmup=0),
     "take an index"),
    (lambda: tcraw.run_bench(None, None, ["fp16"], [64], iters=1, warmup=0, seed=1), "run_bench takes an open"),
    (lambda: tcraw.time_launches(None, lambda: None, 1, 0), "time_launches takes an open tcraw.Device"),
    (lambda: tcraw.launch("vadd", (1, 1, 1), (1, 1, 1), []), "a launch takes a tcraw Function"),
    (lambda: tcraw.run_plan("junk"), "run_plan takes a BenchPlan"),
    (lambda: tcraw.select(b_layout="diag"), "B's layout is 'row' (K×N) or 'col'"),
    (lambda: tcraw.select(["naive_fp32"], b_layout=5), "not 5"),
    (lambda: tcraw.user_kernel(ROOT / "examples" / "edge_bug.cu", "edge_bug", "fp16", block=(16, 8, 2)),
     "z threads would compute each element"),
    (lambda: tcraw.Kernel(name="c3", source=SCALAR, entry="x", precision="fp32", min_arch=75, tile=(1, 1, 1), cluster=3,
                          geometry=lambda m, n, k: tcraw.Geometry((1, 1, 1), (16, 1, 1), 0)), "persistent kernels"),
    (lambda: kernels.wgmma_kernel("int8", {"B_REALIGN": 2}), "B_REALIGN=2: "),
])
def test_the_library_refuses_what_the_command_line_refuses(call, needle):
    with pytest.raises(UsageError) as exc:
        call()
    assert needle in str(exc.value)


def test_one_name_is_a_list_of_it_and_a_shape_twice_is_timed_once():
    plan = tcraw.bench_plan(0, "fp16", [64, 64, (64, 64, 64)], kernels="wmma_fp16", seed=1)
    assert plan.keys == ["fp16"] and [k.name for k in plan.rungs["fp16"]] == ["wmma_fp16"]
    assert plan.shapes == [(None, (64, 64, 64))]
    assert len(tcraw.parse_shapes("odd,odd")) == len(tcraw.SUITES["odd"])
    assert tcraw.parse_archs("sm_80,90,all")[:2] == [compiler.Arch(80), compiler.Arch(90)]
    assert tcraw.parse_archs(80) == [compiler.Arch(80)]
    # an empty item among others is refused, as `tcraw compile --arch sm_80,,sm_90` refuses it (a value left
    # out); nothing at all is refused too
    assert tcraw.parse_archs(["sm_80 sm_90", "sm_90a"]) == [compiler.Arch(80), compiler.Arch(90),
                                                            compiler.Arch(90, "a")]
    for gap in ("sm_80,,sm_90", "sm_80,", ",sm_80"):
        with pytest.raises(UsageError, match="has an empty item"):
            tcraw.parse_archs(gap)
    for nothing in ("", " , ", [""]):
        with pytest.raises(UsageError, match="no arch given"):
            tcraw.parse_archs(nothing)


# -- what scripts read ----------------------------------------------------------------------------

def test_json_has_null_where_python_would_write_nan(tmp_path):
    """A failed row's time is NaN in Python; json.dumps writes a bare NaN that strict parsers refuse."""
    from tcraw import report
    rows = [{"kernel": "k", "time_ms": float("nan"), "tflops": float("inf"), "sass": {"x": float("nan")}}]
    text = report.render(rows, "json")
    assert "NaN" not in text and "Infinity" not in text
    assert json.loads(text) == [{"kernel": "k", "time_ms": None, "tflops": None, "sass": {"x": None}}]


def test_every_compile_row_has_every_key(capsys):
    assert main(["compile", "--arch", "sm_80", "--kernel", "naive_fp32,wgmma_tma_fp16", "--format", "json"]) == 0
    ok, below = json.loads(capsys.readouterr().out)
    assert (ok["status"], below["status"]) == ("ok", "below-min-arch") and ok.keys() == below.keys()
    assert {"cached", "ptxas_warnings", "detail"} <= ok.keys() and below["cached"] is None


def test_a_block_asking_more_shared_memory_than_an_archs_gpus_give_is_said_in_its_row(capsys):
    """110 000 bytes a block builds for every arch (some GPU has them) but sm_75's give 64 KiB and
    sm_86's 99 KiB: the rows say where it will not launch, and sm_80's (163 KiB) says nothing."""
    k = tcraw.user_kernel(ROOT / "examples" / "edge_bug.cu", "edge_bug", "fp16", block=(16, 16), smem_bytes=110_000)
    rows = tcraw.compile_table([k], "sm_75,sm_80,sm_86", note=lambda *a: None)
    assert [r["status"] for r in rows] == ["ok"] * 3
    assert rows[0]["detail"].startswith("will not launch on sm_75: its block asks 110000 bytes of shared memory, "
                                        "an sm_75 GPU gives one at most 65536")
    assert rows[1]["detail"] is None and "at most 101376" in rows[2]["detail"]


def test_a_check_in_this_process_gives_a_kernel_that_does_not_compile_failed_rows(tmp_path, capsys):
    """(Exit 1 and a row a shape, as the isolated children give; it raised CompileError, exit 2.)"""
    from types import SimpleNamespace
    src = tmp_path / "bad.cu"
    src.write_text(SCALAR.replace("float s = 0;", "float s = undeclared;"))
    bad = tcraw.user_kernel(src, "scalar_mm", "fp32", block=(16, 16))

    class NoGpu(SimpleNamespace):
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return None

    dev = NoGpu(cc=80, arch=compiler.Arch(80), name="no GPU", drv=tcraw.get_backend(), ordinal=0,
                max_smem_optin=232448, sm_count=108, close=lambda: None)
    rows = tcraw.check_kernels(0, [bad], shapes=[(16, 16, 16), (3, 5, 7)], isolate=False, extras=False,
                               open_device=lambda index: dev, note=lambda *a: None)
    assert [r["case"] for r in rows] == ["compile 16×16×16", "compile 3×5×7"]
    assert not any(r["passed"] for r in rows) and "NVRTC_ERROR_COMPILATION" in rows[0]["error"]
