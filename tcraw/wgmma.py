"""06 and 07: Hopper's TMA + wgmma kernels (cuda_src/wgmma_tma.cuh) — the macros they build with
and what they cannot, their launch geometry and workspace, a model of their time, and the pick of
a configuration per problem (which hands M of a few rows to 09 and 10: tcraw.small_m). Each rule
says what was measured to make it."""

from dataclasses import replace

from .driver.constants import TMA_BF16, TMA_FP16, TMA_FP32, TMA_UINT8
from .errors import UsageError
from .kernel import (Geometry, Kernel, cdiv, checked_choose, checked_macros, checked_problem, clusters_held,
                     macro_defines, spelt_macros)
from .precision import PRECISIONS
from .small_m import GEMV_IN_CLUSTER, gemv_kernel, gemv_pick, small_m_kernel, small_m_split
from .validate import is_whole

# -- 06: Hopper — TMA copies, wgmma from shared memory, producer/consumer warpgroups ---------------

WGMMA_TILE = {"CONSUMERS": 2, "BN": 256, "STAGES": 4, "CLUSTER": 2, "GROUP_M": 8, "STREAM_K": 1,
              "SPLIT_MIN_SAVED": 16, "SPLIT_K": 1, "SPLIT_MIN_SLICES": 4, "SPLIT_MAX": 16,
              "SPLIT_ROUNDS": 1,   # >1: tiles more than half the clusters cut too, in up to this many rounds of
                                   # pieces (split_pieces; the workspace holds this many partial tiles a block)
              "SPLIT_LOADS": None,   # split-K's sum over 3+ pieces: about this many 16-byte loads of partials at
                                     # once (None: as wgmma_split_loads says, 16 — 8 for three consumers past 160)
              "PROMOTE": 0,   # PROMOTE=N: MMAs accumulate N slices, then fp32 adds (FP8's accumulator study)
              "WAIT_DEPTH": None,   # 1: one slice's MMAs stay in flight while the next is issued;
                                    # None: as wgmma_wait_depth says (1 for one consumer)
              "A_ROWS": 0,       # rows of A loaded a slice (0: the block's all; 8/16 for tiny M)
              "A_EDGE": 4,       # a box of A past M's last row: copied as up to this many 8-row boxes of
                                 # real rows, not whole with zeros (0: whole; the .cu's a_copy)
              "A_SHIFT": 0,      # 1: a 64-row tile at M's edge (M ≥ 64, unswapped) copies A's last 64 rows and
                                 # stores its rows shifted back (the .cu's a_shift); 0: boxes as A_EDGE says.
                                 # Off (the picks took 1.003× the time with it; H100, 57 shapes) but in
                                 # NARROW_PAIRS_CONFIG, whose whole-K tiles it saves 28 % at M = 96
              "SWAP_AB": 0,      # 1: Cᵀ = Bᵀ·Aᵀ, M along the wgmma's n (BN a multiple of 16; fp16, bf16)
              "PINGPONG": 0,     # 64/128: the two consumers take tiles of these rows in turn (not shared)
              "COOP": 0,         # 1–5: two consumers side by side along the wgmma's n (BN each), each over all
                                 # of the tile's COOP · 64 rows — swapped, along M over rows of N (cuBLAS's
                                 # coopB tiles); unswapped, along N over rows of M (coopA; wgmma_cols) —
                                 # with CONSUMERS=2 and SPLIT_K=0 given too; not modelled or picked
              "SHARE_A": 0,      # 1: pairs of a cluster's blocks take neighbouring tiles of a tile row, sharing A
                                 # (in clusters of 2 picked only with 192-row tiles: the note after
                                 # TURNS_CONFIG, and ROWS_192; swapped, pairs along M sharing B's
                                 # columns: FIT_CONFIGS)
              "B_REALIGN": 0,    # 1: B read in place at any row pitch, its rows realigned in shared memory
                                 # (fp16, bf16; clusters along M, not swapped, BN ≤ 192: the .cu's b_realign)
              "C_PLAIN": None,   # 1: C stored in place at any row pitch by the consumers' own stores, not TMA's
                                 # (the .cu's plain_box); 0: by TMA, C copied out of a pitched buffer where its
                                 # rows lie off 16 bytes; None: 1 exactly there (the pick's: wgmma_plain_c)
              "C_PARTS": 1,      # swapped past 64 of M: C's box BN / C_PARTS rows, the parts stored in turn —
                                 # a smaller C staging buffer, a stage more (the .cu's store_c)
              "STREAM_K_DIV": 2,  # stream-K's pieces are at least 1/STREAM_K_DIV of a tile ...
              "STREAM_K_ROUNDS": 4,  # ... and cut a last partial round only after this many whole ones
                                     # (0: fewer tiles than clusters are all cut, stream-K over the whole problem)
              "A_LINES": 0}      # 1: A copied to 128-byte rows first where its rows start off 128-byte lines
                                 # (the host's: Kernel.lines; not a macro of the .cu — HOST_MACROS)
WGMMA_ROW_BYTES = 128          # a slice of K: one 128-byte swizzle row per operand row (64 halves)
WGMMA_C_BOX_COLS = 32          # C leaves in 64 × 32 fp32 boxes (one 128-byte swizzle row; 64 of bf16)
WGMMA_B_BOX_COLS = 64          # unswapped, B comes in boxes of 64 columns (07: 64 rows of N), the last one whole
SM90_SMEM_BYTES = 227 * 1024   # dynamic + static shared memory one sm_90 block can have


def wgmma_rows(tile):
    """The block tile's rows (the .cu's BM): 64 per consumer, or a consumer's own tile's
    (PINGPONG) when the two take tiles in turn, or COOP's 64 · COOP (both consumers over all)."""
    return tile.get("PINGPONG") or 64 * (tile.get("COOP") or tile["CONSUMERS"])


def wgmma_cols(tile):
    """The block tile's columns (the .cu's TILE_N; swapped, M's): BN, the wgmma's n — or with COOP,
    whose consumers split them, BN each, CONSUMERS × BN."""
    return tile["BN"] * (tile["CONSUMERS"] if tile.get("COOP") else 1)


def wgmma_smem_bytes(consumers, bn, stages, rows=None, swap=False, realign=False, c_parts=1, cols=None):
    """06's dynamic shared memory: alignment slack, the stages (A's ``rows`` — 64 per consumer
    unless given — and B's ``cols`` slices, BN unless given, whole 64-column boxes of them unswapped
    (the .cu's B_BOXES); ``realign``, B_REALIGN: B's staging
    boxes too, 8 classes of 8 rows of BN + 8 halves), two C boxes of 64 rows per consumer
    (``swap`` with BN over 64: one of BN rows, M's — of BN / ``c_parts`` — its parts in turn), two
    mbarriers per stage, three realigning (the .cu's SMEM_BYTES)."""
    b_cols = (cols or bn) if swap else whole_b_boxes(cols or bn)
    stage_bytes = ((rows or 64 * consumers) + b_cols) * WGMMA_ROW_BYTES + (64 * (bn + 8) * 2 if realign else 0)
    c_box_rows, c_boxes = (bn // c_parts, 1) if swap and bn > 64 else (64, 2)
    return 1024 + stages * stage_bytes + consumers * c_boxes * c_box_rows * WGMMA_C_BOX_COLS * 4 + \
        (3 if realign else 2) * stages * 8


def whole_b_boxes(cols):
    """An unswapped tile's ``cols`` of B as they arrive: whole boxes of WGMMA_B_BOX_COLS (the .cu's
    B_BOXES), the last one past the tile where ``cols`` is no multiple of them."""
    return cdiv(cols, WGMMA_B_BOX_COLS) * WGMMA_B_BOX_COLS


def wgmma_max_stages(consumers, bn, most=8, rows=None, swap=False, realign=False, c_parts=1, cols=None):
    """The most stages (up to ``most``) whose shared memory fits an sm_90 block (16 bytes spare
    for the kernel's static shared memory)."""
    stages = most
    while stages > 1 and \
            wgmma_smem_bytes(consumers, bn, stages, rows, swap, realign, c_parts, cols) + 16 > SM90_SMEM_BYTES:
        stages -= 1
    return stages


def wgmma_turns_build(tile):
    """Whether consumers taking tiles of tile["PINGPONG"] rows in turn can be built with the rest of
    ``tile``: two consumers, unswapped, no promotion, at most 128 accumulators a thread, clusters
    of 1 or 2."""
    return tile["PINGPONG"] in (64, 128) and tile["CONSUMERS"] == 2 and not tile["SWAP_AB"] and \
        not tile["PROMOTE"] and tile["PINGPONG"] * tile["BN"] <= 16384 and tile["CLUSTER"] <= 2


def wgmma_split_loads(tile):
    """The SPLIT_LOADS ``tile`` builds with: its own if set, else 16 — 8 for three consumers of
    more than 160 columns, whose 88 or 96 accumulators a thread leave room in the 160 registers
    setmaxnreg gives them for 8 loads' partials, not 16 (5 kB of spills at 192, 8–12 bytes of
    spill stores at a swapped 176; the .cu refuses more than 8 there)."""
    if tile["SPLIT_LOADS"] is not None:
        return tile["SPLIT_LOADS"]
    return 8 if tile["CONSUMERS"] == 3 and tile["BN"] > 160 else 16


def wgmma_three_consumers_refuse(tile):
    """The macros of ``tile`` that three consumers (192-row tiles) cannot be built with, as
    MACRO=value (empty if none): more than 192 columns, PROMOTE, more than 8 split-K loads at once
    past 160 columns (wgmma_split_loads), split-K in several rounds (SPLIT_ROUNDS: 16 bytes of
    spills at 192 × 192)."""
    bad = (("BN", tile["BN"] > 192), ("PROMOTE", tile["PROMOTE"]),
           ("SPLIT_LOADS", tile["BN"] > 160 and (tile["SPLIT_LOADS"] or 8) > 8),
           ("SPLIT_ROUNDS", tile["SPLIT_ROUNDS"] > 1))
    return [f"{name}={tile[name]}" for name, wrong in bad if wrong]


def wgmma_cluster_shape(tile):
    """A cluster's blocks along M and along N (the .cu's CM, CN): (CLUSTER, 1), sharing B — or,
    sharing A (SHARE_A), pairs along N: (1, 2) or (2, 2). The blocks along N share A's box,
    those along M B's. (Swapped, SWAP_AB, along the tile's rows and columns — N and M: the
    blocks along N share A's rows, a pair along M B's columns.)"""
    return (tile["CLUSTER"] // 2, 2) if tile.get("SHARE_A") else (tile["CLUSTER"], 1)


# 06/07's macros that count something (0 would leave nothing, or divide by it)
WGMMA_POSITIVE = ("CONSUMERS", "BN", "STAGES", "CLUSTER", "GROUP_M", "SPLIT_MIN_SLICES", "SPLIT_LOADS",
                  "STREAM_K_DIV", "SPLIT_MAX", "SPLIT_ROUNDS", "C_PARTS")
# ... and those that switch something on or off: 0 or 1 (the .cu reads any other value as 1)
WGMMA_SWITCHES = ("STREAM_K", "SPLIT_K", "SWAP_AB", "SHARE_A", "B_REALIGN", "A_LINES", "A_SHIFT", "C_PLAIN")
# ... of which the host's alone: not passed to NVRTC, not in a configuration's variant (its cubin
# and prebuilt file are the same without it)
HOST_MACROS = ("A_LINES",)


def device_macros(macros):
    """``macros`` (name -> value) without the host's (HOST_MACROS): what the .cu is built with."""
    return {name: value for name, value in macros.items() if name not in HOST_MACROS}


SPLIT_ROUNDS_MOST = 8   # (each round more is a partial tile a block in the workspace)


def checked_switches(tile):
    """``tile`` if each of its WGMMA_SWITCHES is 0 or 1 (C_PLAIN None too: the pick's); else a
    UsageError naming those that are not."""
    if (on := [f"{name}={tile[name]}" for name in WGMMA_SWITCHES
               if tile[name] not in (0, 1) and not (name == "C_PLAIN" and tile[name] is None)]):
        raise UsageError(f"{', '.join(on)}: {'/'.join(WGMMA_SWITCHES)} each switch something on (1) or off (0) "
                         "(C_PLAIN None: where C's rows lie off 16 bytes)")
    return tile


def wgmma_checked(tile):
    """``tile`` if 06/07 can be built with it; else a UsageError saying which macro and what fits."""
    consumers, bn, cluster, stages = tile["CONSUMERS"], tile["BN"], tile["CLUSTER"], tile["STAGES"]
    rows = wgmma_rows(checked_switches(tile))
    if tile["PINGPONG"] and cluster == 4:
        raise UsageError(f"PINGPONG={tile['PINGPONG']} runs in clusters of 1 or 2 (its turns are not built for 4); "
                         "got CLUSTER=4")
    if tile["PINGPONG"] and not wgmma_turns_build(tile):
        raise UsageError(f"PINGPONG={tile['PINGPONG']}: the rows of each consumer's own tile, 64 or 128, with "
                         f"CONSUMERS=2, no SWAP_AB or PROMOTE, and at most 128 accumulators a thread (PINGPONG × BN "
                         f"≤ 16384: BN up to 256 at 64, 128 at 128); got CONSUMERS={consumers}, BN={bn}, "
                         f"SWAP_AB={tile['SWAP_AB']}, PROMOTE={tile['PROMOTE']}")
    swapped_width = bn % 16 == 0 and 16 <= bn <= 256   # (the wgmma's n: every multiple of 16 builds, wgmma_step)
    if tile["SWAP_AB"]:
        # (in clusters along N each block copies BN / (its blocks along N) of A's rows for all: at
        # least 4 of a multiple of 16 — a piece may start and end mid 8-row swizzle atom, which
        # the copy engine swizzles by shared-memory address: 128 × 16 tiles in clusters of 4 ran
        # correct on the H200, docs/results/2026-12-04-h200-acc-sets-fours/)
        wants = [want for want, bad in (
            ("BN (M's tile) a multiple of 16 from 16 to 256", not swapped_width),
            ("CLUSTER 1, 2 or 4", cluster not in (1, 2, 4)),
            ("no A_ROWS", tile["A_ROWS"]),
            ("CONSUMERS 1, 2 or 3", consumers not in (1, 2, 3))) if bad]
        if wants:
            raise UsageError(f"SWAP_AB=1 takes {', '.join(wants)}; "
                             f"got BN={bn}, CLUSTER={cluster}, A_ROWS={tile['A_ROWS']}, CONSUMERS={consumers}")
    elif consumers not in (1, 2, 3) or not (swapped_width and bn >= 64) or cluster not in (1, 2, 4):
        raise UsageError(f"06/07 cannot be built with CONSUMERS={consumers}, BN={bn}, CLUSTER={cluster}: CONSUMERS "
                         "is 1, 2 or 3, BN a multiple of 16 from 64 to 256, and CLUSTER 1, 2 or 4" +
                         (f" (BN={bn} is a width only swapped tiles take: SWAP_AB=1)" if swapped_width and bn < 64
                          else ""))
    if consumers == 3 and (wrong := wgmma_three_consumers_refuse(tile)):
        raise UsageError(f"CONSUMERS=3 (192-row tiles) cannot be built with {', '.join(wrong)}: its consumers hold "
                         "their accumulators in 160 registers a thread — BN of at most 192, no PROMOTE, SPLIT_LOADS "
                         "of at most 8 past BN=160; or CONSUMERS=2 for the others")
    if tile["SHARE_A"] and (cluster not in (2, 4) or tile["A_ROWS"] or tile["PINGPONG"] or
                            (tile["SWAP_AB"] and consumers == 1)):
        raise UsageError(f"SHARE_A=1 shares A between pairs of a cluster's blocks (swapped: B's columns, the "
                         f"consumers' 64 dealt between them): it needs CLUSTER=2 or 4, no A_ROWS or PINGPONG, and "
                         f"swapped CONSUMERS=2 or 3; got CLUSTER={cluster}, A_ROWS={tile['A_ROWS']}, "
                         f"PINGPONG={tile['PINGPONG']}, SWAP_AB={tile['SWAP_AB']}, CONSUMERS={consumers}")
    if tile["B_REALIGN"] and not wgmma_realign_builds(tile):
        raise UsageError(f"B_REALIGN=1 realigns B's rows in the B slot of unswapped tiles, a class box row of BN + 8 "
                         f"halves (at most 256): it needs BN of 64, 128 or 192, one or two consumers, no SWAP_AB, "
                         f"SHARE_A, PINGPONG or COOP; got BN={bn}, CONSUMERS={consumers}, SWAP_AB={tile['SWAP_AB']}, "
                         f"SHARE_A={tile['SHARE_A']}, PINGPONG={tile['PINGPONG']}, COOP={tile['COOP']}")
    if tile["PROMOTE"] and bn > 128:
        raise UsageError(f"PROMOTE={tile['PROMOTE']} doubles the accumulators: it needs BN of at most 128, not {bn}")
    if tile["STREAM_K_DIV"] < 1:
        raise UsageError(f"STREAM_K_DIV={tile['STREAM_K_DIV']}: stream-K's pieces are at least 1/STREAM_K_DIV of a "
                         "tile, so it is a whole number ≥ 1")
    if not 1 <= tile["SPLIT_LOADS"] <= 32:   # (64 would hold 256 registers of partials)
        raise UsageError(f"SPLIT_LOADS={tile['SPLIT_LOADS']}: the split-K sum's loads at once, a whole number from "
                         "1 to 32")
    if tile["SPLIT_ROUNDS"] > SPLIT_ROUNDS_MOST:
        raise UsageError(f"SPLIT_ROUNDS={tile['SPLIT_ROUNDS']}: split-K's rounds of pieces, 1 (one round, the "
                         f"tiles at most half the clusters) to {SPLIT_ROUNDS_MOST}")
    if tile["A_EDGE"] > 32:
        raise UsageError(f"A_EDGE={tile['A_EDGE']}: the most 8-row boxes a box of A at M's edge is copied as, "
                         "0 (copied whole) to 32 (a box has at most 256 rows)")
    if tile["A_ROWS"] % 8 or not 0 <= tile["A_ROWS"] <= rows:
        raise UsageError(f"A_ROWS={tile['A_ROWS']}: a multiple of 8 up to the block tile's {rows} rows "
                         "(0: all of them)")
    if tile["WAIT_DEPTH"] not in (0, 1) or (tile["WAIT_DEPTH"] and (tile["PROMOTE"] or stages < 2)):
        raise UsageError(f"WAIT_DEPTH is 0 or 1, and 0 with PROMOTE (it reads the MMAs' sums after every "
                         f"batch) or one stage (it frees a stage a slice late); got WAIT_DEPTH={tile['WAIT_DEPTH']}, "
                         f"PROMOTE={tile['PROMOTE']}, STAGES={stages}")
    swap, realign, parts, cols = tile["SWAP_AB"], tile["B_REALIGN"], tile["C_PARTS"], wgmma_cols(tile)
    coop = tile["COOP"]
    if coop and not wgmma_coop_builds(tile):
        raise UsageError(f"COOP={coop}: two consumers side by side along the wgmma's n (swapped, M; unswapped, N), "
                         f"each over the tile's COOP · 64 rows (1 to 5), needs CONSUMERS=2, no PINGPONG, PROMOTE, "
                         f"SPLIT_K or C_PARTS, at most 160 accumulators a thread (COOP × BN ≤ 320); "
                         f"A's box of at most 256 rows (swapped, 2 · BN over the cluster's blocks along N; unswapped, "
                         f"COOP · 64 over those along N); unswapped, BN a multiple of 64 (each consumer's columns "
                         f"start on a B box); got "
                         f"SWAP_AB={swap}, CONSUMERS={consumers}, PINGPONG={tile['PINGPONG']}, "
                         f"PROMOTE={tile['PROMOTE']}, SPLIT_K={tile['SPLIT_K']}, C_PARTS={parts}, BN={bn}, "
                         f"CLUSTER={cluster}")
    if parts > 1 and not (swap and bn > 64 and bn % (8 * parts) == 0):
        raise UsageError(f"C_PARTS={parts} stores a swapped tile's C in boxes of BN / C_PARTS rows: it needs SWAP_AB=1, "
                         f"BN over 64 and BN / C_PARTS a multiple of 8; got SWAP_AB={swap}, BN={bn} "
                         f"({bn / parts:g} rows)")
    if not 1 <= stages <= wgmma_max_stages(consumers, bn, max(stages, 1), rows, swap, realign, parts, cols):
        raise UsageError(f"STAGES={stages} with CONSUMERS={consumers}, BN={bn}, {rows}-row tiles"
                         f"{', swapped' if swap else ''}{f', C in {parts} parts' if parts > 1 else ''}"
                         f"{', B realigned' if realign else ''} needs "
                         f"{wgmma_smem_bytes(consumers, bn, max(stages, 1), rows, swap, realign, parts, cols)} "
                         f"bytes of shared memory; an sm_90 block has {SM90_SMEM_BYTES}: at most "
                         f"STAGES={wgmma_max_stages(consumers, bn, 8, rows, swap, realign, parts, cols)}")
    return tile


def wgmma_coop_builds(tile):
    """Whether ``tile``'s COOP (set) builds: two consumers, no PINGPONG, PROMOTE, SPLIT_K or C_PARTS,
    COOP of 1–5, at most 160 accumulators a thread, A's box of at most 256 rows (swapped: 2 · BN of
    M, unswapped COOP · 64, over the cluster's blocks sharing it); unswapped, BN a multiple of 64
    (consumer 1's columns start on a B box). (B_REALIGN, which it cannot take either, is
    wgmma_realign_builds' to refuse: a declared one gives way to a pick's COOP, _with_stages.)"""
    coop, (along_m, along_n) = tile["COOP"], wgmma_cluster_shape(tile)   # (along_m 0: a cluster shape that is none)
    shaped = along_m >= 1 and wgmma_cols(tile) // along_m <= 256 if tile["SWAP_AB"] else \
        tile["BN"] % WGMMA_B_BOX_COLS == 0 and wgmma_rows(tile) // along_n <= 256
    return bool(tile["CONSUMERS"] == 2 and not tile["PINGPONG"] and not tile["PROMOTE"] and not tile["SPLIT_K"] and
                tile["C_PARTS"] == 1 and 1 <= coop <= 5 and coop * tile["BN"] <= 320 and shaped)


def wgmma_realign_builds(tile):
    """Whether B_REALIGN builds with the rest of ``tile``: unswapped tiles of one or two consumers,
    BN of 64, 128 or 192 (a class box row of BN + 8 halves is at most 256, and its 16-byte chunks
    divide the 96 threads that move them), no SHARE_A, PINGPONG or COOP."""
    return not (tile["SWAP_AB"] or tile["SHARE_A"] or tile["PINGPONG"] or tile["COOP"]) and tile["CONSUMERS"] <= 2 and \
        tile["BN"] in (64, 128, 192)


def wgmma_swap_step(cluster, share_a=0):
    """The step of the widths (BN, M's side) FIT_CONFIGS give swapped tiles in clusters of
    ``cluster``: 16 — or 8 × the cluster's blocks along N, 32 in clusters of 4 along N (with
    ``share_a``, pairs along M: half as many), as measured when each of those had to copy whole
    8-row swizzle atoms of A's rows. (Pieces of 4 rows build since 2026-12-04; the finer widths
    they allow in clusters of 4 are not measured there.)"""
    return max(16, 8 * (cluster // 2 if share_a else cluster))


def wgmma_geometry(tile):
    consumers, bn, rows, cols = tile["CONSUMERS"], tile["BN"], wgmma_rows(tile), wgmma_cols(tile)
    smem = wgmma_smem_bytes(consumers, bn, tile["STAGES"], rows, tile["SWAP_AB"], tile["B_REALIGN"], tile["C_PARTS"],
                            cols)

    def geometry(m, n, k):
        # A 1-D grid of one block per C tile, which `persistent` caps at one block per SM (each
        # block then walks several tiles); one producer warpgroup + the consumers.
        return Geometry(grid=(cdiv(m, rows) * cdiv(n, cols), 1, 1), block=(128 * (consumers + 1), 1, 1),
                        smem_bytes=smem)
    return geometry


def wgmma_workspace(tile):
    """Bytes of 06's workspace for a grid of ``blocks``: a stream-K flag per block and SPLIT_ROUNDS
    split-K counters, then (16-byte aligned) split-K partial sums, SPLIT_ROUNDS BM × BN fp32 tiles
    per block (a tile's p pieces' partials, clusters / p tiles a round) — none for consumers
    taking turns, whose tiles run whole."""
    partial, rounds = 0 if tile["PINGPONG"] else wgmma_rows(tile) * wgmma_cols(tile) * 4, tile["SPLIT_ROUNDS"]
    return lambda blocks: 4 * (((1 + rounds) * blocks + 3) // 4 * 4) + rounds * blocks * partial


# precision -> (source, entry, its -D, the tensor maps' element type of A and B, B's layout). 07
# is 06's machinery for the types wgmma reads only K-major: B stored N×K ("col").
WGMMA_FORMS = {
    "fp16": ("06_wgmma_tma_hopper.cu", "wgmma_tma_fp16", "TCRAW_WGMMA_FP16", TMA_FP16, "row"),
    "bf16": ("06_wgmma_tma_hopper.cu", "wgmma_tma_bf16", "TCRAW_WGMMA_BF16", TMA_BF16, "row"),
    "fp8e4m3": ("07_wgmma_kmajor_fp8_int8_tf32.cu", "wgmma_kmajor_fp8e4m3", "TCRAW_WG07_E4M3", TMA_UINT8, "col"),
    "fp8e4m3bf16": ("07_wgmma_kmajor_fp8_int8_tf32.cu", "wgmma_kmajor_fp8e4m3bf16", "TCRAW_WG07_E4M3_BF16", TMA_UINT8,
                    "col"),
    "fp8e5m2": ("07_wgmma_kmajor_fp8_int8_tf32.cu", "wgmma_kmajor_fp8e5m2", "TCRAW_WG07_E5M2", TMA_UINT8, "col"),
    "int8": ("07_wgmma_kmajor_fp8_int8_tf32.cu", "wgmma_kmajor_int8", "TCRAW_WG07_INT8", TMA_UINT8, "col"),
    "tf32": ("07_wgmma_kmajor_fp8_int8_tf32.cu", "wgmma_kmajor_tf32", "TCRAW_WG07_TF32", TMA_FP32, "col"),
}


def wgmma_kernel(key, tile=WGMMA_TILE, name=None, choose=True):
    """The 06 kernel (fp16, bf16) or 07 (fp8e4m3, fp8e5m2, int8, tf32: B K-major) with the macros
    ``tile`` (scripts/tune_ladder.py overrides them). It takes any M, N, K; an operand whose rows
    are not a multiple of 16 bytes (the tensor maps' stride) is copied to a pitched buffer on the
    device, inside the timed launch — B not where B_REALIGN=1 (read in place), C not where
    C_PLAIN=1 (stored in place: the pick's where its rows lie off 16 bytes). With ``choose``,
    each problem gets the configuration wgmma_config picks for it (Kernel.configured), ``tile``
    over the registry's macros."""
    if not isinstance(key, str) or key not in WGMMA_FORMS:
        raise UsageError(f"06/07 come in {', '.join(WGMMA_FORMS)}, not {key!r}")
    checked_choose(choose, "06/07")
    source, entry, macro, element, b_layout = WGMMA_FORMS[key]
    # (WAIT_DEPTH, SPLIT_LOADS may be None: each configuration's own — configure; C_PLAIN None: the pick's)
    asked = checked_switches({**WGMMA_TILE, **checked_macros(tile, WGMMA_TILE, "06/07", WGMMA_POSITIVE)})
    elem, out = PRECISIONS[key].in_dtype.itemsize, PRECISIONS[key].out_dtype.itemsize
    both = with_plain_c if asked["C_PLAIN"] is None else tuple   # (declared 0 or 1, every build has it)

    # (C_PLAIN declared 0 or 1: as declared, not where the pick would; 09 and 10 still take their
    # shapes: _handed)
    def pick(m, n, k, sms):
        picked = wgmma_pick(m, n, k, sms, elem, stream_k=out == 4)
        return wgmma_plain_c(picked, n, out) if asked["C_PLAIN"] is None else picked

    for switch, what in (("SWAP_AB", "wgmma transposes only 16-bit operands"),
                         ("B_REALIGN", "it shifts 16-bit elements of a row-major B")):
        if asked[switch] and (elem != 2 or b_layout != "row"):
            raise UsageError(f"{switch}=1 is for fp16 and bf16 ({what}), not {key}")
    # (choosing, B_REALIGN=1 asks each configuration that can take it to: the declared tile need not)
    base = {**asked, "B_REALIGN": 0} if choose and not wgmma_realign_builds(asked) else asked
    tile = wgmma_checked({**base, "WAIT_DEPTH": wgmma_wait_depth(asked), "SPLIT_LOADS": wgmma_split_loads(asked),
                          "C_PLAIN": asked["C_PLAIN"] or 0})
    bm, bn, cluster = wgmma_rows(tile), tile["BN"], tile["CLUSTER"]
    bk = WGMMA_ROW_BYTES // elem   # a slice is one 128-byte swizzle row of K
    plain = {**WGMMA_TILE, "WAIT_DEPTH": 0, "SPLIT_LOADS": wgmma_split_loads({**tile, "SPLIT_LOADS": None}),
             "C_PLAIN": 0}
    built = device_macros(tile)   # (what NVRTC gets)
    variant = "" if choose else spelt_macros(built, plain)
    # (B_REALIGN: 8 super-rows of B — 64 of its rows — by BN + 8 halves: the .cu's b_realign)
    b_box = (8, bn + 8) if tile["B_REALIGN"] else (bk, 64) if b_layout == "row" else (64, bk)
    along_m, along_n = wgmma_cluster_shape(tile)   # (swapped: along N, along M)
    a_box = (wgmma_cols(tile) // along_m, bk) if tile["SWAP_AB"] else (tile["A_ROWS"] or bm // along_n, bk)
    # what the cluster multicasts: the blocks along the tile's rows share its columns' operand (B;
    # swapped, A), those along its columns the rows' (A; swapped, B)
    rows_share, cols_share = ("A", "B") if tile["SWAP_AB"] else ("B", "A")
    shared = " and ".join(sorted(op for op, along in ((rows_share, along_m), (cols_share, along_n)) if along > 1)) \
        or rows_share
    c_box = (bn // tile["C_PARTS"] if tile["SWAP_AB"] else 64, 128 // PRECISIONS[key].out_dtype.itemsize)
    return Kernel(
        name=name or entry, source=source, entry=entry,
        precision=PRECISIONS[key], min_arch=90, arch_specific=True, cluster=cluster, tile=(1, 1, 1), pitch=16,
        geometry=wgmma_geometry(tile), defines=macro_defines(built) + (macro,), lines=("A",) * tile["A_LINES"],
        align=16, tma_boxes=(a_box, b_box, c_box, (8, bk)), persistent=True,   # (8, bk): A at M's edge
        workspace=wgmma_workspace(tile), tma_element=element, b_layouts=(b_layout,), max_m=tile["A_ROWS"],
        realign_b=bool(tile["B_REALIGN"]), plain_c=bool(tile["C_PLAIN"]),
        tunables=tuple(WGMMA_TILE) if choose else (), variant=variant,
        configs=(both(WGMMA_CONFIGS + NARROW_CONFIGS + (TURNS_CONFIG,) + WIDE_PAIRS_ONLY +
                      (NARROW_PAIRS_CONFIG,) + (TALL_CONFIG,) + TALL_FIT_ONLY + SWAPPED_CONFIGS +
                      SWAPPED_PAIRS_CONFIGS + STREAM_B_WIDE_CONFIGS + (STREAM_B_SWAPPED_CONFIG,) +
                      FIT_CONFIGS + FIT_THREE_CONFIGS + LOW_FIT_ONLY + FIT_ONE_CONFIGS + REALIGN_CONFIGS +
                      COOP_CONFIGS) +
                 ({IN_PLACE_09: 1}, {GEMV_10: 1}, {GEMV_10_IN_CLUSTER: GEMV_IN_CLUSTER})
                 if elem == 2
                 else both(tuple(c for c in WGMMA_CONFIGS if not wgmma_sixteen_bit_only(c)))) if choose else (),
        configure=(lambda picked, over: _handed(key, picked, over, asked) or _owned(asked, lambda: wgmma_kernel(
            key, _with_stages(asked, _not_handed(picked), checked_macros(over, WGMMA_TILE, "06/07", WGMMA_POSITIVE)),
            name, choose=False)))
        if choose else None,
        pick=pick if choose else None,
        summary=f"wgmma 64×{bn}×{32 // elem} from TMA-filled smem, {bm}×{wgmma_cols(tile)}×{bk} "
                f"tiles{', B K-major' if b_layout == 'col' else ''}, "
                f"{tile['STAGES']}-stage mbarrier ring, producer + {tile['CONSUMERS']} consumer warpgroups"
                f"{' taking tiles in turn' if tile['PINGPONG'] else ''}, "
                f"persistent, clusters of {cluster} multicasting {shared}, stream-K last round, "
                f"{'no split-K' if tile['PINGPONG'] else 'split-K for few tiles'}, any shape"
                f"{', B realigned in place (any N)' if tile['B_REALIGN'] else ''}"
                f"{', C stored in place by the consumers (any N)' if tile['C_PLAIN'] else ''}")


# The model wgmma_config ranks configurations by, its constants fitted (least squares on log
# time, plus how much slower than the best its pick is) to every configuration's time on 12
# shapes, two runs, on the H200 (scripts/fit_wgmma_model.py on scripts/tune_ladder.py's tables in
# docs/results/2026-11-30-h200-06-any-shape/): one SM's tensor throughput with each block tile
# (TFLOP/s, by consumers and BN), what HBM streams (bytes/µs) with at least HBM_SMS of the SMs
# reading, one SM's loads from L2 (split-K's sum, as fitted: see below), split-K's and stream-K's fixed
# costs and the launch's own (µs). HBM_SMS came later (docs/results/2026-11-30-h200-stream-k/:
# 86 of 132 SMs streamed 128×11008×4096's B at full speed; a refit with those tables, started
# there, kept 0.65 but moved the big shapes' picks it has no data for, so the others stayed).
# The 192-column tile came last: its rate is 128×256's scaled by their measured times at 8192³
# (fp16, 735 against 764 TFLOP/s: docs/results/2026-11-30-h200-fp8-clock-192-columns/). It won
# where its tiles run whole and the earlier pick's were cut by stream-K — 256×11008×4096: 58 tiles
# of 128×192 in one round against 86 of 128×128, the last 20 in pieces, 0.90 → 0.99× cuBLAS;
# 3072³: 192 tiles, 3 rounds, against 288 (0.91–0.99× → 0.97–0.99×) — and lost every time it was
# cut along K itself (3–21 % longer), so wgmma_config never cuts it (192-row tiles: ROWS_192).
# The split-K term (p partial tiles through one SM) was fitted when the last piece summed them
# alone; since the pieces share the sum it measured 0.2–3.2 µs shorter (long-K shapes, H200), but
# a term of one partial tile a piece let the model cut 128×256 tiles 4–16 ways, which measured
# slower than the 128×128 picks (512×512×32768: 0.80 against 0.82× cuBLAS; 1024×1024×8192: 0.78
# against 0.86×): the pieces' own start-up, which the model leaves out, grows with their number.
# Since each piece writes only the boxes others sum (split_epilogue), 2 pieces measured 2 µs
# shorter again (H200, same run: 1024×1024×8192 32.7 → 30.7 µs, 1024×1024×4096 22.3 → 20.5,
# 256×4096×4096 22.9 → 20.9), 8 the same (512×512×32768): SPLIT_K_US is 2 µs less than fitted (4.2).
# That moves 10 of 504 grid shapes (M 128–2048, K 4096–8192), most from one consumer's whole
# 64×128 tiles to 128×128 in 2 pieces; 8 measured old pick against new in one call, the new
# faster in all 8 (1024×1024×4096 22.2 → 20.5 µs, 256×4096×4096 22.5 → 20.6; the other two's old
# picks not measured: docs/results/2026-11-30-h200-split-own-boxes-fixed-costs/, run 9).
# One consumer's tiles now keep a slice's MMAs in flight (wgmma_wait_depth): in clusters of 2 up
# to 20 % faster (geomean 8–10 % over 17 shapes), in clusters of 1 +1.6 to +4.2 % (geomean; one
# shape −9.5 %) (docs/results/2026-12-01-h200-one-consumer-in-flight/, runs 2–4, pick_table.txt).
# Their rates were refitted on those tables (scripts/fit_wgmma_model.py --free), then judged by
# the picks' measured times: a free fit of all three (64×256 4.4, 64×128 4.0, 64×64 2.6; the fit
# then weighed every timed configuration, it now keeps to wgmma_ranked's and gives 4.6) moved
# 100 picks of a 1666-shape grid (pick_table.py there defines it); of 16 of them measured (run
# 4), the six where one consumer's tiles took several rounds were 1–13 % slower than the old
# pick (6144×512×8192 +13 %, 768×6144×4096 +8 %) — one consumer stores C once a round with
# nothing else to multiply, we think (not profiled), a cost the model leaves out — and two cut
# along K 10–11 % (1024×192×4096 in 64×128, 192×2048×8192 in 64×256). So wgmma_ranked keeps one
# consumer's tiles (M > 64: below, one consumer is all there is) to problems they cover in one
# round, and only 64×128's rate moved, 3.6 → 3.8. Then 33 of the grid's picks move; on the 31
# shapes measured with 9 of the 12 candidates (old pick as it ran against the new one) the pick
# is 0.8 % off the fastest configuration timed (geomean; 2.6 % before), none slower than the old
# pick by more than 1.6 %. 192-row tiles (three consumers) came last, at 128×256's rate: ROWS_192
# — and 192 × 128 at 192 × 192's, weighed only by wgmma_tall_rows (see TALL_CONFIG; at 4.7, 128 ×
# 128's, that rule would take 9 of the 16 shapes it was timed faster at, at 5.0 11; neither any of
# the six it was slower at).
WGMMA_SM_TFLOPS = {(2, 256): 5.0, (2, 192): 4.8, (2, 128): 4.7, (2, 64): 3.3, (1, 256): 3.9, (1, 128): 3.8,
                   (1, 64): 2.9, (3, 192): 5.0, (3, 128): 5.0}
# Unswapped tiles of widths between multiples of 64 (BN in 16s: B's last 64-column box read BN
# into it) bring whole boxes of B (wgmma_b_cols): per slice the bytes, the L2's requests and the
# shared memory of the width rounded up to 64 — and run at its rate. H100, fp16, one call
# (docs/results/2026-12-06-h100-h200-widths-16/, run 2): 192 × 144 tiles took 0.892 of 192 × 192's time
# at 1536×2304×4096 (both in one round: 128 tiles against 96; rows on lines), 0.966 of 128 × 256's
# — per tile of 192 rows, half of the box's unused columns cost as if they were multiplied
# (wgmma_mma_cols): 192 × (144 + 24) is 0.98 of 128 × 256's MMAs. Where rows lie off lines the
# requests bound them: 192 × 176 at 4936×864×2552 took 0.989 of 192 × 192's time, same tiles.
def wgmma_b_cols(tile):
    """The columns of B a slice of ``tile`` brings (swapped: its A rows): the tile's (wgmma_cols:
    BN, or COOP's two consumers' 2 · BN), unswapped rounded up to the 64-column boxes they come in."""
    return wgmma_cols(tile) if tile.get("SWAP_AB") else whole_b_boxes(wgmma_cols(tile))


def wgmma_mma_cols(tile):
    """The columns ``tile``'s MMAs cost in the model: the tile's (wgmma_cols), plus half of its last
    box's unused columns where BN is no multiple of 64 (unswapped; see wgmma_b_cols)."""
    return (wgmma_cols(tile) + wgmma_b_cols(tile)) / 2


HBM_BYTES_PER_US = 3.8e6
HBM_SMS = 0.65
SM_BYTES_PER_US = 0.8e5
SPLIT_K_US, STREAM_K_US, LAUNCH_US = 2.2, 2.3, 5.8
# The L2's read requests. A box row of 128 bytes (one k-slice of one row of A or B) is one
# request when its operand's rows start on 128-byte lines; otherwise most box rows straddle two
# lines, and rows 16 bytes off a 32-byte boundary split a sector too. Nsight Compute, H200, fp16,
# 06's 128×192 tiles (docs/results/2026-12-01-h200-pitch/, run 5): 3.67 M requests at 3008³ (rows
# of 6016 bytes, on lines) and 9.06 M at 3000³ (6000 bytes, 16 off 32: 2.47 a box row) in 84.9
# and 99.8 µs, ~91 G/s; cuBLAS's 192×192 tiles made 1.85× as many at 3000³ as at 3008³ and took
# 2 % longer, ours 18 %. So a problem takes at least its requests over L2_REQUESTS_PER_US: the
# narrower the tile, the more often A is loaded (once per BN columns of C), B once per BM rows,
# halved in clusters of 2. The rate is in the model's own count, which includes box rows past
# the edges: 9.99 M at 3000³ in the 99.8 µs (91 000 a µs, Nsight Compute's count, moved the
# same fp16 picks of run 6 and two more bf16 ones of run 7, one of them 7 % slower). Rows 16
# bytes off 32 took 128-column tiles up to 1.40× the time of 3008³, 192 up to 1.22×, 256 up to
# 1.07× (3000³; pitch_table.txt). With the term the pick is 1.6 % off the fastest of nine
# configurations timed (geomean) on 12 fresh shapes, 26.5 % before (all 12 faster, 5.9–42 % less
# time; fp16, run 6), and on 8 more 0.4 % against 7.9 % (bf16, run 7: the 6 that move faster by
# 5–20 %); on the 33 timings it was judged on, 6.3 % against 7.9 %. Where rows are on lines it
# moves no pick of the earlier stops' grid. Rows 32 or 64 bytes off a line count 2 (not
# profiled); rows not a multiple of 16 bytes are copied to lines (matmul.Pitched) and count 1,
# as do rows of 16, 32 or 64 bytes, which never straddle a line (counted 2 or 2.47 until session
# 23; the correction moves 8 picks of a 2916-shape grid with N and K from 1 and 16, all with N ≤ 16
# or K ≤ 32, from two consumers' 64-column tiles to one's — not timed); FP8, INT8 and TF32 are not
# measured and get no term.
L2_REQUESTS_PER_US = 1.0e5
# Where rows lie off lines, the MMAs and the requests overlap only in part: the model adds them
# as the norm of this order, not the larger alone. On 16 fresh shapes (H200, fp16, 13
# configurations each, docs/results/2026-12-01-h200-clusters-of-4/, run 3, cluster4_table.txt)
# the pick took 1.024, 1.022, 1.053 and 1.062 times the fastest configuration's time (geomean)
# with orders 3, 4, 6 and 8, 1.096 with the larger alone (1.106 the last stop's picker, without
# clusters of 4) — shapes drawn where order 4 or 6 moves the last stop's pick; then on 14
# round-number shapes listed after it was set (run 6), 1.012 (order 3: 1.009; the larger alone
# 1.085, the last stop's 1.092). On lines the larger
# alone stands: every earlier stop's pick there was judged with it, and a norm of order 4 would
# move 50 of that grid's 1666 picks (64-column and split-K tiles, whose requests come nearer
# their MMAs' time), none of them timed.
L2_OVERLAP = 4   # (None: the larger alone everywhere)
BOX_ROW_REQUESTS = {"line": 1.0, "two lines": 2.0, "partial sector": 2.47}


def wgmma_rows_off_lines(n, k, elem_bytes):
    """Whether A's rows (K) or B's (N) of 16-bit inputs start off 128-byte lines, costing the L2
    more than one request a box row (box_row_requests)."""
    return elem_bytes == 2 and max(box_row_requests(k * elem_bytes), box_row_requests(n * elem_bytes)) > 1


def box_row_requests(row_bytes):
    """The L2 read requests a 128-byte box row costs with an operand's rows ``row_bytes`` apart
    (see BOX_ROW_REQUESTS). Rows not a multiple of 16 bytes are copied to 128-byte ones; rows of
    16, 32 or 64 bytes (N of 8 to 32 halves) lie within one line each."""
    if row_bytes % 16 or row_bytes % WGMMA_ROW_BYTES == 0 or WGMMA_ROW_BYTES % row_bytes == 0:
        return BOX_ROW_REQUESTS["line"]
    return BOX_ROW_REQUESTS["partial sector" if row_bytes % 32 else "two lines"]


# Measured where the model is blind: with M ≤ 32 the run is a stream of B. 06 swapped (Cᵀ = Bᵀ·Aᵀ:
# N along the wgmma's 64 rows, M's tile of 16 or 32 along its n, so no wgmma works on 32+ rows of
# padding) streams it fastest (H200, llm shapes: three at M = 1, two at M = 16): 0.97–1.17× cuBLAS
# and 0.90–0.94×, against 0.83–0.97× and 0.84–0.85× for the earlier pick — one consumer, 128
# columns, clusters of 1, still the pick for FP8/INT8/TF32, which wgmma cannot swap — and
# 0.89–0.98× and 0.87× for that pick loading only 16 rows of A (A_ROWS=16);
# at M = 32 with 32-row tiles, every shape's best (geomean 1.00×, 0.89–1.23, against 0.84× for
# the model's pick). At M = 64 the model's pick (0.98×) is as good as any swapped form (0.98×),
# so the model decides there (docs/results/2026-11-30-h200-small-m/). Where N gives them 66–131 tiles
# (up to half the SMs idle; cuBLAS splits along K there), cutting them over every SM measured no
# faster: stream-K over all (STREAM_K_ROUNDS=0) slower, split-K in rounds (SPLIT_ROUNDS=2) −9 % to
# +3.5 % on 14 fresh shapes (geomean 0.891 → 0.883× cuBLAS), one consumer's 64-row tiles slower
# (docs/results/2026-12-02-h200-small-m-split-rounds/).
SWAPPED_CONFIG = {"SWAP_AB": 1, "CONSUMERS": 2, "BN": 16, "CLUSTER": 1, "STAGES": 8}
SWAPPED_CONFIGS = (SWAPPED_CONFIG, {**SWAPPED_CONFIG, "BN": 32})   # M ≤ 16, M ≤ 32
# The same tiles in clusters of 2 along N where B's rows lie off 128-byte lines: the pair's
# blocks each copy half of A's BN rows for both (cuBLAS runs the same 128 × 16 and 128 × 32 tiles
# in clusters of 4 and 2, 10–11 stages, at 16×14424×15080 and 26×15720×15688). Off lines they took
# less time than in clusters of 1 at every shape of two runs: 22 of M 5–32 (time 0.969 BN 16,
# 0.957 BN 32, geomean; 26×15720×15688 0.897 → 1.036× cuBLAS), then 21 drawn after clusters of 2
# became the rule for all such tiles (time, BN 16 / 32: fp16 0.959 / 0.939, bf16 0.961 / 0.940) —
# whole tiles on 82–127 of 132 SMs and split K alike. On lines they took more (5×10880×7264 1.025;
# of the 11 drawn after, more at 9 fp16 and 11 bf16, geomean 1.011–1.016): this bound is drawn
# from those runs. On 20 drawn after the bound, off lines less time at 11 of 12 (27×2168×5712
# +0.3 %), on lines 1.008–1.009 the time in clusters of 2. Clusters of 4 lost where more than the
# 30 held take two rounds (31×15880×8800 1.27× the time); deeper rings (10 and 9 stages) won less.
# In one round, at M ≤ 16 (each block copying 4 of A's 16 rows, as cuBLAS's 128x16_64x11_4x1
# does): 0.989 / 0.975 the time of the pairs on 7 shapes (fp16 / bf16), then on 15 drawn after
# (73–115 tiles) 0.993 / 1.000 (less at 10 / 9; 0.955–1.067): no rule
# (docs/results/2026-12-04-h200-acc-sets-fours/, runs 4–5).
# Nsight Compute at 16×14424×15080: 10.3 → 9.6 M L2 read requests (A's halved), DRAM 464 → 449 MB,
# 127.4 → 120.1 µs (cuBLAS 8.99 M, 441 MB, 111). Our reading, not profiled on lines: where a box
# row costs two requests the requests bound the time (L2_REQUESTS_PER_US), and halving A's pays;
# on lines it does not, and the pair's shared stages cost more than it saves
# (docs/results/2026-12-04-h200-swapped-pairs/, runs 2, 4 and 5).
SWAPPED_PAIRS_CONFIGS = tuple({**config, "CLUSTER": 2} for config in SWAPPED_CONFIGS)
STREAM_B_CONFIG = {"CONSUMERS": 1, "BN": 128, "CLUSTER": 1, "STAGES": 8}
# M ≤ 32 with B's rows off 128-byte lines (a box row costs the L2 two requests or more:
# box_row_requests): two consumers' swapped tiles streamed B at 2.9–3.0 TB/s where cuBLAS reads 3.4
# (2×8648×13304 0.86×, 32×11000×11784 0.85×; on lines 3.7 TB/s, 12×10240×10240 1.10×). Three
# consumers' swapped tiles — 192 of N, so two thirds as many tiles, split-K in 2 where they then
# fill half the SMs or less, over up to 132 SMs where two consumers' one round left up to half
# idle — in clusters of 2 along N took 6–16 % less time at all 11 such shapes with K of 64 slices
# or more (0.79–0.91 → 0.86–1.04× cuBLAS, one at 1.43 → 1.54; 6 stages, the most that fit), and
# 3 and 6 % more at two with rows on lines, 7 % more at K of 22 slices (2×9104×1400); in clusters
# of 1, 2–10 % slower than in 2 at all 14 (H200, fp16: docs/results/2026-12-03-h200-mid-m-swapped-
# wider/, run 4). So: 16-bit, M ≤ 32, N a multiple of 8 with rows off lines, K of 64 slices or
# more, and two consumers' tiles (128 of N) one round of at least 40 % of the SMs (55–118 measured).
# At the top of that range — 100–130 such tiles, 76–98 % of the SMs, 13 shapes (12 fresh) — two
# consumers' tiles took less time at 9 (three consumers' 1.01–1.056× their time at 7), more at 4
# (three consumers' down to 0.971×): three consumers' 1.015× their time, geomean (H200, fp16: docs/results/2026-12-03-h200-mid-m-three/, run 1). So at
# most 75 % (99 tiles; 103 the fewest measured there).
# At M of 33–64 the same tiles 48 or 64 of M wide (5 stages) took less time than the pick at 5 of
# 7 such shapes (36–79 such tiles, K of 96–192 slices: 56×10088×6160 0.79 → 0.91× cuBLAS,
# 36×4520×12288 0.85 → 0.96), the same at 52×9224×7680 and 4.6 % more at 44×6344×6656, time
# geomean 0.94× (run 1) — there from 25 % of the SMs (36 tiles measured). On 13 shapes drawn before
# that run where the rule fires (run 2), fp16 and bf16 alike, 0.928 → 0.962× and 0.926 → 0.961×
# cuBLAS: less time at 9 (to 0.855×: 53×11816×12416 0.88 → 1.03×), more at 4, all with M of 57–62
# (57×4688×10944 and 60×4680×12864 at 37 tiles +3 / +0.3 %, 59×4144×6272 at 33 +8 %,
# 62×7176×4160 at 57 tiles and 65 slices +5.5 %); 49×5512×12096 at 44 tiles −5 %. At the low end
# (35–51 tiles, 14 shapes drawn after run 2: run 3) M of 49–64 took 0.995× the earlier picks' time
# (2–8.5 % more at K of 78–161 slices, 2–11 % less at 121–195), but M of 33–48 1.064× the 64×48
# swapped tiles' (15–17 % more at K of 79–83 slices); over the 11 such shapes of runs 1–3 where the
# 64×48 rule fires, 5 faster, 5 slower, 1.012× — so at M of 33–48 this rule leaves those to it.
# On 16 shapes drawn after run 3 (docs/results/2026-12-03-h200-mid-m-three-check/, run 1): at M of
# 33–48 with N past 8448 (72–98 tiles) less time at all 8 (0.95 → 1.02× cuBLAS, fp16 and bf16);
# at M of 49–64 with K of 67–123 slices 0.918 → 0.908× — more time at 67–85 slices (+4–18 %), less
# at 96–123 (fp16; in bf16 all but one, +0.2 %). Over the 24 shapes at M of 49–64 timed in it and
# in runs 2–3 (fp16): with K of 96 slices or more and 40 tiles or more (30 % of the SMs) less time
# at 12 of 13 (0.855–0.994 of before; +5 % at 59×6368×6720), time geomean 0.951; the other 11
# more time at 10 (all 6 under 96 slices: +2–17 %; 33–37 tiles: −2 to +8 %). So at M of 49–64
# from 96 slices and 30 % of the SMs — fitted on those runs. On 14 shapes drawn after (same
# folder, run 3; fp16 and bf16 alike): where it fires, less time at all 8 (0.891 → 0.942× cuBLAS
# fp16, 0.886 → 0.940× bf16); of the 6 it now leaves, three consumers' tiles took more time at 4
# (34–39 tiles; 65 tiles at 73 slices) and less at 2 with 68 and 90 tiles at 77 and 91 slices
# (59×8592×4928 0.89 → 0.85× as left) — short K may do with many tiles; two shapes do not make
# the bound.
STREAM_B_WIDE_CONFIGS = tuple({**SWAPPED_CONFIG, "BN": bn, "CONSUMERS": 3, "CLUSTER": 2,
                               "STAGES": wgmma_max_stages(3, bn, swap=True)} for bn in (16, 32, 48, 64))   # M ≤ 16, 32, 48, 64
STREAM_B_WIDE_MAX_FILL = 0.75
# M up to: (K's least slices — 128 bytes, 64 elements at 16 bits —, two consumers' tiles' least share of the SMs)
STREAM_B_WIDE_FROM = {32: (64, 0.4), 48: (64, 0.25), 64: (96, 0.3)}
# M of 33–48 with B's rows on 16 bytes (N a multiple of 8), long K and one round of 64-column tiles
# filling about half the SMs or more: B streams from HBM once, and the model's pick — one consumer's
# 64×64 tiles in clusters of 1 — streamed it at 2.7–2.9 TB/s where cuBLAS reads 3.4 (33×6400×10240
# 0.78× cuBLAS). cuBLAS there runs swapped tiles (64 of N by 40 or 48 of M) in clusters of 4 along N
# (Nsight Compute: nvjet_sm90_hss_64x40_64x16_4x1, 64x48_64x15_4x1). 06 swapped the same way — one
# consumer, 64 of N by 48 of M, clusters of 2 along N multicasting A's rows — with 14 stages took
# less time than the pick at 7 of 8 such shapes (M of 33–48, N of 4096–8320, K of 6144–14336: 64–130
# tiles; 1 % more at 48×4096×12288: run 2); with 8, as picked, faster than with 14 at 11 of 14
# shapes, 9 of the 12 where the rule fires (14 stages 2–10 % slower there, 33×6400×10240 42.72
# against 39.50 µs; up to 1.4 % faster at 3: run 4). As picked, on 8 fresh shapes, faster than the
# old pick at all 8, fp16 and bf16: geomean 0.780 → 0.946× and 0.786 → 0.954× cuBLAS, 35×5400×7000
# 0.68 → 0.82, 42×7680×8200 0.68 → 0.93, 45×8000×6600 0.78 → 1.03 (run 3). With M of 49–64 the
# 48-wide tiles do not fit M, and 64-wide ones (clusters of 2 or 4) were up to 2 % faster than the
# pick at two of 4 shapes and 9–11 % slower at two; at M ≤ 48, 64-wide tiles in clusters of 4 won at
# 33×6400×10240 and took a third longer at 40×8320×6144 (run 2); 13 stages of the pick's own tiles
# took the same time at 33×6400×10240, up to 6 % less at 2 of 6 shapes and more at 3 (run 1). Past
# the first bounds (96 slices, 48 % of the SMs; run 5) the swapped tiles ran ahead at K of 32–80
# slices (3 of 3, 4–9 % less time) and at 48 tiles (36 % of the SMs), behind at 32 tiles and in two
# rounds (3 of 3). Then on fresh shapes with K of 32–88 slices they took less time than the pick at 5
# of 6 (6–12 %; the sixth the same to 0.1 %) and with 37–60 tiles at 4 of 6 (1–16 %; 4 and 5 % more
# at 41 and 54 tiles, B's rows 16 bytes off 32: N ≡ 8 mod 16) — so the bounds are now 32 slices
# and 48 tiles (36 %), where the runs found them ahead (H200, fp16:
# docs/results/2026-12-03-h200-mid-m-swapped/, runs 1–5; docs/results/2026-12-03-h200-mid-m-swapped-
# wider/, run 1).
STREAM_B_SWAPPED_CONFIG = {"SWAP_AB": 1, "CONSUMERS": 1, "BN": 48, "CLUSTER": 2,
                           "STAGES": wgmma_max_stages(1, 48, swap=True)}
STREAM_B_SWAPPED_MIN_SLICES, STREAM_B_SWAPPED_MIN_FILL = 32, 0.36   # K of 2048 at 16 bits; 48 of 132 SMs
# The two consumers taking 128×128 tiles in turn (PINGPONG): each one's C is stored while the
# other multiplies, where a cooperative tile's store holds both consumers once a round. But its
# tile is 128×128, whose MMAs run slower than 128×256's when K is long — as slow as two consumers
# sharing 128×128 tiles (H200, fp16, 4096³: 197.8 µs, 199.0 shared, 187.3 for 128×256). Against
# the model's cooperative pick in the same call (docs/results/2026-12-01-h200-pingpong/,
# turns_table.txt) it took less time where K is short: 8 to 16 slices (K of 512–1024 at 16 bits),
# up to 10.5 % less (4096×4096×512 38.9 → 35.2 µs, 5120×5120×1024 98.3 → 88.0, 2048×2048×1024
# in one round 4.5 %; 3 of 21 timings within −0.4 to +1.0 %); with 32 slices only where the
# cooperative tiles take one round (2048³, fp16 and bf16: 1.6–2.3 % less). It took longer at 4
# slices (4096×4096×256 +1.8 %), at 32 in several rounds (4096×4096×2048 +1.8 %, 8192×8192×2048
# +1.2 %), from 64 (1024×4096×4096 +3.4 %) — and where K is not a whole number of slices:
# 5000×5000×1000 +19 to +20 % (two consumers sharing 128×128 tiles +21 to +22 %), 5000×5000×1024
# −3.9 % (why a partial last slice, or A's rows of 2000 bytes across 128-byte lines, costs
# 128-column tiles that much is not measured) — and with 32 slices where its tiles barely
# outnumber the clusters (1536×1536×2048 +24 %: 72 tiles on 66 clusters, the busiest two 128×128
# against the pick's one 128×192; two consumers sharing 128×128 tiles took as long). Of ten
# shapes chosen to check the first rule (run 4), the six the rule now moves took 3.4–7.9 % less
# time; of the two it moved then, not now, 5000×5000×1000 took 19 % more and 4000×4000×800 1.6 %
# less; the two it never moved would have taken 1.3 % and 24 % more. wgmma_takes_turns draws its
# rule from these shapes (none held out from the final one; it takes 256×16384×1024 too, +1.0 %);
# FP8, INT8 and TF32 are not measured with it.
TURNS_CONFIG = {"CONSUMERS": 2, "PINGPONG": 128, "BN": 128, "CLUSTER": 2, "STAGES": 6}
# Clusters sharing A instead of B (SHARE_A=1: the two blocks along N, each copying half of A's
# rows for both and all of B for itself) halve A's L2 requests and double B's. H200, fp16, the
# fastest of three widths each way, same call (docs/results/2026-12-01-h200-pitch/, run 8,
# pitch_table.txt): less time at 5000×1024×4104 (−16 %), 4096×384×4104 (−5 %), 384×5000×2000
# (−3 %), 256×6000×3000 (−1 %); more at 1800×7000×4520 (+22 %), 256×6000×3008 (+12 %), 3000³
# (+11 %), 2000×3000×1000 (+10 %), 576×7000×2024 (+8 %), 7000×1800×3272 (+4 %), 3008³ (+2 %).
# Weighed by the request bound it was picked at 576×7000×2024 (slower) and 256×6000×3000 (faster),
# not at the first two, so the picker does not weigh 128-row tiles sharing it in clusters of 2; a
# caller's config={"SHARE_A": 1} builds them over a pick in clusters of 2 without turns (others are
# refused by name), and tune_ladder. In clusters of 4 (2 × 2, sharing B as well) it is a
# candidate: CLUSTERS_OF_4; and for 192-row tiles in clusters of 2: ROWS_192.


def stream_k_share(tiles, kt, clusters, tile):
    """06's stream_k_share: the k-slices each cluster takes of the last partial round, or 0 —
    always 0 unless STREAM_K_ROUNDS whole rounds come first (after fewer, measured slower cut)."""
    rem = tiles % clusters
    if not tile["STREAM_K"] or rem == 0 or tiles < tile["STREAM_K_ROUNDS"] * clusters:
        return 0
    share = max(cdiv(rem * kt, clusters), cdiv(kt, tile["STREAM_K_DIV"]))
    return share if kt - share >= tile["SPLIT_MIN_SAVED"] else 0


def split_pieces(tiles, kt, clusters, tile):
    """06's split_pieces: how many pieces split-K cuts each tile's K into (1: none; always with
    PINGPONG, which runs its tiles whole) — with SPLIT_ROUNDS over 1, tiles more than half the
    clusters too, in the p whose rounds of pieces (split_round_tiles) take the least time, if
    that is at least a tenth less than whole tiles' rounds."""
    if not tile["SPLIT_K"] or tile.get("PINGPONG"):
        return 1
    most = min(kt // tile["SPLIT_MIN_SLICES"], tile["SPLIT_MAX"])
    p = max(1, min(clusters // tiles, most))
    if tile["SPLIT_ROUNDS"] == 1 or p > 1:
        return p
    whole = cdiv(tiles, clusters)
    best, rounds = 1, whole
    for q in range(2, min(most, clusters) + 1):
        r = cdiv(tiles, clusters // q)
        if r <= tile["SPLIT_ROUNDS"] and r * best < rounds * q:
            best, rounds = q, r
    return best if 10 * rounds <= 9 * whole * best else 1


def split_round_tiles(tiles, p, clusters, tile):
    """06's split_round_tiles: the tiles whose p pieces a round of split-K takes (all but with
    SPLIT_ROUNDS over 1)."""
    return tiles if tile["SPLIT_ROUNDS"] == 1 else min(tiles, clusters // p)


# Clusters of 4 load a quarter fewer box rows per MMA than clusters of 2 (128×256 tiles: 768 box
# rows a slice for four tiles, against 512 for two), on 120 of the H200's SMs. Where rows lie off
# 128-byte lines they took less time than the fastest cluster of 2 timed (H200, fp16, same call,
# docs/results/2026-12-01-h200-clusters-of-4/, run 2): 5000×1024×4104 −19 % (128×192 tiles,
# 2 × 2), 7000×1800×3272 −14 % (the same), 576×7000×2024 −8 % (the same), 1800×7000×4520 −7 %
# (128×192 or 128×256 along M), 3000³ −7 % (128×128, 2 × 2) — but 2000×3000×1000 +6.5 %; on
# lines they lost 4–8 % (3008³, 3072³, 4096³, 6144³), so wgmma_ranked weighs them only off lines.
# (BN, SHARE_A): 128×256 and 128×192 tiles along M or 2 × 2, 128×128 2 × 2.
CLUSTERS_OF_4 = ((256, 0), (256, 1), (192, 0), (192, 1), (128, 1))


# 2 × 2 clusters of 128×128 tiles (CLUSTERS_OF_4's (128, 1)) where K is long and the tiles few:
# there the model's pick is 128×128 tiles in clusters of 2 along M cut along K in many pieces,
# each block streaming a stretch of K of its own. Our reading, not profiled in this form: the L2
# holds that loop (Nsight Compute at 512×512×32768, docs/results/2026-11-30-h200-split-sum-loads-
# l2-traffic/: the tensor pipe 49 % busy against cuBLAS's 71 %, twice its L2 requests), and 2 × 2
# clusters ask it for a third fewer box rows per MMA (a block's 64 of A and 64 of B a slice,
# against 128 and 64), on the 120 SMs that hold them. H200, against 128×128 in clusters of 2 in
# the same call (docs/results/2026-12-01-h200-long-k-clusters-of-4/, long_k_table.txt): where
# both cut K in 5 to 11 pieces and M, N are whole 256s, less time at all 17 fp16 shapes timed —
# 512×512×32768 −7.4 %, 768×256×32768 −18.2 %, 256×1024×32768 −3.3 % (run 1), 14 fresh shapes
# drawn where this rule fires 0.7 to 18.0 % (geomean 8.9 %; run 2) — and at those 14 in bf16
# (0.2 to 18.2 %) and bf16's 512×512×32768 (−5.9 %); the long-k suite's 512×512×32768 read
# 0.910× cuBLAS (run 4; 0.858× in the last full run). Slower where cut in fewer pieces than the
# pick — 512×1024×16384 (3 against 4: +9.2 %), 1024×1024×8192 and ×16384 (whole against 2: +47
# and +56 %) — and with M padded alike in both, 384×512×32768 (+4.2 %) and 192×1024×8192
# (+2.0 %). The model never ranks them ahead (behind at 9 of those 17 shapes, level at 8: it
# charges split-K's sum per piece and sees no limit in the L2 on lines), so a rule after it,
# wgmma_shares_both, swaps them in: 16-bit inputs only; on other SM counts by the share of
# clusters of 4 the H200 holds (CLUSTERS_OF_4_HELD), measured on the H200 only.
SHARED_BOTH_CONFIG = {"CONSUMERS": 2, "BN": 128, "CLUSTER": 4, "SHARE_A": 1, "STAGES": 6}
# Two rows of one consumer's tiles (M of 65 to 128) where K is long: 64×128 tiles in clusters of 2
# along M — the pair shares B's boxes, so a block brings half the bytes a 64×64 tile in clusters
# of 1 does for each MMA — where the model picks 64×64 in clusters of 1 (its cost leaves out what
# feeding the blocks costs them). H200, fp16, the two in one call each after A_EDGE
# (docs/results/2026-12-01-h200-a-edge/, run 5, a_edge_table.txt: 18 shapes drawn at random where
# the model picks 64×64, 128×4096×4096 and 8192×64×8192): with K of 4096 or more (and N over 64)
# less time at 9 of 10 (0.918×) — 96×1024×8192 −14 %, 76×4096×4096 −13 %, 112×4096×6144 −12 %,
# 76×1024×11008 −12 %, 100×1024×11008 −11 %, 72×4096×4096 −8 %, 80×1024×8192 −8 %, 96×1024×4096
# −4 %, 128×4096×4096 −3 % — more at 116×1024×4096 (+4 %); with K of 3072 or less more at 7 of 9
# (1.051×; 120×4096×1024 +20 %, 124×4096×2048 +7 %, 128×2560×2048 +8 %) — split finer along K,
# where the pieces' fixed costs weigh more. (64×64 in clusters of 2 took 1.038× as long where the
# rule fires.)
# On fresh shapes (docs/results/2026-12-01-h200-suites-at-head/, run 1: eight drawn at random where
# the rule fired, M 65–128, N 512–8192, K 4096–14336, and 100×4096×4096; fp16 and bf16, the pair
# beside 64×64 in one call) it took less time wherever N was 1536 or more — 93×8192×14336 0.56× /
# 0.57× (fp16 / bf16), 77×2048×14336 0.72 / 0.73, 100×4096×4096 0.74 / 0.73, 106×1536×8192 0.84 /
# 0.85 — and more at four of five with N = 512 (69×512×8192 1.08 / 1.08, 118×512×5000 1.08 / 1.07,
# 115×512×5000 1.05 / 1.06, 71×512×14336 1.02 / 1.03; 88×512×14336 0.98 / 0.98). Our reading, not
# profiled: four columns of 64×128 tiles leave two tile rows 8 tiles to cut along K against the
# 64×64 form's 16 — twice the pieces and their sums. So the rule takes N over 512 (N = 1024: 5 of
# 6 faster in docs/results/2026-12-01-h200-a-edge/, run 5; N of 520–1016 not timed).
PAIRED_ROWS_CONFIG = {"CONSUMERS": 1, "BN": 128, "CLUSTER": 2, "STAGES": 8}
# Then half as wide where those fill one round: one consumer's 64 × 64 pairs along M with 13 stages
# — cuBLAS's form at 128×4096×4096 (nvjet_sm90_hss_64x64_64x13_2x1: 64 × 64, 13 stages, pairs along
# M, whole K) — in place of PAIRED_ROWS_CONFIG where their units (tiles × split-K's pieces, as
# wgmma_schedule cuts them) keep at least NARROW_PAIRS_BUSY of the clusters busy in one round, with
# the edge tile's box of A from A's last 64 rows (A_SHIFT: at M = 96, 64 × 64 pairs over whole K
# took 26.1 µs with the boxes past M, 18.9 with it). H100, fp16, beside the pick in one call
# (docs/results/2026-12-07-h100-narrow-64-stages-13/, run 3, on the 35 shapes of
# scripts/shapes/narrow_shift.txt and narrow_fresh.txt): where the pick was those pairs and 64 × 64
# pairs filled 56–66 of 66 clusters, less time at 15 of 17 (0.891–0.995×, 0.956× geomean;
# 96×4096×4096 0.837 → 0.939× cuBLAS, 128×4096×4096 0.870 → 0.966, 121×3776×9472 0.853 → 0.928) and
# at most 1.1 % more at two (114×1992×13440, 94×824×9792); where they filled 36–54 (11 shapes:
# 0.983–1.253×, 83×3328×4800 the one faster) or took two rounds (4: 1.06–1.24×), more at 14 of 15.
# Then on 14 fresh shapes drawn where the rule fires (scripts/shapes/narrow_pairs_fresh.txt, run 4)
# 0.972 / 0.968× the old pick's time (fp16 / bf16): less at 11 / 12, up to 3.6 / 1.9 % more at the
# rest. 16-bit inputs only; measured on the H100 only, other SM counts in proportion
# (clusters_held). NARROW_PAIRS_BUSY: 56 of 66 busy fires (79×1792×3968, 0.995×), 54 does not
# (1.003–1.023×).
NARROW_PAIRS_CONFIG = {"CONSUMERS": 1, "BN": 64, "CLUSTER": 2, "STAGES": 13, "A_SHIFT": 1}
NARROW_PAIRS_BUSY = 0.84
# Tall, skinny problems: N of at most TALL_MOST_N, K of at most TALL_MOST_K, and M where three
# consumers' 192 × 128 tiles (TALL_CONFIG) cover them in one round with at least TALL_BUSY of the
# SMs busy. There the model's 128-row tiles leave SMs idle in their one round (12288×256×1024: 96
# tiles of 128 × 256) or take a second (24576×128×1024: 192 of 128 × 128), and each block's C is
# all of its epilogue: a block runs one tile, so its stores hide behind no other tile's MMAs (at
# 16384×256×1024 the copy engine's C stores took 20 % of 128 × 256 pairs' time, 17 % of the
# pick's, its consumers taking turns: run 3 below).
# cuBLAS runs 192 of M × 128 of N there (nvjet_sm90_hss_128x192_64x5_2x1_v_bz_coopB at
# 12288×256×1024, 128 blocks). H100, fp16 (docs/results/2026-12-07-h100-tall-skinny/):
# - run 4, scripts/shapes/tall_192.txt: in clusters of 1 0.950× the pick's time (geomean), less at
#   all 8 shapes (0.894–0.981; 6144×512×1024 0.846 → 0.947× cuBLAS, 12288×256×1024 0.869 →
#   0.919); in pairs along M 0.956×; in pairs along N sharing A up to 1.32× where N is not an even
#   number of 128-column tiles.
# - run 5, 14 shapes drawn where a first rule fired (one round, the busiest block's MMAs cut to
#   90 %; scripts/shapes/tall_fresh.txt): 0.999× (fp16) and 0.997× (bf16), less at 8 of 14 — and
#   up to 1.11 / 1.12× (fp16 / bf16) where A's rows lie off 128-byte lines and N takes two or four
#   column tiles (12544×216×800, 11408×248×1136, 6320×480×1904), where 192-row boxes ask the L2
#   for more of A's split rows a block. The model's requests term counts those: with 192 × 128
#   at 192 × 192's rate (WGMMA_SM_TFLOPS), of the 22 shapes of runs 4–5 it models 11 at most
#   TALL_SAVES of the pick's time — all faster, 0.894–0.981 — and the six slower above it (five
#   faster too: four within 1.3 % of the pick in the model, 12544×208×288 5 % behind). So the
#   rule weighs them by the model.
# - run 6, 14 shapes drawn where the rule fires (scripts/shapes/tall_fresh_2.txt): 0.975 / 0.980×
#   the old pick's time (fp16 / bf16), less at 10 / 9; up to 3.3 / 3.8 % more at N of 183–248,
#   where 192 × 128 takes two column tiles and the old pick's 128 × 256 or 128 × 192 one (bf16
#   0.6 % more at 6072×446×1061 too).
# 192 × 128 lost wherever it was timed on wider problems (docs/results/2026-12-01-h200-rows-192/:
# 2048³ +38 %, 4096³ +8 %), hence N and K. 16-bit inputs only; measured on the H100 only, other
# SM counts in proportion.
TALL_CONFIG = {"CONSUMERS": 3, "BN": 128, "CLUSTER": 1, "SHARE_A": 0, "STAGES": wgmma_max_stages(3, 128)}
# Tall problems of N 129–256 whose pick takes turns on 128 × 128 tiles (TURNS_CONFIG), H100, fp16
# and bf16, one process a log:
# - docs/results/2026-12-07-h100-coop-clusters-of-4/, runs 5–6: cuBLAS's form at 16384×256×1024
#   (nvjet_sm90_hss_128x256_64x4_2x1_v_bz_coopA), 06's swapped 128 × 256 pairs along N with C's
#   staging box stored in two parts for a fourth stage (SWAP_AB=1, BN=256, C_PARTS=2, STAGES=4),
#   took 0.862–0.957× the turns' time at the 8 shapes of N 129–192 of
#   scripts/shapes/swapped_tall_rows.txt; a first rule took it there (6b99369).
# - docs/results/2026-12-07-h100-swapped-tall-fresh/: on 10 shapes drawn where that rule fired
#   (swapped_tall_fresh.txt) the turns took 1.066–1.20× its time (run 1). cuBLAS runs B's whole
#   width in one tile there — nvjet_sm90_hss_160x128_64x5_1x4 at 14689×160×1024, 192x128 … 1x2
#   at 16499×192×1472 (run 2) — and so, here: two consumers' 128 × 16·⌈N/16⌉ tiles in pairs along
#   M (TALL_FIT_CONFIGS) took 0.969 / 0.967× (fp16 / bf16) the swapped pairs' time, less at all 10
#   (runs 3–4), 0.927–1.003× at swapped_tall_rows.txt's 8 (run 5); in clusters of 4 1.08× (run 3).
#   On 10 shapes drawn where a first cut of this rule fired (N 129–256, any K; run 8) the turns
#   took 1.04–1.19× their time at N ≤ 192 (3) — but 0.92–0.99× at N of 193–256 where K is 11
#   slices or fewer (16434×220×576, 33724×236×512, 16706×211×704; our reading: the wider tile's
#   epilogue, which the turns hide behind the other consumer's MMAs, weighs more against short
#   K), 1.00–1.05× where it is longer. At N of 193–240 the pairs took 0.963–0.999 / 0.957–1.006×
#   the turns' time with K of 13 slices or more (16 shapes of runs 5–9, 6 of them drawn after
#   this cut: tall_fit_wide_fresh.txt, run 9), 0.994–1.082 / 1.005–1.080× with 11 or fewer (4).
#   Where the pairs fill 80 % of the clusters or less, 1.02–1.16× (27007×204×832, 18132×193×576,
#   7488×208×1536 cut along K; run 5); over other picks (n_fit_tall.txt, run 4) 1.067×, slower at 9 of 12.
# At N of 241–256 the fitted tile is 128 × 256, the ranking's own, which wgmma_takes_turns replaces
# on the H200's measure (at 16384×256×1024 the turns took 0.996× its time:
# docs/results/2026-12-01-h200-pingpong/). On the H100 it took 0.996–1.000× the turns' time at
# 16384 and 32768×256×1024 (docs/results/2026-12-07-h100-tall-skinny/, run 1), 1.004 / 1.005 at
# 15661×243×1024 and 0.94 / 0.95 at 15535×248×1984: mixed on four shapes, so those stay with the
# turns the H200 chose.
# wgmma_fits_tall_rows takes them over the turns at N of 129–240 (past TALL_FIT_NARROW_N, K of
# TALL_FIT_WIDE_SLICES slices or more), 16-bit inputs, where the pairs run whole in one or two
# rounds (TALL_FIT_ROUNDS: none was timed in three) and keep TALL_FIT_BUSY of the clusters busy
# over them (0.856 the least timed: 28724×234×832): at the 37 timed shapes where it fires 0.968 /
# 0.968× the time of the pick it replaced (the swapped pairs at 18, the turns at 19; 16 past N of
# 192: 0.981 / 0.982), slower at one each by at most 0.6 % (16600×175×896 fp16, 32157×194×1024
# bf16). Measured on the H100 only. Rare: on 132 SMs M of 14 337–16 896 and 28 673–33 792; no
# suite shape.
TALL_FIT_WIDTHS = tuple(range(144, 241, 16))   # 16·⌈N/16⌉ for N of 129–240
TALL_FIT_CONFIGS = tuple({"CONSUMERS": 2, "BN": bn, "CLUSTER": 2, "STAGES": 4} for bn in TALL_FIT_WIDTHS)
TALL_FIT_BUSY = 0.85
TALL_FIT_ROUNDS = 2
TALL_FIT_NARROW_N, TALL_FIT_WIDE_SLICES = 192, 13   # past N of 192, K of 13 slices or more (over 768 at 16 bits)
TALL_MOST_N, TALL_MOST_K = 512, 2048
TALL_BUSY = 0.9
TALL_SAVES = 0.99
# Wider pairs where B streams from HBM: two rows of one consumer's 64 × 192 or 64 × 256 tiles in
# clusters of 2 along M (the pair shares B's boxes), K whole, where M is two 64-row tiles (65–128),
# K at least 64 slices (4096 at 16 bits) and one round of the pairs keeps WIDE_PAIRS_BUSY of the
# clusters busy — the width with the most clusters that fit one round (cuBLAS's 116 blocks at
# 128×11008×4096 stream 96 columns each, whole). There the model picks 128×128 tiles in clusters
# of 1, one block a tile (86 of 132 SMs at N = 11008), 128×256 in clusters of 1 cut along K, or
# 64 × 256 pairs. H200, beside the pick in one call (docs/results/2026-12-02-h200-wide-pairs/,
# table.txt): on scripts/shapes/m128_stream.txt (run 5, fp16) less time at all 7 shapes where the
# rule fires — 80×11008×6144 0.74 → 0.98× cuBLAS, 100×12288×4096 0.85 → 0.97, 96×11008×4096 0.84
# → 0.93, 128×11008×4096 0.90 → 0.95 (0.91 → 0.97 in run 4; 0.958 → 0.972 at an earlier stop),
# 120×11008×5120 0.92 → 0.95 (64 × 192: 58 clusters), 128×14336×4096 0.97 → 0.99, 112×14336×4096
# 0.97 → 1.00 (64 × 256: 56) — and more at three of the four where neither width fills 80 % of
# the clusters in one round (N of 4096–8192: 16–43 of 66; 0.85–0.97 against 0.94–1.04; at
# 128×5120×5120, 27 clusters, 64 × 192 0.87 against 0.85) and where 64 × 192 takes two rounds (N =
# 14336: 75 clusters, 0.76 against 0.97). Then on 14 fresh shapes drawn where it fires (run 6,
# scripts/shapes/wide_pairs_fresh.txt; at 4 the pick was the same already, at the other 10 it
# replaced 128×256 cut along K (8), 128×128 whole (1) and 64 × 256 pairs (1)): 1.10× the rate
# there, fp16 and bf16 alike, faster at 9, within 0.5 % at one (95×13344×9032, 64 × 256 against
# 128×256 cut in 2) — 90×11904×11840 0.78 → 0.93× cuBLAS, 119×12216×13424 0.89 → 1.03,
# 107×11504×12256 0.79 → 0.91. The bound was 80 % until run 8 (14 fresh shapes where the pick is
# two consumers' 128-row tiles, 10 of them at 47–52 clusters, 71–79 %) found 64 × 192 pairs ahead
# there at 9 of 10 (0.80 → 0.94× cuBLAS at 84×9832×6992; 4 % behind at 127×9480×10120); 70 % then
# held on 12 shapes of its own (scripts/shapes/wide_pairs_70_fresh.txt, drawn where 70 % fires and
# 80 % does not, fp16; docs/results/2026-12-02-h200-b-realign/, run 5): the rule's pick ahead of
# two consumers' tiles at 11 of 12 (1 % behind at 122×9819×8680), 0.907 → 0.991× cuBLAS geomean.
# 64 × 192 at 43 clusters (65 %) lost (run 5 of the wide pairs), so 70 % stays above it. "The
# most clusters" is not pinned down: at 48 clusters (73 %) 64 × 256, which the rule leaves there,
# ran ahead of 64 × 192 at 117×12160×8840 (0.98 against 0.95×) and behind it at 84×12280×5192.
# 16-bit inputs only (8-bit and TF32: not measured); measured on the H200 only, other SM counts
# in proportion (clusters_held).
WIDE_PAIRS_CONFIGS = tuple({"CONSUMERS": 1, "BN": bn, "CLUSTER": 2, "STAGES": wgmma_max_stages(1, bn)}
                           for bn in (192, 256))
WIDE_PAIRS_BUSY = 0.7
# Swapped tiles that fit M (Cᵀ = Bᵀ·Aᵀ: 128 of N along the two consumers' wgmma rows, BN of M
# along their n — any multiple of 16): where M is a few hundred and not a multiple of 128, the
# model's 128-row tiles pad the last tile row (279 → 384 rows); cuBLAS runs 128 × 96 … 128 × 200
# tiles there, M along the tile's second side (Nsight Compute, H200: 279×4360×3584 128×96,
# 293×4416×3472 128×104, 333×5440×4528 128×112, 338×7464×4320 128×176, 396×7824×7816 128×200;
# docs/results/2026-12-02-h200-swapped-fit/, run 2). H200, fp16, beside the pick in one call
# (run 3): 279×4360×3584 0.825 → 0.963× cuBLAS (BN = 144: 2 tiles of M, 70 in all),
# 333×5440×4528 0.784 → 1.015 (112: 3, 129), 293×4416×3472 0.596 → 0.727 (160: 2, 70; 112 in 3:
# 0.778) — slower where the tiles took two rounds (333 in 96: 0.629), were cut along K
# (228×2264×4080: 0.82 against 1.04) or were wider than 160: 396×7824×7816 in 208 0.58 against
# 0.78 (2 stages then: C's two staging boxes, BN rows tall each, took the shared memory), 0.65
# against 0.80 with one box and 4 stages (run 7) — though 338×7464×4320 in 176 took 0.81 against
# 0.74 (3 stages; 0.80 against 0.74 with 4). Both picks there multicast, so wider tiles are
# untimed against picks in clusters of 1: the cap (then 160) kept the rule to widths timed (on the
# grid below it bound nowhere: up to 256, no pick moved). A first rule on those (M of
# 193–480, one round of whole tiles, BN ≤ 160, a tenth fewer rows), timed against the pick
# without it on ten fresh shapes where it fired and the three above (run 4, fp16 / bf16): 1.033
# / 1.036× the time (geomean); of the nine whose pick multicast in clusters of 2 or 4, slower at
# six (+10 to +55 %: the swapped tiles share nothing across a cluster — our reading, not
# profiled) and faster at three (−3 to −14 %); faster at all four whose pick ran in clusters of 1
# (264×7488×5600 −18 %, the three above −16 to −21 %).
# Taking only picks in clusters of 1, on ten more fresh shapes where it fires (run 5): 0.909 /
# 0.905× the time, faster at 8 of 10 (292×7464×6272 0.53 → 0.73× cuBLAS, 277×6352×6848 0.76 →
# 0.93), slower at 279×4480×6656 and 285×4864×4792 (+8 %). Then C's staging became one box of
# BN rows a consumer, the halves in turn (a stage more at 96–160): on the same ten (run 7, fp16)
# 0.901× the time, 8 of 10 faster; 279×4360×3584 0.989× cuBLAS. No suite shape moves; 166 of a
# 2304-shape grid (M 193–480 by 8s, N 1024–16384 by 1024s, K 1024, 2048, 4096, 8192) do, all
# with M of 257–329: below, the picks there run in clusters; above 336, no fit saves a tenth.
# That rule (clusters of 1, BN ≤ 160) then gave way to this one's tiles in clusters along N, the
# blocks sharing A's rows (each copies BN / CLUSTER of them for all: cuBLAS's 2×1 … 4×2 clusters on
# these shapes). H200, fp16, on 16 shapes of M 199–396 where 06 stayed below 0.85×
# (docs/results/2026-12-02-h200-swapped-clusters/, run 1: the widths that cover M in 2 and in 3
# tiles, each in clusters of 1, 2 and 4, beside the pick in one call): every form that took two
# rounds lost to the best in one round (0.37–0.84× cuBLAS); of those in one round, the best of 3
# tiles of M beat the best of 2 at all 7 shapes where both fit (279×4480×6656 0.75 → 1.01× in
# clusters of 1, 0.95 in 4; 325×4496×1896 0.74 → 0.91), and clusters of 4 were the best of the
# three cluster sizes (or within 1 %) at 12 of 13 where they fit in one round — 6 % behind clusters
# of 1 at 279×4480×6656; where they did not, clusters of 2 won (285×7872×2120 0.79 → 1.03,
# 270×7952×1032 0.83 → 0.96, 396×7824×7816 0.76 → 0.91). At M = 199 every swapped form lost to the
# pick (0.73×): the rule starts past 256. Its first form (of 3 then 2 tiles, in clusters of 4 then
# 2, the first in one round filling over half the clusters), timed against the pick without it on
# 17 fresh shapes and the mid-M suite's three of M = 384 (run 2, fp16 / bf16): 0.930 / 0.936× the
# time, but slower at M = 384 (+2 to +11 %: 128-row tiles fit it already) and where the pick was
# cut along K in 3 pieces (440×2696×6920 +18 %, 312×3232×6968 +2 %, 294×3792×6488 −3 / +10 %; and
# +4 % in bf16 at 262×3448×2128, 21 of 30 clusters busy). Without those (run 3, 16 fresh shapes):
# 0.931 / 0.926×, slower where the pick was two 192-row tiles (342×5624×4880 +30 %, 304×4936×4872
# +18 / +14 %, 344×6264×5216 +4 / +5 %: they cover M ≤ 384 as tightly), with 18 of 30 clusters busy
# (443×2624×2048 +16 %) and at 357×3816×3208 (+18 / +11 %). Without those too — the last form,
# picked on runs 2 and 3: at their 22 shapes where it still fires 0.864 / 0.862× the time, at the
# 14 it leaves 1.045 / 1.052× — on 16 fresh shapes (run 4): 0.965 / 0.973× the time, 0.864 → 0.895×
# / 0.862 → 0.885× cuBLAS (geomean), faster at 9 / 8 of 16 (369×7320×7136 0.79 → 0.99×,
# 448×4216×3160 0.88 → 1.08×), slower at 389×3760×4328, 390×4176×4000, 425×5176×4904 (+10 to +15 %)
# and 289×4312×3896 (+6 / +5 %); below 0.85× cuBLAS 4 of 16 (fp16; 6 before) and 6 (bf16; 7). No
# suite shape moves. The rule, then: 16-bit inputs, M of 257–480 not a multiple of 128, a pick
# neither of 192-row tiles nor cut along K in more than 2 pieces; of 3 then 2 tiles of M, in
# clusters of 4 then 2, the first in one round with at least 4 clusters in 5 busy. Widths: 16 ·
# cdiv(M, 16t), 32 · ... in clusters of 4 (whole 8-row atoms a block), at most 208 (4 stages; 224
# was timed only in two rounds).
# Then 2 × 2 clusters (SHARE_A: the pairs along M share B's columns as well, each copying one
# consumer's 64 for both — cuBLAS's 4×2 at 338×7464×4320). H200, docs/results/2026-12-02-h200-swapped-2d/:
# on the last form's 16 fresh shapes (run 1, fp16) 2 tiles of M in 2 × 2 took the same time as the
# same tiles in clusters of 2 along N or less wherever both ran in one round (397×7416×3128 0.81 →
# 0.94× cuBLAS, 369×7320×7136 0.84 → 0.99; never over 1 % slower), so of 2 tiles they come before
# clusters of 2 along N (FIT_FORMS: (tiles of M, cluster, SHARE_A) in the order tried; 2 × 2 takes
# an even count): on 16 fresh shapes where that moves the pick (run 2) 0.927 / 0.922× the time
# (fp16 / bf16; 0.926 on a second fp16 run), 0.869 → 0.937× / 0.863 → 0.936× cuBLAS, faster at 13
# / 12 of 16 (387×7112×7288 0.77 → 0.94×, 410×6696×6952 0.82 → 0.97), slower at 389×5984×2064
# (+5 / +6 %) and 385×6080×1528 (+2 %), within 1 % at one / two more. Beside picks the rule left
# (run 3, 18 fresh shapes) 2 × 2 of 2 tiles — cut along K by split-K where few — took 16–18 % less
# time over two 192-row tiles at three of four (285×2824×6936, 288×2864×4056, 291×5984×2032; 1 %
# at 362×6208×5656), 10 % less over one consumer's tiles (363×2480×6592), the same (±1 %) beside
# swapped picks, 12 % more where its pieces were short (367×3424×1696: 14 slices) and 1–25 % more
# at 224–240 columns (M past 416: 3 stages; 8 of 8 slower). So, over any pick, the rule falls back
# to them: at most 208 columns, one round 4 clusters in 5 busy, pieces of FIT_SPLIT_SLICES or more.
# On 16 fresh shapes where the fallback moves the pick and three where earlier forms lost (run 4):
# 0.858 / 0.854× the time, faster at all 19 in both, 0.860 → 1.002× / 0.902 → 1.056× cuBLAS,
# below 0.85× 11 → 0 / 10 → 1 (296×3304×5472 0.72 → 0.88×, 308×2184×7648 0.72 → 1.06,
# 294×3792×6488 0.79 → 0.99).
# Then one consumer's tiles, 64 of N by half of M (BN = 16 · cdiv(M, 32)), in clusters of 4 along
# N — cuBLAS's 64x136 in 4 × 2 clusters at 272×3704×1376, 116 tiles (Nsight Compute, H100,
# docs/results/2026-12-06-h100-small-problems/, run 2), where the pick's 3 tiles of 96 × 128 in
# clusters of 4 left 24 of 30 clusters busy and ran 0.69× cuBLAS. 4/3 the tiles of that form at
# three quarters of a block's MMAs (87 → 116 tiles there): beside the pick on 13 shapes of M
# 272–472, N 3608–6960, K 520–3336 (run 4, fp16; 12 drawn, each pick a two-consumer fit), they
# took less time at all 5 where they ran in one round (2 · cdiv(N, 256) ≤ 30 clusters: 0.86–0.97×
# the time; 392×3832×1432 0.71 → 0.83× cuBLAS, 272×3704×1376 0.69 → 0.78) and more at all 8 where
# they took two (up to 1.3×). So where the rule's first form is picked they replace it if they
# take one round as well (wgmma_fits_one_consumer). On 14 shapes drawn after the rule
# (scripts/shapes/fit_one_fresh.txt, run 5; swap_fit_study.py --rule, one process a precision):
# 0.898 / 0.900× the time (fp16 / bf16), faster at 14 / 14 (320×3768×2128 0.73×, 408×3656×3472
# 0.61 → 0.79× cuBLAS), below 0.85× cuBLAS 7 → 3 / 9 → 3. Not timed on the H200.
FIT_MOST_BN = 208
FIT_SPLIT_SLICES = 32   # (0: no fallback)
FIT_FORMS = ((3, 4, 0), (3, 2, 0), (2, 4, 0), (2, 4, 1), (2, 2, 0))
FIT_ONE_OVER = (3, 4, 0)   # the form wgmma_fits_one_consumer's tiles replace (where measured)
FIT_ONE_CONFIGS = tuple({"SWAP_AB": 1, "CONSUMERS": 1, "BN": bn, "CLUSTER": 4,
                         "STAGES": wgmma_max_stages(1, bn, swap=True)}
                        for bn in range(144, 241, 16))   # (M of 257–480 in 2 tiles)


def swapped_two(bn, cluster, share_a=0):
    """Two consumers' swapped tiles, 128 of N by ``bn`` of M, in clusters of ``cluster`` along N (with
    ``share_a``: 2 × 2), the most stages that fit — the form of FIT_CONFIGS and LOW_FIT_CONFIGS."""
    return {"SWAP_AB": 1, "CONSUMERS": 2, "BN": bn, "CLUSTER": cluster, **({"SHARE_A": 1} if share_a else {}),
            "STAGES": wgmma_max_stages(2, bn, swap=True)}


FIT_CONFIGS = tuple(swapped_two(bn, cluster, share_a)
                    for cluster, share_a, least in ((4, 0, 96), (2, 0, 96), (4, 1, 144))   # (2 × 2: M of 257+ in 2)
                    for bn in range(least, FIT_MOST_BN + 1, wgmma_swap_step(cluster, share_a)))


def fit_config(cluster, share_a, bn):
    """FIT_CONFIGS' swapped tiles of ``bn`` of M in clusters of ``cluster`` (``share_a``: 2 × 2), or
    None where they have no such width."""
    return next((c for c in FIT_CONFIGS if (c["CLUSTER"], c.get("SHARE_A", 0), c["BN"]) == (cluster, share_a, bn)),
                None)


# M of 129–208 against wide N: one swapped tile covers M — two consumers' 128 of N by BN = 16 ·
# cdiv(M, 16) of M (144–208) — where the pick computes 128- or 192-row tiles a fifth to a half
# padding (144×13104×11792: 0.75× cuBLAS on the H200, docs/results/2026-12-05-h100-h200-split-boxes-survey6/).
# All on an H100 (the device tool lent no H200 that session), each comparison within one call:
# docs/results/2026-12-05-h100-low-fit/. Beside the pick (run 1, fp16, 16 shapes of M 129–197
# drawn for it), those tiles in clusters of 4 along N, sharing A's rows, took less time at 13: 1 %
# more at 129×12040×8240, and more where they took two rounds (31–32 clusters; 30 hold them), where
# clusters of 2 won (138×15800×2424 0.81 → 0.96× cuBLAS, 166×16032×11592 0.89 → 1.00×). Past 208 of
# M, 240-wide tiles (3 stages) lost to the pick at 4 of 5 (run 2, M of 225–237). (The M = 199 at
# which every swapped form lost, FIT_CONFIGS' note, was 2 and 3 tiles of M; one was not timed.)
# So: clusters of 4 where they take one round (split-K's pieces counted: the kernel cuts few tiles
# along K), else of 2. Against the pick without it, one process a precision (swap_fit_study.py
# --rule), on 24 shapes (run 3: 20 drawn after it, 199×5688×7616, 3 of N ≤ 2048 chosen): 0.951 /
# 0.959× the time (fp16 / bf16), but slower where K was cut in short pieces (181×1032×2048, 8 of 4
# slices: 1.50–1.52×; 150×1536×8192, 10 of 13: 1.09–1.12×; 154×6367×1064, 2 of 9: 1.05–1.07×) and
# faster where in pieces of 31–32 (143×2098×12088, 6 of them: 0.91×): pieces of LOW_FIT_SLICES or
# more since, as cdiv counts them (the kernel's shortest may hold one less; this leaves
# 143×4464×4272's 3 of 23, 6 % faster in run 1). On 20 drawn after that (run 5): 0.945 / 0.950×, but
# slower at all 3 where the pick was 128×128 tiles in 2 × 2 clusters (1.3–1.9× cuBLAS already:
# +4 to +16 %): not over those since. On 20 drawn after that (run 6): 0.947 / 0.953× the time (0.951
# on a second fp16 pass), 1.053 → 1.112× / 1.055 → 1.107× cuBLAS (geomean), below 0.85× 3 → 0,
# faster at 17–18 of 20, slower at 195×3933×6664 (+3 %), by 1 % or less at 173×10288×15752. Not
# timed on the H200.
LOW_FIT_M = (129, FIT_MOST_BN)
LOW_FIT_SLICES = 32   # the least k-slices a piece, as cdiv(k-slices, pieces) counts them
LOW_FIT_CONFIGS = tuple(swapped_two(bn, cluster)
                        for cluster in (4, 2) for bn in range(16 * cdiv(LOW_FIT_M[0], 16), FIT_MOST_BN + 1, 16))
# (those FIT_CONFIGS lacks: clusters of 4 at 144, 176 and 208 — its own step there is 32)
LOW_FIT_ONLY = tuple(c for c in LOW_FIT_CONFIGS if c not in FIT_CONFIGS)

# Three consumers' swapped tiles: 192 of N by 144 of M — cuBLAS's `192x144_64x5_1x2` at
# 272×12376×9496, in pairs along M sharing B's columns (Nsight Compute, H200,
# docs/results/2026-12-04-h200-survey-4/, run 2). Where M is 257–288 the fit rule's two-consumer
# forms need 1.5 times the tiles (two rounds once N passes ~8 500) and the pick is two 192-row
# tiles (a quarter to a third of their rows past M) or 128×256 in clusters of 1; 2 tiles of 144
# cover it. H200, fp16, beside the pick in one call
# (run 3: 7 shapes, N 9 744–12 376, each form in one round or not): of 2 × 2 clusters, pairs
# along M sharing B's columns and pairs along N sharing A's rows, the first in one round — 2 × 2
# where 30 clusters hold the tiles, else pairs along M — took 0.74–0.93× the pick's time at all 7
# (272×12376×9496 0.73 → 0.88× cuBLAS, 280×11144×9560 0.91 → 1.23×), within 1.5 % of the fastest
# of the three at each; 2 × 2 in two rounds took up to 1.27× the pick's. 160 of M (M of 289–320:
# 3 stages, 328 bytes of spills then) took more time than the pick at 5 or 6 of 7 in each form
# (the kernel builds up to 192 of M, without spills since 2026-12-04; this rule takes 144). On
# shapes drawn after the rule (runs 4–5): 0.833 / 0.830× the time (fp16 / bf16, 14 shapes off
# lines: 1.006 → 1.208× / 0.997 → 1.201× cuBLAS, below 0.85× 8 → 0), 0.840× on 10 on lines (fp16,
# 0.797 → 0.948×).
FIT_THREE_BN = 144
FIT_THREE_CONFIGS = tuple({"SWAP_AB": 1, "CONSUMERS": 3, "BN": FIT_THREE_BN, "CLUSTER": cluster, "SHARE_A": 1,
                           "STAGES": wgmma_max_stages(3, FIT_THREE_BN, swap=True)}
                          for cluster in (4, 2))   # in the order tried: 2 × 2, pairs along M


# M of 257–416 and 513–832 against wide N, past the fit rule's one round, where the pick pads M
# to a whole number of 256- or 192-row pairs (600 → 768, 792 → 1024) or runs 128×192 tiles in
# clusters of 1 in rounds (M of 289–352: 0.55–0.82× cuBLAS): the fit rule's 2 × 2 swapped tiles
# (FIT_CONFIGS: 2 tiles of M to 416, else 4, BN = 16 · cdiv(M, 16 · tiles), 144 to 208) over more
# than one round. H200, fp16, beside the pick in one call (docs/results/2026-12-04-h200-fit-rounds/,
# run 1, scripts/shapes/fit_rounds_*.txt: 17 shapes of M 481–768, N 8–16 K): their time over the
# pick's followed their busiest cluster's MMAs (k-slices × rows × BN) over the pick's — 0.88–0.96×
# the time where those were 0.83–0.94× with whole tiles (582×11272×2688 0.97 → 1.11× cuBLAS), and
# 0.88× at 0.75 with stream-K cutting the last round (600×13784×4000 0.81 → 0.93×), 0.94–1.27×
# where they were 0.97 or more, but stream-K's cut took up to 1.2× the time the MMAs say elsewhere
# (481×13776×2720 1.09× at 0.90, 713×8864×5728 1.04× at 0.94). In clusters of 2 along N instead:
# faster at 2 of 17, up to 1.5× the time elsewhere; 128×256 in clusters of 1 with stream-K: faster
# at 1 (614×12384×3376, 0.985×). So wgmma_swaps_over_rounds takes them whole (stream-K as 06 cuts
# it: after STREAM_K_ROUNDS rounds — 4 whole rounds at 600×13784×4000, not timed there) where
# their MMAs are at most OVER_ROUNDS_MMAS of the pick's. On 20 shapes
# of M 513–768 drawn after (run 2; old and new tree each in its own process, in turn): 0.895 /
# 0.890× the time (fp16 / bf16), faster at 20 / 20, 0.858 → 0.959× / 0.842 → 0.944× cuBLAS, below
# 0.85× 10 → 2 / 10 → 2. Then 208 of M (run 3, 9 shapes where the MMAs were 0.81–0.91×): 2 of M at
# M of 385–416 and 4 at 769–832 took 0.83–0.90× the pick's time at all 9 (400×13832×2928 0.85 →
# 0.98×); on 12 drawn after (run 4) 0.865 / 0.863×, 0.842 → 0.973× / 0.838 → 0.973×, below 0.85×
# 7 → 0. Then 2 of M at 289–352 (run 6, 8 shapes): 0.59–0.93× the pick's time at all 8
# (319×13928×5040 0.56 → 0.95×); on 12 of M 257–384 drawn after (run 7) 0.776 / 0.770×, 0.722 →
# 0.933× / 0.714 → 0.927×, below 0.85× 12 → 1. 6 tiles of M at M of 865–1056 (run 6: MMAs
# 0.92–0.95× the pick's) took 0.96–1.02× its time, slower at 4 of 8: not taken.
OVER_ROUNDS_M = (257, 832)   # (2 × 2's widths, 144–208, cover M of 257–416 in 2 tiles and 513–832 in 4)
OVER_ROUNDS_MMAS = 0.95


def wgmma_schedule(m, n, k, sms, tile, elem_bytes=2):
    """06's schedule on (m, n, k) as the kernel computes it: (tiles, k-slices a tile, clusters,
    split-K's pieces a tile, stream-K's share of the last round per cluster). ``tile``'s STREAM_K
    is the kernel's own: a 16-bit C turns it off there (wgmma_config passes 0 for one)."""
    cluster = tile["CLUSTER"]
    if tile.get("SWAP_AB"):   # Cᵀ = Bᵀ·Aᵀ: the block tile's rows run along N, its BN columns along M
        m, n = n, m
    along_m, along_n = wgmma_cluster_shape(tile)
    tiles = cdiv(m, wgmma_rows(tile) * along_m) * cdiv(n, wgmma_cols(tile) * along_n)
    kt, clusters = cdiv(k, WGMMA_ROW_BYTES // elem_bytes), clusters_held(sms, cluster)
    p = split_pieces(tiles, kt, clusters, tile)
    return tiles, kt, clusters, p, (stream_k_share(tiles, kt, clusters, tile) if p == 1 else 0)


def busiest_slices(schedule, tile):
    """The k-slices the busiest cluster's blocks each take, from 06's ``schedule`` (wgmma_schedule's
    tuple) with ``tile``: a round of whole tiles each, stream-K's share of the last, or split-K's
    pieces."""
    tiles, kt, clusters, p, share = schedule
    if p > 1:
        return cdiv(tiles, split_round_tiles(tiles, p, clusters, tile)) * cdiv(kt, p)
    return tiles // clusters * kt + share if share else cdiv(tiles, clusters) * kt


def busiest_mmas(m, n, k, sms, tile, elem_bytes=2):
    """(The MMAs of each of the busiest cluster's blocks — busiest_slices × the tile's rows ×
    columns — and 06's schedule on (m, n, k) with ``tile``: wgmma_schedule's tuple)."""
    schedule = wgmma_schedule(m, n, k, sms, tile, elem_bytes)
    return busiest_slices(schedule, tile) * wgmma_rows(tile) * wgmma_cols(tile), schedule


def split_k_sum_us(p, bm, bn):
    """The model's split-K term: µs for p pieces' bm×bn fp32 partial tiles through one SM, plus
    split-K's fixed cost (see SPLIT_K_US)."""
    return p * bm * bn * 4 / SM_BYTES_PER_US + SPLIT_K_US


def wgmma_model_us(m, n, k, sms, tile, elem_bytes=2, a_lines=False):
    """Modelled µs of 06 with ``tile`` on (m, n, k): the busiest cluster's k-slices at the tile's
    rate (the schedule the kernel itself computes: rounds, stream-K, split-K) plus split-K's
    final sum, or the time to stream A, B and C through HBM — with (16-bit inputs) the time for the
    L2 to serve the read requests of A's and B's box rows (L2_REQUESTS_PER_US): the longer of the
    two where rows lie on 128-byte lines, their norm of order L2_OVERLAP where they do not. Returns
    (that time, whether the schedule splits tiles along K). Consumers taking turns (PINGPONG) get
    the rate of the cooperative tile of their size — the stores they hide are not modelled, and
    the picker does not rank them by it (wgmma_takes_turns decides). ``a_lines``: A's rows copied
    to 128-byte lines first (wgmma_copies_a_to_lines prices the copy itself)."""
    consumers, bn, cluster = tile["CONSUMERS"], tile["BN"], tile["CLUSTER"]
    bm = wgmma_rows(tile)
    # a slice is 128 bytes of K whatever the type: its MMA time is the same (FP8's rate is twice
    # fp16's, TF32's half), only the number of slices changes
    schedule = wgmma_schedule(m, n, k, sms, tile, elem_bytes)
    tiles, kt, clusters, p, share = schedule
    # rates in fp16 FLOP, 64 K a slice; a width between multiples of 64 at the rate of its whole
    # boxes' (wgmma_b_cols), which its requests count too
    b_cols = wgmma_b_cols(tile)
    if (consumers, b_cols) not in WGMMA_SM_TFLOPS:
        rates = ", ".join(f"{c} × {w}" for c, w in WGMMA_SM_TFLOPS)
        raise UsageError(f"the model has no rate for CONSUMERS={consumers} with BN={bn} (its B boxes {b_cols} "
                         f"wide): it has one for {rates} (consumers × columns; unswapped, a width rounded up to "
                         "64) — time such a tile with scripts/tune_ladder.py")
    slice_us = 2 * bm * wgmma_mma_cols(tile) * 64 / (WGMMA_SM_TFLOPS[consumers, b_cols] * 1e6)
    slices = busiest_slices(schedule, tile)
    if p > 1:
        per = split_round_tiles(tiles, p, clusters, tile)
        active = per * p * cluster
        fixup_us = cdiv(tiles, per) * split_k_sum_us(p, bm, bn)   # (a sum each round)
    else:
        active = min(tiles, clusters) * cluster
        fixup_us = STREAM_K_US if share else 0.0
    # HBM at full speed needs HBM_SMS of the SMs reading; fewer get their share of it
    memory_us = (elem_bytes * (m * k + k * n) + 4 * m * n) / (HBM_BYTES_PER_US * min(1.0, active / (HBM_SMS * sms)))
    busy_us = max(slices * slice_us, memory_us)
    # every block's k-slices, each bm box rows of A and bn of B, a multicast operand's shared
    if elem_bytes == 2 and not tile.get("SWAP_AB"):
        along_m, along_n = wgmma_cluster_shape(tile)
        per_row_a = BOX_ROW_REQUESTS["line"] if a_lines else box_row_requests(k * elem_bytes)
        per_row_b = box_row_requests(n * elem_bytes)
        rows_a, rows_b = bm / along_n * per_row_a, b_cols / along_m * per_row_b   # (a slice's requests a block)
        requests_us = tiles * cluster * kt * (rows_a + rows_b) / L2_REQUESTS_PER_US
        if max(per_row_a, per_row_b) > 1 and L2_OVERLAP:   # rows off lines (wgmma_rows_off_lines)
            busy_us = (busy_us ** L2_OVERLAP + requests_us ** L2_OVERLAP) ** (1 / L2_OVERLAP)
        else:
            busy_us = max(busy_us, requests_us)
    return busy_us + fixup_us + LAUNCH_US, p > 1 or share > 0


SWAPPED_IN_FLIGHT_BN = 32   # two consumers' swapped tiles up to this BN keep a slice in flight ...
THREE_IN_FLIGHT_BN = 64     # ... and three consumers' up to this one (wgmma_wait_depth)


def wgmma_wait_depth(tile):
    """The WAIT_DEPTH ``tile`` builds with: its own if set, else 1 for one consumer (no other
    warpgroup's MMAs fill the tensor cores while it waits for its own) unless PROMOTE reads the
    sums after every batch or there is one stage, and 0 for two (measured no faster: the other's
    MMAs fill the gap). One consumer with 1 against 0 (H200, fp16, same run): 64×256 tiles in
    clusters of 2 2048³ 34.9 → 30.1 µs (0.86 → 0.99× cuBLAS), 384×4096×4096 32.4 → 27.0 µs; 64×128
    in clusters of 2 256×4096×4096 22.2 → 19.2 µs (0.90 → 1.03×)
    (docs/results/2026-12-01-h200-one-consumer-in-flight/). Two consumers' swapped tiles of at
    most 32 of M (BN ≤ 32) build with 1 too: a slice there is four 64 × 16 or 64 × 32 MMAs a
    consumer, too short for the other consumer's to cover its wait — 0.987× the time over 23
    shapes at M ≤ 32, 0.999 over 7 with BN of 144–208, where it stays 0
    (docs/results/2026-12-04-h200-cluster-k-small-m/, run 5; SWAPPED_IN_FLIGHT_BN). So do three
    consumers' swapped tiles (64 × 16–64 a consumer): 0.991× the time over 8 shapes (less at 7;
    12 drawn after: less at 12 / 11 of fp16 / bf16, docs/results/2026-12-04-h200-in-flight/) —
    but not their 144-wide fits (FIT_THREE_CONFIGS), whose consumers' spin on a stage's `full`
    barrier took 67 % of the warps' stall samples (built with 1; Nsight Compute, H100) and whose
    four 64 × 144 MMAs a slice are long enough for the other two consumers' to cover a wait: with 0
    they took less time at all 8 shapes timed (0.984× geomean, 0.95–1.00; 264×9744×2672 0.904 →
    0.951× cuBLAS, 265×12184×3688 0.841 → 0.869; H200, fp16,
    docs/results/2026-12-05-h100-h200-split-boxes-survey6/, run 5). So three keep a slice in
    flight up to THREE_IN_FLIGHT_BN, the widths the in-flight runs measured; 80–128 and 160–192
    are measured neither way."""
    if tile["WAIT_DEPTH"] is not None:
        return tile["WAIT_DEPTH"]
    alone = tile["CONSUMERS"] == 1 or tile.get("PINGPONG")   # taking turns, a consumer mostly multiplies alone
    bound = THREE_IN_FLIGHT_BN if tile["CONSUMERS"] == 3 else SWAPPED_IN_FLIGHT_BN
    short = tile.get("SWAP_AB") and tile["BN"] <= bound
    return int(bool(alone or short) and not tile["PROMOTE"] and tile["STAGES"] > 1)


def _owned(asked, build):
    """build(), a configuration built over a kernel declared with the macros ``asked`` — a refusal
    naming the macros of its own (those not the registry's defaults) that it was built with, so
    that a clash with a pick says which macros were the kernel's."""
    try:
        return build()
    except UsageError as exc:
        own = spelt_macros(asked, WGMMA_TILE)
        if not own:
            raise
        raise UsageError(f"{exc} (the kernel was declared with {own} of its own)") from None


def _with_stages(tile, picked, overrides):
    """The macros of a picked configuration with a caller's overrides: the most stages that fit the
    resulting tile (up to 8, or the pick's own where it has more), unless STAGES itself is
    overridden (WAIT_DEPTH, unless set, follows the result: wgmma_wait_depth). Overrides that
    consumers taking turns cannot build (BN=256, CONSUMERS=1, PROMOTE, CLUSTER=4) turn a pick's
    turns off rather than being refused; a pick's sharing of A (2 × 2, 192-row tiles in pairs,
    swapped pairs along M) goes with its cluster when the overrides reshape the cluster (CLUSTER of
    another size, SWAP_AB, A_ROWS, PINGPONG: taking turns, clusters of 2; swapped, CONSUMERS=1 — an
    override that repeats the pick's own value reshapes nothing); a pick of 192 rows gives way to
    128 where the overrides cannot be built with three consumers (wgmma_three_consumers_refuse,
    SWAP_AB — but a swapped pick's 192 of N keeps them — PINGPONG, more stages than fit) or change
    its columns (BN=128 over it means the measured 128×128, not 192×128, which never won there; a
    pick's own 192 × 128, TALL_CONFIG, keeps its rows); swapped tiles (SWAP_AB) over an unswapped
    pick, or unswapped over a swapped one, run in clusters of 1 unless CLUSTER is given (with
    SHARE_A=1 asked: 2 × 2 swapped, 2 unswapped); overrides that a pick's COOP cannot build with
    (wgmma_coop_builds), or that swap the tile the other way (COOP's consumers would then split the
    other side), turn it off, and with it off split-K is 06's own unless SPLIT_K is given."""
    macros = {**tile, **picked, **overrides}
    # (an override C_PLAIN=None is the configuration's own: the pick's, else as declared — not, as for
    # WAIT_DEPTH's None, worked out again from the build)
    if "C_PLAIN" in overrides and overrides["C_PLAIN"] is None:
        macros["C_PLAIN"] = picked.get("C_PLAIN", tile["C_PLAIN"])
    reshaped = [name for name in ("CLUSTER", "SWAP_AB", "A_ROWS", "PINGPONG")
                if name in overrides and overrides[name] != picked.get(name, tile[name])]
    if picked.get("SWAP_AB") and overrides.get("CONSUMERS") == 1:
        reshaped.append("CONSUMERS")   # (a swapped pair along M deals the consumers' columns of B between it)
    if (picked.get("CLUSTER") == 4 or picked.get("SHARE_A")) and "SHARE_A" not in overrides and reshaped:
        macros["SHARE_A"] = 0
        if overrides.get("PINGPONG") and "CLUSTER" not in overrides:
            macros["CLUSTER"] = 2
    if "CLUSTER" not in overrides:
        if bool(macros["SWAP_AB"]) != bool(picked.get("SWAP_AB")):
            # swapped over an unswapped pick, or the reverse: its cluster was for its own tiles
            macros["CLUSTER"] = (4 if macros["SWAP_AB"] else 2) if macros["SHARE_A"] else 1
    if picked.get("PINGPONG") and "PINGPONG" not in overrides and not wgmma_turns_build(macros):
        macros["PINGPONG"] = 0   # the overrides over the cooperative tiles instead
    if picked.get("COOP") and "COOP" not in overrides and (not wgmma_coop_builds(macros) or "SWAP_AB" in reshaped):
        macros["COOP"] = 0   # the overrides over the consumers' own rows instead (or the other side's) ...
    if picked.get("COOP") and not macros["COOP"] and "SPLIT_K" not in overrides:
        macros["SPLIT_K"] = tile["SPLIT_K"]   # ... or COOP=0 asked: split-K as 06 declares it (COOP refuses it)
    swapped_three = picked.get("SWAP_AB") and macros["SWAP_AB"]   # (192 of N; past 192 of M: two consumers, below)
    own_width = not picked.get("SWAP_AB") and macros["BN"] == picked["BN"]   # (TALL_CONFIG's 128 stays 192 rows)
    if macros["CONSUMERS"] == 3 and "CONSUMERS" not in overrides and \
            (macros["SWAP_AB"] and not swapped_three or macros["PINGPONG"] or wgmma_three_consumers_refuse(macros) or
             not swapped_three and macros["BN"] not in THREE_WIDTHS and not own_width or
             overrides.get("STAGES", 0) > wgmma_max_stages(3, macros["BN"], swap=macros["SWAP_AB"],
                                                           c_parts=macros["C_PARTS"])):
        macros["CONSUMERS"] = 2   # a 192-row pick gives way to 128 rows where the overrides need them
    if macros["B_REALIGN"] and "B_REALIGN" not in overrides and not wgmma_realign_builds(macros):
        macros["B_REALIGN"] = 0   # declared (not asked of this problem): where the configuration can take it
    if "STAGES" not in overrides:   # (up to 8, or a pick's own more: NARROW_PAIRS_CONFIG's 13)
        macros["STAGES"] = wgmma_max_stages(macros["CONSUMERS"], macros["BN"], max(8, picked.get("STAGES", 8)),
                                            rows=wgmma_rows(macros),
                                            swap=macros["SWAP_AB"], realign=macros["B_REALIGN"],
                                            c_parts=macros["C_PARTS"], cols=wgmma_cols(macros))
    return macros


# Tiles of 192 rows: three consumers (CONSUMERS=3) of 64 × 192 each, one producer warpgroup, 3
# stages. Against the last stop's picks (H200, fp16, one session: docs/results/2026-12-01-h200-rows-192/,
# run 2, rows192_table.txt) the fastest of their forms took less time at 7 of 17 shapes, 3–27 %
# less: 3000³ 99.7 → 87.7 µs (0.84 → 0.95× cuBLAS), 576×7000×2024 42.8 → 34.1 (sharing A: 0.75 →
# 0.94×), 576×7168×2048 −26.5 %, 576×4096×11008 95.9 → 77.4 (0.87 → 1.08×), 320×4400×5352 48.5 →
# 40.5, 576×1800×2440 −10.4 %, 3072³ −2.9 % (2 rounds of 192×192 in clusters of 2, not 3 of
# 128×192) — and more at 10: 31–43 % where M or N of 1000–1024 pads to 1152, 15 % at
# 2000×3000×1000, 8–9 % at 4096³ and 2048³, 0.3–6 % at 6144³, 8192³, 384×11008×4096 and
# 192×4096×4096 (the model sees the padding's MMAs, not these losses' other causes). Their rate is
# 128×256's (WGMMA_SM_TFLOPS[3, 192]): on run 2's shapes 4.9 or less loses 3072³, 5.2 moves 6144³
# too (+0.3 %); then on 16 fresh shapes drawn where 5.0 moves the last stop's pick (run 3, 11
# configurations each) the pick took 1.010 times the fastest's time (geomean; 1.009 at 5.1 or 5.2;
# the last stop's picks 1.046), 3.5 % less time than the last stop's picks (−14.9 % to +1.8 %;
# the same shapes and configurations measured up to 7 % apart between runs 1 and 2). Split along
# K they won in 2 pieces (576×4096×11008, 320×4400×5352) and 4 (576×1800×2440 sharing A,
# 2981×384×6656) and lost in 6 (192×4096×4096, +6 %), so wgmma_ranked splits them in at most 4;
# stream-K's cut of a last round (pieces of at least half a tile) as for the others — picks with
# it won at 7261×2944×7744 and 4657×4384×3488, lost 0.7 % at 6534×9024×5184 (run 3). In clusters
# of 2 along M (sharing B), of 1, and of 2 along N (sharing A: M of 576 runs in whole tiles
# without a second tile row, and A's rows off lines cost half the requests); 2 × 2 lost wherever
# timed (run 2), and 192 × 128 never won. 16-bit inputs only (8-bit and TF32 builds pass their
# tests, not measured). (cluster, SHARE_A):
ROWS_192 = ((2, 0), (1, 0), (2, 1))
# ... and narrower, weighed against the ranking's pick where no rule replaced it (wgmma_narrows):
# 192 × 176, 160 and 144 in clusters of 2 along M, whole tiles only (not cut along K or by
# stream-K: not measured), at 192 × 192's rate with half of the last box's unused columns counted
# (wgmma_mma_cols). Where N pads to a 64-column box (864 in 4.5 of 192) or 192 × 192 tiles leave
# SMs idle in their one round (1536×2304×4096: 96 of 132; 192 × 144: 128), H100, fp16,
# docs/results/2026-12-06-h100-h200-widths-16/, run 2. Two consumers' widths between multiples of 64
# are not weighed: 128 × 224 (132 tiles, one round) took 1.045 × 128 × 256's time there (108
# tiles), where the model would say 0.94.
NARROW_CONFIGS = tuple({"CONSUMERS": 3, "BN": bn, "CLUSTER": 2, "SHARE_A": 0, "STAGES": wgmma_max_stages(3, bn)}
                       for bn in (176, 160, 144))
# the widths an override may give a 192-row unswapped pick and keep its rows (another gets 128 rows,
# but for the pick's own width — TALL_CONFIG's 128: _with_stages)
THREE_WIDTHS = (192,) + tuple(c["BN"] for c in NARROW_CONFIGS)


def wgmma_sixteen_bit_only(config):
    """Whether ``config`` is one the picker weighs for 16-bit inputs only — clusters of 4
    (CLUSTERS_OF_4) and 192-row tiles (ROWS_192), not measured with 8-bit or TF32 inputs."""
    return config["CLUSTER"] == 4 or config["CONSUMERS"] == 3


def _wgmma_candidates():
    """06's configurations: block rows (1 to 3 consumers of 64), columns (BN), clusters of 1 or 2,
    and the most stages (up to 8) that fit in shared memory — biggest tile first. 192 columns
    with two consumers (not one), the form measured (WGMMA_SM_TFLOPS). Last (so ties go to the
    others), clusters of 4 as measured: along M, and 2 × 2 (SHARE_A) — CLUSTERS_OF_4 — then
    192-row tiles (three consumers): ROWS_192."""
    out = []
    for consumers in (2, 1):
        for bn in (256, 192, 128, 64) if consumers == 2 else (256, 128, 64):
            for cluster in (2, 1) if bn > 64 else (1,):
                out.append({"CONSUMERS": consumers, "BN": bn, "CLUSTER": cluster,
                            "STAGES": wgmma_max_stages(consumers, bn)})
    for bn, share_a in CLUSTERS_OF_4:
        out.append({"CONSUMERS": 2, "BN": bn, "CLUSTER": 4, "SHARE_A": share_a, "STAGES": wgmma_max_stages(2, bn)})
    for cluster, share_a in ROWS_192:
        out.append({"CONSUMERS": 3, "BN": 192, "CLUSTER": cluster, "SHARE_A": share_a, "STAGES": wgmma_max_stages(3, 192)})
    return tuple(out)


WGMMA_CONFIGS = _wgmma_candidates()
# the wide pairs' configurations the model does not weigh itself (64 × 256 pairs it does)
WIDE_PAIRS_ONLY = tuple(c for c in WIDE_PAIRS_CONFIGS if c not in WGMMA_CONFIGS)
TALL_FIT_ONLY = tuple(c for c in TALL_FIT_CONFIGS if c not in WGMMA_CONFIGS)   # (128 × 192: a candidate already)


def wgmma_ranked(m, n, k, sms, elem_bytes=2, stream_k=True, configs=None, first=0):
    """The configurations wgmma_config weighs for (m, n, k) — those its measured rules allow —
    each as (modelled µs, MMAs with padding, split along K, order, configuration): of WGMMA_CONFIGS,
    or ``configs`` (numbered from ``first``)."""
    ranked, off_lines = [], wgmma_rows_off_lines(n, k, elem_bytes)
    for order, config in enumerate(WGMMA_CONFIGS if configs is None else configs, start=first):
        rows = wgmma_rows(config)
        along_m, along_n = wgmma_cluster_shape(config)
        if wgmma_sixteen_bit_only(config) and (elem_bytes != 2 or (config["CLUSTER"] == 4 and not off_lines)):
            continue   # measured for 16-bit inputs only, clusters of 4 faster only off lines (CLUSTERS_OF_4,
            #            ROWS_192; on lines a rule after the ranking may take one: wgmma_shares_both)
        if m <= 64 * (config["CONSUMERS"] - 1) or cdiv(m, rows) < along_m or cdiv(n, config["BN"]) < along_n or \
                (config["BN"] > 64 and n <= config["BN"] // 2):
            continue   # the last consumer's, a cluster's last block's, or half the tile's columns would be all padding
        tile = {**WGMMA_TILE, **config, "STREAM_K": int(stream_k)}
        tiles, _, clusters, p, _ = wgmma_schedule(m, n, k, sms, tile, elem_bytes)
        if config["CONSUMERS"] == 1 and m > 64 and p == 1 and tiles > clusters:
            continue   # one consumer's tiles in several rounds (see WGMMA_SM_TFLOPS)
        total, split = wgmma_model_us(m, n, k, sms, tile, elem_bytes)
        if split and ((config["BN"] == 192 and (config["CONSUMERS"] == 2 or p > 4)) or config["BN"] % 64):
            continue   # 128×192 tiles cut along K lost every time measured (WGMMA_SM_TFLOPS), 192×192 in 5+ pieces
            #            (ROWS_192); the narrower 192-row tiles run whole (NARROW_CONFIGS)
        # every SM's MMAs, padding included: M = 384 in 128-row tiles, not in clusters of 2 × 128
        ranked.append((total, tiles * rows * config["CLUSTER"] * config["BN"], split, order, config))
    return ranked


def wgmma_config(m, n, k, sms, elem_bytes=2, stream_k=True):
    """The 06 configuration for (m, n, k) on ``sms`` SMs — block rows (CONSUMERS), columns (BN),
    cluster and the stages that fit — with the least modelled time (wgmma_model_us; ``stream_k``:
    False for a 16-bit C, where the kernel turns stream-K off) among those wgmma_ranked allows.
    Big problems get 128×256 tiles in clusters of 2 (128×192 where those run whole, 192×192 where
    M is a whole number of them or rows lie off 128-byte lines and they save time) — two or three
    consumers' tiles in clusters of 1 only where the measured alternatives lose
    (wgmma_leaves_clusters_of_one), and the model's clusters of 4 where A's and B's rows both split
    sectors and its tie-break took tiles that read A in place (wgmma_sectors_take_clusters_of_4);
    small M one consumer — two rows of 64×128 tiles sharing B where K is long
    (wgmma_pairs_rows), of 64×192 or 64×256 where those fill the GPU in one round
    (wgmma_pairs_wide), of 64×64 in place of 64×128 where those fill one round
    (wgmma_pairs_narrow); tall, skinny problems (N ≤ 512, K ≤ 2048) three consumers' 192 × 128
    where those fill one round and the model takes them (wgmma_tall_rows), else at N of 129–240
    128-row tiles as wide as B in pairs along M over tiles taken in turn (wgmma_fits_tall_rows);
    few tiles narrower ones and split-K — in 2 × 2 clusters where K is long (wgmma_shares_both) —
    short K tiles taken in turn (wgmma_takes_turns), M of 129–208 one swapped tile that covers it,
    in clusters of 4 or 2 along N (wgmma_swaps_one_tile), and M of a few hundred swapped tiles that fit it, in
    clusters along N sharing A's rows, or 2 × 2 sharing B's columns too — at M of 257–288 three
    consumers' 192 of N by 144 of M, 2 × 2 or in pairs along M, and one consumer's 64 of N by half
    of M where they fill one round (wgmma_swaps_to_fit, wgmma_fits_one_consumer); at M of 257–416
    and 513–832 2 × 2 swapped tiles in several rounds where they cut the busiest cluster's MMAs
    (wgmma_swaps_over_rounds); over the ranking's configurations (not those rules' tiles),
    cuBLAS's coopB tiles where they cut those MMAs by a tenth (wgmma_coops), else 192-row tiles of
    176, 160 or 144 columns where the model takes them over the pick (wgmma_narrows).
    16-bit M ≤ 32 runs swapped tiles of 128 rows of N (in clusters of 2 where B's rows lie off
    128-byte lines), and M of 33–48 one consumer's 64 of N by 48 of M where B streams
    (wgmma_streams_b_swapped) — else M ≤ 64 three consumers' 192 of N where B's rows lie off
    128-byte lines and K is long (wgmma_streams_b_wide)."""
    m, n, k, sms = checked_problem(m, n, k, sms)
    if not isinstance(stream_k, bool):
        raise UsageError(f"stream_k is True or False, not {stream_k!r}")
    elem_bytes = checked_elem_bytes(elem_bytes)
    if wgmma_streams_b_wide(m, n, k, sms, elem_bytes):
        return dict(STREAM_B_WIDE_CONFIGS[(m - 1) // 16])
    if elem_bytes == 2 and m <= 32 and n > 64:
        pairs = box_row_requests(n * elem_bytes) > 1   # B's rows off 128-byte lines: A's rows shared
        return dict((SWAPPED_PAIRS_CONFIGS if pairs else SWAPPED_CONFIGS)[m > 16])
    if m <= 16 and n > 64:
        return dict(STREAM_B_CONFIG)
    if wgmma_streams_b_swapped(m, n, k, sms, elem_bytes):
        return dict(STREAM_B_SWAPPED_CONFIG)
    ranked = wgmma_ranked(m, n, k, sms, elem_bytes, stream_k)
    picked = wgmma_choose(ranked)
    if (sectors := wgmma_sectors_take_clusters_of_4(m, n, k, sms, ranked, picked, elem_bytes, stream_k)):
        return sectors   # (as timed: no rule after the ranking replaces them, nor coopB tiles)
    ruled = wgmma_leaves_clusters_of_one(m, n, k, sms, ranked, picked, elem_bytes, stream_k) or \
        wgmma_ruled(m, n, k, sms, picked, elem_bytes, stream_k)
    # cuBLAS's coopB tiles only over one of the ranking's own configurations, as they were measured
    # (its pick, or the one wgmma_leaves_clusters_of_one takes): not over another rule's tiles
    if any(ruled == entry[4] for entry in ranked):
        ruled = wgmma_coops(m, n, k, sms, ruled, elem_bytes, stream_k) or \
            (ruled == picked and wgmma_narrows(m, n, k, sms, ranked, picked, elem_bytes, stream_k)) or ruled
    if wgmma_pairs_narrow(m, n, k, sms, ruled, elem_bytes):
        return dict(NARROW_PAIRS_CONFIG)
    if wgmma_tall_rows(m, n, k, sms, ruled, elem_bytes, stream_k):
        return dict(TALL_CONFIG)
    return wgmma_fits_tall_rows(m, n, k, sms, ruled, elem_bytes, stream_k) or ruled


def wgmma_narrows(m, n, k, sms, ranked, picked, elem_bytes=2, stream_k=True):
    """The 192-row tiles narrower than 192 (NARROW_CONFIGS) that replace ``picked`` — one of
    ``ranked``'s entries, wgmma_ranked's — for (m, n, k), or None: wgmma_choose between the pick's
    entry and theirs (within 2 % a tie, broken by padding, then whole tiles, then the pick — so a
    narrower tile modelled up to 2 % slower replaces a pick with more than 5 % more MMAs, or one
    cut by stream-K). Asked only where no rule after the ranking replaced the ranking's choice, so
    that those rules (measured against its picks) stand where they fire."""
    narrow = wgmma_ranked(m, n, k, sms, elem_bytes, stream_k, NARROW_CONFIGS, first=len(WGMMA_CONFIGS))
    if not narrow:
        return None
    chosen = wgmma_choose([entry for entry in ranked if entry[4] == picked] + narrow)
    return chosen if chosen != picked else None


def wgmma_ruled(m, n, k, sms, picked, elem_bytes=2, stream_k=True):
    """What wgmma_config runs for (m, n, k) where the model's ranking gave ``picked``: the first
    measured rule after the ranking that replaces it (wgmma_config's list), else the pick."""
    if wgmma_takes_turns(m, n, k, sms, picked, elem_bytes):
        return dict(TURNS_CONFIG)
    if (wide := wgmma_pairs_wide(m, n, k, sms, elem_bytes)):
        return wide
    if wgmma_pairs_rows(m, n, k, picked, elem_bytes):
        return dict(PAIRED_ROWS_CONFIG)
    if wgmma_shares_both(m, n, k, sms, picked, elem_bytes):
        return dict(SHARED_BOTH_CONFIG)
    return (wgmma_swaps_one_tile(m, n, k, sms, picked, elem_bytes)
            or wgmma_swaps_to_fit(m, n, k, sms, picked, elem_bytes)
            or wgmma_swaps_over_rounds(m, n, k, sms, picked, elem_bytes, stream_k) or picked)


# M ≤ 32 against a B whose rows are not a multiple of 16 bytes (N not a multiple of 8): 06 would
# copy all of B to pitched rows first (three passes over it; 0.497 and 0.522× cuBLAS at 1×11037×15699
# and 5×10602×16104), so its pick hands the problem to 09, which reads B where it lies (H200, fp16,
# docs/results/2026-12-02-h200-small-m-b-in-place/, runs 5 and 6: 0.92–0.98 and 0.95–0.99× there,
# over the 11 such shapes 0.844 → 1.117–1.156× geomean; 09 faster since, 1.15–1.26× at those two,
# docs/results/2026-12-02-h200-09-faster/). With M of 33–48 where N is 4096 or more too: there 09
# ran ahead of 06's copy at all six shapes timed (1.03–1.45× its rate: 40×14046×8640 0.62 → 0.85×
# cuBLAS), and behind it wherever N was smaller (1107–1993: 0.23–0.54× against 0.80–1.05×) or M
# 55–60 at 2 of 3 (its mma.sync work grows with M; the copy does not) — same results, run 4. Not
# where N is a multiple of 8: 06's TMA streams B faster there (09 0.65× at 32×11000×11784 where
# 06 runs 0.86×, runs 4 and 3). The pick carries 09's split under this mark beside 06's own
# configuration, which overrides of 06's macros run instead. Where 06 realigns B in place itself
# (wgmma_realigns_b: M of 33–64, K of 16 slices or more) it keeps the problem: ahead of 09 at 5 of
# the 6 shapes above (docs/results/2026-12-02-h200-b-realign/, run 2) and at 5 fresh ones (run 6, an
# H100).
IN_PLACE_09 = "IN_PLACE_09"
SMALL_M_HANDED = 32                        # M up to which 06 hands such problems to 09 ...
SMALL_M_HANDED_LONG_N, SMALL_M_LONG_N = 48, 4096   # ... and up to which where N ≥ SMALL_M_LONG_N


def checked_elem_bytes(elem_bytes):
    """The inputs' bytes per element as an int — 1, 2 or 4 — or a UsageError."""
    if not is_whole(elem_bytes) or elem_bytes not in (1, 2, 4):
        raise UsageError(f"elem_bytes is the inputs' bytes per element — 1, 2 or 4 — not {elem_bytes!r}")
    return int(elem_bytes)


def wgmma_reads_b_in_place(m, n, elem_bytes=2):
    """Whether 06's pick hands (m, n) to 09 (B read in place): 16-bit inputs, N not a multiple of 8
    (B's rows off 16 bytes), and M ≤ 32 with N past one 64-column box, or M ≤ 48 with N ≥ 4096."""
    m, n, _, _ = checked_problem(m, n, 1, 1)
    elem_bytes = checked_elem_bytes(elem_bytes)
    return elem_bytes == 2 and n % 8 != 0 and (m <= SMALL_M_HANDED and n > 64 or
                                               m <= SMALL_M_HANDED_LONG_N and n >= SMALL_M_LONG_N)


# B_REALIGN in the pick: M of 33–64 (one row of one consumer's 64-row tiles, B streamed once from
# HBM) with N not a multiple of 8 and K of 16 slices or more. There 06 copied B to pitched rows
# first — three passes over the biggest operand — or handed M ≤ 48 to 09; realigning B in shared
# memory instead (the .cu's b_realign) took 60×15214×11302 from 0.62 to 1.20× cuBLAS,
# 35×15374×1850 0.62 → 0.95×, 40×14046×8640 0.85 (09) → 1.18×, faster at 11 of the 12 such shapes
# timed (H200, fp16, docs/results/2026-12-02-h200-b-realign/, run 2). Not at K of a few slices,
# where a slice's longer way (copy engine, realigning warps, MMAs) is not hidden behind others
# (55×9609×326 1.31 → 1.05×, 37×1577×582 0.82 → 0.74×: runs 4 and 2), nor past one row of tiles:
# the realigning warps' pass then costs more than the copy saved (1001×1003×997 1.56 → 1.10×; at
# M of 65–256, ten fresh shapes, one consumer's tiles realigning took 0.95–0.99× against the picks'
# 1.41× geomean, run 4), nor with two consumers, whose ring then holds 2–3 stages (4095×4097×4093
# 3.08 → 1.24×). A pick of 256 columns (which B_REALIGN cannot take: a class box row is at most 256
# elements) realigns 64×128 tiles instead.
REALIGN_M_MOST, REALIGN_MIN_SLICES = 64, 16


def wgmma_realigns_b(m, n, k, picked, elem_bytes=2):
    """``picked`` for (m, n, k) with B read in place and realigned (B_REALIGN=1; its most stages)
    where the note above says so (16-bit, N off 8, M of 33–64, K of 16 slices or more, one
    consumer's unswapped tiles), else None."""
    if elem_bytes != 2 or n % 8 == 0 or not SMALL_M_HANDED < m <= REALIGN_M_MOST or \
            k < REALIGN_MIN_SLICES * WGMMA_ROW_BYTES // elem_bytes or picked["CONSUMERS"] != 1 or \
            picked.get("SWAP_AB") or picked.get("PINGPONG") or picked.get("SHARE_A"):
        return None
    return _realigned(picked)


def _realigned(picked):
    """One consumer's ``picked`` realigning B: at most 128 columns, the most stages that fit."""
    bn = min(picked["BN"], 128)
    return {**picked, "BN": bn, "B_REALIGN": 1, "STAGES": wgmma_max_stages(1, bn, realign=True)}


# The configurations wgmma_realigns_b makes of one consumer's picks (64, 128 or 256 columns)
REALIGN_CONFIGS = tuple(_realigned({"CONSUMERS": 1, "BN": bn, "CLUSTER": 1, "STAGES": 8}) for bn in (64, 128))


# M of 1–4 (16-bit, N of GEMV_MIN_N or more): the pick hands the problem to 10, a GEMV on the CUDA
# cores — B's words straight to registers, realigned by shuffles where its rows lie off 16 bytes.
# Against the pick before it (09 where N is off 8, else 06's swapped tiles; H200, each in its own
# process beside cuBLAS, docs/results/2026-12-03-h200-gemv-10/): at M of 1–2, N of 984–14336 (run
# 1, 10 before its loads were pipelined, its sum then 16 / M pieces at once and its split up to 256:
# see the README there) less time at all 19 fp16 shapes (0.77–0.99×; 1×3586×1572 13.2 → 11.2 µs,
# 0.75 → 0.89× cuBLAS) and 17 of 19 bf16 (+0.3 and +0.4 % at 1×14336×4096 and 2×5698×2304); N of
# 80–1086 (run 2, fp16) less at 14 of 16 (1×203×1891 0.65 → 0.97×), more at 2×512×4096 (+5 %) and
# 2×80×8680 (+9 %). Narrower N is untimed. The llm suite (run 3): 0.989 → 1.004× fp16, 0.985 →
# 0.998× bf16. At M of 3–4 10 then won only 7 of 13; with two groups of loads in flight
# (docs/results/2026-12-03-h200-gemv-pipelined/, runs 1–2) it took 0.954 of its own old time on 48
# shapes of M 1–4 (fp16), and at M of 3–4 (37 shapes) 0.875× the pick's time fp16 (faster at 35;
# 3×280×15279 +2.6 %, 4×1872×968 +8.4 %) and 0.891× bf16 (faster at 34).
GEMV_10, GEMV_10_IN_CLUSTER = "GEMV_10", "GEMV_10_IN_CLUSTER"   # (the latter's value: 10's CLUSTER_K)
GEMV_M_MOST, GEMV_MIN_N = 4, 80


# A's rows off 128-byte lines, copied to lines first (A_LINES=1: Kernel.lines, matmul.Pitched).
# Rows a multiple of 16 bytes are read in place; where they start 16 bytes off a 32-byte boundary
# a box row costs the L2 2.47 read requests, not 1 (BOX_ROW_REQUESTS), and A crosses the L2 once
# per BN columns of C. Copied first (cuda_src/pitch_rows.cu, inside the timed launch), at the weak
# shapes of surveys 7 and 8 (H100, fp16, same process: docs/results/2026-12-06-h100-a-lines/,
# run 1): 9240×4648×14072 2323 → 1923 µs, 656×11560×8824 264 → 230, 1072×12136×1624 89.5 → 80.0,
# 6000×7344×1624 265 → 245 (0.83–0.93× the time; the model's requests term foretold the three
# smaller savings within 2.3 µs) — rows 48, 80 or 112 bytes past a line, tiles sharing B, not A.
# Where the copy's bytes were many beside the requests saved it lost (2776×1112×5640, A 31 MB:
# +6.5 %), and where the problem was small (272×5472×4824 +6.5 %: a launch more). On 14 shapes
# drawn after a first rule (run 2: any row 16 off 32, the model's saving against the copy) it won
# where that held (1848×5968×15832 0.84×, 11744×16368×3240 0.85×) and lost or tied elsewhere:
# where the pick shares A already (SHARE_A: +1.6 to +3.4 %, 3 of 3) or shares B four ways
# (clusters of 4 along M, the ranking's answer to rows off lines: +1.0, +1.8 %), one consumer's
# tiles (+0.8 %), and rows 16 bytes past a line, whose requests cost little in place
# (1.00× at 4616×12288×7112 and 1360×5344×4488; +5.7 % at 192×2736×7176; 0.94× at 4936×3192×2440).
# Rows 32, 64 or 96 bytes off a line (whole sectors, two requests) lost at all six timed (+1 to
# +18 %), though the model priced a saving at two. B is not copied: it crosses the L2 once per BM
# rows (a pair's, shared), and copied too it lost at 13 of 13. Nor are swapped tiles (A is their
# B slot, not priced: 1408×11504×3368 0.96×, 272×3704×1376 1.18×).
LINES_COPY_US = 3.0   # the copy's fixed cost (a launch more in the timed stream) beside its bytes
LINES_OFF = (48, 80, 112)   # A's rows, bytes past a 128-byte line, that cost (run 2: not 16)


def wgmma_copies_a_to_lines(m, n, k, sms, picked, elem_bytes=2, stream_k=True):
    """Whether 06 copies A to 128-byte rows first (A_LINES=1) for (m, n, k) with the configuration
    ``picked``: 16-bit rows of A 48, 80 or 112 bytes past a line (LINES_OFF), unswapped tiles of
    two or three consumers that the model rates, in clusters of 1 or 2 not sharing A, and
    the model's time with A's rows on lines shorter than in place by more than the copy takes (A
    read and written at HBM_BYTES_PER_US, plus LINES_COPY_US)."""
    m, n, k, sms = checked_problem(m, n, k, sms)
    elem_bytes = checked_elem_bytes(elem_bytes)
    tile = {**WGMMA_TILE, **picked, "STREAM_K": int(stream_k)}
    if elem_bytes != 2 or k * elem_bytes % WGMMA_ROW_BYTES not in LINES_OFF or tile["SWAP_AB"] or \
            tile["CONSUMERS"] < 2 or tile["CLUSTER"] > 2 or tile["SHARE_A"] or \
            (tile["CONSUMERS"], tile["BN"]) not in WGMMA_SM_TFLOPS:
        return False
    saved = wgmma_model_us(m, n, k, sms, tile, elem_bytes)[0] - \
        wgmma_model_us(m, n, k, sms, tile, elem_bytes, a_lines=True)[0]
    return saved > 2 * m * k * elem_bytes / HBM_BYTES_PER_US + LINES_COPY_US


def _lines(m, n, k, sms, picked, elem_bytes, stream_k):
    """``picked`` with A_LINES=1 where wgmma_copies_a_to_lines."""
    return {**picked, "A_LINES": 1} if wgmma_copies_a_to_lines(m, n, k, sms, picked, elem_bytes, stream_k) else picked


def wgmma_runs_gemv(m, n, elem_bytes=2):
    """Whether 06's pick hands (m, n) to 10: 16-bit inputs, M ≤ GEMV_M_MOST, N ≥ GEMV_MIN_N."""
    m, n, _, _ = checked_problem(m, n, 1, 1)
    elem_bytes = checked_elem_bytes(elem_bytes)
    return elem_bytes == 2 and m <= GEMV_M_MOST and n >= GEMV_MIN_N


# C_PLAIN where C's rows lie off 16 bytes (N of fp32 C not a multiple of 4, of bf16 C of 8): no
# tensor map describes such a C, and without it C went to a pitched buffer and was copied out after
# the kernel, inside the timed launch — three passes over C, the kernel's own writes to the buffer,
# the copy's read and its writes, and a launch more. The consumers' own stores write it once, in
# place (the .cu's plain_box), from the box store_c stages for the copy engine anyway.
def wgmma_plain_c(picked, n, out_bytes):
    """``picked`` with C_PLAIN=1 where C's rows of ``n`` elements of ``out_bytes`` lie off 16 bytes
    (a pick handed to 09 or 10 too: they store C themselves and leave it be, _handed, but 06 runs the
    pick's own configuration where overrides keep the problem)."""
    return picked if n * out_bytes % 16 == 0 else {**picked, "C_PLAIN": 1}


def with_plain_c(configs):
    """``configs`` and each again with C_PLAIN=1: every configuration a pick can give (wgmma_plain_c)."""
    return configs + tuple({**config, "C_PLAIN": 1} for config in configs)


def wgmma_pick(m, n, k, sms, elem_bytes=2, stream_k=True):
    """06's pick for (m, n, k): wgmma_config's configuration, B realigned where wgmma_realigns_b —
    or else where wgmma_runs_gemv, 10 with its pick's split of K under GEMV_10 (through the workspace)
    or GEMV_10_IN_CLUSTER (in one cluster), or where
    wgmma_reads_b_in_place, with 09's under IN_PLACE_09 (Kernel.configured then builds 10 or 09).
    06's own tiles copy A to 128-byte lines first where wgmma_copies_a_to_lines (A_LINES=1)."""
    own = wgmma_config(m, n, k, sms, elem_bytes, stream_k)
    if (realigned := wgmma_realigns_b(m, n, k, own, elem_bytes)):
        return _lines(m, n, k, sms, realigned, elem_bytes, stream_k)
    if wgmma_runs_gemv(m, n, elem_bytes):
        ten = gemv_pick(m, n, k, sms)
        return {GEMV_10_IN_CLUSTER: ten["CLUSTER_K"], **own} if ten["CLUSTER_K"] else {GEMV_10: ten["SPLIT"], **own}
    if wgmma_reads_b_in_place(m, n, elem_bytes):
        return {IN_PLACE_09: small_m_split(m, n, k, sms), **own}
    return _lines(m, n, k, sms, own, elem_bytes, stream_k)


# the kernels a pick may hand a problem to: its mark -> (factory of the mark's value, the variant
# name records show — and prebuilt cubins' names: one a cubin)
HANDED = {IN_PLACE_09: (lambda key, split: small_m_kernel(key, {"SPLIT": split}), lambda split: "09"),
          GEMV_10: (lambda key, split: gemv_kernel(key, {"SPLIT": split}), lambda split: "10"),
          GEMV_10_IN_CLUSTER: (lambda key, c: gemv_kernel(key, {"CLUSTER_K": c}), lambda c: f"10+CLUSTER_K={c}")}


def _not_handed(picked):
    return {name: value for name, value in picked.items() if name not in HANDED}


def _handed(key, picked, overrides, asked):
    """09 or 10 for a pick marked IN_PLACE_09, GEMV_10 or GEMV_10_IN_CLUSTER (HANDED), named "09",
    "10" or "10+CLUSTER_K=8" apart in prebuilt cubins' names — unless the caller's overrides or the
    macros 06 was declared with (``asked``, e.g. a tune_ladder variant's) name any of 06's own: then
    None, and 06 runs its own configuration with them. The host's macros (HOST_MACROS: A_LINES)
    and C_PLAIN leave the hand-off as it is: 09 and 10 read A as it lies and store C themselves."""
    mark = next((mark for mark in HANDED if mark in picked), None)
    own = lambda macros: {name: v for name, v in device_macros(macros).items() if name != "C_PLAIN"}   # noqa: E731
    if mark is None or any(value is not None for value in own(overrides).values()) or \
            spelt_macros(own(asked), WGMMA_TILE):
        return None
    factory, variant = HANDED[mark]
    return replace(factory(key, picked[mark]), variant=variant(picked[mark]))


def wgmma_takes_turns(m, n, k, sms, picked, elem_bytes=2):
    """Whether the consumers taking 128×128 tiles in turn (TURNS_CONFIG) replace the cooperative
    128-row tile ``picked`` for (m, n, k): 16-bit inputs, the pick's tiles run whole, K a whole
    number of 8 to 16 slices — or up to 32 where the pick takes one round — and nearly every
    cluster has a tile for each consumer (see TURNS_CONFIG: where it measured faster)."""
    if elem_bytes != 2 or picked["CONSUMERS"] != 2 or picked.get("SWAP_AB") or picked["BN"] < 128 or \
            k * elem_bytes % WGMMA_ROW_BYTES:
        return False
    tiles, kt, clusters, p, share = wgmma_schedule(m, n, k, sms, {**WGMMA_TILE, **picked}, elem_bytes)
    turns = wgmma_schedule(m, n, k, sms, {**WGMMA_TILE, **TURNS_CONFIG}, elem_bytes)[0]
    short = 8 <= kt and (kt <= 16 or (kt <= 32 and tiles <= clusters))
    return p == 1 and not share and short and 8 * turns >= 14 * clusters


def _streams_b_in_one_round(n, k, sms, elem_bytes, cols, min_slices, min_fill, max_fill=1.0):
    """The part the swapped rules where B streams share: 16-bit inputs, N a multiple of 8, K of
    ``min_slices`` slices or more, and N's ``cols``-row tiles one round on ``sms`` SMs, at least
    ``min_fill`` of them and at most ``max_fill``."""
    return elem_bytes == 2 and n % 8 == 0 and k * elem_bytes >= min_slices * WGMMA_ROW_BYTES and \
        min_fill * sms <= cdiv(n, cols) <= max_fill * sms


def wgmma_streams_b_swapped(m, n, k, sms, elem_bytes=2):
    """Whether wgmma_config takes STREAM_B_SWAPPED_CONFIG for (m, n, k): 16-bit inputs, M of 33–48,
    N a multiple of 8, K of STREAM_B_SWAPPED_MIN_SLICES slices or more, and N's 64-row tiles one
    round on ``sms`` SMs, at least STREAM_B_SWAPPED_MIN_FILL of them (see the config)."""
    return 32 < m <= STREAM_B_SWAPPED_CONFIG["BN"] and \
        _streams_b_in_one_round(n, k, sms, elem_bytes, 64, STREAM_B_SWAPPED_MIN_SLICES, STREAM_B_SWAPPED_MIN_FILL)


def wgmma_streams_b_wide(m, n, k, sms, elem_bytes=2):
    """Whether wgmma_config takes STREAM_B_WIDE_CONFIGS (three consumers' swapped tiles) for
    (m, n, k): 16-bit inputs, M ≤ 64, N a multiple of 8 with B's rows off 128-byte lines, and for
    M's range in STREAM_B_WIDE_FROM K of its least slices or more and two consumers' 128-column
    tiles one round on ``sms`` SMs, its least share of them up to STREAM_B_WIDE_MAX_FILL — but not
    where M of 33–48 takes one consumer's 64×48 swapped tiles (wgmma_streams_b_swapped; see the
    configs)."""
    if m > 64 or box_row_requests(n * elem_bytes) <= 1:
        return False
    slices, fill = STREAM_B_WIDE_FROM[next(top for top in STREAM_B_WIDE_FROM if m <= top)]
    return _streams_b_in_one_round(n, k, sms, elem_bytes, 128, slices, fill, STREAM_B_WIDE_MAX_FILL) and \
        not wgmma_streams_b_swapped(m, n, k, sms, elem_bytes)


def wgmma_pairs_rows(m, n, k, picked, elem_bytes=2):
    """Whether 64×128 tiles in clusters of 2 along M (PAIRED_ROWS_CONFIG) replace the model's
    ``picked`` 64×64 tiles in clusters of 1: 16-bit inputs, two tile rows (M of 65 to 128), K of
    64 slices or more (4096 at 16 bits) and more than 512 columns (see PAIRED_ROWS_CONFIG)."""
    one_64 = {"CONSUMERS": 1, "BN": 64, "CLUSTER": 1, "SWAP_AB": 0, "PINGPONG": 0}
    return elem_bytes == 2 and 64 < m <= 128 and n > 512 and k * elem_bytes >= 64 * WGMMA_ROW_BYTES and \
        all(picked.get(name, 0) == value for name, value in one_64.items())


def wgmma_pairs_narrow(m, n, k, sms, picked, elem_bytes=2):
    """Whether one consumer's 64 × 64 pairs along M (NARROW_PAIRS_CONFIG) take the place of
    ``picked``: 64 × 128 pairs (PAIRED_ROWS_CONFIG — the ranking's or wgmma_pairs_rows'), 16-bit
    inputs, M of 65 to 128, and 64 × 64 pairs' units (tiles × split-K's pieces) in one round
    keeping NARROW_PAIRS_BUSY of the clusters busy (see NARROW_PAIRS_CONFIG)."""
    if picked != PAIRED_ROWS_CONFIG or elem_bytes != 2 or not 64 < m <= 128:
        return False
    tiles, _, clusters, pieces, _ = wgmma_schedule(m, n, k, sms, {**WGMMA_TILE, **NARROW_PAIRS_CONFIG}, elem_bytes)
    return NARROW_PAIRS_BUSY * clusters <= tiles * pieces <= clusters


def wgmma_fits_tall_rows(m, n, k, sms, picked, elem_bytes=2, stream_k=True):
    """Two consumers' 128-row tiles as wide as B (16·⌈N/16⌉ columns: TALL_FIT_CONFIGS, cuBLAS's form
    at 14689×160×1024) in pairs along M that take the place of ``picked`` for (m, n, k), or None:
    the consumers taking turns (TURNS_CONFIG), 16-bit inputs, N of 129–240 (past TALL_FIT_NARROW_N,
    K of TALL_FIT_WIDE_SLICES slices or more), and the pairs whole in at most TALL_FIT_ROUNDS rounds,
    keeping at least TALL_FIT_BUSY of the clusters busy over them (see TALL_FIT_CONFIGS)."""
    if picked != TURNS_CONFIG or elem_bytes != 2 or not 128 < n <= TALL_FIT_WIDTHS[-1]:
        return None
    fitted = TALL_FIT_CONFIGS[TALL_FIT_WIDTHS.index(16 * cdiv(n, 16))]
    tile = {**WGMMA_TILE, **fitted, "STREAM_K": int(stream_k)}
    tiles, kt, clusters, pieces, share = wgmma_schedule(m, n, k, sms, tile, elem_bytes)
    if n > TALL_FIT_NARROW_N and kt < TALL_FIT_WIDE_SLICES:
        return None
    rounds = cdiv(tiles, clusters)
    whole = pieces == 1 and not share
    busy = whole and rounds <= TALL_FIT_ROUNDS and tiles >= TALL_FIT_BUSY * rounds * clusters
    return dict(fitted) if busy else None


def wgmma_tall_rows(m, n, k, sms, picked, elem_bytes=2, stream_k=True):
    """Whether three consumers' 192 × 128 tiles (TALL_CONFIG) take the place of ``picked`` for
    (m, n, k): 16-bit inputs, N of at most TALL_MOST_N, K of at most TALL_MOST_K, the pick two
    consumers' unswapped tiles (cuBLAS's coopB tiles and the swapped ones are other rules'), and
    192 × 128's tiles in one round keeping TALL_BUSY of the SMs busy, modelled (wgmma_model_us) at
    most TALL_SAVES of the pick's time (see TALL_CONFIG)."""
    if elem_bytes != 2 or n > TALL_MOST_N or k > TALL_MOST_K or picked.get("SWAP_AB") or \
            picked.get("COOP") or picked["CONSUMERS"] != 2:
        return False
    tall = {**WGMMA_TILE, **TALL_CONFIG, "STREAM_K": int(stream_k)}
    tiles, _, clusters, _, _ = wgmma_schedule(m, n, k, sms, tall, elem_bytes)
    if not TALL_BUSY * clusters <= tiles <= clusters:
        return False
    theirs = wgmma_model_us(m, n, k, sms, {**WGMMA_TILE, **picked, "STREAM_K": int(stream_k)}, elem_bytes)[0]
    return wgmma_model_us(m, n, k, sms, tall, elem_bytes)[0] <= TALL_SAVES * theirs


def wgmma_pairs_wide(m, n, k, sms, elem_bytes=2):
    """The one consumer's wide tiles in pairs along M (WIDE_PAIRS_CONFIGS) that wgmma_config takes
    for (m, n, k), or None: 16-bit inputs, M of 65 to 128, K of 64 slices or more, and a width
    whose clusters of 2 fit one round with at least WIDE_PAIRS_BUSY of them busy — of those, the
    one with the most clusters busy (see WIDE_PAIRS_CONFIGS)."""
    if elem_bytes != 2 or not 64 < m <= 128 or k * elem_bytes < 64 * WGMMA_ROW_BYTES:
        return None
    clusters = clusters_held(sms, 2)
    counts = [(cdiv(n, c["BN"]), c) for c in WIDE_PAIRS_CONFIGS]   # (a pair's tile: 128 rows × BN)
    fits = [(count, c) for count, c in counts if WIDE_PAIRS_BUSY * clusters <= count <= clusters]
    return dict(max(fits, key=lambda f: f[0])[1]) if fits else None


def wgmma_shares_both(m, n, k, sms, picked, elem_bytes=2):
    """Whether 2 × 2 clusters of 128×128 tiles (SHARED_BOTH_CONFIG) replace the model's ``picked``
    for (m, n, k): 16-bit inputs with rows on 128-byte lines (off them clusters of 4 are ranked
    already), M and N whole numbers of 2 × 2 clusters' 256 × 256 (every shape where they measured
    faster was; with M padded they measured slower), the pick 128×128 tiles in clusters of 2
    along M cut along K in 5 or more pieces, and the 2 × 2 clusters cut in 5 or more too (see
    SHARED_BOTH_CONFIG)."""
    pick_of_2 = {"CONSUMERS": 2, "BN": 128, "CLUSTER": 2, "SHARE_A": 0, "SWAP_AB": 0, "PINGPONG": 0}
    if elem_bytes != 2 or m % 256 or n % 256 or wgmma_rows_off_lines(n, k, elem_bytes) or \
            any(picked.get(name, 0) != value for name, value in pick_of_2.items()):
        return False
    p = wgmma_schedule(m, n, k, sms, {**WGMMA_TILE, **picked}, elem_bytes)[3]
    q = wgmma_schedule(m, n, k, sms, {**WGMMA_TILE, **SHARED_BOTH_CONFIG}, elem_bytes)[3]
    return min(p, q) >= 5


# Two and three consumers' tiles in clusters of 1 lose to clusters: each block reads its own A and
# B, where a cluster's blocks share one read of the operand they have in common (TMA multicast),
# and the model's L2 term prices those requests under what they cost (at 3896×13376×16192 it priced
# clusters of 1's 1 596 µs under the MMAs' 2 653; 3 321 µs measured: docs/results/2026-12-05-h100-
# low-fit/, run 7). Timed on an H100 (fp16, bf16; docs/results/2026-12-05-h100-cluster-one/), the
# model's pick beside its pick with those configurations left out of the ranking
# (scripts/cluster_one_study.py), every rule after it as it stands:
# - M of 1 024–16 383 with N and K multiples of 8, on 28 shapes where the pick ran in clusters of
#   1 (run 1): 0.789 → 0.941× cuBLAS on the first 12 (less time at 11; 1048×7360×1152, K of 18
#   slices, +1 %), 0.832 → 0.953× (fp16) and 0.807 → 0.955× (bf16) on the other 16 (less time at
#   all 16);
# - N or K off a multiple of 8 (run 2): less time at 10 of 12 (0.89 of it, geomean; 3673×1678
#   ×13488 +7 %, 10885×2432×10699 +0.7 %);
# - M of 209–1 024 (run 2): 0.738 → 0.904× (fp16) and 0.723 → 0.904× (bf16), less time at 15 of
#   16 — down to 0.59 of it (356×12728×11280, where swapped tiles that fit M take the pick over);
#   at 825×2432×10696 the ranking without them fell to one consumer, which took 1.48–1.49× the time;
# - the suite shapes it moves (run 2): 2048×11008×4096 and 777×5555×333 less time (2–5 %);
#   384×11008×4096 a tie; 384×4096×4096 1.21–1.22× the time (the ranking's next pick cut 192 ×
#   192 tiles along K where the pick ran whole 128 × 128 tiles), 384×14336×4096 1.10–1.12× (128 ×
#   256 in pairs pad three tile rows to four: a third more MMAs than 128 × 192).
# So where the rules after the ranking leave such a pick as it is, wgmma_leaves_clusters_of_one
# takes what they make of the ranking's choice without those configurations where that is swapped
# tiles that fit M, whatever the choice's padding (7 of the M of 209–1 024 above, all faster); else
# that choice where they leave it too, two or three consumers' tiles in clusters, in one piece
# along K where the pick is, with at most CLUSTER_ONE_PADDING times the pick's MMAs (the most
# among the winners above: 573×4416×4048's 1.25). Choices another rule would replace (tiles in
# turn, 2 × 2) and two consumers' 64-wide picks (no clustered form) were not timed: left alone. On
# 24 shapes drawn after the rule (scripts/shapes/cluster_one_rule.txt: M of 65–16 383, 6 pitched;
# run 3) it took 0.861 of the time (fp16; less at 22, +0.5 % at 155×5064×5312, +2.1 % at
# 3607×10464×6281) and 0.837 (bf16, the 23 timed before the run's time ran out; less at 21, at
# most +0.9 %); below 0.85× cuBLAS 15 → 10 and 16 → 9. Earlier H200 timings (fp16,
# docs/results/2026-12-01-h200-rows-192/, runs 1–3) agree at 6 shapes it moves (6534×9024×5184
# −1.0 %, 6246×9920×8000 −2.4 %; 576×4096×11008, 576×7168×2048 and 7426×1792×960 within 0.4 %;
# 835×2496×4800 +0.8 %) and may differ at one: at 384×11008×4096 192 × 192 in pairs (then built
# with SPLIT_LOADS=4, 8 now) took 55.4 µs where the pick, 128 × 256 in clusters of 1, took 53.1
# and 54.6 in two other processes (+1–4 %, within the 7 % that run's processes differed by); a
# tie on the H100.
CLUSTER_ONE_PADDING = 1.3


def in_clusters_of_one(config):
    """Whether ``config`` is two or three consumers' tiles in clusters of 1 (wgmma_leaves_clusters_of_one)."""
    return config["CLUSTER"] == 1 and config["CONSUMERS"] >= 2


def wgmma_leaves_clusters_of_one(m, n, k, sms, ranked, picked, elem_bytes=2, stream_k=True):
    """The configuration that replaces the model's ``picked`` for (m, n, k) — chosen from
    wgmma_ranked's entries ``ranked`` — where that is two or three consumers' tiles in clusters
    of 1, over 64 columns (64-wide ones, which have no clustered form, were never the pick where
    timed), and no rule after the ranking replaces it (wgmma_ruled), or None: 16-bit inputs. It
    is what those rules make of the choice among the entries without such tiles where that is
    swapped tiles (any that fit M), else that choice itself where no rule replaces it either and
    it is two or three consumers' tiles, not cut into pieces along K where the pick is not, with
    at most CLUSTER_ONE_PADDING times the pick's MMAs (see its note)."""
    if elem_bytes != 2 or not in_clusters_of_one(picked) or picked["BN"] <= 64:
        return None
    if wgmma_ruled(m, n, k, sms, picked, elem_bytes, stream_k) != picked:
        return None
    rest = [entry for entry in ranked if not in_clusters_of_one(entry[4])]
    if not rest:
        return None
    chosen = wgmma_choose(rest)
    ruled = wgmma_ruled(m, n, k, sms, chosen, elem_bytes, stream_k)
    if ruled.get("SWAP_AB"):
        return ruled
    if ruled != chosen or chosen["CONSUMERS"] == 1:
        return None   # (another rule's tiles, taken in turn or 2 × 2, were not where timed; one consumer lost)
    def mmas_and_pieces(config):   # (its ranking entry's MMAs with padding; split-K's pieces)
        tile = {**WGMMA_TILE, **config, "STREAM_K": int(stream_k)}
        return next(e[1] for e in ranked if e[4] == config), wgmma_schedule(m, n, k, sms, tile, elem_bytes)[3]
    (mine, mine_p), (theirs, theirs_p) = mmas_and_pieces(picked), mmas_and_pieces(chosen)
    if (mine_p == 1 and theirs_p > 1) or theirs > CLUSTER_ONE_PADDING * mine:
        return None
    return chosen


# Where A's rows and B's both lie 16 bytes off a 32-byte boundary (BOX_ROW_REQUESTS' "partial
# sector", 2.47 requests a box row each), the ranking's least modelled time is often clusters of
# 4 and wgmma_choose's tie-break takes clusters of 2 (whole tiles, then order): at survey 9's two
# weakest shapes 128 × 256 (1448×13624×13704) and three consumers' 192 × 192 (3000×15448×14312),
# 0.76–0.77× cuBLAS, where 128 × 256 in clusters of 4 along M took 0.82–0.83 of the time (H100,
# fp16; clusters of 1 took 2.0× the time of clusters of 4 there, for 2.0× the box rows). With both
# operands' rows splitting sectors the requests weigh more than the model's norm gives them.
# Measured (H100, docs/results/2026-12-06-h100-sectors-clusters-of-4/, tables.txt), the model's
# clusters of 4 against what the tie-break took, on 26 such shapes (fp16, run 1): where the pick
# read A in place, less time at all 12 (0.82–0.96 of it, geomean 0.878); where it copied A to
# lines first (wgmma_copies_a_to_lines: A's requests then 1 a box row) more at 12 of 14 (at 9 by
# over 1 %; up to 1.06×, geomean 1.014). So not over a pick that copies A. On 12 shapes drawn
# after that (run 2) 0.874 of the time fp16, 0.859 bf16, less at 12 of 12 each (3072×15640×16200
# 0.72 → 0.90× cuBLAS; below 0.85× 6 → 0 each). The H100 holds 30 clusters of 4 as the H200 does
# (run 1). 16-bit inputs only. Not where another measured rule decides: tiles in clusters of 1
# (wgmma_leaves_clusters_of_one), a rule after the ranking over the tie-break's pick or over the
# clusters of 4 (wgmma_ruled: at M of 129–208 one swapped tile over the model's 2 × 2, at M of
# 513–832 swapped 2 × 2 tiles in several rounds), coopB tiles (wgmma_coops; at 4 of 263 shapes
# drawn as run 2's where the rule would move the pick); none of those was timed with the rule. Nor
# are coopB tiles asked over the rule's (measured over clusters of 2 only): the rule's tiles run
# as they are, as timed.
def wgmma_sectors_take_clusters_of_4(m, n, k, sms, ranked, picked, elem_bytes=2, stream_k=True):
    """The configuration with the least modelled time among wgmma_ranked's entries ``ranked``
    where that is clusters of 4 and wgmma_choose's ``picked`` is not, for 16-bit A and B rows
    (K, N) that both split sectors, where ``picked`` reads A in place; else None. Not where
    other measured rules decide: over tiles in clusters of 1 (wgmma_leaves_clusters_of_one's),
    where a rule after the ranking (wgmma_ruled) would replace ``picked`` or those clusters of 4,
    or where coopB tiles (wgmma_coops) replace ``picked``: what it returns runs as it is."""
    sector = BOX_ROW_REQUESTS["partial sector"]
    if elem_bytes != 2 or box_row_requests(k * elem_bytes) != sector or box_row_requests(n * elem_bytes) != sector:
        return None
    best = wgmma_least(ranked)
    if best["CLUSTER"] != 4 or picked["CLUSTER"] == 4 or in_clusters_of_one(picked) \
            or wgmma_copies_a_to_lines(m, n, k, sms, picked, elem_bytes, stream_k) \
            or any(wgmma_ruled(m, n, k, sms, c, elem_bytes, stream_k) != c for c in (picked, best)) \
            or wgmma_coops(m, n, k, sms, picked, elem_bytes, stream_k):
        return None
    return dict(best)


def wgmma_swaps_one_tile(m, n, k, sms, picked, elem_bytes=2):
    """The swapped tiles that cover M in one (LOW_FIT_CONFIGS: 128 of N by BN = 16 · cdiv(M, 16)
    of M) that replace the model's ``picked`` for (m, n, k), or None: 16-bit inputs, M in
    LOW_FIT_M, a pick other than 128×128 tiles in 2 × 2 clusters; in clusters of 4 along N, else
    of 2, the first that takes one round — its tiles times split-K's pieces at most the clusters
    held, cdiv(k-slices, pieces) at least LOW_FIT_SLICES."""
    low, high = LOW_FIT_M
    if elem_bytes != 2 or not low <= m <= high or \
            (picked["BN"], picked["CLUSTER"], picked.get("SHARE_A")) == (128, 4, 1):
        return None   # (over 128×128 in 2 × 2 the rule took more time: LOW_FIT_CONFIGS' note)
    bn = 16 * cdiv(m, 16)
    for config in (c for c in LOW_FIT_CONFIGS if c["BN"] == bn):
        tiles, kt, clusters, p, _ = wgmma_schedule(m, n, k, sms, {**WGMMA_TILE, **config}, elem_bytes)
        if tiles * p <= clusters and (p == 1 or cdiv(kt, p) >= LOW_FIT_SLICES):
            return dict(config)
    return None


def one_round(units, clusters):
    """Whether ``units`` (tiles, or tiles × split-K's pieces) take one round of ``clusters``, at
    least 4 clusters in 5 busy — what the fit rules ask of their tiles."""
    return 4 * clusters <= 5 * units <= 5 * clusters


def wgmma_fits_one_consumer(m, n, k, sms, elem_bytes=2):
    """One consumer's swapped tiles, 64 of N by BN = 16 · cdiv(M, 32) of M, in clusters of 4 along
    N (FIT_ONE_CONFIGS), where they take one round whole (one_round) — else None. Only
    wgmma_swaps_to_fit asks, over FIT_ONE_OVER (3 tiles of M in clusters of 4), where it picks
    that: where they were measured (FIT_ONE_CONFIGS' note)."""
    config = next((c for c in FIT_ONE_CONFIGS if c["BN"] == 16 * cdiv(m, 32)), None)
    if config is None:
        return None
    tiles, _, clusters, _, _ = wgmma_schedule(m, n, k, sms, {**WGMMA_TILE, **config}, elem_bytes)
    return dict(config) if one_round(tiles, clusters) else None   # (4 clusters in 5 busy: split-K cuts none)


def wgmma_swaps_to_fit(m, n, k, sms, picked, elem_bytes=2):
    """The swapped tiles that fit M (FIT_CONFIGS: 128 of N by BN of M, in clusters along N
    sharing A's rows) that replace the model's ``picked`` for (m, n, k), or None: 16-bit inputs,
    M of 257 to 480 and not a multiple of 128. At M ≤ 288 first, over any pick, three consumers'
    192 of N by 144 of M in 2 × 2, then in pairs along M (FIT_THREE_CONFIGS), the first in one round
    with at least 4 clusters in 5 busy. Else a pick neither of 192-row tiles nor cut along K in
    more than 2 pieces; 3 tiles of M (BN the least width that covers it: a multiple of 16, of 32
    in clusters of 4 along N) in clusters of 4, then 2, along N, then 2 tiles in clusters of 4
    along N, 2 × 2 (sharing B's columns too), 2 along N (FIT_FORMS), the first whose tiles take
    one round with at least 4 clusters in 5 busy — over the first (FIT_ONE_OVER), one consumer's
    tiles of half of M where wgmma_fits_one_consumer; else, over any pick, 2 tiles of M in 2 × 2 cut
    along K where they are few (split_pieces), if they then take one round with 4 clusters in 5
    busy in pieces of FIT_SPLIT_SLICES or more (0: no fallback; see FIT_CONFIGS)."""
    if elem_bytes != 2 or not 256 < m <= 480 or m % 128 == 0 or picked.get("SWAP_AB"):
        return None   # (M a whole number of 128-row tiles: the pick's fit it as well)

    if m <= 2 * FIT_THREE_BN:   # three consumers' 192 of N by 144 of M, over any pick (FIT_THREE_BN)
        for config in FIT_THREE_CONFIGS:
            tiles, _, clusters, _, _ = wgmma_schedule(m, n, k, sms, {**WGMMA_TILE, **config}, elem_bytes)
            if one_round(tiles, clusters):
                return dict(config)
    # Not over two 192-row tiles (M ≤ 384 — on the H200 every 192-row pick with M past 256 has it —
    # they fit it as well), nor a pick cut along K in 3 or more pieces (it keeps every SM busy
    # where these leave some idle): FIT_FORMS run whole
    def fitted(t, cluster, share_a):   # (config, its schedule), or None past FIT_MOST_BN
        step = wgmma_swap_step(cluster, share_a)
        config = fit_config(cluster, share_a, step * cdiv(m, step * t))
        return config and (config, wgmma_schedule(m, n, k, sms, {**WGMMA_TILE, **config}, elem_bytes))

    whole = picked["CONSUMERS"] != 3 and wgmma_schedule(m, n, k, sms, {**WGMMA_TILE, **picked}, elem_bytes)[3] <= 2
    for form in FIT_FORMS if whole else ():
        if (fit := fitted(*form)):
            config, (tiles, _, clusters, _, _) = fit
            if one_round(tiles, clusters):   # (over 3 tiles in 4s, one consumer's halves where they fit too)
                return form == FIT_ONE_OVER and wgmma_fits_one_consumer(m, n, k, sms, elem_bytes) or dict(config)
    # Else 2 tiles of M in 2 × 2, cut along K where they are few, in pieces of FIT_SPLIT_SLICES+
    if FIT_SPLIT_SLICES and (fit := fitted(2, 4, 1)):
        config, (tiles, kt, clusters, p, _) = fit
        if one_round(tiles * p, clusters) and kt >= FIT_SPLIT_SLICES * p:
            return dict(config)
    return None


def wgmma_swaps_over_rounds(m, n, k, sms, picked, elem_bytes=2, stream_k=True):
    """The 2 × 2 swapped tiles that fit M (FIT_CONFIGS: 128 of N by BN of M, pairs along M sharing
    B's columns; 2 tiles of M where BN = 16 · cdiv(M, 32) is at most FIT_MOST_BN, else 4, BN =
    16 · cdiv(M, 64)) that replace the model's ``picked`` for (m, n, k), or None: 16-bit inputs, M
    in OVER_ROUNDS_M and not a multiple of 128, a width 2 × 2 builds (144–208), a pick neither
    swapped nor cut along K, and the busiest cluster's MMAs (busiest_slices × a tile's) at most
    OVER_ROUNDS_MMAS of the pick's — in however many rounds (see OVER_ROUNDS_M)."""
    low, high = OVER_ROUNDS_M
    if elem_bytes != 2 or not low <= m <= high or m % 128 == 0 or picked.get("SWAP_AB"):
        return None
    two = 16 * cdiv(m, 32)   # (the width of 2 tiles of M)
    bn = two if two <= FIT_MOST_BN else 16 * cdiv(m, 64)
    if not (config := fit_config(4, 1, bn)):   # (M of 417–512: 4 tiles of M would be 112–128 wide)
        return None
    mmas = []   # the busiest cluster's blocks' MMAs each: k-slices × rows × columns of a tile
    for tile in ({**WGMMA_TILE, "STREAM_K": int(stream_k), **c} for c in (config, picked)):
        busiest, schedule = busiest_mmas(m, n, k, sms, tile, elem_bytes)
        if schedule[3] > 1:   # cut along K: not this rule's (its tiles run whole or stream-K)
            return None
        mmas.append(busiest)
    mine, theirs = mmas
    return dict(config) if mine <= OVER_ROUNDS_MMAS * theirs else None


# cuBLAS's swapped "coopB" tiles (COOP: two consumers side by side along M, BN each, over all of
# COOP · 64 rows of N): 320 of N by 128 of M (COOP=5, BN 64, pairs along N) and 192 by 160 (COOP=3,
# BN 80, pairs along M sharing B). H200, beside the pick (docs/results/2026-12-05-h200-coop/): where
# they ran whole tiles with fewer of the busiest cluster's MMAs than the pick's — 0.83× at
# 1408×11504×3368 and 304×12504×5728, 0.97× at 9240×4648×14072 — they took 0.87, 0.86 and 0.97×
# its time; at the same MMAs (2776×1112×5640, COOP=3 at BN 64) 1.005×; with more (272×12376×9496,
# 1.11×) 1.04×, and with stream-K cutting their last round (3104×5576×7016, MMAs 0.89×) 1.10×. Then on 29 fresh
# shapes drawn where the form with the fewest such MMAs, whole, had at most 0.97 of the pick's
# (H100, docs/results/2026-12-05-h100-coop-rule/, runs 1–2: 21 fp16, 8 bf16; with and without in
# one process): at 0.83× the MMAs (10 shapes) 0.77–0.95× the time at 9 (417×9376×10670 0.771,
# 7762×580×14389 0.797) and 1.06× at 4140×867×6680, geomean 0.906; at 0.93–0.97× (19) 0.88–1.04×
# and 1.23× at 13515×448×4416, geomean 0.985 (likely why: their wgmmas of 64 and 80 columns read
# more shared memory a MMA than the pick's of 192 and 256, so fewer MMAs win only by a margin).
# wgmma_coops takes the form where its tiles run whole and its MMAs are at most COOP_MMAS of the
# pick's: 0.90, set on those shapes; on 16 drawn after it 0.947 / 0.948× the time (fp16 / bf16; H100,
# docs/results/2026-12-06-h100-coop-after/: less at 15, 1.20× at 6870×1070×11384). Only where they were
# timed: over one of the ranking's configurations (its pick, or wgmma_leaves_clusters_of_one's),
# not another rule's tiles; that configuration in clusters of 2 or 4. Over clusters of 4 that run
# whole: at 2620×1747×5448 and 14076×552×13840 0.905 / 0.891 and 0.965 / 1.002× the time (fp16 /
# bf16; 2026-12-06-h100-coop-after/, runs 1 and 6), then on 16 shapes drawn where it fires there
# (H100, docs/results/2026-12-07-h100-coop-clusters-of-4/, run 1) 0.84–0.94× at 11, 1.02–1.31× at 5
# (922×5000×12689 the most), geomean 0.953, fp16 and bf16 alike: kept.
# Over clusters of 4 whose last round stream-K cuts (128 × 256 tiles; the model's MMAs 0.83–0.90×)
# 1.12–1.38× at 7 of 8 shapes (6632×3160×4880 1.25–1.29×, 3569×13384×4488 1.34–1.38×) and 0.98 /
# 1.01× at 1408×11504×3368 (0.87× on the H200 against the pick of 2026-12-05): not there, nor over
# clusters of 4 that split-K cuts (never timed). Over pairs that stream-K cuts, one shape timed:
# 1576×14840×9661, 0.90 / 0.89× (run 1).
# K of 48 slices or more (the least of those timed at MMAs ≤ 0.90: 53); 16-bit inputs.
COOP_CONFIGS = ({"SWAP_AB": 1, "CONSUMERS": 2, "COOP": 5, "BN": 64, "CLUSTER": 2, "SPLIT_K": 0, "STAGES": 3},
                {"SWAP_AB": 1, "CONSUMERS": 2, "COOP": 3, "BN": 80, "CLUSTER": 2, "SHARE_A": 1, "SPLIT_K": 0,
                 "STAGES": 4})
COOP_MMAS = 0.90
COOP_MIN_SLICES = 48   # (K ≥ 3072 for 16-bit inputs: every shape timed at MMAs ≤ 0.90 had K ≥ 3368)


def wgmma_coops(m, n, k, sms, picked, elem_bytes=2, stream_k=True):
    """The coopB tiles (COOP_CONFIGS) that replace ``picked`` for (m, n, k), or None: wgmma_config
    asks only where that is one of the ranking's configurations, not another rule's tiles (as
    measured). 16-bit inputs, a pick in clusters of 2, or of 4 that run whole, K of COOP_MIN_SLICES
    slices or more, and the form whose tiles run whole with the fewest of the busiest cluster's
    MMAs (busiest_mmas), if those are at most COOP_MMAS of the pick's."""
    if elem_bytes != 2 or in_clusters_of_one(picked) or cdiv(k, WGMMA_ROW_BYTES // elem_bytes) < COOP_MIN_SLICES:
        return None

    def busiest(config):   # (its busiest cluster's MMAs, whether its tiles run whole)
        mmas, schedule = busiest_mmas(m, n, k, sms, {**WGMMA_TILE, "STREAM_K": int(stream_k), **config}, elem_bytes)
        return mmas, schedule[3] == 1 and not schedule[4]
    theirs, picked_whole = busiest(picked)
    if picked["CLUSTER"] == 4 and not picked_whole:   # (slower at 7 of 8 such shapes timed: see above)
        return None
    whole = [(mmas, order) for order, (mmas, runs_whole) in enumerate(map(busiest, COOP_CONFIGS)) if runs_whole]
    if whole and (best := min(whole))[0] <= COOP_MMAS * theirs:
        return dict(COOP_CONFIGS[best[1]])
    return None


def wgmma_choose(ranked):
    """The configuration wgmma_config takes from wgmma_ranked's entries (or a subset of them):
    within 2 % of the least modelled time counts as a tie, broken by padding (more than 5 % more
    MMAs than the least of the tied loses), then by whole tiles (no split along K: no fixup, and
    the tiles that share a panel of B stream it together), then the biggest tile. Whole counts
    against stream-K's cut of a last round as against split-K: counting it against split-K only
    would move 24 of 3346 grid picks, and on 12 fresh shapes where it moves them (fp16, H200,
    the pick beside 128×256 tiles in clusters of 2, one call) the alternative took 2.1 % more time
    (geomean; less at 2, −0.2 and −1.0 %; 2.5 % with one shape's own alternative, clusters of 1,
    timed in another call: docs/results/2026-12-01-h200-warm-floor-suites/, runs 4–5)."""
    best = min(r[0] for r in ranked)
    tied = [r for r in ranked if r[0] <= best * 1.02]
    least = min(r[1] for r in tied)
    return dict(min(tied, key=lambda r: (r[1] > least * 1.05, r[2], r[3]))[4])


def wgmma_least(ranked):
    """The configuration of wgmma_ranked's entries with the least modelled time, no tie allowed
    (equal times: the first in the list) — what the model alone would run."""
    return min(ranked, key=lambda entry: (entry[0], entry[3]))[4]
