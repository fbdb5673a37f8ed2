"""06 on shapes whose rows of A are a multiple of 16 bytes but start off 128-byte lines: A read in
place (A_LINES=0: a box row then costs the L2 two or more read requests, wgmma.box_row_requests),
A copied to 128-byte rows first (A_LINES=1: cuda_src/pitch_rows.cu, inside the timed launch), and
06's pick, which copies A where wgmma.wgmma_copies_a_to_lines says — each over the problem's
configuration, in one process, in turn, every run verified.

    python scripts/lines_study.py --shapes scripts/shapes/lines.txt --precision fp16

(Run 1 of docs/results/2026-12-06-h100-a-lines/ ran this script's first form, commit ac9dd87: B
copied too, and picks made as if the rows lay on lines.)
"""

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tabulate import tabulate                  # noqa: E402

from tcraw import kernels, matmul              # noqa: E402
from tcraw.bench import parse_shapes           # noqa: E402
from tcraw.errors import run_main              # noqa: E402
from tcraw.precision import PRECISIONS, base_matrices   # noqa: E402
from tcraw.report import shape_label           # noqa: E402
from tcraw.runtime import Device               # noqa: E402

# label -> the override over each problem's pick (None: the pick as it is)
VARIANTS = {"in place": {"A_LINES": 0}, "A copied": {"A_LINES": 1}, "pick": None}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shapes", required=True, help="suites and/or files of M N K lines (see tcraw bench)")
    ap.add_argument("--precision", default="fp16", choices=("fp16", "bf16"))
    ap.add_argument("--rounds", type=int, default=2, help="runs of each variant, in turn")
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args(argv)
    for name in ("rounds", "iters"):
        if getattr(args, name) < 1:
            ap.error(f"--{name} {getattr(args, name)}: must be at least 1")
    key, labels = args.precision, list(VARIANTS)
    kernel = kernels.KERNELS[f"wgmma_tma_{key}"]
    rows = []
    with Device(0) as device:
        for item in parse_shapes(args.shapes):
            m, n, k = item[1] if isinstance(item, tuple) and len(item) == 2 else item
            hp = matmul.make_problem(device, PRECISIONS[key], *base_matrices(m, n, k, "normal", args.seed), "normal")
            times, failed, copied = {v: [] for v in labels}, set(), {}
            for _ in range(args.rounds):
                for label, config in VARIANTS.items():
                    rec = matmul.run_matmul(device, kernel, hp, iters=args.iters, warmup=3, seed=args.seed,
                                            rotate=True, config=config)
                    times[label].append(rec.time_ms * 1e3)
                    copied[label] = ",".join(rec.pitched) or "-"
                    if not rec.passed:
                        failed.add(label)
            med = {v: statistics.median(t) for v, t in times.items()}
            cell = lambda v: "FAILED" if v in failed else f"{med[v]:.2f}"   # noqa: E731 (a wrong answer has no time)
            rows.append([shape_label(m, n, k), k * hp.precision.in_dtype.itemsize % 128, rec.variant or "-",
                         copied["pick"]] + [cell(v) for v in labels]
                        + ["" if failed else f"{med[v] / med[labels[0]]:.3f}" for v in labels[1:]])
            print(f"{shape_label(m, n, k):>16} " + "  ".join(f"{v}: {cell(v):>8} µs" for v in labels)
                  + f"  (pick copies: {copied['pick']})", flush=True)
        print(f"\n{device.name} (sm_{device.cc}), {key}, median of {args.rounds} runs × {args.iters} launches "
              "each, variants in turn; every run verified")
    print(tabulate(rows, headers=["shape", "A's row mod 128 B", "configuration", "pick copies"]
                   + [f"µs, {v}" for v in labels] + [f"{v} / {labels[0]}" for v in labels[1:]]))


if __name__ == "__main__":
    run_main("lines_study", main)
