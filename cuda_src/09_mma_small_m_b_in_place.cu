// 09_mma_small_m_b_in_place.cu — M ≤ 64 against a large B: a matmul that is a stream of B.
//
// With M this small each byte of B takes part in at most 2·M flops, so the time is B's bytes
// over HBM's rate, and what matters is that every SM streams B and nothing else moves it. 06
// (wgmma + TMA) falls short here two ways: its tiles (128 rows of N) are too few to give every
// SM one, and a B whose rows are not a multiple of 16 bytes (N not a multiple of 8) cannot be
// described by a tensor map, so tcraw copies it to pitched rows first — three passes over B.
//
// Adds to 05: (1) B read in place at any row pitch — each row's span is fetched as the aligned
// 16-byte words that cover it (cp.async needs 16-byte-aligned sources; those always are), a
// warp's copy two rows' 256 contiguous bytes, and the row's offset into its first word, d =
// (k·N + n0) mod 8 elements, is applied when the fragments are read from shared memory, not by
// moving the data; (2) the MMA fragments built by plain shared loads at those offsets (ldmatrix
// needs 16-byte-aligned rows): B's k-pairs by two 16-bit loads — or, where N is a multiple of 4
// (every offset a multiple of 8 bytes), one 64-bit load a row for four columns, the MMA's n
// labels standing for columns chosen to fit — and A's pairs by a funnel shift of two 32-bit
// loads, or one where K is even; (3) split-K over every SM — a grid of (N / 128 column tiles) ×
// (gridDim.y pieces of K), each piece's partial sums in a workspace and the tile's last piece to
// finish adding all of them in piece order (the same bits every run, whichever finishes last).
// Still short of 06's TMA where B's rows are on 16 bytes (0.65× cuBLAS at 32×11000×11784 against
// 06's 0.86×): Nsight Compute (docs/results/2026-12-02-h200-09-faster/, run 2) finds it bound by
// latency — two blocks an SM, eight warps, issuing one cycle in four, DRAM 43 % busy — and more
// blocks an SM (three, four with fewer stages) ran slower (run 3).
//
// Block: 4 warps, 128 columns of N (32 a warp: four n8 MMAs), M ≤ 64 rows (one to four m16
// MMAs); a stage is BK = 32 rows of K. Shared memory per stage: 32 rows of B's span (17 words:
// 128 columns plus the offset) and 64 rows of A's (5 words: 32 columns plus the offset).
// Edges: rows of B past K and of A past M, and A's columns past K, come in as zeros (fetch_word;
// A's rows past M written once); B's columns past N hold whatever follows in memory and reach
// only C's columns past N, which are never written. No byte past either operand's end is read.
//
// Workspace (zeroed once; every launch leaves it so): a counter per column tile, then (16-byte
// aligned) 64 × 128 fp32 partial sums per block. tcraw.small_m.small_m_workspace sizes it.

#include "cp_async.cuh"
#include "split_k_last.cuh"

#ifndef STAGES
#define STAGES 6
#endif

#include "mma_sync.cuh"   // T and the MMA shape by TCRAW_MMA_<KEY> (FP16, BF16); mma(), lds32()

constexpr int WARPS = 4, THREADS = 32 * WARPS;
constexpr int BN = 128, BK = 32, MAX_M = 64;            // a block's columns, a stage's K, M's bound
constexpr int WN = BN / WARPS;                           // one warp's columns: four n8 MMAs
constexpr int M_BLOCKS = MAX_M / 16;                     // m16 MMAs a warp at most
constexpr int B_WORDS = (BN * 2 + 16) / 16;              // 16-byte words of a B row's span (17)
constexpr int A_WORDS = (BK * 2 + 16) / 16;              // ... of an A row's (5)
constexpr int B_ROW = B_WORDS * 16, A_ROW = A_WORDS * 16;   // bytes a row in shared memory
constexpr int B_STAGE = BK * B_ROW, STAGE_BYTES = B_STAGE + MAX_M * A_ROW;
constexpr int SMEM_BYTES = STAGES * STAGE_BYTES;
static_assert(sizeof(T) == 2, "the offsets below count 2-byte elements (09 has no TF32 form)");
static_assert(THREADS / 16 * 4 == BK && THREADS / 4 * 2 == MAX_M && B_WORDS == 17 && A_WORDS == 5,
              "the fetch below: 16 threads a row of B (8 rows a pass, 4 passes), 4 a row of A (2 passes)");
static_assert(B_ROW % 128 == 16 || B_ROW % 128 == 80, "B rows 2 apart land 8 banks apart (conflict-free reads)");

// A 16-byte shared store from registers (a word fetch_word builds, or zeros).
__device__ __forceinline__ void sts128(unsigned dst, unsigned a, unsigned b, unsigned c, unsigned d) {
    asm volatile("st.shared.v4.b32 [%0], {%1, %2, %3, %4};" ::"r"(dst), "r"(a), "r"(b), "r"(c), "r"(d));
}

// A word that an operand's end cuts, its `valid` bytes from `src` (the rest zeros), byte by byte.
// Out of line: inlined at each of fetch_word's call sites (eight in a stage's loads, the pipeline's
// fill unrolled) its sixteen byte loads made 09's code about 135 KB an instantiation, and Nsight
// Compute found warps waiting on instruction fetches 8.4 of every 14.8 cycles (1×3586×1572).
// Out of line and the fill not unrolled: 245 KB for the four instantiations, not 542; 0.965× the
// time over 16 fresh shapes at M ≤ 24, 1×3586×1572 14.3 → 13.3 µs (H200,
// docs/results/2026-12-03-h200-mid-m-three-check/, run 6).
__device__ __noinline__ void fetch_cut_word(unsigned dst, const unsigned char* src, unsigned valid) {
    unsigned w[4] = {};
#pragma unroll
    for (int b = 0; b < 16; ++b)
        if (b < valid) w[b / 4] |= unsigned(src[b]) << 8 * (b % 4);
    sts128(dst, w[0], w[1], w[2], w[3]);
}

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
    fetch_cut_word(dst, base + at, valid);
}
__device__ __forceinline__ unsigned lds16(unsigned addr) {
    unsigned short v;
    asm volatile("ld.shared.u16 %0, [%1];" : "=h"(v) : "r"(addr));
    return v;
}

__device__ __forceinline__ uint2 lds64(unsigned addr) {
    uint2 v;
    asm volatile("ld.shared.v2.b32 {%0, %1}, [%2];" : "=r"(v.x), "=r"(v.y) : "r"(addr));
    return v;
}

// One k16 step's B fragments for the warp's four n8 blocks: b[j][0] = rows r0, r1 (low, high
// half), b[j][1] = rows r2, r3, at the stage's byte offsets off[0..3] (this lane's column, its
// row's offset applied). The MMA's n is a label: which column it stands for is ours to choose.
// WIDE (N a multiple of 4: every row's offset a multiple of 4 elements, 8 bytes): lane g holds
// columns 4g … 4g + 3, block j column 4g + j — one 64-bit load a row gives all four blocks' halves
// (4 loads a step where 16-bit loads take 16). Otherwise lane g holds column g of each block.
template <bool WIDE>
__device__ __forceinline__ void load_b(unsigned (&b)[WN / 8][2], unsigned st, const unsigned (&off)[4]) {
    if constexpr (WIDE) {
        uint2 v[4];
#pragma unroll
        for (int q = 0; q < 4; ++q) v[q] = lds64(st + off[q]);
#pragma unroll
        for (int j = 0; j < WN / 8; ++j) {
            const unsigned sel = j % 2 ? 0x7632 : 0x5410;   // the high or low halves of two words
            b[j][0] = __byte_perm(j < 2 ? v[0].x : v[0].y, j < 2 ? v[1].x : v[1].y, sel);
            b[j][1] = __byte_perm(j < 2 ? v[2].x : v[2].y, j < 2 ? v[3].x : v[3].y, sel);
        }
    } else {
#pragma unroll
        for (int j = 0; j < WN / 8; ++j) {
            b[j][0] = lds16(st + off[0] + 16 * j) | lds16(st + off[1] + 16 * j) << 16;
            b[j][1] = lds16(st + off[2] + 16 * j) | lds16(st + off[3] + 16 * j) << 16;
        }
    }
}
// The column (of the block's 128) that accumulator e of block j holds for lane (g, t) of `warp`:
// the MMA gives label 2t + e % 2; load_b said which column a label stands for.
template <bool WIDE>
__device__ __forceinline__ int acc_column(int warp, int t, int j, int e) {
    return WIDE ? warp * WN + 4 * (2 * t + e % 2) + j : warp * WN + 8 * j + 2 * t + e % 2;
}
// One m16 block's A fragment for one k16 step at `at` (this lane's pair, its row's offset rounded
// down to an even element): a pair of A straddles two words where the row starts odd (m·K odd),
// and a funnel shift of two 32-bit loads takes it out; EVEN (K even: no row starts odd) loads it.
template <bool EVEN>
__device__ __forceinline__ void load_a(unsigned (&a)[4], unsigned at0, unsigned at1, unsigned shift0, unsigned shift1) {
    if constexpr (EVEN) {
        a[0] = lds32(at0), a[1] = lds32(at1), a[2] = lds32(at0 + 16), a[3] = lds32(at1 + 16);
    } else {
        a[0] = __funnelshift_r(lds32(at0), lds32(at0 + 4), shift0);
        a[1] = __funnelshift_r(lds32(at1), lds32(at1 + 4), shift1);
        a[2] = __funnelshift_r(lds32(at0 + 16), lds32(at0 + 20), shift0);
        a[3] = __funnelshift_r(lds32(at1 + 16), lds32(at1 + 20), shift1);
    }
}

// The tile's last piece to finish: every piece's partial sums of the rows below M added in piece
// order (the same bits every run, whichever piece finishes last) and written to C. A thread takes
// R groups of 4 columns (R·128 groups cover M's rows: groups tid, tid + 128, ...) and sends the
// loads of 16 / R pieces out together before their adds, so the sum costs a round trip to L2 for
// every 16 / R pieces. One element at a time, all its pieces' loads together, it cost a round
// trip an element: M of them a thread — 24 round trips at M = 24 (H200: 24×2178×2574 35.4 → 19.0
// µs, 0.46 → 0.87× cuBLAS; 0.853× the time over 16 fresh shapes at M ≤ 24, more at 3 of them —
// M of 1 and 2, +2–7 % — docs/results/2026-12-03-h200-mid-m-three-check/, run 5).
template <int R>
__device__ __forceinline__ void sum_pieces(const float* tile, float* C, int M, int N, int n0, int pieces, int tid) {
    constexpr int U = 16 / R, PIECE = MAX_M * BN / 4;   // pieces a batch; float4s of a piece's tile
    const float4* parts = reinterpret_cast<const float4*>(tile);
    const int groups = M * (BN / 4);
    float4 sum[R];
#pragma unroll
    for (int j = 0; j < R; ++j) sum[j] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    for (int p0 = 0; p0 < pieces; p0 += U) {
        float4 v[U][R];
#pragma unroll
        for (int q = 0; q < U; ++q)
#pragma unroll
            for (int j = 0; j < R; ++j)
                if (p0 + q < pieces && tid + THREADS * j < groups) v[q][j] = __ldcg(parts + (p0 + q) * PIECE + tid + THREADS * j);
#pragma unroll
        for (int q = 0; q < U; ++q)   // piece order
#pragma unroll
            for (int j = 0; j < R; ++j)
                if (p0 + q < pieces && tid + THREADS * j < groups)
                    sum[j].x += v[q][j].x, sum[j].y += v[q][j].y, sum[j].z += v[q][j].z, sum[j].w += v[q][j].w;
    }
#pragma unroll
    for (int j = 0; j < R; ++j) {
        const int g = tid + THREADS * j, m = g / (BN / 4), n = n0 + 4 * (g % (BN / 4));
        if (g >= groups) break;
        const float out[4] = {sum[j].x, sum[j].y, sum[j].z, sum[j].w};
#pragma unroll
        for (int c = 0; c < 4; ++c)
            if (n + c < N) C[1ll * m * N + n + c] = out[c];
    }
}

template <bool B_WIDE, bool A_EVEN>
__device__ __forceinline__ void small_m(const T* A, const T* B, float* C, int M, int N, int K, unsigned* work) {
    extern __shared__ __align__(128) unsigned char smem_raw[];
    const unsigned smem = static_cast<unsigned>(__cvta_generic_to_shared(smem_raw));
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, g = lane / 4, t = lane % 4;
    const int n0 = blockIdx.x * BN, pieces = gridDim.y, piece = blockIdx.y;
    const int m_rows = (M + 15) / 16 * 16;   // A's rows the m16 blocks read (past M: zeros)
    const unsigned char* a_bytes = reinterpret_cast<const unsigned char*>(A);
    const unsigned char* b_bytes = reinterpret_cast<const unsigned char*>(B);
    const unsigned long long b_end = 2ull * K * N;

    // This piece's slices of K: an even share of them (a piece of none adds zeros).
    const int slices = (K + BK - 1) / BK;
    const int first = static_cast<int>(1ll * piece * slices / pieces);
    const int count = static_cast<int>(1ll * (piece + 1) * slices / pieces) - first;

    // A slice is BK rows of K: 64·N bytes of B and 64 bytes of each row of A, both multiples of
    // 16, so every row's offset into its first word is the same in every slice. Sixteen threads
    // fetch a row's first 16 words (a warp: two rows' 256 contiguous bytes a copy — four threads a
    // row, 64 bytes of eight rows a copy, ran 0.88× as fast: 27 shapes, H200): thread tid rows
    // tid/16 + 8j, j < 4, each 8 rows 16·N bytes on (a multiple of 16: one word's address serves all
    // four); row r's 17th word, where the row starts off a word, by thread r of the first warp.
    // Addressed once here; a slice adds only s · (its bytes). A's rows: four threads a row (rows
    // tid/4 and tid/4 + 32), words t4, and 4.
    const int row = tid / 4, t4 = tid % 4;
    const int b_row = tid / 16, b_word = tid % 16;
    const unsigned long long b_first = 2ull * (1ull * b_row * N + n0);   // B's row b_row of slice 0: its first byte
    const unsigned char* b_src = b_bytes + (b_first & ~15ull) + 16 * b_word;
    const unsigned b_dst = b_row * B_ROW + b_word * 16;
    const unsigned long long b_first17 = 2ull * (1ull * (tid % 32) * N + n0);
    const unsigned char* b_src17 = b_bytes + (b_first17 & ~15ull) + 256;
    const unsigned b_dst17 = (tid % 32) * B_ROW + 256;
    const bool b_17th = tid < 32 && (b_first17 & 15);
    const unsigned long long b_rows8 = 16ull * N;   // 8 rows of B, bytes
    const bool a_fifth = t4 == 0;
    unsigned long long a_at[2], a_end[2];   // rows `row` and `row` + 32: a word's first byte, the row's end
    unsigned a_dst[2];
#pragma unroll
    for (int p = 0; p < 2; ++p) {
        const unsigned long long first = 2ull * (row + 32 * p) * K;
        a_at[p] = (first & ~15ull) + 16 * t4, a_end[p] = first + 2ull * K;
        a_dst[p] = B_STAGE + (row + 32 * p) * A_ROW + t4 * 16;
    }
    const unsigned long long b_slice = 2ull * BK * N;
    // B's slices read as whole words: those before whole_slices, where the slice's rows are inside K
    // and its last row's whole span (17 words) ends inside B — short of B's last row, unless B is
    // narrow (N < 64: a span outruns the rows after it). (s + 1)·BK < K, and 2((s·BK + BK − 1)·N +
    // n0) + B_ROW ≤ B's bytes (its 16-byte word's start only nearer).
    const long long room = 1ll * K * N - n0 - B_ROW / 2 - (BK - 1ll) * N;
    const int whole_slices = room < 0 ? 0 : static_cast<int>(min((K - 1ll) / BK, room / (1ll * BK * N) + 1));
    auto load_stage = [&](int stage, int s) {
        const unsigned base = smem + stage * STAGE_BYTES;
        const int k0 = s * BK;
        if (s < whole_slices) {
            const unsigned char* src = b_src + s * b_slice;
#pragma unroll
            for (int j = 0; j < 4; ++j) cp_async16(base + b_dst + 8 * B_ROW * j, src + b_rows8 * j);
            if (b_17th) cp_async16(base + b_dst17, b_src17 + s * b_slice);
        } else {   // rows past K come as zeros, and no word reads past B's end
            const unsigned long long at = (b_src - b_bytes) + s * b_slice;
#pragma unroll
            for (int j = 0; j < 4; ++j)
                fetch_word(base + b_dst + 8 * B_ROW * j, b_bytes, at + b_rows8 * j, k0 + b_row + 8 * j < K ? b_end : 0);
            if (b_17th) fetch_word(base + b_dst17, b_bytes, (b_src17 - b_bytes) + s * b_slice, k0 + tid < K ? b_end : 0);
        }
        // A: row `row`'s columns from k0 up to K (past it zeros, meeting B's zero rows past K); its
        // rows past M hold the zeros written once below
#pragma unroll
        for (int p = 0; p < 2; ++p) {
            if (row + 32 * p >= M) break;
            const unsigned long long at = a_at[p] + 2ull * k0;
            if (at + 80 <= a_end[p]) {   // (five words on from this thread's inside the row: ample)
                cp_async16(base + a_dst[p], a_bytes + at);
                if (a_fifth) cp_async16(base + a_dst[p] + 64, a_bytes + at + 64);
            } else {
                fetch_word(base + a_dst[p], a_bytes, at, a_end[p]);
                if (a_fifth) fetch_word(base + a_dst[p] + 64, a_bytes, at + 64, a_end[p]);
            }
        }
    };
#pragma unroll
    for (int p = 0; p < 2; ++p)   // A's rows past M, up to the m16 blocks' last: zeros, in every stage
        if (row + 32 * p >= M && row + 32 * p < m_rows)
            for (int stage = 0; stage < STAGES; ++stage) {
                const unsigned at = smem + stage * STAGE_BYTES + a_dst[p];
                sts128(at, 0, 0, 0, 0);
                if (a_fifth) sts128(at + 64, 0, 0, 0, 0);
            }

    // Where this lane's fragments lie in a stage, also the same every slice. B (k16 × n8, "col"):
    // b0 = rows kk + 2t, +1 at its column (load_b), b1 = rows +8, +9; row r's elements start d = (r·N + n0)
    // mod 8 into its span (mod 8 survives the unsigned product's wrapping). A (m16 × k16, row):
    // a0 = row g, columns kk + 2t, +1; a1 = row g + 8; a2, a3 = the same 8 columns on; row m's
    // columns start (m·K) mod 8 into its span — the same for row m + 16 (16·K ≡ 0 mod 8), so each
    // m16 block's fragments lie 16 rows past the one before.
    const unsigned nn = 2u * (warp * WN + (B_WIDE ? 4 : 1) * g);   // this lane's (first) column, bytes (load_b)
    unsigned b_off[2][4], a_word[2][2], a_shift[2];   // (a pair of A straddles two words where m·K is odd)
#pragma unroll
    for (int h = 0; h < 2; ++h)
#pragma unroll
        for (int q = 0; q < 4; ++q) {
            const unsigned r = 16 * h + 2 * t + (q & 1) + 8 * (q >> 1);
            b_off[h][q] = r * B_ROW + 2u * ((r * static_cast<unsigned>(N) + n0) & 7u) + nn;
        }
#pragma unroll
    for (int q = 0; q < 2; ++q) {
        const unsigned m = g + 8 * q, d = (m * static_cast<unsigned>(K)) & 7u;
        a_shift[q] = (d & 1) * 16;
#pragma unroll
        for (int h = 0; h < 2; ++h) a_word[h][q] = B_STAGE + m * A_ROW + 2u * (d & ~1u) + 2u * (16 * h + 2 * t);
    }
    float acc[M_BLOCKS][WN / 8][4] = {};
#pragma unroll 1   // (one stage's loads in the code, not STAGES - 1: see fetch_cut_word)
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
            load_b<B_WIDE>(b, st, b_off[h]);
#pragma unroll
            for (int mt = 0; mt < M_BLOCKS; ++mt) {
                if (mt * 16 >= m_rows) break;
                unsigned a[4];
                const unsigned at = st + mt * 16 * A_ROW;
                load_a<A_EVEN>(a, at + a_word[h][0], at + a_word[h][1], a_shift[0], a_shift[1]);
#pragma unroll
                for (int j = 0; j < WN / 8; ++j) mma(acc[mt][j], a, b[j][0], b[j][1]);
            }
        }
    }
    cp_async_wait<0>();

    // m16n8's accumulators: lane (g, t) holds rows g (c0, c1) and g + 8 (c2, c3), labels 2t, +1
    // (acc_column: which columns those are).
    if (pieces == 1) {   // the whole of K: straight to C
#pragma unroll
        for (int mt = 0; mt < M_BLOCKS; ++mt)
#pragma unroll
            for (int j = 0; j < WN / 8; ++j)
#pragma unroll
                for (int e = 0; e < 4; ++e) {
                    const int m = mt * 16 + g + 8 * (e / 2), n = n0 + acc_column<B_WIDE>(warp, t, j, e);
                    if (m < M && n < N) C[1ll * m * N + n] = acc[mt][j][e];
                }
        return;
    }
    // A piece of K: its partial sums to the workspace, then the tile's last piece adds all of them.
    unsigned* counter = work + blockIdx.x;
    float* partials = reinterpret_cast<float*>(work + (gridDim.x + 3) / 4 * 4);
    float* mine = partials + (1ll * blockIdx.x * pieces + piece) * (MAX_M * BN);
    // Rows below M only (the sums read no others), as 16- or 8-byte stores: WIDE puts the four
    // blocks' accumulator e side by side (columns 8t + 4(e % 2) + j), the other form e and e + 1.
#pragma unroll
    for (int mt = 0; mt < M_BLOCKS; ++mt)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int m = mt * 16 + g + 8 * h;
            if (m >= M) continue;
            float* at = mine + m * BN + warp * WN;
            if constexpr (B_WIDE) {
#pragma unroll
                for (int e = 2 * h; e < 2 * h + 2; ++e)
                    __stcg(reinterpret_cast<float4*>(at + 8 * t + 4 * (e % 2)),
                           make_float4(acc[mt][0][e], acc[mt][1][e], acc[mt][2][e], acc[mt][3][e]));
            } else {
#pragma unroll
                for (int j = 0; j < WN / 8; ++j)
                    __stcg(reinterpret_cast<float2*>(at + 8 * j + 2 * t),
                           make_float2(acc[mt][j][2 * h], acc[mt][j][2 * h + 1]));
            }
        }
    if (!last_piece_in(counter, pieces)) return;   // (the others' partials: read below past L1)
    const float* tile = partials + 1ll * blockIdx.x * pieces * (MAX_M * BN);
    if (M <= 4) sum_pieces<1>(tile, C, M, N, n0, pieces, tid);   // (R: a thread's groups, R·128 ≥ M·32)
    else if (M <= 8) sum_pieces<2>(tile, C, M, N, n0, pieces, tid);
    else if (M <= 16) sum_pieces<4>(tile, C, M, N, n0, pieces, tid);
    else if (M <= 32) sum_pieces<8>(tile, C, M, N, n0, pieces, tid);
    else sum_pieces<16>(tile, C, M, N, n0, pieces, tid);
    if (tid == 0) *counter = 0;   // as found, for the next launch
}

// The fragment reads each problem allows, chosen once a launch (the same for every block): on the
// H200 1.139× cuBLAS geomean over scripts/shapes/small_m_09.txt against 1.065× with 16-bit B and
// shifted A reads everywhere (docs/results/2026-12-02-h200-09-faster/, run 4).
__device__ __forceinline__ void run_small_m(const T* A, const T* B, float* C, int M, int N, int K, unsigned* work) {
    const bool b_wide = N % 4 == 0, a_even = K % 2 == 0;
    if (b_wide && a_even) small_m<true, true>(A, B, C, M, N, K, work);
    else if (b_wide) small_m<true, false>(A, B, C, M, N, K, work);
    else if (a_even) small_m<false, true>(A, B, C, M, N, K, work);
    else small_m<false, false>(A, B, C, M, N, K, work);
}

// The launch this file needs — threads per block, dynamic shared memory bytes — stated once,
// here; tcraw reads it from the cubin and refuses a declaration in small_m.py that differs.
extern "C" __constant__ int tcraw_launch[2] = {THREADS, SMEM_BYTES};

#if defined(TCRAW_MMA_BF16)
extern "C" __global__ void __launch_bounds__(THREADS)
small_m_bf16(const __nv_bfloat16* A, const __nv_bfloat16* B, float* C, int M, int N, int K, unsigned* work) {
    run_small_m(A, B, C, M, N, K, work);
}
#else
extern "C" __global__ void __launch_bounds__(THREADS)
small_m_fp16(const __half* A, const __half* B, float* C, int M, int N, int K, unsigned* work) {
    run_small_m(A, B, C, M, N, K, work);
}
#endif
