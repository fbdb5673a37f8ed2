"""06 on shapes whose operands it must copy to pitched rows (a row not a multiple of 16 bytes),
with the copies' rows padded to 16 bytes (a tensor map's minimum) and to 128 (one TMA box row:
tcraw.matmul.COPY_PITCH_BYTES) — or, with --copies, the copies made by cuMemcpy2DAsync and by
cuda_src/pitch_rows.cu (tcraw.matmul.PITCH_KERNELS) — in one process, alternately, each run verified.

    python scripts/pitch_study.py --shapes odd --precision fp16
    python scripts/pitch_study.py --shapes scripts/shapes/pitch_odd.txt --rounds 2
    python scripts/pitch_study.py --shapes odd --copies
"""

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tabulate import tabulate                  # noqa: E402

from tcraw import kernels, matmul              # noqa: E402
from tcraw.bench import parse_shapes           # noqa: E402
from tcraw.errors import UsageError, run_main  # noqa: E402
from tcraw.precision import PRECISIONS, base_matrices   # noqa: E402
from tcraw.report import shape_label           # noqa: E402
from tcraw.runtime import Device               # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shapes", required=True, help="suites and/or files of M N K lines (see tcraw bench)")
    ap.add_argument("--precision", default="fp16", choices=("fp16", "bf16"))
    ap.add_argument("--pitches", default="16,128", help="copy pitches to compare, bytes")
    ap.add_argument("--copies", action="store_true",
                    help="compare the copies' makers (cuMemcpy2DAsync, pitch_rows.cu) instead of pitches")
    ap.add_argument("--rounds", type=int, default=2, help="runs of each pitch, alternating")
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args(argv)
    try:
        pitches = [int(p) for p in args.pitches.split(",")]
    except ValueError:
        pitches = []
    if len(pitches) < 2 or any(p % 16 or p < 16 for p in pitches):
        ap.error(f"--pitches {args.pitches}: two or more multiples of 16 bytes (a tensor map's stride), e.g. 16,128")
    for name in ("rounds", "iters"):
        if getattr(args, name) < 1:
            ap.error(f"--{name} {getattr(args, name)}: must be at least 1")
    key = args.precision
    kernel = kernels.KERNELS[f"wgmma_tma_{key}"]
    saved = matmul.COPY_PITCH_BYTES, matmul.PITCH_KERNELS
    if args.copies:   # (label, what Pitched pads the copies' rows to, whether pitch_rows.cu makes them)
        variants = [("cuMemcpy2DAsync", saved[0], False), ("pitch_rows.cu", saved[0], True)]
    else:
        variants = [(f"rows to {p} B", p, saved[1]) for p in pitches]
    labels, rows = [v[0] for v in variants], []
    with Device(0) as device:
        if args.copies and not device.pitch_kernels():
            raise UsageError("--copies compares cuMemcpy2DAsync with cuda_src/pitch_rows.cu, which cannot be built "
                             "here (no NVRTC, or none for this GPU): both columns would be the driver's copy")
        for item in parse_shapes(args.shapes):
            m, n, k = item[1] if isinstance(item, tuple) and len(item) == 2 else item
            hp = matmul.make_problem(device, PRECISIONS[key], *base_matrices(m, n, k, "normal", args.seed), "normal")
            times, failed = {label: [] for label in labels}, set()
            try:
                for _ in range(args.rounds):
                    for label, pitch, with_kernel in variants:
                        matmul.COPY_PITCH_BYTES, matmul.PITCH_KERNELS = pitch, with_kernel
                        rec = matmul.run_matmul(device, kernel, hp, iters=args.iters, warmup=3, seed=args.seed,
                                                rotate=True)
                        times[label].append(rec.time_ms * 1e3)
                        if not rec.passed:
                            failed.add(label)
            finally:
                matmul.COPY_PITCH_BYTES, matmul.PITCH_KERNELS = saved
            med = {label: statistics.median(t) for label, t in times.items()}
            cell = lambda v: "FAILED" if v in failed else f"{med[v]:.2f}"   # noqa: E731 (a wrong answer has no time)
            rows.append([shape_label(m, n, k), rec.variant or "the registry's", ",".join(rec.pitched)]
                        + [cell(v) for v in labels]
                        + ["" if failed else f"{med[v] / med[labels[0]]:.3f}" for v in labels[1:]])
            print(f"{shape_label(m, n, k):>16} " + "  ".join(f"{v}: {cell(v):>8} µs" for v in labels), flush=True)
        print(f"\n{device.name} (sm_{device.cc}), {key}, median of {args.rounds} runs × {args.iters} launches "
              "each, alternating; every run verified")
    print(tabulate(rows, headers=["shape", "configuration", "copied"] + [f"µs, {v}" for v in labels]
                   + [f"{v} / {labels[0]}" for v in labels[1:]]))


if __name__ == "__main__":
    run_main("pitch_study", main)
