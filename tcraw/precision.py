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

from .errors import UsageError

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
    family: str              # what --precision selects: fp32 fp16 bf16 tf32 int8 fp64
    label: str               # "fp16→fp32"
    in_dtype: np.dtype       # host/device storage of A and B
    out_dtype: np.dtype      # storage of C
    quantize: Callable       # float64 -> storage
    to_f64: Callable         # storage -> float64 (the values the kernel multiplies)
    acc_unit: float          # rounding unit of one accumulation step (0: exact, int32)
    block: int               # products per accumulation step
    acc_exact_bits: int      # integers below 2^bits are exact in the accumulator
    tensor_core: bool = True
    normal_scale: float = 1.0  # int8 draws normal values ×32 so they use the int8 range
    # dense FLOP (or int op) per clock per SM, by compute capability (docs/facts.md); None: unknown
    flops_per_clk_sm: dict = field(default_factory=dict)

    def tolerance(self, k, integer_inputs, abs_ref_max):
        """The allowed max of |C - ref| / (|A||B|), elementwise, for a K-long dot product."""
        if integer_inputs and abs_ref_max < 2.0 ** self.acc_exact_bits:
            return 0.0
        steps = math.ceil(k / self.block) + 1
        return 2.0 * steps * self.acc_unit


PRECISIONS = {p.key: p for p in [
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
]}

FAMILIES = ("fp32", "fp16", "bf16", "tf32", "int8", "fp64")


# -- inputs and reference -------------------------------------------------------------------------

def base_matrices(m, n, k, mode, seed):
    """The float64 A (m×k) and B (k×n) every precision quantizes: normal, or integers in [-4, 4]."""
    if mode not in INPUT_MODES:
        raise UsageError(f"unknown input mode {mode!r}; choose one of: {', '.join(INPUT_MODES)}")
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

    @property
    def m(self): return self.a.shape[0]
    @property
    def k(self): return self.a.shape[1]
    @property
    def n(self): return self.b.shape[1]

    def tolerance(self):
        return self.precision.tolerance(self.k, self.mode == "int", float(self.abs_ref.max(initial=0.0)))


def quantized_inputs(precision, base_a, base_b, mode):
    """A and B as the kernel stores them (normal inputs scaled for int8's range)."""
    scale = 1.0 if mode == "int" else precision.normal_scale
    return precision.quantize(base_a * scale), precision.quantize(base_b * scale)


def host_problem(precision, base_a, base_b, mode):
    """The problem with its float64 reference computed on the CPU."""
    a, b = quantized_inputs(precision, base_a, base_b, mode)
    a64, b64 = precision.to_f64(a), precision.to_f64(b)
    return HostProblem(precision, mode, a, b, a64 @ b64, np.abs(a64) @ np.abs(b64))


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
        if np.issubdtype(c.dtype, np.integer):
            unwritten_mask = c == INT32_POISON
        else:
            # NaN is the poison; a NaN where the reference is finite is never right either way.
            unwritten_mask = np.isnan(c.astype(np.float64)) & np.isfinite(ref)
        c64 = c.astype(np.float64)
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
    values = c_padded.astype(np.float64)
    allowed_nan = np.zeros(c_padded.shape, dtype=bool)
    if not np.isfinite(hp.ref).all():
        b_cols = ~np.isfinite(hp.precision.to_f64(hp.b)).all(axis=0)   # length n
        a_rows = ~np.isfinite(hp.precision.to_f64(hp.a)).all(axis=1)   # length m
        allowed_nan[m:, :n] = b_cols[None, :]
        allowed_nan[:m, n:] = a_rows[:, None]
    ok = (values == 0) | (np.isnan(values) & allowed_nan)
    return int(np.count_nonzero(pad & ~ok))
