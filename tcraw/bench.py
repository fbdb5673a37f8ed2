"""The ladder against cuBLAS, in the same process, on the same inputs, the same timing loop.

For each size and precision: inputs quantized once; the reference from the CPU (small sizes) or
the fp64 device reference (large: matmul.reference_kind); cuBLAS timed and verified first; then
each rung of the ladder, timed with input rotation where a problem would otherwise sit in L2,
verified at every size it is timed at, and reported as a ratio to cuBLAS's median time.
"""

from .errors import TcrawError
from .kernels import KERNELS
from .matmul import failed_record, make_problem, run_cublas, run_matmul
from .precision import PRECISIONS, base_matrices

# Precision -> the ladder's rungs, slowest first.
LADDER = {
    "fp32": ["naive_fp32", "tiled_simt_fp32"],
    "fp16": ["wmma_fp16", "wmma_pipelined_fp16", "mma_sync_fp16", "wgmma_tma_fp16"],
    "bf16": ["wmma_bf16", "wmma_pipelined_bf16", "mma_sync_bf16", "wgmma_tma_bf16"],
    "tf32": ["wmma_tf32", "mma_sync_tf32"],
}


def run_bench(device, cublas, keys, sizes, *, iters, warmup, seed, note=print, rungs=None):
    """Rows for cuBLAS and each rung per size and precision. ``rungs`` (precision key -> Kernel
    list) replaces the registry's ladder, e.g. with tuning variants (scripts/tune_ladder.py)."""
    rungs = rungs or {key: [KERNELS[name] for name in LADDER[key]] for key in keys}
    rows = []
    for size in sizes:
        base_a, base_b = base_matrices(size, size, size, "normal", seed)
        for key in keys:
            p = PRECISIONS[key]
            hp = make_problem(device, p, base_a, base_b, "normal")
            base = None
            try:
                base = run_cublas(device, cublas, p, hp, iters=iters, warmup=warmup, seed=seed, rotate=True)
                rows.append(base.as_dict())
            except TcrawError as exc:
                note(f"cublas {key} {size}: {exc}")
            for kernel in rungs[key]:
                name = kernel.name
                if (refusal := kernel.device_refusal(device)):
                    if size == sizes[0]:
                        note(f"skipped: {refusal}")
                    continue
                try:
                    rec = run_matmul(device, kernel, hp, iters=iters, warmup=warmup, seed=seed, rotate=True)
                except TcrawError as exc:
                    note(f"{name} {size}: {exc}")
                    rec = failed_record(kernel, size, size, size, device, str(exc).splitlines()[0])
                row = rec.as_dict()
                row["vs_cublas"] = base.time_ms / rec.time_ms if base and base.passed and rec.passed else None
                rows.append(row)
                note(f"{name:>22} {size:>5}³  {rec.tflops:8.1f} TFLOP/s  "
                     + (f"{row['vs_cublas']:.3f}× cuBLAS" if row["vs_cublas"] else "") +
                     ("" if rec.passed else "  FAILED"))
    return rows


def bench_vs_cublas(device_index, keys=None, sizes=(1024, 2048, 4096, 8192), *, extra=(), iters=20,
                    warmup=5, seed=None, note=print, open_device=None):
    """What `tcraw bench` does: the ladder of each precision in ``keys`` (default: every ladder),
    plus the user kernels ``extra`` beside the rungs of their precision, against cuBLAS on one
    GPU → rows with ``vs_cublas``. Checked before the GPU is touched."""
    from . import validate
    from .driver.cublas import Cublas
    from .errors import UsageError
    from .matmul import check_fits, check_host_fits
    from .runtime import Device
    from .sweep import fresh_seed
    keys = list(dict.fromkeys(keys or [k.precision.key for k in extra] or LADDER))
    for key in keys:
        if key not in LADDER:
            raise UsageError(f"bench has no ladder for {key!r}; choose from: {', '.join(LADDER)}")
    for size in sizes:
        validate.problem(size, size, size)
    validate.timing(iters, warmup)
    validate.seed(seed)
    if validate.device_index(device_index, allow_all=True) == "all":
        raise UsageError("bench times one GPU at a time (the ratios are within one device); give "
                         "--device N, or run `tcraw sweep --device all` to cover every GPU")
    check_host_fits(*(max(sizes),) * 3)
    seed = fresh_seed() if seed is None else seed
    with (open_device or Device)(int(device_index)) as dev:
        rungs = {k: [KERNELS[n] for n in LADDER[k]] + [u for u in extra if u.precision.key == k] for k in keys}
        check_fits(dev, [kern for r in rungs.values() for kern in r], *(max(sizes),) * 3)
        cublas = Cublas()
        try:
            return run_bench(dev, cublas, keys, sizes, iters=iters, warmup=warmup, seed=seed, note=note,
                             rungs=rungs)
        finally:
            cublas.close()
