"""(issue 14) 06's pick beside 128×256 tiles in clusters of 2, in one `tcraw bench --spec` call:
the alternative that breaking the model's ties toward whole tiles only against split-K would take
on scripts/shapes/tie_break_fresh.txt (docs/results/2026-12-01-h200-warm-floor-suites/, run 5).

    tcraw bench --spec scripts/specs/tie_break_fp16.py --kernel pick_fp16,c2_128x256_fp16 \\
        --shapes scripts/shapes/tie_break_fresh.txt --precision fp16 --iters 10 --seed 53
"""
from tcraw import kernels

KERNELS = [
    kernels.wgmma_kernel("fp16", name="pick_fp16"),
    kernels.wgmma_kernel("fp16", {**kernels.WGMMA_TILE, "CONSUMERS": 2, "BN": 256, "CLUSTER": 2, "STAGES": 4},
                         name="c2_128x256_fp16", choose=False),
]
