"""The tables of this directory's README, from its raw files (scripts/tune_ladder.py output,
unedited): each shape's × cuBLAS for every variant timed, as the variant's label says, and the
geomean of each variant over the file's shapes.

    python docs/results/2026-12-02-h200-small-m-split-rounds/rounds_table.py > docs/results/2026-12-02-h200-small-m-split-rounds/rounds_table.txt

1. run 1: M ≤ 32 against a large B (scripts/shapes/small_m_big_b.txt) — the pick (06's swapped
   tiles), stream-K over the whole problem (STREAM_K_ROUNDS=0), one consumer's 64-row swapped tiles;
   unswapped picks that fill less than a round (scripts/shapes/few_tiles_stream_k.txt) with it.
2. run 2: the swapped tiles with the most stages that fit (scripts/shapes/small_m_scaling.txt).
3. run 3: split-K in several rounds (SPLIT_ROUNDS 2, 4, 8) beside the pick.
4. run 4: SPLIT_ROUNDS=2 beside the pick on fresh shapes (scripts/shapes/split_rounds_fresh.txt),
   fp16 and bf16, 50 launches each.
"""
import math
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
# a tune_ladder summary line: "  wgmma_fp16[LABEL]   MxNxK   T TFLOP/s  R× cuBLAS"
ROW = re.compile(r"^\s*wgmma_\w+\[([^\]]*)\]\s+(\d+×\d+×\d+)\s+[\d.]+ TFLOP/s\s+([\d.]+)× cuBLAS")
SHORT = [("SWAP_AB=1+CONSUMERS=1+CLUSTER=1+STAGES=8+STREAM_K_ROUNDS=0+", "C1,SK0+"),
         ("SWAP_AB=1+CONSUMERS=2+CLUSTER=1+", "C2+"), ("+WAIT_DEPTH=1", ""), ("STREAM_K_ROUNDS", "SK_ROUNDS"),
         ("SPLIT_MIN_SAVED", "MIN_SAVED"), ("STREAM_K_DIV", "SK_DIV")]


def table(path):
    """{shape: {label: × cuBLAS}} in the file's order (a shape timed twice: its last)."""
    out = {}
    for line in path.read_text().splitlines():
        if (m := ROW.match(line)):
            label = m.group(1)
            for long, short in SHORT:
                label = label.replace(long, short)
            out.setdefault(m.group(2), {})[label] = float(m.group(3))
    return out


def show(title, path):
    rows = table(path)
    labels = list(dict.fromkeys(label for row in rows.values() for label in row))
    print(f"{title} ({path.name})")
    for i, label in enumerate(labels):
        print(f"  [{i}] {label}")
    print(f"  {'shape':>16}" + "".join(f"{f'[{i}]':>8}" for i in range(len(labels))))
    for shape, row in rows.items():
        print(f"  {shape:>16}" + "".join(f"{row[label]:8.3f}" if label in row else f"{'':>8}" for label in labels))
    means = [math.exp(sum(math.log(row[label]) for row in rows.values()) / len(rows))
             if all(label in row for row in rows.values()) else float("nan") for label in labels]
    print(f"  {'geomean':>16}" + "".join(f"{g:8.3f}" for g in means))
    print()


show("1. M ≤ 32 against a large B, fp16", HERE / "run1_small_m_big_b_fp16.txt")
show("1. unswapped picks short of a round, fp16", HERE / "run1_few_tiles_stream_k_fp16.txt")
show("2. the most stages that fit, fp16", HERE / "run2_small_m_stages_fp16.txt")
show("3. split-K in several rounds, fp16", HERE / "run3_split_rounds_fp16.txt")
for p in ("fp16", "bf16"):
    show(f"4. SPLIT_ROUNDS=2 on fresh shapes, {p}", HERE / f"run4_split_rounds_fresh_{p}.txt")
