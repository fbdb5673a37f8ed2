"""The seed's program (scripts/seed_000_wmma_matmul.cu: naive FP32 vs WMMA FP16, checked and
timed) in Python, top to bottom, every CUDA driver and NVRTC call in plain sight.

    python scripts/walkthrough.py [--backend bindings|ctypes] [--n 1024] [--trace]

It imports nothing from tcraw but the seam (tcraw.driver) and its error types (tcraw.errors),
so each step below is one call you can look up in the CUDA Driver API or NVRTC documentation.
Exit codes as tcraw's: 0 ok, 1 a check failed, 2 bad usage, 3 no GPU or driver.
"""

import argparse
import ctypes
import os
import sys
from pathlib import Path

import numpy as np

from tcraw.driver import get_backend
from tcraw.errors import MissingHeaderError, run_main

ROOT = Path(__file__).resolve().parent.parent

# 0. Arguments first: a bad one is reported (exit 2, with the usage line) before the driver is touched.
ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("--backend", default=None, help="bindings (cuda-python) or ctypes")
ap.add_argument("--n", type=int, default=1024, help="square size, a multiple of 64 as in the seed")
ap.add_argument("--trace", action="store_true", help="print every call as it happens")
args = ap.parse_args()
N = args.n
if not 0 < N <= 16384 or N % 64:
    ap.error(f"--n {N}: must be a positive multiple of 64 (the seed's kernels assume whole 64×64 "
             "blocks), at most 16384 (the float64 host reference grows as n³)")


def fail(message):
    """A check that did not hold: one line on stderr, exit 1."""
    sys.exit(f"walkthrough: {message}")


def main():
    cu = get_backend(args.backend, trace=args.trace)   # an unknown name raises UsageError

    # 1. The driver, device 0, and its primary context (the one the runtime API would use).
    cu.init()                                           # no driver or no GPU: NoDeviceError
    dev = cu.device_get(0)
    ctx = cu.primary_ctx_retain(dev)
    cu.ctx_set_current(ctx)
    major = cu.device_attribute(dev, 75)   # CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
    minor = cu.device_attribute(dev, 76)   # ..._MINOR
    arch = f"sm_{major}{minor}"
    print(f"{cu.device_name(dev)} ({arch}), backend {cu.name}")

    # 2. NVRTC: CUDA C++ → cubin for exactly this GPU. WMMA needs <mma.h> and crt/mma.h.
    def include_dir():
        dirs = [os.environ.get("CUDA_HOME", "/usr/local/cuda") + "/include"]
        try:
            from cuda.pathfinder import find_nvidia_header_directory
            dirs.insert(0, find_nvidia_header_directory("cudart") or "")
        except ImportError:
            pass
        for d in dirs:
            if d and Path(d, "crt", "mma.h").is_file():
                return d
        raise MissingHeaderError(
            f"no crt/mma.h (needed by <mma.h>) under {' or '.join(d for d in dirs if d)}; "
            "pip install 'cuda-toolkit[nvrtc,cudart,crt]' or point CUDA_HOME at a CUDA toolkit")

    def compile_cubin(path, extra):
        prog = cu.nvrtc_create_program(path.read_text(), path.name)
        options = [f"--gpu-architecture={arch}", "--std=c++17", f"-I{include_dir()}", *extra]
        result, code = cu.nvrtc_compile_program(prog, options)
        log = cu.nvrtc_get_program_log(prog)
        if code != 0:
            fail(f"NVRTC could not compile {path.name}: {result}\n{log}")
        cubin = cu.nvrtc_get_cubin(prog)
        cu.nvrtc_destroy_program(prog)
        return cubin

    naive_mod = cu.module_load_data(compile_cubin(ROOT / "cuda_src/01_naive_fp32.cu", []))
    wmma_mod = cu.module_load_data(compile_cubin(ROOT / "cuda_src/02_wmma_naive.cu", ["-DTCRAW_WMMA_FP16_FP32"]))
    naive_fn = cu.module_get_function(naive_mod, "naive_fp32")
    wmma_fn = cu.module_get_function(wmma_mod, "wmma_naive_fp16_fp32")

    # 3. Host inputs, the seed's own pattern, rounded to fp16 once; the FP32 kernel gets the same
    #    rounded values, so both compute one function and the float64 reference is exact for both.
    i = np.arange(N * N, dtype=np.int64)
    a16 = (((i * 7 + 1) % 13) / 13.0 - 0.5).astype(np.float16).reshape(N, N)
    b16 = (((i * 5 + 3) % 11) / 11.0 - 0.5).astype(np.float16).reshape(N, N)
    a, b = a16.astype(np.float32), b16.astype(np.float32)
    ref = a16.astype(np.float64) @ b16.astype(np.float64)

    # 4. Device memory, and the inputs copied over. Outputs poisoned with NaN (0xFFFFFFFF).
    nbytes32, nbytes16 = N * N * 4, N * N * 2
    d_a, d_b, d_c = cu.mem_alloc(nbytes32), cu.mem_alloc(nbytes32), cu.mem_alloc(nbytes32)
    d_a16, d_b16, d_c16 = cu.mem_alloc(nbytes16), cu.mem_alloc(nbytes16), cu.mem_alloc(nbytes32)
    cu.memcpy_htod(d_a, a.ctypes.data, nbytes32)
    cu.memcpy_htod(d_b, b.ctypes.data, nbytes32)
    cu.memcpy_htod(d_a16, a16.ctypes.data, nbytes16)
    cu.memcpy_htod(d_b16, b16.ctypes.data, nbytes16)
    cu.memset_d8(d_c, 0xFF, nbytes32)
    cu.memset_d8(d_c16, 0xFF, nbytes32)

    # 5. Kernel arguments: cuLaunchKernel takes an array of pointers, one to each argument's bytes.
    def pack(*values):
        held = list(values)
        return held, (ctypes.c_void_p * len(held))(*[ctypes.addressof(v) for v in held])

    n32 = ctypes.c_int32(N)
    naive_args = pack(ctypes.c_uint64(d_a), ctypes.c_uint64(d_b), ctypes.c_uint64(d_c), n32, n32, n32)
    wmma_args = pack(ctypes.c_uint64(d_a16), ctypes.c_uint64(d_b16), ctypes.c_uint64(d_c16), n32, n32, n32)

    # 6. Launch geometry, as in the seed: 16×16 threads per block for the naive kernel; 128×4
    #    threads (16 warps, each one 16×16 tile) = a 64×64 tile per block for WMMA.
    naive = cu.launcher(naive_fn, (N // 16, N // 16, 1), (16, 16, 1), 0, ctypes.addressof(naive_args[1]))
    wmma = cu.launcher(wmma_fn, (N // 64, N // 64, 1), (128, 4, 1), 0, ctypes.addressof(wmma_args[1]))

    # 7. Time with events: one warm-up launch, then 20 back to back, as the seed does.
    def time_ms(launch, iters=20):
        launch()
        cu.ctx_synchronize()
        start, end = cu.event_create(), cu.event_create()
        cu.event_record(start)
        for _ in range(iters):
            launch()
        cu.event_record(end)
        cu.event_synchronize(end)
        ms = cu.event_elapsed_ms(start, end) / iters
        cu.event_destroy(start)
        cu.event_destroy(end)
        return ms

    naive_ms, wmma_ms = time_ms(naive), time_ms(wmma)

    # 8. Copy back and check every element against the reference.
    def max_rel_err(d_out, label):
        out = np.empty((N, N), dtype=np.float32)
        cu.memcpy_dtoh(out.ctypes.data, d_out, nbytes32)
        if np.isnan(out).any():
            fail(f"{label}: {int(np.isnan(out).sum())} outputs were never written (still NaN)")
        return float(np.max(np.abs(out - ref) / (np.abs(ref) + 1e-3)))

    naive_err, wmma_err = max_rel_err(d_c, "naive FP32"), max_rel_err(d_c16, "WMMA FP16")
    gflop = 2.0 * N ** 3 / 1e9
    print(f"Matmul {N} x {N} x {N} ({gflop:.2f} GFLOP per multiply)\n")
    print(f"naive FP32 (CUDA cores):   {naive_ms:7.3f} ms {gflop / naive_ms:9.1f} TFLOP/s  max rel err {naive_err:.1e}")
    print(f"WMMA FP16 (Tensor Cores):  {wmma_ms:7.3f} ms {gflop / wmma_ms:9.1f} TFLOP/s  max rel err {wmma_err:.1e}")
    print(f"\nTensor Cores: {naive_ms / wmma_ms:.1f}x faster on the same multiply.")

    # 9. Give everything back: memory, modules, the context.
    for ptr in (d_a, d_b, d_c, d_a16, d_b16, d_c16):
        cu.mem_free(ptr)
    cu.module_unload(naive_mod)
    cu.module_unload(wmma_mod)
    cu.primary_ctx_release(dev)
    if not (naive_err < 1e-3 and wmma_err < 1e-3):
        fail(f"a kernel disagrees with the reference (max rel err: naive FP32 {naive_err:.1e}, "
             f"WMMA FP16 {wmma_err:.1e}; allowed 1e-3)")


if __name__ == "__main__":
    run_main("walkthrough", main)   # tcraw's own errors: one line, and the exit code each one carries
