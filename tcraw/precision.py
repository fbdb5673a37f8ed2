"""Numbers as the tensor cores see them: quantization, inputs, the reference, the error model.

Every input is rounded on the host exactly as the kernel reads it (fp16, bf16 carried as
uint16 bits since numpy has no bf16, tf32 = fp32 with 10 mantissa bits, int8), and the
float64 reference is computed from those same rounded values, so the only difference left
between kernel and reference is the kernel's accumulation.
"""

import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from .errors import NamedTable, UsageError

INPUT_MODES = ("normal", "int")


# -- quantizers: float64 array -> host array in the kernel's storage format ---------------------

def to_fp32(x):
    return np.asarray(x, dtype=np.float32)


def to_fp16(x):
    with np.errstate(over="ignore"):  # beyond 65504 is inf, as on the device
        return np.asarray(x, dtype=np.float16)  # IEEE round-to-nearest-even, as __float2half


def to_bf16_bits(x):
    """Round to bf16 (nearest, ties to even) and return the 16 bits as uint16."""
    f = np.atleast_1d(np.asarray(x, dtype=np.float32))
    u = f.view(np.uint32).astype(np.uint64)
    rounded = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    rounded[np.isnan(f)] = 0x7FC0  # keep NaN a NaN: rounding could carry it into the infinity pattern
    return rounded.reshape(np.shape(x))


def bf16_bits_to_f64(bits):
    return (np.asarray(bits, dtype=np.uint16).astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def to_tf32(x):
    """fp32 rounded to tf32 (10 mantissa bits), nearest with ties away from zero — cvt.rna.tf32.f32,
    what wmma::__float_to_tf32 does in the kernel. Returned as float32 with the low 13 bits clear."""
    f = np.atleast_1d(np.asarray(x, dtype=np.float32))
    u = f.view(np.uint32).copy()
    finite = np.isfinite(f)
    # Sign-magnitude: adding half an ulp (bit 12) to the magnitude rounds half away from zero.
    u[finite] = (u[finite] + np.uint32(0x1000)) & np.uint32(0xFFFFE000)
    return u.view(np.float32).reshape(np.shape(x))


def to_int8(x):
    return np.clip(np.rint(x), -128, 127).astype(np.int8)


def as_f64(x):
    return np.asarray(x, dtype=np.float64)


# -- FP8: 8-bit codes (numpy has no fp8), decoded by table -----------------------------------------

def _fp8_table(exp_bits, man_bits, bias, ieee_specials):
    """The float64 value of each of the 256 codes of an FP8 format (sign, exponent, mantissa):
    E4M3 ("fn": no infinities, S.1111.111 the only NaN) or E5M2 (IEEE-like: infinities, NaNs)."""
    values = np.empty(256)
    for code in range(256):
        sign = -1.0 if code & 0x80 else 1.0
        e, f = (code >> man_bits) & ((1 << exp_bits) - 1), code & ((1 << man_bits) - 1)
        if ieee_specials and e == (1 << exp_bits) - 1:
            values[code] = sign * math.inf if f == 0 else math.nan
        elif not ieee_specials and code & 0x7F == 0x7F:
            values[code] = math.nan
        elif e == 0:
            values[code] = sign * f / (1 << man_bits) * 2.0 ** (1 - bias)   # subnormal
        else:
            values[code] = sign * (1 + f / (1 << man_bits)) * 2.0 ** (e - bias)
    return values


E4M3_VALUES = _fp8_table(4, 3, 7, ieee_specials=False)    # largest finite 448
E5M2_VALUES = _fp8_table(5, 2, 15, ieee_specials=True)    # largest finite 57344


def _fp8_quantizer(values):
    """float64 -> FP8 codes as uint8: round to nearest, ties to the even code (mantissa LSB 0),
    saturating at the largest finite value (what cvt.rn.satfinite does); NaN stays NaN."""
    positive = values[:128]
    finite = np.flatnonzero(np.isfinite(positive))   # codes in value order: 0 .. largest finite
    grid = positive[finite]
    nan_code = int(np.flatnonzero(np.isnan(positive))[0])

    # the midpoints between neighbours are exact in float64: a value rounds to the grid point
    # whose interval holds it, one at a midpoint to the even code (grid index = code)
    mids = (grid[1:] + grid[:-1]) / 2

    def quantize(x):
        x = np.asarray(x, dtype=np.float64)
        mag = np.minimum(np.abs(x), grid[-1])
        i = np.searchsorted(mids, mag, side="left")   # at a midpoint: the lower neighbour ...
        i += (i % 2 == 1) & (mids[np.minimum(i, len(mids) - 1)] == mag)   # ... unless that one is odd
        codes = finite[i].astype(np.uint8)
        codes |= ((np.signbit(x) & (codes != 0)) << 7).astype(np.uint8)
        codes[np.isnan(x)] = nan_code
        return codes
    quantize.largest = float(grid[-1])
    return quantize


to_e4m3 = _fp8_quantizer(E4M3_VALUES)
to_e5m2 = _fp8_quantizer(E5M2_VALUES)


def e4m3_to_f64(codes):
    return E4M3_VALUES[np.asarray(codes, dtype=np.uint8)]


def e5m2_to_f64(codes):
    return E5M2_VALUES[np.asarray(codes, dtype=np.uint8)]


def amax_scale(x, largest):
    """The per-tensor scale that maps |x|'s largest value onto the format's largest finite value
    (float32, as the kernel and cuBLASLt read it); 1 for an all-zero tensor. NaNs are passed
    over (they keep their own code)."""
    amax = float(np.max(np.abs(x), initial=0.0, where=~np.isnan(x)))
    with np.errstate(over="ignore", under="ignore"):   # (past float32: quantized_inputs refuses it by name)
        return float(np.float32(amax / largest)) if amax > 0 and math.isfinite(amax) else 1.0


@dataclass(frozen=True)
class Precision:
    """One input/accumulate combination and what it takes to check it.

    The error model (docs/facts.md, Fasi et al. 2021): a dot product of length K accumulated in
    blocks of ``block`` products, each block added into the accumulator with one rounding of
    unit ``acc_unit`` (tensor cores truncate, so 2^-23 for fp32 rather than 2^-24), gives
    |C - ref|_ij <= (ceil(K/block) + 1) * acc_unit * (|A||B|)_ij. tcraw allows twice that.
    Integer inputs whose partial sums stay below 2^acc_exact_bits make every step exact, so
    then the tolerance is zero: the result must equal the reference bit for bit.
    """

    key: str                 # registry/CLI key, e.g. "fp16" (in) or "fp16acc16"
    family: str              # what --precision selects: fp32 fp16 bf16 tf32 int8 fp64 fp8
    label: str               # "fp16→fp32"
    in_dtype: np.dtype       # host/device storage of A and B
    out_dtype: np.dtype      # storage of C
    quantize: Callable       # float64 -> storage
    to_f64: Callable         # storage -> float64 (the values the kernel multiplies)
    acc_unit: float          # rounding unit of one accumulation step (0: exact, int32)
    block: int               # products per accumulation step
    acc_exact_bits: int      # integers below 2^bits are exact in the accumulator
    tensor_core: bool = True
    normal_scale: float = 1.0  # int8 draws normal values ×32 so they use the int8 range (normal_scale())
    # FP8: A and B are stored as codes of x / scale, one amax-based scale per tensor (1 for the
    # integer inputs, which the formats hold exactly); the kernel multiplies C by both scales.
    scaled: bool = False
    out_to_f64: Callable = as_f64   # storage of C -> float64 (bf16 outputs are uint16 bits)
    out_unit: float = 0.0           # rounding unit of storing C (bf16: 2^-8), added to the bound
    # dense FLOP (or int op) per clock per SM, by compute capability (docs/facts.md); None: unknown
    flops_per_clk_sm: dict = field(default_factory=dict)

    @property
    def keeps_nan(self):
        """Whether a NaN in A or B reaches C as NaN: int8 has no NaN (FP8 has a NaN code)."""
        return self.family != "int8"

    @property
    def keeps_inf(self):
        """Whether an infinity in A or B reaches C: int8 has none, and FP8's quantization
        saturates (e4m3 has no infinity; cvt.rn.satfinite caps e5m2's), so tcraw refuses one
        rather than clamp it to the largest finite value."""
        return self.family not in ("int8", "fp8")

    def tolerance(self, k, integer_inputs, abs_ref_max):
        """The allowed max of |C - ref| / (|A||B|), elementwise, for a K-long dot product."""
        if integer_inputs and abs_ref_max < 2.0 ** self.acc_exact_bits:
            return 0.0
        steps = math.ceil(k / self.block) + 1
        return 2.0 * steps * self.acc_unit + self.out_unit


PRECISIONS = NamedTable("precision", {p.key: p for p in [
    Precision("fp32", "fp32", "fp32→fp32 (SIMT)", np.dtype(np.float32), np.dtype(np.float32),
              to_fp32, as_f64, 2.0 ** -24, 1, 24, tensor_core=False,
              flops_per_clk_sm={80: 128, 86: 256, 89: 256, 90: 256}),
    Precision("fp16", "fp16", "fp16→fp32", np.dtype(np.float16), np.dtype(np.float32),
              to_fp16, as_f64, 2.0 ** -23, 16, 24, flops_per_clk_sm={80: 2048, 90: 4096}),
    Precision("fp16acc16", "fp16", "fp16→fp16", np.dtype(np.float16), np.dtype(np.float16),
              to_fp16, as_f64, 2.0 ** -10, 16, 11, flops_per_clk_sm={80: 2048, 90: 4096}),
    Precision("bf16", "bf16", "bf16→fp32", np.dtype(np.uint16), np.dtype(np.float32),
              to_bf16_bits, bf16_bits_to_f64, 2.0 ** -23, 16, 24,
              flops_per_clk_sm={80: 2048, 90: 4096}),
    Precision("tf32", "tf32", "tf32→fp32", np.dtype(np.float32), np.dtype(np.float32),
              to_tf32, as_f64, 2.0 ** -23, 8, 24, flops_per_clk_sm={80: 1024, 90: 2048}),
    Precision("int8", "int8", "int8→int32", np.dtype(np.int8), np.dtype(np.int32),
              to_int8, as_f64, 0.0, 16, 31, normal_scale=32.0,
              flops_per_clk_sm={80: 4096, 90: 8192}),
    Precision("fp64", "fp64", "fp64→fp64", np.dtype(np.float64), np.dtype(np.float64),
              as_f64, as_f64, 2.0 ** -53, 1, 53, flops_per_clk_sm={80: 128, 90: 256}),
    # FP8 (sm_89+, wgmma on sm_90). Products of two FP8 values are exact; the accumulator is
    # not fp32: DeepSeek-V3 (2024) found Hopper's FP8 MMA keeps about 14 bits while it adds a
    # k32 step's products, so the bound assumes a 2^-13 rounding every 32 products and integer
    # sums exact below 2^14. tcraw's accumulator study on the H200 (scripts/fp8_accumulator_study.py,
    # docs/results/2026-11-30-h200-hopper-precisions) agrees: with no promotion the error grows with
    # K (norm 2.1e-4 at K = 256, 3.1e-3 at 16384; cuBLASLt's FAST_ACCUM the same bits to K = 4096)
    # and implies 15.6–20.6 bits under this model — 14 is the conservative side of it.
    Precision("fp8e4m3", "fp8", "e4m3→fp32", np.dtype(np.uint8), np.dtype(np.float32),
              to_e4m3, e4m3_to_f64, 2.0 ** -13, 32, 14, scaled=True, flops_per_clk_sm={89: 4096, 90: 8192}),
    Precision("fp8e5m2", "fp8", "e5m2→fp32", np.dtype(np.uint8), np.dtype(np.float32),
              to_e5m2, e5m2_to_f64, 2.0 ** -13, 32, 14, scaled=True, flops_per_clk_sm={89: 4096, 90: 8192}),
    Precision("fp8e4m3bf16", "fp8", "e4m3→bf16", np.dtype(np.uint8), np.dtype(np.uint16),
              to_e4m3, e4m3_to_f64, 2.0 ** -13, 32, 8, scaled=True, out_to_f64=bf16_bits_to_f64,
              out_unit=2.0 ** -8, flops_per_clk_sm={89: 4096, 90: 8192}),
]})

# What --precision selects (fp8: 07's three FP8 forms).
FAMILIES = ("fp32", "fp16", "bf16", "tf32", "int8", "fp64", "fp8")


# -- inputs and reference -------------------------------------------------------------------------

def base_matrices(m, n, k, mode, seed):
    """The float64 A (m×k) and B (k×n) every precision quantizes: normal, or integers in [-4, 4]."""
    from .matmul import check_host_room
    from .validate import problem, seed as checked_seed
    m, n, k = problem(m, n, k)
    checked_seed(seed)
    if mode not in INPUT_MODES:
        raise UsageError(f"unknown input mode {mode!r}; choose one of: {', '.join(INPUT_MODES)}")
    check_host_room(8 * (m * k + k * n), f"A and B of {m}×{n}×{k} in float64 need")
    rng = np.random.default_rng(seed)
    if mode == "int":
        # CUTLASS testbeds' trick: small integers make every tensor-core mode exact.
        return (rng.integers(-4, 5, (m, k)).astype(np.float64),
                rng.integers(-4, 5, (k, n)).astype(np.float64))
    return rng.standard_normal((m, k)), rng.standard_normal((k, n))


@dataclass
class HostProblem:
    """A and B in the kernel's storage format, their float64 values, and the reference."""

    precision: Precision
    mode: str
    a: np.ndarray
    b: np.ndarray
    ref: np.ndarray       # A64 @ B64 in float64
    abs_ref: np.ndarray   # |A64| @ |B64|: the scale each element's error is measured against
    reference: str = "cpu"   # where ref was computed: "cpu" (numpy) or "device" (00_reference_fp64.cu)
    scale_a: float = 1.0     # FP8: A's values are its codes' × scale_a (precision.scaled)
    scale_b: float = 1.0

    @property
    def m(self): return self.a.shape[0]
    @property
    def k(self): return self.a.shape[1]
    @property
    def n(self): return self.b.shape[1]

    def tolerance(self):
        return self.precision.tolerance(self.k, self.mode == "int", float(self.abs_ref.max(initial=0.0)))


def quantized_inputs(precision, base_a, base_b, mode):
    """A and B as the kernel stores them (normal inputs scaled for int8's range), and the
    per-tensor scales their values are multiplied by (FP8: amax-based for normal inputs; 1 else)."""
    if not precision.keeps_inf:   # int8 keeps neither NaN nor infinity, FP8 no infinity
        for name, v in (("A", base_a), ("B", base_b)):
            refused = np.isinf(v) if precision.keeps_nan else ~np.isfinite(v)
            if refused.any():
                at = tuple(int(i) for i in np.argwhere(refused)[0])
                why = ("int8 stores no NaN or infinity" if not precision.keeps_nan else
                       "FP8 quantization saturates (e4m3 has no infinity), so it would become the largest "
                       "finite value; NaN is kept")
                raise UsageError(f"{precision.label}: {name}{list(at)} is {v[at]} — {why}; pass finite "
                                 "values, or use fp16, bf16, tf32, fp32 or fp64, which carry NaN and infinity")
    ka, kb = (1.0, 1.0) if mode == "int" else (normal_scale(precision, v) for v in (base_a, base_b))
    x, y = base_a * ka, base_b * kb
    sa = sb = 1.0
    if precision.scaled and mode != "int":
        sa, sb = (amax_scale(v, precision.quantize.largest) for v in (x, y))
        for name, v, s in (("A", x, sa), ("B", y, sb)):
            if not 0 < s < math.inf:   # (amax / largest past float32's range: every code would be lost)
                largest = np.argmax(np.where(np.isfinite(v), np.abs(v), 0))
                at = tuple(int(i) for i in np.unravel_index(largest, v.shape))
                raise UsageError(f"{precision.label}: {name}'s per-tensor scale, its largest |value| ({name}{list(at)} "
                                 f"is {float(v[at])!r}) over {precision.quantize.largest:g}, is past float32's range, "
                                 "in which the kernel reads it; scale the inputs (|values| from about 1e-36 to 1e36)")
    with np.errstate(over="ignore"):   # (an overflow to infinity is refused by name below)
        qa, qb = precision.quantize(x / sa), precision.quantize(y / sb)
    for name, given, stored, s in (("A", base_a, qa, sa / ka), ("B", base_b, qb, sb / kb)):
        refuse_lost(precision, mode, name, given, stored, s)
    return qa, qb, sa, sb


def normal_scale(precision, v):
    """What normal inputs ``v`` are multiplied by before ``precision`` rounds them: its
    normal_scale (int8: 32, to use its range), less where the largest |v| would pass int8's 127
    — normal draws' far tails, or a caller's own large values — so nothing is clamped."""
    scale = precision.normal_scale
    if precision.family == "int8":
        amax = float(np.max(np.abs(v), initial=0.0, where=np.isfinite(v)))
        scale = min(scale, 127.0 / amax) if amax > 0 else scale
    return scale


LOST_ROWS = 1 << 20   # elements compared at a time (a float64 copy of that many, not of the operand)


def refuse_lost(precision, mode, name, given, stored, scale):
    """A UsageError where ``precision`` does not keep what the caller gave in operand ``name``:
    ``stored`` (its codes) read back × ``scale`` is what the kernel multiplies. Integer inputs
    (mode "int": a bit-exact check) must be whole numbers the format holds exactly — int8's
    [-128, 127], fp16's up to 2048, FP8's small ones; normal inputs are rounded as the format
    rounds (int8's scaled to fit: normal_scale), but a finite value that overflows to infinity is
    refused. NaN and infinity are quantized_inputs' to judge."""
    rows = max(1, LOST_ROWS // max(1, given.shape[1]))
    for r0 in range(0, given.shape[0], rows):
        v = given[r0:r0 + rows]
        kept = precision.to_f64(stored[r0:r0 + rows]) * scale
        finite = np.isfinite(v)
        lost = finite & ((v != np.rint(v)) | (kept != v)) if mode == "int" else finite & ~np.isfinite(kept)
        if lost.any():
            i, j = (int(t) for t in np.argwhere(lost)[0])
            at, value, became = f"{name}[{r0 + i}, {j}]", float(v[i, j]), float(kept[i, j])
            if mode == "int":
                raise UsageError(f"{precision.label}: {at} is {value!r}, which it stores as {became!r}: integer "
                                 "inputs (the bit-exact check) must be whole numbers the precision holds exactly; "
                                 "pass such values, or mode \"normal\" to have them rounded (int8's scaled to fit "
                                 "first) and checked to a tolerance")
            raise UsageError(f"{precision.label}: {at} is {value!r}, past the largest finite value it stores (it "
                             f"would become {became!r}); scale the inputs, or use a precision of wider range "
                             "(fp16 reaches 65504; bf16, tf32 and fp32 3.4e38; fp64 1.8e308)")


def host_problem(precision, base_a, base_b, mode):
    """The problem with its float64 reference computed on the CPU."""
    a, b, sa, sb = quantized_inputs(precision, base_a, base_b, mode)
    a64, b64 = precision.to_f64(a) * sa, precision.to_f64(b) * sb
    return HostProblem(precision, mode, a, b, a64 @ b64, np.abs(a64) @ np.abs(b64), scale_a=sa, scale_b=sb)


# -- verification ---------------------------------------------------------------------------------

INT32_POISON = np.int32(np.iinfo(np.int32).min)


@dataclass
class Verdict:
    passed: bool
    max_abs_err: float
    max_rel_err: float    # max |C - ref| / (|A||B|) over elements
    norm_rel_err: float   # ||C - ref||_F / ||ref||_F
    tolerance: float
    bad: int              # elements over the bound
    unwritten: int        # elements still holding the poison / NaN
    padding_dirty: int    # elements of the zero padding that are not exactly zero


VERIFY_CHUNK = 1 << 22   # elements compared at a time: the float64 temporaries stay ~200 MB


def verify(c_padded, hp: HostProblem, padding_must_be_zero=True):
    """Check a kernel's (possibly padded) output against the reference, element by element, a
    block of rows at a time so that host memory does not grow with the problem's temporaries."""
    m, n = hp.ref.shape
    tol = hp.tolerance()
    rows = max(1, VERIFY_CHUNK // max(1, n))
    bad = unwritten = 0
    max_abs = max_rel = diff_sq = ref_sq = 0.0
    for r0 in range(0, m, rows):
        c = c_padded[r0:min(m, r0 + rows), :n]
        ref, abs_ref = hp.ref[r0:r0 + rows], hp.abs_ref[r0:r0 + rows]
        c64 = hp.precision.out_to_f64(c)
        if c.dtype == np.int32:
            unwritten_mask = c == INT32_POISON
        else:
            # NaN is the poison; a NaN where the reference is finite is never right either way.
            unwritten_mask = np.isnan(c64) & np.isfinite(ref)
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            # Equal values (the same infinity, or NaN where the reference is NaN: inputs' NaN and
            # Inf must propagate) count as exact; anything else is measured against the bound.
            same = (c64 == ref) | (np.isnan(c64) & np.isnan(ref))
            err = np.where(same, 0.0, np.abs(c64 - ref))
            err = np.where(np.isnan(err), np.inf, err)
            bad += int(np.count_nonzero(~(same | (err <= tol * abs_ref))))
            rel = np.where(err == 0, 0.0, err / abs_ref)
            finite = np.isfinite(ref)
            diff = np.where(finite, c64 - ref, 0.0)
            diff_sq += float(np.sum(diff * diff))
            ref_sq += float(np.sum(np.where(finite, ref, 0.0) ** 2))
            max_abs = max(max_abs, float(err.max(initial=0.0)))
            max_rel = max(max_rel, float(np.nan_to_num(rel, nan=np.inf).max(initial=0.0)))
        unwritten += int(np.count_nonzero(unwritten_mask))
    norm_rel = math.sqrt(diff_sq / ref_sq) if ref_sq else math.sqrt(diff_sq)
    padding_dirty = 0
    if padding_must_be_zero and c_padded.shape != (m, n):
        padding_dirty = _dirty_padding(c_padded, hp)
    return Verdict(
        passed=bad == 0 and unwritten == 0 and padding_dirty == 0,
        max_abs_err=max_abs, max_rel_err=max_rel, norm_rel_err=norm_rel,
        tolerance=tol, bad=bad, unwritten=unwritten, padding_dirty=padding_dirty,
    )


def _dirty_padding(c_padded, hp):
    """Elements of C's zero padding that are not what zero rows/columns of A and B give: 0, or
    NaN where the padding meets an Inf/NaN column of B (0 × Inf) or row of A."""
    m, n = hp.ref.shape
    pad = np.ones(c_padded.shape, dtype=bool)
    pad[:m, :n] = False
    values = hp.precision.out_to_f64(c_padded)
    allowed_nan = np.zeros(c_padded.shape, dtype=bool)
    if not np.isfinite(hp.ref).all():
        b_cols = ~np.isfinite(hp.precision.to_f64(hp.b)).all(axis=0)   # length n (codes' values: scales are finite)
        a_rows = ~np.isfinite(hp.precision.to_f64(hp.a)).all(axis=1)   # length m
        allowed_nan[m:, :n] = b_cols[None, :]
        allowed_nan[:m, n:] = a_rows[:, None]
    ok = (values == 0) | (np.isnan(values) & allowed_nan)
    return int(np.count_nonzero(pad & ~ok))
