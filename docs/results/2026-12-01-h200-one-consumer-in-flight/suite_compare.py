"""Today's suites (runs 6, 7) against the last ones measured, shape by shape: our time and
cuBLAS's, each now against before, so that a ratio's move can be told apart from cuBLAS's own
(run from the repository root; it reads the bench tables' rows).

    python docs/results/2026-12-01-h200-one-consumer-in-flight/suite_compare.py
"""
import math
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
EARLIER = HERE.parent / "2026-11-30-h200-split-own-boxes-fixed-costs"
LATEST = HERE.parent / "2026-11-30-h200-split-sum-loads-l2-traffic"
BEFORE = {"fp16": [EARLIER / "run7_suites_fp16.txt", EARLIER / "run8_suite_llm_fp16.txt",
                   LATEST / "run8_suites_long_k_llm_small_m_fp16.txt"],
          "bf16": [EARLIER / "run7_suites_bf16.txt", LATEST / "run8_suites_long_k_llm_small_m_bf16.txt"]}
NOW = {"fp16": [HERE / "run6_suites_fp16.txt", HERE / "run7_suite_llm_fp16.txt"], "bf16": [HERE / "run6_suites_bf16.txt"]}


def read(paths):
    """{suite: {shape: (our ms, cuBLAS ms)}}: a later file's row replaces an earlier one's."""
    out = {}
    for path in paths:
        rows = {}   # a suite's rows, until its summary line names it
        for line in path.read_text().splitlines():
            fields = line.split()
            if fields[:1] and fields[0].startswith(("cublas", "wgmma")) and len(fields) > 4 and "→" in fields[1] \
                    and re.fullmatch(r"[\d.]+", fields[3]):
                rows.setdefault(fields[2], {})[fields[0].split("[")[0]] = float(fields[3])
            if line.startswith(("square ", "skinny ", "long-k ", "odd ", "llm ", "mid_m ", "llm_small_m ")):
                out.setdefault(line.split()[0], {}).update(
                    {s: (v[k], v["cublas"]) for s, v in rows.items() for k in v if k != "cublas"})
                rows = {}
    return out


def geomean(values):
    return math.exp(sum(map(math.log, values)) / len(values))


for precision in ("fp16", "bf16"):
    before, now = read(BEFORE[precision]), read(NOW[precision])
    for suite in now:
        if suite not in before:
            continue
        shared = [s for s in now[suite] if s in before[suite]]
        ours = [now[suite][s][0] / before[suite][s][0] for s in shared]
        theirs = [now[suite][s][1] / before[suite][s][1] for s in shared]
        ratio_before = geomean([before[suite][s][1] / before[suite][s][0] for s in shared])
        ratio_now = geomean([now[suite][s][1] / now[suite][s][0] for s in shared])
        print(f"{precision} {suite:>12} ({len(shared)} shapes): × cuBLAS {ratio_before:.3f} → {ratio_now:.3f};"
              f" our time {geomean(ours):.3f}× before, cuBLAS's {geomean(theirs):.3f}×")
        for s, o, t in zip(shared, ours, theirs):
            if abs(o - 1) > 0.03 or abs(t - 1) > 0.08:
                print(f"    {s:>16}: ours {before[suite][s][0] * 1000:7.1f} → {now[suite][s][0] * 1000:7.1f} µs"
                      f" ({o - 1:+.1%}), cuBLAS {before[suite][s][1] * 1000:7.1f} → {now[suite][s][1] * 1000:7.1f} µs"
                      f" ({t - 1:+.1%})")
