// 03_tiled_simt_fp32.cu — the fair CUDA-core baseline: what 01 becomes with data reuse.
//
// Adds to 01: (1) shared-memory blocking — a block stages a BM×BK slice of A and a BK×BN slice
// of B once and every thread reuses them; (2) register tiling — each thread computes a TM×TN
// patch of C, so each value read from shared memory feeds TM or TN FMAs instead of one;
// (3) 128-bit loads (float4) from global and shared memory; (4) double-buffered shared memory
// with the next slice prefetched into registers while the current one is multiplied, so one
// __syncthreads per BK step suffices.
//
// A is stored transposed in shared memory (As[k][m]) so a thread's TM values of A are
// contiguous and load as float4. M, N are multiples of BM, BN and K of BK: tcraw pads.

#ifndef BM
#define BM 128
#endif
#ifndef BN
#define BN 128
#endif
#ifndef BK
#define BK 8
#endif
#ifndef TM
#define TM 8
#endif
#ifndef TN
#define TN 8
#endif
#ifndef SPLIT_N
#define SPLIT_N 1   // 1: a thread's TN columns are TN/4 float4s BN/(TN/4) apart (see col_of); 0: adjacent
#endif

constexpr int THREADS = (BM / TM) * (BN / TN);
constexpr int A_LOADS = BM * BK / 4 / THREADS, B_LOADS = BK * BN / 4 / THREADS;   // float4s per thread per step
static_assert(A_LOADS >= 1 && B_LOADS >= 1 && BM * BK % (4 * THREADS) == 0 && BK * BN % (4 * THREADS) == 0,
              "whole float4s of the A and B slices per thread");

// Column (in the block tile) of a thread's j-th C value. Adjacent columns (tcol·TN + j) put the
// 16 threads of a half-warp 32 bytes apart, so their float4 reads of a B row hit each bank
// twice; split into float4 groups BN/(TN/4) apart, the half-warp reads 256 contiguous bytes.
__device__ __forceinline__ int col_of(int tcol, int j) {
#if SPLIT_N
    return (j / 4) * (BN / (TN / 4)) + tcol * 4 + j % 4;
#else
    return tcol * TN + j;
#endif
}

// The launch this file needs — threads per block, dynamic shared memory bytes — stated
// once, here; tcraw reads it from the cubin and refuses a declaration in kernels.py that differs.
extern "C" __constant__ int tcraw_launch[2] = {THREADS, 0};

extern "C" __global__ void __launch_bounds__(THREADS)
tiled_simt_fp32(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                int M, int N, int K) {
    __shared__ __align__(16) float As[2][BK][BM];
    __shared__ __align__(16) float Bs[2][BK][BN];

    const int tid = threadIdx.x;
    const int trow = tid / (BN / TN), tcol = tid % (BN / TN);   // this thread's TM×TN patch
    const float* Ablk = A + (size_t)blockIdx.y * BM * K;
    const float* Bblk = B + (size_t)blockIdx.x * BN;
    // The float4s of the A and B slices this thread fetches each step: the i-th is float4
    // number tid + i·THREADS of the slice, row-major.
    float4 a4[A_LOADS], b4[B_LOADS];
    auto fetch = [&](int k0) {
#pragma unroll
        for (int i = 0; i < A_LOADS; ++i) {
            const int f = tid + i * THREADS, r = f / (BK / 4), c = (f % (BK / 4)) * 4;
            a4[i] = *reinterpret_cast<const float4*>(Ablk + (size_t)r * K + k0 + c);
        }
#pragma unroll
        for (int i = 0; i < B_LOADS; ++i) {
            const int f = tid + i * THREADS, r = f / (BN / 4), c = (f % (BN / 4)) * 4;
            b4[i] = *reinterpret_cast<const float4*>(Bblk + (size_t)(k0 + r) * N + c);
        }
    };
    auto stash = [&](int buf) {   // A goes in transposed: As[k][m]
#pragma unroll
        for (int i = 0; i < A_LOADS; ++i) {
            const int f = tid + i * THREADS, r = f / (BK / 4), c = (f % (BK / 4)) * 4;
            As[buf][c + 0][r] = a4[i].x; As[buf][c + 1][r] = a4[i].y;
            As[buf][c + 2][r] = a4[i].z; As[buf][c + 3][r] = a4[i].w;
        }
#pragma unroll
        for (int i = 0; i < B_LOADS; ++i) {
            const int f = tid + i * THREADS, r = f / (BN / 4), c = (f % (BN / 4)) * 4;
            *reinterpret_cast<float4*>(&Bs[buf][r][c]) = b4[i];
        }
    };

    float acc[TM][TN] = {};
    fetch(0);
    int buf = 0;
    stash(0);
    __syncthreads();

    for (int k0 = 0; k0 < K; k0 += BK) {
        const bool more = k0 + BK < K;
        if (more) fetch(k0 + BK);   // next slice into registers now; its latency hides behind the FMAs
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            float ra[TM], rb[TN];
#pragma unroll
            for (int i = 0; i < TM; i += 4)
                *reinterpret_cast<float4*>(&ra[i]) = *reinterpret_cast<const float4*>(&As[buf][kk][trow * TM + i]);
#pragma unroll
            for (int j = 0; j < TN; j += 4)
                *reinterpret_cast<float4*>(&rb[j]) = *reinterpret_cast<const float4*>(&Bs[buf][kk][col_of(tcol, j)]);
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j)
                    acc[i][j] = fmaf(ra[i], rb[j], acc[i][j]);
        }
        if (more) stash(buf ^ 1);   // the other buffer: nobody reads it until after the barrier below
        __syncthreads();
        buf ^= 1;
    }

    float* Cblk = C + (size_t)(blockIdx.y * BM + trow * TM) * N + blockIdx.x * BN;
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; j += 4)
            *reinterpret_cast<float4*>(&Cblk[(size_t)i * N + col_of(tcol, j)]) =
                make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]);
}
