#!/usr/bin/env bash
# (issue 14) 09's last piece summing the pieces of K a float4 group at a time, the loads of 16 / R
# pieces together (cuda_src/09_mma_small_m_b_in_place.cu, sum_pieces) — where one element at a time
# cost a round trip to L2 an element (M of them a thread). Device calls in parts, logs under $OUT:
#   check   09's GPU tests (every offset of A's and B's rows, K whole and in 3, 40 and the picked
#           pieces, M of one m16 block to four; 06 handing M ≤ 32 to 09), then compute-sanitizer's
#           memcheck, racecheck and synccheck over 09 at M of 1, 24 and 40 (R of 1, 8 and 16)
#   time    the tree as it is beside $OLD09 (09's .cu as it was, in a copy of the tree), one after
#           the other (the old first), each beside cuBLAS in its own process, fp16: 09 on
#           scripts/shapes/split_09_fresh.txt (its split pick, and K in 4 and 8 pieces) and 06's
#           pick on scripts/shapes/tiny_gemv.txt, 100 launches each
#   stalls  Nsight Compute's warp states and scheduler statistics for 09 at 1×3586×1572 (its split
#           pick): where a block's time goes when M is 1
#   OLD09=build/old09.cu OUT=out bash scripts/gpu_09_sum.sh check time
source "$(dirname "$0")/gpu_env.sh"
write_env
for part in "$@"; do
  case $part in
  check)
    PYTEST_S=${PYTEST_S:-200} gpu_tests "09_reads_b_in_place or hands_small_m" sum09
    SAN_TOOLS=${SAN_TOOLS:-memcheck racecheck synccheck} SAN_S=${SAN_S:-80} sanitize_configs sum09 \
      fp16:1x3586x1572 fp16:24x2178x2574 bf16:40x4101x1000 ;;
  stalls)
    ncu_stalls small small_m "1 3586 1572" 09_stalls ;;
  time)
    old=/tmp/tcraw_old09
    old_tree "${OLD09:?the old 09 .cu}" 09_mma_small_m_b_in_place.cu $old
    for tree in old new; do
      dir=$([ $tree = old ] && echo $old || echo .)
      in_tree 150 $dir $tree --family small --precision fp16 --shapes scripts/shapes/split_09_fresh.txt \
        --iters 100 --seed 142 --variants "" SPLIT=4 SPLIT=8 > "$OUT/split_09_fresh_${tree}_fp16.txt" 2>&1
      echo "split09 $tree exit $?: $(grep -c PASS "$OUT/split_09_fresh_${tree}_fp16.txt") passed"
      in_tree 100 $dir $tree --family wgmma --precision fp16 --shapes scripts/shapes/tiny_gemv.txt \
        --iters 100 --seed 143 --variants picked > "$OUT/tiny_gemv_${tree}_fp16.txt" 2>&1
      echo "tiny $tree exit $?: $(grep -c PASS "$OUT/tiny_gemv_${tree}_fp16.txt") passed"
    done ;;
  *) echo "unknown part $part: see the list at the top of $0"; exit 2 ;;
  esac
done
