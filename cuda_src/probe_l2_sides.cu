// probe_l2_sides.cu — not a rung of the ladder: which SMs share a side of the L2. Hopper's L2 is
// two partitions; an SM reads through the one near it, which keeps copies of lines whose home is
// the other (NVIDIA's H100 whitepaper), and a line it has no copy of crosses between them (Nsight
// Compute's lts__t_sectors_srcunit_ltcfabric). scripts/l2_sides.py runs it.
//
// One block per SM (the host asks for enough shared memory that two cannot share one). The block
// on SM `ref` reads every line of `chain` first — each line then sits in its home partition and,
// if that is not ref's side, in a copy on ref's side — and raises `flag`. Every other block then
// walks its own set of lines (set b: a chain of `lines` 128-byte lines whose first word is the
// next one's index, in a shuffled order so no load can start before the one before it ends),
// timing each pass in SM clocks: the first pass finds all of its lines near if it is on ref's
// side, about half of them across the fabric if not; the second pass, on lines its own side now
// holds, is the near latency alone. out[4b ...]: %smid, first pass, second pass (cycles, summed),
// the walk's end — or, the first pass, ~0 if the flag never came (no block ran on SM ref: another
// process holds SMs), after about 2^31 cycles of waiting.

constexpr unsigned long long NO_FLAG = ~0ull;

extern "C" __global__ void l2_sides_chase(const unsigned* chain, int lines, unsigned ref, unsigned* flag,
                                          unsigned long long* out) {
    const int sets = gridDim.x;
    unsigned smid;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    if (smid == ref) {   // every line of every set, by all threads at once, then the flag
        unsigned seen = 0;
        for (int i = threadIdx.x; i < sets * lines; i += blockDim.x) {
            unsigned v;
            asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(chain + 32ull * i));
            seen ^= v;
        }
        __syncthreads();
        if (threadIdx.x == 0) {
            out[4 * blockIdx.x] = smid, out[4 * blockIdx.x + 3] = seen;   // (keeps the loads)
            asm volatile("st.release.gpu.global.u32 [%0], 1;" ::"l"(flag) : "memory");
        }
        return;
    }
    if (threadIdx.x != 0) return;
    out[4 * blockIdx.x] = smid;
    const long long start = clock64();
    unsigned ready = 0;
    while (!ready) {
        asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(ready) : "l"(flag) : "memory");
        if (!ready && clock64() - start > (1ll << 31)) {
            out[4 * blockIdx.x + 1] = NO_FLAG;
            return;
        }
        if (!ready) __nanosleep(256);   // (131 SMs polling one line: not every cycle)
    }
    unsigned at = blockIdx.x;   // set b's first line is line b (sets interleave: line i·sets + b)
    for (int pass = 0; pass < 2; ++pass) {
        const long long t0 = clock64();
        for (int i = 0; i < lines; ++i)
            asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(at) : "l"(chain + 32ull * at) : "memory");
        out[4 * blockIdx.x + 1 + pass] = clock64() - t0;
    }
    out[4 * blockIdx.x + 3] = at;   // (the walk's end: keeps it)
}

// Which SM each block of a launch in clusters of 2 lands on (one block per SM, as 06 runs):
// out[b] = %smid of block b.
extern "C" __global__ void __cluster_dims__(2, 1, 1) l2_sides_cluster_smids(unsigned* out) {
    unsigned smid;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    if (threadIdx.x == 0) out[blockIdx.x] = smid;
}
