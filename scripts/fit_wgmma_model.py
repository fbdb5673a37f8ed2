"""Fit the constants of 06's configuration model (tcraw.wgmma.wgmma_model_us) to measured times.

Input: tables from `scripts/tune_ladder.py --family wgmma --shapes FILE --variants <every config>`
(each row a fixed configuration's median time on one shape). The fit minimises the squared log
error of the modelled times plus, three times over, how much slower than the measured best the
model's pick is on each shape; it prints the constants to write into tcraw/wgmma.py and, per
shape, the model's pick (among the configurations kernels.wgmma_ranked lets it weigh there)
against the best measured configuration. No GPU needed. `--free` names the constants the fit may
move (the others stay as tcraw/wgmma.py has them): rates as CONSUMERSxBN (1x128), the rest by
name (SPLIT_K_US). Rows whose WAIT_DEPTH is not the one their configuration now builds with are
left out (one consumer keeps a slice in flight since 2026-12-01; a row that names no WAIT_DEPTH
ran without): the older tables below keep their two-consumer rows only. `--old-stream-k`: the
tables were timed before 06 ran a last partial round whole after fewer than four (2026-11-30,
session 17): their rows of a kernel that no longer exists are left out too.

    python scripts/fit_wgmma_model.py --old-stream-k docs/results/2026-11-30-h200-06-any-shape/tune06_*.txt
    python scripts/fit_wgmma_model.py --free 1x64,1x128,1x256 docs/results/2026-12-01-h200-one-consumer-in-flight/run3_*.txt
"""

import argparse
import importlib.util
import math
import random
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tcraw import wgmma as K   # noqa: E402  (the model: set_params sets its constants there)

RATES = list(K.WGMMA_SM_TFLOPS)
SCALARS = ["HBM_BYTES_PER_US", "HBM_SMS", "SM_BYTES_PER_US", "SPLIT_K_US", "STREAM_K_US", "LAUNCH_US"]


def picker_at(rev):
    """06's picker as it was at git revision ``rev``, loaded beside today's (the results' tables
    compare a stop's picks with an earlier one's): tcraw/wgmma.py there — its imports of
    tcraw.kernel and tcraw.small_m today's — or, before 06 had a module of its own (2026-12-04),
    tcraw/kernels.py."""
    here = Path(__file__).resolve().parent
    for path in ("tcraw/wgmma.py", "tcraw/kernels.py"):
        found = subprocess.run(["git", "show", f"{rev}:{path}"], capture_output=True, text=True, cwd=here)
        if found.returncode == 0:
            break
    else:
        raise SystemExit(f"git revision {rev} has neither tcraw/wgmma.py nor tcraw/kernels.py")
    name = Path(path).stem
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(f"tcraw.{name}_{rev}", loader=None))
    module.__package__ = "tcraw"
    exec(compile(found.stdout, f"{name}.py@{rev}", "exec"), module.__dict__)
    return module


def pick_grids():
    """The two grids the results' tables count moved picks on: the earlier stops' (M from 1 to
    8192, N from 64, K from 256 to 32768: rows on 128-byte lines but for N of 16 or 32) and one of
    rows mostly off 128-byte lines (1680 shapes)."""
    sizes = [1, 16, 32, 64, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192]
    aligned = [(m, n, k) for m in sizes for n in sizes[3:] for k in (256, 1024, 2048, 4096, 8192, 16384, 32768)]
    ms = (256, 320, 448, 576, 704, 896, 1200, 1800, 2200, 2600, 3400, 4400, 5600, 7000)
    ns = (448, 576, 1200, 1800, 2200, 2600, 3400, 4400, 5600, 7000, 9000, 12000)
    ks = (360, 776, 1192, 1608, 2024, 2440, 3272, 4520, 5352, 7000)
    return aligned, [(m, n, k) for m in ms for n in ns for k in ks]


def table_rows(paths):
    """(shape, config, µs) for every timed fixed-configuration row of tune_ladder's wgmma tables,
    as they are: the configuration is the label's macros ({} for "default")."""
    rows = []
    for path in paths:
        for line in Path(path).read_text().splitlines():
            if not line.startswith("wgmma_") or "[" not in line:
                continue
            fields = line.split()
            if "→" not in fields[1]:   # the one-line summaries above each table
                continue
            name, shape = fields[0], fields[2]
            dims = tuple(int(v) for v in shape.replace("³", "").split("×"))
            macros = name[name.index("[") + 1:-1]   # "default": the registry's own configuration
            config = {} if macros == "default" else {key: int(value) for key, value in
                                                     (item.split("=") for item in macros.split("+"))}
            try:
                rows.append((dims * 3 if len(dims) == 1 else dims, config, float(fields[3]) * 1000))
            except ValueError:   # a failed row has no time
                pass
    return rows


def read_tables(paths, old_stream_k=False):
    """table_rows' rows the model can be fitted to."""
    rows = []
    for shape, config, us in table_rows(paths):
        tile = {**K.WGMMA_TILE, **config}
        if (tile["CONSUMERS"], tile["BN"]) not in K.WGMMA_SM_TFLOPS or tile["PINGPONG"] or tile["COOP"] or \
                (old_stream_k and ran_early_stream_k(shape, config)):
            continue   # a block tile the model has no rate for (one consumer × 192 columns, consumers
            #            taking tiles in turn: a rule after the model, kernels.wgmma_takes_turns; COOP's), or see below
        if config.get("WAIT_DEPTH", 0) != K.wgmma_wait_depth({**tile, "WAIT_DEPTH": None}):
            continue   # not how a pick of this tile runs (one consumer keeps a slice in flight; a
            #            row that does not say ran without, as tune_ladder's labels say it since)
        rows.append((shape, config, us))
    return rows


def ran_early_stream_k(shape, config, sms=132):
    """Whether this row was timed when 06 still cut a last partial round by stream-K with fewer
    than STREAM_K_ROUNDS whole rounds before it — alone (until session 15 of 2026-11-30) or after
    one to three (until session 17): it now runs those tiles whole (tcraw.kernels.stream_k_share),
    so such a row times a kernel that no longer exists."""
    tile = {**K.WGMMA_TILE, **config}
    tiles, kt, clusters, p, _ = K.wgmma_schedule(*shape, sms, tile)
    rem = tiles % clusters
    share = max(K.cdiv(rem * kt, clusters), K.cdiv(kt, tile["STREAM_K_DIV"]))   # the rule before
    return (bool(tile["STREAM_K"]) and p == 1 and rem > 0 and tiles < tile["STREAM_K_ROUNDS"] * clusters
            and kt - share >= tile["SPLIT_MIN_SAVED"])


def set_params(params):
    for i, key in enumerate(RATES):
        K.WGMMA_SM_TFLOPS[key] = params[i]
    for i, name in enumerate(SCALARS):
        setattr(K, name, params[len(RATES) + i])


def modelled(rows):
    return [K.wgmma_model_us(*shape, 132, {**K.WGMMA_TILE, **config})[0] for shape, config, _ in rows]


def tile_of(config):
    tile = {**K.WGMMA_TILE, **config}
    return tile["CONSUMERS"], tile["BN"], tile["CLUSTER"], tile["SHARE_A"]


def picks(rows):
    """Per shape whose pick is one of 06's unswapped configurations: (the time of the one the
    model would take among the configurations timed there — wgmma_choose's tie-breaks, the
    model's current constants; not the rules after it, wgmma_takes_turns and wgmma_shares_both —,
    the fastest time, that configuration, the fastest's)."""
    by_shape = {}
    for shape, config, t in rows:
        by_shape.setdefault(shape, {})[tile_of(config)] = (t, config)
    out = {}
    for shape, timed in by_shape.items():
        if shape[0] <= 32 and shape[1] > 64:
            continue   # fp16 with M ≤ 32: the swapped form, which no table here times
        ranked = [r for r in K.wgmma_ranked(*shape, 132) if tile_of(r[4]) in timed]
        if ranked:
            chosen = timed[tile_of(K.wgmma_choose(ranked))]
            fastest = min(timed.values(), key=lambda v: v[0])
            out[shape] = (chosen[0], fastest[0], chosen[1], fastest[1])
    return out


def cost(rows):
    fit = sum(math.log(m / t) ** 2 for m, (_, _, t) in zip(modelled(rows), rows))
    regret = sum(chosen / fastest - 1 for chosen, fastest, _, _ in picks(rows).values())
    return fit + 3 * regret


def free_params(spec):
    """Indices into the parameter list of the constants `--free` names (all of them without it)."""
    names = [f"{c}x{bn}" for c, bn in RATES] + SCALARS
    if spec is None:
        return list(range(len(names)))
    wanted = [w.strip() for w in spec.split(",") if w.strip()]
    unknown = [w for w in wanted if w not in names]
    if unknown or not wanted:
        sys.exit(f"fit_wgmma_model: --free {spec!r}: name constants from {', '.join(names)}")
    return [names.index(w) for w in wanted]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0], usage=__doc__.split("\n\n")[-1].strip())
    ap.add_argument("tables", nargs="+")
    ap.add_argument("--free", help="the constants the fit may move: 1x128,SPLIT_K_US,... (default: all)")
    ap.add_argument("--old-stream-k", action="store_true",
                    help="tables timed before 2026-11-30's session 17: leave out rows of stream-K's old rule")
    args = ap.parse_args()
    missing = [path for path in args.tables if not Path(path).is_file()]
    if missing:
        sys.exit(f"fit_wgmma_model: no such table: {missing[0]}")
    free = free_params(args.free)
    rows = read_tables(args.tables, args.old_stream_k)
    if not rows:
        sys.exit("fit_wgmma_model: no fixed-configuration rows in those files")
    params = [K.WGMMA_SM_TFLOPS[k] for k in RATES] + [getattr(K, n) for n in SCALARS]
    set_params(params)
    best = cost(rows)
    rng = random.Random(1)
    for _ in range(4000):   # a random walk in log space: the model is small and not smooth
        trial = list(params)
        i = rng.choice(free)
        trial[i] *= math.exp(rng.gauss(0, 0.15))
        set_params(trial)
        if (c := cost(rows)) < best:
            params, best = trial, c
    set_params(params)
    print("WGMMA_SM_TFLOPS =", {k: round(K.WGMMA_SM_TFLOPS[k], 1) for k in RATES})
    print(", ".join(f"{n} = {getattr(K, n):.3g}" for n in SCALARS), f"  (cost {best:.3f})")
    for shape, (chosen, fastest, config, best) in picks(rows).items():
        print(f"{'×'.join(map(str, shape)):>16}  pick {config} {chosen:.1f} µs   best {best} {fastest:.1f} µs")


if __name__ == "__main__":
    main()
