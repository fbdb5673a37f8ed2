"""The tables of this directory's README from its raw files (bench, tune_ladder and Nsight Compute
logs, unedited):

    python docs/results/2026-12-04-h200-survey-5/tables.py > docs/results/2026-12-04-h200-survey-5/tables.txt

Run 1: 06's picks against cuBLAS on the fifth random survey (scripts/shapes/survey_fresh_5.txt).
Run 2: cuBLAS's kernels at the two bf16 rows below 0.85× (fp16 and bf16).
"""
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2] / "scripts"))
from ladder_log import geomean, ladder   # noqa: E402  (scripts/: the logs' reader)

# a bench progress line: kernel, shape, TFLOP/s, × cuBLAS (bf16's log was cut by the part's time
# limit before its table: its progress lines are all it has)
TABLE_ROW = re.compile(r"^wgmma_tma_\w+\s+\S+\s+(\d+)×(\d+)×(\d+)\s.*?(\[.*\])\s*$")
PROGRESS = re.compile(r"^\s+wgmma_tma_\w+\s+(\d+)×(\d+)×(\d+)\s+([\d.]+) TFLOP/s\s+([\d.]+)× cuBLAS")


def survey(key):
    """Run 1's bench log: the shapes it timed, the geomean × cuBLAS of all and of those with N and K
    multiples of 8, the shapes below 0.85×, what was copied (where the log has its table) and the
    eight lowest with N and K multiples of 8 (06's µs from its TFLOP/s, cuBLAS's from the ratio)."""
    ratio, us = {}, {}
    for m in map(PROGRESS.match, (HERE / f"run1_survey_{key}.txt").read_text().splitlines()):
        if m:
            shape = tuple(map(int, m.group(1, 2, 3)))
            ratio[shape] = float(m.group(5))
            us[shape] = 2 * shape[0] * shape[1] * shape[2] / float(m.group(4)) / 1e6
    aligned = {s: r for s, r in ratio.items() if s[1] % 8 == 0 and s[2] % 8 == 0}
    print(f"  {key}: {len(ratio)} shapes timed, geomean {geomean(list(ratio.values())):.3f}× cuBLAS; the "
          f"{len(aligned)} with N and K multiples of 8 {geomean(list(aligned.values())):.3f}; below 0.85×: "
          + (", ".join(f"{'×'.join(map(str, s))} {r:.3f}" for s, r in sorted(ratio.items(), key=lambda x: x[1])
                       if r < 0.85) or "none"))
    # the table at the log's end (fp16's; bf16's log was cut before it): its pitched column names the
    # operands copied to pitched rows — none where N and K are multiples of 8, nor where 09 or 10 read
    # B in place
    pitched = dict((tuple(map(int, m.group(1, 2, 3))), m.group(4)) for m in map(TABLE_ROW.match, (
        HERE / f"run1_survey_{key}.txt").read_text().splitlines()) if m)
    if pitched:
        copied = {s: r for s, r in ratio.items() if pitched[s] != "[]"}
        in_place = {s: r for s, r in ratio.items() if s not in aligned and s not in copied}
        print(f"    nothing copied (the table's pitched column empty): {len(ratio) - len(copied)} shapes at "
              f"{geomean([r for s, r in ratio.items() if s not in copied]):.3f}; N or K off 8 with B read in place "
              f"(09, 10): {len(in_place)} at {min(in_place.values()):.2f}–{max(in_place.values()):.2f}×; copied: "
              f"{len(copied)} at {min(copied.values()):.2f}–{max(copied.values()):.2f}×")
    print("    lowest with N and K multiples of 8 (06 µs / cuBLAS µs, ×): " + "; ".join(
        f"{'×'.join(map(str, s))} {us[s]:.1f} / {us[s] * r:.1f} ({r:.3f})"
        for s, r in sorted(aligned.items(), key=lambda x: x[1])[:8]))
    return ratio


def cublas_kernels():
    """Run 2: each Nsight Compute log's kernels (name, grid × block, cluster size) — the first launch."""
    for path in sorted(HERE.glob("run2_ncu_cublas_*.txt")):
        text = path.read_text()
        names = re.findall(r"^  (nvjet\w+|void cublasLt::\w+)\S* (\(\d+, \d+, \d+\)x\(\d+, \d+, \d+\))", text, re.M)
        clusters = re.findall(r"Cluster Size\s+(\d+)", text)
        seen = list(dict.fromkeys(names))
        print(f"  {path.stem[len('run2_ncu_cublas_'):]:22s} " + "; then ".join(
            f"{n} {g}, cluster {clusters[names.index((n, g))]}" for n, g in seen))


print("# Run 1: the fifth survey (48 shapes drawn at random), 06's pick × cuBLAS\n")
fp16, bf16 = survey("fp16"), survey("bf16")
print(f"  not timed in bf16 (the part's time limit): {', '.join('×'.join(map(str, s)) for s in fp16 if s not in bf16)}")
both = [s for s in fp16 if s in bf16]
aligned = [s for s in both if s[1] % 8 == 0 and s[2] % 8 == 0]
print(f"  fp16 over the {len(both)} bf16 timed: {geomean([fp16[s] for s in both]):.3f}; over their {len(aligned)} "
      f"with N and K multiples of 8: {geomean([fp16[s] for s in aligned]):.3f}")
print("\n# Run 2: cuBLAS's kernels (Nsight Compute)\n")
cublas_kernels()
for path in sorted(HERE.glob("run[3-9]_*.txt")):
    if "env" not in path.name and "pytest" not in path.name and "sanitize" not in path.name and "ncu" not in path.name:
        print()
        ladder(path)
