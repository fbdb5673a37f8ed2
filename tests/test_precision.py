"""Quantization, the error model and verification, against hand-computed cases (CPU)."""

import math

import numpy as np
import pytest

from tcraw import precision as P
from tcraw.errors import UsageError
from tcraw.precision import PRECISIONS, base_matrices, host_problem, verify


def test_fp16_rounds_to_nearest_even():
    ulp = 2.0 ** -10
    assert P.to_fp16(1 + ulp / 2) == 1.0             # tie → even (1.0)
    assert P.to_fp16(1 + 3 * ulp / 2) == 1 + 2 * ulp  # tie → even (…10)
    assert P.to_fp16(70000.0) == np.inf


def test_bf16_rounding_and_bits():
    assert P.to_bf16_bits(1.0) == 0x3F80
    assert P.to_bf16_bits(-2.0) == 0xC000
    ulp = 2.0 ** -7
    assert P.bf16_bits_to_f64(P.to_bf16_bits(1 + ulp / 2)) == 1.0          # tie → even
    assert P.bf16_bits_to_f64(P.to_bf16_bits(1 + 3 * ulp / 2)) == 1 + 2 * ulp
    assert P.bf16_bits_to_f64(P.to_bf16_bits(1 + 0.6 * ulp)) == 1 + ulp
    assert math.isnan(P.bf16_bits_to_f64(P.to_bf16_bits(np.nan)))


def test_tf32_rounds_half_away_from_zero():
    ulp = 2.0 ** -10
    assert P.to_tf32(1 + ulp / 2) == 1 + ulp            # tie → away (cvt.rna)
    assert P.to_tf32(-(1 + ulp / 2)) == -(1 + ulp)
    assert P.to_tf32(1 + 0.4 * ulp) == 1.0
    assert P.to_tf32(np.float32(np.inf)) == np.inf
    assert (P.to_tf32(np.float32(1 / 3)).view(np.uint32) & 0x1FFF) == 0


def test_int8_clips():
    assert list(P.to_int8(np.array([-300.0, -128.4, 3.6, 200.0]))) == [-128, -128, 4, 127]


def test_tolerance_is_zero_for_exact_integer_problems():
    fp16 = PRECISIONS["fp16"]
    assert fp16.tolerance(4096, True, 16.0 * 4096) == 0.0          # 16·K < 2^24
    assert fp16.tolerance(4096, True, 2.0 ** 25) > 0               # beyond exact range
    acc16 = PRECISIONS["fp16acc16"]
    assert acc16.tolerance(128, True, 2048.0) > 0                  # 2048 is not < 2^11
    assert acc16.tolerance(64, True, 1024.0) == 0.0


def test_tolerance_model_by_hand():
    # fp16→fp32, K=1024: 2 · (1024/16 + 1) · 2^-23
    assert PRECISIONS["fp16"].tolerance(1024, False, 1.0) == 2 * 65 * 2.0 ** -23
    # tf32 blocks of 8
    assert PRECISIONS["tf32"].tolerance(1000, False, 1.0) == 2 * (125 + 1) * 2.0 ** -23
    # SIMT fp32, one rounding per FMA
    assert PRECISIONS["fp32"].tolerance(33, False, 1.0) == 2 * 34 * 2.0 ** -24
    assert PRECISIONS["int8"].tolerance(4096, False, 1e6) == 0.0


def _problem(key="fp16", m=8, n=9, k=10, mode="normal", seed=1):
    a, b = P.base_matrices(m, n, k, mode, seed)
    return host_problem(PRECISIONS[key], a, b, mode)


def test_reference_uses_the_quantized_inputs():
    hp = _problem("bf16")
    a64 = P.bf16_bits_to_f64(hp.a)
    assert np.array_equal(hp.ref, a64 @ P.bf16_bits_to_f64(hp.b))


def test_verify_passes_the_exact_answer_and_catches_one_wrong_element():
    hp = _problem()
    good = hp.ref.astype(np.float32)
    assert verify(good, hp).passed
    bad = good.copy()
    bad[3, 4] += 0.5
    v = verify(bad, hp)
    assert not v.passed and v.bad == 1


def test_verify_catches_unwritten_outputs():
    hp = _problem()
    c = hp.ref.astype(np.float32)
    c[0, 0] = np.nan
    v = verify(c, hp)
    assert not v.passed and v.unwritten == 1


def test_verify_int_mode_demands_bit_exactness():
    hp = _problem(mode="int")
    assert hp.tolerance() == 0.0
    c = hp.ref.astype(np.float32)
    assert verify(c, hp).passed
    c[1, 1] += 2.0 ** -10 * max(1.0, abs(c[1, 1]))
    assert not verify(c, hp).passed


def test_verify_checks_the_zero_padding():
    hp = _problem(m=5, n=6, k=7)
    padded = np.zeros((16, 16), dtype=np.float32)
    padded[:5, :6] = hp.ref
    assert verify(padded, hp).passed
    padded[10, 10] = 1.0
    v = verify(padded, hp)
    assert not v.passed and v.padding_dirty == 1


def test_int32_poison_is_unwritten():
    hp = _problem("int8", mode="int")
    c = hp.ref.astype(np.int32)
    c[2, 2] = P.INT32_POISON
    assert verify(c, hp).unwritten == 1


def test_fresh_seeds_give_fresh_inputs():
    a1, _ = P.base_matrices(4, 4, 4, "normal", 1)
    a2, _ = P.base_matrices(4, 4, 4, "normal", 2)
    assert not np.array_equal(a1, a2)


def test_nan_and_inf_must_propagate_where_the_reference_has_them():
    a, b = P.base_matrices(6, 7, 8, "normal", 3)
    a[2, 3], b[4, 5] = np.nan, np.inf
    hp = host_problem(PRECISIONS["fp32"], a, b, "normal")
    c = hp.ref.astype(np.float32)
    assert np.isnan(c[2]).all() and np.isinf(np.delete(c[:, 5], 2)).all()
    v = verify(c, hp)
    assert v.passed, v
    c[2, 0] = 1.0            # a NaN that failed to propagate
    assert not verify(c, hp).passed


@pytest.mark.parametrize("key", ["int8", "fp8e4m3", "fp8e5m2", "fp8e4m3bf16"])
@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_int8_and_fp8_refuse_what_they_cannot_keep_by_name(key, bad):
    """int8 stores no NaN or infinity; FP8 keeps a NaN (its own code; the amax scale passes over
    it) but its quantization saturates an infinity: refused, typed, naming the operand and the
    element — not clipped to garbage (int8) or to 448 (e4m3)."""
    p = PRECISIONS[key]
    a, b = base_matrices(6, 5, 4, "normal", 1)
    b[2, 3] = bad
    if math.isnan(bad) and p.keeps_nan:
        hp = host_problem(p, a, b, "normal")
        finite = b.copy()
        finite[2, 3] = 0.0
        assert hp.scale_b == P.amax_scale(finite, p.quantize.largest) and math.isnan(p.to_f64(hp.b)[2, 3])
        assert np.isnan(hp.ref[:, 3]).all() and np.isfinite(np.delete(hp.ref, 3, axis=1)).all()
        return
    with pytest.raises(UsageError, match=r"B\[2, 3\] is .*(int8 stores no NaN|FP8 quantization saturates).*"
                                         r"pass finite values"):
        host_problem(p, a, b, "normal")


@pytest.mark.parametrize("key,mode,value,needle", [
    ("int8", "int", 1000.0, r"A\[1, 2\] is 1000.0, which it stores as 127.0: integer inputs"),
    ("int8", "int", 2.5, r"is 2.5, which it stores as 2.0"),
    ("fp16", "int", 0.3, r"is 0.3, which it stores as 0.300048828125"),
    ("fp16", "int", 2049.0, r"is 2049.0, which it stores as 2048.0"),
    ("bf16", "int", 257.0, r"is 257.0, which it stores as 256.0"),
    ("fp8e4m3", "int", 100.0, r"is 100.0, which it stores as 96.0"),
    ("fp16", "normal", 1e6, r"is 1000000.0, past the largest finite value it stores \(it would become inf\)"),
    ("fp32", "normal", 1e300, r"past the largest finite value"),
    ("tf32", "normal", -1e39, r"would become -inf"),
    ("fp32", "int", 16777217.0, r"is 16777217.0, which it stores as 16777216.0"),   # (every digit shown)
    ("fp8e4m3", "normal", 1e300, r"A's per-tensor scale, its largest \|value\| \(A\[1, 2\] is 1e\+300\) over 448, is "
                                 r"past float32's range"),
])
def test_what_a_precision_cannot_keep_of_a_callers_values_is_refused_not_clamped(key, mode, value, needle):
    """Integer inputs (the bit-exact check) must be whole numbers the format holds exactly — not
    clamped (int8's 1000 to 127), rounded (fp16's 2049 to 2048) or passed with a zero tolerance
    they cannot meet (0.3); a finite normal input is rounded, never turned into an infinity."""
    a, b = base_matrices(3, 4, 5, mode, 1)
    a[1, 2] = value
    with pytest.raises(UsageError, match=needle):
        host_problem(PRECISIONS[key], a, b, mode)
    a[1, 2] = 2.0   # (what each holds: the same problem then builds, and bit-exact where integer)
    assert host_problem(PRECISIONS[key], a, b, mode).tolerance() == (0.0 if mode == "int" else
                                                                      PRECISIONS[key].tolerance(5, False, 1.0))


def test_int8_normal_inputs_use_its_range_and_are_never_clamped():
    """int8 draws normal values ×32 to use its range; where the largest would pass 127 (a normal
    draw's far tail, a caller's large values) the operand is scaled to fit — int8's symmetric
    amax quantization — not clipped."""
    p = PRECISIONS["int8"]
    a, b = base_matrices(64, 64, 64, "normal", 3)
    assert P.normal_scale(p, a) == 32.0 and P.normal_scale(p, a * 10) == 127.0 / np.abs(a * 10).max()
    a[0, 0] = 1000.0
    hp = host_problem(p, a, b, "normal")
    assert np.array_equal(hp.a, np.rint(a * (127.0 / 1000.0))) and hp.a[0, 0] == 127   # (every value in proportion)
    assert np.array_equal(hp.b, np.rint(b * P.normal_scale(p, b))) and np.abs(hp.b).max() <= 127
    assert np.array_equal(hp.ref, hp.a.astype(np.float64) @ hp.b.astype(np.float64))


def test_which_precisions_keep_nan_and_inf():
    assert [k for k, p in PRECISIONS.items() if not p.keeps_nan] == ["int8"]
    assert {k for k, p in PRECISIONS.items() if not p.keeps_inf} == {"int8", "fp8e4m3", "fp8e5m2", "fp8e4m3bf16"}


def test_padding_may_hold_nan_only_below_an_inf_column():
    a, b = P.base_matrices(5, 6, 7, "normal", 4)
    b[1, 2] = np.inf
    hp = host_problem(PRECISIONS["fp32"], a, b, "normal")
    padded = np.zeros((16, 16), dtype=np.float32)
    padded[:5, :6] = hp.ref
    padded[5:, 2] = np.nan   # 0 × Inf in the zero rows of A: what the hardware computes
    assert verify(padded, hp).padding_dirty == 0
    padded[5:, 3] = np.nan   # but column 3 of B is finite
    assert verify(padded, hp).padding_dirty == 11


def test_verify_by_row_blocks_equals_verify_at_once(monkeypatch):
    """The verifier walks the output a block of rows at a time (host memory); the verdict must be
    the one a single pass gives, errors, unwritten elements and padding included."""
    from tcraw import precision
    a, b = base_matrices(37, 29, 64, "normal", 3)
    hp = host_problem(PRECISIONS["fp16"], a, b, "normal")
    c = np.zeros((48, 32), dtype=np.float32)
    c[:37, :29] = hp.ref
    c[5, 7] += 1.0          # one wrong element
    c[30, 2] = np.nan       # one never written (also out of bounds: bad)
    c[40, 3] = 2.0          # dirty padding
    whole = precision.verify(c, hp)
    monkeypatch.setattr(precision, "VERIFY_CHUNK", 29 * 4)   # 4 rows per block
    blocks = precision.verify(c, hp)
    assert (whole.bad, whole.unwritten, whole.padding_dirty) == (blocks.bad, blocks.unwritten, blocks.padding_dirty) == (2, 1, 1)
    assert whole.max_rel_err == blocks.max_rel_err and whole.max_abs_err == blocks.max_abs_err
    assert blocks.norm_rel_err == pytest.approx(whole.norm_rel_err, rel=1e-12, nan_ok=True)
    c[30, 2] = hp.ref[30, 2]
    monkeypatch.setattr(precision, "VERIFY_CHUNK", 1 << 22)
    whole = precision.verify(c, hp)
    monkeypatch.setattr(precision, "VERIFY_CHUNK", 29 * 4)
    assert precision.verify(c, hp).norm_rel_err == pytest.approx(whole.norm_rel_err, rel=1e-12)


def test_a_record_names_the_kernels_source_and_configuration():
    """Even a failed row says which source and which macros (tile, stages, cluster) it was."""
    from tcraw import kernels
    from tcraw.matmul import failed_record
    rec = failed_record(kernels.KERNELS["wgmma_tma_fp16"], 64, 64, 64, None, "why")
    assert rec.source == "06_wgmma_tma_hopper.cu" and "STAGES=4" in rec.config and "CLUSTER=2" in rec.config
    assert rec.as_dict()["passed"] is False and rec.error == "why"


# -- FP8 -------------------------------------------------------------------------------------------

def test_fp8_tables_have_the_formats_landmarks():
    from tcraw.precision import E4M3_VALUES, E5M2_VALUES
    assert E4M3_VALUES[0x7E] == 448 and np.isnan(E4M3_VALUES[0x7F]) and E4M3_VALUES[0x01] == 2.0 ** -9
    assert E4M3_VALUES[0x38] == 1.0 and E4M3_VALUES[0xB8] == -1.0 and E4M3_VALUES[0x08] == 2.0 ** -6
    assert E5M2_VALUES[0x7B] == 57344 and E5M2_VALUES[0x7C] == np.inf and np.isnan(E5M2_VALUES[0x7D])
    assert E5M2_VALUES[0x3C] == 1.0 and E5M2_VALUES[0x01] == 2.0 ** -16
    assert np.count_nonzero(np.isnan(E4M3_VALUES)) == 2 and np.count_nonzero(np.isnan(E5M2_VALUES)) == 6


@pytest.mark.parametrize("fmt", ["e4m3", "e5m2"])
def test_fp8_rounds_to_nearest_even_and_saturates(fmt):
    from tcraw import precision as P
    quantize, values = getattr(P, f"to_{fmt}"), getattr(P, f"{fmt.upper()}_VALUES")
    finite = values[np.isfinite(values)]
    grid = np.unique(finite)
    # every representable value comes back as itself
    assert np.array_equal(values[quantize(finite)], finite)
    # midpoints between neighbours go to the neighbour whose code is even
    pos = np.unique(finite[finite >= 0])
    mids = (pos[:-1] + pos[1:]) / 2
    got = quantize(mids)
    assert all(c % 2 == 0 for c in got) and np.all(np.isin(values[got], pos))
    # just off a midpoint rounds to the nearer; beyond the largest saturates; NaN stays NaN
    assert np.array_equal(values[quantize(mids * (1 + 1e-9))], pos[1:])
    top = grid.max()
    assert values[quantize(np.array([top * 4, -top * 4, 1e300]))].tolist() == [top, -top, top]
    assert np.isnan(values[quantize(np.array([np.nan]))]).all()


def test_fp8_problems_carry_amax_scales_and_integers_exactly():
    from tcraw.precision import PRECISIONS, base_matrices, host_problem
    a, b = base_matrices(33, 17, 65, "normal", 3)
    for key in ("fp8e4m3", "fp8e5m2"):
        p = PRECISIONS[key]
        hp = host_problem(p, a, b, "normal")
        assert hp.a.dtype == np.uint8 and hp.scale_a > 0 and hp.scale_b > 0
        assert np.abs(p.to_f64(hp.a)).max() == p.quantize.largest   # amax lands on the largest value
        ref = (p.to_f64(hp.a) * hp.scale_a) @ (p.to_f64(hp.b) * hp.scale_b)
        np.testing.assert_allclose(hp.ref, ref, rtol=1e-15)
        # the scaled values stay close to the inputs: relative error of the format's half ulp
        err = np.abs(p.to_f64(hp.a) * hp.scale_a - a) / np.abs(a).max()
        assert err.max() <= 2.0 ** -(4 if key == "fp8e4m3" else 3)
    ai, bi = base_matrices(33, 17, 65, "int", 3)
    hp = host_problem(PRECISIONS["fp8e4m3"], ai, bi, "int")
    assert hp.scale_a == hp.scale_b == 1.0 and np.array_equal(hp.ref, ai @ bi)
    assert hp.tolerance() == 0.0                                # small integer sums: exact


def test_bf16_outputs_are_verified_as_bf16():
    from tcraw.precision import PRECISIONS, base_matrices, host_problem, to_bf16_bits, verify
    p = PRECISIONS["fp8e4m3bf16"]
    a, b = base_matrices(20, 30, 64, "normal", 5)
    hp = host_problem(p, a, b, "normal")
    good = to_bf16_bits(hp.ref.astype(np.float32))
    assert verify(good, hp).passed                             # bf16 rounding of the exact result
    bad = good.copy()
    bad[3, 4] = to_bf16_bits(np.float32(hp.ref[3, 4] + 0.05 * hp.abs_ref[3, 4]))   # 5 % of |A||B| off
    v = verify(bad, hp)
    assert not v.passed and v.bad == 1
    nan = good.copy()
    nan[0, 0] = 0x7FC0                                         # the poison: unwritten
    assert verify(nan, hp).unwritten == 1


@pytest.mark.parametrize("name", ["naive_fp32", "wmma_fp16", "wgmma_kmajor_fp8e4m3bf16", "wgmma_kmajor_fp8e5m2",
                                  "wgmma_kmajor_int8", "dmma_fp64"])
def test_checks_nan_case_puts_in_what_each_precision_keeps(monkeypatch, name):
    """`tcraw check`'s rerun and NaN/Inf cases, the GPU stood in for by the reference itself: each
    precision is handed only what it keeps (FP8 a NaN and no infinity, int8 neither), so no case
    is refused by the quantizer (the regression a second read found), and the rows say so."""
    from types import SimpleNamespace

    from tcraw import check, kernels

    def run_matmul(device, kernel, hp, **_):
        p = kernel.precision
        c = P.to_bf16_bits(hp.ref) if p.out_dtype == np.uint16 else hp.ref.astype(p.out_dtype)
        return SimpleNamespace(passed=True, as_dict=lambda: {"kernel": kernel.name}), c
    monkeypatch.setattr(check, "run_matmul", run_matmul)
    kernel = kernels.KERNELS[name]
    rows = check.check_rerun_and_nan(None, kernel, 7, None)
    p = kernel.precision
    cases = [r["case"] for r in rows]
    assert cases[0].startswith("same bits on a rerun")
    assert cases[1:] == ([] if not p.keeps_nan else
                         ["NaN and Inf propagate 40×50×60" if p.keeps_inf else "NaN propagates 40×50×60"])
    assert all(r["passed"] for r in rows), rows


@pytest.mark.parametrize("args", [(-1, 2, 2, "normal", 1), (2, 2, 0, "int", 1), (1.5, 2, 2, "normal", 1),
                                  (2, 2, 2, "normal", -1), (2, 2, 2, "normal", 0.5)])
def test_base_matrices_refuse_a_shape_or_seed_no_run_takes(args):
    """base_matrices (public): dimensions whole numbers ≥ 1, a seed None or a whole number ≥ 0 —
    refused by name as the command line refuses them, not numpy's errors."""
    from tcraw.errors import UsageError
    from tcraw.precision import base_matrices
    with pytest.raises(UsageError):
        base_matrices(*args)


def test_base_matrices_refuse_what_the_host_cannot_hold(monkeypatch):
    """Two float64 matrices the host has no room for: refused with the numbers, not numpy's
    'array is too big'."""
    from tcraw import matmul
    from tcraw.errors import OutOfMemory
    monkeypatch.setattr(matmul, "host_available", lambda: 2**30)
    with pytest.raises(OutOfMemory, match=r"need 16\.0 GiB of host memory; 1\.0 GiB are available"):
        base_matrices(32768, 32768, 32768, "int", seed=1)
    a, b = base_matrices(np.int64(3), np.uint32(4), 5, "int", seed=np.int64(1))
    assert a.shape == (3, 5) and b.shape == (5, 4)


def test_the_check_battery_takes_a_kernel_and_a_seed_as_run_does():
    from tcraw import battery, get_kernel
    k = get_kernel("naive_fp32")
    assert battery(k, np.int64(7)) == battery(k, 7)
    for args, needle in (((k, -1), "--seed"), ((k, 1.5), "--seed"), (("naive_fp32", 1), "takes a Kernel"),
                         ((k, 1, -2), "drawn is how many"), ((k, 1, 10**9), "from 0 to 10000")):
        with pytest.raises(UsageError, match=needle):
            battery(*args)
    assert len(battery(k, 1, 10_000)) > 9_000   # (the most: drawn from 700³, a few repeat)


def test_make_problem_and_run_matmul_name_what_they_were_given_wrong():
    """The README's library path refuses a wrong argument by name, before any device is touched
    (device None here): a precision key with a typo, an unknown input mode, A and B that do not
    multiply or are not 2-D arrays of numbers, something other than a HostProblem."""
    import tcraw
    a, b = base_matrices(4, 5, 6, "int", seed=1)
    hp = tcraw.make_problem(None, "fp16", a, b, "int")   # (a key works as the Precision does)
    assert hp.precision is PRECISIONS["fp16"] and np.array_equal(hp.ref, a @ b)
    for args, needle in [(("FP16", a, b, "int"), "did you mean fp16"), ((None, a, b, "int"), "precision is a key"),
                         (("fp16", a, b, "weird"), "normal, int, got 'weird'"),
                         (("fp16", a, b[:2], "int"), "A is 4×6 and B 2×5"),
                         (("fp16", a.tolist(), b, "int"), "A must be a non-empty 2-D numpy array.*got list"),
                         (("fp16", a, b[0], "int"), "B must be .*1-D float64"),
                         (("fp16", a[:0], b, "int"), "A must be a non-empty")]:
        with pytest.raises(UsageError, match=needle):
            tcraw.make_problem(None, *args)
    with pytest.raises(UsageError, match="reference is"):
        tcraw.make_problem(None, "fp16", a, b, "int", reference="gpu")
    with pytest.raises(UsageError, match="a HostProblem"):
        tcraw.run_matmul(None, tcraw.KERNELS["wmma_fp16"], None)
    with pytest.raises(UsageError, match="a tcraw.Kernel"):
        tcraw.run_matmul(None, "wmma_fp16", hp)
