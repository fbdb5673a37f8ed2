"""The tables of this directory's README from its raw files (tune_ladder logs and Nsight Compute's
raw CSVs, unedited):

    python docs/results/2026-12-03-h200-gemv-cluster/tables.py > docs/results/2026-12-03-h200-gemv-cluster/tables.txt

Run 1: kernel durations (Nsight Compute, caches flushed) beside the event-timed bench, and 06's
128×128 tiles in 2 pieces of K in clusters of 2 (B multicast) against clusters of 1. Run 2: the
same kernels with caches left warm. Run 3: 10 with K's pieces summed in a cluster (CLUSTER_K of 8
and 4) against the split pick through the workspace and against 8 pieces through it (SPLIT=8).
Runs 4–5: the pick that sums in a cluster where gemv_sums_in_cluster, on 16 fresh shapes, against
the pick before (gemv_split's pieces through the workspace), fp16 and bf16.
"""
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
from ladder_log import before_after, geomean, ladder, rows   # noqa: E402  (scripts/: the logs' reader)


def main():
    print("# Run 1: 06's 128×128 tiles, 2 pieces of K, clusters of 2 (B multicast) against 1\n")
    ladder(HERE / "run1_split_two_unshared.txt")
    print("# Run 2: Nsight Compute with caches warm (median over launches; duration, warp instructions, "
          "active cycles an SM, the largest stall ratios)\n")
    for csv in sorted(HERE.glob("run2_ncu_warm_*.csv")):
        print(f"## {csv.name}")
        sys.stdout.flush()
        subprocess.run([sys.executable, str(ROOT / "scripts" / "ncu_raw_summary.py"), str(csv)], check=True)
        print()

    print("# Run 3: 10, K's pieces summed in a cluster (CLUSTER_K=8, 4) against the workspace's\n")
    eight = []
    for name in ("gemv_10_split_small", "gemv_10"):
        path = HERE / f"run3_{name}_cluster_fp16.txt"
        ladder(path)
        eight += [t["CLUSTER_K=8"] / t["SPLIT=8"] for t in rows(path).values()]
    print(f"  8 pieces in a cluster over 8 through the workspace, both files: geomean {geomean(eight):.3f}, "
          f"less time at {sum(e < 1 for e in eight)} of {len(eight)}, {min(eight):.3f}–{max(eight):.3f}\n")

    print("# Runs 4–5: the pick (K in a cluster where gemv_sums_in_cluster) against gemv_split's pieces "
          "through the workspace, 16 fresh shapes\n")
    for run, key in ((4, "fp16"), (5, "bf16")):
        table = rows(HERE / f"run{run}_gemv_10_cluster_check_{key}.txt")
        before, after, over = [], [], []
        for shape, t in table.items():
            old = next(v for label, v in t.items() if label.startswith("SPLIT="))
            new, cublas = t["default"], t["cublas"]
            before.append(cublas / old), after.append(cublas / new), over.append(new / old)
            print(f"  {key} {shape:14s} cuBLAS {cublas:6.2f}  before {old:6.2f}  pick {new:6.2f} µs  "
                  f"time {new / old:.3f}   {cublas / old:.3f} → {cublas / new:.3f}×")
        print(before_after(key, before, after))
        print(f"  {key}: time over before, geomean {geomean(over):.3f}, more at "
              + ", ".join(f"{s} ({o - 1:+.1%})" for s, o in zip(table, over) if o > 1) + "\n")


if __name__ == "__main__":
    main()
