// wgmma_tma.cuh — the machinery of 06 and 07: TMA copies into a swizzled shared-memory ring,
// warpgroup MMAs (wgmma) from it, producer/consumer warpgroups, a persistent grid walking tiles
// in clusters that multicast B (or A), stream-K and split-K, C out through shared memory and TMA
// stores (or, C_PLAIN, the consumers' own).
// 06_wgmma_tma_hopper.cu explains each part; this header is that code, parametrised by what the
// element type changes (set before including it):
//   WG_ELEM_BYTES  bytes per input element: 2 (fp16, bf16), 1 (fp8, int8), 4 (tf32). A slice is
//                  always 128 bytes of K (one swizzle row), so BK = 128 / WG_ELEM_BYTES elements and
//                  every wgmma k-step reads 32 bytes of each row: k16, k32 or k8.
//   WG_K, WG_TYPES the instruction's k and type suffix ("16", "f32.f16.f16"; "32", "s32.s8.s8" ...)
//   WG_IMM         its trailing immediates: scale-d, then imm-scale-a/b (floating types), then
//                  imm-trans-a/b (16-bit types only)
//   WG_B_KMAJOR    1: B is stored N×K (K-major), the only way wgmma takes fp8, int8 and tf32;
//                  0: B is K×N (MN-major), read transposed (16-bit types)
//   WG_INT_ACC     1: s32 accumulators (int8); 0: fp32
//   WG_SCALED      1: C is multiplied by scale_a · scale_b before it is stored (fp8)
//   WG_OUT_BYTES   4 (fp32 or s32 C; the default) or 2 (bf16 C: each pair of accumulators rounded
//                  to nearest on the way out; stream-K is off — its adds would round in bf16 at L2)
//   PROMOTE        N > 0: the MMAs accumulate N slices at a time, each batch then added into fp32
//                  registers (an accumulator study of FP8; default 0, none)
//   WAIT_DEPTH     1: the consumers wait for the previous slice's MMAs, not this one's (default 0;
//                  tcraw's picks set 1 for one consumer, and for swapped tiles of three consumers or
//                  of two with BN ≤ 32: wgmma.wgmma_wait_depth)
//   A_ROWS         rows of A loaded a slice when M is tiny (default 0: all of the block's)
//   A_EDGE         a box of A past M's last row copied as up to this many 8-row boxes of real rows
//                  (default 4; 0: whole, zeros past M) — a_copy
//   A_SHIFT        1: a 64-row tile at M's edge copies A's last 64 rows instead, its C rows stored
//                  shifted back (default 0) — a_shift
//   SWAP_AB        1: compute Cᵀ = Bᵀ·Aᵀ — N along the wgmma's 64 rows, M along its n (BN any
//                  multiple of 16 up to 256, in any cluster: its blocks along N copy BN / their
//                  count of A's rows each): for small M, no rows of zeros; for M of a few
//                  hundred, tiles that fit it (16-bit types; in clusters along N, multicasting
//                  A's rows — with SHARE_A, pairs along M too, multicasting B's columns; three
//                  consumers, 192 of N, with BN of at most 192)
//   C_PARTS        swapped past 64 of M: C leaves through a box of BN / C_PARTS rows, the parts in
//                  turn (default 1: one box of BN rows) — a smaller buffer, room for a stage more
//   COOP           1–5: two consumers side by side along the wgmma's n, BN of it each, each over
//                  all of the tile's COOP·64 rows — one wgmma per 64 rows and k-step. Swapped,
//                  along M, over rows of N (cuBLAS's "coopB" tiles); unswapped, along N (BN a
//                  multiple of 64: each consumer's columns start on a B box), over rows of M —
//                  its "coopA". Default 0: each consumer 64 rows and all of the tile's BN
//   PINGPONG       64 or 128: the two consumers take the block's tiles in turn, each a whole tile
//                  of that many rows (one or two wgmmas a k-step), so one stores its C while the
//                  other multiplies (default 0: both share every tile, 64 rows each)
//   B_REALIGN      1: B's rows may lie off 16 bytes (N not a multiple of 8): the copy engine brings
//                  them by row class from the 16-byte boundary below, and the producer's other
//                  three warps realign them into the swizzled B slot (b_realign; 16-bit, MN-major B,
//                  not swapped, BN of at most 192) — no pitched copy of B
//   C_PLAIN        1: C's rows may lie off 16 bytes (no tensor map describes them): each staged box
//                  goes to C in place by the consumer's own stores, not the copy engine's
//                  (plain_box) — no pitched copy of C
// and the tile macros (CONSUMERS, BN, STAGES, CLUSTER, ...) as 06 documents them.

#include "tile_order.cuh"   // tile_coords: bands of GROUP_M tile rows
#include "cluster.cuh"      // cluster_rank, cluster_sync

#ifndef CONSUMERS
#define CONSUMERS 2   // consumer warpgroups (1, 2 or 3); each owns 64 rows of the block tile
#endif
#ifndef STAGES
#define STAGES 4
#endif
#ifndef CLUSTER
#define CLUSTER 2     // blocks per cluster sharing (multicasting) one B tile — or A's (SHARE_A, SWAP_AB): 1, 2 or 4
#endif
#ifndef SHARE_A
#define SHARE_A 0     // 1: pairs of the cluster's blocks take neighbouring tiles of one tile row and share A
#endif                // (CLUSTER 2: A, not B; 4: 2×2 tiles, the pairs along M sharing B too; swapped, pairs
                      // along M share B's columns: 1×2, or 2×2 with those along N sharing A's rows)
#ifndef GROUP_M
#define GROUP_M 8     // block tiles walk M first within a band of GROUP_M rows: B tiles stay in L2
#endif
#ifndef STREAM_K
#define STREAM_K 1    // split a last partial round after whole ones along K over every cluster (0: don't)
#endif
#ifndef STREAM_K_DIV
#define STREAM_K_DIV 2   // ... in shares of at least 1/STREAM_K_DIV of a tile (see stream_k_share)
#endif
#ifndef STREAM_K_ROUNDS
#define STREAM_K_ROUNDS 4   // ... only after at least this many whole rounds (0: with none; see stream_k_share)
#endif
#ifndef SPLIT_MIN_SAVED
#define SPLIT_MIN_SAVED 16   // ... when that saves at least this many k-slices (see stream_k_share)
#endif
#ifndef BN
#define BN 256        // the block tile's columns = the wgmma's N: a multiple of 16, 64–256 (swapped: M's, 16–256)
#endif
#ifndef SPLIT_K
#define SPLIT_K 1     // when tiles are at most half the clusters, cut each tile's K (0: don't)
#endif
#ifndef SPLIT_MIN_SLICES
#define SPLIT_MIN_SLICES 4   // ... into pieces of at least this many k-slices
#endif
#ifndef SPLIT_MAX
#define SPLIT_MAX 16  // ... and at most this many pieces (each sums a share of all p: split_epilogue)
#endif
#ifndef SPLIT_ROUNDS
#define SPLIT_ROUNDS 1   // ... and (more than 1) where tiles are more than half the clusters, pieces of
#endif                   // several tiles in up to this many rounds when that takes a tenth less (split_pieces)
#ifndef SPLIT_LOADS
#define SPLIT_LOADS (CONSUMERS == 3 && BN > 160 ? 8 : 16)   // ... whose sum over 3+ pieces loads about this
#endif                // many 16-byte partials at once (split_epilogue; 8 for 192 × 176 and 192 × 192: registers)

#ifndef PROMOTE
#define PROMOTE 0     // N > 0: the MMAs accumulate N slices, then fp32 adds (see the top)
#endif
#ifndef WAIT_DEPTH
#define WAIT_DEPTH 0  // 1: a consumer keeps one slice's MMAs in flight while it issues the next
#endif
static_assert(!PROMOTE || BN <= 128, "promotion doubles the accumulators: BN of at most 128");
static_assert(!(PROMOTE && WAIT_DEPTH), "promotion reads the MMAs' sums after every batch: WAIT_DEPTH 0");
static_assert(WAIT_DEPTH == 0 || WAIT_DEPTH == 1, "WAIT_DEPTH is 0 or 1");
static_assert(!WAIT_DEPTH || STAGES >= 2, "WAIT_DEPTH 1 frees a stage one slice late: it needs two stages or more");
#ifndef SWAP_AB
#define SWAP_AB 0     // 1: C's transpose, Bᵀ·Aᵀ — N along the wgmma's 64 rows, M (≤ BN) along its n
#endif
#ifndef PINGPONG
#define PINGPONG 0    // 64, 128: each consumer a whole tile of these rows, the two in turn (see the top)
#endif
#ifndef C_PARTS
#define C_PARTS 1     // swapped past 64 of M: C's box holds BN / C_PARTS rows, 2·C_PARTS in turn (store_c)
#endif
#ifndef COOP
#define COOP 0    // N > 0: two consumers side by side along the wgmma's n, each over all COOP·64 rows (TILE_N)
#endif
// 64-row wgmma blocks in one consumer's share of a tile: its accumulators are ATOMS × BN/2 a thread.
constexpr int ATOMS = PINGPONG ? PINGPONG / 64 : COOP ? COOP : 1;
static_assert(PINGPONG == 0 || PINGPONG == 64 || PINGPONG == 128,
              "PINGPONG is 0, 64 or 128 (rows of a consumer's tile)");
static_assert(!PINGPONG || (CONSUMERS == 2 && !SWAP_AB && !PROMOTE && ATOMS * BN <= 256),
              "PINGPONG: two consumers, not swapped, no promotion, at most 128 accumulators a thread (ATOMS × BN/2)");
// The consumers that work on one unit (a tile or a piece of one): all of them, 64 rows each —
// or, taking turns (PINGPONG), only the unit's own.
constexpr int TEAM = PINGPONG ? 1 : CONSUMERS;
#ifndef B_REALIGN
#define B_REALIGN 0   // 1: B read in place at any row pitch, realigned in shared memory (see b_realign)
#endif
#ifndef C_PLAIN
#define C_PLAIN 0     // 1: C stored in place at any row pitch by the consumers' threads (see plain_box)
#endif
static_assert(!B_REALIGN || (WG_ELEM_BYTES == 2 && !WG_B_KMAJOR && !SWAP_AB && !SHARE_A && !PINGPONG &&
                             CONSUMERS <= 2 && BN <= 192 && BN % 64 == 0),
              "B_REALIGN: 16-bit inputs, B MN-major, not swapped, no SHARE_A or PINGPONG, one or two consumers, "
              "BN 64, 128 or 192 (a class box row, BN + 8 elements, is at most 256; its chunks divide 96 threads)");

// Every operand row in shared memory is one 128-byte swizzle row: BK elements of WG_ELEM_BYTES.
constexpr int BM = PINGPONG ? PINGPONG : COOP ? 64 * COOP : 64 * CONSUMERS, BK = 128 / WG_ELEM_BYTES;
// The block tile's columns (swapped: M's). BN is the wgmma's n, a consumer's columns — all the tile's,
// but with COOP (cuBLAS's "coopB" swapped tiles, 192 or 320 of N by 128–160 of M, Nsight Compute on
// the H200: docs/results/2026-12-05-h200-survey-7/; unswapped, its "coopA"): there the two
// consumers split the tile's columns, BN each, and each takes all of its COOP 64-row blocks
// (ATOMS), one wgmma a block and k-step — where without it each consumer owns 64 rows and all of
// the tile's columns. Unswapped, consumer c's columns are B boxes c·BN/64 on (BN a multiple of 64).
constexpr int TILE_N = COOP ? CONSUMERS * BN : BN;
static_assert(!COOP || !SWAP_AB || TILE_N / (CLUSTER / (SHARE_A ? 2 : 1)) <= 256, "COOP swapped: A's box (TILE_N over "
              "the blocks along N) of at most 256 rows");
static_assert(!COOP || (CONSUMERS == 2 && !PINGPONG && !PROMOTE && !SPLIT_K && C_PARTS == 1 && !B_REALIGN &&
                        COOP >= 1 && COOP <= 5 && COOP * BN <= 320 &&
                        (SWAP_AB || (BN % 64 == 0 && BM / (SHARE_A ? 2 : 1) <= 256))),
              "COOP: two consumers, no PINGPONG, PROMOTE, split-K (its sum reads one block of rows), C_PARTS or "
              "B_REALIGN, 1 to 5 blocks of 64 rows, at most 160 accumulators a thread (COOP × BN ≤ 320); "
              "unswapped, BN a multiple of 64 and A's box (COOP · 64 rows over the blocks along N) of at most 256");
constexpr int K_STEPS = 128 / 32;   // wgmma k-steps per slice: each reads 32 bytes of every row
constexpr int THREADS = 128 * (CONSUMERS + 1);
// Registers a thread after setmaxnreg: the producer gives its own to the consumers. Each SM
// quarter (16384 registers) runs one warp of every warpgroup: 40 + 2 × 232 = 504 a lane with two
// consumers (168 each at launch: 65536 / 384), 24 + 3 × 160 = 504 with three (128 at launch: the
// cubin says 128 either way). ptxas allocates the consumers' code up to the count setmaxnreg
// grants them: three consumers — 192-row tiles — hold 64 × 192's 96 accumulators in 160 (their
// SASS uses up to R143 with split-K's sum loading 8 partials at once; 16 at once spill 5 kB:
// SPLIT_LOADS; swapped, 8 from 176 of M, where 16 spill 8–12 bytes). A producer of one warp
// instead, for 416 threads of 152 registers with no setmaxnreg, cannot launch: a quarter would
// run four warps, 4 × 32 × 152 > 16384.
static_assert(CONSUMERS >= 1 && CONSUMERS <= 3, "CONSUMERS is 1, 2 or 3");
// Swapped, three consumers hold BN / 2 accumulators too: up to 192 of M, none spilled (NVRTC 13.5).
static_assert(CONSUMERS < 3 || (!PINGPONG && !PROMOTE && BN <= 192 && (BN <= 160 || SPLIT_LOADS <= 8) &&
                                SPLIT_ROUNDS == 1),
              "three consumers: no PINGPONG or PROMOTE, BN of at most 192, SPLIT_LOADS at most 8 past 160, split-K in "
              "one round (SPLIT_ROUNDS 1: more spilled at 192 × 192)");
// Realigning B (B_REALIGN), the producer's warps shift rows too: 56 registers, the consumers 224 —
// with one consumer, 160 (160 + 232: a quarter has registers to spare).
constexpr int PRODUCER_REGS = CONSUMERS == 3 ? 24 : B_REALIGN ? (CONSUMERS == 1 ? 160 : 56) : 40,
              CONSUMER_REGS = CONSUMERS == 3 ? 160 : B_REALIGN && CONSUMERS == 2 ? 224 : 232;
// SWAP_AB: the "A" slot holds BM columns of B (one 64-column box per consumer — COOP: COOP boxes, read
// by both) and the "B" slot TILE_N rows of A — the block tile is BM of N by TILE_N of M.
// Unswapped, B arrives in 64-column boxes (07: boxes of 64 rows of N), one 128-byte swizzle atom
// wide each, TILE_N of them. Where BN is no multiple of 64 the last box still comes whole, and the
// wgmma's n stops BN into the atoms: the box's columns past BN (the next tile's, or zeros past N)
// are never read.
constexpr int B_BOXES = (TILE_N + 63) / 64;
constexpr int A_BYTES = BM * 128, B_BOX_BYTES = 64 * 128, B_BYTES = SWAP_AB ? TILE_N * 128 : B_BOXES * B_BOX_BYTES;
#ifndef A_ROWS
#define A_ROWS 0      // rows of A the copy engine loads a slice (0: all BM) — see A_LOAD_ROWS
#endif
// With M far below BM (M ≤ 16 against a 64-row wgmma) the copy engine would fill BM - M rows of
// zeros every slice; loading only A_ROWS leaves the rest of the A slot stale, which changes only
// C's rows past A_ROWS — never stored, since they are past M too.
constexpr int A_LOAD_ROWS = A_ROWS ? A_ROWS : BM;
static_assert(A_LOAD_ROWS % 8 == 0 && A_LOAD_ROWS <= BM, "A_ROWS: whole 8-row swizzle atoms, at most BM");
// A cluster's blocks along M (sharing B) and along N (sharing A): CLUSTER × 1, or with SHARE_A
// pairs along N — 1 × 2 or 2 × 2 (swapped, along the tile's own rows and columns: N and M).
// Rank r is block (r % CM, r / CM) of the cluster's tiles.
static_assert(CLUSTER == 1 || CLUSTER == 2 || (CLUSTER == 4 && !PINGPONG), "CLUSTER is 1, 2 or 4 (not taking turns)");
static_assert(!SHARE_A || ((CLUSTER == 2 || CLUSTER == 4) && !A_ROWS && !PINGPONG && (!SWAP_AB || CONSUMERS >= 2)),
              "SHARE_A: clusters of 2 or 4, no A_ROWS, no PINGPONG; swapped, two or three consumers (their boxes of B's "
              "columns dealt between a pair)");
constexpr int CN = SHARE_A ? 2 : 1, CM = CLUSTER / CN;
// Sharing A, each block of a pair copies its half of A's rows — one box — for both.
constexpr int A_BOX_ROWS = A_LOAD_ROWS / CN;
// B_REALIGN: a stage also holds the copy engine's boxes of B's rows before they are realigned —
// 8 row classes (k mod 8) of 8 rows, each row BN + 8 elements from the 16-byte boundary at or
// below the tile's first column (b_realign). (BN + 8) × 128 bytes: a whole number of 1024.
constexpr int B_CLASS_ROW_BYTES = (BN + 8) * 2, B_CLASS_BYTES = 8 * B_CLASS_ROW_BYTES,
              B_STAGING_BYTES = B_REALIGN ? 8 * B_CLASS_BYTES : 0;
constexpr int STAGE_BYTES = A_BYTES + B_BYTES + B_STAGING_BYTES;
// C leaves through shared memory in 64-row × 32-column fp32 boxes (one 128-byte swizzle row
// each), two buffers per consumer so one can fill while the copy engine reads the other.
// Swapped, a consumer's two boxes are the two halves of its 64 columns, BN rows (M) each. Past
// 64 rows a second box of BN × 128 bytes would cost the ring a stage or two (C_BUFFER_BYTES,
// wgmma.wgmma_smem_bytes), so there is one, the halves taking it in turn (store_c) at the price
// of one wait a tile for the copy engine to read the first; up to 64 the 8 stages fit with two.
// With C_PARTS, the box is BN / C_PARTS rows and each half goes out in C_PARTS of them, in turn:
// 2·C_PARTS − 1 waits a tile, for a stage more — in each of the tiles cuBLAS was seen to run on
// the H200 it holds one stage more than 06's swapped form of it with a whole box
// (docs/results/2026-12-04-cpu-swapped-store/). Timed there, the stage was worth at most 2.5 %
// and no pick uses it (docs/results/2026-12-05-h200-swapped-wide/): a knob for tune_ladder.
#ifndef WG_OUT_BYTES
#define WG_OUT_BYTES 4
#endif
static_assert(C_PARTS >= 1 && (C_PARTS == 1 || (SWAP_AB && BN > 64 && BN % (8 * C_PARTS) == 0)),
              "C_PARTS > 1: swapped tiles of more than 64 of M, BN / C_PARTS a multiple of 8 rows");
constexpr int C_BOX_COLS = 128 / WG_OUT_BYTES, C_BOX_ROWS = SWAP_AB && BN > 64 ? BN / C_PARTS : 64;
constexpr int C_BOX_BYTES = C_BOX_ROWS * 128, C_BUFFER_BYTES = (SWAP_AB && BN > 64 ? 1 : 2) * C_BOX_BYTES;
// Dynamic shared memory (the registry's geometry must agree): 1 KiB of slack to align the
// stages to the 1024-byte swizzle atom, the stages, the C buffers, then the 2×STAGES mbarriers
// (3×STAGES realigning B: `landed` too).
constexpr int SMEM_BYTES = 1024 + STAGES * STAGE_BYTES + CONSUMERS * C_BUFFER_BYTES + (B_REALIGN ? 3 : 2) * STAGES * 8;
static_assert(SMEM_BYTES <= 227 * 1024, "more shared memory than an sm_90 block can have");
static_assert(SWAP_AB || (BN % 16 == 0 && BN >= 64), "unswapped, BN is a multiple of 16 from 64 (C_BOX_COLS of bf16)");
static_assert(!SWAP_AB || (WG_ELEM_BYTES == 2 && !WG_B_KMAJOR && WG_OUT_BYTES == 4 && BN % (4 * CM) == 0 &&
                           !A_ROWS),   // (three consumers' BN: the CONSUMERS assert above)
              "SWAP_AB: 16-bit inputs with B MN-major (wgmma transposes A' only for those), fp32 C, BN a multiple of "
              "4 × CM (each block of a cluster along N copies BN / CM of A's rows, at least 4), no A_ROWS");
// Split-K partial sums: each consumer thread's BN/2 accumulators as float4s, thread-interleaved
// (float4 j of thread t at j·(consumer threads) + t): coalesced writes and reads, no layout change.
// (Tiles taken in turn run whole and have none: split_pieces.)
constexpr int CONSUMER_THREADS = 128 * CONSUMERS, PARTIAL_FLOATS = BM * BN;
// A consumer's C boxes (what store_c stores one TMA copy at a time), and the box that thread t's
// accumulator group j (d[4j..4j+3], the layout above store_c) falls in: a box is C_BOX_COLS
// columns of the consumer's 64 rows; swapped, BN rows (M) × 32 columns (N) — warps 0–1 hold the
// first 32 of the consumer's 64 N, warps 2–3 the second (each half stored as C_PARTS boxes of
// BN / C_PARTS rows; a split tile's share is whole halves).
#if SWAP_AB
constexpr int C_BOXES = 2, C_TAIL = 0;
__device__ __forceinline__ int c_box(int, int t) { return t % 128 / 64; }
#else
// Unswapped, a consumer's C leaves in boxes of C_BOX_COLS columns; where BN is no multiple of that
// (C_TAIL: fp32 C 16 past a multiple of 32, bf16 16, 32 or 48 past one of 64), the last box starts
// C_BOX_COLS before BN, over the previous box's last columns, so that no box writes past the tile
// into the next one's columns (c_box_col). The columns both boxes hold are stored with the same
// values (the same accumulators; under split-K one piece sums both boxes: split_epilogue); added
// (stream-K), the last box holds zeros there (store_c).
constexpr int C_BOXES = (BN + C_BOX_COLS - 1) / C_BOX_COLS, C_TAIL = BN % C_BOX_COLS != 0;
__device__ __forceinline__ int c_box(int j, int) { return j / (C_BOX_COLS / 8); }
__host__ __device__ constexpr int c_box_col(int q) {   // box q's first column in the tile
    return q * C_BOX_COLS < BN - C_BOX_COLS ? q * C_BOX_COLS : BN - C_BOX_COLS;
}
#endif
__host__ __device__ constexpr int gcd(int a, int b) { return b ? gcd(b, a % b) : a; }

// The accumulators: fp32, or s32 for integer inputs (WG_INT_ACC); acc4 is four of them.
#if WG_INT_ACC
typedef int acc_t;
typedef int4 acc4;
__device__ __forceinline__ acc4 make_acc4(int x, int y, int z, int w) { return make_int4(x, y, z, w); }
#define ACC "+r"
#else
typedef float acc_t;
typedef float4 acc4;
__device__ __forceinline__ acc4 make_acc4(float x, float y, float z, float w) { return make_float4(x, y, z, w); }
#define ACC "+f"
#endif
// Two accumulators into shared memory as C stores them — times scale_a · scale_b first for FP8
// (WG_SCALED).
__device__ __forceinline__ void st_pair(unsigned at, float x, float y, float scale) {
    if (WG_SCALED) x *= scale, y *= scale;
#if WG_OUT_BYTES == 2   // cvt packs its first source into the high half: y, x puts x first in memory
    unsigned pair;
    asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(pair) : "f"(y), "f"(x));
    asm volatile("st.shared.b32 [%0], %1;" ::"r"(at), "r"(pair));
#else
    asm volatile("st.shared.v2.f32 [%0], {%1, %2};" ::"r"(at), "f"(x), "f"(y));
#endif
}
__device__ __forceinline__ void st_pair(unsigned at, int x, int y, float) {
    asm volatile("st.shared.v2.s32 [%0], {%1, %2};" ::"r"(at), "r"(x), "r"(y));
}

struct alignas(64) TensorMap { unsigned long long opaque[16]; };   // CUtensorMap, 128 bytes

// -- mbarrier and TMA -------------------------------------------------------------------------

__device__ __forceinline__ void mbar_init(unsigned bar, unsigned count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count));
}
__device__ __forceinline__ void mbar_expect_tx(unsigned bar, unsigned bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
}
// Spin until the barrier's phase with this parity has completed. A fresh barrier counts its
// (never run) previous phase as complete, so waiting on parity 1 passes at once: that is how
// the producer's first lap finds every stage free.
__device__ __forceinline__ void mbar_wait(unsigned bar, unsigned parity) {
    unsigned done = 0;
    while (!done)
        asm volatile(
            "{\n .reg .pred p;\n"
            " mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
            " selp.u32 %0, 1, 0, p;\n}" : "=r"(done) : "r"(bar), "r"(parity) : "memory");
}
__device__ __forceinline__ void tma_load_2d(unsigned dst, const TensorMap* map, int c0, int c1, unsigned bar) {
    // c0 is the innermost (contiguous) coordinate, in elements; completion is counted in bytes on bar.
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
        ::"r"(dst), "l"(map), "r"(c0), "r"(c1), "r"(bar) : "memory");
}
// The same box written to every block of the cluster in `mask`, at the same shared-memory
// offsets, each block's barrier at `bar` counting the bytes it received.
__device__ __forceinline__ void tma_load_2d_multicast(unsigned dst, const TensorMap* map, int c0, int c1,
                                                      unsigned bar, unsigned mask) {
#if CLUSTER > 1
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
        " [%0], [%1, {%2, %3}], [%4], %5;"
        ::"r"(dst), "l"(map), "r"(c0), "r"(c1), "r"(bar), "h"((unsigned short)mask) : "memory");
#else
    tma_load_2d(dst, map, c0, c1, bar);
#endif
}
// Bring a tensor map (a kernel parameter) into the copy engine's descriptor cache now, so the
// first copies do not wait for its fetch.
__device__ __forceinline__ void prefetch_map(const TensorMap* map) {
    asm volatile("prefetch.tensormap [%0];" ::"l"(map) : "memory");
}

#ifndef A_EDGE
#define A_EDGE 4   // a box of A that runs past M's last row is copied as up to this many 8-row boxes (0: whole)
#endif
// A box of A is `box` rows from row0; a tile at M's edge needs only the first M - row0 of them.
// Copied whole, the copy engine fills the rest with zeros, which cost it more than rows: at M = 72
// (a second row of 64-row tiles with 8 real rows) 06 took 28.7 µs against 18.2 at M = 128, with
// the same tiles and the same B (H200, fp16, N = K = 4096, one consumer's 64×64 tiles;
// docs/results/2026-12-01-h200-a-edge/, run 2). So such a box is copied as the 8-row boxes of map8
// that hold real rows, if A_EDGE of them or fewer do: 72×4096×4096 then took 18.1 µs (29.0 whole),
// 136×4096×4096 20.8 (26.8), 80×1024×8192 14.8 (16.5) — but where the edge row is half the tiles
// or more, five boxes or more took longer than the whole box, each a copy of its own to issue
// (100×4096×4096 in 5: 25.8 against 23.6 µs, 120×2560×2048 in 7: 17.5 against 11.1,
// 1001×1003×997 in 6: 29.8 against 27.4; at 2000×3000×1000 in 10 and 3001×2999×1025 in 16, within
// 1 %; run 4). The rest of the slot is left as it was: stale rows of A change only rows of C past
// M, which are never stored (the copy engine clips C's boxes at M) — each row of C is its row of
// A times B. a_rows: the rows of the box to copy (`box`: whole — also where 8-row boxes would
// bring as many bytes); a_copy_bytes: what they bring (the 8-row boxes whole, zeros past M included).
__device__ __forceinline__ int a_rows(int M, int row0, int box) {
    const int real = min(max(M - row0, 0), box);
    return A_EDGE && (real + 7) / 8 * 8 < box && (real + 7) / 8 <= A_EDGE ? real : box;   // (A_EDGE 0: whole)
}
#ifndef A_SHIFT
#define A_SHIFT 0   // 1: a 64-row tile at M's edge copies A's last 64 rows, not a box past M (a_rows' boxes)
#endif
// Better than any box past M, where a tile is one consumer's 64 rows (BM = 64, unswapped) and M has
// 64: the last 64 rows of A, all real — no zeros for the copy engine to fill, no 8-row boxes to
// issue. The tile's accumulators then hold C's rows M − 64 .. M − 1, `shift` (64 − its real rows)
// above its own first row, and store_c writes accumulator row r to the C box's row r − shift: its
// real rows land in place, the rows above (the tile before's, which that tile stores) wrap to the
// box's last `shift` rows — past M, clipped by the copy engine. No row of C is written twice, so
// adds (stream-K) and split-K's sums are as before. a_shift: the rows the tile's box of A starts
// above row0 (0 for a tile with M − row0 ≥ 64 real rows, or none, or where the form does not
// shift). Bit for bit the same C as the boxes past M. But no faster where picked: on the 57 shapes
// of scripts/shapes/a_shift.txt (picks of 64-row tiles with M past whole tiles) the picks took
// 0.90–1.05× their time without it, 1.003× in all — slower at 7 of 9 where the edge holds 8 rows
// or fewer (one 8-row box: 1.01–1.05×), faster at 151×1866×1691 (0.90×) and 330×1268×3615
// (0.95×) (H100, fp16; docs/results/2026-12-07-h100-narrow-64-stages-13/, run 2). So it is off
// unless asked — as one consumer's 64 × 64 pairs with 13 stages ask where picked
// (wgmma.NARROW_PAIRS_CONFIG): over whole K at 96×4096×4096 they took 18.9 µs with it, 26.1 with
// the boxes past M (run 3).
constexpr bool A_SHIFTS = A_SHIFT && BM == 64 && !SWAP_AB && !A_ROWS;   // (the forms that shift)
__device__ __forceinline__ int a_shift(int M, int row0) {
    const int real = M - row0;
    return A_SHIFTS && M >= 64 && real > 0 && real < 64 ? 64 - real : 0;
}
__device__ __forceinline__ unsigned a_copy_bytes(int rows, int box) {
    return (rows == box ? box : (rows + 7) / 8 * 8) * 128;
}
// The first `rows` of A's box at (k, row0) into dst — one box, or 8-row boxes — to the blocks in
// `mask` (multicast; 0: this block alone).
__device__ __forceinline__ void a_copy(unsigned dst, const TensorMap* map, const TensorMap* map8, int k, int row0,
                                       int rows, int box, unsigned bar, unsigned mask) {
    auto one = [&](unsigned to, const TensorMap* m, int r) {
        if (mask) tma_load_2d_multicast(to, m, k, r, bar, mask);
        else tma_load_2d(to, m, k, r, bar);
    };
    if (rows == box) one(dst, map, row0);
    else
        for (int r = 0; r < rows; r += 8) one(dst + r * 128, map8, row0 + r);
}
__device__ __forceinline__ void mbar_arrive(unsigned bar) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}
// Arrive on the barrier at the same offset in block `rank` of the cluster (this block included).
__device__ __forceinline__ void mbar_arrive_cluster(unsigned bar, unsigned rank) {
    asm volatile(
        "{\n .reg .b32 remote;\n"
        " mapa.shared::cluster.u32 remote, %0, %1;\n"
        " mbarrier.arrive.shared::cluster.b64 _, [remote];\n}" ::"r"(bar), "r"(rank) : "memory");
}
// Shared memory → global through the copy engine: the box at `src` lands at (c0, c1) of the
// map's matrix — stored, or added to what is there (an fp32 add done at L2). The thread that
// issues them commits them as a group and later waits for its groups — `.read`: until at most
// N of them are still reading shared memory.
__device__ __forceinline__ void tma_store_2d(const TensorMap* map, unsigned src, int c0, int c1) {
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];"
                 ::"l"(map), "r"(c0), "r"(c1), "r"(src) : "memory");
}
__device__ __forceinline__ void tma_add_2d(const TensorMap* map, unsigned src, int c0, int c1) {
    asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%1, %2}], [%3];"
                 ::"l"(map), "r"(c0), "r"(c1), "r"(src) : "memory");
}
__device__ __forceinline__ void bulk_commit() { asm volatile("cp.async.bulk.commit_group;" ::: "memory"); }
template <int N> __device__ __forceinline__ void bulk_wait_read() {
    asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(N) : "memory");
}
template <int N> __device__ __forceinline__ void bulk_wait() {
    asm volatile("cp.async.bulk.wait_group %0;" ::"n"(N) : "memory");
}
// Plain st.shared writes become visible to the copy engine (the async proxy) only after this.
__device__ __forceinline__ void fence_proxy_async() {
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

// -- wgmma ------------------------------------------------------------------------------------

// Shared-memory matrix descriptor. Its low word: the start address and the leading-dimension
// byte offset (both >> 4); its high word: the stride-dimension byte offset (>> 4: 8-row atoms
// 1024 bytes apart, in every operand here) and the swizzle mode (1 = 128-byte) in bits 62-63.
__device__ __forceinline__ unsigned smem_desc_lo(unsigned addr, unsigned lbo) {
    return ((addr & 0x3FFFF) >> 4) | (lbo >> 4) << 16;
}
__device__ __forceinline__ unsigned long long smem_desc(unsigned lo) {
    return (unsigned long long)(1024 >> 4 | 1u << 30) << 32 | lo;
}

#define D8(i) ACC(d[i]), ACC(d[i + 1]), ACC(d[i + 2]), ACC(d[i + 3]), \
              ACC(d[i + 4]), ACC(d[i + 5]), ACC(d[i + 6]), ACC(d[i + 7])

// d += A(64×WG_K, K-major) · B(WG_K×BN): m64nBNkWG_K of the types WG_TYPES, BN/2 accumulators per
// thread, the trailing immediates WG_IMM (scale-d 1 = accumulate, then the type's own). Inline
// asm cannot loop over operands, so the accumulators' operand numbers are spelled out, 16 columns
// (8 registers) a line: WG_REGS_n names the first n/2, WG_OUTS_n binds them to d, and the two
// descriptors come after them (WG_DESCS_n). Every BN that is a multiple of 16 up to 256 builds:
// 06's own tiles take 64 to 256 in steps of 64; swapped (SWAP_AB), M's tile any of them.
#define WG_REGS_16 "%0, %1, %2, %3, %4, %5, %6, %7"
#define WG_REGS_32 WG_REGS_16 ", %8, %9, %10, %11, %12, %13, %14, %15"
#define WG_REGS_48 WG_REGS_32 ", %16, %17, %18, %19, %20, %21, %22, %23"
#define WG_REGS_64 WG_REGS_48 ", %24, %25, %26, %27, %28, %29, %30, %31"
#define WG_REGS_80 WG_REGS_64 ", %32, %33, %34, %35, %36, %37, %38, %39"
#define WG_REGS_96 WG_REGS_80 ", %40, %41, %42, %43, %44, %45, %46, %47"
#define WG_REGS_112 WG_REGS_96 ", %48, %49, %50, %51, %52, %53, %54, %55"
#define WG_REGS_128 WG_REGS_112 ", %56, %57, %58, %59, %60, %61, %62, %63"
#define WG_REGS_144 WG_REGS_128 ", %64, %65, %66, %67, %68, %69, %70, %71"
#define WG_REGS_160 WG_REGS_144 ", %72, %73, %74, %75, %76, %77, %78, %79"
#define WG_REGS_176 WG_REGS_160 ", %80, %81, %82, %83, %84, %85, %86, %87"
#define WG_REGS_192 WG_REGS_176 ", %88, %89, %90, %91, %92, %93, %94, %95"
#define WG_REGS_208 WG_REGS_192 ", %96, %97, %98, %99, %100, %101, %102, %103"
#define WG_REGS_224 WG_REGS_208 ", %104, %105, %106, %107, %108, %109, %110, %111"
#define WG_REGS_240 WG_REGS_224 ", %112, %113, %114, %115, %116, %117, %118, %119"
#define WG_REGS_256 WG_REGS_240 ", %120, %121, %122, %123, %124, %125, %126, %127"
#define WG_OUTS_16 D8(0)
#define WG_OUTS_32 WG_OUTS_16, D8(8)
#define WG_OUTS_48 WG_OUTS_32, D8(16)
#define WG_OUTS_64 WG_OUTS_48, D8(24)
#define WG_OUTS_80 WG_OUTS_64, D8(32)
#define WG_OUTS_96 WG_OUTS_80, D8(40)
#define WG_OUTS_112 WG_OUTS_96, D8(48)
#define WG_OUTS_128 WG_OUTS_112, D8(56)
#define WG_OUTS_144 WG_OUTS_128, D8(64)
#define WG_OUTS_160 WG_OUTS_144, D8(72)
#define WG_OUTS_176 WG_OUTS_160, D8(80)
#define WG_OUTS_192 WG_OUTS_176, D8(88)
#define WG_OUTS_208 WG_OUTS_192, D8(96)
#define WG_OUTS_224 WG_OUTS_208, D8(104)
#define WG_OUTS_240 WG_OUTS_224, D8(112)
#define WG_OUTS_256 WG_OUTS_240, D8(120)
#define WG_DESCS_16 "%8, %9"
#define WG_DESCS_32 "%16, %17"
#define WG_DESCS_48 "%24, %25"
#define WG_DESCS_64 "%32, %33"
#define WG_DESCS_80 "%40, %41"
#define WG_DESCS_96 "%48, %49"
#define WG_DESCS_112 "%56, %57"
#define WG_DESCS_128 "%64, %65"
#define WG_DESCS_144 "%72, %73"
#define WG_DESCS_160 "%80, %81"
#define WG_DESCS_176 "%88, %89"
#define WG_DESCS_192 "%96, %97"
#define WG_DESCS_208 "%104, %105"
#define WG_DESCS_224 "%112, %113"
#define WG_DESCS_240 "%120, %121"
#define WG_DESCS_256 "%128, %129"
#define WG_CAT(a, b) a##b
#define WG_OF(table, n) WG_CAT(table, n)   // WG_REGS_ ## the value of BN
#define WG_STR(n) #n
#define WG_STR_OF(n) WG_STR(n)
static_assert(BN % 16 == 0 && BN >= 16 && BN <= 256, "BN (the wgmma's n) is a multiple of 16 up to 256");
__device__ __forceinline__ void wgmma_step(acc_t (&d)[BN / 2], unsigned long long a, unsigned long long b) {
    asm volatile("wgmma.mma_async.sync.aligned.m64n" WG_STR_OF(BN) "k" WG_K "." WG_TYPES " {" WG_OF(WG_REGS_, BN)
                 "}, " WG_OF(WG_DESCS_, BN) ", " WG_IMM ";"
                 : WG_OF(WG_OUTS_, BN)
                 : "l"(a), "l"(b));
}
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
template <int N> __device__ __forceinline__ void wgmma_wait() {
    asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory");
}

// -- the kernel -------------------------------------------------------------------------------

// Stream-K's share: the k-slices each cluster takes of the last, partial round of `tiles`, or 0
// to run them whole. Split evenly, the partial round ends after rem·KT/clusters slices instead of
// KT. But a split costs each cluster a second epilogue, a wait and an add of 128 KiB into C at
// L2: on the H200 it lost 2.6 % at 4096³ (7 of 64 slices saved) and won 2–4 % at 8192³ (62 of
// 128), so it is taken only when it saves SPLIT_MIN_SAVED slices or more; and a tile is cut at
// most in STREAM_K_DIV + 1 pieces (the share is at least 1/STREAM_K_DIV of a tile; 2 by
// default). And only after STREAM_K_ROUNDS whole rounds. On the H200 the tiles run whole won or
// tied wherever fewer came first — alone, 384×4096×4096 took 36.5 µs cut in stretches and 26.3
// µs whole, 128×11008×4096 36.2 against 31.3 (docs/results/2026-11-30-h200-stream-k/); after one,
// 384×14336×4096's 128×192 tiles 72.5 µs whole against 85.9 cut (saving 18 of 128 slices), and
// 256×14336×4096 ran 0.98–0.99× cuBLAS in whole 128×256 tiles against 0.95× in 128×128 ones cut
// after one round — while after fifteen (8192³) cutting won 5.7 %. Between (3 to 14) is not
// measured; 4 is just past what measured slower cut
// (docs/results/2026-11-30-h200-split-share-whole-rounds/). Our reading, not profiled: whole,
// the tiles that share a panel of B read it at the same k, together; in stretches, at different k.
__device__ __forceinline__ int stream_k_share(int tiles, int KT, int clusters) {
    const int rem = tiles % clusters;
    if (!STREAM_K || WG_OUT_BYTES != 4 || rem == 0 || tiles < STREAM_K_ROUNDS * clusters) return 0;   // (bf16 C: see WG_OUT_BYTES)
    const int share = max((rem * KT + clusters - 1) / clusters, (KT + STREAM_K_DIV - 1) / STREAM_K_DIV);
    return KT - share >= SPLIT_MIN_SAVED ? share : 0;
}

// Split-K's pieces per tile, or 1: when the tiles fill at most half the clusters (small M or N,
// long K), a tile's KT slices are cut in p even pieces, one per cluster, so that p·tiles clusters
// work instead of `tiles` — each piece at least SPLIT_MIN_SLICES long, at most SPLIT_MAX of them.
// With SPLIT_ROUNDS > 1, more tiles than that may be cut too: the clusters take the pieces of
// clusters / p tiles a round (split_round_tiles), so 86 tiles on 132 clusters run as 3 pieces
// in 2 rounds — 2/3 of a tile's time by this count, not 1 — p the one whose rounds / p is least,
// taken only if a tenth less than the whole tiles' rounds (a split tile's sum costs its pieces).
// Measured (H200, M ≤ 32 against a large B, where 06's swapped tiles leave SMs idle and cuBLAS
// splits along K): 32×11000×11784 0.81 → 0.86× cuBLAS, but on 14 fresh such shapes no faster
// (0.891 → 0.883×) and at short K slower (1×11008×4096 1.01 → 0.83×): no pick sets it. Stream-K
// over every tile (STREAM_K_ROUNDS=0) was slower still there (0.82 → 0.69×: blocks at different k
// read B's rows apart; docs/results/2026-12-02-h200-small-m-split-rounds/).
__device__ __forceinline__ int split_pieces(int tiles, int KT, int clusters) {
    if (!SPLIT_K || PINGPONG) return 1;   // (its epilogue sums whole 64-row consumer shares of one tile)
    const int p = max(1, min(min(clusters / tiles, KT / SPLIT_MIN_SLICES), SPLIT_MAX));
    if (SPLIT_ROUNDS == 1 || p > 1) return p;
    // (`most` after the return, not shared with p: shared, every build's SASS differs from the form measured)
    const int most = min(KT / SPLIT_MIN_SLICES, SPLIT_MAX);
    const int whole = (tiles + clusters - 1) / clusters;   // rounds of whole tiles
    int best = 1, rounds = whole;                          // least rounds / pieces: r·best < rounds·q
    for (int q = 2; q <= min(most, clusters); ++q)
        if (const int r = (tiles + clusters / q - 1) / (clusters / q); r <= SPLIT_ROUNDS && r * best < rounds * q)
            best = q, rounds = r;
    return 10 * rounds <= 9 * whole * best ? best : 1;
}

// The tiles a round of split-K's pieces takes: all (one round), or with SPLIT_ROUNDS clusters / p
// of them — piece cluster / that of tile cluster % that, + that, ... So a tile's p pieces run in
// one round, at once (split_epilogue waits for them all), by the same p clusters every round.
__device__ __forceinline__ int split_round_tiles(int tiles, int p, int clusters) {
    return SPLIT_ROUNDS == 1 ? tiles : min(tiles, clusters / p);
}

// The cluster's work, in order, as units (tile, first k-slice, end k-slice). Split-K (few tiles):
// at most one unit, piece cluster / tiles of tile cluster % tiles (with SPLIT_ROUNDS one a round
// of split_round_tiles' `per` tiles: piece cluster / per of tile cluster % per, + per, ...) —
// neighbouring clusters take neighbouring tiles of one piece, so the blocks running side by side
// read the same rows of B (and of A) at about the same time: long runs of DRAM, not `tiles`
// scattered row strips. Otherwise whole tiles in rounds (tile = cluster, + clusters, ...) while
// every cluster has one, then — the last round being partial — its stretch [cluster·share,
// +share) of the remaining tiles' k-slices laid end to end. A stretch begins with the tail of
// one tile and ends with the head of another, so a tile's pieces finish in order from its tail
// (its cluster's first unit) to its head (a cluster's last): the tail stores C, each earlier
// piece adds itself once the piece after it is in (a flag per block), in that fixed order — the
// same bits every run. Producer and consumers call this with their own body.
template <class Body>
__device__ __forceinline__ void for_each_unit(int tiles, int KT, int cluster, int clusters, Body&& body) {
    if (const int p = split_pieces(tiles, KT, clusters); p > 1) {
        const int per = split_round_tiles(tiles, p, clusters), piece = cluster / per;
        if (piece >= p) return;
        if constexpr (SPLIT_ROUNDS == 1) body(cluster % tiles, piece * KT / p, (piece + 1) * KT / p);
        else   // (a loop of one round compiles to other code than the form measured before SPLIT_ROUNDS)
            for (int tile = cluster % per; tile < tiles; tile += per) body(tile, piece * KT / p, (piece + 1) * KT / p);
        return;
    }
    const int share = stream_k_share(tiles, KT, clusters);
    const int whole = share ? tiles - tiles % clusters : tiles;
    for (int tile = cluster; tile < whole; tile += clusters) body(tile, 0, KT);
    const int end = min((cluster + 1) * share, (tiles - whole) * KT);
    for (int i = cluster * share; i < end;) {
        const int k0 = i % KT, k1 = min(KT, k0 + end - i);
        body(whole + i / KT, k0, k1);
        i += k1 - k0;
    }
}

// The CONSUMERS × 128 consumer threads only (named barrier 1; the producer never joins), the 128
// threads of consumer c alone (barrier 2 + c), and the threads of c's TEAM (one of the two).
__device__ __forceinline__ void consumers_sync() {
    asm volatile("bar.sync 1, %0;" ::"n"(CONSUMERS * 128) : "memory");
}
__device__ __forceinline__ void warpgroup_sync(int c) {
    asm volatile("bar.sync %0, 128;" ::"r"(2 + c) : "memory");
}
__device__ __forceinline__ void team_sync(int c) {
    if (PINGPONG) warpgroup_sync(c);
    else consumers_sync();
}

// Where C goes: through its tensor map, or (C_PLAIN) to C itself, `rows` × `cols` elements in
// place (rows `cols` apart: the pitch of a C no tensor map takes, whose rows lie off 16 bytes).
struct COut {
    const TensorMap* map;
    void* c;
    int rows, cols;
};

// The rows of a C box the copy engine writes: 64 (a consumer's rows), swapped BN / C_PARTS (of M).
constexpr int C_STORE_ROWS = SWAP_AB ? BN / C_PARTS : 64;

// C_PLAIN: a box store_c has staged, written to C in place by the consumer's 128 threads instead
// of one TMA store — so that a C whose rows lie off 16 bytes is not written to a pitched buffer and
// copied out (three passes over C: 0.61× cuBLAS at 33055×242×594, where A, B and C all were). The
// same bytes land where the copy engine would put them, clipped at M and N as it clips: warp w
// takes the box's rows w, w + 4, ..., and lane l a row's bytes 4l .. 4l + 3 (one fp32 or s32, two
// bf16), so a warp's stores are one row's 128 contiguous bytes; 8 rows' loads go out before their
// stores. `add` adds (stream-K: one piece at a time, in a fixed order, flags between them). The
// stores are the generic proxy's: no fence for the copy engine, no bulk group to wait for.
__device__ __forceinline__ void plain_box(const COut& out, unsigned box, int col0, int row0, int t, bool add) {
    constexpr int BATCH = 8;
    const int w = t % 128 / 32, lane = t % 32, col = col0 + lane * 4 / WG_OUT_BYTES;
    // Row r = r0 + 4b + w of the box (r0 a multiple of 32) has r % 8 = w + 4·(b odd): the lane's
    // chunk lane / 4 lies at one of two swizzled places, r's own 128 bytes on from either. Rows
    // of C: the lane's element of row row0 + w, then 4 rows on each step. (One batch's addresses
    // live at a time — the loop over batches is not unrolled: unrolled, the compiler kept every
    // row's address across the box and spilled, up to 7 KB swapped at 256 of M.)
    const unsigned even = box + w * 128 + ((lane / 4) ^ w) * 16 + lane % 4 * 4,
                   odd = box + w * 128 + ((lane / 4) ^ (w + 4)) * 16 + lane % 4 * 4;
    const int rows = out.rows - row0 - w;   // the box's rows r0 + 4b this warp may store: those below it
    const bool inside = col < out.cols;
    char* at = static_cast<char*>(out.c) + (size_t(row0 + w) * out.cols + col) * WG_OUT_BYTES;
    const size_t step = size_t(4) * out.cols * WG_OUT_BYTES;
#pragma unroll 1
    for (int r0 = 0; r0 < C_STORE_ROWS && r0 < rows; r0 += 4 * BATCH, at += BATCH * step) {
        unsigned v[BATCH];
#pragma unroll
        for (int b = 0; b < BATCH && r0 + 4 * b < C_STORE_ROWS; ++b)   // (C_STORE_ROWS: a multiple of 8)
            asm volatile("ld.shared.b32 %0, [%1];" : "=r"(v[b]) : "r"((b % 2 ? odd : even) + (r0 + 4 * b) * 128));
#pragma unroll
        for (int b = 0; b < BATCH && r0 + 4 * b < C_STORE_ROWS; ++b) {
            if (r0 + 4 * b >= rows) break;
            char* e = at + b * step;
#if WG_OUT_BYTES == 4
            if (!inside) continue;
            if (!add) *reinterpret_cast<unsigned*>(e) = v[b];
            else if (WG_INT_ACC) asm volatile("red.global.add.s32 [%0], %1;" ::"l"(e), "r"(v[b]) : "memory");
            else asm volatile("red.global.add.f32 [%0], %1;" ::"l"(e), "f"(__uint_as_float(v[b])) : "memory");
#else   // bf16, two a lane (never added: no stream-K), each alone — rows of odd N start off 4 bytes
            if (inside) *reinterpret_cast<unsigned short*>(e) = v[b] & 0xffff;
            if (col + 1 < out.cols) *reinterpret_cast<unsigned short*>(e + 2) = v[b] >> 16;
#endif
        }
    }
}

// Consumer c's 64 × BN slice of C: accumulators → a swizzled shared-memory box → the copy
// engine → global, 32 columns at a time, stored or (`add`) added. Written straight from
// registers, each warp store touches 8 rows (8 cache lines) for 256 bytes, and 128 KiB per
// block took ~10 % of the run (H200: 777 vs 713 TFLOP/s at 4096³ without and with them).
// Through shared memory it costs conflict-free st.shared (the row's 16-byte chunk ^ row % 8
// puts a warp's 8 rows on distinct banks) and one TMA store per box, which proceeds while the
// next tile's MMAs run. Thread 0 of the consumer issues them (C_PLAIN: all 128 threads store each
// box themselves, plain_box — where C's rows lie off 16 bytes). Accumulator layout of m64nNk16:
// warp w of the group holds rows 16w..16w+15; lane l holds row l/4 (+8) and columns 2(l%4), +1
// of every 8-column group: d[4j..4j+3] = that pair in row r, then in row r + 8, for group j.
__device__ __forceinline__ void store_c(const COut& out, const acc_t (&d)[BN / 2], unsigned staging,
                                        int c, int t, int col, int row, int shift, bool add, float scale,
                                        unsigned boxes = ~0u) {
#if SWAP_AB
    // The accumulators hold Cᵀ: lane l of warp w has n = 16w + l/4 (+8) and m = 8j + 2(l%4) (+1).
    // Each goes to row m, column n of C: scalar st.shared into boxes of BN rows (m) × 32 columns
    // (n), one per half of this consumer's 64 columns (warps 0–1 hold the first, 2–3 the second),
    // then a TMA store each. Up to 64 rows the two halves fill two boxes at once; wider, the
    // buffer holds one box (C_BUFFER_BYTES: more stages fit) and the halves take it in turn —
    // thread 0 holding the second until the copy engine has read the first (with C_PARTS, each
    // half in C_PARTS boxes of BN / C_PARTS rows, all in turn).
    // Row m = 8j + m0 lies 1024 bytes past row m0 and has its swizzle (m % 8 = m0), so a thread's
    // BN / 2 addresses are four bases (one per e) plus 1024·j, an immediate. Computed from a
    // signed t, the compiler could not see that m % 8 is m0 and kept an address per store live
    // across the tile: ptxas spilled them, 864–928 bytes of spill stores at BN 256 with one or two
    // consumers, 328–356 with three at 160 (NVRTC 13.5; scripts/swapped_spills.py).
    const unsigned w = unsigned(t) % 128 / 32, lane = unsigned(t) % 32;
    // Part p of C_PARTS holds rows 8j of j = p·J ... (p + 1)·J − 1: J = BN / 8 / C_PARTS.
    constexpr int J = BN / 8 / C_PARTS;
    auto fill = [&](unsigned box, unsigned half_bytes, int p) {   // this thread's accumulators of part p, half h
        unsigned base[4];                                         // at box + h·half_bytes
#pragma unroll
        for (int e = 0; e < 4; ++e) {
            const unsigned n = w * 16 + lane / 4 + 8 * (e / 2), m0 = 2 * (lane % 4) + e % 2, nn = n % 32;
            base[e] = box + (n / 32) * half_bytes + m0 * 128 + ((nn / 4) ^ m0) * 16 + (nn % 4) * 4;
        }
#pragma unroll
        for (int jj = 0; jj < J; ++jj)
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                const int j = p * J + jj;   // (p is the unrolled loop's: the accumulators stay registers)
                asm volatile("st.shared.f32 [%0], %1;" ::"r"(base[e] + 1024 * jj),
                             "f"(WG_SCALED ? d[4 * j + e] * scale : d[4 * j + e]));
            }
    };
    auto put = [&](int q, unsigned box, int p) {   // part p of box q (column col + 32q): stored or added
        if (add) tma_add_2d(out.map, box, col + q * 32, row + p * C_BOX_ROWS);
        else tma_store_2d(out.map, box, col + q * 32, row + p * C_BOX_ROWS);
    };
#if BN <= 64
    if (t % 128 == 0) bulk_wait_read<0>();   // both buffers free: the last tile's stores have read them
    warpgroup_sync(c);
    if (boxes >> c_box(0, t) & 1) fill(staging, C_BOX_BYTES, 0);   // (a split tile's share: see split_epilogue)
    if (!C_PLAIN) fence_proxy_async();
    warpgroup_sync(c);
    if (C_PLAIN) {
        for (int q = 0; q < 2; ++q)
            if (boxes >> q & 1) plain_box(out, staging + q * C_BOX_BYTES, col + q * 32, row, t, add);
    } else if (t % 128 == 0) {
        for (int q = 0; q < 2; ++q)
            if (boxes >> q & 1) put(q, staging + q * C_BOX_BYTES, 0);
        bulk_commit();
    }
#else
    for (int q = 0; q < 2; ++q) {
        if (!(boxes >> q & 1)) continue;   // (the same for every thread of the consumer)
#pragma unroll
        for (int p = 0; p < C_PARTS; ++p) {   // (unrolled: fill's accumulators by constant index)
            if (t % 128 == 0) bulk_wait_read<0>();   // the box is free: the stores before have read it
            warpgroup_sync(c);
            if (c_box(0, t) == q) fill(staging, 0, p);
            if (!C_PLAIN) fence_proxy_async();
            warpgroup_sync(c);
            if (C_PLAIN) {
                plain_box(out, staging, col + q * 32, row + p * C_BOX_ROWS, t, add);
            } else if (t % 128 == 0) {
                put(q, staging, p);
                bulk_commit();
            }
        }
    }
#endif
#else
    // r, r8: the box rows of this thread's accumulator rows w·16 + l/4 and 8 below — `shift` rows up
    // (a_shift: at M's edge the tile's A started that far above its first row), the rows above
    // the box's first wrapping to its last, past M (r % 8 = r8 % 8: one swizzle for both)
    // (Only in the forms that shift, A_SHIFTS: elsewhere the code is the same as before A_SHIFT,
    // which the wrap — t is signed — would change in every build.)
    const int w = t % 128 / 32, lane = t % 32, r0 = w * 16 + lane / 4;
    const int r = A_SHIFTS ? (r0 - shift) & 63 : r0, r8 = A_SHIFTS ? (r + 8) & 63 : r + 8;
#pragma unroll
    for (int q = 0; q < C_BOXES; ++q) {
        if (!(boxes >> q & 1)) continue;   // (a split tile's share: see split_epilogue)
        const unsigned buf = staging + (q % 2) * C_BOX_BYTES;
        // The store issued from buf two boxes ago has read it. With an odd number of boxes a
        // tile (bf16 C at BN = 64 or 192), a tile's first box follows the last tile's last out
        // of buffer 0, and with boxes skipped the last store may be from buf: there every store
        // so far must have read its buffer. (A store with boxes skipped — a split tile's share —
        // waits for every earlier one, boxes != ~0u; a block's split units, several with
        // SPLIT_ROUNDS, are all shares, so no full store after one relies on the alternation.)
        if (t % 128 == 0) {
            if ((C_BOXES % 2 && q == 0) || boxes != ~0u) bulk_wait_read<0>();
            else bulk_wait_read<1>();
        }
        warpgroup_sync(c);
#pragma unroll
        for (int jj = 0; jj < C_BOX_COLS / 8; ++jj) {
            const int j = c_box_col(q) / 8 + jj;   // column group: d[4j..4j+3] (the layout above)
            // (C_TAIL's last box: the groups before q's own are the previous box's — added, zeros)
            const bool again = add && j < q * C_BOX_COLS / 8;
#if WG_OUT_BYTES == 4   // a column group is 32 bytes: two chunks, a pair 8 bytes
            const unsigned chunk = 2 * jj + (lane % 4) / 2, at = ((chunk ^ (r % 8)) * 16) + 8 * (lane % 2);
#else                  // bf16: a column group is one 16-byte chunk, a pair 4 bytes
            const unsigned chunk = jj, at = ((chunk ^ (r % 8)) * 16) + 4 * (lane % 4);
#endif
            auto v = [&](int i) { return again ? acc_t(0) : d[4 * j + i]; };
            st_pair(buf + r * 128 + at, v(0), v(1), scale);
            st_pair(buf + r8 * 128 + at, v(2), v(3), scale);
        }
        if (!C_PLAIN) fence_proxy_async();
        warpgroup_sync(c);
        if (C_PLAIN) {
            plain_box(out, buf, col + c_box_col(q), row, t, add);
        } else if (t % 128 == 0) {
            if (add) tma_add_2d(out.map, buf, col + c_box_col(q), row);
            else tma_store_2d(out.map, buf, col + c_box_col(q), row);
            bulk_commit();
        }
    }
#endif
}

// Split-K, after the MMAs of piece `piece` of p of a tile. Each piece sums a share of the tile —
// C boxes piece, piece + p, ... of the tile's (consumer c's boxes are c·C_BOXES ...) — and stores
// it. It writes to the workspace only the partial sums of the boxes other pieces sum, counts
// itself in on the tile's counter, waits until all p have, then adds the others' partials of its
// own boxes to the sums in its registers. Each box's sum has one order, whoever finishes first:
// the owner's partial, then the others' in piece order. Shared, the sum goes at p SMs' speed:
// when the last piece to arrive summed all of it alone it read 512 KiB through one SM at
// 512×512×32768 (H200: 41.7 → 38.5 µs shared; cuBLAS spreads a reduce kernel over the GPU).
// Writing and reading back its own boxes too, with a GPU-wide fence in every thread, took 2 µs
// longer with 2 pieces (1024×1024×8192: 0.865× against 0.923× cuBLAS now, H200, same run).
// The wait needs the tile's p pieces running at once: they are clusters of one persistent grid
// with one unit each (p ≤ clusters / tiles; with SPLIT_ROUNDS one a round, the same p clusters
// taking a tile's pieces every round: split_round_tiles), and the launch refuses a grid the
// device cannot hold whole (tcraw.matmul: cuOccupancyMaxActiveClusters). The sum's loads go out
// many at a time: with 2 pieces all of them at once; with more, about SPLIT_LOADS of them, several
// pieces' partials of one box (a column group at a time put each load's L2 latency in series: 13
// µs of a 32 µs run at 512×4096×4096; one piece's partial of a box at a time, SPLIT_LOADS=1,
// measured up to 26 % slower at 4–16 pieces (1×1024×8192; 512×512×32768 2 %; H200); copying all
// p − 1 into the drained stages at once through the copy engine measured no faster with 8
// pieces, 9 % slower with 16). Every piece counts out after reading; the last resets the counter for the
// next launch.
__device__ __forceinline__ void split_epilogue(acc_t (&d)[BN / 2], acc_t* partials, unsigned* counter, int piece,
                                               int p, int c, int t, const COut& out, unsigned staging,
                                               int col, int row, int shift, float scale) {
    // (C_TAIL's last box goes with the one before, whose columns it overlaps: one piece sums both)
    constexpr int SLOTS = C_BOXES - C_TAIL;
    unsigned share = 0;   // this consumer's boxes that this piece sums
#pragma unroll
    for (int q = 0; q < C_BOXES; ++q)
        if ((c * SLOTS + (q < SLOTS ? q : SLOTS - 1)) % p == piece) share |= 1u << q;
    acc4* mine = reinterpret_cast<acc4*>(partials + piece * PARTIAL_FLOATS) + t;
#pragma unroll
    for (int j = 0; j < BN / 8; ++j)
        if (!(share >> c_box(j, t) & 1))
            __stcg(mine + j * CONSUMER_THREADS, make_acc4(d[4 * j], d[4 * j + 1], d[4 * j + 2], d[4 * j + 3]));
    // Every consumer thread's partials come before the barrier, the barrier before thread 0's
    // release (cumulative: it publishes them all), and its acquire before the barrier that
    // lets every thread read the others'.
    consumers_sync();
    if (t == 0) {
        asm volatile("red.release.gpu.global.add.u32 [%0], 1;" ::"l"(counter) : "memory");
        unsigned in = 0;
        while (in < unsigned(p))   // passes p only once all are in: no piece can miss it
            asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(in) : "l"(counter) : "memory");
    }
    consumers_sync();
    if (share) {
        const acc4* all = reinterpret_cast<const acc4*>(partials) + t;
        auto add = [&](acc4 v, int j) { d[4 * j] += v.x; d[4 * j + 1] += v.y; d[4 * j + 2] += v.z; d[4 * j + 3] += v.w; };
        if (p == 2) {   // one other piece: all its loads at once, one round
            const acc4* theirs = all + (1 - piece) * (PARTIAL_FLOATS / 4);
#pragma unroll
            for (int j = 0; j < BN / 8; ++j)
                if (share >> c_box(j, t) & 1) add(__ldcg(theirs + j * CONSUMER_THREADS), j);
        } else {
            // More: a box's G column groups at a time, the loads of B pieces' partials of them
            // in flight together (G·B of them: SPLIT_LOADS, or G if that is more), then added in
            // piece order.
            // (Swapped, a thread's groups all lie in one box: G is any divisor of BN / 8 — 4 or 2.)
            // Unswapped, G divides both a box's groups and BN / 8 (C_TAIL: 2 at 80, 144, 176 ...).
            constexpr int G = SWAP_AB ? ((BN / 8) % 4 ? 2 : 4) : gcd(BN / 8, C_BOX_COLS / 8);
            constexpr int B = SPLIT_LOADS / G > 1 ? SPLIT_LOADS / G : 1;           // pieces loaded together
            static_assert((BN / 8) % G == 0, "a box's column groups start every G: c_box(j0) is theirs");
#pragma unroll
            for (int j0 = 0; j0 < BN / 8; j0 += G) {
                if (!(share >> c_box(j0, t) & 1)) continue;   // (G groups lie in one box)
                for (int f0 = 0; f0 < p; f0 += B) {
                    acc4 v[B][G];
#pragma unroll
                    for (int b = 0; b < B; ++b)
                        if (const int from = f0 + b; from < p && from != piece)
#pragma unroll
                            for (int g = 0; g < G; ++g)
                                v[b][g] = __ldcg(all + from * (PARTIAL_FLOATS / 4) + (j0 + g) * CONSUMER_THREADS);
#pragma unroll
                    for (int b = 0; b < B; ++b)
                        if (const int from = f0 + b; from < p && from != piece)
#pragma unroll
                            for (int g = 0; g < G; ++g) add(v[b][g], j0 + g);
                }
            }
        }
        store_c(out, d, staging, c, t, col, row, shift, false, scale, share);
    }
    consumers_sync();
    if (t == 0) {   // every piece has read once the count reaches 2p: nothing touches it again this launch
        unsigned before;
        asm volatile("atom.relaxed.gpu.global.add.u32 %0, [%1], 1;" : "=r"(before) : "l"(counter) : "memory");
        if (before == unsigned(2 * p - 1)) *counter = 0;
    }
}

// B_REALIGN: B's rows in place whatever N. A tensor map's rows must lie a multiple of 16 bytes
// apart, and B's are 2N bytes apart — off 16 for N not a multiple of 8, which 06 otherwise
// copies to a pitched buffer first (two more passes over the largest operand: 0.61× cuBLAS at
// 60×15214×11302). But rows k and k + 8 lie 16N bytes apart: read as a matrix of K/8 rows of 8N
// elements ("super-rows", row q holding B's rows 8q .. 8q + 7 end to end), B has a tensor map,
// and B's row 8q + r, column j is its element (q, rN + j). A box's innermost start must lie on 16
// bytes (the H200 faults otherwise: docs/facts.md), so row class r's box starts at the boundary
// at or below rN + col0 and is BN + 8 wide: the tile's columns begin δ_r = rN mod 8 elements in.
// One such box of 8 super-rows per class brings a slice's 64 rows (8 boxes a slice, unswizzled);
// the producer's warps 1–3 then move each row's 16-byte chunks, shifted by δ_r, into the B slot
// with the 128-byte swizzle the MMAs read. Rows past B's last whole 8 are not in the map (its K/8
// super-rows end at B's end): those warps read them from B itself, element by element, and write
// zeros past K and N. Columns past N in the boxes are the next row's elements or zeros; they
// reach only C's columns past N, which are never stored.
// Threads u = 0..95 of warps 1–3: 96 / CHUNKS rows at a time, thread u always chunk u % CHUNKS
// of its rows (CHUNKS, a row's 16-byte chunks, divides 96 at BN 64, 128, 192). With one consumer
// the loop is unrolled and four rows' loads are in flight together (a chunk at a time, each load's
// latency in series, the pass cost more than the pitched copy it replaces: 60×15214×11302 0.58×
// against 0.61×); with two, the producer's 56 registers hold a row at a time. The loads and stores
// are plain C++: the compiler may order them; the mbarrier waits and the fence it may not cross.
constexpr int REALIGN_THREADS = 96, CHUNKS = BN / 8, REALIGN_ROWS = REALIGN_THREADS / CHUNKS;
static_assert(!B_REALIGN || REALIGN_THREADS % CHUNKS == 0, "B_REALIGN: a row's chunks divide the 96 threads");
__device__ __forceinline__ void b_realign(unsigned char* __restrict__ b_slot, const unsigned char* __restrict__ staging,
                                          int u, int col0, int row0, int N, int K, const unsigned short* B) {
    const int ch = u % CHUNKS, first = u / CHUNKS;
    // a thread's rows (PASSES, the last for some threads only), loaded GROUP at a time
    constexpr int PASSES = (64 + REALIGN_ROWS - 1) / REALIGN_ROWS, GROUP = CONSUMERS == 1 ? 4 : 1;
    auto in_row = [&](int k) { return reinterpret_cast<const uint4*>(staging + (k % 8) * B_CLASS_BYTES +
                                                                      (k / 8) * B_CLASS_ROW_BYTES) + ch; };
    // row k's chunk ch in the B slot: box ch / 8, the 128-byte swizzle (chunk ^ row % 8)
    auto out_row = [&](int k) { return reinterpret_cast<uint4*>(b_slot + (ch / 8) * B_BOX_BYTES + k * 128 +
                                                                 ((ch % 8) ^ (k % 8)) * 16); };
#pragma unroll (CONSUMERS == 1 ? PASSES : 1)   // (two consumers leave the producer 56 registers: a loop)
    for (int p0 = 0; p0 < PASSES; p0 += GROUP) {
        uint4 lo[GROUP], hi[GROUP];
#pragma unroll
        for (int g = 0; g < GROUP; ++g) {   // (a row past 63 — the last pass — loads row 63 again, unused)
            const uint4* src = in_row(min(first + (p0 + g) * REALIGN_ROWS, 63));
            lo[g] = src[0], hi[g] = src[1];
        }
#pragma unroll
        for (int g = 0; g < GROUP; ++g) {
            const int k = first + (p0 + g) * REALIGN_ROWS;
            if (p0 + g >= PASSES || k >= 64) break;
            // the chunk's 8 elements start delta in: words a .. a + 4 of the two aligned chunks,
            // shifted down by a half-word when delta is odd
            const int delta = ((k % 8) * N) & 7, a = delta >> 1;
            const unsigned w[8] = {lo[g].x, lo[g].y, lo[g].z, lo[g].w, hi[g].x, hi[g].y, hi[g].z, hi[g].w};
            unsigned x[5];
#pragma unroll
            for (int j = 0; j < 5; ++j) x[j] = a == 0 ? w[j] : a == 1 ? w[j + 1] : a == 2 ? w[j + 2] : w[j + 3];
            const unsigned shift = (delta & 1) * 16;
            *out_row(k) = make_uint4(__funnelshift_r(x[0], x[1], shift), __funnelshift_r(x[1], x[2], shift),
                           __funnelshift_r(x[2], x[3], shift), __funnelshift_r(x[3], x[4], shift));
        }
    }
    if (row0 + 64 <= (K & ~7)) return;   // every row in the map
    // The slice's rows past B's last whole 8 (or past K): over what the boxes brought, from B itself
    // — by the same thread, chunk for chunk, so the later store is the one that stays.
    for (int k = first; k < 64; k += REALIGN_ROWS) {
        const int row = row0 + k;
        if (row < (K & ~7)) continue;
        unsigned o[4];
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            const int col = col0 + ch * 8 + 2 * j;
            const unsigned lo = row < K && col < N ? B[(long long)row * N + col] : 0,
                           hi = row < K && col + 1 < N ? B[(long long)row * N + col + 1] : 0;
            o[j] = lo | hi << 16;
        }
        *out_row(k) = make_uint4(o[0], o[1], o[2], o[3]);
    }
}

__device__ __forceinline__ void wgmma_tma(const void* B, void* C, int M, int N, int K, unsigned* work,
                                          const TensorMap* map_a, const TensorMap* map_b, const TensorMap* map_c,
                                          const TensorMap* map_a8, float scale) {
    extern __shared__ unsigned char smem_raw[];
    // Stages start on a 1024-byte boundary: the 128-byte swizzle pattern repeats every 8 rows
    // (1024 bytes) and both the copy engine and the descriptors assume atoms start there.
    const unsigned raw = static_cast<unsigned>(__cvta_generic_to_shared(smem_raw));
    const unsigned stages = (raw + 1023) & ~1023u;
    const unsigned c_buffers = stages + STAGES * STAGE_BYTES;
    const unsigned full = c_buffers + CONSUMERS * C_BUFFER_BYTES, empty = full + STAGES * 8;
    // B_REALIGN: the copy engine's bytes land on `landed`; `full` then counts the realigning warps.
    const unsigned landed = empty + STAGES * 8;

    // The cluster's CLUSTER blocks take CLUSTER vertically adjacent tiles of one tile column, so
    // they all need the same B tile: each loads its run of the tile's 64-column boxes and the
    // copy engine multicasts them into every block's shared memory (same offsets), halving B's
    // L2 traffic at 2. Runs, not every other box: 192 columns split as one box and two; 64 columns'
    // one box is rank 1's to copy, rank 0 copies none of B (at 4, 128 columns' two boxes are ranks
    // 1's and 3's). Sharing A (SHARE_A), a cluster of 2 takes neighbouring tiles of one tile row
    // instead, and each copies half of A's rows for both — where A's rows start off 128-byte
    // lines, each box row costs the L2 two or more requests (wgmma.L2_REQUESTS_PER_US), and
    // sharing halves A's; a cluster of 4 takes 2 × 2 tiles, A's halves shared along each row and
    // B's runs along each column: fewer box rows per MMA than either cluster of 2 (128×256 tiles:
    // 192 a tile a slice, against 256 sharing B and 320 sharing A; 4 along M sharing B: 192). Every
    // consumer still frees a stage in every block of the cluster (each one's stage holds copies
    // from up to three others). Swapped (SWAP_AB), the tile's rows are N's: the cluster's blocks
    // take neighbouring tiles along N, which need the same BN rows of A (the B slot), and each
    // copies BN / CM of them for those; with SHARE_A pairs along M too (1 × 2, 2 × 2), which need
    // the same 128 columns of B (the A slot), each copying one consumer's 64 for both (three
    // consumers' 192: one block two boxes, the other one) — cuBLAS's 2-D clusters where M is a few
    // hundred, and its 192 × 144 pairs along M (B, the big operand, then crosses the L2 once a pair).
    const unsigned rank = cluster_rank();
    // (Swapped, the tile's rows are N's and its columns M's: its CM blocks along N share A's rows.)
    const int rows = SWAP_AB ? N : M, cols = SWAP_AB ? M : N;
    const int tiles_m = (rows + BM * CM - 1) / (BM * CM), tiles_n = (cols + TILE_N * CN - 1) / (TILE_N * CN);
    // This block's tile of the cluster's (tile_m, tile_n): the rank-th of its CLUSTER along M or N,
    // or in 2×2, (rank % 2, rank / 2).
    auto own_tile = [rank](int& tile_m, int& tile_n) {
        if (CN == 1) tile_m = tile_m * CLUSTER + rank;
        else if (CM == 1) tile_n = tile_n * CLUSTER + rank;
        else tile_m = tile_m * CM + rank % CM, tile_n = tile_n * CN + rank / CM;
    };
    const int tiles = tiles_m * tiles_n, KT = (K + BK - 1) / BK;
    const int warpgroup = threadIdx.x / 128;
#if PINGPONG
    // turn + 8c: consumer c may start waiting for its next tile's slices (see the consumers' loop)
    __shared__ alignas(8) unsigned long long turns[CONSUMERS];
    const unsigned turn = static_cast<unsigned>(__cvta_generic_to_shared(turns));
#endif
    if (threadIdx.x == 0) {
        prefetch_map(map_a), prefetch_map(map_b), prefetch_map(map_c);   // while the barriers are set up
        if (A_EDGE && !SWAP_AB && M % BM) prefetch_map(map_a8);   // (a tile at M's edge may copy 8-row boxes)
        for (int s = 0; s < STAGES; ++s) {
            mbar_init(full + 8 * s, B_REALIGN ? 3 : 1);       // own expect_tx arrival (+ the bytes) — or
                                                              // B_REALIGN, the 3 realigning warps'
            mbar_init(empty + 8 * s, TEAM * CLUSTER);         // every consumer of the unit, in every block
            if (B_REALIGN) mbar_init(landed + 8 * s, 1);      // (B_REALIGN: the expect_tx arrival + bytes)
        }
#if PINGPONG
        for (int c = 0; c < CONSUMERS; ++c) mbar_init(turn + 8 * c, 1);   // the other consumer's thread 0
#endif
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");  // visible to the copy engine
    }
    cluster_sync();   // no block may multicast into, or arrive on, a peer's barrier before its init

    // Persistent: each cluster walks its units (for_each_unit). Producer and consumers walk the
    // same units and count the same k-slices (`slice`, over all the block's units), so a slice's
    // stage is slice % STAGES and its lap's barrier parity (slice / STAGES) & 1. While the
    // consumers store one tile's C, the producer is already filling the next unit's stages: the
    // pipeline never drains between tiles.
    const int cluster = blockIdx.x / CLUSTER, clusters = gridDim.x / CLUSTER;
    if (warpgroup == 0) {
        // Producer: 24–40 registers are plenty for a loop of copies; the rest go to the consumers.
        asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(PRODUCER_REGS));
        if (threadIdx.x == 0) {
            unsigned slice = 0;
            for_each_unit(tiles, KT, cluster, clusters, [&](int tile, int k0, int k1) {
                int tile_m, tile_n;
                tile_coords(tile, tiles_m, tiles_n, GROUP_M, tile_m, tile_n);
                own_tile(tile_m, tile_n);
                // A's first row for the tile (at M's edge maybe above it: a_shift), the rows of its
                // box this block copies, and the bytes of A that reach it (a_rows)
                [[maybe_unused]] const int a_row0 = tile_m * BM - a_shift(M, tile_m * BM);   // (swapped: unused)
#if SWAP_AB   // (A's rows are the B slot's: TILE_N rows of M, copied whole)
                const unsigned a_bytes = A_LOAD_ROWS * 128;
#elif SHARE_A   // its half of the rows, the other block of its pair the other half (same tile_m)
                const int half0 = a_rows(M, a_row0, A_BOX_ROWS), half1 = a_rows(M, a_row0 + A_BOX_ROWS, A_BOX_ROWS);
                const int rows_a = rank / CM ? half1 : half0;   // (rank / CM: its place along N)
                const unsigned a_bytes = a_copy_bytes(half0, A_BOX_ROWS) + a_copy_bytes(half1, A_BOX_ROWS);
#else
                const int rows_a = a_rows(M, a_row0, A_LOAD_ROWS);
                const unsigned a_bytes = a_copy_bytes(rows_a, A_LOAD_ROWS);
#endif
                for (int kt = k0; kt < k1; ++kt, ++slice) {
                    const int s = slice % STAGES;
                    mbar_wait(empty + 8 * s, (slice / STAGES + 1) & 1);   // every consumer is done with s
                    const unsigned a_dst = stages + s * STAGE_BYTES, b_dst = a_dst + A_BYTES;
#if B_REALIGN   // A to the stage, B's row classes to its staging boxes: all on `landed`
                    mbar_expect_tx(landed + 8 * s, a_bytes + B_STAGING_BYTES);
                    a_copy(a_dst, map_a, map_a8, kt * BK, a_row0, rows_a, A_LOAD_ROWS, landed + 8 * s, 0);
#pragma unroll
                    for (int r = rank * 8 / CLUSTER; r < (rank + 1) * 8 / CLUSTER; ++r)   // (see b_realign)
                        tma_load_2d_multicast(b_dst + B_BYTES + r * B_CLASS_BYTES, map_b,
                                              (r * N + tile_n * BN) & ~7, kt * 8, landed + 8 * s, (1u << CLUSTER) - 1);
#else
                    mbar_expect_tx(full + 8 * s, a_bytes + B_BYTES);   // all of A and B, whoever sends them
#if SWAP_AB   // the A slot: BM columns of B (64 a consumer — COOP: all for both —, BK rows of k); the B slot:
              // TILE_N rows of A — in a cluster, each of its CM blocks along N copies TILE_N / CM of them for
              // those CM; sharing the A slot too (SHARE_A: 1 × 2 or 2 × 2), each of a pair along M every other
              // 64-column box of B for both
                    {
                        // (this block's place along N, along M: rank itself without SHARE_A, as built before)
                        const unsigned rm = CN == 1 ? (CLUSTER > 1 ? rank : 0) : rank % CM, rn = CN == 1 ? 0 : rank / CM;
#if SHARE_A   // (three consumers' boxes: 0 and 2 the first of the pair's, 1 the second's)
#pragma unroll
                        for (int j = rn; j < BM / 64; j += CN)
                            tma_load_2d_multicast(a_dst + j * B_BOX_BYTES, map_b, tile_m * BM + j * 64, kt * BK,
                                                  full + 8 * s, (1u | 1u << CM) << rm);
#else
#pragma unroll
                        for (int j = 0; j < BM / 64; ++j)
                            tma_load_2d(a_dst + j * B_BOX_BYTES, map_b, tile_m * BM + j * 64, kt * BK, full + 8 * s);
#endif
                        if (CN > 1 && CM == 1)   // (1 × 2: each block its own TILE_N rows of A)
                            tma_load_2d(b_dst, map_a, kt * BK, tile_n * TILE_N, full + 8 * s);
                        else   // (BN / CM rows may start and end mid swizzle atom — 4 of 16 at 512 bytes in:
                               // the copy engine swizzles by the shared-memory address, as wgmma reads; H200)
                            tma_load_2d_multicast(b_dst + rm * (TILE_N / CM) * 128, map_a, kt * BK,
                                                  tile_n * TILE_N + rm * (TILE_N / CM),
                                                  full + 8 * s, ((1u << CM) - 1) << CM * rn);
                    }
#elif SHARE_A && CLUSTER == 2   // this block's half of A's rows for both blocks; all of B, its own
                    a_copy(a_dst + rank * A_BOX_ROWS * 128, map_a, map_a8, kt * BK, a_row0 + rank * A_BOX_ROWS,
                           rows_a, A_BOX_ROWS, full + 8 * s, (1u << CLUSTER) - 1);
#pragma unroll
                    for (int j = 0; j < B_BOXES; ++j)
#if WG_B_KMAJOR
                        tma_load_2d(b_dst + j * B_BOX_BYTES, map_b, kt * BK, tile_n * TILE_N + j * 64, full + 8 * s);
#else
                        tma_load_2d(b_dst + j * B_BOX_BYTES, map_b, tile_n * TILE_N + j * 64, kt * BK, full + 8 * s);
#endif
#elif SHARE_A   // 2×2: half of A's rows for this block and the one beside it (same rank % 2), half
                // of B's boxes for this block and the one below (same rank / 2)
                    {
                        const unsigned rm = rank % CM, rn = rank / CM;
                        a_copy(a_dst + rn * A_BOX_ROWS * 128, map_a, map_a8, kt * BK, a_row0 + rn * A_BOX_ROWS,
                               rows_a, A_BOX_ROWS, full + 8 * s, 0b0101u << rm);
#pragma unroll
                        for (int j = rm * B_BOXES / CM; j < (rm + 1) * B_BOXES / CM; ++j)
#if WG_B_KMAJOR
                            tma_load_2d_multicast(b_dst + j * B_BOX_BYTES, map_b, kt * BK, tile_n * TILE_N + j * 64,
                                                  full + 8 * s, 0b0011u << CM * rn);
#else
                            tma_load_2d_multicast(b_dst + j * B_BOX_BYTES, map_b, tile_n * TILE_N + j * 64, kt * BK,
                                                  full + 8 * s, 0b0011u << CM * rn);
#endif
                    }
#else
                    // BK × A_LOAD_ROWS box of A (or its 8-row boxes of real rows)
                    a_copy(a_dst, map_a, map_a8, kt * BK, a_row0, rows_a, A_LOAD_ROWS, full + 8 * s, 0);
#pragma unroll
                    for (int j = rank * B_BOXES / CLUSTER; j < (rank + 1) * B_BOXES / CLUSTER; ++j)
#if WG_B_KMAJOR   // 64 rows (of N) × BK box of the N×K matrix
                        tma_load_2d_multicast(b_dst + j * B_BOX_BYTES, map_b, kt * BK, tile_n * TILE_N + j * 64,
                                              full + 8 * s, (1u << CLUSTER) - 1);
#else             // BK × 64 columns (of N) box of the K×N matrix
                        tma_load_2d_multicast(b_dst + j * B_BOX_BYTES, map_b, tile_n * TILE_N + j * 64,
                                              kt * BK, full + 8 * s, (1u << CLUSTER) - 1);
#endif
#endif   // SWAP_AB
#endif   // B_REALIGN
                }
            });
            // Stay until every consumer in the cluster has released every stage: peers arrive
            // on this block's `empty` barriers, which must outlive their last arrival.
            for (int i = 0; i < STAGES; ++i, ++slice)
                mbar_wait(empty + 8 * (slice % STAGES), (slice / STAGES + 1) & 1);
        } else if (B_REALIGN && threadIdx.x >= 32) {
            // Warps 1–3: each slice's B, once it has landed, from the staging boxes into the B slot
            // (b_realign); the MMAs (the async proxy) see the plain stores after the fence.
            unsigned slice = 0;
            for_each_unit(tiles, KT, cluster, clusters, [&](int tile, int k0, int k1) {
                int tile_m, tile_n;
                tile_coords(tile, tiles_m, tiles_n, GROUP_M, tile_m, tile_n);
                own_tile(tile_m, tile_n);
                for (int kt = k0; kt < k1; ++kt, ++slice) {
                    const int s = slice % STAGES;
                    unsigned char* b_slot = smem_raw + (stages - raw) + s * STAGE_BYTES + A_BYTES;
                    mbar_wait(landed + 8 * s, (slice / STAGES) & 1);
                    b_realign(b_slot, b_slot + B_BYTES, threadIdx.x - 32, tile_n * BN, kt * BK, N, K,
                              static_cast<const unsigned short*>(B));
                    fence_proxy_async();
                    __syncwarp();
                    if (threadIdx.x % 32 == 0) mbar_arrive(full + 8 * s);
                }
            });
        }
    } else {
        asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(CONSUMER_REGS));
        const int c = warpgroup - 1;   // this consumer: its 64 rows of every block tile, or (PINGPONG) its turns,
                                       // or (COOP) its BN columns
        const int t = threadIdx.x - 128;
        // Thread 0 of the consumers that share a unit (taking turns: of this one). Written as a
        // call that tests t inline in the cooperative form, each form compiles to the code its
        // measurements ran (docs/results/2026-12-01-h200-pingpong/sass_hashes.py).
        auto team_leader = [lead = PINGPONG && t % 128 == 0, t] { return PINGPONG ? lead : t == 0; };
        // Stream-K: block b's flag says its piece of a split tile is in C. Split-K: a counter
        // per block tile, then the partial sums (the workspace's layout, above).
        unsigned* flags = work;
        const int share = stream_k_share(tiles, KT, clusters), p = split_pieces(tiles, KT, clusters);
        unsigned* counters = work + gridDim.x;   // (SPLIT_ROUNDS · gridDim.x of them: split_round_tiles)
        acc_t* partials =   // 16-byte aligned
            reinterpret_cast<acc_t*>(work + ((1 + SPLIT_ROUNDS) * gridDim.x + 3) / 4 * 4);
        const COut out{map_c, C, M, N};   // (C itself only with C_PLAIN)
        // A piece that an earlier piece waits for raises this block's flag once its boxes are in
        // C — not right after issuing them (waiting for the writes would stall the MMAs), but at
        // the next epilogue or at the end, when they have long landed. (C_PLAIN's stores, every
        // thread's, come before the barrier and the barrier before the release, as split-K's
        // partials do: no bulk group to wait for.)
        bool owed = false;
        auto raise_flag = [&] {
            if (t % 128 == 0) {
                bulk_wait<0>();
                asm volatile("fence.proxy.async.global;" ::: "memory");
            }
            team_sync(c);
            if (team_leader()) asm volatile("st.release.gpu.global.u32 [%0], 1;" ::"l"(flags + blockIdx.x) : "memory");
            owed = false;
        };
        // The descriptors' low words for this consumer's rows of A and for B in stage 0, and how
        // far (in the descriptor's 16-byte units) one k-step moves each. A (K-major): rows 128
        // bytes apart, 8-row atoms 1024 apart (SBO); a k-step is 32 bytes along the swizzled row.
        // B K-major: the same. B MN-major (16-bit types): 64-column boxes B_BOX_BYTES apart (LBO),
        // 8-row k groups 1024 apart (SBO); a k-step of 16 is two atoms (2048 bytes). SWAP_AB: A'
        // is this consumer's 64 columns of B (COOP: each of the COOP boxes in turn), MN-major like 06's
        // B; B' is BN rows of A, K-major (COOP: this consumer's BN of the slot's TILE_N).
        // A stage or a k-step further is then one 32-bit add to the start address, which never
        // carries out of its field (shared memory ends below 2^18 bytes, 2^14 units) — not the
        // mask, shift and or of a descriptor built afresh per wgmma (the FP8 consumer's slice
        // loop: 84 instructions before, 67 now).
#if SWAP_AB
        constexpr unsigned A_LBO = B_BOX_BYTES, B_LBO = 16, A_STEP = 2048 >> 4, B_STEP = 32 >> 4;
#elif WG_B_KMAJOR
        constexpr unsigned A_LBO = 16, B_LBO = 16, A_STEP = 32 >> 4, B_STEP = 32 >> 4;
#else
        constexpr unsigned A_LBO = 16, B_LBO = B_BOX_BYTES, A_STEP = 32 >> 4, B_STEP = 2048 >> 4;
#endif
        // (COOP: every consumer A's all rows, B's own BN rows — swapped M's; unswapped N's columns,
        // c · BN / 64 boxes of B_BOX_BYTES in, as K-major B's c · BN rows of 128 bytes are)
        const unsigned a_desc0 = smem_desc_lo(stages + (PINGPONG || COOP ? 0 : c * 64 * 128), A_LBO),
                       b_desc0 = smem_desc_lo(stages + A_BYTES + (COOP ? c * BN * 128 : 0), B_LBO);
        unsigned slice = 0;
        // Where this consumer's part of a tile lands in C (SWAP_AB: rows are M's, columns N's).
#if SWAP_AB
#define C_COL (tile_m * BM + (COOP ? 0 : c * 64))
#define C_ROW (tile_n * TILE_N + (COOP ? c * BN : 0))
#else
#define C_COL (tile_n * TILE_N + (COOP ? c * BN : 0))
#define C_ROW (tile_m * BM + (PINGPONG || COOP ? 0 : c * 64))   // (taking turns or COOP, a consumer has all rows)
#endif
        // Taking turns (PINGPONG), the block's units go to consumer 0, 1, 0, ...: the producer
        // fills the ring in unit order, so the next consumer's slices arrive as this one's end,
        // and its MMAs run while this one stores C. A consumer counts the other's slices without
        // waiting for them, so it must not wait for its own before the other has waited for all
        // of its unit's: a parity wait tells phases apart only within one lap of the ring, and
        // issued laps early it would pass on an old one. The other's thread 0 arrives on `turn`
        // once its unit's MMAs are issued; by then the ring holds at most a lap past them.
        int unit = 0;
        for_each_unit(tiles, KT, cluster, clusters, [&](int tile, int k0, int k1) {
            const int u = unit++;
            if (PINGPONG && u % CONSUMERS != c) {   // the other's turn: count its slices, skip them
                slice += k1 - k0;
                return;
            }
#if PINGPONG
            if (u > 0) mbar_wait(turn + 8 * c, ((u - 1) / 2) & 1);   // the other's unit u - 1 issued
            auto pass_turn = [&] { if (t % 128 == 0) mbar_arrive(turn + 8 * (1 - c)); };
#else
            auto pass_turn = [] {};
#endif
            int tile_m, tile_n;
            tile_coords(tile, tiles_m, tiles_n, GROUP_M, tile_m, tile_n);
            own_tile(tile_m, tile_n);
            const int shift = a_shift(M, tile_m * BM);   // (the producer's: A's box starts this far above)
            acc_t d[ATOMS][BN / 2];
#pragma unroll
            for (int a = 0; a < ATOMS; ++a)
#pragma unroll
                for (int i = 0; i < BN / 2; ++i) d[a][i] = 0;
#if PROMOTE
            // The MMAs accumulate into `part`; every PROMOTE slices it is added into d by
            // ordinary fp32 adds and restarted (FP8: the tensor core's own accumulator is narrower
            // than fp32 — DeepGEMM's "promotion"). Twice the accumulator registers: BN ≤ 128.
            acc_t part[ATOMS][BN / 2];
#pragma unroll
            for (int i = 0; i < BN / 2; ++i) part[0][i] = 0;   // (ATOMS is 1: no promotion taking turns)
#else
            acc_t (&part)[ATOMS][BN / 2] = d;
#endif

#if WAIT_DEPTH
            // Every unit has at least one slice, and the loop must say so: with a path that skips
            // it, the compiler zeroes d where an MMA group may be in flight, and ptxas then
            // serialises every MMA (warning C7515) — the opposite of keeping one group in flight.
            int kt = k0;
            do {
#else
            for (int kt = k0; kt < k1; ++kt, ++slice) {
#endif
                const int s = slice % STAGES;
                mbar_wait(full + 8 * s, (slice / STAGES) & 1);
                const unsigned at = s * (STAGE_BYTES >> 4);   // stage s, in descriptor units
                wgmma_fence();
#pragma unroll
                for (int kk = 0; kk < K_STEPS; ++kk)
#pragma unroll
                    for (int a = 0; a < ATOMS; ++a)   // (a 64-row block of A is 64·128 bytes, 512 units, further)
                        wgmma_step(part[a], smem_desc(a_desc0 + at + a * 512 + kk * A_STEP),
                                   smem_desc(b_desc0 + at + kk * B_STEP));
                wgmma_commit();
                // The stage may be refilled only once the MMAs reading it are done — in every
                // block of the cluster, since a block's multicast copies (of B, or SHARE_A's or
                // SWAP_AB's A) land in others (every consumer frees the stage in all: the simplest
                // count that covers each). (Waiting for one group less and releasing the previous
                // stage measured no faster with two consumers: the other's MMAs keep the tensor
                // cores busy meanwhile. With one, nothing does: WAIT_DEPTH=1 keeps one group in
                // flight, up to 20 % faster.)
#if WAIT_DEPTH
                wgmma_wait<1>();
                if (kt > k0 && t % 128 == 0)   // the previous slice's MMAs are done: free its stage
                    for (int r = 0; r < CLUSTER; ++r) mbar_arrive_cluster(empty + 8 * ((slice - 1) % STAGES), r);
#else
                wgmma_wait<0>();
                if (t % 128 == 0)
                    for (int r = 0; r < CLUSTER; ++r) mbar_arrive_cluster(empty + 8 * s, r);
#endif
#if PROMOTE
                if ((kt - k0 + 1) % PROMOTE == 0 || kt + 1 == k1) {
#pragma unroll
                    for (int i = 0; i < BN / 2; ++i) d[0][i] += part[0][i], part[0][i] = 0;   // (ATOMS is 1)
                }
#endif
#if WAIT_DEPTH
            } while (++slice, ++kt < k1);
            pass_turn();       // (PINGPONG: the other's MMAs may start while this unit's last run)
            wgmma_wait<0>();   // the unit's last slice: its MMAs done, its stage freed
            if (t % 128 == 0)
                for (int r = 0; r < CLUSTER; ++r) mbar_arrive_cluster(empty + 8 * ((slice - 1) % STAGES), r);
#else
            }
            pass_turn();
#endif

            if (p > 1) {   // split-K: every piece sums and stores its share of the tile, once all are in
                const int block_tile = tile * CLUSTER + rank;
                split_epilogue(d[0], partials + block_tile * p * PARTIAL_FLOATS, counters + block_tile,
                               cluster / split_round_tiles(tiles, p, clusters),
                               p, c, t, out, c_buffers + c * C_BUFFER_BYTES, C_COL, C_ROW, shift, scale);
                return;
            }
            // A piece that is not a tile's tail adds itself after the piece that follows it: the
            // first unit of the cluster whose stretch starts at this piece's end. Thread 0 waits
            // for that block's flag (acquire) and clears it for the next launch. (Own flag first:
            // the waits then only ever point to later clusters, which never wait back.)
            if (owed) raise_flag();
            const bool add = k1 < KT;
            if (add) {
                const int at = (tile - (tiles - tiles % clusters)) * KT + k1;   // place in the stretches
                const unsigned* flag = flags + at / share * CLUSTER + rank;
                if (team_leader()) {
                    unsigned ready = 0;
                    while (!ready)
                        asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(ready) : "l"(flag) : "memory");
                    *const_cast<unsigned*>(flag) = 0;
                }
                team_sync(c);
                asm volatile("fence.proxy.async.global;" ::: "memory");   // the adds come after the acquire
            }
#pragma unroll
            for (int a = 0; a < ATOMS; ++a)   // (swapped, a block of 64 rows of N is 64 columns of C)
                store_c(out, d[a], c_buffers + c * C_BUFFER_BYTES, c, t, C_COL + (SWAP_AB ? 64 * a : 0),
                        C_ROW + (SWAP_AB ? 0 : 64 * a), shift, add, scale);
            owed = k0 > 0;
        });
#undef C_COL
#undef C_ROW
        if (owed) raise_flag();
        // (Waiting only until they are read, `.read`, as CUTLASS does, took the same time at the four
        // shapes timed, two of them one tile a block: docs/results/2026-12-07-h100-exit-wait-l2-promotion/.)
        if (t % 128 == 0) bulk_wait<0>();   // C's last boxes are written before the block's smem goes
    }
}
