"""Several kernels × problems × devices, keeping every finished row whatever fails.

In-process (``run_kernels``): one device, one problem, each kernel in turn; a kernel whose run
raises becomes a failed row and the others still run. Isolated (``run_isolated``): each kernel
in a child `tcraw run` process, so a kernel that faults (an illegal address kills the whole
CUDA context, for good) cannot take the parent or the other kernels' results with it.
"""

import json
import subprocess
import sys

from . import kernels, report, validate
from .kernels import runnable
from .errors import TcrawError, UsageError
from .matmul import failed_record, make_problem, run_matmul
from .precision import base_matrices


def run_kernels(device, chosen, shape, *, inputs, seed, iters, warmup, cubin_dir=None, note=print,
                save=None, strict=True, b_layout=None):
    """Records (dicts) for each kernel on one (m, n, k) problem on ``device``. The reference is
    the CPU's or, for big problems, the GPU's (matmul.reference_kind), one precision at a time
    so that host memory holds one reference whatever the kernel list. ``save`` (a dict) gets
    each precision's stored A and B and each kernel's output. ``strict``: a UsageError (the
    request is wrong, e.g. no cubin for this GPU) ends the run; otherwise it is a failed row,
    as a sweep wants, so that rows already measured are never lost. ``b_layout``: B stored "row"
    or "col" (K-major) for every kernel; None: each kernel's own."""
    validate.device(device, "run_kernels")
    m, n, k = shape
    base_a, base_b = base_matrices(m, n, k, inputs, seed)
    hp, rows = None, []
    for kern in chosen:
        p = kern.precision
        try:
            if hp is None or hp.precision is not p:
                hp = None   # drop the last reference before building the next
                hp = make_problem(device, p, base_a, base_b, inputs, cubin_dir=cubin_dir)
                if save is not None:
                    save.setdefault("problems", {})[p.key] = (hp.a, hp.b)
            rec, c = run_matmul(device, kern, hp, iters=iters, warmup=warmup, seed=seed,
                                cubin_dir=cubin_dir, keep_output=True, b_layout=b_layout)
            if save is not None:
                save.setdefault("outputs", {})[kern.name] = c
        except TcrawError as exc:
            if strict and isinstance(exc, UsageError):
                if rows:   # (measured before it: the caller still gets them, as cmd_run prints them)
                    exc.rows = add_speedups(rows)
                raise  # the request itself is wrong: nothing else would go better
            note(f"{kern.name}: {exc}")
            rec = failed_record(kern, m, n, k, device, str(exc).splitlines()[0], inputs=inputs,
                                seed=seed, iters=iters, warmup=warmup)
        rows.append(rec.as_dict())
    return add_speedups(rows)


def add_speedups(rows):
    """speedup = baseline time / kernel time, per device and problem, where the baseline passed."""
    base = {(r["device_index"], r["m"], r["n"], r["k"]): r["time_ms"] for r in rows
            if r["kernel"] == kernels.BASELINE and r["passed"]}
    for r in rows:
        t = base.get((r["device_index"], r["m"], r["n"], r["k"]))
        r["speedup"] = t / r["time_ms"] if t and r["passed"] else None
    return rows


def child_rows(cmd, timeout, hang="no answer within {timeout} s"):
    """Run a child `tcraw` command that prints JSON rows: (rows, None), or (None, why it gave none:
    its last stderr line, the timeout, or output that is not JSON)."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, hang.format(timeout=timeout)
    if p.returncode in (0, 1) and p.stdout.strip():
        try:
            return json.loads(p.stdout), None
        except ValueError:
            return None, f"unreadable output from the child: {p.stdout[:200]!r}"
    return None, (p.stderr.strip().splitlines() or [f"exit {p.returncode}"])[-1].removeprefix("tcraw: ")


def run_isolated(device_index, kern, shape, *, inputs, seed, iters, warmup, cubin_dir=None,
                 backend=None, timeout=600, b_layout=None):
    """One kernel on one problem in a child process; its rows, or one failed row saying why (the
    child's own message: a fault, a refusal, a timeout), so that no other row is lost. No driver,
    no such GPU: refused here first (NoDeviceError, UsageError), never a failed row of the kernel's."""
    from .runtime import existing_ordinal
    m, n, k = validate.shape(shape)
    check_request([kern], iters=iters, warmup=warmup, seed=seed, inputs=inputs, cubin_dir=cubin_dir, backend=backend,
                  b_layout=b_layout, isolate=True)   # (what the request is, before what the machine has)
    existing_ordinal(device_index, backend)
    return isolated_rows(device_index, kern, (m, n, k), inputs=inputs, seed=seed, iters=iters, warmup=warmup,
                         cubin_dir=cubin_dir, backend=backend, timeout=timeout, b_layout=b_layout)


def isolated_rows(device_index, kern, shape, *, inputs, seed, iters, warmup, cubin_dir, backend, timeout=600,
                  b_layout=None):
    """run_isolated's child, for a request already checked on a GPU already opened (run_problem's
    and run_sweep's, once — not again for every kernel and size)."""
    m, n, k = shape
    cmd = [sys.executable, "-m", "tcraw", "run", *kernels.child_args(kern), "-m", str(m), "-n", str(n),
           "-k", str(k), "--inputs", inputs, "--seed", str(seed), "--iters", str(iters),
           "--warmup", str(warmup), "--device", str(device_index), "--format", "json"]
    if cubin_dir:
        cmd += ["--cubin-dir", str(cubin_dir)]
    if backend:
        cmd += ["--backend", backend]
    if b_layout:
        cmd += ["--b-layout", b_layout]
    rows, why = child_rows(cmd, timeout)
    if rows is not None:
        return rows
    return [failed_record(kern, m, n, k, None, f"child process failed: {why}", backend=backend,
                          iters=iters, warmup=warmup, device_index=device_index, inputs=inputs,
                          seed=seed).as_dict()]


def check_request(chosen, *, iters=None, warmup=None, seed=None, isolate=False, b_layout=None, inputs=None,
                  cubin_dir=None, backend=None, note=None):
    """What run, sweep and check ask of a request before any GPU: the kernels (a list of them,
    each source a file), the timing, the seed, the inputs, the cubin directory and the backend
    named, B's layout (every kernel must read it: a request is never half-ignored), and —
    isolated — that a child process can declare every kernel (one built in Python it cannot); a
    user's kernel is built once (compiler.check_declared), and one that does not compile here is
    said to ``note`` up front (its rows will carry the error: the other kernels still run)."""
    from .driver import BACKENDS
    from .matmul import check_layout
    kernels.checked_chosen(chosen)
    if inputs is not None:
        validate.inputs(inputs)
    if cubin_dir is not None:
        from .compiler import check_cubin_dir
        check_cubin_dir(cubin_dir)
    if backend is not None and backend not in BACKENDS:   # (the children's --backend: a name)
        raise UsageError(f"backend is the name of the one isolated children use ({', '.join(BACKENDS)}), "
                         f"not {backend!r:.80}")
    if iters is not None or warmup is not None:
        validate.timing(iters, warmup)
    validate.seed(seed)
    if b_layout is not None:
        readers = [k.name for k in chosen if b_layout in k.b_layouts]
        for k in chosen:
            try:
                check_layout(k, b_layout)
            except UsageError as exc:
                if not readers:
                    raise
                raise UsageError(f"{exc}; of the kernels chosen, {', '.join(readers)} read B {b_layout}-major: "
                                 f"name them alone (--kernel {','.join(readers)})") from None
    if isolate:
        for k in chosen:
            kernels.child_args(k)
    if cubin_dir is None:   # (cubin-only runs have no NVRTC)
        note_unbuildable(chosen, note)


def note_unbuildable(chosen, note):
    """Build each user's kernel among ``chosen`` once, before any GPU (compiler.check_declared):
    what its source refuses on any arch is raised, and one that does not compile here is said to
    ``note`` up front — its rows will carry the error; the other kernels still run."""
    from .compiler import check_declared, first_error
    for k in chosen:
        if kernels.KERNELS.get(k.name) is not k and (problem := check_declared(k)) and note:
            said = first_error(getattr(problem, "log", None)) or str(problem).splitlines()[0]
            note(f"{k.name}: does not build here — {said:.300}; its rows will say so")


def run_sweep(device_indices, chosen, sizes, *, explicit, inputs, seed, iters, warmup, cubin_dir=None,
              isolate=True, backend=None, note=print, open_device=None):
    """sizes × kernels × devices → rows. Every device is opened first (the index checked, the
    kernels it cannot run skipped or refused, the largest size fitted); then, isolated, one
    worker per GPU runs its kernels concurrently, each kernel in a child process, so that two
    GPUs take the time of one and a kernel that faults is a failed row. Without isolation the
    GPUs take turns in this process. Rows come back in device order, tagged with the device."""
    from concurrent.futures import ThreadPoolExecutor
    from .matmul import check_fits, check_host_fits
    from .runtime import Device
    if isinstance(sizes, (str, bytes)) or not isinstance(sizes, (list, tuple)) or not sizes:
        raise UsageError(f"sizes are a non-empty list of whole numbers (each an n×n×n problem), not {sizes!r:.80}")
    for size in sizes:
        validate.problem(size, size, size)
    check_request(chosen, iters=iters, warmup=warmup, seed=seed, isolate=isolate, inputs=inputs, cubin_dir=cubin_dir,
                  backend=backend, note=note)
    if not isinstance(device_indices, (list, tuple)) or not device_indices:
        raise UsageError(f"device_indices is a non-empty list of GPU indices ([0], [0, 1]), not {device_indices!r:.80}")
    device_indices = [validate.device_index(i) for i in device_indices]
    check_host_fits(*(max(sizes),) * 3)
    seed = fresh_seed() if seed is None else seed
    open_device = open_device or Device
    plans = []
    for index in device_indices:
        with open_device(index) as dev:
            kerns = runnable(dev, chosen, explicit, note)
            if kerns:
                check_fits(dev, kerns, *(max(sizes),) * 3)
            plan = (index, dev.name, str(dev.arch), kerns)
            if not isolate:   # in-process: this device's whole share now, while it is open
                plans.append((plan, [r for size in sizes for r in run_kernels(
                    dev, kerns, (size,) * 3, inputs=inputs, seed=seed, iters=iters, warmup=warmup,
                    cubin_dir=cubin_dir, note=note, strict=False)]))
            else:
                plans.append((plan, None))

    def worker(plan):
        index, name, arch, kerns = plan
        rows = []
        for size in sizes:
            for kern in kerns:
                got = isolated_rows(index, kern, (size,) * 3, inputs=inputs, seed=seed, iters=iters,
                                    warmup=warmup, cubin_dir=cubin_dir, backend=backend)
                for r in got:
                    r.update(device=r.get("device") or name, arch=r.get("arch") or arch)
                rows += got
                note(f"device {index} {name}: {kern.name} {size}³ "
                     + ("ok" if all(r["passed"] for r in got) else "FAILED"))
        return rows

    if isolate:
        with ThreadPoolExecutor(max_workers=max(1, len(plans))) as pool:
            done = list(pool.map(worker, [plan for plan, _ in plans]))
    else:
        done = [rows for _, rows in plans]
    return add_speedups([r for rows in done for r in rows])


def run_problem(device_index, chosen, shape, *, explicit=True, inputs="normal", seed=None, iters=20,
                warmup=3, cubin_dir=None, isolate=False, backend=None, save=None, note=print,
                open_device=None, b_layout=None):
    """What `tcraw run` does: each kernel of ``chosen`` on one (m, n, k) problem on one GPU →
    rows (dicts, the JSON records), with speedups over the naive FP32 baseline. ``isolate`` runs
    each kernel in a child process; ``save`` (a directory; not with ``isolate``) gets A, B (per
    precision, as stored) and each C as .npy, and the records, so anyone can re-check a result.
    ``b_layout``: B stored "row" (K×N) or "col" (N×K, K-major) for every kernel (None: each
    kernel's own). Everything is checked before the GPU is touched; a problem the GPU or the host
    cannot hold is refused up front."""
    from .matmul import check_fits, check_host_fits
    from .runtime import Device
    shape = validate.shape(shape)
    check_request(chosen, iters=iters, warmup=warmup, seed=seed, isolate=isolate, b_layout=b_layout, inputs=inputs,
                  cubin_dir=cubin_dir, backend=backend, note=note)
    device_index = validate.device_index(device_index)
    if save is not None and isolate:
        raise UsageError("--save (save=) keeps the outputs of kernels run in this process; drop --isolate "
                         "(isolate=)")
    save_dir = validate.output_dir(save, "--save", saved_files(chosen))
    check_host_fits(*shape)
    seed = fresh_seed() if seed is None else seed
    with (open_device or Device)(device_index) as dev:
        kerns = runnable(dev, chosen, explicit, note)
        if kerns:
            check_fits(dev, kerns, *shape)
        saved = {} if save_dir else None
        if isolate:
            dev.close()  # the children hold the GPU; this process only collects their rows
            rows = add_speedups([r for kern in kerns for r in isolated_rows(
                device_index, kern, shape, inputs=inputs, seed=seed, iters=iters, warmup=warmup,
                cubin_dir=cubin_dir, backend=backend, b_layout=b_layout)])
        else:
            rows = run_kernels(dev, kerns, shape, inputs=inputs, seed=seed, iters=iters, warmup=warmup,
                               cubin_dir=cubin_dir, note=note, save=saved, b_layout=b_layout)
    if saved is not None:
        try:
            save_outputs(save_dir, saved.get("problems", {}), saved.get("outputs", {}), rows, note)
        except UsageError as exc:
            exc.rows = rows   # measured but not saved: the caller still gets the rows
            raise
    return rows


def fresh_seed():
    """A new input seed (printed with the results, so a run can be replayed with it)."""
    import secrets
    return secrets.randbits(31)


SAVED_RECORDS = "records.json"   # (save_outputs' records, beside the arrays)


def saved_name(what, name):
    """The file save_outputs writes ``what`` ("A", "B": a precision's inputs; "C": a kernel's
    output) of ``name`` (the precision's key, the kernel's name) to."""
    return f"{what}_{name}.npy"


def saved_files(chosen):
    """The files save_outputs writes for ``chosen`` kernels: their inputs, outputs and records."""
    keys = dict.fromkeys(k.precision.key for k in chosen)
    return [*(saved_name(x, key) for key in keys for x in "AB"), *(saved_name("C", k.name) for k in chosen),
            SAVED_RECORDS]


def save_outputs(out, problems, outputs, rows, note=print):
    """A, B (per precision, in storage format: bf16 as uint16 bits) and each C as .npy, plus the
    records, so anyone can re-check a result against their own reference. A failed write is a
    UsageError; the rows are the caller's to print first."""
    import numpy as np
    from pathlib import Path
    out = Path(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        for key, (a, b) in problems.items():
            np.save(out / saved_name("A", key), a)
            np.save(out / saved_name("B", key), b)
        for name, c in outputs.items():
            np.save(out / saved_name("C", name), np.ascontiguousarray(c))
        (out / SAVED_RECORDS).write_text(report.as_json(rows))
    except OSError as exc:
        raise UsageError(f"could not write the saved run to {out} ({exc.strerror or exc})") from None
    note(f"saved inputs, outputs and records under {out}")
