"""Reads this folder's logs and prints tables.txt: for each log, shape by shape, the two pickers'
× cuBLAS and the time of the second over the first — runs 1–2 the pick beside the pick made
without two and three consumers' tiles in clusters of 1 (scripts/cluster_one_study.py), run 3
the pick without and with wgmma_leaves_clusters_of_one (scripts/swap_fit_study.py --rule) —
then geomeans. Every row read is a verified one: a table row marked PASS, or (run 3's bf16 log,
cut at its timeout before its table) a progress line with a × cuBLAS, which bench prints only
where both runs passed. Run from the repository root:
python docs/results/2026-12-05-h100-cluster-one/tables.py > docs/results/2026-12-05-h100-cluster-one/tables.txt"""
import math
import re
from pathlib import Path

HERE = Path(__file__).parent
ROW = re.compile(r"^(cublas|wgmma_tma_\w+?)(\[[\w-]+\])?\s+\S+\s+(\d+×\d+×\d+)\s+([\d.]+)\s.*\bPASS\b")
PROGRESS = re.compile(r"^\s*(wgmma_tma_\w+?)(\[[\w-]+\])?\s+(\d+×\d+×\d+)\s+[\d.]+ TFLOP/s\s+([\d.]+)× cuBLAS\s*$")
MARKED_FIRST = {"[no-cluster-1]": False, "[before]": True}   # whether the marked picker is the one timed against


def geomean(values):
    values = list(values)
    return math.exp(sum(map(math.log, values)) / len(values))


def read(name):
    """{shape: {'first' | 'second': × cuBLAS}} of a log's verified rows: the table's where it has
    one, else the progress lines'."""
    text = (HERE / name).read_text()
    times, ratios = {}, {}
    for line in text.splitlines():
        if (m := ROW.match(line)):
            times.setdefault(m[3], {})[m[1] if m[1] == "cublas" else (m[2] or "")] = float(m[4])
        elif (m := PROGRESS.match(line)):
            ratios.setdefault(m[3], {})[m[2] or ""] = float(m[4])
    if times:
        ratios = {shape: {mark: row["cublas"] / ms for mark, ms in row.items() if mark != "cublas"}
                  for shape, row in times.items() if "cublas" in row}
    out = {}
    for shape, row in ratios.items():
        marks = set(row)
        if len(marks) != 2:
            continue   # (a shape cut off before both ran)
        other = next(m for m in marks if m)
        first, second = (other, "") if MARKED_FIRST[other] else ("", other)
        out[shape] = {"first": row[first], "second": row[second]}
    return out


def table(name, first, second):
    rows = read(name)
    print(f"# {name}: × cuBLAS, {first} → {second}; time: the second's over the first's")
    for shape, row in rows.items():
        print(f"  {shape:18s} {row['first']:.3f} → {row['second']:.3f}  time {row['first'] / row['second']:.3f}")
    times = [row["first"] / row["second"] for row in rows.values()]
    for side, label in (("first", first), ("second", second)):
        ratios = [row[side] for row in rows.values()]
        print(f"  {label}: {geomean(ratios):.3f}× cuBLAS geomean, {sum(r < 0.85 for r in ratios)} of {len(ratios)} "
              "below 0.85×")
    print(f"  time {geomean(times):.3f} (geomean), less at {sum(t < 1 for t in times)} of {len(times)}, "
          f"most {max(times):.3f}\n")


for log in sorted(HERE.glob("run[12]_*study*.txt")):
    table(log.name, "pick", "without clusters of 1")
for log in sorted(HERE.glob("run3_cluster_one_rule_*.txt")):
    table(log.name, "without the rule", "with it")
