// 01_naive_fp32.cu — the baseline every matmul starts as.
//
// C[M×N] = A[M×K] · B[K×N], row-major, FP32 in and out, on the CUDA cores.
// One thread computes one C element as a K-long chain of scalar FMAs: no data reuse beyond
// what the caches catch, so it is memory-latency bound. Out-of-range threads return, so any
// M, N, K ≥ 1 works. Launch geometry lives in tcraw/kernels.py next to its registration.

extern "C" __global__ void naive_fp32(const float* A, const float* B, float* C,
                                      int M, int N, int K) {
    // x runs along a row of C so a warp's B loads and C stores are coalesced.
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= M || col >= N) return;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
        acc += A[(size_t)row * K + k] * B[(size_t)k * N + col];
    C[(size_t)row * N + col] = acc;
}
