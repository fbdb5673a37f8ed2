// mma_sync.cuh — the sm_80 tensor-core instruction as 05 and 09 issue it, and a 32-bit shared load.
//
// The input type T and the MMA's shape follow the build's TCRAW_MMA_<KEY> (fp16 by default):
// m16n8k16 for 16-bit inputs, m16n8k8 for TF32 (05's alone). 10 takes T alone (it issues no MMA).
#pragma once

#include <cuda_fp16.h>
#include <cuda_bf16.h>

#if defined(TCRAW_MMA_TF32)
using T = float;
#define MMA_SHAPE_TYPES "m16n8k8.row.col.f32.tf32.tf32.f32"
#elif defined(TCRAW_MMA_BF16)
using T = __nv_bfloat16;
#define MMA_SHAPE_TYPES "m16n8k16.row.col.f32.bf16.bf16.f32"
#else
using T = __half;
#define MMA_SHAPE_TYPES "m16n8k16.row.col.f32.f16.f16.f32"
#endif

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
