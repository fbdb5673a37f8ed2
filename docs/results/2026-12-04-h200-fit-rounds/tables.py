"""Reads this folder's logs (tune_ladder.py's tables) and prints tables.txt: runs 1, 3 and 6 each
variant's time over the pick's beside its busiest cluster's MMAs over the pick's (as the tree this
folder landed in computes them: kernels.busiest_slices); runs 2, 4 and 7 the pick before the
rule (old) and after (new), each in its own process. Run from the repository root:
python docs/results/2026-12-04-h200-fit-rounds/tables.py > docs/results/2026-12-04-h200-fit-rounds/tables.txt"""
import math
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from tcraw import kernels  # noqa: E402

HERE = Path(__file__).parent
ROW = re.compile(r"^(cublas|wgmma_\w+\[(.*?)\])\s+\S+\s+(\d+)×(\d+)×(\d+)\s+([\d.]+)")


def rows(path):
    """{(m, n, k): {variant: µs}} from a tune_ladder log's full table ('cublas' for cuBLAS)."""
    out = {}
    for line in open(path):
        if (m := ROW.match(line)):
            out.setdefault(tuple(map(int, m.group(3, 4, 5))), {})[m[2] or "cublas"] = float(m[6]) * 1000
    return out


def geomean(values):
    return math.exp(sum(map(math.log, values)) / len(values))


def mmas(shape, config):
    """The busiest cluster's blocks' MMAs each (k-slices × rows × BN), or None where cut along K."""
    tile = {**kernels.WGMMA_TILE, **config}
    schedule = kernels.wgmma_schedule(*shape, 132, tile)
    return kernels.busiest_slices(schedule, tile) * kernels.wgmma_rows(tile) * tile["BN"]


def variant_config(name, shape):
    if name == "picked":   # the pick as the tree before the rule made it: the log's own configuration column
        return None
    return {key: int(value) for key, value in (item.split("=") for item in name.split("+"))}


def beside(files, title):
    print(f"# {title}\n")
    print("  time / the pick's (busiest cluster's MMAs / the pick's); × cuBLAS of the pick and of each")
    for path in files:
        for shape, times in rows(path).items():
            picked_cfg = PICKS[path.name][shape]
            line = [f"  {'×'.join(map(str, shape)):16s} cuBLAS {times['cublas']:7.1f} µs, pick {times['picked']:7.1f}"
                    f" ({times['cublas'] / times['picked']:.3f}×)"]
            for name, us in times.items():
                if name in ("cublas", "picked"):
                    continue
                cfg = variant_config(name, shape)
                short = ",".join(f"{k}={v}" for k, v in cfg.items() if k in ("BN", "CLUSTER", "SHARE_A", "SWAP_AB")
                                 or (k == "CONSUMERS" and not cfg.get("SWAP_AB")))
                line.append(f"    {short:38s} {us / times['picked']:.3f} ({mmas(shape, cfg) / mmas(shape, picked_cfg):.3f})"
                            f"  {times['cublas'] / us:.3f}×")
            print("\n".join(line))
    print()


def picks(path):
    """{(m, n, k): the pick's macros} from the configuration column of the log's picked rows."""
    out = {}
    for line in open(path):
        parts = line.split()
        if parts and parts[0].endswith("[picked]") and "PASS" in parts:
            shape = tuple(map(int, parts[2].split("×")))
            after = parts[parts.index("PASS") + 1]
            cfg = {} if after.startswith("[") else {k: int(v) for k, v in (i.split("=") for i in after.split("+"))}
            out[shape] = {**{"CONSUMERS": 2, "BN": 256, "CLUSTER": 2}, **cfg}
    return out


def old_new(stem, pairs):
    for key, old, new in pairs:
        a, b = rows(HERE / f"{stem}_{key}_{old}.txt"), rows(HERE / f"{stem}_{key}_{new}.txt")
        time = [b[s]["picked"] / a[s]["picked"] for s in a]
        before = [a[s]["cublas"] / a[s]["picked"] for s in a]
        after = [b[s]["cublas"] / b[s]["picked"] for s in a]
        print(f"  {key} {old} → {new}: time {geomean(time):.3f}× ({min(time):.3f}–{max(time):.3f}), faster at "
              f"{sum(t < 1 for t in time)} of {len(time)}; × cuBLAS {geomean(before):.3f} → {geomean(after):.3f}; "
              f"below 0.85× {sum(x < 0.85 for x in before)} → {sum(x < 0.85 for x in after)}")
        if (key, old) == pairs[0][:2]:
            for s in a:
                print(f"      {'×'.join(map(str, s)):16s} {a[s]['picked']:7.1f} → {b[s]['picked']:7.1f} µs  "
                      f"{a[s]['cublas'] / a[s]['picked']:.3f} → {b[s]['cublas'] / b[s]['picked']:.3f}× cuBLAS")
    print()


RUN1 = sorted(HERE.glob("run1_rounds_*_fp16.txt"))
RUN3 = [HERE / "run3_rounds_208_fp16.txt"]
RUN6 = sorted(HERE.glob("run6_rounds_more_*_fp16.txt"))
PICKS = {path.name: picks(path) for path in RUN1 + RUN3 + RUN6}
beside(RUN1, "Run 1: M of 481–768, swapped tiles of 4 of M (stream-K over any last round) beside the pick, fp16")
beside(RUN3, "Run 3: M of 385–416 and 769–832, 2 × 2 swapped tiles of 208 of M beside the pick, fp16")
beside(RUN6, "Run 6: 2 × 2 swapped tiles of 160 / 176 of M, 2 of M at M of 289–352 and 6 at 865–1056, beside the pick, fp16")
print("# Run 2: the rule (M of 513–768) on 20 shapes drawn after it (scripts/shapes/fit_rounds_fresh.txt)\n")
old_new("run2_fit_rounds_fresh", [("fp16", "old", "new"), ("fp16", "old2", "new2"), ("bf16", "old", "new")])
print("# Run 4: the rule with 208 of M (M of 385–416, 769–832) on 12 shapes drawn after (fit_rounds_208_fresh.txt)\n")
old_new("run4_fit_rounds_208_fresh", [("fp16", "old", "new"), ("bf16", "old", "new")])
print("# Run 7: the rule with 2 tiles of M from 257 on 12 shapes of M 257–384 drawn after (fit_rounds_two_fresh.txt)\n")
old_new("run7_fit_rounds_two_fresh", [("fp16", "old", "new"), ("bf16", "old", "new")])
