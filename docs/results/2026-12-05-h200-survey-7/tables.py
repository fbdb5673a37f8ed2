"""Reads this folder's logs and prints tables.txt. Run 1: survey 7's geomeans × cuBLAS (all
shapes; N and K multiples of 8) and its shapes below 0.95× in either precision. Runs 2–3: each
ladder's rows, shape by shape — every variant's × cuBLAS and its time over the pick's. Runs 3–4:
one swapped tile covering M of 65–128 beside the pick, over the ranges the README names. Every
number is from a table row marked PASS (verified against the CPU reference; bench and tune_ladder
print × cuBLAS only where both runs were). Run from the repository root:
python docs/results/2026-12-05-h200-survey-7/tables.py > docs/results/2026-12-05-h200-survey-7/tables.txt"""
import math
import re
from pathlib import Path

HERE = Path(__file__).parent
ROW = re.compile(r"^(cublas|wgmma_\w+?)(\[[^\]]*\])?\s+\S+\s+(\d+)×(\d+)×(\d+)\s+([\d.]+)\s.*\bPASS\b")


def geomean(values):
    values = list(values)
    return math.exp(sum(map(math.log, values)) / len(values))


def times(name):
    """{(m, n, k): {label: median ms}} of a log's verified table rows; label "cublas", "" for the
    pick (bench's and swap_fit_study's unmarked row, tune_ladder's [picked]) or the variant's mark."""
    out = {}
    for line in (HERE / name).read_text().splitlines():
        if (m := ROW.match(line)):
            label = "cublas" if m[1] == "cublas" else (m[2] or "[picked]")[1:-1]
            out.setdefault(tuple(map(int, m.group(3, 4, 5))), {})["" if label == "picked" else label] = float(m[6])
    return out


def shape(s):
    return "×".join(map(str, s))


print("# run 1: survey 7 (H200)")
runs = {p: {s: r["cublas"] / r[""] for s, r in times(f"run1_survey_{p}.txt").items()} for p in ("fp16", "bf16")}
for p, got in runs.items():
    aligned = [r for (m, n, k), r in got.items() if n % 8 == 0 and k % 8 == 0]
    print(f"{p}: {len(got)} shapes, geomean {geomean(got.values()):.3f}× cuBLAS; N and K multiples of 8 "
          f"({len(aligned)}): {geomean(aligned):.3f}; below 0.85×: {sum(r < 0.85 for r in got.values())}")
print("below 0.95× in either precision (fp16, bf16):")
for s in sorted({s for got in runs.values() for s, r in got.items() if r < 0.95}, key=lambda s: runs["fp16"][s]):
    print(f"  {shape(s):18s} " + "  ".join(f"{runs[p][s]:.3f}" for p in runs))

for name in ("run2_survey7_big_fp16.txt", "run2_survey7_m128_fp16.txt", "run3_survey7_cublas_tiles_fp16.txt"):
    print(f"\n# {name}: × cuBLAS (time over the pick's)")
    for s, row in times(name).items():
        print(f"  {shape(s)}: pick {row['cublas'] / row['']:.3f}")
        for label, ms in row.items():
            if label not in ("", "cublas"):
                print(f"    {label:55s} {row['cublas'] / ms:.3f} ({ms / row['']:.3f})")


def one_tile(rows, lo, hi, long_only):
    """Geomean time (one tile over the pick), faster count, × cuBLAS before → after over M of lo–hi
    (long_only: N ≥ 3072 and K ≥ 4096, where the candidate fires)."""
    sel = [(t, b, a) for (m, n, k), t, b, a in rows if lo <= m <= hi and (not long_only or (n >= 3072 and k >= 4096))]
    return (f"{len(sel)} shapes, time {geomean(t for t, _, _ in sel):.3f} (faster at {sum(t < 1 for t, _, _ in sel)}, "
            f"most {max(t for t, _, _ in sel):.3f}), × cuBLAS {geomean(b for _, b, _ in sel):.3f} → "
            f"{geomean(a for _, _, a in sel):.3f}")


for p in ("fp16", "bf16"):
    study, fresh = times(f"run3_m65_128_one_tile_{p}.txt"), times(f"run4_short_fit_fresh_{p}.txt")
    print(f"\n# run 3 ({p}, H100): × cuBLAS of the pick, one tile in clusters of 4 (fit1-cl4) and of 2 along N "
          "(time over the pick's)")
    for s, row in study.items():
        print(f"  {shape(s):18s} pick {row['cublas'] / row['']:.3f}  " + "  ".join(
            f"{label} {row['cublas'] / row[label]:.3f} ({row[label] / row['']:.3f})"
            for label in ("fit1-cl4", "fit1-cl2")))
    study_rows = [(s, r["fit1-cl4"] / r[""], r["cublas"] / r[""], r["cublas"] / r["fit1-cl4"])
                  for s, r in study.items()]
    print(f"  clusters of 4, N ≥ 3072 and K ≥ 64 slices: M 65–96 {one_tile(study_rows, 65, 96, True)}")
    print(f"  clusters of 4, N ≥ 3072 and K ≥ 64 slices: M 97–128 {one_tile(study_rows, 97, 128, True)}")
    print(f"# run 4 ({p}, H100): × cuBLAS without → with the candidate (time with over without)")
    for s, row in fresh.items():
        print(f"  {shape(s):18s} {row['cublas'] / row['before']:.3f} → {row['cublas'] / row['']:.3f} "
              f"({row[''] / row['before']:.3f})")
    fresh_rows = [(s, r[""] / r["before"], r["cublas"] / r["before"], r["cublas"] / r[""]) for s, r in fresh.items()]
    for lo, hi in ((65, 128), (65, 96), (97, 128)):
        print(f"  M {lo}–{hi}: {one_tile(fresh_rows, lo, hi, False)}")
    print(f"  runs 3 and 4, M 97–128 where it fires: {one_tile(study_rows + fresh_rows, 97, 128, True)}")
