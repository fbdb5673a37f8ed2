"""The ladder against cuBLAS, in the same process, on the same inputs, the same timing loop.

For each size and precision: inputs quantized once; the reference from the CPU (small sizes) or
the fp64 device reference (large: matmul.reference_kind); cuBLAS timed and verified first; then
each rung of the ladder, timed with input rotation where a problem would otherwise sit in L2,
verified at every size it is timed at, and reported as a ratio to cuBLAS's median time.
"""

from dataclasses import dataclass, replace

from .errors import NamedTable, TcrawError, UsageError
from .kernels import KERNELS, checked_chosen
from .matmul import failed_record, make_problem, run_cublas, run_cublaslt, run_matmul
from .driver.cublaslt import LT_NONE, LT_TYPES
from .precision import FAMILIES, PRECISIONS, base_matrices
from .report import shape_label

# Precision -> the ladder's rungs, slowest first.
LADDER = {
    "fp32": ["naive_fp32", "tiled_simt_fp32"],
    "fp16": ["wmma_fp16", "wmma_pipelined_fp16", "mma_sync_fp16", "wgmma_tma_fp16"],
    "bf16": ["wmma_bf16", "wmma_pipelined_bf16", "mma_sync_bf16", "wgmma_tma_bf16"],
    "tf32": ["wmma_tf32", "mma_sync_tf32", "wgmma_kmajor_tf32"],
    "int8": ["wmma_int8", "wgmma_kmajor_int8"],
    "fp8e4m3bf16": ["wgmma_kmajor_fp8e4m3bf16"],
    "fp8e4m3": ["wgmma_kmajor_fp8e4m3"],
    "fp8e5m2": ["wgmma_kmajor_fp8e5m2"],
    "fp64": ["wmma_fp64", "dmma_fp64"],
}
# The names run and sweep take for several precisions at once — a family that is no ladder's own
# name (fp8), and all — as bench reads them: ladders
LADDER_GROUPS = {"all": list(LADDER), **{family: [key for key in LADDER if PRECISIONS[key].family == family]
                                         for family in FAMILIES if family not in LADDER}}


# Shape suites (`tcraw bench --shapes NAME`): where real workloads live, not only big squares.
_PROJECTIONS = [(4096, 4096), (11008, 4096), (4096, 11008), (14336, 4096), (4096, 14336)]   # N × K
SUITES = NamedTable("suite", {
    "square": [(s, s, s) for s in (1024, 2048, 3072, 4096, 6144, 8192)],
    # M tokens against projection-like weights (N × K), from decode (1) to prefill (16384)
    "llm": [(m, n, k) for m in (1, 16, 128, 512, 2048, 16384) for n, k in _PROJECTIONS],
    "skinny": [(64, 8192, 8192), (8192, 64, 8192), (256, 16384, 1024), (16384, 256, 1024), (128, 4096, 4096)],
    "long-k": [(1024, 1024, 8192), (1024, 1024, 16384), (512, 512, 32768), (2048, 2048, 16384)],
    "odd": [(1001, 1003, 997), (3001, 2999, 1025), (4095, 4097, 4093), (777, 5555, 333), (6001, 1999, 3003)],
})


def shape_row(text):
    """(m, n, k) from one shape as a file of shapes and check's --shapes write it: `M N K`, `M,N,K`
    or `MxNxK`; each a problem's size (validate.problem's refusal otherwise)."""
    from . import validate
    import re
    # (three fields: separated by spaces, or by one x, × or comma each — an empty field, 1,,2,3, refused)
    shape = tuple(map(validate.digits, re.split(r"\s*[x×,]\s*|\s+", text.strip().lower())))
    if len(shape) != 3 or None in shape:
        raise UsageError(f"{text.strip()!r} is not a shape; write M N K (or M,N,K or MxNxK)")
    validate.problem(*shape)
    return shape


def parse_shapes(spec):
    """[(suite, (m, n, k))] from --shapes: suite names (comma-separated) and/or files of shapes,
    one per line as `m n k`, `m,n,k` or `MxNxK` (# starts a comment); a file's suite is its name
    (without its suffix) — or the path as given, where that name is a built-in suite's or another
    file's (two suites are never merged into one geomean)."""
    from pathlib import Path
    from . import validate
    out, files = [], {}
    for item in validate.listed(spec, "--shapes") or []:
        if item in SUITES:
            out += [(item, shape) for shape in SUITES[item]]
            continue
        path = Path(item)
        if not validate.is_file(path):
            raise UsageError(f"--shapes {item!r} is neither a suite ({', '.join(SUITES)}) nor a file of shapes"
                             f"{validate.close_to(item, SUITES)}")
        try:
            text = path.read_text(encoding="utf-8-sig")   # (a byte-order mark is not part of the first line)
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"--shapes {path}: cannot read it as text ({exc})") from None
        suite = path.stem if path.stem not in SUITES and files.get(path.stem, path.resolve()) == path.resolve() \
            else item
        files.setdefault(suite, path.resolve())
        before = len(out)
        for n, line in enumerate(text.splitlines(), 1):
            line = line.split("#")[0].strip()
            if not line:
                continue
            try:
                out.append((suite, shape_row(line)))
            except UsageError as exc:
                raise UsageError(f"{path}:{n}: {exc}") from None
        if len(out) == before:
            raise UsageError(f"--shapes {path}: no shape in it; write one M N K a line")
    if not out:
        raise UsageError("--shapes names no shape")
    return list(dict.fromkeys(out))   # (a suite named twice, a line repeated: timed once, counted once)


# The yardstick of each precision: cuBLAS (cublasGemmEx, B as tcraw's ladder stores it), or
# cuBLASLt for the types its ctypes binding covers: where cublasGemmEx has no such type (FP8) or
# is slow unless B is K-major (INT8).
LT_YARDSTICK = tuple(LT_TYPES)
YARDSTICKS = ("cublas", "cublaslt")   # the names their rows carry (matmul.run_cublas, run_cublaslt)


def open_cublaslt(note=print):
    """A CublasLt for the FP8/INT8 yardsticks, or None (said) where cuBLASLt cannot be found:
    the rungs still run, FP8's with no ratio, INT8's against cuBLAS."""
    from .driver.cublaslt import CublasLt
    try:
        return CublasLt()
    except TcrawError as exc:
        note(f"no cuBLASLt yardstick: {exc}")
        return None


def yardstick_name(key, lt):
    """The yardstick ``key`` meets: cuBLASLt's where it covers (or declines) the type and ``lt`` is open."""
    return "cublaslt" if lt is not None and (key in LT_YARDSTICK or key in LT_NONE) else "cublas"


def yardstick(device, cublas, key, hp, *, lt=None, **timing):
    """The yardstick's record for ``key`` on ``hp``: cuBLASLt's (``lt``) for LT_YARDSTICK, else cuBLAS's."""
    from .driver.cublas import GEMM_TYPES
    if key in LT_NONE:
        raise UsageError(f"{key} has no yardstick: {LT_NONE[key]}")
    if yardstick_name(key, lt) == "cublaslt":
        return run_cublaslt(device, lt, PRECISIONS[key], hp, **timing)
    if key not in GEMM_TYPES:
        raise UsageError(f"{key} has no cuBLAS yardstick (cublasGemmEx has no such type): pass lt, a "
                         "tcraw.driver.cublaslt.CublasLt")
    return run_cublas(device, cublas, PRECISIONS[key], hp, **timing)


def yardsticks(device, cublas, key, hp, *, lt=None, note=print, **timing):
    """The yardstick records for ``key`` on ``hp`` by accumulation: {None: cuBLAS's or cuBLASLt's},
    and for FP8 with ``lt`` both of cuBLASLt's modes — {"fast": the sums kept in the tensor cores'
    own accumulator, "promoted": its default, partial sums added into fp32} — so that each rung
    is timed against its like (accumulation()). An FP8 mode that fails is noted and left out."""
    if yardstick_name(key, lt) == "cublaslt" and PRECISIONS[key].scaled and key not in LT_NONE:
        out = {}
        for mode in ("fast", "promoted"):
            try:
                out[mode] = run_cublaslt(device, lt, PRECISIONS[key], hp, fast_accum=mode == "fast", **timing)
            except TcrawError as exc:
                note(f"cublaslt ({mode} accumulation) {key} {hp.m}×{hp.n}×{hp.k}: {exc}")
        return out
    return {None: yardstick(device, cublas, key, hp, lt=lt, **timing)}


def accumulation(kernel):
    """The FP8 yardstick a rung meets: "promoted" when built with PROMOTE (07 adding its partial
    sums into fp32), else "fast"; None for the other precisions (one yardstick)."""
    if not kernel.precision.scaled:
        return None
    return "promoted" if any(d.startswith("PROMOTE=") and d != "PROMOTE=0" for d in kernel.defines) else "fast"


def run_bench(device, cublas, keys, shapes, *, iters, warmup, seed, note=print, rungs=None, lt=None):
    """Rows for the yardstick (cuBLAS, or cuBLASLt ``lt`` for FP8 and INT8) and each rung per shape
    and precision. ``shapes``: sizes (M = N = K), (m, n, k) triples, or (suite, (m, n, k)) pairs,
    whose suite each row carries. ``rungs`` (precision key -> Kernel list) replaces the registry's
    ladder, e.g. with tuning variants (scripts/tune_ladder.py) or a user's kernels beside it."""
    from . import validate
    validate.device(device, "run_bench", needs=("sm_count", "drv", "l2_bytes"))
    rungs = rungs or {key: [KERNELS[name] for name in LADDER[key]] for key in keys}
    rows, refused = [], set()
    for item in shapes:
        suite, shape = item if isinstance(item, tuple) and len(item) == 2 else (None, item)
        m, n, k = (shape,) * 3 if isinstance(shape, int) else shape
        label = shape_label(m, n, k)
        base_a, base_b = base_matrices(m, n, k, "normal", seed)
        problems = {}   # precisions storing the same values (FP8 → fp32 and → bf16) share the problem
        for key in keys:
            p = PRECISIONS[key]
            stored = (p.in_dtype, p.quantize, p.to_f64, p.normal_scale, p.scaled)
            hp = problems.get(stored)
            hp = replace(hp, precision=p) if hp else make_problem(device, p, base_a, base_b, "normal")
            problems.setdefault(stored, hp)
            bases = {}
            try:
                bases = yardsticks(device, cublas, key, hp, lt=lt, note=note, iters=iters, warmup=warmup, seed=seed,
                                   rotate=True)
                rows += [{**b.as_dict(), "suite": suite} for b in bases.values()]
            except TcrawError as exc:
                note(f"{yardstick_name(key, lt)} {key} {label}: {exc}")
            for kernel in rungs[key]:
                if (refusal := kernel.device_refusal(device)):
                    if kernel.name not in refused:
                        note(f"skipped: {refusal}")
                        refused.add(kernel.name)
                    continue
                try:
                    rec = run_matmul(device, kernel, hp, iters=iters, warmup=warmup, seed=seed, rotate=True)
                except TcrawError as exc:
                    note(f"{kernel.name} {label}: {exc}")
                    rec = failed_record(kernel, m, n, k, device, str(exc).splitlines()[0])
                row, base = {**rec.as_dict(), "suite": suite}, bases.get(accumulation(kernel))
                row["vs_cublas"] = base.time_ms / rec.time_ms if base and base.passed and rec.passed else None
                rows.append(row)
                note(f"{kernel.name:>22} {label:>17}  {rec.tflops:8.1f} TFLOP/s  "
                     + (f"{row['vs_cublas']:.3f}× cuBLAS" if row["vs_cublas"] else "") +
                     ("" if rec.passed else "  FAILED"))
    return rows


def suite_summary(rows, floor=0.85):
    """Per suite, precision and kernel: the geometric mean of × cuBLAS, the worst shape, and how
    many shapes fall below ``floor`` (a row without a ratio — failed — counts as below, as does
    one whose ratio is no finite positive number: NaN, 0 or less, not bench's). The yardsticks'
    own rows (cuBLAS, cuBLASLt) are left out."""
    import math
    from numbers import Real
    need = {"kernel", "precision", "m", "n", "k", "passed"}
    if not isinstance(rows, (list, tuple)) or not all(isinstance(r, dict) and need <= r.keys() for r in rows):
        raise UsageError(f"suite_summary takes bench's rows (dicts from bench_vs_cublas, each with "
                         f"{', '.join(sorted(need))}), not {rows!r:.80}")
    groups = {}
    for r in rows:
        if r["kernel"] not in YARDSTICKS and r.get("suite"):
            groups.setdefault((r["suite"], r["precision"], r["kernel"]), []).append(r)
    def ratio(r):   # a row's × cuBLAS where it is a finite positive number (numpy's too), else None
        value = r.get("vs_cublas")
        return value if isinstance(value, Real) and not isinstance(value, bool) and math.isfinite(value) \
            and value > 0 else None
    out = []
    for (suite, precision, kernel), rs in groups.items():
        rated = [ratio(r) or 0 for r in rs]   # (0: none)
        ratios = [x for x in rated if x]
        worst = min(range(len(rs)), key=rated.__getitem__)
        out.append({"suite": suite, "precision": precision, "kernel": kernel, "shapes": len(rs),
                    "geomean_vs_cublas": math.exp(sum(map(math.log, ratios)) / len(ratios)) if ratios else None,
                    "worst_vs_cublas": rated[worst] or None,
                    "worst_shape": "×".join(str(rs[worst][d]) for d in "mnk"),
                    f"below_{floor}": sum(1 for x in rated if x < floor),
                    "failed": sum(1 for r in rs if not r["passed"]),
                    # shapes the kernel ran on zero-padded copies whose making the time leaves out
                    # (cuBLAS ran on the real matrices): their ratios flatter the kernel
                    "padded_untimed": sum(1 for r in rs if r.get("padded")
                                          and list(r["padded"]) != [r["m"], r["n"], r["k"]])})
    return out


def shape_items(shapes):
    """``shapes`` as run_bench takes them — sizes (M = N = K), (m, n, k) triples or (suite, (m, n,
    k)) pairs, numpy integers too — as [(suite or None, (m, n, k))] of Python ints; a UsageError
    naming the first that is none of those (or an empty list)."""
    from . import validate
    if isinstance(shapes, (str, bytes)) or not hasattr(shapes, "__iter__"):
        raise UsageError(f"shapes are a list of sizes, (m, n, k) or (suite, (m, n, k)); got {shapes!r} "
                         "(suite names and files go through parse_shapes, e.g. parse_shapes('llm'))")
    out = []
    for item in shapes:
        suite, shape = item if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], (str, type(None))) \
            else (None, item)
        triple = (shape,) * 3 if validate.is_whole(shape) else shape
        if not (isinstance(triple, (tuple, list)) and len(triple) == 3):
            raise UsageError(f"{item!r} is not a shape: give a size, (m, n, k) or (suite, (m, n, k))")
        out.append((suite, validate.problem(*triple)))
    if not out:
        raise UsageError("no shape to time: give at least one size, (m, n, k) or suite")
    return list(dict.fromkeys(out))   # (a shape twice in one suite: timed once, counted once in its geomean)


def bench_vs_cublas(device_index, keys=None, shapes=(1024, 2048, 4096, 8192), *, extra=(), kernels=None,
                    iters=20, warmup=5, seed=None, note=print, open_device=None, rungs=None):
    """What `tcraw bench` does: the ladder of each precision in ``keys`` (default: every ladder),
    plus the user kernels ``extra`` beside the rungs of their precision, against cuBLAS on one
    GPU → rows with ``vs_cublas`` (``keys`` may name LADDER_GROUPS: fp8, all). ``shapes`` as run_bench takes them (parse_shapes makes suites);
    ``kernels`` (names) keeps only those rungs; ``rungs`` (precision key -> Kernel list)
    replaces the ladders (scripts/tune_ladder.py's variants). Checked before the GPU is touched
    (bench_plan: the CLI asks it before it makes --out)."""
    plan = bench_plan(device_index, keys, shapes, extra=extra, kernels=kernels, iters=iters, warmup=warmup,
                      seed=seed, rungs=rungs, note=note)
    return run_plan(plan, note=note, open_device=open_device)


@dataclass(frozen=True)
class BenchPlan:
    """A bench request checked: the GPU, the precisions, shapes, rungs, timing and seed."""

    device_index: int
    keys: list
    shapes: list
    rungs: dict
    iters: int
    warmup: int
    seed: int


def bench_plan(device_index, keys=None, shapes=(1024, 2048, 4096, 8192), *, extra=(), kernels=None, iters=20,
               warmup=5, seed=None, rungs=None, note=None):
    """bench_vs_cublas's arguments checked, on any machine — a BenchPlan, or a UsageError naming
    the first that is wrong (a user's kernel that does not compile here said to ``note``: its rows
    will carry the error)."""
    from . import validate
    from .kernel import Kernel
    from .matmul import check_host_fits
    from .sweep import fresh_seed, note_unbuildable
    keys, kernels = ([v] if isinstance(v, str) else v for v in (keys, kernels))   # one name, not its letters
    for what, v in (("keys (precisions)", keys), ("kernels (rung names)", kernels)):
        if v is not None and (not isinstance(v, (list, tuple)) or not v or not all(isinstance(x, str) for x in v)):
            raise UsageError(f"{what} is None (all) or a non-empty list of names, not {v!r:.80}")
    if not isinstance(extra, (list, tuple)) or not all(isinstance(u, Kernel) for u in extra):
        raise UsageError(f"extra is a list of tcraw Kernels (a spec's, user_kernel's), not {extra!r:.80}")
    if extra:
        checked_chosen(extra)   # (each source a file: refused before the GPU, not as failed rows after cuBLAS)
    asked = [one for key in keys or () for one in (LADDER_GROUPS.get(key, [key]) if rungs is None else [key])]
    keys = list(dict.fromkeys(asked or list(rungs or ()) or [k.precision.key for k in extra] or LADDER))
    for key in keys:
        if key not in (rungs or LADDER):
            yours = [u.name for u in extra if u.precision.key == key]
            raise UsageError(f"bench has no ladder for {key!r}" + (
                f" (so {', '.join(yours)}, of that precision, has no cuBLAS yardstick here: time it with tcraw run)"
                if yours else "") + f"; choose from: {', '.join(rungs or LADDER)}")
    shapes = shape_items(shapes)
    validate.timing(iters, warmup)
    validate.seed(seed)
    if validate.device_index(device_index, allow_all=True) == "all":
        raise UsageError("bench times one GPU at a time (the ratios are within one device); give "
                         "--device N, or run `tcraw sweep --device all` to cover every GPU")
    if extra and not any(u.precision.key in keys for u in extra):   # a spec's others are left out, as run's are
        raise UsageError(f"none of the user kernels is {','.join(keys)} (they are "
                         f"{', '.join(sorted({u.precision.key for u in extra}))}); add their precision or drop --precision")
    rungs = rungs or {k: [KERNELS[n] for n in LADDER[k]] + [u for u in extra if u.precision.key == k] for k in keys}
    if kernels:
        known = {kern.name for r in rungs.values() for kern in r}
        if (unknown := [n for n in kernels if n not in known]):
            raise UsageError(f"--kernel {', '.join(unknown)}: not a rung of the {'/'.join(keys)} ladder"
                             f"{validate.close_to(unknown[0], known)}; its rungs: {', '.join(sorted(known))}")
        rungs = {k: [kern for kern in r if kern.name in kernels] for k, r in rungs.items()}
    note_unbuildable([u for r in rungs.values() for u in r if u in extra], note)   # (those benched: before the GPU)
    check_host_fits(*biggest_shape(shapes))
    return BenchPlan(int(device_index), keys, shapes, rungs, iters, warmup, fresh_seed() if seed is None else seed)


def biggest_shape(shapes):
    """The (m, n, k) of [(suite, (m, n, k))] whose operands and output take the most memory."""
    return max((shape for _, shape in shapes), key=lambda t: t[0] * t[1] + t[1] * t[2] + t[0] * t[2])


def run_plan(plan, *, note=print, open_device=None):
    """A BenchPlan's rows: the GPU opened, every rung and its yardstick timed and verified."""
    if not isinstance(plan, BenchPlan):
        raise UsageError(f"run_plan takes a BenchPlan (tcraw.bench_plan(...) makes one), not {plan!r:.80}")
    from .driver.cublas import Cublas, dotted
    from .matmul import check_fits
    from .runtime import Device
    with (open_device or Device)(plan.device_index) as dev:
        check_fits(dev, [kern for r in plan.rungs.values() for kern in r], *biggest_shape(plan.shapes))
        cublas, lt = Cublas(), None
        try:   # (the yardsticks' builds named: cuBLAS's rates vary by build, and the ratios are against these)
            note(f"yardstick: cuBLAS {dotted(cublas.version)} ({cublas.path})")
            if set(plan.keys) & set(LT_YARDSTICK) and (lt := open_cublaslt(note)):
                note(f"yardstick: cuBLASLt {dotted(lt.version)} ({lt.path})")
            return run_bench(dev, cublas, plan.keys, plan.shapes, iters=plan.iters, warmup=plan.warmup,
                             seed=plan.seed, note=note, rungs=plan.rungs, lt=lt)
        finally:
            cublas.close()
            if lt:
                lt.close()
