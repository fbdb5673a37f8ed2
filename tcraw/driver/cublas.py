"""cuBLAS through ctypes: the yardstick, called on tcraw's own device buffers.

No high-level library: libcublas is found through cuda-pathfinder (the nvidia-cublas wheel), then
CUDA_HOME / CUDA_PATH / /usr/local/cuda, then the system's search path. cublasGemmEx is column-
major; tcraw's matrices are row-major, so C = A·B is asked for as Cᵀ = Bᵀ·Aᵀ: the same memory,
the operands swapped, no transposes.
"""

import ctypes
from ctypes import byref, c_double, c_float, c_int, c_int32, c_void_p

from ..errors import CudaError, NoDeviceError, UsageError
from . import find_library

# cudaDataType_t
R_32F, R_64F, R_16F, R_8I, R_32I, R_16BF = 0, 1, 2, 3, 10, 14
# cublasComputeType_t
COMPUTE_16F, COMPUTE_32F, COMPUTE_32F_PEDANTIC, COMPUTE_64F, COMPUTE_32I, COMPUTE_32F_FAST_TF32 = 64, 68, 69, 70, 72, 77
GEMM_DEFAULT = -1
OP_N, OP_T = 0, 1

# precision key -> (A/B type, C type, compute type, alpha/beta C type)
GEMM_TYPES = {
    "fp32": (R_32F, R_32F, COMPUTE_32F, c_float),   # SGEMM: no TF32 unless the math mode asks for it
    "fp16": (R_16F, R_32F, COMPUTE_32F, c_float),
    "fp16acc16": (R_16F, R_16F, COMPUTE_16F, ctypes.c_uint16),  # alpha/beta as fp16 bits
    "bf16": (R_16BF, R_32F, COMPUTE_32F, c_float),
    "tf32": (R_32F, R_32F, COMPUTE_32F_FAST_TF32, c_float),
    "int8": (R_8I, R_32I, COMPUTE_32I, c_int32),
    "fp64": (R_64F, R_64F, COMPUTE_64F, c_double),
}
FP16_ONE, FP16_ZERO = 0x3C00, 0x0000


def check_status(call, status):
    """A cublasStatus_t (cuBLAS and cuBLASLt share it) that is not success as a CudaError."""
    if status != 0:
        name = "CUBLAS_STATUS_" + {1: "NOT_INITIALIZED", 3: "ALLOC_FAILED", 7: "INVALID_VALUE",
                                   8: "ARCH_MISMATCH", 13: "EXECUTION_FAILED", 14: "INTERNAL_ERROR",
                                   15: "NOT_SUPPORTED"}.get(status, str(status))
        raise CudaError(call, name, status)


def open_library(name, what):
    """(path, CDLL) of libNAME, or NoDeviceError saying ``what`` is missing and how to install it."""
    path = find_library(name)
    try:
        if not path:
            raise OSError(f"lib{name} not found")
        return path, ctypes.CDLL(path)
    except OSError as exc:
        raise NoDeviceError(f"{what} is not available ({exc}); install it with "
                            "`pip install nvidia-cublas` or point CUDA_HOME at a toolkit") from None


def dotted(version):
    """cuBLAS's (and cuBLASLt's) version number, MAJOR · 10000 + MINOR · 100 + PATCH, as "M.m.p"
    (None, a library without the call, as "?")."""
    return "?" if version is None else f"{version // 10000}.{version // 100 % 100}.{version % 100}"


def library_info():
    """(the libcublas a yardstick would time, as "MAJOR.MINOR.PATCH (path)", None) — from
    cublasGetProperty, which needs no handle and no GPU — or (None, why not)."""
    try:
        path, lib = open_library("cublas", "cuBLAS")
        version = []
        for prop in (0, 1, 2):   # libraryPropertyType: MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL
            value = c_int()
            check_status("cublasGetProperty", lib.cublasGetProperty(prop, byref(value)))
            version.append(value.value)
    except (NoDeviceError, CudaError, AttributeError) as exc:   # (AttributeError: a library without the call)
        return None, str(exc)
    return f"{'.'.join(map(str, version))} ({path})", None


class Cublas:
    """A cuBLAS handle on the current context. ``gemm_launcher`` returns a zero-argument callable,
    like the seam's kernel launcher, so cuBLAS is timed by exactly the same loop."""

    def __init__(self):
        self.path, self.lib = open_library("cublas", "cuBLAS")
        self.handle = c_void_p()
        self._check("cublasCreate_v2", self.lib.cublasCreate_v2(byref(self.handle)))
        ver = c_int()
        try:
            self._check("cublasGetVersion_v2", self.lib.cublasGetVersion_v2(self.handle, byref(ver)))
        except BaseException:
            self.lib.cublasDestroy_v2(self.handle)   # (no object to close() it: the handle goes here)
            raise
        self.version = ver.value

    def _check(self, call, status):
        check_status(call, status)

    def gemm_launcher(self, precision_key, d_a, d_b, d_c, m, n, k, b_layout="row"):
        """Row-major C[m×n] = A[m×k]·B[k×n] on device pointers, as one cublasGemmEx call. With
        ``b_layout`` "col", B is stored N×K (K-major): column-major, that memory is B itself (k×n,
        ld k), and cuBLAS is asked for Cᵀ = op(B)·Aᵀ with op = transpose."""
        if precision_key not in GEMM_TYPES:
            raise UsageError(f"cublasGemmEx takes {', '.join(GEMM_TYPES)}, not {precision_key} (FP8: cuBLASLt)")
        ab_type, c_type, compute, scalar = GEMM_TYPES[precision_key]
        one, zero = (scalar(FP16_ONE), scalar(FP16_ZERO)) if precision_key == "fp16acc16" else (scalar(1), scalar(0))
        gemm, handle = self.lib.cublasGemmEx, self.handle
        op_b, ld_b = (OP_T, k) if b_layout == "col" else (OP_N, n)
        args = (handle, c_int(op_b), c_int(OP_N), c_int(n), c_int(m), c_int(k), byref(one),
                c_void_p(d_b), c_int(ab_type), c_int(ld_b), c_void_p(d_a), c_int(ab_type), c_int(k),
                byref(zero), c_void_p(d_c), c_int(c_type), c_int(n), c_int(compute), c_int(GEMM_DEFAULT))
        keep = (one, zero)

        def go():
            status = gemm(*args)
            if status:
                self._check("cublasGemmEx", status)
            return keep  # holds alpha/beta alive as long as the launcher
        return go

    def close(self):
        if self.handle:
            self.lib.cublasDestroy_v2(self.handle)
            self.handle = None
