// A student's tensor-core matmul: 64×64 C tiles per block, A and B staged through shared memory,
// four warps each computing 32×32 of C with 2×2 WMMA 16×16×16 fragments (fp16 in, fp32 out).
// tcraw's calling convention: (A, B, C, M, N, K), row-major A (M×K), B (K×N), C (M×N). The spec
// (wmma_smem_64.py) pads M, N to 64 and K to 32, so the kernel needs no edge checks.
#include <mma.h>
using namespace nvcuda;

#define BM 64
#define BN 64
#define BK 32
#define PAD 8   // halves added to each smem row: rows stay 16-byte aligned, banks shift per row

// Optional, for any kernel: the launch it needs (threads per block, dynamic shared memory bytes).
// tcraw reads it from the cubin and refuses a spec whose geometry says otherwise.
extern "C" __constant__ int tcraw_launch[2] = {4 * 32, 0};

extern "C" __global__ void wmma_smem_64(const half* A, const half* B, float* C, int M, int N, int K) {
    __shared__ __align__(32) half As[BM][BK + PAD];
    __shared__ __align__(32) half Bs[BK][BN + PAD];
    const int warp = threadIdx.x / 32, wm = warp / 2, wn = warp % 2;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;

    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) wmma::fill_fragment(acc[i][j], 0.0f);

    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int i = threadIdx.x; i < BM * BK; i += blockDim.x)
            As[i / BK][i % BK] = A[(size_t)(row0 + i / BK) * K + k0 + i % BK];
        for (int i = threadIdx.x; i < BK * BN; i += blockDim.x)
            Bs[i / BN][i % BN] = B[(size_t)(k0 + i / BN) * N + col0 + i % BN];
        __syncthreads();
        for (int kk = 0; kk < BK; kk += 16) {
            wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a[2];
            wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b[2];
            for (int i = 0; i < 2; ++i) wmma::load_matrix_sync(a[i], &As[wm * 32 + i * 16][kk], BK + PAD);
            for (int j = 0; j < 2; ++j) wmma::load_matrix_sync(b[j], &Bs[kk][wn * 32 + j * 16], BN + PAD);
            for (int i = 0; i < 2; ++i)
                for (int j = 0; j < 2; ++j) wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
        }
        __syncthreads();   // the next slice overwrites what the warps may still be reading
    }
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
            wmma::store_matrix_sync(&C[(size_t)(row0 + wm * 32 + i * 16) * N + col0 + wn * 32 + j * 16],
                                    acc[i][j], N, wmma::mem_row_major);
}
