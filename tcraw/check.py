"""tcraw check: a judge for one kernel, built-in or a user's, on shapes it was not tuned for.

A battery of shapes — 1³, primes, the kernel's tile ± 1, skinny, tall, long K, a large square —
plus shapes drawn from the seed, so no fixed list can be tuned to. Every shape runs with random
normal and with integer inputs (bit-exact where the accumulator allows), guarded: canary bands
around A, B and C catch and locate a write out of bounds, A and B must come back unchanged,
every output element must be written (poison). Once per kernel: the same bits on a rerun, and
NaN/Inf in the inputs showing up where they must. With isolation (the default) each shape runs
in a child process, so a fault or a hang (a timeout) is that shape's failed row, not the end.
"""

import random
import shutil
import subprocess
import sys

import numpy as np

from .errors import MissingToolError, TcrawError, UsageError
from .kernel import Kernel
from .kernels import child_args
from .matmul import GUARD_BYTES, check_host_fits, failed_record, make_problem, run_matmul
from .precision import base_matrices
from .sweep import child_rows

LARGE = 1024
EXTRAS_SHAPE = (127, 129, 255)   # the rerun-bits case: no kernel's tile divides it


DRAWN_MOST = 10_000   # shapes battery draws at most: each is a run on the GPU, and a list in memory


def battery(kernel, seed, drawn=4):
    """(m, n, k) shapes for ``kernel`` (a Kernel): fixed cases around its tile, then ``drawn``
    (a whole number from 0 to DRAWN_MOST) from ``seed`` (as --seed takes it)."""
    from . import validate
    if not isinstance(kernel, Kernel):
        raise UsageError(f"battery takes a Kernel (e.g. tcraw.get_kernel({kernel!r})), not {kernel!r}")
    validate.seed(seed)
    if not validate.is_whole(drawn, 0, DRAWN_MOST):
        raise UsageError(f"drawn is how many shapes to draw, a whole number from 0 to {DRAWN_MOST}; got {drawn!r}")
    seed = None if seed is None else int(seed)
    tm, tn, tk = kernel.tile
    fixed = [(1, 1, 1), (7, 13, 31), (97, 89, 83), (tm + 1, tn + 1, tk + 1), (max(1, tm - 1), max(1, tn - 1),
             max(1, tk - 1)), (2 * tm, 3 * tn, 4 * tk), (1, 256, 512), (512, 1, 256), (1000, 8, 96),
             (64, 64, 4096), (129, 257, 65), (255, 127, 63), (LARGE, LARGE, LARGE)]
    rng = random.Random(seed)
    drawn_shapes = [tuple(rng.randint(1, 700) for _ in range(3)) for _ in range(drawn)]
    return list(dict.fromkeys(fixed + drawn_shapes))


def check_shape(device, kernel, shape, seed, cubin, note=print, guard=True, cubin_dir=None):
    """The guarded runs of one shape, normal then integer inputs: a row (dict) each. Without
    ``guard`` a stray write lands outside any allocation, where compute-sanitizer sees it."""
    rows = []
    for mode in ("normal", "int"):
        case = f"{mode} {'×'.join(map(str, shape))}"
        try:
            a, b = base_matrices(*shape, mode, seed)
            hp = make_problem(device, kernel.precision, a, b, mode, cubin_dir=cubin_dir)
            rec = run_matmul(device, kernel, hp, iters=1, warmup=0, seed=seed, cubin=cubin, cubin_dir=cubin_dir,
                             guard=GUARD_BYTES if guard else 0)
            row = {"case": case, **rec.as_dict()}
            if mode == "int" and hp.tolerance() == 0.0 and rec.max_abs_err != 0.0:
                row["passed"], row["error"] = False, f"integer inputs must be bit-exact; max abs err {rec.max_abs_err}"
        except TcrawError as exc:
            note(f"{kernel.name} {case}: {exc}")
            row = {"case": case, **failed_record(kernel, *shape, device, str(exc).splitlines()[0],
                                                 inputs=mode, seed=seed).as_dict()}
        rows.append(row)
    return rows


def check_rerun_and_nan(device, kernel, seed, cubin, cubin_dir=None):
    """Same bits on a rerun; NaN in a row of A and Inf in a column of B reach C where they must."""
    rows = []
    shape = EXTRAS_SHAPE
    a, b = base_matrices(*shape, "normal", seed)
    hp = make_problem(device, kernel.precision, a, b, "normal", cubin_dir=cubin_dir)
    first, c1 = run_matmul(device, kernel, hp, iters=1, warmup=0, seed=seed, cubin=cubin, cubin_dir=cubin_dir, keep_output=True)
    _, c2 = run_matmul(device, kernel, hp, iters=1, warmup=0, seed=seed, cubin=cubin, cubin_dir=cubin_dir, keep_output=True)
    same = c1.tobytes() == c2.tobytes()
    rows.append({"case": f"same bits on a rerun {'×'.join(map(str, shape))}", **first.as_dict(), "passed": first.passed and same,
                 "error": None if same else "two runs on the same inputs gave different bits"})
    p = kernel.precision
    if p.keeps_nan:   # (int8 keeps no NaN; FP8 no infinity: Precision.keeps_inf)
        a, b = base_matrices(40, 50, 60, "normal", seed)
        a[3, 5] = np.nan
        if p.keeps_inf:
            b[7, 2] = np.inf
        hp = make_problem(device, p, a, b, "normal", reference="cpu")
        rec, c = run_matmul(device, kernel, hp, iters=1, warmup=0, seed=seed, cubin=cubin, cubin_dir=cubin_dir, keep_output=True)
        c = p.out_to_f64(c)
        ok = bool(np.isnan(c[3]).all() and (not p.keeps_inf or np.isinf(np.delete(c[:, 2], 3)).all()))
        what = "NaN and Inf propagate" if p.keeps_inf else "NaN propagates"
        rows.append({"case": f"{what} 40×50×60", **rec.as_dict(), "passed": rec.passed and ok,
                     "error": None if ok else f"a NaN row of A{' or an Inf column of B' if p.keeps_inf else ''} "
                                              "did not reach C"})
    return rows


def check_in_process(device, kernel, shapes, seed, cubin, extras=True, note=print, guard=True,
                     cubin_dir=None):
    """Every case of ``shapes`` (and the rerun/NaN cases when ``extras``) in this process."""
    from . import validate
    validate.device(device, "check_in_process")
    rows = []
    for shape in shapes:
        rows += check_shape(device, kernel, shape, seed, cubin, note, guard, cubin_dir)
    if extras:
        try:
            rows += check_rerun_and_nan(device, kernel, seed, cubin, cubin_dir)
        except TcrawError as exc:
            rows.append({"case": "rerun and NaN/Inf", **failed_record(kernel, *EXTRAS_SHAPE, device,
                                                                      str(exc).splitlines()[0]).as_dict()})
    return rows


def child_command(kernel, device_index, shapes, seed, extras, backend=None, cubin_dir=None, guard=True):
    """The `tcraw check` line that runs some of ``kernel``'s cases in a child process."""
    cmd = [sys.executable, "-m", "tcraw", "check", *child_args(kernel),
           "--device", str(device_index), "--seed", str(seed), "--no-isolate", "--format", "json"]
    # no shapes: the child runs the extras alone (an empty --shapes is refused as a user's mistake)
    cmd += ["--shapes", ";".join(",".join(map(str, s)) for s in shapes)] if shapes else ["--extras-only"]
    if not extras:
        cmd.append("--no-extras")
    if not guard:
        cmd.append("--no-guard")
    if backend:
        cmd += ["--backend", backend]
    if cubin_dir:
        cmd += ["--cubin-dir", str(cubin_dir)]
    return cmd


def run_child(cmd, kernel, shapes, timeout, what):
    """Rows from a child `tcraw check`, or a failed row per shape (one for the extras) saying what
    happened to it."""
    rows, why = child_rows(cmd, timeout, hang="hang: no answer within {timeout} s (a kernel that "
                                             "never finishes, or a deadlock)")
    if rows is not None:
        return rows
    return [{"case": f"{what} {'×'.join(map(str, s))}", **failed_record(kernel, *s, None, why).as_dict()}
            for s in shapes or [EXTRAS_SHAPE]]


def check_isolated(kernel, device_index, shapes, seed, *, timeout=120, backend=None, cubin_dir=None,
                   note=print, extras=True, guard=True):
    """Each shape in its own child process (a fault or hang loses only that shape's rows). No
    driver, no such GPU: refused here first, as run_isolated does."""
    from . import validate
    from .runtime import existing_ordinal
    from .sweep import check_request
    check_request([kernel], seed=seed, isolate=True, cubin_dir=cubin_dir, backend=backend)
    if isinstance(shapes, (str, bytes)) or not isinstance(shapes, (list, tuple)):
        raise UsageError(f"shapes is a list of (M, N, K), not {shapes!r:.80}")
    shapes = [validate.shape(s, "each of shapes") for s in shapes]
    existing_ordinal(device_index, backend)
    return checked_children(kernel, device_index, shapes, seed, timeout=timeout, backend=backend, cubin_dir=cubin_dir,
                            note=note, extras=extras, guard=guard)


def checked_children(kernel, device_index, shapes, seed, *, timeout, backend, cubin_dir, note, extras, guard):
    """check_isolated's children, for a request check_kernels has checked on a GPU it has opened."""
    rows = []
    for shape in shapes:
        got = run_child(child_command(kernel, device_index, [shape], seed, False, backend, cubin_dir, guard),
                        kernel, [shape], timeout, "shape")
        note(f"{kernel.name} {'×'.join(map(str, shape))}: "
             + ("ok" if all(r["passed"] for r in got) else "FAILED"))
        rows += got
    if extras:
        rows += run_child(child_command(kernel, device_index, [], seed, True, backend, cubin_dir, guard),
                          kernel, [], timeout, "extras")
    return rows


SANITIZER_TOOLS = ("memcheck", "racecheck", "initcheck")


def find_sanitizer():
    import os
    from pathlib import Path
    for root in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if root and (Path(root) / "bin" / "compute-sanitizer").is_file():
            return str(Path(root) / "bin" / "compute-sanitizer")
    return shutil.which("compute-sanitizer")


def require_sanitizer():
    """compute-sanitizer's path, or the MissingToolError that says how to get one."""
    tool_path = find_sanitizer()
    if not tool_path:
        raise MissingToolError("--sanitize needs compute-sanitizer (CUDA toolkit), which is not on this machine: put "
                               "it on PATH or set CUDA_HOME to its toolkit")
    return tool_path


def run_sanitizer(kernel, device_index, shapes, seed, *, timeout=600, backend=None, cubin_dir=None):
    """compute-sanitizer's memcheck, racecheck and initcheck over ``shapes``: a row per tool, the
    runs unguarded (inside a guard band a stray write is in bounds as far as memcheck knows)."""
    if not shapes:
        return []   # nothing to run under it (the extras alone are not sanitizer cases)
    tool_path = require_sanitizer()
    rows = []
    for tool in SANITIZER_TOOLS:
        cmd = [tool_path, "--tool", tool, "--error-exitcode", "9", *(["--racecheck-report", "all"]
               if tool == "racecheck" else []),
               *child_command(kernel, device_index, shapes, seed, False, backend, cubin_dir, guard=False)]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
            errors = [line for line in p.stdout.splitlines() if "ERROR SUMMARY" in line or "=========" in line]
            ok, why = p.returncode in (0, 1), (errors[-1].strip("= ") if errors else f"exit {p.returncode}")
        except subprocess.TimeoutExpired:
            ok, why = False, f"no answer within {timeout} s"
        row = failed_record(kernel, *shapes[0], None, None if ok else why).as_dict()
        row.update(case=f"compute-sanitizer {tool} ({len(shapes)} shapes)", passed=ok)
        rows.append(row)
    return rows


def check_kernels(device_index, chosen, *, shapes=None, seed=None, isolate=True, timeout=None, sanitize=None,
                  extras=True, guard=True, backend=None, cubin_dir=None, note=print, open_device=None):
    """What `tcraw check` does: for each kernel of ``chosen`` the battery (or ``shapes``), guarded,
    both input modes, the rerun and NaN/Inf cases (``extras``) → rows, each with its ``case``.
    ``sanitize``: None, "failing" (the failing shapes, or the first three when none fail) or
    "all", rerun under compute-sanitizer memcheck, racecheck and initcheck. ``timeout``: seconds
    per isolated shape (default 120); not isolated, a shape runs in this process with none (and a
    timeout given with isolate=False is refused)."""
    from . import compiler, validate
    from .kernels import runnable
    from .runtime import Device
    from .sweep import fresh_seed
    from .sweep import check_request
    check_request(chosen, seed=seed, isolate=isolate, cubin_dir=cubin_dir, backend=backend, note=note)
    if shapes is not None:   # ([] with extras: the rerun and NaN/Inf cases alone, an isolated check's last child)
        if isinstance(shapes, (str, bytes)) or not isinstance(shapes, (list, tuple)) or not (shapes or extras):
            raise UsageError(f"shapes is a list of (M, N, K) (empty only with extras: those cases alone), "
                             f"not {shapes!r:.80}")
        shapes = [validate.shape(shape, "each of shapes") for shape in shapes]
        for shape in shapes:
            check_host_fits(*shape)   # (as run and bench: before the GPU is opened)
    if timeout is not None and not isolate:
        raise UsageError("--timeout bounds each isolated shape's child process; --no-isolate runs in this "
                         "process, with none: drop one of them")
    timeout = validate.timeout_s(120 if timeout is None else timeout)
    if sanitize not in (None, "failing", "all"):
        raise UsageError(f"sanitize is None, 'failing' or 'all', got {sanitize!r}")
    device_index = validate.device_index(device_index)
    if sanitize:
        require_sanitizer()   # (every argument checked first: a bad one is 2 on any machine) before the battery
    seed = fresh_seed() if seed is None else seed
    rows = []
    with (open_device or Device)(device_index) as dev:
        kerns = runnable(dev, chosen, True, note)
        if isolate:
            dev.close()   # the children hold the GPU
        for kern in kerns:
            todo = shapes if shapes is not None else battery(kern, seed)
            if isolate:
                got = checked_children(kern, device_index, todo, seed, timeout=timeout, backend=backend,
                                       cubin_dir=cubin_dir, note=note, extras=extras, guard=guard)
            else:
                try:
                    cubin = compiler.cubin_for(kern, dev, cubin_dir)
                except UsageError as exc:   # (the request: no such cubin, an arch it cannot take)
                    if rows:   # (the kernels checked before it: the caller still gets them)
                        exc.rows = rows
                    raise
                except TcrawError as exc:   # its source does not compile: a failed row a shape, as
                    note(f"{kern.name}: {exc}")   # the isolated children give, exit 1 — the others still run
                    got = [{"case": f"compile {'×'.join(map(str, s))}",
                            **failed_record(kern, *s, dev, str(exc).splitlines()[0]).as_dict()}
                           for s in todo or [EXTRAS_SHAPE]]
                else:
                    got = check_in_process(dev, kern, todo, seed, cubin, extras=extras, note=note, guard=guard,
                                           cubin_dir=cubin_dir)
            rows += got
            if sanitize:
                failing = list(dict.fromkeys(tuple(r[d] for d in "mnk") for r in got if not r["passed"]
                                             and r["case"].split()[0] in ("normal", "int", "shape")))
                target = failing or (todo if sanitize == "all" else todo[:3])
                rows += run_sanitizer(kern, device_index, target, seed, backend=backend, cubin_dir=cubin_dir)
    return rows
