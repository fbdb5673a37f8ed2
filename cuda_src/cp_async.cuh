// cp_async.cuh — the sm_80 asynchronous copy, shared by the pipelined rungs (04, 05).
//
// cp.async copies 16 bytes global → shared without passing through registers; copies are
// grouped by commit_group, and wait_group<N> blocks until at most N of this thread's groups are
// still in flight. A group only covers this thread's copies: a __syncthreads() after the wait
// makes everyone's visible.
#pragma once

__device__ __forceinline__ void cp_async16(unsigned smem_addr, const void* gmem) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(smem_addr), "l"(gmem));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N> __device__ __forceinline__ void cp_async_wait() {
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}
