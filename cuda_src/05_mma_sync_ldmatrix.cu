// 05_mma_sync_ldmatrix.cu — 04 without the WMMA API: the tensor-core instruction itself
// (mma.sync, inline PTX), its operands loaded by ldmatrix from XOR-swizzled shared memory
// (sm_80+). fp16 and bf16 use m16n8k16; TCRAW_MMA_TF32 builds the TF32 form, m16n8k8.
//
// Adds to 04: (1) the fragment layouts are ours — WMMA hides which thread holds which element;
// mma.sync states it (PTX ISA, "Matrix Fragments for mma.m16n8k16"), so C is stored straight
// from registers; (2) ldmatrix — one instruction gives each thread its pieces of four 8×8
// matrices (.trans transposes on the way, so row-major B arrives in the "col" layout the MMA
// wants); (3) a swizzle instead of padding — the 16-byte chunk c of row r is stored at chunk
// c ^ (r % 8), so the 8 row addresses of each 8×8 matrix fall in 8 different bank groups with no
// wasted shared memory.
//
// TF32: a 16-byte chunk is 4 values, so a 128-byte A row holds BK = 32 of them and a k-step is 8.
// A still loads by ldmatrix: an "8×8 b16" matrix is 8 rows × 4 words, and thread i receives word
// i % 4 of row i / 4 — exactly the m16n8k8 A layout. B does not: its fragment wants B[k][n] with k
// along a thread's registers and ldmatrix transposes only 16-bit elements, so B comes by plain
// 32-bit loads from rows padded to BN + 8 words (the 32 lanes, k = lane % 4 and n = lane / 4, hit
// 32 different banks). Inputs arrive rounded to TF32 by tcraw, so the fp32 bits go in unconverted.
// (06, the Hopper kernel, has no TF32 form: wgmma reads TF32 B only K-major, and B here is
// row-major.)
//
// Block tile BM×BN×BK (BK: one 128-byte row of A per stage), warps WARPS_M × WARPS_N each owning
// a (BM/WARPS_M)×(BN/WARPS_N) tile of C; STAGES-deep cp.async pipeline as in 04.
// M, N, K are multiples of BM, BN, BK: tcraw pads.

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

#include "mma_sync.cuh"   // T and the MMA shape by TCRAW_MMA_<KEY>; mma(), lds32()
constexpr bool SCALAR_B = sizeof(T) == 4;                 // TF32: B by 32-bit loads (see above)
constexpr int BK = 128 / sizeof(T);                       // the swizzle assumes 128-byte A rows
constexpr int K_STEP = 32 / sizeof(T);                    // one MMA's k: 32 bytes of an A row
constexpr int VEC = 16 / sizeof(T);                       // elements per 16-byte chunk
constexpr int THREADS = WARPS_M * WARPS_N * 32;
constexpr int WM = BM / WARPS_M, WN = BN / WARPS_N;       // one warp's tile of C
constexpr int FM = WM / 16, FN = WN / 8;                  // its m16 rows × n8 columns of MMAs
constexpr int LDB = SCALAR_B ? BN + 8 : BN;               // B row in elements (TF32: ≡ 8 words mod 32)
constexpr int A_BYTES = BM * BK * sizeof(T), STAGE_BYTES = A_BYTES + BK * LDB * sizeof(T);
constexpr int A_ROW_CHUNKS = BK / VEC, B_ROW_CHUNKS = BN / VEC;   // 16-byte chunks per smem row
constexpr int A_CHUNKS = BM * A_ROW_CHUNKS / THREADS, B_CHUNKS = BK * B_ROW_CHUNKS / THREADS;
static_assert(BM * A_ROW_CHUNKS % THREADS == 0 && BK * B_ROW_CHUNKS % THREADS == 0, "whole chunks per thread");
static_assert(WM % 16 == 0 && WN % 16 == 0, "a warp tile is whole m16 × (2 × n8) blocks");

// Byte offset of 16-byte chunk `chunk` of row `row` in a tile whose rows hold `row_chunks`.
__device__ __forceinline__ unsigned swizzled(int row, int chunk, int row_chunks) {
    return (row * row_chunks + (chunk ^ (row % 8))) * 16;
}

__device__ __forceinline__ void ldmatrix_x4(unsigned (&r)[4], unsigned addr) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
}
__device__ __forceinline__ void ldmatrix_x4_trans(unsigned (&r)[4], unsigned addr) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
}

__device__ __forceinline__ void mma_sync_pipelined(const T* A, const T* B, float* C, int M, int N, int K) {
    extern __shared__ __align__(128) unsigned char smem_raw[];
    const unsigned smem = static_cast<unsigned>(__cvta_generic_to_shared(smem_raw));
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int wm = warp / WARPS_N, wn = warp % WARPS_N;

    // This thread's cp.async chunks, addressed once (as in 04); a stage adds only offsets.
    const T* a_src[A_CHUNKS];
    const T* b_src[B_CHUNKS];
    unsigned a_dst[A_CHUNKS], b_dst[B_CHUNKS];
#pragma unroll
    for (int i = 0; i < A_CHUNKS; ++i) {
        const int c = tid + i * THREADS, r = c / A_ROW_CHUNKS, ch = c % A_ROW_CHUNKS;
        a_src[i] = A + (size_t)(blockIdx.y * BM + r) * K + ch * VEC;
        a_dst[i] = smem + swizzled(r, ch, A_ROW_CHUNKS);
    }
#pragma unroll
    for (int i = 0; i < B_CHUNKS; ++i) {
        const int c = tid + i * THREADS, r = c / B_ROW_CHUNKS, ch = c % B_ROW_CHUNKS;
        b_src[i] = B + (size_t)r * N + blockIdx.x * BN + ch * VEC;
        b_dst[i] = smem + A_BYTES + (SCALAR_B ? (r * LDB + ch * VEC) * 4 : swizzled(r, ch, B_ROW_CHUNKS));
    }
    auto load_stage = [&](int stage, int kt) {
        const unsigned base = stage * STAGE_BYTES;
#pragma unroll
        for (int i = 0; i < A_CHUNKS; ++i) cp_async16(a_dst[i] + base, a_src[i] + kt * BK);
#pragma unroll
        for (int i = 0; i < B_CHUNKS; ++i) cp_async16(b_dst[i] + base, b_src[i] + (size_t)kt * BK * N);
    };

    // ldmatrix addresses. Lane l points at row l % 8 of matrix l / 8. A (x4): matrices = rows
    // +0/+8 × k +0/+8 (16-bit) or +0/+4 (TF32) of an m16 block, i.e. a0..a3 of mma's A fragment.
    // B (x4.trans): rows k +0/+8 × n +0/+8, i.e. b0, b1 of two n8 blocks. Every such row is
    // ≡ l % 8 (mod 8), so the swizzle key of all of this lane's rows is l % 8. TF32 B (scalar):
    // lane l reads B[k = l % 4 (+4)][n = l / 4] of each n8 block.
    const int lrow = lane % 8 + 8 * (lane / 8 % 2), lhalf = lane / 16;
    unsigned a_ld[FM], b_ld[FN];
#pragma unroll
    for (int i = 0; i < FM; ++i)   // offsets of k-step 0 in a stage; see the k loop for the others
        a_ld[i] = swizzled(wm * WM + i * 16 + lrow, lhalf, A_ROW_CHUNKS);
#pragma unroll
    for (int j = 0; j < (SCALAR_B ? FN : FN / 2); ++j)
        b_ld[j] = smem + A_BYTES + (SCALAR_B ? ((lane % 4) * LDB + wn * WN + j * 8 + lane / 4) * 4
                                             : swizzled(lrow, (wn * WN + j * 16) / 8 + lhalf, B_ROW_CHUNKS));

    float acc[FM][FN][4] = {};
    const int KT = K / BK;
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {   // fill the pipeline
        if (s < KT) load_stage(s, s);
        cp_async_commit();
    }
    int read_stage = 0, write_stage = STAGES - 1;
    for (int kt = 0; kt < KT; ++kt) {
        cp_async_wait<STAGES - 2>();   // slice kt has landed (this thread's copies) ...
        __syncthreads();               // ... and everyone's; slice kt-1 is no longer read
        if (kt + STAGES - 1 < KT) load_stage(write_stage, kt + STAGES - 1);
        cp_async_commit();
        write_stage = write_stage == STAGES - 1 ? 0 : write_stage + 1;
        const unsigned stage = read_stage * STAGE_BYTES;
        read_stage = read_stage == STAGES - 1 ? 0 : read_stage + 1;
#pragma unroll
        for (int kk = 0; kk < BK / K_STEP; ++kk) {
            // A: k-step kk is logical chunk 2kk + lhalf = 2kk ^ lhalf, stored at (2kk ^ lhalf) ^ key,
            // i.e. k-step 0's chunk XOR 2kk: flip those bits of the offset (rows are 128 bytes).
            // B: k-step kk is K_STEP rows further down; same rows mod 8, so the same swizzle.
            unsigned a[FM][4], b[FN][2];
#pragma unroll
            for (int i = 0; i < FM; ++i) ldmatrix_x4(a[i], smem + stage + (a_ld[i] ^ (kk * 32)));
#pragma unroll
            for (int j = 0; j < FN; j += 2) {   // n8 blocks j and j + 1
                if constexpr (SCALAR_B) {
#pragma unroll
                    for (int h = 0; h < 2; ++h) {   // b0: k rows +0..3, b1: +4..7
                        const unsigned at = b_ld[j + h] + stage + kk * K_STEP * LDB * 4;
                        b[j + h][0] = lds32(at);
                        b[j + h][1] = lds32(at + 4 * LDB * 4);
                    }
                } else {
                    unsigned r[4];
                    ldmatrix_x4_trans(r, b_ld[j / 2] + stage + kk * K_STEP * LDB * 2);
                    b[j][0] = r[0], b[j][1] = r[1], b[j + 1][0] = r[2], b[j + 1][1] = r[3];
                }
            }
#pragma unroll
            for (int i = 0; i < FM; ++i)
#pragma unroll
                for (int j = 0; j < FN; ++j) mma(acc[i][j], a[i], b[j][0], b[j][1]);
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

// The launch this file needs — threads per block, dynamic shared memory bytes — stated
// once, here; tcraw reads it from the cubin and refuses a declaration in kernels.py that differs.
extern "C" __constant__ int tcraw_launch[2] = {THREADS, STAGES * STAGE_BYTES};

// (THREADS, 1): one block per SM; ptxas may use up to 255 registers for the 128 accumulators.
#if defined(TCRAW_MMA_TF32)
extern "C" __global__ void __launch_bounds__(THREADS, 1)
mma_sync_tf32(const float* A, const float* B, float* C, int M, int N, int K) {
    mma_sync_pipelined(A, B, C, M, N, K);
}
#elif defined(TCRAW_MMA_BF16)
extern "C" __global__ void __launch_bounds__(THREADS, 1)
mma_sync_bf16(const __nv_bfloat16* A, const __nv_bfloat16* B, float* C, int M, int N, int K) {
    mma_sync_pipelined(A, B, C, M, N, K);
}
#else
extern "C" __global__ void __launch_bounds__(THREADS, 1)
mma_sync_fp16(const __half* A, const __half* B, float* C, int M, int N, int K) {
    mma_sync_pipelined(A, B, C, M, N, K);
}
#endif
