"""The error types tcraw raises. Each carries the exit code the CLI turns it into.

Every message says what was wrong and what would fix it; the CLI prints it on one line
of stderr, never as a traceback.
"""


class TcrawError(Exception):
    """Base of every error tcraw raises on purpose."""

    exit_code = 1


class UsageError(TcrawError):
    """Bad input from the caller: a size, a name, an arch, a flag. Nothing was launched."""

    exit_code = 2


class UnknownName(UsageError, KeyError):
    """A name that is not in one of tcraw's tables (tcraw.KERNELS["wmma_fp61"]): a KeyError as a
    dict's, and a UsageError whose message lists the names there are."""

    __str__ = Exception.__str__   # (KeyError's own would quote the whole message)


class NamedTable(dict):
    """A dict of tcraw's named things (KERNELS, PRECISIONS, SUITES) whose missing key is an
    UnknownName naming the nearest keys and all of them, not a bare KeyError."""

    def __init__(self, what, items):
        super().__init__(items)
        self.what = what

    def __missing__(self, key):
        from .validate import close_to
        raise UnknownName(f"unknown {self.what} {key!r}{close_to(key, self)}; known: {', '.join(map(str, self))}")


class ArchError(UsageError):
    """A kernel asked for on an architecture below its minimum or one NVRTC cannot target."""


class CubinError(UsageError):
    """A cubin that cannot be read: not an ELF, truncated, not a CUDA image, or without the
    kernel entry asked for. The message names the file (when there is one) and what to rebuild."""


class NoDeviceError(TcrawError):
    """No CUDA driver, or a driver that reports no GPU. (A device index that does not exist is a
    UsageError: the request is wrong, not the machine.)"""

    exit_code = 3


class MissingHeaderError(TcrawError):
    """A CUDA header the kernel includes could not be found in any known place."""

    exit_code = 2


class NoNvrtcError(TcrawError):
    """libnvrtc could not be loaded: compiling is impossible here (prebuilt cubins still run)."""

    exit_code = 3


class NvrtcPathError(UsageError):
    """$TCRAW_NVRTC_LIBRARY names no usable NVRTC: the variable is wrong (exit 2), and nothing can
    be compiled until it is set right — not one kernel's refusal."""


class MissingToolError(TcrawError):
    """A CUDA tool a command runs is not on this machine — compute-sanitizer for `check --sanitize`,
    ncu for `profile` (profile.NcuNotFound) —: the request was fine, the machine lacks the tool;
    exit 3, like a missing driver or NVRTC."""

    exit_code = 3


def no_driver(why):
    """The NoDeviceError both backends raise when libcuda.so.1 cannot be loaded."""
    return NoDeviceError(
        f"no CUDA driver on this machine: libcuda.so.1 could not be loaded ({why}); GPU commands "
        "need an NVIDIA GPU and its driver. `tcraw compile` and `tcraw list` work without one")


def no_nvrtc(why):
    """The NoNvrtcError both backends raise when libnvrtc cannot be loaded."""
    return NoNvrtcError(
        f"NVRTC is not available ({why}); install it with `pip install "
        "'cuda-toolkit[nvrtc,cudart,crt]'` (or set TCRAW_NVRTC_LIBRARY for the ctypes backend), or "
        "run prebuilt cubins with `tcraw run --cubin-dir DIR` (made by `tcraw compile --out DIR` "
        "or `make cubins`)")


class CudaError(TcrawError):
    """A CUDA driver or NVRTC call returned an error code.

    ``call`` is the API function, ``name`` the result code's name (CUDA_ERROR_OUT_OF_MEMORY,
    NVRTC_ERROR_COMPILATION, ...), ``code`` its number, and ``log`` the NVRTC program log
    when there is one.
    """

    def __init__(self, call, name, code, detail="", log=""):
        self.call, self.name, self.code, self.detail, self.log = call, name, code, detail, log
        msg = f"{call} failed: {name} ({code})"
        if detail:
            msg += f": {detail}"
        if log:
            msg += "\n" + log.rstrip()
        super().__init__(msg)


class OutOfMemory(TcrawError):
    """The GPU has too little free memory for what was asked. Not sticky: the next run works."""

    exit_code = 2


class KernelFault(TcrawError):
    """A kernel faulted (illegal address, misaligned access, trap...). The error is sticky:
    the CUDA context of this process is lost, so nothing else can run in it."""


# Driver errors after which the context is unusable until the process ends.
STICKY = {"CUDA_ERROR_ILLEGAL_ADDRESS", "CUDA_ERROR_LAUNCH_FAILED", "CUDA_ERROR_MISALIGNED_ADDRESS",
          "CUDA_ERROR_ILLEGAL_INSTRUCTION", "CUDA_ERROR_HARDWARE_STACK_ERROR", "CUDA_ERROR_INVALID_PC",
          "CUDA_ERROR_INVALID_ADDRESS_SPACE", "CUDA_ERROR_ASSERT", "CUDA_ERROR_TRAP"}


class CompileError(CudaError):
    """NVRTC refused a source. The message holds the file, the options and the full log."""

    exit_code = 2


def run_main(prog, main):
    """A script's entry point: run ``main()``; a TcrawError becomes one line on stderr, prefixed
    with ``prog``, and the exit code the error carries (2 bad input, 3 no GPU), never a traceback;
    a reader that leaves (``| head``) ends it quietly, exit 0."""
    import sys
    try:
        main()
    except TcrawError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        sys.exit(exc.exit_code)
    except BrokenPipeError:   # `script ... | head`: the reader left; not an error (as the CLI's main)
        sys.stderr.close()
        sys.exit(0)
