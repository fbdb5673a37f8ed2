"""The tables of this directory's README from its raw files (tune_ladder and `tcraw bench` logs,
unedited):

    python docs/results/2026-12-03-h200-mid-m-swapped-wider/tables.py > docs/results/2026-12-03-h200-mid-m-swapped-wider/tables.txt

For each tune_ladder log: every shape's µs and × cuBLAS per variant, each variant's geomean × cuBLAS,
and (where a log times the pick beside fixed variants) each variant's time over the pick's. For the
survey (run 3): the geomean, and every shape below 0.92× in either precision. For runs 5–6: the
three consumers' pick (kernels.wgmma_streams_b_wide) against the pick before it — two consumers'
tiles of BN 16 at M ≤ 16, 32 above — at the shapes where the rule fires.
"""
from tcraw import kernels, wgmma
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2] / "scripts"))
from ladder_log import before_after, geomean, ladder, rows   # noqa: E402  (scripts/: the logs' reader)


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


def wide_rule_then(m, n, k):
    """kernels.wgmma_streams_b_wide as this stop left it (fp16/bf16 on 132 SMs): M ≤ 32, rows off
    lines, K of 64 slices or more, 40–100 % of the SMs (a later stop capped it at 75 %)."""
    return m <= 32 and kernels.box_row_requests(2 * n) > 1 and \
        wgmma._streams_b_in_one_round(n, k, 132, 2, 128, 64, 0.4, 1.0)


def wide_rule():
    print("## runs 5–6: three consumers' swapped tiles against two consumers' (the pick before them)\n")
    for p in ("fp16", "bf16"):
        before, after = [], []
        for name in ("small_m_wide_fresh", "split_rounds_fresh"):
            path = next(HERE.glob(f"run[56]_{name}_{p}.txt"))
            for shape, t in rows(path).items():
                m, n, k = map(int, shape.split("×"))
                if not wide_rule_then(m, n, k):
                    continue
                old = t[f"SWAP_AB=1+CONSUMERS=2+CLUSTER=1+STAGES=8+BN={16 if m <= 16 else 32}"]
                before.append(t["cublas"] / old)
                after.append(t["cublas"] / t["picked"])
                print(f"  {p} {shape:16s} {t['cublas'] / old:.3f} → {t['cublas'] / t['picked']:.3f}×  "
                      f"(time {t['picked'] / old:.3f} of before)")
        print(before_after(p, before, after) + "\n")


for name in sorted(p.name for p in HERE.glob("run*_*.txt")):
    if "survey" in name or "env" in name or "ncu" in name or "pytest" in name:
        continue
    ladder(HERE / name)
survey()
wide_rule()
