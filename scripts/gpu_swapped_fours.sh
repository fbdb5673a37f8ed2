#!/usr/bin/env bash
# (issue 14) M ≤ 16's swapped 128 × 16 tiles in clusters of 4 along N where B's rows lie off
# 128-byte lines — cuBLAS's own tile there — each block copying 4 of A's 16 rows for all four, a
# piece that starts mid 8-row swizzle atom (swapped tiles now take any multiple of 16 in any
# cluster). Tried as a rule (wgmma_swapped_fours, in one round of the clusters of 4 held): no
# faster on shapes drawn after it, and taken out
# (docs/results/2026-12-04-h200-acc-sets-fours/, runs 5–6). Device calls in parts, logs under $OUT:
#   tests     the GPU tests of swapped tiles (BN 16 in clusters of 4; BN 80 in clusters of 4: 20-row
#             pieces) and of small M
#   sanitize  compute-sanitizer memcheck, racecheck and synccheck over clusters of 4 at BN 16 (the
#             last tile partly past N and a cluster's last blocks wholly past it, split K, pitched
#             rows) and at BN 80, integer inputs
#   fresh     the same tiles in clusters of 4 and of 2 (the pick) on 15 shapes drawn after the rule
#             (scripts/shapes/swapped_fours_fresh_16.txt), fp16 and bf16 (run 5's "picked" was the
#             rule's clusters of 4)
#   OUT=out bash scripts/gpu_swapped_fours.sh tests sanitize fresh
source "$(dirname "$0")/gpu_env.sh"
write_env
four=SWAP_AB=1,CONSUMERS=2,BN=16,CLUSTER=4
for part in "$@"; do
  case $part in
  tests)
    PYTEST_S=260 gpu_tests "swapped_operands or swapped_wide or small_m" fours ;;
  sanitize)
    SAN_TOOLS="memcheck racecheck synccheck" SAN_S=120 sanitize_configs fours \
      fp16:12x13472x1000:$four bf16:9x9208x2048:$four fp16:16x1003x997:$four fp16:5x2000x3000:$four \
      fp16:300x1003x997:SWAP_AB=1,CONSUMERS=2,BN=80,CLUSTER=4 ;;
  fresh)
    for key in fp16 bf16; do
      ladder $key fours_fresh_$key 150 331 scripts/shapes/swapped_fours_fresh_16.txt picked $four,WAIT_DEPTH=1,STAGES=8
    done ;;
  *) echo "unknown part $part: see the list at the top of $0"; exit 2 ;;
  esac
done
