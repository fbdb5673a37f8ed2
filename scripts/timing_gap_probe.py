"""Whether holding the stream changes what the event pairs time: 06's pick and cuBLAS on each
shape, timed as `tcraw bench` times them (tcraw.runtime.time_launches: warm-up, then record ·
launch · record ten times, queued behind a hold of the stream: Device.hold) and with no hold
(HOLD_MS_PER_LAUNCH = 0, as before 2026-12-01's session 27), alternately. Unheld, where the host
takes longer to queue a launch than the GPU to run it, the GPU waits between a start event and
its launch and the pair times the wait too. Prints both medians. Needs a GPU.

    python scripts/timing_gap_probe.py --shapes scripts/shapes/timing_gaps.txt --repeat 3

(Its first form, run 1 of docs/results/2026-12-01-h200-held-timing/, kept the stream busy with
untimed launches of the same work and printed the host's µs to queue one timed launch; runs 1–2
gave the shapes of that file inline, as M,N,K words.)
"""
import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tcraw import kernels, matmul, runtime                               # noqa: E402
from tcraw.bench import parse_shapes                                    # noqa: E402
from tcraw.driver.cublas import Cublas                                  # noqa: E402
from tcraw.errors import UsageError, run_main                           # noqa: E402
from tcraw.precision import PRECISIONS, base_matrices, host_problem     # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--key", default="fp16")
    ap.add_argument("--shapes", default="scripts/shapes/timing_gaps.txt", help="suites or files of shapes, as bench takes")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    kernel, precision = kernels.wgmma_kernel(args.key), PRECISIONS[args.key]
    args.shapes = list(dict.fromkeys(shape for _, shape in parse_shapes(args.shapes)))   # checked before a GPU is opened
    if args.repeat < 1:
        raise UsageError(f"--repeat must be at least 1, got {args.repeat}")
    with runtime.Device(0) as device:
        cublas = Cublas()
        try:
            probe(device, cublas, kernel, precision, args)
        finally:
            cublas.close()


def probe(device, cublas, kernel, precision, args):
    held_ms = runtime.HOLD_MS_PER_LAUNCH
    print(f"{device.name}: µs, median of 10 launches after 5 warm-up (≥ {runtime.WARM_MS} ms), inputs rotated; "
          f"unheld / held ({held_ms} ms a timed launch)")
    for dims in args.shapes:
        hp = host_problem(precision, *base_matrices(*dims, "normal", 7), "normal")
        rows = {"06": ([], []), "cublas": ([], [])}
        for _ in range(args.repeat):
            for held in (False, True):
                runtime.HOLD_MS_PER_LAUNCH = held_ms if held else 0
                for name in rows:
                    record = (matmul.run_matmul(device, kernel, hp, iters=10, warmup=5, rotate=True)
                              if name == "06" else
                              matmul.run_cublas(device, cublas, precision, hp, iters=10, warmup=5, rotate=True))
                    if not record.passed:
                        raise SystemExit(f"timing_gap_probe: {name} failed its check at {dims}")
                    rows[name][held].append(record.time_ms * 1000)
        label = "×".join(map(str, dims))
        for name, (unheld, held) in rows.items():
            print(f"{label:>16} {name:>6}: unheld {statistics.median(unheld):8.2f}  held {statistics.median(held):8.2f}"
                  f"   (each: {' '.join(f'{u:.2f}/{h:.2f}' for u, h in zip(unheld, held))})")
        ratio = {i: statistics.median(rows["cublas"][i]) / statistics.median(rows["06"][i]) for i in (0, 1)}
        print(f"{label:>16} ratio 06 × cuBLAS: unheld {ratio[0]:.3f}, held {ratio[1]:.3f}")


if __name__ == "__main__":
    run_main("timing_gap_probe", main)
