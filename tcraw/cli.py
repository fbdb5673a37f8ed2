"""tcraw's command line: info, list, compile, run.

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
from .errors import ArchError, CudaError, NoDeviceError, TcrawError, UsageError


def note(msg):
    print(msg, file=sys.stderr)


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse's own usage errors exit 2 too, but with our one-liner
        raise UsageError(f"{self.prog}: {message} (see --help)")


def _common(p):
    p.add_argument("--format", choices=report.FORMATS, default="table", help="output format")
    p.add_argument("--backend", choices=driver.BACKENDS, default=None,
                   help="driver/NVRTC implementation (default: $TCRAW_BACKEND or bindings)")
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
    info = {"backend": drv.name}
    try:
        info["cuda_bindings"] = md.version("cuda-bindings")
    except md.PackageNotFoundError:
        info["cuda_bindings"] = None
    major, minor = drv.nvrtc_version()
    info["nvrtc"] = f"{major}.{minor}"
    info["nvrtc_archs"] = [str(a) for a in compiler.supported_archs()]
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
    rows = [{"name": k.name, "precision": k.precision.label, "min_arch": f"sm_{k.min_arch}",
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
                row["status"] = "below-min-arch" if arch.cc < kernel.min_arch else "unsupported-by-nvrtc"
                row["detail"] = str(exc)
                refusals.append(str(exc))
            except (CudaError, TcrawError) as exc:
                row["status"], row["detail"] = "error", str(exc)
            else:
                row.update(registers=cubin.registers, smem_bytes=cubin.smem_bytes,
                           spill_bytes=cubin.spill_bytes, cubin_bytes=len(cubin.image),
                           compile_ms=round(cubin.compile_ms, 1))
                if cuobjdump:
                    row["sass"] = tensor_op_counts(cubin.image, cuobjdump)
                if out:
                    path = out / f"{kernel.name}.{arch}.cubin"
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


def cmd_run(args):
    from .matmul import Record, check_problem, run_matmul
    from .precision import base_matrices, host_problem
    m, n, k = _problem_shape(args)
    check_problem(m, n, k)
    chosen = kernels.select(_split(args.kernel), _split(args.precision))
    seed = args.seed if args.seed is not None else secrets.randbits(31)
    with _open_device(args.device) as dev:
        runnable = []
        for kern in chosen:
            if dev.cc < kern.min_arch:
                msg = f"kernel {kern.name} needs sm_{kern.min_arch} or newer; {dev.name} is {dev.arch}"
                if args.kernel:
                    raise ArchError(msg)
                note(f"skipped: {msg}")
            else:
                runnable.append(kern)
        base_a, base_b = base_matrices(m, n, k, args.inputs, seed)
        problems, records, outputs = {}, [], {}
        for kern in runnable:
            p = kern.precision
            if p.key not in problems:
                problems[p.key] = host_problem(p, base_a, base_b, args.inputs)
            try:
                rec, c = run_matmul(dev, kern, problems[p.key], iters=args.iters,
                                    warmup=args.warmup, seed=seed, keep_output=True)
                outputs[kern.name] = c
            except UsageError:
                raise
            except TcrawError as exc:  # keep the other kernels' results; record this failure
                note(f"{kern.name}: {exc}")
                rec = Record(kernel=kern.name, precision=p.label, m=m, n=n, k=k, arch=str(dev.arch),
                             device=dev.name, backend=dev.drv.name, time_ms=float("nan"),
                             tflops=float("nan"), pct_peak=None, max_rel_err=float("nan"),
                             tolerance=float("nan"), passed=False, iters=args.iters,
                             inputs=args.inputs, seed=seed, device_index=dev.ordinal)
                rec.error = str(exc).splitlines()[0]
            records.append(rec)
    base = next((r for r in records if r.kernel == kernels.BASELINE and r.passed), None)
    for r in records:
        if base and r.passed:
            r.speedup = base.time_ms / r.time_ms
    rows = [{**r.as_dict(), **({"error": r.error} if hasattr(r, "error") else {})} for r in records]
    if args.save:
        _save(Path(args.save), problems, outputs, rows)
    if args.format == "table":
        print(report.render([{**r, "shape": f"{r['m']}×{r['n']}×{r['k']}"} for r in rows],
                            "table", report.RUN_COLUMNS))
        dev_line = f"{records[0].device} ({records[0].arch})" if records else ""
        print(f"\n{dev_line}, backend {driver.get_backend().name}, seed {seed}, inputs {args.inputs}, "
              f"{args.iters} timed launches after {args.warmup} warm-up; bound = error-model limit "
              "on max rel err (0 = must be exact)")
        best = max((r for r in records if r.passed and r.kernel != kernels.BASELINE and r.speedup),
                   key=lambda r: r.speedup, default=None)
        if base and best:
            print(f"tensor cores: {best.kernel} is {best.speedup:.1f}× faster than {kernels.BASELINE} "
                  "on the same multiply")
    else:
        print(report.render(rows, args.format))
    return 0 if records and all(r.passed for r in records) else 1


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
    s.set_defaults(fn=cmd_run)
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
