"""The tables of this directory's README from its raw files (tune_ladder and `tcraw bench` logs,
unedited):

    python docs/results/2026-12-03-h200-mid-m-swapped-wider/tables.py > docs/results/2026-12-03-h200-mid-m-swapped-wider/tables.txt

For each tune_ladder log: every shape's µs and × cuBLAS per variant, each variant's geomean × cuBLAS,
and (where a log times the pick beside fixed variants) each variant's time over the pick's. For the
survey (run 3): the geomean, and every shape below 0.92× in either precision. For runs 5–6: the
three consumers' pick (kernels.wgmma_streams_b_wide) against the pick before it — two consumers'
tiles of BN 16 at M ≤ 16, 32 above — at the shapes where the rule fires.
"""
from tcraw import kernels
import math
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
# a tune_ladder or `tcraw bench` row: kernel[variant], precision, shape, median ms, ...
ROW = re.compile(r"^(cublas|wgmma\S*)\s+\S+\s+(\d+×\d+×\d+)\s+([\d.]+)\s")


def rows(path):
    """{shape: {label: µs}} in the log's order (label: cublas, or the variant in brackets)."""
    out = {}
    for line in path.read_text().splitlines():
        if (m := ROW.match(line)):
            label = "cublas" if m.group(1) == "cublas" else (m.group(1).partition("[")[2].rstrip("]") or m.group(1))
            out.setdefault(m.group(2), {})[label] = float(m.group(3)) * 1e3
    return out


def geomean(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


def ladder(path):
    table = rows(path)
    labels = [label for label in next(iter(table.values())) if label != "cublas"]
    print(f"## {path.name}\n")
    for i, label in enumerate(labels):
        print(f"  v{i} = {label}")
    print(f"\n  {'shape':18s} {'cuBLAS µs':>10s} " + " ".join(f"{'v%d µs (×)' % i:>17s}" for i in range(len(labels))))
    for shape, t in table.items():
        print(f"  {shape:18s} {t['cublas']:10.2f} " + " ".join(
            f"{t[label]:8.2f} ({t['cublas'] / t[label]:.3f})" for label in labels))
    print("  geomean × cuBLAS: " + ", ".join(
        f"v{i} {geomean([t['cublas'] / t[label] for t in table.values()]):.3f}" for i, label in enumerate(labels)))
    if labels[0] == "picked":
        for i, label in enumerate(labels[1:], 1):
            over = [t[label] / t["picked"] for t in table.values()]
            print(f"  v{i} time / the pick's: geomean {geomean(over):.3f}, range {min(over):.3f}–{max(over):.3f}, "
                  f"slower at {sum(o > 1 for o in over)} of {len(over)}")
    print()


def survey():
    print("## run3_survey (scripts/shapes/survey_fresh_3.txt)\n")
    both = {p: rows(HERE / f"run3_survey_{p}.txt") for p in ("fp16", "bf16")}
    for p, table in both.items():
        r = [t["cublas"] / t["wgmma_tma_" + p] for t in table.values()]
        print(f"  {p}: {len(r)} shapes, geomean {geomean(r):.3f}×, below 0.85× {sum(x < 0.85 for x in r)}, "
              f"worst {min(r):.3f}×")
    print(f"\n  {'shape':18s} {'fp16 ×':>7s} {'bf16 ×':>7s}   (every shape below 0.92× in either)")
    for shape in both["fp16"]:
        r = [both[p][shape]["cublas"] / both[p][shape]["wgmma_tma_" + p] for p in both]
        if min(r) < 0.92:
            print(f"  {shape:18s} {r[0]:7.3f} {r[1]:7.3f}")
    print()


def wide_rule():
    print("## runs 5–6: three consumers' swapped tiles against two consumers' (the pick before them)\n")
    for p in ("fp16", "bf16"):
        before, after = [], []
        for name in ("small_m_wide_fresh", "split_rounds_fresh"):
            path = next(HERE.glob(f"run[56]_{name}_{p}.txt"))
            for shape, t in rows(path).items():
                m, n, k = map(int, shape.split("×"))
                if not kernels.wgmma_streams_b_wide(m, n, k, 132):
                    continue
                old = t[f"SWAP_AB=1+CONSUMERS=2+CLUSTER=1+STAGES=8+BN={16 if m <= 16 else 32}"]
                before.append(t["cublas"] / old)
                after.append(t["cublas"] / t["picked"])
                print(f"  {p} {shape:16s} {t['cublas'] / old:.3f} → {t['cublas'] / t['picked']:.3f}×  "
                      f"(time {t['picked'] / old:.3f} of before)")
        over = [b / a for a, b in zip(after, before)]
        print(f"  {p}: {len(after)} shapes, geomean {geomean(before):.3f} → {geomean(after):.3f}× cuBLAS; "
              f"faster at {sum(o < 1 for o in over)}, time {min(over):.3f}–{max(over):.3f} of before; "
              f"below 0.85× {sum(x < 0.85 for x in before)} → {sum(x < 0.85 for x in after)}\n")


for name in sorted(p.name for p in HERE.glob("run*_*.txt")):
    if "survey" in name or "env" in name or "ncu" in name or "pytest" in name:
        continue
    ladder(HERE / name)
survey()
wide_rule()
