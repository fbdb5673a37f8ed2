"""How long a GPU that sat idle takes to run a small kernel at speed: 06 at one shape, timed like
`tcraw bench` (10 launches after 5 warm-up, inputs rotated out of L2) after an idle pause, with
warm-up lasting at least each of several GPU times (tcraw.runtime.WARM_MS; 0: the 5 launches
alone) — and again at once, busy. Needs a GPU.

    python scripts/warmup_probe.py --shape 1024,1024,1024 --idle 15 --warm-ms 0,30,100,0,30
"""
import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tcraw import kernels, runtime                                      # noqa: E402
from tcraw.errors import run_main                                       # noqa: E402
from tcraw.matmul import run_matmul                                     # noqa: E402
from tcraw.precision import PRECISIONS, base_matrices, host_problem     # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--key", default="fp16")
    ap.add_argument("--shape", default="1024,1024,1024")
    ap.add_argument("--idle", type=float, default=15.0, help="seconds the GPU idles before each cold timing")
    ap.add_argument("--warm-ms", default="0,30,100,0,30", help="warm-up floors to try, in this order")
    args = ap.parse_args()
    shape = tuple(int(v) for v in args.shape.split(","))
    device, kernel = runtime.Device(0), kernels.wgmma_kernel(args.key)
    hp = host_problem(PRECISIONS[args.key], *base_matrices(*shape, "normal", 7), "normal")
    run_matmul(device, kernel, hp, iters=1, warmup=0)   # compile, load, allocate once
    print(f"{device.name}: 06 {args.key} {'×'.join(map(str, shape))}, median µs of 10 launches after 5 warm-up")
    for warm_ms in (float(v) for v in args.warm_ms.split(",")):
        runtime.WARM_MS = warm_ms
        time.sleep(args.idle)
        cold = run_matmul(device, kernel, hp, iters=10, warmup=5, rotate=True)
        busy = run_matmul(device, kernel, hp, iters=10, warmup=5, rotate=True)
        assert cold.passed and busy.passed
        print(f"warm-up ≥ {warm_ms:5.1f} ms  after {args.idle:.0f} s idle: {cold.time_ms * 1000:7.2f} µs   "
              f"at once after: {busy.time_ms * 1000:7.2f} µs")


if __name__ == "__main__":
    run_main("warmup_probe", main)
