"""The tables of this directory's README from its raw files (tune_ladder and `tcraw bench` logs,
Nsight Compute's raw CSVs, unedited):

    python docs/results/2026-12-04-h200-swapped-pairs/tables.py > docs/results/2026-12-04-h200-swapped-pairs/tables.txt

Run 1: cuBLAS's kernels at three shapes of M ≤ 32 (Nsight Compute), and stream-K over every SM
against the pick. Run 2: two consumers' swapped tiles in clusters of 2 and 4 and in deeper rings
against the pick (then clusters of 1), and Nsight Compute's counts for the pick and clusters of 2.
Run 4: clusters of 2 for every such tile (the rule's first form) against clusters of 1 on shapes
drawn after it, split by where B's rows lie. Run 5: the rule kept to rows off lines, on shapes
drawn after that. Run 4's llm rows at M = 16.
"""
import re
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2] / "scripts"))
sys.path.insert(0, str(HERE.parents[2]))
from ladder_log import before_after, geomean, ladder, rows   # noqa: E402  (scripts/: the logs' reader)
from ncu_raw_summary import number, rows as ncu_rows   # noqa: E402
from tcraw import kernels   # noqa: E402  (where B's rows lie: the picker's own test)

METRICS = {"gpu__time_duration.sum": ("µs", 1e-3), "launch__grid_size": ("blocks", 1),
           "launch__cluster_dim_x": ("cluster", 1), "dram__bytes_read.sum": ("DRAM MB", 1e-6),
           "lts__t_requests_srcunit_tex_op_read.sum": ("L2 read requests M", 1e-6)}


# `tcraw bench`'s line as each shape is timed: kernel, shape, TFLOP/s, × cuBLAS
PROGRESS = re.compile(r"^\s+wgmma_tma_\w+\s+(\d+×\d+×\d+)\s+([\d.]+) TFLOP/s\s+([\d.]+)× cuBLAS")


def ncu_line(path):
    """Per kernel of an Nsight Compute raw CSV: the medians of METRICS, one line each."""
    launches, _ = ncu_rows(path)
    names = dict.fromkeys(r["Kernel Name"] for r in launches)
    for name in names:
        mine = [r for r in launches if r["Kernel Name"] == name]
        cells = []
        for metric, (unit, scale) in METRICS.items():
            values = [v for v in (number(r.get(metric)) for r in mine) if v is not None]
            cells.append(f"{unit} {statistics.median(values) * scale:.4g}" if values else f"{unit} ?")
        print(f"  {name[:44]:44s} n={len(mine)}  " + ", ".join(cells))


def off_lines(shape):
    n = int(shape.split("×")[1])
    return kernels.box_row_requests(2 * n) > 1


def split_by_lines(key, path, new, old):
    """before_after's lines for ``new`` against ``old`` (labels), over the shapes whose B rows lie
    off 128-byte lines, then on them."""
    table = rows(path)
    for side, keep in (("off lines", True), ("on lines", False)):
        ts = [t for shape, t in table.items() if off_lines(shape) == keep]
        if ts:
            line = before_after(key, [t["cublas"] / t[old] for t in ts], [t["cublas"] / t[new] for t in ts])
            print(f"{line}  [{side}]")


def main():
    print("# Run 1: cuBLAS's kernels (every launch Nsight Compute caught there was cuBLAS's)\n")
    for shape in ("16x14424x15080", "26x15720x15688", "23x13504x14280"):
        print(f"## {shape}")
        ncu_line(HERE / f"run1_ncu_{shape}_picked.csv")
    print("\n# Run 1: stream-K over every SM (v1, v2) against the pick (v0)\n")
    ladder(HERE / "run1_idle_sms_stream_fp16.txt")

    print("\n# Run 2: the pick (clusters of 1) against the same tiles in clusters of 2 and 4 and deeper rings\n")
    for bn in (16, 32):
        ladder(HERE / f"run2_small_m_clusters_{bn}_fp16.txt")
    print("\n# Run 2: Nsight Compute, the pick (clusters of 1) and its tiles in clusters of 2\n")
    for path in sorted(HERE.glob("run2_ncu06_*.csv")):
        print(f"## {path.name}")
        ncu_line(path)

    print("\n# Run 4: clusters of 2 for every such tile (v0, the pick then) against clusters of 1 (v1), "
          "shapes drawn after\n")
    for bn in (16, 32):
        for key in ("fp16", "bf16"):
            ladder(HERE / f"run4_pairs_fresh_{bn}_{key}.txt")
    for bn in (16, 32):
        for key in ("fp16", "bf16"):
            path = HERE / f"run4_pairs_fresh_{bn}_{key}.txt"
            old = next(label for label in next(iter(rows(path).values())) if "CLUSTER=1" in label)
            split_by_lines(f"{key} BN {bn}", path, "picked", old)

    print("\n# Run 5: clusters of 2 off lines only (v0, the pick), against clusters of 1 (v1) and 2 (v2), "
          "shapes drawn after\n")
    for bn in (16, 32):
        ladder(HERE / f"run5_pairs_check_{bn}_fp16.txt")
    for bn in (16, 32):
        path = HERE / f"run5_pairs_check_{bn}_fp16.txt"
        labels = [label for label in next(iter(rows(path).values())) if label not in ("cublas", "picked")]
        one, two = (next(label for label in labels if f"CLUSTER={c}" in label) for c in (1, 2))
        split_by_lines(f"fp16 BN {bn}, the pick against clusters of 1", path, "picked", one)
        split_by_lines(f"fp16 BN {bn}, clusters of 2 against 1", path, two, one)
    both = [t for bn in (16, 32) for shape, t in rows(HERE / f"run5_pairs_check_{bn}_fp16.txt").items()]
    print(f"  both files: the pick {geomean([t['cublas'] / t['picked'] for t in both]):.3f}× cuBLAS")

    print("\n# Run 4: the llm suites' M = 16 rows with clusters of 2 (B's rows on lines: clusters of 1 "
          "under the final rule; `tcraw bench`, 10 launches)\n")
    for key in ("fp16", "bf16"):   # (bench's progress lines: fp16's run was cut before its table)
        for line in (HERE / f"run4_suite_llm_{key}.txt").read_text().splitlines():
            if (m := PROGRESS.match(line)) and m.group(1).startswith("16×"):
                print(f"  {key} {m.group(1):16s} {m.group(2):>6s} TFLOP/s  {m.group(3)}× cuBLAS")
    print()


if __name__ == "__main__":
    main()
