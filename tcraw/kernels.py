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

    def below_min_arch(self, cc, what):
        """The ArchError for running/compiling this kernel on ``what`` (compute capability cc),
        or None when cc meets the kernel's minimum."""
        from .errors import ArchError
        if cc >= self.min_arch:
            return None
        return ArchError(f"kernel {self.name} needs sm_{self.min_arch} or newer; {what} is below it")

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


# -- 03: shared-memory blocking + register tiling on the CUDA cores ---------------------------------

SIMT_TILE = {"BM": 128, "BN": 128, "BK": 8, "TM": 8, "TN": 8}


def tiled_simt_geometry(m, n, k):
    t = SIMT_TILE
    # one thread per TM×TN patch of the block's BM×BN tile: 16×16 = 256 threads
    return Geometry(grid=(cdiv(n, t["BN"]), cdiv(m, t["BM"]), 1),
                    block=((t["BM"] // t["TM"]) * (t["BN"] // t["TN"]), 1, 1))


# -- 04: WMMA fed from shared memory by a cp.async pipeline ---------------------------------------

PIPE_TILE = {"BM": 128, "BN": 128, "BK": 32, "WARPS_M": 2, "WARPS_N": 4, "STAGES": 4}


def wmma_pipelined_geometry(m, n, k):
    t = PIPE_TILE
    pad = 8  # halves added to each shared-memory row against bank conflicts (see the .cu)
    stage_halves = t["BM"] * (t["BK"] + pad) + t["BK"] * (t["BN"] + pad)
    return Geometry(grid=(cdiv(n, t["BN"]), cdiv(m, t["BM"]), 1),
                    block=(32 * t["WARPS_M"] * t["WARPS_N"], 1, 1),
                    smem_bytes=t["STAGES"] * stage_halves * 2)


def _defines(tile):
    return tuple(f"{k}={v}" for k, v in tile.items())


def _wmma_pipelined(key):
    t = PIPE_TILE
    return Kernel(
        name=f"wmma_pipelined_{key}", source="04_wmma_smem_cp_async.cu",
        entry=f"wmma_pipelined_{key}", precision=PRECISIONS[key], min_arch=80,
        tile=(t["BM"], t["BN"], t["BK"]), geometry=wmma_pipelined_geometry, defines=_defines(t),
        align=16, summary=f"WMMA, {t['BM']}×{t['BN']}×{t['BK']} block tiles in shared memory, "
                          f"{t['STAGES']}-stage cp.async pipeline")


KERNELS = {k.name: k for k in [
    Kernel("naive_fp32", "01_naive_fp32.cu", "naive_fp32", PRECISIONS["fp32"], 50, (1, 1, 1),
           naive_fp32_geometry, summary="one thread per C element, scalar FP32 FMAs"),
    _wmma_naive("fp16", "FP16_FP32", 70, (16, 16, 16)),
    _wmma_naive("fp16acc16", "FP16_FP16", 70, (16, 16, 16)),
    _wmma_naive("bf16", "BF16_FP32", 80, (16, 16, 16)),
    _wmma_naive("tf32", "TF32_FP32", 80, (16, 16, 8)),
    _wmma_naive("int8", "INT8_INT32", 72, (16, 16, 16)),
    _wmma_naive("fp64", "FP64_FP64", 80, (8, 8, 4)),
    Kernel("tiled_simt_fp32", "03_tiled_simt_fp32.cu", "tiled_simt_fp32", PRECISIONS["fp32"], 50,
           (SIMT_TILE["BM"], SIMT_TILE["BN"], SIMT_TILE["BK"]), tiled_simt_geometry,
           defines=_defines(SIMT_TILE), align=16,
           summary="shared-memory blocks, 8×8 register tiles, float4 loads, double buffering"),
    _wmma_pipelined("fp16"),
    _wmma_pipelined("bf16"),
]}

# The device reference (00): one entry per input storage type, fp64 accumulate.
REFERENCE = Kernel("reference_fp64", "00_reference_fp64.cu", "reference_fp32", PRECISIONS["fp64"], 50,
                   (1, 1, 1), naive_fp32_geometry, summary="fp64 dot products and |A||B| on the GPU")
REFERENCE_ENTRIES = {"fp32": "reference_fp32", "tf32": "reference_fp32", "fp16": "reference_fp16",
                     "fp16acc16": "reference_fp16", "bf16": "reference_bf16", "int8": "reference_int8",
                     "fp64": "reference_fp64"}

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
