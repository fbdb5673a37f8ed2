#!/usr/bin/env bash
# (issue 14) The fourth survey's weak shapes (scripts/shapes/weak_fresh_4*.txt): which kernel cuBLAS
# runs there, and 06's pick beside other configurations, fp16. Device calls in parts, logs under $OUT:
#   names   Nsight Compute's name, grid and cluster of cuBLAS's kernels at weak_fresh_4.txt
#   fit     M of 257–320 in two 192-row tiles: swapped tiles of three consumers (192 of N) by 144 /
#           160 of M (2 tiles of M, 130 tiles at these N: one round), in clusters of 1 and 2 (run 2 of
#           docs/results/2026-12-04-h200-survey-4/ ran it in a copy whose kernels built them past 64
#           of M, before this tree's)
#   waves   M 400–3304 with rows off lines: 128×256 in clusters of 2, 192×192, stream-K over any
#           last partial round (STREAM_K_ROUNDS=0)
#   small   56×6816×3688 and 200×864×8056 beside swapped tiles
#   three   M of 257–320 (scripts/shapes/swapped_three_144.txt, _160.txt): three consumers' swapped
#           tiles of 144 / 160 of M (2 tiles of M) in pairs along M sharing B's columns (cuBLAS's
#           192x144 / 192x160 1x2 there), along N sharing A's rows, and 2 × 2, beside the pick
#   threefresh  the rule that came of it (kernels.FIT_THREE_CONFIGS) on shapes drawn after it
#           (scripts/shapes/swapped_three_fresh.txt): the pick before it (OLD_TREE: a copy of
#           tcraw, cuda_src and scripts at 9129eda, the commit before — `mkdir old && git archive
#           9129eda tcraw cuda_src scripts | tar -x -C old`) and after, each in its own process,
#           in turn — fp16 old, new, old, new; bf16 old, new (THREE_RUNS); THREE_SHAPES another file
#           (scripts/shapes/swapped_three_lines.txt: rows on 128-byte lines), logs named by its stem
#   threechecks  the GPU tests of the pick and of three consumers' wide swapped tiles, then
#           compute-sanitizer's memcheck, racecheck and synccheck over both forms at the edges
#           (split-K; N off 8: pitched), integer inputs
#   OUT=out bash scripts/gpu_weak_fresh.sh names fit waves small
source "$(dirname "$0")/gpu_env.sh"
write_env
for part in "$@"; do
  case $part in
  names)
    NAMES_SHAPES=scripts/shapes/weak_fresh_4.txt NAMES_S=150 bash "$(dirname "$0")/gpu_issue18_session.sh" cublasnames ;;
  fit)
    s3=SWAP_AB=1,CONSUMERS=3
    ladder fp16 fit_fp16 150 401 scripts/shapes/weak_fresh_4_fit.txt picked $s3,BN=144,CLUSTER=2 $s3,BN=160,CLUSTER=2,STAGES=3 \
      $s3,BN=144,CLUSTER=1 $s3,BN=160,CLUSTER=1,STAGES=3 $s3,BN=144,CLUSTER=2,WAIT_DEPTH=0 ;;
  waves)
    ladder fp16 waves_fp16 200 402 scripts/shapes/weak_fresh_4_waves.txt picked picked:STREAM_K_ROUNDS=0 \
      CONSUMERS=2,BN=256,CLUSTER=2,STAGES=4 CONSUMERS=2,BN=256,CLUSTER=2,STAGES=4,STREAM_K_ROUNDS=0 \
      CONSUMERS=3,BN=192,CLUSTER=2,STAGES=3 CONSUMERS=2,BN=128,CLUSTER=2,STAGES=6 ;;
  small)
    ladder fp16 small_fp16 120 403 scripts/shapes/weak_fresh_4_small.txt picked SWAP_AB=1,CONSUMERS=3,BN=64,CLUSTER=2 \
      SWAP_AB=1,CONSUMERS=2,BN=64,CLUSTER=2 SWAP_AB=1,CONSUMERS=1,BN=64,CLUSTER=2 CONSUMERS=1,BN=64,CLUSTER=2,STAGES=8 ;;
  three)
    s3=SWAP_AB=1,CONSUMERS=3
    ladder fp16 three_144_fp16 200 404 scripts/shapes/swapped_three_144.txt picked $s3,BN=144,CLUSTER=2,SHARE_A=1 \
      $s3,BN=144,CLUSTER=2 $s3,BN=144,CLUSTER=4,SHARE_A=1
    ladder fp16 three_160_fp16 200 405 scripts/shapes/swapped_three_160.txt picked $s3,BN=160,CLUSTER=2,SHARE_A=1,STAGES=3 \
      $s3,BN=160,CLUSTER=2,STAGES=3 $s3,BN=160,CLUSTER=4,SHARE_A=1,STAGES=3 ;;
  threefresh)
    shapes=${THREE_SHAPES:-scripts/shapes/swapped_three_fresh.txt} stem=$(basename "${THREE_SHAPES:-three_fresh}" .txt)
    for run in ${THREE_RUNS:-fp16:old fp16:new fp16:old2 fp16:new2 bf16:old bf16:new}; do
      key=${run%:*} which=${run#*:}
      tree=$([ "${which%2}" = old ] && echo "${OLD_TREE:?a copy of the tree before the rule}" || echo .)
      in_tree 150 "$tree" "three_$which" --family wgmma --precision $key --shapes "$PWD/$shapes" \
        --iters 100 --seed 406 --variants picked > "$OUT/${stem}_${key}_$which.txt" 2>&1
      echo "$run exit $?: $(grep -c PASS "$OUT/${stem}_${key}_$which.txt") passed"
    done ;;
  threechecks)
    PYTEST_S=300 gpu_tests "swapped_wide and C3 or swapped_tiles_that_fit" three_checks
    SAN_TOOLS="memcheck racecheck synccheck" SAN_S=150 sanitize_configs three fp16:272x1237x520:SWAP_AB=1,CONSUMERS=3,BN=144,CLUSTER=2,SHARE_A=1 \
      bf16:280x997x1003:SWAP_AB=1,CONSUMERS=3,BN=144,CLUSTER=4,SHARE_A=1 ;;
  *) echo "unknown part $part: see the list at the top of $0"; exit 2 ;;
  esac
done
