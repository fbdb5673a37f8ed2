"""Run 9's timings (six configurations × 14 long-K shapes, fp16) against the model's split-K term
and three alternatives: for each term, which of the six the model would rank first on each shape
and how much slower that one measured than the fastest (geomean over the shapes). Only the six
timed configurations compete here, and none of wgmma_config's other rules (padding rows, 192
columns) apply, so "current" is the model's ranking, not always 06's pick.

    python docs/results/2026-11-30-h200-split-sum-loads-l2-traffic/rank_split_terms.py
"""
import math
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))
from tcraw import kernels as K   # noqa: E402

# Run 9 timed one consumer without a slice's MMAs in flight, at the rate the model had for it then;
# since 2026-12-01 one consumer keeps one in flight and 64×128's rate is 3.8 (tcraw/kernels.py).
K.WGMMA_SM_TFLOPS[1, 128] = 3.6

VARIANTS = {"BN=128+STAGES=6": (2, 128, 2), "default": (2, 256, 2), "CONSUMERS=1+BN=128+STAGES=8": (1, 128, 2),
            "CONSUMERS=1+BN=128+CLUSTER=1+STAGES=8": (1, 128, 1), "CONSUMERS=1+BN=64+CLUSTER=1+STAGES=8": (1, 64, 1),
            "BN=128+STAGES=6+CLUSTER=1": (2, 128, 1)}
TERMS = {   # µs of the split-K sum for p pieces of a tile of `tile_bytes` fp32 partials
    "current: p·tile/SM + SPLIT_K_US": lambda p, tb: K.split_k_sum_us(p, 1, tb // 4),
    "2·tile·(p−1)/p/SM + SPLIT_K_US (the shared sum's traffic)": lambda p, tb: K.SPLIT_K_US + 2 * tb * (p - 1) / p / K.SM_BYTES_PER_US,
    "tile/SM + 0.2·p + SPLIT_K_US": lambda p, tb: K.SPLIT_K_US + tb / K.SM_BYTES_PER_US + 0.2 * p,
    "0.65 + 0.36·p (least squares on these residuals)": lambda p, tb: 0.65 + 0.36 * p,
}


def without_split_term(shape, tile):
    """wgmma_model_us less its split-K term: (µs, pieces, bytes of one fp32 partial tile)."""
    total, _ = K.wgmma_model_us(*shape, 132, tile)
    p = K.wgmma_schedule(*shape, 132, tile)[3]
    bm, bn = 64 * tile["CONSUMERS"], tile["BN"]
    return total - (K.split_k_sum_us(p, bm, bn) if p > 1 else 0.0), p, bm * bn * 4


times = {}
for line in open(HERE / "run9_split_configurations.txt"):
    if m := re.match(r"wgmma_fp16\[([^\]]*)\]\s+fp16→fp32\s+(\S+)\s+([\d.]+)\s", line):
        times.setdefault(m.group(2), {})[m.group(1)] = float(m.group(3)) * 1000
for name, term in TERMS.items():
    logs, worst = [], []
    for shape_text, by in times.items():
        shape = tuple(int(v) for v in shape_text.split("×"))
        ranked = []
        for variant, (consumers, bn, cluster) in VARIANTS.items():
            tile = {**K.WGMMA_TILE, "CONSUMERS": consumers, "BN": bn, "CLUSTER": cluster}
            base, p, tile_bytes = without_split_term(shape, tile)
            ranked.append((base + (term(p, tile_bytes) if p > 1 else 0.0), by[variant], f"{64 * consumers}×{bn} c{cluster} p{p}"))
        _, measured, what = min(ranked)
        ratio = measured / min(t for _, t, _ in ranked)
        logs.append(math.log(ratio))
        if ratio > 1.02:
            worst.append(f"{shape_text} {what} {ratio:.3f}")
    print(f"{name}: ranked-first / fastest geomean {math.exp(sum(logs) / len(logs)):.3f}; over 2 %: {', '.join(worst)}")
