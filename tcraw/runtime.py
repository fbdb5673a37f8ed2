"""Thin objects over the seam: a device with its primary context, buffers, modules, launches,
event timing. Each owns what it allocates and frees it on close() (safe twice; use after close
raises), so a `with` block never leaks device memory on an error path.
"""

import ctypes
import functools
import math
import threading

import numpy as np

from .driver import constants as C
from .driver import get_backend
from .errors import STICKY, ArchError, CudaError, NoDeviceError, OutOfMemory, TcrawError, UsageError


class Closed(TcrawError):
    """An object was used after close()."""


def _release(call, *args):
    """Free/unload/release, except on a context a kernel fault already destroyed: its memory and
    modules went with it, and raising here would hide the fault that matters."""
    try:
        call(*args)
    except CudaError as exc:
        if exc.name not in STICKY:
            raise


def as_backend(backend):
    """A backend object as given, or the one named (None: the default)."""
    return backend if not isinstance(backend, (str, type(None))) else get_backend(backend)


def existing_ordinal(ordinal, backend=None):
    """``ordinal`` as an int once the driver says that GPU exists — no context made: NoDeviceError
    without a driver or a GPU, UsageError for an index that is not one. What a Device checks
    first, and what a parent asks before its child processes run on that GPU (their failure
    must be the kernel's, never the machine's)."""
    from .validate import is_whole
    if not is_whole(ordinal):   # (refused on any machine, a GPU or none: the index itself is wrong)
        raise UsageError(f"a device is a GPU index ≥ 0, got {ordinal!r}")
    drv = as_backend(backend)
    drv.init()
    count = drv.device_count()
    if count == 0:
        raise NoDeviceError("the CUDA driver is present but reports no GPU")
    if not int(ordinal) < count:
        raise UsageError(f"device {ordinal} does not exist: this machine has {count} GPU(s), "
                         f"indices 0..{count - 1}")
    return int(ordinal)


def current_device(device, what):
    """``device`` made current where it is an open tcraw Device; else a UsageError saying ``what``
    needs one (validate.device: not an AttributeError from inside tcraw)."""
    from .validate import device as an_open_device
    an_open_device(device, what, needs=("_check",))._check()


# The context tcraw last made current, per thread: a Device makes its own current again when used
# after another Device was (two GPUs in one thread), so memory, modules and events land on the GPU
# the object says. (Code that changes the current context itself, outside tcraw, must put it back.)
_current = threading.local()


class Device:
    """GPU ``ordinal`` with its primary context, made current on the thread that uses it."""

    def __init__(self, ordinal=0, backend=None):
        self.ordinal = ordinal = existing_ordinal(ordinal, backend)
        self.drv = as_backend(backend)
        self.handle = self.drv.device_get(ordinal)
        # The primary context is the one the runtime API shares; retaining it avoids cuCtxCreate,
        # whose signature changed between cuda-bindings 12 and 13.
        self.ctx = self.drv.primary_ctx_retain(self.handle)
        self._open = True
        try:
            self._check()
            self._read_attributes()
        except BaseException:
            self.close()   # (the retained context released: nothing else is held yet)
            raise
        self._helpers = {}   # helper source -> its Functions, built on first use (False: they cannot be here)

    def _read_attributes(self):
        attr = lambda a: self.drv.device_attribute(self.handle, a)  # noqa: E731
        self.name = self.drv.device_name(self.handle)
        self.cc = 10 * attr(C.DEV_COMPUTE_CAPABILITY_MAJOR) + attr(C.DEV_COMPUTE_CAPABILITY_MINOR)
        self.sm_count = attr(C.DEV_MULTIPROCESSOR_COUNT)
        self.clock_khz = attr(C.DEV_CLOCK_RATE_KHZ)
        self.mem_clock_khz = attr(C.DEV_MEMORY_CLOCK_RATE_KHZ)
        self.mem_bus_bits = attr(C.DEV_GLOBAL_MEMORY_BUS_WIDTH)   # with the clock: the DRAM roof
        self.l2_bytes = attr(C.DEV_L2_CACHE_SIZE)
        self.total_mem = self.drv.device_total_mem(self.handle)
        self.max_threads_per_block = attr(C.DEV_MAX_THREADS_PER_BLOCK)
        self.max_block = tuple(attr(a) for a in C.DEV_MAX_BLOCK_DIM)
        self.max_grid = tuple(attr(a) for a in C.DEV_MAX_GRID_DIM)
        self.max_smem_default = attr(C.DEV_MAX_SHARED_MEMORY_PER_BLOCK)
        self.max_smem_optin = attr(C.DEV_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)

    @functools.cached_property
    def pci_bus_id(self):
        """'0000:3B:00.0': how NVML names this GPU (its indices need not match CUDA's ordinals);
        asked once, on first use."""
        self._check()
        return self.drv.device_pci_bus_id(self.handle)

    @property
    def arch(self):
        from .compiler import Arch
        return Arch(self.cc)

    def peak_tflops(self, precision):
        """Dense peak at the max SM clock from the device attributes: SMs × FLOP/clk/SM × clock.
        (NVIDIA's 989 TF for H100/H200 fp16 uses 1830 MHz; the attribute reports 1980.)"""
        per_clk = precision.flops_per_clk_sm.get(self.cc)
        return None if per_clk is None else self.sm_count * per_clk * self.clock_khz * 1e3 / 1e12

    def _check(self):
        """Refuse a closed Device; make its context current where another's is (cuCtxSetCurrent)."""
        if not self._open:
            raise Closed("this Device was closed; open a new one")
        self._make_current()

    def _make_current(self):
        if getattr(_current, "ctx", None) is not self.ctx:
            self.drv.ctx_set_current(self.ctx)
            _current.ctx = self.ctx

    def synchronize(self):
        self._check()
        self.drv.ctx_synchronize()

    def mem_info(self):
        self._check()
        return self.drv.mem_get_info()

    def hold(self, ms):
        """Keep this device's stream busy for ``ms`` of GPU time — cuda_src/hold_gpu.cu, one thread
        on the global timer — so that launches queued meanwhile run back to back, none waiting
        for the host. Returns whether it did: not where the kernel cannot be built (no NVRTC, as a
        cubin-only run may have none, or one that cannot build it for this GPU or its driver),
        asked once per Device. ``ms`` in [0, 60 000]."""
        from .validate import hold_ms
        hold_ms(ms)
        self._check()
        hold = self._helper("hold_gpu.cu", "hold_gpu")
        if hold:
            from .kernel import Geometry
            launcher(hold[0], Geometry((1, 1, 1), (1, 1, 1)), KernelArgs([np.uint64(ms * 1e6)]))()
        return bool(hold)

    def _helper(self, source, *entries):
        """The Functions ``entries`` of a helper kernel in cuda_src/ (not a rung: hold_gpu.cu,
        pitch_rows.cu) for this GPU, built and looked up once per Device — or False where that
        cannot be done: no NVRTC (as a cubin-only run may have none), or one that cannot build for
        this GPU or its driver, or a cubin the driver refuses."""
        if source not in self._helpers:
            from .compiler import CUDA_SRC, compile_source
            from .errors import NoNvrtcError
            try:   # (UsageError: NVRTC without this GPU's arch, of another CUDA major, or newer than the driver)
                module = Module(self, compile_source(CUDA_SRC / source, self.arch, backend=self.drv).image)
                try:
                    self._helpers[source] = tuple(module.function(entry) for entry in entries)
                except BaseException:
                    module.unload()
                    raise
            except (NoNvrtcError, UsageError):
                self._helpers[source] = False
            except CudaError as exc:   # the driver refused the cubin; a lost context is the caller's to see
                if exc.name in STICKY:
                    raise
                self._helpers[source] = False
        return self._helpers[source]

    def pitch_kernels(self):
        """cuda_src/pitch_rows.cu's (copy in, copy out) Functions for tcraw.matmul.Pitched's
        copies, or False where they cannot be built (the copies then go through cuMemcpy2DAsync)."""
        self._check()
        return self._helper("pitch_rows.cu", "pitch_rows_in", "pitch_rows_out")

    def close(self):
        if getattr(self, "_open", False):
            self._open = False
            try:
                if any(getattr(self, "_helpers", {}).values()):
                    self._make_current()   # (cuModuleUnload acts in the current context)
                for functions in getattr(self, "_helpers", {}).values():
                    if functions:
                        functions[0].module.unload()
            finally:
                if getattr(_current, "ctx", None) is self.ctx:
                    _current.ctx = None
                _release(self.drv.primary_ctx_release, self.handle)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


# Poison written into outputs before a launch, per dtype: (memset width, pattern). NaN for floats;
# INT32_MIN for int32, a value no int8 product of the sizes tcraw runs can reach.
POISON = {
    np.dtype(np.float32): (32, 0x7FC00000),
    np.dtype(np.float16): (16, 0x7E00),
    np.dtype(np.float64): (32, 0x7FF80000),  # both halves: 0x7FF800007FF80000 is a NaN
    np.dtype(np.int32): (32, 0x80000000),
    np.dtype(np.uint16): (16, 0x7FC0),       # a bf16 output (stored as its bits): NaN
}


class DeviceBuffer:
    """``nbytes`` of device memory (cuMemAlloc). ``ptr`` is the raw device address; ``dtype``
    (optional) says what it holds, so a kernel given the wrong type can refuse it."""

    def __init__(self, device, nbytes, dtype=None):
        current_device(device, "a DeviceBuffer")
        if nbytes <= 0:
            raise UsageError(f"a device buffer needs a positive size, got {nbytes} bytes")
        self.device, self.drv, self.nbytes = device, device.drv, int(nbytes)
        self.dtype = None if dtype is None else np.dtype(dtype)
        self._owner, self._parent = True, None
        try:
            self.ptr = self.drv.mem_alloc(self.nbytes)
        except CudaError as exc:
            if exc.name != "CUDA_ERROR_OUT_OF_MEMORY":
                raise
            free, total = self.drv.mem_get_info()
            raise OutOfMemory(f"cannot allocate {self.nbytes / 2**30:.2f} GiB on {device.name}: "
                              f"{free / 2**30:.2f} GiB of {total / 2**30:.1f} GiB free "
                              "(CUDA_ERROR_OUT_OF_MEMORY); use a smaller problem") from None

    @classmethod
    def like(cls, device, array):
        """A buffer sized and typed for the numpy ``array``."""
        return cls(device, array.nbytes, array.dtype)

    @classmethod
    def from_array(cls, device, array):
        """A buffer holding a copy of the numpy ``array`` (cuMemAlloc + cuMemcpyHtoD)."""
        buf = cls.like(device, array)
        try:
            buf.copy_from_host(array)
        except BaseException:
            buf.free()
            raise
        return buf

    def to_array(self, shape=None, dtype=None):
        """A new numpy array with this buffer's contents (cuMemcpyDtoH): ``dtype`` defaults to
        the buffer's, ``shape`` to 1-D over every whole element."""
        dtype = np.dtype(dtype if dtype is not None else self.dtype if self.dtype is not None else np.uint8)
        out = np.empty(shape if shape is not None else self.nbytes // dtype.itemsize, dtype=dtype)
        return self.copy_to_host(out)

    def view(self, offset, dtype=None, nbytes=None):
        """A non-owning window of ``nbytes`` (default: the rest) starting ``offset`` bytes in
        (freeing it frees nothing)."""
        self._check(0)
        nbytes = self.nbytes - offset if nbytes is None else nbytes
        if not 0 <= offset < self.nbytes or not 0 < nbytes <= self.nbytes - offset:
            raise UsageError(f"a {nbytes}-byte window at offset {offset} is outside this {self.nbytes}-byte buffer")
        v = object.__new__(DeviceBuffer)
        v.device, v.drv, v.nbytes = self.device, self.drv, nbytes
        v.dtype = np.dtype(dtype) if dtype is not None else self.dtype
        v.ptr, v._owner, v._parent = self.ptr + offset, False, self._parent or self   # (the buffer that owns it)
        return v

    def _check(self, nbytes):
        if self.ptr is None or (self._parent is not None and self._parent.ptr is None):
            raise Closed("this DeviceBuffer (or the buffer it is a view of) was freed; allocate a new one")
        self.device._check()
        if nbytes > self.nbytes:
            raise UsageError(f"{nbytes} bytes do not fit a {self.nbytes}-byte device buffer")

    def copy_from_host(self, array):
        array = np.ascontiguousarray(array)
        self._check(array.nbytes)
        self.drv.memcpy_htod(self.ptr, array.ctypes.data, array.nbytes)

    def copy_to_host(self, array):
        """Fill the contiguous numpy ``array`` from the start of this buffer; returns it."""
        if not array.flags.c_contiguous:
            raise UsageError("copy_to_host needs a C-contiguous numpy array")
        self._check(array.nbytes)
        self.drv.memcpy_dtoh(array.ctypes.data, self.ptr, array.nbytes)
        return array

    def poison(self, dtype):
        width, pattern = POISON[np.dtype(dtype)]
        self._check(0)
        if width == 32:
            self.drv.memset_d32(self.ptr, pattern, self.nbytes // 4)
        else:
            self.drv.memset_d16(self.ptr, pattern, self.nbytes // 2)

    def fill32(self, pattern):
        """Every whole 32-bit word set to ``pattern`` (cuMemsetD32)."""
        self._check(0)
        self.drv.memset_d32(self.ptr, pattern, self.nbytes // 4)

    def zero(self):
        self.fill32(0)

    def free(self):
        if self.ptr is not None:
            ptr, self.ptr = self.ptr, None
            if self._owner:
                _release(self.drv.mem_free, ptr)

    close = free

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.free()


def check_driver_takes(device, image):
    """Refuse, before cuModuleLoadData, a cubin from a newer CUDA major than the driver supports
    (CUDA 13's need a 580+ driver): the driver would only say CUDA_ERROR_UNSUPPORTED_PTX_VERSION
    or NO_BINARY_FOR_GPU. Within a major a newer toolkit's cubin loads (seen: 13.5 on 13.0)."""
    from .toolchain import MIN_DRIVER, cubin_cuda_version, cuda_version, install_hint
    built = cubin_cuda_version(image)
    driver = cuda_version(device.drv.driver_version())
    if built and built[0] > driver[0]:
        raise ArchError(f"this cubin was built by CUDA {built[0]}{f'.{built[1]}' if built[1] is not None else ''}; "
                        f"the driver of {device.name} "
                        f"supports CUDA {driver[0]}.{driver[1]}, and CUDA {built[0]} needs a driver "
                        f"{MIN_DRIVER.get(built[0], 'newer')} or newer. Build it with the CUDA {driver[0]} stack: "
                        f"{install_hint(driver[0])}, or update the driver")


class Module:
    """A cubin loaded with cuModuleLoadData."""

    def __init__(self, device, image):
        current_device(device, "a Module")
        self.device, self.drv, self.image = device, device.drv, bytes(image)
        self.handle = None
        check_driver_takes(device, self.image)
        try:
            self.handle = self.drv.module_load_data(image)
        except CudaError as exc:
            if exc.name != "CUDA_ERROR_NO_BINARY_FOR_GPU":
                raise
            from .cubin import elf_arch
            built = elf_arch(image)[1] if image[:4] == b"\x7fELF" else "unknown"
            raise ArchError(f"this cubin was built for sm_{built}; {device.name} is {device.arch} "
                            f"(cuModuleLoadData: CUDA_ERROR_NO_BINARY_FOR_GPU). Compile for "
                            f"{device.arch}: `tcraw compile --arch {device.arch}`") from None

    def function(self, entry):
        """The kernel ``entry`` (an extern "C" name); a missing one lists the module's kernels."""
        if self.handle is None:
            raise Closed("this Module was unloaded")
        self.device._check()
        try:
            handle = self.drv.module_get_function(self.handle, entry)
        except CudaError as exc:
            if exc.name != "CUDA_ERROR_NOT_FOUND":
                raise
            from .cubin import entries
            from .errors import CubinError
            raise CubinError(f"no kernel {entry!r} in this module; it has: {', '.join(entries(self.image))} "
                             "(C++ names are mangled unless the kernel is extern \"C\")") from None
        return Function(self, entry, handle)

    def unload(self):
        if self.handle is not None:
            handle, self.handle = self.handle, None
            _release(self.drv.module_unload, handle)

    close = unload

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.unload()


class Function:
    """A kernel entry of a loaded Module (cuModuleGetFunction), with what the driver and the cubin
    say about it: max threads per block, registers, static and max dynamic shared memory, and
    each parameter's size (from the cubin), which launches are checked against."""

    def __init__(self, module, entry, handle):
        self.module, self.entry, self.handle = module, entry, handle
        drv = module.drv
        self.max_threads = drv.func_get_attribute(handle, C.FUNC_MAX_THREADS_PER_BLOCK)
        self.num_regs = drv.func_get_attribute(handle, C.FUNC_NUM_REGS)
        self.static_smem = drv.func_get_attribute(handle, C.FUNC_SHARED_SIZE_BYTES)
        self.max_dynamic_smem = drv.func_get_attribute(handle, C.FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES)
        from .cubin import kernel_param_sizes
        self.param_sizes = kernel_param_sizes(module.image, entry)
        self._active_clusters = {}   # Geometry -> max_active_clusters' answer

    def max_active_clusters(self, geometry):
        """How many of this kernel's clusters (its __cluster_dims__; blocks, without) the device
        holds at once with ``geometry`` (cuOccupancyMaxActiveClusters), asked once per geometry:
        a run's launchers, one per rotated input set, share it."""
        if geometry not in self._active_clusters:
            self._active_clusters[geometry] = self.module.drv.occupancy_max_active_clusters(
                self.handle, geometry.grid, geometry.block, geometry.smem_bytes)
        return self._active_clusters[geometry]

    def set_max_dynamic_smem(self, nbytes):
        """Opt in to more than the default 48 KiB of dynamic shared memory (cuFuncSetAttribute)."""
        self.module.drv.func_set_attribute(self.handle, C.FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES, nbytes)
        self.max_dynamic_smem = nbytes


# -- kernel arguments -----------------------------------------------------------------------------

class TensorMap:
    """A TMA descriptor for a row-major rows × cols matrix in ``buf``, copied box_rows × box_cols
    at a time with the 128-byte swizzle (box_cols × element size ≤ 128) — or with ``swizzle``
    TENSOR_MAP_SWIZZLE_NONE, as they lie (box rows a multiple of 16 bytes, up to 256 elements:
    06's B realigned, kernel.Kernel.realign_b). Passed to a kernel by
    value (its __grid_constant__ 128-byte parameter); it holds the buffer's address, so it is
    valid only while the buffer is. Rows are ``pitch`` bytes apart (default: packed), a
    multiple of 16 as the copy engine requires; boxes reaching past the matrix's edge read
    zeros there and write nothing."""

    def __init__(self, buf, element, rows, cols, box_rows, box_cols, pitch=None, swizzle=C.TENSOR_MAP_SWIZZLE_128B):
        from .validate import is_whole
        if not all(hasattr(buf, a) for a in ("ptr", "nbytes", "device")):   # (a DeviceBuffer, or one like it)
            raise UsageError(f"a tensor map describes a DeviceBuffer, got {type(buf).__name__}")
        if not (isinstance(element, tuple) and len(element) == 2 and all(map(is_whole, element))):
            raise UsageError(f"a tensor map's element is (CUtensorMapDataType, bytes), e.g. "
                             f"tcraw.driver.constants.TMA_FP16, got {element!r:.60}")
        sizes = {"rows": rows, "cols": cols, "box_rows": box_rows, "box_cols": box_cols, "pitch": pitch}
        bad = [f"{name} {v!r}" for name, v in sizes.items() if not (is_whole(v, 1, 256 if name == "box_rows" else None)
                                                                    or name == "pitch" and v is None)]
        if bad:
            raise UsageError(f"a tensor map's rows, cols and box (box_rows at most 256, TMA's limit) are whole "
                             f"numbers ≥ 1, pitch too where given: got {', '.join(bad)}")
        dtype_code, itemsize = element   # (CUtensorMapDataType, bytes), e.g. constants.TMA_FP16
        pitch = pitch or cols * itemsize
        if swizzle == C.TENSOR_MAP_SWIZZLE_128B and box_cols * itemsize > 128:
            raise UsageError(f"a 128-byte-swizzled TMA box row is at most 128 bytes; got {box_cols} "
                             f"× {itemsize}")
        if swizzle == C.TENSOR_MAP_SWIZZLE_NONE and (box_cols * itemsize % 16 or box_cols > 256):
            raise UsageError(f"an unswizzled TMA box row is a multiple of 16 bytes and at most 256 elements; "
                             f"got {box_cols} × {itemsize}")
        if pitch % 16 or pitch < cols * itemsize:
            raise UsageError(f"a tensor map's rows must be a multiple of 16 bytes apart and hold a row: "
                             f"{rows}×{cols} of {itemsize}-byte elements with rows {pitch} bytes apart is "
                             "neither; copy the matrix to a pitched buffer (tcraw.matmul.Pitched does)")
        if (rows - 1) * pitch + cols * itemsize > buf.nbytes:
            raise UsageError(f"a {rows}×{cols} tensor map with rows {pitch} bytes apart needs "
                             f"{(rows - 1) * pitch + cols * itemsize} bytes; the buffer has {buf.nbytes}")
        self.shape, self.box = (rows, cols), (box_rows, box_cols)
        self.raw = buf.device.drv.tensor_map_encode_tiled(
            dtype_code, buf.ptr, (cols, rows), (pitch,), (box_cols, box_rows), swizzle)


def _as_ctype(value):
    if isinstance(value, DeviceBuffer):
        return ctypes.c_uint64(value.ptr)
    if isinstance(value, TensorMap):
        return (ctypes.c_ubyte * len(value.raw)).from_buffer_copy(value.raw)
    if isinstance(value, (ctypes._SimpleCData, ctypes.Structure)):
        return value
    if isinstance(value, np.generic):
        table = {np.dtype(np.int32): ctypes.c_int32, np.dtype(np.int64): ctypes.c_int64,
                 np.dtype(np.uint32): ctypes.c_uint32, np.dtype(np.uint64): ctypes.c_uint64,
                 np.dtype(np.float32): ctypes.c_float, np.dtype(np.float64): ctypes.c_double}
        if value.dtype in table:
            return table[value.dtype](value.item())
    if isinstance(value, (bool, int, float)):
        raise UsageError(
            f"kernel argument {value!r} is a bare Python {type(value).__name__}: its C size is "
            "ambiguous; wrap it as np.int32(...), np.float32(...) or a ctypes value")
    raise UsageError(f"cannot pass a {type(value).__name__} as a kernel argument")


class KernelArgs:
    """The void*[] cuLaunchKernel reads: one pointer to each argument's bytes. Kept alive with
    the values it points to; ``address`` is what the seam passes."""

    def __init__(self, values):
        # (an iterable in order — not a text, an array, a mapping or a set: an array's elements would
        # pass for pointers of their size, a set's order is no order)
        if isinstance(values, (str, bytes, np.ndarray, dict, set, frozenset)) or not hasattr(values, "__iter__"):
            raise UsageError("KernelArgs takes a list of the kernel's arguments in order (DeviceBuffers, "
                             f"np.int32(...) and other numpy or ctypes scalars, TensorMaps), got {values!r:.60}")
        self.values = [_as_ctype(v) for v in values]
        self.array = (ctypes.c_void_p * max(1, len(self.values)))(
            *[ctypes.addressof(v) for v in self.values])
        self.address = ctypes.addressof(self.array)


def check_geometry(device, fn, geometry):
    """Refuse a launch the driver would reject, with the limit named (nothing is launched)."""
    from .validate import is_whole
    grid, block, smem = geometry.grid, geometry.block, geometry.smem_bytes
    for name, dims in (("grid", grid), ("block", block)):
        # (three of each, as cuLaunchKernel takes them: a shorter tuple would leave the backends'
        # arguments one place off — the bindings refuse the count, ctypes passes them shifted)
        if not (isinstance(dims, (tuple, list)) and len(dims) == 3 and all(is_whole(d, -math.inf) for d in dims)):
            raise UsageError(f"{name} {dims!r}: give three whole numbers (x, y, z), e.g. "
                             f"{'(4096, 1, 1)' if name == 'grid' else '(256, 1, 1)'}")
    if any(d <= 0 for d in (*grid, *block)):
        raise UsageError(f"grid {grid} / block {block}: every dimension must be ≥ 1")
    if not is_whole(smem):
        raise UsageError(f"smem_bytes {smem!r}: give the dynamic shared memory as a whole number of bytes ≥ 0")
    if any(b > lim for b, lim in zip(block, device.max_block)) or \
            block[0] * block[1] * block[2] > min(device.max_threads_per_block, fn.max_threads):
        raise UsageError(f"block {block} exceeds {fn.entry}'s limit of "
                         f"{min(device.max_threads_per_block, fn.max_threads)} threads "
                         f"(per-dimension maximum {device.max_block})")
    if any(g > lim for g, lim in zip(grid, device.max_grid)):
        raise UsageError(f"grid {grid} exceeds the device's maximum {device.max_grid}")
    if smem + fn.static_smem > device.max_smem_optin:
        raise UsageError(f"{smem} bytes of dynamic shared memory (+{fn.static_smem} static) exceed the "
                         f"device's {device.max_smem_optin}-byte per-block limit")
    if smem > fn.max_dynamic_smem:
        raise UsageError(f"{smem} bytes of dynamic shared memory exceed {fn.entry}'s current limit of "
                         f"{fn.max_dynamic_smem} (48 KiB unless raised): call "
                         f"Function.set_max_dynamic_smem({smem}) first")


def check_args(fn, args):
    """Argument count and sizes against the kernel's own signature, as its cubin records it: a
    mismatch would otherwise read garbage on the device."""
    if fn.param_sizes is None:
        return
    got = [ctypes.sizeof(v) for v in args.values]
    if len(got) != len(fn.param_sizes):
        raise UsageError(f"{fn.entry} takes {len(fn.param_sizes)} arguments "
                         f"(sizes {fn.param_sizes} bytes), got {len(got)}")
    for i, (want, have) in enumerate(zip(fn.param_sizes, got)):
        if want != have:
            raise UsageError(f"argument {i} of {fn.entry} is {want} bytes, got a "
                             f"{type(args.values[i]).__name__} of {have}")


def launcher(fn, geometry, args):
    """A callable doing cuLaunchKernel(fn, grid, block, dynamic smem, stream 0, args), with every
    argument packed once (KernelArgs) so a timed loop pays nothing for packing. The driver reads
    the argument values at each launch, so the launcher holds ``args`` (and its geometry)."""
    from .kernel import Geometry
    if not isinstance(fn, Function):
        raise UsageError(f"a launch takes a tcraw Function (Module(dev, cubin.image).function(entry)), not {fn!r:.80}")
    for what, value, kind in (("geometry", geometry, Geometry), ("args", args, KernelArgs)):
        if not isinstance(value, kind):
            raise UsageError(f"launcher's {what} is a tcraw {kind.__name__}, not {value!r:.80}: launcher takes "
                             "(Function, Geometry(grid, block, smem_bytes), KernelArgs([...])); tcraw.launch packs "
                             "them for you")
    if fn.module.handle is None:
        raise Closed(f"{fn.entry}'s Module was unloaded; load the cubin again")
    fn.module.device._check()
    check_geometry(fn.module.device, fn, geometry)
    check_args(fn, args)
    go = fn.module.drv.launcher(fn.handle, geometry.grid, geometry.block, geometry.smem_bytes, args.address)
    go.args, go.geometry = args, geometry   # the packed values live as long as the launcher
    return go


def launch(fn, grid, block, args, smem_bytes=0):
    """Launch ``fn`` once: ``args`` a list of DeviceBuffers, numpy scalars (np.int32(n)), ctypes
    values or TensorMaps, checked against the kernel's signature and the device's limits first.
    Asynchronous, like cuLaunchKernel: copy a result back (or Device.synchronize) to wait."""
    from .kernel import Geometry
    packed = KernelArgs(args)
    def dims(d):   # (a list, range or numpy array as a tuple; a text or a number as given, for check_geometry to name)
        return tuple(d) if isinstance(d, (list, range, np.ndarray)) else d
    launcher(fn, Geometry(dims(grid), dims(block), smem_bytes), packed)()
    return packed   # the caller may keep it; the driver has read the values already


# A GPU that sat idle runs its first launches slowly, whatever their number: on the H200 the
# first shape of two `tcraw bench` processes, each started after the GPU had idled, read 06 at
# 1024³ at 35.6 µs (fp16) and 16.1 µs (bf16) with 5 warm-up launches, against 9.2-10.0 µs in
# seven timings later; in one process after 10-15 s idle, 9.6-12.0 µs with the 5 launches alone
# and 9.3-9.5 µs with warm-up of at least 10, 30 or 100 ms (docs/results/2026-12-01-h200-long-k-
# clusters-of-4/, runs 4-8: the fresh process and the idle pause not told apart). So warm-up
# lasts at least this much GPU time. Not longer: with 30 ms, three of four 8192³ timings read
# 7-10 % slow (a longer load before the timed launches; 10 ms not timed there).
WARM_MS = 10.0


def warm_up(drv, run_once, launches, least_ms=None):
    """``launches`` untimed launches (none: no warm-up at all), then more in batches until at
    least ``least_ms`` (WARM_MS) of GPU time has passed since the first: each batch sized by the
    last one's time per launch (the first launches of an idle GPU are its slowest), at most 8
    batches and 100 000 launches."""
    if not launches:
        return
    least_ms = WARM_MS if least_ms is None else least_ms
    events = []
    try:
        for _ in range(2):
            events.append(drv.event_create())   # each kept as made: released below if the next fails
        start, end = events
        drv.event_record(start)
        batch, total, spent = launches, 0, 0.0
        for _ in range(8):
            for _ in range(batch):
                run_once()
            drv.event_record(end)
            drv.event_synchronize(end)
            total, before, spent = total + batch, spent, drv.event_elapsed_ms(start, end)
            if spent >= least_ms or total >= 100_000:
                return
            per_launch = max((spent - before) / batch, 1e-4)
            batch = min(100_000 - total, math.ceil((least_ms - spent) / per_launch))
    finally:
        for ev in events:
            _release(drv.event_destroy, ev)


# The host takes 8–27 µs to queue one timed launch (an event, the launch, an event: 06 and cuBLAS
# through tcraw's bindings on the H200's host) — longer than a small problem runs, so a GPU left
# idle waits between a start event and its launch, and the event pair times the wait too: at
# 1024³ 06 read 10.4 µs so and 9.3 with the stream held, cuBLAS 20.2 and 9.3 (H200, fp16,
# scripts/timing_gap_probe.py, docs/results/2026-12-01-h200-held-timing/). time_launches holds
# the stream this long for each timed launch while the host queues them (Device.hold), four
# times the most it was seen to take (0: no hold, as before), HOLD_CHUNK launches a hold: the
# driver's queue of pending launches is finite (a full one blocks the host until the GPU drains
# it, the hold first), so more launches get a hold before each HOLD_CHUNK — between pairs, never
# inside one.
HOLD_MS_PER_LAUNCH, HOLD_CHUNK = 0.1, 100


class Times(list):
    """time_launches' per-launch ms, with the GPU ms the timed launches were queued behind
    (``held_ms``; 0: unheld — HOLD_MS_PER_LAUNCH = 0, or no hold could be built)."""
    held_ms = 0.0


def time_launches(device, run_once, iters, warmup):
    """Per-launch times in ms: warm-up launches untimed (warm_up: at least WARM_MS of GPU time
    when any are asked), then an event pair around each launch — queued behind a hold of the
    stream (Device.hold, HOLD_MS_PER_LAUNCH each, a hold before every HOLD_CHUNK) so that none
    of them waits for the host. A ``device`` without ``hold`` (one of the caller's own) times
    unheld. Returns Times."""
    from .validate import device as an_open_device, hold_ms, timing
    an_open_device(device, "time_launches", needs=("drv",))
    if not callable(run_once):
        raise UsageError(f"time_launches times run_once(), a callable that launches (tcraw.launcher makes one), "
                         f"not {run_once!r:.80}")
    timing(iters, warmup)
    hold_ms(HOLD_MS_PER_LAUNCH, "runtime.HOLD_MS_PER_LAUNCH")
    hold = getattr(device, "hold", None) if HOLD_MS_PER_LAUNCH else None
    # built now, not between warm-up and the timed launches (an NVRTC compile, once a Device)
    held = bool(hold and hold(0))
    if isinstance(device, Device):
        device._check()   # (its context current: the events are made in it)
    drv = device.drv
    warm_up(drv, run_once, warmup)
    made = []
    try:
        for _ in range(2 * iters):
            made.append(drv.event_create())   # each kept as made: released below if the next fails
        events = list(zip(made[::2], made[1::2]))
        for j, (start, end) in enumerate(events):
            if held and j % HOLD_CHUNK == 0:
                hold(min(HOLD_CHUNK, iters - j) * HOLD_MS_PER_LAUNCH)
            drv.event_record(start)
            run_once()
            drv.event_record(end)
        drv.event_synchronize(events[-1][1])
        times = Times(drv.event_elapsed_ms(s, e) for s, e in events)
        times.held_ms = iters * HOLD_MS_PER_LAUNCH if held else 0.0
        return times
    finally:
        for ev in made:
            _release(drv.event_destroy, ev)
