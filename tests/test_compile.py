"""NVRTC on the CPU: every kernel for every arch the installed NVRTC supports."""

import dataclasses
import itertools
import re
from pathlib import Path

import numpy as np
import pytest

from tcraw import compiler, kernels, sass, wgmma
from tcraw.bench import parse_shapes
from tcraw.cubin import EM_CUDA, elf_arch, kernel_param_sizes, kernel_resources
from tcraw.driver import get_backend
from tcraw.errors import ArchError, CompileError, CubinError, MissingHeaderError, UsageError

from conftest import wgmma_macros

SUPPORTED = compiler.supported_archs()


@pytest.mark.parametrize("arch", SUPPORTED, ids=str)
@pytest.mark.parametrize("kernel", list(kernels.KERNELS.values()), ids=lambda k: k.name)
def test_every_kernel_compiles_for_every_supported_arch(kernel, arch):
    if not kernel.runs_on(arch.cc):
        with pytest.raises(ArchError, match=f"sm_{kernel.min_arch}"):
            compiler.compile_cubin(kernel, arch)
        return
    cubin = compiler.compile_cubin(kernel, arch)
    assert cubin.arch.suffix == ("a" if kernel.arch_specific else "")
    assert cubin.image[:4] == b"\x7fELF"
    machine, sm = elf_arch(cubin.image)
    assert machine == EM_CUDA
    assert sm == arch.cc
    assert cubin.registers > 0
    assert cubin.spill_bytes == 0


@pytest.mark.parametrize("arch", ["sm_80", "sm_90", "sm_120"])
def test_cubin_resources_agree_with_the_ptxas_log(arch):
    """The ELF reader and ptxas -v must tell the same story whenever the log has it."""
    compared = 0
    for kernel in kernels.KERNELS.values():
        if not kernel.runs_on(compiler.Arch.parse(arch).cc):
            continue
        cubin = compiler.compile_cubin(kernel, arch)
        if f"Compiling entry function '{kernel.entry}'" not in cubin.log:
            continue  # NVRTC served this from its cache: nothing to compare against
        logged = compiler.parse_ptxas_log(cubin.log, kernel.entry)
        from_elf = kernel_resources(cubin.image, kernel.entry)
        assert from_elf == {k: logged[k] for k in from_elf}, kernel.name
        compared += 1
    if not compared:
        pytest.skip("NVRTC served every compile from its cache: no ptxas log to compare with")


def test_sm90a_is_accepted():
    cubin = compiler.compile_cubin(kernels.KERNELS["wmma_fp16"], "sm_90a")
    assert elf_arch(cubin.image) == (EM_CUDA, 90)


def test_arch_the_nvrtc_does_not_support_is_refused_with_the_list():
    with pytest.raises(ArchError, match="not supported by the installed NVRTC") as exc:
        compiler.compile_cubin(kernels.KERNELS["naive_fp32"], "sm_130")
    assert "sm_90" in str(exc.value) and "a newer NVRTC may target it" in str(exc.value)
    with pytest.raises(ArchError, match="this NVRTC has no such target: no GPU has that number, or a newer NVRTC"):
        compiler.compile_cubin(kernels.KERNELS["naive_fp32"], "sm_99")   # (between two it targets)


def test_an_arch_below_nvrtc_13_names_the_cuda_12_install_that_works():
    if min(SUPPORTED).cc <= 70:
        pytest.skip(f"this NVRTC targets {min(SUPPORTED)}: the CUDA 12 toolchain is in use")
    with pytest.raises(ArchError, match=r"sm_70 needs NVRTC 12.*tcraw\[cu12\].*TCRAW_CUDA=12"):
        compiler.compile_cubin(kernels.KERNELS["wmma_fp16"], "sm_70")


@pytest.mark.parametrize("text,expected", [("sm_90", "sm_90"), ("90", "sm_90"), ("sm_90a", "sm_90a"),
                                           ("SM_120", "sm_120")])
def test_arch_parse(text, expected):
    assert str(compiler.Arch.parse(text)) == expected


def test_arch_parse_rejects_garbage():
    for text in ("hopper", "sm_9٠", "sm_05"):   # (an Arabic-Indic zero is a regex digit without re.ASCII)
        with pytest.raises(UsageError, match="cannot read"):
            compiler.Arch.parse(text)


@pytest.mark.parametrize("args", [("90",), (90, "x"), (True,), (9.0,), (5,), (80, "a"), (90, "f")])
def test_an_arch_made_directly_is_a_whole_compute_capability(args):
    """Arch("90") once made an Arch whose cc was text (sm_90 in print, wrong in every comparison)."""
    with pytest.raises(UsageError, match="Arch.parse|does not exist"):
        compiler.Arch(*args)
    assert compiler.Arch(np.int32(90), "a") == compiler.Arch(90, "a") and type(compiler.Arch(np.int32(90)).cc) is int


def test_sm_90_and_sm_90a_asked_of_an_arch_specific_kernel_are_one_row(capsys):
    """06 builds sm_90a for either (compile_cubin): one row and one cubin, not the same one twice."""
    rows = compiler.compile_table([kernels.KERNELS["wgmma_tma_fp16"], kernels.KERNELS["naive_fp32"]],
                                  [compiler.Arch(90), compiler.Arch(90, "a")], note=lambda *_: None)
    assert [(r["kernel"], r["arch"]) for r in rows] == [("wgmma_tma_fp16", "sm_90a"), ("naive_fp32", "sm_90"),
                                                       ("naive_fp32", "sm_90a")]
    # a build that fails is one row too (and one note), not the same error twice
    from dataclasses import replace
    broken = replace(kernels.KERNELS["wgmma_tma_fp16"], name="broken", defines=("BN=7",))
    notes = []
    rows = compiler.compile_table([broken], [compiler.Arch(90), compiler.Arch(90, "a")], note=notes.append)
    assert [(r["kernel"], r["status"]) for r in rows] == [("broken", "error")] and len(notes) == 1


def test_compiles_side_by_side_give_the_same_rows_in_the_same_order(monkeypatch, tmp_path, capsys):
    """jobs > 1 compiles into the cache on threads first (warm_cache), then the rows as with one:
    the same kernels, archs, statuses and resources in the same order — a build that fails and an
    arch a kernel refuses included, each said once. Each in a fresh cache (the threads' builds are
    what the rows then find there); --jobs 0 refused."""
    from dataclasses import replace
    from tcraw.cli import main
    broken = replace(kernels.KERNELS["naive_fp32"], name="broken", defines=("TCRAW_NO_SUCH=1",), source="nope.cu")
    chosen = [kernels.KERNELS["naive_fp32"], kernels.KERNELS["mma_sync_fp16"], broken,
              kernels.KERNELS["wgmma_tma_fp16"]]
    import threading
    seen, real = {}, compiler.compile_cubin
    for jobs in (1, 3):
        monkeypatch.setenv("TCRAW_CACHE_DIR", str(tmp_path / f"cache{jobs}"))
        notes, threads = [], set()
        monkeypatch.setattr(compiler, "compile_cubin",
                            lambda *a, **k: threads.add(threading.current_thread()) or real(*a, **k))
        rows = compiler.compile_table(chosen, [compiler.Arch(80), compiler.Arch(90)], note=notes.append, jobs=jobs)
        assert (threads == {threading.main_thread()}) == (jobs == 1), threads   # (side by side: on threads)
        # a fresh cache: this run compiled every cubin, side by side too (not "cached" for the loop's finding it)
        assert [r["cached"] for r in rows if r["status"] == "ok"] == [False] * 5
        assert all(r["compile_ms"] > 10 for r in rows if r["status"] == "ok")
        seen[jobs] = [{k: v for k, v in r.items() if k != "compile_ms"} for r in rows], notes
    monkeypatch.undo()
    assert seen[1] == seen[3]
    assert [r["status"] for r in seen[1][0]] == ["ok", "ok", "ok", "ok", "refused", "refused", "below-min-arch",
                                                "ok"]
    # the same side by side through the ctypes backend (--backend ctypes: the default the threads get)
    from tcraw import driver
    monkeypatch.setenv("TCRAW_CACHE_DIR", str(tmp_path / "cache_ctypes"))
    monkeypatch.setitem(driver._default, "name", "ctypes")
    rows = compiler.compile_table(chosen[:2], [compiler.Arch(80), compiler.Arch(90)], note=lambda *_: None, jobs=2)
    assert [{k: v for k, v in r.items() if k != "compile_ms"} for r in rows] == seen[1][0][:4]
    monkeypatch.undo()
    # ^C while they build: the compiles under way end, no other starts, and it is ^C that comes out
    started = []
    def interrupted(kernel, arch, *args, **kwargs):
        started.append(kernel.file_stem)
        raise KeyboardInterrupt
    monkeypatch.setattr(compiler, "compile_cubin", interrupted)
    with pytest.raises(KeyboardInterrupt):
        compiler.compile_table(chosen[:2], [compiler.Arch(80), compiler.Arch(86), compiler.Arch(90)],
                               note=lambda *_: None, jobs=2)
    assert 1 <= len(started) <= 2, started   # (of six builds: one a thread at most)
    monkeypatch.undo()
    for bad in (0, -1, 1.5, True):
        with pytest.raises(UsageError, match="jobs is how many compiles"):
            compiler.compile_table(chosen, [compiler.Arch(90)], note=lambda *_: None, jobs=bad)
    assert main(["compile", "--arch", "sm_90", "--kernel", "naive_fp32", "--jobs", "0"]) == 2
    assert "--jobs 0: how many compiles run at once" in capsys.readouterr().err


def test_compile_error_carries_the_log_and_options():
    with pytest.raises(CompileError) as exc:
        compiler.nvrtc_compile(get_backend(), 'extern "C" __global__ void f() { undefined_thing(); }',
                               "broken.cu", ["--gpu-architecture=sm_90"])
    err = exc.value
    assert err.name == "NVRTC_ERROR_COMPILATION"
    assert "undefined_thing" in err.log and "broken.cu" in str(err)
    assert "--gpu-architecture=sm_90" in str(err)


def test_ptxas_log_parsed_per_entry():
    log = ("ptxas info    : Compiling entry function 'a' for 'sm_90'\n"
           "ptxas info    : Function properties for a\n"
           "    16 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads\n"
           "ptxas info    : Used 40 registers, used 1 barriers, 8192 bytes smem, 380 bytes cmem[0]\n"
           "ptxas info    : Compiling entry function 'b' for 'sm_90'\n"
           "ptxas info    : Used 12 registers\n")
    assert compiler.parse_ptxas_log(log, "a") == {
        "registers": 40, "smem_bytes": 8192, "stack_bytes": 16, "spill_bytes": 12}
    assert compiler.parse_ptxas_log(log, "b")["registers"] == 12


def test_missing_headers_name_the_package(monkeypatch, tmp_path):
    monkeypatch.setattr(compiler, "_header_candidates", lambda: iter([[tmp_path]]))
    with pytest.raises(MissingHeaderError, match=r"tcraw\[cu1[23]\]"):
        compiler.compile_cubin(kernels.KERNELS["wmma_fp16"], "sm_90")


def test_header_discovery_needs_crt(monkeypatch, tmp_path):
    """A directory with mma.h but no crt/mma.h (the H200 image's pathfinder dir) is skipped."""
    real = compiler.find_include_dirs()
    half = tmp_path / "no_crt"
    half.mkdir()
    (half / "mma.h").write_text("")
    (half / "cuda_fp16.h").write_text("")
    monkeypatch.setattr(compiler, "_header_candidates", lambda: iter([[half], real]))
    assert compiler.find_include_dirs() == real


@pytest.mark.skipif(sass.find_cuobjdump() is None, reason="no cuobjdump (pip install 'cuda-toolkit[cuobjdump,nvdisasm]')")
@pytest.mark.parametrize("name,op", [("naive_fp32", None), ("wmma_fp16", "HMMA"), ("wmma_bf16", "HMMA"),
                                     ("wmma_tf32", "HMMA"), ("wmma_int8", "IMMA"), ("wmma_fp64", "DMMA"),
                                     ("wmma_pipelined_fp16", "HMMA"), ("mma_sync_fp16", "HMMA"),
                                     ("mma_sync_bf16", "HMMA"), ("mma_sync_tf32", "HMMA"),
                                     ("wgmma_tma_fp16", "HGMMA"),
                                     ("wgmma_tma_bf16", "HGMMA")])
def test_sass_shows_the_tensor_instructions(name, op):
    counts = sass.tensor_op_counts(compiler.compile_cubin(kernels.KERNELS[name], "sm_90").image)
    assert counts is not None
    if op is None:
        assert counts == {}
    else:
        assert counts.get(op, 0) > 0


@pytest.mark.skipif(sass.find_cuobjdump() is None, reason="no cuobjdump (pip install 'cuda-toolkit[cuobjdump,nvdisasm]')")
def test_compile_table_counts_each_kernels_own_sass():
    """04's cubin holds its fp16 and bf16 entries: each kernel's row counts its own entry's tensor
    instructions (HMMA.16816.F32 for fp16, .BF16 for bf16), not the file's."""
    rows = compiler.compile_table([kernels.KERNELS["wmma_pipelined_fp16"], kernels.KERNELS["wmma_pipelined_bf16"]],
                                  [compiler.Arch.parse("sm_90")])
    (fp16, bf16) = (row["sass_forms"] for row in rows)
    assert set(fp16) == {"HMMA.16816.F32"} and set(bf16) == {"HMMA.16816.F32.BF16"}, (fp16, bf16)
    image = compiler.compile_cubin(kernels.KERNELS["wmma_pipelined_fp16"], "sm_90").image
    whole, own = sass.tensor_op_forms(image), sass.tensor_op_forms(image, entry="wmma_pipelined_fp16")
    assert all(whole.get(form, 0) >= n for form, n in own.items()) and sum(whole.values()) >= sum(own.values())
    with pytest.raises(CubinError, match="no kernel 'no_such_entry'; it contains"):   # (not {}: "no tensor ops")
        sass.tensor_op_forms(image, entry="no_such_entry")


def test_entry_sass_is_one_functions_code():
    """sass.entry_sass: the code under cuobjdump's "Function : NAME" header, up to the next one."""
    dump = ("\tcode for sm_90\n\t\tFunction : b_kernel\n        /*0000*/  HMMA.16816.F32.BF16 R0, R4, R8, R0 ;\n"
            "\t\tFunction : a_kernel\n        /*0000*/  HMMA.16816.F32 R0, R4, R8, R0 ;\n        /*0010*/  EXIT ;\n")
    assert "HMMA.16816.F32 " in sass.entry_sass(dump, "a_kernel") and "BF16" not in sass.entry_sass(dump, "a_kernel")
    assert "BF16" in sass.entry_sass(dump, "b_kernel") and "EXIT" not in sass.entry_sass(dump, "b_kernel")
    assert sass.entry_sass(dump, "c_kernel") is None


def test_a_tool_that_dumps_no_code_gives_unknown_counts_never_none_kept(tmp_path, monkeypatch):
    """A TCRAW_CUOBJDUMP that exits 0 with no "Function :" sections (/bin/true) is no evidence of
    zero tensor instructions: the counts are unknown (None) and nothing is kept, so the real
    tool's counts come next time."""
    import shutil
    monkeypatch.setenv("TCRAW_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("TCRAW_NO_CACHE", raising=False)
    from tcraw.cache import SASS_SUFFIX
    kernel = kernels.KERNELS["wmma_fp16"]
    image, true = compiler.compile_cubin(kernel, "sm_80").image, shutil.which("true")
    assert sass.tensor_op_counts(image, true) is None and sass.tensor_op_counts(image, true, kernel.entry) is None
    assert not list(tmp_path.glob("*" + SASS_SUFFIX))


@pytest.mark.parametrize("kernel", list(kernels.KERNELS.values()), ids=lambda k: k.name)
def test_ctypes_nvrtc_builds_the_same_cubin(kernel):
    """The pure-ctypes backend drives the same NVRTC to the same bytes (no cache in between)."""
    from conftest import bindings_nvrtc_mismatch
    if (why := bindings_nvrtc_mismatch()):
        pytest.skip(why)
    ctypes_cubin = compiler.compile_cubin(kernel, "sm_90", get_backend("ctypes"), cache=False)
    bindings_cubin = compiler.compile_cubin(kernel, "sm_90", get_backend("bindings"), cache=False)
    assert ctypes_cubin.image == bindings_cubin.image


@pytest.mark.parametrize("arch", ["sm_80", "sm_90", "sm_120"])
def test_cubin_records_each_parameter_size(arch):
    for kernel in kernels.KERNELS.values():
        if kernel.runs_on(compiler.Arch.parse(arch).cc):
            image = compiler.compile_cubin(kernel, arch).image
            scratch = [8] * (bool(kernel.workspace) + kernel.precision.scaled)   # workspace, FP8 scales pointers
            maps = [128] * len(kernel.tma_boxes)   # a CUtensorMap by value per TMA operand
            assert kernel_param_sizes(image, kernel.entry) == [8, 8, 8, 4, 4, 4, *scratch, *maps], kernel.name
    odd, _ = compiler.nvrtc_compile(get_backend(), 'extern "C" __global__ void f(char a, double b, '
                                    'short c, float4 d) {}', "odd.cu", [f"--gpu-architecture={arch}"])
    assert kernel_param_sizes(odd, "f") == [1, 8, 2, 16]


def test_a_declaration_that_drifts_from_its_source_is_refused():
    """04, 05 and 06 state their launch (threads, shared memory, TMA boxes) in the .cu; a
    registry or spec geometry that says otherwise cannot compile, for built-in and user kernels."""
    from dataclasses import replace
    from tcraw.errors import UsageError
    wgmma = kernels.KERNELS["wgmma_tma_fp16"]
    three_stages = replace(wgmma, geometry=kernels.wgmma_geometry({**kernels.WGMMA_TILE, "STAGES": 3}))
    with pytest.raises(UsageError, match="smem bytes"):
        compiler.compile_cubin(three_stages, "sm_90")
    with pytest.raises(UsageError, match="B box rows"):
        compiler.compile_cubin(replace(wgmma, tma_boxes=((128, 64), (32, 64), (64, 32))), "sm_90")
    pipelined = kernels.KERNELS["mma_sync_fp16"]
    with pytest.raises(UsageError, match="threads 256 vs 128"):
        compiler.compile_cubin(replace(pipelined, geometry=lambda m, n, k: kernels.Geometry((1, 1, 1), (128, 1, 1),
                               pipelined.geometry(m, n, k).smem_bytes)), "sm_90")
    (mine,) = kernels.load_spec(Path(__file__).resolve().parent.parent / "examples" / "wmma_smem_64.py")
    compiler.compile_cubin(mine, "sm_90")
    with pytest.raises(UsageError, match="student_wmma_64"):
        compiler.compile_cubin(replace(mine, geometry=kernels.tile_geometry((256, 1, 1), (64, 64))), "sm_90")


@pytest.mark.parametrize("name", ["tiled_simt_fp32", "wmma_pipelined_fp16", "wmma_pipelined_bf16", "mma_sync_fp16",
                                  "mma_sync_bf16", "mma_sync_tf32", "wgmma_tma_fp16", "wgmma_tma_bf16"])
def test_the_tiled_kernels_state_their_launch(name):
    from tcraw.cubin import symbol_bytes
    assert symbol_bytes(compiler.compile_cubin(kernels.KERNELS[name], "sm_90").image, "tcraw_launch")


def test_06_takes_any_shape_and_copies_only_rows_the_tensor_maps_cannot_take():
    """06 pads nothing (its tile is 1×1×1: the copy engine fills and clips at the edges); an
    operand whose rows are not a multiple of 16 bytes gets a pitched copy, inside the timing, its
    rows padded to a multiple of 128 bytes (a TMA box row: whole sectors and lines)."""
    from tcraw.matmul import Pitched
    k06 = kernels.KERNELS["wgmma_tma_fp16"]
    assert k06.tile == (1, 1, 1) and k06.pitch == 16
    assert k06.padded(1000, 1003, 997) == (1000, 1003, 997)
    assert Pitched.bytes_needed(k06, 1, 4096, 14336) == 0             # aligned: no copy at all
    # K = 997 halves: A's 1994-byte rows to 2048; N = 1003: B's 2006 to 2048, C's (fp32) 4012 to 4096
    assert Pitched.bytes_needed(k06, 1000, 1003, 997) == 2048 * 1000 + 2048 * 997 + 4096 * 1000
    assert Pitched.bytes_needed(k06, 8, 12, 16) == 128 * 16   # B's 24-byte rows; C's 48 are whole


def test_pitched_copies_are_one_kernel_launch_each_way_or_the_drivers_copies(monkeypatch):
    """matmul.pitch_copies: with cuda_src/pitch_rows.cu, A's and B's copies are one launch before
    the kernel (either alone: one launch too) and C's one after, each over every chunk / element;
    where it cannot be built, is turned off (PITCH_KERNELS) or an operand does not start on 16 bytes,
    cuMemcpy2DAsync — one copy an operand, in from the caller's rows and out to them. The kernel
    builds here (NVRTC, no GPU)."""
    from types import SimpleNamespace
    from tcraw import matmul
    from tcraw.compiler import Arch, compile_source
    assert compile_source(compiler.CUDA_SRC / "pitch_rows.cu", Arch(90)).image
    made, launched = [], []
    drv = SimpleNamespace(copier_2d=lambda *a: made.append(a) or (lambda: None))
    fn = lambda entry: SimpleNamespace(entry=entry)   # noqa: E731
    monkeypatch.setattr(matmul, "launcher", lambda f, geometry, args: launched.append((f.entry, geometry, args)))
    kernel = SimpleNamespace(precision=SimpleNamespace(out_dtype=np.dtype(np.float32)))
    ops = {name: SimpleNamespace(ptr=ptr) for name, ptr in (("A", 0x1000), ("B", 0x2000), ("C", 0x3000))}
    plans = {"A": (SimpleNamespace(ptr=0x10000), 128, 24, 5), "B": (SimpleNamespace(ptr=0x20000), 2048, 2006, 997),
             "C": (SimpleNamespace(ptr=0x30000), 4096, 4012, 1000)}
    for names in (("A",), ("B",), ("A", "B"), ("C",), ("B", "C"), ("A", "B", "C")):
        pitched = SimpleNamespace(copies={n: plans[n] for n in names})
        for kernels_there, on, a_ptr in ((True, True, 0x1000), (False, True, 0x1000), (True, False, 0x1000),
                                         (True, True, 0x1008)):
            made.clear(), launched.clear()
            device = SimpleNamespace(drv=drv, pitch_kernels=lambda: kernels_there and (fn("pitch_rows_in"),
                                                                                       fn("pitch_rows_out")))
            monkeypatch.setattr(matmul, "PITCH_KERNELS", on)
            ops["A"].ptr = a_ptr
            before, after = matmul.pitch_copies(device, kernel, ops, pitched)
            ins = [n for n in names if n != "C"]
            if kernels_there and on and (a_ptr % 16 == 0 or "A" not in names):
                assert not made and [e for e, _, _ in launched] == ["pitch_rows_in"] * bool(ins) + \
                    ["pitch_rows_out"] * ("C" in names), names
                for entry, geometry, args in launched:
                    rows = [v for v in args.values if isinstance(v, matmul.PitchRows)]
                    assert all(r.chunks == -(-r.row // 16) for r in rows)   # (a row's 16-byte chunks)
                    if entry == "pitch_rows_out":
                        assert args.values[-1].value == 4   # (C's element: fp32)
                    work = sum(r.rows * (r.chunks if entry == "pitch_rows_in" else r.row // 4) for r in rows)
                    assert geometry.block == (256, 1, 1) and geometry.grid == (-(-work // 256), 1, 1)
                    assert [(r.contiguous, r.padded, r.row, r.pitch, r.rows) for r in rows if r.rows] == \
                        [(ops[n].ptr, plans[n][0].ptr, plans[n][2], plans[n][1], plans[n][3])
                         for n in (ins if entry == "pitch_rows_in" else ["C"])]
            else:   # the driver's: in from the caller's rows (dst, dst pitch, src, src pitch, width, height)
                assert not launched and len(before) == len(ins) and len(after) == ("C" in names)
                assert made == [(plans[n][0].ptr, plans[n][1], ops[n].ptr, plans[n][2], plans[n][2], plans[n][3])
                                for n in ins] + [(ops["C"].ptr, 4012, 0x30000, 4096, 4012, 1000)] * ("C" in names)


def test_a_off_lines_is_copied_to_lines_where_the_model_prices_the_copy_under_the_requests_it_saves():
    """wgmma_copies_a_to_lines (A_LINES=1): A's rows 48, 80 or 112 bytes past a line, tiles of two
    or three consumers in clusters of 1 or 2 not sharing A, where the model's requests term saves
    more than the copy costs. Each shape left uncopied fails one condition alone (the first rule,
    which took any row 16 off 32, copied A at those marked so: its saving beat the copy). A host
    macro: the configured kernel copies A (Kernel.lines, Pitched.plan) and builds the same cubin
    (defines, prebuilt file name) as without it; an override turns it off."""
    from tcraw import matmul
    pick = lambda *shape, elem=2: wgmma.wgmma_pick(*shape, 132, elem)   # noqa: E731
    saving = lambda shape, tile: wgmma.wgmma_model_us(*shape, 132, tile)[0] - \
        wgmma.wgmma_model_us(*shape, 132, tile, a_lines=True)[0]   # noqa: E731
    copy_us = lambda shape: 2 * shape[0] * shape[2] * 2 / wgmma.HBM_BYTES_PER_US + wgmma.LINES_COPY_US   # noqa: E731
    for shape in [(6000, 7344, 1624), (9240, 4648, 14072), (656, 11560, 8824), (1072, 12136, 1624)]:
        assert pick(*shape).get("A_LINES") == 1, shape   # (A's rows 48 or 112 bytes past a line)
    for shape, why in [((4616, 12288, 7112), "rows 16 bytes past a line (copied by the first rule)"),
                       ((4816, 8328, 13088), "rows 64 bytes past one: whole sectors"),
                       ((4224, 13024, 856), "tiles sharing A (copied by the first rule)"),
                       ((2344, 13176, 13464), "clusters of 4 (copied by the first rule)"),
                       ((40, 12768, 7848), "one consumer's tiles (copied by the first rule)"),
                       ((1800, 1960, 2920), "the model's saving under the copy's cost"),
                       ((6000, 7344, 1664), "rows on lines")]:
        picked = pick(*shape)
        assert "A_LINES" not in picked, (shape, why)
        if why.endswith("first rule)") or why.startswith("rows 64"):   # (each fails that condition alone)
            assert saving(shape, {**wgmma.WGMMA_TILE, **picked}) > copy_us(shape), (shape, why)
    assert saving((1800, 1960, 2920), {**wgmma.WGMMA_TILE, **pick(1800, 1960, 2920)}) < copy_us((1800, 1960, 2920))
    # swapped tiles and 8-bit inputs: the model prices no requests for them (and the rule says so)
    for shape, tile, elem in [((6000, 7344, 1624), {"SWAP_AB": 1, "CONSUMERS": 2, "BN": 128, "CLUSTER": 2}, 2),
                              ((6000, 7344, 3120), {"CONSUMERS": 2, "BN": 256, "CLUSTER": 2}, 1)]:   # (48 past)
        assert not wgmma.wgmma_copies_a_to_lines(*shape, 132, tile, elem), (shape, tile)
    k06 = kernels.KERNELS["wgmma_tma_fp16"]
    copied, in_place = k06.configured(6000, 7344, 1624, 132), k06.configured(6000, 7344, 1624, 132, {"A_LINES": 0})
    assert copied.lines == ("A",) and in_place.lines == ()
    assert copied.defines == in_place.defines and copied.file_stem == in_place.file_stem
    assert not any("A_LINES" in d for d in copied.defines)
    # A to 3328-byte rows (3248 → a multiple of 128); B's rows (off lines too) stay where they are
    assert list(matmul.Pitched.plan(copied, 6000, 7344, 1624)) == [("A", 6000, 3248, 3328)]
    assert list(matmul.Pitched.plan(in_place, 6000, 7344, 1624)) == []
    forced = k06.configured(6000, 7344, 1664, 132, {"A_LINES": 1})   # (asked for, on lines: nothing to copy)
    assert forced.lines == ("A",) and list(matmul.Pitched.plan(forced, 6000, 7344, 1664)) == []
    # rows off 16 bytes are copied anyway — once, to the same 128-byte pitch
    assert list(matmul.Pitched.plan(forced, 1000, 1003, 997))[0] == ("A", 1000, 1994, 2048)
    # a pick handed to 10 (M ≤ 4) stays 10 under A_LINES: the host's macro is not 06's code
    assert k06.configured(2, 8192, 4096, 132, {"A_LINES": 0}).source == k06.configured(2, 8192, 4096, 132).source
    for bad in (("C",), "A", ("A", "A"), ("a",)):
        with pytest.raises(UsageError, match="lines is a tuple"):
            dataclasses.replace(in_place, lines=bad)
    with pytest.raises(UsageError, match="reads them at any pitch"):   # (no tensor maps: the copy's pitch unread)
        dataclasses.replace(kernels.KERNELS["wmma_fp16"], lines=("A",))
    with pytest.raises(UsageError, match="realigned in place"):
        dataclasses.replace(k06.configured(48, 4104, 2000, 132, {"B_REALIGN": 1, "CONSUMERS": 1, "BN": 128,
                                                                  "CLUSTER": 1}), lines=("A", "B"))


@pytest.mark.parametrize("key", ["fp16", "bf16"])
def test_every_06_configuration_compiles_without_spills_and_states_its_launch(key):
    """Each configuration the heuristic can pick builds (its tcraw_launch agrees with the
    registry's geometry, which compile_cubin checks) with no spills and HGMMA in its SASS."""
    configs = kernels.KERNELS[f"wgmma_tma_{key}"].configurations()
    # + turns, wide pairs (64×192), narrow pairs (64×64, 13 stages), the two swapped for M ≤ 32 (in
    # clusters of 1, and of 2 where B's rows lie off lines) and the four of three consumers (16–64 of
    # M), the swapped 64×48 streaming B for M of 33–48, the swapped that fit M (FIT_CONFIGS; three
    # consumers' two: FIT_THREE_CONFIGS; one tile of M in clusters of 4 at widths FIT_CONFIGS lacks:
    # LOW_FIT_ONLY; one consumer's halves of M: FIT_ONE_CONFIGS), B realigned (64 and 128 columns), 09,
    # 10 (K's pieces through the workspace, in a cluster); cuBLAS's coopB tiles (COOP_CONFIGS); the
    # 192-row tiles narrower than 192 (NARROW_CONFIGS); tall problems' 192 × 128 (TALL_CONFIG) and
    # 128-row tiles as wide as B (TALL_FIT_ONLY: the widths the ranking lacks) — and each of 06's own
    # again storing C in place (C_PLAIN: wgmma_plain_c), all but 09 and 10's three
    assert kernels.WIDE_PAIRS_ONLY == kernels.WIDE_PAIRS_CONFIGS[:1]   # (64×256 pairs: a candidate already)
    own = len(kernels.WGMMA_CONFIGS) + len(wgmma.NARROW_CONFIGS) + 15 + len(kernels.TALL_FIT_ONLY) + \
        len(kernels.FIT_CONFIGS) + len(kernels.FIT_THREE_CONFIGS) + len(kernels.LOW_FIT_ONLY) + \
        len(kernels.FIT_ONE_CONFIGS) + len(kernels.COOP_CONFIGS)
    assert len({c.file_stem for c in configs}) == len(configs) == 2 * own + 3
    assert sum(c.plain_c for c in configs) == own and all("C_PLAIN=1" in c.variant for c in configs if c.plain_c)
    for config in configs:
        cubin = compiler.compile_cubin(config, "sm_90")
        assert cubin.spill_bytes == 0, config.file_stem
        if sass.find_cuobjdump():   # (09: mma.sync; 10: FFMAs, no tensor op at all)
            counts = sass.tensor_op_counts(cubin.image)
            if config.variant.startswith("10"):
                assert not counts, (config.file_stem, counts)
            else:
                assert counts.get("HMMA" if config.variant == "09" else "HGMMA", 0) > 0, config.file_stem


def test_06_picks_a_configuration_per_problem_and_takes_overrides():
    k06 = kernels.KERNELS["wgmma_tma_fp16"]
    big = k06.configured(8192, 8192, 8192, 132)
    assert big.defines == k06.defines and big.variant == ""          # the registry's tile
    gemv = k06.configured(5, 4096, 4096, 132)
    assert "SWAP_AB=1" in gemv.defines and "BN=16" in gemv.defines   # M along the wgmma's n: no all-padding rows
    assert k06.configured(4, 4096, 4096, 132).source.startswith("10_")   # M of 1–4: 10 (wgmma_runs_gemv)
    for m, bn in [(16, 16), (17, 32), (32, 32)]:   # swapped up to M = 32, M's tile 16 or 32; not at 33
        assert {"SWAP_AB=1", f"BN={bn}"} <= set(k06.configured(m, 4096, 4096, 132).defines), m
    # at 33 one consumer's 64×48 swapped tiles where B streams (wgmma_streams_b_swapped), else unswapped
    assert {"SWAP_AB=1", "CONSUMERS=1", "BN=48"} <= set(k06.configured(33, 4096, 4096, 132).defines)
    assert "SWAP_AB=0" in k06.configured(33, 4096, 1024, 132).defines
    gemv07 = kernels.wgmma_kernel("fp8e4m3").configured(1, 4096, 4096, 132)   # 8-bit operands cannot swap
    assert "CONSUMERS=1" in gemv07.defines and "CLUSTER=1" in gemv07.defines and "SWAP_AB=0" in gemv07.defines
    forced = k06.configured(8192, 8192, 8192, 132, {"BN": 128, "STAGES": 6})
    assert "BN=128" in forced.defines and forced.variant == "BN=128+STAGES=6"
    # 192 columns where their tiles run whole (2048×3072×3072: 128×192 tiles, 2 rounds for 66
    # clusters, no stream-K; 3072³ takes 192×192), and 128×192 never cut along K (measured to lose)
    assert {**kernels.WGMMA_TILE, **kernels.wgmma_config(2048, 3072, 3072, 132)}["CONSUMERS"] == 2
    assert kernels.wgmma_config(2048, 3072, 3072, 132)["BN"] == 192
    for shape in [(384, 4096, 4096), (384, 14336, 4096), (256, 4096, 14336), (512, 512, 32768), (2048, 2048, 2048)]:
        config = kernels.wgmma_config(*shape, 132)
        split = kernels.wgmma_model_us(*shape, 132, {**kernels.WGMMA_TILE, **config})[1]
        assert not (split and config["BN"] == 192 and config["CONSUMERS"] == 2), (shape, config)
    with pytest.raises(UsageError, match="no configuration macro BOGUS.*BN"):
        k06.configured(64, 64, 64, 132, {"BOGUS": 1})
    with pytest.raises(UsageError, match="one configuration"):
        kernels.KERNELS["naive_fp32"].configured(64, 64, 64, 132, {"BN": 1})

def test_b_layout_is_checked_against_what_the_kernel_reads():
    """B stored K-major ("col") is a problem's choice; a kernel that reads only row-major B
    refuses it with the fix, and a layout that is neither is refused as such."""
    from dataclasses import replace
    from tcraw.matmul import Pitched, check_layout
    k06 = kernels.KERNELS["wgmma_tma_fp16"]
    check_layout(k06, "row")
    with pytest.raises(UsageError, match="reads B row-major, not col-major.*b_layout='row'"):
        check_layout(k06, "col")
    with pytest.raises(UsageError, match="'row' .* or 'col'"):
        check_layout(k06, "diagonal")
    kmajor = replace(k06, b_layouts=("col",))
    check_layout(kmajor, "col")
    # K-major B of 8 × 12 (K = 12 halves: 24-byte rows) needs a pitched copy; row-major (N = 8) none
    assert Pitched.bytes_needed(k06, 16, 8, 12, "col") == 128 * 8 + 128 * 16
    assert Pitched.bytes_needed(k06, 16, 8, 16, "row") == 0


@pytest.mark.parametrize("key,op", [("fp8e4m3", "QGMMA.64x256x32.F32.E4M3.E4M3"), ("fp8e5m2", "QGMMA.64x256x32.F32.E5M2.E5M2"),
                                    ("fp8e4m3bf16", "QGMMA.64x256x32.F32.E4M3.E4M3"),
                                    ("int8", "IGMMA.64x256x32.S8.S8"), ("tf32", "HGMMA.64x256x8.F32.TF32")])
def test_07_builds_the_k_major_wgmma_forms(key, op):
    """07 is 06's machinery for FP8, INT8 and TF32 with B K-major: every configuration builds
    without spills, states its launch (TMA boxes of K-major B), and its SASS holds the type's
    own warpgroup MMA."""
    k07 = kernels.wgmma_kernel(key)
    assert k07.b_layouts == ("col",) and k07.source.startswith("07_") and k07.precision.key == key
    assert k07.tma_boxes[1] == (64, 128 // k07.precision.in_dtype.itemsize)   # 64 rows of N × 128 bytes of K
    for config in k07.configurations()[:3]:
        assert compiler.compile_cubin(config, "sm_90").spill_bytes == 0, config.file_stem
    if sass.find_cuobjdump():
        import subprocess
        import tempfile
        with tempfile.NamedTemporaryFile(suffix=".cubin") as f:
            f.write(compiler.compile_cubin(k07, "sm_90").image)
            f.flush()
            dump = subprocess.run([sass.find_cuobjdump(), "--dump-sass", f.name], capture_output=True, text=True).stdout
        assert op in dump


@pytest.mark.parametrize("arch,shape", [("sm_80", "DMMA.884"), ("sm_90", "DMMA.16x8x4")])
def test_08_builds_dmma_without_spills(arch, shape):
    """08: fp64 through mma.sync — m8n8k4 on sm_80, Hopper's full-rate m16n8k4 on sm_90 — in the
    SASS, the launch it states agrees with the registration (compile_cubin checks), no spills, as
    it runs and as two 128×64 blocks per SM (whose shared memory must fit two blocks in sm_90's
    228 KB, each with the 1 KB the driver reserves)."""
    k08 = kernels.KERNELS["dmma_fp64"]
    assert k08.precision.key == "fp64" and k08.tile == (128, 128, 16)
    assert k08.configured(8192, 8192, 8192, 132).defines == k08.defines
    two = k08.configured(4096, 4096, 4096, 132, {"BN": 64, "WARPS_N": 2, "MIN_BLOCKS": 2})
    geometry = two.geometry(4096, 4096, 4096)
    assert two.tile == (128, 64, 16) and geometry.block == (128, 1, 1)
    assert 2 * (geometry.smem_bytes + 1024) <= 228 * 1024
    for config in (k08, two):
        cubin = compiler.compile_cubin(config, arch)
        assert cubin.spill_bytes == 0, config.file_stem
        if (tool := sass.find_cuobjdump()):
            assert shape in sass.dump_sass(cubin.image, tool), config.file_stem
    with pytest.raises(Exception, match="even number of k steps"):   # k16 on a 16-deep slice: one step
        compiler.compile_cubin(k08.configured(64, 64, 64, 132, {"DMMA_K": 16}), "sm_90")


def test_the_stream_k_test_shapes_still_cut_as_described():
    """test_gpu's stream-K shapes exercise what its comment says under today's picks (the picks
    move when the model does): (tiles, slices a tile, clusters, split-K pieces, stream-K share)."""
    from test_gpu import STREAM_K_SHAPES
    schedules = [kernels.wgmma_schedule(*shape, 132, {**kernels.WGMMA_TILE, **kernels.wgmma_config(*shape, 132)})
                 for shape in STREAM_K_SHAPES]
    assert schedules == [(280, 33, 66, 1, 17), (290, 32, 66, 1, 16), (32, 33, 132, 4, 0), (96, 64, 132, 1, 0)]


def test_stream_k_cuts_a_partial_round_only_after_four_whole_ones():
    """Fewer tiles than clusters: stream-K would cut every tile (measured slower on the H200:
    384×4096×4096 36.5 µs against 26.3 whole); after one to three whole rounds too (384×14336×4096
    in 128×192 tiles: 72.5 µs whole, 86 cut), so 06 runs them whole; after four or more the partial
    round is cut when that saves SPLIT_MIN_SAVED slices (8192³: 5.7 % faster). STREAM_K_ROUNDS=1
    cuts it after one, as before; 0 cuts every tile, with no whole round first (measured slower at
    M ≤ 32 against a large B: docs/results/2026-12-02-h200-small-m-split-rounds/)."""
    tile = kernels.WGMMA_TILE
    assert kernels.stream_k_share(96, 64, 132, tile) == 0
    assert kernels.stream_k_share(131, 64, 132, tile) == 0
    assert kernels.stream_k_share(132 + 40, 64, 132, tile) == 0
    assert kernels.stream_k_share(132 + 40, 64, 132, {**tile, "STREAM_K_ROUNDS": 1}) == 32
    assert kernels.stream_k_share(3 * 132 + 93, 64, 132, tile) == 0
    assert kernels.stream_k_share(4 * 132 + 40, 64, 132, tile) == 32
    assert kernels.stream_k_share(4 * 132, 64, 132, tile) == 0   # no partial round
    # STREAM_K_ROUNDS=0: with no whole round, every tile cut — each cluster's stretch 96/132 of a tile
    assert kernels.stream_k_share(96, 64, 132, {**tile, "STREAM_K_ROUNDS": 0}) == 47


def test_split_k_in_several_rounds_cuts_tiles_only_where_the_rounds_take_a_tenth_less():
    """SPLIT_ROUNDS=R: where the tiles are more than half the clusters, the p whose rounds of
    pieces (clusters // p tiles a round) take the least tile-times, if a tenth less than whole
    tiles'; the one-round rule first; R=1 as before. The workspace holds R partial tiles and R
    counters a block; the build has no spills; R past 8 or below 1 is refused by name."""
    tile = {**kernels.WGMMA_TILE, **kernels.SWAPPED_CONFIGS[1], "SPLIT_ROUNDS": 2}
    assert kernels.split_pieces(86, 185, 132, tile) == 3 and kernels.split_round_tiles(86, 3, 132, tile) == 44
    assert kernels.split_pieces(40, 185, 132, tile) == 3 and kernels.split_round_tiles(40, 3, 132, tile) == 40
    assert kernels.split_pieces(112, 64, 132, tile) == 1            # 2 pieces: 2 rounds of half a tile, no less
    assert kernels.split_pieces(112, 64, 132, {**tile, "SPLIT_ROUNDS": 8}) == 8   # 7 rounds of 16 tiles' eighths
    assert kernels.split_pieces(86, 11, 132, tile) == 1   # 2 pieces save nothing, 3 would be under SPLIT_MIN_SLICES
    assert kernels.split_pieces(86, 185, 132, {**tile, "SPLIT_ROUNDS": 1}) == 1
    assert kernels.split_round_tiles(86, 3, 132, {**tile, "SPLIT_ROUNDS": 1}) == 86
    two, one = (kernels.wgmma_kernel("fp16", {**tile, "SPLIT_ROUNDS": r}, choose=False) for r in (2, 1))
    assert two.workspace(132) - one.workspace(132) == 4 * 132 + 132 * 128 * 32 * 4
    assert compiler.compile_cubin(two, 90).spill_bytes == 0
    for bad in (0, 9):
        with pytest.raises(UsageError, match=f"SPLIT_ROUNDS={bad}"):
            kernels.wgmma_kernel("fp16", {"SPLIT_ROUNDS": bad}, choose=False)
    with pytest.raises(UsageError, match="SPLIT_ROUNDS=2"):   # (three consumers of 192: spills)
        kernels.wgmma_kernel("fp16", {"CONSUMERS": 3, "BN": 192, "STAGES": 3, "SPLIT_ROUNDS": 2}, choose=False)


def test_split_k_sum_loads_at_once_build_without_spills_and_refuse_what_cannot():
    """SPLIT_LOADS (the split-K sum's loads at once over 3+ pieces): 16 and 1 build different code
    without spills at the widest tiles — bf16 C's 64-column boxes included — and 0 or 33 is
    refused by name."""
    for key, tile in [("fp16", {"BN": 256}), ("fp8e4m3bf16", {"BN": 256}), ("bf16", {"SWAP_AB": 1, "BN": 16, "CLUSTER": 1})]:
        images = []
        for loads in (16, 1):
            cubin = compiler.compile_cubin(kernels.wgmma_kernel(key, {**tile, "SPLIT_LOADS": loads}, choose=False), "sm_90a")
            assert cubin.spill_bytes == 0, (key, tile, loads)
            images.append(cubin.image)
        assert images[0] != images[1], (key, tile)   # the macro reaches the code
    for loads in (0, 33):
        with pytest.raises(UsageError, match=f"SPLIT_LOADS={loads}"):
            kernels.wgmma_kernel("fp16", {"SPLIT_LOADS": loads}, choose=False)


def test_memory_bound_small_m_runs_whole_tiles_of_128_rows():
    """M = 128 against N = 11008 or 14336 (K = 4096): one cluster's 128 rows per column strip, each
    whole, one round — B streamed once: 128-row tiles (86 and 112 of them on 132 SMs) measured
    0.91–0.98× cuBLAS against 0.80–0.86× for the 64×128 tiles in clusters of two picked before
    them; now two 64-row tiles sharing B in a cluster, 192 or 256 columns wide (58 and 56 clusters
    of 66: wgmma_pairs_wide, 0.95–1.03×). M = 384 picks 128-row tiles, not clusters of two
    256-row ones (a quarter padding)."""
    for n, bn in ((11008, 192), (14336, 256)):
        config = kernels.wgmma_config(128, n, 4096, 132)
        assert (config["CONSUMERS"], config["BN"], config["CLUSTER"]) == (1, bn, 2)
        tiles, _, clusters, p, share = kernels.wgmma_schedule(128, n, 4096, 132, {**kernels.WGMMA_TILE, **config})
        assert tiles == -(-n // bn) < clusters and p == 1 and share == 0   # (a tile: the cluster's 128 × bn)
    config = kernels.wgmma_config(384, 4096, 4096, 132)
    assert (config["CONSUMERS"], config["CLUSTER"]) == (2, 1)


def test_one_consumer_is_picked_for_one_round_and_keeps_a_slice_in_flight():
    """One consumer's tiles (M > 64) only where they run in one round — with several, they
    measured 1–13 % slower than two consumers' — and then with one slice's MMAs in flight
    (WAIT_DEPTH=1); two consumers' without."""
    sizes = [65, 128, 192, 256, 384, 512, 1024, 2048, 3072, 6144]
    ones = 0
    for m, n, k in itertools.product(sizes, sizes, [256, 4096, 32768]):
        config = kernels.wgmma_config(m, n, k, 132)
        macros = kernels.KERNELS["wgmma_tma_fp16"].configured(m, n, k, 132).defines
        if config.get("SWAP_AB") or config["CONSUMERS"] >= 2:
            assert "WAIT_DEPTH=0" in macros, (m, n, k)
            continue
        ones += 1
        tiles, _, clusters, p, _ = kernels.wgmma_schedule(m, n, k, 132, {**kernels.WGMMA_TILE, **config})
        assert p > 1 or tiles <= clusters, (m, n, k, config)
        assert "WAIT_DEPTH=1" in macros, (m, n, k)
    assert ones > 20   # the rule leaves one consumer plenty to do
    # measured wins that moved to one consumer (64×128 tiles, clusters of 2) with its refitted rate
    for shape in [(256, 4096, 4096), (512, 1536, 4096)]:
        config = kernels.wgmma_config(*shape, 132)
        assert (config["CONSUMERS"], config["BN"], config["CLUSTER"]) == (1, 128, 2), shape


def test_small_swapped_tiles_keep_a_slice_in_flight():
    """Two consumers' swapped tiles of at most SWAPPED_IN_FLIGHT_BN of M and three consumers' of
    at most THREE_IN_FLIGHT_BN (a slice a few small MMAs) build with WAIT_DEPTH=1; wider ones (two
    consumers' fit forms, three consumers' 144-wide fits), unswapped ones and any asked for with 0
    build with 0."""
    k06 = kernels.KERNELS["wgmma_tma_fp16"]
    bound = kernels.SWAPPED_IN_FLIGHT_BN
    for m, n, k in [(8, 4008, 1808), (16, 11008, 4096), (23, 5088, 10488), (32, 15816, 6712)]:
        macros = wgmma_macros(k06.configured(m, n, k, 132).defines)
        assert (macros["SWAP_AB"], macros["CONSUMERS"]) == (1, 2) and macros["BN"] <= bound, (m, n, k)
        assert macros["WAIT_DEPTH"] == 1, (m, n, k)
        told = wgmma_macros(k06.configured(m, n, k, 132, {"WAIT_DEPTH": 0}).defines)
        assert told["WAIT_DEPTH"] == 0 and told["BN"] == macros["BN"], (m, n, k)
    for config, depth in [({"SWAP_AB": 1, "CONSUMERS": 2, "BN": bound + 16, "CLUSTER": 1}, 0),
                          ({"SWAP_AB": 0, "CONSUMERS": 2, "BN": 128, "CLUSTER": 1}, 0),
                          ({"SWAP_AB": 1, "CONSUMERS": 3, "BN": kernels.THREE_IN_FLIGHT_BN, "CLUSTER": 2}, 1),
                          ({"SWAP_AB": 1, "CONSUMERS": 3, "BN": kernels.THREE_IN_FLIGHT_BN + 16, "CLUSTER": 2}, 0)]:
        macros = wgmma_macros(k06.configured(16, 11008, 4096, 132, config).defines)
        assert macros["WAIT_DEPTH"] == depth, config
    three = wgmma_macros(k06.configured(17, 7000, 4096, 132).defines)   # B's rows off 128-byte lines
    assert (three["SWAP_AB"], three["CONSUMERS"], three["WAIT_DEPTH"]) == (1, 3, 1)
    fit = wgmma_macros(k06.configured(395, 6500, 997, 132).defines)   # a fit form: BN 208, two consumers
    assert (fit["SWAP_AB"], fit["CONSUMERS"], fit["WAIT_DEPTH"]) == (1, 2, 0) and fit["BN"] > bound
    for shape in [(272, 12376, 9496), (265, 12184, 3688)]:   # three consumers' 144-wide fits
        fit = wgmma_macros(k06.configured(*shape, 132).defines)
        assert (fit["SWAP_AB"], fit["CONSUMERS"], fit["BN"], fit["WAIT_DEPTH"]) == (1, 3, 144, 0), shape


def test_small_swapped_tiles_pair_up_where_b_rows_lie_off_lines():
    """16-bit M ≤ 32: two consumers' swapped tiles run in clusters of 2 along N (the pair sharing
    A's rows, kernels.SWAPPED_PAIRS_CONFIGS) where B's rows start off 128-byte lines (32, 48 or 80
    bytes off here), and in clusters of 1 where they lie on lines (N not a multiple of 8 goes to
    09 instead); a cluster asked for still stands — clusters of 4 too, each block copying 4 of
    A's 16 rows (a piece starting mid 8-row swizzle atom)."""
    k06 = kernels.KERNELS["wgmma_tma_fp16"]
    for (m, n, k), cluster in [((16, 14424, 15080), 2), ((26, 15720, 15688), 2), ((8, 4008, 1808), 2),
                               ((31, 2000, 1000), 2), ((5, 13968, 1768), 2), ((16, 11008, 4096), 1),
                               ((12, 10240, 10240), 1), ((23, 13504, 14280), 1), ((5, 10880, 7264), 1)]:
        for key in ("fp16", "bf16"):
            macros = wgmma_macros(kernels.KERNELS[f"wgmma_tma_{key}"].configured(m, n, k, 132).defines)
            assert (macros["SWAP_AB"], macros["CONSUMERS"], macros["BN"]) == (1, 2, 16 if m <= 16 else 32), (m, n, k)
            assert macros["CLUSTER"] == cluster and macros["WAIT_DEPTH"] == 1, (m, n, k, key, macros)
            assert (kernels.box_row_requests(n * 2) > 1) == (cluster == 2)
    assert "CLUSTER=1" in k06.configured(16, 14424, 15080, 132, {"CLUSTER": 1}).defines
    four = k06.configured(16, 14424, 15080, 132, {"CLUSTER": 4})
    assert "CLUSTER=4" in four.defines and four.tma_boxes[0] == (4, 64)
    assert k06.configured(13, 1003, 997, 132).source != k06.source   # (pitched N: 09's, not 06's)


def test_06_overrides_refit_the_stages_and_refuse_what_cannot_build():
    k06 = kernels.KERNELS["wgmma_tma_fp16"]
    # 07's M = 1 pick is one consumer × 128 columns, 8 stages; a second consumer only fits 6
    # — and one slice's MMAs in flight, which a second consumer does not keep
    one = kernels.wgmma_kernel("fp8e4m3").configured(1, 4096, 4096, 132)
    assert "CONSUMERS=1" in one.defines and "WAIT_DEPTH=1" in one.defines
    two = kernels.wgmma_kernel("fp8e4m3").configured(1, 4096, 4096, 132, {"CONSUMERS": 2})
    assert "CONSUMERS=2" in two.defines and "STAGES=6" in two.defines and "WAIT_DEPTH=0" in two.defines
    # 06's M = 64 pick is one consumer × 64 columns, 8 stages; two consumers × 128 columns fit 6
    wide = k06.configured(64, 4096, 4096, 132, {"CONSUMERS": 2, "BN": 128})
    assert "CONSUMERS=2" in wide.defines and "BN=128" in wide.defines and "STAGES=6" in wide.defines
    # a WAIT_DEPTH asked for stands, in the registry's macros or a run's overrides
    for told in (kernels.wgmma_kernel("fp16", {"WAIT_DEPTH": 0}).configured(64, 4096, 4096, 132),
                 k06.configured(64, 4096, 4096, 132, {"WAIT_DEPTH": 0})):
        assert "CONSUMERS=1" in told.defines and "WAIT_DEPTH=0" in told.defines
    # promotion reads the sums after every batch: no slice left in flight, unless asked (and refused)
    promoted = k06.configured(64, 4096, 4096, 132, {"PROMOTE": 1})
    assert "CONSUMERS=1" in promoted.defines and "WAIT_DEPTH=0" in promoted.defines
    single = k06.configured(64, 4096, 4096, 132, {"STAGES": 1})   # nothing to keep a slice in flight with
    assert "STAGES=1" in single.defines and "WAIT_DEPTH=0" in single.defines
    for bad, words in [({"CLUSTER": 3}, "CLUSTER 1, 2 or 4"), ({"PROMOTE": 1, "WAIT_DEPTH": 1, "BN": 128}, "0 with PROMOTE"),
                       ({"STAGES": 9}, "at most STAGES=4"),
                       ({"PROMOTE": 1}, "BN of at most 128"), ({"BN": 72}, "BN a multiple of 16 from 64 to 256")]:
        with pytest.raises(UsageError, match=words):
            k06.configured(8192, 8192, 8192, 132, bad)
    fixed = kernels.wgmma_kernel("fp16", {"STAGES": 3}, choose=False)   # a tune_ladder variant
    with pytest.raises(UsageError, match="one configuration"):
        fixed.configured(64, 64, 64, 132, {"BN": 64})


def test_fp8_has_no_cublas_yardstick_without_cublaslt():
    from tcraw.bench import yardstick
    with pytest.raises(UsageError, match="no cuBLAS yardstick.*CublasLt"):
        yardstick(None, None, "fp8e4m3", None, lt=None)
    for lt in (None, object()):   # E5M2×E5M2: cuBLASLt has none either — said, not attempted
        with pytest.raises(UsageError, match="no E5M2×E5M2"):
            yardstick(None, None, "fp8e5m2", None, lt=lt)


def test_a_rows_limits_the_problems_a_configuration_takes():
    """A_ROWS=16 loads 16 rows of A a slice: right only while M ≤ 16, refused beyond."""
    from tcraw.matmul import check_operands
    from tcraw.runtime import DeviceBuffer
    k06 = kernels.KERNELS["wgmma_tma_fp16"]
    unswapped = {"SWAP_AB": 0, "CONSUMERS": 1, "BN": 128}   # M = 8 would pick the swapped form
    small = k06.configured(8, 4096, 4096, 132, {**unswapped, "A_ROWS": 16})
    assert small.max_m == 16 and small.tma_boxes[0] == (16, 64)
    assert compiler.compile_cubin(small, "sm_90").spill_bytes == 0   # its stated launch agrees (A box 16 rows)
    fake = DeviceBuffer.__new__(DeviceBuffer)
    fake.dtype, fake.nbytes, fake.ptr = None, 1 << 30, 0
    with pytest.raises(UsageError, match="M up to 16.*M is 17"):
        check_operands(small, fake, fake, fake, 17, 4096, 4096)
    with pytest.raises(UsageError, match="A_ROWS=12"):
        k06.configured(8, 4096, 4096, 132, {**unswapped, "A_ROWS": 12})


def test_a_persistent_grid_is_cut_to_what_the_device_holds_at_once():
    """06's blocks wait for each other (split-K, stream-K), so all must be resident: a grid of 66
    clusters of 2 on a device that holds 60 of them at once (cuOccupancyMaxActiveClusters) is cut
    to 120 blocks, one that holds them all keeps 132, clusters of 4 where 30 fit (the H200) get
    120, and a device that holds none is refused by name, not launched to hang. The question is
    asked once the kernel may have its shared memory: before that the driver counts none (as it
    did on the H200 — every cluster size 0)."""
    from types import SimpleNamespace
    from tcraw.matmul import resident_geometry
    shape = (1024, 1024, 8192)   # picked in clusters of 2
    for tile, held, blocks in (({}, 60, 120), ({}, 66, 132), ({"CLUSTER": 4}, 30, 120), ({}, 0, None)):
        k06 = kernels.KERNELS["wgmma_tma_fp16"].configured(*shape, 132, tile)
        fn = SimpleNamespace(max_dynamic_smem=48 * 1024, module=SimpleNamespace(
            device=SimpleNamespace(name="GPU", sm_count=132)))
        fn.set_max_dynamic_smem = lambda nbytes, fn=fn: setattr(fn, "max_dynamic_smem", nbytes)
        fn.max_active_clusters = lambda g, fn=fn, held=held: held if fn.max_dynamic_smem >= g.smem_bytes else 0
        if blocks is None:
            with pytest.raises(UsageError, match="clusters of 2 .* GPU holds none of them at once"):
                resident_geometry(k06, fn, *shape)
        else:
            assert resident_geometry(k06, fn, *shape).grid == (blocks, 1, 1), (tile, held)
    assert kernels.clusters_held(132, 4) == 30 and kernels.clusters_held(132, 2) == 66


def test_the_occupancy_question_is_asked_once_per_geometry():
    """Function.max_active_clusters asks the driver once per launch geometry: a run's launchers
    (one per rotated input set) share the answer, and the trace shows one call."""
    from types import SimpleNamespace
    from tcraw.kernels import Geometry
    from tcraw.runtime import Function
    calls = []
    fn = Function.__new__(Function)   # no driver here: only what max_active_clusters reads
    fn.handle, fn._active_clusters = 7, {}
    fn.module = SimpleNamespace(drv=SimpleNamespace(occupancy_max_active_clusters=lambda *a: calls.append(a) or 66))
    for _ in range(3):
        assert fn.max_active_clusters(Geometry((132, 1, 1), (384, 1, 1), 230464)) == 66
    assert calls == [(7, (132, 1, 1), (384, 1, 1), 230464)]
    fn.max_active_clusters(Geometry((132, 1, 1), (384, 1, 1), 200000))
    assert len(calls) == 2


def test_swapped_64x48_tiles_stream_b_for_m_of_33_to_48():
    """wgmma_streams_b_swapped: M of 33–48, N a multiple of 8, K of 32 slices or more at 16 bits and
    one round of N's 64-row tiles filling 36 % or more of the SMs — the pick one consumer's swapped
    64 of N by 48 of M in clusters of 2 along N, 8 stages (14 fit, and measured slower); not past
    any bound, nor for 8-bit or TF32 inputs (kernels.STREAM_B_SWAPPED_CONFIG)."""
    config = kernels.STREAM_B_SWAPPED_CONFIG
    assert config == {"SWAP_AB": 1, "CONSUMERS": 1, "BN": 48, "CLUSTER": 2, "STAGES": 8}
    assert kernels.wgmma_max_stages(1, 48, most=16, swap=True) == 14
    # (taken before wgmma_streams_b_wide, which yields these to it; rows off lines too)
    for shape in [(33, 6400, 10240), (48, 7000, 8192), (40, 8320, 6144), (36, 4096, 14336), (41, 5000, 6200),
                  (48, 8448, 6144), (33, 4056, 6144), (39, 6912, 2048), (37, 3096, 2056), (36, 3072, 12288),
                  (40, 3072, 2048)]:   # (3072: 48 tiles — 36.4 % of 132; both bounds at once)
        assert kernels.wgmma_config(*shape, 132) == config and kernels.wgmma_pick(*shape, 132) == config, shape
        assert "SWAP_AB=1" in kernels.KERNELS["wgmma_tma_bf16"].configured(*shape, 132).defines
    # each bound, the others met: M 32 (two consumers' 32-wide swapped tiles) and 49, N off 8 (B
    # realigned), K a slice short, 47 tiles (35.6 %) and 133 (two rounds), 8-bit and 32-bit inputs
    for m, n, k in [(32, 6400, 10240), (49, 6400, 10240), (40, 6404, 10240), (40, 6400, 1984), (40, 3008, 10240),
                    (40, 8456, 10240)]:
        assert not kernels.wgmma_streams_b_swapped(m, n, k, 132), (m, n, k)
        assert kernels.wgmma_config(m, n, k, 132) != config, (m, n, k)
    for elem_bytes in (1, 4):   # (K of 32 slices or more at either width)
        assert not kernels.wgmma_streams_b_swapped(40, 6400, 12288, 132, elem_bytes)
    assert not kernels.wgmma_streams_b_swapped(40, 6400, 10240, 300)   # (100 tiles: 33 % of 300 SMs)
    assert kernels.wgmma_streams_b_swapped(40, 3200, 10240, 100)


def test_three_consumers_swapped_tiles_stream_b_off_lines_for_m_up_to_64():
    """wgmma_streams_b_wide: M ≤ 64, N a multiple of 8 with B's rows off 128-byte lines, and two
    consumers' 128-column tiles one round up to 75 % of the SMs — from 64 slices of K at 16 bits
    and 40 % of the SMs at M ≤ 32, 64 and 25 % at M of 33–48 (and not where the 64×48 swapped
    tiles are taken), 96 and 30 % at M of 49–64 — the pick three consumers' swapped tiles (192 of
    N by 16, 32, 48 or 64 of M) in clusters of 2 along N, the most stages that fit; not past any
    bound, nor for 8-bit or TF32 inputs (kernels.STREAM_B_WIDE_CONFIGS)."""
    c16, c32, c48, c64 = kernels.STREAM_B_WIDE_CONFIGS
    assert c16 == {"SWAP_AB": 1, "CONSUMERS": 3, "BN": 16, "CLUSTER": 2, "STAGES": 6}
    assert (c32, c48, c64) == ({**c16, "BN": 32}, {**c16, "BN": 48, "STAGES": 5}, {**c16, "BN": 64, "STAGES": 5})
    for shape, config in [((6, 8648, 13304), c16), ((5, 11440, 12624), c16), ((16, 11448, 4160), c16),
                          ((17, 7000, 4096), c32), ((32, 11000, 11784), c32), ((32, 12664, 4096), c32),
                          ((9, 6760, 4096), c16),   # (6760: 53 tiles — 40.2 % of 132; 12664: 99, 75 %)
                          ((33, 8520, 6160), c48), ((48, 10088, 6160), c48), ((40, 11056, 4096), c48),
                          ((49, 5112, 6144), c64), ((64, 12600, 6144), c64)]:   # (5112: 40 tiles — 30.3 %)
        assert kernels.wgmma_config(*shape, 132) == config and kernels.wgmma_pick(*shape, 132) == config, shape
        assert "CONSUMERS=3" in kernels.KERNELS["wgmma_tma_bf16"].configured(*shape, 132).defines
    # each bound, the others met: M 65, N off 8 (09 reads B in place), rows on lines (N a multiple of
    # 64), K a slice short (at M of 49–64: 95 slices), 52 tiles (39.4 %) at M ≤ 32 and 39 (29.5 %)
    # at 49–64, 100 (75.8 %) at any M, M of 33–48 where the 64×48 swapped tiles are taken
    # (40×6408×8192); 8-bit and 32-bit inputs. Rows 32 bytes past a line's start (N 16 × an odd
    # number) straddle two lines a box row: taken.
    assert kernels.wgmma_streams_b_wide(20, 11024, 8192, 132)   # (22048 bytes: 32 past a line)
    for m, n, k in [(65, 8648, 13304), (2, 8652, 13304), (2, 10240, 13304), (40, 10240, 13304), (2, 8648, 4032),
                    (40, 8648, 4032), (50, 5112, 6080), (64, 12600, 4096), (2, 6648, 8192), (50, 4984, 8192),
                    (2, 12680, 8192), (40, 12680, 8192), (60, 12680, 8192), (40, 6408, 8192)]:
        assert not kernels.wgmma_streams_b_wide(m, n, k, 132), (m, n, k)
        assert kernels.wgmma_config(m, n, k, 132) not in kernels.STREAM_B_WIDE_CONFIGS, (m, n, k)
    for elem_bytes in (1, 4):
        assert not kernels.wgmma_streams_b_wide(2, 8648, 16384, 132, elem_bytes)
        assert not kernels.wgmma_streams_b_wide(40, 8648, 16384, 132, elem_bytes)
    assert kernels.wgmma_pick(5, 9104, 1400, 132) == kernels.SWAPPED_PAIRS_CONFIGS[0]   # (22 slices: two consumers)


def test_wide_pairs_of_one_consumers_tiles_where_they_fill_the_gpu_in_one_round():
    """wgmma_pairs_wide: one consumer's 64×192 or 64×256 tiles in clusters of 2 along M, K whole,
    where M is two 64-row tiles, K of 4096 or more at 16 bits and the width's clusters fill 70 %
    or more of the device's in one round — the width with the most; on the H200 faster at 16 of
    the 17 shapes timed where it changed the pick at 80 %, at 11 of 12 more drawn where 70 % adds
    it, and slower at 3 of the 4 it leaves (kernels.WIDE_PAIRS_CONFIGS)."""
    w192, w256 = (kernels.WIDE_PAIRS_CONFIGS[i] for i in (0, 1))
    assert (w192["BN"], w192["STAGES"], w256["BN"], w256["STAGES"]) == (192, 6, 256, 5)
    fires = {(128, 11008, 4096): w192, (96, 11008, 4096): w192, (80, 11008, 6144): w192, (120, 11008, 5120): w192,
             (100, 12288, 4096): w192, (90, 11904, 11840): w192, (107, 11504, 12256): w192,
             (128, 14336, 4096): w256, (112, 14336, 4096): w256, (95, 13344, 9032): w256}
    for shape, config in fires.items():
        assert kernels.wgmma_config(*shape, 132) == config, shape
        for key in ("fp16", "bf16"):
            assert kernels.KERNELS[f"wgmma_tma_{key}"].configured(*shape, 132).defines == \
                kernels.KERNELS[f"wgmma_tma_{key}"].configured(*shape, 132, config).defines
        assert kernels.wgmma_pairs_wide(*shape, 132, elem_bytes=1) is None   # (8-bit, TF32: not measured)
        assert kernels.wgmma_pairs_wide(*shape, 132, elem_bytes=4) is None
    # where neither width fills 70 % of the clusters (N of 4096–8192: the pairs lost at three of
    # these four; at 128×5120×5120, 27 clusters, 64×192 measured 0.87 against the pick's 0.85×)
    for shape in [(128, 4096, 4096), (128, 4096, 11008), (128, 8192, 8192), (128, 5120, 5120)]:
        assert kernels.wgmma_pairs_wide(*shape, 132) is None, shape
    # each condition, the others met: one tile row, three, K a slice short of 64, 46 clusters of
    # 64×192 (70 % of 66 is 46.2) and 47, 66 and 67 (two rounds: 64×256's 50 then), 64×256's 53 and 67
    assert kernels.wgmma_pairs_wide(64, 11008, 4096, 132) is None
    assert kernels.wgmma_pairs_wide(129, 11008, 4096, 132) is None
    assert kernels.wgmma_pairs_wide(128, 11008, 4032, 132) is None
    assert kernels.wgmma_pairs_wide(128, 46 * 192, 4096, 132) is None
    assert kernels.wgmma_pairs_wide(128, 46 * 192 + 1, 4096, 132) == w192
    # fresh shapes where 70 % fires and 80 % did not: 64×192 (47–52 clusters), 64×256 where 64×192 takes two rounds
    assert kernels.wgmma_config(91, 9960, 9584, 132) == w192 and kernels.wgmma_config(67, 12936, 13520, 132) == w256
    assert kernels.wgmma_pairs_wide(128, 66 * 192, 4096, 132) == w192
    assert kernels.wgmma_pairs_wide(128, 66 * 192 + 1, 4096, 132) == w256
    assert kernels.wgmma_pairs_wide(128, 52 * 256 + 1, 4096, 132) == w256
    assert kernels.wgmma_pairs_wide(128, 66 * 256 + 1, 4096, 132) is None
    # other SM counts: in proportion (100 SMs, 50 clusters: 64×192's 58 take two rounds, 64×256's 43 fill 86 %)
    assert kernels.wgmma_pairs_wide(128, 11008, 4096, 100) == w256
    assert kernels.wgmma_pairs_wide(128, 11008, 4096, 2) is None


def test_two_rows_of_one_consumers_tiles_pair_up_where_k_is_long():
    """wgmma_pairs_rows: 64×128 tiles in clusters of 2 along M replace the model's 64×64 in
    clusters of 1 with M of 65–128, N over 512 and K of 4096 or more at 16 bits, where they
    measured faster (kernels.PAIRED_ROWS_CONFIG) — not with short K, one tile row, 8-bit or TF32
    inputs, or another pick; and the registry's 06 builds them."""
    faster = [(72, 4096, 4096), (76, 4096, 4096), (80, 1024, 8192), (96, 1024, 8192), (112, 4096, 6144),
              (76, 1024, 11008), (100, 1024, 11008), (96, 1024, 4096), (128, 4096, 4096),
              (106, 1536, 8192), (77, 2048, 14336), (93, 8192, 14336), (100, 4096, 4096)]
    # (116×1024×4096 it takes too, where it measured +4 %: the one loss where it fires; and it
    # leaves out 88×512×14336, where the pair measured 0.98× the time: N = 512 lost at the other four)
    slower = [(120, 4096, 1024), (128, 2560, 2048), (124, 4096, 2048), (120, 2560, 2048), (66, 2048, 2048),
              (71, 512, 14336), (69, 512, 8192), (118, 512, 5000), (115, 512, 5000)]
    one_64 = {"CONSUMERS": 1, "BN": 64, "CLUSTER": 1, "STAGES": 8}
    for shape in faster:   # (or half as wide where those fill one round: wgmma_pairs_narrow, tested below)
        narrow = kernels.wgmma_pairs_narrow(*shape, 132, kernels.PAIRED_ROWS_CONFIG)
        assert kernels.wgmma_config(*shape, 132) == \
            (kernels.NARROW_PAIRS_CONFIG if narrow else kernels.PAIRED_ROWS_CONFIG), shape
        for elem_bytes in (1, 4):   # FP8/INT8, TF32: not measured (the model may pick the same tiles itself)
            assert not kernels.wgmma_pairs_rows(*shape, one_64, elem_bytes=elem_bytes), shape
    for shape in slower:
        assert kernels.wgmma_config(*shape, 132) == one_64, shape
    assert kernels.wgmma_pairs_rows(128, 4096, 4096, one_64)
    # what each condition keeps out, the others met: one tile row, three, N of four 128-column
    # tiles, K one slice short of 64, 8-bit inputs at the same bytes of K, another pick
    assert not kernels.wgmma_pairs_rows(64, 4096, 4096, one_64)
    assert not kernels.wgmma_pairs_rows(129, 4096, 4096, one_64)
    assert not kernels.wgmma_pairs_rows(128, 512, 4096, one_64)
    assert kernels.wgmma_pairs_rows(128, 520, 4096, one_64)
    assert not kernels.wgmma_pairs_rows(128, 4096, 4032, one_64)
    assert not kernels.wgmma_pairs_rows(128, 4096, 8192, one_64, elem_bytes=1)
    assert not kernels.wgmma_pairs_rows(128, 4096, 4096, {**one_64, "CLUSTER": 2})
    defines = kernels.KERNELS["wgmma_tma_bf16"].configured(106, 1536, 8192, 132).defines
    assert {"CONSUMERS=1", "BN=128", "CLUSTER=2", "STAGES=8", "WAIT_DEPTH=1"} <= set(defines)


def test_tall_problems_take_192_by_128_tiles_where_the_model_takes_them():
    """wgmma_tall_rows: three consumers' 192 × 128 tiles in clusters of 1 (kernels.TALL_CONFIG)
    replace two consumers' 128-row tiles at N ≤ 512 and K ≤ 2048 where they fill 90 % of the SMs
    or more in one round and the model gives them at most 99 % of the pick's time — at the 11
    shapes of those timed where that holds, all faster (H100, docs/results/2026-12-07-h100-tall-skinny/,
    runs 4–5), not at the six where they were slower; 16-bit inputs only."""
    faster = [(12288, 256, 1024), (12288, 256, 2048), (12000, 256, 1000), (6144, 512, 1024), (8192, 384, 1024),
              (11520, 256, 1536), (12672, 256, 1024), (5728, 489, 1360), (24144, 77, 1559), (5808, 480, 384),
              (11552, 217, 413)]
    slower = [(12544, 216, 800), (11408, 248, 1136), (24384, 104, 472), (6320, 480, 1904), (24246, 120, 560),
              (24672, 88, 280)]
    for shape in faster:
        picked = kernels.wgmma_config(*shape, 132)
        assert picked == kernels.TALL_CONFIG, shape
        for elem_bytes in (1, 4):   # (8-bit and TF32: not measured)
            assert kernels.wgmma_config(*shape, 132, elem_bytes) != picked, shape
    for shape in slower + [(16384, 256, 1024), (2048, 2048, 2048), (4096, 4096, 4096)]:
        assert kernels.wgmma_config(*shape, 132) != kernels.TALL_CONFIG, shape
    # what each condition keeps out, the others met: a pick of one consumer, swapped or coopB
    # tiles; N or K past the measured; 128 tiles on 100 SMs (two rounds); 96 of 132 (73 %)
    two = {"CONSUMERS": 2, "BN": 256, "CLUSTER": 2, "STAGES": 4}
    assert kernels.wgmma_tall_rows(12288, 256, 1024, 132, two)
    for other in ({**two, "CONSUMERS": 1}, {**two, "SWAP_AB": 1}, {**two, "COOP": 1}):
        assert not kernels.wgmma_tall_rows(12288, 256, 1024, 132, other), other
    assert not kernels.wgmma_tall_rows(4992, 640, 1024, 132, two)   # (130 tiles: one round, modelled 0.83)
    assert not kernels.wgmma_tall_rows(12288, 256, 4096, 132, two)   # (modelled 0.77)
    assert not kernels.wgmma_tall_rows(12288, 256, 1024, 100, two)
    assert not kernels.wgmma_tall_rows(9216, 256, 1024, 132, two)
    # the registry's 06 builds the pick (192 rows kept: BN=128 over a 192 × 192 pick means 128 rows),
    # and `tcraw compile` prebuilds it
    fp16 = kernels.KERNELS["wgmma_tma_fp16"]
    assert {"CONSUMERS=3", "BN=128", "CLUSTER=1", "STAGES=4"} <= set(fp16.configured(12288, 256, 1024, 132).defines)
    assert kernels.TALL_CONFIG in fp16.configs


def test_tall_problems_of_n_129_to_240_take_tiles_as_wide_as_b_over_tiles_taken_in_turn():
    """wgmma_fits_tall_rows: two consumers' 128 × 16·⌈N/16⌉ tiles in pairs along M, 4 stages
    (kernels.TALL_FIT_CONFIGS, cuBLAS's form at 14689×160×1024) replace the consumers taking turns
    on 128 × 128 tiles at N of 129–240 — past N of 192 only with K of 13 slices or more — where the
    pairs run whole in one or two rounds and keep 85 % of the clusters or more busy over them: the 37
    shapes timed where it fires, 0.968× (fp16 and bf16) the time of the pick it replaces, slower at
    one each by at most 0.6 % (H100, docs/results/2026-12-07-h100-swapped-tall-fresh/). Not past N of
    192 with K of 11 slices or fewer (0.994–1.082× the turns' time at 4 shapes), nor at N of 241–256
    (128 × 256, the ranking's own tile, within 0.4 % of the turns at 16384×256×1024), nor where the
    pairs fill 80 % or less (1.02–1.16×), nor over other picks (1.067×, slower at 9 of 12); 16-bit
    inputs only; the registry's 06 builds the widths it lacks without spills and `tcraw compile`
    prebuilds them."""
    turns = kernels.TURNS_CONFIG
    timed = {(15945, 153, 1088): 160, (16499, 192, 1472): 192, (16638, 161, 1536): 176, (14689, 160, 1024): 160,
             (14833, 167, 1792): 176, (30046, 181, 896): 192, (32591, 184, 512): 192, (16889, 156, 1856): 160,
             (14703, 186, 1088): 192, (16515, 129, 704): 144,   # (swapped_tall_fresh.txt)
             (15680, 174, 1152): 176, (16160, 178, 960): 192, (14999, 154, 768): 160, (16600, 175, 896): 176,
             (15582, 189, 1984): 192, (16361, 160, 1024): 160, (29272, 129, 704): 144, (15926, 160, 1024): 160,
             (14726, 239, 1728): 240, (16844, 200, 960): 208, (28724, 234, 832): 240,
             (15361, 227, 832): 240, (15162, 232, 960): 240, (14951, 218, 896): 224,   # (n_fit_wide.txt)
             (16801, 206, 1856): 208, (16621, 222, 1088): 224, (15859, 216, 1728): 224, (15124, 220, 960): 224,
             (16044, 135, 1920): 144, (15821, 178, 896): 192, (31078, 187, 640): 192,   # (tall_fit_fresh.txt)
             (16324, 213, 1344): 224, (15064, 234, 1472): 240, (15095, 226, 960): 240, (15124, 216, 1280): 224,
             (32157, 194, 1024): 208, (15471, 232, 1024): 240}   # (tall_fit_wide_fresh.txt)
    assert len(timed) == 37
    # short K past N of 192; N of 241–256 (128 × 256 pairs, the ranking's own tile, which the turns
    # replace: 0.94–1.00× their time on the H100, 1.004× on the H200 at 16384×256×1024)
    for shape in [(15398, 194, 576), (16434, 220, 576), (33724, 236, 512), (16706, 211, 704), (15535, 248, 1984),
                  (15661, 243, 1024), (16384, 256, 1024), (32768, 256, 1024)]:
        assert kernels.wgmma_config(*shape, 132) == turns, shape
    for shape, bn in timed.items():
        want = {"CONSUMERS": 2, "BN": bn, "CLUSTER": 2, "STAGES": 4}
        assert kernels.wgmma_fits_tall_rows(*shape, 132, turns) == want, shape
        assert kernels.wgmma_config(*shape, 132) == want, shape
        for elem_bytes in (1, 4):   # (8-bit and TF32: not measured; the ranking's own 128 × 192 may be their pick)
            assert not kernels.wgmma_fits_tall_rows(*shape, 132, turns, elem_bytes), shape
    for shape in [(7488, 208, 1536), (18132, 193, 576), (27007, 204, 832), (16384, 512, 1024), (256, 16384, 1024),
                  (12288, 256, 1024), (8192, 256, 2048), (4878, 150, 1048), (5416, 226, 1755), (8433, 210, 672)]:
        assert not kernels.wgmma_fits_tall_rows(*shape, 132, turns), shape
        assert kernels.wgmma_config(*shape, 132) not in kernels.TALL_FIT_ONLY, shape
    # what each condition keeps out, the others met: another pick; 8-bit; N of 128 or 241; past N of
    # 192, K of 12 slices (768; 13 is taken, and 12 at N of 192); the pairs in two rounds, the second
    # all but empty (18132: 71 pairs on 66 clusters), in three (45000: 176 on 66, 89 % busy; none
    # timed); at 7488×160×1536 30 pairs on 66 clusters, cut along K too
    assert kernels.wgmma_fits_tall_rows(16361, 160, 1024, 132, turns)
    assert not kernels.wgmma_fits_tall_rows(16361, 160, 1024, 132, {**turns, "PINGPONG": 0})
    assert not kernels.wgmma_fits_tall_rows(16361, 160, 1024, 132, turns, elem_bytes=1)
    assert not kernels.wgmma_fits_tall_rows(16361, 128, 1024, 132, turns)
    assert not kernels.wgmma_fits_tall_rows(16361, 241, 1024, 132, turns)
    assert kernels.wgmma_fits_tall_rows(16361, 240, 1024, 132, turns)
    assert not kernels.wgmma_fits_tall_rows(16361, 200, 768, 132, turns)
    assert kernels.wgmma_fits_tall_rows(16361, 200, 832, 132, turns)
    assert kernels.wgmma_fits_tall_rows(16361, 192, 768, 132, turns)
    assert not kernels.wgmma_fits_tall_rows(18132, 160, 1024, 132, turns)
    assert not kernels.wgmma_fits_tall_rows(45000, 160, 1024, 132, turns)
    assert not kernels.wgmma_fits_tall_rows(7488, 160, 1536, 132, turns)
    fp16 = kernels.KERNELS["wgmma_tma_fp16"]
    assert {"CONSUMERS=2", "BN=176", "CLUSTER=2", "STAGES=4"} <= set(fp16.configured(15680, 174, 1152, 132).defines)
    assert kernels.TALL_FIT_CONFIGS[3] in kernels.WGMMA_CONFIGS   # (128 × 192 pairs: the ranking's own)
    for config in kernels.TALL_FIT_ONLY:
        assert config in fp16.configs
        for key in ("fp16", "bf16"):
            cubin = compiler.compile_cubin(kernels.wgmma_kernel(key, config, choose=False), "sm_90a")
            assert cubin.spill_bytes == 0, (key, config)


def test_two_rows_pair_64_by_64_tiles_where_those_fill_one_round():
    """wgmma_pairs_narrow: one consumer's 64 × 64 pairs along M with 13 stages and the edge tile's
    A from its last 64 rows (kernels.NARROW_PAIRS_CONFIG) replace 64 × 128 pairs
    (PAIRED_ROWS_CONFIG) where their units keep 84 % or more of the clusters busy in one round —
    16-bit inputs, M of 65 to 128 — at the shapes where they measured faster, not where they
    measured slower (H100, docs/results/2026-12-07-h100-narrow-64-stages-13/, run 3); and the
    registry's 06 builds them with 13 stages."""
    faster = [(96, 4096, 4096), (128, 4096, 4096), (121, 3776, 9472), (128, 4096, 11008), (116, 3952, 9280),
              (90, 4032, 12864), (70, 1024, 15488), (78, 1408, 5056), (104, 1216, 16384), (128, 2048, 8192),
              (92, 1920, 3968), (122, 1840, 12160), (65, 2000, 6400), (87, 3648, 9088), (79, 1792, 3968)]
    # (it takes 114×1992×13440 and 94×824×9792 too, 0.8 and 1.1 % slower there; it leaves out
    # 83×3328×4800, 52 of 66 clusters busy, where the narrow pairs took 0.983× the time)
    slower = [(70, 1672, 5312), (118, 1472, 6400), (85, 1151, 13632), (72, 1490, 15872), (105, 1600, 10240),
              (80, 6755, 6720), (100, 3072, 6144), (94, 2304, 4544), (100, 2304, 4800), (73, 6664, 5120),
              (85, 6960, 10368), (124, 2368, 8256), (112, 6144, 4096), (124, 2352, 13184)]
    paired = kernels.PAIRED_ROWS_CONFIG
    for shape in faster:
        assert kernels.wgmma_config(*shape, 132) == kernels.NARROW_PAIRS_CONFIG, shape
        for elem_bytes in (1, 4):   # (8-bit and TF32: not measured)
            assert not kernels.wgmma_pairs_narrow(*shape, 132, paired, elem_bytes), shape
    for shape in slower:
        assert kernels.wgmma_config(*shape, 132) == paired, shape
    # what each condition keeps out, the others met: another pick, three tile rows, and 50 clusters
    # (100 SMs), where 128×4096×4096's 64 units take two rounds
    assert kernels.wgmma_pairs_narrow(128, 4096, 4096, 132, paired)
    assert not kernels.wgmma_pairs_narrow(128, 4096, 4096, 132, {**paired, "STAGES": 7})
    assert not kernels.wgmma_pairs_narrow(129, 4096, 4096, 132, paired)
    assert not kernels.wgmma_pairs_narrow(128, 4096, 4096, 100, paired)
    fp16 = kernels.KERNELS["wgmma_tma_fp16"]
    assert {"BN=64", "CLUSTER=2", "STAGES=13", "A_SHIFT=1"} <= set(fp16.configured(96, 4096, 4096, 132).defines)
    # an override that changes the tile takes the most stages that fit it, up to the pick's 13
    assert "STAGES=8" in fp16.configured(96, 4096, 4096, 132, {"BN": 128}).defines


def test_swapped_tiles_that_fit_m_replace_picks_in_clusters_along_n():
    """wgmma_swaps_to_fit: with M of 257–480 (not a multiple of 128) and 16-bit inputs, swapped
    tiles whose M side covers M in 3, else 2 tiles, in clusters of 4 along N, else (2 tiles) 2 × 2,
    else 2 along N — the first that runs in one round with at least 4 clusters in 5 busy — replace
    the pick, unless it is two 192-row tiles or cut along K in 3 or more pieces; else (over any
    pick) 2 tiles of M in 2 × 2, cut along K where few in pieces of 32+ slices, if one round keeps 4
    clusters in 5 busy; where they measured faster they are picked,
    where slower not (kernels.FIT_CONFIGS); no suite shape moves; the registry's 06 builds them
    and the cubin-only set holds them."""
    faster = {(285, 7872, 2120): (144, 2), (297, 4464, 7872): (128, 4), (292, 7464, 6272): (160, 4),
              (279, 4480, 6656): (96, 4), (338, 7464, 4320): (192, 4), (396, 7824, 7816): (208, 2),
              (327, 8224, 6784): (176, 2), (257, 6368, 7512): (160, 4), (368, 8032, 7240): (192, 2),
              # 2 × 2 (2 tiles of M sharing B's columns too) — and cut along K over 192-row tiles and
              # over a pick in 3+ pieces
              (397, 7416, 3128): (208, 4, 1),
              (272, 3376, 6152): (144, 4, 1), (308, 2184, 7648): (160, 4, 1), (349, 2360, 7104): (176, 4, 1)}
    for shape, (bn, cluster, *share_a) in faster.items():
        fit = next(c for c in kernels.FIT_CONFIGS if (c["BN"], c["CLUSTER"], c.get("SHARE_A", 0)) ==
                   (bn, cluster, *(share_a or [0])))
        assert kernels.wgmma_config(*shape, 132) == fit, shape
        assert kernels.wgmma_config(*shape, 132, elem_bytes=1).get("SWAP_AB", 0) == 0, shape   # (16-bit only)
    # measured slower (or level) and left alone: M = 384 (a whole number of 128-row tiles), picks
    # of two 192-row tiles, a pick cut in 3 pieces, 18 and 21 of 30 clusters busy (M = 199, where 2
    # and 3 tiles of M lost, takes one tile of M since: test_one_swapped_tile_covers_m_of_129_to_208)
    for shape in [(384, 4096, 4096), (304, 4936, 4872), (342, 5624, 4880), (440, 2696, 6920),
                  (443, 2624, 2048), (262, 3448, 2128),
                  # and 2 × 2 measured slower: pieces of 13–14 slices, 224 columns (M past 416)
                  (367, 3424, 1696), (296, 2328, 2704), (441, 3512, 3984)]:
        assert kernels.wgmma_config(*shape, 132).get("SWAP_AB", 0) == 0, shape
    mid_m = str(Path(__file__).resolve().parent.parent / "scripts" / "shapes" / "mid_m.txt")
    for suite in ("square", "llm", "skinny", "long-k", "odd", mid_m):
        for _, shape in parse_shapes(suite):   # (the swapped picks there are M ≤ 32's, BN of 16 or 32)
            pick = kernels.wgmma_config(*shape, 132)
            assert not (pick.get("SWAP_AB") and pick["BN"] > 32), (suite, shape)
    one = {"CONSUMERS": 2, "BN": 128, "CLUSTER": 1, "STAGES": 6}
    assert kernels.wgmma_swaps_to_fit(279, 4360, 3584, 132, one)["BN"] == 96   # 3 × 96 = 288 rows, 27 of 30 clusters
    # what each condition keeps out, the others met: M of 256 or 481, M of 384, three consumers,
    # a pick cut in 3 pieces (where 2 × 2 cut along K fits no round either: 18 tiles of 30 at 4360;
    # at 440 its 224 columns are past FIT_MOST_BN), too few tiles (2816, 3200: 18 and 21 of 30 busy,
    # and of 66 in clusters of 2; 2 × 2 cut in 2: 22 of 30 busy at 2816, pieces of 28 slices at
    # 3200), two rounds (300 × 9000: at M ≤ 288 three consumers' tiles take it, below), 8-bit inputs
    assert kernels.wgmma_swaps_to_fit(257, 5000, 4096, 132, one) and not kernels.wgmma_swaps_to_fit(256, 5000, 4096, 132, one)
    assert kernels.wgmma_swaps_to_fit(480, 5000, 4096, 132, one) and not kernels.wgmma_swaps_to_fit(481, 5000, 4096, 132, one)
    assert kernels.wgmma_swaps_to_fit(383, 5000, 4096, 132, one) and not kernels.wgmma_swaps_to_fit(384, 5000, 4096, 132, one)
    assert not kernels.wgmma_swaps_to_fit(279, 4360, 3584, 132, {**one, "CONSUMERS": 3, "BN": 192, "CLUSTER": 2})
    cut = {"CONSUMERS": 2, "BN": 256, "CLUSTER": 2}
    assert kernels.wgmma_schedule(440, 2696, 6920, 132, {**kernels.WGMMA_TILE, **cut})[3] == 3
    assert not kernels.wgmma_swaps_to_fit(440, 2696, 6920, 132, cut)
    for m, n in ((279, 2816), (279, 3200), (300, 9000)):
        assert not kernels.wgmma_swaps_to_fit(m, n, 3584, 132, one), (m, n)
    assert not kernels.wgmma_swaps_to_fit(279, 4360, 3584, 132, one, elem_bytes=1)
    # the fallback over a 192-row pick: 2 × 2 cut along K in 2 pieces of 48 slices (pieces of 13 at
    # K = 1696 would be too short: it keeps out); its 2 tiles of M at most 208 wide
    rows_192 = {"CONSUMERS": 3, "BN": 192, "CLUSTER": 2, "SHARE_A": 0}
    fb = kernels.wgmma_swaps_to_fit(272, 3376, 6152, 132, rows_192)
    assert (fb["BN"], fb["CLUSTER"], fb["SHARE_A"]) == (144, 4, 1)
    assert kernels.wgmma_schedule(272, 3376, 6152, 132, {**kernels.WGMMA_TILE, **fb})[1:4:2] == (97, 2)
    assert not kernels.wgmma_swaps_to_fit(272, 3376, 1696, 132, rows_192)
    assert not kernels.wgmma_swaps_to_fit(420, 3376, 6152, 132, rows_192)
    k06 = kernels.KERNELS["wgmma_tma_fp16"]
    assert {"SWAP_AB=1", "BN=96", "CLUSTER=4", "STAGES=7"} <= set(k06.configured(279, 4360, 3584, 132).defines)
    swapped = [dict(c) for c in k06.configs if c.get("SWAP_AB")]
    assert all(fit in swapped for fit in kernels.FIT_CONFIGS)


def test_one_consumers_halves_of_m_replace_three_tiles_of_m_where_both_take_one_round():
    """wgmma_fits_one_consumer: over wgmma_swaps_to_fit's first form (3 tiles of M in clusters of 4
    along N), one consumer's swapped tiles of BN = 16 · cdiv(M, 32) of M in clusters of 4 along N,
    where they too take one round with 4 clusters in 5 busy — as measured faster (kernels.
    FIT_ONE_CONFIGS' note); where they would take two rounds, or the first form is not picked,
    the pick stays; every shape drawn after the rule (scripts/shapes/fit_one_fresh.txt) picks
    them; the registry's 06 builds them and the cubin-only set holds them."""
    faster = {(296, 3608, 720): 160, (272, 3752, 800): 144, (392, 3832, 1432): 208, (472, 3680, 520): 240,
              (272, 3704, 1376): 144}
    for shape, bn in faster.items():
        assert kernels.wgmma_config(*shape, 132) == {"SWAP_AB": 1, "CONSUMERS": 1, "BN": bn, "CLUSTER": 4,
                                                     "STAGES": kernels.wgmma_max_stages(1, bn, swap=True)}, shape
    # two rounds of them (2 · cdiv(N, 256) clusters of 4 past the 30 held): measured slower, not taken
    for shape in [(272, 6960, 640), (464, 4424, 1024), (448, 4448, 1272), (320, 4472, 616), (368, 6008, 2960),
                  (440, 4184, 1760), (296, 4328, 864), (304, 4584, 3336)]:
        pick = kernels.wgmma_config(*shape, 132)
        assert pick["CONSUMERS"] == 2 and pick.get("SWAP_AB") == 1, shape
        assert kernels.wgmma_fits_one_consumer(*shape, 132) is None, shape
    fresh = str(Path(__file__).resolve().parent.parent / "scripts" / "shapes" / "fit_one_fresh.txt")
    for _, shape in parse_shapes(fresh):
        assert kernels.wgmma_config(*shape, 132) == kernels.wgmma_fits_one_consumer(*shape, 132) is not None, shape
    # where the first form is not the pick (no form takes one round: the model's tiles stay; a later
    # form, 2 tiles in 2 × 2, is picked), the halves are not asked, though they would take one round
    assert kernels.wgmma_fits_one_consumer(277, 3226, 1335, 132) is not None
    assert kernels.wgmma_config(277, 3226, 1335, 132).get("SWAP_AB", 0) == 0
    assert kernels.wgmma_fits_one_consumer(345, 3391, 5800, 132) is not None
    later = kernels.wgmma_config(345, 3391, 5800, 132)
    assert (later["CONSUMERS"], later["CLUSTER"], later.get("SHARE_A")) == (2, 4, 1), later
    # too few tiles for one round with 4 clusters in 5 busy (8 of 30; split-K would cut them in 3)
    assert kernels.wgmma_fits_one_consumer(272, 1000, 8192, 132) is None
    assert kernels.wgmma_fits_one_consumer(128 * 3, 3700, 1000, 132) is not None   # (M = 384: the rule's not asked)
    assert kernels.wgmma_config(384, 3700, 1000, 132).get("SWAP_AB", 0) == 0
    assert kernels.wgmma_config(272, 3704, 1376, 132, elem_bytes=1).get("SWAP_AB", 0) == 0   # (16-bit only)
    k06 = kernels.KERNELS["wgmma_tma_fp16"]
    assert {"SWAP_AB=1", "CONSUMERS=1", "BN=144", "CLUSTER=4"} <= set(k06.configured(272, 3704, 1376, 132).defines)
    assert all(dict(c) in [dict(x) for x in k06.configs] for c in kernels.FIT_ONE_CONFIGS)


def test_rows_splitting_sectors_take_the_models_clusters_of_4(monkeypatch):
    """wgmma_sectors_take_clusters_of_4: where A's and B's rows both lie 16 bytes off 32 (2.47
    requests a box row each) and the model's least time is clusters of 4, 16-bit inputs run
    them, not what wgmma_choose's tie-break took, where that reads A in place — survey 9's two
    weakest shapes, and every shape drawn after the rule (scripts/shapes/c4_sectors_fresh_2.txt);
    over a pick that copies A to lines (measured slower), rows off lines otherwise, tiles in
    clusters of 1 (wgmma_leaves_clusters_of_one's), where a rule after the ranking would replace it
    or the clusters of 4, where coopB tiles replace it, for 8-bit inputs, and over picks already in
    clusters of 4 the pick stands; coopB tiles are not asked over the rule's."""
    def taken(m, n, k):
        ranked = kernels.wgmma_ranked(m, n, k, 132)
        return kernels.wgmma_sectors_take_clusters_of_4(m, n, k, 132, ranked, kernels.wgmma_choose(ranked))

    shapes = Path(__file__).resolve().parent.parent / "scripts" / "shapes"
    for shape in [(1448, 13624, 13704), (3000, 15448, 14312)]:
        assert kernels.wgmma_choose(kernels.wgmma_ranked(*shape, 132))["CLUSTER"] == 2, shape
        assert kernels.wgmma_pick(*shape, 132) == {"CONSUMERS": 2, "BN": 256, "CLUSTER": 4, "SHARE_A": 0,
                                                   "STAGES": kernels.wgmma_max_stages(2, 256)}, shape
    for _, shape in parse_shapes(str(shapes / "c4_sectors_fresh_2.txt")):
        assert taken(*shape) is not None and kernels.wgmma_pick(*shape, 132) == taken(*shape), shape
    # the first rule's shapes (run 1): where the tie-break's pick copied A, it stands (A copied)
    copied = 0
    for name in ("c4_sectors.txt", "c4_sectors_fresh.txt"):
        for _, shape in parse_shapes(str(shapes / name)):
            ranked = kernels.wgmma_ranked(*shape, 132)
            if kernels.wgmma_copies_a_to_lines(*shape, 132, kernels.wgmma_choose(ranked)):
                copied += 1
                assert taken(*shape) is None and kernels.wgmma_pick(*shape, 132).get("A_LINES") == 1, shape
            else:
                assert kernels.wgmma_pick(*shape, 132) == taken(*shape) is not None, shape
    assert copied == 14
    # 16-bit inputs only: not for 8-bit rows 16 bytes off 32 (K, N ≡ 16 mod 32), even with a ranking
    # whose least time is clusters of 4 (8-bit rankings hold none: wgmma_sixteen_bit_only)
    four, two = ({"CONSUMERS": 2, "BN": 256, "CLUSTER": c, "STAGES": 4} for c in (4, 2))
    ranked = [(1.0, 1, True, 12, four), (1.01, 1, True, 0, two)]
    assert kernels.wgmma_sectors_take_clusters_of_4(1448, 13624, 13704, 132, ranked, two) == four
    sector = kernels.BOX_ROW_REQUESTS["partial sector"]
    assert kernels.box_row_requests(13712) == kernels.box_row_requests(13616) == sector
    assert kernels.wgmma_sectors_take_clusters_of_4(1448, 13616, 13712, 132, ranked, two, elem_bytes=1) is None
    assert kernels.wgmma_config(1448, 13616, 13712, 132, elem_bytes=1)["CLUSTER"] != 4
    # rows off lines in other ways (A on a line, or 32 bytes past one): the tie-break stands
    for shape in [(1064, 8664, 7680), (2144, 8112, 12904), (656, 9368, 11136), (1384, 9984, 5088)]:
        ranked = kernels.wgmma_ranked(*shape, 132)
        assert kernels.wgmma_least(ranked)["CLUSTER"] == 4, shape
        assert taken(*shape) is None, shape
    # the ranking's choice already in clusters of 4, or in clusters of 1: left to the tie-break and
    # wgmma_leaves_clusters_of_one (1728×1320×9752 runs 128 × 192 along M there, as measured)
    assert kernels.wgmma_choose(kernels.wgmma_ranked(3976, 14904, 5848, 132))["CLUSTER"] == 4
    assert taken(3976, 14904, 5848) is None
    assert kernels.in_clusters_of_one(kernels.wgmma_choose(kernels.wgmma_ranked(1728, 1320, 9752, 132)))
    assert taken(1728, 1320, 9752) is None
    # where a rule after the ranking replaces the tie-break's pick, it stays: one swapped tile at M
    # of 129–208 (168×4264×280), coopB tiles (1136×13896×4488); where coopB tiles would replace the
    # rule's, they are not asked (1032×13240×15688, the rule's in clusters of 4 that stream-K cuts:
    # until 2026-12-07 wgmma_coops would have replaced them, their MMAs under 0.90 of its)
    ranked = kernels.wgmma_ranked(168, 4264, 280, 132)
    assert kernels.wgmma_least(ranked)["CLUSTER"] == 4 and taken(168, 4264, 280) is None
    assert kernels.wgmma_config(168, 4264, 280, 132) == kernels.wgmma_swaps_one_tile(
        168, 4264, 280, 132, kernels.wgmma_choose(ranked)) is not None
    assert kernels.wgmma_config(1136, 13896, 4488, 132).get("COOP") and taken(1136, 13896, 4488) is None
    # nor where a rule after the ranking would replace the clusters of 4 (never timed so): at
    # 544×3256×1192 swapped 2 × 2 tiles in rounds over them, none over the tie-break's pick
    ranked = kernels.wgmma_ranked(544, 3256, 1192, 132)
    best, chosen = kernels.wgmma_least(ranked), kernels.wgmma_choose(ranked)
    assert best["CLUSTER"] == 4 and kernels.wgmma_ruled(544, 3256, 1192, 132, best)["SWAP_AB"]
    assert taken(544, 3256, 1192) is None and kernels.wgmma_config(544, 3256, 1192, 132) == chosen
    picked = kernels.wgmma_config(1032, 13240, 15688, 132)
    assert picked == taken(1032, 13240, 15688) and picked["CLUSTER"] == 4
    def coops_over_fours(m, n, k, sms, over, *args):   # (coopB tiles over any clusters of 4, not the tie-break's)
        return dict(kernels.COOP_CONFIGS[0]) if over["CLUSTER"] == 4 else None
    monkeypatch.setattr(wgmma, "wgmma_coops", coops_over_fours)
    assert kernels.wgmma_config(1032, 13240, 15688, 132) == picked


def test_one_swapped_tile_covers_m_of_129_to_208():
    """wgmma_swaps_one_tile: with M of 129–208 and 16-bit inputs, one swapped tile of BN = 16 ·
    cdiv(M, 16) of M replaces the model's pick — in clusters of 4 along N where they take one
    round (split-K's pieces counted, cdiv(k-slices, pieces) at least LOW_FIT_SLICES), else of 2 —
    as measured faster (kernels.LOW_FIT_CONFIGS' note); not past 208 of M (240 wide lost), not
    over 128×128 tiles in 2 × 2 clusters, not where neither cluster size takes one round, not for
    8-bit inputs; the shapes timed after the rule (scripts/shapes/low_fit_fresh_3.txt) pick them;
    the registry's 06 builds them and the cubin-only set holds them."""
    faster = {(144, 13104, 11792): (144, 4), (136, 5480, 12704): (144, 4), (164, 5752, 8152): (176, 4),
              (195, 13320, 12064): (208, 4), (197, 14984, 8672): (208, 4),
              (199, 5688, 7616): (208, 4),   # (where 2 and 3 swapped tiles of M lost)
              # two rounds in clusters of 4 (31–32 of the 30 held): clusters of 2
              (138, 15800, 2424): (144, 2), (166, 16032, 11592): (176, 2)}
    for shape, (bn, cluster) in faster.items():
        pick = kernels.wgmma_config(*shape, 132)
        assert (pick.get("SWAP_AB"), pick["CONSUMERS"], pick["BN"], pick["CLUSTER"]) == (1, 2, bn, cluster), shape
        assert pick in kernels.LOW_FIT_CONFIGS, shape
        assert kernels.wgmma_config(*shape, 132, elem_bytes=1).get("SWAP_AB", 0) == 0, shape   # (16-bit only)
    # M's range, the widths at its ends; 240 of M measured slower: left alone
    big = {"CONSUMERS": 2, "BN": 256, "CLUSTER": 2}
    assert kernels.wgmma_swaps_one_tile(129, 8000, 4096, 132, big)["BN"] == 144
    assert kernels.wgmma_swaps_one_tile(208, 8000, 4096, 132, big)["BN"] == 208
    for m in (128, 209, 237):
        assert kernels.wgmma_swaps_one_tile(m, 8000, 4096, 132, big) is None, m
    # few tiles are cut along K, in as many pieces as one round holds (137 × 4001: 8 tiles, 97 slices
    # in 3; at K = 1003, 16 slices in 3: left alone); pieces of 31–32 (cdiv 32) pass: 143 × 2098, 189 in 6
    pick = kernels.wgmma_config(137, 4001, 6152, 132)
    assert kernels.wgmma_schedule(137, 4001, 6152, 132, {**kernels.WGMMA_TILE, **pick})[::3] == (8, 3)
    assert kernels.wgmma_config(137, 4001, 1003, 132).get("SWAP_AB", 0) == 0
    pick = kernels.wgmma_config(143, 2098, 12088, 132)
    assert pick in kernels.LOW_FIT_CONFIGS
    assert kernels.wgmma_schedule(143, 2098, 12088, 132, {**kernels.WGMMA_TILE, **pick})[1:4:2] == (189, 6)
    # measured slower and left alone: pieces of K shorter than LOW_FIT_SLICES (8 of 4 slices, 10 of
    # 13, 2 of 9), a pick of 128×128 tiles in 2 × 2 clusters
    for shape in [(181, 1032, 2048), (150, 1536, 8192), (154, 6367, 1064),
                  (183, 2136, 12848), (205, 3479, 12272), (207, 3487, 11560)]:
        assert kernels.wgmma_config(*shape, 132).get("SWAP_AB", 0) == 0, shape
    two_by_two = {"CONSUMERS": 2, "BN": 128, "CLUSTER": 4, "SHARE_A": 1}
    assert kernels.wgmma_config(183, 2136, 12848, 132) == {**two_by_two, "STAGES": 6}
    assert kernels.wgmma_swaps_one_tile(183, 2136, 12848, 132, {**two_by_two, "SHARE_A": 0})
    # two rounds in clusters of 4 and of 2 (34 and 67 clusters' tiles): none; 8-bit: none
    assert kernels.wgmma_swaps_one_tile(150, 17000, 4096, 132, big) is None
    assert kernels.wgmma_swaps_one_tile(150, 8000, 4096, 132, big, elem_bytes=1) is None
    fresh = str(Path(__file__).resolve().parent.parent / "scripts" / "shapes" / "low_fit_fresh_3.txt")
    for _, shape in parse_shapes(fresh):
        assert kernels.wgmma_config(*shape, 132) in kernels.LOW_FIT_CONFIGS, shape
    k06 = kernels.KERNELS["wgmma_tma_bf16"]
    assert {"SWAP_AB=1", "BN=176", "CLUSTER=4", "STAGES=4"} <= set(k06.configured(164, 5752, 8152, 132).defines)
    swapped = [dict(c) for c in k06.configs if c.get("SWAP_AB")]
    assert all(fit in swapped for fit in kernels.LOW_FIT_CONFIGS)


def test_two_and_three_consumers_leave_clusters_of_1(monkeypatch):
    """wgmma_leaves_clusters_of_one: where the model picks two or three consumers' tiles in
    clusters of 1 and no rule after the ranking replaces them, 16-bit inputs run what those rules
    make of the ranking's next choice where that is swapped tiles that fit M, else that choice —
    two or three consumers' tiles in clusters, whole where the pick was, with at most
    CLUSTER_ONE_PADDING times its MMAs — as measured faster (the rule's note); the measured
    exceptions keep the pick (the next choice one consumer, cut along K, or a third more MMAs),
    and so do the cases not timed; 8-bit and TF32 picks are left alone; the shapes drawn after the
    rule (scripts/shapes/cluster_one_rule.txt) move."""
    monkeypatch.setattr(wgmma, "COOP_MMAS", 0)   # (this rule's picks alone: wgmma_coops has its own test)
    def before(m, n, k, elem_bytes=2):
        ranked = kernels.wgmma_ranked(m, n, k, 132, elem_bytes)
        return kernels.wgmma_ruled(m, n, k, 132, kernels.wgmma_choose(ranked), elem_bytes)

    def spelt(c):
        return ("S" * c.get("SWAP_AB", 0), c["CONSUMERS"], c["BN"], c["CLUSTER"], c.get("SHARE_A", 0))
    # measured faster (run 1: M over 1 024; run 2: pitched, M of 209–1 024, suite shapes)
    faster = {(3896, 13376, 16192): ("", 2, 256, 2, 0), (1728, 1320, 9752): ("", 2, 192, 4, 0),
              (1887, 8960, 8256): ("", 3, 192, 2, 0), (2922, 4352, 11000): ("", 3, 192, 2, 1),
              (7025, 4653, 11760): ("", 2, 256, 2, 0),   # (the next choice cuts its last round: stream-K)
              (519, 9368, 10496): ("S", 2, 144, 4, 1),    # (swapped tiles fit M, a third more MMAs or not)
              (356, 12728, 11280): ("S", 2, 192, 4, 1), (885, 11328, 9664): ("", 2, 256, 2, 0),
              (2048, 11008, 4096): ("", 3, 192, 2, 1), (777, 5555, 333): ("", 2, 192, 2, 0)}
    for shape, want in faster.items():
        assert kernels.in_clusters_of_one(before(*shape)), shape
        assert spelt(kernels.wgmma_config(*shape, 132)) == want, shape
    # measured slower, kept: the next choice one consumer (825 × 2432), cut along K in 3 where the
    # pick is whole (384 × 4096), a third more MMAs (384 × 14336: three tile rows padded to four)
    for shape in [(825, 2432, 10696), (384, 4096, 4096), (384, 14336, 4096)]:
        assert kernels.in_clusters_of_one(kernels.wgmma_config(*shape, 132)), shape
    ranked = kernels.wgmma_ranked(384, 14336, 4096, 132)
    rest = kernels.wgmma_choose([r for r in ranked if not kernels.in_clusters_of_one(r[4])])
    mmas = {repr(r[4]): r[1] for r in ranked}
    assert kernels.CLUSTER_ONE_PADDING < mmas[repr(rest)] / mmas[repr(kernels.wgmma_choose(ranked))] < 1.34
    # left alone: a pick in clusters of 2 or of one consumer; 128 × 256 in clusters of 1 that a later
    # rule swaps (305 × 5568: 112 wide in pairs along N; without the guard 192 × 192 in pairs);
    # 128 × 64, which has no clustered form (633 × 6716, not timed); a choice that another rule would
    # replace (12466 × 14400: 128 × 128 in turn, not timed)
    assert not kernels.in_clusters_of_one({"CONSUMERS": 1, "BN": 128, "CLUSTER": 1})
    assert kernels.wgmma_leaves_clusters_of_one(1728, 1320, 9752, 132, kernels.wgmma_ranked(1728, 1320, 9752, 132),
                                                {"CONSUMERS": 2, "BN": 256, "CLUSTER": 2}) is None
    for shape, picked in (((305, 5568, 7920), {"CONSUMERS": 2, "BN": 256, "CLUSTER": 1, "STAGES": 4}),
                          ((633, 6716, 13807), {"CONSUMERS": 2, "BN": 64, "CLUSTER": 1, "STAGES": 8}),
                          ((12466, 14400, 576), {"CONSUMERS": 3, "BN": 192, "CLUSTER": 1, "SHARE_A": 0, "STAGES": 3})):
        ranked = kernels.wgmma_ranked(*shape, 132)
        assert kernels.wgmma_choose(ranked) == picked, shape
        assert kernels.wgmma_leaves_clusters_of_one(*shape, 132, ranked, picked) is None, shape
    assert spelt(kernels.wgmma_config(305, 5568, 7920, 132)) == ("S", 2, 112, 2, 0)
    assert kernels.wgmma_config(633, 6716, 13807, 132)["BN"] == 64
    rest = [r for r in kernels.wgmma_ranked(12466, 14400, 576, 132) if not kernels.in_clusters_of_one(r[4])]
    assert kernels.wgmma_ruled(12466, 14400, 576, 132, kernels.wgmma_choose(rest)) == kernels.TURNS_CONFIG
    assert kernels.in_clusters_of_one(kernels.wgmma_config(12466, 14400, 576, 132))
    # 8-bit and TF32: not measured, left alone
    for shape in faster:
        for elem_bytes in (1, 4):
            assert kernels.wgmma_config(*shape, 132, elem_bytes) == before(*shape, elem_bytes), (shape, elem_bytes)
    fresh = str(Path(__file__).resolve().parent.parent / "scripts" / "shapes" / "cluster_one_rule.txt")
    for _, shape in parse_shapes(fresh):
        assert kernels.in_clusters_of_one(before(*shape)), shape
        assert not kernels.in_clusters_of_one(kernels.wgmma_config(*shape, 132)), shape


def test_coop_swapped_tiles_build_without_spills_and_refuse_what_they_cannot_take():
    """COOP: two consumers side by side along a swapped tile's M, each over all of its COOP · 64
    rows of N with BN of M — cuBLAS's coopB tiles (192 × 160, 192 × 128 in pairs along M, 320 ×
    128 in pairs along N) — build with no spills; the tile is COOP · 64 × 2 · BN (its schedule,
    grid, shared memory and A's box follow), and what COOP cannot take is refused by name."""
    for atoms, bn, cluster, share_a, stages in [(3, 80, 2, 1, 4), (3, 64, 2, 1, 4), (5, 64, 2, 0, 3),
                                                (2, 128, 4, 1, 4)]:
        tile = {"SWAP_AB": 1, "CONSUMERS": 2, "COOP": atoms, "BN": bn, "CLUSTER": cluster, "SHARE_A": share_a,
                "SPLIT_K": 0, "STAGES": stages}
        k = kernels.wgmma_kernel("fp16", tile, choose=False)
        cubin = compiler.compile_cubin(k, "sm_90")   # (refuses a build whose stated boxes differ)
        assert cubin.spill_bytes == 0, tile
        full = {**kernels.WGMMA_TILE, **tile}
        assert (kernels.wgmma_rows(full), kernels.wgmma_cols(full)) == (64 * atoms, 2 * bn)
        along_m = kernels.wgmma_cluster_shape(full)[0]
        assert k.tma_boxes[0][0] == 2 * bn // along_m and k.tma_boxes[2][0] == bn
        assert stages == kernels.wgmma_max_stages(2, bn, rows=64 * atoms, swap=True, cols=2 * bn)
        # (swapped, the schedule's tiles run 64 · COOP along N and 2 · BN along M)
        assert kernels.wgmma_schedule(1000, 3000, 4096, 132, full)[0] == \
            -(-3000 // (64 * atoms * along_m)) * -(-1000 // (2 * bn * (cluster // along_m)))
    coop = {"SWAP_AB": 1, "CONSUMERS": 2, "COOP": 3, "BN": 80, "CLUSTER": 2, "SHARE_A": 1, "SPLIT_K": 0}
    for bad in ({"SWAP_AB": 0, "BN": 128}, {"CONSUMERS": 3}, {"SPLIT_K": 1}, {"C_PARTS": 2}, {"COOP": 6},
                {"COOP": 5, "BN": 80}, {"PROMOTE": 4, "BN": 64},
                {"COOP": 2, "BN": 144, "CLUSTER": 1, "SHARE_A": 0}):   # (the last: A's box of 288 rows)
        with pytest.raises(UsageError, match="COOP="):
            kernels.wgmma_kernel("fp16", {**coop, **bad}, choose=False)


def test_three_consumers_swapped_tiles_fit_m_of_257_to_288():
    """At M of 257–288 wgmma_swaps_to_fit takes three consumers' swapped 192 × 144 tiles over any
    pick (FIT_THREE_CONFIGS): 2 × 2 where the 30 clusters of 4 hold them in one round with 4 in 5
    busy, else pairs along M sharing B's columns on the same terms — not past 288 of M, not where
    neither form fills one round, not for 8-bit inputs; the shapes timed after the rule
    (scripts/shapes/swapped_three_fresh.txt) pick them."""
    rows_192 = {"CONSUMERS": 3, "BN": 192, "CLUSTER": 2, "SHARE_A": 0}
    three = {"SWAP_AB": 1, "CONSUMERS": 3, "BN": 144, "SHARE_A": 1, "STAGES": 4}
    assert kernels.wgmma_swaps_to_fit(279, 9000, 3584, 132, rows_192) == {**three, "CLUSTER": 4}   # 24 of 30
    assert kernels.wgmma_swaps_to_fit(272, 12376, 9496, 132, rows_192) == {**three, "CLUSTER": 2}  # 33 > 30; 65 of 66
    for m, n in ((289, 12376), (279, 8000), (272, 12800)):   # past 288; 21 of 30 and 42 of 66; 67 pairs of 66
        assert (kernels.wgmma_swaps_to_fit(m, n, 3584, 132, rows_192) or {}).get("CONSUMERS") != 3, (m, n)
    assert not kernels.wgmma_swaps_to_fit(272, 12376, 9496, 132, rows_192, elem_bytes=1)
    for _, shape in parse_shapes(str(Path(__file__).parent.parent / "scripts/shapes/swapped_three_fresh.txt")):
        assert kernels.wgmma_config(*shape, 132)["CONSUMERS"] == 3, shape


def test_swapped_tiles_fit_m_over_rounds(monkeypatch):
    """At M of 257–416 and 513–832 (not a multiple of 128) wgmma_swaps_over_rounds takes the fit
    rule's 2 × 2 swapped tiles — 2 of M (16 · cdiv(M, 32) wide) to 416, else 4 (16 · cdiv(M, 64))
    — in however many rounds, where the busiest cluster's MMAs are at most 0.95 of the pick's: at
    the shapes of the first calls where they were (runs 1, 3 and 6), not where they were more; not
    at M of 417–512 (4 tiles of M 112–128 wide), past the range, for 8-bit inputs, over a swapped
    pick or one cut along K; the shapes timed after the rule (scripts/shapes/fit_rounds_fresh.txt,
    fit_rounds_208_fresh.txt, fit_rounds_two_fresh.txt) pick them."""
    monkeypatch.setattr(wgmma, "COOP_MMAS", 0)   # (this rule's picks alone: wgmma_coops has its own test)
    two_by_two = {"SWAP_AB": 1, "CONSUMERS": 2, "CLUSTER": 4, "SHARE_A": 1}
    for shape, bn in (((600, 13784, 4000), 160), ((582, 11272, 2688), 160), ((628, 11208, 2064), 160),
                      ((665, 14336, 3704), 176), ((648, 15272, 5728), 176), ((400, 13832, 2928), 208),
                      ((386, 14488, 4568), 208), ((782, 10400, 4808), 208), ((319, 13928, 5040), 160),
                      ((332, 14064, 1872), 176)):
        picked = kernels.wgmma_config(*shape, 132)
        assert {name: picked.get(name) for name in two_by_two} == two_by_two and picked["BN"] == bn, shape
    for shape in ((481, 13776, 2720), (555, 8344, 5088), (614, 12384, 3376), (669, 10168, 2168), (713, 8864, 5728),
                  (450, 13000, 4000), (833, 13000, 4000), (384, 13000, 4000), (256, 13000, 4000),
                  (869, 7432, 1960), (1028, 11248, 4400)):
        assert not kernels.wgmma_config(*shape, 132).get("SWAP_AB"), shape
    pairs_256 = {"CONSUMERS": 2, "BN": 256, "CLUSTER": 4, "SHARE_A": 1, "STAGES": 4}   # 600 → 768 of M
    assert kernels.wgmma_swaps_over_rounds(600, 13784, 4000, 132, pairs_256)["BN"] == 160
    assert not kernels.wgmma_swaps_over_rounds(600, 13784, 4000, 132, pairs_256, elem_bytes=1)
    assert not kernels.wgmma_swaps_over_rounds(640, 13784, 4000, 132, pairs_256)   # (a multiple of 128)
    assert not kernels.wgmma_swaps_over_rounds(833, 13784, 4000, 132, pairs_256)
    assert not kernels.wgmma_swaps_over_rounds(460, 13784, 4000, 132, pairs_256)   # (4 × 128: no 2 × 2 width)
    assert not kernels.wgmma_swaps_over_rounds(600, 13784, 4000, 132, {**two_by_two, "BN": 208, "STAGES": 4})
    assert not kernels.wgmma_swaps_over_rounds(600, 1000, 16384, 132, pairs_256)   # few tiles: cut along K
    for name in ("fit_rounds_fresh.txt", "fit_rounds_208_fresh.txt", "fit_rounds_two_fresh.txt"):
        for _, shape in parse_shapes(str(Path(__file__).parent.parent / "scripts/shapes" / name)):
            assert kernels.wgmma_config(*shape, 132).get("SWAP_AB") == 1, shape


def test_coop_tiles_replace_the_rankings_pick_where_they_run_whole_on_a_tenth_fewer_mmas():
    """wgmma_coops: cuBLAS's coopB tiles (COOP_CONFIGS) replace the ranking's configuration where
    they run whole and their busiest cluster's MMAs are at most 0.90 of its — at the shapes timed
    (docs/results/2026-12-05-h200-coop/, 2026-12-05-h100-coop-rule/: faster at all but
    4140×867×6680) — not where those were 0.93 or more (slower at 5 of 19 timed), nor where
    stream-K cuts their last round, another rule's tiles replaced the ranking's, that is in
    clusters of 1, or in clusters of 4 that do not run whole (slower at 7 of 8 timed:
    docs/results/2026-12-07-h100-coop-clusters-of-4/), K is under 48 slices or the inputs are not
    16-bit; overrides they cannot take run without them (split-K 06's own again), those they can
    over them."""
    for shape, coop in (((304, 12504, 5728), 3), ((417, 9376, 10670), 5),
                        ((7762, 580, 14389), 5), ((1794, 2497, 5405), 5), ((837, 5106, 13604), 5),
                        ((592, 6133, 12854), 3), ((608, 12618, 5338), 3), ((639, 5655, 9088), 3),
                        ((308, 8684, 15277), 3), ((1407, 7468, 8108), 5), ((4140, 867, 6680), 3),
                        ((1576, 14840, 9661), 3)):   # (the last over pairs that stream-K cuts: 0.89–0.90×)
        picked = kernels.wgmma_config(*shape, 132)
        assert picked in kernels.COOP_CONFIGS and picked["COOP"] == coop, shape
    for shape in ((9240, 4648, 14072), (2776, 1112, 5640), (3104, 5576, 7016), (272, 12376, 9496),
                  (13515, 448, 4416), (12346, 2512, 1973), (13422, 4687, 5712), (8192, 8192, 8192),
                  (1408, 11504, 3368), (6632, 3160, 4880), (1641, 9528, 3416), (7864, 5480, 3816)):
        assert not kernels.wgmma_config(*shape, 132).get("COOP"), shape
    c4_cut = kernels.wgmma_config(6632, 3160, 4880, 132)   # (128 × 256 in fours, stream-K's last round)
    assert (c4_cut["BN"], c4_cut["CLUSTER"]) == (256, 4) and not kernels.wgmma_coops(6632, 3160, 4880, 132, c4_cut)
    three = {"CONSUMERS": 3, "BN": 192, "CLUSTER": 2, "STAGES": 3}   # (the ranking's at 304×12504×5728)
    assert kernels.wgmma_coops(304, 12504, 5728, 132, three)["COOP"] == 3
    assert not kernels.wgmma_coops(304, 12504, 5728, 132, three, elem_bytes=1)
    assert not kernels.wgmma_coops(304, 12504, 5728, 132, {**three, "CLUSTER": 1})
    assert not kernels.wgmma_coops(304, 12504, 3000, 132, three)   # (47 slices)
    assert kernels.wgmma_coops(304, 12504, 3072, 132, three)
    pairs_256 = {"CONSUMERS": 2, "BN": 256, "CLUSTER": 2, "STAGES": 4}   # (0.97 of its MMAs: 0.97× the time)
    assert not kernels.wgmma_coops(9240, 4648, 14072, 132, pairs_256)
    assert not kernels.wgmma_config(417, 9376, 10670, 132, elem_bytes=1).get("COOP")
    over_rounds = kernels.wgmma_config(367, 13375, 4169, 132)   # (wgmma_swaps_over_rounds' tiles: kept, though
    assert (over_rounds["BN"], over_rounds["CLUSTER"]) == (192, 4)   # wgmma_coops would replace them)
    assert kernels.wgmma_coops(367, 13375, 4169, 132, over_rounds)
    k06 = kernels.KERNELS["wgmma_tma_bf16"]
    assert {"COOP=5", "SPLIT_K=0", "BN=64"} <= set(k06.configured(417, 9376, 10670, 132).defines)
    assert {"COOP=5", "STAGES=2"} <= set(k06.configured(417, 9376, 10670, 132, {"STAGES": 2}).defines)
    for over in ({"CONSUMERS": 3}, {"SWAP_AB": 0}, {"PROMOTE": 1}, {"BN": 128}):   # (COOP × BN past 320)
        defines = set(k06.configured(417, 9376, 10670, 132, over).defines)
        assert "COOP=0" in defines and f"SPLIT_K={kernels.WGMMA_TILE['SPLIT_K']}" in defines, over
    assert "SPLIT_K=0" in k06.configured(417, 9376, 10670, 132, {"CONSUMERS": 3, "SPLIT_K": 0}).defines
    assert f"SPLIT_K={kernels.WGMMA_TILE['SPLIT_K']}" in k06.configured(417, 9376, 10670, 132, {"COOP": 0}).defines
    with pytest.raises(UsageError, match="SHARE_A=1"):   # (COOP's cluster check has no cluster to divide by)
        k06.configured(417, 9376, 10670, 132, {"SHARE_A": 1, "CLUSTER": 1})


def test_coop_unswapped_tiles_build_without_spills_and_refuse_what_they_cannot_take():
    """COOP unswapped: two consumers side by side along N, BN columns each, each over all of the
    tile's COOP · 64 rows of M (cuBLAS's coopA form) — 06 and 07 build it with no spills; the tile
    is COOP · 64 × 2 · BN (its B boxes, shared memory, schedule and grid follow), and BN off a
    64-column box, B_REALIGN and what COOP refuses swapped are refused by name."""
    for key, atoms, bn, cluster, share_a, stages in [("fp16", 1, 64, 2, 0, 8), ("fp16", 2, 128, 2, 0, 4),
                                                     ("bf16", 1, 64, 4, 1, 8), ("int8", 1, 128, 2, 0, 4),
                                                     ("fp8e4m3bf16", 2, 64, 2, 1, 6)]:
        tile = {"CONSUMERS": 2, "COOP": atoms, "BN": bn, "CLUSTER": cluster, "SHARE_A": share_a, "SPLIT_K": 0,
                "STAGES": stages}
        k = kernels.wgmma_kernel(key, tile, choose=False)
        cubin = compiler.compile_cubin(k, "sm_90")   # (refuses a build whose stated boxes differ)
        assert cubin.spill_bytes == 0, (key, tile)
        full = {**kernels.WGMMA_TILE, **tile}
        assert (kernels.wgmma_rows(full), kernels.wgmma_cols(full)) == (64 * atoms, 2 * bn)
        assert k.tma_boxes[0][0] == 64 * atoms // (2 if share_a else 1)   # (A's box: its share of the rows)
        assert stages == kernels.wgmma_max_stages(2, bn, rows=64 * atoms, cols=2 * bn)
        assert kernels.wgmma_geometry(full)(1000, 3000, 4096).grid[0] == -(-1000 // (64 * atoms)) * -(-3000 // (2 * bn))
    coop = {"CONSUMERS": 2, "COOP": 1, "BN": 64, "CLUSTER": 2, "SPLIT_K": 0}
    for bad, refusal in (({"BN": 80}, "COOP"), ({"BN": 144}, "COOP"), ({"SPLIT_K": 1}, "COOP"),
                         ({"CONSUMERS": 3}, "COOP"), ({"COOP": 2, "BN": 192}, "COOP"),
                         ({"COOP": 5}, "COOP"),   # (A's box of 320 rows; sharing A, 160 build: above)
                         ({"B_REALIGN": 1}, "B_REALIGN"), ({"PINGPONG": 64}, "COOP")):
        with pytest.raises(UsageError, match=rf"^{refusal}=\d+[: ]"):
            kernels.wgmma_kernel("fp16", {**coop, **bad}, choose=False)
    k = kernels.wgmma_kernel("fp16", {"CONSUMERS": 2, "COOP": 5, "BN": 64, "CLUSTER": 2, "SHARE_A": 1, "SPLIT_K": 0,
                                      "STAGES": 2}, choose=False)
    assert compiler.compile_cubin(k, "sm_90").spill_bytes == 0 and k.tma_boxes[0][0] == 160
    assert not kernels.wgmma_realign_builds({**kernels.WGMMA_TILE, **coop})
    # a B_REALIGN a kernel was declared with (not asked of the problem) gives way to a pick's COOP
    # where the tile cannot take it, and the pick runs as measured; asked of it, it is refused
    declared = kernels.wgmma_kernel("fp16", {"B_REALIGN": 1})
    assert {"COOP=5", "B_REALIGN=0", "SPLIT_K=0"} <= set(declared.configured(417, 9376, 10670, 132).defines)
    with pytest.raises(UsageError, match="^B_REALIGN=1 realigns"):
        kernels.KERNELS["wgmma_tma_fp16"].configured(417, 9376, 10670, 132, {"B_REALIGN": 1})


@pytest.mark.parametrize("key", ["fp16", "fp8e4m3", "tf32"])
def test_06_07_state_an_8_row_box_of_a_for_the_m_edge(key):
    """06/07 take a fourth tensor map, A in 8-row boxes of one 128-byte slice (a_copy: tiles at M's
    edge copy only the boxes with real rows), stated in the .cu beside the other boxes; A_EDGE
    (the most such boxes a copy) from 0 (copied whole) to 32, anything else refused by name."""
    bk = 128 // kernels.PRECISIONS[key].in_dtype.itemsize
    for edge in (0, 8, 32):
        k = kernels.wgmma_kernel(key, {"A_EDGE": edge}, choose=False)
        assert k.tma_boxes[3] == (8, bk) and f"A_EDGE={edge}" in k.defines
        assert compiler.compile_cubin(k, "sm_90").spill_bytes == 0
    for bad in (33, -1, 2.5):
        with pytest.raises(UsageError, match="A_EDGE"):
            kernels.wgmma_kernel(key, {"A_EDGE": bad}, choose=False)
    with pytest.raises(UsageError, match="at most 4"):   # a fifth box would get no map
        dataclasses.replace(k, tma_boxes=k.tma_boxes + ((8, bk),))


@pytest.mark.parametrize("key", ["fp16", "bf16"])
def test_06_swapped_operands_build_and_state_their_boxes(key):
    """SWAP_AB: Cᵀ = Bᵀ·Aᵀ with M's tile (any multiple of 16 up to 256) along the wgmma's n — A
    comes in BN-row boxes (BN / CLUSTER rows in a cluster along N), C leaves in BN-row × 32-column
    boxes (the launch it states, checked at compile: over 64 rows one C box of BN × 128 bytes a
    consumer, its halves in turn)."""
    for bn, consumers in ((16, 2), (32, 2), (64, 2), (48, 1), (96, 2), (160, 2), (208, 2)):
        stages = kernels.wgmma_max_stages(consumers, bn, swap=True)
        k = kernels.wgmma_kernel(key, {"SWAP_AB": 1, "BN": bn, "CLUSTER": 1, "CONSUMERS": consumers,
                                       "STAGES": stages}, choose=False)
        assert k.tma_boxes == ((bn, 64), (64, 64), (bn, 32), (8, 64))   # (the 8-row edge boxes unused swapped)
        assert compiler.compile_cubin(k, "sm_90").spill_bytes == 0
    # in clusters along N each block copies BN / CLUSTER of A's rows for all — 4 or more, pieces that
    # may start and end mid 8-row swizzle atom (16 / 4, 80 / 4: 4 and 20 rows)
    for bn, cluster in ((112, 2), (96, 4), (16, 2), (64, 4), (16, 4), (80, 4)):
        k = kernels.wgmma_kernel(key, {"SWAP_AB": 1, "BN": bn, "CLUSTER": cluster, "CONSUMERS": 2,
                                       "STAGES": kernels.wgmma_max_stages(2, bn, swap=True)}, choose=False)
        assert k.tma_boxes[0] == (bn // cluster, 64) and k.cluster == cluster and "multicasting A" in k.summary
        assert compiler.compile_cubin(k, "sm_90").spill_bytes == 0
    # sharing B's columns too (SHARE_A): pairs along M, each copying one consumer's 64 for both —
    # A's box BN / (the blocks along N) rows: 1 × 2 copies all BN, 2 × 2 half
    for bn, cluster in ((144, 4), (80, 4), (96, 2), (48, 2)):
        tile = {"SWAP_AB": 1, "BN": bn, "CLUSTER": cluster, "SHARE_A": 1, "CONSUMERS": 2,
                "STAGES": kernels.wgmma_max_stages(2, bn, swap=True)}
        k = kernels.wgmma_kernel(key, tile, choose=False)
        assert k.tma_boxes[0] == (bn // (cluster // 2), 64)
        assert f"multicasting {'A and B' if cluster == 4 else 'B'}," in k.summary   # (1 × 2: B's columns alone)
        assert compiler.compile_cubin(k, "sm_90").spill_bytes == 0
        assert kernels.wgmma_schedule(427, 1003, 997, 132, {**kernels.WGMMA_TILE, **tile})[0] == \
            kernels.cdiv(1003, 128 * (cluster // 2)) * kernels.cdiv(427, bn * 2)   # cluster tiles along N, M
    with pytest.raises(UsageError, match=r"takes BN \(M's tile\) a multiple of 16 from 16 to 256; got BN=88, CLUSTER=4"):
        kernels.wgmma_kernel(key, {"SWAP_AB": 1, "BN": 88, "CLUSTER": 4, "SHARE_A": 1}, choose=False)   # (16: 2 along N)
    with pytest.raises(UsageError, match=r"SHARE_A=1 shares A .*swapped CONSUMERS=2 or 3; .*CONSUMERS=1"):
        kernels.wgmma_kernel(key, {"SWAP_AB": 1, "BN": 64, "CLUSTER": 2, "SHARE_A": 1, "CONSUMERS": 1}, choose=False)
    assert [kernels.wgmma_max_stages(2, bn, swap=True) for bn in (64, 96, 128, 160, 208)] == [8, 7, 6, 5, 4]
    with pytest.raises(UsageError, match=r"STAGES=6 with CONSUMERS=2, BN=160, 128-row tiles, swapped needs .* at most STAGES=5"):
        kernels.wgmma_kernel(key, {"SWAP_AB": 1, "BN": 160, "CLUSTER": 1, "STAGES": 6}, choose=False)
    for bn in (40, 272):
        with pytest.raises(UsageError, match="SWAP_AB=1 takes BN .*a multiple of 16 from 16 to 256"):
            kernels.wgmma_kernel(key, {"SWAP_AB": 1, "BN": bn, "CLUSTER": 1}, choose=False)
    # a width only swapped tiles take (below 64) unswapped — asked, or left by SWAP_AB=0 over a
    # swapped pick — says so; from 64 unswapped tiles take any multiple of 16 too
    k06 = kernels.KERNELS[f"wgmma_tma_{key}"]
    with pytest.raises(UsageError, match=r"BN=48 is a width only swapped tiles take.* SWAP_AB=0 was asked over"):
        k06.configured(33, 4096, 4096, 132, {"SWAP_AB": 0})
    assert {"SWAP_AB=0", "BN=96"} <= set(k06.configured(279, 4360, 3584, 132, {"SWAP_AB": 0}).defines)
    assert {"SWAP_AB=0", "CLUSTER=1"} <= set(k06.configured(279, 4360, 3584, 132, {"SWAP_AB": 0, "BN": 128}).defines)
    # any swapped width over the pick's cluster of 4 (144 / 4: 36 rows a block)
    assert {"BN=144", "CLUSTER=4"} <= set(k06.configured(279, 4360, 3584, 132, {"BN": 144}).defines)
    # over a 2 × 2 pick: one consumer (its 4 blocks along N), or a cluster of 2, shares A's rows
    # along N alone; a width that is no swapped width is refused for itself (the cluster left as
    # picked); swapped with SHARE_A=1 over an unswapped pick runs 2 × 2
    two_by_two = (397, 7416, 3128)
    assert {"SHARE_A=1", "CLUSTER=4", "BN=208"} <= set(k06.configured(*two_by_two, 132).defines)
    for over, cluster in (({"CONSUMERS": 1}, 4), ({"CLUSTER": 2}, 2), ({"SHARE_A": 0}, 4)):
        assert {"SHARE_A=0", f"CLUSTER={cluster}", "BN=208"} <= set(k06.configured(*two_by_two, 132, over).defines), over
    with pytest.raises(UsageError, match=r"a multiple of 16 from 16 to 256; got BN=200, CLUSTER=4"):
        k06.configured(*two_by_two, 132, {"BN": 200})
    assert {"SWAP_AB=1", "SHARE_A=1", "CLUSTER=4"} <= \
        set(k06.configured(2000, 3000, 1000, 132, {"SWAP_AB": 1, "SHARE_A": 1, "BN": 144}).defines)
    with pytest.raises(UsageError, match=r"BN=48 is a width only swapped tiles take: SWAP_AB=1"):
        kernels.wgmma_kernel(key, {"BN": 48}, choose=False)
    assert "BN=144" in kernels.wgmma_kernel(key, {"BN": 144}, choose=False).defines   # (unswapped: from 64 in 16s)
    with pytest.raises(UsageError, match="SWAP_AB=1 is for fp16 and bf16"):
        kernels.wgmma_kernel("tf32", {"SWAP_AB": 1, "BN": 16, "CLUSTER": 1}, choose=False)


@pytest.mark.parametrize("key,tile", [("fp16", {}), ("fp16", {"WAIT_DEPTH": 1}), ("fp8e4m3", {"WAIT_DEPTH": 1}),
                                      ("fp16", {"SWAP_AB": 1, "BN": 16, "CLUSTER": 1, "WAIT_DEPTH": 1}),
                                      ("int8", {}),   # one consumer: a slice in flight unless told otherwise
                                      ("fp16", {"CONSUMERS": 1, "BN": 128, "CLUSTER": 2}),
                                      ("tf32", {"CONSUMERS": 1, "BN": 256, "CLUSTER": 2, "STAGES": 5}),
                                      ("bf16", {"CONSUMERS": 1, "BN": 64, "CLUSTER": 2}),
                                      ("fp16", {"PINGPONG": 128, "BN": 128, "STAGES": 6}),   # two wgmmas a k-step
                                      ("fp8e4m3bf16", {"PINGPONG": 64, "BN": 256, "STAGES": 4})])
def test_wgmma_builds_keep_their_mmas_asynchronous(key, tile):
    """ptxas serialises wgmma (warnings C7510–C7520, "Potential Performance Loss") when ordinary
    instructions may touch accumulators a group still writes: a build that says so would time
    something other than what its source says. A fresh compile (its ptxas log) must be free of it."""
    kernel = kernels.wgmma_kernel(key, tile, choose=False)
    alone = tile.get("CONSUMERS") == 1 or tile.get("PINGPONG")   # one consumer multiplying at a time
    assert ("WAIT_DEPTH=1" in kernel.defines) == (tile.get("WAIT_DEPTH") == 1 or bool(alone))
    cubin = compiler.compile_cubin(kernel, "sm_90", cache=False)
    assert cubin.spill_bytes == 0, kernel.file_stem
    if "Compiling entry function" not in (cubin.log or ""):
        pytest.skip("NVRTC served the compile from its own cache: no ptxas log to read")
    assert "Potential Performance Loss" not in cubin.log, cubin.log


def test_consumers_taking_tiles_in_turn_build_and_refuse_what_cannot():
    """PINGPONG: each consumer a whole tile of 64 or 128 rows (one or two wgmmas a k-step) —
    the block tile's rows, the A box, the shared memory and the stages follow them; its tiles
    run whole (no split-K: its epilogue sums 64-row shares of a shared tile), stream-K stays;
    a slice in flight; what cannot be built is refused by name."""
    k = kernels.wgmma_kernel("fp16", {"PINGPONG": 128, "BN": 128, "STAGES": 6}, choose=False)
    assert k.tma_boxes[0] == (128, 64) and "WAIT_DEPTH=1" in k.defines
    assert k.geometry(1000, 1000, 64).grid == (8 * 8, 1, 1) and k.geometry(1, 1, 1).block == (384, 1, 1)
    assert kernels.wgmma_max_stages(2, 128, rows=128) == 6 and kernels.wgmma_max_stages(2, 256, rows=64) == 4
    one_row = kernels.wgmma_kernel("bf16", {"PINGPONG": 64, "BN": 256, "STAGES": 4}, choose=False)
    assert one_row.tma_boxes[0] == (64, 64)
    assert compiler.compile_cubin(one_row, "sm_90a").spill_bytes == 0
    pingpong = {**kernels.WGMMA_TILE, "PINGPONG": 128, "BN": 128}
    # 512×512×32768: 2 × 4 tiles of 256 × 128 a cluster pair, whole (cooperative 128×128: 8 pieces)
    assert kernels.wgmma_schedule(512, 512, 32768, 132, pingpong)[:4] == (8, 512, 66, 1)
    assert kernels.wgmma_schedule(512, 512, 32768, 132, {**pingpong, "PINGPONG": 0})[3] == 8
    assert kernels.wgmma_schedule(8192, 8192, 8192, 132, pingpong)[4] > 0   # stream-K's last round
    for bad in ({"PINGPONG": 128, "BN": 256}, {"PINGPONG": 96}, {"PINGPONG": 64, "CONSUMERS": 1},
                {"PINGPONG": 64, "BN": 64, "PROMOTE": 2}, {"PINGPONG": 64, "SWAP_AB": 1, "BN": 64, "CLUSTER": 1}):
        with pytest.raises(UsageError, match=f"PINGPONG={bad['PINGPONG']}: the rows of each consumer's own tile"):
            kernels.wgmma_kernel("fp16", bad, choose=False)
    with pytest.raises(UsageError, match="128-row tiles needs .* at most STAGES=6"):
        kernels.wgmma_kernel("fp16", {"PINGPONG": 128, "BN": 128, "STAGES": 7}, choose=False)


def test_consumers_take_turns_where_k_is_short():
    """The pick moves to 128×128 tiles taken in turn (TURNS_CONFIG) where that measured faster on
    the H200 — K a whole number of 8 to 16 slices, or up to 32 where the cooperative tiles take
    one round and there are tiles for both consumers — and not where it measured slower (but for
    256×16384×1024, +1.0 %); 16-bit inputs only (FP8, INT8 and TF32 not measured). The workspace
    holds no split-K partials then, and a caller's overrides that turns cannot build share the
    tiles instead of being refused."""
    turns = [(4096, 4096, 512), (4096, 4096, 1024), (8192, 8192, 1024), (2048, 2048, 1024), (2048, 2048, 2048),
             (16384, 4096, 1024)]
    cooperative = [(4096, 4096, 256), (4096, 4096, 2048), (8192, 8192, 2048), (1024, 4096, 4096), (2048, 2048, 256),
                   (8192, 8192, 8192), (512, 4096, 4096), (5000, 5000, 1000), (4000, 4000, 800),   # (K not whole slices)
                   (1536, 1536, 2048)]   # one cooperative round, but 72 tiles in turn on 66 clusters: lost 24 %
    assert kernels.wgmma_config(5000, 5000, 1024, 132) == kernels.TURNS_CONFIG
    for shape in turns:
        assert kernels.wgmma_config(*shape, 132) == kernels.TURNS_CONFIG, shape
        assert kernels.wgmma_config(*shape, 132, elem_bytes=1).get("PINGPONG", 0) == 0, shape
    for shape in cooperative:
        assert kernels.wgmma_config(*shape, 132).get("PINGPONG", 0) == 0, shape
    k06 = kernels.KERNELS["wgmma_tma_bf16"]
    run = k06.configured(2048, 2048, 2048, 132)
    assert "PINGPONG=128" in run.defines and "WAIT_DEPTH=1" in run.defines and run.tma_boxes[0] == (128, 64)
    assert run.workspace(132) == 4 * 264   # flags and counters only: no split-K partials taking turns
    # a caller's overrides lie over the pick: where turns cannot take them, the tiles are shared
    assert k06.configured(2048, 2048, 2048, 132, {"BN": 256}).variant == ""   # the registry's 128×256
    assert "CONSUMERS=1" in k06.configured(2048, 2048, 2048, 132, {"CONSUMERS": 1}).defines
    assert "PINGPONG=128" in k06.configured(2048, 2048, 2048, 132, {"BN": 64}).defines   # turns take BN=64
    assert "PINGPONG=0" in k06.configured(2048, 2048, 2048, 132, {"PINGPONG": 0}).defines
    with pytest.raises(UsageError, match="PINGPONG=128: the rows"):
        k06.configured(2048, 2048, 2048, 132, {"PINGPONG": 128, "BN": 256})


def test_2x2_clusters_replace_deep_splits_of_128x128_tiles_where_measured_faster():
    """Where K is long and the tiles few, and the model's pick is 128×128 tiles in clusters of 2
    cut along K in 5+ pieces, 2 × 2 clusters of them (SHARED_BOTH_CONFIG) replace it if they are
    cut in 5+ pieces too and M and N are whole 256 × 256 cluster tiles: at every shape where they
    measured faster on the H200 (docs/results/2026-12-01-h200-long-k-clusters-of-4/, runs 1 and 2,
    fp16 and bf16), not where they measured slower; on lines only, 16-bit inputs only. The
    configuration is one the model ranks (CLUSTERS_OF_4), so it is built and tested with the
    others; overrides that reshape its cluster drop its sharing of A, ones that repeat it do not."""
    assert kernels.SHARED_BOTH_CONFIG in kernels.WGMMA_CONFIGS
    faster = [(512, 512, 32768), (768, 256, 32768), (256, 1024, 32768),   # run 1
              (1024, 256, 21504), (256, 1024, 62464), (1024, 256, 41984), (768, 512, 31744), (256, 1536, 14336),
              (1280, 256, 16384), (1280, 256, 12288), (512, 512, 35840), (256, 1536, 15360), (1536, 256, 30720),
              (256, 768, 45056), (256, 1280, 14336), (768, 512, 29696), (768, 256, 48128)]   # run 2, fresh
    slower = [(512, 1024, 16384), (1024, 1024, 8192), (1024, 1024, 16384),   # fewer pieces than the pick's
              (384, 512, 32768), (192, 1024, 8192), (192, 2048, 16384)]     # M padded to 512 / 256
    for shape in faster:
        assert kernels.wgmma_config(*shape, 132) == kernels.SHARED_BOTH_CONFIG, shape
        for elem_bytes in (1, 4):   # FP8/INT8, TF32: not measured
            assert kernels.wgmma_config(*shape, 132, elem_bytes=elem_bytes).get("SHARE_A", 0) == 0, shape
    for shape in slower:
        assert kernels.wgmma_config(*shape, 132) != kernels.SHARED_BOTH_CONFIG, shape
    pair = {"CONSUMERS": 2, "BN": 128, "CLUSTER": 2, "STAGES": 6}
    assert kernels.wgmma_shares_both(512, 512, 32768, 132, pair)
    # what each condition keeps out, the others met: rows off lines (K of 32760: A's rows 65520
    # bytes), M or N not whole 256s, 8-bit inputs, another pick, 4 pieces of the 2 × 2 clusters
    # (80 SMs hold 18 of them: 4 cluster tiles), 4 pieces of the pick (512×1024×16384: 8 on 33)
    assert kernels.wgmma_rows_off_lines(512, 32760, 2)
    assert not kernels.wgmma_shares_both(512, 512, 32760, 132, pair)
    assert not kernels.wgmma_shares_both(448, 512, 32768, 132, pair)
    assert not kernels.wgmma_shares_both(512, 448, 32768, 132, pair)
    assert not kernels.wgmma_shares_both(512, 512, 32768, 132, pair, elem_bytes=1)
    assert not kernels.wgmma_shares_both(512, 512, 32768, 132, {**pair, "CLUSTER": 1})
    assert [kernels.wgmma_schedule(512, 512, 32768, 80, {**kernels.WGMMA_TILE, **c})[3]
            for c in (pair, kernels.SHARED_BOTH_CONFIG)] == [5, 4]
    assert not kernels.wgmma_shares_both(512, 512, 32768, 80, pair)
    assert kernels.wgmma_schedule(512, 1024, 16384, 132, {**kernels.WGMMA_TILE, **pair})[3] == 4
    assert not kernels.wgmma_shares_both(512, 1024, 16384, 132, pair)
    k06 = kernels.KERNELS["wgmma_tma_fp16"]
    defines = k06.configured(512, 512, 32768, 132).defines
    assert "CLUSTER=4" in defines and "SHARE_A=1" in defines and "BN=128" in defines
    over = k06.configured(512, 512, 32768, 132, {"CLUSTER": 2}).defines
    assert "CLUSTER=2" in over and "SHARE_A=0" in over
    same = k06.configured(512, 512, 32768, 132, {"CLUSTER": 4}).defines
    assert "CLUSTER=4" in same and "SHARE_A=1" in same


def test_06_counts_the_l2_requests_of_rows_off_128_byte_lines(monkeypatch):
    """kernels.L2_REQUESTS_PER_US: a 128-byte box row is one L2 request where its operand's rows
    start on 128-byte lines, 2.47 (Nsight Compute, H200) where they are 16 bytes off 32, 2 on other
    lines; rows the library copies (not a multiple of 16 bytes) land on lines. The bound moves the
    fresh shapes measured faster to the configurations measured (docs/results/2026-12-01-h200-pitch/,
    run 6) — or, since clusters of 4 joined the candidates, to those (measured faster at 1800×7000×4520
    and 576×7000×2024: docs/results/2026-12-01-h200-clusters-of-4/); where rows are on lines it moves
    no pick — every one the same without it — and 8-bit and TF32 inputs (not measured) get none.
    (Among the candidates of those stops: 192-row tiles, which came later, left out; so is the rule
    that swaps tiles over rounds, wgmma_swaps_over_rounds, and the one that leaves clusters of 1,
    wgmma_leaves_clusters_of_one.)"""
    monkeypatch.setattr(wgmma, "WGMMA_CONFIGS", tuple(c for c in wgmma.WGMMA_CONFIGS if c["CONSUMERS"] < 3))
    monkeypatch.setattr(wgmma, "NARROW_CONFIGS", ())
    monkeypatch.setattr(wgmma, "OVER_ROUNDS_MMAS", 0)
    monkeypatch.setattr(wgmma, "wgmma_leaves_clusters_of_one", lambda *args: None)
    assert [kernels.box_row_requests(b) for b in (6016, 6000, 4000, 1984, 1994)] == [1.0, 2.47, 2.0, 2.0, 1.0]
    assert [kernels.box_row_requests(b) for b in (16, 32, 64, 96)] == [1.0, 1.0, 1.0, 2.0]   # short rows: one line
    fresh = {(1800, 7000, 4520): (2, 256, 4), (3400, 5600, 1192): (2, 256, 2), (576, 7000, 2024): (2, 192, 4),
             (896, 7000, 2440): (2, 256, 4), (448, 1200, 1192): (1, 128, 2), (3400, 5600, 5352): (2, 256, 2)}
    for shape, want in fresh.items():
        c = kernels.wgmma_config(*shape, 132)
        assert (c["CONSUMERS"], c["BN"], c["CLUSTER"]) == want, shape
    sizes = [64, 128, 256, 384, 768, 1024, 2048, 4096, 8192]
    on_lines = [(m, n, k) for m in sizes for n in sizes for k in (256, 1024, 4096, 16384)]
    off_lines = list(fresh) + [(m, n, k) for m in (500, 1500, 3000) for n in (1000, 3000, 6000) for k in (1000, 3000)]
    with_bound = {(s, e): kernels.wgmma_config(*s, 132, e) for s in on_lines + off_lines for e in (1, 2, 4)}
    monkeypatch.setattr(wgmma, "L2_REQUESTS_PER_US", float("inf"))   # requests cost nothing
    assert all(kernels.wgmma_config(*s, 132, e) == with_bound[s, e] for s in on_lines for e in (1, 2, 4))
    assert all(kernels.wgmma_config(*s, 132, e) == with_bound[s, e] for s in off_lines for e in (1, 4))
    moved = [s for s in off_lines if kernels.wgmma_config(*s, 132) != with_bound[s, 2]]
    assert set(fresh) <= set(moved), set(fresh) - set(moved)


def test_clusters_sharing_a_build_schedule_and_refuse_what_cannot():
    """SHARE_A=1: a cluster's two blocks along N, each loading half of A's rows (the A box is half
    the block's rows, as the cubin states) for both; the model counts half of A's requests and all
    of B's; refused by name with clusters of 1, A_ROWS or PINGPONG. In clusters of 2 not among the
    picker's configurations with 128-row tiles (measured both faster and slower than sharing B,
    the request bound ranking them wrongly): a caller's override asks for it. In clusters of 4
    (2 × 2) it is, and with 192-row tiles (ROWS_192)."""
    for key in ("fp16", "int8"):
        k = kernels.wgmma_kernel(key, {"SHARE_A": 1, "BN": 192}, choose=False)
        cubin = compiler.compile_cubin(k, "sm_90")   # refuses a build whose stated boxes differ
        assert k.tma_boxes[0][0] == 64 and "SHARE_A=1" in k.defines and cubin.spill_bytes == 0
    tile = {**kernels.WGMMA_TILE, "SHARE_A": 1, "BN": 128}
    assert kernels.wgmma_schedule(300, 500, 1000, 132, tile)[0] == 3 * 2   # cluster tiles of 128 × 256
    assert kernels.wgmma_schedule(300, 500, 1000, 132, {**tile, "SHARE_A": 0})[0] == 2 * 4   # of 256 × 128
    model = lambda shape, t: kernels.wgmma_model_us(*shape, 132, t)[0]   # noqa: E731
    assert model((576, 7000, 2024), tile) < model((576, 7000, 2024), {**tile, "SHARE_A": 0})   # A's requests halved
    wide = {**tile, "BN": 192}
    assert model((3000, 3000, 3000), wide) > model((3000, 3000, 3000), {**wide, "SHARE_A": 0})   # B's doubled
    for bad, got in [({"CLUSTER": 1}, "CLUSTER=1"), ({"A_ROWS": 16}, "A_ROWS=16"), ({"PINGPONG": 128, "BN": 128},
                                                                                      "PINGPONG=128")]:
        with pytest.raises(UsageError, match=f"SHARE_A=1 shares A .*got .*{got}"):
            kernels.wgmma_kernel("fp16", {"SHARE_A": 1, **bad}, choose=False)
    assert all(c["CLUSTER"] == 4 or c["CONSUMERS"] == 3 for c in kernels.WGMMA_CONFIGS if c.get("SHARE_A"))
    k06 = kernels.KERNELS["wgmma_tma_fp16"]
    assert "SHARE_A=0" in k06.configured(3000, 3000, 3000, 132).defines
    over = k06.configured(3000, 3000, 3000, 132, {"SHARE_A": 1, "BN": 192, "CONSUMERS": 2})
    assert {"SHARE_A=1", "BN=192", "CLUSTER=2"} <= set(over.defines) and over.tma_boxes[0] == (64, 64)
    over = k06.configured(3000, 3000, 3000, 132, {"SHARE_A": 1})   # over its pick, 192×192: 96 rows each
    assert {"SHARE_A=1", "CONSUMERS=3", "CLUSTER=2"} <= set(over.defines) and over.tma_boxes[0] == (96, 64)
    # 2 × 2, picked where measured fastest (docs/results/2026-12-01-h200-clusters-of-4/): A's box half
    # the block's rows, the cluster's tiles 256 × 384
    picked = k06.configured(5000, 1024, 4104, 132)
    assert {"SHARE_A=1", "BN=192", "CLUSTER=4"} <= set(picked.defines) and picked.tma_boxes[0] == (64, 64)
    assert kernels.wgmma_schedule(5000, 1024, 4104, 132, {**kernels.WGMMA_TILE, **kernels.wgmma_config(
        5000, 1024, 4104, 132)})[:3] == (20 * 3, 65, 30)


def test_clusters_of_4_build_schedule_and_are_ranked_only_where_rows_are_off_lines():
    """CLUSTER=4: four tiles along M sharing B (each block copies one of its boxes for all), or
    with SHARE_A 2 × 2 (half of A's rows for the block beside, half of B's boxes for the one
    below); the H200 holds 30 such clusters, and the model schedules on them. Ranked only for
    16-bit inputs whose rows lie off 128-byte lines — where they were measured faster; on lines
    they lost (docs/results/2026-12-01-h200-clusters-of-4/) — as on run 3's fresh shapes. On
    lines only the rule for long K with few tiles picks them (wgmma_shares_both), which these
    shapes (K ≤ 16384, M or N of 64 to 384 and 768 to 8192) never meet."""
    for key in ("fp16", "int8"):
        for share_a, a_rows in ((0, 128), (1, 64)):
            k = kernels.wgmma_kernel(key, {"CLUSTER": 4, "SHARE_A": share_a, "BN": 192}, choose=False)
            cubin = compiler.compile_cubin(k, "sm_90")   # refuses a build whose stated boxes differ
            assert k.cluster == 4 and k.tma_boxes[0][0] == a_rows and cubin.spill_bytes == 0, (key, share_a)
    tile = {**kernels.WGMMA_TILE, "CLUSTER": 4}
    assert kernels.wgmma_cluster_shape(tile) == (4, 1) and kernels.wgmma_cluster_shape({**tile, "SHARE_A": 1}) == (2, 2)
    assert kernels.wgmma_schedule(3000, 3000, 3000, 132, tile)[:3] == (6 * 12, 47, 30)   # 512 × 256 a cluster
    assert kernels.wgmma_schedule(3000, 3000, 3000, 132, {**tile, "SHARE_A": 1})[:3] == (12 * 6, 47, 30)   # 256 × 512
    for bad, words in (({"CLUSTER": 4, "PINGPONG": 128, "BN": 128}, "clusters of 1 or 2"), ({"CLUSTER": 3}, "CLUSTER 1, 2 or 4")):
        with pytest.raises(UsageError, match=words):
            kernels.wgmma_kernel("fp16", bad, choose=False)
    sizes = [64, 128, 256, 384, 768, 1024, 2048, 3072, 4096, 8192]
    on_lines = [(m, n, k) for m in sizes for n in sizes for k in (256, 1024, 4096, 16384)]
    off_lines = [(m, n, k) for m in (448, 1800, 4400) for n in (1800, 3400, 7000) for k in (2024, 3272, 5352)]
    assert not any(kernels.wgmma_config(*s, 132, e)["CLUSTER"] == 4 for s in on_lines for e in (1, 2, 4))
    assert all(kernels.wgmma_choose(kernels.wgmma_ranked(*s, 132))["CLUSTER"] != 4 for s in on_lines)
    assert not any(kernels.wgmma_config(*s, 132, e)["CLUSTER"] == 4 for s in off_lines for e in (1, 4))
    assert sum(kernels.wgmma_config(*s, 132)["CLUSTER"] == 4 for s in off_lines) > len(off_lines) // 3
    # overrides that reshape a 2 × 2 pick's cluster take its sharing of A with it; turns give way to 4
    k06 = kernels.KERNELS["wgmma_tma_fp16"]
    assert {"CLUSTER=4", "SHARE_A=1", "BN=192"} <= set(k06.configured(5000, 1024, 4104, 132).defines)
    for over, want in (({"CLUSTER": 1}, {"CLUSTER=1", "SHARE_A=0"}), ({"CLUSTER": 2}, {"CLUSTER=2", "SHARE_A=0"}),
                       ({"SWAP_AB": 1, "BN": 32}, {"SWAP_AB=1", "CLUSTER=1", "SHARE_A=0"}),
                       ({"PINGPONG": 128, "BN": 128}, {"PINGPONG=128", "CLUSTER=2", "SHARE_A=0"}),
                       ({"BN": 256}, {"BN=256", "CLUSTER=4", "SHARE_A=1"}),
                       ({"CLUSTER": 2, "SHARE_A": 1}, {"CLUSTER=2", "SHARE_A=1"})):
        assert want <= set(k06.configured(5000, 1024, 4104, 132, over).defines), over
    assert "PINGPONG=128" in k06.configured(4096, 4096, 1024, 132).defines
    assert {"PINGPONG=0", "CLUSTER=4"} <= set(k06.configured(4096, 4096, 1024, 132, {"CLUSTER": 4}).defines)
    # run 3's fresh shapes, each as its fastest timed configuration (of 13) ran
    for shape, want in (((448, 3400, 2024), (128, 4, 1)), ((4400, 1800, 2024), (192, 4, 1)),
                        ((448, 7000, 5352), (256, 4, 0)), ((896, 1200, 1608), (128, 4, 1))):
        c = kernels.wgmma_config(*shape, 132)
        assert (c["BN"], c["CLUSTER"], c.get("SHARE_A", 0)) == want, (shape, c)


def test_192_row_tiles_build_without_spills_and_are_picked_where_measured_faster():
    """CONSUMERS=3: 192-row tiles, three consumers under one producer warpgroup (512 threads: 128
    registers a thread at launch, 160 for the consumers after setmaxnreg, which their SASS uses):
    64 × 192 builds without spills with split-K's sum loading 8 partials at once — its default
    there — and refuses 16 by name, in Python and in the .cu; wider tiles (swapped: past 192 of
    M), PROMOTE and PINGPONG are refused, and a 192-row pick gives way to 128 rows under overrides
    that need them. Picked for 16-bit inputs only, as run 2's and run 3's fastest timed
    (docs/results/2026-12-01-h200-rows-192/), not where M pads a tile by much, and never cut
    along K in more than 4 pieces."""
    from dataclasses import replace
    for key in ("fp16", "fp8e4m3bf16"):
        for cluster, share_a, a_rows in ((2, 0, 192), (2, 1, 96), (1, 0, 192)):
            k = kernels.wgmma_kernel(key, {"CONSUMERS": 3, "BN": 192, "STAGES": 3, "CLUSTER": cluster,
                                           "SHARE_A": share_a}, choose=False)
            cubin = compiler.compile_cubin(k, "sm_90")   # refuses a build whose stated launch or boxes differ
            assert cubin.spill_bytes == 0, (key, cluster, share_a)
            assert "SPLIT_LOADS=8" in k.defines and k.tma_boxes[0][0] == a_rows and k.variant.count("SPLIT_LOADS") == 0
            assert k.geometry(4096, 4096, 4096).block == (512, 1, 1)
            if key == "fp16" and cluster == 2 and not share_a and (text := sass.dump_sass(cubin.image)):
                highest = max(int(r) for r in re.findall(r"\bR(\d+)\b", text))
                assert 128 <= highest < 160, highest   # past the launch's 128: setmaxnreg's 160 at work
    k = kernels.wgmma_kernel("fp16", {"CONSUMERS": 3, "BN": 192, "STAGES": 3}, choose=False)
    sixteen = replace(k, defines=tuple("SPLIT_LOADS=16" if d.startswith("SPLIT_LOADS=") else d for d in k.defines))
    with pytest.raises(CompileError, match="SPLIT_LOADS at most 8 past 160"):   # the .cu's own static_assert
        compiler.compile_cubin(sixteen, "sm_90")
    assert "SPLIT_LOADS=16" in kernels.wgmma_kernel("fp16", {"CONSUMERS": 3, "BN": 128}, choose=False).defines
    assert "SPLIT_LOADS=4" in kernels.wgmma_kernel("fp16", {"CONSUMERS": 3, "BN": 192, "STAGES": 3, "SPLIT_LOADS": 4},
                                                   choose=False).defines
    for bad, words in (({"BN": 192, "STAGES": 3, "SPLIT_LOADS": 16}, "cannot be built with SPLIT_LOADS=16:"),
                       ({"BN": 256, "STAGES": 2}, "cannot be built with BN=256:"),
                       ({"BN": 128, "PROMOTE": 1}, "cannot be built with PROMOTE=1:"),
                       ({"BN": 208, "SWAP_AB": 1, "CLUSTER": 1}, "cannot be built with BN=208:"),
                       ({"BN": 176, "SWAP_AB": 1, "SPLIT_LOADS": 16}, "cannot be built with SPLIT_LOADS=16:"),
                       ({"BN": 128, "PINGPONG": 128}, "with CONSUMERS=2.*got CONSUMERS=3"), ({"BN": 192, "STAGES": 4}, "at most STAGES=3")):
        with pytest.raises(UsageError, match=words):
            kernels.wgmma_kernel("fp16", {"CONSUMERS": 3, **bad}, choose=False)
    with pytest.raises(UsageError, match="CONSUMERS is 1, 2 or 3"):
        kernels.wgmma_kernel("fp16", {"CONSUMERS": 4}, choose=False)
    k06 = kernels.KERNELS["wgmma_tma_fp16"]   # 3072³ picks 192×192 in clusters of 2; 576×7000×2024 sharing A
    for shape, over, want in (((3072,) * 3, {"BN": 256}, {"CONSUMERS=2", "BN=256"}),
                              ((3072,) * 3, {"SPLIT_LOADS": 16}, {"CONSUMERS=2", "SPLIT_LOADS=16"}),
                              ((3072,) * 3, {"PINGPONG": 128, "BN": 128}, {"CONSUMERS=2", "PINGPONG=128"}),
                              ((3072,) * 3, {"BN": 128}, {"CONSUMERS=2", "BN=128"}),   # 128×128, not 192×128
                              ((3072,) * 3, {"STAGES": 4}, {"CONSUMERS=2", "BN=192", "STAGES=4"}),
                              ((3072,) * 3, {"CLUSTER": 1}, {"CONSUMERS=3", "BN=192", "STAGES=3"}),
                              ((576, 7000, 2024), {"CLUSTER": 1}, {"CONSUMERS=3", "CLUSTER=1", "SHARE_A=0"}),
                              ((576, 7000, 2024), {"SWAP_AB": 1, "BN": 32}, {"CONSUMERS=2", "SWAP_AB=1", "SHARE_A=0"})):
        assert want <= set(k06.configured(*shape, 132, over).defines), (shape, over)
    tile = {**kernels.WGMMA_TILE, "CONSUMERS": 3, "BN": 192}
    assert kernels.wgmma_schedule(576, 7000, 2024, 132, {**tile, "SHARE_A": 1})[:3] == (3 * 19, 32, 66)   # 192 × 384
    assert kernels.wgmma_schedule(576, 7000, 2024, 132, tile)[:3] == (2 * 37, 32, 66)   # 384 × 192: 768 rows
    # run 2's and run 3's shapes where a 192-row tile was the fastest timed, picked as it ran — at
    # 576×4096×11008 in clusters of 2 sharing A, timed 77.4 µs beside clusters of 1's 77.5
    # (kernels.wgmma_leaves_clusters_of_one)
    for shape, want in (((3072, 3072, 3072), (2, 0)), ((3000, 3000, 3000), (2, 0)), ((576, 7000, 2024), (2, 1)),
                        ((576, 4096, 11008), (2, 1)), ((7261, 2944, 7744), (2, 0)), ((4118, 3456, 3768), (2, 1))):
        c = kernels.wgmma_config(*shape, 132)
        assert (c["CONSUMERS"], c["CLUSTER"], c.get("SHARE_A", 0)) == (3, *want), (shape, c)
    for shape in ((1000, 5000, 5000), (5000, 1000, 5000), (4096, 4096, 4096), (8192, 8192, 8192)):
        assert kernels.wgmma_config(*shape, 132)["CONSUMERS"] == 2, shape
    for shape in ((192, 3072, 16384), (3072, 192, 32768), (320, 1800, 7000)):   # 192×192 would be cut in 5–8
        assert kernels.wgmma_config(*shape, 132)["CONSUMERS"] < 3, shape
    for elem in (1, 4):   # 07's picks: not measured there
        assert not any(kernels.wgmma_config(m, n, 4096, 132, elem)["CONSUMERS"] == 3
                       for m in (576, 3072, 6144) for n in (3072, 7168))
    assert not any(c["CONSUMERS"] == 3 for c in kernels.wgmma_kernel("int8").configs)


@pytest.mark.parametrize("consumers, bn", [(1, 256), (2, 256), (3, 176), (3, 192)])
def test_the_widest_swapped_tiles_build_without_spills(consumers, bn):
    """Swapped tiles (SWAP_AB) as wide as each number of consumers takes: their C leaves through
    scalar stores whose addresses are four a thread plus immediates (store_c) — written out per
    store, ptxas spilled 1.9 kB of them at 256 here (scripts/swapped_spills.py). 176 and 192 of M with
    three consumers build with SPLIT_LOADS 8, their default."""
    tile = {"SWAP_AB": 1, "CONSUMERS": consumers, "BN": bn, "CLUSTER": 2,
            "STAGES": kernels.wgmma_max_stages(consumers, bn, swap=True)}
    kernel = kernels.wgmma_kernel("fp16", tile, choose=False)
    assert ("SPLIT_LOADS=8" in kernel.defines) == (consumers == 3)
    assert compiler.compile_cubin(kernel, "sm_90").spill_bytes == 0


@pytest.mark.parametrize("consumers, bn, parts, stages", [(1, 256, 2, 5), (3, 144, 6, 5), (3, 192, 3, 4), (2, 176, 2, 5)])
def test_swapped_c_in_parts_frees_a_stage(consumers, bn, parts, stages):
    """C_PARTS: a swapped tile's C leaves through a box of BN / C_PARTS rows, the parts in turn —
    the stage more cuBLAS holds in each of these tiles (docs/results/2026-12-04-cpu-swapped-store/).
    The .cu states the smaller box and shared memory (compile_cubin checks them against the
    declaration), nothing spills or goes to the stack (the parts' accumulators are registers: the
    loops unroll), and C_PARTS where a box cannot be cut so is refused by name."""
    assert kernels.wgmma_max_stages(consumers, bn, swap=True, c_parts=parts) == stages
    assert kernels.wgmma_max_stages(consumers, bn, swap=True) == stages - 1
    tile = {"SWAP_AB": 1, "CONSUMERS": consumers, "BN": bn, "CLUSTER": 2, "C_PARTS": parts, "STAGES": stages}
    kernel = kernels.wgmma_kernel("fp16", tile, choose=False)
    assert kernel.tma_boxes[2] == (bn // parts, 32) and f"C_PARTS={parts}" in kernel.variant
    cubin = compiler.compile_cubin(kernel, "sm_90")
    assert cubin.spill_bytes == 0 and cubin.stack_bytes == 0
    over = {name: value for name, value in tile.items() if name != "STAGES"}   # (the most that fit)
    picked = kernels.KERNELS["wgmma_tma_bf16"].configured(300, 9000, 4000, 132, over)
    assert f"STAGES={stages}" in picked.defines and f"C_PARTS={parts}" in picked.defines
    for bad in ({"SWAP_AB": 0, "BN": 256, "C_PARTS": 2}, {"SWAP_AB": 1, "BN": 64, "C_PARTS": 2},
                {"SWAP_AB": 1, "BN": 144, "C_PARTS": 4}):   # (36 rows: not whole 8-row groups)
        with pytest.raises(UsageError, match=f"C_PARTS={bad['C_PARTS']} stores a swapped tile's C"):
            kernels.wgmma_kernel("fp16", {"CONSUMERS": 2, "CLUSTER": 1, "STAGES": 2, **bad}, choose=False)


def test_ptxas_warnings_are_read_from_the_log_and_shown():
    from tcraw.compiler import ptxas_warnings
    log = ("ptxas info    : Compiling entry function 'k' for 'sm_90a'\n"
           "ptxas info    : (C7515) Potential Performance Loss: wgmma.mma_async instructions are serialized\n"
           "ptxas warning : Registers are spilled to local memory in function 'k', 8 bytes spill stores\n"
           "ptxas info    : Used 168 registers\n")
    assert ptxas_warnings(log) == [
        "(C7515) Potential Performance Loss: wgmma.mma_async instructions are serialized",
        "Registers are spilled to local memory in function 'k', 8 bytes spill stores"]
    assert ptxas_warnings("") == [] and ptxas_warnings(None) == []
    rows = compiler.compile_table([kernels.KERNELS["naive_fp32"]], [compiler.Arch.parse("sm_90")], note=lambda *_: None)
    assert rows[0]["ptxas_warnings"] == []


def test_the_compile_table_shows_each_tensor_instruction_with_its_form():
    """`tcraw compile` rows carry the tensor instructions with shape and types (sass_forms), the
    SASS evidence for FP8/INT8/TF32/FP64, and their counts by opcode (sass) summed from them."""
    if not sass.find_cuobjdump():
        pytest.skip("no cuobjdump here (the dev extra installs one)")
    names = ["wgmma_kmajor_fp8e4m3bf16", "wgmma_kmajor_int8", "wgmma_kmajor_tf32", "dmma_fp64"]
    rows = compiler.compile_table([kernels.KERNELS[n] for n in names], [compiler.Arch.parse("sm_90")], note=lambda _: None)
    want = ["QGMMA.64x256x32.F32.E4M3.E4M3", "IGMMA.64x256x32.S8.S8", "HGMMA.64x256x8.F32.TF32", "DMMA.16x8x4"]
    by_name = {r["kernel"]: r for r in rows}   # the registry's configurations; the others carry their variant
    for name, form in zip(names, want):
        row = by_name[name]
        assert row["sass_forms"].get(form, 0) > 0, (name, row["sass_forms"])
        assert sum(row["sass_forms"].values()) == sum(row["sass"].values()), row["kernel"]


@pytest.mark.parametrize("call,needle", [
    (lambda: kernels.wgmma_kernel("fp16", {"BOGUS": 1}), "has no macro 'BOGUS'"),
    (lambda: kernels.wgmma_kernel("fp16", {"BN": 128.0}), "cannot take BN=128.0: it is a whole number from 1 to"),
    (lambda: kernels.wgmma_kernel("fp16", {"CLUSTER": True}), "cannot take CLUSTER=True"),
    (lambda: kernels.wgmma_kernel("fp16", {"STAGES": 0}), "cannot take STAGES=0: it is a whole number from 1 to"),
    (lambda: kernels.wgmma_kernel("fp16", {"STREAM_K_DIV": 0}), "cannot take STREAM_K_DIV=0"),
    (lambda: kernels.wgmma_kernel("fp16", {"STREAM_K_DIV": 2 ** 40}), "to 2147483647"),   # (NVRTC would fail on it)
    (lambda: kernels.wgmma_kernel("fp16", {"A_EDGE": 33}), "A_EDGE=33: the most 8-row boxes"),
    (lambda: kernels.wgmma_kernel("fp16", None), "macros are a dict"),
    (lambda: kernels.wgmma_kernel("fp32"), "06/07 come in fp16"),
    (lambda: kernels.KERNELS["wgmma_tma_fp16"].configured(0, 1, 1, 132), "M must be an integer ≥ 1"),
    (lambda: kernels.KERNELS["wgmma_tma_fp16"].configured(64, 64, 64, 0), "SM count is a whole number from 1"),
    (lambda: kernels.KERNELS["wgmma_tma_fp16"].configured(64, 64, 64, 132, {"BN": "128"}), "cannot take BN='128'"),
    (lambda: kernels.KERNELS["wgmma_tma_fp16"].configured(64, 64, 64, 132, "BN"), "overrides are a dict"),
    (lambda: kernels.wgmma_config(0, 0, 0, 132), "M must be an integer ≥ 1"),
    (lambda: kernels.wgmma_config(100, 4096, 4096, 132, elem_bytes=0), "elem_bytes is the inputs' bytes"),
    (lambda: kernels.wgmma_config(100, 4096, 4096, 132, elem_bytes=True), "elem_bytes is the inputs' bytes"),
    (lambda: kernels.wgmma_config(8, 4096, 4096, 132, elem_bytes="x"), "elem_bytes is the inputs' bytes"),
    (lambda: kernels.wgmma_config(100, 4096, 4096, 132, stream_k=None), "stream_k is True or False"),
    # the pick's helpers the README names check their problem too
    (lambda: kernels.wgmma_runs_gemv(-1, 4096), "M must be an integer ≥ 1"),
    (lambda: kernels.wgmma_runs_gemv(2, 4096, elem_bytes=3), "elem_bytes is the inputs' bytes"),
    (lambda: kernels.wgmma_reads_b_in_place("a", "b"), "M must be an integer"),
    (lambda: kernels.small_m_split(1, 4096, 4096, 0), "SM count is a whole number from 1"),
    (lambda: kernels.small_m_split("1", 4096, 4096, 132), "M must be an integer"),
    (lambda: kernels.gemv_sums_in_cluster(1, 0, 4096, 132), "N must be an integer ≥ 1"),
    (lambda: kernels.KERNELS["wgmma_tma_fp16"].configured(64, 64, 64, 132, {"A_EDGE": -1}), "A_EDGE=-1: it is a whole number ≥ 0"),
    (lambda: kernels.KERNELS["dmma_fp64"].configured(100, 100, 100, 132, {"STAGES": 1}), "needs STAGES ≥ 2"),
    (lambda: kernels.KERNELS["dmma_fp64"].configured(100, 100, 100, 132, {"MIN_BLOCKS": -3}), "cannot take MIN_BLOCKS=-3"),
])
def test_macros_and_problems_a_kernel_cannot_take_are_refused_by_name(call, needle):
    """06/07's and 08's macros (built-in names, whole numbers, ≥ 1 where they count something) and
    the problem and SM count a configuration is asked for: a UsageError naming what is wrong —
    not a raw Python error, and not -DBN=128.0 left for NVRTC to refuse."""
    with pytest.raises(UsageError, match=re.escape(needle)):
        call()


def test_compile_source_takes_one_define_as_one_and_refuses_what_is_no_source():
    """compiler.compile_source (public): a str for ``defines`` or ``include_dirs`` is one item, not
    its letters; a source that is neither a path nor CUDA text is refused by name."""
    cubin = compiler.compile_source('extern "C" __global__ void f(int* p) { p[0] = X; }\n', "sm_90",
                                    defines="X=7", cache=False)
    assert cubin.image
    for bad in (None, b"extern", "", "a\0b"):
        with pytest.raises(UsageError, match="the kernel source is a path or the CUDA text"):
            compiler.compile_source(bad, "sm_90")


def test_numpy_integers_pick_as_python_ints_do():
    """wgmma_config and Kernel.configured read M, N, K, the SM count and macro values as Python
    ints: numpy's fixed widths would wrap in the model's products and quotients (np.uint32 moved
    47 of 52 suite picks) or index with a numpy bool (M ≤ 32)."""
    import numpy as np
    from tcraw.bench import parse_shapes
    shapes = sorted({shape for _, shape in parse_shapes("square,skinny,long-k,odd,llm")})
    for t in (np.int64, np.int32, np.uint32, np.uint64):
        for shape in shapes:
            assert kernels.wgmma_config(*map(t, shape), t(132)) == kernels.wgmma_config(*shape, 132), (t, shape)
    assert kernels.wgmma_config(np.int8(100), 1024, 1024, np.uint8(132)) == kernels.wgmma_config(100, 1024, 1024, 132)
    k06 = kernels.KERNELS["wgmma_tma_fp16"]
    assert k06.configured(np.int64(16), 4096, 4096, 132, overrides={"STAGES": np.uint8(4)}).defines == \
        k06.configured(16, 4096, 4096, 132, overrides={"STAGES": 4}).defines


def test_every_pick_on_shapes_no_list_names_is_a_configuration_compile_prebuilds():
    """``configs`` is what `tcraw compile --out` builds for cubin-only runs: a pick outside it
    would find no cubin there. Fresh random shapes each run (log-uniform 1–40 000, and sides at
    the tiles' edges) and SM counts other than the H200's; the seed is in the message."""
    import random
    seed = random.randrange(2 ** 32)
    rng = random.Random(seed)
    edges = [1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 33, 63, 64, 65, 127, 128, 129, 255, 257, 511, 513, 1023, 1025, 4097,
             8191, 16385, 65537]
    shapes = [tuple(rng.choice(edges) for _ in range(3)) for _ in range(60)]
    shapes += [tuple(round(10 ** rng.uniform(0, 4.6)) for _ in range(3)) for _ in range(140)]
    for kernel in (k for k in kernels.KERNELS.values() if k.configure):
        known = {c.defines: c.source for c in kernel.configurations()}
        for shape in shapes:
            sms = rng.choice((132, 132, 114, 78, 16, 1))
            chosen = kernel.configured(*shape, sms)
            assert known.get(chosen.defines) == chosen.source, (kernel.name, shape, sms, chosen.variant, seed)


def test_an_sm_count_too_small_for_a_cluster_still_gets_a_pick():
    """One SM holds no cluster of 2: the model counts one (the launch, not the picker, is where
    such a GPU fails), never a division by zero."""
    assert kernels.wgmma_config(1024, 1024, 1024, 1)["CLUSTER"] in (1, 2, 4)
    assert kernels.KERNELS["wgmma_tma_fp16"].configured(1024, 1024, 1024, 1, overrides={"CLUSTER": 1})
    with pytest.raises(UsageError, match="SM count"):
        kernels.wgmma_config(1024, 1024, 1024, 0)


@pytest.mark.parametrize("overrides, needle", [
    ({"SHARE_A": 2}, "SHARE_A=2: STREAM_K/SPLIT_K/SWAP_AB/SHARE_A/B_REALIGN/A_LINES/A_SHIFT/C_PLAIN each switch"),
    ({"STREAM_K": 7}, "STREAM_K=7"), ({"SPLIT_K": 3}, "SPLIT_K=3"),
    ({"SWAP_AB": 2, "BN": 32, "CLUSTER": 1}, "SWAP_AB=2"),
    ({"SPLIT_MAX": 0}, "SPLIT_MAX=0: it is a whole number from 1"), ({"A_LINES": 2}, "A_LINES=2"),
])
def test_06s_switches_are_0_or_1_and_split_max_at_least_1(overrides, needle):
    """The .cu reads any nonzero switch as on: a 2 or 7 would build what 1 does under another
    name; SPLIT_MAX=0 would mean no split, which SPLIT_K=0 says."""
    with pytest.raises(UsageError, match=re.escape(needle)):
        kernels.KERNELS["wgmma_tma_fp16"].configured(4096, 4096, 4096, 132, overrides=overrides)


def test_the_ladders_own_builders_take_partial_tiles_and_refuse_bad_ones():
    """03/04/05's builders (tune_ladder's variants, specs) take a partial tile over their
    defaults, and refuse an unknown precision or a macro that is not a whole number ≥ 1 by name."""
    assert kernels.mma_sync_kernel("fp16", {"BN": 128}).tile == (128, 128, 64)
    assert kernels.tiled_simt_kernel("fp32", {"TM": 4}).tile == (128, 128, 8)
    for call, needle in ((lambda: kernels.mma_sync_kernel("fp8"), "05 comes in fp16, bf16, tf32"),
                         (lambda: kernels.mma_sync_kernel("fp16", {"BN": 0}), "BN=0"),
                         (lambda: kernels.wmma_pipelined_kernel("fp32"), "04 comes in"),
                         (lambda: kernels.tiled_simt_kernel("fp32", {"STAGE": 3}), "no macro 'STAGE'")):
        with pytest.raises(UsageError, match=needle):
            call()


def test_select_takes_one_name_as_a_list_of_it():
    assert [k.name for k in kernels.select("naive_fp32")] == ["naive_fp32"]
    assert kernels.select(precisions="fp16") == kernels.select(precisions=["fp16"])


def test_one_line_of_cuda_text_is_told_it_was_read_as_a_path():
    """compile_source reads a str with a newline as CUDA text, else as a path: one line of text
    gets the file error and how to have it read as text."""
    with pytest.raises(UsageError, match="only with a newline in it"):
        compiler.compile_source('extern "C" __global__ void f() {}', "sm_80")
    with pytest.raises(UsageError) as e:
        compiler.compile_source("no_such_kernel.cu", "sm_80")
    assert "newline" not in str(e.value)


def test_a_refused_override_says_which_macros_were_the_picks():
    """An override that does not fit the pick (A_ROWS=8 over M = 16's swapped tiles: those copy A's
    rows whole) is refused with the macros asked for and the pick they were asked over — the
    message's SWAP_AB=1 is the pick's, not the caller's."""
    with pytest.raises(UsageError, match=r"takes no A_ROWS.* — A_ROWS=8 was asked over the configuration picked for "
                                         r"16×4096×4096: SWAP_AB=1\+"):
        kernels.KERNELS["wgmma_tma_fp16"].configured(16, 4096, 4096, 132, overrides={"A_ROWS": 8})
    assert "CLUSTER=2" in kernels.KERNELS["wgmma_tma_fp16"].configured(16, 4096, 4096, 132, {"CLUSTER": 2}).defines
    # a kernel's own macros that a pick cannot be built with: named as its own, and the pick named
    mine = kernels.wgmma_kernel("fp16", {"A_ROWS": 64}, name="mine")
    with pytest.raises(UsageError, match=r"takes no A_ROWS.*declared with A_ROWS=64 of its own\) — mine was built "
                                         r"over the configuration picked for 279×4360×3584: SWAP_AB=1\+"):
        mine.configured(279, 4360, 3584, 132)
    with pytest.raises(UsageError, match=r"06/07 come in fp16, .* not \['fp16'\]"):
        kernels.wgmma_kernel(["fp16"])
    # choose is True or False — a truthy string is not taken as either
    for make in (lambda: kernels.wgmma_kernel("fp16", choose="no"), lambda: kernels.dmma_kernel(choose=0)):
        with pytest.raises(UsageError, match=r"choose is True \(each problem gets the configuration picked .* or "
                                             r"False \(one build with the macros given\), not ('no'|0)"):
            make()


def test_06_hands_small_m_with_b_off_16_bytes_to_09():
    """M ≤ 32 (M ≤ 48 where N ≥ 4096) and N not a multiple of 8 (B's rows off 16 bytes): 06's pick
    runs 09, which reads B in place (no pitched copy) with K in small_m_split's pieces — the
    record's source says so; N a multiple of 8, M past those bounds, 06 realigning B itself (M of
    33–64, K of 16 slices or more), 8-bit inputs or an override of 06's macros (but A_LINES and
    C_PLAIN) keep 06's own."""
    k06 = kernels.KERNELS["wgmma_tma_fp16"]
    for shape in [(5, 11037, 15699), (32, 4099, 2000), (17, 65, 9), (33, 4099, 1000), (48, 14046, 640), (1, 79, 9)]:
        run = k06.configured(*shape, 132)
        assert run.source == "09_mma_small_m_b_in_place.cu" and run.name == k06.name and run.variant == "09", shape
        assert run.pitch == 0 and run.max_m == kernels.SMALL_M_ROWS and not run.tma_boxes
        assert run.launch_geometry(*shape, 132).grid == (-(-shape[1] // 128), kernels.small_m_split(*shape, 132), 1)
    for shape in [(5, 11008, 4096), (33, 4091, 2000), (49, 14046, 8640), (48, 14046, 8640), (40, 11008, 4096),
                  (32, 63, 9)]:
        assert k06.configured(*shape, 132).source == "06_wgmma_tma_hopper.cu", shape
    assert k06.configured(5, 11037, 15699, 132, {"BN": 32}).source == "06_wgmma_tma_hopper.cu"
    assert k06.configured(5, 11037, 15699, 132, {"BN": None}).source == "09_mma_small_m_b_in_place.cu"
    declared = kernels.wgmma_kernel("fp16", {"STAGES": 3})   # (a tune_ladder variant's macros: 06's)
    assert declared.configured(5, 11037, 15699, 132).source == "06_wgmma_tma_hopper.cu"
    assert kernels.wgmma_kernel("fp8e4m3").configured(5, 11037, 15699, 132).source.startswith("07_")


def test_06_hands_m_of_1_to_4_to_10():
    """M ≤ 4 and N ≥ GEMV_MIN_N, 16-bit, B's rows on 16 bytes or not: 06's pick runs 10 (a GEMV)
    over tiles of 256 or 248 columns with K in gemv_split's pieces through the workspace, or in a
    cluster of GEMV_IN_CLUSTER where gemv_sums_in_cluster — the record's source and variant say
    which; M of 5, N below the bound, 8-bit inputs or an override of 06's macros (but A_LINES and
    C_PLAIN) keep the others."""
    k06 = kernels.KERNELS["wgmma_tma_bf16"]
    in_cluster = [(4, 2408, 777), (4, 1872, 968), (1, 2272, 1712)]
    for shape in [(1, 11037, 15699), (2, 4096, 4096), (1, kernels.GEMV_MIN_N, 9), (3, 1003, 20000)] + in_cluster:
        run, c = k06.configured(*shape, 132), kernels.GEMV_IN_CLUSTER
        assert kernels.gemv_sums_in_cluster(*shape, 132) == (shape in in_cluster), shape
        assert run.source == "10_gemv_b_realigned_by_shuffles.cu" and run.name == k06.name, shape
        assert run.variant == (f"10+CLUSTER_K={c}" if shape in in_cluster else "10"), shape
        assert run.pitch == 0 and run.max_m == kernels.GEMV_ROWS and not run.tma_boxes
        assert run.launch_geometry(*shape, 132).grid == (-(-shape[1] // kernels.gemv_columns(shape[1])),
                                                         c if shape in in_cluster else kernels.gemv_split(*shape, 132), 1)
    assert k06.configured(1, kernels.GEMV_MIN_N - 1, 9, 132).source == "09_mma_small_m_b_in_place.cu"   # (N off 8)
    assert k06.configured(1, 64, 4096, 132).source == "06_wgmma_tma_hopper.cu"
    assert k06.configured(5, 4096, 4096, 132).source == "06_wgmma_tma_hopper.cu"
    assert k06.configured(5, 4099, 4096, 132).source == "09_mma_small_m_b_in_place.cu"
    assert k06.configured(4, 4096, 4096, 132, {"BN": 32}).source == "06_wgmma_tma_hopper.cu"
    assert kernels.wgmma_kernel("fp8e4m3").configured(1, 4096, 4096, 132).source.startswith("07_")
    assert kernels.wgmma_kernel("tf32").configured(1, 4096, 4096, 132).source.startswith("07_")


def test_06_07_store_c_in_place_exactly_where_its_rows_lie_off_16_bytes():
    """wgmma_plain_c: 06's and 07's own picks store C in place (C_PLAIN=1, Kernel.plain_c: C not
    among the pitched copies, its tensor map a stand-in) exactly where C's rows are not a multiple of
    16 bytes — N off 4 for fp32 and s32 C, off 8 for bf16 C (07's fp8e4m3bf16) — whatever the pick's
    form; 09 and 10 (M of a few rows, handed on) store C themselves and get no C_PLAIN, neither asked
    nor declared (C_PLAIN leaves the hand-off be), but 06 kept by an override stores C in place; an
    override C_PLAIN=0 copies C again, C_PLAIN=1 stores an aligned C in place too, None is the
    pick's. Fresh random shapes each run; the seed is in the message."""
    import random
    from tcraw.matmul import Pitched
    seed = random.randrange(2 ** 32)
    rng = random.Random(seed)
    shapes = [(round(10 ** rng.uniform(0, 4.5)), round(10 ** rng.uniform(0, 4)), round(10 ** rng.uniform(0, 4)))
              for _ in range(120)] + [(33055, 242, 594), (1000, 1004, 997), (1000, 1006, 997), (3, 1001, 4000)]
    for key in ("fp16", "bf16", "int8", "fp8e4m3bf16", "tf32"):
        kernel = kernels.wgmma_kernel(key)
        out = kernels.PRECISIONS[key].out_dtype.itemsize
        for m, n, k in shapes:
            run = kernel.configured(m, n, k, 132)
            handed = run.source != kernel.source   # (09 or 10)
            off = n * out % 16 != 0
            assert run.plain_c == (off and not handed) == ("C_PLAIN=1" in run.variant), \
                (key, m, n, k, run.variant, seed)
            if not handed:   # (C never among the copies: off 16 bytes it is stored in place)
                assert "C" not in [name for name, *_ in Pitched.plan(run, m, n, k, kernel.b_layouts[0])], \
                    (key, m, n, k, run.variant, seed)
    k06 = kernels.KERNELS["wgmma_tma_fp16"]
    copied = k06.configured(1000, 1003, 997, 132, {"C_PLAIN": 0})
    assert not copied.plain_c and "C" in [name for name, *_ in Pitched.plan(copied, 1000, 1003, 997)]
    assert k06.configured(1000, 1000, 997, 132, {"C_PLAIN": 1}).plain_c   # (C whose rows a map takes)
    assert k06.configured(40, 8001, 4000, 132, {"C_PLAIN": None}).plain_c   # (None: the pick's)
    assert not kernels.wgmma_kernel("fp16", {"C_PLAIN": 0}).configured(40, 8001, 4000, 132).plain_c
    for over, declared in (({"C_PLAIN": 0}, {}), ({}, {"C_PLAIN": 0}), ({}, {"C_PLAIN": 1})):
        handed = kernels.wgmma_kernel("fp16", declared).configured(3, 8001, 4000, 132, over)
        assert handed.variant == "10" and not handed.plain_c, (over, declared, handed.variant)
    kept = k06.configured(3, 8001, 4000, 132, {"STAGES": 4})   # (06, its own configuration under the pick's)
    assert kept.source == k06.source and kept.plain_c, kept.variant


def test_06_realigns_b_in_place_at_m_of_33_to_64_where_n_is_off_8():
    """wgmma_realigns_b: M of 33–64, N off 8, 16-bit — the pick reads B in place (B_REALIGN=1, no
    pitched copy of B; A's and C's still where theirs are off), one consumer's tiles of at most 128
    columns with the most stages that fit, B's tensor map of its rows 8 at a time (K/8 rows of 8N
    halves, 16N bytes apart, unswizzled boxes of 8 × BN + 8); not at M 32 (09) or 65, K below 16
    slices, N a multiple of 8, FP8, or where an override turns it off."""
    from types import SimpleNamespace
    from tcraw import matmul
    from tcraw.driver.constants import TENSOR_MAP_SWIZZLE_NONE, TMA_FP16
    from tcraw.matmul import Pitched
    k06 = kernels.KERNELS["wgmma_tma_fp16"]
    for m, n, k in [(33, 4099, 2000), (48, 14046, 8640), (64, 1001, 1555), (60, 15214, 11302), (55, 8833, 7499)]:
        picked = kernels.wgmma_pick(m, n, k, 132)
        assert picked["B_REALIGN"] == 1 and picked["CONSUMERS"] == 1 and picked["BN"] <= 128, (m, n, k)
        assert picked["STAGES"] == kernels.wgmma_max_stages(1, picked["BN"], realign=True)
        run = k06.configured(m, n, k, 132)
        assert run.realign_b and run.tma_boxes[1] == (8, picked["BN"] + 8) and "B_REALIGN=1" in run.defines
        assert [name for name, *_ in Pitched.plan(run, m, n, k)] == ["A"] * bool(k % 8)   # (C: C_PLAIN)
        assert run.plain_c == bool(n % 4), (m, n, k)
        assert kernels.KERNELS["wgmma_tma_bf16"].configured(m, n, k, 132).realign_b
    assert kernels.wgmma_config(55, 8833, 7499, 132)["BN"] == 256   # (realigned as 128: a class box is ≤ 256 wide)
    for shape in [(32, 4099, 2000), (65, 4099, 2000), (48, 4096, 2000), (48, 4099, 2000), (48, 2001, 1023)]:
        run = k06.configured(*shape, 132, {"B_REALIGN": 0} if shape == (48, 4099, 2000) else None)
        assert not run.realign_b and "B_REALIGN=1" not in run.defines, shape
    assert kernels.wgmma_realigns_b(48, 4099, 2000, {"CONSUMERS": 1, "BN": 128, "CLUSTER": 1}, elem_bytes=1) is None
    # the map: B's rows 8 at a time; below 8 rows, one row of all K·N halves (never read: b_realign)
    encoded = []
    drv = SimpleNamespace(tensor_map_encode_tiled=lambda *a: encoded.append(a) or bytes(128))
    buf = SimpleNamespace(ptr=0x40000, nbytes=2 * 1003 * 997, device=SimpleNamespace(drv=drv))
    matmul.realigned_b_map(buf, TMA_FP16, 1003, 997, (8, 136))
    matmul.realigned_b_map(buf, TMA_FP16, 1003, 5, (8, 136))
    assert [a[2:] for a in encoded] == [((8 * 1003, 997 // 8), (16 * 1003,), (136, 8), TENSOR_MAP_SWIZZLE_NONE),
                                        ((5 * 1003, 1), (-(-2 * 5 * 1003 // 16) * 16,), (136, 8), TENSOR_MAP_SWIZZLE_NONE)]
    from tcraw.runtime import TensorMap
    with pytest.raises(UsageError, match=r"an unswizzled TMA box row is a multiple of 16 bytes and at most 256 elements; got 264"):
        TensorMap(buf, TMA_FP16, 997 // 8, 8 * 1003, 8, 264, swizzle=TENSOR_MAP_SWIZZLE_NONE)   # (BN 256 + 8)
    for bad, what in [({"BN": 256}, "BN=256"), ({"SWAP_AB": 1, "BN": 32}, "SWAP_AB=1"), ({"CONSUMERS": 3, "BN": 192}, "CONSUMERS=3")]:
        with pytest.raises(UsageError, match=f"B_REALIGN=1 realigns B's rows .*got .*{what}"):
            kernels.wgmma_kernel("fp16", {**kernels.WGMMA_TILE, "CLUSTER": 1, **bad, "B_REALIGN": 1}, choose=False)
    # an 8-bit kernel declared to realign, fixed or choosing, whatever its tile: refused at once
    for tile, choose in (({"CONSUMERS": 1, "BN": 128, "CLUSTER": 1, "B_REALIGN": 1}, False), ({"B_REALIGN": 1}, False),
                         ({"B_REALIGN": 1}, True)):
        with pytest.raises(UsageError, match="B_REALIGN=1 is for fp16 and bf16"):
            kernels.wgmma_kernel("fp8e4m3", tile, choose=choose)


def test_10_splits_k_to_fill_the_sms_and_refuses_what_it_cannot_build():
    """gemv_split: pieces that keep GEMV_BLOCKS_PER_SM blocks on each SM over tiles of 256 columns
    (248 where N is not a multiple of 8), none shorter than GEMV_MIN_ROWS rows, at most
    GEMV_SPLIT_MOST; the workspace holds a partial tile a block only when K is cut; CLUSTER_K's
    builds and gemv_pick's bounds on it; refusals name what was asked."""
    per = kernels.GEMV_BLOCKS_PER_SM
    assert kernels.gemv_columns(4096) == 256 and kernels.gemv_columns(3586) == 248
    assert kernels.gemv_split(1, 3586, 100000, 132) == per * 132 // 15        # 15 tiles of 248
    assert kernels.gemv_split(1, 4096, 100000, 132) == per * 132 // 16        # 16 tiles of 256
    assert kernels.gemv_split(1, 3586, 15 * kernels.GEMV_MIN_ROWS + 63, 132) == 15   # 15 pieces of 64+ rows
    assert kernels.gemv_split(1, 3586, kernels.GEMV_MIN_ROWS * 3 + 5, 132) == 3   # rows for 3 pieces
    assert kernels.gemv_split(2, 3586, 10, 132) == 1                          # fewer rows than a piece
    assert kernels.gemv_split(1, 256 * 1000, 65536, 132) == 1                 # tiles enough for every SM
    assert kernels.gemv_split(1, 8, 1 << 24, 132) == kernels.GEMV_SPLIT_MOST
    whole, cut = (kernels.gemv_kernel("fp16", {"SPLIT": s}) for s in (1, 3))
    assert whole.workspace(15) == 16 and cut.workspace(45) >= 45 * (4 + kernels.GEMV_ROWS * 256 * 4)
    assert whole.defines == cut.defines                                       # SPLIT is the grid's: one cubin
    k10 = kernels.gemv_kernel("bf16")
    assert k10.max_m == 4
    assert k10.configured(3, 1000, 1000, 132, {"SPLIT": 7}).launch_geometry(3, 1000, 1000, 132).grid == (4, 7, 1)
    assert k10.configured(3, 1001, 1000, 132, {"SPLIT": 7}).launch_geometry(3, 1001, 1000, 132).grid == (5, 7, 1)
    picked = kernels.gemv_split(1, 1000, 100000, 132)
    for over in ({}, {"SPLIT": 0}, {"SPLIT": None}):   # SPLIT=0 asks for the pick, as declared
        assert k10.configured(1, 1000, 100000, 132, over).launch_geometry(1, 1000, 100000, 132).grid[1] == picked
    # K in a cluster: its own cubin (the cluster is the kernel's), the grid's y the cluster's; the pick
    # where the workspace would cut short K in GEMV_IN_CLUSTER_LEAST or more pieces and the tiles'
    # clusters all run at once (30 on 132 SMs)
    clustered = k10.configured(3, 1000, 1000, 132, {"CLUSTER_K": 4})
    assert "CLUSTER_K=4" in clustered.defines and clustered.file_stem == "gemv_bf16[CLUSTER_K=4]"
    assert clustered.launch_geometry(3, 1000, 1000, 132).grid == (4, 4, 1)
    assert k10.configured(3, 1000, 1000, 132, {"SPLIT": 4, "CLUSTER_K": 4}).defines == clustered.defines
    assert kernels.gemv_pick(4, 1872, 968, 132) == {"SPLIT": 0, "CLUSTER_K": kernels.GEMV_IN_CLUSTER}
    most_k, held = kernels.GEMV_IN_CLUSTER_MOST_K, kernels.clusters_held(132, 4)
    assert kernels.gemv_sums_in_cluster(1, 256 * held, most_k, 132)
    assert not kernels.gemv_sums_in_cluster(1, 256 * held + 8, most_k, 132)      # one cluster too many
    assert not kernels.gemv_sums_in_cluster(1, 4096, most_k + 1, 132)           # K too long
    assert not kernels.gemv_sums_in_cluster(1, 256 * held, 3 * kernels.GEMV_MIN_ROWS, 132)   # 3 pieces
    assert kernels.gemv_pick(1, 4096, 4096, 132) == {"SPLIT": kernels.gemv_split(1, 4096, 4096, 132), "CLUSTER_K": 0}
    for bad, what in [({"SPLIT": kernels.GEMV_SPLIT_MOST + 1}, f"at most {kernels.GEMV_SPLIT_MOST}"),
                      ({"STAGES": 4}, "no macro"), ({"SPLIT": -1}, "SPLIT"), ({"CLUSTER_K": 3}, "2, 4, 8"),
                      ({"CLUSTER_K": 16}, "not 16"), ({"CLUSTER_K": 8, "SPLIT": 5}, "not SPLIT=5")]:
        with pytest.raises(UsageError, match=what):
            kernels.gemv_kernel("fp16", bad)
    with pytest.raises(UsageError, match="fp16 and bf16"):
        kernels.gemv_kernel("tf32")


@pytest.mark.parametrize("key", ["fp16", "bf16"])
def test_10_compiles_without_spills_in_two_blocks_an_sm(key):
    """10's cubin for sm_90 (and sm_80, the least it runs on): no spills, registers within
    __launch_bounds__(256, 2)'s 128, the launch the .cu states matching the declaration's."""
    kernel = kernels.gemv_kernel(key)
    for arch in ("sm_80", "sm_90"):
        cubin = compiler.compile_cubin(kernel, arch)
        assert cubin.spill_bytes == 0 and 0 < cubin.registers <= 128, (arch, cubin.registers, cubin.spill_bytes)


def test_09_splits_k_to_fill_the_sms_and_refuses_what_it_cannot_build():
    """small_m_split: pieces that keep SMALL_M_BLOCKS_PER_SM blocks on each SM, none shorter than
    SMALL_M_MIN_SLICES slices, at most SMALL_M_SPLIT_MOST; the workspace holds a partial tile a
    block only when K is cut; refusals name the macro."""
    per = kernels.SMALL_M_BLOCKS_PER_SM
    assert kernels.small_m_split(1, 11037, 15699, 132) == per * 132 // 87
    assert kernels.small_m_split(1, 11037, 32 * 15, 132) == 1          # 15 slices: one piece of 8+
    assert kernels.small_m_split(1, 128 * 400, 65536, 132) == 1        # tiles enough for every SM
    assert kernels.small_m_split(1, 128, 1 << 20, 132) == kernels.SMALL_M_SPLIT_MOST
    whole, cut = (kernels.small_m_kernel("fp16", {"SPLIT": s}) for s in (1, 3))
    assert whole.workspace(87) == 16 and cut.workspace(261) >= 261 * (4 + kernels.SMALL_M_ROWS * 128 * 4)
    assert whole.defines == cut.defines                                 # SPLIT is the grid's: one cubin
    k09 = kernels.small_m_kernel("bf16")
    assert k09.configured(5, 1000, 1000, 132, {"SPLIT": 7}).launch_geometry(5, 1000, 1000, 132).grid == (8, 7, 1)
    picked = kernels.small_m_split(5, 1000, 100000, 132)
    for over in ({}, {"SPLIT": 0}, {"SPLIT": None}):   # SPLIT=0 asks for the pick, as declared
        assert k09.configured(5, 1000, 100000, 132, over).launch_geometry(5, 1000, 100000, 132).grid[1] == picked
    deeper = k09.configured(5, 1000, 1000, 132, {"STAGES": 8})
    assert "STAGES=8" in deeper.defines and deeper.file_stem == "small_m_bf16[STAGES=8]"
    for bad, what in [({"SPLIT": 65}, "at most 64"), ({"STAGES": 1}, "STAGES ≥ 2"), ({"BN": 64}, "no macro"),
                      ({"STAGES": 17}, "STAGES ≤ 16")]:
        with pytest.raises(UsageError, match=what):
            kernels.small_m_kernel("fp16", bad)
    with pytest.raises(UsageError, match="fp16 and bf16"):
        kernels.small_m_kernel("fp8e4m3")


def test_unswapped_widths_in_16s_build_and_the_model_counts_whole_boxes():
    """Unswapped tiles of any width in 16s from 64 (B's last 64-column box read BN into it, C's
    last box over the one before): they build without spills in 06 and 07, take the stages of the
    width rounded up to 64 (whole boxes of B a stage), and B_REALIGN (its 96 threads move a class
    row's chunks) and widths below 64 refuse them by name. The model counts whole boxes of B —
    the rate, requests and shared memory of the rounded width — and half a box's unused columns as
    multiplied (docs/results/2026-12-06-h100-h200-widths-16/); the picker weighs 192-row tiles of 176,
    160 and 144 in clusters of 2 against the ranking's pick where no rule replaced it, whole tiles
    only (NARROW_CONFIGS, wgmma_narrows)."""
    for key, tile in (("fp16", {"CONSUMERS": 3, "BN": 176, "CLUSTER": 2, "STAGES": 3}),
                      ("bf16", {"CONSUMERS": 2, "BN": 208, "CLUSTER": 2, "SHARE_A": 1}),
                      ("int8", {"CONSUMERS": 1, "BN": 80, "CLUSTER": 1, "STAGES": 8}),
                      ("fp8e4m3bf16", {"CONSUMERS": 2, "BN": 144, "CLUSTER": 4})):
        k = kernels.wgmma_kernel(key, tile, choose=False)
        assert compiler.compile_cubin(k, "sm_90").spill_bytes == 0, (key, tile)
    assert [kernels.wgmma_max_stages(3, bn) for bn in (144, 176, 192)] == [3, 3, 3]
    assert kernels.wgmma_max_stages(2, 144) == kernels.wgmma_max_stages(2, 192) < kernels.wgmma_max_stages(2, 128)
    for bad, words in (({"BN": 72}, "BN a multiple of 16 from 64 to 256"),
                       ({"BN": 48}, r"BN=48 is a width only swapped tiles take: SWAP_AB=1"),
                       ({"BN": 176, "B_REALIGN": 1}, "B_REALIGN=1 .* BN of 64, 128 or 192")):
        with pytest.raises(UsageError, match=words):
            kernels.wgmma_kernel("fp16", bad, choose=False)
    narrow = {**kernels.WGMMA_TILE, "CONSUMERS": 3, "BN": 176, "STAGES": 3}
    assert (wgmma.wgmma_b_cols(narrow), wgmma.wgmma_mma_cols(narrow)) == (192, 184)
    assert wgmma.wgmma_b_cols({**narrow, "BN": 192}) == wgmma.wgmma_mma_cols({**narrow, "BN": 192}) == 192
    assert wgmma.wgmma_b_cols({**narrow, "SWAP_AB": 1, "BN": 176, "CONSUMERS": 2}) == 176   # (swapped: M's rows)
    with pytest.raises(UsageError, match=r"no rate for CONSUMERS=3 with BN=64 \(its B boxes 64 wide\).* 3 × 192"):
        wgmma.wgmma_model_us(1000, 1000, 1000, 132, {**narrow, "BN": 64})   # (a tile the model was not fitted to)
    # (192 × 112 has one since wgmma_tall_rows: 192 × 128's, the MMAs of its columns and half the
    # box's unused ones — less than 192 × 128's own at one round either way)
    assert wgmma.wgmma_model_us(1000, 1000, 1000, 132, {**narrow, "BN": 112})[0] < \
        wgmma.wgmma_model_us(1000, 1000, 1000, 132, {**narrow, "BN": 128})[0]
    # 864 in 5 tiles of 176, not 4.5 of 192 (same tiles, fewer MMAs); 3000³ stays 192 × 192 (18
    # tiles of 176 along N take 3 rounds, not 2); 1536×2304×4096 a tie the picker leaves to 128 × 256
    picks = {shape: kernels.wgmma_config(*shape, 132) for shape in ((4936, 864, 2552), (3000,) * 3, (1536, 2304, 4096))}
    assert [(p["CONSUMERS"], p["BN"]) for p in picks.values()] == [(3, 176), (3, 192), (2, 256)], picks
    assert all(config["BN"] % 64 == 0 for config in kernels.WGMMA_CONFIGS)   # (the ranking's own)
    assert [(c["CONSUMERS"], c["BN"], c["CLUSTER"]) for c in wgmma.NARROW_CONFIGS] == [(3, 176, 2), (3, 160, 2),
                                                                                       (3, 144, 2)]
    for m, n, k in ((4936, 864, 16 * 64 * 8), (1300, 2000, 8192), (4936, 8640, 2552)):   # where the model would cut
        narrow = kernels.wgmma_ranked(m, n, k, 132, configs=wgmma.NARROW_CONFIGS, first=100)   # them: not weighed
        assert [entry[3] for entry in narrow] == [100, 101, 102][:len(narrow)] and not any(e[2] for e in narrow)
        cut = [kernels.wgmma_schedule(m, n, k, 132, {**kernels.WGMMA_TILE, **c}) for c in wgmma.NARROW_CONFIGS]
        assert len(narrow) == sum(s[3] == 1 and not s[4] for s in cut), (m, n, k)
    # a rule after the ranking stands where it fires: M of 257–416, swapped tiles over rounds
    assert kernels.wgmma_config(312, 15848, 3472, 132).get("SWAP_AB") == 1
    # over a 192-row pick, overrides asking a width 192-row tiles are picked at keep its rows; others 128
    k06 = kernels.KERNELS["wgmma_tma_fp16"]
    for bn, consumers in ((176, 3), (144, 3), (192, 3), (208, 2), (128, 2)):
        assert {f"CONSUMERS={consumers}", f"BN={bn}"} <= set(k06.configured(4936, 864, 2552, 132, {"BN": bn}).defines)
