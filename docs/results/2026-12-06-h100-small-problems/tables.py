"""Prints tables.txt from this directory's logs (run from the repository root):
    python docs/results/2026-12-06-h100-small-problems/tables.py"""

import math
from pathlib import Path

HERE = Path(__file__).resolve().parent


def geomean(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs))


def ladder_rows(path):
    """{shape: (median ms, × cuBLAS)} of a tune_ladder log's table (its one kernel row a shape)."""
    rows = {}
    for line in path.read_text().splitlines():
        p = line.split()
        if len(p) > 6 and not p[0].startswith("cublas") and p[2].count("×") == 2 and p[3][0].isdigit():
            rows[p[2]] = (float(p[3]), float(p[6]))
    return rows


def old_new(run, stem, key):
    """10 as it was (old) and as it is (new), each shape's time the lesser of its two turns."""
    turns = {t: ladder_rows(HERE / f"{run}_{stem}_pipe_{t}_{key}.txt") for t in ("old1", "new1", "old2", "new2")}
    print(f"\n{run}, {stem}, {key}: shape, old µs, new µs, new / old, × cuBLAS old → new")
    ratios, xo, xn = [], [], []
    for shape in turns["old1"]:
        o = min(turns["old1"][shape][0], turns["old2"][shape][0])
        n = min(turns["new1"][shape][0], turns["new2"][shape][0])
        ratios.append(n / o)
        xo.append(max(turns["old1"][shape][1], turns["old2"][shape][1]))
        xn.append(max(turns["new1"][shape][1], turns["new2"][shape][1]))
        print(f"  {shape:>14}  {o * 1e3:7.2f}  {n * 1e3:7.2f}  {n / o:.3f}  {xo[-1]:.3f} → {xn[-1]:.3f}")
    print(f"  geomean new / old {geomean(ratios):.3f}; faster (< 0.99) at {sum(r < 0.99 for r in ratios)}, "
          f"slower (> 1.01) at {sum(r > 1.01 for r in ratios)} of {len(ratios)}; × cuBLAS {geomean(xo):.3f} → "
          f"{geomean(xn):.3f}")


def before_after(path):
    """swap_fit_study's rows: [before] and the pick now, a shape each."""
    rows = {}
    for line in path.read_text().splitlines():
        p = line.split()
        if len(p) > 6 and p[0].startswith("wgmma") and p[2].count("×") == 2 and p[3][0].isdigit():
            rows.setdefault(p[2], {})["before" if p[0].endswith("[before]") else "now"] = (float(p[3]), float(p[6]))
    print(f"\n{path.name}: shape, before µs, now µs, now / before, × cuBLAS before → now")
    ratios = []
    for shape, r in rows.items():
        ratios.append(r["now"][0] / r["before"][0])
        print(f"  {shape:>14}  {r['before'][0] * 1e3:7.2f}  {r['now'][0] * 1e3:7.2f}  {ratios[-1]:.3f}  "
              f"{r['before'][1]:.3f} → {r['now'][1]:.3f}")
    below = [sum(r[w][1] < 0.85 for r in rows.values()) for w in ("before", "now")]
    print(f"  geomean now / before {geomean(ratios):.3f}; faster at {sum(x < 0.99 for x in ratios)} of "
          f"{len(ratios)}; below 0.85× cuBLAS {below[0]} → {below[1]}")


old_new("run1", "gemv_10_sets", "fp16")
for key in ("fp16", "bf16"):
    old_new("run2", "gemv_10_sets_fresh", key)
for key in ("fp16", "bf16"):
    before_after(HERE / f"run5_fit_one_fresh_{key}.txt")
old_new("run9", "gemv_10_sets_fresh", "fp16")       # (run 9: both again, on another H100)
before_after(HERE / "run9_fit_one_fresh_fp16.txt")
