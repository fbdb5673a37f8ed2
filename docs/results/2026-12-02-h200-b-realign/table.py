"""B_REALIGN (06 reading B in place whatever N: kernels.wgmma_realigns_b, the .cu's b_realign)
against the picks before it, from this directory's tune_ladder tables, × cuBLAS from the same
call. Run 2: "picked" is the pick before the rule (B copied to pitched rows, or 09 where M ≤ 48
and N ≥ 4096), "picked+B_REALIGN=1" the pick's tile realigning B (where the tile can: one or two
consumers, BN ≤ 192 — else it ran as picked, B copied), and a fixed 64×128 realigning tile. Run 4:
"picked" is the rule's pick as it ran (B realigned at all 16 shapes: the bound on K came after),
and 06 with B copied in one consumer's tiles of wgmma_config's width is one of the fixed variants —
the pick before the rule, but where M ≤ 48 and N ≥ 4096 (five shapes), where it was 09. The "rule" column says where the rule as committed fires (M of 33–64, N
off 8, K of 16 slices or more: recomputed from tcraw.kernels), the geomeans are over each group.
Run 5: the wide pairs' bound at 70 % (kernels.WIDE_PAIRS_BUSY) — the pick as committed beside the
pick at 80 % as run. Run 6 (an H100): 09 beside the pick now at the five fresh shapes where 09 was
the pick before. Run from the repository root: python3 docs/results/2026-12-02-h200-b-realign/table.py"""
import math
import re
import sys
from pathlib import Path

sys.path.insert(0, ".")
from tcraw import kernels  # noqa: E402

HERE = Path(__file__).parent


def rows(path):
    """{(shape, label): (× cuBLAS, configuration column)} of the verified rows"""
    out = {}
    for line in path.read_text().splitlines():
        f = line.split()
        if len(f) > 9 and f[0].startswith(("wgmma_", "small_")) and f[9] == "PASS":   # (kernel ... × cuBLAS, err, bound, check)
            label = re.search(r"\[(.*)\]", f[0]).group(1)
            out[tuple(map(int, f[2].split("×"))), label] = (float(f[6]), f[10] if len(f) > 11 else "")
    return out


def geomean(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


def how(config):
    """how the row read B: 09 in place, 06 realigning it, or 06 on a pitched copy (N off 8 at every shape)"""
    return "09" if config == "09" else "realigned" if "B_REALIGN=1" in config else "B copied"


def fires(m, n, k):
    return bool(kernels.wgmma_pick(m, n, k, 132).get("B_REALIGN"))


def show(title, table, columns):
    shapes = sorted({s for s, _ in table}, key=lambda s: (not fires(*s), s[0], s[1]))
    print(title)
    print(f"  {'shape':>16}  {'rule':>4}  " + "  ".join(f"{name:>22}" for name, _ in columns))
    for fire in (True, False):
        at = [s for s in shapes if fires(*s) == fire]
        for s in at:
            cells = [label(s) if callable(label) else label for _, label in columns]
            vals = [table.get((s, c)) for c in cells]
            print(f"  {'×'.join(map(str, s)):>16}  {'yes' if fire else 'no':>4}  " +
                  "  ".join(f"{v[0]:>8.3f} {how(v[1]):>13}" if v else f"{'-':>22}" for v in vals))
        if at:
            means = [geomean([table[s, c if not callable(c) else c(s)][0] for s in at
                              if (s, c if not callable(c) else c(s)) in table]) for _, c in columns]
            print(f"  {'geomean':>16}  {'yes' if fire else 'no':>4}  " + "  ".join(f"{g:>22.3f}" for g in means) +
                  f"   ({len(at)} shapes)")
    print()


def copied_tile(s):   # 06 with B copied in wgmma_config's one-consumer tile (the pick before but where 09 was)
    bn = kernels.wgmma_config(*s, 132)["BN"]
    return f"CONSUMERS=1+BN={bn}+CLUSTER=1+STAGES={8 if bn < 256 else 5}+WAIT_DEPTH=1"


show("run 2 (fp16): the pick before the rule (B copied, or 09) beside its tile realigning B, × cuBLAS",
     rows(HERE / "run2_realign_fp16.txt"),
     [("before (picked)", "picked"), ("picked+B_REALIGN=1", "picked+B_REALIGN=1")])
for p in ("fp16", "bf16"):
    show(f"run 4 ({p}): the rule's pick beside 06 with B copied in one consumer's tiles of its width, × cuBLAS",
         rows(HERE / f"run4_realign_fresh_{p}.txt"), [("picked, realigning", "picked"), ("06, B copied", copied_tile)])


def wide_pick(s):   # kernels.wgmma_pairs_wide's width at 70 % (the pick as committed), its label in run 5
    c = kernels.wgmma_config(*s, 132)
    return f"CONSUMERS=1+BN={c['BN']}+CLUSTER=2+STAGES={c['STAGES']}+WAIT_DEPTH=1"


wide = rows(HERE / "run5_wide70_fp16.txt")
shapes = sorted({s for s, _ in wide})
print("run 5 (fp16): the wide pairs with 70 % of the clusters busy (the pick as committed) beside the pick at 80 %"
      " (two consumers' 128-row tiles, \"picked\" as run), × cuBLAS")
for s in shapes:
    print(f"  {'×'.join(map(str, s)):>16}  {wide[s, 'picked'][0]:>8.3f}  {wide[s, wide_pick(s)][0]:>8.3f}  "
          f"({kernels.wgmma_config(*s, 132)['BN']} columns)")
print(f"  {'geomean':>16}  {geomean([wide[s, 'picked'][0] for s in shapes]):>8.3f}  "
      f"{geomean([wide[s, wide_pick(s)][0] for s in shapes]):>8.3f}   ({len(shapes)} shapes)")
print()
for p in ("fp16", "bf16"):   # run 6, on an H100 (the H200 was not lent): 09 and the pick in one call each
    was, now = rows(HERE / f"run6_h100_realign_fresh_09_{p}.txt"), rows(HERE / f"run6_h100_realign_fresh_09_picks_{p}.txt")
    shapes = sorted({s for s, _ in now})
    print(f"run 6 ({p}, H100): 09, the pick before B_REALIGN at these five, beside the pick now (06 realigning), × cuBLAS")
    for s in shapes:
        print(f"  {'×'.join(map(str, s)):>16}  {was[s, 'default'][0]:>8.3f}  {now[s, 'picked'][0]:>8.3f}")
    print(f"  {'geomean':>16}  {geomean([was[s, 'default'][0] for s in shapes]):>8.3f}  "
          f"{geomean([now[s, 'picked'][0] for s in shapes]):>8.3f}   ({len(shapes)} shapes)")
