"""One kernel on one problem: allocate → copy → launch → time → copy back → verify → record.

Read it top to bottom; every device step is a named call on the objects in runtime.py.
"""

import statistics
from contextlib import ExitStack
from dataclasses import asdict, dataclass, field

import numpy as np

from . import compiler
from .errors import ArchError, UsageError
from .precision import HostProblem, verify
from .runtime import DeviceBuffer, KernelArgs, Module, check_geometry, launcher, time_launches


@dataclass
class Record:
    """One kernel × problem. These field names are the JSON contract (DESIGN.md)."""

    kernel: str
    precision: str
    m: int
    n: int
    k: int
    arch: str
    device: str
    backend: str
    time_ms: float          # median over timed launches
    tflops: float
    pct_peak: float | None
    max_rel_err: float      # max |C - ref| / (|A||B|)
    tolerance: float        # bound on max_rel_err from the error model (0: must be exact)
    passed: bool
    iters: int
    # extra fields
    time_min_ms: float = 0.0
    norm_rel_err: float = 0.0
    max_abs_err: float = 0.0
    bad: int = 0
    unwritten: int = 0
    padding_dirty: int = 0
    inputs: str = "normal"
    seed: int = 0
    warmup: int = 0
    device_index: int = 0
    padded: list = field(default_factory=list)
    grid: list = field(default_factory=list)
    block: list = field(default_factory=list)
    registers: int = 0
    speedup: float | None = None   # over the naive FP32 baseline on the same problem
    error: str | None = None       # why this row has no result (the run failed; passed is False)

    def as_dict(self):
        return asdict(self)


def failed_record(kernel, m, n, k, device, error, **extra):
    """The row a kernel gets when its run raised: nothing measured, the reason kept."""
    nan = float("nan")
    return Record(kernel=kernel.name, precision=kernel.precision.label, m=m, n=n, k=k,
                  arch=str(device.arch), device=device.name, backend=device.drv.name, time_ms=nan,
                  tflops=nan, pct_peak=None, max_rel_err=nan, tolerance=nan, passed=False,
                  error=error, device_index=device.ordinal, **extra)


def check_problem(m, n, k):
    for name, v in (("M", m), ("N", n), ("K", k)):
        if not isinstance(v, (int, np.integer)) or v < 1:
            raise UsageError(f"{name} must be an integer ≥ 1, got {v!r}")


def pad(array, rows, cols):
    """Zero-pad a host matrix to (rows, cols): WMMA reads whole fragment tiles, and zeros add
    nothing to the dot products."""
    if array.shape == (rows, cols):
        return np.ascontiguousarray(array)
    out = np.zeros((rows, cols), dtype=array.dtype)
    out[: array.shape[0], : array.shape[1]] = array
    return out


def run_matmul(device, kernel, hp: HostProblem, *, iters=20, warmup=3, seed=0, cubin=None,
               keep_output=False):
    """Run ``kernel`` on the host problem ``hp`` on ``device``; return a Record (and the output
    when ``keep_output``)."""
    m, n, k = hp.m, hp.n, hp.k
    check_problem(m, n, k)
    if hp.precision is not kernel.precision:
        raise UsageError(f"{kernel.name} reads {kernel.precision.label}, the inputs are {hp.precision.label}")
    if device.cc < kernel.min_arch:
        raise ArchError(f"kernel {kernel.name} needs sm_{kernel.min_arch} or newer; "
                        f"{device.name} is {device.arch}")
    if iters < 1 or warmup < 0:
        raise UsageError(f"--iters must be ≥ 1 and --warmup ≥ 0 (got {iters}, {warmup})")

    # 1. Host side: pad to whole tiles; the output comes back into a padded host array.
    mp, np_, kp = kernel.padded(m, n, k)
    a, b = pad(hp.a, mp, kp), pad(hp.b, kp, np_)
    c = np.empty((mp, np_), dtype=kernel.precision.out_dtype)
    geometry = kernel.geometry(mp, np_, kp)

    with ExitStack() as stack:
        # 2. Code: NVRTC cubin for this device, loaded into the current context.
        cubin = cubin or compiler.compile_cubin(kernel, device.arch, device.drv)
        module = stack.enter_context(Module(device, cubin.image))
        fn = module.function(kernel.entry)
        check_geometry(device, fn, geometry)

        # 3. Device memory: allocate, copy inputs over, poison the output.
        d_a = stack.enter_context(DeviceBuffer(device, a.nbytes))
        d_b = stack.enter_context(DeviceBuffer(device, b.nbytes))
        d_c = stack.enter_context(DeviceBuffer(device, c.nbytes))
        d_a.copy_from_host(a)
        d_b.copy_from_host(b)
        d_c.poison(c.dtype)

        # 4. Launch with explicit geometry, timed by events (warm-up launches untimed).
        args = KernelArgs([d_a, d_b, d_c, np.int32(mp), np.int32(np_), np.int32(kp)])
        times = time_launches(device, launcher(fn, geometry, args), iters, warmup)

        # 5. Copy back and verify every element (and that the zero padding stayed zero).
        d_c.copy_to_host(c)
        verdict = verify(c, hp)

    median = statistics.median(times)
    flops = 2.0 * m * n * k  # the useful work, not the padded work
    tflops = flops / (median * 1e-3) / 1e12
    peak = device.peak_tflops(kernel.precision)
    record = Record(
        kernel=kernel.name, precision=kernel.precision.label, m=m, n=n, k=k,
        arch=str(device.arch), device=device.name, backend=device.drv.name,
        time_ms=median, tflops=tflops, pct_peak=(100.0 * tflops / peak) if peak else None,
        max_rel_err=verdict.max_rel_err, tolerance=verdict.tolerance, passed=verdict.passed,
        iters=iters, time_min_ms=min(times), norm_rel_err=verdict.norm_rel_err,
        max_abs_err=verdict.max_abs_err, bad=verdict.bad, unwritten=verdict.unwritten,
        padding_dirty=verdict.padding_dirty, inputs=hp.mode, seed=seed, warmup=warmup,
        device_index=device.ordinal, padded=[mp, np_, kp], grid=list(geometry.grid),
        block=list(geometry.block), registers=fn.num_regs,
    )
    return (record, c[:m, :n]) if keep_output else record
