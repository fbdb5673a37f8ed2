// mma_sync.cuh — the sm_80 tensor-core instruction as 05 and 09 issue it, and a 32-bit shared load.
//
// The including file defines MMA_SHAPE_TYPES (e.g. "m16n8k16.row.col.f32.f16.f16.f32") first.
#pragma once

__device__ __forceinline__ unsigned lds32(unsigned addr) {
    unsigned v;
    asm volatile("ld.shared.b32 %0, [%1];" : "=r"(v) : "r"(addr));
    return v;
}
// d += a (16×K_STEP, row) · b (K_STEP×8, col), fp32 accumulate: 4 A and 2 B registers per
// thread in either shape (m16n8k16, m16n8k8).
__device__ __forceinline__ void mma(float (&d)[4], const unsigned (&a)[4], unsigned b0, unsigned b1) {
    asm volatile("mma.sync.aligned." MMA_SHAPE_TYPES " "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}
