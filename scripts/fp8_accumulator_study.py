"""The FP8 accumulator study: how many bits Hopper's FP8 tensor cores keep while they add, and
what promoting partial sums into fp32 registers buys.

For K = 256 … 16384 (M = N = --mn, random normal inputs quantized to e4m3 with amax scales), the
error against the float64 reference of the same quantized values of: 07's FP8 form accumulating
in the tensor core for the whole of K; the same with promotion every slice (128 of K: the MMAs'
sums added into fp32 registers and restarted, as DeepGEMM does) and every 4 slices; and
cuBLASLt, in its default mode and with CUBLASLT_MATMUL_DESC_FAST_ACCUM. `bits` is the accumulator precision the error implies under the truncation model
tcraw's error bounds use (max |C - ref| / (|A||B|) ≤ (⌈K/32⌉ + 1)·2^-bits): a lower bound on the
bits kept. An fp32 accumulator implies about 23.

    python scripts/fp8_accumulator_study.py [--mn 128] [--seed S] [--format table|csv|json]
"""

import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tcraw import kernels, report                     # noqa: E402
from tcraw.errors import run_main                     # noqa: E402
from tcraw.matmul import run_cublaslt, run_matmul     # noqa: E402
from tcraw.precision import PRECISIONS, base_matrices, host_problem   # noqa: E402
from tcraw.runtime import Device                      # noqa: E402
from accumulator_study import KS, study_args          # noqa: E402  (beside this script: the same arguments)

# name -> the 07 configuration: 128-column tiles (promotion doubles the accumulators) and no
# split-K or stream-K — their pieces' fp32 sum would itself promote every K/pieces and hide the accumulator
ONE_PIECE = {"BN": 128, "STAGES": 6, "CLUSTER": 1, "SPLIT_K": 0, "STREAM_K": 0}
VARIANTS = {
    "tensor core only": ONE_PIECE,
    "promote every 128": {**ONE_PIECE, "PROMOTE": 1},
    "promote every 512": {**ONE_PIECE, "PROMOTE": 4},
}


def implied_bits(max_rel_err, k):
    """The accumulator bits the error implies under the truncation model (None when exact)."""
    if max_rel_err <= 0:
        return None
    return -math.log2(max_rel_err / (math.ceil(k / 32) + 1))


def main():
    args, seed = study_args(__doc__)
    p = PRECISIONS["fp8e4m3"]
    variants = {name: kernels.wgmma_kernel("fp8e4m3", tile, name=f"fp8e4m3[{name.replace(' ', '-')}]", choose=False)
                for name, tile in VARIANTS.items()}
    rows = []
    with Device(0) as dev:
        from tcraw.driver.cublaslt import CublasLt
        lt = CublasLt()
        try:
            for k in KS:
                a, b = base_matrices(args.mn, args.mn, k, "normal", seed + k)
                hp = host_problem(p, a, b, "normal")
                runs = {name: run_matmul(dev, kern, hp, iters=1, warmup=0) for name, kern in variants.items()}
                runs["cuBLASLt"] = run_cublaslt(dev, lt, p, hp, iters=1, warmup=0)
                runs["cuBLASLt FAST_ACCUM"] = run_cublaslt(dev, lt, p, hp, iters=1, warmup=0, fast_accum=True)
                for name, rec in runs.items():
                    rows.append({"k": k, "kernel": name, "norm_rel_err": rec.norm_rel_err,
                                 "max_rel_err": rec.max_rel_err, "bits": implied_bits(rec.max_rel_err, k),
                                 "within_tcraw_bound": rec.passed})
        finally:
            lt.close()
    print(report.render(rows, args.format))
    if args.format == "table":
        print(f"\n{dev.name}, M = N = {args.mn}, random normal inputs as e4m3 with amax scales, seed {seed}; "
              "norm err = ||C - ref||_F / ||ref||_F; bits: see the script's docstring")


if __name__ == "__main__":
    run_main("fp8_accumulator_study", main)   # tcraw's own errors: one line, and the exit code each one carries
