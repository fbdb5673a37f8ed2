// 02_wmma_naive.cu — adds the tensor cores: one warp per output tile through the WMMA API.
//
// C[M×N] = A[M×K] · B[K×N], row-major. Each warp owns one FM×FN tile of C and sweeps K in
// steps of FK: load an A fragment and a B fragment straight from global memory, one
// mma_sync, repeat. No shared memory, no reuse between warps: the point is the mechanism.
//
// The fragment shape must be one the hardware has (16×16×16 for fp16/bf16/int8, 16×16×8
// for tf32, 8×8×4 for fp64), and WMMA loads need the leading dimension to be a multiple of
// 16 bytes and whole tiles in range. So M, N, K here are multiples of the fragment shape:
// tcraw pads the host matrices with zeros up to it (tcraw/matmul.py) and the padding of C
// is checked to come back exactly zero.
//
// One source, one precision per compile: the registry (tcraw/kernels.py) passes one
// -DTCRAW_WMMA_<IN>_<ACC> macro, so each cubin holds exactly one entry point and the
// ptxas resource log is about that entry alone.

#include <mma.h>
#include <cuda_fp16.h>
#if __CUDA_ARCH__ >= 800
#include <cuda_bf16.h>
#endif

using namespace nvcuda;

template <typename T> struct IsTf32 { static constexpr bool value = false; };
#if __CUDA_ARCH__ >= 800
template <> struct IsTf32<wmma::precision::tf32> { static constexpr bool value = true; };
#endif

// In: the element type in memory; Frag: the fragment's element type (differs only for tf32,
// which is read as float and rounded); Acc: accumulator and output type.
template <typename In, typename Frag, typename Acc, int FM, int FN, int FK>
__device__ __forceinline__ void wmma_naive(const In* A, const In* B, Acc* C, int M, int N, int K) {
    // Warps of a block tile C as blockDim.x/32 × blockDim.y tiles: x walks rows, y columns.
    int warp_m = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
    int warp_n = blockIdx.y * blockDim.y + threadIdx.y;
    int row = warp_m * FM, col = warp_n * FN;
    if (row >= M || col >= N) return;  // whole warp leaves together: mma_sync needs all 32 lanes

    wmma::fragment<wmma::matrix_a, FM, FN, FK, Frag, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, FM, FN, FK, Frag, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, FM, FN, FK, Acc> acc;
    wmma::fill_fragment(acc, Acc(0));

    for (int k = 0; k < K; k += FK) {
        // Leading dimension is the full matrix's row stride (elements), not the tile's.
        wmma::load_matrix_sync(a, A + (size_t)row * K + k, K);
        wmma::load_matrix_sync(b, B + (size_t)k * N + col, N);
#if __CUDA_ARCH__ >= 800
        if constexpr (IsTf32<Frag>::value) {
            // tf32: the fragment holds floats; round each to 10 mantissa bits (cvt.rna),
            // exactly what the host quantizer does to the reference inputs.
            for (int i = 0; i < a.num_elements; ++i) a.x[i] = wmma::__float_to_tf32(a.x[i]);
            for (int i = 0; i < b.num_elements; ++i) b.x[i] = wmma::__float_to_tf32(b.x[i]);
        }
#endif
        wmma::mma_sync(acc, a, b, acc);
    }
    wmma::store_matrix_sync(C + (size_t)row * N + col, acc, N, wmma::mem_row_major);
}

#define TCRAW_ENTRY(name, In, Frag, Acc, FM, FN, FK)                                      \
    extern "C" __global__ void name(const In* A, const In* B, Acc* C, int M, int N, int K) { \
        wmma_naive<In, Frag, Acc, FM, FN, FK>(A, B, C, M, N, K);                          \
    }

#if defined(TCRAW_WMMA_FP16_FP32)   // the seed's kernel: fp16 in, fp32 accumulate (sm_70+)
TCRAW_ENTRY(wmma_naive_fp16_fp32, half, half, float, 16, 16, 16)
#elif defined(TCRAW_WMMA_FP16_FP16) // fp16 accumulate: twice the rate on some parts, far less accurate
TCRAW_ENTRY(wmma_naive_fp16_fp16, half, half, half, 16, 16, 16)
#elif defined(TCRAW_WMMA_INT8_INT32) // int8 in, exact int32 accumulate (sm_72+)
TCRAW_ENTRY(wmma_naive_int8_int32, signed char, signed char, int, 16, 16, 16)
#elif defined(TCRAW_WMMA_BF16_FP32) // bf16: fp32's exponent range, 8 mantissa bits (sm_80+)
TCRAW_ENTRY(wmma_naive_bf16_fp32, __nv_bfloat16, __nv_bfloat16, float, 16, 16, 16)
#elif defined(TCRAW_WMMA_TF32_FP32) // tf32: fp32 in memory, 10-bit mantissa in the MMA (sm_80+)
TCRAW_ENTRY(wmma_naive_tf32_fp32, float, wmma::precision::tf32, float, 16, 16, 8)
#elif defined(TCRAW_WMMA_FP64_FP64) // fp64 DMMA, 8×8×4 tiles (sm_80+)
TCRAW_ENTRY(wmma_naive_fp64_fp64, double, double, double, 8, 8, 4)
#else
#error "compile with one -DTCRAW_WMMA_<IN>_<ACC> (see tcraw/kernels.py)"
#endif
