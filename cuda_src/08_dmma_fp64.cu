// 08_dmma_fp64.cu — double precision on the tensor cores (sm_80+): mma.sync .f64 (DMMA),
// operands from padded shared-memory tiles filled by 05's cp.async pipeline.
//
// Adds to 05 (for fp64): (1) DMMA — fp64 multiply-accumulate on the tensor cores: every product
// and sum is an IEEE double operation, so the result differs from a CPU dot product only by the
// order of the additions; (2) the shape by architecture: sm_80 has one, m8n8k4 (one warp, an 8×4
// by a 4×8 block); sm_90 adds m16n8k4/k8/k16, and only those run at Hopper's full fp64 rate —
// m8n8k4 on the H200 measured 28 TFLOP/s, an A100's rate per SM, half of cuBLAS's DGEMM (DMMA_K
// picks the k of the sm_90 shape; m16n8k4 measured fastest: kernels.py has the numbers); (3)
// fragments of one double per register, for lane l with g = l/4, t = l%4: A[g + 8i][t + 4j], B[t + 4j][g],
// C[g + 8i][2t], +1 (i: row half, j: k quarter) — no ldmatrix (it moves 16-bit elements): plain
// 64-bit shared loads; (4) padding instead of a swizzle: 32 lanes × 8 bytes take at least two
// 128-byte wavefronts, and rows padded to LDA = BK + 4 / LDB = BN + 8 doubles put the 8 rows (A)
// or 4 rows (B) a fragment load touches on distinct bank groups, so two wavefronts is what each
// load takes; (5) fragments double-buffered in registers across k-steps and slices: one slice's
// barrier comes before its last step's MMAs, so the next slice's first loads overlap them (on the
// H200 0.82× → 0.94× cuBLAS's DGEMM at 4096³: a DMMA then never waits on a load — with the
// register file holding the accumulators, one block of 8 warps is all an SM runs, so no other
// block's warps hide that wait); (6) tiles walked in bands of GROUP_M tile rows, so a wave of
// blocks shares a few panels of A and B in L2 (before (5), at 8192³: 0.84× → 0.86× with this
// tile, 0.85× → 0.90× with two 128×64 blocks per SM).
//
// Block tile BM×BN×BK, warps WARPS_M × WARPS_N each owning a (BM/WARPS_M)×(BN/WARPS_N) tile of C
// in MMA_M×8 blocks; STAGES-deep cp.async pipeline as in 04/05; MIN_BLOCKS blocks per SM for the
// register cap (2 with 128×64 tiles of 4 warps: cuBLAS's own DGEMM tile, measured the same). M, N,
// K are multiples of BM, BN, BK: tcraw pads.

#include "cp_async.cuh"
#include "tile_order.cuh"

#ifndef BM
#define BM 128
#endif
#ifndef BN
#define BN 128
#endif
#ifndef BK
#define BK 16
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
#ifndef DMMA_K
#define DMMA_K 4
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 1
#endif
#ifndef GROUP_M
#define GROUP_M 1
#endif

#if __CUDA_ARCH__ >= 900
constexpr int MMA_M = 16, MMA_K = DMMA_K;   // m16n8k{4,8,16}: Hopper's full-rate fp64 shapes
static_assert(DMMA_K == 4 || DMMA_K == 8 || DMMA_K == 16, "sm_90's fp64 mma is m16n8k4, k8 or k16");
#else
constexpr int MMA_M = 8, MMA_K = 4;         // m8n8k4: the only fp64 shape before sm_90
#endif
constexpr int RH = MMA_M / 8, KQ = MMA_K / 4;   // a fragment's row halves and k quarters

constexpr int THREADS = WARPS_M * WARPS_N * 32;
constexpr int WM = BM / WARPS_M, WN = BN / WARPS_N;   // one warp's tile of C
constexpr int FM = WM / MMA_M, FN = WN / 8;           // its MMA_M×8 DMMA blocks
constexpr int LDA = BK + 4, LDB = BN + 8;             // padded rows, in doubles (see above)
constexpr int A_BYTES = BM * LDA * 8, STAGE_BYTES = A_BYTES + BK * LDB * 8;
constexpr int A_ROW_CHUNKS = BK / 2, B_ROW_CHUNKS = BN / 2;   // 16-byte chunks (2 doubles) per row
constexpr int A_CHUNKS = BM * A_ROW_CHUNKS / THREADS, B_CHUNKS = BK * B_ROW_CHUNKS / THREADS;
static_assert(BM * A_ROW_CHUNKS % THREADS == 0 && BK * B_ROW_CHUNKS % THREADS == 0, "whole chunks per thread");
static_assert(THREADS % A_ROW_CHUNKS == 0 && THREADS % B_ROW_CHUNKS == 0, "a thread's chunks share a column");
static_assert(WM % MMA_M == 0 && WN % 8 == 0 && BK % MMA_K == 0, "a warp tile is whole blocks, a slice whole k steps");

__device__ __forceinline__ double lds64(unsigned addr) {
    double v;
    asm volatile("ld.shared.f64 %0, [%1];" : "=d"(v) : "r"(addr));
    return v;
}
// d += a (MMA_M×MMA_K, row) · b (MMA_K×8, col) in fp64, fragments as in the header.
__device__ __forceinline__ void dmma(double (&d)[2 * RH], const double (&a)[RH * KQ], const double (&b)[KQ]) {
#if __CUDA_ARCH__ >= 900
#if DMMA_K == 4
    asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};"
                 : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3]) : "d"(a[0]), "d"(a[1]), "d"(b[0]));
#elif DMMA_K == 8
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                 "{%0, %1, %2, %3};"
                 : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
                 : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]));
#else
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, "
                 "{%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15}, {%0, %1, %2, %3};"
                 : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
                 : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]), "d"(a[6]), "d"(a[7]),
                   "d"(b[0]), "d"(b[1]), "d"(b[2]), "d"(b[3]));
#endif
#else
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};"
                 : "+d"(d[0]), "+d"(d[1]) : "d"(a[0]), "d"(b[0]));
#endif
}

__device__ __forceinline__ void dmma_pipelined(const double* A, const double* B, double* C, int M, int N, int K) {
    extern __shared__ __align__(128) unsigned char smem_raw[];
    const unsigned smem = static_cast<unsigned>(__cvta_generic_to_shared(smem_raw));
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int wm = warp / WARPS_N, wn = warp % WARPS_N;

    // This block's tile: blocks start in launch order, so taking tiles in bands of GROUP_M tile
    // rows (tile_order.cuh, as 06 does) lets a wave share a few panels of A and of B through L2
    // instead of one row of A and every column of B (GROUP_M = 1: row by row, as launched).
    int tile_m, tile_n;
    tile_coords(blockIdx.y * gridDim.x + blockIdx.x, gridDim.y, gridDim.x, GROUP_M, tile_m, tile_n);

    // This thread's cp.async chunks: one 16-byte chunk in every (THREADS / ROW_CHUNKS)-th row from
    // its first, so each next chunk is a fixed number of rows on, in global and shared memory
    // alike — a base and a stride rather than an address per chunk: registers go to accumulators.
    constexpr int A_STEP = THREADS / A_ROW_CHUNKS, B_STEP = THREADS / B_ROW_CHUNKS;
    const double* a_src = A + (size_t)(tile_m * BM + tid / A_ROW_CHUNKS) * K + tid % A_ROW_CHUNKS * 2;
    const double* b_src = B + (size_t)(tid / B_ROW_CHUNKS) * N + tile_n * BN + tid % B_ROW_CHUNKS * 2;
    const unsigned a_dst = smem + (tid / A_ROW_CHUNKS * LDA + tid % A_ROW_CHUNKS * 2) * 8;
    const unsigned b_dst = smem + A_BYTES + (tid / B_ROW_CHUNKS * LDB + tid % B_ROW_CHUNKS * 2) * 8;
    auto load_stage = [&](int stage, int kt) {
        const unsigned base = stage * STAGE_BYTES;
#pragma unroll
        for (int i = 0; i < A_CHUNKS; ++i)
            cp_async16(a_dst + base + i * A_STEP * LDA * 8, a_src + (size_t)i * A_STEP * K + kt * BK);
#pragma unroll
        for (int i = 0; i < B_CHUNKS; ++i)
            cp_async16(b_dst + base + i * B_STEP * LDB * 8, b_src + (size_t)(kt * BK + i * B_STEP) * N);
    };

    // Fragment addresses of k-step 0 in a stage: A[g][t] of each MMA_M-row block, B[t][g] of each
    // 8-column block; a row half adds 8 rows (A), a k quarter 4 columns (A) or 4 rows (B).
    unsigned a_ld[FM], b_ld[FN];
#pragma unroll
    for (int i = 0; i < FM; ++i) a_ld[i] = smem + ((wm * WM + i * MMA_M + lane / 4) * LDA + lane % 4) * 8;
#pragma unroll
    for (int j = 0; j < FN; ++j) b_ld[j] = smem + A_BYTES + ((lane % 4) * LDB + wn * WN + j * 8 + lane / 4) * 8;

    // Fragments in two register sets: step s's MMAs run on one while step s+1's loads fill the
    // other, so no MMA waits for a shared-memory load — not even at a slice's first step, whose
    // loads are issued (after the slice's barrier) alongside the MMAs of the slice before.
    double a[2][FM][RH * KQ], b[2][FN][KQ];
    auto load_fragments = [&](int set, unsigned stage, int kk) {
#pragma unroll
        for (int i = 0; i < FM; ++i)
#pragma unroll
            for (int v = 0; v < RH * KQ; ++v)
                a[set][i][v] = lds64(a_ld[i] + stage + ((v % RH) * 8 * LDA + kk * MMA_K + (v / RH) * 4) * 8);
#pragma unroll
        for (int j = 0; j < FN; ++j)
#pragma unroll
            for (int v = 0; v < KQ; ++v) b[set][j][v] = lds64(b_ld[j] + stage + (kk * MMA_K + v * 4) * LDB * 8);
    };

    double acc[FM][FN][2 * RH] = {};
    constexpr int STEPS = BK / MMA_K;   // k steps per slice
    static_assert(STEPS % 2 == 0, "an even number of k steps per slice: the next slice starts on set 0");
    const int KT = K / BK;
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {   // fill the pipeline
        if (s < KT) load_stage(s, s);
        cp_async_commit();
    }
    cp_async_wait<STAGES - 2>();   // slice 0 has landed (this thread's copies) ...
    __syncthreads();               // ... and everyone's
    int read_stage = 0, write_stage = STAGES - 1;
    load_fragments(0, 0, 0);
    for (int kt = 0; kt < KT; ++kt) {
        // the stage slice kt-1 used is free (every warp passed the barrier after reading it)
        if (kt + STAGES - 1 < KT) load_stage(write_stage, kt + STAGES - 1);
        cp_async_commit();
        write_stage = write_stage == STAGES - 1 ? 0 : write_stage + 1;
#pragma unroll
        for (int kk = 0; kk < STEPS; ++kk) {
            if (kk == STEPS - 1) {   // slice kt's last fragments are in registers:
                cp_async_wait<STAGES - 2>();   // slice kt+1 has landed (this thread's copies) ...
                __syncthreads();               // ... and everyone's; nobody reads slice kt any more
                read_stage = read_stage == STAGES - 1 ? 0 : read_stage + 1;
            }
            // the next step's fragments: this slice's, or (last step) the next slice's first
            if (kk < STEPS - 1 || kt + 1 < KT)
                load_fragments((kk + 1) % 2, read_stage * STAGE_BYTES, (kk + 1) % STEPS);
#pragma unroll
            for (int i = 0; i < FM; ++i)
#pragma unroll
                for (int j = 0; j < FN; ++j) dmma(acc[i][j], a[kk % 2][i], b[kk % 2][j]);
        }
    }
    cp_async_wait<0>();

    // Accumulators: lane l holds C[g + 8h][2t], +1 of each block (h: row half).
    const int row0 = tile_m * BM + wm * WM + lane / 4, col0 = tile_n * BN + wn * WN + 2 * (lane % 4);
#pragma unroll
    for (int i = 0; i < FM; ++i)
#pragma unroll
        for (int j = 0; j < FN; ++j)
#pragma unroll
            for (int h = 0; h < RH; ++h)
                *reinterpret_cast<double2*>(C + (size_t)(row0 + i * MMA_M + h * 8) * N + col0 + j * 8) =
                    make_double2(acc[i][j][2 * h], acc[i][j][2 * h + 1]);
}

// The launch this file needs — threads per block, dynamic shared memory bytes — stated once,
// here; tcraw reads it from the cubin and refuses a declaration in kernels.py that differs.
extern "C" __constant__ int tcraw_launch[2] = {THREADS, STAGES * STAGE_BYTES};

// (THREADS, MIN_BLOCKS): ptxas may use up to 65536 / (THREADS · MIN_BLOCKS) registers a thread (at
// most 255) — 64 accumulator doubles and two fragment sets of 12 at 128×128 take 218.
extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
dmma_fp64(const double* A, const double* B, double* C, int M, int N, int K) {
    dmma_pipelined(A, B, C, M, N, K);
}
