#!/usr/bin/env bash
# (issue 14) Two accumulator sets (06's ACC_SETS=2): a consumer's slices alternate between two
# sets, so the slice in flight (WAIT_DEPTH=1) and the next one do not chain through one
# accumulator — what cuBLAS's 64-wide tiles do at 1024×1024×8192 (docs/facts.md). Measured no
# faster (docs/results/2026-12-04-h200-acc-sets-fours/), ACC_SETS came out again: check out
# commit 50c7e86 and run its copy of this script there. Device calls in parts, logs under $OUT:
#   in_flight  picks that keep a slice in flight already (one consumer; small swapped tiles):
#              the pick, and the pick with ACC_SETS=2 (scripts/shapes/acc_sets_in_flight.txt), fp16
#   two        two consumers' picks that wait for every slice: the pick, with WAIT_DEPTH=1, and
#              with ACC_SETS=2 (scripts/shapes/acc_sets_two_consumers.txt), fp16
#   tile       cuBLAS's own tile there (128 of N × 64 of M, two consumers, pairs along M sharing
#              B, 8 stages) with and without the two sets, beside the pick
#              (scripts/shapes/acc_sets_cublas_tile.txt), fp16
#   OUT=out bash scripts/gpu_acc_sets.sh in_flight two tile
source "$(dirname "$0")/gpu_env.sh"
write_env
for part in "$@"; do
  case $part in
  in_flight)
    ladder fp16 acc_in_flight 200 301 scripts/shapes/acc_sets_in_flight.txt picked picked:ACC_SETS=2 ;;
  two)
    ladder fp16 acc_two 200 302 scripts/shapes/acc_sets_two_consumers.txt picked picked:WAIT_DEPTH=1 picked:ACC_SETS=2 ;;
  tile)
    t=SWAP_AB=1,CONSUMERS=2,BN=64,CLUSTER=2,SHARE_A=1,STAGES=8,WAIT_DEPTH=1
    ladder fp16 acc_tile 150 303 scripts/shapes/acc_sets_cublas_tile.txt picked $t $t,ACC_SETS=2 ;;
  *) echo "unknown part $part: see the list at the top of $0"; exit 2 ;;
  esac
done
