#!/usr/bin/env bash
# Issue 18's device calls (and two of issue 14's), in parts so that each call ends well inside
# the 10-minute limit:
#   tests  the GPU tests that wait for a device: 07's FP8/INT8/TF32 forms at the edges, 08's DMMA,
#          cuBLASLt's FP8/INT8 yardstick, cuBLAS on a K-major B, the FP8 device reference, one slice
#          of MMAs in flight (WAIT_DEPTH=1), 06 loading only a few rows of A (A_ROWS), 06 swapped (SWAP_AB),
#          stream-K in finer pieces (STREAM_K_DIV=4)
#   bench  each 07 form (with and without WAIT_DEPTH=1) and 08 against its yardstick, 4096³, 8192³
#   study  the FP8 accumulator study; then 06 on M = 1 and 16 with and without A_ROWS / WAIT_DEPTH /
#          SWAP_AB (Cᵀ = Bᵀ·Aᵀ); then 2048³ and 3072³ with stream-K in finer pieces (STREAM_K_DIV)
#   fp64   08's variants (FP64_VARIANTS; default: as it runs, two 128×64 blocks per SM) against cuBLAS's DGEMM,
#          FP64_SIZES (4096³, 8192³)
#   fp8    07 e4m3→bf16 as it is (against cuBLASLt's fast accumulation) and promoting every slice
#          into fp32 (against cuBLASLt's default), 4096³, 8192³
#   small_m  06 on M = 32 and 64: the model's picks against the swapped form with M tiles of 32/64
#   ladders  `tcraw bench` on the ladders issue 18 adds (LADDER_KEYS: FP8, INT8, TF32, FP64), 4096³ and 8192³
#   sanitize compute-sanitizer's four tools over 07's forms and 08 at odd sizes (scripts/sanitize.sh)
#   llm_m512 (issue 14) 06 against cuBLAS on the llm suite's rows with M ≤ 512, fp16 and bf16
#   ncu    Nsight Compute on one launch each of 08 and cuBLAS's DGEMM at 4096³ (where the warps stall,
#          L2 and shared-memory throughput, clocks as run; NCU_FP64=0 skips it), and which cuBLAS
#          kernel (tile, grid) meets 06 on issue 14's weakest shapes (NCU_SHAPES)
#   weak   (issue 14) 06's pick against other configurations (WEAK_VARIANTS) on scripts/shapes/weak_14.txt
#          (or WEAK_SHAPES, e.g. scripts/shapes/mid_m.txt)
#   fp8tune 07 e4m3→bf16 at FP8_SIZES (8192³) with FP8_VARIANTS (default: bands of GROUP_M tile rows)
#   ncu_fp8 Nsight Compute on cuBLASLt's e4m3→bf16 kernel and 07's at 8192³ (tile, cluster, pipes)
#   fp16tiles (issue 14) 06 with 192-column tiles (FP16T_VARIANTS) on squares (FP16T_SIZES)
#   suites (issue 14) 06's picks on SUITE_SHAPES (square and mid-M), SUITE_PRECISIONS (fp16, bf16)
#   splitshare (issue 14) split-K's sum shared by its pieces: its GPU tests, then the picks on split-K shapes
#   depth  (issue 14) 128-column tiles with one slice's MMAs in flight (WAIT_DEPTH=1), long K and M = 384
#   fixed (issue 14) 06's time against K at 1024×1024, and where its warps stall at 1024×1024×8192
#   splitown (issue 14) split-K's new epilogue: its GPU tests, the picks it moved (old beside new)
#   sumloads (issue 14) split-K's sum over 3+ pieces with SPLIT_LOADS loads in flight: its GPU tests,
#          compute-sanitizer over 06 (fp16, bf16), then 16 (the default) against 1 (one piece's box at a time)
#          on split-K shapes (scripts/shapes/split_many.txt and two more files), fp16 and bf16
#   deep   (issue 14) nine configurations on shapes the picks split in 5–11 pieces (scripts/shapes/split_deep.txt)
#          beside the picks, fp16
#   sumcheck (issue 14) the split-K test (SPLIT_LOADS 16 against 1, bit for bit, 2–16 pieces), then
#          compute-sanitizer's memcheck and racecheck on 128×256 tiles in 5 pieces (fp16) and 128×192
#          in 5 (FP8 → bf16 C): a last batch of fewer pieces, shares of several boxes
#   splitcfg (issue 14) six configurations on long-K shapes that split (scripts/shapes/split_configs.txt), fp16
#   memory (issue 14) Nsight Compute's DRAM bytes, L2 hit rate and tensor-pipe use for 06 and cuBLAS
#          on MEM_SHAPES (512×512×32768: its loop ~28 % slower a slice than 1024×1024×8192's); MEM_FULL=1
#          adds Nsight Compute's full set, every metric as a raw CSV
#   rounds (issue 14) stream-K in quarter-tile pieces on a partial last round, M = 256/384
#   cluster64 (issue 14) 64-column tiles in clusters of 2 (one and two consumers, 8 or 13 stages) beside
#          the picks' configurations (scripts/shapes/cluster_64.txt), fp16
#   depth64 (issue 14) one consumer's tiles with one slice's MMAs in flight (WAIT_DEPTH=1) on the same
#          shapes (run 2 of 2026-12-01 also timed the tensor maps' prefetch, then a macro, since removed)
#   onecons (issue 14) every one-consumer tile with WAIT_DEPTH 0 and 1 beside two consumers' on
#          scripts/shapes/one_consumer.txt: the table their rates are refitted from
#   moves  (issue 14) every candidate on shapes a refit of those rates moved (one_consumer_moves.txt);
#          07's one-consumer picks at small M with and without a slice in flight
#   recheck07 (issue 14) 07's one-consumer picks at small M with and without a slice in flight (the
#          `moves` part's 07 rows before a --picked WAIT_DEPTH=0 was honoured compared two equal
#          builds); GPU tests of one consumer without it and of 64 columns in clusters of 2
#   check1 (issue 14) the GPU tests of 06/07's configurations, edges, split-K, stream-K, WAIT_DEPTH and 64
#          columns in clusters of 2; compute-sanitizer over 06 and over one consumer in clusters of 2
#   pingpong (issue 14) the consumers taking tiles in turn (PINGPONG): its GPU tests, then its tiles
#          beside the cooperative ones and the picks (scripts/shapes/pingpong.txt), fp16
#   ppcheck (issue 14) the 06/07 GPU tests after the loop's rework, compute-sanitizer over PINGPONG,
#          PINGPONG at short K (scripts/shapes/pingpong_short_k.txt, fp16) and bf16 squares
#   ppfinal (issue 14) the picks that take turns against the tiles they replace on fresh shapes
#          (scripts/shapes/pingpong_fresh.txt), then the square and skinny suites, fp16 and bf16
#   apitch (issue 14) 128-column tiles against 128×256 as A's row pitch moves between 16- and
#          128-byte alignment (scripts/shapes/a_pitch.txt), fp16
#   squares (issue 14) 3072³ (two whole rounds of 128×256 cluster tiles and 12 left over): stream-K
#          after two rounds in finer pieces (STREAM_K_ROUNDS=2, STREAM_K_DIV) beside the 128×192 pick, fp16 and bf16
#   names  (issue 14) which cuBLAS kernel (tile, cluster, grid) runs NAME_SHAPES (3072³, 2048³), one launch each
#   pitch  (issue 14) the GPU tests of pitched rows (edges, every configuration); 06 with its copies'
#          rows padded to 16 bytes against 128 (scripts/pitch_study.py on scripts/shapes/pitch_odd.txt);
#          then tiles on rows 16 bytes off a 32-byte boundary beside aligned twins (pitch_16.txt), fp16
#   pickpitch (issue 14) the picks a first form of the pitch term moved (scripts/shapes/pitch_moves.txt), each old
#          and new configuration among nine timed side by side, fp16; then the odd suite (copies' rows to 128 bytes), fp16 and bf16
#   pitch64 (issue 14) 64- and 128-column tiles on misaligned rows of A beside aligned twins (scripts/shapes/pitch_64.txt)
#   pitchncu (issue 14) Nsight Compute's full set on 06's pick and cuBLAS at 3000³ (rows of A and B 16 bytes
#          off a 32-byte boundary) and 3008³ (on 128-byte lines), one launch each; raw CSVs to read offline
#   pitchfresh (issue 14) the picks the L2-request term moves on fresh shapes (scripts/shapes/pitch_fresh.txt),
#          each old and new pick among nine configurations, fp16
#   pitchbf16 (issue 14) the same on more fresh shapes (scripts/shapes/pitch_fresh_bf16.txt), bf16
#   sharea (issue 14) clusters sharing A (SHARE_A=1): their GPU tests; then beside clusters sharing B on rows
#          off 128-byte lines (scripts/shapes/share_a.txt), and the picks, fp16
#   cluster4 (issue 14) how many clusters of 1, 2 and 4 the device holds; clusters of 4 (along M, 2 × 2)
#          beside clusters of 2 (scripts/shapes/cluster4.txt), and the picks, fp16
#   cluster4fresh (issue 14) 13 configurations on fresh shapes of rows off 128-byte lines (cluster4_fresh.txt)
#   cluster4tests (issue 14) the GPU tests of clusters sharing A and of 4, and the edge test of those configurations
#   cluster4final (issue 14) the final picks against cuBLAS on four shape files (fp16, bf16); compute-sanitizer
#          over clusters of 4
#   cluster4round (issue 14) round-number shapes whose pick moved (cluster4_round.txt): both picks, six configurations
#   launchpaths (issue 14) GPU tests over the launch paths the grid cut to what the device holds touches
#   rows192 (issue 14) tiles of 192 rows (CONSUMERS=3: three consumers; the first run had a producer of one
#          warp, since dropped) in clusters of 1, 2 (along M, or along N sharing A) and 2 × 2, and 192 × 128,
#          beside the picks and 128×192 in clusters of 2 (scripts/shapes/rows192.txt), fp16
#   rows192fresh (issue 14) the last stop's picks and this one's among 11 configurations on fresh shapes
#          (scripts/shapes/rows192_fresh.txt), fp16
#   rows192tests (issue 14) the GPU tests of three consumers and the edge test of every configuration the picker
#          weighs; compute-sanitizer over 192-row tiles
#   rows192final (issue 14) the final picks on both shape files of 192-row tiles, then the square, llm and odd
#          suites (each with a shape whose pick moved), fp16 and bf16
#   warmup (issue 14) 06 at 1024³ after the GPU idled, with warm-up floors of GPU time; the square suite after idling
#   warmupab (issue 14) big squares with the warm-up floor and without, alternating
#   tiebreak (issue 14) ties broken toward whole tiles only against split-K: the pick beside the alternative on
#          fresh shapes where that moves it (scripts/shapes/tie_break_fresh.txt; run 5 of 2026-12-01-h200-warm-floor-suites)
#   allsuites (issue 14) every suite (square, skinny, long-k, odd, mid-M, llm) with 06's picks, SUITE_PREC
#   c4long (issue 14) 2 × 2 clusters of 128×128 tiles beside the pick's clusters of 2 on fresh long-K shapes with
#          few tiles (scripts/shapes/long_k_cluster4_fresh.txt), fp16, then bf16 with the long-k suite
#   rows192check (issue 14) three consumers' split-K sum bit for bit against one piece at a time; compute-sanitizer
#          over their stream-K; the suites' picks that moved to 192-row tiles, old beside new
#   fewtiles (issue 14) 2 × 2 clusters on long-K shapes with few tiles (scripts/shapes/split_configs.txt) beside the
#          picks; M = 128 (scripts/shapes/mid_m_128.txt) in one consumer's tiles of 192 and 256 columns
#   gaps   (issue 14) the event pairs unheld and held (scripts/timing_gap_probe.py, GAP_SHAPES)
#   m128   (issue 14) M = 128 (scripts/shapes/mid_m_128.txt): the pick beside one consumer's 64 × 192 / 64 × 256
#          tiles in clusters of 2, 128×128 sharing A, 64 × 64 / 64 × 128 in clusters of 2 (M128_PREC, fp16)
#   c2fresh (issue 14) 64×64 tiles in clusters of 2 along M (one consumer) beside the pick on fresh shapes
#          (scripts/shapes/one_consumer_c2_fresh.txt), fp16, then six of them in bf16
#   aedge  (issue 14) tiles at M's edge copying only the 8-row boxes of A with real rows (A_EDGE): GPU tests,
#          compute-sanitizer, then A_EDGE 4 (the default) / 0 / 8 / 16 under the picks on scripts/shapes/m_edge.txt, fp16
#   c2again (issue 14) after A_EDGE: 64×64 in clusters of 2 along M beside 64×64 in clusters of 1 and 64×128 in
#          clusters of 2 on both files of fresh shapes (one_consumer_c2_fresh*.txt), fp16; bf16 on the second
#   pairs  (issue 14) 64×128 in clusters of 2 where the rule for two tile rows fires (wgmma_pairs_rows) beside
#          64×64 in clusters of 1 on fresh shapes, fp16 and bf16; GPU tests of the edges and those tiles
#   edgefresh (issue 14) A_EDGE 4 against whole boxes on fresh shapes it cuts (m_edge_fresh.txt), fp16 and bf16;
#          07 at M = 1 and 16 (edge_07.txt), FP8 → bf16 and INT8
#   weakfresh (issue 14) the fresh shapes below 0.85× of 2026-12-01 and their kin, several configurations each
#   widefit (issue 14) swapped tiles of M 48–208 wide: their tests, then on the fresh shapes below 0.85×
#   widestages (issue 14) swapped wide tiles with one C staging box: tests, widths, the rule
#   swapfit (issue 14) the pick with and without wgmma_swaps_to_fit on fresh shapes where it fires
#   cublasnames (issue 14) Nsight Compute: the kernel and grid cuBLAS runs on 06's weakest shapes
#   swapclusters (issue 14) swapped tiles in clusters along N (sharing A's rows): tests, sanitizer,
#          fitted widths in clusters of 1, 2, 4 beside the pick
#   swapclustersfresh (issue 14) the pick with and without the rule in clusters on fresh shapes
#   swap2d (issue 14) swapped tiles in 2-D clusters (SHARE_A: pairs along M sharing B's columns too):
#          tests, sanitizer, then beside the pick and clusters along N on fresh M-of-a-few-hundred shapes
#   swap2dfresh (issue 14) the rule with 2 × 2 clusters: its GPU test, then against the rule without them
#          on fresh shapes where it fires (fp16, bf16, fp16 again)
#   swap2dwider (issue 14) 1 × 2 beside the rule's clusters of 2 along N; 2 × 2 beside picks it leaves
#   swap2dsplit (issue 14) the rule's 2 × 2 fallback cut along K: its GPU test, then against the rule without it
#   swap2dsan (issue 14) compute-sanitizer on the rule's 2 × 2 picks, cut along K and whole
#   pitchcopies (issue 14) cuda_src/pitch_rows.cu: its GPU test (and under compute-sanitizer's memcheck),
#          then the copies by cuMemcpy2DAsync against it on the odd suite and scripts/shapes/pitch_copies.txt
#          (scripts/pitch_study.py --copies), fp16; then the survey again, fp16 (SURVEY_PRECISIONS)
#   pitchfinal (issue 14) the GPU tests over pitched rows (06's edges, 07's forms, bf16 C, swapped,
#          every kernel traced, pitch_rows.cu), both backends; compute-sanitizer's memcheck over 06 and 07
#          on pitched problems (scripts/sanitize_configs.py); the split-K pick against whole tiles on scripts/shapes/tiny_overhead.txt
#   tinyswap (issue 14) on scripts/shapes/tiny_swap.txt the pick beside swapped tiles holding M in one, of one
#          consumer (64 rows of N) in clusters of 1, 2, 4 along N and of two in clusters of 2, 4, fp16
#   survey2 (issue 14) pitch_rows.cu's GPU test, alone and under memcheck; then 06's picks against cuBLAS on a
#          second random draw of 48 shapes (scripts/shapes/survey_fresh_2.txt), fp16 and bf16
#   survey3 (issue 14) 06's picks against cuBLAS on a third random draw of 48 shapes
#          (scripts/shapes/survey_fresh_3.txt, drawn at session 42), fp16 and bf16
#   survey4 (issue 14) the same on a fourth draw (scripts/shapes/survey_fresh_4.txt, drawn at session 52)
#   survey5 (issue 14) the same on a fifth draw (scripts/shapes/survey_fresh_5.txt, drawn at session 54),
#          SURVEY_PRECISIONS (fp16 bf16; survey3–10 all take it)
#   survey6 (issue 14) the same on a sixth draw (scripts/shapes/survey_fresh_6.txt, drawn at session 56)
#   survey7 (issue 14) the same on a seventh draw (scripts/shapes/survey_fresh_7.txt, drawn at session 62)
#   survey8 (issue 14) the same on an eighth draw (scripts/shapes/survey_fresh_8.txt, drawn at session 66)
#   survey9 (issue 14) the same on a ninth draw (scripts/shapes/survey_fresh_9.txt, drawn at session 68)
#   survey10 (issue 14) the same on a tenth draw (scripts/shapes/survey_fresh_10.txt, drawn at session 76)
#   smallm (issue 14) M ≤ 32 against a large B (scripts/shapes/small_m_big_b.txt): the pick beside stream-K
#          over the whole problem (STREAM_K_ROUNDS=0; and for stretches that save few slices) and one consumer's
#          64-column swapped tiles (BN 16, 32) cut after their whole round; then unswapped picks that fill less
#          than a round, or a few (scripts/shapes/few_tiles_stream_k.txt), with and without stream-K, fp16
#   smallm2 (issue 14) Nsight Compute's grids and DRAM rates of 06's and cuBLAS's kernels at M ≤ 32 against a
#          large B (scripts/shapes/small_m_scaling.txt), then the swapped tiles with the most stages that fit
#   splitrounds (issue 14) split-K's pieces in several rounds (SPLIT_ROUNDS): GPU test, compute-sanitizer, and at
#          M ≤ 32 against a large B the pick beside SPLIT_ROUNDS 2, 4, 8
#   roundsfresh (issue 14) SPLIT_ROUNDS=2 beside the pick on fresh M ≤ 32 shapes with long K, fp16 and bf16
#   oddsuite (issue 14) the odd suite (every operand copied to pitched rows), 06's picks, fp16 and bf16
#   tiny   (issue 14) Nsight Compute's durations of 06's and cuBLAS's kernels on small shapes below 0.85×
#          (scripts/shapes/tiny_overhead.txt); the pitch_rows.cu A/B again (PITCH_SHAPES); the survey in bf16
#   survey (issue 14) the swapped wide-tile GPU test; then 06's picks against cuBLAS on 48 shapes drawn
#          at random from the whole space (scripts/shapes/survey_fresh.txt), SURVEY_PRECISIONS (fp16 bf16)
#   heldcheck the hold's GPU tests, the records' held_ms and tests/test_cubin_only.py (both backends)
#   suite1 tests/test_gpu.py with the GPU (TCRAW_TEST_SHARD=i/3: a third of it, a call each; TEST_K=bindings
#          one backend's half); suite2 every other test file (each a call of its own)
#   suitepar tests/test_gpu.py in PAR (12) processes at once — its cases spend about 12 s each in a process,
#          we believe on the host: NVRTC, one core a build, and the CPU reference (2026-12-05, not separated:
#          docs/results/2026-12-05-h100-h200-split-boxes-survey6/)
#          — call CALL (1) of CALLS (1): process j runs shard (CALL-1)·PAR + j of PAR·CALLS (TEST_K narrows)
#   small09 (issue 14) 09 (M ≤ 64, B read in place): its GPU tests (PYTEST_K09) and 06 handing it M ≤ 32 (≤ 48
#          where N ≥ 4096) with N off 8; compute-sanitizer's four tools over 09 as 06's pick runs it
#          (SAN09_SHAPES); memcheck, initcheck over 09 alone at N < 64
#   narrow09 (issue 14) memcheck and initcheck over 09 alone at N < 64 (the tail of small09)
#   vars09  (issue 14) 09's variants (VARS09) side by side with cuBLAS on scripts/shapes/small_m_09.txt
#   mid09   (issue 14) 09 (VARS09_MID) and 06's picks on M of 33–64 (scripts/shapes/mid_m_09.txt)
#   prof09  (issue 14) Nsight Compute's full set over 09 at M = 1 and 32 (PROF09_SHAPES, PROF09_VARIANT)
#   small06 (issue 14) 06's picks on scripts/shapes/small_m_09.txt (SMALL_SHAPES), SMALL_PS (fp16)
#   pairs64 (issue 14) cuBLAS's tile at 1024×1024×8192 as 06's swapped pairs, beside the picks (scripts/shapes/pairs_64.txt)
#   stream128 (issue 14) one consumer's 64×192 / 64×256 pairs and others beside the picks, M of 80–128
#          (scripts/shapes/m128_stream.txt)
#   widefresh (issue 14) kernels.wgmma_pairs_wide's picks beside those they replace on fresh shapes, fp16 and bf16
#   widecheck (issue 14) 64×192 pairs at the edges (GPU test), the rule's picks verified
#          (scripts/shapes/wide_pairs_picks.txt), compute-sanitizer over one; the mid-M and llm suites
#   pairsover (issue 14) one consumer's pairs beside two consumers' 128-row picks at M of 65–128 (fresh shapes)
#   realign (issue 14) B read in place whatever N (B_REALIGN): its GPU test, then the picks with and without it
#          (scripts/shapes/b_realign.txt)
#   realigncheck (issue 14) B_REALIGN's pick: the 06/09 GPU tests, fresh shapes beside 06 with B copied in
#          one consumer's tiles (fp16, bf16), compute-sanitizer's four tools over two picks that realign
#   widebusy (issue 14) the realigning configurations' GPU edge test; the wide pairs at 70 % of the clusters
#          busy (scripts/shapes/wide_pairs_70_fresh.txt) beside the picks, fp16
#   streamall (issue 14) few 128×128 tiles: the picks beside stream-K over every tile (few_tiles_stream_all.txt)
#   realignlast (issue 14) 09 where it was the pick before B_REALIGN (fresh shapes); compute-sanitizer over
#          realigning picks and clusters of 2 and 4 realigning
#   closing compute-sanitizer over 08; `tcraw bench` on the fp64 ladder (4096³, 6144³, 8192³);
#          06's picks on mid-M shapes (fp16, bf16) and the odd suite (fp16)
#   owntests (issue 14) the GPU cases of the your-own-kernel files (user and unusual kernels, cubin-only), -v
#   lines  (issue 14) A's rows a multiple of 16 bytes but off 128-byte lines: read in place, copied to lines
#          first, and as picked (scripts/lines_study.py on LINES_SHAPES, LINES_KEY: fp16)
#   cubinonly the cubin-only GPU tests (--tb=short), their fixture's compile of every kernel warmed first
#          in four processes side by side (one cache), each one's exit and stderr logged
# BENCH_KEYS / BENCH_VARIANTS narrow the bench part. Logs under $OUT.   OUT=out bash scripts/gpu_issue18_session.sh tests bench   (then: study)
source "$(dirname "$0")/gpu_env.sh"
write_env
# scripts/swap_fit_study.py with the arguments after the first, logged to $1.txt (within FIT_S seconds)
fit_study() {
  local log=$1; shift
  timeout ${FIT_S:-200} $PY scripts/swap_fit_study.py "$@" > "$OUT/$log.txt" 2>&1
  echo "$log exit $?"; grep -E "×.*cuBLAS|FAIL" "$OUT/$log.txt"
}
# cuda_src/pitch_rows.cu's GPU test (both backends), then the bindings half under compute-sanitizer's memcheck
pitch_rows_checks() {
  gpu_tests pitch_rows pitch_rows
  timeout ${SAN_S:-90} compute-sanitizer --tool memcheck --error-exitcode 9 $PY -m pytest -q -p no:cacheprovider \
    tests/test_gpu.py -k "pitch_rows and bindings" > "$OUT/sanitize_pitch_rows_memcheck.log" 2>&1
  echo "memcheck exit $?: $(grep -E 'SUMMARY' "$OUT/sanitize_pitch_rows_memcheck.log" | tail -1)"
}
# 06 with its copies made by cuMemcpy2DAsync and by pitch_rows.cu, alternately (scripts/pitch_study.py --copies),
# on PITCH_SHAPES (the odd suite and scripts/shapes/pitch_copies.txt), fp16
pitch_copies_study() {
  timeout ${PITCH_S:-240} $PY scripts/pitch_study.py --shapes ${PITCH_SHAPES:-odd,scripts/shapes/pitch_copies.txt} \
    --copies --rounds 2 --iters 10 --seed 43 > "$OUT/pitch_copies_fp16.txt" 2>&1
  echo "pitch copies exit $?"; tail -24 "$OUT/pitch_copies_fp16.txt"
}
# 06's picks against cuBLAS on SURVEY_SHAPES (scripts/shapes/survey_fresh.txt) in each precision named,
# each under SURVEY_S seconds (on a fresh machine the fifth survey's fp16 took about 215 s and its bf16
# was cut at 250 s after 45 of 48 shapes: one precision a call where the 600 s limit is near)
survey() {
  for p in "$@"; do
    timeout ${SURVEY_S:-200} $PY -m tcraw bench --shapes ${SURVEY_SHAPES:-scripts/shapes/survey_fresh.txt} --precision $p \
      --kernel wgmma_tma_$p --iters 10 --seed 41 > "$OUT/survey_$p.txt" 2>&1
    echo "survey $p exit $?"; grep -A3 "geomean" "$OUT/survey_$p.txt" | tail -3
  done
}
# 07's picks at small M (one consumer) as picked — one slice's MMAs in flight — and without
small_m_07() {
  for p in fp8e4m3bf16 int8 tf32; do
    timeout ${K07_S:-60} $PY scripts/tune_ladder.py --family kmajor --precision $p --shapes scripts/shapes/small_m_07.txt \
      --picked --iters 20 --seed 7 --variants "" WAIT_DEPTH=0 > "$OUT/small_m_07_$p.txt" 2>&1
    echo "$p exit $?"; grep -E "×.*cuBLAS" "$OUT/small_m_07_$p.txt"
  done
}
parts=("$@")
[ ${#parts[@]} -eq 0 ] && parts=(tests bench)
for part in "${parts[@]}"; do
  case $part in
  tests)
    CUBLASLT_LOG_LEVEL=1 timeout ${PYTEST_S:-240} $PY -m pytest -q -rs -p no:cacheprovider tests/test_gpu.py \
      -k "${PYTEST_K:-07 or 08 or k_major or cublaslt or device_reference or in_flight or few_rows or swapped or finer}" \
      > "$OUT/pytest_18.txt" 2>&1
    echo "pytest exit $?: $(tail -1 "$OUT/pytest_18.txt")" ;;
  bench)
    for key in ${BENCH_KEYS:-fp8e4m3bf16 fp8e4m3 int8 tf32 fp8e5m2 fp64}; do
      family=kmajor; variants=${BENCH_VARIANTS:-'"" WAIT_DEPTH=1'}; [ $key = fp64 ] && family=dmma && variants='""'
      eval timeout ${BENCH_S:-50} $PY scripts/tune_ladder.py --family $family --precision $key --sizes 4096,8192 \
        --iters 20 --seed 7 --variants $variants >> "$OUT/bench_07_08.txt" 2>&1
      echo "$key exit $?"; grep -E "^(cublas|kmajor|dmma)" "$OUT/bench_07_08.txt" | tail -4
    done ;;
  study)
    timeout ${STUDY_S:-150} $PY scripts/fp8_accumulator_study.py --seed 7 > "$OUT/fp8_accumulator_study.txt" 2>&1
    echo "fp8 accumulator study exit $?"; tail -3 "$OUT/fp8_accumulator_study.txt"
    timeout ${TINY_S:-150} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/tiny_m.txt --iters 20 \
      --seed 7 --variants CONSUMERS=1,BN=128,CLUSTER=1,STAGES=8,WAIT_DEPTH=0 \
      CONSUMERS=1,BN=128,CLUSTER=1,STAGES=8,A_ROWS=16,WAIT_DEPTH=0 CONSUMERS=1,BN=128,CLUSTER=1,STAGES=8,WAIT_DEPTH=1 \
      SWAP_AB=1,BN=16,CLUSTER=1,STAGES=8 SWAP_AB=1,BN=16,CLUSTER=1,CONSUMERS=1,STAGES=8,WAIT_DEPTH=0 \
      > "$OUT/tiny_m_06.txt" 2>&1
    echo "tiny-M 06 exit $?"; tail -4 "$OUT/tiny_m_06.txt"
    timeout ${WAVE_S:-120} $PY scripts/tune_ladder.py --family wgmma --sizes 2048,3072 --iters 20 --seed 7 \
      --variants "" STREAM_K_DIV=4 BN=128,STAGES=6 BN=128,STAGES=6,STREAM_K_DIV=4 > "$OUT/waves_06.txt" 2>&1
    echo "2048³/3072³ stream-K exit $?"; tail -4 "$OUT/waves_06.txt" ;;
  fp64)
    eval timeout ${FP64_S:-100} $PY scripts/tune_ladder.py --family dmma --precision fp64 --sizes ${FP64_SIZES:-4096,8192} \
      --iters 10 --seed 7 --variants ${FP64_VARIANTS:-'"" BN=64,WARPS_N=2,MIN_BLOCKS=2'} > "$OUT/fp64_08.txt" 2>&1
    echo "fp64 exit $?"; grep -E "^(cublas|dmma)" "$OUT/fp64_08.txt" ;;
  fp8)
    timeout ${FP8_S:-90} $PY scripts/tune_ladder.py --family kmajor --precision fp8e4m3bf16 --sizes 4096,8192 \
      --iters 20 --seed 7 --variants "" PROMOTE=1,BN=128,CLUSTER=1,STAGES=6 > "$OUT/fp8_accumulation.txt" 2>&1
    echo "fp8 exit $?"; grep -E "^(cublas|kmajor)" "$OUT/fp8_accumulation.txt" ;;
  small_m)
    timeout ${SMALL_S:-200} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/small_m.txt --iters 20 \
      --seed 7 --variants CONSUMERS=1,BN=64,CLUSTER=1,STAGES=8 CONSUMERS=1,BN=128,CLUSTER=1,STAGES=8 \
      SWAP_AB=1,BN=32,CLUSTER=1,STAGES=8 SWAP_AB=1,BN=64,CLUSTER=1,STAGES=8 \
      SWAP_AB=1,BN=64,CLUSTER=1,CONSUMERS=1,STAGES=8 > "$OUT/small_m_06.txt" 2>&1
    echo "small-M 06 exit $?"; tail -8 "$OUT/small_m_06.txt" ;;
  ladders)
    timeout ${LADDERS_S:-200} $PY -m tcraw bench --precision ${LADDER_KEYS:-fp8e4m3bf16,fp8e4m3,fp8e5m2,int8,tf32,fp64} \
      --sizes 4096,8192 --iters 20 --seed 7 --out "$OUT/ladders" > "$OUT/ladders.txt" 2>&1
    echo "ladders exit $?"; grep -E "^(cublas|wgmma_kmajor|dmma|wmma|mma_sync)" "$OUT/ladders.txt" ;;
  sanitize)
    KERNELS=wgmma_kmajor_fp8e4m3bf16,wgmma_kmajor_fp8e5m2,wgmma_kmajor_int8,wgmma_kmajor_tf32,dmma_fp64 \
      timeout ${SANITIZE_S:-200} bash scripts/sanitize.sh "$OUT/sanitize_07_08.log"
    echo "sanitize exit $?" ;;
  llm_m512)
    for p in fp16 bf16; do
      timeout ${LLM_S:-110} $PY -m tcraw bench --shapes scripts/shapes/llm_m512.txt --precision $p \
        --kernel wgmma_tma_$p --iters 10 --warmup 3 --seed 7 > "$OUT/llm_m512_$p.txt" 2>&1
      echo "llm M ≤ 512 $p exit $?"; grep -A3 "geomean" "$OUT/llm_m512_$p.txt" | tail -2
    done ;;
  ncu)
    NCU="ncu --clock-control none --section LaunchStats --section SpeedOfLight --section Occupancy ${NCU_SECTIONS:-}"
    [ "${NCU_FP64:-1}" = 1 ] && timeout ${NCU_S:-150} $NCU --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis \
      --section ComputeWorkloadAnalysis -k regex:'dmma|gemm|Kernel' -c 2 $PY -m tcraw bench --sizes 4096 \
      --precision fp64 --kernel ${NCU_FP64_KERNEL:-dmma_fp64} --iters 1 --warmup 0 --seed 7 > "$OUT/ncu_fp64.txt" 2>&1
    echo "ncu fp64 exit $?"; grep -E "^  [a-z_]*(dmma|gemm|Kernel)|Duration|Registers Per|SM Frequency|Grid Size|Block Size" "$OUT/ncu_fp64.txt"
    for shape in ${NCU_SHAPES:-128,11008,4096 512,512,32768 3072,3072,3072 2048,2048,2048}; do
      echo "$shape" > /tmp/ncu_shape.txt
      timeout ${NCU_S:-150} $NCU -k regex:'wgmma|gemm|Kernel|nvjet|splitK|reduce' -c 6 $PY -m tcraw bench --shapes /tmp/ncu_shape.txt \
        --precision fp16 --kernel wgmma_tma_fp16 --iters 1 --warmup 0 --seed 7 >> "$OUT/ncu_fp16_shapes.txt" 2>&1
      echo "ncu fp16 $shape exit $?"
    done
    grep -E "^  [a-zA-Z_].*\(|Duration|Grid Size|Block Size|Registers Per" "$OUT/ncu_fp16_shapes.txt" ;;
  weak)
    timeout ${WEAK_S:-200} $PY -m tcraw bench --shapes ${WEAK_SHAPES:-scripts/shapes/weak_14.txt} --precision fp16 --kernel wgmma_tma_fp16 \
      --iters 20 --seed 7 > "$OUT/weak_06_pick.txt" 2>&1
    echo "weak shapes (the picks) exit $?"; grep -E "^wgmma.*×" "$OUT/weak_06_pick.txt"
    eval timeout ${WEAK_S:-200} $PY scripts/tune_ladder.py --family wgmma --shapes ${WEAK_SHAPES:-scripts/shapes/weak_14.txt} --iters 20 \
      --seed 7 --variants ${WEAK_VARIANTS:-'""'} > "$OUT/weak_06.txt" 2>&1
    echo "weak shapes exit $?"; grep -E "×.*cuBLAS" "$OUT/weak_06.txt" ;;
  fp8tune)
    eval timeout ${FP8_S:-90} $PY scripts/tune_ladder.py --family kmajor --precision fp8e4m3bf16 --sizes ${FP8_SIZES:-8192} \
      --iters 20 --seed 7 --variants ${FP8_VARIANTS:-'"" GROUP_M=4 GROUP_M=16'} > "$OUT/fp8_tune.txt" 2>&1
    echo "fp8 tune exit $?"; grep -E "×.*cuBLAS" "$OUT/fp8_tune.txt" ;;
  ncu_fp8)
    # which kernel cuBLASLt runs for e4m3→bf16 at 8192³ (tile, cluster, grid) and how busy it keeps
    # the tensor pipe, against 07's own pick, one launch each
    timeout ${NCU_S:-200} ncu --clock-control none --section LaunchStats --section SpeedOfLight --section Occupancy \
      --section WarpStateStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
      -k regex:'wgmma|gemm|nvjet|sm90' -c 3 $PY -m tcraw bench --sizes ${NCU_FP8_SIZE:-8192} --precision fp8e4m3bf16 \
      --kernel wgmma_kmajor_fp8e4m3bf16 --iters 1 --warmup 0 --seed 7 > "$OUT/ncu_fp8.txt" 2>&1
    echo "ncu fp8 exit $?"; grep -E "^  [a-zA-Z_].*\(|Duration|Grid Size|Block Size|Cluster Size|Registers Per|SM Frequency|Compute \(SM\) Thr|Memory Thr|Issue Slots Busy" "$OUT/ncu_fp8.txt" ;;
  fp16tiles)
    # (issue 14) 06 with 192-column tiles on squares: fewer wasted tiles in the last round
    eval timeout ${FP16T_S:-150} $PY scripts/tune_ladder.py --family wgmma --sizes ${FP16T_SIZES:-3072,6144,8192} --iters 20 \
      --seed 7 --variants ${FP16T_VARIANTS:-'"" BN=192 BN=192,CLUSTER=1'} > "$OUT/fp16_tiles.txt" 2>&1
    echo "fp16 tiles exit $?"; grep -E "×.*cuBLAS" "$OUT/fp16_tiles.txt" ;;
  suites)
    # (issue 14) 06's picks against cuBLAS on SUITE_SHAPES, each of SUITE_PRECISIONS
    for p in ${SUITE_PRECISIONS:-fp16 bf16}; do
      timeout ${SUITES_S:-150} $PY -m tcraw bench --shapes ${SUITE_SHAPES:-square,scripts/shapes/mid_m.txt} --precision $p \
        --kernel wgmma_tma_$p --iters 20 --seed 7 > "$OUT/suites_$p.txt" 2>&1
      echo "suites $p exit $?"; grep -E "^wgmma.*×" "$OUT/suites_$p.txt"; grep -A12 geomean "$OUT/suites_$p.txt" | grep -v '^--'
    done ;;
  splitshare)
    # (issue 14) split-K's pieces sharing the sum: the GPU tests of split-K, stream-K, swapped and
    # edge shapes and of the trace (cuOccupancyMaxActiveClusters), then the picks on split-K
    # shapes, fp16 and bf16. (Run 1 of 2026-11-30's session 17 compared it against the last piece
    # summing alone — then a macro, SPLIT_SHARE, on commit 4148b59 — with the variants in its README.)
    timeout ${PYTEST_S:-300} $PY -m pytest -q -rs -p no:cacheprovider tests/test_gpu.py -k "${PYTEST_K:-share_the_sum \
      or no_tile_divides or stream_k_pieces or swapped or trace_covers or odd_number_of_boxes}" > "$OUT/pytest_split.txt" 2>&1
    echo "pytest exit $?: $(tail -1 "$OUT/pytest_split.txt")"
    for p in fp16 bf16; do
      timeout ${SHARE_S:-100} $PY -m tcraw bench --shapes scripts/shapes/split_k.txt --precision $p --kernel wgmma_tma_$p \
        --iters 20 --seed 7 > "$OUT/split_k_$p.txt" 2>&1
      echo "split-K $p exit $?"; grep -E "^ *wgmma.*×" "$OUT/split_k_$p.txt"
    done ;;
  depth)
    # (issue 14) one slice's MMAs left in flight (WAIT_DEPTH=1) with 128-column tiles: long K
    # (clusters of 2) and M = 384 (clusters of 1)
    timeout ${DEPTH_S:-100} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/split_k.txt --iters 20 --seed 7 \
      --variants BN=128,STAGES=6 BN=128,STAGES=6,WAIT_DEPTH=1 > "$OUT/depth_split_k.txt" 2>&1
    echo "depth split-K exit $?"; grep -E "×.*cuBLAS" "$OUT/depth_split_k.txt"
    timeout ${DEPTH_S:-100} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/mid_m_rounds.txt --iters 20 \
      --seed 7 --variants BN=128,STAGES=6,CLUSTER=1 BN=128,STAGES=6,CLUSTER=1,WAIT_DEPTH=1 > "$OUT/depth_mid_m.txt" 2>&1
    echo "depth mid-M exit $?"; grep -E "×.*cuBLAS" "$OUT/depth_mid_m.txt" ;;
  fixed)
    # (issue 14) 06's time against K at 1024×1024 (its fixed part and its slope), split in 2
    # pieces, whole (64 blocks), and 64-row tiles whole (128 blocks); then where its warps stall
    # at 1024×1024×8192 (Nsight Compute's per-instruction samples, SASS)
    timeout ${FIXED_S:-150} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/k_sweep.txt --iters 20 --seed 7 \
      --variants BN=128,STAGES=6 BN=128,STAGES=6,SPLIT_K=0 CONSUMERS=1,BN=128,SPLIT_K=0 > "$OUT/k_sweep.txt" 2>&1
    echo "k sweep exit $?"; grep -E "^(cublas|wgmma)" "$OUT/k_sweep.txt" | awk '{print $1, $3, $4}'
    echo 1024,1024,8192 > /tmp/ncu_shape.txt
    timeout ${NCU_S:-150} ncu --clock-control none --section SourceCounters --section WarpStateStats -k regex:wgmma -c 1 \
      -o "$OUT/stalls_1024x1024x8192" $PY -m tcraw bench --shapes /tmp/ncu_shape.txt --precision fp16 \
      --kernel wgmma_tma_fp16 --iters 1 --warmup 0 --seed 7 > "$OUT/ncu_stalls.txt" 2>&1
    echo "ncu stalls exit $?"
    ncu -i "$OUT/stalls_1024x1024x8192.ncu-rep" --page source --csv --print-source sass > "$OUT/stalls_sass.csv" 2>&1
    echo "sass page exit $?: $(wc -l < "$OUT/stalls_sass.csv") lines" ;;
  splitown)
    # (issue 14) split-K's pieces write only the boxes others sum: its GPU tests, then the ten
    # grid shapes whose pick changed (most to 128×128 in 2 pieces), old picks beside new, and
    # the new picks against cuBLAS
    timeout ${PYTEST_S:-200} $PY -m pytest -q -rs -p no:cacheprovider tests/test_gpu.py \
      -k "split or stream_k or swapped or workspace" > "$OUT/pytest_split.txt" 2>&1
    echo "pytest exit $?: $(tail -1 "$OUT/pytest_split.txt")"
    timeout ${SPLIT2_S:-150} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/split_two.txt --iters 20 \
      --seed 7 --variants CONSUMERS=1,BN=128,CLUSTER=2,STAGES=8 CONSUMERS=1,BN=64,CLUSTER=1,STAGES=8 BN=128,STAGES=6 \
      > "$OUT/split_two_variants.txt" 2>&1
    echo "split_two exit $?"; grep -E "×.*cuBLAS" "$OUT/split_two_variants.txt"
    for p in fp16 bf16; do
      timeout 70 $PY -m tcraw bench --shapes scripts/shapes/split_two.txt --precision $p --kernel wgmma_tma_$p \
        --iters 10 --warmup 3 --seed 7 > "$OUT/split_two_picks_$p.txt" 2>&1
      echo "$p exit $?"; grep -A2 geomean "$OUT/split_two_picks_$p.txt" | tail -1
    done ;;
  sumloads)
    timeout ${PYTEST_S:-200} $PY -m pytest -q -rs -p no:cacheprovider tests/test_gpu.py \
      -k "split_k_pieces or workspace" > "$OUT/pytest_sumloads.txt" 2>&1
    echo "pytest exit $?: $(tail -1 "$OUT/pytest_sumloads.txt")"
    KERNELS=wgmma_tma_fp16,wgmma_tma_bf16 timeout ${SANITIZE_S:-200} bash scripts/sanitize.sh "$OUT/sanitize_06.log" | tail -3
    echo "sanitize exit ${PIPESTATUS[0]}"
    for p in fp16 bf16; do
      timeout ${LOADS_S:-150} $PY scripts/tune_ladder.py --family wgmma --precision $p --picked --iters 30 --seed 7 \
        --shapes scripts/shapes/split_many.txt,scripts/shapes/long_k_few_tiles.txt,scripts/shapes/split_two.txt \
        --variants "" SPLIT_LOADS=1 > "$OUT/sumloads_$p.txt" 2>&1
      echo "$p exit $?"; grep -E "×.*cuBLAS" "$OUT/sumloads_$p.txt"
    done ;;
  deep)
    timeout ${DEEP_S:-150} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/split_deep.txt --iters 20 \
      --seed 7 --variants BN=128,STAGES=6 BN=128,STAGES=6,CLUSTER=1 CONSUMERS=1,BN=128,STAGES=8 \
      CONSUMERS=1,BN=128,CLUSTER=1,STAGES=8 CONSUMERS=1,BN=64,CLUSTER=1,STAGES=8 BN=64,CLUSTER=1,STAGES=8 \
      CONSUMERS=1,BN=256,CLUSTER=1,STAGES=5 "" CLUSTER=1 > "$OUT/deep_variants.txt" 2>&1
    echo "deep exit $?"; grep -E "×.*cuBLAS" "$OUT/deep_variants.txt"
    timeout ${DEEP_PICKS_S:-60} $PY -m tcraw bench --shapes scripts/shapes/split_deep.txt --precision fp16 --kernel wgmma_tma_fp16 \
      --iters 10 --warmup 3 --seed 7 > "$OUT/deep_picks.txt" 2>&1
    echo "picks exit $?"; grep -E "^wgmma" "$OUT/deep_picks.txt" | awk '{print $3, $5 " TFLOP/s", $7 "×"}' ;;
  sumcheck)
    timeout ${PYTEST_S:-200} $PY -m pytest -q -rs -p no:cacheprovider tests/test_gpu.py -k "split_k_pieces" \
      > "$OUT/pytest_sumcheck.txt" 2>&1
    echo "pytest exit $?: $(tail -1 "$OUT/pytest_sumcheck.txt")"
    sanitize_configs sum fp16:256x3328x4096:CONSUMERS=2,BN=256,CLUSTER=2 \
      fp8e4m3bf16:256x2496x4096:CONSUMERS=2,BN=192,CLUSTER=2 ;;
  splitcfg)
    timeout ${SPLITCFG_S:-300} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/split_configs.txt --iters 20 \
      --seed 7 --variants BN=128,STAGES=6 "" CONSUMERS=1,BN=128,STAGES=8 CONSUMERS=1,BN=128,CLUSTER=1,STAGES=8 \
      CONSUMERS=1,BN=64,CLUSTER=1,STAGES=8 BN=128,STAGES=6,CLUSTER=1 > "$OUT/split_configs.txt" 2>&1
    echo "splitcfg exit $?"; grep -E "×.*cuBLAS" "$OUT/split_configs.txt" | wc -l ;;
  memory)
    metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct
    metrics=$metrics,lts__t_sectors_srcunit_tex_op_read.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed
    metrics=$metrics,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__grid_size,launch__cluster_dim_x
    metrics=$metrics,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed,sm__cycles_elapsed.avg.per_second
    for shape in ${MEM_SHAPES:-512,512,32768 1024,1024,8192}; do
      echo $shape > /tmp/mem_shape.txt
      timeout ${NCU_S:-120} ncu --clock-control none --metrics $metrics --csv $PY -m tcraw bench --shapes /tmp/mem_shape.txt \
        --precision fp16 --kernel wgmma_tma_fp16 --iters 1 --warmup 0 --seed 7 > "$OUT/memory_${shape//,/x}.csv" 2>&1
      echo "ncu $shape exit $?"
      grep -E '"(gpu__time|dram__bytes_read|lts__t_sector_hit|sm__pipe_tensor)' "$OUT/memory_${shape//,/x}.csv" | \
        awk -F'","' '{print $5 " | " $(NF-2) " = " $NF}' | cut -c1-160
      if [ "${MEM_FULL:-0}" != 0 ]; then   # every metric of the full set, as a raw CSV to read offline
        timeout ${NCU_S:-120} ncu --clock-control none --set full -f -o "$OUT/full_${shape//,/x}" $PY -m tcraw bench \
          --shapes /tmp/mem_shape.txt --precision fp16 --kernel wgmma_tma_fp16 --iters 1 --warmup 0 --seed 7 \
          > "$OUT/full_${shape//,/x}.log" 2>&1
        echo "ncu full $shape exit $?"
        ncu -i "$OUT/full_${shape//,/x}.ncu-rep" --page raw --csv > "$OUT/full_${shape//,/x}_raw.csv" 2>&1
        echo "ncu raw page exit $?"
      fi
    done ;;
  cluster64)
    # (issue 14) 64-column tiles in clusters of 2 (one block copies B's box for both), one consumer
    # with 8 or 13 stages (cuBLAS's 64×64 tile at 128×4096×4096) and two, beside the picks' configurations
    # (one consumer without a slice in flight: as run 1 of 2026-12-01 ran, before picks kept one)
    timeout ${C64_S:-300} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/cluster_64.txt --iters 20 \
      --seed 7 --variants CONSUMERS=1,BN=64,CLUSTER=1,STAGES=8,WAIT_DEPTH=0 CONSUMERS=1,BN=64,CLUSTER=2,STAGES=8,WAIT_DEPTH=0 \
      CONSUMERS=1,BN=64,CLUSTER=2,STAGES=13,WAIT_DEPTH=0 CONSUMERS=1,BN=64,CLUSTER=1,STAGES=13,WAIT_DEPTH=0 \
      CONSUMERS=1,BN=128,CLUSTER=2,STAGES=8,WAIT_DEPTH=0 BN=128,STAGES=6,CLUSTER=1 BN=128,STAGES=6 BN=64,CLUSTER=2,STAGES=8 \
      > "$OUT/cluster64_fp16.txt" 2>&1
    echo "cluster64 exit $?"; grep -E "×.*cuBLAS" "$OUT/cluster64_fp16.txt" ;;
  depth64)
    # (issue 14) one consumer's slices with one slice's MMAs in flight (WAIT_DEPTH=1): 64- and
    # 128-column tiles, clusters of 1 and 2
    timeout ${D64_S:-240} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/cluster_64.txt --iters 20 \
      --seed 7 --variants CONSUMERS=1,BN=64,CLUSTER=1,STAGES=8,WAIT_DEPTH=0 CONSUMERS=1,BN=64,CLUSTER=1,STAGES=8,WAIT_DEPTH=1 \
      CONSUMERS=1,BN=64,CLUSTER=2,STAGES=8,WAIT_DEPTH=1 CONSUMERS=1,BN=64,CLUSTER=2,STAGES=13,WAIT_DEPTH=1 \
      CONSUMERS=1,BN=128,CLUSTER=2,STAGES=8,WAIT_DEPTH=0 CONSUMERS=1,BN=128,CLUSTER=2,STAGES=8,WAIT_DEPTH=1 \
      BN=64,CLUSTER=2,STAGES=8,WAIT_DEPTH=1 > "$OUT/depth64_fp16.txt" 2>&1
    echo "depth64 exit $?"; grep -E "×.*cuBLAS" "$OUT/depth64_fp16.txt" ;;

  onecons)
    # (issue 14) one consumer's tiles with and without one slice's MMAs in flight, beside two
    # consumers' — the table scripts/fit_wgmma_model.py refits one consumer's rates from
    v1=""; v0=""
    for c in BN=64,CLUSTER=1,STAGES=8 BN=128,CLUSTER=1,STAGES=8 BN=128,CLUSTER=2,STAGES=8 BN=256,CLUSTER=1,STAGES=5 \
             BN=256,CLUSTER=2,STAGES=5; do
      v1="$v1 CONSUMERS=1,$c,WAIT_DEPTH=1"; v0="$v0 CONSUMERS=1,$c,WAIT_DEPTH=0"
    done
    timeout ${ONE_S:-400} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/one_consumer.txt --iters 20 \
      --seed 7 --variants $v1 $v0 "" BN=128,STAGES=6 BN=128,STAGES=6,CLUSTER=1 BN=192 > "$OUT/one_consumer_fp16.txt" 2>&1
    echo "onecons exit $?"; grep -E "×.*cuBLAS" "$OUT/one_consumer_fp16.txt" | grep CONSUMERS=1 ;;
  moves)
    # (issue 14) shapes whose pick moves to one consumer's tiles with the refitted rates: every
    # candidate configuration (one consumer's with a slice in flight); then 07's one-consumer picks
    # at small M with (now the default) and without one slice in flight
    timeout ${MOVES_S:-300} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/one_consumer_moves.txt \
      --iters 20 --seed 7 --variants "" BN=192 BN=128,STAGES=6 BN=128,STAGES=6,CLUSTER=1 BN=64,CLUSTER=1,STAGES=8 \
      CONSUMERS=1,BN=128,CLUSTER=2,STAGES=8,WAIT_DEPTH=1 CONSUMERS=1,BN=128,CLUSTER=1,STAGES=8,WAIT_DEPTH=1 \
      CONSUMERS=1,BN=256,CLUSTER=1,STAGES=5,WAIT_DEPTH=1 CONSUMERS=1,BN=256,CLUSTER=2,STAGES=5,WAIT_DEPTH=1 \
      > "$OUT/moves_fp16.txt" 2>&1
    echo "moves exit $?"; grep -E "×.*cuBLAS" "$OUT/moves_fp16.txt" | wc -l
    small_m_07 ;;
  check1)
    # (issue 14) one consumer with a slice in flight and 64-column tiles in clusters of 2: the GPU
    # tests of 06/07's configurations, edges, split-K and stream-K; compute-sanitizer's four tools
    # over 06 (fp16, bf16) at sanitize.sh's shapes; memcheck and racecheck on one consumer in
    # clusters of 2 (whole and split) and 64-column clusters
    timeout ${PYTEST_S:-330} $PY -m pytest -q -rs -p no:cacheprovider tests/test_gpu.py -k "every_06_configuration or \
      64_columns or no_tile_divides or 07_k_major or one_slice or split_k_pieces or stream_k_pieces" \
      > "$OUT/pytest_check1.txt" 2>&1
    echo "pytest exit $?: $(tail -1 "$OUT/pytest_check1.txt")"
    KERNELS=wgmma_tma_fp16,wgmma_tma_bf16 timeout ${SANITIZE_S:-150} bash scripts/sanitize.sh "$OUT/sanitize_06.log" | tail -3
    echo "sanitize exit ${PIPESTATUS[0]}"
    sanitize_configs one fp16:256x4096x4096 fp16:512x512x8192:CONSUMERS=1,BN=128,CLUSTER=2 \
      bf16:130x300x1000:CONSUMERS=1,BN=64,CLUSTER=2 fp8e4m3bf16:128x4096x4096 ;;
  pingpong)
    # (issue 14) the two consumers taking tiles in turn (PINGPONG: one stores C while the other
    # multiplies): its GPU tests; then its tiles beside the cooperative ones and the picks
    # (scripts/shapes/pingpong.txt), fp16
    timeout ${PYTEST_S:-300} $PY -m pytest -q -rs -p no:cacheprovider tests/test_gpu.py -k "in_turn" \
      > "$OUT/pytest_pingpong.txt" 2>&1
    echo "pytest exit $?: $(tail -1 "$OUT/pytest_pingpong.txt")"
    timeout ${PP_S:-300} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/pingpong.txt --iters 20 \
      --seed 7 --variants "" BN=192 BN=128,STAGES=6 PINGPONG=128,BN=128,STAGES=6 PINGPONG=128,BN=128,STAGES=6,CLUSTER=1 \
      PINGPONG=64,BN=256,STAGES=4 PINGPONG=64,BN=192,STAGES=6 PINGPONG=128,BN=64,STAGES=8 > "$OUT/pingpong_fp16.txt" 2>&1
    echo "pingpong exit $?"; grep -E "×.*cuBLAS" "$OUT/pingpong_fp16.txt"
    timeout ${PICKED_S:-90} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/pingpong.txt --iters 20 \
      --seed 7 --picked --variants "" > "$OUT/pingpong_picked_fp16.txt" 2>&1
    echo "picked exit $?"; grep -E "×.*cuBLAS" "$OUT/pingpong_picked_fp16.txt" ;;
  ppcheck)
    # (issue 14) after the consumers' loop was reworked for PINGPONG (that rework's cooperative SASS
    # moved; the committed source's does not): the GPU tests of 06/07's configurations, edges, split-K and
    # stream-K; compute-sanitizer's memcheck and racecheck over consumers taking turns (stream-K,
    # one and two wgmmas a k-step, bf16 C); then PINGPONG at short K beside the cooperative
    # tiles (scripts/shapes/pingpong_short_k.txt, fp16) and at 2048³ and 3072³ (bf16)
    timeout ${PYTEST_S:-300} $PY -m pytest -q -rs -p no:cacheprovider tests/test_gpu.py -k "every_06_configuration or \
      64_columns or no_tile_divides or 07_k_major or one_slice or split_k_pieces or stream_k_pieces or swapped" \
      > "$OUT/pytest_ppcheck.txt" 2>&1
    echo "pytest exit $?: $(tail -1 "$OUT/pytest_ppcheck.txt")"
    SAN_S=60 sanitize_configs pingpong fp16:1000x8503x4200:CONSUMERS=2,PINGPONG=128,BN=128,CLUSTER=2 \
      fp8e4m3bf16:1000x4253x4200:CONSUMERS=2,PINGPONG=64,BN=128,CLUSTER=1,STAGES=8
    timeout ${PP_S:-200} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/pingpong_short_k.txt --iters 20 \
      --seed 7 --variants "" BN=192 BN=128,STAGES=6 PINGPONG=128,BN=128,STAGES=6 > "$OUT/pingpong_short_k_fp16.txt" 2>&1
    echo "short-k exit $?"; grep -E "×.*cuBLAS" "$OUT/pingpong_short_k_fp16.txt"
    timeout ${PPB_S:-90} $PY scripts/tune_ladder.py --family wgmma --precision bf16 --sizes 2048,3072 --iters 20 \
      --seed 7 --variants "" BN=192 BN=128,STAGES=6 PINGPONG=128,BN=128,STAGES=6 > "$OUT/pingpong_bf16.txt" 2>&1
    echo "bf16 exit $?"; grep -E "×.*cuBLAS" "$OUT/pingpong_bf16.txt" ;;
  ppfinal)
    # (issue 14) the picks that now take turns against the cooperative tiles they replace, on
    # shapes chosen to check the first rule (scripts/shapes/pingpong_fresh.txt, fp16);
    # then the suites whose picks moved (square, skinny), fp16 and bf16; first the edge test of
    # every configuration with the new one (bf16)
    timeout ${PYTEST_S:-60} $PY -m pytest -q -rs -p no:cacheprovider tests/test_gpu.py \
      -k "every_06_configuration and PINGPONG" > "$OUT/pytest_ppfinal.txt" 2>&1
    echo "pytest exit $?: $(tail -1 "$OUT/pytest_ppfinal.txt")"
    timeout ${PPF_S:-150} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/pingpong_fresh.txt --iters 20 \
      --seed 7 --variants "" BN=192 BN=128,STAGES=6 PINGPONG=128,BN=128,STAGES=6 > "$OUT/pingpong_fresh_fp16.txt" 2>&1
    echo "fresh exit $?"; grep -E "×.*cuBLAS" "$OUT/pingpong_fresh_fp16.txt"
    for p in fp16 bf16; do
      for suite in square skinny; do
        echo "## $p $suite" >> "$OUT/suites_$p.txt"
        timeout ${SUITE_S:-90} $PY -m tcraw bench --shapes $suite --precision $p --kernel wgmma_tma_$p \
          --iters 10 --warmup 3 --seed 7 >> "$OUT/suites_$p.txt" 2>&1
        echo "$p $suite exit $?: $(grep -A2 geomean "$OUT/suites_$p.txt" | tail -1)"
      done
    done ;;
  apitch)
    # (issue 14) whether A's row pitch (K × 2 bytes: 16-, 32-, 64- or 128-byte aligned) is what
    # costs 128-column tiles ~20 % at 5000×5000×1000 (scripts/shapes/a_pitch.txt), fp16
    timeout ${APITCH_S:-150} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/a_pitch.txt --iters 20 \
      --seed 7 --variants "" BN=128,STAGES=6 PINGPONG=128,BN=128,STAGES=6 > "$OUT/a_pitch_fp16.txt" 2>&1
    echo "apitch exit $?"; grep -E "×.*cuBLAS" "$OUT/a_pitch_fp16.txt" ;;
  squares)
    # (issue 14) 3072³ runs three rounds of 128×192 tiles (2.91 rounds' work); 128×256 in clusters of
    # 2 is 2.18 rounds, and stream-K after two whole rounds could cut the 12 cluster tiles left over
    # in pieces of ~1/5 of a tile (9 slices of 48 a cluster). fp16 and bf16 (fp32 C)
    for p in fp16 bf16; do
      timeout ${SQ_S:-120} $PY scripts/tune_ladder.py --family wgmma --precision $p --sizes ${SQ_SIZES:-3072} --iters 20 \
        --seed 7 --variants BN=192 STREAM_K_ROUNDS=2 STREAM_K_ROUNDS=2,STREAM_K_DIV=4 STREAM_K_ROUNDS=2,STREAM_K_DIV=5 \
        STREAM_K_ROUNDS=2,STREAM_K_DIV=6 > "$OUT/squares_$p.txt" 2>&1
      echo "squares $p exit $?"; grep -E "×.*cuBLAS" "$OUT/squares_$p.txt"
    done ;;
  names)
    # (issue 14) which cuBLAS kernel meets 06 where (name: tile, stages, cluster; grid), one launch each
    for p in fp16 bf16; do
      for shape in ${NAME_SHAPES:-3072,3072,3072 2048,2048,2048}; do
        echo "$shape" > /tmp/name_shape.txt
        timeout ${NAME_S:-60} ncu --clock-control none --section LaunchStats -k regex:'nvjet|gemm|splitK|reduce' -c 3 \
          $PY -m tcraw bench --shapes /tmp/name_shape.txt --precision $p --kernel wgmma_tma_$p --iters 1 --warmup 0 \
          --seed 7 >> "$OUT/cublas_names.txt" 2>&1
        echo "names $p $shape exit $?"
      done
    done
    grep -E "^  [a-zA-Z_].*\(|Grid Size|Cluster Size" "$OUT/cublas_names.txt" ;;
  pitch)
    timeout ${PYTEST_S:-240} $PY -m pytest -q -rs -p no:cacheprovider tests/test_gpu.py -k "no_tile_divides or \
      every_06_configuration" > "$OUT/pytest_pitch.txt" 2>&1
    echo "pytest exit $?: $(tail -1 "$OUT/pytest_pitch.txt")"
    timeout ${PSTUDY_S:-150} $PY scripts/pitch_study.py --shapes scripts/shapes/pitch_odd.txt --rounds 2 \
      > "$OUT/pitch_study_fp16.txt" 2>&1
    echo "pitch study exit $?"; tail -14 "$OUT/pitch_study_fp16.txt"
    timeout ${P16_S:-150} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/pitch_16.txt --iters 20 \
      --seed 7 --variants "" BN=192 BN=128,STAGES=6 CONSUMERS=1,BN=128,STAGES=8 > "$OUT/pitch_16_fp16.txt" 2>&1
    echo "pitch_16 exit $?"; grep -E "×.*cuBLAS" "$OUT/pitch_16_fp16.txt" ;;
  pickpitch)
    timeout ${PMOVES_S:-300} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/pitch_moves.txt --iters 20 \
      --seed 7 --variants BN=128,STAGES=6 CONSUMERS=1,STAGES=5 "" BN=128,STAGES=6,CLUSTER=1 BN=192 \
      CONSUMERS=1,BN=128,STAGES=8 BN=64,STAGES=8,CLUSTER=1 CONSUMERS=1,BN=64,STAGES=8,CLUSTER=1 CLUSTER=1 \
      > "$OUT/pitch_moves_fp16.txt" 2>&1
    echo "pitch moves exit $?"; grep -E "×.*cuBLAS" "$OUT/pitch_moves_fp16.txt"
    for p in fp16 bf16; do
      timeout ${SUITE_S:-90} $PY -m tcraw bench --shapes odd --precision $p --kernel wgmma_tma_$p --iters 10 --warmup 3 \
        --seed 7 > "$OUT/suite_odd_$p.txt" 2>&1
      echo "odd $p exit $?: $(grep -A2 geomean "$OUT/suite_odd_$p.txt" | tail -1)"
    done ;;
  pitch64)
    timeout ${P64_S:-150} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/pitch_64.txt --iters 20 \
      --seed 7 --variants CONSUMERS=1,BN=64,STAGES=8,CLUSTER=1 BN=64,STAGES=8,CLUSTER=1 CONSUMERS=1,BN=128,STAGES=8 \
      > "$OUT/pitch_64_fp16.txt" 2>&1
    echo "pitch64 exit $?"; grep -E "×.*cuBLAS" "$OUT/pitch_64_fp16.txt" ;;
  pitchncu)
    for size in ${PNCU_SIZES:-3000 3008}; do
      timeout ${NCU_S:-150} ncu --clock-control none --set full -k regex:'wgmma|nvjet|sm90_xmma|gemm' -c 4 -f \
        -o "$OUT/full_$size" $PY -m tcraw bench --sizes $size --precision fp16 --kernel wgmma_tma_fp16 --iters 1 \
        --warmup 0 --seed 7 > "$OUT/full_$size.log" 2>&1
      echo "ncu $size exit $?"
      ncu -i "$OUT/full_$size.ncu-rep" --page raw --csv > "$OUT/full_${size}_raw.csv" 2>&1
      ncu -i "$OUT/full_$size.ncu-rep" --page details > "$OUT/full_${size}_details.txt" 2>&1
      grep -E "^  [a-zA-Z_].*\(|Duration|L2 Cache Throughput|DRAM Throughput|Memory Throughput|Compute \(SM\)" \
        "$OUT/full_${size}_details.txt"
      rm -f "$OUT/full_$size.ncu-rep"
    done ;;
  pitchfresh)
    timeout ${PFRESH_S:-400} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/pitch_fresh.txt --iters 20 \
      --seed 7 --variants CLUSTER=1 "" BN=128,STAGES=6 BN=192,CLUSTER=1 BN=192 BN=128,STAGES=6,CLUSTER=1 \
      CONSUMERS=1,STAGES=5 CONSUMERS=1,BN=128,STAGES=8,CLUSTER=1 CONSUMERS=1,BN=128,STAGES=8 \
      > "$OUT/pitch_fresh_fp16.txt" 2>&1
    echo "pitch fresh exit $?"; grep -E "×.*cuBLAS" "$OUT/pitch_fresh_fp16.txt" ;;
  pitchbf16)
    timeout ${PBF16_S:-300} $PY scripts/tune_ladder.py --family wgmma --precision bf16 --shapes scripts/shapes/pitch_fresh_bf16.txt \
      --iters 20 --seed 7 --variants BN=128,STAGES=6 BN=192 CLUSTER=1 "" BN=128,STAGES=6,CLUSTER=1 BN=192,CLUSTER=1 \
      CONSUMERS=1,STAGES=5,CLUSTER=1 > "$OUT/pitch_fresh_bf16.txt" 2>&1
    echo "pitch fresh bf16 exit $?"; grep -E "×.*cuBLAS" "$OUT/pitch_fresh_bf16.txt" ;;
  sharea)
    timeout ${PYTEST_S:-200} $PY -m pytest -q -rs -p no:cacheprovider tests/test_gpu.py -k "sharing_a or \
      (every_06_configuration and SHARE_A)" > "$OUT/pytest_share_a.txt" 2>&1
    echo "pytest exit $?: $(tail -1 "$OUT/pytest_share_a.txt")"
    timeout ${SHA_S:-180} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/share_a.txt --iters 20 \
      --seed 7 --variants "" SHARE_A=1 BN=192 BN=192,SHARE_A=1 BN=128,STAGES=6 BN=128,STAGES=6,SHARE_A=1 \
      > "$OUT/share_a_fp16.txt" 2>&1
    echo "share_a exit $?"; grep -E "×.*cuBLAS" "$OUT/share_a_fp16.txt"
    timeout ${PICKED_S:-90} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/share_a.txt --iters 20 \
      --seed 7 --picked --variants "" > "$OUT/share_a_picked_fp16.txt" 2>&1
    echo "picked exit $?"; grep -E "×.*cuBLAS" "$OUT/share_a_picked_fp16.txt" ;;
  cluster4)
    # clusters of 4: how many the device holds at once, then along M sharing B and 2 × 2 sharing
    # both, against clusters of 2 and the picks (scripts/shapes/cluster4.txt)
    held_clusters
    timeout ${C4_S:-330} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/cluster4.txt --iters 20 \
      --seed 7 --variants "" BN=192 CLUSTER=4 CLUSTER=4,SHARE_A=1 BN=192,CLUSTER=4 BN=192,CLUSTER=4,SHARE_A=1 \
      BN=128,STAGES=6,CLUSTER=4,SHARE_A=1 > "$OUT/cluster4_fp16.txt" 2>&1
    echo "cluster4 exit $?"; grep -E "×.*cuBLAS" "$OUT/cluster4_fp16.txt"
    timeout ${PICKED_S:-90} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/cluster4.txt --iters 20 \
      --seed 7 --picked --variants "" > "$OUT/cluster4_picked_fp16.txt" 2>&1
    echo "picked exit $?"; grep -E "×.*cuBLAS" "$OUT/cluster4_picked_fp16.txt" ;;
  cluster4fresh)
    timeout ${C4F_S:-500} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/cluster4_fresh.txt --iters 20 \
      --seed 7 --variants "" BN=128,STAGES=6 BN=128,STAGES=6,CLUSTER=1 BN=128,STAGES=6,CLUSTER=4,SHARE_A=1 BN=192 \
      BN=192,CLUSTER=4 BN=192,CLUSTER=4,SHARE_A=1 CLUSTER=1 CLUSTER=4 CLUSTER=4,SHARE_A=1 CONSUMERS=1,BN=128,STAGES=8 \
      CONSUMERS=1,BN=128,STAGES=8,CLUSTER=1 CONSUMERS=1,STAGES=5 > "$OUT/cluster4_fresh_fp16.txt" 2>&1
    echo "cluster4 fresh exit $?"; grep -cE "×.*cuBLAS" "$OUT/cluster4_fresh_fp16.txt"; grep FAIL "$OUT/cluster4_fresh_fp16.txt" | head ;;
  cluster4final)
    # the final picks on every shape file of this work against cuBLAS, then compute-sanitizer over
    # clusters of 4 (2 × 2 with stream-K and split-K; along M with 8-bit inputs and a bf16 C)
    for f in cluster4 cluster4_fresh pitch_fresh; do
      timeout ${PICKED_S:-120} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/$f.txt --iters 20 \
        --seed 11 --picked --variants "" > "$OUT/final_picked_${f}_fp16.txt" 2>&1
      echo "$f exit $?"; grep -E "×.*cuBLAS" "$OUT/final_picked_${f}_fp16.txt"
    done
    timeout ${PICKED_S:-120} $PY scripts/tune_ladder.py --family wgmma --precision bf16 --shapes scripts/shapes/pitch_fresh_bf16.txt \
      --iters 20 --seed 11 --picked --variants "" > "$OUT/final_picked_pitch_fresh_bf16.txt" 2>&1
    echo "bf16 exit $?"; grep -E "×.*cuBLAS" "$OUT/final_picked_pitch_fresh_bf16.txt"
    SAN_S=110 sanitize_configs cluster4 fp16:1031x9253x4100:CONSUMERS=2,BN=192,CLUSTER=4,SHARE_A=1 \
      fp16:512x512x8192:CONSUMERS=2,BN=128,CLUSTER=4,SHARE_A=1 fp8e4m3bf16:700x1000x300:CONSUMERS=2,BN=256,CLUSTER=4 ;;
  cluster4round)
    timeout ${C4R_S:-400} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/cluster4_round.txt --iters 20 \
      --seed 13 --variants "" CLUSTER=4 BN=192 BN=192,CLUSTER=4 BN=192,CLUSTER=4,SHARE_A=1 BN=128,STAGES=6 \
      > "$OUT/cluster4_round_fp16.txt" 2>&1
    echo "cluster4 round exit $?"; grep -E "×.*cuBLAS" "$OUT/cluster4_round_fp16.txt" ;;
  rows192)
    R3=CONSUMERS=3,BN=192,STAGES=3,SPLIT_LOADS=4
    timeout ${R192_S:-420} $PY scripts/tune_ladder.py --family wgmma --shapes ${R192_SHAPES:-scripts/shapes/rows192.txt} \
      --iters 20 --seed 17 --variants $R3 $R3,CLUSTER=1 $R3,CLUSTER=4,SHARE_A=1 $R3,SHARE_A=1 \
      CONSUMERS=3,BN=128 BN=192 > "$OUT/rows192_fp16.txt" 2>&1
    echo "rows192 exit $?"; grep -E "×.*cuBLAS|FAIL" "$OUT/rows192_fp16.txt"
    timeout ${PICKED_S:-120} $PY scripts/tune_ladder.py --family wgmma --shapes ${R192_SHAPES:-scripts/shapes/rows192.txt} \
      --iters 20 --seed 17 --picked --variants "" > "$OUT/rows192_picked_fp16.txt" 2>&1
    echo "picked exit $?"; grep -E "×.*cuBLAS|FAIL" "$OUT/rows192_picked_fp16.txt" ;;
  rows192fresh)
    R3=CONSUMERS=3,BN=192,STAGES=3
    timeout ${R192F_S:-480} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/rows192_fresh.txt \
      --iters 10 --seed 19 --variants "" $R3 $R3,SHARE_A=1 $R3,CLUSTER=1 BN=128,STAGES=6 CLUSTER=4 BN=192 \
      BN=128,STAGES=6,PINGPONG=128 BN=128,STAGES=6,CLUSTER=1 BN=192,CLUSTER=1 CLUSTER=4,SHARE_A=1 \
      > "$OUT/rows192_fresh_fp16.txt" 2>&1
    echo "rows192 fresh exit $?"; grep -cE "×.*cuBLAS" "$OUT/rows192_fresh_fp16.txt"; grep FAIL "$OUT/rows192_fresh_fp16.txt" | head ;;
  rows192tests)
    timeout ${PYTEST_S:-300} $PY -m pytest -q -rs -p no:cacheprovider tests/test_gpu.py -k "three_consumers or \
      (every_06_configuration and 3+BN)" > "$OUT/pytest_rows192.txt" 2>&1
    echo "pytest exit $?: $(tail -1 "$OUT/pytest_rows192.txt")"
    SAN_S=100 sanitize_configs rows192 fp16:1031x9253x4100:CONSUMERS=3,BN=192,CLUSTER=2,SHARE_A=1 \
      fp16:512x512x8192:CONSUMERS=3,BN=192,CLUSTER=1 fp8e4m3bf16:700x1000x300:CONSUMERS=3,BN=192,CLUSTER=4,SHARE_A=1 ;;
  rows192final)
    for p in fp16 bf16; do
      timeout ${PICKED_S:-90} $PY scripts/tune_ladder.py --family wgmma --precision $p \
        --shapes scripts/shapes/rows192.txt,scripts/shapes/rows192_fresh.txt --iters 10 --seed 23 --picked --variants "" \
        > "$OUT/final_picked_rows192_$p.txt" 2>&1
      echo "final $p exit $?"; grep -E "×.*cuBLAS" "$OUT/final_picked_rows192_$p.txt"
    done
    for p in fp16 bf16; do
      timeout ${SUITES_S:-150} $PY -m tcraw bench --shapes square,llm,odd --precision $p --kernel wgmma_tma_$p --iters 10 \
        --seed 23 > "$OUT/suites_$p.txt" 2>&1
      echo "suites $p exit $?"; grep -A5 geomean "$OUT/suites_$p.txt"
    done ;;
  launchpaths)
    # (issue 14) GPU tests over the launch paths the cut grid (matmul.resident_geometry) touches
    timeout ${PYTEST_S:-420} $PY -m pytest -q -rs -p no:cacheprovider tests/test_gpu.py -k "06_on_shapes or \
      split_k_leaves or cli_run_json or backends_agree or same_seed or walkthrough or (trace and wgmma) or 07_k_major" \
      > "$OUT/pytest_launch_paths.txt" 2>&1
    echo "pytest exit $?: $(tail -1 "$OUT/pytest_launch_paths.txt")"
    timeout ${PYTEST_S:-280} $PY -m pytest -q -rs -p no:cacheprovider tests/test_gpu.py -k "stream_k_pieces or \
      split_k_pieces or swapped or one_slice or 64_columns" > "$OUT/pytest_launch_paths2.txt" 2>&1
    echo "pytest exit $?: $(tail -1 "$OUT/pytest_launch_paths2.txt")" ;;
  cluster4tests)
    timeout ${PYTEST_S:-400} $PY -m pytest -q -rs -p no:cacheprovider tests/test_gpu.py -k "sharing_a_or_of_4 or \
      (every_06_configuration and SHARE_A)" > "$OUT/pytest_cluster4.txt" 2>&1
    echo "pytest exit $?: $(tail -1 "$OUT/pytest_cluster4.txt")" ;;
  recheck07)
    # (issue 14) after --picked variants' WAIT_DEPTH=0 stopped being replaced by the pick's 1: 07's
    # one-consumer picks at small M with and without a slice in flight; the GPU tests of one consumer
    # without it and of 64 columns in clusters of 2 (stream-K added)
    timeout ${PYTEST_S:-120} $PY -m pytest -q -rs -p no:cacheprovider tests/test_gpu.py \
      -k "one_consumer_without or 64_columns" > "$OUT/pytest_recheck07.txt" 2>&1
    echo "pytest exit $?: $(tail -1 "$OUT/pytest_recheck07.txt")"
    small_m_07 ;;
  rounds)
    # (issue 14) a partial last round at M = 256/384: stream-K's pieces down to a quarter tile
    # (STREAM_K_DIV=4) with 128-, 192- and 256-column tiles
    timeout ${ROUNDS_S:-150} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/mid_m_rounds.txt \
      --iters 20 --seed 7 --variants BN=128,STAGES=6,CLUSTER=1 BN=128,STAGES=6,CLUSTER=1,STREAM_K_DIV=4 \
      CLUSTER=1,STREAM_K_DIV=4 BN=192,CLUSTER=1,STREAM_K_DIV=4 STREAM_K_DIV=4 BN=192,STREAM_K_DIV=4 \
      > "$OUT/rounds.txt" 2>&1
    echo "rounds exit $?"; grep -E "×.*cuBLAS" "$OUT/rounds.txt" ;;
  warmup)
    # (issue 14) a GPU that sat idle: 06 at 1024³ after 15 s idle with warm-up floors of 0, 30 and
    # 100 ms of GPU time (runtime.WARM_MS), and at once after; then the square suite in a fresh process
    # after 15 s idle, fp16 and bf16, with the default floor
    timeout ${WARM_S:-150} $PY scripts/warmup_probe.py --idle 15 --warm-ms 0,30,100,0,30 > "$OUT/warmup_probe.txt" 2>&1
    echo "warmup probe exit $?"; cat "$OUT/warmup_probe.txt"
    for p in fp16 bf16; do
      sleep 15
      timeout ${SQUARE_S:-90} $PY -m tcraw bench --shapes square --precision $p --kernel wgmma_tma_$p --iters 10 --seed 43 \
        > "$OUT/square_after_idle_$p.txt" 2>&1
      echo "square $p exit $?"; grep -E "× cuBLAS" "$OUT/square_after_idle_$p.txt"
    done ;;
  warmupab)
    # (issue 14) the warm-up floor against none, alternating, each after 10 s idle, fp16: does 30 ms
    # of warm-up change what big squares read?
    for ms in 30 0 30 0; do
      sleep 10
      timeout 60 $PY -c "import sys; import tcraw.runtime as r; r.WARM_MS = $ms; from tcraw.cli import main; \
sys.exit(main(['bench', '--shapes', 'scripts/shapes/warmup_squares.txt', '--precision', 'fp16', '--kernel', \
'wgmma_tma_fp16', '--iters', '10', '--seed', '47']))" > "$OUT/warmup_ab_$ms.txt" 2>&1
      echo "WARM_MS=$ms exit $?"; grep -E "× cuBLAS" "$OUT/warmup_ab_$ms.txt"; cat "$OUT/warmup_ab_$ms.txt" >> "$OUT/warmup_ab_all.txt"
    done ;;
  tiebreak)
    # (issue 14) the model's ties broken toward whole tiles only against split-K: 06's pick beside the
    # alternative that would take (128×256 in clusters of 2) on fresh shapes where it moves the pick
    # (scripts/shapes/tie_break_fresh.txt), fp16, in one process — as run 5 of
    # docs/results/2026-12-01-h200-warm-floor-suites/ ran it (tune_ladder's "picked" variant came after)
    timeout ${TIE_S:-300} $PY -m tcraw bench --spec scripts/specs/tie_break_fp16.py --kernel pick_fp16,c2_128x256_fp16 \
      --shapes scripts/shapes/tie_break_fresh.txt --precision fp16 --iters 10 --seed 53 > "$OUT/tie_break_fresh_fp16.txt" 2>&1
    echo "tie break exit $?"; grep -E "×.*cuBLAS|FAIL" "$OUT/tie_break_fresh_fp16.txt" ;;
  allsuites)
    # (issue 14) every suite of `tcraw bench --shapes` and mid-M, 06's picks, SUITE_PREC (fp16)
    p=${SUITE_PREC:-fp16}
    timeout ${SUITES_S:-560} $PY -m tcraw bench --shapes square,skinny,long-k,odd,scripts/shapes/mid_m.txt,llm --precision $p \
      --kernel wgmma_tma_$p --iters 10 --seed 37 > "$OUT/all_suites_$p.txt" 2>&1
    echo "suites $p exit $?"; grep -A9 "geomean" "$OUT/all_suites_$p.txt" | tail -9 ;;
  c4long)
    # (issue 14) 2 × 2 clusters of 128×128 tiles (sharing A and B) against the pick's clusters of 2 on
    # fresh long-K shapes with few tiles (scripts/shapes/long_k_cluster4_fresh.txt), fp16; then bf16
    # on those and the long-k suite
    timeout ${C4L_S:-200} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/long_k_cluster4_fresh.txt \
      --iters 10 --seed 31 --variants "" BN=128,STAGES=6 BN=128,STAGES=6,CLUSTER=4,SHARE_A=1 \
      > "$OUT/c4long_fresh_fp16.txt" 2>&1
    echo "c4long fp16 exit $?"; grep -E "×.*cuBLAS|FAIL" "$OUT/c4long_fresh_fp16.txt"
    timeout ${C4L_S:-200} $PY scripts/tune_ladder.py --family wgmma --precision bf16 \
      --shapes long-k,scripts/shapes/long_k_cluster4_fresh.txt --iters 10 --seed 31 \
      --variants BN=128,STAGES=6 BN=128,STAGES=6,CLUSTER=4,SHARE_A=1 > "$OUT/c4long_bf16.txt" 2>&1
    echo "c4long bf16 exit $?"; grep -E "×.*cuBLAS|FAIL" "$OUT/c4long_bf16.txt" ;;
  rows192check)
    # (issue 14) three consumers' split-K sum (8 loads at once) and 2 × 2 clusters' in 7 pieces against
    # one piece at a time, bit for bit; compute-sanitizer over three consumers' stream-K and 2 × 2
    # clusters' split-K in 7 pieces; the suites' moved picks, old against new, one process
    timeout ${PYTEST_S:-200} $PY -m pytest -q -rs -p no:cacheprovider tests/test_gpu.py -k split_k_pieces_share \
      > "$OUT/pytest_split_three.txt" 2>&1
    echo "pytest exit $?: $(tail -1 "$OUT/pytest_split_three.txt")"
    SAN_S=150 sanitize_configs stream_k_three fp16:4000x5000x2048:CONSUMERS=3,BN=192,CLUSTER=2,SHARE_A=1,STAGES=3 \
      bf16:4000x5000x2048:CONSUMERS=3,BN=192,CLUSTER=1,STAGES=3 fp16:512x512x8192:CONSUMERS=2,BN=128,CLUSTER=4,SHARE_A=1,STAGES=6
    timeout ${MOVES_S:-150} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/rows192_moves.txt \
      --iters 10 --seed 29 --variants "" BN=128,CLUSTER=1,STAGES=6 BN=192 CONSUMERS=3,BN=192,STAGES=3 \
      CONSUMERS=3,BN=192,STAGES=3,CLUSTER=1 > "$OUT/rows192_moves_fp16.txt" 2>&1
    echo "moves exit $?"; grep -E "×.*cuBLAS|FAIL" "$OUT/rows192_moves_fp16.txt" ;;
  fewtiles)
    # (issue 14) long K with few tiles: 2 × 2 clusters (sharing A and B) on lines, beside clusters
    # of 2; then M = 128 in tiles of 192 or 256 columns with one consumer
    timeout ${FEW_S:-240} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/split_configs.txt \
      --iters 10 --seed 29 --variants "" BN=128,STAGES=6 CLUSTER=4,SHARE_A=1 BN=128,STAGES=6,CLUSTER=4,SHARE_A=1 \
      CLUSTER=4 > "$OUT/few_tiles_cluster4_fp16.txt" 2>&1
    echo "few tiles exit $?"; grep -E "×.*cuBLAS|FAIL" "$OUT/few_tiles_cluster4_fp16.txt"
    timeout ${PICKED_S:-90} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/split_configs.txt,scripts/shapes/mid_m_128.txt \
      --iters 10 --seed 29 --picked --variants "" > "$OUT/few_tiles_picked_fp16.txt" 2>&1
    echo "picked exit $?"; grep -E "×.*cuBLAS|FAIL" "$OUT/few_tiles_picked_fp16.txt"
    timeout ${M128_S:-120} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/mid_m_128.txt \
      --iters 10 --seed 29 --variants CONSUMERS=1,BN=192,CLUSTER=2,STAGES=6 CONSUMERS=1,BN=192,CLUSTER=1,STAGES=6 \
      CONSUMERS=1,BN=256,CLUSTER=2,STAGES=5 CONSUMERS=1,BN=256,CLUSTER=1,STAGES=5 > "$OUT/m128_one_consumer_fp16.txt" 2>&1
    echo "M=128 exit $?"; grep -E "×.*cuBLAS|FAIL" "$OUT/m128_one_consumer_fp16.txt" ;;
  gaps)
    # whether holding the stream (runtime.Device.hold) changes what the event pairs time: each
    # shape unheld and held, 06's pick and cuBLAS, fp16 (GAP_SHAPES)
    timeout ${GAPS_S:-240} $PY scripts/timing_gap_probe.py --repeat 3 --shapes "${GAP_SHAPES:-scripts/shapes/timing_gaps.txt}" \
      > "$OUT/timing_gaps_fp16.txt" 2>&1
    echo "gaps exit $?"; grep -E "ratio|Error|error|^timing_gap_probe" "$OUT/timing_gaps_fp16.txt" ;;
  m128)
    # (issue 14) M = 128 against projection-like weights (scripts/shapes/mid_m_128.txt): the pick beside
    # one consumer's 64 × 192 / 64 × 256 tiles in clusters of 2 (two M tiles sharing B: cuBLAS's 116
    # blocks at 128×11008×4096), 128×128 in clusters of 2 sharing A, 64 × 64 / 64 × 128 in clusters of 2
    p=${M128_PREC:-fp16}
    timeout ${M128_S:-240} $PY scripts/tune_ladder.py --family wgmma --precision $p --shapes scripts/shapes/mid_m_128.txt \
      --iters 20 --seed 41 --variants picked CONSUMERS=1,BN=192,CLUSTER=2,STAGES=6 CONSUMERS=1,BN=256,CLUSTER=2,STAGES=5 \
      CONSUMERS=2,BN=128,CLUSTER=2,SHARE_A=1,STAGES=6 CONSUMERS=1,BN=64,CLUSTER=2,STAGES=13 CONSUMERS=1,BN=128,CLUSTER=2,STAGES=8 \
      > "$OUT/m128_configs_$p.txt" 2>&1
    echo "m128 $p exit $?"; grep -E "×.*cuBLAS|FAIL" "$OUT/m128_configs_$p.txt" ;;
  c2fresh)
    # (issue 14) one consumer's 64×64 tiles in clusters of 2 along M (B shared by the two tile rows;
    # 8 and 13 stages) beside the pick — 64×64 in clusters of 1 — and 64×128 in clusters of 2, on
    # scripts/shapes/one_consumer_c2_fresh.txt, fp16; then the first five and 128×4096×4096 in bf16
    timeout ${C2F_S:-240} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/one_consumer_c2_fresh.txt \
      --iters 20 --seed 43 --variants picked CONSUMERS=1,BN=64,CLUSTER=2,STAGES=8 CONSUMERS=1,BN=64,CLUSTER=2,STAGES=13 \
      CONSUMERS=1,BN=64,CLUSTER=1,STAGES=13 CONSUMERS=1,BN=128,CLUSTER=2,STAGES=8 > "$OUT/c2_fresh_fp16.txt" 2>&1
    echo "c2fresh fp16 exit $?"; grep -E "×.*cuBLAS|FAIL" "$OUT/c2_fresh_fp16.txt"
    grep -v "^#" scripts/shapes/one_consumer_c2_fresh.txt | sed -n '1,5p;11p' > "$OUT/c2_fresh_bf16_shapes.txt"
    timeout ${C2F_S:-240} $PY scripts/tune_ladder.py --family wgmma --precision bf16 --shapes "$OUT/c2_fresh_bf16_shapes.txt" \
      --iters 20 --seed 43 --variants picked CONSUMERS=1,BN=64,CLUSTER=2,STAGES=8 CONSUMERS=1,BN=64,CLUSTER=2,STAGES=13 \
      > "$OUT/c2_fresh_bf16.txt" 2>&1
    echo "c2fresh bf16 exit $?"; grep -E "×.*cuBLAS|FAIL" "$OUT/c2_fresh_bf16.txt" ;;
  aedge)
    # (issue 14) tiles at M's edge copying only A's 8-row boxes with real rows (A_EDGE, the most such
    # boxes a copy; 0: whole boxes, zeros past M — as before): its GPU tests and 06/07's edge tests,
    # compute-sanitizer over the cut copies (one block, a pair sharing A, 2 × 2, three consumers,
    # split-K), then the picks with A_EDGE 4 (the default since run 4 of 2026-12-01-h200-a-edge, which
    # ran 8 as the default), 0, 8 and 16 on scripts/shapes/m_edge.txt, fp16
    timeout ${PYTEST_S:-200} $PY -m pytest -q -rs -p no:cacheprovider tests/test_gpu.py -k "bindings and (m_edge or \
      no_tile_divides or configuration_is_correct_at_the_edges or 07_k_major_forms or swapped_operands_are)" \
      > "$OUT/pytest_a_edge.txt" 2>&1
    echo "pytest exit $?: $(tail -1 "$OUT/pytest_a_edge.txt")"
    SAN_S=${SAN_S:-100} sanitize_configs a_edge fp16:72x1003x997:CONSUMERS=1,BN=64,CLUSTER=2 \
      fp16:328x1003x997:CONSUMERS=2,BN=128,CLUSTER=2,SHARE_A=1 bf16:296x600x4100:CONSUMERS=2,BN=128,CLUSTER=4,SHARE_A=1 \
      fp16:424x520x1000:CONSUMERS=3,BN=192,CLUSTER=1,A_EDGE=16 fp16:136x256x8192:CONSUMERS=2,BN=128,CLUSTER=1
    timeout ${EDGE_S:-200} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/m_edge.txt --iters 20 \
      --seed 53 --variants picked picked:A_EDGE=0 picked:A_EDGE=8 picked:A_EDGE=16 > "$OUT/m_edge_fp16.txt" 2>&1
    echo "m edge exit $?"; grep -E "×.*cuBLAS|FAIL" "$OUT/m_edge_fp16.txt" ;;
  c2again)
    # (issue 14) after A_EDGE: 64×64 tiles in clusters of 2 along M (one consumer, 8 stages) beside the
    # pick's 64×64 in clusters of 1 and 64×128 in clusters of 2, on both files of fresh shapes, fp16;
    # then bf16 on the second
    timeout ${C2F_S:-200} $PY scripts/tune_ladder.py --family wgmma \
      --shapes scripts/shapes/one_consumer_c2_fresh.txt,scripts/shapes/one_consumer_c2_fresh2.txt --iters 20 --seed 59 \
      --variants picked CONSUMERS=1,BN=64,CLUSTER=2,STAGES=8 CONSUMERS=1,BN=64,CLUSTER=1,STAGES=8 \
      CONSUMERS=1,BN=128,CLUSTER=2,STAGES=8 > "$OUT/c2_again_fp16.txt" 2>&1
    echo "c2again fp16 exit $?"; grep -E "×.*cuBLAS|FAIL" "$OUT/c2_again_fp16.txt"
    timeout ${C2F_S:-200} $PY scripts/tune_ladder.py --family wgmma --precision bf16 \
      --shapes scripts/shapes/one_consumer_c2_fresh2.txt --iters 20 --seed 59 \
      --variants CONSUMERS=1,BN=64,CLUSTER=2,STAGES=8 CONSUMERS=1,BN=64,CLUSTER=1,STAGES=8 > "$OUT/c2_again_bf16.txt" 2>&1
    echo "c2again bf16 exit $?"; grep -E "×.*cuBLAS|FAIL" "$OUT/c2_again_bf16.txt" ;;
  pairs)
    # (issue 14) the rule for two rows of one consumer's tiles (kernels.wgmma_pairs_rows: 64×128 in
    # clusters of 2) against the 64×64 tiles it replaces on fresh shapes (scripts/shapes/paired_rows_fresh.txt),
    # fp16 and bf16; then the GPU tests of the edges (A_EDGE now 4), 64-column and paired tiles
    for p in fp16 bf16; do
      timeout ${PAIRS_S:-120} $PY scripts/tune_ladder.py --family wgmma --precision $p --shapes scripts/shapes/paired_rows_fresh.txt \
        --iters 20 --seed 61 --variants picked CONSUMERS=1,BN=64,CLUSTER=1,STAGES=8 > "$OUT/paired_rows_fresh_$p.txt" 2>&1
      echo "pairs $p exit $?"; grep -E "×.*cuBLAS|FAIL" "$OUT/paired_rows_fresh_$p.txt"
    done
    timeout ${PYTEST_S:-240} $PY -m pytest -q -rs -p no:cacheprovider tests/test_gpu.py -k "bindings and (m_edge or \
      no_tile_divides or configuration_is_correct_at_the_edges or 07_k_major_forms or swapped_operands_are or \
      64_columns or (kernel_matches_reference and wgmma))" > "$OUT/pytest_pairs_edges.txt" 2>&1
    echo "pytest exit $?: $(tail -1 "$OUT/pytest_pairs_edges.txt")" ;;
  edgefresh)
    # (issue 14) A_EDGE 4 (the default) against whole boxes on fresh shapes it cuts
    # (scripts/shapes/m_edge_fresh.txt), fp16 and bf16; then 07 (FP8 → bf16, INT8) at M = 1 and 16
    # (scripts/shapes/edge_07.txt), where it cuts one consumer's 64-row box into one or two
    for p in fp16 bf16; do
      timeout ${EDGEF_S:-120} $PY scripts/tune_ladder.py --family wgmma --precision $p --shapes scripts/shapes/m_edge_fresh.txt \
        --iters 20 --seed 67 --variants picked picked:A_EDGE=0 > "$OUT/m_edge_fresh_$p.txt" 2>&1
      echo "edge fresh $p exit $?"; grep -E "×.*cuBLAS|FAIL" "$OUT/m_edge_fresh_$p.txt"
    done
    for p in fp8e4m3bf16 int8; do
      timeout ${EDGEF_S:-120} $PY scripts/tune_ladder.py --family kmajor --precision $p --shapes scripts/shapes/edge_07.txt \
        --iters 20 --seed 67 --variants picked picked:A_EDGE=0 > "$OUT/edge_07_$p.txt" 2>&1
      echo "edge 07 $p exit $?"; grep -E "×.*cu|FAIL" "$OUT/edge_07_$p.txt"
    done ;;
  weakfresh)
    # (issue 14) fresh shapes below 0.85× on 2026-12-01 and their kin: M of 200–400, two to four
    # rows of 128-row tiles (scripts/shapes/weak_fresh_few_rows.txt) — the pick beside one consumer's
    # 64-row tiles (less padding), 192-row tiles, 128×128 / 128×256 in clusters of 1 (where one is
    # the pick, timed twice: the spread of one build); then N of 392–680 with K of 8192–16384
    # (scripts/shapes/weak_fresh_narrow_long_k.txt) — 64×64 tiles with 8 or 13 stages, in clusters
    # of 1 or 2, the pairs' 64×128, swapped with M tiles of 32 / 64; fp16
    timeout ${WEAKF_S:-240} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/weak_fresh_few_rows.txt \
      --iters 20 --seed 71 --variants picked CONSUMERS=1,BN=256,CLUSTER=2,STAGES=5 CONSUMERS=1,BN=128,CLUSTER=2,STAGES=8 \
      CONSUMERS=3,BN=192,CLUSTER=2,STAGES=3 BN=128,CLUSTER=1,STAGES=6 BN=256,CLUSTER=1,STAGES=4 \
      > "$OUT/weak_fresh_few_rows_fp16.txt" 2>&1
    echo "few rows exit $?"; grep -E "×.*cuBLAS|FAIL" "$OUT/weak_fresh_few_rows_fp16.txt"
    timeout ${WEAKF_S:-240} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/weak_fresh_narrow_long_k.txt \
      --iters 20 --seed 71 --variants picked CONSUMERS=1,BN=64,CLUSTER=1,STAGES=8 CONSUMERS=1,BN=64,CLUSTER=1,STAGES=13 \
      CONSUMERS=1,BN=64,CLUSTER=2,STAGES=8 CONSUMERS=1,BN=128,CLUSTER=2,STAGES=8 SWAP_AB=1,BN=32,CONSUMERS=2,CLUSTER=1,STAGES=8 \
      SWAP_AB=1,BN=64,CONSUMERS=2,CLUSTER=1,STAGES=8 > "$OUT/weak_fresh_narrow_long_k_fp16.txt" 2>&1
    echo "narrow long K exit $?"; grep -E "×.*cuBLAS|FAIL" "$OUT/weak_fresh_narrow_long_k_fp16.txt" ;;
  widefit)
    # (issue 14) swapped tiles whose M side fits M (SWAP_AB=1, BN any multiple of 16: cuBLAS's
    # 128×96 … 128×200 tiles on scripts/shapes/weak_cublas_kernels.txt's shapes): their GPU tests,
    # then on the fresh shapes below 0.85× beside the pick — few rows (M 228–396) with two
    # consumers, narrow N with long K (M 72–114) with one or two; fp16
    timeout ${PYTEST_S:-240} $PY -m pytest -q -rs -p no:cacheprovider tests/test_gpu.py \
      -k "swapped_operands or swapped_wide" > "$OUT/pytest_swapped_wide.txt" 2>&1
    echo "pytest exit $?: $(tail -1 "$OUT/pytest_swapped_wide.txt")"
    s=SWAP_AB=1,CLUSTER=1
    timeout ${WIDE_S:-240} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/weak_fresh_few_rows.txt \
      --iters 20 --seed 73 --variants picked $s,CONSUMERS=2,BN=96,STAGES=6 $s,CONSUMERS=2,BN=112,STAGES=5 \
      $s,CONSUMERS=2,BN=128,STAGES=5 $s,CONSUMERS=2,BN=144,STAGES=4 $s,CONSUMERS=2,BN=160,STAGES=4 \
      $s,CONSUMERS=2,BN=176,STAGES=3 $s,CONSUMERS=2,BN=208,STAGES=2 > "$OUT/wide_few_rows_fp16.txt" 2>&1
    echo "few rows exit $?"; grep -E "×.*cuBLAS|FAIL" "$OUT/wide_few_rows_fp16.txt"
    timeout ${WIDE_S:-240} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/weak_fresh_narrow_long_k.txt \
      --iters 20 --seed 73 --variants picked $s,CONSUMERS=1,BN=48,STAGES=8 $s,CONSUMERS=1,BN=64,STAGES=8 \
      $s,CONSUMERS=1,BN=96,STAGES=8 $s,CONSUMERS=1,BN=128,STAGES=8 $s,CONSUMERS=2,BN=96,STAGES=6 \
      $s,CONSUMERS=2,BN=128,STAGES=5 > "$OUT/wide_narrow_long_k_fp16.txt" 2>&1
    echo "narrow long K exit $?"; grep -E "×.*cuBLAS|FAIL" "$OUT/wide_narrow_long_k_fp16.txt" ;;
  widestages)
    # (issue 14) swapped tiles wider than 64 with one C staging box (the halves in turn: a stage
    # more at 96–192, two at 208): the swapped tests, then the widths on the few-rows shapes
    # at the stages that now fit, and the pick with and without wgmma_swaps_to_fit on
    # scripts/shapes/swap_fit_fresh_2.txt; fp16
    timeout ${PYTEST_S:-150} $PY -m pytest -q -rs -p no:cacheprovider tests/test_gpu.py \
      -k "swapped_operands or swapped_wide or swapped_tiles_that_fit" > "$OUT/pytest_swapped_one_box.txt" 2>&1
    echo "pytest exit $?: $(tail -1 "$OUT/pytest_swapped_one_box.txt")"
    s=SWAP_AB=1,CLUSTER=1,CONSUMERS=2
    timeout ${WIDE_S:-100} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/weak_fresh_few_rows.txt \
      --iters 20 --seed 79 --variants picked $s,BN=112,STAGES=6 $s,BN=144,STAGES=5 $s,BN=160,STAGES=5 \
      $s,BN=176,STAGES=4 $s,BN=208,STAGES=4 > "$OUT/one_box_few_rows_fp16.txt" 2>&1
    echo "few rows exit $?"; grep -E "×.*cuBLAS|FAIL" "$OUT/one_box_few_rows_fp16.txt"
    timeout ${FIT_S:-80} $PY scripts/swap_fit_study.py --shapes scripts/shapes/swap_fit_fresh_2.txt --precision fp16 \
      --seed 83 > "$OUT/one_box_swap_fit_fp16.txt" 2>&1
    echo "fit exit $?"; grep -E "×.*cuBLAS|FAIL" "$OUT/one_box_swap_fit_fp16.txt" ;;
  swapfit|swapclustersfresh)
    # (issue 14) wgmma_swaps_to_fit: its GPU test, then 06's pick with and without the rule on
    # fresh shapes where it fires (FIT_SHAPES, FIT_SEED), fp16 and bf16 — swapfit: the rule in
    # clusters of 1 (scripts/shapes/swap_fit_fresh.txt, drawn for its first form;
    # swap_fit_fresh_2.txt for its last); swapclustersfresh: in clusters along N
    # (swap_clusters_fresh.txt — with the mid-M suite's M = 384 — for its first form,
    # swap_clusters_fresh_2.txt for the second, swap_clusters_fresh_3.txt for the last)
    shapes=scripts/shapes/swap_fit_fresh.txt seed=29 log=swap_fit
    [ $part = swapclustersfresh ] && shapes=scripts/shapes/swap_clusters_fresh.txt seed=43 log=swap_clusters_fresh
    gpu_tests swapped_tiles_that_fit swapped_fit
    for p in fp16 bf16; do
      fit_study ${log}_$p --shapes ${FIT_SHAPES:-$shapes} --precision $p --seed ${FIT_SEED:-$seed}
    done ;;
  swapclusters)
    # (issue 14) 06's swapped tiles in clusters of 2 and 4 along N, each block copying its part of
    # A's BN rows for all (cuBLAS's 2×1 … 4×2 clusters on these shapes): the swapped GPU tests,
    # compute-sanitizer on the clustered form at M's and N's edges and split along K, then on
    # scripts/shapes/swap_clusters.txt (M 199–396, where 06 stayed below 0.85×) the pick beside
    # swapped tiles fitting M in 2 and 3 tiles, in clusters of 1, 2 and 4 (swap_fit_study --fits)
    gpu_tests "swapped_operands or swapped_wide or swapped_tiles_that_fit" swapped_clusters
    SAN_S=${SAN_S:-80} sanitize_configs swap_clusters fp16:283x1003x997:SWAP_AB=1,CONSUMERS=2,BN=96,CLUSTER=4 \
      fp16:225x640x8192:SWAP_AB=1,CONSUMERS=2,BN=112,CLUSTER=2 fp16:50x300x70:SWAP_AB=1,CONSUMERS=1,BN=32,CLUSTER=2
    fit_study swap_clusters_fp16 --shapes ${FITS_SHAPES:-scripts/shapes/swap_clusters.txt} --fits --seed 37 ;;
  swap2d)
    # (issue 14) 06's swapped tiles in 2-D clusters (SHARE_A: pairs along M sharing B's columns, 1 × 2
    # and 2 × 2 — cuBLAS's 4×2 … on these shapes): the swapped GPU tests with them added and the
    # rule's picks; compute-sanitizer on them at M's and N's edges (a pair's second block wholly past
    # M) and split along K; then on the last rule's fresh shapes (SWAP2D_SHAPES) the pick beside
    # widths fitting M in 2, 3 and 4 tiles, in clusters along N (3:4, 2:2) and 2-D (2:4:SA, 2:2:SA, 4:4:SA)
    gpu_tests "swapped_wide or swapped_tiles_that_fit" swapped_2d
    SAN_S=${SAN_S:-80} sanitize_configs swap_2d fp16:427x1003x997:SWAP_AB=1,CONSUMERS=2,BN=144,CLUSTER=4,SHARE_A=1 \
      fp16:283x640x8192:SWAP_AB=1,CONSUMERS=2,BN=96,CLUSTER=2,SHARE_A=1 fp16:283x1003x997:SWAP_AB=1,CONSUMERS=2,BN=96,CLUSTER=2,SHARE_A=1
    fit_study swap_2d_fp16 --shapes ${SWAP2D_SHAPES:-scripts/shapes/swap_clusters_fresh_3.txt} \
      --fits ${SWAP2D_FORMS:-3:4 2:2 2:4:SA 2:2:SA 4:4:SA} --seed 59 ;;
  swap2dfresh)
    # (issue 14) wgmma_swaps_to_fit with 2 × 2 clusters before clusters of 2 along N: the rule's GPU
    # test (a 2 × 2 case added), then the pick against the rule without that form on fresh shapes
    # where it fires (scripts/shapes/swap_2d_fresh.txt), fp16, bf16, and fp16 again (another seed) —
    # and without its later fallback (split), which run 2 of 2026-12-02 ran before
    gpu_tests swapped_tiles_that_fit swapped_fit_2d
    for run in fp16:61 bf16:61 fp16:71; do
      p=${run%:*} seed=${run#*:}
      fit_study swap_2d_fresh_${p}_seed_$seed --shapes scripts/shapes/swap_2d_fresh.txt --precision $p \
        --without 2:4:SA split --seed $seed
    done ;;
  swap2dwider)
    # (issue 14) where else 06's swapped tiles in 2-D clusters might win: the rule's picks of 2 tiles of
    # M in clusters of 2 along N beside the same tiles in 1 × 2 (scripts/shapes/swap_2d_c2_fresh.txt);
    # then picks the rule leaves beside 2 tiles of M in 2 × 2, split along K where few
    # (scripts/shapes/swap_2d_wider_fresh.txt), fp16
    fit_study swap_2d_c2_fp16 --shapes scripts/shapes/swap_2d_c2_fresh.txt --fits 2:2:SA --seed 79
    fit_study swap_2d_wider_fp16 --shapes scripts/shapes/swap_2d_wider_fresh.txt --fits 2:4:SA --seed 79 ;;
  swap2dsplit)
    # (issue 14) wgmma_swaps_to_fit's fallback — 2 tiles of M in 2 × 2, cut along K where few, over
    # any pick (192-row tiles, cut in 3+ pieces): the rule's GPU test (a split case added), then the
    # pick against the rule without it on fresh shapes where it moves the pick and three where
    # earlier forms lost (scripts/shapes/swap_2d_split_fresh.txt), fp16 and bf16
    gpu_tests swapped_tiles_that_fit swapped_fit_split
    for p in fp16 bf16; do
      fit_study swap_2d_split_$p --shapes scripts/shapes/swap_2d_split_fresh.txt --precision $p --without split --seed 89
    done ;;
  swap2dsan)
    # (issue 14) compute-sanitizer on the rule's 2 × 2 swapped picks cut along K (2 and 3 pieces, N and
    # M off their tiles) and whole
    SAN_S=${SAN_S:-80} sanitize_configs swap_2d_split fp16:291x3001x4160 bf16:349x2363x7104 fp16:397x7419x1003 ;;
  pitchcopies)
    pitch_rows_checks
    pitch_copies_study
    survey ${SURVEY_PRECISIONS:-fp16} ;;
  pitchfinal)
    gpu_tests "pitch_rows or 06_on_shapes_no_tile_divides or 07_k_major_forms_are_correct_at_the_edges \
or 07_bf16_c_with or swapped_operands or trace_covers_every_call" pitched
    # (memcheck alone: the copies touch no shared memory, and the matmul kernels are as they were)
    timeout ${SAN_S:-120} compute-sanitizer --tool memcheck --error-exitcode 9 $PY scripts/sanitize_configs.py \
      fp16:34x497x351 bf16:13x7507x7125 fp8e4m3bf16:67x45x99 int8:33x1001x999 > "$OUT/sanitize_pitched_memcheck.log" 2>&1
    echo "memcheck exit $?: $(grep -E 'SUMMARY' "$OUT/sanitize_pitched_memcheck.log" | tail -1)"
    timeout ${TINY_S:-120} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/tiny_overhead.txt \
      --iters 20 --seed 31 --variants picked picked:SPLIT_K=0 > "$OUT/tiny_split_fp16.txt" 2>&1
    echo "tiny split exit $?"; grep -E "×.*cuBLAS|FAIL" "$OUT/tiny_split_fp16.txt" ;;
  tinyswap)
    fit_study tiny_swap_fp16 --shapes ${TINY_SHAPES:-scripts/shapes/tiny_swap.txt} --seed 29 \
      --fits 1:1:C1 1:2:C1 1:4:C1 1:2 1:4 ;;
  survey2)
    pitch_rows_checks
    SURVEY_SHAPES=scripts/shapes/survey_fresh_2.txt survey fp16 bf16 ;;
  survey[3-9]|survey10)
    SURVEY_SHAPES=scripts/shapes/survey_fresh_${part#survey}.txt survey ${SURVEY_PRECISIONS:-fp16 bf16} ;;
  smallm)
    c1=SWAP_AB=1,CONSUMERS=1,CLUSTER=1,STAGES=8,STREAM_K_ROUNDS=0
    timeout ${SMALLM_S:-240} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/small_m_big_b.txt \
      --iters 20 --seed 47 --variants picked picked:STREAM_K_ROUNDS=0 picked:STREAM_K_ROUNDS=0,SPLIT_MIN_SAVED=1 \
      $c1,BN=16,STREAM_K_DIV=4 $c1,BN=32,STREAM_K_DIV=4 $c1,BN=32 > "$OUT/small_m_big_b_fp16.txt" 2>&1
    echo "small M exit $?"; grep -E "×.*cuBLAS|FAIL" "$OUT/small_m_big_b_fp16.txt"
    timeout ${FEW_S:-150} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/few_tiles_stream_k.txt \
      --iters 20 --seed 48 --variants picked picked:STREAM_K_ROUNDS=0 picked:STREAM_K_ROUNDS=0,STREAM_K_DIV=4 \
      > "$OUT/few_tiles_stream_k_fp16.txt" 2>&1
    echo "few tiles exit $?"; grep -E "×.*cuBLAS|FAIL" "$OUT/few_tiles_stream_k_fp16.txt" ;;
  smallm2)
    # Nsight Compute: 06's and cuBLAS's kernels on scripts/shapes/small_m_scaling.txt (their grids,
    # clusters, DRAM read rate), then 06's swapped tiles with the most stages that fit beside the pick
    metrics=gpu__time_duration.sum,launch__grid_size,launch__cluster_dim_x,launch__cluster_dim_y
    metrics+=,dram__bytes_read.sum.per_second,sm__cycles_active.avg
    timeout ${NCU_S:-150} "$CUDA_HOME/bin/ncu" --kernel-name regex:'wgmma|nvjet|xmma|cutlass|gemm|splitK|reduce' \
      --metrics $metrics \
      $PY -m tcraw bench --shapes scripts/shapes/small_m_scaling.txt --precision fp16 --kernel wgmma_tma_fp16 \
      --iters 1 --warmup 1 --seed 7 > "$OUT/small_m_ncu_fp16.txt" 2>&1
    echo "small M ncu exit $?"
    sw=SWAP_AB=1,CONSUMERS=2,CLUSTER=1
    timeout ${SMALLM_S:-200} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/small_m_scaling.txt \
      --iters 20 --seed 49 --variants picked $sw,BN=16,STAGES=10 $sw,BN=32,STAGES=8 $sw,BN=32,STAGES=9 \
      > "$OUT/small_m_stages_fp16.txt" 2>&1
    echo "small M stages exit $?"; grep -E "×.*cuBLAS|FAIL" "$OUT/small_m_stages_fp16.txt" ;;
  splitrounds)
    # split-K in several rounds (SPLIT_ROUNDS): its GPU test, compute-sanitizer over two of its cases,
    # then the pick beside SPLIT_ROUNDS 2, 4, 8 at M ≤ 32 against a large B
    gpu_tests several_rounds several_rounds
    sanitize_configs rounds fp16:32x11000x2056:SWAP_AB=1,CONSUMERS=2,BN=32,CLUSTER=1,STAGES=8,SPLIT_ROUNDS=2 \
      fp16:1024x1280x4096:CONSUMERS=2,BN=128,CLUSTER=2,SPLIT_ROUNDS=4
    timeout ${SMALLM_S:-240} $PY scripts/tune_ladder.py --family wgmma \
      --shapes scripts/shapes/small_m_big_b.txt,scripts/shapes/small_m_scaling.txt --iters 20 --seed 51 \
      --variants picked picked:SPLIT_ROUNDS=2 picked:SPLIT_ROUNDS=4 picked:SPLIT_ROUNDS=8 \
      > "$OUT/split_rounds_fp16.txt" 2>&1
    echo "split rounds exit $?"; grep -E "×.*cuBLAS|FAIL" "$OUT/split_rounds_fp16.txt" ;;
  roundsfresh)
    # split-K in 2 rounds (SPLIT_ROUNDS=2) beside the pick on fresh M ≤ 32 shapes with K of 8704–16184
    # (scripts/shapes/split_rounds_fresh.txt), fp16 then bf16, 50 launches each
    for p in fp16 bf16; do
      timeout ${SMALLM_S:-150} $PY scripts/tune_ladder.py --family wgmma --precision $p \
        --shapes scripts/shapes/split_rounds_fresh.txt --iters 50 --seed 53 --variants picked picked:SPLIT_ROUNDS=2 \
        > "$OUT/split_rounds_fresh_$p.txt" 2>&1
      echo "split rounds fresh $p exit $?"; grep -E "×.*cuBLAS|FAIL" "$OUT/split_rounds_fresh_$p.txt"
    done ;;
  oddsuite)
    for p in fp16 bf16; do
      timeout ${SUITE_S:-120} $PY -m tcraw bench --shapes odd --precision $p --kernel wgmma_tma_$p --iters 10 \
        --seed 37 > "$OUT/odd_suite_$p.txt" 2>&1
      echo "odd $p exit $?"; grep -A3 "geomean" "$OUT/odd_suite_$p.txt" | tail -2
    done ;;
  tiny)
    timeout ${NCU_S:-150} "$CUDA_HOME/bin/ncu" --kernel-name regex:'wgmma|nvjet|xmma|cutlass|gemm|splitK|reduce|pitch' \
      --metrics gpu__time_duration.sum,launch__grid_size,launch__cluster_dim_x,sm__cycles_active.avg \
      $PY -m tcraw bench --shapes scripts/shapes/tiny_overhead.txt --precision fp16 --kernel wgmma_tma_fp16 \
      --iters 1 --warmup 1 --seed 7 > "$OUT/tiny_ncu_fp16.txt" 2>&1
    echo "tiny ncu exit $?"; grep -cE '^  [a-zA-Z_0-9]+' "$OUT/tiny_ncu_fp16.txt"
    pitch_copies_study
    survey ${SURVEY_PRECISIONS:-bf16} ;;
  survey)
    gpu_tests swapped_wide swapped_wide
    survey ${SURVEY_PRECISIONS:-fp16 bf16} ;;
  cublasnames)
    # (issue 14) the kernel cuBLAS runs (name: its tile, stages, cluster, split) and its grid on
    # 06's weakest shapes (NAMES_SHAPES: scripts/shapes/weak_cublas_kernels.txt): Nsight Compute on
    # cuBLAS's kernels only, one launch each, its duration, grid, cluster and DRAM read rate
    timeout ${NAMES_S:-200} "$CUDA_HOME/bin/ncu" --kernel-name regex:'nvjet|xmma|cutlass|splitK|gemm' \
      --metrics gpu__time_duration.sum,launch__grid_size,launch__cluster_dim_x,dram__bytes_read.sum.per_second \
      $PY -m tcraw bench --shapes ${NAMES_SHAPES:-scripts/shapes/weak_cublas_kernels.txt} \
      --precision fp16 --kernel wgmma_tma_fp16 --iters 1 --warmup 1 --seed 7 > "$OUT/cublas_kernels_fp16.txt" 2>&1
    echo "cublas names exit $?"; grep -cE '^  [a-zA-Z_0-9]+ \(' "$OUT/cublas_kernels_fp16.txt" ;;
  heldcheck)
    # the hold's GPU tests and the records' held_ms (both backends), then cubin-only runs (no NVRTC:
    # unheld, held_ms 0) — the cubin-only fixture compiles every kernel for two archs first
    timeout ${PYTEST_S:-330} $PY -m pytest -q -rs -p no:cacheprovider tests/test_cubin_only.py tests/test_gpu.py \
      -k "cubin or hold or json_record" > "$OUT/pytest_held_checks.txt" 2>&1
    echo "pytest exit $?: $(tail -1 "$OUT/pytest_held_checks.txt")" ;;
  suite1|suite2)
    # the whole suite took over 585 s on the H200 (cut at 93 %, 2026-11-30): tests/test_gpu.py
    # in one call, everything else in another — and by 2026-12-01 tests/test_gpu.py alone took
    # over one call (562 of 1154 in 560 s: about 19 minutes in all): give it in shards, one call each,
    # TCRAW_TEST_SHARD=1/3 … 3/3 (tests/conftest.py)
    what=tests/test_gpu.py shard=${TCRAW_TEST_SHARD:-}
    [ $part = suite2 ] && what="tests --ignore=tests/test_gpu.py" shard=   # (the shard is test_gpu.py's)
    log="$OUT/pytest_$part${TEST_K:+_k_${TEST_K//[^A-Za-z0-9]/_}}${shard:+_shard_${shard/\//_of_}}.txt"
    # (TEST_K narrows it, e.g. TEST_K=bindings: one backend; shards cut the narrowed collection)
    TCRAW_TEST_SHARD=$shard timeout ${PYTEST_S:-560} $PY -m pytest -q -rs -p no:cacheprovider $what ${TEST_K:+-k "$TEST_K"} > "$log" 2>&1
    echo "pytest exit $?: $(tail -1 "$log")" ;;
  suitepar)
    par=${PAR:-12} calls=${CALLS:-1} call=${CALL:-1}
    for j in $(seq 1 $par); do
      shard=$(( (call - 1) * par + j ))/$(( par * calls ))
      TCRAW_TEST_SHARD=$shard timeout ${PYTEST_S:-540} $PY -m pytest -v -rs -p no:cacheprovider tests/test_gpu.py \
        ${TEST_K:+-k "$TEST_K"} > "$OUT/pytest_par_${shard/\//_of_}.txt" 2>&1 &
    done
    wait
    echo "suitepar call $call of $calls: $(cat "$OUT"/pytest_par_*.txt | grep -c ' PASSED') passed," \
      "$(cat "$OUT"/pytest_par_*.txt | grep -c ' FAILED') failed, $(cat "$OUT"/pytest_par_*.txt | grep -c ' SKIPPED') skipped"
    grep -h " FAILED" "$OUT"/pytest_par_*.txt | head -20 ;;
  small09)
    # (issue 14) 09 (M ≤ 64, B read in place, split-K over every SM): its GPU tests and 06 handing it
    # M ≤ 32 (≤ 48 with N ≥ 4096) with N off 8; compute-sanitizer's four tools over 09 as 06's pick runs
    # it (K in 16, 3 and 1 piece: the third, 782 column tiles, none cut; the fourth three m16 blocks)
    timeout ${PYTEST_S:-200} $PY -m pytest -q -rs -p no:cacheprovider tests/test_gpu.py -k "${PYTEST_K09:-09}" \
      > "$OUT/pytest_small_m.txt" 2>&1
    echo "pytest exit $?: $(tail -1 "$OUT/pytest_small_m.txt")"
    for tool in memcheck racecheck initcheck synccheck; do
      for shape in ${SAN09_SHAPES:-3,1003,4105 29,4099,1571 32,100001,33 45,4101,1571}; do
        set -- ${shape//,/ }
        echo "## $tool M=$1 N=$2 K=$3" >> "$OUT/sanitize_09.log"
        timeout 120 "$CUDA_HOME/bin/compute-sanitizer" --tool $tool --error-exitcode 9 $PY -m tcraw run \
          --kernel wgmma_tma_fp16 -m $1 -n $2 -k $3 --iters 1 --warmup 0 --seed 1 --format json >> "$OUT/sanitize_09.log" 2>&1
        echo "$tool $shape exit $?"
      done
    done
    grep -E "ERROR SUMMARY|RACECHECK SUMMARY|09_mma" "$OUT/sanitize_09.log" | sort | uniq -c ;&
  narrow09)
    # 09 alone where N < 64 (06 never hands it those: a row's span outruns the rows after it), K whole,
    # in 3 pieces and picked — memcheck and initcheck (09's launches alone: cuBLAS's split-K reduce
    # reads workspace it has not written, for initcheck)
    printf "3,5,100\n7,63,333\n32,40,1000\n17,8,4000\n9,44,77\n20,2052,1001\n57,40,1000\n64,2052,333\n" > /tmp/narrow_09.txt
    for tool in memcheck initcheck; do
      timeout 150 "$CUDA_HOME/bin/compute-sanitizer" --tool $tool --kernel-name kns=small_m --error-exitcode 9 $PY scripts/tune_ladder.py \
        --family small --shapes /tmp/narrow_09.txt --variants "" SPLIT=1 SPLIT=3 --iters 1 > "$OUT/sanitize_09_narrow_$tool.log" 2>&1
      echo "$tool narrow exit $?: $(grep -E 'SUMMARY' "$OUT/sanitize_09_narrow_$tool.log" | tail -1)"
    done ;;
  vars09)
    # (issue 14) 09's variants side by side with cuBLAS in one process (VARS09) on scripts/shapes/small_m_09.txt
    timeout ${VARS09_S:-300} $PY scripts/tune_ladder.py --family small --shapes ${SMALL_SHAPES:-scripts/shapes/small_m_09.txt} \
      --precision ${VARS09_P:-fp16} --iters 20 --seed 61 --variants ${VARS09:-STAGES=6 STAGES=4 STAGES=8} \
      > "$OUT/vars09_${VARS09_P:-fp16}.txt" 2>&1
    echo "vars09 exit $?"; tail -12 "$OUT/vars09_${VARS09_P:-fp16}.txt" ;;
  mid09)
    # (issue 14) M of 33–64 (scripts/shapes/mid_m_09.txt): 09 (VARS09_MID) beside cuBLAS, then 06's picks
    timeout ${VARS09_S:-300} $PY scripts/tune_ladder.py --family small --shapes scripts/shapes/mid_m_09.txt \
      --precision fp16 --iters 20 --seed 67 --variants ${VARS09_MID:-STAGES=6} > "$OUT/mid09_09_fp16.txt" 2>&1
    echo "09 exit $?"; tail -4 "$OUT/mid09_09_fp16.txt"
    timeout ${SMALLM_S:-250} $PY -m tcraw bench --shapes scripts/shapes/mid_m_09.txt --precision fp16 \
      --kernel wgmma_tma_fp16 --iters 20 --seed 67 > "$OUT/mid09_06_fp16.txt" 2>&1
    echo "06 exit $?"; grep -A3 geomean "$OUT/mid09_06_fp16.txt" | tail -2 ;;
  prof09)
    # (issue 14) Nsight Compute over one launch of 09 (its pick's split) at M = 1 and 32, N off 8 and on:
    # where its warps stall, what it asks of L1, L2 and DRAM (the full set, kept as reports)
    for shape in ${PROF09_SHAPES:-1,11037,15699 32,11000,11784}; do
      echo $shape > /tmp/prof09_shape.txt
      timeout ${NCU_S:-150} ncu --clock-control none --set full -k regex:small_m -c 1 -f -o "$OUT/prof09_${shape//,/x}" \
        $PY scripts/tune_ladder.py --family small --shapes /tmp/prof09_shape.txt --variants "${PROF09_VARIANT:-}" --iters 1 \
        > "$OUT/prof09_${shape//,/x}.log" 2>&1
      echo "ncu $shape exit $?"
      ncu -i "$OUT/prof09_${shape//,/x}.ncu-rep" --page details > "$OUT/prof09_${shape//,/x}_details.txt" 2>&1
      ncu -i "$OUT/prof09_${shape//,/x}.ncu-rep" --page raw --csv > "$OUT/prof09_${shape//,/x}_raw.csv" 2>&1
      ncu -i "$OUT/prof09_${shape//,/x}.ncu-rep" --page source --csv --print-source sass > "$OUT/prof09_${shape//,/x}_sass.csv" 2>&1
      grep -E "Duration|DRAM Throughput|Memory Throughput|Issue Slots Busy|Warp Cycles Per Issued|Registers Per|Achieved Occupancy|Grid Size" \
        "$OUT/prof09_${shape//,/x}_details.txt" | head -12
    done ;;
  small06)
    # (issue 14) 06's picks on the same shapes, fp16 and bf16, against cuBLAS (SMALL_SHAPES)
    for p in ${SMALL_PS:-fp16}; do
      timeout ${SMALLM_S:-250} $PY -m tcraw bench --shapes ${SMALL_SHAPES:-scripts/shapes/small_m_09.txt} --precision $p \
        --kernel wgmma_tma_$p --iters 20 --seed 59 > "$OUT/small_m_06_$p.txt" 2>&1
      echo "06 $p exit $?"; grep -A3 geomean "$OUT/small_m_06_$p.txt" | tail -2
    done ;;
  pairs64)
    # (issue 14) cuBLAS's tile at 1024×1024×8192 — swapped 128 (N) × 64 (M) tiles in pairs along M
    # sharing B's columns (SWAP_AB=1, SHARE_A=1, CLUSTER=2), whole K — with and without a slice's
    # MMAs in flight, 128 × 128 swapped pairs, one consumer's 64×128 pairs, beside the picks
    timeout ${P64_S:-420} $PY scripts/tune_ladder.py --family wgmma --shapes ${P64_SHAPES:-scripts/shapes/pairs_64.txt} \
      --precision ${P64_P:-fp16} --iters 20 --seed 71 --variants picked ${P64_VARIANTS:-SWAP_AB=1,CONSUMERS=2,BN=64,CLUSTER=2,SHARE_A=1,STAGES=8 \
      SWAP_AB=1,CONSUMERS=2,BN=64,CLUSTER=2,SHARE_A=1,STAGES=8,WAIT_DEPTH=1 SWAP_AB=1,CONSUMERS=2,BN=128,CLUSTER=2,SHARE_A=1,STAGES=6 \
      CONSUMERS=1,BN=128,CLUSTER=2,STAGES=8} > "$OUT/pairs64_${P64_P:-fp16}.txt" 2>&1
    echo "pairs64 exit $?"; tail -${P64_TAIL:-40} "$OUT/pairs64_${P64_P:-fp16}.txt" ;;
  stream128)
    # (issue 14) M of 65–128 streaming B (scripts/shapes/m128_stream.txt): one consumer's 64×192 and
    # 64×256 tiles in pairs along M, 128×256 cut in 3, 64×128 pairs, beside the picks
    timeout ${M128_S:-400} $PY scripts/tune_ladder.py --family wgmma --shapes ${M128_SHAPES:-scripts/shapes/m128_stream.txt} \
      --precision ${M128_P:-fp16} --iters 20 --seed 79 --variants picked ${M128_VARIANTS:-CONSUMERS=1,BN=192,CLUSTER=2,STAGES=6 \
      CONSUMERS=1,BN=256,CLUSTER=2,STAGES=5 BN=256,CLUSTER=1,STAGES=4 CONSUMERS=1,BN=128,CLUSTER=2,STAGES=8} \
      > "$OUT/m128_${M128_P:-fp16}.txt" 2>&1
    echo "stream128 exit $?"; tail -${M128_TAIL:-8} "$OUT/m128_${M128_P:-fp16}.txt" ;;
  widefresh)
    # (issue 14) kernels.wgmma_pairs_wide's pick on fresh shapes where it fires
    # (scripts/shapes/wide_pairs_fresh.txt) beside the picks it replaces — 128×256 and 128×128 in
    # clusters of 1, 64×256 in pairs (unchanged where that was the pick) — fp16 and bf16
    for p in ${WIDE_PS:-fp16 bf16}; do
      timeout ${WIDE_S:-250} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/wide_pairs_fresh.txt \
        --precision $p --iters 20 --seed 83 --variants picked BN=256,CLUSTER=1,STAGES=4 BN=128,CLUSTER=1,STAGES=6 \
        CONSUMERS=1,BN=256,CLUSTER=2,STAGES=5 CONSUMERS=1,BN=192,CLUSTER=2,STAGES=6 > "$OUT/wide_fresh_$p.txt" 2>&1
      echo "widefresh $p exit $?"; tail -8 "$OUT/wide_fresh_$p.txt"
    done ;;
  widecheck)
    # (issue 14) the wide pairs (kernels.wgmma_pairs_wide): 64×192 in pairs at the edges (GPU test),
    # the picks where the rule fires (M off 64, N off 192 and off 8, K off 8) verified, compute-
    # sanitizer's four tools over one; then the mid-M and llm suites (the two shapes a suite moves),
    # fp16 and bf16
    # (the configuration's test id: CONSUMERS=1+BN=192+CLUSTER=2+STAGES=6 — -k cannot spell "=")
    gpu_tests "every_06_configuration_is_correct_at_the_edges and 1+BN and 192" wide
    for p in fp16 bf16; do
      timeout 120 $PY -m tcraw bench --shapes scripts/shapes/wide_pairs_picks.txt --precision $p --kernel wgmma_tma_$p --iters 5 \
        --seed 89 > "$OUT/wide_picks_$p.txt" 2>&1
      echo "picks $p exit $?"; grep -E "^wgmma" "$OUT/wide_picks_$p.txt" | awk '{print $3, $7, $10, $11}'
    done
    for tool in memcheck racecheck initcheck synccheck; do
      echo "## $tool 77 10015 4105" >> "$OUT/sanitize_wide.log"
      timeout 120 "$CUDA_HOME/bin/compute-sanitizer" --tool $tool --error-exitcode 9 $PY -m tcraw run --kernel wgmma_tma_fp16 \
        -m 77 -n 10015 -k 4105 --iters 1 --warmup 0 --seed 1 --format json >> "$OUT/sanitize_wide.log" 2>&1
      echo "$tool exit $?"
    done
    grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$OUT/sanitize_wide.log"
    for p in fp16 bf16; do   # (150 s cut both at 27 / 25 of llm's 30 shapes: give the suites a call of their own)
      timeout ${SUITES_S:-150} $PY -m tcraw bench --shapes scripts/shapes/mid_m.txt,llm --precision $p --kernel wgmma_tma_$p \
        --iters 10 --seed 37 > "$OUT/suites_mid_llm_$p.txt" 2>&1
      echo "suites $p exit $?"; grep -A4 "geomean" "$OUT/suites_mid_llm_$p.txt" | tail -3
    done ;;
  pairsover)
    # (issue 14) one consumer's pairs along M (64×128, 64×192, 64×256 in clusters of 2, K whole) beside
    # two consumers' 128-row picks at M of 65–128 (scripts/shapes/pairs_over_two_consumers_fresh.txt), fp16
    timeout ${POVER_S:-300} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/pairs_over_two_consumers_fresh.txt \
      --precision ${POVER_P:-fp16} --iters 10 --seed 97 --variants picked CONSUMERS=1,BN=128,CLUSTER=2,STAGES=8 \
      CONSUMERS=1,BN=192,CLUSTER=2,STAGES=6 CONSUMERS=1,BN=256,CLUSTER=2,STAGES=5 > "$OUT/pairs_over_${POVER_P:-fp16}.txt" 2>&1
    echo "pairsover exit $?"; tail -7 "$OUT/pairs_over_${POVER_P:-fp16}.txt" ;;
  realign)
    # (issue 14) B read in place whatever N (B_REALIGN): its GPU test (every N mod 8, K's tail rows, edges,
    # split-K; clusters of 1, 2, 4), then the picks with and without it on scripts/shapes/b_realign.txt
    gpu_tests "realigning_b" realign
    for p in ${REALIGN_PS:-fp16}; do
      timeout ${REALIGN_S:-300} $PY scripts/tune_ladder.py --family wgmma --shapes ${REALIGN_SHAPES:-scripts/shapes/b_realign.txt} \
        --precision $p --iters 20 --seed 101 --variants picked ${REALIGN_VARIANTS:-picked:B_REALIGN=1} > "$OUT/realign_$p.txt" 2>&1
      echo "realign $p exit $?"; tail -${REALIGN_TAIL:-30} "$OUT/realign_$p.txt"
    done ;;
  realigncheck)
    # (issue 14) B_REALIGN's pick (kernels.wgmma_realigns_b): the GPU tests of 06 and 09 (06 at the
    # edges, B realigned, 09; REALIGN_TESTS another -k), its picks on fresh shapes beside 06 with B
    # copied in one consumer's 64-, 128- and 256-column tiles (fp16, bf16), then compute-sanitizer's
    # four tools over two problems that realigned when run (K's tail rows, K below a slice)
    gpu_tests "${REALIGN_TESTS:-realigning_b or no_tile_divides or 09_reads}" realigncheck
    for p in fp16 bf16; do
      timeout ${REALIGN_S:-150} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/b_realign_fresh.txt \
        --precision $p --iters 20 --seed 103 --variants picked CONSUMERS=1,BN=64,CLUSTER=1,STAGES=8 CONSUMERS=1,BN=128,CLUSTER=1,STAGES=8 \
        CONSUMERS=1,BN=256,CLUSTER=1,STAGES=5 > "$OUT/realign_fresh_$p.txt" 2>&1
      echo "fresh $p exit $?"; tail -4 "$OUT/realign_fresh_$p.txt"
    done
    for shape in "61 1001 555" "37 3001 61"; do
      set -- $shape
      for tool in memcheck racecheck initcheck synccheck; do
        echo "## $tool $shape" >> "$OUT/sanitize_realign.log"
        timeout 90 "$CUDA_HOME/bin/compute-sanitizer" --tool $tool --error-exitcode 9 $PY -m tcraw run --kernel wgmma_tma_fp16 \
          -m $1 -n $2 -k $3 --iters 1 --warmup 0 --seed 1 --format json >> "$OUT/sanitize_realign.log" 2>&1
        echo "$tool $shape exit $?"
      done
    done
    grep -E "ERROR SUMMARY|RACECHECK SUMMARY|\"config\"" "$OUT/sanitize_realign.log" | sort | uniq -c ;;
  widebusy)
    # (issue 14) the realigning configurations' GPU edge test (both backends), then the wide pairs
    # with 70 % of the clusters busy (WIDE_PAIRS_BUSY 0.7) on scripts/shapes/wide_pairs_70_fresh.txt: the
    # pick (two consumers' 128-row tiles at 0.8) beside 64×192 and 64×256 pairs, fp16
    gpu_tests "every_06_configuration and B_REALIGN" realign_configs
    timeout ${WIDE_S:-250} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/wide_pairs_70_fresh.txt \
      --precision ${WIDE_P:-fp16} --iters 20 --seed 109 --variants picked CONSUMERS=1,BN=192,CLUSTER=2,STAGES=6 \
      CONSUMERS=1,BN=256,CLUSTER=2,STAGES=5 > "$OUT/wide70_${WIDE_P:-fp16}.txt" 2>&1
    echo "wide70 exit $?"; tail -6 "$OUT/wide70_${WIDE_P:-fp16}.txt" ;;
  streamall)
    # (issue 14) few 128×128 tiles (70–80 % of the clusters): the picks beside stream-K over every tile
    # in pieces of a quarter / a third of a tile or more (scripts/shapes/few_tiles_stream_all.txt)
    timeout ${SALL_S:-200} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/few_tiles_stream_all.txt \
      --precision ${SALL_P:-fp16} --iters 20 --seed 113 --variants picked picked:SPLIT_K=0,STREAM_K_ROUNDS=0,STREAM_K_DIV=4 \
      picked:SPLIT_K=0,STREAM_K_ROUNDS=0,STREAM_K_DIV=3 > "$OUT/stream_all_${SALL_P:-fp16}.txt" 2>&1
    echo "streamall exit $?"; tail -6 "$OUT/stream_all_${SALL_P:-fp16}.txt" ;;
  realignlast)
    # (issue 14) 09 on the fresh shapes where it was the pick before B_REALIGN (b_realign_fresh_09.txt)
    # and the pick there now (06 realigning), fp16 and bf16; compute-sanitizer's memcheck and racecheck
    # over realigning picks (K of 16 slices or more), 64×128 tiles in clusters of 2 and 128×128 in
    # clusters of 4 realigning (their class boxes multicast)
    for p in fp16 bf16; do
      timeout 100 $PY scripts/tune_ladder.py --family small --shapes scripts/shapes/b_realign_fresh_09.txt --precision $p \
        --iters 20 --seed 103 --variants "" > "$OUT/realign_fresh_09_$p.txt" 2>&1
      echo "09 $p exit $?"; tail -3 "$OUT/realign_fresh_09_$p.txt"
      timeout 100 $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/b_realign_fresh_09.txt --precision $p \
        --iters 20 --seed 103 --variants picked > "$OUT/realign_fresh_09_picks_$p.txt" 2>&1
      echo "06 $p exit $?"; tail -3 "$OUT/realign_fresh_09_picks_$p.txt"
    done
    sanitize_configs realign fp16:60x1001x1555 bf16:40x3001x1100 fp16:64x2999x4099:CONSUMERS=1,BN=128,CLUSTER=2,B_REALIGN=1 \
      fp16:130x1003x1100:CONSUMERS=2,BN=128,CLUSTER=4,B_REALIGN=1 ;;
  owntests)
    timeout ${OWN_S:-240} $PY -m pytest -v -rs -p no:cacheprovider tests/test_user_kernels.py \
      tests/test_unusual_kernels.py tests/test_cubin_only.py > "$OUT/pytest_own.txt" 2>&1
    echo "pytest exit $?: $(tail -1 "$OUT/pytest_own.txt")" ;;
  lines)
    timeout ${LINES_S:-300} $PY scripts/lines_study.py --shapes ${LINES_SHAPES:-scripts/shapes/lines.txt} \
      --precision ${LINES_KEY:-fp16} > "$OUT/lines_${LINES_KEY:-fp16}.txt" 2>&1
    echo "lines exit $?"; tail -28 "$OUT/lines_${LINES_KEY:-fp16}.txt" ;;
  cubinonly)
    names() { $PY -c "from tcraw import kernels; print(' '.join(k for k in kernels.KERNELS if $1))"; }
    rest=$(names "not k.startswith('wgmma_')"); kmajor=$(names "'kmajor' in k")
    i=0
    for group in wgmma_tma_fp16 wgmma_tma_bf16 "$kmajor" "$rest"; do
      i=$((i + 1))
      (timeout ${WARM_S:-240} $PY -m tcraw compile --arch sm_90,sm_80 --kernel "$group" --out /tmp/cubins_$i \
        --format json > /dev/null 2> "$OUT/compile_$i.err"
       echo "compile group $i exit $?" >> "$OUT/compile_exits.txt") &
    done
    wait; cat "$OUT/compile_exits.txt"
    timeout ${OWN_S:-240} $PY -m pytest -v -rs --tb=short -p no:cacheprovider tests/test_cubin_only.py \
      > "$OUT/pytest_cubin_only.txt" 2>&1
    echo "pytest exit $?: $(tail -1 "$OUT/pytest_cubin_only.txt")" ;;
  closing)
    KERNELS=dmma_fp64 timeout ${SANITIZE_S:-150} bash scripts/sanitize.sh "$OUT/sanitize_08.log" | tail -3
    timeout ${LADDERS_S:-120} $PY -m tcraw bench --precision fp64 --sizes 4096,6144,8192 --iters 20 --seed 7 \
      --out "$OUT/fp64_ladder" > "$OUT/fp64_ladder.txt" 2>&1
    echo "fp64 ladder exit $?"; grep -E "^(cublas|dmma|wmma)" "$OUT/fp64_ladder.txt"
    for p in fp16 bf16; do
      shapes=scripts/shapes/mid_m.txt; [ $p = fp16 ] && shapes=scripts/shapes/mid_m.txt,odd
      timeout ${MID_S:-120} $PY -m tcraw bench --shapes $shapes --precision $p --kernel wgmma_tma_$p --iters 20 \
        --seed 7 > "$OUT/mid_m_$p.txt" 2>&1
      echo "mid-M $p exit $?"; grep -A3 geomean "$OUT/mid_m_$p.txt" | grep -v '^--'
    done ;;
  *) echo "unknown part $part: see the list at the top of $0"; exit 2 ;;
  esac
done
