"""The tables of this directory's README, from its raw files (`tcraw bench` and
scripts/pitch_study.py output, unedited):

    python docs/results/2026-12-02-h200-pitch-kernel-survey/survey_table.py > docs/results/2026-12-02-h200-pitch-kernel-survey/survey_table.txt

1. The survey (scripts/shapes/survey_fresh.txt): each shape's × cuBLAS with the copies by
   cuMemcpy2DAsync (run 1) and by cuda_src/pitch_rows.cu (fp16 run 2, bf16 run 3), ours and
   cuBLAS's µs, the operands copied; geomeans, how many below 0.85×, the worst.
2. The copies' A/B in one process (run 3): time with pitch_rows.cu / time with cuMemcpy2DAsync.
3. The odd suite (run 5) against the last full run's (docs/results/2026-12-01-h200-suites-at-head/).
4. A second survey (run 7, scripts/shapes/survey_fresh_2.txt: drawn after the first had driven the
   change) as the tree now runs it: every shape below 0.90× in either precision, the geomeans.
"""
import math
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
LAST = HERE.parent / "2026-12-01-h200-suites-at-head"
# a `tcraw bench` row: kernel, precision, shape, median ms, ..., the operands copied (last column)
ROW = re.compile(r"^(cublas|wgmma_tma_\w+)\s+\S+\s+(\d+×\d+×\d+)\s+([\d.]+)\s.*?(\[[^\]]*\])?\s*$")


def bench(path, shapes=None):
    """{shape: (our µs, cuBLAS µs, copied)} from a `tcraw bench` log (``shapes``: only those)."""
    cublas, out = {}, {}
    for line in path.read_text().splitlines():
        if not (m := ROW.match(line)) or (shapes and m.group(2) not in shapes):
            continue
        us = float(m.group(3)) * 1e3
        if m.group(1) == "cublas":
            cublas[m.group(2)] = us
        elif m.group(2) in cublas:
            copied = m.group(4) or "[]"
            out[m.group(2)] = (us, cublas[m.group(2)], ",".join(re.findall(r"[ABC]", copied)))
    return out


def geomean(values):
    values = list(values)
    return math.exp(sum(math.log(v) for v in values) / len(values))


def survey(precision, before_path, after_path):
    before, after = bench(HERE / before_path), bench(HERE / after_path)
    assert before.keys() == after.keys() and len(before) == 48, (len(before), len(after))
    ratio = lambda row: row[1] / row[0]   # noqa: E731 (× cuBLAS: its time over ours)
    print(f"{precision}: × cuBLAS, copies by cuMemcpy2DAsync ({before_path}) → pitch_rows.cu ({after_path})")
    print(f"{'shape':>16} {'copied':>6} {'before':>7} {'after':>7}   µs ours, cuBLAS: before | after")
    for shape in sorted(after, key=lambda s: ratio(after[s])):
        b, a = before[shape], after[shape]
        print(f"{shape:>16} {a[2]:>6} {ratio(b):7.3f} {ratio(a):7.3f}   {b[0]:7.1f} {b[1]:7.1f} | {a[0]:7.1f} {a[1]:7.1f}")
    for label, keep in (("all 48", lambda s: True), ("copied", lambda s: after[s][2]),
                        ("not copied", lambda s: not after[s][2])):
        picked = [s for s in after if keep(s)]
        low = [sum(ratio(t[s]) < 0.85 for s in picked) for t in (before, after)]
        worst = [min(picked, key=lambda s: ratio(t[s])) for t in (before, after)]
        print(f"  {label:>10} ({len(picked):2} shapes): geomean {geomean(ratio(before[s]) for s in picked):.3f} → "
              f"{geomean(ratio(after[s]) for s in picked):.3f}, below 0.85× {low[0]} → {low[1]}, worst "
              f"{ratio(before[worst[0]]):.3f} ({worst[0]}) → {ratio(after[worst[1]]):.3f} ({worst[1]})")
    print()


def copies():
    lines = (HERE / "run3_pitch_copies_fp16.txt").read_text().splitlines()
    table = [line.split() for line in lines if re.match(r"^\d+×\d+×\d+\s", line)]
    print("run 3, fp16: time with pitch_rows.cu / with cuMemcpy2DAsync (median of 2 runs × 10 launches each)")
    ratios = {t[0]: float(t[-1]) for t in table}
    for shape, r in ratios.items():
        print(f"{shape:>16} {r:.3f}")
    moved = [r for r in ratios.values()]
    print(f"  geomean {geomean(moved):.3f} over {len(moved)} shapes, range {min(moved):.3f}–{max(moved):.3f}\n")


def odd():
    for precision, last in (("fp16", "run3_all_suites_fp16.txt"), ("bf16", "run4_all_suites_bf16.txt")):
        odd_shapes = set(bench(HERE / f"run5_odd_suite_{precision}.txt"))
        before, after = bench(LAST / last, odd_shapes), bench(HERE / f"run5_odd_suite_{precision}.txt")
        print(f"odd suite, {precision}: × cuBLAS, the last full run ({LAST.name}/{last}) → run 5")
        for shape in after:
            b, a = before[shape], after[shape]
            print(f"{shape:>16} {b[1] / b[0]:7.3f} → {a[1] / a[0]:7.3f}   ours {b[0]:7.1f} → {a[0]:7.1f} µs, "
                  f"cuBLAS {b[1]:7.1f} → {a[1]:7.1f}")
        print(f"  geomean {geomean(b[1] / b[0] for b in before.values()):.3f} → "
              f"{geomean(a[1] / a[0] for a in after.values()):.3f}; our time {geomean(after[s][0] / before[s][0] for s in after):.3f}× "
              f"then's, cuBLAS's {geomean(after[s][1] / before[s][1] for s in after):.3f}×\n")


def second_survey():
    runs = {p: bench(HERE / f"run7_survey_2_{p}.txt") for p in ("fp16", "bf16")}
    assert all(len(r) == 48 for r in runs.values())
    ratio = lambda row: row[1] / row[0]   # noqa: E731
    print("run 7: a second survey (scripts/shapes/survey_fresh_2.txt), × cuBLAS — every shape below 0.90× in either")
    print(f"{'shape':>16} {'copied':>6} {'fp16':>7} {'bf16':>7}   µs ours, cuBLAS: fp16 | bf16")
    low = [s for s in runs["fp16"] if min(ratio(runs[p][s]) for p in runs) < 0.90]
    for shape in sorted(low, key=lambda s: ratio(runs["fp16"][s])):
        a, b = runs["fp16"][shape], runs["bf16"][shape]
        print(f"{shape:>16} {a[2]:>6} {ratio(a):7.3f} {ratio(b):7.3f}   {a[0]:7.1f} {a[1]:7.1f} | {b[0]:7.1f} {b[1]:7.1f}")
    for p, rows in runs.items():
        for label, keep in (("all 48", lambda s: True), ("copied", lambda s: rows[s][2]),
                            ("not copied", lambda s: not rows[s][2])):
            picked = [s for s in rows if keep(s)]
            print(f"  {p} {label:>10} ({len(picked):2} shapes): geomean {geomean(ratio(rows[s]) for s in picked):.3f}, "
                  f"below 0.85× {sum(ratio(rows[s]) < 0.85 for s in picked)}")


if __name__ == "__main__":
    survey("fp16", "run1_survey_fp16.txt", "run2_survey_fp16.txt")
    survey("bf16", "run1_survey_bf16.txt", "run3_survey_bf16.txt")
    copies()
    odd()
    second_survey()
