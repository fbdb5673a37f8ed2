// split_k_last.cuh — split-K's hand-off as 09 and 10 make it: each piece of a tile writes its
// partial sums to a workspace and counts itself in on a counter (the tile's; in 10, past 5 rounds
// of loads, first its set's); the last to arrive adds the counted pieces' sums, in a fixed order
// (the same bits every run, whichever finishes last), and sets the counter back to zero for the
// next launch.
#pragma once

// Whether this block is the last of a counter's `pieces` to count itself in (the same answer in
// every thread). Its partials, stored before the call, are visible before its count is; the last
// one's reads after it see every piece's (read them past L1, which holds none of them).
__device__ __forceinline__ bool last_piece_in(unsigned* counter, int pieces) {
    __threadfence();
    __syncthreads();
    __shared__ unsigned arrived;
    if (threadIdx.x == 0) arrived = atomicAdd(counter, 1u);
    __syncthreads();
    if (arrived != pieces - 1) return false;
    __threadfence();
    return true;
}
