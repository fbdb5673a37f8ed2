"""What this machine gives tcraw (`tcraw info`): the driver backend, the CUDA toolchain chosen,
NVRTC and its archs, the CUDA headers, cuobjdump, the cuBLAS the yardstick would time, the cubin
cache and — where there is one — the GPU. Each part that is missing is said in a ``*_problem``
key, never raised: a machine without a GPU or NVRTC still has the rest to tell."""

from . import driver, validate
from .errors import NoDeviceError, NoNvrtcError, TcrawError, UsageError


def machine_info(device_index=0, open_device=None):
    """`tcraw info` as a dict (its JSON): ``gpu`` None with ``gpu_problem`` when GPU
    ``device_index`` cannot be opened (no driver, no GPU); an index that is no index is a
    UsageError on any machine. ``open_device``: what opens it (runtime.Device)."""
    from . import compiler
    from .cache import cache_dir
    from .driver.cublas import library_info
    from .sass import find_cuobjdump
    from .toolchain import choose
    validate.device_index(device_index)
    if open_device is not None and not callable(open_device):
        raise UsageError(f"open_device is None (tcraw.Device) or what opens GPU i, not {open_device!r:.80}")
    info = {"backend": driver.get_backend().name, "backend_chosen_by": driver.default_backend_name()[1]}
    info["toolchain"] = choose().as_dict()
    info["cuda_bindings"] = info["toolchain"]["cuda_bindings"]   # kept at the top level too, as before
    try:
        major, minor = compiler.nvrtc_version()
        info["nvrtc"] = f"{major}.{minor}"
        info["nvrtc_archs"] = [str(a) for a in compiler.supported_archs()]
    except (NoNvrtcError, UsageError) as exc:  # cubin-only machines, a mixed toolchain: say so, keep going
        info["nvrtc"], info["nvrtc_archs"], info["nvrtc_problem"] = None, [], str(exc)
    try:
        info["include_dirs"] = [str(d) for d in compiler.find_include_dirs()]
    except TcrawError as exc:
        info["include_dirs"] = None
        info["include_problem"] = str(exc)
    info["cuobjdump"] = find_cuobjdump()
    info["cublas"], problem = library_info()   # (which cuBLAS the yardstick times: its rates vary by build)
    if problem:
        info["cublas_problem"] = problem
    info["cuda_src"] = str(compiler.CUDA_SRC)
    info["cache_dir"] = None if validate.env_flag("TCRAW_NO_CACHE") else str(cache_dir())
    try:
        info["gpu"] = gpu_info(device_index, open_device)
    except NoDeviceError as exc:
        info["gpu"] = None
        info["gpu_problem"] = str(exc)
    return info


def gpu_info(device_index=0, open_device=None):
    """GPU ``device_index``'s name, arch, SMs, clocks, memory, L2, the driver's CUDA version and
    the peak TFLOP/s of each precision it has tensor cores for."""
    from .precision import PRECISIONS
    from .runtime import Device
    from .toolchain import cuda_version
    with (open_device or Device)(device_index) as dev:
        return {
            "index": dev.ordinal, "name": dev.name, "arch": str(dev.arch), "sms": dev.sm_count,
            "sm_clock_mhz": dev.clock_khz / 1e3, "mem_clock_mhz": dev.mem_clock_khz / 1e3,
            "memory_gib": round(dev.total_mem / 2**30, 1), "l2_mib": dev.l2_bytes / 2**20,
            "driver_cuda": "{}.{}".format(*cuda_version(dev.drv.driver_version())),
            "peak_tflops": {p.key: round(t, 1) for p in PRECISIONS.values() if (t := dev.peak_tflops(p)) is not None},
        }
