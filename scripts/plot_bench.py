"""A PNG of `tcraw bench` results: TFLOP/s against size, one panel per precision, cuBLAS dashed.

    python scripts/plot_bench.py build/bench/bench.json [-o bench.png]

Needs matplotlib (pip install 'tcraw[plot]'); reads the JSON records only, so it runs anywhere.
"""

import argparse
import json
from collections import defaultdict
from pathlib import Path


def plot(rows, out):
    import matplotlib
    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt

    by_precision = defaultdict(lambda: defaultdict(list))
    for r in rows:
        if r.get("passed") and r.get("tflops"):
            by_precision[r["precision"]][r["kernel"]].append((r["m"], r["tflops"]))
    if not by_precision:
        raise SystemExit("no verified rows to plot")
    fig, axes = plt.subplots(1, len(by_precision), figsize=(4.5 * len(by_precision), 4), squeeze=False)
    for ax, (precision, kernels) in zip(axes[0], sorted(by_precision.items())):
        for name, points in sorted(kernels.items()):
            sizes, rates = zip(*sorted(points))
            ax.plot(sizes, rates, "k--" if name == "cublas" else "-o", label=name)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_title(precision)
        ax.set_xlabel("M = N = K")
        ax.set_ylabel("TFLOP/s")
        ax.legend(fontsize=8)
    device = rows[0].get("device", "")
    fig.suptitle(f"tcraw bench — {device}")
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bench_json")
    ap.add_argument("-o", "--out", default="bench.png")
    args = ap.parse_args()
    print(plot(json.loads(Path(args.bench_json).read_text()), args.out))


if __name__ == "__main__":
    main()
