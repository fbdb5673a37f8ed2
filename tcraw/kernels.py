"""The kernel registry: one entry per kernel in cuda_src/, with its launch geometry beside it —
01–05 and 08 here, 06/07 from tcraw.wgmma (09 and 10, which 06 hands small M to, in
tcraw.small_m) — and kernels of your own: load_spec, user_kernel, tile_geometry.

A kernel (tcraw.kernel.Kernel) is a source file, entry symbol, -D macros, precision, minimum arch,
the tile the problem is padded to, and a function from the padded (M, N, K) to grid/block/shared
memory. Every kernel takes (A, B, C, M, N, K) with row-major A (M×K), B (K×N), C (M×N).
"""

from dataclasses import replace

from .errors import NamedTable, UsageError
from .kernel import (NAME_MOST, Geometry, Kernel, cdiv, checked_choose, checked_macros, checked_min_arch, is_name,
                     macro_defines, spelt_macros, texts)
from .precision import FAMILIES, PRECISIONS
from .validate import INT32_MAX, close_to, defines as checked_defines, is_dir, is_file, is_whole
from .wgmma import SM90_SMEM_BYTES, wgmma_kernel
# (what tcraw.kernels has always offered, and scripts and tests read here: Kernel's helpers, 06/07's
# macros, model and picks, 09's and 10's — names bound to the same objects: to change one of the
# picker's constants or rules, set it on tcraw.wgmma, whose functions read it there)
from .kernel import *    # noqa: E402,F401,F403
from .wgmma import *     # noqa: E402,F401,F403
from .small_m import *   # noqa: E402,F401,F403


# -- 01: one thread per C element ----------------------------------------------------------------

def naive_fp32_geometry(m, n, k):
    # 16×16 threads, x along a row of C: a warp reads 32 consecutive B elements per k.
    return Geometry(grid=(cdiv(n, 16), cdiv(m, 16), 1), block=(16, 16, 1))


# -- 02: one warp per fragment tile ---------------------------------------------------------------

def wmma_naive_geometry(fm, fn):
    def geometry(m, n, k):
        # The seed's block: 128×4 threads = 4×4 warps, one fm×fn C tile each → a 4fm×4fn block tile.
        return Geometry(grid=(cdiv(m, 4 * fm), cdiv(n, 4 * fn), 1), block=(128, 4, 1))
    return geometry


def _wmma_naive(key, macro, min_arch, frag):
    fm, fn, fk = frag
    p = PRECISIONS[key]
    return Kernel(
        name=f"wmma_{key}", source="02_wmma_naive.cu", entry=f"wmma_naive_{macro.lower()}",
        precision=p, min_arch=min_arch, tile=frag, geometry=wmma_naive_geometry(fm, fn),
        defines=(f"TCRAW_WMMA_{macro}",), align=32,  # load/store_matrix_sync need 256-bit alignment
        summary=f"WMMA {fm}×{fn}×{fk}, one warp per tile, operands from global memory",
    )


# -- 03: shared-memory blocking + register tiling on the CUDA cores ---------------------------------

SIMT_TILE = {"BM": 128, "BN": 128, "BK": 8, "TM": 8, "TN": 8, "SPLIT_N": 1}


def tiled_simt_geometry(tile):
    def geometry(m, n, k):
        # one thread per TM×TN patch of the block's BM×BN tile: 16×16 = 256 threads
        return Geometry(grid=(cdiv(n, tile["BN"]), cdiv(m, tile["BM"]), 1),
                        block=((tile["BM"] // tile["TM"]) * (tile["BN"] // tile["TN"]), 1, 1))
    return geometry


def rung_tile(key, keys, tile, defaults, what):
    """``tile`` over a rung's ``defaults`` — each macro one of them, a whole number ≥ 1 — for a
    ``key`` of ``keys``; else a UsageError naming what is wrong."""
    if key not in keys:
        raise UsageError(f"{what} comes in {', '.join(keys)}, not {key!r}")
    return {**defaults, **checked_macros(tile, defaults, what, tuple(defaults))}


def smem_checked(geometry, tile, defaults, what):
    """``geometry`` if its shared memory fits a block on some GPU tcraw runs on (227 KiB, sm_90's:
    the most any gives); else a UsageError saying how many stages would — such a kernel builds,
    and would fail only at its launch."""
    smem = geometry(1, 1, 1).smem_bytes   # (the same for every problem: STAGES slices of the tile —
                                          # 04's, 05's and 08's shared memory is nothing else)
    if smem > SM90_SMEM_BYTES:
        most = SM90_SMEM_BYTES // (smem // tile["STAGES"])
        raise UsageError(f"{what} with {spelt_macros(tile, defaults) or 'its own macros'} takes {smem} bytes of shared "
                         f"memory a block; no GPU gives a block more than {SM90_SMEM_BYTES}: "
                         + (f"at most STAGES={most} at this tile" if most >= 2 else "a smaller tile"))
    return geometry


def tiled_simt_kernel(key="fp32", tile=SIMT_TILE, name=None):
    """The 03 kernel; ``tile`` overrides its macros (scripts/tune_ladder.py)."""
    tile = rung_tile(key, ("fp32",), tile, SIMT_TILE, "03")
    return Kernel(name or "tiled_simt_fp32", "03_tiled_simt_fp32.cu", "tiled_simt_fp32", PRECISIONS[key], 50,
                  (tile["BM"], tile["BN"], tile["BK"]), tiled_simt_geometry(tile), defines=macro_defines(tile),
                  align=16, summary="shared-memory blocks, 8×8 register tiles, float4 loads, double buffering")


# -- 04: WMMA fed from shared memory by a cp.async pipeline ---------------------------------------

PIPE_TILE = {"BM": 128, "BN": 256, "BK": 64, "WARPS_M": 2, "WARPS_N": 4, "STAGES": 3}


def wmma_pipelined_geometry(tile):
    pad = 8  # halves added to each shared-memory row against bank conflicts (see the .cu)
    stage_halves = tile["BM"] * (tile["BK"] + pad) + tile["BK"] * (tile["BN"] + pad)

    def geometry(m, n, k):
        return Geometry(grid=(cdiv(n, tile["BN"]), cdiv(m, tile["BM"]), 1),
                        block=(32 * tile["WARPS_M"] * tile["WARPS_N"], 1, 1),
                        smem_bytes=tile["STAGES"] * stage_halves * 2)
    return geometry


def wmma_pipelined_kernel(key, tile=PIPE_TILE, name=None):
    """The 04 kernel for fp16 or bf16; ``tile`` overrides its macros (scripts/tune_ladder.py)."""
    tile = rung_tile(key, ("fp16", "bf16"), tile, PIPE_TILE, "04")
    return Kernel(
        name=name or f"wmma_pipelined_{key}", source="04_wmma_smem_cp_async.cu",
        entry=f"wmma_pipelined_{key}", precision=PRECISIONS[key], min_arch=80,
        tile=(tile["BM"], tile["BN"], tile["BK"]),
        geometry=smem_checked(wmma_pipelined_geometry(tile), tile, PIPE_TILE, "04"),
        defines=macro_defines(tile), align=16,
        summary=f"WMMA, {tile['BM']}×{tile['BN']}×{tile['BK']} block tiles in shared memory, "
                f"{tile['STAGES']}-stage cp.async pipeline")


# -- 05: mma.sync + ldmatrix from swizzled shared memory ---------------------------------------------

MMA_TILE = {"BM": 128, "BN": 256, "WARPS_M": 2, "WARPS_N": 4, "STAGES": 3}
# Fixed by the .cu files: their swizzle assumes 128-byte rows of A — 64 halves, or 32 tf32 words.
MMA_BK = {"fp16": 64, "bf16": 64, "tf32": 32}


def mma_sync_geometry(tile, key):
    bk, word = MMA_BK[key], PRECISIONS[key].in_dtype.itemsize
    b_row = tile["BN"] + (8 if key == "tf32" else 0)   # tf32 pads B rows (its B loads are scalar)

    def geometry(m, n, k):
        # smem: STAGES × (A slice + B slice); 16-bit forms swizzle instead of padding
        return Geometry(grid=(cdiv(n, tile["BN"]), cdiv(m, tile["BM"]), 1),
                        block=(32 * tile["WARPS_M"] * tile["WARPS_N"], 1, 1),
                        smem_bytes=tile["STAGES"] * (tile["BM"] + b_row) * bk * word)
    return geometry


def mma_sync_kernel(key, tile=MMA_TILE, name=None):
    """The 05 kernel for fp16, bf16 or tf32; ``tile`` overrides its macros (scripts/tune_ladder.py)."""
    tile = rung_tile(key, tuple(MMA_BK), tile, MMA_TILE, "05")
    bk = MMA_BK[key]
    shape = "m16n8k8" if key == "tf32" else "m16n8k16"
    return Kernel(
        name=name or f"mma_sync_{key}", source="05_mma_sync_ldmatrix.cu", entry=f"mma_sync_{key}",
        precision=PRECISIONS[key], min_arch=80, tile=(tile["BM"], tile["BN"], bk),
        geometry=smem_checked(mma_sync_geometry(tile, key), tile, MMA_TILE, "05"),
        defines=macro_defines(tile) + (f"TCRAW_MMA_{key.upper()}",), align=16,
        summary=f"mma.sync {shape} + ldmatrix, {tile['BM']}×{tile['BN']}×{bk} tiles in "
                f"XOR-swizzled smem, {tile['STAGES']}-stage cp.async pipeline")


# -- 08: fp64 on the tensor cores — mma.sync DMMA (m8n8k4; m16n8k4 on sm_90) from padded smem, cp.async pipeline ----

# sm_90's m16n8k4 on 16-deep slices, 128×128 tiles walked in bands of 8 tile rows (GROUP_M),
# fragments double-buffered in registers. Measured on the H200 against cuBLAS's DGEMM (4096³ /
# 8192³; the DMMA shapes in docs/results/2026-11-30-h200-hopper-precisions/, the bands and the
# fragment sets in docs/results/2026-11-30-h200-fp64-08/): m8n8k4, sm_80's only shape, 0.47× /
# 0.50×; m16n8k8 and k16 0.74–0.81×; m16n8k4 0.81× / 0.83×, then with the bands 0.82× / 0.86×,
# then with the second fragment set (no MMA waits for a load after a slice's barrier) 0.94× /
# 0.94×. Two blocks of 128×64 per SM (BN=64, WARPS_N=2, MIN_BLOCKS=2: cuBLAS's own tile here)
# measured the same, within 1 %; this one also fits an A100's shared memory (113 KB a block).
# One configuration for every problem: with one block of 128×128 or two of 128×64 per SM, and
# 192-row tiles now spilling, no other tile changes how many waves a problem takes.
DMMA_TILE = {"BM": 128, "BN": 128, "BK": 16, "WARPS_M": 2, "WARPS_N": 4, "STAGES": 3, "DMMA_K": 4,
             "MIN_BLOCKS": 1, "GROUP_M": 8}


def dmma_geometry(tile):
    stage = (tile["BM"] * (tile["BK"] + 4) + tile["BK"] * (tile["BN"] + 8)) * 8   # padded rows (see the .cu)

    def geometry(m, n, k):
        return Geometry(grid=(cdiv(n, tile["BN"]), cdiv(m, tile["BM"]), 1),
                        block=(32 * tile["WARPS_M"] * tile["WARPS_N"], 1, 1), smem_bytes=tile["STAGES"] * stage)
    return geometry


def dmma_kernel(tile=DMMA_TILE, name=None, choose=True):
    """The 08 kernel (fp64 DMMA) with the macros ``tile`` (scripts/tune_ladder.py overrides them).
    With ``choose``, a run may override its macros (``run_matmul(config=...)``, Kernel.configured)."""
    tile = {**DMMA_TILE, **checked_macros(tile, DMMA_TILE, "08", tuple(DMMA_TILE))}
    checked_choose(choose, "08")
    if tile["STAGES"] < 2:
        raise UsageError(f"08's cp.async pipeline needs STAGES ≥ 2 (one slice in flight while one is read), "
                         f"not {tile['STAGES']}")
    variant = "" if choose else spelt_macros(tile, DMMA_TILE)
    return Kernel(
        name=name or "dmma_fp64", source="08_dmma_fp64.cu", entry="dmma_fp64", precision=PRECISIONS["fp64"],
        min_arch=80, tile=(tile["BM"], tile["BN"], tile["BK"]),
        geometry=smem_checked(dmma_geometry(tile), tile, DMMA_TILE, "08"),
        defines=macro_defines(tile), align=16, variant=variant,
        tunables=tuple(DMMA_TILE) if choose else (), configs=({},) if choose else (),
        configure=(lambda picked, over: dmma_kernel({**tile, **picked, **over}, name, choose=False)) if choose else None,
        pick=(lambda m, n, k, sms: {}) if choose else None,
        summary=f"mma.sync fp64 (DMMA: m16n8k{tile['DMMA_K']} on sm_90, m8n8k4 before), {tile['BM']}×{tile['BN']}×"
                f"{tile['BK']} tiles in padded smem, bands of {tile['GROUP_M']} tile rows, "
                f"{tile['STAGES']}-stage cp.async pipeline, fragments double-buffered")


KERNELS = NamedTable("kernel", {k.name: k for k in [
    Kernel("naive_fp32", "01_naive_fp32.cu", "naive_fp32", PRECISIONS["fp32"], 50, (1, 1, 1),
           naive_fp32_geometry, summary="one thread per C element, scalar FP32 FMAs"),
    _wmma_naive("fp16", "FP16_FP32", 70, (16, 16, 16)),
    _wmma_naive("fp16acc16", "FP16_FP16", 70, (16, 16, 16)),
    _wmma_naive("bf16", "BF16_FP32", 80, (16, 16, 16)),
    _wmma_naive("tf32", "TF32_FP32", 80, (16, 16, 8)),
    _wmma_naive("int8", "INT8_INT32", 72, (16, 16, 16)),
    _wmma_naive("fp64", "FP64_FP64", 80, (8, 8, 4)),
    tiled_simt_kernel(),
    wmma_pipelined_kernel("fp16"),
    # bf16 fragments take more registers: with BK=64 ptxas needs all 255 on sm_90 and spills on
    # sm_100, so bf16 keeps the 32-deep slices (and a fourth stage in the smem that frees).
    wmma_pipelined_kernel("bf16", {**PIPE_TILE, "BK": 32, "STAGES": 4}),
    mma_sync_kernel("fp16"),
    mma_sync_kernel("bf16"),
    mma_sync_kernel("tf32"),
    wgmma_kernel("fp16"),
    wgmma_kernel("bf16"),
    *(wgmma_kernel(key) for key in ("fp8e4m3bf16", "fp8e4m3", "fp8e5m2", "int8", "tf32")),   # 07
    dmma_kernel(),
]})

# The device reference (00): one entry per input storage type, fp64 accumulate.
REFERENCE = Kernel("reference_fp64", "00_reference_fp64.cu", "reference_fp32", PRECISIONS["fp64"], 50,
                   (1, 1, 1), naive_fp32_geometry, summary="fp64 dot products and |A||B| on the GPU")
REFERENCE_ENTRIES = {"fp32": "reference_fp32", "tf32": "reference_fp32", "fp16": "reference_fp16",
                     "fp16acc16": "reference_fp16", "bf16": "reference_bf16", "int8": "reference_int8",
                     "fp64": "reference_fp64", "fp8e4m3": "reference_e4m3", "fp8e5m2": "reference_e5m2",
                     "fp8e4m3bf16": "reference_e4m3"}


def taken_name(name):
    """Whether a user's kernel may not be called ``name``: a registry kernel's, the fp64
    reference's (`compile --out` writes its cubin beside yours) or a yardstick's (bench's rows) —
    or one of their configurations' (wgmma_tma_fp16[BN=128]: the file stem of such a cubin)."""
    from .bench import YARDSTICKS
    return any(n in KERNELS or n == REFERENCE.name or n in YARDSTICKS for n in {name, name.split("[")[0]})


# What `tcraw run` does with no kernel or precision named: the seed's comparison.
DEFAULT_KERNELS = ("naive_fp32", "wmma_fp16")
BASELINE = "naive_fp32"


def check_own_name(kernel):
    """Refuse a user's kernel under a built-in's name (taken_name) — as load_spec and user_kernel
    do — wherever kernels are chosen or compiled into a directory (select, checked_chosen,
    compile_table): its cubin would overwrite the built-in's in a `compile --out` directory, the name
    would select it in the built-in's place, and a child process would run the built-in. tcraw's
    own kernels (a source file in this tcraw's cuda_src/: the registry's, their configurations,
    copies made with replace) keep their names; a copy pointing at another checkout's does not."""
    from .compiler import CUDA_SRC, source_path
    path = source_path(kernel.source)   # (its directory resolved, not the file: cuda_src/ may hold links)
    own = path.parent.resolve() == CUDA_SRC.resolve() and (is_file(path) or KERNELS.get(kernel.name) is kernel)
    if taken_name(kernel.name) and not own:   # (the registry's own with its file gone: source_refusal says so)
        raise UsageError(f"kernel {kernel.name!r} ({kernel.source}) has a built-in kernel's name; give yours "
                         "its own (name= in Python, --name)")


def users(extra):
    """``extra`` — a user's kernels beside the registry's — as a list (None: none; a generator read
    once), or a UsageError where it is anything but Kernels or one takes a built-in's name."""
    iterable = extra is None or (hasattr(extra, "__iter__") and not isinstance(extra, (str, bytes, Kernel)))
    extra = list(extra or ()) if iterable else None
    if extra is None or not all(isinstance(k, Kernel) for k in extra):
        raise UsageError("extra is a list of tcraw Kernels (a spec's, tcraw.user_kernel(...)), or empty")
    for k in extra:
        check_own_name(k)
    return extra


def get_kernel(name, extra=()):
    """A kernel by name: the registry's, or one of ``extra`` (user kernels)."""
    found = {**KERNELS, **{k.name: k for k in users(extra)}}
    if not isinstance(name, str):
        raise UsageError(f"a kernel is named by text such as \"wmma_fp16\", not {name!r:.80}")
    try:
        return found[name]
    except KeyError:
        raise UsageError(f"unknown kernel {name!r}{close_to(name, found)}; known kernels: {', '.join(found)}") \
            from None


def checked_chosen(chosen):
    """``chosen`` — what run, sweep and check take — if it is a non-empty list of Kernels whose
    sources are files; else a UsageError saying what would do (names go through select)."""
    from .compiler import check_distinct_names, source_refusal
    if isinstance(chosen, (str, Kernel)) or not isinstance(chosen, (list, tuple)) or not chosen or \
            not all(isinstance(k, Kernel) for k in chosen):
        raise UsageError(f"the kernels are a non-empty list of tcraw Kernels, not {chosen!r:.80}; "
                         "tcraw.select([\"wmma_fp16\"]) gives them by name")
    for k in chosen:   # (a spec's kernel with no source: refused before the GPU, not midway through a run)
        check_own_name(k)
        if (refusal := source_refusal(k)):
            raise refusal
    check_distinct_names(chosen)
    return list(chosen)


def child_args(kernel):
    """The command-line arguments that name ``kernel`` to a child `tcraw` process: a registry
    kernel by name, a user's by the spec or flags that declared it (``origin``). A Kernel built in
    Python has neither: a child cannot see it, so isolation is refused for it with the fix."""
    if not kernel.origin and KERNELS.get(kernel.name) is not kernel:
        raise UsageError(f"kernel {kernel.name} was built in Python, so a child process cannot declare it "
                         "again: run it in this process (isolate=False) or declare it in a spec file "
                         "(tcraw.load_spec)")
    if kernel.origin and (changed := _changed_since_declared(kernel)):
        raise UsageError(f"kernel {kernel.name} differs from what {' '.join(kernel.origin[:2])} declares ({changed}): "
                         "a child process would run the declared one. Run it in this process (isolate=False), or "
                         "declare the change where the kernel is declared")
    return [*kernel.origin, "--kernel", kernel.name]


# What a child process rebuilds from a kernel's origin and must find alike (its geometry: by what
# it gives at two shapes) — a dataclasses.replace() of a spec's kernel keeps the spec as origin.
_DECLARED = ("source", "entry", "precision", "min_arch", "tile", "defines", "include_dirs", "align", "arch_specific",
             "tma_boxes", "tma_element", "persistent", "cluster", "pitch", "lines", "b_layouts", "max_m", "realign_b",
             "plain_c", "tunables", "variant")


_specs_again = {}


def _spec_again(path):
    """A spec's kernels by name, loaded again once while the file is unchanged (child_args asks for
    every shape a check isolates)."""
    import os
    try:
        key = (path, os.stat(path).st_mtime_ns)
    except OSError:   # (gone since: load_spec says so)
        return {k.name: k for k in load_spec(path)}
    if key not in _specs_again:
        _specs_again[key] = {k.name: k for k in load_spec(path)}
    return _specs_again[key]


def _changed_since_declared(kernel):
    """The first field in which ``kernel`` differs from the kernel its origin declares again
    (the spec loaded anew, or the flags read anew), or None where they are alike."""
    if kernel.origin[0] == "--spec":
        again = _spec_again(kernel.origin[1]).get(kernel.name)
    else:
        flags, defines, includes = {}, [], []
        # (as user_kernel wrote it: --flag value pairs, --define=X, --include=X, a bare --arch-specific)
        args = list(kernel.origin)
        while args:
            flag = args.pop(0)
            if flag.startswith("--define="):
                defines.append(flag.split("=", 1)[1])
            elif flag.startswith("--include="):
                includes.append(flag.split("=", 1)[1])
            elif flag == "--arch-specific":
                flags[flag] = True
            else:
                flags[flag] = args.pop(0)
        ints = lambda text: tuple(int(v) for v in text.split(","))   # noqa: E731 (tcraw wrote them)
        again = user_kernel(flags["--source"], flags["--entry"], flags["--precision"], block=ints(flags["--block"]),
                            tile=ints(flags["--tile"]), block_tile=ints(flags["--block-tile"]),
                            smem_bytes=int(flags["--smem"]), min_arch=int(flags["--min-arch"]), defines=tuple(defines),
                            include_dirs=tuple(includes), name=flags["--name"], align=int(flags["--align"]),
                            arch_specific=flags.get("--arch-specific", False))
    if again is None:
        return f"it declares no kernel {kernel.name}"
    for field in _DECLARED:
        if getattr(kernel, field) != getattr(again, field):
            return f"its {field}: {getattr(kernel, field)!r:.60} here, {getattr(again, field)!r:.60} there"
    for shape in (kernel.tile, (4097, 4099, 1031)):
        try:
            alike = kernel.geometry_at(*kernel.padded(*shape)) == again.geometry_at(*again.padded(*shape))
        except UsageError:
            alike = True   # (a shape the kernel refuses: its launches are compared where they exist)
        if not alike:
            return f"its geometry at {shape}"
    return None


def runnable(device, chosen, explicit, note=print):
    """The kernels of ``chosen`` that ``device`` can run. One it cannot (arch, shared memory) is
    skipped with a note, or, when the caller asked for it by name (``explicit``), refused."""
    keep = []
    for kern in chosen:
        refusal = kern.device_refusal(device)
        if refusal and explicit:
            raise refusal
        if refusal:
            note(f"skipped: {refusal}")
        else:
            keep.append(kern)
    return keep


# What --precision selects by (run, sweep; select): a family (fp16: its fp16acc16 kernel too), a
# precision's own key (fp16acc16, fp8e4m3, as `tcraw list --format json` names it), or all.
SELECTING_PRECISIONS = tuple(dict.fromkeys((*FAMILIES, *PRECISIONS, "all")))


def select(names=None, precisions=None, extra=(), b_layout=None):
    """Kernels by name and/or precision — a family or one precision's key, 'all' for every
    family — in registry order. Both
    given: every named kernel must be of a named family (a request is never half-ignored).
    ``extra`` (user kernels) can be named, and with no name given they are the selection. A
    family's selection brings the FP32 baseline for speedups — unless ``b_layout`` (B's layout
    asked for every kernel) is one it does not read: the baseline was not asked for."""
    names, precisions = ([x] if isinstance(x, str) else x for x in (names, precisions))   # one name: a list of it
    names = list(dict.fromkeys(names)) if isinstance(names, (list, tuple)) else names   # (once each, as --kernel)
    extra = users(extra)
    if b_layout is not None:
        from .matmul import check_layout_name
        check_layout_name(b_layout)
    from .compiler import check_distinct_names
    check_distinct_names(extra)   # (by name, one of two would be chosen and the other never seen)
    fams = None
    if precisions:
        unknown = [f for f in precisions if f not in SELECTING_PRECISIONS]
        if unknown:
            raise UsageError(f"unknown precision {unknown[0]!r}{close_to(unknown[0], SELECTING_PRECISIONS)}; "
                             f"choose from: {', '.join(SELECTING_PRECISIONS)}")
        fams = FAMILIES if "all" in precisions else precisions

    def of(kern):   # (a family's kernels, or one precision's by its key: fp16acc16 of fp16's)
        return not fams or kern.precision.family in fams or kern.precision.key in fams
    if names:
        chosen = [get_kernel(n, extra) for n in names]
        if extra and not set(names) & {k.name for k in extra}:
            chosen += list(extra)   # built-ins named beside your kernel: yours is not dropped
        for kern in chosen:
            if not of(kern):
                raise UsageError(f"kernel {kern.name} is {kern.precision.key}, which --precision "
                                 f"{','.join(precisions)} leaves out; give --kernel or --precision, "
                                 "or a precision that includes it")
    elif extra:
        chosen = [k for k in extra if of(k)]
        if not chosen:
            raise UsageError(f"none of the user kernels is {','.join(precisions)}")
    elif fams:
        chosen = [k for k in KERNELS.values() if of(k)]
        if BASELINE not in [k.name for k in chosen] and b_layout in (None, *KERNELS[BASELINE].b_layouts):
            chosen.insert(0, KERNELS[BASELINE])  # speedups are against the FP32 baseline
    else:
        chosen = [KERNELS[n] for n in DEFAULT_KERNELS]
        if b_layout is not None and any(b_layout not in k.b_layouts for k in chosen):
            readers = [k.name for k in KERNELS.values() if b_layout in k.b_layouts]
            raise UsageError(f"the default kernels ({', '.join(DEFAULT_KERNELS)}) read B row-major, not "
                             f"{b_layout}-major: name kernels that read it (--kernel {','.join(readers[:3])}, "
                             "...) or a precision whose kernels do (--precision fp8)")
    return chosen


# -- user kernels ---------------------------------------------------------------------------------

def spec_source(source, here):
    """A spec's kernel source: a relative path names the file beside the spec — or, where there is
    none there, tcraw's cuda_src/ one, as the registry's factories (kernels.wgmma_kernel) name theirs."""
    from pathlib import Path
    from .compiler import CUDA_SRC
    path = Path(source)
    if path.is_absolute() or is_file(here / path) or not is_file(CUDA_SRC / path):
        return str(here / path)   # (an absolute path as it is; a missing file is named beside the spec)
    return str(CUDA_SRC / path)


def _lives_in(module, here):
    """Whether a top-level ``module`` was imported from the directory ``here``: here/name.py, or
    a package here/name/ (with an __init__.py or without)."""
    import os
    file = getattr(module, "__file__", None)
    if not file:   # (a namespace package, a directory without __init__.py: its directories say)
        return any(os.path.dirname(os.path.abspath(d)) == str(here) for d in getattr(module, "__path__", ()))
    parent = os.path.dirname(os.path.abspath(file))
    if os.path.basename(file).startswith("__init__."):
        parent = os.path.dirname(parent)
    return parent == str(here)


def spec_line(exc, path):
    """" (line N)": the spec's own line the exception ``exc`` came from (its last frame in the
    file), or "" where none is (a SyntaxError names its line itself)."""
    import traceback
    from pathlib import Path
    spec = Path(path).resolve()
    lines = [f.lineno for f in traceback.extract_tb(exc.__traceback__) if Path(f.filename).resolve() == spec]
    return f" (line {lines[-1]})" if lines and not isinstance(exc, SyntaxError) else ""


def load_spec(path):
    """The kernels a spec file declares: a Python file that builds ``Kernel`` objects (the same
    class the registry above uses) and lists them in ``KERNELS``. A relative ``source`` or
    include directory in it is relative to the spec file (a source not there, tcraw's own:
    spec_source — so a spec may list the registry's factories, e.g. a fixed 06 configuration
    under a name of its own). Names must not clash with the registry's."""
    import contextlib
    import os
    import runpy
    from pathlib import Path
    if not isinstance(path, (str, os.PathLike)):
        raise UsageError(f"a spec file is a path, not {path!r:.80}")
    if not str(path).strip():
        raise UsageError("--spec (load_spec) needs a file path, got an empty one")
    path = Path(path)
    if path.suffix in (".cu", ".cuh", ".h"):
        raise UsageError(f"spec file {path} is CUDA source; a spec is a Python file with KERNELS = [...]. "
                         "Declare a .cu kernel with --source FILE --entry NAME --precision P --block B instead")
    if not is_file(path):
        what = "is a directory" if is_dir(path) else "is not a regular file (a pipe or a device?): save the spec " \
            "to a file" if os.path.exists(path) else "does not exist"
        raise UsageError(f"spec file {path} {what}; a spec is "
                         "a Python file with KERNELS = "
                         "[tcraw.Kernel(...), ...] (see examples/)")
    import sys
    here = path.resolve().parent
    modules = set(sys.modules)
    sys.path.insert(0, str(here))   # (a spec may import a helper module beside it — its own, not another spec's)
    try:
        with contextlib.redirect_stdout(sys.stderr):   # (what it prints: not into --format json's output)
            found = runpy.run_path(str(path)).get("KERNELS")
    except UsageError as exc:   # tcraw refused something the spec asked for: say where it was asked
        raise UsageError(f"spec file {path}{spec_line(exc, path)}: {exc}") from None
    except (Exception, SystemExit) as exc:   # the user's own Python: name the file and what it raised
        raise UsageError(f"spec file {path} failed to load{spec_line(exc, path)}: "
                         f"{type(exc).__name__}: {exc}") from None
    finally:
        sys.path.remove(str(here))
        new = set(sys.modules) - modules
        beside = {name for name in new if "." not in name and _lives_in(sys.modules[name], here)}
        for name in new:   # (helper modules and packages from beside it, all of them: the next spec finds its own)
            if name.split(".")[0] in beside:
                del sys.modules[name]
    if not isinstance(found, (list, tuple)) or not found or not all(isinstance(k, Kernel) for k in found):
        raise UsageError(f"spec file {path} must set KERNELS to a non-empty list of tcraw.Kernel objects")
    kernels = []
    if (twice := sorted({k.name for k in found if [j.name for j in found].count(k.name) > 1})):
        raise UsageError(f"spec file {path}: two kernels share the name {twice[0]!r}; each needs its own")
    origin = ("--spec", str(path.resolve()))

    def resolved(k):
        """k with its paths as the spec means them, and (a kernel that picks per problem) each
        configuration its configure builds likewise."""
        configure = k.configure and (lambda picked, over, _own=k.configure: resolved(_own(picked, over)))
        return replace(k, source=spec_source(k.source, here), origin=origin, configure=configure,
                       include_dirs=tuple(str(here / d) for d in k.include_dirs))
    for k in found:
        if taken_name(k.name):
            raise UsageError(f"spec file {path}: kernel name {k.name!r} is a built-in kernel's; rename it (tcraw's "
                             "factories, e.g. kernels.wgmma_kernel, name theirs so unless given name=...)")
        kernels.append(resolved(k))   # (a source that is missing: refused where that kernel is used)
        try:   # (a geometry that gives no launch: refused with the spec, before anything is built)
            kernels[-1].geometry_at(*k.tile)
        except UsageError as exc:
            raise UsageError(f"spec file {path}: {exc}") from None
    return kernels


def three_sizes(block):
    """A block as --block reads it: 256 or (16, 16) is (x, y, z) with y and z 1 where not given
    (anything else as it is, for the caller to refuse)."""
    block = (block,) if is_whole(block) else block
    return (*block, *(1,) * (3 - len(block))) if isinstance(block, (tuple, list)) and 1 <= len(block) < 3 else block


def tile_geometry(block, block_tile, smem_bytes=0):
    """The geometry of a kernel that gives each block one block_tile = (rows, cols) of C: grid.x
    over N's tiles, grid.y over M's, a fixed block of (x, y, z) threads and dynamic shared memory.
    What no GPU can launch is refused here, on any machine (the device's own limits at the launch)."""
    def whole(values, count):
        values = tuple(values) if isinstance(values, (tuple, list)) else None
        return values if values is not None and len(values) == count and \
            all(is_whole(v, 1, INT32_MAX) for v in values) else None
    threads, tile = whole(three_sizes(block), 3), whole(block_tile, 2)
    if threads is None or threads[0] * threads[1] * threads[2] > 1024 or threads[2] > 64:
        raise UsageError(f"a block is 1 to 3 whole numbers ≥ 1 (x, y, z), at most 1024 threads and z ≤ 64 on any "
                         f"CUDA GPU; got block={block!r}")
    if tile is None:
        raise UsageError(f"block_tile is the (rows, cols) of C each block computes, whole numbers from 1 to 2^31 − 1; "
                         f"got {block_tile!r}")
    if not is_whole(smem_bytes, 0, SM90_SMEM_BYTES):
        raise UsageError(f"dynamic shared memory (--smem, smem_bytes=) is a whole number of bytes from 0 to "
                         f"{SM90_SMEM_BYTES} (the most a "
                         f"block has on any GPU tcraw runs on); got {smem_bytes!r}")
    rows, cols = tile

    def geometry(m, n, k):
        return Geometry(grid=(cdiv(n, cols), cdiv(m, rows), 1), block=threads, smem_bytes=smem_bytes)
    return geometry


def user_kernel(source, entry, precision, *, block, tile=(1, 1, 1), block_tile=None, smem_bytes=0,
                min_arch=70, defines=(), include_dirs=(), name=None, align=16, arch_specific=False):
    """A user kernel declared from the command line's flags (tcraw run --source ...): one block
    per ``block_tile`` of C (default: the padding tile's M and N; with the default tile of 1 × 1,
    one element a thread: block y rows by block x columns), grid.x over N, grid.y over M.
    ``tile`` is what M, N, K are zero-padded to; (1, 1, 1) says the kernel handles any shape.
    ``arch_specific``: built for sm_<min_arch>a (wgmma), which runs on that arch alone."""
    import os
    from pathlib import Path
    def sizes(v, counts):
        return isinstance(v, (tuple, list)) and len(v) in counts and all(is_whole(x, 1, INT32_MAX) for x in v)
    if not sizes(block := three_sizes(block), (3,)):   # (more than 1024 threads: tile_geometry's refusal, below)
        raise UsageError(f"--block (block=) is 1 to 3 sizes (x, y, z), each ≥ 1 and below 2^31; got {block!r}")
    if not sizes(tile, (3,)):
        raise UsageError(f"--tile (tile=) is three sizes (M, N, K), each ≥ 1 and below 2^31; got {tile!r}")
    block, tile = tuple(block), tuple(tile)
    min_arch = checked_min_arch(min_arch, "--min-arch (min_arch=)")   # (its origin's flag a number, as read back)
    if not isinstance(source, (str, os.PathLike)) or not isinstance(entry, str) or \
            not isinstance(name, (str, type(None))):
        raise UsageError(f"source is a path, entry and name texts; got {source!r}, {entry!r}, {name!r}")
    if Path(source).suffix == ".py":   # (the mistake --spec x.cu's refusal answers, the other way round)
        raise UsageError(f"{source} is a Python file; --source (source=) takes a kernel's CUDA C++ and a spec file "
                         "of kernels is --spec FILE (tcraw.load_spec)")
    defines, include_dirs = texts(defines, "defines"), texts(include_dirs, "include_dirs")
    if name == "":
        raise UsageError("an empty name: give the kernel one (--name; name= in Python), or none for the entry's")
    if name is None and not is_name(entry):
        raise UsageError(f"entry {entry!r:.100} cannot name the kernel's records and files (a template's or "
                         f"mangled symbol, longer than {NAME_MOST} or starting with -): give it a name of letters, "
                         "digits and _ - . + = [ ], not starting with -, with --name (name=)")
    per_thread = block_tile is None and tile[:2] == (1, 1)
    if block_tile is None:
        # a tile of 1 × 1 (any shape): one element of C a thread, rows along y and columns along x —
        # not one a block, which would launch a whole block for each element
        block_tile = (block[1], block[0]) if per_thread else tile[:2]
    geometry = tile_geometry(block, block_tile, smem_bytes)   # what no GPU can launch: refused here
    if per_thread and block[2] > 1:   # (z has no place in one element a thread)
        raise UsageError(f"block {block} has z = {block[2]}, and with no block tile each thread is one element of "
                         "C (x along N, y along M), so z threads would compute each element; give z = 1, or, if "
                         "that is meant (z threads sharing an element's K), the (rows, cols) of C a block computes "
                         "(--block-tile, block_tile=)")
    checked_defines(defines)
    if (missing := [d for d in include_dirs if not is_dir(d)]):   # (as --include refuses it)
        raise UsageError(f"include directory {missing[0]} is not a directory (--include, include_dirs=)")
    # absolute, links kept: a linked source's "name" includes are its link's neighbours, as nvcc's
    given, source = source, str(Path(source).absolute())
    include_dirs = tuple(str(Path(d).absolute()) for d in include_dirs)
    origin = ("--source", source, "--entry", entry, "--precision", getattr(precision, "key", precision),
              "--block", ",".join(map(str, block)), "--tile", ",".join(map(str, tile)),
              "--block-tile", ",".join(map(str, block_tile)), "--smem", str(smem_bytes),
              "--min-arch", str(min_arch), "--align", str(align), *(f"--define={d}" for d in defines),
              *(f"--include={d}" for d in include_dirs), "--name", name or entry,
              *(("--arch-specific",) if arch_specific else ()))
    kernel = Kernel(name=name or entry, source=source, entry=entry, precision=precision, min_arch=min_arch,
                    tile=tile, geometry=geometry, defines=defines,
                    include_dirs=include_dirs, align=align, origin=origin, arch_specific=arch_specific,
                    summary=f"user kernel from {Path(source).name}")
    if not is_file(source):   # (after the declaration's own checks: before the GPU, not at its first build)
        raise UsageError(f"--source (source=) {given} is not a file")
    check_own_name(kernel)
    return kernel
