"""The seam: every CUDA driver (cu*) and NVRTC (nvrtc*) call tcraw makes goes through here.

Above this package everything is plain Python over ints (device pointers, sizes) and opaque
handles (device, context, module, function, event). Below it, one file per implementation:

- ``bindings.py`` — NVIDIA's cuda-python (``cuda.bindings.driver`` / ``cuda.bindings.nvrtc``).
- ``ctypes_backend.py`` — plain ctypes over libcuda.so.1 and libnvrtc (nothing else installed).

``get_backend()`` picks one; ``Backend`` lists what each must provide. The enum numbers
used by both live in ``constants.py`` so an attribute means the same thing everywhere.
"""

import functools
import os

from ..errors import UsageError

BACKENDS = ("bindings", "ctypes")


def seam(call, prepared=False):
    """Mark a Backend method as a seam call standing for the driver/NVRTC function ``call``
    (the name a learner looks up). The tracer wraps exactly the methods so marked; ``prepared``
    ones return a zero-argument callable that makes the call (a timed loop's launch or copy),
    and the tracer prints each call that callable makes rather than its making."""
    def mark(method):
        method.seam_call, method.seam_prepared = call, prepared
        return method
    return mark


class Backend:
    """The whole interface, one method per driver/NVRTC call (or a tight group of them).

    Device pointers are ints; sizes are bytes; ``grid`` and ``block`` are (x, y, z).
    Every method raises ``tcraw.errors.CudaError`` (or ``NoDeviceError`` from ``init``)
    on a non-success result.
    """

    name = "abstract"

    # driver: init and devices
    @seam("cuInit")
    def init(self): raise NotImplementedError
    @seam("cuDriverGetVersion")
    def driver_version(self): raise NotImplementedError
    @seam("cuDeviceGetCount")
    def device_count(self): raise NotImplementedError
    @seam("cuDeviceGet")
    def device_get(self, ordinal): raise NotImplementedError
    @seam("cuDeviceGetName")
    def device_name(self, dev): raise NotImplementedError
    @seam("cuDeviceGetPCIBusId")
    def device_pci_bus_id(self, dev): raise NotImplementedError
    @seam("cuDeviceGetAttribute")
    def device_attribute(self, dev, attr): raise NotImplementedError
    @seam("cuDeviceTotalMem")
    def device_total_mem(self, dev): raise NotImplementedError
    # driver: the primary context (works the same on cuda-bindings 12.x and 13.x)
    @seam("cuDevicePrimaryCtxRetain")
    def primary_ctx_retain(self, dev): raise NotImplementedError
    @seam("cuDevicePrimaryCtxRelease")
    def primary_ctx_release(self, dev): raise NotImplementedError
    @seam("cuCtxSetCurrent")
    def ctx_set_current(self, ctx): raise NotImplementedError
    @seam("cuCtxSynchronize")
    def ctx_synchronize(self): raise NotImplementedError
    # driver: memory
    @seam("cuMemGetInfo")
    def mem_get_info(self): raise NotImplementedError
    @seam("cuMemAlloc")
    def mem_alloc(self, nbytes): raise NotImplementedError
    @seam("cuMemFree")
    def mem_free(self, ptr): raise NotImplementedError
    @seam("cuMemcpyHtoD")
    def memcpy_htod(self, dst, src_addr, nbytes): raise NotImplementedError
    @seam("cuMemcpyDtoH")
    def memcpy_dtoh(self, dst_addr, src, nbytes): raise NotImplementedError
    @seam("cuMemcpy2DAsync", prepared=True)
    def copier_2d(self, dst, dst_pitch, src, src_pitch, width_bytes, height):
        """A zero-argument callable copying ``height`` rows of ``width_bytes`` from device memory
        at ``src`` (rows ``src_pitch`` apart) to ``dst`` (``dst_pitch`` apart), queued on stream 0
        like the launches: built once, so a timed loop calls it at a launch's cost."""
        raise NotImplementedError
    @seam("cuMemsetD8")
    def memset_d8(self, ptr, value, count): raise NotImplementedError
    @seam("cuMemsetD16")
    def memset_d16(self, ptr, value, count): raise NotImplementedError
    @seam("cuMemsetD32")
    def memset_d32(self, ptr, value, count): raise NotImplementedError
    # driver: modules, functions, launch
    @seam("cuModuleLoadData")
    def module_load_data(self, image): raise NotImplementedError
    @seam("cuModuleUnload")
    def module_unload(self, mod): raise NotImplementedError
    @seam("cuModuleGetFunction")
    def module_get_function(self, mod, name): raise NotImplementedError
    @seam("cuFuncGetAttribute")
    def func_get_attribute(self, fn, attr): raise NotImplementedError
    @seam("cuFuncSetAttribute")
    def func_set_attribute(self, fn, attr, value): raise NotImplementedError
    @seam("cuTensorMapEncodeTiled")
    def tensor_map_encode_tiled(self, dtype, ptr, dims, strides, box, swizzle):
        """cuTensorMapEncodeTiled: the 128 bytes of a TMA descriptor (sm_90+) for a tensor at
        ``ptr`` with ``dims`` (innermost first, elements), ``strides`` (bytes, one fewer than
        dims), copied ``box`` elements at a time; element strides 1, no interleave, L2 promotion
        of 256 bytes, no out-of-bounds fill. Needs no context: it only encodes."""
        raise NotImplementedError
    @seam("cuOccupancyMaxActiveClusters")
    def occupancy_max_active_clusters(self, fn, grid, block, smem_bytes):
        """How many clusters of ``fn`` (its compile-time cluster shape; a block is a cluster of
        one) the device can hold at once, launched with this grid, block and dynamic smem."""
        raise NotImplementedError
    @seam("cuLaunchKernel", prepared=True)
    def launcher(self, fn, grid, block, smem_bytes, params_addr):
        """A zero-argument callable doing cuLaunchKernel with every argument converted once:
        what a timed loop calls (launch overhead is the benchmark's business, not Python's)."""
        raise NotImplementedError
    # driver: events (stream 0, the legacy default stream)
    @seam("cuEventCreate")
    def event_create(self): raise NotImplementedError
    @seam("cuEventRecord")
    def event_record(self, ev): raise NotImplementedError
    @seam("cuEventSynchronize")
    def event_synchronize(self, ev): raise NotImplementedError
    @seam("cuEventElapsedTime")
    def event_elapsed_ms(self, start, end): raise NotImplementedError
    @seam("cuEventDestroy")
    def event_destroy(self, ev): raise NotImplementedError
    # NVRTC
    @seam("nvrtcVersion")
    def nvrtc_version(self): raise NotImplementedError
    @seam("nvrtcGetSupportedArchs")
    def nvrtc_supported_archs(self): raise NotImplementedError
    @seam("nvrtcCreateProgram")
    def nvrtc_create_program(self, source, name): raise NotImplementedError
    @seam("nvrtcCompileProgram")
    def nvrtc_compile_program(self, prog, options):
        """Returns (result name, code): a failed compile is not an exception here, since the
        caller still needs the log (compiler.nvrtc_compile raises CompileError with it)."""
        raise NotImplementedError
    @seam("nvrtcGetProgramLog")
    def nvrtc_get_program_log(self, prog): raise NotImplementedError
    @seam("nvrtcGetCUBIN")
    def nvrtc_get_cubin(self, prog): raise NotImplementedError
    @seam("nvrtcDestroyProgram")
    def nvrtc_destroy_program(self, prog): raise NotImplementedError


def library_file(patterns):
    """The first file the glob ``patterns`` match (in order; sorted within one) that is the library
    itself — not NVRTC's builtins library nor the .alt. build beside it. None if none."""
    import glob
    name = os.path.basename
    for pattern in patterns:
        hits = sorted(h for h in glob.glob(pattern) if "builtins" not in name(h) and ".alt." not in name(h))
        if hits:
            return hits[0]
    return None


def find_library(name, patterns=()):
    """libNAME (cublas, cublasLt, nvrtc): cuda-pathfinder (an NVIDIA wheel), then ``patterns``
    (globs), then CUDA_HOME / CUDA_PATH / /usr/local/cuda's lib64, then the system's search path.
    A path, a soname, or None."""
    try:
        from cuda.pathfinder import load_nvidia_dynamic_lib
        return load_nvidia_dynamic_lib(name).abs_path
    except Exception:  # no pathfinder, or no wheel: look where a toolkit would be
        pass
    roots = [r for r in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda") if r]
    found = library_file([*patterns, *(os.path.join(r, "lib64", f"lib{name}.so*") for r in roots)])
    if found:
        return found
    import ctypes.util
    return ctypes.util.find_library(name)


def source_bytes(text):
    """What nvrtcCreateProgram is given for a source (or its name): UTF-8, where the bytes a file
    held that were not UTF-8 (carried as surrogates: compiler.read_source) go back as they were;
    bytes as they are. The cubin cache hashes the same bytes."""
    return bytes(text) if isinstance(text, (bytes, bytearray)) else text.encode("utf-8", "surrogateescape")


# method name -> driver/NVRTC function, built from the interface itself: a call added to Backend
# with @seam is traced by that one edit.
SEAM_CALLS = {name: fn.seam_call for name, fn in vars(Backend).items() if hasattr(fn, "seam_call")}
PREPARED = tuple(name for name, fn in vars(Backend).items() if getattr(fn, "seam_prepared", False))


_base, _traced = {}, {}
_default = {"name": None, "trace": None}


def configure(name=None, trace=None):
    """Set what get_backend() returns by default (the CLI's --backend and --trace)."""
    _default.update(name=name, trace=trace)


def check_env():
    """Refuse an unknown $TCRAW_BACKEND or a $TCRAW_TRACE that is neither yes nor no — what a
    command checks before any work, without making the backend (that loads libcuda and NVRTC,
    which `tcraw list` or `cache info` never need)."""
    from ..validate import env_flag
    if not _default["name"]:
        _env_backend()
    if _default["trace"] is None:
        env_flag("TCRAW_TRACE")


def _env_backend():
    """$TCRAW_BACKEND, checked: a backend's name, or None when unset."""
    name = os.environ.get("TCRAW_BACKEND")
    if name and name not in BACKENDS:
        raise UsageError(f"TCRAW_BACKEND={name!r} is not a backend; set it to one of "
                         f"{', '.join(BACKENDS)}, or unset it")
    return name or None


def _make(name):
    if name == "ctypes":
        from .ctypes_backend import CtypesBackend
        return CtypesBackend()
    from .bindings import BindingsBackend
    return BindingsBackend()


def default_backend_name():
    """(name, why): configure() or $TCRAW_BACKEND if set, else bindings when cuda-python imports,
    else ctypes."""
    if _default["name"]:
        return _default["name"], "--backend"
    if (name := _env_backend()):
        return name, "TCRAW_BACKEND"
    try:
        import cuda.bindings.driver  # noqa: F401  (is cuda-python importable?)
    except ImportError:
        return "ctypes", "cuda-python (cuda.bindings) is not installed"
    from ..toolchain import choose
    tc = choose()
    if tc.bindings_major not in (None, tc.major):   # its NVRTC and driver API are the other major's
        return "ctypes", (f"cuda-bindings {tc.bindings} is CUDA {tc.bindings_major}; the toolchain is CUDA "
                          f"{tc.major} (chosen by {tc.chosen_by})")
    nvrtc_major = _bindings_nvrtc_major()
    if nvrtc_major not in (None, tc.major):   # cuda-pathfinder found the other major's libnvrtc first
        return "ctypes", (f"cuda.bindings loads NVRTC {nvrtc_major}.x; the toolchain is CUDA {tc.major} "
                          f"(chosen by {tc.chosen_by}), whose NVRTC the ctypes backend loads by path")
    return "bindings", "default"


@functools.lru_cache(maxsize=None)
def _bindings_nvrtc_major():
    """The major of the libnvrtc cuda.bindings loads (it picks one itself), or None if none loads.
    Asked once per process: get_backend() asks for the default on every call."""
    from ..errors import TcrawError
    try:
        return get_backend("bindings", trace=False).nvrtc_version()[0]
    except TcrawError:
        return None


def tracing():
    """Whether the seam's calls are traced by default: --trace (configure), else $TCRAW_TRACE=1."""
    if _default["trace"] is not None:
        return bool(_default["trace"])
    from ..validate import env_flag
    return env_flag("TCRAW_TRACE")


def get_backend(name=None, trace=None):
    """The backend called ``name`` (default: default_backend_name()), made once; wrapped in the
    call tracer when ``trace`` or $TCRAW_TRACE=1."""
    name = name or default_backend_name()[0]
    if trace is None:
        trace = tracing()
    if name not in BACKENDS:
        raise UsageError(f"unknown backend {name!r}; choose one of: {', '.join(BACKENDS)}")
    if name not in _base:
        _base[name] = _make(name)
    if not trace:
        return _base[name]
    if name not in _traced:
        from .trace import Traced
        _traced[name] = Traced(_base[name])
    return _traced[name]
