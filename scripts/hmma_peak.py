"""The HMMA ceiling: cuda_src/probe_hmma_peak.cu's register-only mma.sync and WMMA loops, beside
cuBLAS fp16 (the bench's 4096³ GEMM on random inputs) in the same process.

    python scripts/hmma_peak.py [--iters 4096] [--blocks-per-sm 4]

The WMMA rung (04) and the mma.sync rung (05) issue this instruction; this is how fast it can
go on the GPU at hand when nothing feeds it — what their ratios to cuBLAS are measured against.
"""

import argparse
import statistics
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tcraw import compiler                                                    # noqa: E402
from tcraw.driver.cublas import Cublas                                        # noqa: E402
from tcraw.errors import run_main                                            # noqa: E402
from tcraw.kernels import Geometry                                            # noqa: E402
from tcraw.precision import PRECISIONS                                        # noqa: E402
from tcraw.runtime import DeviceBuffer, Device, KernelArgs, Module, launcher, time_launches  # noqa: E402

PROBES = {"hmma_peak_mma_sync": 8 * 4096,   # FLOP per warp per iteration: 8 × m16n8k16
          "hmma_peak_wmma": 4 * 8192}       # 4 × wmma 16×16×16


def probe_cubin(backend, arch):
    """cuda_src/probe_hmma_peak.cu compiled by NVRTC for ``arch`` (it includes <mma.h>)."""
    source = (compiler.CUDA_SRC / "probe_hmma_peak.cu").read_text()
    options = compiler.build_options(arch, (), compiler.find_include_dirs())
    return compiler.nvrtc_compile(backend, source, "probe_hmma_peak.cu", options)[0]


def cublas_tflops(dev, n, launches):
    """cuBLAS fp16→fp32 at n³ on random fp16 inputs: median TFLOP/s over ``launches``."""
    rng = np.random.default_rng(0)
    a, b = (rng.standard_normal((n, n)).astype(np.float16) for _ in range(2))
    with DeviceBuffer.like(dev, a) as d_a, DeviceBuffer.like(dev, b) as d_b, \
            DeviceBuffer(dev, n * n * 4) as d_c:
        d_a.copy_from_host(a)
        d_b.copy_from_host(b)
        cublas = Cublas()
        try:
            times = time_launches(dev, cublas.gemm_launcher("fp16", d_a.ptr, d_b.ptr, d_c.ptr, n, n, n),
                                  launches, 5)
        finally:
            cublas.close()
    return 2.0 * n ** 3 / (statistics.median(times) * 1e-3) / 1e12


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iters", type=int, default=4096)
    ap.add_argument("--blocks-per-sm", type=int, default=4)
    ap.add_argument("--launches", type=int, default=20)
    args = ap.parse_args()
    for flag in ("iters", "blocks_per_sm", "launches"):
        if not 0 < getattr(args, flag) < 2 ** 31:
            ap.error(f"--{flag.replace('_', '-')} {getattr(args, flag)}: must be a positive integer below 2^31")
    with Device(0) as dev:
        image = probe_cubin(dev.drv, dev.arch)
        geometry = Geometry(grid=(dev.sm_count * args.blocks_per_sm, 1, 1), block=(256, 1, 1))
        warps = geometry.grid[0] * geometry.block[0] // 32
        base = cublas_tflops(dev, 4096, args.launches)
        print(f"{dev.name} ({dev.arch}, {dev.sm_count} SMs): {warps} warps × {args.iters} iterations")
        print(f"{'cublas fp16→fp32 4096³':>28}  {base:7.1f} TFLOP/s")
        with Module(dev, image) as mod, DeviceBuffer(dev, warps * 256 * 4) as out:
            for entry, flop in PROBES.items():
                fn = mod.function(entry)
                keep = KernelArgs([out, np.int32(args.iters)])
                times = time_launches(dev, launcher(fn, geometry, keep), args.launches, 2)
                tflops = warps * args.iters * flop / (statistics.median(times) * 1e-3) / 1e12
                print(f"{entry:>28}  {tflops:7.1f} TFLOP/s  {tflops / base:.3f}× cuBLAS  "
                      f"{100 * tflops / dev.peak_tflops(PRECISIONS['fp16']):.1f} % of peak")


if __name__ == "__main__":
    run_main("hmma_peak", main)   # tcraw's own errors: one line, and the exit code each one carries
