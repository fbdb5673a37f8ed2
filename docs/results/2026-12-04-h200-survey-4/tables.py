"""The tables of this directory's README from its raw files (bench and tune_ladder logs, unedited):

    python docs/results/2026-12-04-h200-survey-4/tables.py > docs/results/2026-12-04-h200-survey-4/tables.txt

Run 1: 06's picks against cuBLAS on the fourth random survey (scripts/shapes/survey_fresh_4.txt).
Run 2: cuBLAS's kernels at its weakest shapes, and other configurations beside the pick there.
Run 3: three consumers' swapped tiles (192 of N by 144 / 160 of M) at M of 257–320 beside the pick.
Runs 4–5: the rule that came of run 3 (kernels.FIT_THREE_CONFIGS) against the pick before it, on
shapes drawn after it — each side in its own process (the tree before the rule, "old", and after,
"new"), in turn.
"""
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2] / "scripts"))
from ladder_log import before_after, geomean, ladder, rows   # noqa: E402  (scripts/: the logs' reader)

BENCH_ROW = re.compile(r"^wgmma_tma_\w+\s+\S+\s+(\d+×\d+×\d+)\s+\S+\s+\S+\s+\S+\s+([\d.]+)\s.*?(\[.*\])\s*$")


def survey(key):
    """Run 1's bench log: every shape's × cuBLAS, those below 0.85× and the geomean of the shapes
    nothing was copied at."""
    path = HERE / f"run1_survey_{key}.txt"
    ratios = {m.group(1): (float(m.group(2)), m.group(3) != "[]")
              for m in map(BENCH_ROW.match, path.read_text().splitlines()) if m}
    below = sorted((r, shape) for shape, (r, _) in ratios.items() if r < 0.85)
    print(f"  {key}: {len(ratios)} shapes, geomean {geomean([r for r, _ in ratios.values()]):.3f}× cuBLAS; "
          f"the {sum(not c for _, c in ratios.values())} with nothing copied "
          f"{geomean([r for r, c in ratios.values() if not c]):.3f}; below 0.85×: "
          + ", ".join(f"{shape} {r:.3f}" for r, shape in below))


def cublas_kernels():
    """Run 2's Nsight Compute log: cuBLAS's kernels (name, grid × block) at each shape of
    weak_fresh_4.txt in turn (each launched twice: the bench's warm-up and its timed launch)."""
    shapes = [line.split() for line in (HERE.parents[2] / "scripts/shapes/weak_fresh_4.txt").read_text().splitlines()
              if line.strip() and not line.startswith("#")]
    launches = re.findall(r"^  (nvjet\w+|void cublasLt::\w+)\S* (\(\d+, \d+, \d+\)x\(\d+, \d+, \d+\))?",
                          (HERE / "run2_cublas_kernels_fp16.txt").read_text(), re.M)
    per_shape = [launches[i] for i in range(len(launches)) if launches[i][0].startswith("nvjet")]
    assert len(per_shape) == 2 * len(shapes)
    for shape, (name, grid) in zip(shapes, per_shape[::2]):
        after = [n for n, _ in launches[launches.index((name, grid)) + 1:][:1] if not n.startswith("nvjet")]
        print(f"  {'×'.join(shape):16s} {name} {grid}" + (f", then {after[0]}" if after else ""))


def old_new(stem, key, old=("old", "old2"), new=("new", "new2")):
    """Runs 4–5: per shape the old pick's and the new's µs (median over the processes of each, the
    mean of two) and × cuBLAS (cuBLAS's µs: the mean over every process), then the rule's line."""
    logs = {w: rows(HERE / f"{stem}_{key}_{w}.txt") for w in old + new if (HERE / f"{stem}_{key}_{w}.txt").exists()}
    before, after = [], []
    for shape in logs[old[0]]:
        mean = lambda ws, label: sum(logs[w][shape][label] for w in ws if w in logs) / sum(w in logs for w in ws)
        cublas = mean(tuple(logs), "cublas")
        a, b = mean(old, "picked"), mean(new, "picked")
        before.append(cublas / a)
        after.append(cublas / b)
        print(f"  {key} {shape:18s} old {a:8.2f} µs, new {b:8.2f} µs: time {b / a:.3f}, "
              f"{cublas / a:.3f} → {cublas / b:.3f}× cuBLAS")
    print(before_after(key, before, after) + f"; time geomean {geomean([x / y for x, y in zip(before, after)]):.3f}\n")


def main():
    print("# Run 1: the fourth survey (48 shapes), 06's picks against cuBLAS\n")
    for key in ("fp16", "bf16"):
        survey(key)
    print("\n# Run 2: cuBLAS's kernels at the weakest survey shapes (scripts/shapes/weak_fresh_4.txt; each twice)\n")
    cublas_kernels()
    print("\n# Run 2: other configurations beside the pick\n")
    for part in ("fit", "waves", "small"):
        ladder(HERE / f"run2_{part}_fp16.txt")
    print("# Run 3: three consumers' swapped tiles at M of 257–288 (144 of M) and 289–320 (160)\n")
    for bn in (144, 160):
        ladder(HERE / f"run3_three_{bn}_fp16.txt")
    print("# Run 4: the rule (FIT_THREE_CONFIGS) against the pick before it, 14 shapes drawn after it\n")
    for key in ("fp16", "bf16"):
        old_new("run4_three_fresh", key)
    print("# Run 5: the same on 10 shapes with rows on 128-byte lines\n")
    old_new("run5_swapped_three_lines", "fp16")


if __name__ == "__main__":
    main()
