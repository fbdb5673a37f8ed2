"""06 on shapes whose A or B rows are a multiple of 16 bytes but start off 128-byte lines (read in
place today: a box row then costs the L2 two or more read requests, wgmma.box_row_requests),
beside the same problem with those operands first copied to rows of 128 bytes (cuda_src/pitch_rows.cu,
the copy inside the timed launch as for rows off 16) — with the pick as it is, and with the pick
made as if the rows were on lines. One process, the variants in turn, every run verified.

    python scripts/lines_study.py --shapes scripts/shapes/lines.txt --precision fp16
"""

import argparse
import statistics
import sys
from contextlib import ExitStack
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tabulate import tabulate                  # noqa: E402

from tcraw import kernels, matmul, wgmma       # noqa: E402
from tcraw.bench import parse_shapes           # noqa: E402
from tcraw.errors import run_main              # noqa: E402
from tcraw.precision import PRECISIONS, base_matrices   # noqa: E402
from tcraw.report import shape_label           # noqa: E402
from tcraw.runtime import Device               # noqa: E402

# label -> (operands copied to 128-byte rows where theirs are off lines, pick made as if on lines)
VARIANTS = {"in place": ((), False), "A": (("A",), False), "A picked": (("A",), True),
            "A+B": (("A", "B"), False), "A+B picked": (("A", "B"), True)}


def to_lines(copied, picked, k_bytes):
    """The patches one variant runs under: Pitched also copies ``copied`` where their rows are off
    128-byte lines; with ``picked``, the model counts those rows as on lines (A's by its row
    bytes, ``k_bytes``: where B's rows have the same length they count as on lines too)."""
    plan = matmul.Pitched.plan

    def plan_lines(kernel, m, n, k, b_layout="row"):
        planned = list(plan(kernel, m, n, k, b_layout))
        yield from planned
        done = {p[0] for p in planned}
        item = kernel.precision.in_dtype.itemsize
        for name, rows, row in (("A", m, k * item), ("B", k, n * item)):
            if name in copied and name not in done and row % matmul.COPY_PITCH_BYTES:
                yield name, rows, row, -(-row // matmul.COPY_PITCH_BYTES) * matmul.COPY_PITCH_BYTES
    patches = [mock.patch.object(matmul.Pitched, "plan", staticmethod(plan_lines))] if copied else []
    if picked:
        requests = wgmma.box_row_requests
        on_lines = (lambda row: 1 if row == k_bytes else requests(row)) if copied == ("A",) else (lambda row: 1)
        patches.append(mock.patch.object(wgmma, "box_row_requests", on_lines))
    return patches


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shapes", required=True, help="suites and/or files of M N K lines (see tcraw bench)")
    ap.add_argument("--precision", default="fp16", choices=("fp16", "bf16"))
    ap.add_argument("--variants", default=",".join(VARIANTS), help=f"of {', '.join(VARIANTS)}")
    ap.add_argument("--rounds", type=int, default=2, help="runs of each variant, in turn")
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args(argv)
    labels = args.variants.split(",")
    if not labels or any(v not in VARIANTS for v in labels):
        ap.error(f"--variants {args.variants}: a comma-separated list of {', '.join(VARIANTS)}")
    key = args.precision
    kernel = kernels.KERNELS[f"wgmma_tma_{key}"]
    rows = []
    with Device(0) as device:
        for item in parse_shapes(args.shapes):
            m, n, k = item[1] if isinstance(item, tuple) and len(item) == 2 else item
            hp = matmul.make_problem(device, PRECISIONS[key], *base_matrices(m, n, k, "normal", args.seed), "normal")
            times, failed, picks = {v: [] for v in labels}, set(), {}
            for _ in range(args.rounds):
                for label in labels:
                    copied, picked = VARIANTS[label]
                    with ExitStack() as stack:
                        for patch in to_lines(copied, picked, k * hp.precision.in_dtype.itemsize):
                            stack.enter_context(patch)
                        rec = matmul.run_matmul(device, kernel, hp, iters=args.iters, warmup=3, seed=args.seed,
                                                rotate=True)
                    times[label].append(rec.time_ms * 1e3)
                    picks[label] = f"{rec.variant or '-'} [{','.join(rec.pitched)}]"
                    if not rec.passed:
                        failed.add(label)
            med = {v: statistics.median(t) for v, t in times.items()}
            cell = lambda v: "FAILED" if v in failed else f"{med[v]:.2f}"   # noqa: E731 (a wrong answer has no time)
            rows.append([shape_label(m, n, k), (k * 2) % 128, (n * 2) % 128] + [cell(v) for v in labels]
                        + ["" if failed else f"{med[v] / med[labels[0]]:.3f}" for v in labels[1:]])
            print(f"{shape_label(m, n, k):>16} " + "  ".join(f"{v}: {cell(v):>8} µs" for v in labels), flush=True)
            for v in labels:
                print(f"{'':>16}   {v}: {picks[v]}", flush=True)
        print(f"\n{device.name} (sm_{device.cc}), {key}, median of {args.rounds} runs × {args.iters} launches "
              "each, variants in turn; every run verified")
    print(tabulate(rows, headers=["shape", "A row mod 128", "B row mod 128"] + [f"µs, {v}" for v in labels]
                   + [f"{v} / {labels[0]}" for v in labels[1:]]))


if __name__ == "__main__":
    run_main("lines_study", main)
