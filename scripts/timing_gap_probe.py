"""Whether the event pairs around each launch time host gaps as well as the kernel: 06's pick and
cuBLAS on each shape, timed as `tcraw bench` times them (tcraw.runtime.time_launches: warm-up,
then record · launch · record ten times, no wait between) and again with the stream kept busy
while the host enqueues the timed launches (untimed launches of the same work first, enough to
outlast the enqueueing), alternately. Where the host takes longer to enqueue a launch than the
GPU to run it, the GPU waits between a start event and its launch and the first way times the
wait too; the second does not. Prints both medians and the host's µs to enqueue one timed launch
(its two events with it). Needs a GPU.

    python scripts/timing_gap_probe.py --shapes 1024,1024,1024 512,512,32768 --repeat 3
"""
import argparse
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tcraw import kernels, matmul, runtime                               # noqa: E402
from tcraw.driver.cublas import Cublas                                  # noqa: E402
from tcraw.errors import run_main                                       # noqa: E402
from tcraw.precision import PRECISIONS, base_matrices, host_problem     # noqa: E402

BUSY = {"on": False, "host_us": []}


def time_launches(device, run_once, iters, warmup):
    """tcraw.runtime.time_launches, with (BUSY["on"]) untimed launches queued ahead of the timed
    ones — as many as the GPU takes longer to run than the host to enqueue the timed ones — and
    the host's time to enqueue each timed launch kept in BUSY["host_us"]."""
    drv = device.drv
    runtime.warm_up(drv, run_once, warmup)
    start, end = drv.event_create(), drv.event_create()
    drv.event_record(start)
    run_once()
    drv.event_record(end)
    drv.event_synchronize(end)
    gpu_ms = drv.event_elapsed_ms(start, end)
    events = [(drv.event_create(), drv.event_create()) for _ in range(iters)]
    if BUSY["on"]:   # the host enqueues a timed launch in well under 100 µs (scripts/bench_launch.py: ~5)
        for _ in range(math.ceil(iters * 0.1 / max(gpu_ms, 1e-3)) + 2):
            run_once()
    t0 = time.perf_counter()
    for s, e in events:
        drv.event_record(s)
        run_once()
        drv.event_record(e)
    BUSY["host_us"].append((time.perf_counter() - t0) / iters * 1e6)
    drv.event_synchronize(events[-1][1])
    times = [drv.event_elapsed_ms(s, e) for s, e in events]
    for ev in (start, end, *(x for pair in events for x in pair)):
        drv.event_destroy(ev)
    return times


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--key", default="fp16")
    ap.add_argument("--shapes", nargs="+", default=["1024,1024,1024", "1024,1024,8192", "512,512,32768",
                                                    "128,4096,4096", "2048,2048,2048"])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    matmul.time_launches = time_launches
    kernel, precision = kernels.wgmma_kernel(args.key), PRECISIONS[args.key]
    with runtime.Device(0) as device:
        cublas = Cublas()
        try:
            probe(device, cublas, kernel, precision, args)
        finally:
            cublas.close()


def probe(device, cublas, kernel, precision, args):
    print(f"{device.name}: µs, median of 10 launches after 5 warm-up (≥ {runtime.WARM_MS} ms), inputs rotated; "
          f"as bench times / with the stream kept busy; host µs to enqueue one timed launch")
    for spec in args.shapes:
        shape = tuple(int(v) for v in spec.split(","))
        hp = host_problem(precision, *base_matrices(*shape, "normal", 7), "normal")
        rows = {"06": ([], [], []), "cublas": ([], [], [])}
        for _ in range(args.repeat):
            for busy in (False, True):
                BUSY["on"] = busy
                for name in rows:
                    BUSY["host_us"].clear()
                    record = (matmul.run_matmul(device, kernel, hp, iters=10, warmup=5, rotate=True)
                              if name == "06" else
                              matmul.run_cublas(device, cublas, precision, hp, iters=10, warmup=5, rotate=True))
                    assert record.passed, f"{name} {spec} failed its check"
                    rows[name][busy].append(record.time_ms * 1000)
                    rows[name][2].append(BUSY["host_us"][-1])
        label = "×".join(map(str, shape))
        for name, (plain, busy, host) in rows.items():
            print(f"{label:>16} {name:>6}: as bench {statistics.median(plain):8.2f}  busy "
                  f"{statistics.median(busy):8.2f}  host {statistics.median(host):6.1f}   "
                  f"(each: {' '.join(f'{p:.2f}/{b:.2f}' for p, b in zip(plain, busy))})")
        print(f"{label:>16} ratio 06 × cuBLAS: as bench {statistics.median(rows['cublas'][0]) / statistics.median(rows['06'][0]):.3f}"
              f", busy {statistics.median(rows['cublas'][1]) / statistics.median(rows['06'][1]):.3f}")


if __name__ == "__main__":
    run_main("timing_gap_probe", main)
