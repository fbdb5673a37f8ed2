// probe_hmma_peak.cu — not a rung of the ladder: how fast this GPU runs the HMMA instruction
// that the WMMA API (02, 04) and mma.sync (05) compile to, with nothing else in the way — the
// operands stay in registers, no memory is read. The ceiling those rungs work under; wgmma (06)
// is a different instruction (HGMMA) fed from shared memory. scripts/hmma_peak.py runs it.
//
// Each warp keeps CHAINS independent accumulators, so an HMMA never waits for the one before
// it; `iters` rounds of CHAINS instructions; the sums are written out so none is dead code.
#include <mma.h>

constexpr int CHAINS = 8;

extern "C" __global__ void hmma_peak_mma_sync(float* out, int iters) {
    // Fragments of small fp16 bit patterns (any values do: the tensor core's rate does not
    // depend on them), different per thread so the compiler cannot fold them.
    const unsigned x = 0x3C003C00u ^ (threadIdx.x & 7);
    const unsigned a0 = x, a1 = x + 1, a2 = x + 2, a3 = x + 3, b0 = x + 4, b1 = x + 5;
    float d[CHAINS][4] = {};
    for (int i = 0; i < iters; ++i) {
#pragma unroll
        for (int j = 0; j < CHAINS; ++j)
            asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                         "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                         : "+f"(d[j][0]), "+f"(d[j][1]), "+f"(d[j][2]), "+f"(d[j][3])
                         : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    }
    float s = 0.0f;
#pragma unroll
    for (int j = 0; j < CHAINS; ++j) s += d[j][0] + d[j][1] + d[j][2] + d[j][3];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

extern "C" __global__ void hmma_peak_wmma(float* out, int iters) {
    using namespace nvcuda;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> d[CHAINS / 2];   // each is two HMMA.16816
    wmma::fill_fragment(a, __float2half(1.0f + threadIdx.x % 8));
    wmma::fill_fragment(b, __float2half(0.5f));
#pragma unroll
    for (int j = 0; j < CHAINS / 2; ++j) wmma::fill_fragment(d[j], 0.0f);
    for (int i = 0; i < iters; ++i) {
#pragma unroll
        for (int j = 0; j < CHAINS / 2; ++j) wmma::mma_sync(d[j], a, b, d[j]);
    }
#pragma unroll
    for (int j = 1; j < CHAINS / 2; ++j)
        for (int e = 0; e < d[0].num_elements; ++e) d[0].x[e] += d[j].x[e];
    wmma::store_matrix_sync(out + (blockIdx.x * blockDim.x / 32 + threadIdx.x / 32) * 256, d[0], 16,
                            wmma::mem_row_major);
}
