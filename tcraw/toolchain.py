"""One CUDA toolchain at a time: NVRTC, its headers and cuda-bindings from the same CUDA major.

NVIDIA documents compatibility within a major only: CUDA 13 needs a driver ≥ 580, CUDA 12 runs on
525–579, and NVRTC 13 dropped sm_50 … sm_72 (Maxwell, Pascal, Volta), which NVRTC 12 still
targets. tcraw installs the CUDA 13 stack by default and the CUDA 12 one with the ``cu12`` extra;
both may sit side by side, and this module picks one, deliberately, in this order:

1. ``$TCRAW_CUDA`` (12 or 13) — the user said so;
2. the driver's CUDA major, when a driver is present and that stack is installed;
3. the major of the installed cuda-bindings, when that stack is installed;
4. the newest installed stack.

The two wheel layouts: CUDA 13 puts NVRTC and every header under ``nvidia/cu13/{lib,include}``
(``crt/mma.h`` from nvidia-cuda-crt); CUDA 12 splits them — ``nvidia/cuda_nvrtc/lib``,
``nvidia/cuda_runtime/include`` (mma.h, cuda_fp16.h) and ``nvidia/cuda_nvcc/include``
(crt/mma.h). CCCL — <cuda/barrier>, <cuda/pipeline>, and the nv/target that cooperative_groups
includes — is ``include/cccl`` in CUDA 13 (wheel and toolkit alike) and ``nvidia/cuda_cccl/include``
in CUDA 12. A toolkit under CUDA_HOME / CUDA_PATH / /usr/local/cuda counts as its own major.
"""

import importlib.metadata as md
import json
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from .driver import library_file
from .errors import UsageError

MAJORS = (12, 13)
# The oldest driver branch each CUDA major runs on (CUDA 13: 580; CUDA 12: 525).
MIN_DRIVER = {12: "525", 13: "580"}


@dataclass
class Stack:
    """One installed CUDA major: where its NVRTC library and its headers are."""

    major: int
    nvrtc: str | None
    include_dirs: list = field(default_factory=list)
    where: str = "wheels"


def _site_dirs():
    return [Path(p) for p in sys.path if p and Path(p, "nvidia").is_dir()]


def installed_stacks():
    """{major: Stack} for the CUDA stacks found in pip wheels and in a toolkit directory."""
    stacks = {}
    for site in _site_dirs():
        nv = site / "nvidia"
        if 13 not in stacks and (nv / "cu13").is_dir():
            lib = library_file([str(nv / "cu13" / "lib" / "libnvrtc.so.13*")])
            stacks[13] = Stack(13, lib, [nv / "cu13" / "include"], "wheels")
        if 12 not in stacks and (nv / "cuda_nvrtc").is_dir():
            lib = library_file([str(nv / "cuda_nvrtc" / "lib" / "libnvrtc.so.12*")])
            cccl = [nv / "cuda_cccl" / "include"] if (nv / "cuda_cccl" / "include").is_dir() else []
            stacks[12] = Stack(12, lib, [nv / "cuda_runtime" / "include", nv / "cuda_nvcc" / "include", *cccl],
                               "wheels")
    for var in ("CUDA_HOME", "CUDA_PATH", None):
        root = Path(os.environ[var]) if var and os.environ.get(var) else (None if var else Path("/usr/local/cuda"))
        major = toolkit_major(root) if root else None
        if major in MAJORS and major not in stacks:
            lib = library_file([str(root / "lib64" / f"libnvrtc.so.{major}*"), str(root / "lib64" / "libnvrtc.so")])
            stacks[major] = Stack(major, lib, [root / "include"], str(root))
    return stacks


def toolkit_major(root):
    """The CUDA major of a toolkit directory (version.json), or None."""
    try:
        return int(json.loads((Path(root) / "version.json").read_text())["cuda"]["version"].split(".")[0])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def bindings_version():
    """cuda-bindings' version string, or None when it is not installed."""
    try:
        return md.version("cuda-bindings")
    except md.PackageNotFoundError:
        return None


def driver_cuda_version():
    """(major, minor) of the CUDA version the driver supports, or None without a driver. Asked
    through the seam's ctypes backend: it needs libcuda.so.1 only, not cuda-bindings nor cuInit."""
    from .driver import get_backend
    from .errors import CudaError, NoDeviceError
    try:
        v = get_backend("ctypes", trace=False).driver_version()
    except (NoDeviceError, CudaError, OSError):
        return None
    return cuda_version(v)


def cuda_version(v):
    """(major, minor) of a CUDA version as the driver API reports it (13000 → (13, 0))."""
    return v // 1000, v % 1000 // 10


@dataclass
class Toolchain:
    """The chosen stack and why; what `tcraw info` shows."""

    major: int
    chosen_by: str
    stack: Stack | None
    bindings: str | None
    driver: tuple | None

    @property
    def bindings_major(self):
        return int(self.bindings.split(".")[0]) if self.bindings else None

    def as_dict(self):
        return {"cuda_major": self.major, "chosen_by": self.chosen_by,
                "nvrtc_library": self.stack.nvrtc if self.stack else None,
                "include_dirs": [str(d) for d in self.stack.include_dirs] if self.stack else [],
                "stack_from": self.stack.where if self.stack else None, "cuda_bindings": self.bindings,
                "driver_cuda": ".".join(map(str, self.driver)) if self.driver else None}


_chosen = {}


def requested_major():
    """The CUDA major $TCRAW_CUDA asks for (12 or 13), None where it is unset or blank; any other
    value a UsageError (the CLI asks before any work, whether or not the command compiles)."""
    key = os.environ.get("TCRAW_CUDA", "")
    if not key.strip():
        return None
    if key.strip() not in map(str, MAJORS):
        raise UsageError(f"TCRAW_CUDA={key!r}: set it to 12 or 13 (the CUDA major whose NVRTC, "
                         "headers and cuda-bindings tcraw uses), or unset it")
    return int(key)


def choose(refresh=False):
    """The toolchain this process uses (made once; ``refresh`` to look again)."""
    key = os.environ.get("TCRAW_CUDA", "")
    if key in _chosen and not refresh:
        return _chosen[key]
    stacks, bindings, driver = installed_stacks(), bindings_version(), driver_cuda_version()
    if (major := requested_major()) is not None:
        why = "TCRAW_CUDA"
    elif driver and driver[0] in stacks:
        major, why = driver[0], f"the driver (CUDA {driver[0]}.{driver[1]})"
    elif bindings and int(bindings.split(".")[0]) in stacks:
        major, why = int(bindings.split(".")[0]), f"cuda-bindings {bindings}"
    elif stacks:
        major, why = max(stacks), "the newest installed stack"
    else:
        major, why = 13, "nothing installed: CUDA 13 is tcraw's default"
    _chosen[key] = Toolchain(major, why, stacks.get(major), bindings, driver)
    return _chosen[key]


def install_hint(major):
    """The command that installs the CUDA ``major`` stack beside tcraw."""
    return ("pip install 'tcraw[cu12]' (or `make install CUDA=12`), then TCRAW_CUDA=12" if major == 12
            else "pip install 'tcraw[cu13]' (or `make install CUDA=13`), then TCRAW_CUDA=13")


def check_nvrtc_matches(nvrtc_version, source):
    """Refuse an NVRTC whose major is not the toolchain's: its headers would be the other major's."""
    tc = choose()
    # Both stacks installed, and cuda.bindings loaded the other major's NVRTC: the chosen one is here already
    if nvrtc_version[0] != tc.major and tc.stack and source.startswith("the bindings backend"):
        raise UsageError(f"NVRTC {nvrtc_version[0]}.{nvrtc_version[1]} ({source}) is not the chosen CUDA "
                         f"{tc.major} toolchain (chosen by {tc.chosen_by}), whose NVRTC is installed here: the "
                         f"ctypes backend loads it by path — drop --backend bindings (or TCRAW_BACKEND), or "
                         f"set TCRAW_CUDA={nvrtc_version[0]} to use CUDA {nvrtc_version[0]}'s stack")
    if nvrtc_version[0] != tc.major:
        raise UsageError(f"NVRTC {nvrtc_version[0]}.{nvrtc_version[1]} ({source}) is not the chosen CUDA "
                         f"{tc.major} toolchain (chosen by {tc.chosen_by}), whose headers it would compile "
                         f"against; set TCRAW_CUDA={nvrtc_version[0]} to use CUDA {nvrtc_version[0]}'s stack with "
                         f"it, or drop {source} and have CUDA {tc.major}'s NVRTC: {install_hint(tc.major)}")


def cubin_cuda_version(image):
    """(major, minor) of the toolkit that built a cubin, or (major, None), or None when it does not
    say. CUDA 13 cubins carry "release 13.x" in .note.nv.tkinfo; CUDA 12's NVRTC writes no such
    note, but with -lineinfo the cubin keeps its PTX, whose ISA version gives the major (PTX 8.x
    is CUDA 12, PTX 9.x CUDA 13)."""
    from .cubin import sections
    from .errors import CubinError
    try:
        secs = sections(image)
    except CubinError:
        return None

    def text(name):
        sec = secs.get(name)
        return bytes(image[sec.offset:sec.offset + sec.size]) if sec else b""
    if (m := re.search(rb"release (\d+)\.(\d+)", text(".note.nv.tkinfo"))):
        return int(m.group(1)), int(m.group(2))
    if (m := re.search(rb"\.version (\d+)\.(\d+)", text(".nv_debug_ptx_txt"))):
        return int(m.group(1)) + 4, None
    return None
