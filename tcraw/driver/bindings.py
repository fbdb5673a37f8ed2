"""The seam over NVIDIA's cuda-python: ``cuda.bindings.driver`` and ``cuda.bindings.nvrtc``.

Every call returns a tuple whose first item is the result code; ``_ok`` turns a failure into
``CudaError`` with the code's name, so no caller ever looks at a raw CUresult.
"""

import ctypes

from ..errors import CudaError, NoDeviceError, no_driver, no_nvrtc
from . import Backend, source_bytes
from .constants import TENSOR_MAP_L2_PROMOTION_256B

try:  # cuda-bindings >= 12.6.1 (and all of 13.x) has these; `from cuda import cuda` is gone in 13
    from cuda.bindings import driver as cu
except ImportError as exc:  # pragma: no cover - exercised only without cuda-python
    raise NoDeviceError(
        f"the 'bindings' backend needs cuda-python (cuda.bindings): {exc}; "
        "install it with `pip install cuda-bindings`"
    ) from exc


_loaded_nvrtc = []


def _nvrtc():
    """cuda.bindings.nvrtc with libnvrtc loaded — once: its load fails here, with a message, not
    mid-compile (and is tried again by the next call)."""
    if not _loaded_nvrtc:
        try:
            from cuda.bindings import nvrtc
            nvrtc.nvrtcVersion()   # (what loads libnvrtc)
        except Exception as exc:
            raise no_nvrtc(f"{type(exc).__name__}: {(str(exc).splitlines() or [''])[0]}") from None
        _loaded_nvrtc.append(nvrtc)
    return _loaded_nvrtc[0]


def _ok(call, result):
    """Check a cuda.bindings result tuple; return the payload (None, one value, or a tuple)."""
    err, rest = result[0], result[1:]
    if int(err) != 0:
        raise CudaError(call, err.name, int(err))
    if not rest:
        return None
    return rest[0] if len(rest) == 1 else rest


class BindingsBackend(Backend):
    name = "bindings"

    # -- init and devices ---------------------------------------------------------------
    def init(self):
        try:
            result = cu.cuInit(0)
        except Exception as exc:  # libcuda.so.1 itself is missing: the bindings raise, not return
            raise no_driver(type(exc).__name__) from None
        err = result[0]
        if int(err) != 0:
            raise NoDeviceError(f"cuInit failed: {err.name} ({int(err)}): no usable CUDA device")

    def driver_version(self):
        return _ok("cuDriverGetVersion", cu.cuDriverGetVersion())

    def device_count(self):
        return _ok("cuDeviceGetCount", cu.cuDeviceGetCount())

    def device_get(self, ordinal):
        return _ok("cuDeviceGet", cu.cuDeviceGet(ordinal))

    def device_name(self, dev):
        raw = _ok("cuDeviceGetName", cu.cuDeviceGetName(256, dev))
        return raw.split(b"\0", 1)[0].decode()

    def device_pci_bus_id(self, dev):
        raw = _ok("cuDeviceGetPCIBusId", cu.cuDeviceGetPCIBusId(64, dev))
        return raw.split(b"\0", 1)[0].decode()

    def device_attribute(self, dev, attr):
        return _ok("cuDeviceGetAttribute", cu.cuDeviceGetAttribute(cu.CUdevice_attribute(attr), dev))

    def device_total_mem(self, dev):
        return _ok("cuDeviceTotalMem", cu.cuDeviceTotalMem(dev))

    # -- context ------------------------------------------------------------------------
    def primary_ctx_retain(self, dev):
        return _ok("cuDevicePrimaryCtxRetain", cu.cuDevicePrimaryCtxRetain(dev))

    def primary_ctx_release(self, dev):
        _ok("cuDevicePrimaryCtxRelease", cu.cuDevicePrimaryCtxRelease(dev))

    def ctx_set_current(self, ctx):
        _ok("cuCtxSetCurrent", cu.cuCtxSetCurrent(ctx))

    def ctx_synchronize(self):
        _ok("cuCtxSynchronize", cu.cuCtxSynchronize())

    # -- memory -------------------------------------------------------------------------
    def mem_get_info(self):
        return _ok("cuMemGetInfo", cu.cuMemGetInfo())

    def mem_alloc(self, nbytes):
        return int(_ok("cuMemAlloc", cu.cuMemAlloc(nbytes)))

    def mem_free(self, ptr):
        _ok("cuMemFree", cu.cuMemFree(ptr))

    def memcpy_htod(self, dst, src_addr, nbytes):
        _ok("cuMemcpyHtoD", cu.cuMemcpyHtoD(dst, src_addr, nbytes))

    def memcpy_dtoh(self, dst_addr, src, nbytes):
        _ok("cuMemcpyDtoH", cu.cuMemcpyDtoH(dst_addr, src, nbytes))

    def copier_2d(self, dst, dst_pitch, src, src_pitch, width_bytes, height):
        p = cu.CUDA_MEMCPY2D()
        p.srcMemoryType = p.dstMemoryType = cu.CUmemorytype.CU_MEMORYTYPE_DEVICE
        p.srcDevice, p.srcPitch, p.dstDevice, p.dstPitch = src, src_pitch, dst, dst_pitch
        p.WidthInBytes, p.Height = width_bytes, height
        copy = cu.cuMemcpy2DAsync

        def go():
            err = copy(p, 0)[0]
            if err:
                raise CudaError("cuMemcpy2DAsync", err.name, int(err))
        return go

    def memset_d8(self, ptr, value, count):
        _ok("cuMemsetD8", cu.cuMemsetD8(ptr, value, count))

    def memset_d16(self, ptr, value, count):
        _ok("cuMemsetD16", cu.cuMemsetD16(ptr, value, count))

    def memset_d32(self, ptr, value, count):
        _ok("cuMemsetD32", cu.cuMemsetD32(ptr, value, count))

    # -- modules and launch -------------------------------------------------------------
    def module_load_data(self, image):
        return _ok("cuModuleLoadData", cu.cuModuleLoadData(image))

    def module_unload(self, mod):
        _ok("cuModuleUnload", cu.cuModuleUnload(mod))

    def module_get_function(self, mod, name):
        return _ok("cuModuleGetFunction", cu.cuModuleGetFunction(mod, name.encode()))

    def func_get_attribute(self, fn, attr):
        return _ok("cuFuncGetAttribute", cu.cuFuncGetAttribute(cu.CUfunction_attribute(attr), fn))

    def func_set_attribute(self, fn, attr, value):
        _ok("cuFuncSetAttribute", cu.cuFuncSetAttribute(fn, cu.CUfunction_attribute(attr), value))

    def tensor_map_encode_tiled(self, dtype, ptr, dims, strides, box, swizzle):
        tmap = _ok("cuTensorMapEncodeTiled", cu.cuTensorMapEncodeTiled(
            cu.CUtensorMapDataType(dtype), len(dims), ptr, [cu.cuuint64_t(d) for d in dims],
            [cu.cuuint64_t(s) for s in strides], [cu.cuuint32_t(b) for b in box],
            [cu.cuuint32_t(1)] * len(dims), cu.CUtensorMapInterleave.CU_TENSOR_MAP_INTERLEAVE_NONE,
            cu.CUtensorMapSwizzle(swizzle), cu.CUtensorMapL2promotion(TENSOR_MAP_L2_PROMOTION_256B),
            cu.CUtensorMapFloatOOBfill.CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE))
        return ctypes.string_at(tmap.getPtr(), 128)

    def occupancy_max_active_clusters(self, fn, grid, block, smem_bytes):
        config = cu.CUlaunchConfig()   # stream 0, no attributes: the kernel's __cluster_dims__ count
        config.gridDimX, config.gridDimY, config.gridDimZ = grid
        config.blockDimX, config.blockDimY, config.blockDimZ = block
        config.sharedMemBytes = smem_bytes
        return _ok("cuOccupancyMaxActiveClusters", cu.cuOccupancyMaxActiveClusters(fn, config))

    def launcher(self, fn, grid, block, smem_bytes, params_addr):
        # params_addr is the address of a packed void*[] (see runtime.KernelArgs): the cheapest
        # form cuda.bindings accepts, and the same one the ctypes backend passes.
        launch, args = cu.cuLaunchKernel, (fn, *grid, *block, smem_bytes, 0, params_addr, 0)

        def go():
            err = launch(*args)[0]
            if err:  # CUresult is an IntEnum: 0 is success
                raise CudaError("cuLaunchKernel", err.name, int(err))
        return go

    # -- events -------------------------------------------------------------------------
    def event_create(self):
        return _ok("cuEventCreate", cu.cuEventCreate(0))

    def event_record(self, ev):
        _ok("cuEventRecord", cu.cuEventRecord(ev, 0))

    def event_synchronize(self, ev):
        _ok("cuEventSynchronize", cu.cuEventSynchronize(ev))

    def event_elapsed_ms(self, start, end):
        return _ok("cuEventElapsedTime", cu.cuEventElapsedTime(start, end))

    def event_destroy(self, ev):
        _ok("cuEventDestroy", cu.cuEventDestroy(ev))

    # -- NVRTC (imported on first use: cubin-only runs need no NVRTC at all) -------------
    def nvrtc_version(self):
        return _ok("nvrtcVersion", _nvrtc().nvrtcVersion())

    def nvrtc_supported_archs(self):
        return list(_ok("nvrtcGetSupportedArchs", _nvrtc().nvrtcGetSupportedArchs()))

    def nvrtc_create_program(self, source, name):
        return _ok("nvrtcCreateProgram",
                   _nvrtc().nvrtcCreateProgram(source_bytes(source), source_bytes(name), 0, [], []))

    def nvrtc_compile_program(self, prog, options):
        opts = [o.encode() for o in options]
        err = _nvrtc().nvrtcCompileProgram(prog, len(opts), opts)[0]
        return err.name, int(err)

    def nvrtc_get_program_log(self, prog):
        nvrtc = _nvrtc()
        size = _ok("nvrtcGetProgramLogSize", nvrtc.nvrtcGetProgramLogSize(prog))
        log = b" " * size
        _ok("nvrtcGetProgramLog", nvrtc.nvrtcGetProgramLog(prog, log))
        return log.replace(b"\0", b"").decode(errors="replace")   # (NVRTC puts a NUL before ptxas's errors)

    def nvrtc_get_cubin(self, prog):
        nvrtc = _nvrtc()
        size = _ok("nvrtcGetCUBINSize", nvrtc.nvrtcGetCUBINSize(prog))
        cubin = b" " * size
        _ok("nvrtcGetCUBIN", nvrtc.nvrtcGetCUBIN(prog, cubin))
        return cubin

    def nvrtc_destroy_program(self, prog):
        _ok("nvrtcDestroyProgram", _nvrtc().nvrtcDestroyProgram(prog))
