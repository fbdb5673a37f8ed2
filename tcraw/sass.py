"""Tensor-instruction counts read from a cubin's SASS with cuobjdump (when one is installed).

Evidence, not assumption: a WMMA kernel should show HMMA (or IMMA / DMMA), a wgmma kernel HGMMA.
cuobjdump is slow next to a cache hit, so the counts are kept beside the cubin cache, keyed by the
cubin itself: a warm `tcraw compile --arch all` reads them instead of disassembling every cubin.
"""

import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from .cache import SASS_SUFFIX, cache_dir, replace_with, write_temp

COUNTS_VERSION = 3   # bump when the counting changes: the kept counts then miss (2: whole forms, 3: per entry)
TENSOR_OPS = ("HGMMA", "HMMA", "IMMA", "DMMA", "IGMMA", "QGMMA")
_OP = re.compile(r"^\s*/\*[0-9a-f]+\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_]*(?:\.[A-Za-z0-9_]+)*)", re.MULTILINE)
_FUNCTION = re.compile(r"^\s*Function : (\S+)\s*$", re.MULTILINE)   # cuobjdump's header of each entry's SASS


def find_cuobjdump():
    """cuobjdump: $TCRAW_CUOBJDUMP, a pip wheel (cuda-toolkit[cuobjdump,nvdisasm]), CUDA_HOME /
    CUDA_PATH, or PATH. CUDA 13's cannot read sm_50 … sm_72 cubins and CUDA 12 has no cuobjdump
    wheel: for those, point TCRAW_CUOBJDUMP at an older toolkit's (e.g. Debian's
    nvidia-cuda-toolkit, /usr/bin/cuobjdump, with nvdisasm beside it)."""
    if os.environ.get("TCRAW_CUOBJDUMP"):   # asked for by name: used, or refused, never skipped
        tool = os.environ["TCRAW_CUOBJDUMP"]
        if not shutil.which(tool):
            from .errors import UsageError
            raise UsageError(f"TCRAW_CUOBJDUMP={tool!r} is not an executable cuobjdump; point it at one "
                             "(e.g. Debian's nvidia-cuda-toolkit: /usr/bin/cuobjdump) or unset it")
        return tool
    try:
        from cuda.pathfinder import find_nvidia_binary_utility
        found = find_nvidia_binary_utility("cuobjdump")
        if found:
            return str(found)
    except Exception:  # pathfinder missing or too old to know binaries
        pass
    for var in ("CUDA_HOME", "CUDA_PATH"):
        if os.environ.get(var):
            cand = Path(os.environ[var]) / "bin" / "cuobjdump"
            if cand.is_file():
                return str(cand)
    return shutil.which("cuobjdump") or (
        "/usr/local/cuda/bin/cuobjdump" if Path("/usr/local/cuda/bin/cuobjdump").is_file() else None)


def _nvdisasm_dir():
    """cuobjdump shells out to nvdisasm; a pip wheel's is not on PATH, so point NVDISASM_PATH at it."""
    try:
        from cuda.pathfinder import find_nvidia_binary_utility
        found = find_nvidia_binary_utility("nvdisasm")
        return str(Path(found).parent) if found else None
    except Exception:
        return None


def dump_sass(image, tool=None):
    tool = tool or find_cuobjdump()
    if not tool:
        return None
    env = dict(os.environ)
    beside = Path(tool).parent
    if (beside / "nvdisasm").is_file():   # cuobjdump shells out to nvdisasm: use its own
        env["NVDISASM_PATH"] = str(beside)
    elif "NVDISASM_PATH" not in env and not shutil.which("nvdisasm") and (d := _nvdisasm_dir()):
        env["NVDISASM_PATH"] = d
    with tempfile.NamedTemporaryFile(suffix=".cubin") as f:
        f.write(image)
        f.flush()
        try:
            out = subprocess.run([tool, "--dump-sass", f.name], capture_output=True, text=True,
                                 timeout=60, env=env)
        except (OSError, subprocess.TimeoutExpired):   # counts are evidence, not a reason to fail
            return None
    return out.stdout if out.returncode == 0 else None


def entry_sass(sass, entry):
    """The part of cuobjdump's ``sass`` that is ``entry``'s code (None where the dump has no such
    entry): a cubin can hold several kernels (04's fp16 and bf16 forms), each counted alone."""
    heads = list(_FUNCTION.finditer(sass))
    for head, after in zip(heads, heads[1:] + [None]):
        if head.group(1) == entry:
            return sass[head.end():after.start() if after else len(sass)]
    return None


def opcodes(sass):
    """Every instruction of cuobjdump's ``sass`` text as its opcode with its modifiers
    ('HGMMA.64x256x16.F32.BF16', 'STS', 'IADD3', ...), in order."""
    return _OP.findall(sass)


def tensor_op_forms(image, tool=None, entry=None):
    """{'QGMMA.64x256x32.F32.E4M3.E4M3': n, ...}: each tensor instruction present with its whole
    form — shape and types, the evidence that an FP8 or TF32 kernel runs those MMAs (static
    count) — in ``entry``'s code (None: the whole cubin), or None without cuobjdump."""
    if entry is not None:   # (a mistyped name would read as "no tensor instructions")
        from .cubin import require_entry
        require_entry(image, entry)
    tool = tool or find_cuobjdump()
    if not tool:
        return None
    kept = _kept_path(image, entry)
    if kept is not None and (forms := _read_kept(kept)) is not None:
        return forms
    sass = dump_sass(image, tool)
    code = sass if sass is None or entry is None else entry_sass(sass, entry)
    if code is None or not _FUNCTION.search(sass):   # (no dump of the code, or not a dump: unknown, not "none")
        return None
    forms = {}
    for op in opcodes(code):
        if op.split(".")[0] in TENSOR_OPS:
            forms[op] = forms.get(op, 0) + 1
    if kept is not None:
        _keep(kept, forms)
    return forms


def base_counts(forms):
    """{'HGMMA': n, ...} from tensor_op_forms' answer (None stays None)."""
    if forms is None:
        return None
    counts = {}
    for form, n in forms.items():
        base = form.split(".")[0]
        counts[base] = counts.get(base, 0) + n
    return counts


def tensor_op_counts(image, tool=None, entry=None):
    """{'HMMA': n, ...} for the tensor opcodes present in ``entry`` (None: the whole cubin; static
    count), or None without cuobjdump."""
    return base_counts(tensor_op_forms(image, tool, entry))


def _kept_path(image, entry=None):
    """Where the counts of this cubin (of its ``entry``) are kept, or None with TCRAW_NO_CACHE=1."""
    from .validate import env_flag
    if env_flag("TCRAW_NO_CACHE"):
        return None
    h = hashlib.sha256(json.dumps([COUNTS_VERSION, TENSOR_OPS, entry]).encode())
    h.update(image)
    return cache_dir() / f"{h.hexdigest()}{SASS_SUFFIX}"


def _read_kept(path):
    """The counts kept at ``path``, or None — none yet, unreadable, or not {opcode form: count ≥ 0}
    (a damaged entry is counted again, as a damaged cubin is compiled again)."""
    try:
        counts = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None
    valid = isinstance(counts, dict) and all(
        isinstance(form, str) and form.split(".")[0] in TENSOR_OPS and type(n) is int and n >= 0
        for form, n in counts.items())
    return counts if valid else None


def _keep(path, counts):
    """Write atomically, as cache entries are; a failure only means counting again next time."""
    try:
        replace_with(write_temp(path, json.dumps(counts).encode()), path)
    except OSError:
        pass
