// Not a rung of the ladder: a timing aid (tcraw.runtime.time_launches, which says why). One
// thread spins on the GPU's global nanosecond timer for `ns`, holding the stream it runs on,
// while the host queues the timed launches behind it; they then run back to back, each from its
// start event without waiting for the host.
extern "C" __global__ void hold_gpu(unsigned long long ns) {
    unsigned long long start, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    } while (now - start < ns);
}
