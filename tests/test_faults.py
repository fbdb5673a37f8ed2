"""Bad input, faults and leaks on the GPU: typed errors, no launch on wrong input, nothing lost."""

import json
import subprocess
import sys

import numpy as np
import pytest

from tcraw import compiler, kernels
from tcraw.errors import OutOfMemory, UsageError
from tcraw.kernels import Geometry
from tcraw.matmul import matmul_launcher, run_matmul, timed
from tcraw.precision import base_matrices, host_problem
from tcraw.runtime import Closed, DeviceBuffer, KernelArgs, Module, launcher

pytestmark = pytest.mark.gpu

FP16 = kernels.KERNELS["wmma_fp16"]
NAIVE = kernels.KERNELS["naive_fp32"]

# Same name and signature as 01's kernel, but it writes through a null-page pointer.
FAULTY_NAIVE = ('extern "C" __global__ void naive_fp32(const float* A, const float* B, float* C,'
                ' int M, int N, int K) { ((volatile float*)0x10)[threadIdx.x] = 1.0f; }\n')


@pytest.fixture
def naive(device, cubins):
    with Module(device, cubins["naive_fp32"].image) as mod:
        yield mod.function("naive_fp32")


def buffers(device, m, n, k, kernel=FP16):
    p = kernel.precision
    return [DeviceBuffer(device, rows * cols * dt.itemsize, dt) for rows, cols, dt in
            ((m, k, p.in_dtype), (k, n, p.in_dtype), (m, n, p.out_dtype))]


def still_poisoned(buf, dtype, count):
    out = np.empty(count, dtype=dtype)
    buf.copy_to_host(out)
    return np.isnan(out).all()


# -- 4. launch geometry ------------------------------------------------------------------------

@pytest.mark.parametrize("geometry,needle", [
    (Geometry((0, 1, 1), (16, 16, 1)), "≥ 1"),
    (Geometry((1, 1, 1), (-1, 1, 1)), "≥ 1"),
    (Geometry((1, 1, 1), (64, 32, 1)), "threads"),
    (Geometry((1, 70000, 1), (16, 16, 1)), "grid"),
    (Geometry((1, 1, 1), (16, 16, 1), 300 * 1024), "per-block limit"),
    (Geometry((1, 1, 1), (16, 16, 1), 64 * 1024), "set_max_dynamic_smem"),
])
def test_bad_geometry_is_refused_before_launch(device, naive, geometry, needle):
    args = KernelArgs([np.uint64(0), np.uint64(0), np.uint64(0), np.int32(1), np.int32(1), np.int32(1)])
    with pytest.raises(UsageError, match=needle):
        launcher(naive, geometry, args)


def test_raising_the_smem_attribute_allows_more_than_48k(device, naive):
    """Refused at 48 KiB, accepted once raised: the driver reads the new limit back, and a launch
    with 64 KiB of dynamic shared memory then runs (M = N = 0: it writes nothing)."""
    geometry = Geometry((1, 1, 1), (16, 16, 1), 64 * 1024)
    args = KernelArgs([np.uint64(0), np.uint64(0), np.uint64(0), np.int32(0), np.int32(0), np.int32(0)])
    with pytest.raises(UsageError, match="set_max_dynamic_smem"):
        launcher(naive, geometry, args)
    naive.set_max_dynamic_smem(64 * 1024)
    from tcraw.driver import constants as C
    assert device.drv.func_get_attribute(naive.handle, C.FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES) == 64 * 1024
    launcher(naive, geometry, args)()
    device.synchronize()


# -- 5. kernel arguments -----------------------------------------------------------------------

def test_wrong_argument_count_and_size(device, naive):
    assert naive.param_sizes == [8, 8, 8, 4, 4, 4]
    g = Geometry((1, 1, 1), (16, 16, 1))
    with pytest.raises(UsageError, match="takes 6 arguments"):
        launcher(naive, g, KernelArgs([np.uint64(0), np.int32(1)]))
    with pytest.raises(UsageError, match="argument 3 of naive_fp32 is 4 bytes"):
        launcher(naive, g, KernelArgs([np.uint64(0)] * 3 + [np.int64(1), np.int32(1), np.int32(1)]))


def test_bare_python_int_is_refused():
    with pytest.raises(UsageError, match="bare Python int"):
        KernelArgs([3])


# -- 6. buffers ----------------------------------------------------------------------------------

def test_wrong_dtype_small_buffer_misaligned_pointer_bad_ld(device, cubins):
    m = n = k = 32
    with Module(device, cubins["wmma_fp16"].image) as mod:
        fn = mod.function(FP16.entry)
        a, b, c = buffers(device, m, n, k)
        c.poison(np.float32)
        wrong_type = DeviceBuffer(device, a.nbytes * 2, np.float32)
        too_small = DeviceBuffer(device, a.nbytes // 2, np.float16)
        roomy = DeviceBuffer(device, 2 * a.nbytes, np.float16)
        bad_cases = [
            ((wrong_type, b, c, m, n, k), "needs float16"),
            ((too_small, b, c, m, n, k), "need 2048"),
            ((roomy.view(16), b, c, m, n, k), "not 32-byte aligned"),
            ((a, b, c, m, n, 24), "multiples"),
        ]
        for operands, needle in bad_cases:
            with pytest.raises(UsageError, match=needle):
                matmul_launcher(FP16, fn, *operands)
        assert still_poisoned(c, np.float32, m * n), "a refused launch wrote the output"
        for buf in (a, b, c, wrong_type, too_small, roomy):
            buf.free()


# -- 7. sizes and memory ---------------------------------------------------------------------------

def test_out_of_memory_is_typed_and_not_sticky(device, cubins, host_problems):
    free, total = device.mem_info()
    with pytest.raises(OutOfMemory, match="GiB free"):
        DeviceBuffer(device, total + 2**30)
    rec = run_matmul(device, NAIVE, host_problems("fp32", 64, 64, 64, "normal"), iters=1, warmup=0,
                     cubin=cubins["naive_fp32"])
    assert rec.passed


def test_cli_refuses_a_problem_larger_than_the_gpu(device):
    p = subprocess.run([sys.executable, "-m", "tcraw", "run", "--size", "400000", "--backend", device.drv.name],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and "GiB" in p.stderr and "Traceback" not in p.stderr


# -- 8. a kernel that faults ----------------------------------------------------------------------

@pytest.fixture
def faulty_cubins(device, cubins, tmp_path):
    """A cubin dir whose naive_fp32 faults and whose wmma_fp16 is the real one."""
    image, _ = compiler.nvrtc_compile(device.drv, FAULTY_NAIVE, "faulty.cu",
                                      [f"--gpu-architecture={device.arch}"])
    (tmp_path / f"naive_fp32.{device.arch}.cubin").write_bytes(image)
    (tmp_path / f"wmma_fp16.{device.arch}.cubin").write_bytes(cubins["wmma_fp16"].image)
    return tmp_path


def test_isolate_keeps_the_other_kernels(device, faulty_cubins):
    p = subprocess.run([sys.executable, "-m", "tcraw", "run", "--size", "128", "--isolate", "--format",
                        "json", "--cubin-dir", str(faulty_cubins), "--backend", device.drv.name],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 1
    rows = {r["kernel"]: r for r in json.loads(p.stdout)}
    assert not rows["naive_fp32"]["passed"] and "ILLEGAL_ADDRESS" in rows["naive_fp32"]["error"]
    assert "context" in rows["naive_fp32"]["error"]
    assert rows["wmma_fp16"]["passed"]


def test_fault_without_isolation_names_the_kernel_and_the_lost_context(device, faulty_cubins):
    p = subprocess.run([sys.executable, "-m", "tcraw", "run", "--size", "128", "--format", "json",
                        "--cubin-dir", str(faulty_cubins), "--backend", device.drv.name],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 1 and "Traceback" not in p.stderr
    assert "kernel naive_fp32 faulted" in p.stderr and "context" in p.stderr
    assert len(json.loads(p.stdout)) == 2  # both rows reported, the second failed on the dead context


# -- 9. hygiene ---------------------------------------------------------------------------------------

def test_cycles_leak_nothing(device, cubins):
    image = cubins["naive_fp32"].image
    a = np.ones((32, 32), dtype=np.float32)

    def cycle():
        with Module(device, image) as mod:
            fn = mod.function("naive_fp32")
            for _ in range(10):
                with DeviceBuffer.like(device, a) as da, DeviceBuffer.like(device, a) as db, \
                        DeviceBuffer.like(device, a) as dc:
                    da.copy_from_host(a)
                    db.copy_from_host(a)
                    timed(device, NAIVE.name, [matmul_launcher(NAIVE, fn, da, db, dc, 32, 32, 32)], 1, 0)
                    dc.copy_to_host(np.empty_like(a))
    cycle()  # let the driver's pools reach their steady size
    device.synchronize()
    before = device.mem_info()[0]
    for _ in range(100):   # 100 module load/unload cycles, 1000 alloc/copy/launch/free cycles
        cycle()
    device.synchronize()
    assert device.mem_info()[0] == before


def test_close_twice_is_safe_and_use_after_close_raises(device):
    buf = DeviceBuffer(device, 1024)
    buf.free()
    buf.free()
    with pytest.raises(Closed):
        buf.copy_to_host(np.empty(4, dtype=np.float32))


def test_exit_without_cleanup_is_quiet(device, cubins, tmp_path):
    cubin = tmp_path / "k.cubin"
    cubin.write_bytes(cubins["naive_fp32"].image)
    script = (f"from tcraw.runtime import Device, DeviceBuffer, Module\n"
              f"d = Device(0, backend={device.drv.name!r})\n"
              f"b = DeviceBuffer(d, 1 << 20)\n"
              f"m = Module(d, open({str(cubin)!r}, 'rb').read())\n"
              f"f = m.function('naive_fp32')\n")
    p = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and p.stderr == ""


# -- 12. NaN and Inf propagate -----------------------------------------------------------------------

# (int8 has no NaN or Inf and FP8 no Inf it keeps: those inputs are refused before any GPU work,
# which test_precision checks; FP8's NaN has a code and must propagate)
@pytest.mark.parametrize("name", [k for k, kernel in kernels.KERNELS.items() if kernel.precision.keeps_nan])
def test_nan_and_inf_propagate(device, cubins, name):
    kernel = kernels.KERNELS[name]
    if name not in cubins:
        pytest.skip(f"{name} does not run on {device.arch}")
    p = kernel.precision
    a, b = base_matrices(40, 50, 60, "normal", 7)
    a[3, 5] = np.nan
    if p.keeps_inf:
        b[7, 2] = np.inf
    hp = host_problem(p, a, b, "normal")
    rec, c = run_matmul(device, kernel, hp, iters=1, warmup=0, cubin=cubins[name], keep_output=True)
    c = p.out_to_f64(c)
    assert np.isnan(c[3]).all()
    if p.keeps_inf:
        assert np.isinf(np.delete(c[:, 2], 3)).all()
    assert rec.passed, rec
