"""The tables of this directory's README from its raw files (tune_ladder logs, unedited):

    python docs/results/2026-12-04-h200-acc-sets-fours/tables.py > docs/results/2026-12-04-h200-acc-sets-fours/tables.txt

Runs 1–2: 06 with two accumulator sets (ACC_SETS=2, commit 50c7e86) against the pick and against
cuBLAS's own tile. Run 3: 4 tiles of M in clusters of 2 against the pick at M of 257–384. Runs 4–5:
M ≤ 16's swapped 128 × 16 tiles in clusters of 4 (4 of A's rows a block) against clusters of 2 —
run 4 on shapes where the pick is the pairs (the picker of this tree decides which), run 5 on
shapes drawn after a rule picked clusters of 4 (its "picked" is clusters of 4; the rule came out).
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2] / "scripts"))
sys.path.insert(0, str(HERE.parents[2]))
from ladder_log import geomean, ladder, rows   # noqa: E402  (scripts/: the logs' reader)
from tcraw import kernels   # noqa: E402  (which shapes' pick is the pairs)


def against(key, path, new, old, keep=lambda shape: True):
    """Per shape, × cuBLAS of ``old`` → ``new`` (variant labels, or a part of one) and new's time
    over old's; then the geomeans and how many took less time."""
    table = {shape: t for shape, t in rows(path).items() if keep(shape)}
    times = []
    for shape, t in table.items():
        a = next(label for label in t if old in label)
        b = next(label for label in t if new in label)
        times.append(t[b] / t[a])
        print(f"  {key} {shape:16s} {t['cublas'] / t[a]:.3f} → {t['cublas'] / t[b]:.3f}× cuBLAS, time {times[-1]:.3f}")
    print(f"  {key}: {len(times)} shapes, time geomean {geomean(times):.3f} (range {min(times):.3f}–{max(times):.3f}), "
          f"less at {sum(x < 1 for x in times)}\n")


def picks_pairs(shape):
    """Whether 06's pick (132 SMs, fp16) at ``shape`` is M ≤ 16's swapped tiles in clusters of 2."""
    m, n, k = map(int, shape.split("×"))
    return kernels.wgmma_config(m, n, k, 132) == kernels.SWAPPED_PAIRS_CONFIGS[0]


def main():
    print("# Run 1: cuBLAS's own tile (two consumers' 64 of N × 64 of M swapped, pairs along M) with and "
          "without two accumulator sets, beside the pick\n")
    ladder(HERE / "run1_acc_tile.txt")
    print("# Run 2: two accumulator sets (and, for two consumers, a slice in flight alone) against the pick\n")
    ladder(HERE / "run2_acc_in_flight.txt")
    ladder(HERE / "run2_acc_two.txt")
    print("# Run 3: 4 tiles of M in clusters of 2 (v1; v2 with a slice in flight) against the pick\n")
    for bn in (80, 96):
        ladder(HERE / f"run3_four_{bn}.txt")
    print("# Run 4: clusters of 4 against clusters of 2 (the pick) where the pick is those pairs\n")
    for key in ("fp16", "bf16"):
        against(key, HERE / f"run4_fours_{key}.txt", "CLUSTER=4", "CLUSTER=2", picks_pairs)
    print("# Run 5: clusters of 4 (\"picked\" under the rule then) against clusters of 2, 15 shapes drawn after\n")
    for key in ("fp16", "bf16"):
        against(key, HERE / f"run5_fours_fresh_{key}.txt", "picked", "CLUSTER=2")


if __name__ == "__main__":
    main()
