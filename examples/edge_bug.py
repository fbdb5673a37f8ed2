"""Spec of the kernel with the edge-of-matrix write bug (see edge_bug.cu).

    tcraw check --spec examples/edge_bug.py     # fails: C's guard band names the offset

The same kernel declared with flags instead of a spec:
    tcraw check --source examples/edge_bug.cu --entry edge_bug --precision fp16 --block 16,16 \
        --block-tile 16,16
"""

from tcraw import Kernel, tile_geometry

KERNELS = [
    Kernel(name="student_edge_bug", source="edge_bug.cu", entry="edge_bug", precision="fp16", min_arch=70,
           tile=(1, 1, 1),                                   # "handles any shape": no padding
           geometry=tile_geometry(block=(16, 16, 1), block_tile=(16, 16)),
           summary="one thread per C element, fp16 in, with an off-by-one row bound"),
]
