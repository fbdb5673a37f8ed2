#!/usr/bin/env bash
# (issue 14) M of 257–384 against N near 4096: the swapped tiles that fit M (kernels.FIT_FORMS) take
# 3 tiles of M in clusters of 4 — 96 tiles, 24 of the 30 clusters of 4 the H200 holds, 96 of 132 SMs
# (300×4096×4096: 0.84× cuBLAS) — where 4 tiles of M (BN 80 up to M = 320, 96 up to 384) in
# clusters of 2 would give 128 SMs a tile. Device calls in parts, logs under $OUT:
#   four   the pick beside 4 tiles of M in clusters of 2 on 9 shapes for each width
#          (scripts/shapes/fit_four_tiles_80/96.txt), fp16
#   OUT=out bash scripts/gpu_fit_four.sh four
source "$(dirname "$0")/gpu_env.sh"
write_env
for part in "$@"; do
  case $part in
  four)
    for bn in 80 96; do
      t=SWAP_AB=1,CONSUMERS=2,BN=$bn,CLUSTER=2,STAGES=7
      ladder fp16 four_$bn 200 $((310 + bn)) scripts/shapes/fit_four_tiles_$bn.txt picked $t $t,WAIT_DEPTH=1
    done ;;
  *) echo "unknown part $part: see the list at the top of $0"; exit 2 ;;
  esac
done
