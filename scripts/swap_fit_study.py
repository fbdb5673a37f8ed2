"""06's pick with and without wgmma_swaps_to_fit (swapped tiles whose M side fits M) side by side
with cuBLAS, in one process, on the same buffers — each shape timed under both pickers. With
--fits, the pick beside swapped tiles fitted to each shape's M — BN the least width that covers
M in 2 or 3 tiles — in clusters of 1, 2 and 4 along N (sharing A's rows).

    python scripts/swap_fit_study.py --shapes scripts/shapes/swap_fit_fresh.txt --precision bf16
    python scripts/swap_fit_study.py --shapes scripts/shapes/swap_clusters.txt --fits
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


def fitted(tiles, cluster):
    """A picker of swapped tiles that cover M in ``tiles`` tiles, in clusters of ``cluster`` along
    N: BN the least multiple of 16 (of 8 × CLUSTER: each block copies whole 8-row atoms of A's
    rows for the cluster) that does (main refuses M past 512: BN is at most 256, the wgmma's n)."""
    step = kernels.wgmma_swap_step(cluster)

    def pick(m, n, k, sms):
        bn = step * kernels.cdiv(m, step * tiles)
        return {"SWAP_AB": 1, "CONSUMERS": 2, "BN": bn, "CLUSTER": cluster,
                "STAGES": kernels.wgmma_max_stages(2, bn, swap=True)}
    return pick


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shapes", required=True, help="shape suites or a file of M N K lines (see tcraw bench)")
    ap.add_argument("--precision", default="fp16", choices=("fp16", "bf16"))
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--seed", type=int, default=secrets.randbits(31))
    ap.add_argument("--fits", action="store_true",
                    help="the pick beside swapped tiles fitting M in 2 and 3 tiles, in clusters of 1, 2 and 4")
    args = ap.parse_args()
    if args.iters < 1:
        raise UsageError(f"--iters {args.iters}: must be at least 1")
    shapes = parse_shapes(args.shapes)
    if args.fits and (wide := next((shape for _, shape in shapes if shape[0] > 2 * 256), None)):
        raise UsageError(f"--fits covers M in 2 and in 3 tiles of at most 256 rows (the wgmma's n): M up to 512, "
                         f"not {wide[0]} ({'×'.join(map(str, wide))}); give shapes of M ≤ 512")
    now = kernels.wgmma_kernel(args.precision)
    if args.fits:
        rung = [now] + [dataclasses.replace(now, name=f"{now.name}[fit{t}-cl{c}]", pick=fitted(t, c))
                        for t in (2, 3) for c in (1, 2, 4)]
    else:
        rung = [dataclasses.replace(now, name=f"{now.name}[before]", pick=picker_without_fit(2)), now]
    rows = bench_vs_cublas(0, [args.precision], shapes, rungs={args.precision: rung},
                           iters=args.iters, warmup=5, seed=args.seed, note=lambda line: print(line, file=sys.stderr))
    print(report.render([{**r, "shape": f"{r['m']}×{r['n']}×{r['k']}"} for r in rows], "table", report.BENCH_COLUMNS))
    print(report.render(suite_summary(rows), "table", report.SUITE_COLUMNS))
    if rows:
        print(f"\n{rows[0]['device']} ({rows[0]['arch']}), seed {args.seed}, median of {args.iters} launches")


if __name__ == "__main__":
    run_main("swap_fit_study", main)
