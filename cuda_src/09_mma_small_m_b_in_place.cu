// 09_mma_small_m_b_in_place.cu — M ≤ 32 against a large B: a matmul that is a stream of B.
//
// With M this small each byte of B takes part in at most 2·M flops, so the time is B's bytes
// over HBM's rate, and what matters is that every SM streams B and nothing else moves it. 06
// (wgmma + TMA) falls short here two ways: its tiles (128 rows of N) are too few to give every
// SM one, and a B whose rows are not a multiple of 16 bytes (N not a multiple of 8) cannot be
// described by a tensor map, so tcraw copies it to pitched rows first — three passes over B.
//
// Adds to 05: (1) B read in place at any row pitch — each row's span is fetched as the aligned
// 16-byte words that cover it (cp.async needs 16-byte-aligned sources; those always are), and
// the row's offset into its first word, d = (k·N + n0) mod 8 elements, is applied when the
// fragments are read from shared memory, not by moving the data; (2) the MMA fragments built
// by plain 16- and 32-bit shared loads at those offsets (ldmatrix needs 16-byte-aligned rows) —
// instructions that, by our reading (not profiled), keep it below HBM's rate: on the H200 2.4
// TB/s at M = 1, 1.7 at M = 32, where 06's TMA reads rows on 16 bytes at 2.86–3.97 (Nsight
// Compute, docs/results/2026-12-02-h200-small-m-split-rounds/); (3) split-K over every SM — a
// grid of (N / 128 column tiles) × (gridDim.y pieces of K), each piece's partial sums in a
// workspace and the tile's last piece to finish adding all of them in piece order (the same
// bits every run, whichever finishes last).
//
// Block: 4 warps, 128 columns of N (32 a warp: four n8 MMAs), M ≤ 32 rows (one or two m16
// MMAs); a stage is BK = 32 rows of K. Shared memory per stage: 32 rows of B's span (17 words:
// 128 columns plus the offset) and 32 rows of A's (5 words: 32 columns plus the offset).
// Edges: rows of B past K and of A past M, and A's columns past K, come in as zeros (fetch_word);
// B's columns past N hold whatever follows in memory and reach only C's columns
// past N, which are never written. No byte past either operand's end is read.
//
// Workspace (zeroed once; every launch leaves it so): a counter per column tile, then (16-byte
// aligned) 32 × 128 fp32 partial sums per block. tcraw.kernels.small_m_workspace sizes it.

#include "cp_async.cuh"

#ifndef STAGES
#define STAGES 6
#endif

#include "mma_sync.cuh"   // T and the MMA shape by TCRAW_MMA_<KEY> (FP16, BF16); mma(), lds32()

constexpr int WARPS = 4, THREADS = 32 * WARPS;
constexpr int BN = 128, BK = 32, MAX_M = 32;            // a block's columns, a stage's K, M's bound
constexpr int WN = BN / WARPS;                           // one warp's columns: four n8 MMAs
constexpr int B_WORDS = (BN * 2 + 16) / 16;              // 16-byte words of a B row's span (17)
constexpr int A_WORDS = (BK * 2 + 16) / 16;              // ... of an A row's (5)
constexpr int B_ROW = B_WORDS * 16, A_ROW = A_WORDS * 16;   // bytes a row in shared memory
constexpr int B_STAGE = BK * B_ROW, STAGE_BYTES = B_STAGE + MAX_M * A_ROW;
constexpr int SMEM_BYTES = STAGES * STAGE_BYTES;
static_assert(sizeof(T) == 2, "the offsets below count 2-byte elements (09 has no TF32 form)");
static_assert(THREADS == 4 * BK && THREADS == 4 * MAX_M && B_WORDS == 17 && A_WORDS == 5,
              "four threads fetch each row of a stage: words t4 + 4j, and the last by the first of them");
static_assert(B_ROW % 128 == 16 || B_ROW % 128 == 80, "B rows 2 apart land 8 banks apart (conflict-free reads)");

// The 16-byte word at byte `at` of an operand of `end` bytes into shared memory: only the bytes
// before `end` are read, the rest of the word is zeros. Whole words (and words wholly past `end`:
// zeros, nothing read) go by cp.async; a word that `end` cuts — an operand's last, or the one where
// a row of A stops at K — byte by byte through registers, so that no byte past `end` is touched
// (cp.async's source size zero-fills the rest, but reads, for compute-sanitizer, the whole word).
__device__ __forceinline__ void fetch_word(unsigned dst, const unsigned char* base, unsigned long long at,
                                           unsigned long long end) {
    const unsigned valid = at >= end ? 0u : end - at >= 16 ? 16u : static_cast<unsigned>(end - at);
    if (valid == 16 || valid == 0) {
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n"
                     ::"r"(dst), "l"(base + (valid ? at : 0)), "r"(valid));
        return;
    }
    unsigned w[4] = {};
#pragma unroll
    for (int b = 0; b < 16; ++b)
        if (b < valid) w[b / 4] |= unsigned(base[at + b]) << 8 * (b % 4);
    asm volatile("st.shared.v4.b32 [%0], {%1, %2, %3, %4};" ::"r"(dst), "r"(w[0]), "r"(w[1]), "r"(w[2]), "r"(w[3]));
}
__device__ __forceinline__ unsigned lds16(unsigned addr) {
    unsigned short v;
    asm volatile("ld.shared.u16 %0, [%1];" : "=h"(v) : "r"(addr));
    return v;
}

__device__ __forceinline__ void small_m(const T* A, const T* B, float* C, int M, int N, int K, unsigned* work) {
    extern __shared__ __align__(128) unsigned char smem_raw[];
    const unsigned smem = static_cast<unsigned>(__cvta_generic_to_shared(smem_raw));
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, g = lane / 4, t = lane % 4;
    const int n0 = blockIdx.x * BN, pieces = gridDim.y, piece = blockIdx.y;
    const int m_rows = M > 16 ? 32 : 16;   // A's rows fetched (past M: zeros)
    const unsigned char* a_bytes = reinterpret_cast<const unsigned char*>(A);
    const unsigned char* b_bytes = reinterpret_cast<const unsigned char*>(B);
    const unsigned long long b_end = 2ull * K * N;

    // This piece's slices of K: an even share of them (a piece of none adds zeros).
    const int slices = (K + BK - 1) / BK;
    const int first = static_cast<int>(1ll * piece * slices / pieces);
    const int count = static_cast<int>(1ll * (piece + 1) * slices / pieces) - first;

    // A slice is BK rows of K: 64·N bytes of B and 64 bytes of each row of A, both multiples of
    // 16, so every row's offset into its first word is the same in every slice. Four threads
    // fetch a row (a warp: 8 rows, 64 contiguous bytes of each per copy): thread t4 words t4,
    // t4 + 4, t4 + 8, t4 + 12 — and 16 (thread 0 of the four) where the row starts off a word.
    // Addressed once here; a slice adds only s · (its bytes). A's rows likewise: words t4, and 4.
    const int row = tid / 4, t4 = tid % 4;
    const unsigned long long b_first = 2ull * (1ull * row * N + n0);   // B's row `row` of slice 0: its first byte
    const unsigned char* b_src = b_bytes + (b_first & ~15ull) + 16 * t4;
    const bool b_17th = t4 == 0 && (b_first & 15);
    const unsigned b_dst = row * B_ROW + t4 * 16;
    const unsigned long long a_first = 2ull * row * K, a_end = row < M ? a_first + 2ull * K : 0;   // (past M: zeros)
    const unsigned long long a_at = (a_first & ~15ull) + 16 * t4;
    const unsigned a_dst = B_STAGE + row * A_ROW + t4 * 16;
    const bool a_fifth = t4 == 0 && row < m_rows;
    const unsigned long long b_slice = 2ull * BK * N;
    auto load_stage = [&](int stage, int s) {
        const unsigned base = smem + stage * STAGE_BYTES;
        const int k0 = s * BK;
        // B: whole words where the slice's last row's whole span (17 words) ends inside B — short
        // of B's last row, unless B is narrow (N < 64 read past its end: a span outruns the rows after it)
        if (k0 + BK < K && ((2ull * (1ull * (k0 + BK - 1) * N + n0)) & ~15ull) + B_ROW <= b_end) {
            const unsigned char* src = b_src + s * b_slice;
#pragma unroll
            for (int j = 0; j < 4; ++j) cp_async16(base + b_dst + 64 * j, src + 64 * j);
            if (b_17th) cp_async16(base + b_dst + 256, src + 256);
        } else {   // rows past K come as zeros, and no word reads past B's end
            const unsigned long long at = (b_src - b_bytes) + s * b_slice, end = k0 + row < K ? b_end : 0;
#pragma unroll
            for (int j = 0; j < 4; ++j) fetch_word(base + b_dst + 64 * j, b_bytes, at + 64 * j, end);
            if (b_17th) fetch_word(base + b_dst + 256, b_bytes, at + 256, end);
        }
        // A: row `row`'s columns from k0 up to K (past it zeros, meeting B's zero rows past K)
        if (row < m_rows) {
            fetch_word(base + a_dst, a_bytes, a_at + 2ull * k0, a_end);
            if (a_fifth) fetch_word(base + a_dst + 64, a_bytes, a_at + 2ull * k0 + 64, a_end);
        }
    };

    // Where this lane's fragments lie in a stage, also the same every slice. B (k16 × n8, "col"):
    // b0 = rows kk + 2t, +1 at column g, b1 = rows +8, +9; row r's elements start d = (r·N + n0)
    // mod 8 into its span (mod 8 survives the unsigned product's wrapping). A (m16 × k16, row):
    // a0 = row g, columns kk + 2t, +1; a1 = row g + 8; a2, a3 = the same 8 columns on; row m's
    // columns start (m·K) mod 8 into its span.
    const unsigned nn = 2u * (warp * WN + g);   // this lane's column in the warp's first n8 block, bytes
    unsigned b_off[2][4], a_word[2][2][2], a_shift[2][2];   // (a pair of A straddles two words where m·K is odd)
#pragma unroll
    for (int h = 0; h < 2; ++h)
#pragma unroll
        for (int q = 0; q < 4; ++q) {
            const unsigned r = 16 * h + 2 * t + (q & 1) + 8 * (q >> 1);
            b_off[h][q] = r * B_ROW + 2u * ((r * static_cast<unsigned>(N) + n0) & 7u) + nn;
        }
#pragma unroll
    for (int mt = 0; mt < 2; ++mt)
#pragma unroll
        for (int q = 0; q < 2; ++q) {
            const unsigned m = mt * 16 + g + 8 * q, d = (m * static_cast<unsigned>(K)) & 7u;
            a_shift[mt][q] = (d & 1) * 16;
#pragma unroll
            for (int h = 0; h < 2; ++h) a_word[h][mt][q] = B_STAGE + m * A_ROW + 2u * (d & ~1u) + 2u * (16 * h + 2 * t);
        }
    float acc[2][WN / 8][4] = {};
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {   // fill the pipeline
        if (s < count) load_stage(s, first + s);
        cp_async_commit();
    }
    int read_stage = 0, write_stage = STAGES - 1;
    for (int i = 0; i < count; ++i) {
        cp_async_wait<STAGES - 2>();   // slice i has landed (this thread's copies) ...
        __syncthreads();               // ... and everyone's; slice i - 1 is no longer read
        if (i + STAGES - 1 < count) load_stage(write_stage, first + i + STAGES - 1);
        cp_async_commit();
        write_stage = write_stage == STAGES - 1 ? 0 : write_stage + 1;
        const unsigned st = smem + read_stage * STAGE_BYTES;
        read_stage = read_stage == STAGES - 1 ? 0 : read_stage + 1;
#pragma unroll
        for (int h = 0; h < 2; ++h) {   // the slice's two k16 steps
            unsigned b[WN / 8][2];
#pragma unroll
            for (int j = 0; j < WN / 8; ++j) {
                b[j][0] = lds16(st + b_off[h][0] + 16 * j) | lds16(st + b_off[h][1] + 16 * j) << 16;
                b[j][1] = lds16(st + b_off[h][2] + 16 * j) | lds16(st + b_off[h][3] + 16 * j) << 16;
            }
#pragma unroll
            for (int mt = 0; mt < 2; ++mt) {
                if (mt * 16 >= m_rows) break;
                unsigned a[4];
#pragma unroll
                for (int q = 0; q < 2; ++q) {
                    const unsigned at = st + a_word[h][mt][q];
                    a[q] = __funnelshift_r(lds32(at), lds32(at + 4), a_shift[mt][q]);
                    a[q + 2] = __funnelshift_r(lds32(at + 16), lds32(at + 20), a_shift[mt][q]);
                }
#pragma unroll
                for (int j = 0; j < WN / 8; ++j) mma(acc[mt][j], a, b[j][0], b[j][1]);
            }
        }
    }
    cp_async_wait<0>();

    // m16n8's accumulators: lane (g, t) holds rows g (c0, c1) and g + 8 (c2, c3), columns 2t, +1.
    const int col = warp * WN + 2 * t;
    if (pieces == 1) {   // the whole of K: straight to C
#pragma unroll
        for (int mt = 0; mt < 2; ++mt)
#pragma unroll
            for (int j = 0; j < WN / 8; ++j)
#pragma unroll
                for (int e = 0; e < 4; ++e) {
                    const int m = mt * 16 + g + 8 * (e / 2), n = n0 + col + 8 * j + e % 2;
                    if (m < M && n < N) C[1ll * m * N + n] = acc[mt][j][e];
                }
        return;
    }
    // A piece of K: its partial sums to the workspace, then the tile's last piece adds all of them.
    unsigned* counter = work + blockIdx.x;
    float* partials = reinterpret_cast<float*>(work + (gridDim.x + 3) / 4 * 4);
    float* mine = partials + (1ll * blockIdx.x * pieces + piece) * (MAX_M * BN);
#pragma unroll
    for (int mt = 0; mt < 2; ++mt)
#pragma unroll
        for (int j = 0; j < WN / 8; ++j)
#pragma unroll
            for (int h = 0; h < 2; ++h)
                __stcg(reinterpret_cast<float2*>(mine + (mt * 16 + g + 8 * h) * BN + col + 8 * j),
                       make_float2(acc[mt][j][2 * h], acc[mt][j][2 * h + 1]));
    __threadfence();   // this block's partials are visible before its count is
    __syncthreads();
    __shared__ unsigned arrived;
    if (tid == 0) arrived = atomicAdd(counter, 1u);
    __syncthreads();
    if (arrived != pieces - 1) return;
    __threadfence();   // (the others' partials: read below past L1, which holds none of them)
    const float* tile = partials + 1ll * blockIdx.x * pieces * (MAX_M * BN);
    for (int e = tid; e < M * BN; e += THREADS) {
        const int m = e / BN, n = e % BN;
        if (n0 + n >= N) continue;
        float sum = 0.0f;
        for (int p = 0; p < pieces; ++p) sum += __ldcg(tile + p * (MAX_M * BN) + m * BN + n);   // piece order
        C[1ll * m * N + n0 + n] = sum;
    }
    if (tid == 0) *counter = 0;   // as found, for the next launch
}

// The launch this file needs — threads per block, dynamic shared memory bytes — stated once,
// here; tcraw reads it from the cubin and refuses a declaration in kernels.py that differs.
extern "C" __constant__ int tcraw_launch[2] = {THREADS, SMEM_BYTES};

#if defined(TCRAW_MMA_BF16)
extern "C" __global__ void __launch_bounds__(THREADS)
small_m_bf16(const __nv_bfloat16* A, const __nv_bfloat16* B, float* C, int M, int N, int K, unsigned* work) {
    small_m(A, B, C, M, N, K, work);
}
#else
extern "C" __global__ void __launch_bounds__(THREADS)
small_m_fp16(const __half* A, const __half* B, float* C, int M, int N, int K, unsigned* work) {
    small_m(A, B, C, M, N, K, work);
}
#endif
