// 10_gemv_b_realigned_by_shuffles.cu — M ≤ 4: a matmul that is a GEMV, on the CUDA cores.
//
// With M of 1–4 each element of B takes part in 2·M flops at most: the time is B's bytes over
// HBM's rate and the latency of getting them started, nothing else. 09's MMAs spend 16 rows of
// M on one (15 of them zeros), its shared-memory ring holds a block's loads to six slices, and at
// 1×3586×1572 Nsight Compute found it latency-bound — 1.3 warps a scheduler, DRAM 12 % busy
// (docs/results/2026-12-03-h200-mid-m-three-check/, run 5) — where cuBLAS runs a GEMV kernel of 113
// blocks × 512 threads.
//
// Adds to 09: (1) no tensor cores and no shared-memory ring: each lane loads B's 16-byte words
// straight into registers, two groups of U rows in flight a warp (the next group's loads go out
// before this group's FMAs), and does M·8 fp32 FMAs a word; (2) B's rows at any pitch realigned in
// registers, not in shared memory: a warp reads the 32 aligned words that start a row's span, and
// each lane takes its 8 columns from its own word and the next lane's (a shuffle), d elements in —
// d = (k·N + n0) mod 8, the same for every lane of the row and every row the warp reads (they lie 8
// apart), so the shift is a warp-uniform choice, not a divergence; (3) A by shuffles too: lane l
// holds row m's element of the warp's l-th row of a 32-row chunk, read once (its loads beside the
// chunk's first group's), and each row's A goes to every lane by a shuffle.
//
// Block: 8 warps, 256 columns of N (a lane: 8 consecutive columns, one word) where N is a multiple
// of 8, else 248: the 32 words a warp reads cover 31 lanes' columns and an offset, so the last
// lane's word is only its neighbour's next (a 33rd word by one lane cost 4 registers a row in
// flight — 32 when a warp had 8 rows in flight — and a divergent load a row; the 32nd lane's loads,
// 1/32 of them, are read again by the next tile's block). Warp w takes rows kb + w, kb + w + 8, ...
// of the block's piece [kb, ke) of K. The warps' sums are added in shared memory in warp order,
// then split-K as in 09: a grid of (N / 256 or 248 column tiles) × (gridDim.y pieces), partial sums
// in a workspace, and the tile's last piece to finish adds them in piece order (the same bits every
// run, whichever finishes last; more than 5 · ⌊32 / M⌋ pieces, in two steps: sets of pieces,
// then the sets) — or, built with CLUSTER_K, the grid's y one cluster whose pieces add each other's sums
// through distributed shared memory, in the same order (sum_in_cluster).
// Edges: rows past the piece and A's rows past M are never read (zeros); B's columns past N hold
// what follows in memory and reach only C's columns past N, which are never written; no byte past
// B's end is read (its last word, if B's end cuts it, element by element).
//
// Measured (H200): with one group of 8 rows in flight (docs/results/2026-12-03-h200-gemv-10/),
// against 09 and 06's swapped tiles at M of 1–2, less time at 33 of 35 shapes fp16 (1×3586×1572
// 13.2 → 11.2 µs; B of 117–192 MB read at 3.5–3.8 TB/s); at M of 3–4 faster at 7 of 13 — a warp
// waited on memory once a group, and once more a chunk for A before its first group's loads went
// out. With two groups in flight (8 rows each at M ≤ 2, 4 at M of 3–4, what 128 registers hold;
// docs/results/2026-12-03-h200-gemv-pipelined/): 0.954 of that time on 48 shapes of M 1–4 (0.83 at
// 4×4378×4771, 1×3586×1572 11.1 → 10.5 µs), and at M of 3–4 0.875× 06's pick's time fp16 (faster at
// 35 of 37; bf16 0.891×, 34), so 06's pick hands it M of 1–4 (wgmma.wgmma_runs_gemv). Summed in
// a cluster (docs/results/2026-12-03-h200-gemv-cluster/): 8 pieces took less time than 8 through
// the workspace at 53 of 65 shapes (0.988; 4×1872×968 9.50 → 8.64 µs), and the pick takes them where
// K is short and the clusters run at once (small_m.gemv_sums_in_cluster): 0.972× the time on 16
// fresh shapes (fp16; bf16 0.981×).
//
// Workspace (zeroed once; every launch leaves it so): a counter per block (the column tiles', then
// their sets of pieces'), then (16-byte aligned) MAX_M × 256 fp32 partial sums per block (summed
// in a cluster, untouched).
// tcraw.small_m.gemv_workspace sizes it.

#include "mma_sync.cuh"   // T by TCRAW_MMA_<KEY> (FP16, BF16): 10 issues no MMA
#include "split_k_last.cuh"
#include "cluster.cuh"

// CLUSTER_K: 0 (the default), K's pieces (the grid's y) hand off through the workspace; 2, 4 or 8, the
// grid's y is one cluster of that many pieces, summed through distributed shared memory
// (sum_in_cluster) — on sm_90 and later; built for an older GPU, through the workspace.
#ifndef CLUSTER_K
#define CLUSTER_K 0
#endif
static_assert(CLUSTER_K == 0 || CLUSTER_K == 2 || CLUSTER_K == 4 || CLUSTER_K == 8,
              "CLUSTER_K is 0, 2, 4 or 8 (a portable cluster, each piece an even share of 256 columns)");
#if CLUSTER_K && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define SUM_IN_CLUSTER 1
#define GEMV_CLUSTER __cluster_dims__(1, CLUSTER_K, 1)
#else
#define SUM_IN_CLUSTER 0
#define GEMV_CLUSTER
#endif

constexpr int WARPS = 8, THREADS = 32 * WARPS;
constexpr int BN = 256, MAX_M = 4;   // a block's columns at most (a lane's 8 × 32 lanes), M's bound
constexpr int CHUNK = 32;            // a warp's rows whose A one load a lane brings (one a lane)
static_assert(sizeof(T) == 2 && BN == 8 * 32, "a lane's columns are one 16-byte word of 16-bit elements");

// B's 16-byte word w (words counted from B's start, 8 elements each) that B's end cuts: its
// elements before `elems`, the rest zeros, one at a time. Out of line: it runs for one word of B
// at most (see 09's fetch_cut_word for what inlining such loops at every load site costs).
__device__ __noinline__ uint4 load_cut_word(const unsigned short* b, unsigned long long w, unsigned long long elems) {
    unsigned x[4] = {};
    for (int e = 0; e < 8; ++e)
        if (8 * w + e < elems) x[e / 2] |= unsigned(b[8 * w + e]) << 16 * (e % 2);
    return make_uint4(x[0], x[1], x[2], x[3]);
}

// A word of B inside it, L1 not allocated: no lane of the block reads it again — but where N is
// under a tile's width (one row's span covering 256 / N rows, others' of this block) and the last
// lane's word of a 248-column tile (the next tile's first), which come again from L2.
__device__ __forceinline__ uint4 load_whole(const uint4* at) {
    uint4 v;
    asm volatile("ld.global.nc.L1::no_allocate.v4.b32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(at));
    return v;
}

// Word w of B: whole, cut by B's end, or zeros wholly past it.
__device__ __forceinline__ uint4 load_word(const T* B, unsigned long long w, unsigned long long elems) {
    if (8 * w + 8 <= elems) return load_whole(reinterpret_cast<const uint4*>(B) + w);
    if (8 * w >= elems) return make_uint4(0, 0, 0, 0);
    return load_cut_word(reinterpret_cast<const unsigned short*>(B), w, elems);
}

__device__ __forceinline__ float2 to_float2(unsigned pair) {
#if defined(TCRAW_MMA_BF16)
    return __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162*>(&pair));
#else
    return __half22float2(*reinterpret_cast<const __half2*>(&pair));
#endif
}

// This lane's 8 columns of a row whose span starts d elements into the lane's word `mine`, the
// rest from `next` (the next lane's word): 32-bit pairs shifted by d/2 words, then 16 bits where
// d is odd. d is the warp's (every row it reads, every lane): the selects are uniform.
__device__ __forceinline__ void realign(unsigned (&o)[4], uint4 mine, uint4 next, unsigned d) {
    unsigned x[8] = {mine.x, mine.y, mine.z, mine.w, next.x, next.y, next.z, next.w};
    if (d & 4) {
#pragma unroll
        for (int i = 0; i < 6; ++i) x[i] = x[i + 2];
    }
    if (d & 2) {
#pragma unroll
        for (int i = 0; i < 5; ++i) x[i] = x[i + 1];
    }
#pragma unroll
    for (int j = 0; j < 4; ++j) o[j] = d & 1 ? __funnelshift_r(x[j], x[j + 1], 16) : x[j];
}

// The words of the warp's rows j … j + U − 1 (row j's first word at b_words + j·N, this lane's),
// zeros for rows past `rows`. Where every word of the group — rows past `rows` counted too — lies
// inside B, straight loads; else (B's end near: the last groups of the last pieces) word by word.
template <int U>
__device__ __forceinline__ void load_group(uint4 (&w)[U], const T* B, const uint4* b_words, unsigned long long
                                           first_word, long long j, int rows, int N, unsigned long long elems) {
    if (8 * (first_word + 31 + (j + U - 1) * N + 1) <= elems) {
#pragma unroll
        for (int u = 0; u < U; ++u) w[u] = j + u < rows ? load_whole(b_words + (j + u) * N) : make_uint4(0, 0, 0, 0);
    } else {
#pragma unroll
        for (int u = 0; u < U; ++u)
            w[u] = j + u < rows ? load_word(B, first_word + (threadIdx.x % 32) + (j + u) * N, elems)
                                : make_uint4(0, 0, 0, 0);
    }
}

// A's elements of a chunk's 32 rows, raw: lane l, row j0 + l of the warp's (zero past them);
// converted only where first used, so their loads wait beside the group's loads of B.
template <int M>
__device__ __forceinline__ void load_a(unsigned short (&bits)[M], const unsigned short* a_bits, int K, int kb, int j0,
                                       int rows) {
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    // (row j0 + lane's column of A: past the piece's rows for lanes past the warp's, and not read)
    const long long ka = kb + warp + WARPS * static_cast<long long>(j0 + lane);
#pragma unroll
    for (int m = 0; m < M; ++m) bits[m] = j0 + lane < rows ? __ldg(a_bits + 1ll * m * K + ka) : 0;
}

// One group's FMAs: rows r0 … r0 + U − 1 of the chunk whose A `a` holds (lane l: its row l).
// Rows past the warp's are zeros of B and of A, with no branch around the shuffles, which the
// whole warp must reach.
template <int M, bool ALIGNED, int U>
__device__ __forceinline__ void fma_group(float (&acc)[M][8], const uint4 (&w)[U], const float (&a)[M], int r0,
                                          unsigned d) {
#pragma unroll
    for (int u = 0; u < U; ++u) {
        unsigned o[4];
        if constexpr (ALIGNED) {   // N a multiple of 8: every row starts on a word
            o[0] = w[u].x, o[1] = w[u].y, o[2] = w[u].z, o[3] = w[u].w;
        } else {
            uint4 next;
            next.x = __shfl_down_sync(~0u, w[u].x, 1);
            next.y = __shfl_down_sync(~0u, w[u].y, 1);
            next.z = __shfl_down_sync(~0u, w[u].z, 1);
            next.w = __shfl_down_sync(~0u, w[u].w, 1);   // (lane 31: its own, unused)
            realign(o, w[u], next, d);
        }
#pragma unroll
        for (int m = 0; m < M; ++m) {
            const float am = __shfl_sync(~0u, a[m], r0 + u);
#pragma unroll
            for (int q = 0; q < 4; ++q) {
                const float2 b = to_float2(o[q]);
                acc[m][2 * q] = fmaf(am, b.x, acc[m][2 * q]);
                acc[m][2 * q + 1] = fmaf(am, b.y, acc[m][2 * q + 1]);
            }
        }
    }
}

#if SUM_IN_CLUSTER
// A float at the same shared-memory offset as `local` in block `rank` of the cluster.
__device__ __forceinline__ float ld_cluster(const float* local, unsigned rank) {
    unsigned remote;
    float v;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;"
                 : "=r"(remote) : "r"(static_cast<unsigned>(__cvta_generic_to_shared(local))), "r"(rank));
    asm volatile("ld.shared::cluster.f32 %0, [%1];" : "=f"(v) : "r"(remote) : "memory");
    return v;
}

// Split-K inside a cluster (CLUSTER_K pieces of K, one cluster of the grid's y): each piece puts
// its sums (thread t: column t, each row m) in its own shared memory, and after one cluster-wide
// barrier block r adds columns r·BN/CLUSTER_K … of every piece's, read across the cluster, in piece
// order — the order the workspace's last piece adds them in, so the same bits. No workspace, no
// GPU-wide fence, no counter: the hand-off through L2 costs a fence, an atomic and a round trip of
// loads one after another, in the last piece alone.
template <int M, int COLS>
__device__ __forceinline__ void sum_in_cluster(const float (&sum)[M], float* C, int N, int n0, float* red) {
    constexpr int SHARE = BN / CLUSTER_K;   // the columns each piece adds up
    static_assert(BN % CLUSTER_K == 0, "CLUSTER_K divides a tile's 256 columns");
    const int tid = threadIdx.x;
    // (over warp 0's sums of column t, which thread t alone has read: no barrier first)
#pragma unroll
    for (int m = 0; m < M; ++m) red[m * BN + tid] = sum[m];
    cluster_sync();    // every piece's sums written, and visible across the cluster
    const unsigned rank = cluster_rank();
    for (int i = tid; i < M * SHARE; i += THREADS) {
        const int m = i / SHARE, col = static_cast<int>(rank) * SHARE + i % SHARE;
        float v[CLUSTER_K], total = 0.0f;
#pragma unroll
        for (int q = 0; q < CLUSTER_K; ++q) v[q] = ld_cluster(red + m * BN + col, q);
#pragma unroll
        for (int q = 0; q < CLUSTER_K; ++q) total += v[q];
        if (col < COLS && n0 + col < N) C[1ll * m * N + n0 + col] = total;
    }
    cluster_sync();    // no block leaves while others still read its shared memory
}
#endif

// The sums of `count` pieces' slots `step` apart from `slots` (this thread's column), added in slot
// order into total: the loads of P slots (all M rows) out together, a round trip to L2 each P.
// Read past L1, which holds none of them.
template <int M, int P>
__device__ __forceinline__ void add_pieces(float (&total)[M], const float* slots, int count, int step) {
#pragma unroll
    for (int m = 0; m < M; ++m) total[m] = 0.0f;
    for (int p0 = 0; p0 < count; p0 += P) {
        float v[P][M];
#pragma unroll
        for (int q = 0; q < P; ++q)
#pragma unroll
            for (int m = 0; m < M; ++m)
                if (p0 + q < count) v[q][m] = __ldcg(slots + 1ll * (p0 + q) * step * (MAX_M * BN) + m * BN);
#pragma unroll
        for (int q = 0; q < P; ++q)
#pragma unroll
            for (int m = 0; m < M; ++m)
                if (p0 + q < count) total[m] += v[q][m];
    }
}

template <int M, bool ALIGNED>
__device__ __forceinline__ void gemv(const T* A, const T* B, float* C, int N, int K, unsigned* work, float* red) {
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    constexpr int COLS = ALIGNED ? BN : BN - 8;   // (the last lane's columns unused: see above)
    constexpr int U = M <= 2 ? 8 : 4;             // a group's rows (two groups' words in 128 registers)
    constexpr int GROUPS = CHUNK / U;             // a chunk's groups
    static_assert(CHUNK % U == 0, "a chunk is whole groups of U rows");
    const int n0 = blockIdx.x * COLS, pieces = gridDim.y, piece = blockIdx.y;
    const unsigned long long elems = 1ull * K * N;
    const unsigned short* a_bits = reinterpret_cast<const unsigned short*>(A);

    // This piece's rows of K, an even share (a piece of none adds zeros), and this warp's of them:
    // kb + warp + 8j for j < rows.
    const int kb = static_cast<int>(1ll * piece * K / pieces), ke = static_cast<int>(1ll * (piece + 1) * K / pieces);
    const int rows = ke - kb > warp ? (ke - kb - warp + WARPS - 1) / WARPS : 0;

    // Rows 8 apart lie 8·N elements — N words — apart: the warp's rows all start d = (k·N + n0)
    // mod 8 elements into their first word (one d for the warp, whatever the row), and row j's
    // words are row 0's plus j·N.
    const unsigned long long e = 1ull * (kb + warp) * N + n0;   // the warp's first row's first element
    const unsigned d = static_cast<unsigned>(e & 7);
    const uint4* b_words = reinterpret_cast<const uint4*>(B) + (e >> 3) + lane;   // this lane's word of row 0
    float acc[M][8] = {};

    // Two groups in flight: group g + 1's loads go out before group g's FMAs, so each group's wait
    // hides behind the group before's FMAs, and a chunk's A goes out with its first group's loads
    // instead of being waited for alone first. `ahead` takes the next group's words and moves to
    // `now` after this group's FMAs (register moves: unrolled by two to alternate the sets instead,
    // ptxas spilled).
    uint4 now[U], ahead[U];
    unsigned short a_next[M];
    float a[M];
    load_a<M>(a_next, a_bits, K, kb, 0, rows);
    load_group(now, B, b_words, e >> 3, 0, rows, N, elems);
    const int groups = (rows + U - 1) / U;
#pragma unroll 1
    for (int g = 0; g < groups; ++g) {
        const int r0 = (g % GROUPS) * U;   // the group's first row in its chunk
        if (r0 == 0) {   // a chunk's first group: its A, loaded beside the group's words
#pragma unroll
            for (int m = 0; m < M; ++m) a[m] = to_float2(a_next[m]).x;
        }
        const long long j = 1ll * (g + 1) * U;   // the next group's first row
        if (j < rows) {
            load_group(ahead, B, b_words, e >> 3, j, rows, N, elems);
            if (r0 + U == CHUNK) load_a<M>(a_next, a_bits, K, kb, static_cast<int>(j), rows);   // the next chunk's
        }
        fma_group<M, ALIGNED, U>(acc, now, a, r0, d);
        // (after the last group `ahead` is moved as left and never used: zeroing it, or moving it
        // only when loaded, made ptxas spill)
#pragma unroll
        for (int u = 0; u < U; ++u) now[u] = ahead[u];
    }

    // The warps' sums, added in warp order: thread t holds column t of each row (t < COLS).
#pragma unroll
    for (int m = 0; m < M; ++m) {
        float4* at = reinterpret_cast<float4*>(red + (warp * MAX_M + m) * BN + 8 * lane);
        at[0] = make_float4(acc[m][0], acc[m][1], acc[m][2], acc[m][3]);
        at[1] = make_float4(acc[m][4], acc[m][5], acc[m][6], acc[m][7]);
    }
    __syncthreads();
    float sum[M];
#pragma unroll
    for (int m = 0; m < M; ++m) {
        sum[m] = red[m * BN + tid];
#pragma unroll
        for (int w = 1; w < WARPS; ++w) sum[m] += red[(w * MAX_M + m) * BN + tid];
    }
    const long long n = tid < COLS ? n0 + static_cast<long long>(tid) : N;   // (N: a column never written)
    if (pieces == 1) {   // the whole of K: straight to C
#pragma unroll
        for (int m = 0; m < M; ++m)
            if (n < N) C[1ll * m * N + n] = sum[m];
        return;
    }
#if SUM_IN_CLUSTER
    sum_in_cluster<M, COLS>(sum, C, N, n0, red);
#else
    // A piece of K: its sums to the workspace, then the tile's last piece adds all of them — in
    // two steps where they take more than ROUNDS rounds of loads (P pieces a round): the last of
    // each set of `per` pieces adds the set's into the set's first slot, then the last set's adds
    // the sets'. Each round is a round trip to L2 that one block makes while the other SMs idle;
    // the second step costs a fence, a count and its own round. Measured (H100, fp16, 36 shapes of
    // M 1–4, docs/results/2026-12-06-h100-small-problems/): the sets took 0.81–0.96× the time where
    // the pieces took 6–8 rounds (4×656×12336, 64 pieces at M = 4: 18.5 → 15.9 µs), 0.99–1.14×
    // where they took 2–5; so sets past 5 rounds: on 16 shapes drawn after that (M of 3–4) 0.909×
    // the time fp16, 0.902× bf16, faster at 16 of 16. Fixed sets in a fixed order: the same bits
    // every run (and, at ROUNDS rounds or fewer, as before and as sum_in_cluster's).
    constexpr int P = 32 / M;   // the pieces one round loads (all M rows): 32 loads a thread (30 at M = 3)
    constexpr int ROUNDS = 5;   // the most rounds the last piece makes alone
    int per = pieces;           // a set's pieces: all, or ⌈√pieces⌉ (each step one round: pieces ≤ 64 = 8²)
    if (pieces > ROUNDS * P)
        for (per = 1; per * per < pieces;) ++per;
    const int sets = (pieces + per - 1) / per, first = piece / per * per;
    unsigned* counter = work + blockIdx.x;                   // the tile's; then its sets' (below)
    float* partials = reinterpret_cast<float*>(work + (gridDim.x * pieces + 3) / 4 * 4);   // (past a counter a block)
    float* tile = partials + 1ll * blockIdx.x * pieces * (MAX_M * BN) + tid;
#pragma unroll
    for (int m = 0; m < M; ++m) __stcg(tile + 1ll * piece * (MAX_M * BN) + m * BN, sum[m]);
    float total[M];
    if (sets > 1) {
        unsigned* set_counter = work + gridDim.x + blockIdx.x * sets + first / per;
        float* slot = tile + 1ll * first * (MAX_M * BN);   // the set's first piece's: the set's sum goes there
        const int in_set = min(per, pieces - first);       // (the last set may be short)
        if (!last_piece_in(set_counter, in_set)) return;
        add_pieces<M, P>(total, slot, in_set, 1);
#pragma unroll
        for (int m = 0; m < M; ++m) __stcg(slot + m * BN, total[m]);
        if (tid == 0) *set_counter = 0;   // as found, for the next launch
        if (!last_piece_in(counter, sets)) return;
        add_pieces<M, P>(total, tile, sets, per);
    } else {
        if (!last_piece_in(counter, pieces)) return;   // (the others' partials: read below past L1)
        add_pieces<M, P>(total, tile, pieces, 1);
    }
#pragma unroll
    for (int m = 0; m < M; ++m)
        if (n < N) C[1ll * m * N + n] = total[m];
    if (tid == 0) *counter = 0;   // as found, for the next launch
#endif
}

// M and B's alignment chosen once a launch (the same for every block).
template <bool ALIGNED>
__device__ __forceinline__ void gemv_of_m(const T* A, const T* B, float* C, int M, int N, int K, unsigned* work,
                                          float* red) {
    if (M == 1) gemv<1, ALIGNED>(A, B, C, N, K, work, red);
    else if (M == 2) gemv<2, ALIGNED>(A, B, C, N, K, work, red);
    else if (M == 3) gemv<3, ALIGNED>(A, B, C, N, K, work, red);
    else gemv<4, ALIGNED>(A, B, C, N, K, work, red);
}

__device__ __forceinline__ void run_gemv(const T* A, const T* B, float* C, int M, int N, int K, unsigned* work) {
    __shared__ __align__(16) float red[WARPS * MAX_M * BN];   // the warps' sums (one array for every form)
    if (N % 8 == 0) gemv_of_m<true>(A, B, C, M, N, K, work, red);
    else gemv_of_m<false>(A, B, C, M, N, K, work, red);
}

// The launch this file needs — threads per block, dynamic shared memory bytes — stated once,
// here; tcraw reads it from the cubin and refuses a declaration in small_m.py that differs.
extern "C" __constant__ int tcraw_launch[2] = {THREADS, 0};

#if defined(TCRAW_MMA_BF16)
extern "C" __global__ void __launch_bounds__(THREADS, 2) GEMV_CLUSTER
gemv_bf16(const __nv_bfloat16* A, const __nv_bfloat16* B, float* C, int M, int N, int K, unsigned* work) {
    run_gemv(A, B, C, M, N, K, work);
}
#else
extern "C" __global__ void __launch_bounds__(THREADS, 2) GEMV_CLUSTER
gemv_fp16(const __half* A, const __half* B, float* C, int M, int N, int K, unsigned* work) {
    run_gemv(A, B, C, M, N, K, work);
}
#endif
