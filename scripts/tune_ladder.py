"""Variants of a ladder rung side by side with cuBLAS, in one process.

Each variant is a registry kernel (03 tiled SIMT, 04 pipelined WMMA, 05 mma.sync or 06 wgmma) with
some of its macros overridden — tile sizes, stages, clusters, tile order. Every variant is
verified at every size it is timed at, exactly like `tcraw bench`; the defaults in
tcraw/kernels.py and tcraw/wgmma.py are the winners of such runs (docs/results/).

    python scripts/tune_ladder.py --family wgmma --sizes 4096,8192 --variants "" STAGES=3 CLUSTER=1
    python scripts/tune_ladder.py --family wgmma --shapes llm --variants BN=128,CLUSTER=1 CONSUMERS=1
    python scripts/tune_ladder.py --family simt --variants "" BK=16
    python scripts/tune_ladder.py --family wgmma --shapes long-k --picked --variants "" SPLIT_LOADS=1
    python scripts/tune_ladder.py --family wgmma --shapes long-k --variants picked BN=128,STAGES=6

The empty variant "" is the family's default tile (06: 128×256 in clusters of 2), not 06's pick:
"picked" (or "picked:MACROS") is the pick, beside fixed variants in the same call. Where C's rows
lie off 16 bytes the pick stores C in place (C_PLAIN=1) and a fixed variant copies it unless it
says C_PLAIN=1 too; "picked:C_PLAIN=0" is the pick with C copied (09 and 10, which store C
themselves, still take their shapes).
"""

import argparse
import secrets
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tcraw import kernels, report, validate  # noqa: E402
from tcraw.bench import bench_vs_cublas, parse_shapes, suite_summary   # noqa: E402
from tcraw.errors import UsageError, run_main  # noqa: E402


def fixed_wgmma(key, tile, name):
    """A wgmma variant: one fixed configuration, not the per-problem choice the registry's 06 makes."""
    return kernels.wgmma_kernel(key, tile, name, choose=False)


# family -> (kernel factory, its default macros, precisions it comes in)
FAMILIES = {
    "simt": (kernels.tiled_simt_kernel, kernels.SIMT_TILE, ("fp32",)),
    "wmma": (kernels.wmma_pipelined_kernel, kernels.PIPE_TILE, ("fp16", "bf16")),
    "mma": (kernels.mma_sync_kernel, kernels.MMA_TILE, ("fp16", "bf16", "tf32")),
    "wgmma": (fixed_wgmma, kernels.WGMMA_TILE, ("fp16", "bf16")),
    # 07: the same machinery for FP8, INT8 and TF32, B K-major (yardstick: cuBLASLt for FP8/INT8)
    "kmajor": (fixed_wgmma, kernels.WGMMA_TILE, ("fp8e4m3", "fp8e4m3bf16", "fp8e5m2", "int8", "tf32")),
    "dmma": (lambda key, tile, name: kernels.dmma_kernel(tile, name, choose=False), kernels.DMMA_TILE, ("fp64",)),
    # 09: M ≤ 64, B read in place; SPLIT=0 (the default) is each problem's pick (small_m_split)
    "small": (kernels.small_m_kernel, kernels.SMALL_M_TILE, ("fp16", "bf16")),
    # 10: M ≤ 4, a GEMV on the CUDA cores; SPLIT=0 (the default) is each problem's pick (gemv_split)
    "gemv": (kernels.gemv_kernel, kernels.GEMV_TILE, ("fp16", "bf16")),
}


# what 06's pick sets (wgmma_config's configurations, and wgmma_pick's A_LINES; WAIT_DEPTH follows
# them unless a variant sets it, kernels.wgmma_wait_depth): --picked variants leave these to it
PICKED_MACROS = {name for config in kernels.WGMMA_CONFIGS + kernels.SWAPPED_CONFIGS + (kernels.TURNS_CONFIG,)
                 for name in config} | {"A_LINES"}


def picked_wgmma(key, tile, name):
    """A wgmma variant that still picks each problem's configuration (wgmma_config), ``tile``'s
    other macros under it: for macros the pick does not set (SPLIT_LOADS, GROUP_M, ...)."""
    return kernels.wgmma_kernel(key, tile, name, choose=True)


def variant(family, key, spec, picked=False):
    """The kernel a --variants item names: macro overrides of the family's default tile, or with
    ``picked`` (--picked) — or spelt "picked" or "picked:MACROS" — 06/07's per-problem pick with
    macros the pick does not set, so the pick and fixed configurations can be timed in one process."""
    if spec == "picked" or spec.startswith("picked:"):
        picked, spec = True, spec.removeprefix("picked").removeprefix(":")
    factory, defaults, _ = FAMILIES[family]
    if picked:
        if factory is not fixed_wgmma:
            raise UsageError(f"--picked is for the wgmma and kmajor families (06/07 pick a configuration), not {family}")
        factory = picked_wgmma
    tile, named = dict(defaults), set()
    for item in validate.listed(spec, "--variants", ",") or []:   # ("" the default; "BN=128,," refused)
        name, _, value = item.partition("=")
        if name in named:
            raise UsageError(f"cannot read {spec!r}: it names {name} twice; give each macro once")
        named.add(name)
        if name not in tile:
            raise UsageError(f"cannot read {item!r}: write MACRO=number with MACRO one of {', '.join(tile)}")
        if (number := validate.digits(value)) is None:
            raise UsageError(f"cannot read {item!r}: {name} takes a whole number ≥ 0 (digits only), e.g. {name}=4")
        if picked and name in PICKED_MACROS:
            raise UsageError(f"{name} is the pick's to set; leave out --picked (or a variant's \"picked:\") to fix it")
        tile[name] = number
    label = spec.replace(",", "+")
    if factory is fixed_wgmma and tile["WAIT_DEPTH"] is None and kernels.wgmma_wait_depth(tile):
        label += "+WAIT_DEPTH=1" if label else "WAIT_DEPTH=1"   # one consumer's own (kernels.wgmma_wait_depth): said
    label = ("picked+" + label if label else "picked") if picked else label or "default"
    return factory(key, tile, name=f"{family}_{key}[{label}]")


def repeated(variants, defaults=kernels.WGMMA_TILE):
    """The names of variants that build what one before them builds: a fixed variant its macros, a
    picking one the macros it sets under each pick (its own defines are the default tile's, so
    "picked" and "picked:WAIT_DEPTH=0" differ per problem, not there). ``defaults``: the family's
    macros (FAMILIES)."""
    def set_apart(k):   # what a picking variant's label sets unlike the family's default tile ("A_EDGE=4": nothing)
        items = [i.partition("=") for i in k.name[k.name.index("[") + 1:-1].split("+")]
        return frozenset(f"{name}={value}" for name, _, value in items
                         if name != "default" and str(defaults.get(name)) != value)
    # (a fixed variant's launch too: 09's and 10's SPLIT is the grid's, not a macro of the .cu; and
    # the operands it copies to lines first: A_LINES is the host's)
    builds = [("picked", set_apart(k)) if k.configure else ("fixed", k.defines, k.geometry(256, 256, 256), k.lines)
              for k in variants]
    return [k.name for i, k in enumerate(variants) if builds[i] in builds[:i]]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--family", choices=FAMILIES, default="wgmma")
    ap.add_argument("--precision", help="default: the family's first (fp32 for simt, fp16 otherwise)")
    ap.add_argument("--sizes", help="M = N = K, comma-separated (default: 4096,8192)")
    ap.add_argument("--shapes", help="shape suites or a file of M,N,K lines instead of --sizes (see tcraw bench)")
    ap.add_argument("--variants", nargs="*", default=[""],
                    help='macro overrides, e.g. "" STAGES=3 BK=16,TM=4 ("": the default tile; wgmma/kmajor: '
                         '"picked" or "picked:MACROS", the per-problem pick)')
    ap.add_argument("--picked", action="store_true",
                    help="wgmma/kmajor: each problem keeps the configuration 06 picks; variants set the other macros")
    ap.add_argument("--iters", type=int, default=30)
    ap.add_argument("--seed", type=int, default=secrets.randbits(31))
    args = ap.parse_args()
    if args.shapes is not None and args.sizes is not None:
        raise UsageError("--sizes and --shapes both name the problems: give one")
    if args.shapes is not None:
        sizes = parse_shapes(args.shapes)   # (refuses one that names no shape)
    else:
        sizes = [validate.digits(s.strip()) for s in ("4096,8192" if args.sizes is None else args.sizes).split(",")]
        if None in sizes or not all(s > 0 for s in sizes):   # ("" too: given empty, not the default)
            raise UsageError(f"--sizes {args.sizes!r}: write positive integers separated by commas, e.g. 4096,8192")
    if args.iters < 1:
        raise UsageError(f"--iters {args.iters}: must be at least 1")
    if not args.variants:
        raise UsageError('--variants names none: give at least one ("" for the default tile)')
    key = args.precision or FAMILIES[args.family][2][0]
    if key not in FAMILIES[args.family][2]:
        raise UsageError(f"{args.family} comes in {', '.join(FAMILIES[args.family][2])}, not {key}")
    # every variant is read (and a bad one refused) before the GPU is opened
    rungs = {key: [variant(args.family, key, v, args.picked) for v in args.variants]}
    if (twice := repeated(rungs[key], FAMILIES[args.family][1])):
        raise UsageError(f"--variants: {', '.join(twice)} builds the same kernel as a variant before it (with "
                         "--picked, \"\" is \"picked\"; \"\" is the default tile's own macros); give each once")
    rows = bench_vs_cublas(0, [key], sizes, rungs=rungs, iters=args.iters, warmup=5, seed=args.seed,
                           note=lambda line: print(line, file=sys.stderr))
    print(report.render([{**r, "shape": f"{r['m']}×{r['n']}×{r['k']}"} for r in rows], "table", report.BENCH_COLUMNS))
    if args.shapes is not None:
        print(report.render(suite_summary(rows), "table", report.SUITE_COLUMNS))
    if rows:
        print(f"\n{rows[0]['device']} ({rows[0]['arch']}), seed {args.seed}, median of {args.iters} launches")

if __name__ == "__main__":
    run_main("tune_ladder", main)   # tcraw's own errors: one line, and the exit code each one carries
