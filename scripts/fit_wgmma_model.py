"""Fit the constants of 06's configuration model (tcraw.kernels.wgmma_model_us) to measured times.

Input: tables from `scripts/tune_ladder.py --family wgmma --shapes FILE --variants <every config>`
(each row a fixed configuration's median time on one shape). The fit minimises the squared log
error of the modelled times plus, three times over, how much slower than the measured best the
model's pick is on each shape; it prints the constants to write into tcraw/kernels.py and, per
shape, the model's pick against the best measured configuration. No GPU needed.

    python scripts/fit_wgmma_model.py docs/results/2026-11-30-h200-06-any-shape/tune06_*.txt
"""

import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tcraw import kernels as K   # noqa: E402

RATES = list(K.WGMMA_SM_TFLOPS)
SCALARS = ["HBM_BYTES_PER_US", "HBM_SMS", "SM_BYTES_PER_US", "SPLIT_K_US", "STREAM_K_US", "LAUNCH_US"]


def read_tables(paths):
    """(shape, config, µs) for every fixed-configuration row of tune_ladder's tables."""
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
            shape = dims * 3 if len(dims) == 1 else dims
            macros = name[name.index("[") + 1:-1]   # "default": the registry's own configuration
            config = {} if macros == "default" else {key: int(value) for key, value in
                                                     (item.split("=") for item in macros.split("+"))}
            tile = {**K.WGMMA_TILE, **config}
            if (tile["CONSUMERS"], tile["BN"]) not in K.WGMMA_SM_TFLOPS or ran_early_stream_k(shape, config):
                continue   # a block tile the model has no rate for (one consumer × 192 columns), or see below
            try:
                rows.append((shape, config, float(fields[3]) * 1000))
            except ValueError:   # a failed row has no time
                pass
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


def cost(rows):
    model = modelled(rows)
    fit = sum(math.log(m / t) ** 2 for m, (_, _, t) in zip(model, rows))
    by_shape = {}
    for m, (shape, _, t) in zip(model, rows):
        by_shape.setdefault(shape, []).append((m, t))
    regret = sum(min(v)[1] / min(t for _, t in v) - 1 for v in by_shape.values())
    return fit + 3 * regret


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    rows = read_tables(sys.argv[1:])
    if not rows:
        sys.exit("fit_wgmma_model: no fixed-configuration rows in those files")
    params = [K.WGMMA_SM_TFLOPS[k] for k in RATES] + [getattr(K, n) for n in SCALARS]
    set_params(params)
    best = cost(rows)
    rng = random.Random(1)
    for _ in range(4000):   # a random walk in log space: the model is small and not smooth
        trial = list(params)
        i = rng.randrange(len(trial))
        trial[i] *= math.exp(rng.gauss(0, 0.15))
        set_params(trial)
        if (c := cost(rows)) < best:
            params, best = trial, c
    set_params(params)
    print("WGMMA_SM_TFLOPS =", {k: round(K.WGMMA_SM_TFLOPS[k], 1) for k in RATES})
    print(", ".join(f"{n} = {getattr(K, n):.3g}" for n in SCALARS), f"  (cost {best:.3f})")
    by_shape = {}
    for m, (shape, config, t) in zip(modelled(rows), rows):
        by_shape.setdefault(shape, []).append((m, t, config))
    for shape, v in by_shape.items():
        pick, top = min(v, key=lambda r: r[0]), min(v, key=lambda r: r[1])
        print(f"{'×'.join(map(str, shape)):>16}  pick {pick[2]} {pick[1]:.1f} µs   best {top[2]} {top[1]:.1f} µs")


if __name__ == "__main__":
    main()
