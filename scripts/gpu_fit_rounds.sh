#!/usr/bin/env bash
# (issue 14) M of a few hundred (257–1056) against N of 7–16 K, past one round, where 06's pick pads
# M to whole pairs of 128- or 192-row tiles (600 → 768) or runs 192-row tiles in rounds: two
# consumers' swapped tiles that fit M (128 of N by BN of M) over more than one round, beside the
# pick, fp16. Device calls in parts, logs under $OUT:
#   rounds   M of 481–768 (scripts/shapes/fit_rounds_BN.txt, BN 128–192: 3–4 shapes each): 4 tiles of
#            M in clusters of 2 along N and in 2 × 2 (SHARE_A), and 128×256 in clusters of 1, each with
#            stream-K cutting any last partial round (STREAM_K_ROUNDS=0)
#   wide     scripts/shapes/fit_rounds_208.txt (M of 385–416 and 769–832): 2 × 2 swapped tiles of 208 of M
#            (2 and 4 of M) beside the pick, in as many rounds as they take
#   more     scripts/shapes/fit_rounds_more_BN.txt (BN 160, 176): 2 × 2 swapped tiles of BN of M beside the
#            pick at M of 289–352 (2 tiles of M) and 865–1056 (6), past one round
#   fresh    the rule that came of it (kernels.wgmma_swaps_over_rounds) on shapes drawn after it
#            (scripts/shapes/fit_rounds_fresh.txt): the pick before it (OLD_TREE: a copy of tcraw,
#            cuda_src and scripts at the commit before, `mkdir old && git archive REV tcraw cuda_src
#            scripts | tar -x -C old`) and after, each in its own process, in turn (gpu_weak_fresh.sh's
#            threefresh: fp16 old, new, old, new; bf16 old, new — THREE_RUNS others); FRESH_SHAPES
#            another file (scripts/shapes/fit_rounds_208_fresh.txt: drawn after the rule took 208 of M)
#   checks   the GPU tests of the fit picks, then compute-sanitizer's memcheck, racecheck and
#            synccheck over 2 × 2 swapped tiles in two rounds (N off 8: pitched), integer inputs;
#            CHECK_BN=208 the same over 208 of M (2 tiles of M at 401, 4 at 813)
#   OUT=out bash scripts/gpu_fit_rounds.sh rounds
source "$(dirname "$0")/gpu_env.sh"
write_env
for part in "$@"; do
  case $part in
  rounds)
    for bn in ${ROUNDS_BN:-128 144 160 176 192}; do
      st=$($PY -c "from tcraw import kernels; print(kernels.wgmma_max_stages(2, $bn, swap=True))")
      sw=SWAP_AB=1,CONSUMERS=2,BN=$bn,STAGES=$st,STREAM_K_ROUNDS=0
      ladder fp16 rounds_${bn}_fp16 ${ROUNDS_S:-150} 410 scripts/shapes/fit_rounds_$bn.txt picked $sw,CLUSTER=2 \
        $sw,CLUSTER=4,SHARE_A=1 CONSUMERS=2,BN=256,CLUSTER=1,STAGES=4,STREAM_K_ROUNDS=0
    done ;;
  wide)
    ladder fp16 rounds_208_fp16 ${ROUNDS_S:-150} 411 scripts/shapes/fit_rounds_208.txt picked \
      SWAP_AB=1,CONSUMERS=2,BN=208,CLUSTER=4,SHARE_A=1,STAGES=4 ;;
  more)
    for bn in 160 176; do
      st=$($PY -c "from tcraw import kernels; print(kernels.wgmma_max_stages(2, $bn, swap=True))")
      ladder fp16 rounds_more_${bn}_fp16 ${ROUNDS_S:-150} 412 scripts/shapes/fit_rounds_more_$bn.txt picked \
        SWAP_AB=1,CONSUMERS=2,BN=$bn,CLUSTER=4,SHARE_A=1,STAGES=$st
    done ;;
  fresh)
    THREE_SHAPES=${FRESH_SHAPES:-scripts/shapes/fit_rounds_fresh.txt} bash "$(dirname "$0")/gpu_weak_fresh.sh" threefresh ;;
  checks)
    PYTEST_S=300 gpu_tests "swapped_tiles_that_fit_m" fit_checks
    sw=SWAP_AB=1,CONSUMERS=2,CLUSTER=4,SHARE_A=1
    if [ "${CHECK_BN:-}" = 208 ]; then
      SAN_TOOLS="memcheck racecheck synccheck" SAN_S=150 sanitize_configs fit_rounds_208 \
        fp16:401x8001x264:$sw,BN=208,STAGES=4 bf16:813x4001x520:$sw,BN=208,STAGES=4
    else
      SAN_TOOLS="memcheck racecheck synccheck" SAN_S=150 sanitize_configs fit_rounds fp16:600x4001x264:$sw,BN=160,STAGES=5 \
        bf16:661x4001x777:$sw,BN=176,STAGES=4
    fi ;;
  *) echo "unknown part $part: see the list at the top of $0"; exit 2 ;;
  esac
done
