// cluster.cuh — a thread block cluster's rank and barrier (sm_90), as 06/07 and 10 use them.
#pragma once

__device__ __forceinline__ unsigned cluster_rank() {
    unsigned r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}

// Every thread of every block in the cluster (a plain __syncthreads when the cluster is one
// block); the release and acquire make each block's shared-memory writes before it visible to
// every block's reads after it.
__device__ __forceinline__ void cluster_sync() {
    asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}
