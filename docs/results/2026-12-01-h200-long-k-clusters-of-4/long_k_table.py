"""The tables of this directory's README, from its raw files (run from the repository root): 2 × 2
clusters of 128×128 tiles beside the picks on long-K shapes with few tiles (run 1) and on fresh
ones drawn where the rule they led to fires (run 2, fp16 and bf16); the picks that rule moves on
the earlier stops' grids; the suites' picks moved to 192-row tiles last stop, old beside new (run 3);
every suite's geomean (runs 4, 5); and what breaking the model's ties toward whole tiles only
against split-K, not against stream-K's cut of a last round, would move among the shapes timed
since 2026-12-01 and on the grids (no code does so: a question for the next device session).

    python docs/results/2026-12-01-h200-long-k-clusters-of-4/long_k_table.py
"""
import math
import random
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))
sys.path.insert(0, str(HERE.parents[2] / "scripts"))
from fit_wgmma_model import pick_grids, picker_at, table_rows   # noqa: E402

new = picker_at("d8cbdb4")     # this stop's rule as run 2's shapes were drawn with it (wgmma_shares_both)
mended = picker_at("4ac9765")  # the rule as this stop leaves it: M and N whole 256s (pinned, so the tables
#                                reproduce after later stops)
old = picker_at("591d321")     # the last stop's picker
QUAD = "BN=128+STAGES=6+CLUSTER=4+SHARE_A=1"   # SHARED_BOTH_CONFIG as tune_ladder labels it
PAIR = "BN=128+STAGES=6"                        # 128×128 in clusters of 2 along M: the picks it replaces


def dims(text):
    d = tuple(int(v) for v in text.replace("³", "").split("×"))
    return d * 3 if len(d) == 1 else d


def streamed(file, prefix="wgmma_fp16"):
    """{(label, shape): (TFLOP/s, × cuBLAS)} of the lines tune_ladder and bench print as each shape
    is done (verified: a failed one prints FAILED)."""
    out = {}
    for line in (HERE / file).read_text().splitlines():
        m = re.match(rf"\s*{prefix}(?:\[(.*?)\])?\s+(\S+)\s+([\d.]+) TFLOP/s\s+([\d.]+)× cuBLAS", line)
        if m:
            out[m.group(1) or "", dims(m.group(2))] = (float(m.group(3)), float(m.group(4)))
    return out


def us(shape, tflops):
    return 2 * math.prod(shape) / tflops / 1e6


def geomean(values):
    return math.exp(sum(map(math.log, values)) / len(values))


def fmt(shape):
    return "×".join(map(str, shape))


def pieces(shape, config):
    return new.wgmma_schedule(*shape, 132, {**new.WGMMA_TILE, **config})[3]


def run1():
    print("Run 1 (fp16, µs; pieces along K in brackets): long-K shapes with few tiles "
          "(scripts/shapes/split_configs.txt)")
    t = {**streamed("run1_few_tiles_cluster4_fp16.txt"), **streamed("run1_few_tiles_picked_fp16.txt")}
    labels = ["picked", PAIR, QUAD, "default", "CLUSTER=4+SHARE_A=1", "CLUSTER=4"]
    names = ["pick", "128×128 c2", "128×128 2×2", "128×256 c2", "128×256 2×2", "128×256 4×1"]
    configs = [None, {"CONSUMERS": 2, "BN": 128, "CLUSTER": 2}, new.SHARED_BOTH_CONFIG,
               {"CONSUMERS": 2, "BN": 256, "CLUSTER": 2}, {"CONSUMERS": 2, "BN": 256, "CLUSTER": 4, "SHARE_A": 1},
               {"CONSUMERS": 2, "BN": 256, "CLUSTER": 4}]
    shapes = [s for (label, s) in t if label == QUAD]
    print(f"  {'shape':>16} " + " ".join(f"{n:>16}" for n in names) + "   2×2 vs pick (another process)"
          "   2×2 vs 128×128 c2 (same call)")
    for shape in shapes:
        cells = []
        for label, config in zip(labels, configs):
            config = config or old.wgmma_config(*shape, 132)   # the pick as it ran: the last stop's picker
            cells.append(f"{us(shape, t[label, shape][0]):9.1f} ({pieces(shape, config):2d})")
        change = t["picked", shape][0] / t[QUAD, shape][0] - 1   # 2 × 2's time against the pick's
        same = t[PAIR, shape][0] / t[QUAD, shape][0] - 1
        print(f"  {fmt(shape):>16} " + " ".join(f"{c:>16}" for c in cells) + f"   {change:+14.1%}   {same:+16.1%}")


def draw():
    """scripts/shapes/long_k_cluster4_fresh.txt's draw, again (it must give the file's shapes): where
    this stop's rule fires over the model's pick."""
    rng, out = random.Random(25), []
    while len(out) < 14:
        m, n, k = rng.randrange(256, 1664, 128), rng.randrange(256, 1664, 128), rng.randrange(8192, 65537, 1024)
        if new.wgmma_shares_both(m, n, k, 132, new.wgmma_choose(new.wgmma_ranked(m, n, k, 132))) and \
                (m, n, k) not in out:
            out.append((m, n, k))
    return out


def run2():
    shapes = draw()
    listed = [tuple(int(v) for v in line.split()) for line in
              (HERE.parents[2] / "scripts/shapes/long_k_cluster4_fresh.txt").read_text().splitlines()
              if line[:1].isdigit()]
    assert shapes == listed, "the fresh shapes no longer come from their draw"
    for p, file, extra in (("fp16", "run2_c4long_fresh_fp16.txt", "default"), ("bf16", "run2_c4long_bf16.txt", None)):
        t = streamed(file, f"wgmma_{p}")
        print(f"\nRun 2 ({p}, µs, × cuBLAS): 2 × 2 clusters of 128×128 tiles against the pick, 128×128 in clusters "
              "of 2 (pieces along K)" + (", and 128×256 in clusters of 2" if extra is not None else ""))
        changes = []
        for shape in [s for (label, s) in t if label == QUAD]:
            pair, quad = t[PAIR, shape], t[QUAD, shape]
            ratio = pair[0] / quad[0]   # 2 × 2's time over the pick's configuration's
            ruled = mended.wgmma_config(*shape, 132) == mended.SHARED_BOTH_CONFIG
            if shape in shapes:
                assert ruled and new.wgmma_config(*shape, 132) == new.SHARED_BOTH_CONFIG, shape
                changes.append(ratio)
            wide = f"   128×256 c2 {us(shape, t[extra, shape][0]):6.1f}" if extra is not None else ""
            print(f"  {fmt(shape):>16} 128×128 c2 {us(shape, pair[0]):6.1f} ({pieces(shape, {'BN': 128, 'CONSUMERS': 2}):2d}) "
                  f"{pair[1]:.3f}×   2×2 {us(shape, quad[0]):6.1f} ({pieces(shape, new.SHARED_BOTH_CONFIG):2d}) "
                  f"{quad[1]:.3f}×   {ratio - 1:+6.1%} time" + wide
                  + ("" if shape in shapes else ("   (long-k suite: picked 2 × 2)" if ruled else
                                                  "   (long-k suite: not the rule's)")))
        print(f"  the {len(changes)} fresh shapes: 2 × 2 took {1 - max(changes):.1%} to {1 - min(changes):.1%} less "
              f"time than 128×128 in clusters of 2 (geomean {1 - geomean(changes):.1%} less)")


def grids():
    print("\nPicks the rule moves (fp16; the rule alone: the model's ranking is unchanged):")
    for name, grid in zip(("the earlier stops' grid, rows on lines", "the grid of rows off lines"), pick_grids()):
        for label, picker in (("as run 2's shapes were drawn", new), ("as left (M, N whole 256s)", mended)):
            moved = [s for s in grid if picker.wgmma_config(*s, 132) != old.wgmma_config(*s, 132)]
            assert all(picker.wgmma_config(*s, 132) == picker.SHARED_BOTH_CONFIG for s in moved)
            print(f"  {name}, {label}: {len(moved)} of {len(grid)}" + (f": {', '.join(map(fmt, moved))}" if moved else ""))
            for eb in (1, 4):
                assert not [s for s in grid if picker.wgmma_config(*s, 132, eb) != old.wgmma_config(*s, 132, eb)]
    print("  8-bit and TF32 picks: none moves")


def run3():
    print("\nRun 3 (fp16, TFLOP/s): the suites' picks moved to 192-row tiles last stop, old beside new, one process")
    t = streamed("run3_rows192_moves_old_vs_new_fp16.txt")
    label = {(2, 256, 2, 0): "default", (2, 128, 1, 0): "BN=128+CLUSTER=1+STAGES=6", (2, 192, 2, 0): "BN=192",
             (3, 192, 2, 0): "CONSUMERS=3+BN=192+STAGES=3", (3, 192, 1, 0): "CONSUMERS=3+BN=192+STAGES=3+CLUSTER=1"}

    def of(pick):
        return label[pick["CONSUMERS"], pick["BN"], pick["CLUSTER"], pick.get("SHARE_A", 0)]
    for shape in dict.fromkeys(s for (_, s) in t):
        before, after = picker_at("6dd4930").wgmma_config(*shape, 132), new.wgmma_config(*shape, 132)
        b, a = t[of(before), shape][0], t[of(after), shape][0]
        best = max((v[0], k) for (k, s), v in t.items() if s == shape)
        print(f"  {fmt(shape):>16} old pick {b:6.1f}   new pick {a:6.1f}   {b / a - 1:+6.1%} time   "
              f"(fastest timed {best[0]:.1f}: {best[1]})")


def suites():
    print("\nRuns 4, 5: every suite with the picks (bench's summary lines; 5 warm-up launches, before the floor)")
    for p, file in (("fp16", "run4_all_suites_fp16.txt"), ("bf16", "run5_all_suites_bf16.txt")):
        for line in (HERE / file).read_text().splitlines():
            fields = line.split()
            if len(fields) >= 8 and "→" in fields[1] and fields[2].startswith("wgmma") and fields[3].isdigit():
                print(f"  {p} {fields[0]:>7}: {fields[3]:>2} shapes, geomean {float(fields[4]):.3f}×, "
                      f"worst {float(fields[5]):.3f}× at {fields[6]}")


def whole_only_against_split_k(m, n, k, ranked):
    """wgmma_choose's pick with its second tie-break, whole tiles, weighed only against split-K."""
    best = min(r[0] for r in ranked)
    tied = [r for r in ranked if r[0] <= best * 1.02]
    least = min(r[1] for r in tied)
    return dict(min(tied, key=lambda r: (r[1] > least * 1.05,
                                         mended.wgmma_schedule(m, n, k, 132, {**mended.WGMMA_TILE, **r[4]})[3] > 1,
                                         r[3]))[4])


def ties():
    def key(config):
        tile = {**mended.WGMMA_TILE, **config}
        return tile["CONSUMERS"], tile["BN"], tile["CLUSTER"], tile["SHARE_A"], tile["PINGPONG"]

    def moved(m, n, k):
        ranked = mended.wgmma_ranked(m, n, k, 132)
        base = mended.wgmma_choose(ranked)
        if mended.wgmma_takes_turns(m, n, k, 132, base) or mended.wgmma_shares_both(m, n, k, 132, base):
            return None
        alt = whole_only_against_split_k(m, n, k, ranked)
        return (key(base), key(alt)) if key(alt) != key(base) else None

    print("\nTies broken toward whole tiles only against split-K (fp16): the shapes timed since 2026-12-01 "
          "where that moves the pick, µs")
    for path in sorted(HERE.parent.glob("2026-12-01-h200-*/run*.txt")):
        timed = {}
        try:
            rows = table_rows([path])
        except ValueError:   # the picks' tables (labels "picked"): no fixed configuration to weigh
            continue
        for shape, config, t in rows:
            if config.get("WAIT_DEPTH", 0) != mended.wgmma_wait_depth({**mended.WGMMA_TILE, **config, "WAIT_DEPTH": None}):
                continue   # not how the pick's configuration runs
            timed.setdefault(shape, {})[key(config)] = t
        for shape, row in timed.items():
            if (pair := moved(*shape)) and all(p in row for p in pair):
                base, alt = row[pair[0]], row[pair[1]]
                print(f"  {path.parent.name[16:]}/{path.name[:28]:28} {fmt(shape):>17} {pair[0]} {base:7.1f} -> "
                      f"{pair[1]} {alt:7.1f}   {alt / base - 1:+5.1%}")
    for name, grid in zip(("rows on lines", "rows off lines"), pick_grids()):
        print(f"  the grid of {name}: {sum(1 for s in grid if mended.wgmma_ranked(*s, 132) and moved(*s))} of "
              f"{len(grid)} picks would move")


if __name__ == "__main__":
    run1()
    run2()
    grids()
    run3()
    suites()
    ties()
