// Not a rung of the ladder: a timing aid (tcraw.runtime.time_launches). One thread spins on the
// GPU's global nanosecond timer for `ns`, holding the stream it runs on, while the host queues
// the timed launches behind it; they then run back to back, each from its start event without
// waiting for the host. The host takes 8–27 µs to queue one (an event, the launch, an event: 06
// and cuBLAS through tcraw's bindings on the H200's host, scripts/timing_gap_probe.py) — longer
// than a small problem runs.
extern "C" __global__ void hold_gpu(unsigned long long ns) {
    unsigned long long start, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    } while (now - start < ns);
}
