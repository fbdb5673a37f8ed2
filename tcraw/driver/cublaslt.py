"""cuBLASLt through ctypes: the yardstick for FP8 and INT8, called on tcraw's own device buffers.

cuBLAS's cublasGemmEx has no FP8 and no per-tensor scales; cuBLASLt has both, and wants FP8 (and
is fastest for INT8) as "TN": both operands K-contiguous. tcraw's A is row-major M×K and a K-major
B is stored N×K, so in cuBLASLt's column-major terms C = A·B is asked for as Cᵀ = op(B)·Aᵀ with
op = transpose: the same memory, nothing copied. The scales are device pointers, A's and B's, each
in an allocation of its own (two floats of one buffer were refused: NOT_SUPPORTED, on the H200);
D = scale_a·scale_b·(A·B). FP8 has two modes: cuBLASLt's default adds partial sums into fp32 now
and then; FAST_ACCUM keeps them in the tensor cores' accumulator, as 07 does. Found like cuBLAS (cuda-pathfinder,
then CUDA_HOME / CUDA_PATH / /usr/local/cuda, then the system's search path). The descriptors
and the algorithm are made once per shape; ``matmul_launcher`` returns a zero-argument callable,
so cuBLASLt is timed by the same loop as every kernel.
"""

import ctypes
from ctypes import byref, c_float, c_int, c_int8, c_int32, c_int64, c_size_t, c_uint64, c_void_p

from ..errors import CudaError, UsageError
from .cublas import (COMPUTE_32F, COMPUTE_32I, OP_N, OP_T, R_8I, R_16BF, R_32F, R_32I, check_status,
                     open_library)

# cudaDataType_t, cublasComputeType_t beyond cublas.py's (library_types.h)
R_8F_E4M3 = 28
# cublasLtMatmulDescAttributes_t, cublasLtMatmulPreferenceAttributes_t (cublasLt.h)
DESC_TRANSA, DESC_TRANSB, DESC_A_SCALE_POINTER, DESC_B_SCALE_POINTER, DESC_FAST_ACCUM = 3, 4, 17, 18, 25
PREF_MAX_WORKSPACE_BYTES = 1
WORKSPACE_BYTES = 32 << 20   # what the heuristic may ask for (cuBLAS's own default on Hopper)

# precision key -> (A/B type, C/D type, compute type, scale type, its ctypes scalar, takes scales)
LT_TYPES = {
    "fp8e4m3": (R_8F_E4M3, R_32F, COMPUTE_32F, R_32F, c_float, True),
    "fp8e4m3bf16": (R_8F_E4M3, R_16BF, COMPUTE_32F, R_32F, c_float, True),
    "int8": (R_8I, R_32I, COMPUTE_32I, R_32I, c_int32, False),
}
# What cuBLASLt has no matmul for (its FP8 type table pairs E5M2 only with E4M3; the heuristic
# answers NOT_SUPPORTED, measured on the H200): said instead of a yardstick row.
LT_NONE = {"fp8e5m2": "cuBLASLt has no E5M2×E5M2 matmul (its FP8 table pairs E5M2 only with E4M3)"}


class HeuristicResult(ctypes.Structure):
    """cublasLtMatmulHeuristicResult_t: the algorithm (64 opaque bytes) and what it needs."""
    _fields_ = [("algo", c_uint64 * 8), ("workspaceSize", c_size_t), ("state", c_int),
                ("wavesCount", c_float), ("reserved", c_int * 4)]



class CublasLt:
    """A cuBLASLt handle on the current context."""

    def __init__(self):
        self.path, self.lib = open_library("cublasLt", "cuBLASLt")
        self.handle, self._made, self._plans = c_void_p(), [], {}
        self._check("cublasLtCreate", self.lib.cublasLtCreate(byref(self.handle)))
        self.version = int(self.lib.cublasLtGetVersion()) if hasattr(self.lib, "cublasLtGetVersion") else None

    def _check(self, call, status):
        check_status(call, status)

    def _make(self, create, destroy, *args):
        handle = c_void_p()
        self._check(create, getattr(self.lib, create)(byref(handle), *args))
        self._made.append((destroy, handle))
        return handle

    def _set(self, call, obj, attr, value):
        self._check(call, getattr(self.lib, call)(obj, c_int(attr), byref(value), c_size_t(ctypes.sizeof(value))))

    def matmul_launcher(self, precision_key, d_a, d_b, d_c, m, n, k, *, workspace, scales=None, fast_accum=False):
        """Row-major C[m×n] = A[m×k]·B[k×n] with B stored N×K (K-major), as one cublasLtMatmul:
        ``scales`` (FP8) is the device addresses of A's and B's float32 scale; ``workspace`` a device
        buffer of at least WORKSPACE_BYTES. The algorithm is cuBLASLt's own heuristic's first.
        ``fast_accum`` (FP8): the products stay in the tensor cores' own accumulator for the whole
        K, as 07 without PROMOTE; cuBLASLt's default adds partial sums into fp32 now and then."""
        if precision_key not in LT_TYPES:
            raise UsageError(LT_NONE.get(precision_key)
                             or f"the cuBLASLt yardstick covers {', '.join(LT_TYPES)}, not {precision_key}")
        *_, scalar, scaled = LT_TYPES[precision_key]
        if scaled and not scales:
            raise UsageError(f"cuBLASLt {precision_key} needs A's and B's scales: pass scales=(a, b), their device addresses")
        if fast_accum and not scaled:
            raise UsageError(f"fast accumulation is an FP8 mode of cuBLASLt, not one of {precision_key}")
        desc, lay_a, lay_b, lay_d, found = self._plan(precision_key, m, n, k, scales, fast_accum)
        if workspace.nbytes < found.workspaceSize:
            raise UsageError(f"cuBLASLt wants a {found.workspaceSize}-byte workspace, got {workspace.nbytes}")
        one, zero = scalar(1), scalar(0)
        matmul, args = self.lib.cublasLtMatmul, (
            self.handle, desc, byref(one), c_void_p(d_b), lay_a, c_void_p(d_a), lay_b, byref(zero),
            c_void_p(d_c), lay_d, c_void_p(d_c), lay_d, byref(found, HeuristicResult.algo.offset),
            c_void_p(workspace.ptr), c_size_t(workspace.nbytes), c_void_p(0))
        keep = (one, zero, found)

        def go():
            status = matmul(*args)
            if status:
                self._check("cublasLtMatmul", status)
            return keep  # holds alpha/beta and the algorithm alive as long as the launcher
        return go

    def _plan(self, precision_key, m, n, k, scales, fast_accum):
        """The descriptors, layouts and algorithm of one problem, made once (every input set of
        a rotation, and every launch, shares them) and destroyed by release_plans() or close()."""
        key = (precision_key, m, n, k, scales, fast_accum)
        if key in self._plans:
            return self._plans[key]
        ab, cd, compute, scale_type, _, scaled = LT_TYPES[precision_key]
        desc = self._make("cublasLtMatmulDescCreate", "cublasLtMatmulDescDestroy", c_int(compute), c_int(scale_type))
        self._set("cublasLtMatmulDescSetAttribute", desc, DESC_TRANSA, c_int32(OP_T))
        self._set("cublasLtMatmulDescSetAttribute", desc, DESC_TRANSB, c_int32(OP_N))
        if scaled:
            scale_a, scale_b = scales
            self._set("cublasLtMatmulDescSetAttribute", desc, DESC_A_SCALE_POINTER, c_void_p(scale_b))  # Lt's A: our B
            self._set("cublasLtMatmulDescSetAttribute", desc, DESC_B_SCALE_POINTER, c_void_p(scale_a))  # Lt's B: our A
            self._set("cublasLtMatmulDescSetAttribute", desc, DESC_FAST_ACCUM, c_int8(int(fast_accum)))

        def layout(dtype, rows, cols, ld):
            return self._make("cublasLtMatrixLayoutCreate", "cublasLtMatrixLayoutDestroy", c_int(dtype),
                              c_uint64(rows), c_uint64(cols), c_int64(ld))
        # column-major: Lt's A = our B (k×n, ld k, transposed), Lt's B = our A (k×m, ld k), D = Cᵀ (n×m)
        lay_a, lay_b, lay_d = layout(ab, k, n, k), layout(ab, k, m, k), layout(cd, n, m, n)
        pref = self._make("cublasLtMatmulPreferenceCreate", "cublasLtMatmulPreferenceDestroy")
        self._set("cublasLtMatmulPreferenceSetAttribute", pref, PREF_MAX_WORKSPACE_BYTES, c_uint64(WORKSPACE_BYTES))
        found, count = HeuristicResult(), c_int(0)
        self._check("cublasLtMatmulAlgoGetHeuristic", self.lib.cublasLtMatmulAlgoGetHeuristic(
            self.handle, desc, lay_a, lay_b, lay_d, lay_d, pref, c_int(1), byref(found), byref(count)))
        if count.value < 1:
            raise CudaError("cublasLtMatmulAlgoGetHeuristic", "no algorithm for this problem", 15)
        self._plans[key] = plan = (desc, lay_a, lay_b, lay_d, found)
        return plan

    def release_plans(self):
        """Destroy every descriptor, layout and preference made so far (the handle stays): what a
        caller done with its problems does (run_cublaslt, at its end), so none pile up."""
        for destroy, handle in reversed(self._made):
            getattr(self.lib, destroy)(handle)
        self._made, self._plans = [], {}

    def close(self):
        self.release_plans()
        if self.handle:
            self.lib.cublasLtDestroy(self.handle)
            self.handle = None


__all__ = ["CublasLt", "LT_NONE", "LT_TYPES", "WORKSPACE_BYTES"]
