"""06's pick with and without wgmma_swaps_to_fit (swapped tiles whose M side fits M) side by side
with cuBLAS, in one process, on the same buffers — each shape timed under both pickers.

    python scripts/swap_fit_study.py --shapes scripts/shapes/swap_fit_fresh.txt --precision bf16
"""

import argparse
import dataclasses
import secrets
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tcraw import kernels, report  # noqa: E402
from tcraw.bench import bench_vs_cublas, parse_shapes, suite_summary  # noqa: E402
from tcraw.errors import UsageError, run_main  # noqa: E402


def picker_without_fit(elem_bytes):
    """wgmma_config as it was before wgmma_swaps_to_fit: the rule held off for the call."""
    def pick(m, n, k, sms):
        rule, kernels.wgmma_swaps_to_fit = kernels.wgmma_swaps_to_fit, lambda *args: None
        try:
            return kernels.wgmma_config(m, n, k, sms, elem_bytes)
        finally:
            kernels.wgmma_swaps_to_fit = rule
    return pick


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shapes", required=True, help="shape suites or a file of M N K lines (see tcraw bench)")
    ap.add_argument("--precision", default="fp16", choices=("fp16", "bf16"))
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--seed", type=int, default=secrets.randbits(31))
    args = ap.parse_args()
    if args.iters < 1:
        raise UsageError(f"--iters {args.iters}: must be at least 1")
    now = kernels.wgmma_kernel(args.precision)
    before = dataclasses.replace(now, name=f"{now.name}[before]", pick=picker_without_fit(2))
    rows = bench_vs_cublas(0, [args.precision], parse_shapes(args.shapes), rungs={args.precision: [before, now]},
                           iters=args.iters, warmup=5, seed=args.seed, note=lambda line: print(line, file=sys.stderr))
    print(report.render([{**r, "shape": f"{r['m']}×{r['n']}×{r['k']}"} for r in rows], "table", report.BENCH_COLUMNS))
    print(report.render(suite_summary(rows), "table", report.SUITE_COLUMNS))
    if rows:
        print(f"\n{rows[0]['device']} ({rows[0]['arch']}), seed {args.seed}, median of {args.iters} launches")


if __name__ == "__main__":
    run_main("swap_fit_study", main)
