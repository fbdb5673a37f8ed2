"""The tables of this directory's README from its raw files (tune_ladder and `tcraw bench` logs, unedited):

    python docs/results/2026-12-03-h200-gemv-pipelined/tables.py > docs/results/2026-12-03-h200-gemv-pipelined/tables.txt

Run 1: 10 with two groups of loads in flight against 10 as it was, four processes a shape file
(old, new, old, new; each beside its own cuBLAS): a shape's time the lesser of its two turns, its
× cuBLAS against the least cuBLAS time of the four. Run 2: at M of 3–4, 10 (its split pick) against
06's pick there (09 where N is off 8, else 06's swapped tiles), each log its own process. Run 3:
the llm suite against its last full run (docs/results/2026-12-03-h200-gemv-10/, run 3). Runs
4–5: 10's split pick against K in 4, 8, 16 and 32 pieces at B under 40 MB, fp16 and bf16.
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
LAST = HERE.parent / "2026-12-03-h200-gemv-10"
sys.path.insert(0, str(HERE.parents[2] / "scripts"))
from ladder_log import before_after, geomean, ladder, rows   # noqa: E402  (scripts/: the logs' reader)


def old_new(name, key):
    """Run 1's four logs of one shape file: a row a shape, then the geomeans."""
    turns = {t: rows(HERE / f"run1_{name}_pipe_{t}_{key}.txt") for t in ("old1", "new1", "old2", "new2")}
    print(f"## {name}.txt, {key}: µs (the lesser of two turns), × cuBLAS (its least of four)\n")
    print(f"  {'shape':16s} {'cuBLAS':>7s} {'old':>7s} {'new':>7s}  new/old   × old → new")
    over, before, after = [], [], []
    for shape in turns["old1"]:
        cublas = min(t[shape]["cublas"] for t in turns.values())
        old, new = (min(turns[f"{w}{i}"][shape]["default"] for i in (1, 2)) for w in ("old", "new"))
        over.append(new / old), before.append(cublas / old), after.append(cublas / new)
        print(f"  {shape:16s} {cublas:7.2f} {old:7.2f} {new:7.2f}  {new / old:.3f}   {cublas / old:.3f} → {cublas / new:.3f}")
    print(f"  new / old: geomean {geomean(over):.3f}, less time at {sum(o < 1 for o in over)} of {len(over)}, "
          f"{min(over):.3f}–{max(over):.3f}")
    print(before_after(key, before, after) + "\n")
    return over


def main():
    print("# Run 1: 10, two groups of loads in flight (new) against one (old)\n")
    over = old_new("gemv_10", "fp16") + old_new("gemv_10_fresh", "fp16")
    print(f"  both files, fp16: new / old geomean {geomean(over):.3f}, less time at {sum(o < 1 for o in over)} "
          f"of {len(over)}\n")

    print("# Run 2: M of 3–4 (scripts/shapes/gemv_10_m34.txt), 10 against 06's pick there\n")
    for key in ("fp16", "bf16"):
        ten, pick = rows(HERE / f"run2_gemv_10_m34_gemv_{key}.txt"), rows(HERE / f"run2_gemv_10_m34_wgmma_{key}.txt")
        before, after, time = [], [], []
        for shape in ten:
            time.append(ten[shape]["default"] / pick[shape]["picked"])
            before.append(pick[shape]["cublas"] / pick[shape]["picked"])
            after.append(ten[shape]["cublas"] / ten[shape]["default"])
            print(f"  {key} {shape:15s} pick {pick[shape]['picked']:7.2f} µs ({before[-1]:.3f}×)  10 "
                  f"{ten[shape]['default']:7.2f} µs ({after[-1]:.3f}×)  time {ten[shape]['default'] / pick[shape]['picked']:.3f}")
        print(before_after(key, before, after) + "  (× cuBLAS, each log's own)")
        print(f"  {key}: 10's time over the pick's: geomean {geomean(time):.3f}, less at {sum(t < 1 for t in time)} "
              f"of {len(time)}, more at " + ", ".join(f"{s} ({t:+.1%})" for s, t in zip(ten, (t - 1 for t in time))
                                                     if t > 0) + "\n")

    llm = sorted(HERE.glob("run3_llm_*.txt"))
    if llm:
        print("# Run 3: the llm suite against its last full run (gemv-10, run 3)\n")
    for path in llm:
        key = path.stem.rpartition("_")[2]
        now, then, kernel = rows(path), rows(LAST / f"run3_llm_{key}.txt"), f"wgmma_tma_{key}"
        ratio = {s: t["cublas"] / t[kernel] for s, t in now.items()}
        was = {s: then[s]["cublas"] / then[s][kernel] for s in now}
        for s in now:
            if s.startswith("1×"):
                print(f"  {key} {s:14s} {was[s]:.3f} → {ratio[s]:.3f}×")
        print(f"  {key}: {len(now)} shapes, geomean {geomean(list(was.values())):.4f} → "
              f"{geomean(list(ratio.values())):.4f}× cuBLAS; least {min(ratio.values()):.3f} ({min(ratio, key=ratio.get)})\n")

    print("# Runs 4–5: 10's split pick (default) against K in 4, 8, 16, 32 pieces, B under 40 MB\n")
    for path in sorted(HERE.glob("run[45]_gemv_10_splits_*.txt")):
        ladder(path)
        table = rows(path)
        best = {s: min(v for label, v in t.items() if label != "cublas") / t["default"] for s, t in table.items()}
        print(f"  the best of the five over the pick: geomean {geomean(list(best.values())):.3f}; a fixed split 2 % "
              f"or more ahead of the pick at {sum(b < 0.98 for b in best.values())} of {len(best)} (least "
              f"{min(best.values()):.3f}, {min(best, key=best.get)})\n")


if __name__ == "__main__":
    main()
