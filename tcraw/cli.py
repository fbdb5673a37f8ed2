"""tcraw's command line: info, list, compile, run, sweep, bench, cache.

Exit codes: 0 ok · 1 a check failed · 2 bad usage or input · 3 no usable GPU/driver.
Errors print one line on stderr (plus the NVRTC log where there is one), never a traceback.
"""

import argparse
import json
import secrets
import sys
from pathlib import Path

import numpy as np

from . import compiler, driver, kernels, report
from .errors import ArchError, CudaError, NoDeviceError, NoNvrtcError, TcrawError, UsageError


def note(msg):
    print(msg, file=sys.stderr)


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse's own usage errors exit 2 too, but with our one-liner
        raise UsageError(f"{self.prog}: {message} (see --help)")


def _common(p):
    p.add_argument("--format", choices=report.FORMATS, default="table", help="output format")
    p.add_argument("--backend", choices=driver.BACKENDS, default=None,
                   help="driver/NVRTC implementation (default: $TCRAW_BACKEND, else bindings "
                        "when cuda-python imports, else ctypes)")
    p.add_argument("--trace", action="store_true", default=None,
                   help="print every cu*/nvrtc* call with arguments, result and µs (or TCRAW_TRACE=1)")


def _split(values):
    return [v for item in values or [] for v in item.split(",") if v]


def _open_device(ordinal):
    from .runtime import Device
    return Device(ordinal)


# -- info -----------------------------------------------------------------------------------------

def cmd_info(args):
    import importlib.metadata as md
    from .sass import find_cuobjdump
    drv = driver.get_backend()
    info = {"backend": drv.name, "backend_chosen_by": driver.default_backend_name()[1]}
    try:
        info["cuda_bindings"] = md.version("cuda-bindings")
    except md.PackageNotFoundError:
        info["cuda_bindings"] = None
    try:
        major, minor = compiler.nvrtc_version()
        info["nvrtc"] = f"{major}.{minor}"
        info["nvrtc_archs"] = [str(a) for a in compiler.supported_archs()]
    except NoNvrtcError as exc:  # cubin-only machines: say so, keep going
        info["nvrtc"], info["nvrtc_archs"], info["nvrtc_problem"] = None, [], str(exc)
    try:
        info["include_dir"] = str(compiler.find_include_dir())
    except TcrawError as exc:
        info["include_dir"] = None
        info["include_problem"] = str(exc)
    info["cuobjdump"] = find_cuobjdump()
    info["cuda_src"] = str(compiler.CUDA_SRC)
    try:
        from .precision import PRECISIONS
        with _open_device(args.device) as dev:
            v = dev.drv.driver_version()
            info["gpu"] = {
                "index": dev.ordinal, "name": dev.name, "arch": str(dev.arch), "sms": dev.sm_count,
                "sm_clock_mhz": dev.clock_khz / 1e3, "mem_clock_mhz": dev.mem_clock_khz / 1e3,
                "memory_gib": round(dev.total_mem / 2**30, 1), "l2_mib": dev.l2_bytes / 2**20,
                "driver_cuda": f"{v // 1000}.{v % 1000 // 10}",
                "peak_tflops": {p.key: round(t, 1) for p in PRECISIONS.values()
                                if (t := dev.peak_tflops(p)) is not None},
            }
    except NoDeviceError as exc:
        info["gpu"] = None
        info["gpu_problem"] = str(exc)
    if args.format == "json":
        print(json.dumps(info, indent=2))
        return 0
    rows = [(k, v) for k, v in info.items() if k != "gpu"]
    gpu = info.get("gpu")
    if gpu:
        rows += [(f"gpu.{k}", v) for k, v in gpu.items()]
    if args.format == "csv":
        print(report.render([{"key": k, "value": v} for k, v in rows], "csv"))
    else:
        for k, v in rows:
            print(f"{k:>20}  {' '.join(v) if isinstance(v, list) else v}")
    return 0


# -- list -----------------------------------------------------------------------------------------

def cmd_list(args):
    rows = [{"name": k.name, "precision": k.precision.label,
             "min_arch": f"sm_{k.min_arch}" + ("a only" if k.arch_specific else ""),
             "tile": "×".join(map(str, k.tile)), "source": k.source, "entry": k.entry,
             "summary": k.summary} for k in kernels.KERNELS.values()]
    print(report.render(rows, args.format, report.LIST_COLUMNS))
    return 0


# -- compile --------------------------------------------------------------------------------------

def _archs_for_compile(values, device_ordinal):
    values = _split(values)
    if not values:
        try:
            with _open_device(device_ordinal) as dev:
                return [dev.arch]
        except NoDeviceError:
            note("tcraw compile: no GPU here, compiling for every arch NVRTC supports (--arch to choose)")
            values = ["all"]
    if "all" in values:
        return compiler.supported_archs()
    return [compiler.Arch.parse(v) for v in values]


def cmd_compile(args):
    from .sass import find_cuobjdump, tensor_op_counts
    archs = _archs_for_compile(args.arch, args.device)
    chosen = kernels.select(_split(args.kernel))  if args.kernel else list(kernels.KERNELS.values())
    cuobjdump = find_cuobjdump()
    out = Path(args.out) if args.out else None
    if out:
        out.mkdir(parents=True, exist_ok=True)
    rows, refusals = [], []
    for kernel in chosen:
        for arch in archs:
            row = {"kernel": kernel.name, "arch": str(arch), "status": "ok", "registers": None,
                   "smem_bytes": None, "spill_bytes": None, "cubin_bytes": None, "compile_ms": None}
            try:
                cubin = compiler.compile_cubin(kernel, arch)
            except ArchError as exc:
                row["status"] = ("below-min-arch" if arch.cc < kernel.min_arch else
                                 "arch-specific" if not kernel.runs_on(arch.cc) else "unsupported-by-nvrtc")
                row["detail"] = str(exc)
                refusals.append(str(exc))
            except NoNvrtcError:
                raise  # nothing at all can be compiled here
            except (CudaError, TcrawError) as exc:
                row["status"], row["detail"] = "error", str(exc)
            else:
                row.update(arch=str(cubin.arch), registers=cubin.registers, smem_bytes=cubin.smem_bytes,
                           spill_bytes=cubin.spill_bytes, cubin_bytes=len(cubin.image),
                           compile_ms=round(cubin.compile_ms, 1), cached=cubin.cached)
                if cuobjdump:
                    row["sass"] = tensor_op_counts(cubin.image, cuobjdump)
                if out:
                    path = out / f"{kernel.name}.{cubin.arch}.cubin"
                    path.write_bytes(cubin.image)
                    row["cubin"] = str(path)
            rows.append(row)
    if out:
        (out / "manifest.json").write_text(json.dumps(rows, indent=2))
    text_rows = rows if args.format != "table" else [
        {**r, "detail": (r.get("detail") or "").split(";")[0][:60]} for r in rows]
    print(report.render(text_rows, args.format, report.COMPILE_COLUMNS))
    if any(r["status"] == "error" for r in rows):
        return 1
    if not any(r["status"] == "ok" for r in rows) and refusals:
        raise ArchError(refusals[0])  # nothing could be built: the request itself was wrong
    return 0


# -- run ------------------------------------------------------------------------------------------

def _problem_shape(args):
    if args.size is not None and any(v is not None for v in (args.m, args.n, args.k)):
        raise UsageError("give either --size or -m/-n/-k, not both")
    if args.size is not None:
        return args.size, args.size, args.size
    size = 1024
    return tuple(v if v is not None else size for v in (args.m, args.n, args.k))


def _runnable(dev, chosen, explicit):
    """Kernels this device can run; one asked for by name below its minimum is an error."""
    keep = []
    for kern in chosen:
        refusal = kern.device_refusal(dev)
        if refusal and explicit:
            raise refusal
        if refusal:
            note(f"skipped: {refusal}")
        else:
            keep.append(kern)
    return keep


def _seed(args):
    return args.seed if args.seed is not None else secrets.randbits(31)


def cmd_run(args):
    from .matmul import check_fits, check_problem
    from .sweep import add_speedups, run_isolated, run_kernels
    shape = _problem_shape(args)
    check_problem(*shape)
    if args.iters < 1 or args.warmup < 0:
        raise UsageError(f"--iters must be ≥ 1 and --warmup ≥ 0 (got {args.iters}, {args.warmup})")
    if args.save and args.isolate:
        raise UsageError("--save keeps the outputs of kernels run in this process; drop --isolate")
    chosen = kernels.select(_split(args.kernel), _split(args.precision))
    seed = _seed(args)
    with _open_device(args.device) as dev:
        runnable = _runnable(dev, chosen, bool(args.kernel))
        if runnable:
            check_fits(dev, runnable, *shape)
        saved = {} if args.save else None
        if args.isolate:
            dev.close()  # the children hold the GPU; this process only collects their rows
            rows = add_speedups([r for kern in runnable for r in run_isolated(
                args.device, kern, shape, inputs=args.inputs, seed=seed, iters=args.iters,
                warmup=args.warmup, cubin_dir=args.cubin_dir, backend=args.backend)])
        else:
            rows = run_kernels(dev, runnable, shape, inputs=args.inputs, seed=seed, iters=args.iters,
                               warmup=args.warmup, cubin_dir=args.cubin_dir, note=note, save=saved)
        name, arch = dev.name, dev.arch
    if args.save and saved:
        _save(Path(args.save), saved["problems"], saved.get("outputs", {}), rows)
    _print_rows(rows, args.format)
    if args.format == "table":
        print(f"\n{name} ({arch}), backend {driver.get_backend().name}, seed {seed}, inputs {args.inputs}, "
              f"{args.iters} timed launches after {args.warmup} warm-up; bound = error-model limit "
              "on max rel err (0 = must be exact)")
        best = max((r for r in rows if r["speedup"] and r["kernel"] != kernels.BASELINE),
                   key=lambda r: r["speedup"], default=None)
        if best:
            print(f"fastest: {best['kernel']} is {best['speedup']:.1f}× faster than "
                  f"{kernels.BASELINE} on the same multiply")
    return 0 if rows and all(r["passed"] for r in rows) else 1


def _print_rows(rows, fmt):
    if fmt == "table":
        print(report.render([{**r, "shape": f"{r['m']}×{r['n']}×{r['k']}"} for r in rows],
                            "table", report.RUN_COLUMNS))
        for r in rows:
            if r.get("error"):
                note(f"{r['kernel']} ({r['m']}×{r['n']}×{r['k']}): {r['error']}")
    else:
        print(report.render(rows, fmt))


def _save(out, problems, outputs, rows):
    """A, B (per precision, in storage format: bf16 as uint16 bits) and each C as .npy, plus the
    records, so anyone can re-check a result against their own reference."""
    out.mkdir(parents=True, exist_ok=True)
    for key, hp in problems.items():
        np.save(out / f"A_{key}.npy", hp.a)
        np.save(out / f"B_{key}.npy", hp.b)
    for name, c in outputs.items():
        np.save(out / f"C_{name}.npy", np.ascontiguousarray(c))
    (out / "records.json").write_text(json.dumps(rows, indent=2, default=str))
    note(f"saved inputs, outputs and records under {out}")


# -- sweep ----------------------------------------------------------------------------------------

def _sizes(values, default):
    from .matmul import check_problem
    try:
        sizes = [int(v) for v in _split(values)] if values else default
    except ValueError:
        raise UsageError(f"--sizes takes whole numbers, got {','.join(_split(values))!r}") from None
    for size in sizes:
        check_problem(size, size, size)
    return sizes


def _device_indices(spec):
    if spec == "all":
        drv = driver.get_backend()
        drv.init()
        return list(range(drv.device_count()))
    try:
        return [int(spec)]
    except ValueError:
        raise UsageError(f"--device takes an index or 'all', got {spec!r}") from None


def cmd_sweep(args):
    """sizes × kernels (× devices). Each kernel runs in a child process unless --no-isolate, so
    one that faults is a failed row, not a lost sweep."""
    from .matmul import check_fits
    from .sweep import add_speedups, run_isolated, run_kernels
    sizes = _sizes(args.sizes, [256, 1024, 2048])
    chosen = kernels.select(_split(args.kernel), _split(args.precision))
    seed = _seed(args)
    rows = []
    for index in _device_indices(args.device):
        with _open_device(index) as dev:   # checks the index; tags rows with name and arch
            runnable = _runnable(dev, chosen, bool(args.kernel))
            if runnable:
                check_fits(dev, runnable, *(max(sizes),) * 3)
            name, arch = dev.name, str(dev.arch)
            if not args.isolate:
                for size in sizes:
                    rows += run_kernels(dev, runnable, (size,) * 3, inputs=args.inputs, seed=seed,
                                        iters=args.iters, warmup=args.warmup,
                                        cubin_dir=args.cubin_dir, note=note)
        if args.isolate:
            for size in sizes:
                for kern in runnable:
                    got = run_isolated(index, kern, (size,) * 3, inputs=args.inputs, seed=seed,
                                       iters=args.iters, warmup=args.warmup,
                                       cubin_dir=args.cubin_dir, backend=args.backend)
                    for r in got:
                        r.update(device=r.get("device") or name, arch=r.get("arch") or arch)
                    rows += got
                    note(f"device {index} {name}: {kern.name} {size}³ "
                         + ("ok" if all(r["passed"] for r in got) else "FAILED"))
    add_speedups(rows)
    if args.out:
        note("wrote " + " and ".join(report.write_rows(Path(args.out), "sweep", rows)))
    if args.format == "table":
        print(report.render([{**r, "shape": f"{r['m']}×{r['n']}×{r['k']}"} for r in rows], "table",
                            [("device_index", "dev"), ("device", "device"), ("arch", "arch")]
                            + report.RUN_COLUMNS))
        print(f"\nseed {seed}, inputs {args.inputs}")
    else:
        print(report.render(rows, args.format))
    return 0 if rows and all(r["passed"] for r in rows) else 1


# -- bench ----------------------------------------------------------------------------------------

def cmd_bench(args):
    from .bench import LADDER, run_bench
    from .driver.cublas import Cublas
    from .matmul import check_fits
    sizes = _sizes(args.sizes, [1024, 2048, 4096, 8192])
    keys = _split(args.precision) or list(LADDER)
    for key in keys:
        if key not in LADDER:
            raise UsageError(f"bench has no ladder for {key!r}; choose from: {', '.join(LADDER)}")
    seed = _seed(args)
    with _open_device(_device_indices(args.device)[0]) as dev:
        check_fits(dev, [kernels.KERNELS[n] for k in keys for n in LADDER[k]], *(max(sizes),) * 3)
        cublas = Cublas()
        try:
            rows = run_bench(dev, cublas, keys, sizes, iters=args.iters, warmup=args.warmup,
                             seed=seed, note=note)
        finally:
            cublas.close()
        name, arch = dev.name, dev.arch
    if args.out:
        note("wrote " + " and ".join(report.write_rows(Path(args.out), "bench", rows)))
    if args.format == "table":
        print(report.render([{**r, "shape": f"{r['m']}³"} for r in rows], "table", report.BENCH_COLUMNS))
        print(f"\n{name} ({arch}), seed {seed}, median of {args.iters} launches after {args.warmup} "
              "warm-up, inputs rotated through several copies where one set fits in L2; "
              "every row verified")
    else:
        print(report.render(rows, args.format))
    return 0 if rows and all(r["passed"] for r in rows) else 1


# -- cache ----------------------------------------------------------------------------------------

def cmd_cache(args):
    from .cache import CubinCache
    c = CubinCache()
    if args.action == "clear":
        n = c.clear()
        print(f"removed {n} cubin(s) from {c.dir}")
        return 0
    entries = c.entries()
    info = {"dir": str(c.dir), "entries": len(entries), "bytes": sum(p.stat().st_size for p in entries),
            "override": "TCRAW_CACHE_DIR (TCRAW_NO_CACHE=1 to bypass)"}
    if args.format == "json":
        print(json.dumps(info, indent=2))
    else:
        for k, v in info.items():
            print(f"{k:>9}  {v}")
    return 0


# -- entry ----------------------------------------------------------------------------------------

def build_parser():
    p = _Parser(prog="tcraw", description="Compile, run, time and verify tensor-core matmul "
                "kernels from Python through NVRTC and the CUDA driver API.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    s = sub.add_parser("info", help="backend, NVRTC, headers, GPU")
    _common(s)
    s.add_argument("--device", type=int, default=0)
    s.set_defaults(fn=cmd_info)

    s = sub.add_parser("list", help="the kernels")
    _common(s)
    s.set_defaults(fn=cmd_list)

    s = sub.add_parser("compile", help="NVRTC cubins and their resources, for any arch (no GPU needed)")
    _common(s)
    s.add_argument("--arch", action="append", help="sm_XX[,sm_YY] or all (default: this GPU's)")
    s.add_argument("--kernel", action="append", help="kernel name(s), see `tcraw list`")
    s.add_argument("--out", help="write <kernel>.<arch>.cubin and manifest.json here")
    s.add_argument("--device", type=int, default=0)
    s.set_defaults(fn=cmd_compile)

    s = sub.add_parser("run", help="run, time and verify kernels on the GPU")
    _common(s)
    s.add_argument("--kernel", action="append", help="kernel name(s), see `tcraw list`")
    s.add_argument("--precision", action="append",
                   help="fp32, fp16, bf16, tf32, int8, fp64 or all (comma-separated)")
    s.add_argument("-m", type=int)
    s.add_argument("-n", type=int)
    s.add_argument("-k", type=int)
    s.add_argument("--size", type=int, help="M = N = K (default 1024)")
    s.add_argument("--iters", type=int, default=20, help="timed launches (median and min reported)")
    s.add_argument("--warmup", type=int, default=3)
    s.add_argument("--seed", type=int, help="input seed (default: fresh each run, printed)")
    s.add_argument("--inputs", choices=("normal", "int"), default="normal",
                   help="random normal, or integers in [-4,4] (exact results)")
    s.add_argument("--device", type=int, default=0)
    s.add_argument("--save", help="directory for A, B, C (.npy) and the records (JSON)")
    s.add_argument("--cubin-dir", help="run prebuilt cubins from here (no NVRTC needed)")
    s.add_argument("--isolate", action="store_true",
                   help="run each kernel in a child process (a faulting kernel cannot take the rest down)")
    s.set_defaults(fn=cmd_run)

    s = sub.add_parser("sweep", help="sizes × kernels × devices; CSV and JSON with --out")
    _common(s)
    s.add_argument("--sizes", action="append", help="M = N = K values, comma-separated (default 256,1024,2048)")
    s.add_argument("--kernel", action="append", help="kernel name(s), see `tcraw list`")
    s.add_argument("--precision", action="append", help="fp32, fp16, bf16, tf32, int8, fp64 or all")
    s.add_argument("--device", default="0", help="GPU index, or 'all' to run on each GPU in turn")
    s.add_argument("--iters", type=int, default=10)
    s.add_argument("--warmup", type=int, default=2)
    s.add_argument("--seed", type=int)
    s.add_argument("--inputs", choices=("normal", "int"), default="normal")
    s.add_argument("--cubin-dir", help="run prebuilt cubins from here (no NVRTC needed)")
    s.add_argument("--no-isolate", dest="isolate", action="store_false",
                   help="run every kernel in this process (faster; a fault then ends the sweep)")
    s.add_argument("--out", help="write sweep.json and sweep.csv here")
    s.set_defaults(fn=cmd_sweep)

    s = sub.add_parser("bench", help="the kernel ladder against cuBLAS at large sizes")
    _common(s)
    s.add_argument("--sizes", action="append", help="M = N = K values (default 1024,2048,4096,8192)")
    s.add_argument("--precision", action="append", help="fp32, fp16, bf16, tf32 (default: all four)")
    s.add_argument("--iters", type=int, default=20)
    s.add_argument("--warmup", type=int, default=5)
    s.add_argument("--seed", type=int)
    s.add_argument("--device", default="0")
    s.add_argument("--out", help="write bench.json and bench.csv here")
    s.set_defaults(fn=cmd_bench)

    s = sub.add_parser("cache", help="the on-disk cubin cache: info or clear")
    _common(s)
    s.add_argument("action", choices=("info", "clear"))
    s.set_defaults(fn=cmd_cache)
    return p


def main(argv=None):
    try:
        args = build_parser().parse_args(argv)
        driver.configure(args.backend, args.trace)
        return args.fn(args)
    except TcrawError as exc:
        note(f"tcraw: {exc}")
        return exc.exit_code
    except BrokenPipeError:  # `tcraw ... | head`: the reader left; not an error of ours
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        note("tcraw: interrupted")
        return 130
    except SystemExit as exc:  # --help
        return exc.code if isinstance(exc.code, int) else 0
