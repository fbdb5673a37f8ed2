"""The tables of this directory's README, from its raw files (run from the repository root):
rows 16 bytes off a 32-byte boundary against twins on 128-byte lines (run 2); A's row pitch
swept at 5000×5000×K (run 1); Nsight Compute's L2 requests at 3000³ and 3008³ (run 5); the picks
before the L2-request term (the picker at 7b5dbff, read from git) against today's, on the shapes
the term was judged on (runs 1–4) and on fresh ones drawn after (runs 6, fp16, and 7, bf16); how
many picks of two grids move.

    python docs/results/2026-12-01-h200-pitch/pitch_table.py
"""
import csv
import math
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))
sys.path.insert(0, str(HERE.parents[2] / "scripts"))
from fit_wgmma_model import pick_grids, picker_at, table_rows   # noqa: E402

# today's picker as this directory's stop left it (9818395), so the tables reproduce after later stops
new = picker_at("9818395")


old = picker_at("7b5dbff")   # the last stop's picker, before this one's changes


def key(config):
    tile = {**new.WGMMA_TILE, **config}
    return tile["CONSUMERS"], tile["BN"], tile["CLUSTER"], tile["PINGPONG"]


def name(k):
    return f"{k[0]}×{k[1]} c{k[2]}" + (f" turns {k[3]}" if k[3] else "")


def read(files):
    """{file: {shape: {configuration key: µs}}}, from tune_ladder's wgmma tables."""
    return {f: {shape: {key(c): us for s, c, us in table_rows([HERE / f]) if s == shape}
                for shape in dict.fromkeys(s for s, _, _ in table_rows([HERE / f]))} for f in files}


def geomean(values):
    return math.exp(sum(map(math.log, values)) / len(values))


def twins():
    print("rows 16 bytes off 32 against twins on 128-byte lines, same tiles and k-slices (run 2, fp16): time "
          "per MMA, misaligned / aligned")
    tables = read(["run2_pitch_16_fp16.txt"])["run2_pitch_16_fp16.txt"]
    shapes = list(tables)
    for bad, good in zip(shapes[::2], shapes[1::2]):
        flops = (bad[0] * bad[1] * bad[2]) / (good[0] * good[1] * good[2])
        cells = [f"{name(k)} ×{tables[bad][k] / tables[good][k]:.2f}" for k in tables[bad] if k in tables[good]]
        rows = [f"A {bad[2] * 2} B", f"B {bad[1] * 2} B"]
        print(f"  {'×'.join(map(str, bad)):>14} ({', '.join(rows)}) against {'×'.join(map(str, good))}: "
              + ", ".join(cells) + f"   (its MACs ×{flops:.3f})")
    print("  (the same MMAs: the twins keep each tile count and k-slice count, so time alone compares)")


def k_sweep():
    print("\nA's row pitch at 5000×5000×K (run 1, fp16; B's rows 10000 bytes, 16 off 32, in all): µs")
    tables = read(["run1_a_pitch_fp16.txt"])["run1_a_pitch_fp16.txt"]
    for shape, times in sorted(tables.items(), key=lambda kv: kv[0][2]):
        row = shape[2] * 2
        grain = "128" if row % 128 == 0 else "64" if row % 64 == 0 else "32" if row % 32 == 0 else "16"
        print(f"  K {shape[2]:>5} (rows {row} B, {grain}-byte aligned): "
              + ", ".join(f"{name(k)} {us:7.2f}" for k, us in times.items()))


def ncu():
    print("\nNsight Compute, one launch each (run 5): L2 read requests and sectors from the SMs")
    wanted = {"gpu__time_duration.sum": "µs", "lts__t_requests_srcunit_tex_op_read.sum": "requests",
              "lts__t_sectors_srcunit_tex_op_read.sum": "sectors",
              "lts__throughput.avg.pct_of_peak_sustained_elapsed": "L2 %",
              "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed": "tensor pipe %"}
    for size in (3000, 3008):
        rows = list(csv.reader(open(HERE / f"run5_ncu_{size}_raw.csv")))
        head = next(i for i, r in enumerate(rows) if r and r[0] == "ID")
        for r in rows[head + 2:]:
            rec = dict(zip(rows[head], r))
            if len(r) != len(rows[head]):
                continue
            req, sec, us = (float(rec[m]) for m in ("lts__t_requests_srcunit_tex_op_read.sum",
                                                    "lts__t_sectors_srcunit_tex_op_read.sum", "gpu__time_duration.sum"))
            print(f"  {size}³ {rec['Kernel Name'][:48]:<48} " +
                  ", ".join(f"{label} {float(rec[m]):,.1f}" for m, label in wanted.items()) +
                  f", sectors a request {sec / req:.2f}, {req / us / 1e3:.1f} G requests/s")


def picks(label, files):
    tables = read(files)
    print(f"\n{label}: the pick before (7b5dbff) and now, µs as timed (— where not timed), and the fastest timed")
    before, now = [], []
    for f, shapes in tables.items():
        for shape, times in shapes.items():
            a, b = key(old.wgmma_config(*shape, 132)), key(new.wgmma_config(*shape, 132))
            best = min(times, key=times.get)
            cell = lambda k: f"{times[k]:7.1f}" if k in times else "      —"   # noqa: E731
            change = "" if a == b or a not in times or b not in times else f" ({times[b] / times[a] - 1:+.1%})"
            print(f"  {f[:4]} {'×'.join(map(str, shape)):>15}  before {name(a):>10} {cell(a)}   now {name(b):>10} "
                  f"{cell(b)}{change:>10}   fastest {name(best):>10} {times[best]:7.1f}")
            if a in times and b in times:
                before.append(times[a] / times[best])
                now.append(times[b] / times[best])
    print(f"  {len(now)} timings with both picks timed: pick / fastest timed (geomean) before {geomean(before):.3f}, "
          f"now {geomean(now):.3f}; now slower than before by at most {max(n / o for n, o in zip(now, before)) - 1:+.1%}")


def share_a():
    print("\nclusters sharing A (SHARE_A=1) against the same tiles sharing B, same call (run 8, fp16): µs, and the "
          "fastest of each kind")
    shares = {}
    for shape, config, us in table_rows([HERE / "run8_share_a_fp16.txt"]):
        tile = {**new.WGMMA_TILE, **config}
        shares.setdefault(shape, {})[tile["BN"], tile["SHARE_A"]] = us
    for shape, t in shares.items():
        cells = [f"{bn}: {t[bn, 0]:6.1f} → {t[bn, 1]:6.1f} ({t[bn, 1] / t[bn, 0] - 1:+6.1%})" for bn in (256, 192, 128)]
        best_b = min(t[k] for k in t if not k[1])
        best_a = min(t[k] for k in t if k[1])
        rows = ("on lines" if 2 * shape[1] % 128 == 0 else "off lines")
        print(f"  {'×'.join(map(str, shape)):>15} (B's rows {rows})  " + "   ".join(cells) +
              f"   fastest {best_b:6.1f} → {best_a:6.1f} ({best_a / best_b - 1:+6.1%})")


def grids():
    aligned, off = pick_grids()
    print()
    for label, grid in (("the earlier stops' grid (rows on 128-byte lines but for N = 16, 32)", aligned),
                        ("a grid of rows mostly off 128-byte lines (run 6 drew from it)", off)):
        for elem in (2, 1, 4):
            moved = sum(old.wgmma_config(*s, 132, elem) != new.wgmma_config(*s, 132, elem) for s in grid)
            print(f"{label}, {elem}-byte inputs: {moved} of {len(grid)} picks move")


if __name__ == "__main__":
    twins()
    k_sweep()
    ncu()
    picks("shapes the term was judged on (runs 1–4)", ["run1_a_pitch_fp16.txt", "run2_pitch_16_fp16.txt",
                                                        "run3_pitch_moves_fp16.txt", "run4_pitch_64_fp16.txt"])
    picks("fresh shapes, drawn after the term was written (run 6, fp16)", ["run6_pitch_fresh_fp16.txt"])
    picks("more fresh shapes (run 7, bf16)", ["run7_pitch_fresh_bf16.txt"])
    share_a()
    grids()
