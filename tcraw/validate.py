"""Checks on what a caller asks for, made before anything is opened, compiled or launched.

The CLI runs every one of them before it touches the GPU, so a wrong argument is exit 2 on any
machine (not "no GPU" on one without); the library runs the same ones on its own entry points.
Each raises UsageError naming the value and what would be accepted.
"""

import contextlib
import os
import re
import tempfile
from numbers import Integral, Real
from pathlib import Path


from .errors import UsageError

INT32_MAX = 2**31 - 1   # M, N, K reach the kernels as int
MAX_ITERS = 1_000_000   # beyond this a timing run is a mistake, not a measurement


def is_whole(value, least=0, most=None):
    """Whether ``value`` is a whole number (a Python or numpy integer, not a bool) in [least, most]."""
    return (not isinstance(value, bool) and isinstance(value, Integral) and value >= least
            and (most is None or value <= most))


def digits(text):
    """The int ``text`` spells in ASCII digits alone, or None — int() would also take " 4", "+4",
    "4_0" and other scripts' digits, which no shape or macro of a command line means."""
    return int(text) if text.isascii() and text.isdigit() else None


def problem(m, n, k):
    """M, N, K: whole numbers in [1, 2³¹ − 1] → as Python ints (numpy's fixed widths would wrap
    in the products and quotients that follow)."""
    for name, v in (("M", m), ("N", n), ("K", k)):
        if not is_whole(v, 1, INT32_MAX):
            raise UsageError(f"{name} must be an integer ≥ 1 (and below 2^31, the kernels' int), got {v!r}")
    return int(m), int(n), int(k)


def shape(value, what="the problem"):
    """(M, N, K) given as one sequence of three → problem's Python ints; anything else (64,
    "64,64,64", two sizes) a UsageError naming what it was."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (tuple, list)) or len(value) != 3:
        raise UsageError(f"{what} is (M, N, K), three whole numbers, got {value!r:.80}")
    return problem(*value)


def inputs(mode):
    """How A and B are drawn: one of precision.INPUT_MODES."""
    from .precision import INPUT_MODES
    if mode not in INPUT_MODES:
        raise UsageError(f"inputs (--inputs) is one of {', '.join(INPUT_MODES)}, got {mode!r}")
    return mode


def precision(value, where=""):
    """A Precision, or its key ("fp16") → the Precision; ``where`` prefixes the error ("kernel X: ")."""
    from .precision import PRECISIONS, Precision
    if isinstance(value, str):
        if value not in PRECISIONS:
            raise UsageError(f"{where}unknown precision {value!r}{close_to(value, PRECISIONS)}; "
                             f"choose from: {', '.join(PRECISIONS)}")
        return PRECISIONS[value]
    if not isinstance(value, Precision):
        raise UsageError(f"{where}precision is a key such as \"fp16\" (one of {', '.join(PRECISIONS)}) or a "
                         f"tcraw Precision, got {value!r:.80}")
    return value


def base_inputs(a, b):
    """A (M×K) and B (K×N) as a problem's float64 values — numpy arrays of real numbers whose
    inner sizes agree (tcraw.base_matrices makes such a pair) — or a UsageError naming which."""
    import numpy as np
    for name, v in (("A", a), ("B", b)):
        if not (isinstance(v, np.ndarray) and v.ndim == 2 and v.size and v.dtype.kind in "iuf"):
            what = (f"a {v.ndim}-D {v.dtype} array of shape {v.shape}" if isinstance(v, np.ndarray)
                    else f"{type(v).__name__} {v!r:.60}")
            raise UsageError(f"{name} must be a non-empty 2-D numpy array of real numbers (tcraw.base_matrices "
                             f"makes A and B), got {what}")
    if a.shape[1] != b.shape[0]:
        raise UsageError(f"A is {a.shape[0]}×{a.shape[1]} and B {b.shape[0]}×{b.shape[1]}: A's columns (K) must "
                         "equal B's rows")
    problem(a.shape[0], b.shape[1], a.shape[1])
    return a.astype(np.float64, copy=False), b.astype(np.float64, copy=False)


def timing(iters, warmup):
    """Timed launches ≥ 1, warm-up launches ≥ 0, neither absurd."""
    for name, v, low in (("--iters", iters, 1), ("--warmup", warmup, 0)):
        if not is_whole(v, low, MAX_ITERS):
            raise UsageError(f"{name} must be an integer in [{low}, {MAX_ITERS}], got {v!r}")


# The longest a child process (an isolated shape, ncu) may be given: a week. Python's own limit on
# a wait lies near 2^31 ms (about 25 days); past it subprocess raises instead of waiting.
MAX_TIMEOUT_S = 7 * 24 * 3600


def timeout_s(value, name="--timeout"):
    """Seconds a child process may run: a whole number in [1, MAX_TIMEOUT_S]."""
    if not is_whole(value, 1, MAX_TIMEOUT_S):
        raise UsageError(f"{name} must be a whole number of seconds in [1, {MAX_TIMEOUT_S}] (a week), got {value!r}")
    return int(value)


def hold_ms(value, name="the hold"):
    """A hold of the stream in ms (runtime.Device.hold, HOLD_MS_PER_LAUNCH): a finite real number
    in [0, 60 000], not a bool — a longer one would stall the GPU for minutes, uninterruptibly."""
    if isinstance(value, bool) or not isinstance(value, Real) or not 0 <= value <= 60_000:
        raise UsageError(f"{name} must be a number of ms in [0, 60000], got {value!r}")


def seed(value):
    """None (a fresh seed) or a whole number ≥ 0, which numpy's generator needs."""
    if value is not None and not is_whole(value, 0, 2**63 - 1):
        raise UsageError(f"--seed must be an integer in [0, 2^63), got {value!r}")


def defines(values):
    """Preprocessor definitions as NVRTC's -D takes them: NAME, NAME=VALUE or a function-like
    NAME(ARGS)=VALUE, NAME a C identifier, on one line (one NVRTC refuses would fail every arch's
    compile: a macro ends at its line's end)."""
    seen = {}
    for d in values:
        if not isinstance(d, str) or not re.fullmatch(r"[A-Za-z_]\w*(\([\w \t,.]*\))?(=[^\n\r]*)?", d, flags=re.ASCII):
            raise UsageError(f"define {d!r}: write NAME, NAME=VALUE or NAME(ARGS)=VALUE on one line, NAME a C "
                             "identifier")
        name = re.match(r"\w+", d)[0]
        if seen.setdefault(name, d) != d:   # (NVRTC would take the last and say nothing)
            raise UsageError(f"defines {seen[name]!r} and {d!r} give {name} twice; keep one")


def device_index(spec, allow_all=False):
    """A GPU index ≥ 0 (an int or its text), or 'all' where several GPUs make sense."""
    if allow_all and spec == "all":
        return "all"
    try:
        index = int(spec)
    except (TypeError, ValueError):
        index = -1
    if index < 0 or str(spec).strip() != str(index):
        raise UsageError(f"--device takes a GPU index ≥ 0{' or all' if allow_all else ''}, got {spec!r}")
    return index


def device(value, what, needs=("sm_count", "drv")):
    """An open device for ``what`` (a library entry point): a tcraw.Device, or any object with the
    attributes ``needs`` (tests' and callers' stand-ins) — else a UsageError saying so, not an
    AttributeError from inside tcraw (a GPU index given where the opened GPU is wanted)."""
    if not all(hasattr(value, name) for name in needs):
        hint = " (run_problem, check_kernels and bench_plan take an index)" if isinstance(value, Integral) else ""
        raise UsageError(f"{what} takes an open tcraw.Device (with tcraw.Device(0) as dev: ...), "
                         f"not {value!r:.80}{hint}")
    return value


MADE = []   # the directories output_dir made in this command, deepest first


def remove_unused_dirs():
    """Remove what output_dir made that is still empty — a command refused after its checks made
    its --out (no GPU, say) leaves no empty directory behind — and forget the rest."""
    for path in MADE:
        with contextlib.suppress(OSError):
            path.rmdir()
    MADE.clear()


def dir_problem(path):
    """Why ``path`` cannot be (made) a directory, or None: a file, or a link to nothing, where it
    or a directory above it would be (mkdir says only "File exists" of either)."""
    for p in (Path(path), *Path(path).parents):
        try:
            if p.is_symlink() and not p.exists():
                return f"{p} is a link to {os.readlink(p)}, which does not exist"
            if p.exists() and not p.is_dir():
                return f"{p} is a file, not a directory"
        except OSError:   # (a directory above that cannot be entered: the caller's own error says so)
            return None
    return None


def output_dir(path, option, files=()):
    """A directory results can be written into, made now and proven by writing a probe file —
    and where ``files`` (the names the run will write there) already lie, each one a file that can
    be overwritten: better refused before a long run than after it."""
    if path is None:
        return None
    if str(path).strip() == "":
        raise UsageError(f"{option} needs a directory path, got an empty one")
    out = Path(path)
    if (problem := dir_problem(out)):   # (where mkdir would say only "File exists")
        raise UsageError(f"{option} {path}: {problem}; choose a directory")
    try:
        MADE.extend(p for p in (out, *out.parents) if not os.path.lexists(p))   # (deepest first)
        out.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=out, prefix=".tcraw-probe-")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise UsageError(f"{option} {path}: cannot write there ({exc.strerror or exc}); "
                         "choose a directory you can write") from None
    for name in files:
        target = out / name
        if os.path.lexists(target) and not target.is_file():
            why = "a directory" if target.is_dir() else "not a file"
        elif target.is_file() and not os.access(target, os.W_OK):
            why = "a file you cannot overwrite"
        else:
            continue
        raise UsageError(f"{option} {path}: {target} is {why}, and the run writes its {name} there; move it "
                         f"away or choose another {option}")
    return out


def close_to(word, choices):
    """ " (did you mean X?)" — or "X or Y" — for the choices nearest ``word`` (case aside) where one
    is near, else "": a typo's fix named, not only the list it is missing from."""
    import difflib
    folded = {str(c).lower(): c for c in choices}
    word = str(word).lower()   # (FP16: fp16 alone; lmm, a short word, llm: a looser match)
    near = [word] if word in folded else difflib.get_close_matches(word, folded, n=2, cutoff=0.6 if len(word) <= 4
                                                                   else 0.75)
    return f" (did you mean {' or '.join(str(folded[n]) for n in near)}?)" if near else ""


def listed(text, option, sep=","):
    """The items of one option value ``text`` separated by ``sep`` (a regular expression; spaces
    around each item dropped), or None where all are empty; an empty item among others — two
    separators together, or one at an end — is a UsageError: a value was likely left out."""
    parts = [p.strip() for p in re.split(sep, str(text).strip())]
    if not any(parts):
        return None
    if not all(parts):
        raise UsageError(f"{option} {text!r} has an empty item (two separators together, or one at an end); "
                         "give the value left out or drop the separator")
    return parts


def names(values, option, known=None):
    """The items of a repeatable option, separated by commas or spaces ("a,b", "a b"), in order, once
    each; None when the option was not given. Given but empty (`--precision ,`) is an error, not the
    default."""
    if values is None:
        return None
    items = list(dict.fromkeys(v for item in values for v in listed(item, option, r"\s*,\s*|\s+") or []))
    if not items:
        raise UsageError(f"{option} was given an empty list; name at least one value or leave it out")
    if known is not None:
        unknown = [v for v in items if v not in known]
        if unknown:
            raise UsageError(f"unknown {option.lstrip('-')} {', '.join(map(repr, unknown))} ({option})"
                             f"{close_to(unknown[0], known)}; choose from: {', '.join(known)}")
    return items


TRUE, FALSE = ("1", "true", "yes", "on"), ("", "0", "false", "no", "off")


def env_flag(name):
    """A yes/no environment variable (TCRAW_TRACE, TCRAW_NO_CACHE, TCRAW_DEBUG): unset, 0/1,
    true/false, yes/no, on/off; anything else is refused rather than guessed."""
    value = os.environ.get(name, "").strip().lower()
    if value in TRUE or value in FALSE:
        return value in TRUE
    raise UsageError(f"{name}={os.environ[name]!r} is neither on nor off; set it to 1 or 0 (or unset it)")


def env_dirs(name):
    """The directories an environment variable names (os.pathsep-separated, TCRAW_CUDA_INCLUDE) as
    Paths, None where it is unset or empty; one that names anything but directories is refused,
    never skipped."""
    value = os.environ.get(name)
    if not value:
        return None
    dirs = [d for d in value.split(os.pathsep) if d]
    missing = [d for d in dirs if not is_dir(d)]
    if not dirs or missing:
        raise UsageError(f"{name}={value!r}: " + (f"{missing[0]} is not a directory" if missing else "names no directory")
                         + f"; set it to directories separated by {os.pathsep!r} (or unset it)")
    return [Path(d) for d in dirs]


def is_dir(path):
    """Whether ``path`` names a directory; a name the OS refuses to look up (too long, ...) is not."""
    try:
        return bool(str(path).strip()) and Path(path).is_dir()
    except OSError:
        return False


def is_file(path):
    """Whether ``path`` names a file; a name the OS refuses to look up (too long, ...) is not."""
    try:
        return bool(str(path).strip()) and Path(path).is_file()
    except OSError:
        return False
