"""The tables of this directory's README, from its raw files (run from the repository root):
tiles at M's edge copying A's 8-row boxes (A_EDGE 8, 0, 4, 16 under 06's picks, run 4), and one
consumer's tiles on two tile rows — 64×64 in clusters of 1 (the model's pick), 64×64 and 64×128
in clusters of 2 (run 5, after A_EDGE; run 2 before it) — each row's time against the first
variant's, per shape and as a geomean.

    python docs/results/2026-12-01-h200-a-edge/a_edge_table.py
"""
import math
from pathlib import Path

HERE = Path(__file__).resolve().parent


def rows(path):
    """[(shape, kernel, ms)] of a tune_ladder table's rows, in order (failed rows left out)."""
    out = []
    for line in path.read_text().splitlines():
        fields = line.split()
        if len(fields) > 4 and "→" in fields[1] and "×" in fields[2]:
            try:
                out.append((fields[2], fields[0], float(fields[3])))
            except ValueError:
                pass   # (nan: a variant refused, run 3)
    return out


def by_shape(path):
    """{shape: {kernel: ms}} (shapes in their order)."""
    out = {}
    for shape, kernel, ms in rows(path):
        out.setdefault(shape, {})[kernel] = ms
    return out


def geomean(values):
    return math.exp(sum(map(math.log, values)) / len(values)) if values else float("nan")


def pairs_rule(shape):
    """Where kernels.wgmma_pairs_rows fired as run 5 ran it (over 64×64 in clusters of 1): M of
    65–128, N > 64, K ≥ 4096 (N > 512 since c83eb5e: docs/results/2026-12-01-h200-suites-at-head/)."""
    m, n, k = map(int, shape.split("×"))
    if not 64 < m <= 128 or n <= 64:
        return "outside (one tile row, three, or N ≤ 64)"
    return "the rule fires (M 65–128, N > 64, K ≥ 4096)" if k >= 4096 else "K < 4096"


def table(title, path, variants, base, group=lambda shape: "all", yardstick="cublas"):
    """Each shape's µs per variant (the kernel name's bracket), its time / the base's, the
    yardstick's µs (of its rows, a shape's last); geomeans per ``group``."""
    print(title)
    found = by_shape(path)
    names = {v: next(k for k in next(iter(found.values())) if k.endswith(f"[{v}]")) for v in variants}
    print(f"  {'shape':>16}  {'cuBLAS' if yardstick == 'cublas' else yardstick:>7}  " + "  ".join(f"{v[:28]:>28}" for v in variants))
    ratios = {v: {} for v in variants}
    for shape, times in found.items():
        cells = []
        for v in variants:
            us, r = times[names[v]] * 1e3, times[names[v]] / times[names[base]]
            ratios[v].setdefault(group(shape), []).append(r)
            cells.append(f"{us:7.1f} µs {r:6.3f}×" + " " * 11)
        print(f"  {shape:>16}  {times[yardstick] * 1e3:7.1f}  " + "  ".join(f"{c:>28}" for c in cells))
    for part in ratios[base]:
        print(f"  geomean, {part} ({len(ratios[base][part])} shapes):  "
              + "  ".join(f"{geomean(ratios[v][part]):.3f}×" for v in variants))
    print()


def main():
    table("run 4: 06's picks with A_EDGE 8 (then the default), 0 (whole boxes, zeros past M), 4, 16 — time / A_EDGE=0's",
          HERE / "run4_m_edge_a_edge_8_0_4_16_fp16.txt", ["picked", "picked+A_EDGE=0", "picked+A_EDGE=4", "picked+A_EDGE=16"],
          "picked+A_EDGE=0")
    ONE = "CONSUMERS=1+BN=64+CLUSTER=1+STAGES=8+WAIT_DEPTH=1"
    for run, files in (("run 2 (A_EDGE=0 then)", ["run2_c2_fresh_fp16.txt"]), ("run 5 (after A_EDGE)", ["run5_c2_again_fp16.txt"])):
        variants = [ONE, "CONSUMERS=1+BN=64+CLUSTER=2+STAGES=8+WAIT_DEPTH=1", "CONSUMERS=1+BN=128+CLUSTER=2+STAGES=8+WAIT_DEPTH=1"]
        if run.startswith("run 2"):
            variants = ["picked", variants[1], variants[2]]
        table(f"{run}: one consumer's tiles on two rows, fp16 — time / 64×64 in clusters of 1's (the model's pick)",
              HERE / files[0], variants, variants[0], group=pairs_rule)
    table("run 5, bf16: 64×64 in clusters of 2 against 1", HERE / "run5_c2_again_bf16.txt",
          [ONE, "CONSUMERS=1+BN=64+CLUSTER=2+STAGES=8+WAIT_DEPTH=1"], ONE, group=pairs_rule)
    table("run 1: M = 128, fp16 — time / the pick's", HERE / "run1_m128_configs_fp16.txt",
          ["picked", "CONSUMERS=1+BN=192+CLUSTER=2+STAGES=6+WAIT_DEPTH=1", "CONSUMERS=1+BN=256+CLUSTER=2+STAGES=5+WAIT_DEPTH=1",
           "CONSUMERS=2+BN=128+CLUSTER=2+SHARE_A=1+STAGES=6", "CONSUMERS=1+BN=64+CLUSTER=2+STAGES=13+WAIT_DEPTH=1",
           "CONSUMERS=1+BN=128+CLUSTER=2+STAGES=8+WAIT_DEPTH=1"], "picked")


if __name__ == "__main__":
    main()
