"""tcraw: tensor-core matmul kernels compiled with NVRTC and run through the raw CUDA driver API.

The flow, one module per step: compiler (NVRTC → cubin) · runtime (device, buffers, modules,
launch, events) · kernel (what a kernel is) · kernels (the registry, and your own kernels; 06/07's
configurations and picks in wgmma, 09/10's in small_m) · precision (quantization, reference, error
model) · matmul (one run) · sweep, bench, check (many) · report · cli. Every cu*/nvrtc* call lives
in tcraw.driver.

Two levels, both public (README, "Python API"):
- any kernel: ``compile_source`` → ``Cubin``; ``Device``; ``Module`` → ``Function``;
  ``DeviceBuffer``; ``launch`` / ``launcher`` with explicit grid, block and shared memory;
  ``time_launches`` (CUDA events).
- matmul kernels: ``Kernel`` (declared once: source, entry, precision, geometry, tile, ...),
  ``load_spec``; ``compile_table``, ``run_problem``, ``run_sweep``, ``bench_vs_cublas`` and
  ``check_kernels`` do what `tcraw compile / run / sweep / bench / check` do and return the same
  records (``parse_shapes`` and ``suite_summary`` for `bench --shapes`); ``run_matmul`` and
  ``make_problem`` are one kernel on one problem; ``run_profile`` and ``roofline_png`` are
  `tcraw profile`; ``machine_info`` is `tcraw info` and ``cache_report`` `tcraw cache`.
"""

from .check import battery, check_in_process, check_isolated, check_kernels
from .compiler import Arch, Cubin, compile_cubin, compile_source, compile_table, parse_archs
from .driver import get_backend
from .errors import (ArchError, CompileError, CubinError, CudaError, KernelFault, NoDeviceError, UnknownName,
                     MissingHeaderError, MissingToolError, NoNvrtcError, NvrtcPathError, OutOfMemory, TcrawError,
                     UsageError)
from .kernel import Geometry, Kernel
from .kernels import KERNELS, get_kernel, load_spec, select, tile_geometry, user_kernel
from .matmul import Record, make_problem, run_matmul
from .precision import PRECISIONS, base_matrices
from .runtime import (Device, DeviceBuffer, Function, KernelArgs, Module, TensorMap, launch, launcher,
                      time_launches)
from .bench import SUITES, bench_plan, bench_vs_cublas, parse_shapes, run_bench, run_plan, suite_summary
from .sweep import run_isolated, run_kernels, run_problem, run_sweep
from .profile import roofline_png, run_profile
from .machine import machine_info
from .cache import cache_report

__version__ = "0.1.0"

__all__ = [
    # any kernel
    "compile_source", "Cubin", "Arch", "Device", "DeviceBuffer", "Module", "Function", "KernelArgs",
    "TensorMap", "Geometry", "launch", "launcher", "time_launches", "get_backend",
    # matmul kernels: declared once, run, swept, benchmarked, judged
    "Kernel", "KERNELS", "get_kernel", "select", "load_spec", "user_kernel", "tile_geometry",
    "compile_cubin", "compile_table", "parse_archs", "PRECISIONS", "base_matrices", "make_problem", "run_matmul",
    "run_problem", "run_sweep", "bench_vs_cublas", "bench_plan", "run_plan", "check_kernels", "run_kernels",
    "run_isolated",
    "run_bench", "SUITES", "parse_shapes", "suite_summary", "battery", "check_in_process",
    "check_isolated", "Record", "run_profile", "roofline_png",
    # the machine and the cubin cache: `tcraw info`, `tcraw cache`
    "machine_info", "cache_report",
    # errors
    "TcrawError", "UsageError", "ArchError", "CompileError", "CubinError", "CudaError", "KernelFault",
    "NoDeviceError", "NoNvrtcError", "NvrtcPathError", "MissingHeaderError", "MissingToolError", "OutOfMemory",
    "UnknownName",
]
