// 05_mma_sync_tf32.cu — the 05 rung in TF32: mma.sync m16n8k8 on fp32 data (sm_80+).
//
// What differs from 05_mma_sync_ldmatrix.cu: (1) 32-bit elements, so a 16-byte chunk is 4 values
// and a 128-byte A row holds BK = 32 of them; ldmatrix still loads A, since an "8×8 b16" matrix is
// 8 rows × 4 words and thread i receives word i % 4 of row i / 4 — exactly the m16n8k8 A layout;
// (2) B comes by plain 32-bit shared loads: the B fragment wants B[k][n] with k varying along a
// thread's registers, and ldmatrix can transpose only 16-bit elements. Rows of B are padded to
// BN + 8 words so the 32 lanes (k = lane % 4, n = lane / 4) hit 32 different banks.
// (3) The Hopper kernel (06) has no TF32 form: wgmma reads TF32 B only K-major, and tcraw's B is
// row-major (N-contiguous).
//
// Inputs arrive already rounded to TF32 on the host (tcraw quantizes), so the fp32 bits go to the
// tensor cores unconverted. M, N, K are multiples of BM, BN, BK: tcraw pads.

#include "cp_async.cuh"

#ifndef BM
#define BM 128
#endif
#ifndef BN
#define BN 256
#endif
#ifndef WARPS_M
#define WARPS_M 2
#endif
#ifndef WARPS_N
#define WARPS_N 4
#endif
#ifndef STAGES
#define STAGES 3
#endif

constexpr int BK = 32;                                    // 128-byte A rows: the swizzle assumes them
constexpr int THREADS = WARPS_M * WARPS_N * 32;
constexpr int WM = BM / WARPS_M, WN = BN / WARPS_N;       // one warp's tile of C
constexpr int FM = WM / 16, FN = WN / 8;                  // its m16 rows × n8 columns of MMAs
constexpr int LDB = BN + 8;                               // padded B row, in words (≡ 8 mod 32)
constexpr int A_BYTES = BM * BK * 4, STAGE_BYTES = A_BYTES + BK * LDB * 4;
constexpr int A_ROW_CHUNKS = BK / 4, B_ROW_CHUNKS = BN / 4;   // 16-byte chunks per row
constexpr int A_CHUNKS = BM * A_ROW_CHUNKS / THREADS, B_CHUNKS = BK * B_ROW_CHUNKS / THREADS;
static_assert(BM * A_ROW_CHUNKS % THREADS == 0 && BK * B_ROW_CHUNKS % THREADS == 0, "whole chunks per thread");
static_assert(WM % 16 == 0 && WN % 8 == 0, "a warp tile is whole m16 × n8 blocks");

// Byte offset of 16-byte chunk `chunk` of A row `row` (05's swizzle: chunk ^ row % 8).
__device__ __forceinline__ unsigned swizzled(int row, int chunk) {
    return (row * A_ROW_CHUNKS + (chunk ^ (row % 8))) * 16;
}

__device__ __forceinline__ void ldmatrix_x4(unsigned (&r)[4], unsigned addr) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
}
__device__ __forceinline__ unsigned lds32(unsigned addr) {
    unsigned v;
    asm volatile("ld.shared.b32 %0, [%1];" : "=r"(v) : "r"(addr));
    return v;
}
// d += a (16×8, row) · b (8×8, col), tf32 operands, fp32 accumulate.
__device__ __forceinline__ void mma_1688(float (&d)[4], const unsigned (&a)[4], unsigned b0, unsigned b1) {
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// (THREADS, 1): one block per SM; ptxas may use up to 255 registers for the 128 accumulators.
extern "C" __global__ void __launch_bounds__(THREADS, 1)
mma_sync_tf32(const float* A, const float* B, float* C, int M, int N, int K) {
    extern __shared__ __align__(128) unsigned char smem_raw[];
    const unsigned smem = static_cast<unsigned>(__cvta_generic_to_shared(smem_raw));
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int wm = warp / WARPS_N, wn = warp % WARPS_N;

    const float* a_src[A_CHUNKS];
    const float* b_src[B_CHUNKS];
    unsigned a_dst[A_CHUNKS], b_dst[B_CHUNKS];
#pragma unroll
    for (int i = 0; i < A_CHUNKS; ++i) {
        const int c = tid + i * THREADS, r = c / A_ROW_CHUNKS, ch = c % A_ROW_CHUNKS;
        a_src[i] = A + (size_t)(blockIdx.y * BM + r) * K + ch * 4;
        a_dst[i] = smem + swizzled(r, ch);
    }
#pragma unroll
    for (int i = 0; i < B_CHUNKS; ++i) {
        const int c = tid + i * THREADS, r = c / B_ROW_CHUNKS, ch = c % B_ROW_CHUNKS;
        b_src[i] = B + (size_t)r * N + blockIdx.x * BN + ch * 4;
        b_dst[i] = smem + A_BYTES + (r * LDB + ch * 4) * 4;
    }
    auto load_stage = [&](int stage, int kt) {
        const unsigned base = stage * STAGE_BYTES;
#pragma unroll
        for (int i = 0; i < A_CHUNKS; ++i) cp_async16(a_dst[i] + base, a_src[i] + kt * BK);
#pragma unroll
        for (int i = 0; i < B_CHUNKS; ++i) cp_async16(b_dst[i] + base, b_src[i] + (size_t)kt * BK * N);
    };

    // A by ldmatrix as in 05 (lane l: row l % 8 (+8), chunk l / 16; swizzle key l % 8). B: lane
    // l reads B[k = l % 4 (+4)][n = l / 4] of each n8 block.
    const int lrow = lane % 8 + 8 * (lane / 8 % 2), lhalf = lane / 16;
    unsigned a_ld[FM], b_ld[FN];
#pragma unroll
    for (int i = 0; i < FM; ++i) a_ld[i] = swizzled(wm * WM + i * 16 + lrow, lhalf);
#pragma unroll
    for (int j = 0; j < FN; ++j) b_ld[j] = A_BYTES + ((lane % 4) * LDB + wn * WN + j * 8 + lane / 4) * 4;

    float acc[FM][FN][4] = {};
    const int KT = K / BK;
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < KT) load_stage(s, s);
        cp_async_commit();
    }
    int read_stage = 0, write_stage = STAGES - 1;
    for (int kt = 0; kt < KT; ++kt) {
        cp_async_wait<STAGES - 2>();
        __syncthreads();
        if (kt + STAGES - 1 < KT) load_stage(write_stage, kt + STAGES - 1);
        cp_async_commit();
        write_stage = write_stage == STAGES - 1 ? 0 : write_stage + 1;
        const unsigned stage = smem + read_stage * STAGE_BYTES;
        read_stage = read_stage == STAGES - 1 ? 0 : read_stage + 1;
#pragma unroll
        for (int kk = 0; kk < BK / 8; ++kk) {
            // A: k-step kk is chunks 2kk, 2kk+1, found by flipping k-step 0's chunk bits (as in 05).
            unsigned a[FM][4], b[FN][2];
#pragma unroll
            for (int i = 0; i < FM; ++i) ldmatrix_x4(a[i], stage + (a_ld[i] ^ (kk * 32)));
#pragma unroll
            for (int j = 0; j < FN; ++j) {
                b[j][0] = lds32(stage + b_ld[j] + kk * 8 * LDB * 4);
                b[j][1] = lds32(stage + b_ld[j] + (kk * 8 + 4) * LDB * 4);
            }
#pragma unroll
            for (int i = 0; i < FM; ++i)
#pragma unroll
                for (int j = 0; j < FN; ++j) mma_1688(acc[i][j], a[i], b[j][0], b[j][1]);
        }
    }
    cp_async_wait<0>();

    // Accumulator layout of m16n8: lane l holds row l/4 (c0, c1) and row l/4 + 8 (c2, c3),
    // columns 2(l%4), +1.
    const int row0 = blockIdx.y * BM + wm * WM + lane / 4, col0 = blockIdx.x * BN + wn * WN + 2 * (lane % 4);
#pragma unroll
    for (int i = 0; i < FM; ++i)
#pragma unroll
        for (int j = 0; j < FN; ++j) {
            float* out = C + (size_t)(row0 + i * 16) * N + col0 + j * 8;
            *reinterpret_cast<float2*>(out) = make_float2(acc[i][j][0], acc[i][j][1]);
            *reinterpret_cast<float2*>(out + (size_t)8 * N) = make_float2(acc[i][j][2], acc[i][j][3]);
        }
}
