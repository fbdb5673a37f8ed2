"""Reads this folder's logs and prints tables.txt: survey 8's geomeans × cuBLAS (all 48 shapes;
those with N and K multiples of 8, where nothing is copied) and its shapes below 0.95× in either
precision (run 1); 06's other tiles beside the pick at survey 8's weak shapes (run 2); each suite's
geomean and worst shape (runs 3–5: run 4's llm part was cut by its time limit, run 5 ran it whole).
Every number is from a table row marked PASS (verified against the CPU reference). Run from the
repository root:
python docs/results/2026-12-06-h100-survey-8/tables.py > docs/results/2026-12-06-h100-survey-8/tables.txt"""
import math
import re
from pathlib import Path

HERE = Path(__file__).parent
ROW = re.compile(r"^(cublas|wgmma_\w+?)(\[[^\]]*\])?\s+\S+\s+(?:(\d+)×(\d+)×(\d+)|(\d+)³)\s+([\d.]+)\s.*\bPASS\b")


def geomean(values):
    values = list(values)
    return math.exp(sum(map(math.log, values)) / len(values))


def sections(name):
    """The log cut at its "## precision suite" headers: {header: its lines} ({"": all} without)."""
    out, key = {}, ""
    for line in (HERE / name).read_text().splitlines():
        if line.startswith("## "):
            key = line[3:].strip()
        out.setdefault(key, []).append(line)
    return out


def times(lines):
    """{(m, n, k): {label: median ms}} of the verified table rows; label "cublas", "" for the pick
    (bench's unmarked row, tune_ladder's [picked]) or the variant's mark."""
    out = {}
    for line in lines:
        if (m := ROW.match(line)):
            label = "cublas" if m[1] == "cublas" else (m[2] or "[picked]")[1:-1]
            # (bench writes M = N = K as 1024³)
            dims = (int(m[6]),) * 3 if m[6] else tuple(map(int, m.group(3, 4, 5)))
            out.setdefault(dims, {})["" if label == "picked" else label] = float(m[7])
    return out


def ratios(lines):
    return {s: r["cublas"] / r[""] for s, r in times(lines).items() if "cublas" in r and "" in r}


def shape(s):
    return "×".join(map(str, s))


print("# run 1: survey 8 (48 shapes, scripts/shapes/survey_fresh_8.txt), 06's picks × cuBLAS")
runs = {p: ratios(sections(f"run1_survey8_{p}.txt")[""]) for p in ("fp16", "bf16")}
for p, got in runs.items():
    aligned = [r for (m, n, k), r in got.items() if n % 8 == 0 and k % 8 == 0]
    print(f"{p}: {len(got)} shapes, geomean {geomean(got.values()):.3f}; N and K multiples of 8 "
          f"({len(aligned)}): {geomean(aligned):.3f}; below 0.85×: {sum(r < 0.85 for r in got.values())}")
print("below 0.95× in either precision (fp16, bf16):")
for s in sorted({s for got in runs.values() for s, r in got.items() if r < 0.95}, key=lambda s: runs["fp16"][s]):
    print(f"  {shape(s):18s} " + "  ".join(f"{runs[p][s]:.3f}" for p in runs))

print("\n# run 2: 06's tiles beside the pick at survey 8's weak shapes, fp16: × cuBLAS (time over the pick's)")
for s, row in times(sections("run2_weak8_tiles_fp16.txt")[""]).items():
    print(f"  {shape(s)}: pick {row['cublas'] / row['']:.3f}")
    for label, ms in row.items():
        if label not in ("", "cublas"):
            print(f"    {label:45s} {row['cublas'] / ms:.3f} ({ms / row['']:.3f})")

print("\n# runs 3–5: each suite, 06's picks × cuBLAS: geomean (worst shape), shapes timed")
for name in ("run3_suites_fp16.txt", "run4_suites_bf16.txt", "run5_suite_llm_bf16.txt"):
    for header, lines in sections(name).items():
        if header and not (got := ratios(lines)):
            print(f"  {header:36s} no table: cut by the part's time limit")
        elif header:
            worst = min(got, key=got.get)
            print(f"  {header:36s} {geomean(got.values()):.3f} ({got[worst]:.3f} at {shape(worst)}), {len(got)} shapes")
