"""The tables of this directory's README from its raw files (tune_ladder logs, unedited):

    python docs/results/2026-12-04-h200-cluster-k-small-m/tables.py > docs/results/2026-12-04-h200-cluster-k-small-m/tables.txt

Run 2: 06's pick (split-K through the workspace) against the same configuration with the tile's
pieces of K summed in one cluster (CLUSTER_K = the pick's pieces p; also 4 where p > 4), on
scripts/shapes/cluster_k.txt grouped by p. Run 3: the pick against K in at most 2 pieces and
pieces of at least 16 slices; at M ≤ 16 against one consumer's swapped 64 × 16 tiles. Run 4: one
consumer's swapped 64 × BN tiles (BN the 16s that fit M) in 8 stages, in the most that fit up to
16, and K whole. Run 5: the pick against the same with a slice's MMAs kept in flight (WAIT_DEPTH=1),
on cluster_k.txt and on 16 fresh shapes where the pick is two consumers' swapped tiles; the two
summed where the pick is two consumers' swapped tiles of at most 32 columns (M ≤ 32).
"""
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2] / "scripts"))
sys.path.insert(0, str(HERE.parents[2]))
from ladder_log import geomean, ladder, rows   # noqa: E402  (scripts/: the logs' reader)
from tcraw import kernels                      # noqa: E402


def summary(what, over):
    """One line: a variant's time over the pick's at each shape, summed up."""
    return (f"  {what}: {len(over)} shapes, time / the pick's geomean {geomean(over):.3f}, "
            f"{min(over):.3f}–{max(over):.3f}, less time at {sum(o < 1 for o in over)}")


def main():
    print("# Run 2: K's pieces summed in one cluster (CLUSTER_K) against the pick's workspace, fp16\n")
    table = rows(HERE / "run2_cluster_k_fp16.txt")
    groups = {}
    for shape, t in table.items():
        p = max(int(q) for q in re.findall(r"CLUSTER_K=(\d+)", " ".join(t)))   # (the pick's pieces: the largest timed)
        pick, cublas = t["picked"], t["cublas"]
        line = f"  p={p} {shape:16s} cuBLAS {cublas:7.2f}  pick {pick:7.2f} ({cublas / pick:.3f}×)"
        for label in sorted((label for label in t if "CLUSTER_K" in label), key=lambda s: -int(s.split("=")[1])):
            q = int(label.split("=")[1])
            line += f"  K={q} {t[label]:7.2f} ({cublas / t[label]:.3f}×, {t[label] / pick:.3f})"
            groups.setdefault((p, q), []).append(t[label] / pick)
        print(line)
    print()
    for (p, q), over in sorted(groups.items()):
        print(summary(f"pick in {p} pieces, CLUSTER_K={q}", over))
    two = [t["picked+CLUSTER_K=2"] / t["picked"] for shape, t in table.items()
           if "picked+CLUSTER_K=2" in t and shape != "1024×1024×8192"]
    print(summary("pick in 2 pieces in clusters of 1 (1024×1024×8192, in clusters of 2 sharing B, left out), "
                  "CLUSTER_K=2", two) + "\n")

    print("# Run 3: the pick against K in at most 2 pieces and pieces of at least 16 slices, fp16\n")
    ladder(HERE / "run3_small_m_split_fp16.txt")
    print("# Run 3: at M ≤ 16, one consumer's swapped 64 × 16 tiles, fp16\n")
    ladder(HERE / "run3_small_m_16_one_consumer_fp16.txt")

    print("# Run 4: one consumer's swapped 64 × BN tiles (BN fitting M): 8 stages, the most up to 16, K whole\n")
    table = rows(HERE / "run4_small_m_stages_fp16.txt")
    kinds = {"8 stages": [], "most stages": [], "most stages, K whole": []}
    for shape, t in table.items():
        pick, cublas = t["picked"], t["cublas"]
        mine = {("8 stages" if "STAGES=8+" in label else "most stages, K whole" if "SPLIT_K=0" in label
                 else "most stages"): v for label, v in t.items() if label.startswith("SWAP_AB")}
        print(f"  {shape:16s} cuBLAS {cublas:7.2f}  pick {pick:7.2f} ({cublas / pick:.3f}×)  " + "  ".join(
            f"{kind} {v:7.2f} ({cublas / v:.3f}×)" for kind, v in mine.items()))
        for kind, v in mine.items():
            kinds[kind].append(v / pick)
    print()
    for kind, over in kinds.items():
        print(summary(kind, over))
    print()

    print("# Run 5: a slice's MMAs kept in flight (WAIT_DEPTH=1) over the pick, fp16\n")
    small, fit = [], []
    for name in ("cluster_k", "swapped_two_fresh"):
        path = HERE / f"run5_wait_depth_{name}_fp16.txt"
        ladder(path)
        for shape, t in rows(path).items():
            m, n, k = map(int, shape.split("×"))
            picked = kernels.wgmma_pick(m, n, k, 132)
            if picked.get("SWAP_AB") and picked["CONSUMERS"] == 2:   # (one consumer's picks build the same)
                (small if picked["BN"] <= 32 else fit).append(t["picked+WAIT_DEPTH=1"] / t["picked"])
    print(summary("two consumers' swapped picks, BN ≤ 32 (M ≤ 32), both files", small))
    print(summary("two consumers' swapped picks, BN of 144–208 (M of 258–454)", fit))


if __name__ == "__main__":
    main()
