"""NVRTC: CUDA C++ from cuda_src/ to a cubin for one architecture, with its resource usage.

Steps: find the CUDA headers the source includes → build the options → compile through the
seam → read registers / shared memory / stack from the cubin and spills from the ptxas log
(-Xptxas=-v costs nothing and needs no GPU, so the resource table works on any machine).
"""

import contextlib
import glob
import hashlib
import json
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

from .cache import CubinCache, cache_dir, cache_key
from .cubin import kernel_resources
from .driver import BACKENDS, Backend, get_backend
from .errors import ArchError, CompileError, CubinError, MissingHeaderError, TcrawError, UsageError
from .validate import defines as check_defines, env_dirs, is_dir, is_file, is_whole, listed

# Installed: the kernels ship inside the package (pyproject maps cuda_src/ to tcraw/cuda_src).
# From a checkout or an editable install: the repository's cuda_src/ beside the package.
CUDA_SRC = Path(__file__).resolve().parent / "cuda_src"
if not CUDA_SRC.is_dir():
    CUDA_SRC = Path(__file__).resolve().parent.parent / "cuda_src"


# -- architectures --------------------------------------------------------------------------------

@dataclass(frozen=True, order=True)
class Arch:
    """A target such as sm_90 or sm_90a (arch-specific features: wgmma, setmaxnreg)."""

    cc: int
    suffix: str = ""

    def __post_init__(self):
        """Refuse what no target is (Arch("90"), Arch(90, "x"), sm_80a): Arch.parse reads text."""
        if not is_whole(self.cc, 10, 999) or self.suffix not in ("", "a", "f"):
            raise UsageError(f"Arch({self.cc!r}, {self.suffix!r}): cc is a compute capability as a whole number "
                             "from 10 to 999 (90) and suffix '', 'a' or 'f'; Arch.parse reads text such as 'sm_90a'")
        object.__setattr__(self, "cc", int(self.cc))   # (a driver's integer type: a plain int, equal and hashed alike)
        # PTX ISA: arch-specific targets ('a') begin with sm_90, family-specific ('f') with sm_100.
        first = {"a": 90, "f": 100}.get(self.suffix, 0)
        if self.cc < first:
            raise UsageError(f"sm_{self.cc}{self.suffix} does not exist: '{self.suffix}' targets begin at "
                             f"sm_{first}; write sm_{self.cc}")

    def __str__(self):
        return f"sm_{self.cc}{self.suffix}"

    @classmethod
    def parse(cls, text):
        """sm_90, compute_90, 90, sm_90a — or 9.0, as `nvidia-smi --query-gpu=compute_cap` prints it."""
        spelt = str(text).strip().lower()
        if (cap := re.fullmatch(r"([1-9]\d?)\.(\d)", spelt, re.ASCII)):
            spelt = cap.group(1) + cap.group(2)
        m = re.fullmatch(r"(?:sm_|compute_)?([1-9]\d{1,2})([af]?)", spelt, re.ASCII)
        if not m:
            raise UsageError(f"cannot read {text!r} as a GPU architecture; write it as sm_90, 90, 9.0 or sm_90a")
        return cls(int(m.group(1)), m.group(2))   # (which suffixes exist: __post_init__)


_supported = {}


def supported_archs(backend=None):
    """The architectures the installed NVRTC can target (nvrtcGetSupportedArchs), asked once."""
    backend = backend or get_backend()
    if backend.name not in _supported:
        from .toolchain import check_nvrtc_matches
        version = tuple(backend.nvrtc_version())
        check_nvrtc_matches(version, nvrtc_source(backend))   # its headers must be its own major's
        _supported[backend.name] = ([Arch(cc) for cc in backend.nvrtc_supported_archs()], version)
    return list(_supported[backend.name][0])


def nvrtc_version(backend=None):
    backend = backend or get_backend()
    supported_archs(backend)
    return _supported[backend.name][1]


def nvrtc_build(backend):
    """(major, minor, the NVRTC library's size in bytes or None) — what the cubin cache keys the
    compiler by: nvrtcVersion says no patch release, and two of one minor (a ptxas fix) may
    build other code; their libraries' sizes tell them apart where their paths would not (two
    installs of one release share keys)."""
    from .toolchain import choose
    if backend.name == "ctypes" and os.environ.get("TCRAW_NVRTC_LIBRARY"):
        path = os.environ["TCRAW_NVRTC_LIBRARY"]
    else:
        path = getattr(choose().stack, "nvrtc", None)
    try:
        size = os.path.getsize(path) if path else None
    except OSError:
        size = None
    return (*nvrtc_version(backend), size)


def nvrtc_source(backend):
    """Where the backend's NVRTC came from, for messages."""
    if backend.name == "ctypes" and os.environ.get("TCRAW_NVRTC_LIBRARY"):
        return f"TCRAW_NVRTC_LIBRARY={os.environ['TCRAW_NVRTC_LIBRARY']}"
    return f"the {backend.name} backend's NVRTC"


def check_arch_supported(arch, backend=None):
    from .toolchain import install_hint
    ccs = [a.cc for a in supported_archs(backend)]
    if arch.cc not in ccs:
        major, minor = nvrtc_version(backend)
        if arch.cc < min(ccs):
            fix = f"{arch} needs NVRTC 12 (CUDA 13 dropped sm_50 … sm_72): {install_hint(12)}"
        elif arch.cc > max(ccs):
            fix = f"a newer NVRTC may target it: pip install -U 'cuda-toolkit[nvrtc]>={major}'"
        else:   # (between two it targets: a number no GPU has, or one this CUDA renamed or dropped)
            renamed = {101: " (CUDA 13 calls CUDA 12's sm_101 sm_110)", 110: " (CUDA 12 calls it sm_101)"}
            fix = f"this NVRTC has no such target{renamed.get(arch.cc, '')}: no GPU has that number, or a newer " \
                f"NVRTC adds it (pip install -U 'cuda-toolkit[nvrtc]>={major}'); `nvidia-smi --query-gpu=" \
                "compute_cap` shows a GPU's"
        raise ArchError(f"{arch} is not supported by the installed NVRTC {major}.{minor} "
                        f"(it targets sm_{', sm_'.join(map(str, ccs))}); {fix}")


# -- headers --------------------------------------------------------------------------------------

HEADERS = ("mma.h", "crt/mma.h", "cuda_fp16.h")   # what the tensor-core kernels pull in


def _header_candidates():
    """Lists of directories, best first, each tried as one -I set. TCRAW_CUDA_INCLUDE (one or
    more directories, os.pathsep-separated) is used or refused, never skipped."""
    from .toolchain import choose
    if (named := env_dirs("TCRAW_CUDA_INCLUDE")):
        yield named
        return
    tc = choose()
    if tc.stack:
        yield list(tc.stack.include_dirs)
    for var in ("CUDA_HOME", "CUDA_PATH"):   # a toolkit of the same major, e.g. the H200 image's
        if os.environ.get(var):
            yield [Path(os.environ[var]) / "include"]
    yield [Path("/usr/local/cuda/include")]


def headers_major(dirs):
    """The CUDA major of a header set (CUDART_VERSION in cuda_runtime_api.h), or None."""
    for d in dirs:
        try:
            m = re.search(r"#define\s+CUDART_VERSION\s+(\d+)", (Path(d) / "cuda_runtime_api.h").read_text())
        except OSError:
            continue
        if m:
            return int(m.group(1)) // 1000
    return None


def find_include_dirs():
    """The -I directories holding mma.h, crt/mma.h (mma.h includes it: the cudart wheel alone lacks
    it, and so does the H200 image's pathfinder directory — docs/facts.md) and cuda_fp16.h, of
    the chosen toolchain's CUDA major: NVRTC 12 with CUDA 13 headers is a mix nothing else flags."""
    from .toolchain import choose, install_hint
    tc, looked = choose(), []
    for dirs in _header_candidates():
        looked.append(os.pathsep.join(map(str, dirs)))
        try:
            complete = all(any((d / h).is_file() for d in dirs) for h in HEADERS)
        except OSError:   # a path the OS will not even look at (too long, not a directory)
            continue
        if complete:
            major = headers_major(dirs)
            if major not in (None, tc.major):
                looked[-1] += f" (CUDA {major} headers, not {tc.major})"
                continue
            # CUDA 13 keeps CCCL (<cuda/barrier>, <cuda/pipeline>: users' kernels include them) in
            # include/cccl, which nvcc adds by itself; NVRTC is told
            return list(dict.fromkeys([*dirs, *(Path(d) / "cccl" for d in dirs if is_dir(Path(d) / "cccl"))]))
    raise MissingHeaderError(
        f"no CUDA {tc.major} headers for a source that includes any (CUDA {tc.major}: chosen by {tc.chosen_by}, "
        f"and tcraw takes the set that holds mma.h, crt/mma.h and cuda_fp16.h, what its tensor-core kernels "
        f"include); none found in {'; '.join(looked)}"
        f"{' (TCRAW_CUDA_INCLUDE)' if os.environ.get('TCRAW_CUDA_INCLUDE') else ''}. Install them: "
        f"{install_hint(tc.major)}; or point CUDA_HOME or TCRAW_CUDA_INCLUDE at a CUDA {tc.major} toolkit")


# -- compile --------------------------------------------------------------------------------------

@dataclass
class Cubin:
    """A compiled image for one arch: ``image`` (the bytes cuModuleLoadData takes), NVRTC's log,
    and the resources of ``kernel``'s entry (registers, static shared memory, stack, spills).
    ``entries()`` lists every kernel in it, ``resources(entry)`` reads any one of them and
    ``sass_counts(entry)`` the tensor instructions (HMMA, HGMMA, ...) of one (None: of all) where
    cuobjdump is installed."""

    kernel: str
    arch: Arch
    image: bytes
    log: str
    registers: int
    smem_bytes: int
    spill_bytes: int | None
    stack_bytes: int
    compile_ms: float
    cached: bool = False

    def entries(self):
        from .cubin import entries
        return entries(self.image)

    def resources(self, entry):
        return resources(self.image, self.log, entry)

    def sass_counts(self, entry=None):
        from .sass import tensor_op_counts
        return tensor_op_counts(self.image, entry=entry)


_PTXAS = {
    "registers": re.compile(r"Used (\d+) registers"),
    "smem_bytes": re.compile(r"(\d+) bytes smem"),
    "stack_bytes": re.compile(r"(\d+) bytes stack frame"),
    "spill_stores": re.compile(r"(\d+) bytes spill stores"),
    "spill_loads": re.compile(r"(\d+) bytes spill loads"),
}


def parse_ptxas_log(log, entry):
    """Resources of one entry function from an -Xptxas=-v log (0 where ptxas printed nothing)."""
    section = log
    start = log.find(f"Compiling entry function '{entry}'")
    if start >= 0:
        nxt = log.find("Compiling entry function", start + 1)
        section = log[start: nxt if nxt >= 0 else len(log)]
    found = {k: int(m.group(1)) if (m := rx.search(section)) else 0 for k, rx in _PTXAS.items()}
    return {
        "registers": found["registers"],
        "smem_bytes": found["smem_bytes"],
        "stack_bytes": found["stack_bytes"],
        "spill_bytes": found["spill_stores"] + found["spill_loads"],
    }


def nvrtc_compile(backend, source, name, options):
    """NVRTC's sequence, each call through the seam: create, compile, log, cubin, destroy.
    Returns (cubin, log); a failed compile raises CompileError with the full log."""
    prog = backend.nvrtc_create_program(source, name)
    try:
        result, code = backend.nvrtc_compile_program(prog, options)
        log = backend.nvrtc_get_program_log(prog)
        if code != 0:
            target = next((o.split("=", 1)[1] for o in options if o.startswith("--gpu-architecture=")), "?")
            if "--nv_arch" in log or "gpu-architecture" in log:   # the target itself was refused
                raise ArchError(f"the installed NVRTC does not accept --gpu-architecture={target} "
                                f"({log.strip().splitlines()[0]}); `tcraw info` lists the archs it targets")
            raise CompileError("nvrtcCompileProgram", result, code,
                               f"{name} with options {' '.join(options)}", log)
        return backend.nvrtc_get_cubin(prog), log
    finally:
        backend.nvrtc_destroy_program(prog)


def build_options(arch, defines=(), cuda_include_dirs=(), extra_include_dirs=()):
    """NVRTC's options. Includes resolve as nvcc's: "name" beside the including file (the
    source's own directory: NVRTC takes it from the program's name, a path), then the -I list —
    the user's ``extra_include_dirs``, then the CUDA headers; <name> in the -I list alone, so a
    file beside the source never stands in for a CUDA header of the same name."""
    opts = [f"--gpu-architecture={arch}", "--std=c++17", "-Xptxas=-v", "-lineinfo"]
    opts += [f"-I{d}" for d in extra_include_dirs]
    opts += [f"-I{d}" for d in ([cuda_include_dirs] if isinstance(cuda_include_dirs, (str, Path))
                                else cuda_include_dirs or [])]
    opts += [f"-D{d}" for d in defines]
    return opts


_default_cache = None


def default_cache():
    """The process's CubinCache ($TCRAW_CACHE_DIR or ~/.cache/tcraw), or None with TCRAW_NO_CACHE=1."""
    global _default_cache
    from .validate import env_flag
    if env_flag("TCRAW_NO_CACHE"):
        return None
    if _default_cache is None or _default_cache.dir != cache_dir():
        _default_cache = CubinCache()
    return _default_cache


def source_path(source):
    """A Kernel's source file: an absolute path as given, else relative to tcraw's cuda_src/ (the
    registry's own; a spec's and user_kernel's are absolute). compile_source reads a relative
    path from the working directory, as any tool does."""
    path = Path(source)
    return path if path.is_absolute() else CUDA_SRC / path


def read_source(path):
    """A source file's text as NVRTC should see it: a UTF-8 byte-order mark dropped (NVRTC reads
    it as tokens; an editor's habit, not code), and bytes that are not UTF-8 — a Latin-1 é in a
    comment — kept as they are (carried as surrogates, encoded back to the same bytes); a NUL or
    0xFF byte, which NVRTC would read as the end of the source, refused (check_whole)."""
    data = Path(path).read_bytes()
    check_whole(data, path)
    return data.removeprefix(b"\xef\xbb\xbf").decode("utf-8", "surrogateescape")


def check_whole(data, what):
    """Refuse a source (bytes, or text whose bytes not UTF-8 ride as surrogates: read_source) that
    NVRTC would read only in part: a NUL byte (it takes a C string — a UTF-16 file has one in every
    other byte) or a 0xFF byte (its front end reads that as the end of the file: a Latin-1 ÿ,
    never in UTF-8)."""
    binary = isinstance(data, bytes)
    at = data.find(b"\0" if binary else "\0")
    if at >= 0:
        utf16 = " (a UTF-16 file? save it as UTF-8)" if data[:2] in (b"\xff\xfe", b"\xfe\xff", "\xff\xfe") \
            or data[1:2] in (b"\0", "\0") else ""
        raise UsageError(f"{what} holds a NUL byte at offset {at}{utf16}: NVRTC would read only what comes "
                         "before it; remove it")
    at = data.find(b"\xff" if binary else "\udcff")
    if at >= 0:
        raise UsageError(f"{what} holds a 0xFF byte at {'offset' if binary else 'character'} {at} (a Latin-1 ÿ?): "
                         "NVRTC would read it as the end of the source; remove it or save the file as UTF-8")


def compile_errors(log):
    """The errors NVRTC's ``log`` states: the front end's, with file and line ("k.cu(3): error:
    ..."), and ptxas's ("ptxas error   : Entry function 'k' uses too much shared data ...")."""
    return [line.strip() for line in (log or "").splitlines()
            if re.search(r"\(\d+\): (catastrophic )?error|^ptxas (error|fatal)", line)]


def first_error(log):
    """The first of compile_errors(``log``), or None."""
    return next(iter(compile_errors(log)), None)


def compile_hints(text, log, include_dirs, source_dir):
    """What may have made NVRTC refuse a source, beyond its ``log``: a C or C++ library header it
    has none of (it compiles device code alone), a UTF-8 byte-order mark at a header's start
    (NVRTC reads it as tokens: tcraw drops the source's own, but NVRTC opens headers itself) or a
    NUL byte in one. Empty when there is none."""
    from .cache import included_headers
    hints = []
    for name in dict.fromkeys(re.findall(r'cannot open source file "([\w./]+)"', log or "")):
        std = f"c{name[:-2]}" if name.endswith(".h") else name   # (stdint.h: cstdint)
        if any((Path(d) / "cuda" / "std" / std).is_file() for d in include_dirs):
            hints.append(f"NVRTC has no <{name}> (the host's C/C++ library; it compiles device code alone): "
                         f"CCCL's <cuda/std/{std}> has its device form")
        elif std == "cstdio":
            hints.append(f"NVRTC has no <{name}>: device code has printf without it; drop the include")
        elif source_dir and is_file(Path(source_dir) / name) and \
                re.search(rf"#\s*include\s*<{re.escape(name)}>", text or ""):   # (as nvcc: <name> not beside it)
            hints.append(f"{name} is in {source_dir}, beside the source, where only #include \"{name}\" looks: "
                         f"include it so, or add that directory with --include (include_dirs=)")
        elif name.isalpha() and name.islower():   # (<vector>, <string>: the host's C++ library)
            hints.append(f"NVRTC has no <{name}>: it compiles device code alone, without the host's C++ library")
    for name, content in included_headers(text, include_dirs, source_dir):
        if content.startswith(b"\xef\xbb\xbf"):
            hints.append(f"{name} begins with a UTF-8 byte-order mark, which NVRTC reads as code: save it without one")
        elif (at := content.find(b"\0")) >= 0:
            hints.append(f"{name} holds a NUL byte at offset {at}: NVRTC reads a header up to it")
    return "; ".join(hints)


def compile_source(source, arch, *, defines=(), include_dirs=(), name=None, entry=None,
                   backend=None, cache=None):
    """NVRTC: CUDA C++ → a Cubin for ``arch`` (sm_90, "90", Arch(90, "a")), through the cubin
    cache (``cache=False`` bypasses it). ``source`` is a file path, or the text itself when it
    has a newline (a relative path is the working directory's: tcraw's own kernels are
    compiler.CUDA_SRC / "name.cu"); ``defines`` are NAME or NAME=VALUE. Includes resolve as
    nvcc's: #include "name" beside the including file, then in ``include_dirs``, then the CUDA
    headers; <name> in the last two (the text's own "name" includes: the working directory's,
    or that of ``name`` read as a path from it). ``entry`` picks whose resources the
    Cubin carries (default: the first kernel in the cubin's sections, not necessarily the source's
    first: name it where the source has several). A compile error raises CompileError with
    NVRTC's log, whose lines name the file and line of the source."""
    if not isinstance(source, (str, Path)) or not str(source).strip() or \
            ("\0" in str(source) and "\n" not in str(source)):
        raise UsageError(f"the kernel source is a path or the CUDA text itself (a str with a newline), "
                         f"not {source!r:.80}")
    if "\n" in str(source):   # (a path's own bytes — a directory named in Latin-1 — are the OS's business)
        check_whole(str(source), "the CUDA text")
    from .kernel import texts
    defines, include_dirs = texts(defines, "defines"), texts(include_dirs, "include_dirs")
    check_defines(defines)
    backend = get_backend(backend) if backend is None or isinstance(backend, str) else backend
    if not isinstance(backend, Backend):
        raise UsageError(f"backend is a name ({', '.join(BACKENDS)}) or a tcraw backend, not {backend!r:.80}")
    if cache is not None and cache is not False and not isinstance(cache, CubinCache):
        raise UsageError(f"cache is None (the default cache), False (none) or a tcraw CubinCache, not {cache!r}")
    arch = Arch.parse(arch) if not isinstance(arch, Arch) else arch
    check_arch_supported(arch, backend)
    t0 = time.perf_counter()
    if "\n" in str(source):
        text, name = str(source), name or "source.cu"
        program = name   # (NVRTC reads it as a path from the working directory: "name" includes resolve there)
    else:
        path = Path(source)
        try:
            text = read_source(path)
        except OSError as exc:
            text_hint = "; CUDA text is read as such only with a newline in it — add one" \
                if any(c in str(source) for c in "{}();") else ""
            raise UsageError(f"cannot read the kernel source {path}: {getattr(exc, 'strerror', None) or exc}"
                             f"{text_hint}") from None
        program, name = str(path), name or (path.name if path.parent == CUDA_SRC else str(path))
    source_dir = os.path.dirname(os.path.abspath(program))   # where NVRTC looks for the source's "name" includes
    extra = [Path(d) for d in include_dirs]
    for d in extra:
        if not is_dir(d):
            raise UsageError(f"include directory {d} "
                             f"{'is a file, not a directory' if is_file(d) else 'does not exist'}")
    cuda_dirs = find_include_dirs() if "#include" in text else []
    options = build_options(arch, defines, cuda_dirs, extra)
    store = default_cache() if cache is None else (cache or None)
    key = image = None
    if store is not None:
        key = cache_key(text, options, arch, nvrtc_build(backend), [*extra, *cuda_dirs], source_dir, cuda_dirs)
    if key is not None:   # (None: the source includes a macro's file — compiled every time)
        hit = store.load(key)
        if hit is not None:
            (meta, image), cached = hit, True
            log = meta["log"]
    if image is None:
        try:
            image, log = nvrtc_compile(backend, text, program, options)  # raises: nothing cached
        except CompileError as exc:
            if (hints := compile_hints(text, exc.log, [*extra, *cuda_dirs], source_dir)):
                exc = CompileError(exc.call, exc.name, exc.code, f"{hints}; {exc.detail}", exc.log)
                exc.hints = hints
                raise exc from None
            raise
        cached = False
        if key is not None:
            store.store(key, {"log": log}, image)
    ms = (time.perf_counter() - t0) * 1e3
    if entry is None:
        from .cubin import entries
        found = entries(image)
        entry = found[0] if found else None
    res = resources(image, log, entry) if entry else {"registers": 0, "smem_bytes": 0, "stack_bytes": 0,
                                                      "spill_bytes": 0}
    return Cubin(entry or name, arch, image, log, compile_ms=ms, cached=cached, **res)


def built_arch(kernel, arch):
    """The target ``kernel`` is built for when ``arch`` is asked: an arch-specific kernel's own
    'a' form (sm_90 asked, sm_90a built: the same GPU, its own instructions)."""
    return Arch(arch.cc, "a") if kernel.arch_specific and arch.cc >= 90 else arch


def source_refusal(kernel):
    """The UsageError for a kernel whose source is not a file (a spec's kernel whose file went) or
    one NVRTC would read only in part (check_whole), or None. Asked where it is compiled and, for
    run, sweep, check, bench and profile, before a GPU."""
    path = source_path(kernel.source)
    if is_file(path):
        try:
            read_source(path)
        except UsageError as exc:
            return exc
        except OSError as exc:
            return UsageError(f"kernel {kernel.name}'s source {path} cannot be read: "
                              f"{getattr(exc, 'strerror', None) or exc}")
        return None
    here = not Path(kernel.source).is_absolute() and is_file(kernel.source)
    return UsageError(f"kernel {kernel.name}'s source {path} is not a file" + (
        f"; a Kernel's relative source is read from tcraw's cuda_src/ (the registry's kernels), and "
        f"{kernel.source} is in the working directory: give its absolute path, or declare it with "
        "tcraw.user_kernel" if here else ""))


def check_declared(kernel):
    """Raise what a kernel's own source refuses on any arch — an entry its cubin lacks, parameters
    other than a launch passes, a tcraw_launch other than its declaration's: the request's fault,
    said before a GPU is opened — by building it for the first arch NVRTC and the kernel both take
    (cached: the run's own build, for an arch-specific kernel). What is not the request's (a
    compile error, no NVRTC or headers) is returned, not raised: the run makes it the kernel's row
    (the caller may say so first); None when it built."""
    try:
        arch = next((a for a in supported_archs() if kernel.arch_refusal(a.cc, a) is None), None)
        if arch is not None:
            compile_cubin(kernel, arch)
    except ArchError:
        pass
    except UsageError:   # (CubinError among them: no such entry)
        raise
    except TcrawError as exc:
        return exc
    return None


def compile_cubin(kernel, arch, backend=None, cache=None):
    """Compile one kernel (built-in or a user's) for one arch, through the cubin cache
    (``cache=False`` to bypass it). Refuses archs below the kernel's minimum or outside
    NVRTC's list with an ArchError naming the requirement."""
    from .kernel import Kernel
    if not isinstance(kernel, Kernel):
        raise UsageError(f"compile_cubin takes a tcraw Kernel (tcraw.KERNELS[name], a spec's, "
                         f"tcraw.user_kernel(...)), not {kernel!r:.80}")
    arch = Arch.parse(arch) if not isinstance(arch, Arch) else arch
    if (refusal := kernel.arch_refusal(arch.cc, arch)):
        raise refusal
    arch = built_arch(kernel, arch)
    if (refusal := source_refusal(kernel)):
        raise refusal
    cubin = compile_source(source_path(kernel.source), arch, defines=kernel.defines, include_dirs=kernel.include_dirs,
                           entry=None, backend=backend, cache=cache)
    from .cubin import entries
    if kernel.entry not in (found := entries(cubin.image)):
        raise CubinError(f"kernel {kernel.name}: {kernel.source} has no entry {kernel.entry!r}; its "
                         f"kernels are: {', '.join(sorted(found)) or 'none (no __global__ function in it)'} "
                         "(an entry is its symbol: "
                         "the name itself under extern \"C\", else C++'s mangled name, as listed)")
    cubin.kernel = kernel.name
    for field, value in resources(cubin.image, cubin.log, kernel.entry).items():
        setattr(cubin, field, value)
    # (first: what it states names the field that drifted)
    check_declared_launch(kernel, cubin.image, cubin.smem_bytes)
    check_signature(kernel, cubin.image)
    return cubin


def check_signature(kernel, image):
    """The entry's parameters, as its cubin records their sizes, against the arguments a launch
    passes (Kernel.arguments): a kernel that could never be launched is refused when it is built,
    not once a GPU is open."""
    from .cubin import kernel_param_sizes
    from .kernels import REFERENCE
    if kernel is REFERENCE:   # (no matmul: its entries take two outputs, matmul.device_reference)
        return
    sizes = kernel_param_sizes(image, kernel.entry)
    passed = kernel.arguments()
    if sizes is not None and sizes != [size for _, size in passed]:
        raise UsageError(f"kernel {kernel.name}: {kernel.entry} takes {len(sizes)} parameters of "
                         f"{', '.join(map(str, sizes))} bytes; a launch passes {len(passed)}: "
                         f"{', '.join(f'{name} ({size})' for name, size in passed)} — declare its parameters so "
                         "(a pointer is 8 bytes, an int 4)")


# The most shared memory a block can have (opting in), by compute capability (the CUDA C++
# Programming Guide's table of technical specifications). A cubin asking more than its arch's is
# built — sm_80's deep pipelines need more than sm_86's 99 KiB — and its compile row says where it
# will not launch (Kernel.device_refusal refuses it there by name).
SMEM_A_BLOCK = {50: 48 << 10, 52: 48 << 10, 53: 48 << 10, 60: 48 << 10, 61: 48 << 10, 62: 48 << 10,
                70: 96 << 10, 72: 96 << 10, 75: 64 << 10, 80: 163 << 10, 86: 99 << 10, 87: 163 << 10,
                89: 99 << 10, 90: 227 << 10, 100: 227 << 10, 101: 227 << 10, 103: 227 << 10, 110: 227 << 10,
                120: 99 << 10, 121: 99 << 10}   # (an arch not listed, e.g. sm_88 or sm_107: no note)


def smem_past_arch(kernel, arch, static_smem):
    """What a compile row says of a cubin for ``arch`` whose block asks more shared memory (the
    cubin's static and the declared dynamic) than a GPU of that arch gives one, or None."""
    asked, most = static_smem + kernel.geometry_at(*kernel.tile).smem_bytes, SMEM_A_BLOCK.get(arch.cc)
    if most is None or asked <= most:
        return None
    return (f"will not launch on sm_{arch.cc}: its block asks {asked} bytes of shared memory, an sm_{arch.cc} GPU "
            f"gives one at most {most} (build for an arch that has it, or declare less)")


def check_declared_launch(kernel, image, static_smem):
    """A kernel's source may state the launch it needs in ``extern "C" __constant__ int
    tcraw_launch[] = {threads per block, dynamic smem bytes, TMA box rows, cols, ...}``; its
    declaration (the registry's or a spec's geometry and boxes) must say the same, so the two
    cannot drift apart unnoticed. And the block must be one the cubin can run on some GPU: no
    more threads than its __launch_bounds__, no more shared memory — ``static_smem``, the cubin's
    (kernel_resources, read by the caller already), and the declared dynamic — than any GPU gives
    a block (smem_past_arch says where one arch's GPUs give less)."""
    import math
    import numpy as np
    from .cubin import kernel_max_threads, symbol_bytes
    from .wgmma import SM90_SMEM_BYTES
    g = kernel.geometry_at(*kernel.tile)
    user = kernel.origin[:1] == ("--source",)
    if (most := kernel_max_threads(image, kernel.entry)) is not None and math.prod(g.block) > most:
        where = "--block" if user else "the geometry (the registry or the spec)"
        raise UsageError(f"kernel {kernel.name}: its source's __launch_bounds__ allows at most {most} threads a block; "
                         f"its declaration launches {math.prod(g.block)} (block {g.block}), which no GPU would run: "
                         f"make {where} agree with the source")
    if static_smem + g.smem_bytes > SM90_SMEM_BYTES:
        raise UsageError(f"kernel {kernel.name}: {static_smem} bytes of static shared memory and {g.smem_bytes} "
                         f"dynamic ({'--smem' if user else 'the geometry'}) are more than any GPU gives a block "
                         f"({SM90_SMEM_BYTES}); declare less")
    raw = symbol_bytes(image, "tcraw_launch")
    if raw is None:
        if b"12tcraw_launchE" in bytes(image):   # (my::tcraw_launch's mangled name: _ZN2my12tcraw_launchE)
            raise UsageError(f"kernel {kernel.name}: its source declares tcraw_launch inside a namespace, where "
                             "tcraw cannot read it; declare extern \"C\" __constant__ int tcraw_launch[] at file scope")
        return
    if len(raw) % 4:   # (a char[] or short[] is no list of ints: refused as the kernel's, not raised as numpy's)
        raise UsageError(f"kernel {kernel.name}: its source's tcraw_launch is {len(raw)} bytes, not an array of int; "
                         "declare it extern \"C\" __constant__ int tcraw_launch[] = {threads, smem bytes, ...}")
    said = np.frombuffer(raw, dtype="<i4").tolist()
    declared = [math.prod(g.block), g.smem_bytes, *(v for box in kernel.tma_boxes for v in box)]
    if said != declared:
        names = ["threads", "smem bytes"] + [f"{op} box {d}" for op in ("A", "B", "C", "A's edge")
                                             for d in ("rows", "cols")]
        if said and np.frombuffer(raw, dtype="<f4").tolist()[:len(declared)] == declared[:len(said)]:
            raise UsageError(f"kernel {kernel.name}: its source's tcraw_launch holds floats ({said} read as int); "
                             "declare it extern \"C\" __constant__ int tcraw_launch[]")
        if len(said) != len(declared):   # (no flag makes a declaration of another length: the source must change)
            # (the bytes of long long {256, 0} and of int {256, 0, 0, 0} are the same: name both)
            wide = len(raw) % 8 == 0 and np.frombuffer(raw, dtype="<i8").tolist() == declared
            raise UsageError(f"kernel {kernel.name}: its source's tcraw_launch holds {len(said)} "
                             f"value{'s' * (len(said) != 1)}, {said}; its declaration's launch is {len(declared)}, "
                             f"{declared} ({', '.join(names[:len(declared)])}): state all of them in the source"
                             + ("; or, if it is declared long long, declare it int" if wide else ""))
        diff = ", ".join(f"{n} {s} vs {d}" for n, s, d in zip(names, said, declared) if s != d)
        where = "--block and --smem" if user else "the geometry (tcraw's registry or the spec)"
        raise UsageError(f"kernel {kernel.name}: its source states tcraw_launch = {said}, its declaration "
                         f"gives {declared} ({diff}): make {where} agree with the source")


def resources(image, log, entry):
    """Registers, shared memory and stack from the cubin itself; spills from the ptxas log.
    When NVRTC served the compile from its cache the log is empty: spills live in the stack
    frame, so a zero frame still proves zero spills, and otherwise they are unknown (None)."""
    found = kernel_resources(image, entry)
    if f"Compiling entry function '{entry}'" in log:
        found["spill_bytes"] = parse_ptxas_log(log, entry)["spill_bytes"]
    else:
        found["spill_bytes"] = 0 if found["stack_bytes"] == 0 else None
    return found


# -- prebuilt cubins (no NVRTC needed) ------------------------------------------------------------

def prebuilt_candidates(device_arch):
    """Cubin archs that run on a device, best first: its own, its arch-specific 'a' form (sm_90
    on) and family form 'f' (sm_100 on), then older minors of the same major, plain or 'f' (SASS
    runs forward within a major, never across majors; 'a' only on its own minor)."""
    def forms(cc, *suffixes):
        return [Arch(cc, s) for s in ("", *suffixes) if cc >= {"": 0, "a": 90, "f": 100}[s]]
    cc = device_arch.cc
    return forms(cc, "a", "f") + [a for c in range(cc - 1, (cc // 10) * 10 - 1, -1) for a in forms(c, "f")]


def cubin_for(kernel, device, cubin_dir=None):
    """``kernel``'s cubin for ``device``: the prebuilt one from ``cubin_dir`` when given (no NVRTC
    needed), else compiled through the cache."""
    if cubin_dir:
        return load_prebuilt(kernel, device.arch, cubin_dir)
    return compile_cubin(kernel, device.arch, device.drv)


def check_cubin_dir(cubin_dir):
    """``cubin_dir`` as a Path, refused unless it is a directory holding cubins (the CLI asks before
    it opens the GPU; load_prebuilt again)."""
    if not str(cubin_dir).strip():   # (Path("") is the working directory: an empty name asks for none)
        raise UsageError("--cubin-dir needs a directory of cubins; got an empty name")
    path = Path(cubin_dir)
    if not is_dir(path):
        raise UsageError(f"--cubin-dir {cubin_dir} is not a directory; make one with "
                         "`tcraw compile --arch ... --out DIR` or `make cubins`")
    if not any(path.glob("*.cubin")):
        raise UsageError(f"--cubin-dir {cubin_dir} holds no .cubin files; fill it with "
                         "`tcraw compile --arch ... --out DIR` or `make cubins`")
    if os.path.lexists(path / MANIFEST):
        read_manifest(path)   # (one that cannot be read: refused here, before a GPU is opened)
    return path


def load_prebuilt(kernel, device_arch, cubin_dir):
    """The cubin `tcraw compile --out DIR` wrote for this kernel that runs on ``device_arch``."""
    cubin_dir = check_cubin_dir(cubin_dir)
    for arch in prebuilt_candidates(device_arch):
        path = cubin_dir / f"{kernel.file_stem}.{arch}.cubin"
        if path.is_file():
            image = path.read_bytes()
            check_prebuilt(kernel, arch, path, image)   # (first: a damaged cubin is named as such)
            found = kernel_resources(image, kernel.entry, source=str(path))
            check_declared_launch(kernel, image, found["smem_bytes"])   # prebuilt cubins drift the easiest
            check_signature(kernel, image)
            return Cubin(kernel.name, arch, image, "", compile_ms=0.0, cached=True,
                         spill_bytes=0 if found["stack_bytes"] == 0 else None, **found)
    have = sorted(p.name.split(".")[-2] for p in cubin_dir.glob(f"{glob.escape(kernel.file_stem)}.*.cubin")
                  if p.is_file())
    raise ArchError(
        f"no prebuilt cubin of {kernel.file_stem} in {cubin_dir} runs on this GPU ({device_arch}); "
        f"it has: {', '.join(have) or 'none'}. Build one with `{rebuild_command(kernel, device_arch, cubin_dir)}` "
        "where NVRTC is installed")


# -- many kernels × archs (tcraw compile) ---------------------------------------------------------

def ptxas_warnings(log):
    """What ptxas warned of in a compile log: warnings, and its "Potential Performance Loss" notes
    (C7510–C7520: wgmma serialised, which makes a kernel slower than its source says)."""
    return [line.split(":", 1)[1].strip() for line in (log or "").splitlines()
            if line.startswith("ptxas") and ("warning" in line or "Performance Loss" in line)]


def nvrtc_warnings(log):
    """What NVRTC's front end warned of in a compile log, a line each with its file and line
    ("k.cu(3): warning #549-D: variable "x" is used before its value is set")."""
    return [line.strip() for line in (log or "").splitlines() if re.search(r"\(\d+\): warning", line)]


def parse_archs(archs):
    """Targets as `tcraw compile --arch` reads them: an Arch, a text ("sm_90", "sm_80,sm_90a",
    "all": every arch the installed NVRTC supports) or a list of those — in order, once each
    (sm_90, 90 and compute_90 are one target). None of them is a UsageError, not an empty table."""
    texts = [archs] if isinstance(archs, (str, Arch)) else archs
    if isinstance(texts, (list, tuple)):   # ("sm_80,sm_90" in a list, as --arch repeated gives them)
        texts = [t for a in texts for t in ((listed(a, "archs", r"\s*,\s*|\s+") or []) if isinstance(a, str)
                                             else [a])]   # (as --arch reads them)
    if is_whole(texts):   # (90: as "90" reads)
        texts = [str(texts)]
    if not isinstance(texts, (list, tuple)) or not all(isinstance(a, (str, Arch)) or is_whole(a) for a in texts):
        raise UsageError(f"archs are texts such as \"sm_90\" (or \"sm_80,sm_90\", \"all\") or tcraw Archs, "
                         f"not {archs!r:.80}")
    parsed = []
    for a in texts:
        if isinstance(a, Arch):
            parsed.append(a)
        elif not isinstance(a, str):
            parsed.append(Arch.parse(str(a)))
        elif a.strip().lower() == "all":
            parsed += supported_archs()
        else:
            parsed.append(Arch.parse(a))
    if not parsed:
        raise UsageError("no arch given: name one (\"sm_90\"), several, or \"all\"")
    return list(dict.fromkeys(parsed))


def warm_cache(chosen, archs, jobs):
    """Compile each of ``chosen`` (Kernels) for each of ``archs`` (Archs) into the cubin cache,
    ``jobs`` at once on threads — NVRTC lets go of the GIL while it compiles (2 threads: 2.3 s for
    two of 06's configurations, 5.1 s one after the other, on a 2-core machine). What cannot be
    built is left for the caller's own compile to meet and report in order (a failed compile is
    not cached: it fails again there). Not where the cache is off, nor under --trace (the seam's
    calls would interleave). Returns {(kernel's file stem, arch as built): ms} of the cubins it
    compiled, not found in the cache: their rows say so, not "cached"."""
    import threading
    from concurrent.futures import ThreadPoolExecutor
    from .driver import get_backend, tracing
    compiled = {}
    if jobs <= 1 or tracing() or default_cache() is None:
        return compiled
    get_backend()   # (made here, once, not by the first threads at once)
    targets = {}   # (one build a cubin: sm_90 and sm_90a asked of an arch-specific kernel are one)
    for kernel in chosen:
        for arch in archs:
            if kernel.runs_on(arch.cc):
                targets.setdefault((kernel.file_stem, str(built_arch(kernel, arch))), (kernel, arch))
    stop = threading.Event()

    def build(target):
        if stop.is_set():
            return
        try:
            cubin = compile_cubin(*target)
        except TcrawError:
            return   # (the caller compiles it again, and says what went wrong, in its own order)
        except BaseException:
            stop.set()
            raise
        if not cubin.cached:
            compiled[target[0].file_stem, str(cubin.arch)] = cubin.compile_ms
    pool = ThreadPoolExecutor(max_workers=jobs)
    try:
        list(pool.map(build, targets.values()))
    finally:   # (^C, SIGTERM, or a build's own error: the compiles under way end, none waiting starts)
        stop.set()
        pool.shutdown(wait=True, cancel_futures=True)
    return compiled


def compile_table(chosen, archs, *, out=None, note=print, jobs=1):
    """What `tcraw compile` does: each kernel for each arch → rows (kernel, arch, status, registers,
    smem_bytes, spill_bytes, cubin_bytes, compile_ms, cached, ptxas_warnings and nvrtc_warnings (each
    noted in full),
    and sass where cuobjdump is found).
    A kernel an arch cannot take is a status row (below-min-arch, arch-specific, unsupported-by-
    nvrtc); a compile error is an "error" row with NVRTC's log noted in full, and a kernel whose own
    inputs are refused (its source or include directory unreadable, no such entry in its cubin,
    another launch than its tcraw_launch states; or the CUDA headers it includes missing) a
    "refused" row. ``archs``: as parse_archs reads them. ``out`` (a
    directory) gets <kernel>.<arch>.cubin and manifest.json for cubin-only runs — for a kernel
    with several configurations (06), one cubin per configuration, <kernel>[<variant>].<arch>.cubin;
    a cubin that cannot be written there is an "unwritten" row, and a manifest that cannot be
    written a UsageError carrying the rows (``exc.rows``: the CLI still prints them). ``jobs``:
    compiles at once, into the cache first (warm_cache); the rows are the same, in the same order."""
    from .errors import NoNvrtcError, NvrtcPathError
    if not callable(note):
        raise UsageError(f"note is a function taking one message (print, or lambda message: None), not {note!r:.80}")
    from .validate import is_whole
    if not is_whole(jobs, 1, 256):   # (before --out's directory is made)
        raise UsageError(f"jobs is how many compiles run at once, a whole number from 1 to 256; got {jobs!r}")
    from .sass import base_counts, find_cuobjdump, tensor_op_forms
    from .kernel import Kernel
    from .kernels import REFERENCE, check_own_name
    if not isinstance(chosen, (list, tuple)) or not chosen or not all(isinstance(k, Kernel) for k in chosen):
        raise UsageError(f"compile_table takes a non-empty list of tcraw Kernels, not {chosen!r:.80}")
    for kernel in chosen:   # (a user's under a built-in's name would overwrite its cubin in --out)
        check_own_name(kernel)
    archs = parse_archs(archs)
    if out is not None:   # (made, and its manifest's place found free, before the work, not after it)
        from .validate import output_dir
        out = output_dir(out, "compile --out (out=)")
        if (out / "manifest.json").is_dir():
            raise UsageError(f"{out / 'manifest.json'} is a directory; compile --out writes its manifest there")
        if (foreign := not_tcraws(out / MANIFEST)):
            raise UsageError(f"{out / MANIFEST} is {foreign}, not tcraw's list of rows: compile into another "
                             "directory, or move that file away (a manifest of tcraw's that cannot be read is "
                             "replaced, with a note)")
    cuobjdump = find_cuobjdump()
    noted = set()   # (one missing-headers message for every kernel that needs them)
    rows = []
    if out and REFERENCE not in chosen:   # cubin-only runs verify big problems with it
        chosen = [*chosen, REFERENCE]
    if out:   # a cubin-only run needs whichever configuration the problem picks
        chosen = [c for kernel in chosen for c in kernel.configurations()]
    check_distinct_names(chosen, lambda k: k.file_stem)   # (one name, one row and one cubin file)
    compiled = warm_cache(chosen, archs, int(jobs))   # (ms of those it built: this run's, not the cache's)
    built = set()   # (kernel, arch as built): sm_90 and sm_90a asked of an arch-specific kernel build one cubin
    short = []   # (rows whose block asks more shared memory than their arch's GPUs give: noted once, after)
    writing = None   # (the row whose cubin is being written, and what the manifest records of it)
    try:
        for kernel in chosen:
            for arch in archs:
                target = (kernel.file_stem, str(built_arch(kernel, arch)))
                if target in built:
                    continue   # (its row, ok or not, is in already)
                built.add(target)
                # (every row has every key — None where it has no value — so a script reads any row alike)
                row = {"kernel": kernel.file_stem, "arch": str(arch), "status": "ok", "registers": None,
                       "smem_bytes": None, "spill_bytes": None, "cubin_bytes": None, "compile_ms": None,
                       "cached": None, "ptxas_warnings": None, "nvrtc_warnings": None, "detail": None,
                       **({"sass_forms": None, "sass": None} if cuobjdump else {})}
                try:
                    cubin = compile_cubin(kernel, arch)
                except ArchError as exc:
                    row["status"] = ("below-min-arch" if arch.cc < kernel.min_arch else
                                     "arch-specific" if not kernel.runs_on(arch.cc) else "unsupported-by-nvrtc")
                    row["detail"] = str(exc)
                except (NoNvrtcError, NvrtcPathError):
                    raise  # nothing at all can be compiled here
                except (UsageError, MissingHeaderError) as exc:   # this kernel's own inputs (its source
                    row["status"], row["detail"] = "refused", str(exc)   # unreadable, no such entry, a launch
                    if str(exc) not in noted:                            # the source disowns) or headers it
                        noted.add(str(exc))                              # needs: the others still build
                        note(f"{kernel.name} {arch}: {exc}")
                except TcrawError as exc:
                    row["status"], row["detail"] = "error", str(exc)
                    if isinstance(exc, CompileError) and (errors := compile_errors(exc.log)):
                        row["detail"] = "; ".join(filter(None, (getattr(exc, "hints", ""), *errors)))
                    said = getattr(exc, "log", "") or str(exc)   # the whole message and log once, not a table
                    note(f"{kernel.name} {arch}: {exc}" if said not in noted else   # cell (nor once an arch)
                         f"{kernel.name} {arch}: {first_error(getattr(exc, 'log', '')) or row['detail']} (as above)")
                    noted.add(said)
                else:
                    fresh = compiled.get((kernel.file_stem, str(cubin.arch)))
                    row.update(arch=str(cubin.arch), registers=cubin.registers, smem_bytes=cubin.smem_bytes,
                               spill_bytes=cubin.spill_bytes, cubin_bytes=len(cubin.image),
                               compile_ms=round(cubin.compile_ms if fresh is None else fresh, 1),
                               cached=cubin.cached and fresh is None,
                               ptxas_warnings=ptxas_warnings(cubin.log), nvrtc_warnings=nvrtc_warnings(cubin.log))
                    for warning in row["ptxas_warnings"]:
                        note(f"{kernel.file_stem} {cubin.arch}: ptxas: {warning}")
                    for warning in row["nvrtc_warnings"]:
                        note(f"{kernel.file_stem} {cubin.arch}: {warning}")
                    if (past := smem_past_arch(kernel, cubin.arch, cubin.smem_bytes)):
                        row["detail"] = past
                        short.append(f"{kernel.file_stem} {cubin.arch}")
                    if cuobjdump:
                        row["sass_forms"] = tensor_op_forms(cubin.image, cuobjdump, kernel.entry)   # (its own code)
                        row["sass"] = base_counts(row["sass_forms"])
                        if row["sass"] is None:   # CUDA 13's cuobjdump cannot read sm_50 … sm_72
                            fix = ("set TCRAW_CUOBJDUMP to a CUDA 12 or older cuobjdump" if cubin.arch.cc < 75 else
                                   "check that TCRAW_CUOBJDUMP (or CUDA_HOME) names a working cuobjdump")
                            row["detail"] = "; ".join(filter(None, (
                                row["detail"], f"{cuobjdump} could not disassemble {cubin.arch}; {fix}")))
                    if out:
                        # (its record made before the write: a ^C just after the rename still lists the file)
                        writing = (row, {"cubin": str(Path(out) / f"{kernel.file_stem}.{cubin.arch}.cubin"),
                                         "cubin_sha256": hashlib.sha256(cubin.image).hexdigest(),
                                         "source_sha256": source_digest(kernel), "built_with": built_with(kernel)})
                        try:
                            _write_file(Path(writing[1]["cubin"]), cubin.image)
                            row.update(writing[1])
                        except UsageError as exc:   # (this one path: the other kernels still build and write)
                            row["status"], row["detail"] = "unwritten", str(exc)
                            note(f"{kernel.file_stem} {cubin.arch}: {exc}")
                rows.append(row)
                writing = None
    except KeyboardInterrupt as exc:   # (^C: the cubins written so far are listed, and the rows come out)
        if writing and writing[0] not in rows and _holds(writing[1]["cubin"], writing[1]["cubin_sha256"]):
            writing[0].update(writing[1])   # (interrupted after its rename: the file is this compile's)
            rows.append(writing[0])
        exc.rows = rows
        if out:
            try:
                write_manifest(out, rows, note)
            except UsageError:
                pass   # (a cubin left unlisted is refused by a cubin-only run, not trusted)
        raise
    if short:
        note(f"{len(short)} cubin(s) will not launch on GPUs of their arch (more shared memory a block than they "
             f"give; each row's detail says how much): {', '.join(short)}")
    if out:
        try:
            write_manifest(out, rows, note)
        except UsageError as exc:
            exc.rows = rows
            raise
    return rows


MANIFEST = "manifest.json"


def rebuild_command(kernel, arch, cubin_dir):
    """The `tcraw compile` that builds ``kernel``'s cubins for ``arch`` into ``cubin_dir``: a
    registry kernel by name, a user's by the spec or flags that declared it."""
    import shlex
    named = kernel.origin + ("--kernel", kernel.name) if kernel.origin[:1] == ("--spec",) else \
        kernel.origin or ("--kernel", kernel.name)
    return shlex.join(["tcraw", "compile", "--arch", str(arch), *named, "--out", str(cubin_dir)])


def built_with(kernel):
    """How a cubin of ``kernel`` was built beyond its source: entry, precision and -D macros, as
    the manifest records them (a --define changed is another cubin)."""
    return " ".join([kernel.entry, kernel.precision.key, *(f"-D{d}" for d in kernel.defines)])


def built_as(kernel):
    """What makes two Kernels of one name the same build (a configuration is made afresh, with new
    functions, each time it is asked for: equality of the whole Kernel would tell them apart)."""
    return kernel.source, built_with(kernel), kernel.include_dirs, kernel.arch_specific


def check_distinct_names(chosen, name=lambda k: k.name):
    """Refuse two different builds (built_as) of one name among ``chosen``: a second kernel of that
    name would be lost — a row, a cubin file, the one a child process runs by name."""
    from .kernels import REFERENCE
    seen = {}
    for kernel in chosen:
        if seen.setdefault(name(kernel), built_as(kernel)) != built_as(kernel):
            raise UsageError(f"two different kernels are named {name(kernel)!r}"
                             f"{' (a name tcraw gives its fp64 reference)' if kernel.name == REFERENCE.name else ''}"
                             "; give each its own name")


def source_digest(kernel):
    """The sha256 of ``kernel``'s source as NVRTC is given it and of the "name" headers found from
    it, beside it (06's wgmma_tma.cuh): what the manifest records of each cubin, and a cubin-only
    run compares with the source it has (a cubin of another version of it is stale). Not the
    headers of include directories or <name> ones: a cubin-only machine may lack them."""
    from .cache import included_headers
    from .driver import source_bytes
    path = source_path(kernel.source)
    text = source_bytes(read_source(path))
    h = hashlib.sha256(text)
    for name, content in included_headers(text, [], path.parent):
        h.update(source_bytes(name) + b"\0" + content)
    return h.hexdigest()


def write_manifest(out, rows, note=print):
    """``out``/manifest.json: compile_table's rows, a cubin by its file name (the directory may move
    to another machine) with its digest, its source's and how it was built (built_with). A row of
    this compile replaces the one of the same kernel and arch — unless this one built nothing and
    that one's cubin is there (a failed rebuild leaves the last good one, which the digests then
    judge); the others stay, those with a cubin while it is there (a compile of one arch into a
    directory of many keeps the rest). Compiles into one directory at once take turns (a lock). A
    manifest that cannot be read is replaced by this compile's rows, with a ``note`` naming the
    cubins that leaves unlisted (a cubin-only run refuses them)."""
    import fcntl
    from .report import as_json
    out = Path(out)
    try:
        lock = open(out / ".manifest.lock", "a")
    except OSError as exc:
        raise UsageError(f"could not write {out / '.manifest.lock'} ({exc.strerror or exc})") from None
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)   # (released as the file closes)
        kept, broken = {}, None
        try:
            earlier = read_manifest(out, missing_ok=True)
        except CubinError as exc:
            earlier, broken = [], exc.problem
        for row in [*earlier, *rows]:
            key = row.get("kernel"), row.get("arch")
            if row.get("cubin"):
                row = {**row, "cubin": Path(row["cubin"]).name}
                if not (out / row["cubin"]).is_file():
                    continue
            elif kept.get(key, {}).get("cubin"):
                continue
            kept[key] = row
        _write_file(out / MANIFEST, as_json(list(kept.values())).encode())
    if broken:   # (said once it is replaced: a manifest that could not be written is an error of its own)
        listed = {row["cubin"] for row in kept.values() if row.get("cubin")}
        unlisted = sorted(p.name for p in out.glob("*.cubin") if p.name not in listed)
        note(f"{out / MANIFEST} {broken}: replaced by this compile's rows" + (
            f"; {len(unlisted)} cubin(s) there are now unlisted, which cubin-only runs refuse until they are "
            f"compiled into {out} again: {', '.join(unlisted[:4])}"
            + (f" and {len(unlisted) - 4} more" if len(unlisted) > 4 else "") if unlisted else ""))


def not_tcraws(path):
    """What the JSON at ``path`` is ("a JSON object", ...) where it reads as JSON but not as
    tcraw's list of rows — someone else's manifest.json, which a compile must not overwrite; None
    otherwise (none there, no rows, rows of which one at least names a kernel, or text a broken
    write of tcraw's may have left)."""
    try:
        value = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    if isinstance(value, list):
        return None if not value or any(isinstance(r, dict) and "kernel" in r for r in value) else \
            "a JSON list of no rows of tcraw's (none names a kernel)"
    kinds = {dict: "a JSON object", str: "a JSON string", bool: "a JSON true or false", type(None): "JSON null"}
    return kinds.get(type(value), "a JSON number")


def read_manifest(cubin_dir, missing_ok=False):
    """The rows of ``cubin_dir``/manifest.json ([] where there is none and ``missing_ok``)."""
    path = Path(cubin_dir) / MANIFEST
    try:
        rows = json.loads(path.read_text())
        if isinstance(rows, list) and all(isinstance(r, dict) and all(
                isinstance(r.get(name), str) for name in ("kernel", "arch")) and
                isinstance(r.get("cubin"), (str, type(None))) for r in rows):
            return rows
        problem = "is not a list of rows, each with a kernel and an arch (and a cubin, if any) named"
    except FileNotFoundError:
        if missing_ok:
            return []
        problem = "does not exist"
    except (OSError, ValueError) as exc:
        problem = f"cannot be read ({getattr(exc, 'strerror', None) or exc})"
    exc = CubinError(f"{path} {problem}; rebuild the directory with `tcraw compile --arch ... --out {cubin_dir}`")
    exc.problem = problem
    raise exc


def check_prebuilt(kernel, arch, path, image):
    """A prebuilt cubin is what its directory's manifest says was built there — its digest, and
    its source's where that source is here — and for the arch its name says: a cubin damaged,
    copied in by hand or built from another version of the source is refused, not run. (A
    directory without manifest.json — made by hand — is trusted as it is, its arch still read.)"""
    from .cubin import elf_arch
    rebuild = f"rebuild it with `{rebuild_command(kernel, arch, path.parent)}`"
    if os.path.lexists(path.parent / MANIFEST):   # (a link to nothing is a manifest that cannot be read)
        row = next((r for r in read_manifest(path.parent) if Path(str(r.get("cubin"))).name == path.name), None)
        if row is None:
            raise CubinError(f"{path.parent / MANIFEST} does not list {path.name}: it is no cubin that `tcraw "
                             f"compile --out` wrote there; {rebuild}")
        for field in ("cubin_sha256", "built_with"):   # (tcraw compile --out writes both in every row)
            if row.get(field) is None:
                raise CubinError(f"{path.parent / MANIFEST}'s row of {path.name} records no {field} (written by hand "
                                 f"or by an older tcraw), so the cubin cannot be vouched for; {rebuild}")
        if row["cubin_sha256"] != hashlib.sha256(image).hexdigest():
            raise CubinError(f"{path} is not the cubin its manifest records (its sha256 differs: changed since "
                             f"it was built); {rebuild}")
        if row["built_with"] != built_with(kernel):
            raise CubinError(f"{path} was built as {row['built_with']}, not as {kernel.name} is declared here "
                             f"({built_with(kernel)}); {rebuild}")
        if row.get("source_sha256") and is_file(source_path(kernel.source)) and \
                row["source_sha256"] != source_digest(kernel):
            raise CubinError(f"{path} was built from another version of {source_path(kernel.source)} (or the "
                             f"headers beside it) than the one here (stale); {rebuild}")
    if (built := elf_arch(image, str(path))[1]) != arch.cc:
        raise CubinError(f"{path} is named for {arch} but its ELF says sm_{built}; {rebuild}")


def _holds(path, sha256):
    """Whether ``path`` is a file whose bytes have this digest."""
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest() == sha256
    except OSError:
        return False


def _write_file(path, data):
    """``data`` into ``path`` whole or not at all: a temporary file beside it renamed over it (an
    interrupted compile --out leaves the old file or the new, never half of one)."""
    from .cache import replace_with, write_temp
    try:
        tmp = write_temp(path, data)
        try:
            mask = os.umask(0)
            os.umask(mask)
            os.chmod(tmp, 0o666 & ~mask)   # (mkstemp's 0600 would keep the cubins from another user's run)
            replaced = replace_with(tmp, path)
        except BaseException:   # (an error, or ^C, between the write and the rename: no temporary file left —
            with contextlib.suppress(OSError):   # and one that cannot be removed does not hide the ^C)
                os.unlink(tmp)
            raise
    except OSError as exc:
        raise UsageError(f"could not write {path} ({exc.strerror or exc})") from None
    if not replaced:
        raise UsageError(f"could not write {path} (it cannot be replaced: a directory in its place?)")
    return path
