// 06_wgmma_tma_hopper.cu — Hopper's own path (sm_90a): the copy engine (TMA) fills shared
// memory, warpgroup MMAs (wgmma) read it there, mbarriers hand stages between the two.
//
// Adds to 05: (1) TMA — one thread asks the copy engine for a whole BM×BK or BK×64 box with
// cp.async.bulk.tensor; the box's shape, strides and swizzle live in a tensor map the host encodes
// with cuTensorMapEncodeTiled and passes by value (__grid_constant__), so no thread computes an
// address or holds the data in registers; the copy engine applies 05's swizzle itself (16-byte
// chunk c of row r at c ^ (r % 8): "128-byte swizzle"); (2) wgmma — a warpgroup (4 warps)
// multiplies a 64×256×16 slice per instruction, both operands straight from shared memory
// through 64-bit matrix descriptors (no ldmatrix), accumulators in registers (128 floats per
// thread), asynchronously: issue, commit, wait; (3) warp specialisation — one producer
// warpgroup only issues copies (and gives its registers away with setmaxnreg), two consumer
// warpgroups (or three: 192-row tiles) only multiply; (4) an mbarrier ring — `full[s]`
// completes when the copy engine has delivered stage s's bytes (expect_tx), `empty[s]` when
// every consumer is done with it;
// (5) a persistent grid (one block per SM walking tiles, so one tile's epilogue overlaps the
// next tile's copies), (6) clusters of 2 blocks that share each B tile through TMA multicast
// (or, SHARE_A, each A tile: rows off 128-byte lines cost the L2 two or more requests a box row;
// clusters of 4, along M or 2 × 2, share more of both; swapped, SWAP_AB, the blocks along N share
// A's rows, and with SHARE_A pairs along M B's columns),
// (7) C out through shared memory and TMA stores (`store_c`; with C_PLAIN the consumers' own, where
// C's rows lie off 16 bytes: `plain_box`), (8) stream-K for the last,
// partial round of tiles after whole ones: split along K, the pieces added into C by TMA
// (`for_each_unit`; after fewer than four whole rounds the partial one runs whole: `stream_k_share`),
// (9) split-K when the tiles are too few for the SMs (small M or N, long K): each tile's K cut in
// even pieces, one per cluster, partial sums in a workspace, every piece then adding a share of the
// tile in a fixed order (`split_pieces`, `split_epilogue`), (10) edges: any M, N, K — the copy
// engine fills loads past an edge with zeros and clips stores there (a tile of A at M's edge copies
// only the 8-row boxes that hold real rows: `a_copy`), and (11) with PINGPONG, the
// two consumers taking whole tiles in turn instead of sharing each one, so that one stores its C
// while the other multiplies (an mbarrier per consumer says when its turn starts), and (12) with
// B_REALIGN, B read in place whatever its row pitch: boxes of its rows by class (k mod 8) from the
// 16-byte boundary below, shifted into the swizzled slot by the producer's idle warps (`b_realign`).
//
// Layouts: A is row-major M×K, so each A row is K-contiguous ("K-major", wgmma's default).
// B is row-major K×N, i.e. N-contiguous ("MN-major"): wgmma reads it transposed (imm-trans-b = 1),
// which fp16/bf16 allow and tf32, fp8 and int8 do not — their form is 07, with B stored K-major.
// A tile's width BN is any multiple of 16 from 64 to 256: B comes in whole 64-column boxes and the
// wgmma's n stops BN into the last one; C's last box starts before BN, over the box before it, so
// that no tile writes its neighbour's columns (wgmma_tma.cuh: B_BOXES, c_box_col).
// M, N, K are any sizes: tiles are counted rounding up, loads past an edge come back as zeros from
// the copy engine and stores past it are clipped. Only the row pitch is constrained: a tensor map's
// row stride is a multiple of 16 bytes (K of A and N of B multiples of 8 halves, N of C of 4
// floats) — tcraw copies an operand whose rows are not into a pitched buffer (rows of a 128-byte
// multiple), on the device, and counts that copy in the time; built with B_REALIGN, B is never
// copied (its tensor map is then of rows 8 at a time: b_realign); built with C_PLAIN, C is never
// copied either (the consumers store its boxes themselves: plain_box). The pointers serve beside
// the maps only there: B with B_REALIGN (its last K mod 8 rows), C with C_PLAIN; A never. The
// workspace (zeroed once by the host; every launch leaves its flags and counters zeroed): a
// stream-K flag per block, a split-K counter per block, then the split-K partial sums, BM × BN
// floats per block (tcraw.wgmma.wgmma_workspace sizes it).

// The machinery (cuda_src/wgmma_tma.cuh), for 16-bit inputs and a row-major (MN-major) B.
#define WG_ELEM_BYTES 2
#define WG_K "16"
#if defined(TCRAW_WGMMA_BF16)
#define WG_TYPES "f32.bf16.bf16"
#else
#define WG_TYPES "f32.f16.f16"
#endif
#if defined(SWAP_AB) && SWAP_AB
#define WG_IMM "1, 1, 1, 1, 0"   // Cᵀ = Bᵀ·Aᵀ: the A operand (B's columns) transposed, the B operand as is
#else
#define WG_IMM "1, 1, 1, 0, 1"   // scale-d 1 (accumulate), scale-a/b 1, A as is, B transposed
#endif
#define WG_B_KMAJOR 0
#define WG_INT_ACC 0
#define WG_SCALED 0
#include "wgmma_tma.cuh"

// The launch this file needs — threads per block, dynamic shared memory bytes, then the TMA
// boxes (rows, cols) of A, B, C and A's 8-row boxes for tiles at M's edge (a_copy) — stated once,
// here; tcraw reads it from the cubin and refuses a declaration in wgmma.py that differs.
#if SWAP_AB   // A in boxes of TILE_N / CM rows, B in BK × 64 boxes, C in boxes of BN (/ C_PARTS) rows × 32 columns
extern "C" __constant__ int tcraw_launch[10] = {THREADS, SMEM_BYTES, TILE_N / CM, BK, BK, 64, BN / C_PARTS, C_BOX_COLS,
                                                 8, BK};
#elif B_REALIGN   // B in unswizzled boxes of 8 super-rows × BN + 8 elements (b_realign)
extern "C" __constant__ int tcraw_launch[10] = {THREADS, SMEM_BYTES, A_BOX_ROWS, BK, 8, BN + 8, 64, C_BOX_COLS, 8, BK};
#else
extern "C" __constant__ int tcraw_launch[10] = {THREADS, SMEM_BYTES, A_BOX_ROWS, BK, BK, 64, 64, C_BOX_COLS, 8, BK};
#endif

// (THREADS, 1): setmaxnreg only takes effect when the kernel starts under a register cap.
// __cluster_dims__ fixes the cluster shape at compile time, so a plain cuLaunchKernel launches
// clusters (the grid must be a multiple of CLUSTER).
#if defined(TCRAW_WGMMA_BF16)
#define WGMMA_ENTRY wgmma_tma_bf16
#else
#define WGMMA_ENTRY wgmma_tma_fp16
#endif
extern "C" __global__ void __launch_bounds__(THREADS, 1) __cluster_dims__(CLUSTER, 1, 1)
WGMMA_ENTRY(const void* A, const void* B, float* C, int M, int N, int K, unsigned* work,
            const __grid_constant__ TensorMap map_a, const __grid_constant__ TensorMap map_b,
            const __grid_constant__ TensorMap map_c, const __grid_constant__ TensorMap map_a8) {
    wgmma_tma(B, C, M, N, K, work, &map_a, &map_b, &map_c, &map_a8, 1.0f);
}
