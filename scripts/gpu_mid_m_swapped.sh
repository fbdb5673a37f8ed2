#!/usr/bin/env bash
# (issue 14) 06's swapped 64×48 tiles for M of 33–48 streaming B (kernels.wgmma_streams_b_swapped):
# device calls in parts, logs under $OUT
#   check   the GPU tests of the pick and of its configuration at the edges, then compute-sanitizer's
#           memcheck, racecheck and synccheck over it (partial tiles, an odd count, K off a slice)
#   time    fresh shapes where the rule fires (scripts/shapes/mid_m_swapped_check.txt), fp16 and
#           bf16: the pick beside what was picked before it (one consumer's 64×64, clusters of 1)
#   small   M of 17–32 (scripts/shapes/small_m_one_consumer.txt): the swapped pick (two consumers)
#           beside one consumer's 64 of N by 32 with the most stages, clusters of 1 and 2
#   stages  the pick's tiles with 8 stages (what the pick built in run 3: _with_stages' most) beside
#           14 (the most that fit: what run 2 timed), on both shape files of the rule
#   bounds  just past the rule's bounds (scripts/shapes/mid_m_swapped_bounds.txt: shorter K, fewer
#           tiles, two rounds): the pick beside the rule's configuration
#   shortk  fresh shapes with K of 32–95 slices (scripts/shapes/mid_m_swapped_short_k.txt): the
#           pick beside the rule's configuration
#   fill    fresh shapes with 37–60 tiles of N (scripts/shapes/mid_m_swapped_fill.txt): the same
#   offlines  M of 17–48 streaming B with rows 16 bytes off 32 (scripts/shapes/stream_b_off_lines_small.txt,
#           _mid.txt): the pick beside its tiles in other clusters; which kernel cuBLAS runs at 20×7000×8192
#   wider   with the bounds moved (32 slices, 48 tiles): fresh shapes the move takes
#           (scripts/shapes/mid_m_swapped_wider.txt), fp16 and bf16, the pick beside the earlier
#           picks (one consumer's 64×64 or 64×128, clusters of 1); then the GPU test of the pick and
#           compute-sanitizer's memcheck and racecheck at two of the new corners (split-K in 2)
#   OUT=out bash scripts/gpu_mid_m_swapped.sh check time
source "$(dirname "$0")/gpu_env.sh"
write_env
TL="$PY scripts/tune_ladder.py --family wgmma"
for part in "$@"; do
  case $part in
  check)
    PYTEST_S=${PYTEST_S:-200} gpu_tests "streaming_b_for_m or (every_06_configuration and 48+CLUSTER)" swapped
    SAN_TOOLS="memcheck racecheck synccheck" SAN_S=100 sanitize_configs swapped fp16:41x5000x6200 bf16:33x4168x6152 ;;
  time)
    for p in fp16 bf16; do
      timeout 200 $TL --precision $p --shapes scripts/shapes/mid_m_swapped_check.txt --iters 20 --seed 125 \
        --variants picked CONSUMERS=1,BN=64,CLUSTER=1,STAGES=8 > "$OUT/swapped_check_$p.txt" 2>&1
      echo "time $p exit $?"; ties "$OUT/swapped_check_$p.txt"
    done ;;
  small)
    S=SWAP_AB=1,CONSUMERS=1,BN=32
    timeout 200 $TL --precision fp16 --shapes scripts/shapes/small_m_one_consumer.txt --iters 20 --seed 126 \
      --variants picked $S,CLUSTER=1,STAGES=17 $S,CLUSTER=2,STAGES=17 > "$OUT/small_m_one_consumer_fp16.txt" 2>&1
    echo "small exit $?"; ties "$OUT/small_m_one_consumer_fp16.txt" ;;
  stages)
    S=SWAP_AB=1,CONSUMERS=1,BN=48,CLUSTER=2
    for f in mid_m_swapped_check mid_m_long_k_aligned; do
      timeout 200 $TL --precision fp16 --shapes scripts/shapes/$f.txt --iters 20 --seed 127 \
        --variants $S,STAGES=8 $S,STAGES=14 $S,STAGES=11 > "$OUT/stages_$f.txt" 2>&1
      echo "stages $f exit $?"; ties "$OUT/stages_$f.txt"
    done ;;
  bounds|shortk|fill)
    f=mid_m_swapped_${part/shortk/short_k}
    timeout 200 $TL --precision fp16 --shapes scripts/shapes/$f.txt --iters 20 --seed 128 \
      --variants picked SWAP_AB=1,CONSUMERS=1,BN=48,CLUSTER=2,STAGES=8 > "$OUT/${part}_fp16.txt" 2>&1
    echo "$part exit $?"; ties "$OUT/${part}_fp16.txt" ;;
  wider)
    for p in fp16 bf16; do
      timeout 150 $TL --precision $p --shapes scripts/shapes/mid_m_swapped_wider.txt --iters 20 --seed 130 \
        --variants picked CONSUMERS=1,BN=64,CLUSTER=1,STAGES=8 CONSUMERS=1,BN=128,CLUSTER=1,STAGES=8 \
        > "$OUT/wider_$p.txt" 2>&1
      echo "wider $p exit $?"; ties "$OUT/wider_$p.txt"
    done
    PYTEST_S=${PYTEST_S:-150} gpu_tests "streaming_b_for_m" wider
    SAN_S=100 sanitize_configs wider fp16:37x3096x2056 bf16:38x3328x2304 ;;
  offlines)
    # (the pick's CLUSTER is its own: fixed variants beside it; 48-wide tiles take clusters of 1 or 2)
    S=SWAP_AB=1,STAGES=8
    for f in small mid; do
      v=$([ $f = small ] && echo "$S,CONSUMERS=2,BN=32,CLUSTER=2 $S,CONSUMERS=2,BN=32,CLUSTER=4" \
        || echo "$S,CONSUMERS=1,BN=48,CLUSTER=1 $S,CONSUMERS=1,BN=64,CLUSTER=4")
      timeout 200 $TL --precision fp16 --shapes scripts/shapes/stream_b_off_lines_$f.txt --iters 20 --seed 129 \
        --variants picked $v > "$OUT/offlines_${f}_fp16.txt" 2>&1
      echo "offlines $f exit $?"; ties "$OUT/offlines_${f}_fp16.txt"
    done
    cublas_kernel "20 7000 8192" ;;
  *) echo "unknown part $part: see the list at the top of $0"; exit 2 ;;
  esac
done
