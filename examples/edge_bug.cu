// A student's first fp16 kernel, one thread per C element, meant to take any M, N, K — with the
// classic bug this example exists for: the bounds check says `row <= M` where it means `row < M`,
// so the threads of row M write one row past the end of C. Nothing crashes (the write lands in
// memory the allocator owns); only a guard band or compute-sanitizer sees it.
#include <cuda_fp16.h>

extern "C" __global__ void edge_bug(const half* A, const half* B, float* C, int M, int N, int K) {
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row <= M && col < N) {   // BUG: row == M is one past the last row
        float sum = 0.0f;
        for (int k = 0; k < K && row < M; ++k)   // (the reads are guarded: only the write strays)
            sum += __half2float(A[(size_t)row * K + k]) * __half2float(B[(size_t)k * N + col]);
        C[(size_t)row * N + col] = sum;
    }
}
