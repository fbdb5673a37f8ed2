// 07_wgmma_kmajor_fp8_int8_tf32.cu — 06 for the types wgmma takes only K-major: FP8 (e4m3, e5m2 →
// fp32), INT8 (s8·s8 → s32) and TF32 (→ fp32). The machinery is 06's (wgmma_tma.cuh); what changes:
//
// (FP8 e4m3 → bf16 too: C rounded to nearest bf16 on its way out of the accumulators.)
// Adds to 06: (1) B stored N×K ("K-major", tcraw's b_layout "col"), as wgmma requires for these
// types (no imm-trans operand): the copy engine loads it in 64-row × 128-byte boxes exactly like
// A's, and the same descriptor form reads both; (2) 1- and 4-byte elements: a slice stays 128
// bytes of K (one swizzle row), so BK is 128 (fp8, int8) or 32 (tf32) elements and each wgmma
// step is k32 or k8 — four steps a slice, as in 06; (3) s32 accumulators for int8 (the copy
// engine's reduce-add for stream-K adds s32 as it adds fp32, by the tensor map's type; with
// C_PLAIN, red.add.s32); (4) FP8's
// per-tensor scales: C = scale_a · scale_b · (A's codes · B's codes), applied once as C leaves,
// read from a device buffer of two floats (as cuBLASLt's scale pointers are).
// Shapes, configurations, stream-K/split-K and the workspace are 06's.

#if defined(TCRAW_WG07_E4M3) || defined(TCRAW_WG07_E4M3_BF16) || defined(TCRAW_WG07_E5M2)
#define WG_ELEM_BYTES 1
#define WG_K "32"
#if defined(TCRAW_WG07_E4M3)
#define WG_TYPES "f32.e4m3.e4m3"
#define WG07_ENTRY wgmma_kmajor_fp8e4m3
#elif defined(TCRAW_WG07_E4M3_BF16)   // the same MMAs, C rounded to bf16 as it leaves
#define WG_TYPES "f32.e4m3.e4m3"
#define WG_OUT_BYTES 2
#define WG07_ENTRY wgmma_kmajor_fp8e4m3bf16
#else
#define WG_TYPES "f32.e5m2.e5m2"
#define WG07_ENTRY wgmma_kmajor_fp8e5m2
#endif
#define WG_IMM "1, 1, 1"   // scale-d 1 (accumulate), imm-scale-a/b 1
#define WG_INT_ACC 0
#define WG_SCALED 1
#elif defined(TCRAW_WG07_INT8)
#define WG_ELEM_BYTES 1
#define WG_K "32"
#define WG_TYPES "s32.s8.s8"
#define WG_IMM "1"         // scale-d 1: integer MMAs take no other immediates
#define WG_INT_ACC 1
#define WG_SCALED 0
#define WG07_ENTRY wgmma_kmajor_int8
#elif defined(TCRAW_WG07_TF32)
#define WG_ELEM_BYTES 4
#define WG_K "8"
#define WG_TYPES "f32.tf32.tf32"
#define WG_IMM "1, 1, 1"
#define WG_INT_ACC 0
#define WG_SCALED 0
#define WG07_ENTRY wgmma_kmajor_tf32
#else
#error "define one of TCRAW_WG07_E4M3, TCRAW_WG07_E4M3_BF16, TCRAW_WG07_E5M2, TCRAW_WG07_INT8, TCRAW_WG07_TF32"
#endif
#define WG_B_KMAJOR 1
#include "wgmma_tma.cuh"

// The launch this file needs — threads, dynamic shared memory, then the TMA boxes (rows, cols in
// elements) of A, B (64 rows of N × BK), C and A's 8-row boxes at M's edge — read from the cubin
// by tcraw, as 06's is.
extern "C" __constant__ int tcraw_launch[10] = {THREADS, SMEM_BYTES, A_BOX_ROWS, BK, 64, BK, 64, C_BOX_COLS, 8, BK};

#if WG_SCALED
#define WG07_SCALES , const float* scales
#define WG07_SCALE scales[0] * scales[1]
#else
#define WG07_SCALES
#define WG07_SCALE 1.0f
#endif
extern "C" __global__ void __launch_bounds__(THREADS, 1) __cluster_dims__(CLUSTER, 1, 1)
WG07_ENTRY(const void* A, const void* B, void* C, int M, int N, int K, unsigned* work WG07_SCALES,
           const __grid_constant__ TensorMap map_a, const __grid_constant__ TensorMap map_b,
           const __grid_constant__ TensorMap map_c, const __grid_constant__ TensorMap map_a8) {
    wgmma_tma(B, C, M, N, K, work, &map_a, &map_b, &map_c, &map_a8, WG07_SCALE);
}
