"""The accumulator study: fp16 accumulation against fp32 accumulation on the same fp16 inputs.

The seeds' warning in numbers: as K grows, an fp16 running sum gets large enough that each new
product falls partly below its last bit. Prints, for K = 256 … 16384, the error of both WMMA
kernels against the float64 reference of the same rounded inputs.

    python scripts/accumulator_study.py [--mn 128] [--seed S] [--format table|csv|json]
"""

import argparse
import secrets

from tcraw import kernels, report
from tcraw.compiler import compile_cubin
from tcraw.errors import run_main
from tcraw.matmul import run_matmul
from tcraw.precision import PRECISIONS, base_matrices, host_problem
from tcraw.runtime import Device


KS = (256, 512, 1024, 2048, 4096, 8192, 16384)   # the K of each row, in both accumulator studies


def study_args(doc):
    """An accumulator study's --mn, --seed and --format, checked before any GPU work: (args, seed)."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--mn", type=int, default=128, help="M = N")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--format", choices=report.FORMATS, default="table")
    args = ap.parse_args()
    if args.mn < 1:
        ap.error(f"--mn {args.mn}: must be a positive integer")
    if args.seed is not None and args.seed < 0:
        ap.error(f"--seed {args.seed}: must be a non-negative integer")
    return args, (args.seed if args.seed is not None else secrets.randbits(31))


def main():
    args, seed = study_args(__doc__)
    acc32, acc16 = kernels.KERNELS["wmma_fp16"], kernels.KERNELS["wmma_fp16acc16"]
    rows = []
    with Device(0) as dev:
        cubins = {k.name: compile_cubin(k, dev.arch) for k in (acc32, acc16)}
        for k in KS:
            a, b = base_matrices(args.mn, args.mn, k, "normal", seed + k)
            hp = host_problem(PRECISIONS["fp16"], a, b, "normal")
            hp16 = host_problem(PRECISIONS["fp16acc16"], a, b, "normal")  # same values, fp16 output
            r32 = run_matmul(dev, acc32, hp, iters=1, warmup=0, cubin=cubins[acc32.name])
            r16 = run_matmul(dev, acc16, hp16, iters=1, warmup=0, cubin=cubins[acc16.name])
            rows.append({"k": k, "fp32_acc_norm_err": r32.norm_rel_err, "fp16_acc_norm_err": r16.norm_rel_err,
                         "ratio": r16.norm_rel_err / r32.norm_rel_err if r32.norm_rel_err else None,
                         "fp32_acc_max_rel_err": r32.max_rel_err, "fp16_acc_max_rel_err": r16.max_rel_err,
                         "fp16_acc_bound": r16.tolerance, "both_within_bound": r32.passed and r16.passed})
    print(report.render(rows, args.format))
    if args.format == "table":
        print(f"\n{dev.name}, M = N = {args.mn}, random normal fp16 inputs, seed {seed}; "
              "norm err = ||C - ref||_F / ||ref||_F")


if __name__ == "__main__":
    run_main("accumulator_study", main)   # tcraw's own errors: one line, and the exit code each one carries
