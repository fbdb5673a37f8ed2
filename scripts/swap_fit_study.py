"""06's pick with and without wgmma_swaps_to_fit (swapped tiles whose M side fits M) side by side
with cuBLAS, in one process, on the same buffers — each shape timed under both pickers (with
--without, the rule without the forms given — kernels.FIT_FORMS, or "split": 2 × 2 cut along K,
FIT_SPLIT_SLICES; with --rule wgmma_swaps_one_tile, wgmma_leaves_clusters_of_one, wgmma_coops,
wgmma_fits_one_consumer, wgmma_sectors_take_clusters_of_4 or wgmma_tall_rows, with and without that
rule instead).
With --fits, the pick beside swapped tiles fitted to each shape's M — BN the least width that
covers M in 2 or 3 tiles — in clusters of 1, 2 and 4 along N (sharing A's rows); or the forms
given, TILES:CLUSTER[:SA] or TILES:CLUSTER:C1 each (SA: SHARE_A, pairs of the cluster along M
sharing B's columns too; C1: one consumer, tiles of 64 rows of N, not 128).

    python scripts/swap_fit_study.py --shapes scripts/shapes/swap_fit_fresh.txt --precision bf16
    python scripts/swap_fit_study.py --shapes scripts/shapes/swap_2d_fresh.txt --without 2:4:SA split
    python scripts/swap_fit_study.py --shapes scripts/shapes/low_fit_fresh.txt --rule wgmma_swaps_one_tile
    python scripts/swap_fit_study.py --shapes scripts/shapes/fit_one_fresh.txt --rule wgmma_fits_one_consumer
    python scripts/swap_fit_study.py --shapes scripts/shapes/cluster_one_rule.txt --rule wgmma_leaves_clusters_of_one
    python scripts/swap_fit_study.py --shapes scripts/shapes/tall_fresh.txt --rule wgmma_tall_rows
    python scripts/swap_fit_study.py --shapes scripts/shapes/swap_clusters.txt --fits
    python scripts/swap_fit_study.py --shapes scripts/shapes/swap_clusters.txt --fits 3:4 2:4:SA 2:2:SA
    python scripts/swap_fit_study.py --shapes scripts/shapes/tiny_swap.txt --fits 1:1:C1 1:2:C1 1:2
"""

import argparse
import dataclasses
import secrets
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tcraw import kernels, report, wgmma  # noqa: E402
from tcraw.bench import bench_vs_cublas, parse_shapes, suite_summary  # noqa: E402
from tcraw.errors import UsageError, run_main  # noqa: E402


# the rules --rule holds off
RULES = ("wgmma_swaps_to_fit", "wgmma_swaps_one_tile", "wgmma_leaves_clusters_of_one", "wgmma_coops",
         "wgmma_fits_one_consumer", "wgmma_sectors_take_clusters_of_4", "wgmma_tall_rows")


def picker_before(elem_bytes, forms=None, name=RULES[0]):
    """06's pick (wgmma_pick: A copied to lines, hand-offs) as it is without the rule ``name`` (of
    RULES): the rule held off for the call, so where another rule then decides, its pick (held
    off, wgmma_coops no longer keeps wgmma_sectors_take_clusters_of_4 off its shapes) — or, given
    ``forms`` ((tiles, cluster, share_a) of kernels.FIT_FORMS, or "split"), wgmma_swaps_to_fit
    without those. (Until session 69 this side called wgmma_config: A read in place, no hand-off.)"""
    def pick(m, n, k, sms):
        rule, kept, slices = getattr(wgmma, name), wgmma.FIT_FORMS, wgmma.FIT_SPLIT_SLICES
        if forms is None:
            setattr(wgmma, name, lambda *args: None)
        else:
            wgmma.FIT_FORMS = tuple(f for f in kept if f not in forms)
            wgmma.FIT_SPLIT_SLICES = 0 if "split" in forms else slices
        try:
            return wgmma.wgmma_pick(m, n, k, sms, elem_bytes)
        finally:
            setattr(wgmma, name, rule)
            wgmma.FIT_FORMS, wgmma.FIT_SPLIT_SLICES = kept, slices
    return pick


def fitted(tiles, cluster, share_a=0, one_consumer=0):
    """A picker of swapped tiles that cover M in ``tiles`` tiles, in clusters of ``cluster`` (with
    ``share_a``, pairs of them along M; with ``one_consumer``, one consumer: 64 rows of N a tile):
    BN the least multiple of 16 (of 8 × the cluster's blocks along N: each copies whole 8-row atoms
    of A's rows for them) that does (main refuses M past 256 × tiles: BN is at most 256, the
    wgmma's n)."""
    step, consumers = kernels.wgmma_swap_step(cluster, share_a), 2 - one_consumer

    def pick(m, n, k, sms):
        bn = step * kernels.cdiv(m, step * tiles)
        return {"SWAP_AB": 1, "CONSUMERS": consumers, "BN": bn, "CLUSTER": cluster, "SHARE_A": share_a,
                "STAGES": kernels.wgmma_max_stages(consumers, bn, swap=True)}
    return pick


def spelt(form):
    """A (tiles, cluster, share_a[, one_consumer]) form as --fits and --without spell it: 2:4:SA, 1:2:C1."""
    return f"{form[0]}:{form[1]}" + ":SA" * form[2] + ":C1" * (form[3:] == (1,))


def fit_forms(items, option="--fits", also=""):
    """TILES:CLUSTER[:SA] items (of ``option``; ``also``: what else it takes) as (tiles, cluster,
    share_a) — with --fits, TILES:CLUSTER:C1 too, all as (tiles, cluster, share_a, one_consumer) —
    each once, refused by name if malformed or repeated."""
    forms, tails = [], ([], ["SA"]) + ((["C1"],) if option == "--fits" else ())
    for item in items:
        parts = item.split(":")
        if not 2 <= len(parts) <= 4 or not all(p.isdigit() for p in parts[:2]) or parts[2:] not in tails or \
                int(parts[0]) < 1 or int(parts[1]) not in (1, 2, 4) or ("SA" in parts and int(parts[1]) == 1):
            raise UsageError(f"{option} {item!r}: each form is TILES:CLUSTER or TILES:CLUSTER:SA{also} — tiles of M "
                             "at least 1, CLUSTER 1, 2 or 4 (SA, pairs along M sharing B's columns: 2 or 4)"
                             + ("; C1, one consumer" if option == "--fits" else "") + ", e.g. 3:4 2:4:SA")
        form = (int(parts[0]), int(parts[1]), int("SA" in parts)) + ((int("C1" in parts),) if option == "--fits" else ())
        if form in forms:
            raise UsageError(f"{option}: {item} is given twice; give each form once")
        forms.append(form)
    return forms


def study_parser(doc):
    """The options every picker study takes (this one's and scripts/cluster_one_study.py's): --shapes,
    --precision (fp16, bf16), --iters, --seed; ``doc``'s first line the description."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--shapes", required=True, help="shape suites or a file of M N K lines (see tcraw bench)")
    ap.add_argument("--precision", default="fp16", choices=("fp16", "bf16"))
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--seed", type=int, default=secrets.randbits(31))
    return ap


def parsed(ap):
    """``ap``'s arguments, --iters refused below 1."""
    args = ap.parse_args()
    if args.iters < 1:
        raise UsageError(f"--iters {args.iters}: must be at least 1")
    return args


def main():
    ap = study_parser(__doc__)
    ap.add_argument("--rule", default=RULES[0], choices=RULES, help="the rule the pick is timed with and without "
                    "(default: %(default)s)")
    ap.add_argument("--without", nargs="+", metavar="TILES:CLUSTER[:SA]|split",
                    help="the pick beside the rule without these of its forms (kernels.FIT_FORMS; split: 2 × 2 cut "
                         "along K), not without it")
    ap.add_argument("--fits", nargs="*", metavar="TILES:CLUSTER[:SA|:C1]",
                    help="the pick beside swapped tiles fitting M in 2 and 3 tiles, in clusters of 1, 2 and 4 "
                         "— or in the forms given (SA: SHARE_A, pairs along M sharing B's columns; C1: one consumer)")
    args = parsed(ap)
    if args.without and args.fits is not None:
        raise UsageError("--without times the pick against the rule without some of its forms, --fits against "
                         "fitted widths: give one of them")
    if (args.without or args.fits is not None) and args.rule != RULES[0]:
        raise UsageError(f"--rule {args.rule} times the pick with and without that rule; --without and --fits "
                         f"are {RULES[0]}'s: give them without --rule")
    if args.without and args.without.count("split") > 1:
        raise UsageError("--without: split is given twice; give each form once")
    without = fit_forms([f for f in args.without if f != "split"], "--without", ", or split") + \
        ["split"] * ("split" in args.without) if args.without else None
    if without and (unknown := [f for f in without if f not in kernels.FIT_FORMS and f != "split"]):
        raise UsageError(f"--without {' '.join(map(spelt, unknown))}: not among the rule's forms — "
                         f"{' '.join(map(spelt, kernels.FIT_FORMS))}, or split (its 2 × 2 fallback cut along K)")
    shapes = parse_shapes(args.shapes)
    forms = None if args.fits is None else \
        fit_forms(args.fits, also=" or TILES:CLUSTER:C1") or [(t, c, 0, 0) for t in (2, 3) for c in (1, 2, 4)]
    fewest = min(form[0] for form in forms) if forms else 0
    if forms and (wide := next((shape for _, shape in shapes if shape[0] > 256 * fewest), None)):
        raise UsageError(f"--fits covers M in {fewest} tile{'s' * (fewest > 1)} or more of at most 256 rows (the "
                         f"wgmma's n): M up to {256 * fewest}, not {wide[0]} ({'×'.join(map(str, wide))}); give "
                         "smaller M or more tiles")
    now = kernels.wgmma_kernel(args.precision)
    if forms:
        rung = [now] + [dataclasses.replace(now, name=f"{now.name}[fit{t}-cl{c}{'-sa' * sa}{'-c1' * one}]",
                                            pick=fitted(t, c, sa, one))
                        for t, c, sa, one in forms]
    else:
        before = picker_before(2, without, args.rule)
        rung = [dataclasses.replace(now, name=f"{now.name}[before]", pick=before), now]
    side_by_side(args.precision, shapes, rung, args.iters, args.seed)


def side_by_side(precision, shapes, rung, iters, seed):
    """``rung`` (06 under several pickers) beside cuBLAS on ``shapes`` in one process, on the same
    buffers: the table, each picker's geomean line, the GPU and seed (scripts/cluster_one_study.py too)."""
    rows = bench_vs_cublas(0, [precision], shapes, rungs={precision: rung},
                           iters=iters, warmup=5, seed=seed, note=lambda line: print(line, file=sys.stderr))
    print(report.render([{**r, "shape": f"{r['m']}×{r['n']}×{r['k']}"} for r in rows], "table", report.BENCH_COLUMNS))
    print(report.render(suite_summary(rows), "table", report.SUITE_COLUMNS))
    if rows:
        print(f"\n{rows[0]['device']} ({rows[0]['arch']}), seed {seed}, median of {iters} launches")


if __name__ == "__main__":
    run_main("swap_fit_study", main)
