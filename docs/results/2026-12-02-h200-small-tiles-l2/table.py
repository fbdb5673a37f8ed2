"""The tables of this folder's README from its raw files: tune_ladder's timings (µs, × cuBLAS) by
shape and variant, and Nsight Compute's counters by kernel.   python table.py > table.txt"""

import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROW = re.compile(r"^(cublas|wgmma_fp16\[[^\]]*\])\s+fp16→fp32\s+(\S+)\s+([\d.]+)\s+\S+\s+\S+\s*([\d.]*)")
TIMINGS = ["run2_slice_turns_fp16.txt", "run3_swapped_128x64_fp16.txt", "run6_wait_depth_two_fp16.txt",
           "run9_group_m_fp16.txt", "run10_few_tiles_fp16.txt", "run11_few_tiles_swapped_fp16.txt",
           "run12_group_m_picks_fp16.txt", "run16_l2_sides_fp16.txt"]
COUNTERS = {"gpu__time_duration.sum": "µs", "l1tex__m_xbar2l1tex_read_bytes.sum": "L2→SM MB",
            "lts__t_sectors_op_read.sum": "L2 read sectors", "lts__t_sectors_srcunit_ltcfabric.sum": "crossed sectors",
            "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active": "tensor pipe %"}
FORM, ONE = "swapped 64 of M, pairs (cuBLAS's form)", "one consumer's 64×128, clusters of 2"
METRICS = {"run7 1024×1024×8192": [("run7_metrics_cublas.txt", "cuBLAS"), ("run7_metrics_06_1.txt", FORM),
                                   ("run7_metrics_06_2.txt", "06's pick"), ("run7_metrics_06_3.txt", ONE)],
           "run9 1024×1024×8192": [("run9_metrics_cublas.txt", "cuBLAS"), ("run9_metrics_06_1.txt", ONE),
                                   ("run9_metrics_06_2.txt", "06's pick")],
           "run13 128×4096×4096": [("run13_128x4096x4096_metrics_cublas.txt", "cuBLAS"),
                                   ("run13_128x4096x4096_metrics_06_1.txt", FORM),
                                   ("run13_128x4096x4096_metrics_06_2.txt", "06's pick")],
           "run13 1024×768×6144": [("run13_1024x768x6144_metrics_cublas.txt", "cuBLAS"),
                                   ("run13_1024x768x6144_metrics_06_1.txt", FORM),
                                   ("run13_1024x768x6144_metrics_06_2.txt", "06's pick")],
           "run16 1024×1024×8192 (cuBLAS's file did not come back: 26.85 µs, 6.04 M read, 0.87 M crossed "
           "in the call's output)": [("run16_metrics_06_1_picked.txt", "06's pick"),
                                     ("run16_metrics_06_2_l2_sides.txt", "06's pick, L2_SIDES=1 (branch)")]}


def timings(name):
    """{shape: [(variant, µs, × cuBLAS)]} in the file's order."""
    out = {}
    for line in (HERE / name).read_text().splitlines():
        if (m := ROW.match(line)):
            kernel, shape, ms, ratio = m.groups()
            variant = "cuBLAS" if kernel == "cublas" else kernel[len("wgmma_fp16["):-1]
            out.setdefault(shape, []).append((variant, 1000 * float(ms), 1.0 if kernel == "cublas" else float(ratio)))
    return out


def counters(name):
    """{label: value} of the COUNTERS in one Nsight Compute --metrics file."""
    text = (HERE / name).read_text()
    got = {}
    for metric, label in COUNTERS.items():
        if (m := re.search(rf"^\s+{re.escape(metric)}\s+(\S+)\s+([\d,.]+)", text, re.M)):
            unit, value = m.group(1), float(m.group(2).replace(",", ""))
            got[label] = value / 1e6 if unit == "sector" else value * (1e-3 if unit == "Kbyte" else 1)
    return got


def main():
    for name in TIMINGS:
        print(f"== {name}: µs (× cuBLAS), median of 20")
        for shape, rows in timings(name).items():
            print(f"  {shape}")
            for variant, us, ratio in rows:
                print(f"    {us:8.2f}  {ratio:6.3f}×  {variant}")
    for run, names in METRICS.items():
        print(f"== {run}: Nsight Compute (one launch; sectors in millions)")
        for name, what in names:
            got = counters(name)
            print("  " + "  ".join(f"{label} {got[label]:6.2f}" if label in got else f"{label}     —"
                                   for label in COUNTERS.values()) + f"  {what}")


if __name__ == "__main__":
    main()
