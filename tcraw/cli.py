"""tcraw's command line: info, list, compile, run, sweep, bench, check, profile, cache.

Exit codes: 0 ok · 1 a check failed · 2 bad usage or input · 3 no usable GPU/driver.
Errors print one line on stderr (plus the NVRTC log where there is one), never a traceback.
"""

import argparse
import contextlib
import errno
import json
import os
import re
import sys

from . import compiler, driver, kernels, report, runtime, toolchain, validate
from .errors import ArchError, NoDeviceError, TcrawError, UsageError


INTERNAL_ERROR = 70   # EX_SOFTWARE: outside the contract's 0-3, so no script mistakes it for a verdict


def note(msg):
    print(msg, file=sys.stderr)


class _Once(argparse._StoreAction):
    """An option that takes one value, refused when given twice (argparse would keep the last and
    say nothing: `--spec a.py --spec b.py` ran b.py's kernels alone). Repeatable options say so
    (action="append", "extend")."""

    def __call__(self, parser, namespace, values, option_string=None):
        given = namespace.__dict__.setdefault("_given", set())
        if option_string and self.dest in given:
            parser.error(f"{option_string} was given twice; it takes one value")
        given.add(self.dest)
        super().__call__(parser, namespace, values, option_string)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("allow_abbrev", False)   # (--it is not --iters: a typo is refused, not guessed)
        super().__init__(*args, **kwargs)
        self.register("action", None, _Once)

    def error(self, message):  # argparse's own usage errors exit 2 too, but with our one-liner
        # (a value that starts with '-' — -DFOO after --define, -16,16 after --block — reads as an
        # option to argparse, so the option's value is missing to it)
        dash = ""
        if (missing := re.fullmatch(r"argument (--[\w-]+): expected one argument", message)):
            dash = "; nvcc's -DFOO is --define FOO here" if missing[1] == "--define" else \
                f"; a value that starts with '-' goes after '=': {missing[1]}=-…"
        raise UsageError(f"{self.prog.removeprefix('tcraw').strip() + ': ' if self.prog != 'tcraw' else ''}"
                         f"{message}{dash} (see --help)")


def _common(p):
    p.add_argument("--format", choices=report.FORMATS, default="table", help="output format")
    p.add_argument("--backend", choices=driver.BACKENDS, default=None,
                   help="driver/NVRTC implementation (default: $TCRAW_BACKEND, else bindings "
                        "when cuda-python imports, else ctypes)")
    p.add_argument("--trace", action="store_true", default=None,
                   help="print every cu*/nvrtc* call with arguments, result and µs (or TCRAW_TRACE=1)")


SELECTING_HELP = ("a family — fp32, fp16, bf16, tf32, int8, fp64, fp8 — or one precision's key (fp16acc16, "
                  "fp8e4m3, ...: `tcraw list`), or all; comma-separated")
SOURCE_PRECISION = "your --source kernel's precision, e.g. fp16"


def _shape_options(p):
    p.add_argument("-m", type=_whole, help="rows of A and C (default 1024)")
    p.add_argument("-n", type=_whole, help="columns of B and C (default 1024)")
    p.add_argument("-k", type=_whole, help="columns of A, rows of B (default 1024)")
    p.add_argument("--size", type=_whole, help="M = N = K (default 1024)")


def _user_options(p):
    """A user's kernel, declared by a spec file or by flags (the same Kernel objects either way)."""
    g = p.add_argument_group("your own kernel (see examples/ and the README)")
    g.add_argument("--spec", help="a Python file setting KERNELS = [tcraw.Kernel(...), ...]")
    g.add_argument("--source", help="a .cu file with an extern \"C\" __global__ entry taking (A, B, C, M, N, K)")
    g.add_argument("--entry", help="the kernel's entry symbol in --source")
    g.add_argument("--block", help="threads per block, e.g. 128,4")
    g.add_argument("--tile", help="M,N,K the problem is zero-padded to (default 1,1,1: any shape)")
    g.add_argument("--block-tile", help="rows,cols of C per block (default: the tile's M,N, or with --tile "
                                         "1,1,1 one element a thread: block y,x); grid.x over N")
    g.add_argument("--smem", type=_whole, default=0, help="dynamic shared memory per block, bytes")
    g.add_argument("--min-arch", default=70, help="lowest compute capability, e.g. 80 or sm_80")
    g.add_argument("--arch-specific", action="store_true",
                   help="build for sm_<min-arch>a alone (wgmma, setmaxnreg: 90 and on), which runs on that arch only")
    g.add_argument("--define", action="append", default=[], help="NAME or NAME=VALUE for NVRTC (repeatable)")
    g.add_argument("--include", action="append", default=[], help="an include directory (repeatable)")
    g.add_argument("--name", help="the kernel's name in the records (default: --entry)")
    g.add_argument("--align", type=_whole, default=16,
                   help="bytes each operand's pointer is aligned to (default 16; WMMA loads: 32)")


def _named_kernel_options(p, names=True):
    """For compile, check, profile and list: kernels by --kernel name and/or a user's, where
    --precision only declares a --source kernel's precision (see _named_kernels)."""
    if names:
        p.add_argument("--kernel", action="extend", nargs="+",
                       help="kernel name(s): built-in (`tcraw list`) or of your --spec")
    p.add_argument("--precision", action="extend", nargs="+", help=SOURCE_PRECISION)
    _user_options(p)


def _whole(text):
    """A command line's whole number: ASCII digits alone (int() would also take "1_024", "+4" and
    other scripts' digits, which no size means); a sign only for the options that refuse it next."""
    value = validate.digits(text.strip().removeprefix("-"))
    if value is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number (write digits 0-9)")
    return -value if text.strip().startswith("-") else value


def _ints(text, option, count=None):
    values = tuple(validate.digits(v.strip()) for v in str(text).replace("x", ",").split(","))
    if None in values:
        raise UsageError(f"{option} takes whole numbers separated by commas, got {text!r}")
    if (count and len(values) not in count) or any(v < 1 for v in values):
        raise UsageError(f"{option} takes {' or '.join(map(str, count or ()))} numbers ≥ 1, got {text!r}")
    return values


def _user_kernels(args):
    """The kernels --spec or --source declare ([] when neither is given)."""
    flags = [f for f in ("entry", "block", "tile", "block_tile", "name", "define", "include", "arch_specific")
             if getattr(args, f, None)]
    flags += [f for f, default in (("smem", 0), ("min_arch", 70), ("align", 16))
              if getattr(args, f, default) != default]
    if getattr(args, "source", None) is None and flags:   # they declare a --source kernel, nothing else
        raise UsageError(f"--{flags[0].replace('_', '-')} declares a --source kernel"
                         + ("; a spec declares its own" if getattr(args, "spec", None) else ": give --source too"))
    if getattr(args, "spec", None) is None and getattr(args, "source", None) is None:
        return []
    if args.spec is not None and args.source is not None:
        raise UsageError("give --spec or --source, not both")
    if args.spec is not None:
        return kernels.load_spec(args.spec)
    if args.smem < 0:
        raise UsageError(f"--smem is the dynamic shared memory in bytes, 0 or more (got {args.smem})")
    min_arch = kernels.checked_min_arch(args.min_arch, "--min-arch")
    for d in args.include:
        if not validate.is_dir(d):
            raise UsageError(f"--include {d} is not a directory")
    precisions = validate.names(args.precision, "--precision") or []
    if len(precisions) > 1 or "all" in precisions:   # ("all" selects built-ins; it declares nothing)
        raise UsageError(f"--source declares one kernel of one precision; got --precision {','.join(precisions)}: "
                         "give one (declare more kernels in a --spec file)")
    validate.names(precisions or None, "--precision", list(kernels.PRECISIONS))
    for f, what in (("entry", "the kernel's symbol"), ("block", "threads per block, e.g. 128 or 16,16")):
        if getattr(args, f) is not None and not getattr(args, f).strip():
            raise UsageError(f"--{f} is empty: give {what}")
    missing = [f"--{f}" for f in ("entry", "block") if not getattr(args, f)] + ([] if precisions else ["--precision"])
    if missing:
        raise UsageError(f"--source needs --entry, --block and one --precision (e.g. fp16); missing: "
                         f"{', '.join(missing)}")
    block_tile = _ints(args.block_tile, "--block-tile", (2,)) if args.block_tile else None
    return [kernels.user_kernel(args.source, args.entry, precisions[0], block=_ints(args.block, "--block", (1, 2, 3)),
                                tile=_ints(args.tile or "1,1,1", "--tile", (3,)), block_tile=block_tile,
                                smem_bytes=args.smem, min_arch=min_arch, defines=args.define,
                                include_dirs=args.include, name=args.name, align=args.align,
                                arch_specific=args.arch_specific)]


def _open_device(ordinal):
    from .runtime import Device
    return Device(ordinal)


# -- info -----------------------------------------------------------------------------------------

def cmd_info(args):
    from .machine import machine_info
    info = machine_info(args.device, open_device=_open_device)
    if args.format == "json":
        print(json.dumps(info, indent=2))
        return 0
    rows = [(k, v) for k, v in info.items() if k not in ("gpu", "toolchain")]
    rows += [(f"toolchain.{k}", v) for k, v in info["toolchain"].items()]
    gpu = info.get("gpu")
    if gpu:
        rows += [(f"gpu.{k}", v) for k, v in gpu.items()]
    if args.format == "csv":
        print(report.render([{"key": k, "value": v} for k, v in rows], "csv"))
    else:
        for k, v in rows:
            print(f"{k:>24}  {' '.join(v) if isinstance(v, list) else v}")
    return 0


# -- list -----------------------------------------------------------------------------------------

def cmd_list(args):
    """The registry's kernels, and a user's (--spec / --source) after them."""
    if args.precision is not None and args.source is None:
        raise UsageError("--precision here is a --source kernel's precision: give --source too, or drop "
                         "--precision (the table has a precision column for every kernel)")
    extra = _user_kernels(args)
    rows = [{"name": k.name, "precision": k.precision.label, "precision_key": k.precision.key,
             "min_arch": f"sm_{k.min_arch}" + ("a only" if k.arch_specific else ""),
             "tile": "×".join(map(str, k.tile)), "source": k.source, "entry": k.entry,
             "summary": k.summary} for k in [*kernels.KERNELS.values(), *extra]]
    print(report.render(rows, args.format, report.LIST_COLUMNS))
    return 0


# -- compile --------------------------------------------------------------------------------------

def _archs_for_compile(archs, device_ordinal):
    """--arch as parsed; none given: GPU ``device_ordinal``'s arch — one the user named must be
    there (NoDeviceError: exit 3) — else GPU 0's, else (no GPU) every arch NVRTC supports."""
    if archs is not None:
        return archs
    try:
        with _open_device(0 if device_ordinal is None else device_ordinal) as dev:
            return [dev.arch]
    except NoDeviceError as e:
        if device_ordinal is not None:
            raise NoDeviceError(f"--device {device_ordinal} names a GPU to build for, and there is none: {e} "
                                "(without --device — with --arch, or none — compile needs no GPU)") from e
        note("tcraw compile: no GPU here, compiling for every arch NVRTC supports (--arch to choose)")
        return compiler.parse_archs("all")


def _print_compile_rows(rows, fmt, asked=(), said=None):
    """The compile table (a row's detail cut to its first clause — an error's to NVRTC's first
    line —: JSON and CSV carry it whole), then — table only — each arch this NVRTC cannot target,
    once, with the fix its row carries, but ``said`` (the caller's error says it; an error or a
    refusal was noted in full as it came; a kernel below its minimum arch needs none). ``asked``:
    the kernels' names asked for; rows of others (the configurations --out adds) that cannot build
    for an arch are counted, not listed."""
    # (--out builds every configuration 06 can pick: 50-odd a precision, each an arch-specific row on
    # every arch but sm_90)
    unbuilt = {id(r) for r in rows if r["kernel"] not in asked and r["status"] in ("below-min-arch", "arch-specific")}
    text_rows = rows if fmt != "table" else [
        {**r, "detail": (r.get("detail") or "").split("\n")[0][:80] if r["status"] == "error" else
         re.sub(r" \(.*?\)", "", (r.get("detail") or "").split(";")[0])[:80],
         "warnings": len((r.get("ptxas_warnings") or []) + (r.get("nvrtc_warnings") or []))
         if r["status"] == "ok" else None} for r in rows if id(r) not in unbuilt]
    print(report.render(text_rows, fmt, report.COMPILE_COLUMNS))
    if fmt == "table":
        if unbuilt:
            note(f"tcraw compile: {len(unbuilt)} row{'s' * (len(unbuilt) > 1)} of configurations that cannot be "
                 "built for an arch asked for (below their minimum, or arch-specific) left out of the table; "
                 "--format json or csv lists them")
        for detail in dict.fromkeys(r["detail"] for r in rows if r["status"] == "unsupported-by-nvrtc"
                                    and r["detail"] != said):
            note(f"tcraw compile: {detail}")


def cmd_compile(args):
    if args.device is not None:
        validate.device_index(args.device)
        if args.arch is not None:   # (one of them would be ignored)
            raise UsageError("--device builds for that GPU's arch and --arch names the archs: give one of them")
    arch_values = validate.names(args.arch, "--arch")   # (parsed before the GPU is looked for: 2 on any machine)
    archs = compiler.parse_archs(arch_values) if arch_values is not None else None
    names, extra = _named_kernels(args)
    chosen = kernels.select(names, None, extra) if names or extra else list(kernels.KERNELS.values())
    if not validate.is_whole(args.jobs, 1, 256):
        raise UsageError(f"--jobs {args.jobs}: how many compiles run at once, from 1 to 256")
    out = validate.output_dir(args.out, "--out")
    try:
        rows = compiler.compile_table(chosen, _archs_for_compile(archs, args.device), out=out, note=note,
                                      jobs=args.jobs)
    except (UsageError, KeyboardInterrupt) as exc:
        if getattr(exc, "rows", None):   # (the manifest could not be written, or ^C: the rows built are shown)
            _print_compile_rows(exc.rows, args.format, {k.file_stem for k in chosen})
        raise
    if (store := compiler.default_cache()) is not None and store.problem:
        note(f"tcraw compile: {store.problem} (TCRAW_CACHE_DIR to point it elsewhere)")
    # nothing asked for could be built: the request was wrong. (--out adds the fp64 reference's cubin
    # and each configuration a kernel can pick — 06's small-M ones are 09's and 10's code, built where
    # 06 is not — none of which was asked for.)
    own = {c.file_stem for k in chosen for c in (k.configurations() if out else [k]) if c.source == k.source}
    asked = [r for r in rows if r["kernel"] in own] or rows
    wrong = not any(r["status"] == "ok" for r in asked) and \
        not any(r["status"] in ("refused", "unwritten", "error") for r in rows)
    _print_compile_rows(rows, args.format, {k.file_stem for k in chosen}, said=asked[0]["detail"] if wrong else None)
    if any(r["status"] in ("refused", "unwritten") for r in rows):
        return 2   # (bad input: each refusal was noted in full as it came)
    if any(r["status"] == "error" for r in rows):
        return 1
    if wrong:
        raise ArchError(asked[0]["detail"])
    return 0


# -- run ------------------------------------------------------------------------------------------

def _problem_shape(args):
    if args.size is not None and any(v is not None for v in (args.m, args.n, args.k)):
        raise UsageError("give either --size or -m/-n/-k, not both")
    if args.size is not None:
        if not validate.is_whole(args.size, 1, validate.INT32_MAX):
            raise UsageError(f"--size is M = N = K, a whole number from 1 to 2^31 − 1; got {args.size}")
        shape = (args.size,) * 3
    else:
        shape = tuple(v if v is not None else 1024 for v in (args.m, args.n, args.k))
    validate.problem(*shape)
    return shape


def _named_kernels(args):
    """(--kernel names, a user's kernels) for compile, check and profile, where --precision only
    declares a --source kernel's precision (it selects nothing)."""
    extra = _user_kernels(args)
    if args.precision is not None and args.source is None:
        raise UsageError("--precision here is a --source kernel's precision; name built-in kernels with "
                         "--kernel (`tcraw list` shows each one's precision)")
    return validate.names(args.kernel, "--kernel"), extra


def _chosen(args):
    """(kernels, explicit) from --kernel / --precision and a user's kernels, checked before
    anything is opened; explicit: asked for by name, so one the GPU cannot run is refused."""
    extra = _user_kernels(args)
    precision = None if args.source is not None else validate.names(args.precision, "--precision",
                                                                     kernels.SELECTING_PRECISIONS)
    return (kernels.select(validate.names(args.kernel, "--kernel"), precision, extra, getattr(args, "b_layout", None)),
            bool(args.kernel or extra))


def _check_run_options(args):
    """The options run and sweep share, all checked before the GPU is touched."""
    validate.timing(args.iters, args.warmup)
    validate.seed(args.seed)
    _check_run_options_paths(args)


def _seed(args):
    from .sweep import fresh_seed
    validate.seed(args.seed)
    return args.seed if args.seed is not None else fresh_seed()


def cmd_run(args):
    from .sweep import run_problem
    shape = _problem_shape(args)
    _check_run_options(args)
    validate.device_index(args.device)
    chosen, explicit = _chosen(args)
    seed = _seed(args)
    try:
        rows = run_problem(args.device, chosen, shape, explicit=explicit, inputs=args.inputs, seed=seed,
                           iters=args.iters, warmup=args.warmup, cubin_dir=args.cubin_dir, isolate=args.isolate,
                           backend=args.backend, save=args.save, note=note, open_device=_open_device,
                           b_layout=args.b_layout)
    except UsageError as exc:
        if getattr(exc, "rows", None):   # measured, then not saved: the rows still come out
            _print_rows(exc.rows, args.format)
        raise
    _print_rows(rows, args.format)
    if args.format == "table" and rows:
        print(f"\n{rows[0]['device']} ({rows[0]['arch']}), backend {driver.get_backend().name}, seed {seed}, "
              f"inputs {args.inputs}, {args.iters} timed launches after {args.warmup} warm-up "
              f"(at least {runtime.WARM_MS:g} ms when any), {_held(rows)}; bound = "
              "error-model limit on max rel err (0 = must be exact)")
        best = max((r for r in rows if r["speedup"] and r["kernel"] != kernels.BASELINE),
                   key=lambda r: r["speedup"], default=None)
        if best:
            print(f"fastest: {best['kernel']} is {best['speedup']:.1f}× faster than "
                  f"{kernels.BASELINE} on the same multiply")
    return 0 if rows and all(r["passed"] for r in rows) else 1


def _held(rows):
    """The footer's word on the hold the timed launches were queued behind (Record.held_ms)."""
    timed = [r for r in rows if r.get("iters") and r.get("error") is None]
    held = [r for r in timed if r.get("held_ms")]
    if len(held) == len(timed):
        return "queued behind a hold of the stream"
    return ("unheld: no hold could be built (no NVRTC, or one that cannot build it for this GPU), or "
            "runtime.HOLD_MS_PER_LAUNCH is 0" + (f" — {len(timed) - len(held)} of {len(timed)} rows" if held else ""))


def _print_rows(rows, fmt):
    if fmt == "table":
        print(report.render([{**r, "shape": f"{r['m']}×{r['n']}×{r['k']}"} for r in rows],
                            "table", report.RUN_COLUMNS))
        for r in rows:
            if r.get("error"):
                note(f"{r['kernel']} ({r['m']}×{r['n']}×{r['k']}): {r['error']}")
    else:
        print(report.render(rows, fmt))


# -- sweep ----------------------------------------------------------------------------------------

def _write(write, where):
    """Write results out; a failure (disk full, permissions changed mid-run) is a one-line error,
    and the rows were printed before it, so nothing computed is lost."""
    try:
        write()
    except OSError as exc:   # (the file it was writing where the error names one)
        raise UsageError(f"could not write {exc.filename or where} ({exc.strerror or exc}); the results are "
                         "printed above") from None


def _sizes(values, default):
    items = validate.names(values, "--sizes")
    if items is None:
        return default
    sizes = [validate.digits(v) for v in items]
    if None in sizes:
        raise UsageError(f"--sizes takes whole numbers, got {','.join(items)!r}")
    for size in sizes:
        try:
            validate.problem(size, size, size)
        except UsageError:
            raise UsageError(f"--sizes takes sizes from 1 to 2^31 − 1 (each an n×n×n problem), "
                             f"got {size}") from None
    return sizes


def _device_indices(spec):
    if validate.device_index(spec, allow_all=True) == "all":
        drv = driver.get_backend()
        drv.init()
        if not (count := drv.device_count()):
            raise NoDeviceError("the CUDA driver is present but reports no GPU")
        return list(range(count))
    return [int(spec)]


def cmd_sweep(args):
    """sizes × kernels × devices (sweep.run_sweep): with --device all one worker per GPU, at
    once. Each kernel runs in a child process unless --no-isolate, so one that faults is a
    failed row, not a lost sweep."""
    from .matmul import check_host_fits
    from .sweep import run_sweep
    sizes = _sizes(args.sizes, [256, 1024, 2048])
    _check_run_options(args)
    validate.device_index(args.device, allow_all=True)
    chosen, explicit = _chosen(args)
    out = validate.output_dir(args.out, "--out", report.row_files("sweep"))
    check_host_fits(*(max(sizes),) * 3)
    seed = _seed(args)
    rows = run_sweep(_device_indices(args.device), chosen, sizes, explicit=explicit, inputs=args.inputs,
                     seed=seed, iters=args.iters, warmup=args.warmup, cubin_dir=args.cubin_dir,
                     isolate=args.isolate, backend=args.backend, note=note, open_device=_open_device)
    if args.format == "table":
        print(report.render([{**r, "shape": f"{r['m']}×{r['n']}×{r['k']}"} for r in rows], "table",
                            [("device_index", "dev"), ("device", "device"), ("arch", "arch")]
                            + report.RUN_COLUMNS))
        print(f"\nseed {seed}, inputs {args.inputs}")
    else:
        print(report.render(rows, args.format))
    if out:
        _write(lambda: note("wrote " + " and ".join(report.write_rows(out, "sweep", rows))), out)
    return 0 if rows and all(r["passed"] for r in rows) else 1


# -- bench ----------------------------------------------------------------------------------------

def cmd_bench(args):
    from .bench import LADDER_GROUPS, bench_plan, parse_shapes, run_plan, suite_summary
    if args.sizes is not None and args.shapes is not None:
        raise UsageError("give --sizes (squares) or --shapes (suites or a file), not both")
    shapes = parse_shapes(args.shapes) if args.shapes is not None else _sizes(args.sizes, [1024, 2048, 4096, 8192])
    extra = _user_kernels(args)
    keys = validate.names(args.precision, "--precision", list(kernels.PRECISIONS) + list(LADDER_GROUPS))
    names = validate.names(args.kernel, "--kernel")
    plan = bench_plan(args.device, keys, shapes, extra=extra, kernels=names, iters=args.iters, warmup=args.warmup,
                      seed=_seed(args), note=note)
    out = (validate.output_dir(args.out, "--out", report.row_files("bench", *["suites"] * (args.shapes is not None)))
           if args.out is not None else None)   # (made once all else holds; suites only where --shapes named them)
    seed = plan.seed
    rows = run_plan(plan, note=note, open_device=_open_device)
    summary = suite_summary(rows)
    if args.format == "table":
        print(report.render([{**r, "shape": report.shape_label(r["m"], r["n"], r["k"])} for r in rows], "table",
                            report.BENCH_COLUMNS))
        if summary:
            print("\n" + report.render(summary, "table", report.SUITE_COLUMNS))
        if rows:
            print(f"\n{rows[0]['device']} ({rows[0]['arch']}), seed {seed}, median of {args.iters} launches "
                  f"after {args.warmup} warm-up (at least {runtime.WARM_MS:g} ms when any), {_held(rows)}, inputs rotated "
                  "through several copies where one set fits "
                  "in L2; every row verified")
    else:
        print(report.render(rows, args.format))
    if out:
        _write(lambda: note("wrote " + " and ".join(report.write_rows(out, "bench", rows)
                                                    + (report.write_rows(out, "suites", summary) if summary else []))),
               out)
    return 0 if rows and all(r["passed"] for r in rows) else 1


# -- check ----------------------------------------------------------------------------------------

def _shapes(text):
    """--shapes "m,n,k;m,n,k" (or one; each row as a file of shapes writes it: bench.shape_row)."""
    from .bench import shape_row
    shapes = []
    for part in validate.listed(text, "check --shapes", ";") or []:
        try:
            shapes.append(shape_row(part))
        except UsageError as exc:
            syntax = "; shapes are separated by ';' (suites and files of shapes are bench's --shapes)" \
                if "is not a shape" in str(exc) else ""
            raise UsageError(f"check --shapes: {exc}{syntax}") from None
    if not shapes:
        raise UsageError(f"--shapes takes m,n,k triples separated by ';', got {text!r}")
    return shapes


def cmd_check(args):
    """The judge: a battery of shapes for each kernel, guarded, both input modes (check.check_kernels)."""
    from .check import check_kernels
    validate.device_index(args.device)
    _check_run_options_paths(args)
    names, extra = _named_kernels(args)
    if not names and not extra:
        raise UsageError("name the kernel to check: --kernel NAME, or your own with --spec / --source")
    chosen = kernels.select(names, None, extra)
    seed = _seed(args)
    if args.extras_only and (args.shapes is not None or not args.extras):
        raise UsageError("--extras-only runs the rerun and NaN/Inf cases alone: it takes no --shapes or --no-extras")
    shapes = [] if args.extras_only else _shapes(args.shapes) if args.shapes is not None else None
    try:
        rows = check_kernels(args.device, chosen, shapes=shapes,
                             seed=seed, isolate=args.isolate, timeout=args.timeout, sanitize=args.sanitize,
                             extras=args.extras, guard=args.guard, backend=args.backend, cubin_dir=args.cubin_dir,
                             note=note, open_device=_open_device)
    except UsageError as exc:
        if getattr(exc, "rows", None):   # (the kernels checked before the one refused: they still come out)
            _print_check_rows(exc.rows, args.format, seed)
        raise
    _print_check_rows(rows, args.format, seed)
    return 0 if rows and all(r["passed"] for r in rows) else 1


def _print_check_rows(rows, fmt, seed):
    if fmt == "table":
        print(report.render(rows, "table", report.CHECK_COLUMNS))
        for r in rows:
            if not r["passed"]:
                why = r.get("error") or r.get("out_of_bounds") or "outside the error bound"
                note(f"{r['kernel']} {r['case']}: {why}")
        if rows:
            print(f"\n{rows[0]['device'] or ''} ({rows[0]['arch'] or ''}), seed {seed}: "
                  f"{sum(r['passed'] for r in rows)} of {len(rows)} cases passed")
    else:
        print(report.render(rows, fmt))


# -- profile --------------------------------------------------------------------------------------

def cmd_profile(args):
    """Nsight Compute on one launch of each kernel (profile.run_profile), and a roofline."""
    from . import profile
    shape = _problem_shape(args)
    validate.device_index(args.device)
    validate.timeout_s(args.timeout)
    names, extra = _named_kernels(args)
    if not names and not extra:
        raise UsageError("name the kernel to profile: --kernel NAME, or your own with --spec / --source")
    chosen = kernels.checked_chosen(kernels.select(names, None, extra))
    if args.roofline is not None:
        profile.check_roofline_path(args.roofline)
    out = validate.output_dir(args.out, "--out", report.row_files("profile"))
    raw_dir = validate.output_dir(args.raw, "--raw", [profile.raw_name(k, shape) + ".ncu-rep" for k in chosen])
    from .matmul import check_fits, check_host_fits
    check_host_fits(*shape)
    for k in chosen:
        kernels.child_args(k)                     # the child `tcraw run` must be able to declare it
        if k in extra and (problem := compiler.check_declared(k)):   # what its source refuses on any arch: 2
            raise problem                         # (or that it does not build: profile has no row to say so)
    ncu = profile.find_ncu()                      # exit 3 (none found) or 2 (TCRAW_NCU wrong) before anything runs
    with _open_device(args.device) as dev:        # closed again before ncu starts its child
        for k in chosen:
            if (refusal := k.device_refusal(dev)):
                raise refusal
        check_fits(dev, chosen, *shape)
        facts = profile.device_facts(dev)
    rows, unknown = [], set()
    for k in chosen:
        raw = raw_dir / profile.raw_name(k, shape) if raw_dir else None
        r = profile.run_profile(k, shape, ncu=ncu, clock_control=args.clock_control, raw_path=raw,
                                backend=args.backend, device=args.device, device_facts=facts,
                                unknown=unknown, timeout=args.timeout)
        unknown |= set(r["metrics_unknown"])
        rows.append(r)
    if unknown:
        note(f"tcraw profile: this ncu does not know {', '.join(sorted(unknown))}; those fields are empty")
    if args.format == "table":
        print(report.render([{**r, "shape": f"{r['m']}×{r['n']}×{r['k']}"} for r in rows], "table",
                            report.PROFILE_COLUMNS))
        print(f"\n{facts['name']}, {ncu}, --clock-control {args.clock_control} (SM at "
              f"{rows[0]['sm_clock_mhz_ncu'] or '?'} MHz under ncu); one launch each")
    else:
        print(report.render(rows, args.format))
    if out:
        _write(lambda: note("wrote " + " and ".join(report.write_rows(out, "profile", rows))), out)
    if args.roofline:
        _write(lambda: note(f"wrote {profile.roofline_png(rows, facts, args.roofline)}"), args.roofline)
    return 0


def _check_run_options_paths(args):
    if args.cubin_dir is not None:
        compiler.check_cubin_dir(args.cubin_dir)   # (refused here, before the GPU is opened)


# -- cache ----------------------------------------------------------------------------------------

def cmd_cache(args):
    from .cache import cache_report
    info = cache_report(args.action)
    if args.format == "json":
        print(json.dumps(info, indent=2))
    elif args.format == "csv":
        print(report.render([{"key": k, "value": v} for k, v in info.items()], "csv"))
    else:
        for k, v in info.items():
            print(f"{k:>9}  {v}")
    return 0


# -- entry ----------------------------------------------------------------------------------------

def build_parser():
    p = _Parser(prog="tcraw", description="Compile, run, time and verify tensor-core matmul "
                "kernels from Python through NVRTC and the CUDA driver API.")
    from . import __version__
    p.add_argument("--version", action="version", version=f"tcraw {__version__}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    s = sub.add_parser("info", help="backend, NVRTC, headers, GPU")
    _common(s)
    s.add_argument("--device", type=_whole, default=0)
    s.set_defaults(fn=cmd_info)

    s = sub.add_parser("list", help="the kernels (and yours, with --spec or --source)")
    _common(s)
    _named_kernel_options(s, names=False)
    s.set_defaults(fn=cmd_list)

    s = sub.add_parser("compile", help="NVRTC cubins and their resources, for any arch (no GPU needed)")
    _common(s)
    s.add_argument("--arch", action="extend", nargs="+", help="sm_XX[,sm_YY] or all (default: this GPU's)")
    s.add_argument("--out", help="write <kernel>.<arch>.cubin (06: one a configuration, <kernel>[<variant>]."
                                 "<arch>.cubin), the fp64 reference's and manifest.json here")
    s.add_argument("--device", type=_whole, help="the GPU whose arch to build for, without --arch (default: GPU 0's, "
                   "else, with no GPU here, every arch; named, it must be there)")
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    s.add_argument("--jobs", type=_whole, default=min(8, cpus),   # (the CPUs this process may use)
                   help="compiles at once, into the cubin cache first (default: the CPUs, at most 8; 1: one "
                        "after another); the rows are the same")
    _named_kernel_options(s)
    s.set_defaults(fn=cmd_compile)

    s = sub.add_parser("run", help="run, time and verify kernels on the GPU")
    _common(s)
    s.add_argument("--kernel", action="extend", nargs="+", help="kernel name(s), see `tcraw list`")
    s.add_argument("--precision", action="extend", nargs="+", help=SELECTING_HELP)
    _shape_options(s)
    s.add_argument("--iters", type=_whole, default=20, help="timed launches (median and min reported)")
    s.add_argument("--warmup", type=_whole, default=3, help="untimed launches first (default 3)")
    s.add_argument("--seed", type=_whole, help="input seed (default: fresh each run, printed)")
    s.add_argument("--inputs", choices=("normal", "int"), default="normal",
                   help="random normal, or integers in [-4,4] (exact results)")
    s.add_argument("--b-layout", choices=("row", "col"),
                   help="B stored row-major K×N or K-major N×K (col) for every kernel (default: each "
                        "kernel's own; the built-in ones read row)")
    s.add_argument("--device", type=_whole, default=0)
    s.add_argument("--save", help="directory for A, B, C (.npy) and the records (JSON); kernels run in this "
                                  "process (not with --isolate)")
    s.add_argument("--cubin-dir", help="run prebuilt cubins from here (no NVRTC needed)")
    s.add_argument("--isolate", action="store_true",
                   help="run each kernel in a child process (a faulting kernel cannot take the rest down)")
    _user_options(s)
    s.set_defaults(fn=cmd_run)

    s = sub.add_parser("sweep", help="sizes × kernels × devices; CSV and JSON with --out")
    _common(s)
    s.add_argument("--sizes", action="extend", nargs="+",
                   help="M = N = K values, comma-separated (default 256,1024,2048)")
    s.add_argument("--kernel", action="extend", nargs="+", help="kernel name(s), see `tcraw list`")
    s.add_argument("--precision", action="extend", nargs="+", help=SELECTING_HELP)
    s.add_argument("--device", default="0", help="GPU index, or 'all': one worker per GPU, at once")
    s.add_argument("--iters", type=_whole, default=10)
    s.add_argument("--warmup", type=_whole, default=2, help="untimed launches first (default 2)")
    s.add_argument("--seed", type=_whole)
    s.add_argument("--inputs", choices=("normal", "int"), default="normal")
    s.add_argument("--cubin-dir", help="run prebuilt cubins from here (no NVRTC needed)")
    s.add_argument("--no-isolate", dest="isolate", action="store_false",
                   help="run every kernel in this process (faster; a fault then ends the sweep)")
    s.add_argument("--out", help="write sweep.json and sweep.csv here")
    _user_options(s)
    s.set_defaults(fn=cmd_sweep)

    s = sub.add_parser("bench", help="the kernel ladder against cuBLAS at large sizes")
    _common(s)
    s.add_argument("--sizes", action="extend", nargs="+", help="M = N = K values (default 1024,2048,4096,8192)")
    s.add_argument("--shapes", help="shape suites (square, llm, skinny, long-k, odd) and/or files of "
                                    "M N K lines, comma-separated; a geomean per suite against cuBLAS")
    s.add_argument("--kernel", action="extend", nargs="+", help="only these rungs of the ladder (cuBLAS always runs)")
    s.add_argument("--precision", action="extend", nargs="+",
                   help="the ladders: fp32, fp16, bf16, tf32, int8, fp8e4m3bf16, fp8e4m3, fp8e5m2 (fp8: all three), "
                        "fp64 or all (the default); FP8 and INT8 against cuBLASLt")
    s.add_argument("--iters", type=_whole, default=20)
    s.add_argument("--warmup", type=_whole, default=5, help="untimed launches first (default 5)")
    s.add_argument("--seed", type=_whole)
    s.add_argument("--device", default="0")
    s.add_argument("--out", help="write bench.json and bench.csv here (with --shapes, suites.json and "
                                 "suites.csv too)")
    _user_options(s)
    s.set_defaults(fn=cmd_bench)

    s = sub.add_parser("check", help="judge a kernel: a battery of shapes, guard bands, both input modes")
    _common(s)
    s.add_argument("--shapes", help='shapes instead of the battery, each M,N,K (or MxNxK, or M N K), separated by ;')
    s.add_argument("--seed", type=_whole, help="draws the battery's random shapes and the inputs")
    s.add_argument("--device", type=_whole, default=0)
    s.add_argument("--cubin-dir", help="check prebuilt cubins from here")
    s.add_argument("--no-isolate", dest="isolate", action="store_false",
                   help="run in this process (faster; a fault or hang then ends the check)")
    s.add_argument("--no-extras", dest="extras", action="store_false", help=argparse.SUPPRESS)
    s.add_argument("--extras-only", action="store_true", help=argparse.SUPPRESS)   # an isolated check's last child
    s.add_argument("--no-guard", dest="guard", action="store_false",
                   help="no canary bands around the operands (what compute-sanitizer needs to see a stray write)")
    s.add_argument("--timeout", type=_whole, help="seconds per isolated shape before it counts as a hang (default 120)")
    s.add_argument("--sanitize", nargs="?", const="failing", choices=("failing", "all"),
                   help="rerun the failing shapes (none failing: the first three; 'all': every shape) "
                        "under compute-sanitizer memcheck, racecheck and initcheck")
    _named_kernel_options(s)
    s.set_defaults(fn=cmd_check)

    s = sub.add_parser("profile", help="Nsight Compute metrics of one launch per kernel, and a roofline")
    _common(s)
    _shape_options(s)
    s.add_argument("--device", type=_whole, default=0)
    s.add_argument("--clock-control", choices=("base", "none"), default="base",
                   help="base: ncu locks the SM clock to base (repeatable, ncu's default); none: the "
                        "clocks `tcraw run` sees")
    s.add_argument("--out", help="write profile.json and profile.csv here")
    s.add_argument("--raw", help="keep ncu's own report of each kernel (<kernel>.<shape>.ncu-rep) here")
    s.add_argument("--roofline", help="draw the roofline to this PNG (needs the 'plot' extra)")
    s.add_argument("--timeout", type=_whole, default=300, help="seconds per ncu run (default 300)")
    _named_kernel_options(s)
    s.set_defaults(fn=cmd_profile)

    s = sub.add_parser("cache", help="the on-disk cubin cache: info or clear")
    _common(s)
    s.add_argument("action", choices=("info", "clear"))
    s.set_defaults(fn=cmd_cache)
    return p


# An OSError of these is the machine's refusing a write (a full disk or quota, a read-only file
# system, a failing device: `tcraw list > /dev/full`), not a bug of tcraw's, wherever it was raised.
ENVIRONMENT_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EFBIG, errno.EROFS}


class Terminated(KeyboardInterrupt):
    """SIGTERM (timeout, a CI runner, docker stop) met by a compile as ^C is: its rows still shown
    and its manifest listing what it wrote (a directory of cubins without one would be trusted as
    made by hand)."""


def _terminate(signum, frame):
    raise Terminated()


@contextlib.contextmanager
def _terminated_as_interrupted():
    """SIGTERM raises Terminated while this holds (in the main thread; elsewhere signals cannot be
    caught). Only a compile asks: elsewhere SIGTERM ends the process at once, as it always did —
    an isolated sweep's workers would otherwise run on to their last kernel before it stopped."""
    import signal
    import threading
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGTERM) is signal.SIG_IGN:   # (a parent's choice to ignore it: kept)
        yield
        return
    before = signal.signal(signal.SIGTERM, _terminate)
    try:
        yield
    finally:   # (None: a handler set outside Python, which cannot be put back: the default)
        signal.signal(signal.SIGTERM, signal.SIG_DFL if before is None else before)


def main(argv=None):
    # Characters that stdout's encoding lacks (×, →, µ in a table, on an ASCII or Latin-1 terminal)
    # escaped, as Python escapes stderr's: never an error after the GPU work that lost its rows.
    with contextlib.suppress(AttributeError, ValueError):
        sys.stdout.reconfigure(errors="backslashreplace")
    code = _main(argv)
    if code not in (0, 1):   # (refused, interrupted or broken: not the empty --out it made)
        validate.remove_unused_dirs()
    validate.MADE.clear()
    return code


def _main(argv):
    try:
        args = build_parser().parse_args(argv)
        driver.configure(args.backend, args.trace)
        driver.check_env()   # an unknown $TCRAW_BACKEND or a bad $TCRAW_TRACE is refused here, before any work
        validate.env_flag("TCRAW_DEBUG")
        validate.env_flag("TCRAW_NO_CACHE")   # (read only once a kernel is compiled: refused before any work too)
        validate.env_dirs("TCRAW_CUDA_INCLUDE")   # (likewise)
        toolchain.requested_major()               # (TCRAW_CUDA: likewise, whether or not the command compiles)
        with _terminated_as_interrupted() if args.fn is cmd_compile else contextlib.nullcontext():
            code = args.fn(args)
        if sys.stdout is not None:   # (None: closed by the caller, `tcraw list >&-`; print wrote nowhere)
            sys.stdout.flush()   # (a full disk behind it fails here, not in the interpreter's flush at exit)
        return code
    except TcrawError as exc:
        note(f"tcraw: {exc}")
        return exc.exit_code
    except BrokenPipeError:  # `tcraw ... | head`: the reader left; not an error of ours
        sys.stderr.close()
        return 0
    except KeyboardInterrupt as exc:
        note(f"tcraw: {'terminated' if isinstance(exc, Terminated) else 'interrupted'}")
        return 143 if isinstance(exc, Terminated) else 130
    except SystemExit as exc:  # --help
        return exc.code if isinstance(exc.code, int) else 0
    except Exception as exc:  # a bug of tcraw's: one line, and the traceback only on request
        if isinstance(exc, OSError) and exc.errno in ENVIRONMENT_ERRNOS:
            note(f"tcraw: could not write {exc.filename or 'the output'}: {exc.strerror}")
            if exc.filename is None:   # standard output's: what it still holds goes nowhere, so that the
                with contextlib.suppress(Exception):   # interpreter's flush at exit does not fail again
                    devnull = os.open(os.devnull, os.O_WRONLY)
                    os.dup2(devnull, sys.stdout.fileno())
                    os.close(devnull)
            return UsageError.exit_code
        if os.environ.get("TCRAW_DEBUG", "").strip().lower() in validate.TRUE:   # checked at the start
            raise
        note(f"tcraw: internal error, a bug in tcraw: {type(exc).__name__}: {exc} "
             "(TCRAW_DEBUG=1 shows the traceback)")
        return INTERNAL_ERROR
