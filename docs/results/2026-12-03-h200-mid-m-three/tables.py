"""The tables of this directory's README from its raw files (tune_ladder logs, unedited):

    python docs/results/2026-12-03-h200-mid-m-three/tables.py > docs/results/2026-12-03-h200-mid-m-three/tables.txt

For each tune_ladder log: every shape's µs and × cuBLAS per variant, each variant's geomean × cuBLAS,
and (where a log times the pick beside fixed variants) each variant's time over the pick's. Then
for run 2 (scripts/shapes/mid_m_three_fresh.txt, drawn before run 1): the pick — three consumers'
swapped tiles where kernels.wgmma_streams_b_wide fires — against the pick before the rule took M
of 33–64 (wgmma_config with the rule held to M ≤ 32), which the log times as a fixed variant —
at the shapes where the rule as this stop left it fires (after run 3 it leaves M of 33–48 to the 64×48
swapped tiles where those are taken). For run 3: three consumers' tiles, the pick as it ran,
against the pick before, by M's range.
"""
from tcraw import kernels, wgmma
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2] / "scripts"))
from ladder_log import before_after, geomean, label_for, ladder, pick_with_rule_held, rows   # noqa: E402  (scripts/: the logs' reader)


def before_rule(m, n, k):
    """06's pick for (m, n, k) with wgmma_streams_b_wide held to M ≤ 32, as before run 1."""
    return pick_with_rule_held(m, n, k, "wgmma_streams_b_wide", 32)


def rule_then(m, n, k):
    """kernels.wgmma_streams_b_wide as this stop left it (16-bit on 132 SMs): M ≤ 64, rows off
    lines, K of 64 slices or more, 40 % (M ≤ 32) or 25 % of the SMs up to 75 %, and at M of 33–48
    not where the 64×48 swapped tiles are taken (a later stop asked M of 49–64 for 96 slices and
    30 %: docs/results/2026-12-03-h200-mid-m-three-check/)."""
    return m <= 64 and kernels.box_row_requests(2 * n) > 1 and not kernels.wgmma_streams_b_swapped(m, n, k, 132) \
        and wgmma._streams_b_in_one_round(n, k, 132, 2, 128, 64, 0.4 if m <= 32 else 0.25, 0.75)


def before_label(t, m, n, k):
    """The variant of a shape's row ``t`` that is the pick before the rule took M of 33–64."""
    return label_for(t, before_rule(m, n, k))


def mid_rule():
    print("## run 2: the pick against the pick before the rule took M of 33–64, where it fires\n")
    for p in ("fp16", "bf16"):
        path = HERE / f"run2_mid_m_three_fresh_{p}.txt"
        if not path.exists():
            continue
        before, after = [], []
        for shape, t in rows(path).items():
            m, n, k = map(int, shape.split("×"))
            if not rule_then(m, n, k):
                continue
            old = before_label(t, m, n, k)
            before.append(t["cublas"] / t[old])
            after.append(t["cublas"] / t["picked"])
            print(f"  {p} {shape:16s} {before[-1]:.3f} → {after[-1]:.3f}×  (time {t['picked'] / t[old]:.3f} of "
                  f"before; before: {old})")
        print(before_after(p, before, after) + "\n")


def low_end():
    print("## run 3: three consumers' tiles (the pick as run 3 ran it) against the pick before, at the low end\n")
    for lo, hi in ((49, 64), (33, 48)):
        over = []
        for shape, t in rows(HERE / "run3_mid_m_three_low_fp16.txt").items():
            m, n, k = map(int, shape.split("×"))
            if not lo <= m <= hi:
                continue
            old = before_label(t, m, n, k)
            over.append(t["picked"] / t[old])
            print(f"  fp16 {shape:16s} {cdiv(n, 128):3d} tiles {k // 64:3d} slices  time {over[-1]:.3f} of before "
                  f"(before: {old}; the rule now: {'takes it' if rule_then(m, n, k) else 'leaves it'})")
        print(f"  M of {lo}–{hi}: {len(over)} shapes, time geomean {geomean(over):.3f} of before, "
              f"faster at {sum(o < 1 for o in over)}\n")


def cdiv(a, b):
    return -(-a // b)


for name in sorted(p.name for p in HERE.glob("run*_*.txt")):
    if "env" in name or "pytest" in name or "sanitize" in name:
        continue
    ladder(HERE / name)
mid_rule()
low_end()
