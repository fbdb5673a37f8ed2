"""Which SMs share a side of the L2 (cuda_src/probe_l2_sides.cu), and which SMs a launch in
clusters of 2 puts its blocks on — how tiles could be dealt so that blocks reading the same rows
sit on one side.

    python scripts/l2_sides.py [--lines 64] [--refs 0,auto,0] [--seed 7] [--out sides.json]

Each reference (an SM number; "auto": the SM the run before found farthest across from its own
reference) reads every line first; each other SM's block then times a walk over lines of its own
twice. The first walk's extra cycles a line over the second (the near latency) sort the SMs into
two groups: beside the reference's side of the L2 or across it. (Runs before 2026-12-02 23:30 UTC
named references by block index, and blocks land on other SMs from launch to launch.)
"""

import argparse
import json
import os
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tcraw import compiler                                       # noqa: E402
from tcraw.errors import ArchError, UsageError, run_main        # noqa: E402
from tcraw.runtime import DeviceBuffer, Device, Module, launch  # noqa: E402

FLUSH_BYTES = 256 << 20   # written before each run: the L2 (60 MiB on the H200) then holds none of the lines
MOST_LINES = 1024         # lines a block walks: 132 SMs × 1024 × 128 B = 17 MB, within one side of the H200's L2
NO_FLAG = 2 ** 64 - 1     # the .cu's: a block that waited ~2^31 cycles for the reference's flag


def chain_words(sets, lines, rng):
    """Set b's lines (i·sets + b for i < lines) linked in a shuffled cycle from line b: word 0 of a
    128-byte line holds the next line's index."""
    words = np.zeros(sets * lines * 32, dtype=np.uint32)
    for b in range(sets):
        order = [b] + list(rng.permutation(np.arange(1, lines)) * sets + b)
        for here, there in zip(order, order[1:] + order[:1]):
            words[32 * here] = there
    return words


def two_sides(excess):
    """Indices into ``excess`` (extra cycles a line) split at the widest gap of its sorted values:
    (beside the reference, across from it)."""
    order = np.argsort(excess)
    cut = int(np.argmax(np.diff(excess[order]))) + 1
    return order[:cut], order[cut:]


def side_by_sm(device, chase, ref, lines, seed):
    """One run with the reference on SM ``ref``: each SM's side as a list by SM number (0: the
    reference's), and the run's numbers, by SM (None at the reference): the first walk's extra
    cycles a line and the second walk's cycles a line (the near latency)."""
    sets = device.sm_count
    with DeviceBuffer.from_array(device, chain_words(sets, lines, np.random.default_rng(seed))) as chain, \
            DeviceBuffer(device, 4) as flag, DeviceBuffer(device, 4 * sets * 8) as out, \
            DeviceBuffer(device, FLUSH_BYTES) as flush:
        flush.zero()
        flag.zero()
        out.zero()
        chase.set_max_dynamic_smem(device.max_smem_optin)   # (one block per SM)
        launch(chase, (sets, 1, 1), (256, 1, 1), [chain, np.int32(lines), np.uint32(ref), flag, out],
               device.max_smem_optin)
        got = out.to_array((sets, 4), np.uint64)
    smid = got[:, 0].astype(np.int64)
    walkers = np.array([b for b in range(sets) if smid[b] != ref])
    if len(walkers) != sets - 1 or sorted(smid.tolist()) != list(range(sets)):
        raise UsageError(f"the probe's {sets} blocks did not land one on each SM ({sorted(set(smid.tolist()))[:8]}…): "
                         "run it on a GPU no other process is using")
    if (got[walkers, 1] == NO_FLAG).any():
        raise UsageError(f"no block ran on SM {ref} while the others waited: run the probe on a GPU no other "
                         "process is using")
    first, second = got[walkers, 1].astype(np.int64) / lines, got[walkers, 2].astype(np.int64) / lines
    excess = first - second
    beside, across = two_sides(excess)
    sides = [None] * sets
    for group, side in ((beside, 0), (across, 1)):
        for i in group:
            sides[int(smid[walkers[i]])] = side
    sides[ref] = 0

    def by_sm(values):   # (None at the reference, which walks nothing)
        got = {int(smid[b]): float(v) for b, v in zip(walkers, values)}
        return [got.get(s) for s in range(sets)]
    return sides, {"beside": excess[beside], "across": excess[across], "near": second,
                   "excess_by_sm": by_sm(excess), "near_by_sm": by_sm(second)}


def references(text):
    """--refs: SM numbers and "auto" (not first), comma-separated."""
    refs = text.split(",")
    if not refs or refs[0] == "auto" or not all(r == "auto" or r.isdigit() for r in refs):
        raise argparse.ArgumentTypeError(f"{text!r}: SM numbers and auto, comma-separated, a number first (e.g. 0,auto,0)")
    return [r if r == "auto" else int(r) for r in refs]


def whole(least, most):
    def parse(text):
        if not text.isdigit() or not least <= int(text) <= most:
            raise argparse.ArgumentTypeError(f"{text!r}: a whole number from {least} to {most}")
        return int(text)
    return parse


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", type=whole(2, MOST_LINES), default=64,
                    help=f"lines each SM walks (2 to {MOST_LINES}: all SMs' lines must fit one side of the L2)")
    ap.add_argument("--refs", type=references, default=references("0,auto,0"))
    ap.add_argument("--seed", type=whole(0, 2 ** 32 - 1), default=7)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    if args.out and not os.access(args.out.parent, os.W_OK):
        ap.error(f"--out {args.out}: its folder is not there or not writable")
    with Device(0) as dev:
        if dev.cc < 90:   # (the cluster launch: __cluster_dims__ is sm_90's)
            raise ArchError(f"the L2 probe launches clusters: it needs an sm_90 GPU or later, not {dev.arch}")
        if (bad := [r for r in args.refs if r != "auto" and r >= dev.sm_count]):
            raise UsageError(f"--refs: SM {bad[0]} is not one of this GPU's {dev.sm_count} (0 to {dev.sm_count - 1})")
        source = (compiler.CUDA_SRC / "probe_l2_sides.cu").read_text()
        image = compiler.nvrtc_compile(dev.drv, source, "probe_l2_sides.cu", compiler.build_options(dev.arch))[0]
        sets = dev.sm_count
        record = {"device": dev.name, "sms": sets, "lines": args.lines, "runs": []}
        with Module(dev, image) as mod, DeviceBuffer(dev, 4 * sets) as placed:
            chase, farthest = mod.function("l2_sides_chase"), None
            for ref in args.refs:
                ref = farthest if ref == "auto" else ref
                sides, n = side_by_sm(dev, chase, ref, args.lines, args.seed)
                farthest = int(np.nanargmax([-1 if e is None else e for e in n["excess_by_sm"]]))
                print(f"reference SM {ref}: {sides.count(0)} SMs on its side, {sides.count(1)} across; cycles a line, "
                      f"first walk − second: beside {np.median(n['beside']):.0f} (range {n['beside'].min():.0f}–"
                      f"{n['beside'].max():.0f}), across {np.median(n['across']):.0f} (range {n['across'].min():.0f}–"
                      f"{n['across'].max():.0f}); near latency {np.median(n['near']):.0f}")
                print("  by SM number (0 = the reference's side): " + "".join(str(s) for s in sides))
                record["runs"].append({"ref_sm": ref, "side_by_sm": sides, "excess_by_sm": n["excess_by_sm"],
                                       "near_by_sm": n["near_by_sm"]})
            fn = mod.function("l2_sides_cluster_smids")
            fn.set_max_dynamic_smem(dev.max_smem_optin)
            launch(fn, (sets // 2 * 2, 1, 1), (32, 1, 1), [placed], dev.max_smem_optin)
            sm_of_block = placed.to_array((sets,), np.uint32)[: sets // 2 * 2].tolist()
            print("2-block clusters, block → SM: " + " ".join(f"{b}:{s}" for b, s in enumerate(sm_of_block)))
            print("  their side, by block: " + "".join(str(sides[s]) for s in sm_of_block))
            record["cluster_sm_by_block"] = sm_of_block
        if args.out:
            args.out.write_text(json.dumps(record, indent=1))


if __name__ == "__main__":
    run_main("l2_sides", main)   # tcraw's own errors: one line, and the exit code each one carries
