"""A PNG of `tcraw bench` results: TFLOP/s against size, one panel per precision, cuBLAS dashed.

    python scripts/plot_bench.py build/bench/bench.json [-o bench.png]

Needs matplotlib (pip install 'tcraw[plot]'); reads the JSON records only, so it runs anywhere.
"""

import argparse
import json
import os
import sys
from collections import defaultdict
from pathlib import Path

NEEDED = ("kernel", "precision", "m", "tflops", "passed")   # the keys every row must carry
YARDSTICKS = ("cublas", "cublaslt")   # tcraw.bench.YARDSTICKS, named here so the script needs no tcraw


class PlotError(Exception):
    """Bad input or a missing dependency: one line on stderr, exit 2."""


def read_rows(path):
    """The bench records in ``path``: a JSON list of dicts, each with the keys in NEEDED."""
    path = Path(path)
    if path.is_dir():
        raise PlotError(f"{path} is a directory, not a bench JSON file (try {path / 'bench.json'})")
    try:
        text = path.read_text()
    except FileNotFoundError:
        raise PlotError(f"{path}: no such file (make one with `tcraw bench --format json`)") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise PlotError(f"{path}: cannot read it ({exc})") from None
    try:
        rows = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PlotError(f"{path}: not JSON ({exc})") from None
    if not isinstance(rows, list) or not rows:
        raise PlotError(f"{path}: expected a non-empty JSON list of bench rows, got "
                        f"{'an empty list' if rows == [] else type(rows).__name__}")
    for i, r in enumerate(rows):
        if not isinstance(r, dict):
            raise PlotError(f"{path}: row {i} is a {type(r).__name__}, not an object")
        missing = [k for k in NEEDED if k not in r]
        if missing:
            raise PlotError(f"{path}: row {i} lacks {', '.join(missing)} (needs {', '.join(NEEDED)})")
        kinds = {"kernel": str, "precision": str, "m": int, "tflops": (int, float, type(None))}
        wrong = [k for k, kind in kinds.items() if not isinstance(r[k], kind) or isinstance(r[k], bool)]
        if wrong:   # (as tcraw writes them: names as text, m a whole number, tflops a number or null)
            raise PlotError(f"{path}: row {i}'s {', '.join(f'{k} {r[k]!r}' for k in wrong)} is not what tcraw bench "
                            "writes (kernel and precision texts, m a whole number, tflops a number)")
    return rows


def check_writable(out):
    """Refuse an output path that cannot be written before any plotting is done."""
    out = Path(out)
    parent = out.parent
    if out.is_dir():
        raise PlotError(f"-o {out}: is a directory; name a file, e.g. {out / 'bench.png'}")
    if not parent.exists():
        raise PlotError(f"-o {out}: directory {parent} does not exist")
    if not parent.is_dir():
        raise PlotError(f"-o {out}: {parent} is not a directory")
    if not os.access(parent, os.W_OK) or (out.exists() and not os.access(out, os.W_OK)):
        raise PlotError(f"-o {out}: not writable")
    if out.suffix.lower() not in (".png", ".svg", ".pdf"):   # (matplotlib picks the format by the suffix)
        raise PlotError(f"-o {out}: name a .png (or .svg, .pdf) file; the suffix says the format")


def plot(rows, out):
    try:
        import matplotlib
    except ImportError:
        raise PlotError("matplotlib is not installed; install the plot extra: pip install 'tcraw[plot]'") from None
    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt

    by_precision = defaultdict(lambda: defaultdict(list))
    for r in rows:
        if r.get("passed") and r.get("tflops"):
            # a yardstick in two modes (cuBLASLt's FAST_ACCUM) is two lines; a rung's per-size picks one
            name = r["kernel"] + (f" {r['variant']}" if r["kernel"] in YARDSTICKS and r.get("variant") else "")
            by_precision[r["precision"]][name].append((r["m"], r["tflops"]))
    if not by_precision:
        raise PlotError("no verified rows to plot (no row has passed and a non-zero tflops)")
    fig, axes = plt.subplots(1, len(by_precision), figsize=(4.5 * len(by_precision), 4), squeeze=False)
    for ax, (precision, kernels) in zip(axes[0], sorted(by_precision.items())):
        for name, points in sorted(kernels.items()):
            sizes, rates = zip(*sorted(points))
            ax.plot(sizes, rates, "k--" if name.split()[0] in YARDSTICKS else "-o", label=name)
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
    rows = read_rows(args.bench_json)
    check_writable(args.out)
    print(plot(rows, args.out))


if __name__ == "__main__":
    try:
        main()
    except PlotError as exc:
        print(f"plot_bench: {exc}", file=sys.stderr)
        sys.exit(2)
