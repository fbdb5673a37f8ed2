"""The kernel registry: one entry per kernel in cuda_src/, with its launch geometry beside it.

A kernel here is (source file, entry symbol, -D macros, precision, minimum arch, the tile the
problem is padded to, and a function from the padded (M, N, K) to grid/block/shared memory).
Every kernel takes (A, B, C, M, N, K) with row-major A (M×K), B (K×N), C (M×N).
"""

from dataclasses import dataclass
from typing import Callable

from .errors import UsageError
from .precision import FAMILIES, PRECISIONS, Precision


def cdiv(a, b):
    return -(-a // b)


@dataclass(frozen=True)
class Geometry:
    grid: tuple
    block: tuple
    smem_bytes: int = 0


@dataclass(frozen=True)
class Kernel:
    name: str
    source: str
    entry: str
    precision: Precision
    min_arch: int
    tile: tuple               # (m, n, k) the problem is zero-padded up to a multiple of
    geometry: Callable        # (m, n, k) padded -> Geometry
    defines: tuple = ()
    summary: str = ""
    align: int = 4            # bytes every operand pointer must be aligned to (WMMA loads: 32)

    def padded(self, m, n, k):
        tm, tn, tk = self.tile
        return cdiv(m, tm) * tm, cdiv(n, tn) * tn, cdiv(k, tk) * tk


# -- 01: one thread per C element ----------------------------------------------------------------

def naive_fp32_geometry(m, n, k):
    # 16×16 threads, x along a row of C: a warp reads 32 consecutive B elements per k.
    return Geometry(grid=(cdiv(n, 16), cdiv(m, 16), 1), block=(16, 16, 1))


# -- 02: one warp per fragment tile ---------------------------------------------------------------

def wmma_naive_geometry(fm, fn):
    def geometry(m, n, k):
        # The seed's block: 128×4 threads = 4×4 warps, one fm×fn C tile each → a 4fm×4fn block tile.
        return Geometry(grid=(cdiv(m, 4 * fm), cdiv(n, 4 * fn), 1), block=(128, 4, 1))
    return geometry


def _wmma_naive(key, macro, min_arch, frag):
    fm, fn, fk = frag
    p = PRECISIONS[key]
    return Kernel(
        name=f"wmma_{key}", source="02_wmma_naive.cu", entry=f"wmma_naive_{macro.lower()}",
        precision=p, min_arch=min_arch, tile=frag, geometry=wmma_naive_geometry(fm, fn),
        defines=(f"TCRAW_WMMA_{macro}",), align=32,  # load/store_matrix_sync need 256-bit alignment
        summary=f"WMMA {fm}×{fn}×{fk}, one warp per tile, operands from global memory",
    )


KERNELS = {k.name: k for k in [
    Kernel("naive_fp32", "01_naive_fp32.cu", "naive_fp32", PRECISIONS["fp32"], 50, (1, 1, 1),
           naive_fp32_geometry, summary="one thread per C element, scalar FP32 FMAs"),
    _wmma_naive("fp16", "FP16_FP32", 70, (16, 16, 16)),
    _wmma_naive("fp16acc16", "FP16_FP16", 70, (16, 16, 16)),
    _wmma_naive("bf16", "BF16_FP32", 80, (16, 16, 16)),
    _wmma_naive("tf32", "TF32_FP32", 80, (16, 16, 8)),
    _wmma_naive("int8", "INT8_INT32", 72, (16, 16, 16)),
    _wmma_naive("fp64", "FP64_FP64", 80, (8, 8, 4)),
]}

# What `tcraw run` does with no kernel or precision named: the seed's comparison.
DEFAULT_KERNELS = ("naive_fp32", "wmma_fp16")
BASELINE = "naive_fp32"


def get_kernel(name):
    try:
        return KERNELS[name]
    except KeyError:
        raise UsageError(f"unknown kernel {name!r}; known kernels: {', '.join(KERNELS)}") from None


def select(names=None, precisions=None):
    """Kernels by name and/or precision family ('all' for every family), registry order."""
    if names:
        chosen = [get_kernel(n) for n in names]
    elif precisions:
        fams = FAMILIES if "all" in precisions else precisions
        for f in fams:
            if f not in FAMILIES:
                raise UsageError(f"unknown precision {f!r}; choose from: {', '.join(FAMILIES)}, all")
        chosen = [k for k in KERNELS.values() if k.precision.family in fams]
        if BASELINE not in [k.name for k in chosen]:
            chosen.insert(0, KERNELS[BASELINE])  # speedups are against the FP32 baseline
    else:
        chosen = [KERNELS[n] for n in DEFAULT_KERNELS]
    return chosen
