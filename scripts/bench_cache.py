"""Cold vs warm compile of the whole kernel set through the cubin cache (a benchmark, not a test).

    python scripts/bench_cache.py [--arch sm_90] [--repeat 3]

Cold: an empty cache directory, every kernel through NVRTC. Warm: the same compiles again with
the per-process header memo cleared, so each pays what a fresh process pays (hash the source and
every header, read and check the entry).
"""

import argparse
import statistics
import tempfile
import time

from tcraw import cache, compiler, kernels
from tcraw.cache import CubinCache
from tcraw.errors import UsageError, run_main


def compile_all(arch, store):
    t0 = time.perf_counter()
    cubins = [compiler.compile_cubin(k, arch, cache=store) for k in kernels.KERNELS.values()
              if k.runs_on(compiler.Arch.parse(arch).cc)]
    return (time.perf_counter() - t0) * 1e3, cubins


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    if args.repeat < 1:
        raise UsageError(f"--repeat {args.repeat}: must be at least 1")
    compiler.check_arch_supported(compiler.Arch.parse(args.arch))
    cold, warm = [], []
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory() as d:
            store = CubinCache(d)
            cache._header_digest_memo.clear()
            ms, cubins = compile_all(args.arch, store)
            nvrtc_runs = sum(not c.cached for c in cubins)  # kernels sharing a source+options share a compile
            cold.append(ms)
            cache._header_digest_memo.clear()
            ms, cubins = compile_all(args.arch, store)
            assert all(c.cached for c in cubins)
            warm.append(ms)
    c, w = statistics.median(cold), statistics.median(warm)
    print(f"{len(cubins)} kernels ({nvrtc_runs} NVRTC compiles) for {args.arch}: cold {c:.1f} ms, warm {w:.2f} ms "
          f"(medians of {args.repeat}), warm is {c / w:.0f}× faster")


if __name__ == "__main__":
    run_main("bench_cache", main)   # tcraw's own errors: one line and the exit code each carries
