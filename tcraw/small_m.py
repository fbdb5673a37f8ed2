"""09 and 10: M of a few rows against a large B — 09's mma.sync on B read in place at any pitch,
10's GEMV on the CUDA cores — their macros, launch geometry, split of K and picks (06's pick hands
such problems to them: tcraw.wgmma)."""

from .errors import UsageError
from .kernel import Geometry, Kernel, cdiv, checked_macros, checked_problem, clusters_held, spelt_macros
from .precision import PRECISIONS

# -- 09: M ≤ 64 against a large B — mma.sync on B read in place at any pitch, split-K over every SM ---

# STAGES: the cp.async ring (6 × 13.5 KB: two blocks an SM); SPLIT: pieces of K, the grid's y
# (0: small_m_split picks it for the problem). SPLIT is the launch's, not a macro of the .cu.
SMALL_M_TILE = {"STAGES": 6, "SPLIT": 0}
SMALL_M_ROWS, SMALL_M_BN, SMALL_M_BK = 64, 128, 32   # M's bound, a block's columns, a slice of K
SMALL_M_SPLIT_MOST = 64
SMALL_M_BLOCKS_PER_SM = 2   # what the split aims to keep on each SM: over 27 shapes (M ≤ 32, H200, fp16)
# 0.917× cuBLAS geomean, against 0.452 / 0.646 / 0.848 / 0.881 / 0.839 with K whole or in 2, 4, 8,
# 16 pieces everywhere (docs/results/2026-12-02-h200-small-m-b-in-place/, run 3); and, 09 as it is
# now (then with 32 rows of A), 1.014× against 0.943× with three blocks and 0.91× with four (4 or 5
# stages) (docs/results/2026-12-02-h200-09-faster/, run 3)
SMALL_M_MIN_SLICES = 8      # a piece's least slices of K (the pipeline's fill is paid once a piece)
SMALL_M_SMEM_MOST = 227 * 1024   # a block's shared memory on sm_90 (and sm_80's 163 KB: device_refusal)


def small_m_stage_bytes():
    """One stage of 09's ring: 32 rows of B's span (128 columns and a 16-byte word for the
    row's offset) and 64 of A's (32 columns and the same)."""
    return SMALL_M_BK * (2 * SMALL_M_BN + 16) + SMALL_M_ROWS * (2 * SMALL_M_BK + 16)


def small_m_split(m, n, k, sms):
    """Pieces of K for 09 on (m, n, k): as many as keep SMALL_M_BLOCKS_PER_SM blocks on each of
    ``sms`` SMs with the column tiles there are, none of fewer than SMALL_M_MIN_SLICES slices."""
    m, n, k, sms = checked_problem(m, n, k, sms)
    tiles, slices = cdiv(n, SMALL_M_BN), cdiv(k, SMALL_M_BK)
    return max(1, min(SMALL_M_SPLIT_MOST, slices // SMALL_M_MIN_SLICES, SMALL_M_BLOCKS_PER_SM * sms // tiles))


def small_m_workspace(split):
    """Bytes of 09's workspace for a grid of ``blocks`` cut in ``split`` pieces of K: a counter a
    block (those of the column tiles are used), then 64 × 128 fp32 partial sums a block."""
    if split == 1:
        return lambda blocks: 16   # (the kernel takes the pointer, and with one piece reads nothing)
    return lambda blocks: 4 * cdiv(blocks, 4) * 4 + blocks * SMALL_M_ROWS * SMALL_M_BN * 4


def _small_m_over(tile, picked, overrides):
    """09's macros for a run: ``tile``'s, the caller's ``overrides`` (None: its own) over them, and
    the picked split where neither sets one (SPLIT=0 asks for the pick, as in the declaration)."""
    macros = {**tile, **{name: value for name, value in overrides.items() if value is not None}}
    return {**macros, "SPLIT": macros["SPLIT"] or picked["SPLIT"]}


def small_m_kernel(key, tile=SMALL_M_TILE, name=None):
    """The 09 kernel (fp16, bf16) for M ≤ 64: B read where it lies, any row pitch (no copy), each
    column tile's K cut in SPLIT pieces over the grid's y. SPLIT=0 (the default): each problem
    gets small_m_split's; a run may override STAGES and SPLIT (Kernel.configured)."""
    if key not in ("fp16", "bf16"):
        raise UsageError(f"09 comes in fp16 and bf16, not {key!r}")
    tile = {**SMALL_M_TILE, **checked_macros(tile, SMALL_M_TILE, "09", ("STAGES",))}
    if tile["STAGES"] < 2:
        raise UsageError(f"09's cp.async ring needs STAGES ≥ 2 (one slice in flight while one is read), "
                         f"not {tile['STAGES']}")
    split = tile["SPLIT"]
    if split > SMALL_M_SPLIT_MOST:
        raise UsageError(f"09 cuts K in at most {SMALL_M_SPLIT_MOST} pieces (each a partial tile in the "
                         f"workspace), not SPLIT={split}")
    smem = tile["STAGES"] * small_m_stage_bytes()
    if smem > SMALL_M_SMEM_MOST:
        raise UsageError(f"09 with STAGES={tile['STAGES']} needs {smem} bytes of shared memory a block; "
                         f"sm_90 offers {SMALL_M_SMEM_MOST}: STAGES ≤ {SMALL_M_SMEM_MOST // small_m_stage_bytes()}")

    def geometry(m, n, k):
        return Geometry(grid=(cdiv(n, SMALL_M_BN), max(split, 1), 1), block=(128, 1, 1), smem_bytes=smem)
    return Kernel(
        name=name or f"small_m_{key}", source="09_mma_small_m_b_in_place.cu", entry=f"small_m_{key}",
        precision=PRECISIONS[key], min_arch=80, tile=(1, 1, 1), geometry=geometry,
        defines=(f"STAGES={tile['STAGES']}", f"TCRAW_MMA_{key.upper()}"), align=16, max_m=SMALL_M_ROWS,
        variant=spelt_macros({"STAGES": tile["STAGES"]}, SMALL_M_TILE),   # (SPLIT: the grid's, one cubin)
        workspace=small_m_workspace(max(split, 1)),
        tunables=tuple(SMALL_M_TILE) if not split else (), configs=({"SPLIT": 1},) if not split else (),
        configure=(lambda picked, over: small_m_kernel(key, _small_m_over(tile, picked, over), name))
        if not split else None,
        pick=(lambda m, n, k, sms: {"SPLIT": small_m_split(m, n, k, sms)}) if not split else None,
        summary=f"mma.sync m16n8k16 on B read in place (any row pitch, no copy), M ≤ {SMALL_M_ROWS}, "
                f"{SMALL_M_ROWS}×{SMALL_M_BN}×{SMALL_M_BK} tiles, {tile['STAGES']}-stage cp.async ring, "
                f"split-K {f'in {split} pieces' if split else 'over every SM'}, last piece sums in order")


# -- 10: M ≤ 4 — a GEMV on the CUDA cores, B realigned by shuffles, split-K over every SM ------------

# SPLIT: pieces of K, the grid's y, handed off through a workspace as 09's; CLUSTER_K: 2, 4 or 8
# pieces in one cluster, summed through distributed shared memory (both 0: gemv_pick's).
GEMV_TILE = {"SPLIT": 0, "CLUSTER_K": 0}
GEMV_CLUSTERS = (2, 4, 8)  # (a portable cluster holds 8 blocks at most)
# K's pieces summed in one cluster through distributed shared memory instead of the workspace (no
# GPU-wide fence, no counter, no last piece reading the others' back from L2; every piece sums a
# share). H200, fp16, each beside the pick in one process
# (docs/results/2026-12-03-h200-gemv-cluster/, run 3): with 8 pieces either way, less time at 53 of
# 65 shapes of M 1–4 (0.988 geomean; 0.962 where the clusters run at once, 0.909–1.044); against
# gemv_split's pieces, less where K is short and the tiles' clusters run at once — 4×1872×968 9.57 →
# 8.64 µs, 1×4688×668 8.99 → 8.26, 3×7391×1813 (30 clusters) 15.06 → 14.56 — more where K is long
# and the pick cuts it in more pieces (2×1775×3991 +11 %, 1×984×14929 +94 %) or the clusters take
# two rounds (at 31–33 of them, and 62, at 2 blocks an SM: 4×7818×874 +30 %; the GPCs hold 30
# clusters of 8 such blocks, as they hold 30 of 4 blocks of one an SM: clusters_held). The rule
# below, on 16 fresh shapes it moves (runs 4–5): 0.972 of the time fp16 (faster at 11; 4×389×2100
# +6.8 %, 32 pieces before), 0.981 bf16.
GEMV_IN_CLUSTER, GEMV_IN_CLUSTER_LEAST, GEMV_IN_CLUSTER_MOST_K = 8, 4, 2304
GEMV_ROWS, GEMV_WARPS = 4, 8   # M's bound, a block's warps (each 1/8 of the rows)
GEMV_SPLIT_MOST = 64      # (the last piece's sum: a round trip to L2 for every 32 / M pieces)
GEMV_BLOCKS_PER_SM = 2     # what the split aims to keep on each SM (what fits: 128 registers a thread)
GEMV_MIN_ROWS = 64         # a piece's least rows of K (8 a warp: one group of loads in flight)


def gemv_columns(n):
    """A block's columns of N in 10: 256 (32 lanes' 8) where B's rows start on 16-byte words (N a
    multiple of 8), else 248 — the last lane's word then only its neighbour's next (the .cu)."""
    return 256 if n % 8 == 0 else 248


def gemv_split(m, n, k, sms):
    """Pieces of K for 10 on (m, n, k): as many as keep GEMV_BLOCKS_PER_SM blocks on each of
    ``sms`` SMs with the column tiles there are, none of fewer than GEMV_MIN_ROWS rows."""
    tiles = cdiv(n, gemv_columns(n))
    return max(1, min(GEMV_SPLIT_MOST, k // GEMV_MIN_ROWS, GEMV_BLOCKS_PER_SM * sms // tiles))


def gemv_pick(m, n, k, sms):
    """10's macros for (m, n, k): K in GEMV_IN_CLUSTER pieces summed in one cluster where
    gemv_sums_in_cluster, else gemv_split's pieces handed off through the workspace. (It does not
    see the architecture: before sm_90 the cluster's pieces hand off through the workspace too.)"""
    if gemv_sums_in_cluster(m, n, k, sms):
        return {"SPLIT": 0, "CLUSTER_K": GEMV_IN_CLUSTER}
    return {"SPLIT": gemv_split(m, n, k, sms), "CLUSTER_K": 0}


def gemv_sums_in_cluster(m, n, k, sms):
    """Whether 10 sums K's pieces in a cluster of GEMV_IN_CLUSTER for (m, n, k): where the
    workspace's hand-off would cut K in GEMV_IN_CLUSTER_LEAST pieces or more, K is at most
    GEMV_IN_CLUSTER_MOST_K and the column tiles' clusters all run at once (see GEMV_IN_CLUSTER)."""
    m, n, k, sms = checked_problem(m, n, k, sms)
    return gemv_split(m, n, k, sms) >= GEMV_IN_CLUSTER_LEAST and k <= GEMV_IN_CLUSTER_MOST_K and \
        cdiv(n, gemv_columns(n)) <= clusters_held(sms, 4)


def gemv_workspace(split):
    """Bytes of 10's workspace for a grid of ``blocks`` cut in ``split`` pieces of K: a counter a
    block (the column tiles', then, where the pieces are added in sets, the sets'), then 4 × 256
    fp32 partial sums a block."""
    if split == 1:
        return lambda blocks: 16   # (the kernel takes the pointer, and with one piece reads nothing)
    return lambda blocks: 4 * cdiv(blocks, 4) * 4 + blocks * GEMV_ROWS * 256 * 4


def gemv_kernel(key, tile=GEMV_TILE, name=None):
    """The 10 kernel (fp16, bf16) for M ≤ 4: FFMAs on B's words straight from HBM, any row pitch
    (realigned by shuffles, no copy), each tile of 256 columns (248: gemv_columns) with its K cut
    in SPLIT pieces over the grid's y, handed off through a workspace — or, with CLUSTER_K of 2, 4
    or 8, in that many pieces, one cluster, summed through distributed shared memory (sm_90 on;
    built for an older GPU, through the workspace). Both 0 (the default): each problem gets
    gemv_pick's; a run may override either (_gemv_over)."""
    if key not in ("fp16", "bf16"):
        raise UsageError(f"10 comes in fp16 and bf16, not {key!r}")
    tile = {**GEMV_TILE, **checked_macros(tile, GEMV_TILE, "10")}
    split, cluster_k = tile["SPLIT"] or 0, tile["CLUSTER_K"] or 0
    if split > GEMV_SPLIT_MOST:
        raise UsageError(f"10 cuts K in at most {GEMV_SPLIT_MOST} pieces (each a partial tile in the "
                         f"workspace), not SPLIT={split}")
    if cluster_k:
        if cluster_k not in GEMV_CLUSTERS:
            raise UsageError(f"10's CLUSTER_K is 0 (K's pieces hand off through the workspace) or one of "
                             f"{', '.join(map(str, GEMV_CLUSTERS))} (that many pieces in one cluster, each summing "
                             f"an even share of a tile's 256 columns), not {cluster_k}")
        if split not in (0, cluster_k):
            raise UsageError(f"10 with CLUSTER_K={cluster_k} cuts K in {cluster_k} pieces (one cluster), not "
                             f"SPLIT={split}: leave SPLIT out or set it to {cluster_k}")
        split = cluster_k
    chosen = split or cluster_k

    def geometry(m, n, k):
        return Geometry(grid=(cdiv(n, gemv_columns(n)), max(split, 1), 1), block=(32 * GEMV_WARPS, 1, 1))
    return Kernel(
        name=name or f"gemv_{key}", source="10_gemv_b_realigned_by_shuffles.cu", entry=f"gemv_{key}",
        precision=PRECISIONS[key], min_arch=80, tile=(1, 1, 1), geometry=geometry,
        defines=(f"TCRAW_MMA_{key.upper()}",) + ((f"CLUSTER_K={cluster_k}",) if cluster_k else ()),
        align=16, max_m=GEMV_ROWS, variant=spelt_macros({"CLUSTER_K": cluster_k}, GEMV_TILE),
        workspace=gemv_workspace(max(split, 1)),
        tunables=tuple(GEMV_TILE) if not chosen else (),
        configs=({"SPLIT": 1, "CLUSTER_K": 0}, {"SPLIT": 0, "CLUSTER_K": GEMV_IN_CLUSTER}) if not chosen else (),
        configure=(lambda picked, over: gemv_kernel(key, _gemv_over(picked, over), name)) if not chosen else None,
        pick=gemv_pick if not chosen else None,
        summary=f"FFMA GEMV for M ≤ {GEMV_ROWS}: B's words straight to registers (any row pitch, "
                f"realigned by shuffles), 256 columns a block (248 off 16 bytes), "
                f"split-K {f'in {split} pieces' if split else 'over every SM'}, "
                + (f"summed in a cluster of {cluster_k}" if cluster_k else "last piece sums in order"))


def _gemv_over(picked, over):
    """10's macros for a run: the pick's SPLIT and CLUSTER_K — unless the run overrides either
    (0 or None: not overridden), which then replaces both (SPLIT alone: through the workspace)."""
    asked = {name: over[name] for name in GEMV_TILE if over.get(name)}
    return asked or {name: picked[name] for name in GEMV_TILE}
