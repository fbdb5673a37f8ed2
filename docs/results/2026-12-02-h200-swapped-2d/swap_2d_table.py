"""The tables of this directory's README, from its raw files (scripts/swap_fit_study.py output):

    python docs/results/2026-12-02-h200-swapped-2d/swap_2d_table.py > docs/results/2026-12-02-h200-swapped-2d/swap_2d_table.txt

Run 1 and 3 (--fits): each shape's × cuBLAS for the pick and every fitted form, and the geomeans.
Runs 2 and 4 (the pick with the rule against the rule without a form): the time ratio (geomean,
range), × cuBLAS before → now (geomean), how many shapes ran faster, and how many below 0.85×.
With --draw (the tcraw on PYTHONPATH, no GPU; seconds): how often the rule picks 2 × 2 on
a random draw of 20 000 shapes — M 257–480, N 2048–16384, K 1024–8192 (N, K multiples of 8).
"""
import math
import random
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROW = re.compile(r"(wgmma_tma_\w+)(?:\[(\S+)\])?\s+\S+\s+(\d+×\d+×\d+)\s+([\d.]+)\s+[\d.]+\s+\S+\s+([\d.]+)\s")


def rows(path):
    """{shape: {variant: (median ms, × cuBLAS)}} — variant "pick" for 06's own pick."""
    out = defaultdict(dict)
    for line in path.read_text().splitlines():
        if (m := ROW.match(line)):
            out[m.group(3)][m.group(2) or "pick"] = (float(m.group(4)), float(m.group(5)))
    return out


def geomean(values):
    values = list(values)
    return math.exp(sum(math.log(v) for v in values) / len(values))


def fits(path):
    table = rows(path)
    names = list(next(iter(table.values())))
    print(f"{path.name}: × cuBLAS (the fastest marked *)")
    print(f"{'shape':>16} " + " ".join(f"{n:>12}" for n in names))
    for shape, got in table.items():
        best = max(got, key=lambda n: got[n][1])
        print(f"{shape:>16} " + " ".join(f"{got[n][1]:>11.3f}{'*' if n == best else ' '}" for n in names))
    print(f"{'geomean':>16} " + " ".join(f"{geomean(got[n][1] for got in table.values()):>11.3f} " for n in names))
    print()


def before_now(path):
    table = rows(path)
    ratio = {shape: got["pick"][0] / got["before"][0] for shape, got in table.items()}
    print(f"{path.name}: {len(table)} shapes, time now / before {geomean(ratio.values()):.3f} "
          f"(geomean; {min(ratio.values()):.3f} to {max(ratio.values()):.3f}), faster at "
          f"{sum(r < 1 for r in ratio.values())}; × cuBLAS {geomean(g['before'][1] for g in table.values()):.3f} → "
          f"{geomean(g['pick'][1] for g in table.values()):.3f}; below 0.85× "
          f"{sum(g['before'][1] < 0.85 for g in table.values())} → {sum(g['pick'][1] < 0.85 for g in table.values())}")
    for shape, r in sorted(ratio.items(), key=lambda kv: kv[1]):
        got = table[shape]
        print(f"    {shape:>16}  {got['before'][1]:.3f} → {got['pick'][1]:.3f}× cuBLAS  (time ×{r:.3f})")
    print()


def draw(count=20000, seed=61):
    from tcraw import kernels
    rng, fires, pieces = random.Random(seed), 0, Counter()
    for _ in range(count):
        m, n, k = rng.randint(257, 480), rng.randrange(2048, 16385, 8), rng.randrange(1024, 8193, 8)
        pick = kernels.wgmma_config(m, n, k, 132)
        fires += bool(pick.get("SWAP_AB"))
        if pick.get("SWAP_AB") and pick.get("SHARE_A"):
            pieces[kernels.wgmma_schedule(m, n, k, 132, {**kernels.WGMMA_TILE, **pick})[3]] += 1
    print(f"{count} shapes drawn (seed {seed}): the rule fires at {fires}, picks 2 × 2 at {sum(pieces.values())} "
          f"(by pieces along K: {dict(sorted(pieces.items()))})")


def main():
    if "--draw" in sys.argv[1:]:
        return draw()
    for name in ("run1_swap_2d_fits_fp16.txt", "run3_swap_2d_c2_fp16.txt", "run3_swap_2d_wider_fp16.txt"):
        fits(HERE / name)
    for name in ("run2_swap_2d_fresh_fp16_seed_61.txt", "run2_swap_2d_fresh_bf16_seed_61.txt",
                 "run2_swap_2d_fresh_fp16_seed_71.txt", "run4_swap_2d_split_fp16.txt", "run4_swap_2d_split_bf16.txt"):
        before_now(HERE / name)


if __name__ == "__main__":
    main()
