"""On the GPU: every kernel, every precision, odd shapes, both input modes (skipped without one)."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tcraw import kernels, runtime
from tcraw.matmul import run_matmul

from conftest import SEED, wgmma_macros

pytestmark = pytest.mark.gpu

# The seed's sizes, M≠N≠K multiples of 16, and shapes that are nobody's multiple.
SHAPES = [(16, 16, 16), (48, 48, 48), (1024, 1024, 1024), (48, 80, 112), (1, 1, 1), (15, 17, 33),
          (127, 129, 255), (1000, 1003, 997), (2048, 512, 4096)]


@pytest.mark.parametrize("mode", ["normal", "int"])
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("name", list(kernels.KERNELS))
def test_kernel_matches_reference(device, cubins, host_problems, name, shape, mode):
    kernel = kernels.KERNELS[name]
    if (refusal := kernel.device_refusal(device)):
        pytest.skip(str(refusal))
    hp = host_problems(kernel.precision.key, *shape, mode)
    rec = run_matmul(device, kernel, hp, iters=2, warmup=1, cubin=cubins[name])
    assert rec.unwritten == 0 and rec.padding_dirty == 0
    assert rec.passed, (f"max rel err {rec.max_rel_err:.3g} > bound {rec.tolerance:.3g}, "
                        f"{rec.bad} elements out")
    if mode == "int" and hp.tolerance() == 0.0:
        assert rec.max_abs_err == 0.0  # integer inputs: bit-exact


def test_same_seed_same_bits(device, cubins, host_problems):
    for name, cubin in cubins.items():
        hp = host_problems(kernels.KERNELS[name].precision.key, 127, 129, 255, "normal")
        _, c1 = run_matmul(device, kernels.KERNELS[name], hp, iters=1, warmup=0, cubin=cubin, keep_output=True)
        _, c2 = run_matmul(device, kernels.KERNELS[name], hp, iters=1, warmup=0, cubin=cubin, keep_output=True)
        assert c1.tobytes() == c2.tobytes(), name


def test_fp16_accumulator_loses_to_fp32_as_k_grows(device, cubins, host_problems):
    """The seeds' point: large partial sums swallow small products in an fp16 accumulator."""
    errs = {}
    for k in (256, 4096):
        for name in ("wmma_fp16", "wmma_fp16acc16"):
            hp = host_problems(kernels.KERNELS[name].precision.key, 64, 64, k, "normal")
            errs[name, k] = run_matmul(device, kernels.KERNELS[name], hp, iters=1, warmup=0,
                                       cubin=cubins[name]).norm_rel_err
    assert errs["wmma_fp16acc16", 4096] > 10 * errs["wmma_fp16", 4096]
    assert errs["wmma_fp16acc16", 4096] > errs["wmma_fp16acc16", 256]
    # At K = 4096 the worst-case bound for an fp16 accumulator (0.5 × |A||B|) no longer catches
    # gross errors, so hold the normwise error to what an fp16 sum really does (H200, M = N = 128:
    # 2.4e-3, docs/results) with room to spare: a wrong result lands near 1.
    assert errs["wmma_fp16acc16", 4096] < 0.02


def test_cli_run_json_records(device, tmp_path):
    p = subprocess.run([sys.executable, "-m", "tcraw", "run", "--size", "256", "--iters", "3",
                        "--backend", device.drv.name,
                        "--format", "json", "--save", str(tmp_path)],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    rows = json.loads(p.stdout)
    assert [r["kernel"] for r in rows] == list(kernels.DEFAULT_KERNELS)
    for r in rows:
        for key in ("kernel", "precision", "m", "n", "k", "arch", "device", "backend", "time_ms",
                    "tflops", "pct_peak", "max_rel_err", "tolerance", "passed", "iters"):
            assert key in r
        assert r["passed"] and r["m"] == r["n"] == r["k"] == 256 and r["iters"] == 3
        assert r["held_ms"] == 3 * runtime.HOLD_MS_PER_LAUNCH   # NVRTC is here: every row's launches held
    # --save: anyone can re-check the result with their own reference
    def load(name):
        path = tmp_path / name
        try:
            return np.load(path)
        except Exception as exc:  # show what is in the file, not just that it did not parse
            raise AssertionError(f"{name}: {exc}; numpy {np.__version__}; {path.stat().st_size} bytes; "
                                 f"head {path.read_bytes()[:160]!r}") from exc
    a = load("A_fp16.npy").astype(np.float64)
    b = load("B_fp16.npy").astype(np.float64)
    c = load("C_wmma_fp16.npy")
    assert np.allclose(c, a @ b, rtol=1e-3, atol=1e-3)


def test_backends_agree_bit_for_bit(device, host_problems):
    """bindings and ctypes run the same cubin on the same inputs: the outputs must be identical."""
    from tcraw import compiler
    from tcraw.runtime import Device
    other_name = "ctypes" if device.drv.name == "bindings" else "bindings"
    with Device(device.ordinal, backend=other_name) as other:
        for kernel in kernels.KERNELS.values():
            if kernel.device_refusal(device):
                continue
            cubin = compiler.compile_cubin(kernel, device.arch, device.drv)
            hp = host_problems(kernel.precision.key, 100, 200, 300, "normal")
            _, c1 = run_matmul(device, kernel, hp, iters=1, warmup=0, cubin=cubin, keep_output=True)
            _, c2 = run_matmul(other, kernel, hp, iters=1, warmup=0, cubin=cubin, keep_output=True)
            assert c1.tobytes() == c2.tobytes(), kernel.name


@pytest.mark.parametrize("key", ["fp32", "fp16", "bf16", "int8", "fp64", "fp8e4m3", "fp8e5m2"])
def test_device_reference_matches_the_cpu(device, key):
    from tcraw.matmul import device_reference
    from tcraw.precision import PRECISIONS, base_matrices, host_problem
    p = PRECISIONS[key]
    a, b = base_matrices(61, 67, 129, "normal", 11)
    cpu = host_problem(p, a, b, "normal")
    gpu = device_reference(device, p, cpu.a, cpu.b, cpu.scale_a, cpu.scale_b, "normal")
    np.testing.assert_allclose(gpu.ref, cpu.ref, rtol=1e-12, atol=1e-12 * np.abs(cpu.abs_ref).max())
    np.testing.assert_allclose(gpu.abs_ref, cpu.abs_ref, rtol=1e-12)


@pytest.mark.parametrize("in_bytes, out_bytes", [(1, 4), (2, 4), (2, 2), (4, 4)])
def test_pitch_rows_copies_every_byte_at_any_alignment(device, in_bytes, out_bytes):
    """cuda_src/pitch_rows.cu (matmul.pitch_copies): A's and B's rows — any length, starting at
    any byte, A and B of different shapes — copied into rows padded to 128 bytes, and C's padded
    rows copied back out, byte for byte: rows of 1 to 4099 bytes (shorter and longer than a 16-byte
    chunk, one past it, odd), one to 70 rows, the last word of a source ending past its buffer
    (a read past it shows only under compute-sanitizer: cuMemAlloc rounds sizes up; the session
    script runs this test under memcheck). Random bytes each run; the copies' destinations
    poisoned first. The kernels must build here (no silent fallback)."""
    from contextlib import ExitStack
    from types import SimpleNamespace
    from tcraw.matmul import pitch_copies
    from tcraw.runtime import DeviceBuffer
    assert device.pitch_kernels(), "pitch_rows.cu did not build for this GPU"
    rng = np.random.default_rng()
    kernel = SimpleNamespace(precision=SimpleNamespace(out_dtype=np.dtype(f"u{out_bytes}")))
    padded = lambda row: -(-row // 128) * 128   # noqa: E731
    for rows, cols in ((1, 1), (3, 7), (5, 8), (7, 9), (2, 15), (33, 351), (67, 1003), (4, 4099 // in_bytes)):
        # (rows, row bytes, pitch) of A, of B (3 rows more, 2·cols + 5 columns) and of C
        shape = {"A": (rows, cols * in_bytes), "B": (rows + 3, (2 * cols + 5) * in_bytes), "C": (rows, cols * out_bytes)}
        shape = {name: (r, row, padded(row)) for name, (r, row) in shape.items()}
        with ExitStack() as stack:
            contiguous = {name: stack.enter_context(DeviceBuffer(device, r * row)) for name, (r, row, _) in shape.items()}
            copy = {name: stack.enter_context(DeviceBuffer(device, r * pitch)) for name, (r, _, pitch) in shape.items()}
            host = {name: rng.integers(0, 256, r * (pitch if name == "C" else row), dtype=np.uint8)
                    for name, (r, row, pitch) in shape.items()}
            contiguous["A"].copy_from_host(host["A"]), contiguous["B"].copy_from_host(host["B"])
            copy["C"].copy_from_host(host["C"])
            for names in (("A", "B"), ("B",)):   # (both in one launch; B alone)
                for buf in (copy["A"], copy["B"], contiguous["C"]):
                    device.drv.memset_d8(buf.ptr, 0xFF, buf.nbytes)
                pitched = SimpleNamespace(copies={n: (copy[n], shape[n][2], shape[n][1], shape[n][0])
                                                  for n in (*names, "C")})
                before, after = pitch_copies(device, kernel, contiguous, pitched)
                assert len(before) == 1 and len(after) == 1
                for step in (*before, *after):
                    step()
                for name in names:
                    r, row, pitch = shape[name]
                    np.testing.assert_array_equal(copy[name].to_array().reshape(r, pitch)[:, :row],
                                                  host[name].reshape(r, row), err_msg=f"{name} {r}×{row}")
                r, row, pitch = shape["C"]
                np.testing.assert_array_equal(contiguous["C"].to_array().reshape(r, row),
                                              host["C"].reshape(r, pitch)[:, :row], err_msg=f"C {r}×{row}")


def test_hold_keeps_the_stream_busy_for_the_time_asked(device):
    """Device.hold (cuda_src/hold_gpu.cu, what time_launches queues its timed launches behind):
    an event pair around it spans at least the time asked, and a second hold queued behind it
    starts only when it ends (the pair after it spans the second's own time)."""
    drv = device.drv
    assert device.hold(0)   # built first (an NVRTC compile on this Device's first hold), not inside the pair
    events = [drv.event_create() for _ in range(3)]
    try:
        drv.event_record(events[0])
        assert device.hold(2.0)
        drv.event_record(events[1])
        assert device.hold(0.5)
        drv.event_record(events[2])
        drv.event_synchronize(events[2])
        first, second = drv.event_elapsed_ms(events[0], events[1]), drv.event_elapsed_ms(events[1], events[2])
        # (not a timing threshold: a bound on what was asked, with room for the launches' own time)
        assert 2.0 * 0.99 <= first < 2.0 * 4 + 5 and 0.5 * 0.99 <= second < 0.5 * 4 + 5, (first, second)
    finally:
        for ev in events:
            drv.event_destroy(ev)


@pytest.mark.parametrize("key", ["fp32", "fp16", "bf16", "tf32"])
def test_cublas_on_our_buffers_passes_our_check(device, host_problems, key):
    from tcraw.driver.cublas import Cublas
    from tcraw.errors import NoDeviceError
    from tcraw.matmul import run_cublas
    try:
        cublas = Cublas()
    except NoDeviceError as exc:
        pytest.skip(str(exc))
    try:
        rec = run_cublas(device, cublas, host_problems(key, 256, 256, 256, "normal").precision,
                         host_problems(key, 256, 256, 256, "normal"), iters=2, warmup=1, rotate=True)
    finally:
        cublas.close()
    assert rec.passed and rec.input_sets > 1, rec


def test_walkthrough_script_runs(device):
    script = Path(__file__).resolve().parent.parent / "scripts" / "walkthrough.py"
    p = subprocess.run([sys.executable, str(script), "--backend", device.drv.name, "--n", "256"],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert "Tensor Cores:" in p.stdout and "faster" in p.stdout


# 06 splits the last partial round of tiles along K (stream-K) when that saves enough, after four
# whole rounds: a tile's tail stores C, the pieces before it add themselves in order. Shapes (for
# a 132-SM H200, as tcraw.kernels.wgmma_schedule computes them — test_compile checks that they
# still do): tiles cut into 2 or 3 pieces (shares of 17 of 33 slices), into 2 (16 of 32), split-K
# into 4 pieces, and a lone partial round run whole (96 tiles of 64 slices: before, cut in shares
# of 47).
STREAM_K_SHAPES = [(5120, 1792, 2112), (7424, 1280, 2048), (256, 512, 2112), (384, 4096, 4096)]


@pytest.mark.parametrize("mode", ["normal", "int"])
@pytest.mark.parametrize("shape", STREAM_K_SHAPES, ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("name", ["wgmma_tma_fp16", "wgmma_tma_bf16"])
def test_stream_k_pieces_add_up(device, cubins, host_problems, name, shape, mode):
    kernel = kernels.KERNELS[name]
    if (refusal := kernel.device_refusal(device)):
        pytest.skip(str(refusal))
    hp = host_problems(kernel.precision.key, *shape, mode)
    rec, c1 = run_matmul(device, kernel, hp, iters=3, warmup=1, cubin=cubins[name], keep_output=True)
    assert rec.unwritten == 0 and rec.padding_dirty == 0
    assert rec.passed, f"max rel err {rec.max_rel_err:.3g} > {rec.tolerance:.3g}"
    if mode == "int":
        assert rec.max_abs_err == 0.0
    _, c2 = run_matmul(device, kernel, hp, iters=1, warmup=0, cubin=cubins[name], keep_output=True)
    assert c1.tobytes() == c2.tobytes(), "the pieces must add in one fixed order: the same bits every run"


@pytest.mark.parametrize("name", list(kernels.KERNELS))
def test_trace_covers_every_call_of_a_run(device, name):
    """`tcraw run --trace` on every kernel, each backend: the run passes and every driver call it
    makes is printed (the tensor maps of the TMA kernels included)."""
    kernel = kernels.KERNELS[name]
    if (refusal := kernel.device_refusal(device)):
        pytest.skip(str(refusal))
    p = subprocess.run([sys.executable, "-m", "tcraw", "run", "--kernel", name, "-m", "67", "-n", "45",
                        "-k", "99", "--iters", "1", "--warmup", "0", "--trace", "--backend", device.drv.name,
                        "--format", "json"], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
    assert json.loads(p.stdout)[0]["passed"]
    calls = {line.split("(")[0].removeprefix("[tcraw] ") for line in p.stderr.splitlines()
             if line.startswith("[tcraw] ")}
    expected = {"cuInit", "cuDevicePrimaryCtxRetain", "cuModuleLoadData", "cuModuleGetFunction",
                "cuMemAlloc", "cuMemcpyHtoD", "cuLaunchKernel", "cuEventRecord", "cuMemcpyDtoH",
                "cuMemFree", "cuModuleUnload"}
    if kernel.tma_boxes:
        expected.add("cuTensorMapEncodeTiled")
    if kernel.persistent:   # matmul.resident_geometry: the grid is what the device holds at once
        expected.add("cuOccupancyMaxActiveClusters")
    assert expected <= calls, expected - calls
    if kernel.pitch:   # 67×45×99: every operand's rows miss 16 bytes, so each is copied (pitch_rows.cu), and traced
        assert "name='pitch_rows_in'" in p.stderr and "name='pitch_rows_out'" in p.stderr
        assert "cuMemcpy2DAsync" not in calls


def test_big_problems_are_checked_against_the_device_reference(device):
    """Past the CPU reference's limit run/sweep use the fp64 device reference, and say so."""
    from tcraw.matmul import reference_kind
    shape = (2056, 2048, 2048)
    assert reference_kind(*shape) == "device" and reference_kind(2048, 2048, 2048) == "cpu"
    p = subprocess.run([sys.executable, "-m", "tcraw", "run", "--kernel", "mma_sync_fp16,naive_fp32",
                        "-m", "2056", "-n", "2048", "-k", "2048", "--iters", "2", "--backend",
                        device.drv.name, "--format", "json"], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
    rows = json.loads(p.stdout)
    assert [r["reference"] for r in rows] == ["device", "device"] and all(r["passed"] for r in rows)


# Partial tiles at every edge, single-row M, split-K (few tiles, long K), stream-K, rows that
# need a pitched copy (odd K: A; odd N: B and C), and aligned shapes that need none.
EDGE_SHAPES = [(1, 4096, 4096), (1000, 1003, 997), (129, 257, 65), (300, 520, 2112), (4095, 4097, 4093),
               (16, 4096, 14336), (512, 512, 32768), (3, 5, 7), (8192, 64, 8192)]


@pytest.mark.parametrize("mode", ["normal", "int"])
@pytest.mark.parametrize("shape", EDGE_SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_06_on_shapes_no_tile_divides(device, host_problems, shape, mode):
    """06 on the real M×N×K, the configuration it picks, verified like any kernel (every
    element written, bit-exact on integers), and the same bits on a second run (split-K sums
    its pieces in a fixed order)."""
    kernel = kernels.KERNELS["wgmma_tma_fp16"]
    if (refusal := kernel.device_refusal(device)):
        pytest.skip(str(refusal))
    hp = host_problems("fp16", *shape, mode)
    rec, c1 = run_matmul(device, kernel, hp, iters=2, warmup=1, keep_output=True)
    assert rec.unwritten == 0 and rec.padded == list(shape)
    assert rec.passed, f"{rec.config}: max rel err {rec.max_rel_err:.3g} > {rec.tolerance:.3g}, {rec.bad} out"
    if mode == "int":
        assert rec.max_abs_err == 0.0
    _, c2 = run_matmul(device, kernel, hp, iters=1, warmup=0, keep_output=True)
    assert c1.tobytes() == c2.tobytes()


@pytest.mark.parametrize("key", ["fp16", "bf16"])
def test_06_copies_a_to_lines_first_where_asked_and_where_picked(device, host_problems, key):
    """A_LINES=1 over each problem's pick: A copied to 128-byte rows before the launch where its
    rows (a multiple of 16 bytes) start off 128-byte lines — the record's pitched operands say so —
    not where they lie on lines; with rows off 16 (copied anyway), partial tiles, split-K, swapped
    tiles (M ≤ 32) and B realigned (N off 8) under it; verified, integers exact. And a shape whose
    pick copies A (wgmma_copies_a_to_lines), as picked."""
    kernel = kernels.KERNELS[f"wgmma_tma_{key}"]
    if (refusal := kernel.device_refusal(device)):
        pytest.skip(str(refusal))
    realigning = {"CONSUMERS": 2, "BN": 192, "CLUSTER": 2, "B_REALIGN": 1}
    cases = [((130, 304, 1000), {}, ["A"]), ((65, 136, 4104), {}, ["A"]), ((700, 1000, 72), {}, ["A"]),
             ((200, 304, 1024), {}, []), ((100, 1003, 997), {}, ["A", "B"]), ((16, 4096, 14344), {}, ["A"]),
             ((1024, 1024, 8200), {}, ["A"]), ((130, 1001, 1000), realigning, ["A"]),
             ((100, 1003, 997), {"C_PLAIN": 0}, ["A", "B", "C"])]   # (C stored in place unless asked not to)
    for shape, config, copied in cases:
        for mode in ("normal", "int"):
            rec = run_matmul(device, kernel, host_problems(key, *shape, mode), iters=1, warmup=0,
                             config={**config, "A_LINES": 1})
            assert rec.pitched == copied, (shape, rec.pitched, rec.config)
            assert rec.passed and rec.unwritten == 0, (shape, mode, rec.config, rec.max_rel_err, rec.bad)
            if mode == "int":
                assert rec.max_abs_err == 0.0, (shape, rec.config)
    shape = (1072, 12136, 1624)
    assert kernels.wgmma_pick(*shape, device.sm_count).get("A_LINES") == 1, "the rule no longer copies A here"
    rec = run_matmul(device, kernel, host_problems(key, *shape, "int"), iters=1, warmup=0)
    assert rec.pitched == ["A"] and rec.passed and rec.max_abs_err == 0.0, (rec.pitched, rec.config, rec.max_abs_err)


@pytest.mark.parametrize("key", ["fp16", "bf16"])
def test_06_rows_splitting_sectors_run_the_models_clusters_of_4(device, host_problems, key):
    """Where A's and B's rows both lie 16 bytes off 32, the pick is the model's clusters of 4
    (kernels.wgmma_sectors_take_clusters_of_4) — 2 × 2 tiles of 128 × 128 and 128 × 192, partial
    at M and N — and runs as picked: verified, integers exact."""
    kernel = kernels.KERNELS[f"wgmma_tma_{key}"]
    if (refusal := kernel.device_refusal(device)):
        pytest.skip(str(refusal))
    for shape in [(1171, 824, 616), (856, 2296, 312)]:
        ranked = kernels.wgmma_ranked(*shape, device.sm_count)
        taken = kernels.wgmma_sectors_take_clusters_of_4(*shape, device.sm_count, ranked, kernels.wgmma_choose(ranked))
        assert taken and kernels.wgmma_pick(*shape, device.sm_count) == taken, (shape, "the rule no longer picks here")
        for mode in ("normal", "int"):
            rec = run_matmul(device, kernel, host_problems(key, *shape, mode), iters=1, warmup=0)
            macros = wgmma_macros(rec.config.split(","))   # (the record's defines: commas between)
            assert all(macros[name] == value for name, value in taken.items()), (shape, taken, rec.config)
            assert rec.passed and rec.unwritten == 0, (shape, mode, rec.config)
            if mode == "int":
                assert rec.max_abs_err == 0.0, (shape, rec.config)

# clusters of 2 sharing A (not picked: wgmma.py's note after TURNS_CONFIG), as the picker once
# listed them, and the one cluster of 4 the picker does not list (128 columns along M)
SHARING_A = tuple({"CONSUMERS": 2, "BN": bn, "CLUSTER": 2, "SHARE_A": 1, "STAGES": kernels.wgmma_max_stages(2, bn)}
                  for bn in (256, 192, 128)) + ({"CONSUMERS": 2, "BN": 128, "CLUSTER": 4, "SHARE_A": 0, "STAGES": 6},)


@pytest.mark.parametrize("config", kernels.WGMMA_CONFIGS + (kernels.TURNS_CONFIG,) + kernels.WIDE_PAIRS_ONLY
                         + kernels.SWAPPED_CONFIGS + kernels.STREAM_B_WIDE_CONFIGS + (kernels.STREAM_B_SWAPPED_CONFIG,)
                         + kernels.REALIGN_CONFIGS
                         + SHARING_A,
                         ids=lambda c: "+".join(f"{k}={v}" for k, v in c.items()))
def test_every_06_configuration_is_correct_at_the_edges(device, host_problems, config):
    """Each configuration (and clusters sharing A) forced on shapes that give it partial tiles,
    split-K (not with tiles taken in turn: those run whole) and pitched rows."""
    kernel = kernels.KERNELS["wgmma_tma_bf16"]
    if (refusal := kernel.device_refusal(device)):
        pytest.skip(str(refusal))
    for shape in [(130, 300, 1000), (65, 129, 4105), (700, 1000, 70)]:
        for mode in ("normal", "int"):
            rec = run_matmul(device, kernel, host_problems("bf16", *shape, mode), iters=1, warmup=0, config=config)
            assert rec.passed and rec.unwritten == 0, (shape, mode, rec.config, rec.max_rel_err, rec.bad)


# C_PLAIN's forms: store_c's three ways out (unswapped boxes — C_TAIL's overlapping last box at 80
# and 176 columns —, swapped boxes of up to 64 rows two at a time, swapped past 64 in parts in turn),
# consumers taking turns, three consumers, and a tile at M's edge stored shifted. (The cooperative
# forms' boxes leave as the unswapped and swapped ones do, ATOMS of them: not run here.)
PLAIN_C_FORMS = ({}, {"CONSUMERS": 1, "BN": 80, "CLUSTER": 1}, {"CONSUMERS": 3, "BN": 176, "CLUSTER": 2},
                 {"SWAP_AB": 1, "CONSUMERS": 1, "BN": 48, "CLUSTER": 2},
                 {"SWAP_AB": 1, "CONSUMERS": 2, "BN": 128, "CLUSTER": 2, "C_PARTS": 2, "STAGES": 4},
                 {"PINGPONG": 128, "CONSUMERS": 2, "BN": 128, "CLUSTER": 2},
                 {"CONSUMERS": 1, "BN": 128, "CLUSTER": 1, "A_SHIFT": 1})


@pytest.mark.parametrize("config", PLAIN_C_FORMS, ids=lambda c: "+".join(f"{k}={v}" for k, v in c.items()) or "pick")
@pytest.mark.parametrize("key", ["fp16", "bf16", "int8", "fp8e4m3bf16"])
def test_06_07_store_c_in_place_at_every_row_pitch(device, host_problems, key, config):
    """C_PLAIN (picked wherever C's rows lie off 16 bytes): C never copied (not in the record's
    pitched operands), its boxes stored by the consumers' own stores — fp32, s32 (int8) and bf16
    C (07's fp8e4m3bf16, two elements a lane), every N mod 4 (fp32, s32) or mod 8 (bf16), M and N
    edges, in each of store_c's forms (PLAIN_C_FORMS; swapped and taking turns: 16-bit inputs);
    split-K (long K, few tiles: every form but the turns, which never split) and, in the unswapped
    forms given, stream-K's adds (fp32 and s32, each piece after its successor). Verified, every
    element written, integers exact, the same bits on a rerun."""
    kernel = kernels.wgmma_kernel(key)
    if (refusal := kernel.device_refusal(device)):
        pytest.skip(str(refusal))
    elem, out = kernels.PRECISIONS[key].in_dtype.itemsize, kernels.PRECISIONS[key].out_dtype.itemsize
    if elem != 2 and (config.get("SWAP_AB") or config.get("PINGPONG")):
        pytest.skip("swapped tiles and turns are built for 16-bit inputs only (06)")
    pitches = range(1, 16 // out)   # (N ≡ r mod 16 / out: rows off 16 bytes by every step C's element allows)
    shapes = [(100 if config.get("SWAP_AB") else 1000, 1000 + r, 997) for r in pitches] + \
        [(3, 5, 7), (77, 131, 63), (130, 301, 4105), (1000, 2001, 333)]
    if out == 4 and config and not config.get("SWAP_AB"):   # (stream-K's adds: fp32 and s32 C; N odd)
        shapes.append((1000, stream_k_n(1000, 4000, config, elem, device.sm_count), 4000))
    for shape in shapes:
        assert shape[1] * out % 16, shape   # (the test's point: rows off 16 bytes)
    runs_right_and_repeatable(device, host_problems, kernel, key, shapes, config,
                              lambda rec: "C_PLAIN=1" in rec.config and "C" not in rec.pitched)


# B read in place and realigned (B_REALIGN): one and two consumers, clusters of 1, 2 and 4 along M
REALIGNING = ({"CONSUMERS": 1, "BN": 128, "CLUSTER": 1, "B_REALIGN": 1}, {"CONSUMERS": 1, "BN": 64, "CLUSTER": 2, "B_REALIGN": 1},
              {"CONSUMERS": 2, "BN": 192, "CLUSTER": 2, "B_REALIGN": 1}, {"CONSUMERS": 2, "BN": 128, "CLUSTER": 4, "B_REALIGN": 1})


@pytest.mark.parametrize("config", REALIGNING, ids=lambda c: "+".join(f"{k}={v}" for k, v in c.items()))
@pytest.mark.parametrize("key", ["fp16", "bf16"])
def test_06_realigning_b_reads_it_in_place_at_every_row_pitch(device, host_problems, key, config):
    """B_REALIGN: B never copied (not in the record's pitched operands), every N mod 8 (rows 2N
    bytes apart: each row class's offset), K's last rows past a whole 8 (read from B itself), K
    below 8 and below a slice, M and N edges, split-K (long K) and several rounds of tiles:
    verified, integers exact."""
    kernel = kernels.KERNELS[f"wgmma_tma_{key}"]
    if (refusal := kernel.device_refusal(device)):
        pytest.skip(str(refusal))
    shapes = [(60, 1000 + r, 1000 + 3 * r) for r in range(8)] + \
        [(1, 17, 3), (5, 9, 5), (77, 131, 63), (130, 301, 4105), (33, 15, 8199), (700, 1003, 70), (1000, 2001, 333)]
    for shape in shapes:
        for mode in ("normal", "int"):
            rec = run_matmul(device, kernel, host_problems(key, *shape, mode), iters=1, warmup=0, config=config)
            assert "B_REALIGN=1" in rec.config and "B" not in rec.pitched, (shape, rec.config, rec.pitched)
            assert rec.passed and rec.unwritten == 0, (shape, mode, rec.config, rec.max_rel_err, rec.bad)
            if mode == "int":
                assert rec.max_abs_err == 0.0, (shape, rec.config)


@pytest.mark.parametrize("consumers", [1, 2])
def test_06_64_columns_in_clusters_of_2_are_correct(device, host_problems, consumers):
    """64-column tiles in clusters of 2 (not a pick, but buildable: one block copies B's one box
    for both) on partial tiles, pitched rows, split-K, whole tiles and stream-K (280 tiles of
    the cluster's, the last 16 cut; odd edges): verified, integers exact."""
    kernel = kernels.KERNELS["wgmma_tma_fp16"]
    if (refusal := kernel.device_refusal(device)):
        pytest.skip(str(refusal))
    config = {"CONSUMERS": consumers, "BN": 64, "CLUSTER": 2}
    stream_k = (1000, 2200 * consumers + 50 * (consumers - 1), 2100)
    tiles, kt, clusters, p, share = kernels.wgmma_schedule(*stream_k, 132, {**kernels.WGMMA_TILE, **config})
    assert p == 1 and share > 0 and tiles % clusters   # the test reaches stream-K (on 132 SMs)
    for shape in [(130, 300, 1000), (65, 129, 4105), (700, 1000, 70), (256, 4096, 4096), (512, 512, 8192), stream_k]:
        for mode in ("normal", "int"):
            rec = run_matmul(device, kernel, host_problems("fp16", *shape, mode), iters=1, warmup=0, config=config)
            assert "BN=64" in rec.config and "CLUSTER=2" in rec.config, rec.config
            assert rec.passed and rec.unwritten == 0, (shape, mode, rec.config, rec.max_rel_err, rec.bad)
            if mode == "int":
                assert rec.max_abs_err == 0.0, (shape, rec.config)


@pytest.mark.parametrize("key", ["fp8e4m3", "fp8e4m3bf16", "fp8e5m2", "int8", "tf32"])
def test_07_k_major_forms_are_correct_at_the_edges(device, host_problems, key):
    """07 (FP8, INT8, TF32 with B stored N×K) on partial tiles, split-K and pitched rows, both
    input modes, verified against the float64 reference of the stored (FP8: scaled) values;
    integer inputs bit-exact where the precision's accumulator allows."""
    kernel = kernels.wgmma_kernel(key)
    if (refusal := kernel.device_refusal(device)):
        pytest.skip(str(refusal))
    for shape in [(130, 300, 1000), (65, 129, 4105), (1, 4096, 4096), (700, 1000, 70), (1000, 1003, 997)]:
        for mode in ("normal", "int"):
            hp = host_problems(key, *shape, mode)
            rec = run_matmul(device, kernel, hp, iters=1, warmup=0)
            assert rec.b_layout == "col" and rec.unwritten == 0, (shape, mode, rec.config)
            assert rec.passed, (shape, mode, rec.config, rec.max_rel_err, rec.tolerance, rec.bad)
            if mode == "int" and hp.tolerance() == 0.0:
                assert rec.max_abs_err == 0.0, (shape, rec.config)


@pytest.mark.parametrize("key", ["fp8e4m3bf16", "int8", "tf32"])
@pytest.mark.parametrize("cluster", [2, 1])
def test_07_with_192_columns_is_correct(device, host_problems, key, cluster):
    """192-column tiles: three 64-column boxes of B, two copied by one block of a cluster of 2 and
    one by the other; on partial tiles and pitched rows, both input modes."""
    kernel = kernels.wgmma_kernel(key)
    if (refusal := kernel.device_refusal(device)):
        pytest.skip(str(refusal))
    for shape in [(700, 1000, 70), (1000, 1003, 997), (300, 200, 4100)]:
        for mode in ("normal", "int"):
            hp = host_problems(key, *shape, mode)
            rec = run_matmul(device, kernel, hp, iters=1, warmup=0, config={"BN": 192, "CLUSTER": cluster})
            assert "BN=192" in rec.config and rec.unwritten == 0, (shape, rec.config)
            assert rec.passed, (shape, mode, rec.config, rec.max_rel_err, rec.tolerance, rec.bad)
            if mode == "int" and hp.tolerance() == 0.0:
                assert rec.max_abs_err == 0.0, (shape, rec.config)


@pytest.mark.parametrize("config", [{"BN": 192, "CLUSTER": 1}, {"BN": 192, "CLUSTER": 2}, {"BN": 64, "CLUSTER": 1}],
                         ids=lambda c: "+".join(f"{k}={v}" for k, v in c.items()))
def test_07_bf16_c_with_an_odd_number_of_boxes_a_tile_stores_tile_after_tile(device, host_problems, config):
    """bf16 C leaves in 64-column boxes: 3 a tile at 192 columns, 1 at 64, so a tile's first box
    reuses the staging buffer the last tile's last box went out of. With K of one slice and
    several tiles a block the stores follow each other at once; every run the same bits."""
    kernel = kernels.wgmma_kernel("fp8e4m3bf16")
    if (refusal := kernel.device_refusal(device)):
        pytest.skip(str(refusal))
    for shape in [(2048, 2048, 128), (4096, 1024, 64)]:
        hp = host_problems("fp8e4m3bf16", *shape, "int")
        rec, c1 = run_matmul(device, kernel, hp, iters=3, warmup=1, config=config, keep_output=True)
        assert rec.passed and rec.unwritten == 0, (shape, rec.config, rec.max_rel_err, rec.bad)
        _, c2 = run_matmul(device, kernel, hp, iters=1, warmup=0, config=config, keep_output=True)
        assert c1.tobytes() == c2.tobytes(), (shape, rec.config)


@pytest.mark.parametrize("key", ["fp16", "fp8e4m3bf16", "int8"])
def test_split_k_pieces_share_the_sum(device, host_problems, key):
    """Split-K's pieces each sum a share of the tile's C boxes after all have written their
    partials (split_epilogue): correct, every element written, exact on integers (fp32/s32 C), the same
    bits on a rerun — with 2 to 16 pieces, 1 to 3 consumers of 64 to 256 columns (16 pieces of a
    128×256 tile: one box each), 2 × 2 clusters, the swapped form (two boxes a consumer), edges
    and pitched rows.
    Over 3+ pieces the sum loads several pieces' partials at once (SPLIT_LOADS=16): the same bits
    as one piece's at a time (SPLIT_LOADS=1), with a last batch of fewer pieces (3, 5, 11) and
    shares of several boxes (128×256 tiles in 3 or 5 pieces; bf16 C's 64-column boxes) — and
    with three consumers, whose default is 8 loads at once, the same bits as 1. (The
    piece counts assume the H200's 132 SMs; the last assert says when a device gives others.)"""
    kernel = kernels.wgmma_kernel(key)
    if (refusal := kernel.device_refusal(device)):
        pytest.skip(str(refusal))
    wide = {"CONSUMERS": 2, "BN": 256, "CLUSTER": 2}
    # 128×256 tiles in clusters of 2 on 132 SMs: 16, 3 (22 tiles), 5 (13) and 11 (6) pieces
    cases = [((256, 512, 2112), {}), ((65, 129, 4105), {}), ((512, 512, 32768), {"CLUSTER": 2}), ((130, 300, 1000), {}),
             ((512, 512, 32768), wide), ((512, 2816, 2048), wide), ((256, 3328, 4096), wide),
             ((256, 1536, 8192), wide)]
    if key == "fp16":   # M ≤ 32 swaps A and B: 32 tiles of N cut in 4 pieces, 8 tiles in 16
        cases += [((7, 4096, 4096), {}), ((30, 1000, 4105), {})]
    if key == "fp8e4m3bf16":   # bf16 C, 192 columns: three 64-column boxes a consumer; 13 tiles, 5 pieces
        cases += [((256, 2496, 4096), {"CONSUMERS": 2, "BN": 192, "CLUSTER": 2})]
    # three consumers of 192 columns load at most 8 partials at once (their SPLIT_LOADS default):
    # 192×192 sharing A in 4 pieces (the picker's form; rows off 128-byte lines for 16-bit A), and
    # clusters of 1 in 11 (16-bit) or 7 (8-bit) pieces
    three = {"CONSUMERS": 3, "BN": 192, "STAGES": 3}
    cases += [((576, 1800, 2440), {**three, "CLUSTER": 2, "SHARE_A": 1}), ((1000, 400, 9000), {**three, "CLUSTER": 1})]
    # 2 × 2 clusters of 128×128 tiles in 7 pieces (kernels.SHARED_BOTH_CONFIG: the pick there, 16-bit)
    cases += [((512, 512, 32768), kernels.SHARED_BOTH_CONFIG)]
    pieces = []
    for shape, tile in cases:
        macros = wgmma_macros(kernel.configured(*shape, device.sm_count, tile).defines)
        p = kernels.wgmma_schedule(*shape, device.sm_count, macros, kernel.precision.in_dtype.itemsize)[3]
        assert p > 1, (shape, tile)   # the case is split-K's, or it tests nothing here
        pieces.append(p)
        for mode in ("normal", "int"):
            hp = host_problems(key, *shape, mode)
            rec, c1 = run_matmul(device, kernel, hp, iters=3, warmup=1, config=tile, keep_output=True)
            assert rec.passed and rec.unwritten == 0, (shape, mode, rec.config)
            if mode == "int" and kernel.precision.out_dtype.itemsize == 4:   # (bf16 C rounds sums past 256)
                assert rec.max_abs_err == 0.0, (shape, rec.config)
            _, c2 = run_matmul(device, kernel, hp, iters=1, warmup=0, config=tile, keep_output=True)
            assert c1.tobytes() == c2.tobytes(), (shape, mode, rec.config)
            if p > 2:
                _, c3 = run_matmul(device, kernel, hp, iters=1, warmup=0, config={**tile, "SPLIT_LOADS": 1},
                                   keep_output=True)
                assert c1.tobytes() == c3.tobytes(), (shape, mode, rec.config, "SPLIT_LOADS=1")
    assert {3, 5, 11} <= set(pieces) and max(pieces) == 16, pieces   # partial last batches, and 16 pieces


@pytest.mark.parametrize("key", ["fp16", "bf16"])
def test_split_k_pieces_in_several_rounds(device, host_problems, key):
    """SPLIT_ROUNDS: tiles more than half the clusters cut along K too, the clusters taking the p
    pieces of clusters / p tiles a round (split_round_tiles): swapped tiles of M ≤ 32 (two
    consumers of 16 and 32 columns, one of 32 whose 172 tiles outnumber the clusters; N pitched),
    and 128×128 tiles in clusters of 2 — correct, every element written, integers exact, the same
    bits on a rerun, each in several rounds (on the H200's 132 SMs: elsewhere the rounds differ)."""
    kernel = kernels.KERNELS[f"wgmma_tma_{key}"]
    if (refusal := kernel.device_refusal(device)):
        pytest.skip(str(refusal))
    sms = device.sm_count
    one = {"SWAP_AB": 1, "CONSUMERS": 1, "BN": 32, "CLUSTER": 1}
    for shape, config in [((32, 11000, 2056), {**kernels.SWAPPED_CONFIGS[1], "SPLIT_ROUNDS": 2}),
                          ((5, 12871, 2003), {**kernels.SWAPPED_CONFIGS[0], "SPLIT_ROUNDS": 4}),
                          ((1, 9913, 4104), {**kernels.SWAPPED_CONFIGS[0], "SPLIT_ROUNDS": 8}),
                          ((20, 11000, 3000), {**one, "SPLIT_ROUNDS": 4}),
                          ((1024, 1280, 4096), {"CONSUMERS": 2, "BN": 128, "CLUSTER": 2, "SPLIT_ROUNDS": 4})]:
        tile = {**kernels.WGMMA_TILE, **config}
        tiles, _, clusters, p, _ = kernels.wgmma_schedule(*shape, sms, tile)
        assert sms != 132 or (p > 1 and kernels.split_round_tiles(tiles, p, clusters, tile) < tiles), (shape, p)
        runs_right_and_repeatable(device, host_problems, kernel, key, [shape], config, built_as(config))


def test_split_k_leaves_its_workspace_as_it_found_it(device, host_problems):
    """Two problems of one shape back to back on one workspace, split-K in 8 pieces (128×128
    tiles in clusters of 2), in 7 (2 × 2 clusters of them, the pick) and in 16 (128×256): each
    correct — a piece that skipped the wait, or read the other launch's partials, would mix the
    first problem into the second — and every flag and counter zero after each launch, as the
    next one needs (the last piece out resets its tile's)."""
    from tcraw import compiler
    from tcraw.matmul import matmul_launcher, resident_geometry, workspace_buffer
    from tcraw.precision import verify
    from tcraw.runtime import DeviceBuffer, Module
    shape = (512, 512, 32768)
    for tile in ({"CLUSTER": 2}, {}, {"CONSUMERS": 2, "BN": 256, "CLUSTER": 2}):
        kernel = kernels.KERNELS["wgmma_tma_fp16"].configured(*shape, device.sm_count, tile)
        if (refusal := kernel.device_refusal(device)):
            pytest.skip(str(refusal))
        assert kernels.wgmma_schedule(*shape, device.sm_count, wgmma_macros(kernel.defines))[3] > 1, kernel.variant   # split-K
        cubin = compiler.compile_cubin(kernel, device.arch, device.drv)
        with Module(device, cubin.image) as mod, workspace_buffer(device, kernel, *shape) as work:
            fn = mod.function(kernel.entry)
            blocks = resident_geometry(kernel, fn, *shape).grid[0]
            for mode in ("normal", "int"):   # two problems, different inputs
                hp = host_problems("fp16", *shape, mode)
                a, b = DeviceBuffer(device, hp.a.nbytes, np.float16), DeviceBuffer(device, hp.b.nbytes, np.float16)
                c = DeviceBuffer(device, shape[0] * shape[1] * 4, np.float32)
                a.copy_from_host(hp.a)
                b.copy_from_host(hp.b)
                c.poison(np.float32)
                matmul_launcher(kernel, fn, a, b, c, *shape, workspace=work)()
                out = c.copy_to_host(np.empty((shape[0], shape[1]), np.float32))
                verdict = verify(out, hp)
                assert verdict.passed and verdict.unwritten == 0, (kernel.variant, mode, verdict.max_rel_err)
                flags_and_counters = work.copy_to_host(np.empty(work.nbytes // 4, np.uint32))[:2 * blocks]
                assert not flags_and_counters.any(), (kernel.variant, mode, np.flatnonzero(flags_and_counters))
                for buf in (a, b, c):
                    buf.free()


def test_cublas_reads_a_k_major_b(device, host_problems):
    """The yardstick takes B stored N×K (op = transpose) and passes the same check."""
    from tcraw.driver.cublas import Cublas
    from tcraw.matmul import run_cublas
    cublas = Cublas()
    try:
        for key in ("fp16", "tf32", "int8"):
            hp = host_problems(key, 96, 160, 256, "int")
            rec = run_cublas(device, cublas, hp.precision, hp, iters=1, warmup=0, b_layout="col")
            assert rec.passed and rec.b_layout == "col" and rec.max_abs_err == 0.0, key
    finally:
        cublas.close()


@pytest.mark.parametrize("key,fast_accum", [("fp8e4m3", False), ("fp8e4m3", True), ("fp8e4m3bf16", False),
                                            ("fp8e4m3bf16", True), ("int8", False)])
def test_cublaslt_on_our_buffers_passes_our_check(device, host_problems, key, fast_accum):
    """The FP8/INT8 yardstick ("TN", FP8 scales by device pointer; FP8 in both accumulation
    modes) on tcraw's buffers, checked like any kernel; integer inputs exact."""
    from tcraw.driver.cublaslt import CublasLt
    from tcraw.matmul import run_cublaslt
    lt = CublasLt()
    try:
        for mode in ("normal", "int"):
            hp = host_problems(key, 256, 512, 1024, mode)
            rec = run_cublaslt(device, lt, hp.precision, hp, iters=1, warmup=0, fast_accum=fast_accum)
            assert rec.passed and rec.b_layout == "col", (mode, rec.max_rel_err, rec.tolerance, rec.bad)
            assert (rec.variant == "FAST_ACCUM=1") == fast_accum
    finally:
        lt.close()


@pytest.mark.parametrize("config", [{}, {"BN": 64, "WARPS_N": 2, "MIN_BLOCKS": 2}, {"GROUP_M": 1}, {"DMMA_K": 8}],
                         ids=["default", "two_blocks_128x64", "row_by_row", "m16n8k8"])
def test_08_dmma_fp64_is_correct(device, host_problems, config):
    """08 as it runs and with its macros overridden, on shapes its tile does not divide (tcraw
    pads) and with a last band of fewer than GROUP_M tile rows (1200 rows: a band of 8 and one of
    2), both input modes; fp64 accumulate, so integer inputs are exact and normal ones within
    fp64's bound."""
    kernel = kernels.KERNELS["dmma_fp64"]
    if (refusal := kernel.device_refusal(device)):
        pytest.skip(str(refusal))
    for shape in [(1, 1, 1), (130, 300, 100), (257, 129, 33), (1000, 1003, 997), (1200, 520, 64)]:
        for mode in ("normal", "int"):
            rec = run_matmul(device, kernel, host_problems("fp64", *shape, mode), iters=1, warmup=0, config=config)
            assert rec.passed and rec.unwritten == 0 and rec.padding_dirty == 0, (shape, mode, rec.max_rel_err)
            if mode == "int":
                assert rec.max_abs_err == 0.0


@pytest.mark.parametrize("key", ["fp16", "fp8e4m3", "int8"])
def test_one_slice_of_mmas_in_flight_is_correct(device, host_problems, key):
    """WAIT_DEPTH=1 (a consumer frees a stage one slice later) on stream-K, split-K and edge
    shapes: verified, integers exact."""
    kernel = kernels.wgmma_kernel(key, {"WAIT_DEPTH": 1}, name=f"wait1_{key}", choose=False)
    if (refusal := kernel.device_refusal(device)):
        pytest.skip(str(refusal))
    for shape in [(1000, 1003, 997), (512, 512, 8192), (3000, 3000, 1024)]:
        for mode in ("normal", "int"):
            rec = run_matmul(device, kernel, host_problems(key, *shape, mode), iters=1, warmup=0)
            assert rec.passed and rec.unwritten == 0, (shape, mode, rec.max_rel_err, rec.bad)


@pytest.mark.parametrize("key", ["fp16", "int8"])
def test_one_consumer_without_a_slice_in_flight_is_correct(device, host_problems, key):
    """One consumer with WAIT_DEPTH=0 — no longer what a pick runs, but what PROMOTE, one stage
    or asking for it builds — on edge, split-K and stream-K shapes: verified, integers exact."""
    kernel = kernels.wgmma_kernel(key)
    if (refusal := kernel.device_refusal(device)):
        pytest.skip(str(refusal))
    config = {"CONSUMERS": 1, "BN": 128, "CLUSTER": 2, "WAIT_DEPTH": 0}
    shapes = [(130, 300, 1000), (65, 129, 4105), (1000, 1003, 997), (1000, 4400, 2100)]   # split 4, 16; whole; stream-K (fp16)
    assert kernels.wgmma_schedule(*shapes[-1], 132, {**kernels.WGMMA_TILE, **config})[4] > 0
    for shape in shapes:
        for mode in ("normal", "int"):
            rec = run_matmul(device, kernel, host_problems(key, *shape, mode), iters=1, warmup=0, config=config)
            assert "WAIT_DEPTH=0" in rec.config and "CONSUMERS=1" in rec.config, rec.config
            assert rec.passed and rec.unwritten == 0, (shape, mode, rec.config, rec.max_rel_err, rec.bad)


@pytest.mark.parametrize("a_rows", [8, 16])
def test_06_loading_only_a_few_rows_of_a_is_correct_for_tiny_m(device, host_problems, a_rows):
    """A_ROWS: the copy engine loads only that many rows of A; right for every M up to it
    (split-K, pitched rows), both input modes."""
    kernel = kernels.KERNELS["wgmma_tma_fp16"]
    if (refusal := kernel.device_refusal(device)):
        pytest.skip(str(refusal))
    for shape in [(1, 4096, 4096), (a_rows, 1003, 997), (3, 11008, 4096)]:
        for mode in ("normal", "int"):
            rec = run_matmul(device, kernel, host_problems("fp16", *shape, mode), iters=1, warmup=0,
                             config={"SWAP_AB": 0, "CONSUMERS": 1, "BN": 128, "A_ROWS": a_rows})
            assert rec.passed and rec.unwritten == 0, (shape, mode, rec.config, rec.max_rel_err, rec.bad)


# Tiles at M's edge copy only the 8-row boxes of A with real rows (A_EDGE): each form's box of A —
# a block's whole tile (64, 128, 192 rows; a turn's 128), or half of one shared by a pair (SHARE_A,
# in clusters of 2 and 2 × 2) — with 1, 8, 13, 40 and 72 real rows past whole tiles, whole and cut
# along K (split-K, K long) — beside the same build copying whole boxes (A_EDGE=0).
A_EDGE_FORMS = [{"CONSUMERS": 1, "BN": 64, "CLUSTER": 2}, {"CONSUMERS": 2, "BN": 128, "CLUSTER": 1},
                {"CONSUMERS": 2, "BN": 128, "CLUSTER": 2, "SHARE_A": 1},
                {"CONSUMERS": 2, "BN": 128, "CLUSTER": 4, "SHARE_A": 1},
                {"CONSUMERS": 3, "BN": 192, "CLUSTER": 1, "A_EDGE": 16},
                {"CONSUMERS": 2, "BN": 128, "PINGPONG": 128, "CLUSTER": 2}]


@pytest.mark.parametrize("config", A_EDGE_FORMS, ids=lambda c: "+".join(f"{k}={v}" for k, v in c.items()))
def test_06_tiles_at_m_edge_copy_only_rows_of_a_within_it(device, host_problems, config):
    """Verified, integers exact, and the same bits as whole boxes of A filled with zeros past M."""
    kernel = kernels.KERNELS["wgmma_tma_fp16"]
    if (refusal := kernel.device_refusal(device)):
        pytest.skip(str(refusal))
    rows = kernels.wgmma_rows({**kernels.WGMMA_TILE, **config})
    whole = {**config, "A_EDGE": 0}
    for real in (1, 8, 13, 40, 72):   # (1–4 boxes of 8 cut at A_EDGE=4, 5 and 9 whole)
        if real >= rows:
            continue
        for n, k in [(1003, 997), (256, 8192)]:   # (the second cut along K)
            for mode in ("int", "normal"):
                hp = host_problems("fp16", rows * 2 + real, n, k, mode)
                rec, cut = run_matmul(device, kernel, hp, iters=1, warmup=0, config=config, keep_output=True)
                assert rec.passed and rec.unwritten == 0, (real, n, k, mode, rec.config, rec.max_rel_err, rec.bad)
                if mode == "int":
                    assert rec.max_abs_err == 0.0, (real, n, k, rec.config)
                whole_rec, zeros = run_matmul(device, kernel, hp, iters=1, warmup=0, config=whole, keep_output=True)
                assert "A_EDGE=0" in whole_rec.config, whole_rec.config   # (not the same build twice)
                assert cut.tobytes() == zeros.tobytes(), (real, n, k, mode, rec.config)


# A 64-row tile at M's edge copies A's last 64 rows and stores its rows shifted back (A_SHIFT): each
# form whose tile is 64 rows — one consumer's in clusters of 1 and 2 along M (64 × 64 pairs with 13
# stages: wgmma_pairs_narrow's pick), a pair sharing A's halves, two consumers taking turns, B
# realigned in place — with 1 to 63 real rows past whole tiles, whole, cut along K (split-K) and
# by stream-K; 06, and 07 (B K-major; a 16-bit C, s32).
A_SHIFT_FORMS = [{"CONSUMERS": 1, "BN": 64, "CLUSTER": 1}, {"CONSUMERS": 1, "BN": 128, "CLUSTER": 2},
                 {"CONSUMERS": 1, "BN": 64, "CLUSTER": 2, "STAGES": 13},   # (NARROW_PAIRS_CONFIG's)
                 {"CONSUMERS": 1, "BN": 128, "CLUSTER": 2, "SHARE_A": 1},
                 {"CONSUMERS": 2, "BN": 128, "PINGPONG": 64, "CLUSTER": 1},
                 {"CONSUMERS": 1, "BN": 128, "CLUSTER": 2, "B_REALIGN": 1}]


@pytest.mark.parametrize("key, config", [("fp16", form) for form in A_SHIFT_FORMS] +
                         [("fp8e4m3bf16", form) for form in A_SHIFT_FORMS[:2]] + [("int8", A_SHIFT_FORMS[1])],
                         ids=lambda v: v if isinstance(v, str) else "+".join(f"{k}={x}" for k, x in v.items()))
def test_06_07_tiles_at_m_edge_copy_a_from_its_last_64_rows(device, host_problems, key, config):
    """Verified, every element written, integers exact, and the same bits as the same build with
    A_SHIFT=0 (the edge tile's box of A past M: 8-row boxes or zeros)."""
    kernel = kernels.wgmma_kernel(key)
    if (refusal := kernel.device_refusal(device)):
        pytest.skip(str(refusal))
    config = {"SWAP_AB": 0, "A_SHIFT": 1, **config}   # (a swapped pick would keep its own tiles)
    schedules = [config, {**config, "SPLIT_K": 0}]   # (the pick's cut along K where K is long)
    if kernels.PRECISIONS[key].out_dtype.itemsize == 4:   # (a 16-bit C turns stream-K off)
        schedules.append({**config, "SPLIT_K": 0, "STREAM_K_ROUNDS": 0})   # (every tile cut by stream-K)
    for m in (67, 100, 127, 129, 228):   # (3, 36, 63, 1 and 36 real rows; 129: a pair's second tile past M)
        # (the second: stream-K where asked; N off 8 where B is realigned, its rows off 16 bytes)
        for n, k in [(1003, 997), (1021 if config.get("B_REALIGN") else 1024, 4096)]:
            for cfg in schedules:
                for mode in ("int", "normal"):
                    hp = host_problems(key, m, n, k, mode)
                    rec, shifted = run_matmul(device, kernel, hp, iters=1, warmup=0, config=cfg, keep_output=True)
                    built = wgmma_macros(rec.config.split(","))
                    assert all(built[name] == value for name, value in cfg.items()), rec.config
                    assert rec.passed and rec.unwritten == 0, (m, n, k, mode, rec.config, rec.max_rel_err, rec.bad)
                    if mode == "int" and hp.tolerance() == 0.0:
                        assert rec.max_abs_err == 0.0, (m, n, k, rec.config)
                    boxes, past = run_matmul(device, kernel, hp, iters=1, warmup=0, config={**cfg, "A_SHIFT": 0},
                                             keep_output=True)
                    assert "A_SHIFT=0" in boxes.config and boxes.passed, boxes.config   # (not the same build twice)
                    assert shifted.tobytes() == past.tobytes(), (m, n, k, mode, rec.config)


@pytest.mark.parametrize("config", [{"SWAP_AB": 1, "BN": 16, "CLUSTER": 1, "CONSUMERS": 2},
                                    {"SWAP_AB": 1, "BN": 32, "CLUSTER": 1, "CONSUMERS": 2, "WAIT_DEPTH": 0},
                                    {"SWAP_AB": 1, "BN": 32, "CLUSTER": 1, "CONSUMERS": 1},
                                    {"SWAP_AB": 1, "BN": 64, "CLUSTER": 1, "CONSUMERS": 2},
                                    {"SWAP_AB": 1, "BN": 16, "CLUSTER": 2, "CONSUMERS": 2},
                                    {"SWAP_AB": 1, "BN": 32, "CLUSTER": 2, "CONSUMERS": 2},
                                    {"SWAP_AB": 1, "BN": 16, "CLUSTER": 4, "CONSUMERS": 2}],
                         ids=lambda c: f"BN{c['BN']}-C{c['CONSUMERS']}"
                                       + (f"-CL{c['CLUSTER']}" if c["CLUSTER"] > 1 else "")
                                       + (f"-WD{c['WAIT_DEPTH']}" if "WAIT_DEPTH" in c else ""))
@pytest.mark.parametrize("key", ["fp16", "bf16"])
def test_06_swapped_operands_are_correct(device, host_problems, key, config):
    """SWAP_AB (Cᵀ = Bᵀ·Aᵀ, M along the wgmma's n): small and partial M, N not a multiple of 64,
    split-K, stream-K, pitched rows; both input modes; the same bits on a rerun — two consumers'
    tiles of BN ≤ 32 with a slice's MMAs in flight (their default) and without (asked), in
    clusters of 1 and 2 along N (the pick's where B's rows lie off 128-byte lines: each block
    copies half of A's rows for both) and 4 (a quarter — 4 rows, starting mid swizzle atom)."""
    kernel = kernels.KERNELS[f"wgmma_tma_{key}"]
    if (refusal := kernel.device_refusal(device)):
        pytest.skip(str(refusal))
    in_flight = config.get("WAIT_DEPTH", int(config["CONSUMERS"] == 1 or config["BN"] <= kernels.SWAPPED_IN_FLIGHT_BN))
    for shape in [(1, 4096, 4096), (16, 1003, 997), (13, 11008, 4096), (50, 300, 70), (64, 8192, 1024)]:
        for mode in ("normal", "int"):
            hp = host_problems(key, *shape, mode)
            rec, c1 = run_matmul(device, kernel, hp, iters=1, warmup=0, config=config, keep_output=True)
            assert wgmma_macros(rec.config.split(","))["WAIT_DEPTH"] == in_flight, rec.config
            assert rec.passed and rec.unwritten == 0, (shape, mode, rec.config, rec.max_rel_err, rec.bad)
            if mode == "int":
                assert rec.max_abs_err == 0.0
    _, c2 = run_matmul(device, kernel, hp, iters=1, warmup=0, config=config, keep_output=True)
    assert c1.tobytes() == c2.tobytes()


@pytest.mark.parametrize("config", [{"SWAP_AB": 1, "BN": 48, "CLUSTER": 1, "CONSUMERS": 1},
                                    {"SWAP_AB": 1, "BN": 96, "CLUSTER": 1, "CONSUMERS": 2},
                                    {"SWAP_AB": 1, "BN": 112, "CLUSTER": 1, "CONSUMERS": 2},
                                    {"SWAP_AB": 1, "BN": 208, "CLUSTER": 1, "CONSUMERS": 2},
                                    {"SWAP_AB": 1, "BN": 112, "CLUSTER": 2, "CONSUMERS": 2},
                                    {"SWAP_AB": 1, "BN": 96, "CLUSTER": 4, "CONSUMERS": 2},
                                    {"SWAP_AB": 1, "BN": 80, "CLUSTER": 4, "CONSUMERS": 2},   # (20 rows a block)
                                    {"SWAP_AB": 1, "BN": 32, "CLUSTER": 2, "CONSUMERS": 1},
                                    {"SWAP_AB": 1, "BN": 144, "CLUSTER": 4, "SHARE_A": 1, "CONSUMERS": 2},
                                    {"SWAP_AB": 1, "BN": 96, "CLUSTER": 2, "SHARE_A": 1, "CONSUMERS": 2},
                                    {"SWAP_AB": 1, "BN": 112, "CLUSTER": 1, "CONSUMERS": 3},
                                    {"SWAP_AB": 1, "BN": 144, "CLUSTER": 2, "SHARE_A": 1, "CONSUMERS": 3},
                                    {"SWAP_AB": 1, "BN": 160, "CLUSTER": 4, "SHARE_A": 1, "CONSUMERS": 3, "STAGES": 3},
                                    {"SWAP_AB": 1, "BN": 176, "CLUSTER": 1, "CONSUMERS": 3},
                                    {"SWAP_AB": 1, "BN": 192, "CLUSTER": 4, "SHARE_A": 1, "CONSUMERS": 3},
                                    {"SWAP_AB": 1, "BN": 256, "CLUSTER": 1, "CONSUMERS": 1},
                                    {"SWAP_AB": 1, "BN": 256, "CLUSTER": 2, "CONSUMERS": 1},
                                    {"SWAP_AB": 1, "BN": 256, "CLUSTER": 4, "SHARE_A": 1, "CONSUMERS": 2},
                                    {"SWAP_AB": 1, "BN": 256, "CLUSTER": 1, "CONSUMERS": 1, "C_PARTS": 2},
                                    {"SWAP_AB": 1, "BN": 144, "CLUSTER": 4, "SHARE_A": 1, "CONSUMERS": 3, "C_PARTS": 6},
                                    {"SWAP_AB": 1, "BN": 176, "CLUSTER": 2, "CONSUMERS": 2, "C_PARTS": 2}],
                         ids=lambda c: f"BN{c['BN']}-C{c['CONSUMERS']}-CL{c['CLUSTER']}{'-SA' * c.get('SHARE_A', 0)}"
                                       + (f"-P{c['C_PARTS']}" if "C_PARTS" in c else ""))
@pytest.mark.parametrize("key", ["fp16", "bf16"])
def test_06_swapped_wide_tiles_are_correct(device, host_problems, key, config):
    """Swapped tiles of M wider than 64 (any multiple of 16: C's boxes BN rows tall — or BN /
    C_PARTS, the parts stored in turn; up to 256 with one or two consumers, 192 with three — 192
    of N), and in
    clusters along N sharing A's rows (each block copying its part for all; at M's edge some
    parts all past M, and blocks of a cluster all past N) — and in pairs along M sharing B's
    columns (SHARE_A: 1 × 2, 2 × 2, three consumers' boxes dealt two and one; a pair's second
    block wholly past M): M of a few hundred with a partial last
    tile, N not a multiple of 8 (pitched), split-K, stream-K's cut of a last round; both input
    modes; the same bits on a rerun."""
    kernel = kernels.KERNELS[f"wgmma_tma_{key}"]
    if (refusal := kernel.device_refusal(device)):
        pytest.skip(str(refusal))
    sms, m, tile = device.sm_count, 3 * config["BN"] - 5, {**kernels.WGMMA_TILE, **config}
    shapes = [(m, 1003, 997), (2 * config["BN"] + 1, 640, 8192), (m, stream_k_n(m, 2056, config, 2, sms), 2056),
              (50, 300, 70)]
    assert kernels.wgmma_schedule(*shapes[1], sms, tile)[3] > 1 and kernels.wgmma_schedule(*shapes[2], sms, tile)[4]
    runs_right_and_repeatable(device, host_problems, kernel, key, shapes, config, built_as(config))


@pytest.mark.parametrize("config", [{"SWAP_AB": 1, "CONSUMERS": 2, "COOP": atoms, "BN": bn, "CLUSTER": cluster,
                                     "SPLIT_K": 0, "SHARE_A": share_a}
                                    for atoms, bn, cluster, share_a in [(3, 80, 2, 1), (3, 64, 2, 1), (5, 64, 2, 0),
                                                                        (3, 80, 1, 0), (2, 128, 4, 1)]],
                         ids=lambda c: f"COOP{c['COOP']}-BN{c['BN']}-CL{c['CLUSTER']}{'-SA' * c.get('SHARE_A', 0)}")
@pytest.mark.parametrize("key", ["fp16", "bf16"])
def test_06_coop_swapped_tiles_are_correct(device, host_problems, key, config):
    """Two consumers side by side along a swapped tile's M (COOP: each over all of its COOP · 64
    rows of N, BN of M each — cuBLAS's coopB tiles), alone, in pairs along N, in pairs along M
    sharing B's columns and 2 × 2: M and N with partial last tiles (a pair's second block, the
    second consumer's columns past M), N not a multiple of 8 (pitched), stream-K's cut of a last
    round; both input modes; the same bits on a rerun."""
    kernel = kernels.KERNELS[f"wgmma_tma_{key}"]
    if (refusal := kernel.device_refusal(device)):
        pytest.skip(str(refusal))
    sms, cols, tile = device.sm_count, 2 * config["BN"], {**kernels.WGMMA_TILE, **config}
    m = 3 * cols - config["BN"] - 5   # (the last tile's second consumer: all past M)
    n = stream_k_n(m, 2056, config, 2, sms)
    while not (lambda s: s[2] // 4 <= s[0] % s[2] <= 3 * s[2] // 4)(kernels.wgmma_schedule(m, n, 2056, sms, tile)):
        n += 250   # (a last round a quarter to three quarters full: cut by stream-K even where the GPU holds
        #            a cluster or two more than wgmma_schedule counts)
    shapes = [(m, 1003, 997), (cols + 1, 64 * config["COOP"] + 1, 2056), (m, n, 2056), (50, 300, 70)]
    assert kernels.wgmma_schedule(*shapes[2], sms, tile)[4]
    runs_right_and_repeatable(device, host_problems, kernel, key, shapes, config, built_as(config))


@pytest.mark.parametrize("config", [{"SWAP_AB": 0, "CONSUMERS": 2, "COOP": atoms, "BN": bn, "CLUSTER": cluster,
                                     "SPLIT_K": 0, "SHARE_A": share_a, "WAIT_DEPTH": depth}
                                    for atoms, bn, cluster, share_a, depth in [(1, 64, 2, 0, 0), (1, 64, 2, 0, 1),
                                                                               (2, 128, 2, 0, 0), (1, 128, 1, 0, 0),
                                                                               (1, 64, 2, 1, 0), (2, 64, 4, 1, 0),
                                                                               (1, 64, 4, 0, 0)]],
                         ids=lambda c: f"COOP{c['COOP']}-BN{c['BN']}-CL{c['CLUSTER']}{'-SA' * c['SHARE_A']}"
                                       f"-WD{c['WAIT_DEPTH']}")
@pytest.mark.parametrize("key", ["fp16", "bf16", "int8", "fp8e4m3bf16"])
def test_06_07_coop_unswapped_tiles_are_correct(device, host_problems, key, config):
    """Two consumers side by side along an unswapped tile's N (COOP: each over all of its COOP · 64
    rows of M, BN columns each — cuBLAS's coopA form), alone, in pairs and fours along M sharing B,
    in pairs along N sharing A, 2 × 2 (SWAP_AB=0 given: a swapped pick would keep its own): M and
    N with partial last tiles (the second consumer's columns all past N), N and K not multiples of
    8 (pitched), one slice, stream-K's cut of a last round; 06 and 07 (B K-major); both input
    modes; the same bits on a rerun."""
    kernel = kernels.wgmma_kernel(key)
    if (refusal := kernel.device_refusal(device)):
        pytest.skip(str(refusal))
    sms, rows, cols = device.sm_count, 64 * config["COOP"], 2 * config["BN"]
    elem = kernels.PRECISIONS[key].in_dtype.itemsize
    m = 5 * rows - 3
    shapes = [(m, 3 * cols - config["BN"] - 5, 997),   # (the last tile's second consumer: all past N)
              (rows + 1, cols + 1, 40)]
    if kernels.PRECISIONS[key].out_dtype.itemsize == 4:   # (a 16-bit C turns stream-K off)
        k = 4112 // elem   # (33 slices of 128 bytes: enough left past stream-K's share, SPLIT_MIN_SAVED)
        shapes.append((m, stream_k_n(m, k, config, elem, sms), k))
        assert kernels.wgmma_schedule(*shapes[2], sms, {**kernels.WGMMA_TILE, **config}, elem)[4]
    runs_right_and_repeatable(device, host_problems, kernel, key, shapes, config, built_as(config))


@pytest.mark.parametrize("key", ["fp16", "bf16"])
def test_06_leaves_clusters_of_one(device, host_problems, key):
    """Where the model would run two or three consumers' tiles in clusters of 1, the registry's 06
    runs the ranking's next choice in clusters, or the swapped tiles the rules after it make of
    that (kernels.wgmma_leaves_clusters_of_one) — in pairs and 2 × 2, three consumers sharing A,
    swapped tiles that fit M, N or K not a multiple of 8 (pitched) — built as picked, verified, the
    same bits on a rerun."""
    kernel = kernels.KERNELS[f"wgmma_tma_{key}"]
    if (refusal := kernel.device_refusal(device)):
        pytest.skip(str(refusal))
    as_drawn = device.sm_count == 132   # (the shapes were drawn for 132 SMs; elsewhere the pick is run)
    for shape, want in [((1340, 2090, 1686), {"CONSUMERS": 2, "BN": 192, "CLUSTER": 2}),
                        ((1108, 2368, 2048), {"CONSUMERS": 2, "BN": 192, "CLUSTER": 2}),
                        ((882, 4288, 968), {"CONSUMERS": 3, "BN": 192, "CLUSTER": 2, "SHARE_A": 1}),
                        ((1555, 5536, 1824), {"CONSUMERS": 2, "BN": 256, "CLUSTER": 4, "SHARE_A": 1}),
                        ((809, 3095, 1565), {"SWAP_AB": 1, "BN": 208, "CLUSTER": 4, "SHARE_A": 1})]:
        runs_right_and_repeatable(device, host_problems, kernel, key, [shape], None, built_as(want, as_drawn))


@pytest.mark.parametrize("key", ["fp16", "bf16"])
def test_06_picks_swapped_tiles_that_fit_m(device, host_problems, key):
    """Where M is a few hundred, the registry's 06 picks swapped tiles whose M side fits it, in
    clusters of 4 or 2 along N or 2 × 2 (kernels.wgmma_swaps_to_fit) — at M ≤ 288 three consumers'
    (192 of N) in 2 × 2 or pairs along M, at M of 257–416 and 513–832 2 × 2 over rounds
    (wgmma_swaps_over_rounds), at M of 129–208 one tile of M in clusters of 4 or 2 along N
    (wgmma_swaps_one_tile; cut along K in 3 pieces, 32–33 slices, at 137 × 4001 × 6152), one
    consumer's tiles of half of M in clusters of 4 along N (wgmma_fits_one_consumer) — built as
    picked (N not a multiple of 8: pitched), verified, the same bits on a rerun."""
    kernel = kernels.KERNELS[f"wgmma_tma_{key}"]
    if (refusal := kernel.device_refusal(device)):
        pytest.skip(str(refusal))
    h200 = device.sm_count == 132   # (on other SM counts the rule may not fire: then the pick is run)
    for shape, bn, cluster, share_a, consumers in [
            ((279, 4288, 520), 96, 4, 0, 2), ((461, 4000, 1000), 160, 4, 0, 2), ((285, 7880, 1003), 144, 2, 0, 2),
            ((395, 6500, 997), 208, 4, 1, 2), ((291, 3001, 4160), 160, 4, 1, 2),   # (cut along K in 2)
            ((272, 12376, 520), 144, 2, 1, 3), ((280, 9907, 1003), 144, 4, 1, 3),
            ((600, 13784, 520), 160, 4, 1, 2), ((661, 15001, 777), 176, 4, 1, 2),   # (over rounds)
            ((530, 11001, 1003), 144, 4, 1, 2), ((401, 14001, 777), 208, 4, 1, 2), ((813, 10000, 520), 208, 4, 1, 2),
            ((300, 14001, 777), 160, 4, 1, 2),
            ((137, 4001, 6152), 144, 4, 0, 2), ((150, 15801, 777), 160, 2, 0, 2), ((201, 9000, 520), 208, 4, 0, 2),
            ((279, 3700, 520), 144, 4, 0, 1), ((395, 3801, 2001), 208, 4, 0, 1),   # (one consumer's halves of M)
            ((465, 3601, 1000), 240, 4, 0, 1)]:
        want = {"SWAP_AB": 1, "BN": bn, "CLUSTER": cluster, "SHARE_A": share_a, "CONSUMERS": consumers}
        runs_right_and_repeatable(device, host_problems, kernel, key, [shape], None, built_as(want, h200))


@pytest.mark.parametrize("key", ["fp16", "bf16"])
def test_06_runs_tall_problems_in_192_by_128_tiles(device, host_problems, key):
    """Tall, skinny problems whose 192 × 128 tiles fill the SMs in one round: the registry's 06
    picks three consumers' 192 × 128 tiles in clusters of 1 (kernels.wgmma_tall_rows) — M past
    whole tiles (6144: a whole number), N under one tile or past whole ones and not a multiple of 8
    (pitched), K off 128-byte lines or not a multiple of 8 — built as picked, verified, integers
    exact, the same bits on a rerun."""
    kernel = kernels.KERNELS[f"wgmma_tma_{key}"]
    if (refusal := kernel.device_refusal(device)):
        pytest.skip(str(refusal))
    shapes = [(12000, 217, 1000), (24144, 77, 1559), (6144, 512, 1024), (5728, 489, 1360)]
    assert all(kernels.wgmma_config(*shape, 132) == kernels.TALL_CONFIG for shape in shapes)
    as_drawn = device.sm_count == 132   # (the shapes were drawn for 132 SMs; elsewhere the pick is run)
    runs_right_and_repeatable(device, host_problems, kernel, key, shapes, None, built_as(kernels.TALL_CONFIG, as_drawn))


@pytest.mark.parametrize("key", ["fp16", "bf16"])
def test_06_runs_tall_problems_of_n_129_to_240_in_tiles_as_wide_as_b(device, host_problems, key):
    """Tall problems of N 129–240 where the consumers would take turns: the registry's 06 picks two
    consumers' 128 × 16·⌈N/16⌉ tiles in pairs along M (kernels.wgmma_fits_tall_rows) — widths 144,
    176 and 240, M past whole tiles, in one round and in two, N not a multiple of 8 (pitched) nor of
    the width — built as picked, verified, integers exact, the same bits on a rerun."""
    kernel = kernels.KERNELS[f"wgmma_tma_{key}"]
    if (refusal := kernel.device_refusal(device)):
        pytest.skip(str(refusal))
    shapes = {(15680, 174, 1152): 176, (29272, 129, 704): 144, (28724, 234, 832): 240}
    assert all(kernels.wgmma_fits_tall_rows(*shape, 132, kernels.TURNS_CONFIG)["BN"] == bn and
               kernels.wgmma_config(*shape, 132)["BN"] == bn for shape, bn in shapes.items())
    as_drawn = device.sm_count == 132   # (the shapes were drawn for 132 SMs; elsewhere the pick is run)
    for shape, bn in shapes.items():
        want = {"CONSUMERS": 2, "BN": bn, "CLUSTER": 2, "SWAP_AB": 0, "PINGPONG": 0}
        runs_right_and_repeatable(device, host_problems, kernel, key, [shape], None, built_as(want, as_drawn))


@pytest.mark.parametrize("key", ["fp16", "bf16"])
def test_06_picks_swapped_tiles_streaming_b_for_m_of_33_to_48(device, host_problems, key):
    """M of 33–48, N a multiple of 8, K of 32 slices or more, 64-column tiles for a third of the
    SMs or more: the registry's 06 picks one consumer's swapped 64×48 tiles in clusters of 2 along
    N (kernels.wgmma_streams_b_swapped) — M's and N's partial tiles, an odd count of tiles (a
    cluster's second block past N), K off a slice, tiles for too few clusters (split-K in 2) —
    verified, the same bits on a rerun."""
    kernel = kernels.KERNELS[f"wgmma_tma_{key}"]
    if (refusal := kernel.device_refusal(device)):
        pytest.skip(str(refusal))
    h200 = device.sm_count == 132   # (on other SM counts the rule may not fire: then the pick is run)
    want = {name: kernels.STREAM_B_SWAPPED_CONFIG[name] for name in ("SWAP_AB", "CONSUMERS", "BN", "CLUSTER")}
    runs_right_and_repeatable(device, host_problems, kernel, key, [(33, 4168, 6152), (48, 8448, 6144), (41, 5000, 6200), (37, 3096, 2056)],
                              None, built_as(want, h200))


@pytest.mark.parametrize("key", ["fp16", "bf16"])
def test_06_picks_three_consumers_swapped_tiles_streaming_b_off_lines(device, host_problems, key):
    """M ≤ 64, B's rows off 128-byte lines, K long enough and two consumers' 128-column tiles
    enough for M's range (kernels.STREAM_B_WIDE_FROM), up to 99: the registry's 06 picks three
    consumers' swapped tiles — 192 of N by 16, 32, 48 or 64 of M — in clusters of 2 along N
    (kernels.wgmma_streams_b_wide): M at both ends of each width, N's partial tiles, odd counts of
    tiles (a cluster's second block past N), K off a slice, split-K in 2, 3 and 4 — verified, the
    same bits on a rerun."""
    kernel = kernels.KERNELS[f"wgmma_tma_{key}"]
    if (refusal := kernel.device_refusal(device)):
        pytest.skip(str(refusal))
    h200 = device.sm_count == 132   # (on other SM counts the rule may not fire: then the pick is run)
    least = kernels.GEMV_M_MOST + 1   # (M ≤ GEMV_M_MOST is 10's: wgmma_runs_gemv)

    def built(rec):
        macros = wgmma_macros(rec.config.split(","))
        want = {"SWAP_AB": 1, "CONSUMERS": 3, "CLUSTER": 2, "BN": 16 * ((rec.m + 15) // 16)}
        return not h200 or all(macros[name] == value for name, value in want.items())
    runs_right_and_repeatable(device, host_problems, kernel, key,
                              [(least, 8648, 4104), (16, 11448, 4160), (17, 7000, 4096), (32, 12000, 4200),
                               (33, 8520, 6152), (48, 12600, 4104), (49, 5000, 8200), (64, 9000, 6152),
                               (49, 5112, 12296)], None, built)


def runs_right_and_repeatable(device, host_problems, kernel, key, shapes, config, built):
    """``kernel`` with ``config`` over its picks on each shape, integer then random inputs: built as
    ``built(record)`` says, verified, every element written, integers exact where the precision
    allows, and the random inputs' run the same bits again."""
    for shape in shapes:
        for mode in ("int", "normal"):
            hp = host_problems(key, *shape, mode)
            rec, c1 = run_matmul(device, kernel, hp, iters=1, warmup=0, config=config, keep_output=True)
            assert built(rec), rec.config
            assert rec.passed and rec.unwritten == 0, (shape, mode, rec.config, rec.max_rel_err, rec.bad)
            if mode == "int" and hp.tolerance() == 0.0:
                assert rec.max_abs_err == 0.0, (shape, rec.config)
        _, c2 = run_matmul(device, kernel, hp, iters=1, warmup=0, config=config, keep_output=True)
        assert c1.tobytes() == c2.tobytes(), (shape, rec.config)   # (random inputs: the order of the adds shows)


def built_as(want, where=True):
    """runs_right_and_repeatable's ``built``: the record's configuration sets each macro of ``want``
    as it says — or anything where ``where`` is False (a pick asserted for 132 SMs, run on others)."""
    return lambda rec: not where or all(wgmma_macros(rec.config.split(","))[name] == value
                                        for name, value in want.items())


def stream_k_n(m, k, config, elem_bytes, sms):
    """An N (not a multiple of 8) at which 06/07 with ``config`` cuts its last round by stream-K."""
    tile = {**kernels.WGMMA_TILE, **config}
    return next(n for n in range(1003, 60000, 250) if kernels.wgmma_schedule(m, n, k, sms, tile, elem_bytes)[4])


@pytest.mark.parametrize("config", [{"CONSUMERS": 2, "SWAP_AB": 0, "PINGPONG": rows, "BN": bn, "CLUSTER": cluster,
                                     "WAIT_DEPTH": depth}
                                    for rows, bn, cluster, depth in [(128, 128, 2, 1), (64, 256, 2, 1), (128, 64, 1, 1),
                                                                     (64, 128, 1, 1), (128, 128, 2, 0)]],
                         ids=lambda c: f"PP{c['PINGPONG']}-BN{c['BN']}-C{c['CLUSTER']}-WD{c['WAIT_DEPTH']}")
@pytest.mark.parametrize("key", ["fp16", "int8", "fp8e4m3bf16"])
def test_consumers_taking_tiles_in_turn_are_correct(device, host_problems, key, config):
    """PINGPONG: the two consumers take the block's tiles in turn, each whole (one or two wgmmas
    a k-step). Shapes that give a block one tile (the second consumer idle): partial tiles,
    pitched rows, one slice, a shape that would be split along K (run whole). Shapes that give
    blocks several, so the two take turns: short K as picked, partial tiles with pitched rows,
    one slice, and (fp32 or s32 C; a 16-bit C turns it off) stream-K — a tile's pieces on either
    consumer, each added after its successor. Verified, integers exact, and the same bits when
    random inputs run again."""
    kernel = kernels.wgmma_kernel(key)
    if (refusal := kernel.device_refusal(device)):
        pytest.skip(str(refusal))
    elem, sms = kernels.PRECISIONS[key].in_dtype.itemsize, device.sm_count
    stream_k = kernels.PRECISIONS[key].out_dtype.itemsize == 4
    turns = [(2048, 2048, 2048), (2000, 3001, 520), (2048, 4096, 64)]
    if stream_k:   # (K = 4100: some blocks' second consumer gets pieces, fp16 and INT8 alike; 4200's fp16 gave none)
        turns.append((1000, stream_k_n(1000, 4100, config, elem, sms), 4100))
    for shape in turns:   # more tiles than clusters: both consumers of some block take turns
        tiles, _, clusters, _, _ = kernels.wgmma_schedule(*shape, sms, {**kernels.WGMMA_TILE, **config}, elem)
        assert tiles > clusters, (shape, tiles, clusters)
    runs_right_and_repeatable(device, host_problems, kernel, key,
                              [(130, 300, 1000), (65, 129, 4105), (700, 1000, 70), (3, 5, 7), (512, 512, 8192)] + turns,
                              config, lambda rec: f"PINGPONG={config['PINGPONG']}" in rec.config and
                              ("WAIT_DEPTH=1" in rec.config) == bool(config["WAIT_DEPTH"]))


@pytest.mark.parametrize("bn", [256, 192, 128])
@pytest.mark.parametrize("key", ["fp16", "int8", "fp8e4m3bf16"])
@pytest.mark.parametrize("cluster,share_a", [(2, 1), (4, 1), (4, 0)], ids=["A-1x2", "AB-2x2", "B-4x1"])
def test_clusters_sharing_a_or_of_4_are_correct(device, host_problems, key, bn, cluster, share_a):
    """SHARE_A=1 in clusters of 2: the two blocks take neighbouring tiles of one tile row, each
    copying half of A's rows for both and all of B for itself; in clusters of 4, 2 × 2 tiles, each
    block copying half of A's rows for the block beside it and half of B's boxes for the one below;
    without SHARE_A, four tiles of one tile column sharing B. Partial tiles (at 128 columns a
    cluster's second tile wholly past N), pitched rows and rows off 128-byte lines, one slice
    (8-bit; two at fp16), split-K, several rounds and (fp32 or s32 C) stream-K: verified, integers
    exact, the same bits when random inputs run again."""
    kernel = kernels.wgmma_kernel(key)
    if (refusal := kernel.device_refusal(device)):
        pytest.skip(str(refusal))
    config = {"CONSUMERS": 2, "BN": bn, "CLUSTER": cluster, "SHARE_A": share_a}
    elem, sms = kernels.PRECISIONS[key].in_dtype.itemsize, device.sm_count
    tile = {**kernels.WGMMA_TILE, **config}
    shapes = [(130, 300, 1000), (65, 129 + bn, 4105), (700, 1000, 70), (3000, 3000, 1000), (256, 6000, 3000),
              (512, 512, 8192)]
    assert kernels.wgmma_schedule(512, 512, 8192, sms, tile, elem)[3] > 1   # split-K
    if kernels.PRECISIONS[key].out_dtype.itemsize == 4:
        shapes.append((8 * 128 + 7, stream_k_n(8 * 128 + 7, 4100, config, elem, sms), 4100))
    runs_right_and_repeatable(device, host_problems, kernel, key, shapes, config,
                              lambda rec: f"SHARE_A={share_a}" in rec.config and f"CLUSTER={cluster}" in rec.config)


@pytest.mark.parametrize("config", [{"CONSUMERS": 2, "BN": 176, "CLUSTER": 2},
                                    {"CONSUMERS": 3, "BN": 176, "CLUSTER": 2},
                                    {"CONSUMERS": 2, "BN": 144, "CLUSTER": 4},
                                    {"CONSUMERS": 2, "BN": 208, "CLUSTER": 2, "SHARE_A": 1},
                                    {"CONSUMERS": 1, "BN": 80, "CLUSTER": 1},
                                    {"CONSUMERS": 3, "BN": 112, "CLUSTER": 1}],
                         ids=lambda c: f"C{c['CONSUMERS']}-BN{c['BN']}-CL{c['CLUSTER']}{'-SA' * c.get('SHARE_A', 0)}")
@pytest.mark.parametrize("key", ["fp16", "int8", "fp8e4m3bf16"])
def test_unswapped_tiles_of_any_width_in_16s_are_correct(device, host_problems, key, config):
    """Unswapped tiles whose BN is no multiple of 64: B's last 64-column box (07: 64 rows of N)
    read only BN into it by the wgmma, and C's last box (32 fp32 or 64 bf16 columns) starting
    before BN, over the box before it, so that a tile writes none of its neighbour's columns —
    stored (the overlap twice, the same values), added by stream-K (zeros there) and summed by
    split-K's pieces (one sums both boxes). In clusters of 2 and 4 (three B boxes dealt among 4),
    sharing A; a partial last tile along N and M, pitched rows, split-K, stream-K's last round;
    verified, integers exact, the same bits when random inputs run again."""
    kernel = kernels.wgmma_kernel(key)
    if (refusal := kernel.device_refusal(device)):
        pytest.skip(str(refusal))
    elem, sms, bn = kernels.PRECISIONS[key].in_dtype.itemsize, device.sm_count, config["BN"]
    tile = {**kernels.WGMMA_TILE, **config}
    shapes = [(2000, 11 * bn - 7, 1000), (1003, 3 * bn - 5, 997), (130, 2 * bn + 1, 8192), (700, bn + 3, 70)]
    assert kernels.wgmma_schedule(*shapes[0], sms, tile, elem)[3] == 1   # whole tiles
    assert kernels.wgmma_schedule(*shapes[2], sms, tile, elem)[3] > 1    # split-K
    if kernels.PRECISIONS[key].out_dtype.itemsize == 4:
        shapes.append((1000, stream_k_n(1000, 4100, config, elem, sms), 4100))
    runs_right_and_repeatable(device, host_problems, kernel, key, shapes, config, built_as(config))


@pytest.mark.parametrize("key,bn,cluster,share_a",
                         [("fp16", 192, c, a) for c, a in [(2, 0), (1, 0), (2, 1), (4, 1), (4, 0)]] +
                         [(k, 192, c, a) for k in ("int8", "fp8e4m3bf16", "bf16") for c, a in [(2, 0), (2, 1)]] +
                         [("fp16", 128, 2, 0), ("fp8e4m3bf16", 128, 1, 0)])
def test_three_consumers_of_192_rows_are_correct(device, host_problems, key, bn, cluster, share_a):
    """CONSUMERS=3: 192-row tiles, three consumers of 64 rows under one producer warpgroup
    (setmaxnreg 24 / 160), in clusters of 1, 2 (along M, or along N sharing A) and 4. A tile
    partly past M (130 of 192 rows), one mostly past (65), a cluster's second tile wholly past M
    or N, pitched rows and rows off 128-byte lines, one slice (8-bit; two at fp16), M a whole
    number of tiles (576), split-K in 7–14 pieces (the sum's 8 loads at once at 192 columns),
    several rounds and (fp32 or s32 C) stream-K: verified, integers exact, the same bits when
    random inputs run again."""
    kernel = kernels.wgmma_kernel(key)
    if (refusal := kernel.device_refusal(device)):
        pytest.skip(str(refusal))
    config = {"CONSUMERS": 3, "BN": bn, "CLUSTER": cluster, "SHARE_A": share_a}
    elem, sms = kernels.PRECISIONS[key].in_dtype.itemsize, device.sm_count
    tile = {**kernels.WGMMA_TILE, **config}
    shapes = [(130, 300, 1000), (65, 129 + bn, 4105), (300, bn - 40, 4105), (700, 1000, 70), (3000, 3000, 1000),
              (576, 7000, 2024), (512, 512, 8192)]
    assert kernels.wgmma_schedule(512, 512, 8192, sms, tile, elem)[3] > 2   # split-K, the sum over 3+ pieces
    if kernels.PRECISIONS[key].out_dtype.itemsize == 4:
        shapes.append((8 * 192 + 7, stream_k_n(8 * 192 + 7, 4100, config, elem, sms), 4100))
    runs_right_and_repeatable(device, host_problems, kernel, key, shapes, config,
                              lambda rec: "CONSUMERS=3" in rec.config and f"CLUSTER={cluster}" in rec.config and
                              f"SHARE_A={share_a}" in rec.config)


def test_06_stream_k_in_finer_pieces_is_correct_and_repeatable(device, host_problems):
    """STREAM_K_DIV=4: the last round's tiles cut in up to five pieces, each adding itself after
    the next one is in (a chain of flags); 3072³'s 12 leftover tiles are cut in four."""
    kernel = kernels.wgmma_kernel("fp16", {"STREAM_K_DIV": 4}, name="wgmma_streamk4", choose=False)
    if (refusal := kernel.device_refusal(device)):
        pytest.skip(str(refusal))
    for mode in ("normal", "int"):
        hp = host_problems("fp16", 3072, 3072, 3072, mode)
        rec, c1 = run_matmul(device, kernel, hp, iters=2, warmup=1, keep_output=True)
        assert rec.passed and rec.unwritten == 0, (mode, rec.max_rel_err, rec.bad)
        _, c2 = run_matmul(device, kernel, hp, iters=1, warmup=0, keep_output=True)
        assert c1.tobytes() == c2.tobytes()


def test_the_pci_bus_id_names_this_gpu_to_nvml(device):
    """cuDeviceGetPCIBusId through the seam, both backends; with nvidia-ml-py the run records'
    clocks and power come from the GPU that bus id names."""
    import re
    from tcraw.nvml import ClockSampler
    assert re.fullmatch(r"[0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.[0-9A-Fa-f]", device.pci_bus_id)
    with ClockSampler(device) as s:
        device.synchronize()
    if s.result["nvml"].startswith("unavailable: pynvml"):
        pytest.skip(s.result["nvml"])
    assert s.result["samples"] >= 1 and s.result["sm_clock_mhz_max"] > 0, s.result


# 09 (M ≤ 64, B read in place): rows of B and A at every offset into a 16-byte word — N and K odd,
# ≡ 2 and 4 mod 8, multiples of 8 — N below 64, below, at and past a 128-column tile, K short of one
# 32-row slice and long; M of one m16 block to four.
SMALL_M_SHAPES = [(1, 1, 1), (5, 127, 33), (16, 1000, 250), (17, 4099, 1031), (32, 11001, 2000),
                  (3, 258, 4100), (29, 1030, 77), (32, 4096, 4096), (8, 11008, 1000), (31, 333, 12345),
                  (3, 5, 100), (7, 63, 333), (32, 40, 1000),   # (N < 64: a row's span outruns the rows after it)
                  (20, 2052, 1001), (2, 1004, 3),              # (N a multiple of 4, K odd: wide B reads, A shifted)
                  (33, 1003, 517), (48, 258, 77), (64, 4099, 2000), (57, 40, 1000), (64, 2052, 333),
                  (61, 1001, 555)]   # (3, 4 m16 blocks)


@pytest.mark.parametrize("split", [None, 1, 3, 40])
@pytest.mark.parametrize("key", ["fp16", "bf16"])
def test_09_reads_b_in_place_at_any_pitch(device, host_problems, key, split):
    """09 on shapes whose rows of A and B start anywhere in a 16-byte word, K in the pieces its
    pick cuts (None), whole (1), in 3 and in 40 (more than some problems' slices: pieces of none):
    correct, every element written, integers exact, the same bits on a rerun — the workspace's
    counters left as found, or the rerun's last piece would not be the one that sums."""
    kernel = kernels.small_m_kernel(key)
    if (refusal := kernel.device_refusal(device)):
        pytest.skip(str(refusal))
    config = {"SPLIT": split} if split else None
    runs_right_and_repeatable(device, host_problems, kernel, key, SMALL_M_SHAPES, config,
                              lambda rec: rec.grid[1] == (split or kernels.small_m_split(
                                  rec.m, rec.n, rec.k, device.sm_count)) and not rec.pitched)


# 10 (M ≤ 4, a GEMV): rows of B at every offset into a 16-byte word — N odd, ≡ 2, 4, 6 mod 8 and a
# multiple of 8 — N below 8, at, below and past a tile (248 or 256 columns), K of one row, fewer
# rows than the warps, than a piece, and long; B's end cutting its last word (K·N not a multiple
# of 8) and not; every M of 1–4.
GEMV_SHAPES = [(1, 1, 1), (1, 5, 100), (2, 7, 333), (3, 8, 64), (4, 248, 65), (1, 249, 1031), (2, 256, 4100),
               (3, 257, 77), (4, 1000, 250), (1, 4099, 2000), (2, 11008, 1000), (3, 11001, 3), (4, 4096, 4096),
               (1, 1004, 12345), (4, 63, 1), (1, 3586, 1572), (2, 1002, 9), (3, 4102, 4101), (4, 20001, 515)]


@pytest.mark.parametrize("split", [None, 1, 3, 40, 45, 64])
@pytest.mark.parametrize("key", ["fp16", "bf16"])
def test_10_gemv_reads_b_at_any_pitch(device, host_problems, key, split):
    """10 on shapes whose rows of B start anywhere in a 16-byte word, K in the pieces its pick cuts
    (None: in a cluster or through the workspace), whole (1), in 3, in 40 (more than some problems'
    rows: pieces of none; at M = 4 the most the last piece adds alone, 5 rounds), in 45 (at M = 4
    added in 7 sets, the last short) and in 64 (at M of 3–4, 8 sets of 8): correct, every element
    written, integers exact, the same bits on a rerun — the workspace's counters, the tiles' and
    the sets', left as found, or the rerun's last piece would not be the one that sums."""
    kernel = kernels.gemv_kernel(key)
    if (refusal := kernel.device_refusal(device)):
        pytest.skip(str(refusal))
    config = {"SPLIT": split} if split else None

    def pieces(rec):   # the pick's: in a cluster (CLUSTER_K) or through the workspace (SPLIT)
        picked = kernels.gemv_pick(rec.m, rec.n, rec.k, device.sm_count)
        return picked["CLUSTER_K"] or picked["SPLIT"]
    runs_right_and_repeatable(device, host_problems, kernel, key, GEMV_SHAPES, config,
                              lambda rec: rec.grid[1] == (split or pieces(rec)) and not rec.pitched)


@pytest.mark.parametrize("cluster_k", [2, 4, 8])
@pytest.mark.parametrize("key", ["fp16", "bf16"])
def test_10_sums_k_in_a_cluster(device, host_problems, key, cluster_k):
    """10 with K in CLUSTER_K pieces summed through distributed shared memory (one cluster along
    the grid's y; on a GPU before sm_90, through the workspace) on GEMV_SHAPES: correct, every
    element written, integers exact, the same bits on a rerun, the grid's y the cluster's — and the
    same bits as K in as many pieces handed off through the workspace (on three of them)."""
    kernel = kernels.gemv_kernel(key)
    if (refusal := kernel.device_refusal(device)):
        pytest.skip(str(refusal))
    runs_right_and_repeatable(device, host_problems, kernel, key, GEMV_SHAPES, {"CLUSTER_K": cluster_k},
                              lambda rec: rec.grid[1] == cluster_k and not rec.pitched)
    # the same adds in the same order as the workspace's last piece makes them: the same bits
    for shape in [(1, 4099, 2000), (4, 1000, 250), (3, 4102, 4101)]:
        hp = host_problems(key, *shape, "normal")
        outs = [run_matmul(device, kernel, hp, iters=1, warmup=0, config=config, keep_output=True)[1].tobytes()
                for config in ({"CLUSTER_K": cluster_k}, {"SPLIT": cluster_k})]
        assert outs[0] == outs[1], shape


def runs_handed(device, host_problems, key, source, shapes, overridden):
    """06 (``key``) on ``shapes``: its pick runs ``source`` (09 or 10), nothing copied to pitched
    rows, correct and repeatable — and on ``overridden`` with one of 06's macros set (BN=16), 06,
    B copied to pitched rows (N off 8)."""
    kernel = kernels.KERNELS[f"wgmma_tma_{key}"]
    if (refusal := kernel.device_refusal(device)):
        pytest.skip(str(refusal))
    runs_right_and_repeatable(device, host_problems, kernel, key, shapes, None,
                              lambda rec: rec.source == source and not rec.pitched)
    runs_right_and_repeatable(device, host_problems, kernel, key, [overridden], {"BN": 16},
                              lambda rec: rec.source == "06_wgmma_tma_hopper.cu" and "B" in rec.pitched)


@pytest.mark.parametrize("key", ["fp16", "bf16"])
def test_06_hands_m_of_1_to_4_to_10(device, host_problems, key):
    """06 on M ≤ 4 with N ≥ 80 (GEMV_MIN_N), B's rows on 16 bytes or not: its pick runs 10 (the
    record's source), nothing copied to pitched rows, correct and repeatable — and with an override
    of 06's macros, 06."""
    runs_handed(device, host_problems, key, "10_gemv_b_realigned_by_shuffles.cu",
                [(1, 11037, 1571), (2, 4096, 4096), (1, 512, 9), (3, 1003, 20000), (4, 83, 700), (4, 2408, 777)],
                (4, 1003, 4105))


@pytest.mark.parametrize("key", ["fp16", "bf16"])
def test_06_hands_small_m_with_b_off_16_bytes_to_09(device, host_problems, key):
    """06 on M ≤ 32 (≤ 48 with N ≥ 4096) with N not a multiple of 8: its pick runs 09 (the record's
    source), nothing copied to pitched rows, correct and repeatable — and with an override of 06's
    macros, 06."""
    runs_handed(device, host_problems, key, "09_mma_small_m_b_in_place.cu",
                [(5, 11037, 1571), (32, 4099, 2000), (17, 65, 9), (45, 4101, 300), (1, 75, 77)], (5, 1003, 4105))


def test_drawn_configurations_are_correct(device):
    """06/07 in 12 configurations drawn from the session's seed on drawn shapes
    (scripts/draw_configs.py: tile, cluster, stages, swapped tiles, split-K and stream-K's knobs,
    ...; each one 06/07 build and run on its problem), each run as tcraw check runs a shape —
    normal and integer inputs (integers bit-exact where the accumulator holds them), poisoned
    outputs, canary bands — and twice more for the same bits. In a process of its own, so that a
    fault is this test's failure alone; a failed pair's line runs it again."""
    if (refusal := kernels.wgmma_kernel("fp16").device_refusal(device)):
        pytest.skip(str(refusal))
    script = Path(__file__).resolve().parent.parent / "scripts" / "draw_configs.py"
    p = subprocess.run([sys.executable, str(script), "--count", "12", "--seed", str(SEED), "--backend",
                        device.drv.name], capture_output=True, text=True, timeout=900)
    assert p.returncode == 0 and "12 of 12 passed" in p.stdout, p.stdout + p.stderr
