"""Per kernel name, the medians of an Nsight Compute raw CSV's (`ncu --page raw --csv`) duration,
instructions, active cycles and the warp-state stall ratios that take the most of them — one line
a kernel, for logs of scripts/gpu_fixed_costs.sh — or (--metrics) the medians of the named
metrics instead of the stalls, a line a kernel (scripts/gpu_idle_sms.sh).

    python scripts/ncu_raw_summary.py ncu_warm_1024x1024x1024.csv [--top 6]
    python scripts/ncu_raw_summary.py ncu.csv --metrics gpu__time_duration.sum,dram__bytes_read.sum
"""
import argparse
import csv
import io
import os
import statistics
from collections import defaultdict


def rows(path):
    """The CSV's metric rows (dicts by column name) and its units row, from its header line on."""
    text = open(path, encoding="utf-8", errors="replace").read()
    start = text.find('"ID","Process ID"')
    if start < 0:
        return [], {}
    table = list(csv.DictReader(io.StringIO(text[start:])))
    units = next((r for r in table if not r.get("ID")), {})
    return [r for r in table if r.get("ID", "").isdigit()], units


def number(value):
    try:
        return float(value.replace(",", ""))
    except (AttributeError, ValueError):
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("--top", type=int, default=6)
    ap.add_argument("--metrics", help="comma-separated metric columns: their medians instead of the stalls")
    args = ap.parse_args()
    if not os.path.isfile(args.csv):
        ap.error(f"{args.csv}: not a file (give an Nsight Compute CSV: ncu --page raw --csv > FILE)")
    by_kernel = defaultdict(list)
    launches_all, units = rows(args.csv)
    for r in launches_all:
        by_kernel[r.get("Kernel Name", "?")].append(r)
    if not by_kernel:
        print("  (no kernels in the log)")
    for name, launches in by_kernel.items():
        med = {}
        for column in launches[0]:
            values = [v for v in (number(r[column]) for r in launches) if v is not None]
            if values:
                med[column] = statistics.median(values)
        if args.metrics:
            print(f"  {name[:48]:48s} n={len(launches):2d} " + "  ".join(
                f"{m} {med.get(m, float('nan')):.6g}" for m in args.metrics.split(",")))
            continue
        stalls = sorted(((v, c) for c, v in med.items()
                         if "issue_stalled" in c and c.endswith("_per_issue_active.ratio")), reverse=True)
        top = ", ".join(f"{c.split('issue_stalled_')[1].removesuffix('_per_issue_active.ratio')} {v:.2f}"
                        for v, c in stalls[:args.top])
        print(f"  {name[:48]:48s} n={len(launches):2d} {med.get('gpu__time_duration.sum', float('nan')):8.2f} "
              f"{units.get('gpu__time_duration.sum', '?')}"
              f"  inst {med.get('smsp__inst_executed.sum', float('nan')):10.0f}"
              f"  cycles/SM {med.get('sm__cycles_active.avg', float('nan')):9.0f}  stalls: {top}")


if __name__ == "__main__":
    main()
