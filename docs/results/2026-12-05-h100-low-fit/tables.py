"""Reads this folder's logs and prints tables.txt: runs 1, 2 and 7's variants beside the pick (×
cuBLAS, shape by shape, and their geomeans), then runs 3, 5 and 6's pick with and without
wgmma_swaps_one_tile (the time with it over the time without, shape by shape). Every row read is a
verified one (PASS). Run from the repository root:
python docs/results/2026-12-05-h100-low-fit/tables.py > docs/results/2026-12-05-h100-low-fit/tables.txt"""
import math
import re
from pathlib import Path

HERE = Path(__file__).parent
LADDER = re.compile(r"^(cublas|wgmma_\w+\[(.*?)\])\s+\S+\s+(\d+×\d+×\d+)\s+([\d.]+)\s.*\bPASS\b")
STUDY = re.compile(r"^(cublas|wgmma_tma_\w+?)(\[before\])?\s+\S+\s+(\d+×\d+×\d+)\s+([\d.]+)\s.*\bPASS\s+(\S*)")


def geomean(values):
    values = list(values)
    return math.exp(sum(map(math.log, values)) / len(values))


def read(name, pattern, key):
    """{shape: {variant: ms}} of a log's verified rows (variant: ``key`` of the match, 'cublas' for cuBLAS's)."""
    table = {}
    for line in open(HERE / name):
        if (m := pattern.match(line)):
            table.setdefault(m[3], {})["cublas" if m[1] == "cublas" else key(m)] = float(m[4])
    return table


def ladder(name):
    table = read(name, LADDER, lambda m: m[2])
    variants = list(dict.fromkeys(v for row in table.values() for v in row if v != "cublas"))
    print(f"# {name}: × cuBLAS (its time over each variant's)")
    for i, v in enumerate(variants):
        ratios = [row["cublas"] / row[v] for row in table.values() if v in row]
        print(f"  v{i} {geomean(ratios):.3f} geomean, least {min(ratios):.3f}  {v}")
    for shape, row in table.items():
        print(f"  {shape:18s}", " ".join(f"v{i} {row['cublas'] / row[v]:.3f}" for i, v in enumerate(variants)))
    print()


def study(name):
    table = read(name, STUDY, lambda m: "before" if m[2] else "after")
    print(f"# {name}: × cuBLAS without and with the rule, and the time with it over without")
    times = [row["after"] / row["before"] for row in table.values()]
    for shape, row in table.items():
        print(f"  {shape:18s} {row['cublas'] / row['before']:.3f} → {row['cublas'] / row['after']:.3f}  "
              f"time {row['after'] / row['before']:.3f}")
    for side in ("before", "after"):
        ratios = [row["cublas"] / row[side] for row in table.values()]
        print(f"  {side}: {geomean(ratios):.3f}× cuBLAS geomean, {sum(r < 0.85 for r in ratios)} below 0.85×")
    print(f"  time with over without: {geomean(times):.3f} geomean ({min(times):.3f}–{max(times):.3f}), "
          f"less at {sum(t < 1 for t in times)} of {len(times)}\n")


for name in ("run1_low_fit_144_fp16.txt", "run1_low_fit_176_fp16.txt", "run1_low_fit_208_fp16.txt",
             "run2_low_fit_240_fp16.txt", "run2_big_fit_fp16.txt", "run2_three_wait_fp16.txt",
             "run7_cluster_one_fp16.txt"):
    ladder(name)
for run, stem in (("run3", "low_fresh"), ("run5", "low_fit_fresh_2"), ("run6", "low_fit_fresh_3")):
    for precision in ("fp16", "bf16", "fp16_2"):
        study(f"{run}_{stem}_{precision}.txt")
