"""The tables of this directory's README, from its raw files (run from the repository root):
one consumer's tiles with (WAIT_DEPTH=1) and without (0) a slice's MMAs in flight (run 3); each
measured shape's pick before this change (the picker at c05ba27, read from git) against today's
(runs 3 and 4), both timed in the same call as the other configurations timed there (9 of the
12 candidates); and how many picks of a grid of shapes move, today's and a free refit's.

    python docs/results/2026-12-01-h200-one-consumer-in-flight/pick_table.py
"""
import math
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))
sys.path.insert(0, str(HERE.parents[2] / "scripts"))
from fit_wgmma_model import picker_at, table_rows   # noqa: E402


# "today's" picker: this stop's (54089c0), read from git like the one before it — later stops
# move picks to configurations these runs did not time (2026-12-01-h200-pingpong/)
new = picker_at("54089c0")


def read(paths):
    """{shape: {(consumers, BN, cluster, WAIT_DEPTH): µs}} from tune_ladder's fp16 tables."""
    rows = {}
    for shape, config, us in table_rows(paths):
        tile = {**new.WGMMA_TILE, **config}   # a row that names no WAIT_DEPTH ran without
        rows.setdefault(shape, {})[tile["CONSUMERS"], tile["BN"], tile["CLUSTER"], config.get("WAIT_DEPTH", 0)] = us
    return rows


def name(key):
    return f"{key[0]}×{key[1]} c{key[2]}" + (" wd1" if key[3] else "")


def geomean(values):
    return math.exp(sum(map(math.log, values)) / len(values))


def main():
    run3 = read([HERE / "run3_one_consumer_fp16.txt"])
    print("one consumer, µs without → with a slice in flight (run 3, fp16)")
    configs = [(1, 64, 1), (1, 128, 1), (1, 128, 2), (1, 256, 1), (1, 256, 2)]
    print(f"{'shape':>16}  " + "  ".join(f"{name(c + (0,)):>16}" for c in configs))
    gains = {c: [] for c in configs}
    for shape, times in run3.items():
        cells = []
        for c in configs:
            t0, t1 = times[c + (0,)], times[c + (1,)]
            gains[c].append(t0 / t1)
            cells.append(f"{t0:6.1f} → {t1:6.1f}")
        print(f"{'×'.join(map(str, shape)):>16}  " + "  ".join(f"{cell:>16}" for cell in cells))
    print(f"{'faster (geomean)':>16}  " + "  ".join(f"{geomean(gains[c]) - 1:>+16.1%}" for c in configs))
    print(f"{'(range)':>16}  " + "  ".join(f"{min(gains[c]) - 1:>+7.1%} – {max(gains[c]) - 1:+.1%}" for c in configs))

    old = picker_at("c05ba27")
    rows = {**run3, **read([HERE / "run4_moves_fp16.txt"])}
    print("\nthe pick before (c05ba27, as it ran: no slice in flight) and now, against the fastest configuration "
          "timed (runs 3, 4)")
    ratios_old, ratios_new = [], []
    for shape, times in rows.items():
        before, now = old.wgmma_config(*shape, 132), new.wgmma_config(*shape, 132)
        if before.get("SWAP_AB") or now.get("SWAP_AB"):
            continue   # M ≤ 32: the swapped form, not timed here
        key_old = (before["CONSUMERS"], before["BN"], before["CLUSTER"], 0)
        runs = new.KERNELS["wgmma_tma_fp16"].configured(*shape, 132).defines   # what today's pick builds
        key_new = (now["CONSUMERS"], now["BN"], now["CLUSTER"], int("WAIT_DEPTH=1" in runs))
        best = min(times, key=times.get)
        t_old, t_new = times[key_old], times[key_new]
        ratios_old.append(t_old / times[best])
        ratios_new.append(t_new / times[best])
        print(f"{'×'.join(map(str, shape)):>16}  before {name(key_old):>12} {t_old:6.1f} µs   now {name(key_new):>12} "
              f"{t_new:6.1f} µs ({t_new / t_old - 1:+6.1%})   fastest {name(best):>12} {times[best]:6.1f} µs")
    print(f"{len(ratios_old)} shapes: pick / fastest (geomean) before {geomean(ratios_old):.4f}, now "
          f"{geomean(ratios_new):.4f}; now slower than before by at most "
          f"{max(n / o for n, o in zip(ratios_new, ratios_old)) - 1:+.1%}")

    sizes = [1, 16, 32, 64, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192]
    grid = [(m, n, k) for m in sizes for n in sizes[3:] for k in (256, 1024, 2048, 4096, 8192, 16384, 32768)]
    before = {shape: old.wgmma_config(*shape, 132) for shape in grid}
    print(f"\nthe grid: M in {sizes}, N in {sizes[3:]}, K 256–32768 ({len(grid)} shapes); picks that move "
          "against c05ba27's")
    print(f"  today's picker: {sum(new.wgmma_config(*s, 132) != before[s] for s in grid)}")
    old.WGMMA_SM_TFLOPS.update({(1, 256): 4.4, (1, 128): 4.0, (1, 64): 2.6})   # the free refit, no one-round rule
    print(f"  c05ba27's with the free refit's one-consumer rates: "
          f"{sum(old.wgmma_config(*s, 132) != before[s] for s in grid)}")


if __name__ == "__main__":
    main()
