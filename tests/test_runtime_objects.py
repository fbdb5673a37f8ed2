"""runtime's objects over a fake two-GPU driver (CPU): each call runs in the context of the Device
it belongs to, use after close is refused before the driver sees a dead handle, and a failure
half-way through making an object releases what it had taken."""

import threading

import numpy as np
import pytest

from tcraw import compiler, kernels, runtime
from tcraw.driver import Backend
from tcraw.errors import CudaError, UsageError
from tcraw.kernel import Geometry
from tcraw.runtime import Closed, Device, DeviceBuffer, KernelArgs, Module, launcher, time_launches

NAIVE = kernels.KERNELS["naive_fp32"]


class TwoGpus(Backend):
    """Two sm_90 GPUs. Every call that acts in "the current context" records it; what a context
    owns is checked against the context it is used in, as the driver would."""

    name = "fake"

    def __init__(self, fail=None):
        self.current = threading.local()
        self.retained = {0: 0, 1: 0}
        self.owner = {}          # handle (pointer, module, event) -> the context it was made in
        self.log = []            # (call, context) in order
        self.fail = fail         # a call that raises, once
        self.next = 0x1000

    def _in_ctx(self, call):
        ctx = getattr(self.current, "ctx", None)
        if call == self.fail:
            self.fail = None
            raise CudaError(call, 999, "CUDA_ERROR_UNKNOWN", "injected")
        self.log.append((call, ctx))
        return ctx

    def _new(self, call):
        ctx = self._in_ctx(call)
        if ctx is None:
            raise CudaError(call, 201, "CUDA_ERROR_INVALID_CONTEXT", "no current context")
        self.next += 0x1000
        self.owner[self.next] = ctx
        return self.next

    def _use(self, call, handle):
        if self.owner.get(handle) != self._in_ctx(call):
            raise CudaError(call, 400, "CUDA_ERROR_INVALID_HANDLE", f"{handle:#x} is another context's")

    def init(self): pass
    def driver_version(self): return 13000
    def device_count(self): return 2
    def device_get(self, ordinal): return ordinal
    def device_name(self, dev): return f"Fake GPU {dev}"
    def device_total_mem(self, dev): return 1 << 34

    def device_attribute(self, dev, attr):
        self._in_ctx("cuDeviceGetAttribute")
        return {75: 9, 76: 0}.get(attr, 1024)

    def primary_ctx_retain(self, dev):
        self.retained[dev] += 1
        return f"ctx{dev}"

    def primary_ctx_release(self, dev):
        self.retained[dev] -= 1

    def ctx_set_current(self, ctx):
        self._in_ctx("cuCtxSetCurrent")
        self.current.ctx = ctx

    def mem_alloc(self, nbytes): return self._new("cuMemAlloc")
    def mem_free(self, ptr): self.owner.pop(ptr)   # (freeing and unloading name their context)
    def memcpy_htod(self, dst, src_addr, nbytes): self._use("cuMemcpyHtoD", dst)
    def memcpy_dtoh(self, dst_addr, src, nbytes): self._use("cuMemcpyDtoH", src)
    def memset_d32(self, ptr, value, count): self._use("cuMemsetD32", ptr)
    def module_load_data(self, image): return self._new("cuModuleLoadData")
    def module_unload(self, mod): self.owner.pop(mod)
    def module_get_function(self, mod, name): self._use("cuModuleGetFunction", mod); return mod
    def func_get_attribute(self, fn, attr): return 1024 if attr == 0 else 0

    def launcher(self, fn, grid, block, smem_bytes, params_addr):
        self._use("cuLaunchKernel", fn)
        return lambda: self._use("cuLaunchKernel", fn)

    def event_create(self): return self._new("cuEventCreate")
    def event_record(self, ev): self._use("cuEventRecord", ev)
    def event_synchronize(self, ev): self._use("cuEventSynchronize", ev)
    def event_elapsed_ms(self, start, end): return 1.0
    def event_destroy(self, ev): self.owner.pop(ev)


@pytest.fixture(autouse=True)
def fresh_thread_state():
    runtime._current.ctx = None   # (what another test's Device left current on this thread)
    yield
    runtime._current.ctx = None


@pytest.fixture(scope="module")
def image():
    return compiler.compile_cubin(NAIVE, "sm_90").image


def test_each_object_acts_in_its_own_devices_context(image):
    """Two Devices in one thread: memory, copies and modules of the first after the second was
    opened still land in the first's context (a GPU of its own), and back again."""
    drv = TwoGpus()
    with Device(0, drv) as d0, Device(1, drv) as d1:
        a = DeviceBuffer(d0, 64)
        b = DeviceBuffer(d1, 64)
        a.copy_from_host(np.zeros(16, np.float32))
        m0 = Module(d0, image)
        b.copy_from_host(np.zeros(16, np.float32))
        fn = m0.function(NAIVE.entry)
        out = DeviceBuffer(d0, 64)
        go = launcher(fn, Geometry((1, 1, 1), (16, 16, 1)),
                      KernelArgs([a, a, out, np.int32(2), np.int32(2), np.int32(2)]))
        go()
        a.free(), b.free(), out.free(), m0.unload()
    assert drv.owner == {} and drv.retained == {0: 0, 1: 0}
    assert {ctx for call, ctx in drv.log if call != "cuCtxSetCurrent"} <= {"ctx0", "ctx1"}


def test_timing_makes_its_events_in_its_devices_context():
    drv = TwoGpus()
    with Device(0, drv) as d0, Device(1, drv) as d1:
        d0.hold = lambda ms: False
        DeviceBuffer(d1, 64).free()   # (d1's context current now)
        time_launches(d0, lambda: None, iters=2, warmup=0)
    assert {ctx for call, ctx in drv.log if call in ("cuEventCreate", "cuEventRecord")} == {"ctx0"}


def test_a_new_thread_gets_the_context_made_current_too():
    """The driver's current context is per thread: a Device opened in one thread and used in
    another makes its context current there (else cuMemAlloc: CUDA_ERROR_INVALID_CONTEXT)."""
    drv = TwoGpus()
    with Device(0, drv) as d0:
        done = []
        thread = threading.Thread(target=lambda: done.append(DeviceBuffer(d0, 64)))
        thread.start(), thread.join()
        assert done and drv.owner[done[0].ptr] == "ctx0"


def test_use_after_close_is_refused_before_the_driver(image):
    drv = TwoGpus()
    with Device(0, drv) as d:
        buf = DeviceBuffer(d, 64)
        view = buf.view(16)
        view_of_view = view.view(8)
        m = Module(d, image)
        fn = m.function(NAIVE.entry)
        buf.free()
        for use in (lambda: view.copy_from_host(np.zeros(4, np.float32)), lambda: buf.view(0),
                    lambda: view.to_array(), lambda: view_of_view.copy_from_host(np.zeros(2, np.float32))):
            with pytest.raises(Closed, match="freed"):
                use()
        m.unload()
        with pytest.raises(Closed, match="unloaded"):
            launcher(fn, Geometry((1, 1, 1), (1, 1, 1)), KernelArgs([]))
        kept = DeviceBuffer(d, 64)
    with pytest.raises(Closed, match="Device was closed"):
        kept.copy_from_host(np.zeros(4, np.float32))
    calls = [call for call, _ in drv.log]
    assert "cuLaunchKernel" not in calls and calls.count("cuMemcpyHtoD") == 0


@pytest.mark.parametrize("grid,block,smem,needle", [
    ((4,), (256, 1, 1), 0, r"grid \(4,\): give three whole numbers"),        # (CuPy's short grid)
    ((4, 1), (16, 16, 1), 0, r"grid \(4, 1\): give three"),
    ((4, 1, 1, 1), (256, 1, 1), 0, "grid .*: give three"),
    ((1, 1, 1), (256,), 0, r"block \(256,\): give three whole numbers"),
    (("8", 1, 1), (256, 1, 1), 0, "grid .*: give three"),
    ((1.5, 1, 1), (256, 1, 1), 0, "grid .*: give three"),
    ((True, 1, 1), (256, 1, 1), 0, "grid .*: give three"),
    (5, (256, 1, 1), 0, "grid 5: give three"),
    ((1, 1, 1), (256, 1, 1), -5, "smem_bytes -5: .*whole number of bytes ≥ 0"),
    ((1, 1, 1), (256, 1, 1), 1.5, "smem_bytes 1.5"),
    ((0, 1, 1), (256, 1, 1), 0, "≥ 1"),
    ((1, 1, 1), (-1, 1, 1), 0, "≥ 1"),
])
def test_a_malformed_launch_is_refused_before_the_driver_sees_it(image, grid, block, smem, needle):
    """launch() and launcher() take grid and block as three whole numbers each, as cuLaunchKernel
    does: a short tuple would shift the ctypes backend's arguments (smem into block.z), a string or
    a float reach the driver as a raw TypeError."""
    drv = TwoGpus()
    with Device(0, drv) as d, Module(d, image) as m:
        fn = m.function(NAIVE.entry)
        args = [np.uint64(0)] * 3 + [np.int32(1)] * 3
        with pytest.raises(UsageError, match=needle):
            runtime.launch(fn, grid, block, args, smem)
        with pytest.raises(UsageError, match=needle):
            launcher(fn, Geometry(grid, block, smem), KernelArgs(args))
        assert "cuLaunchKernel" not in [call for call, _ in drv.log]
        runtime.launch(fn, [1, 1, 1], np.array([16, 16, 1]), args)   # (a list or an array of three: fine)
    assert "cuLaunchKernel" in [call for call, _ in drv.log]


def test_kernel_args_and_tensor_maps_name_a_wrong_argument():
    from tcraw.driver.constants import TMA_FP16
    for values in (5, None, "abc", np.zeros(3), {"A": 1}, {np.int32(1)}):
        with pytest.raises(UsageError, match="KernelArgs takes a list"):
            KernelArgs(values)
    assert len(KernelArgs(v for v in (np.int32(1), np.float32(2))).values) == 2   # (any iterable of them)
    drv = TwoGpus()
    with Device(0, drv) as d:
        buf = DeviceBuffer(d, 64 * 64 * 2)
        for args, needle in [((None, TMA_FP16, 64, 64, 64, 64), "describes a DeviceBuffer, got NoneType"),
                             ((buf, 2, 64, 64, 64, 64), r"element is \(CUtensorMapDataType, bytes\).*got 2"),
                             ((buf, TMA_FP16, 64, 64.0, 64, 64), "got cols 64.0"),
                             ((buf, TMA_FP16, 64, 64, 0, 64), "got box_rows 0"),
                             ((buf, TMA_FP16, 64, 64, 512, 64), "box_rows at most 256.*got box_rows 512")]:
            with pytest.raises(UsageError, match=needle):
                runtime.TensorMap(*args)
        with pytest.raises(UsageError, match="where given: got pitch -16$"):
            runtime.TensorMap(buf, TMA_FP16, 64, 64, 64, 64, pitch=-16)
        buf.free()


@pytest.mark.parametrize("fail", ["cuCtxSetCurrent", "cuDeviceGetAttribute"])
def test_a_device_that_fails_to_open_releases_its_context(fail):
    drv = TwoGpus(fail=fail)
    with pytest.raises(CudaError, match="injected"):
        Device(0, drv)
    assert drv.retained == {0: 0, 1: 0}


def test_time_launches_releases_every_event_when_one_cannot_be_made():
    drv = TwoGpus()
    with Device(0, drv) as d:
        made = 0

        def event_create():
            nonlocal made
            made += 1
            if made == 6:
                raise CudaError("cuEventCreate", 2, "CUDA_ERROR_OUT_OF_MEMORY", "injected")
            return TwoGpus.event_create(drv)

        drv.event_create = event_create
        d.hold = lambda ms: False
        with pytest.raises(CudaError, match="injected"):
            time_launches(d, lambda: None, iters=4, warmup=0)
    assert drv.owner == {}
