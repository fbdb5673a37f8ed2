"""Registers and spills of 06's swapped tiles (SWAP_AB=1), every width of M the kernel takes, for
one, two and three consumers in each cluster shape (three: up to 192), each at its most stages —
built with NVRTC for sm_90 on this machine (no GPU needed).

    python scripts/swapped_spills.py [--key fp16] [--sources DIR] [--widest] [--jobs 2]

--sources builds another checkout's cuda_src/ (e.g. `git archive` of an older commit) with the
same macros, to set its numbers beside these; --widest only the two widest of each form. Prints
one line a configuration (registers, spilled bytes — stores and loads — and, with cuobjdump, the
count of SASS instructions and of integer arithmetic among them) — or what refused it (the older
source's limits) — and exits 1 if any that built spilled.
"""
import argparse
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tcraw import compiler, kernels, sass   # noqa: E402
from tcraw.errors import TcrawError         # noqa: E402

# (cluster, SHARE_A): one block; pairs along N sharing A's rows; pairs along M sharing B's
# columns; 4 along N; 2 × 2 — SHARE_A needs two consumers or more
SHAPES = ((1, 0), (2, 0), (2, 1), (4, 0), (4, 1))


def configs(widest):
    for consumers in (1, 2, 3):
        for cluster, share_a in SHAPES:
            if share_a and consumers == 1:
                continue
            widths = range(16, (192 if consumers == 3 else 256) + 1, 16)   # (the wgmma's n: multiples of 16)
            for bn in (widths[-2:] if widest else widths):
                yield {"SWAP_AB": 1, "CONSUMERS": consumers, "BN": bn, "CLUSTER": cluster, "SHARE_A": share_a,
                       "STAGES": kernels.wgmma_max_stages(consumers, bn, swap=True)}


# integer arithmetic in SASS: what address computations are made of
INTEGER_OPS = ("IADD3", "IMAD", "LEA", "LOP3", "SHF", "VIADD", "SEL")   # (opcodes without their suffixes)


def build(key, tile, sources):
    spelt = ",".join(f"{name}={value}" for name, value in tile.items())
    try:
        kernel = kernels.wgmma_kernel(key, tile, choose=False)
        if sources:   # (an absolute path: its includes are read beside it)
            kernel = replace(kernel, source=str(Path(sources).resolve() / kernel.source))
        cubin = compiler.compile_cubin(kernel, "sm_90", cache=False)
    except TcrawError as exc:   # (the .cu's own refusal, where it is one: its static_assert's line)
        lines = str(exc).splitlines()
        return spelt, None, next((line for line in lines if "static assertion" in line), lines[0]).strip()[:160]
    code = ""
    if (text := sass.dump_sass(cubin.image)):   # (None without cuobjdump: the dev extra has it)
        ops = [op.split(".")[0] for op in sass.opcodes(text)]
        code = f", {len(ops)} SASS instructions, {sum(op in INTEGER_OPS for op in ops)} integer arithmetic"
    return spelt, cubin.spill_bytes, f"{cubin.registers} registers, {cubin.spill_bytes} bytes spilled{code}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--key", default="fp16")
    parser.add_argument("--sources", help="another checkout's cuda_src/ to build instead of this one's")
    parser.add_argument("--widest", action="store_true")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    if args.jobs < 1:
        parser.error(f"--jobs {args.jobs}: at least 1 (processes building at once)")
    print(f"NVRTC {'.'.join(map(str, compiler.nvrtc_version()))}, {args.key}, sm_90, sources "
          f"{args.sources or 'this checkout'}", flush=True)
    tiles = list(configs(args.widest))
    spilled = 0
    with ProcessPoolExecutor(args.jobs) as pool:
        for spelt, spills, what in pool.map(build, [args.key] * len(tiles), tiles, [args.sources] * len(tiles)):
            print(f"{spelt}: {what}", flush=True)
            spilled += bool(spills)
    print(f"{len(tiles)} configurations, {spilled} spilled")
    return 1 if spilled else 0


if __name__ == "__main__":
    sys.exit(main())
