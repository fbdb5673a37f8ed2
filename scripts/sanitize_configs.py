"""06/07 (or 10) on named problems with integer inputs, each in the configuration given (or its
pick): what compute-sanitizer runs over configurations the battery's shapes do not reach.

    compute-sanitizer --tool racecheck python scripts/sanitize_configs.py fp16:256x4096x4096 \\
        fp16:512x512x8192:CONSUMERS=1,BN=128,CLUSTER=2

Each argument is KEY:MxNxK[:MACRO=VALUE,...] (KEY a wgmma precision: fp16, bf16, fp8e4m3bf16, ...;
or gemv_fp16, gemv_bf16: 10 itself, e.g. gemv_fp16:1x3586x1572:SPLIT=3).
Prints each run's configuration and passed / FAILED; exits 1 if any failed. Needs a GPU.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tcraw import kernels, validate                                     # noqa: E402
from tcraw.errors import UsageError, run_main                           # noqa: E402
from tcraw.matmul import run_matmul                                     # noqa: E402
from tcraw.precision import PRECISIONS, base_matrices, host_problem     # noqa: E402


def whole(text):
    """validate.digits, a ValueError where ``text`` is not ASCII digits alone (parse's one path out)."""
    if (value := validate.digits(text)) is None:
        raise ValueError(text)
    return value


def parse(item):
    """(key, (m, n, k), {macro: value} or None) from KEY:MxNxK[:MACRO=VALUE,...]."""
    parts = item.split(":")
    try:
        key, dims = parts[0], tuple(whole(v) for v in parts[1].split("x"))
        config = {name: whole(value) for name, value in (p.split("=") for p in parts[2].split(","))} if len(parts) > 2 else None
    except (IndexError, ValueError):
        raise UsageError(f"{item!r}: write KEY:MxNxK[:MACRO=VALUE,...], e.g. fp16:512x512x8192:BN=128,CLUSTER=2") from None
    if key not in (*kernels.WGMMA_FORMS, *GEMV) or len(dims) != 3 or len(parts) > 3:
        raise UsageError(f"{item!r}: KEY is one of {', '.join((*kernels.WGMMA_FORMS, *GEMV))}, then M×N×K as MxNxK")
    # every problem and configuration checked before the GPU is opened (a run under compute-sanitizer
    # takes minutes); on the H200's 132 SMs — the run checks them again with the device's own count
    kernel(key).configured(*dims, 132, overrides=config)
    return key, dims, config


GEMV = ("gemv_fp16", "gemv_bf16")


def kernel(key):
    """06/07 for a wgmma precision, 10 for gemv_fp16 and gemv_bf16."""
    return kernels.gemv_kernel(key[5:]) if key in GEMV else kernels.wgmma_kernel(key)


def main():
    from tcraw.runtime import Device
    problems = [parse(item) for item in sys.argv[1:]]
    if not problems:
        raise UsageError("name one or more problems: KEY:MxNxK[:MACRO=VALUE,...]")
    device, failed = Device(0), 0
    for key, shape, config in problems:
        a, b = base_matrices(*shape, "int", 1)
        rec = run_matmul(device, kernel(key), host_problem(PRECISIONS[key.removeprefix("gemv_")], a, b, "int"), iters=1,
                         warmup=0, config=config)
        ok = rec.passed and rec.unwritten == 0
        failed += not ok
        print(key, shape, rec.config, "passed" if ok else "FAILED")
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    run_main("sanitize_configs", main)   # tcraw's own errors: one line, and the exit code each one carries
