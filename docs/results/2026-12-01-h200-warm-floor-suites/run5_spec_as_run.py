"""(issue 14) 06's pick beside 128×256 tiles in clusters of 2, as one `tcraw bench --spec` call:
the alternative that breaking the model's ties toward whole tiles only against split-K would take
on scripts/shapes/tie_break_fresh.txt."""
from dataclasses import replace
from pathlib import Path

from tcraw import kernels

CUDA_SRC = Path(__file__).resolve().parents[2] / "cuda_src"   # (a spec's relative sources are its own)


def _named(kernel, name):
    return replace(kernel, name=name, source=str(CUDA_SRC / kernel.source))


KERNELS = [
    _named(kernels.wgmma_kernel("fp16"), "pick_fp16"),
    _named(kernels.wgmma_kernel("fp16", {**kernels.WGMMA_TILE, "CONSUMERS": 2, "BN": 256, "CLUSTER": 2, "STAGES": 4},
                                choose=False), "c2_128x256_fp16"),
]
