"""Launch overhead: an empty 4-argument kernel launched 20,000 times through each backend with
pre-packed arguments, beside the same loop in C over the driver API (when cc and cuda.h exist).

    python scripts/bench_launch.py [--launches 20000] [--repeat 3]

Each loop: 1,000 warm-up launches, then N launches timed on the host clock up to a final
cuCtxSynchronize; µs per launch is the median over --repeat loops.
"""

import argparse
import ctypes
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from tcraw import compiler
from tcraw.driver import get_backend
from tcraw.errors import UsageError, run_main

EMPTY = 'extern "C" __global__ void empty(int a, int b, int c, int d) {}\n'

C_LOOP = r"""
#include <cuda.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
/* Only unversioned entry points are used here (cuCtxSynchronize_v2 is a different function). */
#define LOAD(name) __typeof__(&name) p_##name = (__typeof__(&name))dlsym(lib, #name)
#define CHECK(x) do { CUresult r = (x); if (r) { printf("error %d at %s\n", r, #x); return 1; } } while (0)
int main(int argc, char** argv) {
    void* lib = dlopen("libcuda.so.1", RTLD_NOW);
    if (!lib) { printf("no libcuda.so.1\n"); return 1; }
    LOAD(cuInit); LOAD(cuDeviceGet); LOAD(cuDevicePrimaryCtxRetain); LOAD(cuCtxSetCurrent);
    LOAD(cuModuleLoadData); LOAD(cuModuleGetFunction); LOAD(cuLaunchKernel); LOAD(cuCtxSynchronize);
    int n = atoi(argv[2]), repeat = atoi(argv[3]);
    FILE* f = fopen(argv[1], "rb"); fseek(f, 0, SEEK_END); long size = ftell(f); rewind(f);
    char* image = malloc(size); fread(image, 1, size, f); fclose(f);
    CUdevice dev; CUcontext ctx; CUmodule mod; CUfunction fn;
    CHECK(p_cuInit(0)); CHECK(p_cuDeviceGet(&dev, 0)); CHECK(p_cuDevicePrimaryCtxRetain(&ctx, dev));
    CHECK(p_cuCtxSetCurrent(ctx)); CHECK(p_cuModuleLoadData(&mod, image));
    CHECK(p_cuModuleGetFunction(&fn, mod, "empty"));
    int a = 1, b = 2, c = 3, d = 4; void* params[] = {&a, &b, &c, &d};
    for (int r = 0; r < repeat; ++r) {
        for (int i = 0; i < 1000; ++i) CHECK(p_cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, 0, params, 0));
        CHECK(p_cuCtxSynchronize());
        struct timespec t0, t1; clock_gettime(CLOCK_MONOTONIC, &t0);
        for (int i = 0; i < n; ++i) CHECK(p_cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, 0, params, 0));
        CHECK(p_cuCtxSynchronize());
        clock_gettime(CLOCK_MONOTONIC, &t1);
        printf("%.4f\n", ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / 1e3 / n);
    }
    return 0;
}
"""


def python_loop(backend_name, cubin, n, repeat):
    cu = get_backend(backend_name)
    cu.init()
    dev = cu.device_get(0)
    cu.ctx_set_current(cu.primary_ctx_retain(dev))
    mod = cu.module_load_data(cubin)
    fn = cu.module_get_function(mod, "empty")
    held = [ctypes.c_int32(v) for v in (1, 2, 3, 4)]
    params = (ctypes.c_void_p * 4)(*[ctypes.addressof(v) for v in held])
    launch = cu.launcher(fn, (1, 1, 1), (32, 1, 1), 0, ctypes.addressof(params))
    per_launch = []
    for _ in range(repeat):
        for _ in range(1000):
            launch()
        cu.ctx_synchronize()
        t0 = time.perf_counter()
        for _ in range(n):
            launch()
        cu.ctx_synchronize()
        per_launch.append((time.perf_counter() - t0) * 1e6 / n)
    cu.module_unload(mod)
    cu.primary_ctx_release(dev)
    return statistics.median(per_launch)


def c_loop(cubin_path, n, repeat, workdir):
    cc = shutil.which("cc") or shutil.which("gcc")
    include = next((d for d in (os.environ.get("CUDA_HOME", "/usr/local/cuda") + "/include",)
                    if Path(d, "cuda.h").is_file()), None)
    if not cc or not include:
        return None, f"skipped: needs a C compiler and cuda.h (cc: {cc}, cuda.h: {include})"
    src, exe = Path(workdir, "loop.c"), Path(workdir, "loop")
    src.write_text(C_LOOP)
    build = subprocess.run([cc, "-O2", f"-I{include}", str(src), "-o", str(exe), "-ldl"],
                           capture_output=True, text=True)
    if build.returncode:
        return None, f"skipped: C build failed: {build.stderr.strip()[:200]}"
    out = subprocess.run([str(exe), str(cubin_path), str(n), str(repeat)], capture_output=True, text=True)
    if out.returncode:
        return None, f"C loop failed: {out.stdout.strip()}"
    return statistics.median(float(v) for v in out.stdout.split()), "cc -O2, driver API via dlopen"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--launches", type=int, default=20000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    for name in ("launches", "repeat"):
        if getattr(args, name) < 1:
            raise UsageError(f"--{name} {getattr(args, name)}: must be at least 1")
    cu = get_backend()
    cu.init()
    major = cu.device_attribute(cu.device_get(0), 75)
    minor = cu.device_attribute(cu.device_get(0), 76)
    cubin, _ = compiler.nvrtc_compile(cu, EMPTY, "empty.cu", [f"--gpu-architecture=sm_{major}{minor}"])
    with tempfile.TemporaryDirectory() as d:
        path = Path(d, "empty.cubin")
        path.write_bytes(cubin)
        c_us, c_note = c_loop(path, args.launches, args.repeat, d)
    rows = [("C loop", c_us, c_note)]
    for name in ("bindings", "ctypes"):
        try:
            rows.append((f"tcraw {name}", python_loop(name, cubin, args.launches, args.repeat),
                         "pre-packed void** args, launcher() from the seam"))
        except Exception as exc:  # a backend that is not installed here
            rows.append((f"tcraw {name}", None, f"skipped: {exc}"))
    print(f"{cu.device_name(cu.device_get(0))}: empty kernel, {args.launches} launches, median of {args.repeat}")
    for name, us, note in rows:
        ratio = f"{us / c_us:5.2f}× C" if us and c_us else "      "
        print(f"  {name:16} {us if us is None else f'{us:6.2f} µs'}  {ratio}  {note}")


if __name__ == "__main__":
    run_main("bench_launch", main)   # tcraw's own errors (no GPU: 3): one line and the exit code each carries
