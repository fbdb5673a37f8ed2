"""Spec of the student's 64×64 WMMA kernel: everything tcraw needs to compile, launch and judge it.

    tcraw compile --spec examples/wmma_smem_64.py --arch sm_80
    tcraw check --spec examples/wmma_smem_64.py
    tcraw bench --spec examples/wmma_smem_64.py --sizes 2048,4096
"""

from tcraw import Kernel, tile_geometry

KERNELS = [
    Kernel(name="student_wmma_64", source="wmma_smem_64.cu", entry="wmma_smem_64", precision="fp16",
           min_arch=70,
           tile=(64, 64, 32),                               # M, N padded to 64, K to 32
           geometry=tile_geometry(block=(128, 1, 1), block_tile=(64, 64)),   # 4 warps, 64×64 of C each
           align=32,                                        # WMMA loads and stores need 32-byte pointers
           summary="64×64 block tiles through shared memory, 4 warps of 2×2 WMMA fragments"),
]
