// 00_reference_fp64.cu — not a rung of the ladder: the device reference that checks the big sizes.
//
// One thread per C element, the dot product accumulated in fp64 from the inputs exactly as the
// kernels under test read them, plus the dot product of magnitudes (|A||B|) that the error bound
// scales with. Deliberately simple: its only job is to be right, fast enough that 8192³ checks in
// seconds rather than the CPU's minutes. Any M, N, K; row-major; ld = K for A and N for B, C.

#include <cuda_fp16.h>
#include <cuda_bf16.h>

__device__ __forceinline__ double widen(float x) { return x; }
__device__ __forceinline__ double widen(double x) { return x; }
__device__ __forceinline__ double widen(__half x) { return __half2float(x); }
__device__ __forceinline__ double widen(__nv_bfloat16 x) { return __bfloat162float(x); }
__device__ __forceinline__ double widen(signed char x) { return x; }

template <typename In>
__device__ __forceinline__ void reference(const In* A, const In* B, double* C, double* absC,
                                          int M, int N, int K) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= M || col >= N) return;
    double acc = 0.0, mag = 0.0;
    for (int k = 0; k < K; ++k) {
        double p = widen(A[(size_t)row * K + k]) * widen(B[(size_t)k * N + col]);
        acc += p;
        mag += fabs(p);
    }
    C[(size_t)row * N + col] = acc;
    absC[(size_t)row * N + col] = mag;
}

#define TCRAW_REFERENCE(name, In)                                                             \
    extern "C" __global__ void name(const In* A, const In* B, double* C, double* absC,         \
                                    int M, int N, int K) { reference<In>(A, B, C, absC, M, N, K); }

TCRAW_REFERENCE(reference_fp32, float)          // fp32 and tf32 (tf32 inputs are rounded on the host)
TCRAW_REFERENCE(reference_fp16, __half)
TCRAW_REFERENCE(reference_bf16, __nv_bfloat16)
TCRAW_REFERENCE(reference_int8, signed char)
TCRAW_REFERENCE(reference_fp64, double)
