// Not a rung of the ladder: the copies a TMA kernel needs where an operand's rows are not a
// multiple of 16 bytes (a tensor map's row stride must be). tcraw.matmul.Pitched plans them:
// A and B are copied in, before the kernel, into rows padded to a multiple of 128 bytes; C is
// written there and copied out after it. Both copies run inside the timed launch.
//
// Why a kernel of its own, not cuMemcpy2DAsync: at 13×7507×7125 (fp16, H200) the driver's copy
// of B — 107 MB whose rows start 2 bytes off a 4-byte boundary every other row — took most of
// the time. Here every thread of `pitch_rows_in` writes one aligned 16-byte chunk of a padded
// row: it reads the (at most two) aligned 16-byte words that cover the source bytes and shifts
// them into place, so loads and stores are all 16 bytes wide and a warp's are contiguous,
// whatever the rows' alignment (any element size: 07's 1-byte FP8 and INT8 too). And A's and B's
// copies are one launch (a launch's fixed cost weighs on small problems).
//
// Bytes past the end of a source are never read (the last word of a matrix may lie partly past
// it: read byte by byte); a padded row's chunks past the row hold whatever follows it — the
// kernels never read them (their tensor maps keep the real sizes).

struct Rows {   // one operand: `rows` rows of `row` bytes, `pitch` bytes apart in the padded copy
    const unsigned char* contiguous;   // rows `row` bytes apart (the caller's operand)
    unsigned char* padded;             // rows `pitch` bytes apart (a multiple of 16)
    unsigned long long row, pitch;
    unsigned rows, chunks;             // 16-byte chunks a row: ceil(row / 16)
};

// The 16 bytes at `at` of a 16-byte-aligned `base` holding `end` bytes (zeros past it).
__device__ __forceinline__ uint4 load16(const unsigned char* base, unsigned long long at, unsigned long long end) {
    const unsigned long long word = at & ~15ull;
    const unsigned off = static_cast<unsigned>(at & 15);
    unsigned v[8];
    auto fetch = [&](unsigned long long w, unsigned* out) {   // the aligned word at w, zeros past end
        if (w + 16 <= end) {
            const uint4 q = __ldg(reinterpret_cast<const uint4*>(base + w));
            out[0] = q.x, out[1] = q.y, out[2] = q.z, out[3] = q.w;
            return;
        }
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            unsigned x = 0;
#pragma unroll
            for (int b = 0; b < 4; ++b)
                if (w + 4 * i + b < end) x |= unsigned(base[w + 4 * i + b]) << 8 * b;
            out[i] = x;
        }
    };
    fetch(word, v);
    if (off) fetch(word + 16, v + 4);
    else v[4] = v[5] = v[6] = v[7] = 0;
    // Shift right by `off` bytes: whole words by q (selects, not a dynamic register index,
    // which would put v in local memory), then the rest by a funnel shift.
    const unsigned q = off >> 2, bits = (off & 3) * 8;
    unsigned s[5];
#pragma unroll
    for (int j = 0; j < 5; ++j)
        s[j] = q == 0 ? v[j] : q == 1 ? v[j + 1] : q == 2 ? v[j + 2] : v[j + 3];
    return make_uint4(__funnelshift_r(s[0], s[1], bits), __funnelshift_r(s[1], s[2], bits),
                      __funnelshift_r(s[2], s[3], bits), __funnelshift_r(s[3], s[4], bits));
}

__device__ __forceinline__ void copy_in(const Rows& m, unsigned i) {   // chunk i of m's rows
    const unsigned r = i / m.chunks, c = i - r * m.chunks;
    const unsigned long long at = r * m.row + 16ull * c;
    *reinterpret_cast<uint4*>(m.padded + r * m.pitch + 16ull * c) = load16(m.contiguous, at, m.rows * m.row);
}

// A's chunks, then B's (b.rows == 0: A alone): one thread a chunk, grid-wide.
extern "C" __global__ void __launch_bounds__(256) pitch_rows_in(const Rows a, const Rows b) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x, in_a = a.rows * a.chunks;
    if (i < in_a) copy_in(a, i);
    else if (i - in_a < b.rows * b.chunks) copy_in(b, i - in_a);
}

// C back: one thread a `unit` of bytes (C's element: 4 for fp32 and int32, 2 for bf16; 1, 2 or 4 —
// the host refuses others), the padded rows' aligned loads to the caller's rows, whose starts
// are only element-aligned.
extern "C" __global__ void __launch_bounds__(256) pitch_rows_out(const Rows c, unsigned unit) {
    const unsigned units = static_cast<unsigned>(c.row / unit);
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x, r = i / units, u = i - r * units;
    if (r >= c.rows) return;
    const unsigned long long at = static_cast<unsigned long long>(u) * unit;   // (a row may pass 4 GiB)
    const unsigned char* from = c.padded + r * c.pitch + at;
    unsigned char* to = const_cast<unsigned char*>(c.contiguous) + r * c.row + at;
    if (unit == 4) *reinterpret_cast<unsigned*>(to) = *reinterpret_cast<const unsigned*>(from);
    else if (unit == 2) *reinterpret_cast<unsigned short*>(to) = *reinterpret_cast<const unsigned short*>(from);
    else if (unit == 1) *to = *from;
}
