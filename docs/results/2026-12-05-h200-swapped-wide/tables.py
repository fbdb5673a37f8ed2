"""Reads this folder's logs (tune_ladder.py's tables) and prints tables.txt: run 3's picks before the
store change (the tree at 8923be1) and after, each in its own process, time for time; runs 2–5's
ladders, each variant × cuBLAS beside the pick's, and its time over the pick's. Run from the
repository root:
python docs/results/2026-12-05-h200-swapped-wide/tables.py > docs/results/2026-12-05-h200-swapped-wide/tables.txt"""
import math
import re
from pathlib import Path

HERE = Path(__file__).parent
ROW = re.compile(r"^(cublas|wgmma_\w+\[(.*?)\])\s+\S+\s+(\d+×\d+×\d+)\s+([\d.]+)\s.*\bPASS\b")
SHORT = ("SWAP_AB=1+", "+WAIT_DEPTH=1")


def rows(path):
    """{shape: {variant: µs}} from a tune_ladder log's full table ('cublas' for cuBLAS); only
    verified rows count (every row of these logs passed)."""
    out = {}
    for line in open(path):
        if (m := ROW.match(line)):
            name = m[2] or "cublas"
            for text in SHORT:
                name = name.replace(text, "")
            out.setdefault(m[3], {})[name] = float(m[4]) * 1000
    return out


def geomean(values):
    values = list(values)
    return math.exp(sum(map(math.log, values)) / len(values))


def before_after():
    old, new = rows(HERE / "run3_ab_old.txt"), rows(HERE / "run3_ab_new.txt")
    print("# Run 3: the picks on scripts/shapes/swapped_picks.txt before the store change (8923be1) and after\n")
    print(f"  {'shape':16s} {'old µs':>8s} {'new µs':>8s} {'new/old':>8s}   × cuBLAS old, new")
    ratios = []
    for shape in old:
        o, n = old[shape]["picked"], new[shape]["picked"]
        ratios.append(n / o)
        print(f"  {shape:16s} {o:8.2f} {n:8.2f} {n / o:8.3f}   {old[shape]['cublas'] / o:.3f}, {new[shape]['cublas'] / n:.3f}")
    print(f"  geomean new/old {geomean(ratios):.3f} over {len(ratios)} shapes (least {min(ratios):.3f}, most {max(ratios):.3f});"
          f" × cuBLAS geomean old {geomean(old[s]['cublas'] / old[s]['picked'] for s in old):.3f},"
          f" new {geomean(new[s]['cublas'] / new[s]['picked'] for s in new):.3f}\n")


def ladder(path):
    table = rows(path)
    variants = [v for v in next(iter(table.values())) if v not in ("cublas", "picked")]
    print(f"# {path.name}: × cuBLAS (time / the pick's)")
    for i, v in enumerate(variants):
        print(f"  v{i}: {v}")
    print(f"  {'shape':16s} {'cuBLAS µs':>9s} {'pick':>6s}" + "".join(f" {f'v{i}':>15s}" for i in range(len(variants))))
    for shape, times in table.items():
        cells = "".join(f" {times['cublas'] / times[v]:6.3f} ({times[v] / times['picked']:5.3f})" for v in variants)
        print(f"  {shape:16s} {times['cublas']:9.1f} {times['cublas'] / times['picked']:6.3f}{cells}")
    pick = geomean(t["cublas"] / t["picked"] for t in table.values())
    cells = "".join(f" {geomean(t['cublas'] / t[v] for t in table.values()):6.3f}"
                    f" ({geomean(t[v] / t['picked'] for t in table.values()):5.3f})" for v in variants)
    print(f"  {'geomean':16s} {'':9s} {pick:6.3f}{cells}\n")


before_after()
for name in ("run2_one256_bf16", "run3_wide_160_fp16", "run3_wide_176_fp16", "run3_wide_192_fp16",
             "run4_parts_144_fp16", "run5_parts_144_bf16", "run4_parts_80_fp16", "run5_parts_80_bf16",
             "run4_parts_176_fp16", "run5_parts_176_bf16"):
    ladder(HERE / f"{name}.txt")
