"""One kernel on one problem: allocate → copy → launch → time → copy back → verify → record.

Read it top to bottom; every device step is a named call on the objects in runtime.py.
"""

import ctypes
import itertools
import math
import os
import statistics
from contextlib import ExitStack
from dataclasses import asdict, dataclass, field, replace

import numpy as np

from . import compiler
from .driver.constants import TENSOR_MAP_SWIZZLE_NONE, TMA_BF16, TMA_FP32, TMA_INT32
from . import validate
from .errors import STICKY, CudaError, KernelFault, OutOfMemory, UsageError
from .kernel import Kernel
from .nvml import ClockSampler
from .precision import HostProblem, host_problem, quantized_inputs, verify
from .runtime import DeviceBuffer, KernelArgs, Module, TensorMap, launcher, time_launches


@dataclass
class Record:
    """One kernel × problem. These field names are the JSON contract (docs/facts.md)."""

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
    smem_bytes: int = 0
    input_sets: int = 1            # copies of the inputs cycled through (L2 rotation)
    speedup: float | None = None   # over the naive FP32 baseline on the same problem
    reference: str = "cpu"         # where the float64 reference came from: cpu or device
    guard_bytes: int = 0           # canary bytes around each operand (0: not guarded)
    out_of_bounds: str | None = None   # what the guards found: writes outside a buffer, changed inputs
    # What NVML saw during the timed launches (None without nvidia-ml-py; `nvml` says why)
    sm_clock_mhz_min: int | None = None
    sm_clock_mhz_max: int | None = None
    power_w_max: float | None = None
    throttle_reasons: list | None = None
    nvml: str | None = None
    source: str | None = None      # the kernel's .cu (cuda_src/ for the ladder, a path for a user's)
    config: str | None = None      # the -D macros it was built with: its tile/stage configuration
    variant: str = ""              # those that differ from the registry's (a configuration picked per problem)
    pitched: list = field(default_factory=list)   # operands copied to/from pitched rows inside the timed launch
    held_ms: float = 0.0           # GPU ms the timed launches were queued behind (runtime.Device.hold; 0: unheld)
    b_layout: str = "row"          # B as stored: "row" (K×N) or "col" (N×K, K-major)
    error: str | None = None       # why this row has no result (the run failed; passed is False)

    def as_dict(self):
        return asdict(self)


def failed_record(kernel, m, n, k, device, error, **extra):
    """The row a kernel gets when its run raised: nothing measured, the reason kept. ``device``
    may be None (a child process that died before saying which device it had)."""
    nan = float("nan")
    where = {"arch": str(device.arch), "device": device.name, "backend": device.drv.name,
             "device_index": device.ordinal} if device else {"arch": None, "device": None, "backend": None}
    return Record(kernel=kernel.name, precision=kernel.precision.label, m=m, n=n, k=k,
                  time_ms=nan, tflops=nan, pct_peak=None, max_rel_err=nan, tolerance=nan,
                  passed=False, error=error, iters=extra.pop("iters", 0), **kernel_fields(kernel),
                  **{**where, **extra})


def kernel_fields(kernel):
    """What a record says of the kernel itself: its source file and the macros it was built with
    (a tile/stage configuration, or a user's --define)."""
    return {"source": kernel.source, "config": ",".join(kernel.defines), "variant": kernel.variant}


# Up to this many multiply-adds the CPU's float64 reference takes about a second; beyond it the
# fp64 device reference (00) takes milliseconds where the CPU would take minutes.
CPU_REFERENCE_MAX_MACS = 2048**3


def reference_kind(m, n, k):
    """Where the reference of an (m, n, k) problem is computed: "cpu" or "device"."""
    return "cpu" if m * n * k <= CPU_REFERENCE_MAX_MACS else "device"


def make_problem(device, precision, base_a, base_b, mode, reference=None, cubin_dir=None):
    """The HostProblem for ``precision``: inputs quantized as the kernel reads them and the
    float64 reference from the CPU or the GPU (``reference``, default: reference_kind; the GPU's
    from ``cubin_dir`` when given, as cubin-only runs have no NVRTC)."""
    precision = validate.precision(precision, "make_problem: ")
    mode = validate.inputs(mode)
    base_a, base_b = validate.base_inputs(base_a, base_b)
    if not (reference is None or isinstance(reference, str) and reference in ("cpu", "device")):
        raise UsageError(f"make_problem: reference is \"cpu\", \"device\" or None (by size), got {reference!r:.60}")
    m, k = base_a.shape
    kind = reference or reference_kind(m, base_b.shape[1], k)
    if kind == "cpu":
        return host_problem(precision, base_a, base_b, mode)
    return device_reference(device, precision, *quantized_inputs(precision, base_a, base_b, mode), mode,
                            cubin_dir=cubin_dir)


def device_bytes(kernel, m, n, k, sm_count=132):
    """Device memory one run of ``kernel`` on (m, n, k) takes: padded A, B and C, pitched copies
    and the workspace (06: up to a BM×BN partial tile per block), or the device reference's A, B
    and two float64 outputs when that is larger (the two never coexist)."""
    kernel = kernel.configured(m, n, k, sm_count)   # the configuration that runs: its tile pads
    mp, np_, kp = kernel.padded(m, n, k)
    p = kernel.precision
    run = (mp * kp + kp * np_) * p.in_dtype.itemsize + mp * np_ * p.out_dtype.itemsize
    run += max(Pitched.bytes_needed(kernel, m, n, k, layout) for layout in kernel.b_layouts)
    if kernel.workspace:   # (for the blocks the launch has: a persistent grid's are at most the SMs)
        run += kernel.workspace_bytes(kernel.launch_geometry(mp, np_, kp, sm_count).blocks)
    ref = (m * k + k * n) * p.in_dtype.itemsize + 16 * m * n if reference_kind(m, n, k) == "device" else 0
    return max(run, ref)


def host_bytes(m, n, k):
    """Host memory a run of (m, n, k) peaks at: the float64 inputs and their quantized and padded
    copies (about 16 bytes per input element), the reference and |A||B| (16 per output element),
    the output and its padded copy (up to 8), and the verifier's row blocks."""
    from .precision import VERIFY_CHUNK
    return 16 * (m * k + k * n) + 24 * m * n + 8 * 8 * VERIFY_CHUNK


def host_available():
    """Bytes the host can still give (MemAvailable: free plus reclaimable cache), or None."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def check_host_room(need, what, purpose=""):
    """Refuse, before it is built, ``what`` ("… needs about") of ``need`` bytes (``purpose``: what
    for) that the host cannot hold, with the numbers."""
    free = host_available()
    if free is not None and need > free:
        raise OutOfMemory(f"{what} {need / 2**30:.1f} GiB of host memory{purpose}; {free / 2**30:.1f} GiB are "
                          "available. Use a smaller problem")


def check_host_fits(m, n, k):
    """Refuse, before any array is built, a problem the host cannot hold, with the numbers."""
    check_host_room(host_bytes(m, n, k), f"{m}×{n}×{k} needs about",
                    " for the inputs, the float64 reference and the check")


def check_fits(device, chosen, m, n, k):
    """Refuse, before building any host array, a problem the GPU or the host cannot hold."""
    need = max(device_bytes(kern, m, n, k, device.sm_count) for kern in chosen)
    free, total = device.mem_info()
    if need > free:
        raise OutOfMemory(f"{m}×{n}×{k} needs {need / 2**30:.2f} GiB on {device.name}; "
                          f"{free / 2**30:.2f} GiB of {total / 2**30:.1f} GiB are free. Use a smaller problem")
    check_host_fits(m, n, k)


def pad(array, rows, cols):
    """Zero-pad a host matrix to (rows, cols): WMMA reads whole fragment tiles, and zeros add
    nothing to the dot products."""
    if array.shape == (rows, cols):
        return np.ascontiguousarray(array)
    out = np.zeros((rows, cols), dtype=array.dtype)
    out[: array.shape[0], : array.shape[1]] = array
    return out


def check_operands(kernel, d_a, d_b, d_c, m, n, k, b_layout="row"):
    """Refuse device operands the kernel cannot use — before any launch."""
    p = kernel.precision
    check_layout(kernel, b_layout)
    if kernel.max_m and m > kernel.max_m:
        raise UsageError(f"{kernel.name} is built for M up to {kernel.max_m} (it loads only that many rows of A); "
                         f"M is {m}: run a kernel for any M (wgmma_tma_*, without A_ROWS) on this problem")
    tm, tn, tk = kernel.tile
    if m % tm or n % tn or k % tk:
        raise UsageError(
            f"{kernel.name} reads whole {tm}×{tn}×{tk} tiles: M, N, K = {m}, {n}, {k} must be "
            f"multiples, which also gives the leading dimensions (K for A, N for B and C) the "
            f"alignment its vector and fragment loads need; zero-pad the matrices (tcraw run does)")
    b_rows, b_cols = b_shape(b_layout, n, k)
    for name, buf, dtype, rows, cols in (("A", d_a, p.in_dtype, m, k), ("B", d_b, p.in_dtype, b_rows, b_cols),
                                         ("C", d_c, p.out_dtype, m, n)):
        if buf.dtype is not None and buf.dtype != dtype:
            raise UsageError(f"{name} holds {buf.dtype}; {kernel.name} ({p.label}) needs {dtype}")
        need = rows * cols * dtype.itemsize
        if buf.nbytes < need:
            raise UsageError(f"{name} is {buf.nbytes} bytes; {rows} rows × ld {cols} of {dtype} "
                             f"need {need}")
        if buf.ptr % kernel.align:
            raise UsageError(f"{name} at {buf.ptr:#x} is not {kernel.align}-byte aligned, which "
                             f"{kernel.name}'s loads need; allocate it whole (cuMemAlloc gives 256)")


B_LAYOUTS = ("row", "col")
C_ELEMENT = {"<f4": TMA_FP32, "<i4": TMA_INT32, "<u2": TMA_BF16}   # C's storage -> its tensor map's type


def c_element(kernel):
    """The tensor-map element type of ``kernel``'s C: fp32, s32, or bf16 (stored as uint16 bits)."""
    try:
        return C_ELEMENT[kernel.precision.out_dtype.str]
    except KeyError:
        raise UsageError(f"{kernel.name} writes C through a tensor map, which tcraw encodes for fp32, int32 and "
                         f"bf16 outputs, not {kernel.precision.label}") from None


def b_shape(b_layout, n, k):
    """(rows, cols) of B as stored: K×N row-major, or N×K when K-major ("col")."""
    return (n, k) if b_layout == "col" else (k, n)


def check_layout_name(b_layout):
    if b_layout not in B_LAYOUTS:
        raise UsageError(f"B's layout is 'row' (K×N) or 'col' (N×K, K-major), not {b_layout!r}")


def check_layout(kernel, b_layout):
    """Refuse a layout of B that is not one, or that ``kernel`` does not read."""
    check_layout_name(b_layout)
    if b_layout not in kernel.b_layouts:
        raise UsageError(f"{kernel.name} reads B {' or '.join(kernel.b_layouts)}-major, not {b_layout}-major: "
                         f"give b_layout={kernel.b_layouts[0]!r} (--b-layout {kernel.b_layouts[0]})")


def operand_tensor_maps(kernel, d_a, d_b, d_c, m, n, k, pitches=None, b_layout="row"):
    """TMA kernels read A (M×K) and B (K×N, or N×K when ``b_layout`` is "col"), and may write C
    (M×N: fp32, int32 or bf16, c_element), through tensor maps encoded here, on the host, from the same device buffers: one
    per box shape the kernel declares — A, B, C, then (06/07) A again in 8-row boxes for tiles at
    M's edge — with ``pitches`` (name -> row pitch in bytes). A kernel that stores C itself
    (Kernel.plain_c) gets a stand-in for C's map, of its first row alone, which it never uses."""
    if not kernel.tma_boxes:
        return []
    pitches = pitches or {}
    b_rows, b_cols = b_shape(b_layout, n, k)
    operands = [("A", d_a, kernel.tma_element, m, k), ("B", d_b, kernel.tma_element, b_rows, b_cols),
                ("C", d_c, c_element(kernel), m, n), ("A", d_a, kernel.tma_element, m, k)]
    return [realigned_b_map(buf, element, n, k, box) if name == "B" and kernel.realign_b else
            TensorMap(buf, element, 1, cols, *box, pitch=-(-cols * element[1] // 16) * 16)
            if name == "C" and kernel.plain_c else
            TensorMap(buf, element, rows, cols, *box, pitch=pitches.get(name))
            for (name, buf, element, rows, cols), box in zip(operands, kernel.tma_boxes)]


def realigned_b_map(d_b, element, n, k, box):
    """06's B with B_REALIGN (kernel.Kernel.realign_b): K×N in place, whatever N, read as K/8 rows
    of 8N elements — B's rows 8q .. 8q + 7 end to end, 16N bytes apart, a stride a tensor map takes
    — in unswizzled ``box``es of 8 such rows; B's last K mod 8 rows are not in it (the kernel reads
    them itself: the .cu's b_realign). Below 8 rows of B, the map is one row of all K·N elements,
    which the kernel never uses."""
    itemsize = element[1]
    rows, cols = (k // 8, 8 * n) if k >= 8 else (1, k * n)
    return TensorMap(d_b, element, rows, cols, *box, pitch=-(-cols * itemsize // 16) * 16,
                     swizzle=TENSOR_MAP_SWIZZLE_NONE)


# A copy's rows are padded to a multiple of 128 bytes — one swizzled TMA box row — not just to
# the 16 a tensor map needs: a box row then is one L2 request, not two or three (rows off
# 128-byte lines: see wgmma.L2_REQUESTS_PER_US). On the H200 (fp16, ten shapes whose operands
# are all copied, same run: docs/results/2026-12-01-h200-pitch/, scripts/pitch_study.py) each
# took 0.4–16 % less time with rows padded to 128 bytes than to 16 (3333³ 312 → 262 µs); 07's
# FP8, INT8 and TF32 copies are padded the same, not timed.
COPY_PITCH_BYTES = 128


class Pitched:
    """Pitched device copies of the operands whose rows are not a multiple of ``kernel.pitch``
    bytes (a tensor map's 16) — and of those in ``kernel.lines`` whose rows start off 128-byte
    lines: A or B is copied in before each launch, row by row, into rows
    padded to COPY_PITCH_BYTES, and C (but where the kernel stores it in place itself,
    Kernel.plain_c) is written there and copied out after — both inside the
    timed launch (pitch_copies: cuda_src/pitch_rows.cu, or cuMemcpy2DAsync), so the time counts
    them. The pad bytes are never read: the tensor maps keep the real M, N, K, and the copy
    engine reads zeros past them. Holds nothing when every operand's rows already fit (an aligned
    problem is not copied)."""

    def __init__(self, device, kernel, m, n, k, b_layout="row"):
        self.copies = {}   # name -> (DeviceBuffer, pitch, row bytes, rows)
        try:
            for name, rows, row, pitch in self.plan(kernel, m, n, k, b_layout):
                self.copies[name] = (DeviceBuffer(device, pitch * rows), pitch, row, rows)
            if "C" in self.copies:
                self.copies["C"][0].poison(kernel.precision.out_dtype)   # an element the kernel misses stays NaN
        except BaseException:
            self.free()
            raise

    @property
    def names(self):
        return list(self.copies)

    @staticmethod
    def plan(kernel, m, n, k, b_layout="row"):
        """(name, rows, row bytes, pitch) of each operand ``kernel`` needs copied to a pitch."""
        p, align = kernel.precision, kernel.pitch
        for name, (rows, cols), dtype in (("A", (m, k), p.in_dtype), ("B", b_shape(b_layout, n, k), p.in_dtype),
                                          ("C", (m, n), p.out_dtype)):
            row = cols * dtype.itemsize
            if (name == "B" and kernel.realign_b) or (name == "C" and kernel.plain_c):   # (06 realigns B itself,
                continue                                                                  # stores C itself)
            if (align and row % align) or (name in kernel.lines and row % COPY_PITCH_BYTES):
                step = math.lcm(align, COPY_PITCH_BYTES)   # (Kernel: lines only with a pitch)
                yield name, rows, row, -(-row // step) * step

    @staticmethod
    def bytes_needed(kernel, m, n, k, b_layout="row"):
        return sum(pitch * rows for _, rows, _, pitch in Pitched.plan(kernel, m, n, k, b_layout))

    def free(self):
        for buf, *_ in self.copies.values():
            buf.free()
        self.copies = {}

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.free()


class PitchRows(ctypes.Structure):
    """cuda_src/pitch_rows.cu's Rows: one operand's rows, contiguous and in its padded copy."""
    _fields_ = [("contiguous", ctypes.c_uint64), ("padded", ctypes.c_uint64), ("row", ctypes.c_uint64),
                ("pitch", ctypes.c_uint64), ("rows", ctypes.c_uint32), ("chunks", ctypes.c_uint32)]


PITCH_THREADS = 256   # (pitch_rows.cu's blocks: one thread a 16-byte chunk in, an element out)
PITCH_KERNELS = True  # False: the copies go through cuMemcpy2DAsync (scripts/pitch_study.py --copies compares)


def pitch_copies(device, kernel, ops, pitched):
    """The launches that copy ``pitched``'s operands (a Pitched) in before ``kernel`` and C out after
    it: (copies in, copies out), each a list of zero-argument callables. cuda_src/pitch_rows.cu —
    A's and B's rows in one launch, C's in another — where it can be built and counts fit its 32-bit
    indices, every operand starting on 16 bytes; else cuMemcpy2DAsync, one copy an operand (see
    pitch_rows.cu for why the kernel)."""
    from .kernel import Geometry, cdiv
    copies = pitched.copies
    rows = {name: PitchRows(ops[name].ptr, buf.ptr, row, pitch, count, cdiv(row, 16))
            for name, (buf, pitch, row, count) in copies.items()}
    unit = kernel.precision.out_dtype.itemsize   # (pitch_rows_out copies C an element a thread: 1, 2 or 4 bytes)
    # each operand's threads: a 16-byte chunk each in, an element each out (C)
    work = {name: r.rows * (r.row // unit if name == "C" else r.chunks) for name, r in rows.items()}
    fits = unit in (1, 2, 4) and all(r.contiguous % 16 == 0 for r in rows.values()) and \
        all(count < 2 ** 31 for count in work.values())
    kernels = fits and PITCH_KERNELS and device.pitch_kernels()
    if not kernels:
        drv = device.drv
        return ([drv.copier_2d(buf.ptr, pitch, ops[name].ptr, row, row, count)
                 for name, (buf, pitch, row, count) in copies.items() if name != "C"],
                [drv.copier_2d(ops["C"].ptr, row, buf.ptr, pitch, row, count)
                 for name, (buf, pitch, row, count) in copies.items() if name == "C"])
    copy_in, copy_out = kernels
    spread = lambda threads: Geometry((cdiv(threads, PITCH_THREADS), 1, 1), (PITCH_THREADS, 1, 1))   # noqa: E731
    ins = [name for name in ("A", "B") if name in rows]
    before, after = [], []
    if ins:   # (one operand: the second slot empty, rows 0)
        a, b = ([rows[name] for name in ins] + [PitchRows()])[:2]
        before.append(launcher(copy_in, spread(sum(work[name] for name in ins)), KernelArgs([a, b])))
    if "C" in rows:
        after.append(launcher(copy_out, spread(work["C"]), KernelArgs([rows["C"], np.uint32(unit)])))
    return before, after


def workspace_buffer(device, kernel, m, n, k):
    """The scratch ``kernel`` needs on (M, N, K already whole tiles), zeroed, or None when it
    needs none. One serves every launch of that shape: the kernel leaves it zeroed."""
    if not kernel.workspace:
        return None
    buf = DeviceBuffer(device, kernel.workspace_bytes(kernel.launch_geometry(m, n, k, device.sm_count).blocks))
    try:
        buf.zero()
    except BaseException:
        buf.free()
        raise
    return buf


def resident_geometry(kernel, fn, m, n, k):
    """``kernel``'s launch geometry on (M, N, K) for ``fn`` on its device. A persistent kernel's
    blocks may wait for each other (06's split-K pieces for all of a tile's, stream-K's for the
    piece after): every block of its grid must be on the GPU at once, or the waits never end. A
    cluster's blocks must share a GPC, so the device may hold fewer of them at once than it has
    SMs (clusters of 4 on the H200); the grid is cut to what it holds
    (cuOccupancyMaxActiveClusters), and the kernel deals its tiles over the grid it gets. First
    ``fn`` is allowed the dynamic shared memory the launch needs (cuFuncSetAttribute): the
    occupancy question counts it only once allowed."""
    device = fn.module.device
    geometry = kernel.launch_geometry(m, n, k, device.sm_count)
    if geometry.smem_bytes > fn.max_dynamic_smem:   # (the occupancy question counts it only once allowed)
        fn.set_max_dynamic_smem(geometry.smem_bytes)
    if not kernel.persistent:
        return geometry
    held = fn.max_active_clusters(geometry) * kernel.cluster
    if held == 0:
        raise UsageError(f"{kernel.name} runs a persistent grid in clusters of {kernel.cluster} that wait for "
                         f"each other, and {device.name} holds none of them at once with this launch "
                         "(cuOccupancyMaxActiveClusters): run it where the whole GPU is available")
    return kernel.launch_geometry(m, n, k, device.sm_count, held)


def matmul_launcher(kernel, fn, d_a, d_b, d_c, m, n, k, workspace=None, pitched=None, b_layout="row",
                    scales=None):
    """The launch of ``kernel`` on device operands (M, N, K already whole tiles), checked and
    packed once. Kernels that need more than 48 KiB of dynamic shared memory get their limit
    raised here: the registry's geometry says they need it. Kernels with a ``workspace`` take
    it after K (workspace_buffer makes it). Operands in ``pitched`` (a Pitched) are copied in
    before the kernel and C out after it, as part of the returned launch. B lies as ``b_layout``
    says; FP8 kernels take ``scales`` (a device buffer of two fp32: A's and B's) after the
    workspace."""
    check_operands(kernel, d_a, d_b, d_c, m, n, k, b_layout)
    if kernel.precision.scaled and scales is None:
        raise UsageError(f"{kernel.name} multiplies C by A's and B's scales: pass scales, a device buffer "
                         "of two float32 (run_matmul makes it from the problem)")
    ops, pitches = {"A": d_a, "B": d_b, "C": d_c}, {}
    before, after = pitch_copies(fn.module.device, kernel, ops, pitched) if pitched else ((), ())
    for name, (buf, pitch, _, _) in (pitched.copies.items() if pitched else ()):
        ops[name], pitches[name] = buf, pitch
    d_a, d_b, d_c = ops["A"], ops["B"], ops["C"]
    geometry = resident_geometry(kernel, fn, m, n, k)   # (and the shared memory it needs allowed)
    if kernel.workspace:
        need = kernel.workspace_bytes(geometry.blocks)
        if workspace is None or workspace.nbytes < need:
            raise UsageError(f"{kernel.name} needs a zeroed {need}-byte workspace for this launch, got "
                             f"{'none' if workspace is None else f'{workspace.nbytes} bytes'}: "
                             "make it with matmul.workspace_buffer")
    values = {"A": d_a, "B": d_b, "C": d_c, "M": np.int32(m), "N": np.int32(n), "K": np.int32(k),
              "workspace": workspace, "scales": scales}
    maps = iter(operand_tensor_maps(kernel, d_a, d_b, d_c, m, n, k, pitches, b_layout))
    # (in Kernel.arguments' order, which the build checked the kernel's parameters against)
    args = KernelArgs([values[name] if name in values else next(maps) for name, _ in kernel.arguments()])
    go = launcher(fn, geometry, args)  # checks geometry and arguments: no bad launch happens
    if not before and not after:
        return go
    steps = (*before, go, *after)

    def launch():
        for step in steps:
            step()
    return launch


def timed(device, name, launchers, iters, warmup):
    """Per-launch ms, cycling through ``launchers`` (one per input set). A kernel fault becomes
    KernelFault naming the kernel (the context is lost with it)."""
    turn = itertools.cycle(launchers)
    try:
        return time_launches(device, lambda: next(turn)(), iters, warmup)
    except CudaError as exc:
        if exc.name in STICKY:
            raise KernelFault(
                f"kernel {name} faulted: {exc.name} in {exc.call}. The CUDA context of this "
                "process is lost; nothing else can run in it (tcraw run --isolate and tcraw sweep "
                "run each kernel in its own process)") from None
        raise


def rotation_sets(device, set_bytes, rotate):
    """How many copies of the inputs to cycle through so that each launch finds its operands
    out of L2 (three times the L2 size in all), as a benchmark of memory-resident data should."""
    if not rotate or set_bytes >= 2 * device.l2_bytes:
        return 1
    return max(1, min(16, -(-3 * device.l2_bytes // max(1, set_bytes))))


GUARD_BYTES = 4096       # canary bytes before and after each operand when guarding
CANARY = 0xA5C3E17B      # not zero, not a NaN, not a small integer: a stray write changes it


class Guarded:
    """A device operand inside a larger allocation whose bands before and after it hold a canary:
    a kernel that writes out of bounds changes a band, which ``damage`` finds and locates
    without compute-sanitizer. ``buf`` is what the kernel gets: exactly the operand's bytes."""

    def __init__(self, device, name, nbytes, dtype, guard):
        self.name, self.nbytes, self.guard = name, nbytes, guard
        self.itemsize = np.dtype(dtype).itemsize
        total = guard + -(-nbytes // 256) * 256 + guard   # whole 256-byte steps keep the alignment
        self.whole = DeviceBuffer(device, total)
        try:
            self.whole.fill32(CANARY)
            self.buf = self.whole.view(guard, dtype, nbytes)
        except BaseException:
            self.whole.free()
            raise

    def damage(self):
        """None, or where the first byte outside the operand was overwritten."""
        got = self.whole.copy_to_host(np.empty(self.whole.nbytes, dtype=np.uint8))
        want = np.full(self.whole.nbytes // 4, CANARY, dtype="<u4").view(np.uint8)
        band = np.ones(self.whole.nbytes, dtype=bool)
        band[self.guard:self.guard + self.nbytes] = False
        changed = np.flatnonzero(band & (got != want))
        if not len(changed):
            return None
        offset = int(changed[0]) - self.guard
        where = "before its start" if offset < 0 else "past its end"
        return (f"{self.name}: {len(changed)} byte(s) written outside the {self.nbytes}-byte buffer, the "
                f"first at byte offset {offset} ({where}; element index {offset // self.itemsize})")

    def free(self):
        self.whole.free()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.free()


def device_operand(stack, device, name, array, guard):
    """A device buffer for ``array`` (guarded when ``guard`` > 0): (buffer, the Guarded or None)."""
    if not guard:
        return stack.enter_context(DeviceBuffer.like(device, array)), None
    g = stack.enter_context(Guarded(device, name, array.nbytes, array.dtype, guard))
    return g.buf, g


def measure(device, name, precision, hp, padded, prepare, *, iters, warmup, seed, rotate=False,
            keep_output=False, guard=0, b_layout="row"):
    """The shared run: pad → allocate → copy → poison → launch and time → copy back → verify.
    ``prepare(d_a, d_b, d_c, m, n, k)`` returns the zero-argument launch for one buffer set
    (a kernel's or cuBLAS's). ``guard`` bytes of canary around each operand, checked after the
    launches, catch out-of-bounds writes, and A and B must come back unchanged. Returns
    (Record, the output when ``keep_output`` else None)."""
    m, n, k = hp.m, hp.n, hp.k
    mp, np_, kp = padded
    # 1. Host side: pad to whole tiles (B stored N×K when it is K-major); the output comes back
    #    into a padded host array.
    a = pad(hp.a, mp, kp)
    b = pad(hp.b.T, np_, kp) if b_layout == "col" else pad(hp.b, kp, np_)   # one copy either way
    c = np.empty((mp, np_), dtype=precision.out_dtype)
    with ExitStack() as stack:
        # 2. Device memory: allocate, copy inputs over, poison the outputs (one set per rotation).
        sets, launchers, guards = [], [], []
        # never more sets than launches: every set's output must have been written to be checked
        for _ in range(min(warmup + iters, rotation_sets(device, a.nbytes + b.nbytes + c.nbytes, rotate))):
            (d_a, g_a), (d_b, g_b), (d_c, g_c) = (device_operand(stack, device, label, x, guard)
                                                  for label, x in (("A", a), ("B", b), ("C", c)))
            d_a.copy_from_host(a)
            d_b.copy_from_host(b)
            d_c.poison(c.dtype)
            sets.append((d_a, d_b, d_c))
            guards += [g for g in (g_a, g_b, g_c) if g]
            launchers.append(prepare(d_a, d_b, d_c, mp, np_, kp))
        # 3. Launch, timed by events (warm-up launches untimed), the SM clock and power sampled
        #    meanwhile (NVML, when nvidia-ml-py is installed): a throttled GPU shows in the record.
        with ClockSampler(device) as clocks:
            times = timed(device, name, launchers, iters, warmup)
        # 4. Copy back and verify every element of every set (and that the padding stayed zero);
        #    with guards, the bands around every operand and the inputs themselves.
        verdicts, damage = [], [d for g in guards if (d := g.damage())]
        for d_a, d_b, d_c in sets:
            d_c.copy_to_host(c)
            verdicts.append(verify(c, hp))
            if guard:
                for label, buf, host in (("A", d_a, a), ("B", d_b, b)):
                    if buf.copy_to_host(np.empty_like(host)).tobytes() != host.tobytes():
                        damage.append(f"{label}: the input was changed by the kernel")
    verdict = max(verdicts, key=lambda v: (not v.passed, v.max_rel_err))
    median = statistics.median(times)
    tflops = 2.0 * m * n * k / (median * 1e-3) / 1e12  # the useful work, not the padded work
    peak = device.peak_tflops(precision)
    record = Record(
        kernel=name, precision=precision.label, m=m, n=n, k=k, arch=str(device.arch),
        device=device.name, backend=device.drv.name, time_ms=median, tflops=tflops,
        pct_peak=(100.0 * tflops / peak) if peak else None, max_rel_err=verdict.max_rel_err,
        tolerance=verdict.tolerance, passed=all(v.passed for v in verdicts), iters=iters,
        time_min_ms=min(times), norm_rel_err=verdict.norm_rel_err, max_abs_err=verdict.max_abs_err,
        bad=verdict.bad, unwritten=verdict.unwritten, padding_dirty=verdict.padding_dirty,
        inputs=hp.mode, seed=seed, warmup=warmup, device_index=device.ordinal,
        padded=[mp, np_, kp], input_sets=len(sets), reference=hp.reference,
        guard_bytes=guard, out_of_bounds="; ".join(dict.fromkeys(damage)) or None, b_layout=b_layout,
        held_ms=times.held_ms,
        **clocks.fields())
    if record.out_of_bounds:
        record.passed = False
    return record, (c[:m, :n] if keep_output else None)


def run_matmul(device, kernel, hp: HostProblem, *, iters=20, warmup=3, seed=0, cubin=None,
               keep_output=False, rotate=False, guard=0, config=None, cubin_dir=None, b_layout=None):
    """Run ``kernel`` on the host problem ``hp`` on ``device``; return a Record (and the output
    when ``keep_output``). ``cubin``: the kernel's, already compiled (else compiled here, or
    prebuilt from ``cubin_dir``). A kernel with configurations runs the one it picks for the
    problem, with ``config`` (macro -> value) over it; ``cubin`` serves when that is the
    kernel's own configuration. ``b_layout``: B stored "row" (K×N) or "col" (N×K; default: the
    first the kernel reads)."""
    if not isinstance(kernel, Kernel):
        raise UsageError(f"run_matmul: kernel is a tcraw.Kernel (tcraw.KERNELS[...], tcraw.load_spec(...)), "
                         f"got {kernel!r:.80}")
    if not isinstance(hp, HostProblem):
        raise UsageError(f"run_matmul: the problem is a HostProblem (tcraw.make_problem makes one), got {hp!r:.80}")
    validate.problem(hp.m, hp.n, hp.k)
    validate.device(device, "run_matmul")
    b_layout = b_layout or kernel.b_layouts[0]
    check_layout(kernel, b_layout)
    chosen = kernel.configured(hp.m, hp.n, hp.k, device.sm_count, config)
    if chosen.defines != kernel.defines:
        cubin = None
    kernel = chosen
    if hp.precision is not kernel.precision:
        raise UsageError(f"{kernel.name} reads {kernel.precision.label}, the inputs are {hp.precision.label}")
    if (refusal := kernel.device_refusal(device)):
        raise refusal
    validate.timing(iters, warmup)
    with ExitStack() as stack:
        # The code: NVRTC cubin for this device (or a prebuilt one), loaded into the context.
        cubin = cubin or compiler.cubin_for(kernel, device, cubin_dir)
        fn = stack.enter_context(Module(device, cubin.image)).function(kernel.entry)
        workspace = workspace_buffer(device, kernel, *kernel.padded(hp.m, hp.n, hp.k))
        if workspace:
            stack.enter_context(workspace)
        pitched = stack.enter_context(Pitched(device, kernel, hp.m, hp.n, hp.k, b_layout))
        scales = scales_buffer(stack, device, hp)
        prepare = lambda *ops: matmul_launcher(kernel, fn, *ops, workspace=workspace, pitched=pitched,  # noqa: E731
                                               b_layout=b_layout, scales=scales)
        record, c = measure(device, kernel.name, kernel.precision, hp, kernel.padded(hp.m, hp.n, hp.k),
                            prepare, iters=iters, warmup=warmup, seed=seed, rotate=rotate,
                            keep_output=keep_output, guard=guard, b_layout=b_layout)
        geometry = resident_geometry(kernel, fn, *record.padded)
        record.grid, record.block, record.registers = list(geometry.grid), list(geometry.block), fn.num_regs
        record.smem_bytes = geometry.smem_bytes + fn.static_smem
        record.pitched = pitched.names
        for name, value in kernel_fields(kernel).items():
            setattr(record, name, value)
    return (record, c) if keep_output else record


def run_cublas(device, cublas, precision, hp, *, iters=20, warmup=3, seed=0, rotate=False, b_layout="row"):
    """cuBLAS on the same problem through the same measure(): its time and its own check, with B
    stored as ``b_layout`` says."""
    check_layout_name(b_layout)
    record, _ = measure(
        device, "cublas", precision, hp, (hp.m, hp.n, hp.k),
        lambda d_a, d_b, d_c, m, n, k: cublas.gemm_launcher(precision.key, d_a.ptr, d_b.ptr, d_c.ptr, m, n, k,
                                                            b_layout=b_layout),
        iters=iters, warmup=warmup, seed=seed, rotate=rotate, b_layout=b_layout)
    return record


def scales_buffer(stack, device, hp):
    """FP8: A's and B's per-tensor scales as the kernels' epilogue reads them — two
    float32 on the device, held by ``stack`` — or None for a precision without scales."""
    if not hp.precision.scaled:
        return None
    return stack.enter_context(DeviceBuffer.from_array(device, np.array([hp.scale_a, hp.scale_b], dtype=np.float32)))


def run_cublaslt(device, lt, precision, hp, *, iters=20, warmup=3, seed=0, rotate=False, fast_accum=False):
    """cuBLASLt (FP8 with its scales, INT8; B K-major, "TN") on the same problem through the same
    measure(): its time and its own check. ``lt`` is a driver.cublaslt.CublasLt; ``fast_accum``
    (FP8) keeps the sums in the tensor cores' accumulator (the record's variant says FAST_ACCUM=1)."""
    from .driver.cublaslt import WORKSPACE_BYTES
    with ExitStack() as stack:
        stack.callback(lt.release_plans)   # the plans hold this call's scale pointers: none outlive it
        work = stack.enter_context(DeviceBuffer(device, WORKSPACE_BYTES))
        scales = None
        if precision.scaled:
            # one allocation each: with both in one (4 bytes apart, as 07 reads them) cuBLASLt's
            # matmul answered NOT_SUPPORTED on the H200
            scales = tuple(stack.enter_context(DeviceBuffer.from_array(device, np.array([s], dtype=np.float32))).ptr
                           for s in (hp.scale_a, hp.scale_b))
        record, _ = measure(
            device, "cublaslt", precision, hp, (hp.m, hp.n, hp.k),
            lambda d_a, d_b, d_c, m, n, k: lt.matmul_launcher(precision.key, d_a.ptr, d_b.ptr, d_c.ptr, m, n, k,
                                                              workspace=work, scales=scales, fast_accum=fast_accum),
            iters=iters, warmup=warmup, seed=seed, rotate=rotate, b_layout="col")
    return replace(record, config="CUBLASLT_MATMUL_DESC_FAST_ACCUM=1", variant="FAST_ACCUM=1") if fast_accum else record


def device_reference(device, precision, a, b, sa, sb, mode, cubin_dir=None):
    """A HostProblem whose reference (and |A||B|) comes from 00_reference_fp64.cu on the GPU:
    fp64 dot products of exactly the stored inputs, for sizes the CPU would take minutes on,
    times the inputs' scales ``sa``·``sb`` (FP8; 1 otherwise). ``cubin_dir``: its prebuilt cubin
    (`tcraw compile --out` writes it beside the kernels')."""
    from .kernels import REFERENCE, REFERENCE_ENTRIES
    m, k = a.shape
    n = b.shape[1]
    entry = REFERENCE_ENTRIES[precision.key]
    ref, abs_ref = np.empty((m, n)), np.empty((m, n))
    with ExitStack() as stack:
        cubin = compiler.cubin_for(REFERENCE, device, cubin_dir)
        fn = stack.enter_context(Module(device, cubin.image)).function(entry)
        d_a, d_b = (stack.enter_context(DeviceBuffer.like(device, x)) for x in (a, b))
        d_r, d_abs = (stack.enter_context(DeviceBuffer.like(device, x)) for x in (ref, abs_ref))
        d_a.copy_from_host(a)
        d_b.copy_from_host(b)
        args = KernelArgs([d_a, d_b, d_r, d_abs, np.int32(m), np.int32(n), np.int32(k)])
        launcher(fn, REFERENCE.geometry(m, n, k), args)()
        d_r.copy_to_host(ref)
        d_abs.copy_to_host(abs_ref)
    if sa * sb != 1.0:
        ref *= sa * sb
        abs_ref *= sa * sb
    return HostProblem(precision, mode, a, b, ref, abs_ref, reference="device", scale_a=sa, scale_b=sb)
