"""The seam over plain ctypes: libcuda.so.1 and libnvrtc, nothing else installed.

For minimal environments where cuda-python cannot be installed. Same interface, same errors and
messages as bindings.py. Driver symbols are the versioned ones where cuda.h maps a name to one
(cuMemAlloc → cuMemAlloc_v2): the unversioned names are the old ABI, kept for old binaries. One
exception: cuEventElapsedTime, which CUDA 13's cuda.h maps to a _v2 that older drivers lack; the
old symbol is in every driver tcraw supports.
"""

import ctypes
import os
import sys
from ctypes import POINTER, byref, c_char_p, c_float, c_int, c_size_t, c_uint, c_uint64, c_void_p

from ..errors import CudaError, NoDeviceError, NvrtcPathError, no_driver, no_nvrtc
from . import Backend, find_library, source_bytes
from .constants import TENSOR_MAP_L2_PROMOTION_256B

CUresult = c_int
CU_MEMORYTYPE_DEVICE = 2


class CUDA_MEMCPY2D(ctypes.Structure):
    """cuda.h's CUDA_MEMCPY2D (the _v2 layout: size_t offsets and pitches)."""
    _fields_ = [(f"{side}{name}", kind) for side in ("src", "dst") for name, kind in (
        ("XInBytes", c_size_t), ("Y", c_size_t), ("MemoryType", c_int), ("Host", c_void_p),
        ("Device", c_uint64), ("Array", c_void_p), ("Pitch", c_size_t))] + [
        ("WidthInBytes", c_size_t), ("Height", c_size_t)]


class _LaunchConfig(ctypes.Structure):
    """cuda.h's CUlaunchConfig (what cuOccupancyMaxActiveClusters reads)."""
    _fields_ = [(name, c_uint) for name in ("gridDimX", "gridDimY", "gridDimZ", "blockDimX", "blockDimY",
                                            "blockDimZ", "sharedMemBytes")] + [
        ("hStream", c_void_p), ("attrs", c_void_p), ("numAttrs", c_uint)]


# Every NVRTC function this backend calls: a library without them is not (a new enough) NVRTC.
NVRTC_SYMBOLS = ("nvrtcVersion", "nvrtcGetErrorString", "nvrtcGetNumSupportedArchs",
                 "nvrtcGetSupportedArchs", "nvrtcCreateProgram", "nvrtcCompileProgram",
                 "nvrtcGetProgramLogSize", "nvrtcGetProgramLog", "nvrtcGetCUBINSize", "nvrtcGetCUBIN",
                 "nvrtcDestroyProgram")


def _find_nvrtc():
    """libnvrtc: $TCRAW_NVRTC_LIBRARY, the chosen toolchain's (tcraw.toolchain), cuda-pathfinder, a
    pip wheel on sys.path, CUDA_HOME/CUDA_PATH, /usr/local/cuda, then the system's search path.
    Returns a path or a soname, or None."""
    if os.environ.get("TCRAW_NVRTC_LIBRARY"):
        return os.environ["TCRAW_NVRTC_LIBRARY"]
    from ..toolchain import choose
    stack = choose().stack
    if stack and stack.nvrtc:
        return stack.nvrtc
    return find_library("nvrtc", [os.path.join(p, "nvidia", sub, "lib", "libnvrtc.so*") for p in sys.path
                                  for sub in ("cu13", "cu12", "cuda_nvrtc")])


def _load_nvrtc():
    """The CDLL of libnvrtc, checked to export what tcraw calls; NoNvrtcError (via no_nvrtc)
    naming the library and where its path came from otherwise — or, where $TCRAW_NVRTC_LIBRARY
    names it, an NvrtcPathError (a UsageError) saying to set that right (the variable is wrong, not the
    install)."""
    path = _find_nvrtc()
    if not path:
        raise no_nvrtc("no libnvrtc found")
    env = bool(os.environ.get("TCRAW_NVRTC_LIBRARY"))
    where = f"TCRAW_NVRTC_LIBRARY={path}" if env else path

    def refuse(why):
        if env:
            return NvrtcPathError(f"{why}; point TCRAW_NVRTC_LIBRARY at a libnvrtc.so (a pip wheel's: "
                                  "site-packages/nvidia/cu13/lib/libnvrtc.so.13, CUDA 12's "
                                  "nvidia/cuda_nvrtc/lib/libnvrtc.so.12), or unset it to let tcraw find one")
        return no_nvrtc(why)
    if os.sep in path and not os.path.exists(path):
        raise refuse(f"{where}: no such file")
    try:
        lib = ctypes.CDLL(path)
    except OSError as exc:
        raise refuse(f"cannot load {where}: {exc}") from None
    missing = [s for s in NVRTC_SYMBOLS if not hasattr(lib, s)]
    if "nvrtcVersion" in missing:
        raise refuse(f"{where} is not NVRTC: it lacks nvrtcVersion")
    if missing:
        raise refuse(f"{where} is an NVRTC too old for tcraw: it lacks {', '.join(missing)}")
    lib.nvrtcGetErrorString.restype = c_char_p
    return lib


class CtypesBackend(Backend):
    name = "ctypes"

    def __init__(self):
        self._cuda = None
        self._nvrtc = None

    # -- libraries ------------------------------------------------------------------------
    @property
    def cuda(self):
        if self._cuda is None:
            try:
                lib = ctypes.CDLL("libcuda.so.1")
            except OSError as exc:
                raise no_driver(exc) from None
            lib.cuGetErrorName.argtypes = [CUresult, POINTER(c_char_p)]
            self._cuda = lib
        return self._cuda

    @property
    def nvrtc(self):
        if self._nvrtc is None:
            self._nvrtc = _load_nvrtc()
        return self._nvrtc

    def _error_name(self, err):
        s = c_char_p()
        self.cuda.cuGetErrorName(err, byref(s))
        return (s.value or b"CUDA_ERROR_UNKNOWN").decode()

    def _cu(self, name, *args):
        err = getattr(self.cuda, name)(*args)
        if err != 0:
            raise CudaError(name.removesuffix("_v2"), self._error_name(err), err)

    def _nv(self, name, *args):
        err = getattr(self.nvrtc, name)(*args)
        if err != 0:
            raise CudaError(name, self.nvrtc.nvrtcGetErrorString(err).decode(), err)

    # -- init and devices ---------------------------------------------------------------
    def init(self):
        err = self.cuda.cuInit(0)
        if err != 0:
            raise NoDeviceError(f"cuInit failed: {self._error_name(err)} ({err}): no usable CUDA device")

    def driver_version(self):
        v = c_int()
        self._cu("cuDriverGetVersion", byref(v))
        return v.value

    def device_count(self):
        n = c_int()
        self._cu("cuDeviceGetCount", byref(n))
        return n.value

    def device_get(self, ordinal):
        d = c_int()
        self._cu("cuDeviceGet", byref(d), c_int(ordinal))
        return d.value

    def device_name(self, dev):
        buf = ctypes.create_string_buffer(256)
        self._cu("cuDeviceGetName", buf, c_int(256), c_int(dev))
        return buf.value.decode()

    def device_pci_bus_id(self, dev):
        buf = ctypes.create_string_buffer(64)
        self._cu("cuDeviceGetPCIBusId", buf, c_int(64), c_int(dev))
        return buf.value.decode()

    def device_attribute(self, dev, attr):
        v = c_int()
        self._cu("cuDeviceGetAttribute", byref(v), c_int(attr), c_int(dev))
        return v.value

    def device_total_mem(self, dev):
        v = c_size_t()
        self._cu("cuDeviceTotalMem_v2", byref(v), c_int(dev))
        return v.value

    # -- context ------------------------------------------------------------------------
    def primary_ctx_retain(self, dev):
        ctx = c_void_p()
        self._cu("cuDevicePrimaryCtxRetain", byref(ctx), c_int(dev))
        return ctx.value

    def primary_ctx_release(self, dev):
        self._cu("cuDevicePrimaryCtxRelease_v2", c_int(dev))

    def ctx_set_current(self, ctx):
        self._cu("cuCtxSetCurrent", c_void_p(ctx))

    def ctx_synchronize(self):
        self._cu("cuCtxSynchronize")

    # -- memory -------------------------------------------------------------------------
    def mem_get_info(self):
        free, total = c_size_t(), c_size_t()
        self._cu("cuMemGetInfo_v2", byref(free), byref(total))
        return free.value, total.value

    def mem_alloc(self, nbytes):
        ptr = c_uint64()
        self._cu("cuMemAlloc_v2", byref(ptr), c_size_t(nbytes))
        return ptr.value

    def mem_free(self, ptr):
        self._cu("cuMemFree_v2", c_uint64(ptr))

    def memcpy_htod(self, dst, src_addr, nbytes):
        self._cu("cuMemcpyHtoD_v2", c_uint64(dst), c_void_p(src_addr), c_size_t(nbytes))

    def memcpy_dtoh(self, dst_addr, src, nbytes):
        self._cu("cuMemcpyDtoH_v2", c_void_p(dst_addr), c_uint64(src), c_size_t(nbytes))

    def copier_2d(self, dst, dst_pitch, src, src_pitch, width_bytes, height):
        p = CUDA_MEMCPY2D(srcMemoryType=CU_MEMORYTYPE_DEVICE, srcDevice=src, srcPitch=src_pitch,
                          dstMemoryType=CU_MEMORYTYPE_DEVICE, dstDevice=dst, dstPitch=dst_pitch,
                          WidthInBytes=width_bytes, Height=height)
        copy, args = self.cuda.cuMemcpy2DAsync_v2, (byref(p), c_void_p(0))

        def go():
            err = copy(*args)
            if err:
                raise CudaError("cuMemcpy2DAsync", self._error_name(err), err)
        return go

    def memset_d8(self, ptr, value, count):
        self._cu("cuMemsetD8_v2", c_uint64(ptr), ctypes.c_ubyte(value), c_size_t(count))

    def memset_d16(self, ptr, value, count):
        self._cu("cuMemsetD16_v2", c_uint64(ptr), ctypes.c_ushort(value), c_size_t(count))

    def memset_d32(self, ptr, value, count):
        self._cu("cuMemsetD32_v2", c_uint64(ptr), c_uint(value), c_size_t(count))

    # -- modules and launch -------------------------------------------------------------
    def module_load_data(self, image):
        mod = c_void_p()
        buf = ctypes.create_string_buffer(bytes(image), len(image))
        self._cu("cuModuleLoadData", byref(mod), buf)
        return mod.value

    def module_unload(self, mod):
        self._cu("cuModuleUnload", c_void_p(mod))

    def module_get_function(self, mod, name):
        fn = c_void_p()
        self._cu("cuModuleGetFunction", byref(fn), c_void_p(mod), name.encode())
        return fn.value

    def func_get_attribute(self, fn, attr):
        v = c_int()
        self._cu("cuFuncGetAttribute", byref(v), c_int(attr), c_void_p(fn))
        return v.value

    def func_set_attribute(self, fn, attr, value):
        self._cu("cuFuncSetAttribute", c_void_p(fn), c_int(attr), c_int(value))

    def tensor_map_encode_tiled(self, dtype, ptr, dims, strides, box, swizzle):
        rank = len(dims)
        raw = ctypes.create_string_buffer(128 + 64)   # the driver wants the map 64-byte aligned
        at = -ctypes.addressof(raw) % 64
        self._cu("cuTensorMapEncodeTiled", c_void_p(ctypes.addressof(raw) + at), c_int(dtype), c_uint(rank),
                 c_void_p(ptr), (c_uint64 * rank)(*dims), (c_uint64 * max(1, rank - 1))(*strides),
                 (c_uint * rank)(*box), (c_uint * rank)(*[1] * rank), c_int(0), c_int(swizzle),
                 c_int(TENSOR_MAP_L2_PROMOTION_256B), c_int(0))   # no interleave, no OOB fill
        return raw.raw[at:at + 128]

    def occupancy_max_active_clusters(self, fn, grid, block, smem_bytes):
        config = _LaunchConfig(*grid, *block, smem_bytes, None, None, 0)   # stream 0, no attributes
        n = c_int()
        self._cu("cuOccupancyMaxActiveClusters", byref(n), c_void_p(fn), byref(config))
        return n.value

    def launcher(self, fn, grid, block, smem_bytes, params_addr):
        launch = self.cuda.cuLaunchKernel
        args = (c_void_p(fn), *(c_uint(v) for v in (*grid, *block, smem_bytes)), c_void_p(0),
                c_void_p(params_addr), c_void_p(0))  # converted once, reused every launch

        def go():
            err = launch(*args)
            if err:
                raise CudaError("cuLaunchKernel", self._error_name(err), err)
        return go

    # -- events -------------------------------------------------------------------------
    def event_create(self):
        ev = c_void_p()
        self._cu("cuEventCreate", byref(ev), c_uint(0))
        return ev.value

    def event_record(self, ev):
        self._cu("cuEventRecord", c_void_p(ev), c_void_p(0))

    def event_synchronize(self, ev):
        self._cu("cuEventSynchronize", c_void_p(ev))

    def event_elapsed_ms(self, start, end):
        ms = c_float()
        self._cu("cuEventElapsedTime", byref(ms), c_void_p(start), c_void_p(end))
        return ms.value

    def event_destroy(self, ev):
        self._cu("cuEventDestroy_v2", c_void_p(ev))

    # -- NVRTC --------------------------------------------------------------------------
    def nvrtc_version(self):
        major, minor = c_int(), c_int()
        self._nv("nvrtcVersion", byref(major), byref(minor))
        return major.value, minor.value

    def nvrtc_supported_archs(self):
        n = c_int()
        self._nv("nvrtcGetNumSupportedArchs", byref(n))
        archs = (c_int * n.value)()
        self._nv("nvrtcGetSupportedArchs", archs)
        return list(archs)

    def nvrtc_create_program(self, source, name):
        prog = c_void_p()
        self._nv("nvrtcCreateProgram", byref(prog), source_bytes(source), source_bytes(name), c_int(0), None, None)
        return prog.value

    def nvrtc_compile_program(self, prog, options):
        opts = (c_char_p * max(1, len(options)))(*[o.encode() for o in options])
        err = self.nvrtc.nvrtcCompileProgram(c_void_p(prog), c_int(len(options)), opts)
        return self.nvrtc.nvrtcGetErrorString(err).decode(), err

    def nvrtc_get_program_log(self, prog):
        size = c_size_t()
        self._nv("nvrtcGetProgramLogSize", c_void_p(prog), byref(size))
        buf = ctypes.create_string_buffer(size.value)
        self._nv("nvrtcGetProgramLog", c_void_p(prog), buf)
        # (not .value: it ends at the NUL NVRTC puts before ptxas's errors, and they would be lost)
        return buf.raw.replace(b"\0", b"").decode(errors="replace")

    def nvrtc_get_cubin(self, prog):
        size = c_size_t()
        self._nv("nvrtcGetCUBINSize", c_void_p(prog), byref(size))
        cubin = ctypes.create_string_buffer(size.value)
        self._nv("nvrtcGetCUBIN", c_void_p(prog), cubin)
        return cubin.raw

    def nvrtc_destroy_program(self, prog):
        self._nv("nvrtcDestroyProgram", byref(c_void_p(prog)))
