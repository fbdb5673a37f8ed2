"""Run from the repository root: the tables of this folder's README from its logs (through
scripts/ladder_log.py, the project's reader of tune_ladder's logs).

    python docs/results/2026-12-07-h100-swapped-tall-fresh/tables.py \
        > docs/results/2026-12-07-h100-swapped-tall-fresh/tables.txt
"""
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2] / "scripts"))
from ladder_log import geomean, verified   # noqa: E402  (scripts/: the logs' readers)



TURNS = "CONSUMERS=2+PINGPONG=128+BN=128+CLUSTER=2+STAGES=6+WAIT_DEPTH=1"


def column(label):
    """A variant's short name: the turns (TURNS_CONFIG), or nfit's two consumers' pairs whatever their width."""
    fitted = re.fullmatch(r"CONSUMERS=2\+BN=\d+\+CLUSTER=(\d)", label)
    return "turns" if label == TURNS else f"128 × 16·⌈N/16⌉, clusters of {fitted.group(1)}" if fitted else label


def over_pick(title, path, pick_is):
    """Each shape's µs — cuBLAS, the pick, the log's other variant(s) — with the other's time over the
    pick's and both × cuBLAS; then the geomean of each column of ratios (variants named per shape:
    nfit's width follows N)."""
    table = verified(path)
    print(f"## {title} ({path.name}; the pick: {pick_is})")
    print(f"  {'shape':16s} {'cuBLAS':>7s} {'pick':>7s} {'×cuB':>6s}   {'other':30s} {'µs':>7s} {'×cuB':>6s} "
          f"{'÷pick':>6s}")
    by_col = {}
    for shape, t in table.items():
        for i, (label, us) in enumerate((label, us) for label, us in t.items() if label not in ("cublas", "picked")):
            print(f"  {shape if i == 0 else '':16s} {t['cublas']:7.2f} {t['picked']:7.2f} "
                  f"{t['cublas'] / t['picked']:6.3f}   {column(label):30s} {us:7.2f} {t['cublas'] / us:6.3f} "
                  f"{us / t['picked']:6.3f}")
            by_col.setdefault(column(label), []).append(us / t["picked"])
    print(f"  pick × cuBLAS geomean {geomean([t['cublas'] / t['picked'] for t in table.values()]):.3f}")
    for col, over in by_col.items():
        print(f"  {col}: ÷ the pick geomean {geomean(over):.3f}, range {min(over):.3f}–{max(over):.3f}, "
              f"slower at {sum(o > 1 for o in over)} of {len(over)}")
    print()


SWAPPED = "swapped 128 × 256 pairs along N, C in 2 parts (wgmma_swaps_tall_rows)"
for p in ("fp16", "bf16"):
    over_pick(f"run 1: swapped_tall_fresh.txt, {p}", HERE / f"run1_swfresh_{p}.txt", SWAPPED)
over_pick("run 3: swapped_tall_fresh.txt, fp16", HERE / "run3_bn_fit_fp16.txt", SWAPPED)
over_pick("run 4: n_fit_tall.txt, fp16", HERE / "run4_nfit_fp16.txt", "the ranking's or another rule's")
over_pick("run 4: swapped_tall_fresh.txt, bf16", HERE / "run4_nfit_bf16.txt", SWAPPED)
for p in ("fp16", "bf16"):
    over_pick(f"run 5: swapped_tall_rows.txt, {p}", HERE / f"run5_nfit_{p}.txt",
              "swapped pairs at N ≤ 192, else turns on 128 × 128")
over_pick("run 6: n_fit_wide.txt, fp16", HERE / "run6_nfit_fp16.txt", "turns on 128 × 128 (TURNS_CONFIG)")
over_pick("run 7: n_fit_wide.txt, bf16", HERE / "run7_nfit_bf16.txt", "turns on 128 × 128 (TURNS_CONFIG)")
for p in ("fp16", "bf16"):
    over_pick(f"run 8: tall_fit_fresh.txt, {p}", HERE / f"run8_fitfresh_{p}.txt",
              "two consumers' 128 × 16·⌈N/16⌉ pairs (wgmma_fits_tall_rows, N 129–256, any K)")
for p in ("fp16", "bf16"):
    over_pick(f"run 9: tall_fit_wide_fresh.txt, {p}", HERE / f"run9_fitwide_{p}.txt",
              "two consumers' 128 × 16·⌈N/16⌉ pairs (wgmma_fits_tall_rows, K of 13+ slices past N of 192)")
