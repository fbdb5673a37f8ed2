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

// FP8 codes, decoded by hand (sign, exponent, mantissa): E4M3 has no infinities and one NaN per
// sign (S.1111.111), E5M2 is IEEE-like. The per-tensor scales are the host's to apply.
struct e4m3 { unsigned char bits; };
struct e5m2 { unsigned char bits; };
__device__ __forceinline__ double widen(e4m3 x) {
    const int e = (x.bits >> 3) & 15, f = x.bits & 7;
    if ((x.bits & 0x7F) == 0x7F) return __longlong_as_double(0x7FF8000000000000LL);
    const double v = e ? ldexp(1.0 + f / 8.0, e - 7) : ldexp(f / 8.0, -6);
    return x.bits & 0x80 ? -v : v;
}
__device__ __forceinline__ double widen(e5m2 x) {
    const int e = (x.bits >> 2) & 31, f = x.bits & 3;
    const double v = e == 31 ? __longlong_as_double(f ? 0x7FF8000000000000LL : 0x7FF0000000000000LL)
                   : e ? ldexp(1.0 + f / 4.0, e - 15) : ldexp(f / 4.0, -14);
    return x.bits & 0x80 ? -v : v;
}

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
TCRAW_REFERENCE(reference_e4m3, e4m3)
TCRAW_REFERENCE(reference_e5m2, e5m2)
