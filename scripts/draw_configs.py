"""06/07 in drawn configurations on drawn shapes, each verified: what no list of configurations
reaches. The macros (tcraw.WGMMA_TILE's: tile, cluster, stages, swaps, split-K, stream-K, shared
A, realigned B, C in parts, ...) are drawn each away from its default now and then, and kept where
06/07 build them and run them on the drawn problem (a refusal is drawn again). Each pair runs as
`tcraw check` runs a shape — normal and integer inputs (integers bit-exact where the accumulator
holds them), outputs poisoned, canary bands around A, B and C, A and B unchanged — and twice
more on the normal inputs, for the same bits (the sums' order is fixed).

    python scripts/draw_configs.py --count 40 --seed 7            # on the GPU
    python scripts/draw_configs.py --count 40 --seed 7 --draw-only  # the pairs alone (no GPU)
    python scripts/draw_configs.py fp16:1003x523x997:CONSUMERS=3,BN=176,CLUSTER=2,STAGES=3
    compute-sanitizer --tool memcheck python scripts/draw_configs.py --count 10 --seed 7 --no-guard

A pair is one line, KEY:MxNxK:MACROS: given as an argument here, the same build runs again (with
--seed, on the same inputs; under compute-sanitizer, with --no-guard). A fault ends the run (the
process's CUDA context is lost), and the pairs it did not reach are listed. Exits 1 if any pair
failed.
"""

import argparse
import math
import random
import secrets
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tcraw import kernels, validate                                    # noqa: E402
from tcraw.errors import TcrawError, UsageError, run_main              # noqa: E402
from tcraw.precision import PRECISIONS                                  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sanitize_configs import whole   # noqa: E402  (ASCII digits alone, else ValueError: its parse's too)

MOST_MNK = 2**31   # M·N·K at most: the CPU's float64 reference stays within a second or two
KEYS = ("fp16", "bf16", "fp8e4m3", "fp8e4m3bf16", "fp8e5m2", "int8", "tf32")


def draw_shape(rng):
    """M, N, K each log-uniform, one in four from 1 to 64 (tiles mostly padding, swapped tiles'
    M), the others from 64 to 4096 (K: 8192); half the shapes rounded up to multiples of 8 (the
    others mostly have rows off 16 bytes, which 06/07 copy to pitched rows or realign); M·N·K at
    most MOST_MNK."""
    def one(most):
        low, high = (1, 64) if rng.random() < 0.25 else (64, most)
        return round(math.exp(rng.uniform(math.log(low), math.log(high))))
    while True:
        m, n, k = one(4096), one(4096), one(8192)
        if rng.random() < 0.5:
            m, n, k = (-(-v // 8) * 8 for v in (m, n, k))
        if m * n * k <= MOST_MNK:
            return m, n, k


def draw_macros(rng, key):
    """06/07's macros, each away from its default with some chance (those only 16-bit inputs take
    only for fp16 and bf16), and in a fifth of the draws stream-K over the whole problem; not yet
    checked against one another."""
    sixteen = PRECISIONS[key].in_dtype.itemsize == 2 and kernels.WGMMA_FORMS[key][4] == "row"
    swap = sixteen and rng.random() < 0.4
    c = {"CONSUMERS": rng.choice((1, 2, 2, 3)), "CLUSTER": rng.choice((1, 2, 2, 4)), "SWAP_AB": int(swap),
         "BN": 16 * rng.randint(1 if swap else 4, 16)}
    chances = {   # macro: (chance away from its default, the values then)
        "SHARE_A": (0.3, (1,)), "SPLIT_K": (0.15, (0,)), "STREAM_K": (0.1, (0,)),
        "STREAM_K_ROUNDS": (0.2, (0, 1, 2)), "SPLIT_MIN_SAVED": (0.15, (1, 4)),
        "STREAM_K_DIV": (0.15, (1, 3, 4)), "SPLIT_ROUNDS": (0.2, (2, 3, 8)),
        "SPLIT_MIN_SLICES": (0.15, (1, 2, 8)), "SPLIT_MAX": (0.15, (2, 3, 5)), "SPLIT_LOADS": (0.15, (1, 4, 8)),
        "GROUP_M": (0.2, (1, 3)), "A_EDGE": (0.2, (0, 1, 2)), "A_ROWS": (0.1, (8, 16)),
        "WAIT_DEPTH": (0.2, (0, 1)), "PINGPONG": (0.15, (64, 128)), "C_PARTS": (0.2, (2, 4)),
        "COOP": (0.2 if swap else 0.1, (1, 2, 3)), "PROMOTE": (0.1, (1, 2, 4)),
        "B_REALIGN": (0.25 if sixteen and not swap else 0, (1,)), "A_LINES": (0.2 if sixteen else 0, (1,))}
    for name, (chance, values) in chances.items():
        if rng.random() < chance:
            c[name] = rng.choice(values)
    # stream-K over every tile: a drawn problem is mostly one round of tiles, which stream-K cuts
    # only with STREAM_K_ROUNDS=0, split-K off and enough slices saved
    if rng.random() < 0.2:
        c.update(SPLIT_K=0, STREAM_K=1, STREAM_K_ROUNDS=0, SPLIT_MIN_SAVED=rng.choice((1, 4, 16)))
    # what COOP and B_REALIGN run with only (drawn otherwise, nearly always refused)
    if c.get("COOP"):   # (unswapped, each consumer's columns start on a 64-column box of B)
        c.update(CONSUMERS=2, SPLIT_K=0, BN=16 * rng.randint(1, 20 // c["COOP"]) if swap else
                 64 * rng.randint(1, min(4, 5 // c["COOP"])))
        for name in ("PINGPONG", "PROMOTE", "C_PARTS", "B_REALIGN"):
            c.pop(name, None)
    if c.get("B_REALIGN"):   # (COOP has taken it off above)
        c.update(BN=rng.choice((64, 128, 192)), CONSUMERS=rng.choice((1, 2)))
        for name in ("SHARE_A", "PINGPONG"):
            c.pop(name, None)
    return c


def fixed(key, macros):
    """06/07 built with ``macros`` over the registry's, for every problem (no per-problem pick)."""
    return kernels.wgmma_kernel(key, macros, choose=False)


def runnable(key, shape, macros):
    """06/07 built with ``macros`` (wgmma_checked refuses what cannot be built), or a UsageError
    where it cannot run ``shape``: M past A_ROWS (refused at launch, by name)."""
    kernel = fixed(key, macros)
    if kernel.max_m and shape[0] > kernel.max_m:
        raise UsageError(f"{spelt(key, shape, macros)}: A_ROWS={macros['A_ROWS']} loads only that many rows of A "
                         f"and M is {shape[0]}: leave A_ROWS out, or take M of at most {kernel.max_m}")
    return kernel


def with_stages(key, shape, macros, rng):
    """``macros`` with STAGES drawn from the most that fit or up to 3 fewer, or None where 06/07
    cannot build them or run them on ``shape`` (runnable)."""
    tile = {**kernels.WGMMA_TILE, **macros}
    try:
        most = kernels.wgmma_max_stages(macros["CONSUMERS"], macros["BN"], 8, kernels.wgmma_rows(tile),
                                        macros["SWAP_AB"], tile["B_REALIGN"], tile["C_PARTS"], kernels.wgmma_cols(tile))
        macros = {**macros, "STAGES": rng.randint(max(1, most - 3), most)}
        runnable(key, shape, macros)
    except UsageError:
        return None
    return macros


def draw(count, seed, keys=KEYS):
    """``count`` pairs (key, (m, n, k), macros) from ``seed``: each one 06/07 builds (refused draws
    are drawn again; how many, the second value returned)."""
    rng, pairs, refused = random.Random(seed), [], 0
    weighted = keys + tuple(key for key in keys if key in ("fp16", "bf16"))   # (06's twice: swapped tiles,
    while len(pairs) < count:                                                  # B realigned, A to lines)
        key = rng.choice(weighted)
        shape, macros = draw_shape(rng), draw_macros(rng, key)
        if (macros := with_stages(key, shape, macros, rng)) is None:
            refused += 1
            continue
        pairs.append((key, shape, macros))
    return pairs, refused


def spelt(key, shape, macros):
    """The pair as one argument: KEY:MxNxK:MACRO=VALUE,..."""
    return f"{key}:{'x'.join(map(str, shape))}:{','.join(f'{k}={v}' for k, v in macros.items())}"


def parse_pair(item):
    """(key, (m, n, k), macros) from KEY:MxNxK:MACRO=VALUE,... — a build runnable takes."""
    try:
        key, dims, spelt_macros = item.split(":")
        shape = tuple(whole(v) for v in dims.split("x"))
        macros = {name: whole(value) for name, value in (m.split("=") for m in spelt_macros.split(","))}
    except ValueError:
        raise UsageError(f"{item!r}: write KEY:MxNxK:MACRO=VALUE,... (a pair is a fixed build), "
                         "e.g. fp16:1003x523x997:CONSUMERS=3,BN=176,CLUSTER=2,STAGES=3") from None
    if key not in KEYS or len(shape) != 3:
        raise UsageError(f"{item!r}: KEY is one of {', '.join(KEYS)}, then M×N×K as MxNxK")
    validate.problem(*shape)
    runnable(key, shape, macros)
    return key, shape, macros


def why_failed(row):
    """What a failed row of check_shape's found: its error, else the guards', unwritten
    elements and the error against its bound."""
    found = [row["error"], row["out_of_bounds"], row["unwritten"] and f"{row['unwritten']} elements unwritten",
             row["padding_dirty"] and f"{row['padding_dirty']} padding elements written",
             row["bad"] and f"max rel err {row['max_rel_err']:.3g} > bound {row['tolerance']:.3g}"]
    return f"{row['case']}: {'; '.join(str(f) for f in found if f) or 'failed'}"


def run_pair(device, key, shape, macros, seed, guard=True):
    """(passed, what failed): the pair's runs as tcraw check's (normal and integer inputs; canary
    bands where ``guard``), then the normal inputs twice more, each verified, for the same bits."""
    from tcraw.check import check_shape
    from tcraw.matmul import make_problem, run_matmul
    from tcraw.precision import base_matrices
    kernel = fixed(key, macros)
    rows = check_shape(device, kernel, shape, seed, None, note=lambda message: None, guard=guard)
    failed = [why_failed(row) for row in rows if not row["passed"]]
    if not failed:
        hp = make_problem(device, kernel.precision, *base_matrices(*shape, "normal", seed), "normal")
        runs = [run_matmul(device, kernel, hp, iters=1, warmup=0, seed=seed, keep_output=True) for _ in range(2)]
        failed += [why_failed({"case": "rerun", **rec.as_dict()}) for rec, _ in runs if not rec.passed]
        if runs[0][1].tobytes() != runs[1][1].tobytes():
            failed.append("two runs on the same inputs gave different bits")
    return not failed, "; ".join(failed)


def context_lost(device):
    """Whether a fault took this process's CUDA context (sticky: nothing more runs in it)."""
    from tcraw.errors import STICKY, CudaError
    try:
        device.synchronize()
    except CudaError as exc:
        if exc.name in STICKY:
            return True
        raise
    return False


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pairs", nargs="*", help="KEY:MxNxK:MACROS pairs to run, instead of drawing them")
    ap.add_argument("--count", type=int, default=40)
    ap.add_argument("--seed", type=int, default=secrets.randbits(31), help="draws the pairs and the inputs")
    ap.add_argument("--keys", default=",".join(KEYS), help=f"precisions to draw from (default {','.join(KEYS)})")
    ap.add_argument("--jobs", type=int, default=8, help="compiles at once, before the runs")
    ap.add_argument("--draw-only", action="store_true", help="print the pairs; no GPU")
    ap.add_argument("--no-guard", action="store_true",
                    help="no canary bands (under compute-sanitizer, which then sees a stray write)")
    ap.add_argument("--backend", choices=("bindings", "ctypes"), help="driver implementation (as tcraw's)")
    args = ap.parse_args()
    validate.seed(args.seed)
    if args.pairs:
        pairs = [parse_pair(item) for item in args.pairs]
        print(f"seed {args.seed}: {len(pairs)} pairs given")
    else:
        keys = tuple(args.keys.split(","))
        if (unknown := [key for key in keys if key not in KEYS]):
            raise UsageError(f"--keys: {', '.join(unknown)} not among {', '.join(KEYS)}")
        if not 1 <= args.count <= 10_000:
            raise UsageError(f"--count is how many pairs to draw, 1 to 10000; got {args.count}")
        pairs, refused = draw(args.count, args.seed, keys)
        print(f"seed {args.seed}: {len(pairs)} pairs ({refused} draws refused by 06/07 and drawn again)")
    if args.draw_only:
        print("\n".join(spelt(*pair) for pair in pairs))
        return
    from tcraw.compiler import warm_cache
    from tcraw.runtime import Device
    device = Device(0, backend=args.backend)
    warm_cache([fixed(key, macros) for key, _, macros in pairs], [device.arch], args.jobs)
    failed, ran = [], 0
    for key, shape, macros in pairs:
        ran += 1
        try:
            ok, why = run_pair(device, key, shape, macros, args.seed, not args.no_guard)
        except TcrawError as exc:
            ok, why = False, str(exc).splitlines()[0]
        print(f"{'passed' if ok else 'FAILED'} {spelt(key, shape, macros)}{'' if ok else '  ' + why}", flush=True)
        if not ok:
            failed.append(spelt(key, shape, macros))
            if context_lost(device):
                break
    print(f"{ran - len(failed)} of {ran} passed" + "".join(f"\nFAILED {f}" for f in failed))
    if ran < len(pairs):   # (after a fault this process's context is lost: the rest never ran)
        print(f"not run, after the fault: {len(pairs) - ran}" + "".join(f"\n{spelt(*pair)}" for pair in pairs[ran:]))
    if failed or ran < len(pairs):
        sys.exit(1)


if __name__ == "__main__":
    run_main("draw_configs", main)
