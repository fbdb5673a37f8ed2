#!/usr/bin/env bash
# (issue 14) Swapped tiles' C written from four addresses a thread (store_c, session 55): no spills
# left in any swapped tile (scripts/swapped_spills.py), which opens one consumer's 64 × 256 (cuBLAS's
# bf16 form at 1008×2072×7104) and three consumers' 176 and 192 of M. Device calls in parts, logs
# under $OUT:
#   tests     the GPU tests of every swapped form and pick (the store changed for all of them): by
#             name, and the registry's SWAP_AB configurations at the edges, split-K's swapped shares
#   sanitize  memcheck and racecheck over the widest swapped tiles (one consumer's 256, three's 192
#             in 2 × 2, three's 160 cut along K) and C in parts (three's 144 in 6, cut along K in 7)
#   ab        the picks on scripts/shapes/swapped_picks.txt (a shape for each swapped form picked), in
#             the tree before the change ($OLD_TREE: `git archive 8923be1 tcraw cuda_src scripts`
#             unpacked there) and in this one, each in its own process, under AB_S seconds (150)
#   wide      three consumers' swapped tiles of 192 of N by 2 tiles of 160, 176 or 192 of M (2 × 2
#             and pairs along M, 3 stages) beside the pick on scripts/shapes/swapped_three_160.txt
#             (the 7 shapes where 160 lost with spills) and three_wide_m_{176,192}.txt
#   one256    one consumer's swapped 64 × 256 in clusters of 1 and 2 (4 stages), and in clusters of
#             1 with C in 2 parts (C_PARTS=2: 5 stages, as cuBLAS's tss_64x256_64x5), beside the pick
#             on scripts/shapes/one_swapped_256.txt
#   parts     a stage more by C in parts, in cuBLAS's own tiles: three consumers' 144 (C_PARTS=6: 5
#             stages, as its 192x144_64x5) in 2 × 2 and pairs along M beside the pick (4 stages) on
#             swapped_three_144.txt; three consumers' 80 in 2 × 2, 5 stages and C_PARTS=2's 6 (its
#             192x80_64x6), beside the pick on three_two_m_80.txt; two consumers' 176 in 2 × 2 at 4
#             stages and C_PARTS=2's 5 beside the pick (that form at 2 of the 4) on fit_rounds_176.txt
# Each ladder under LADDER_S seconds (75); PRECISIONS (bf16 fp16) for wide, one256 and parts. Calls that
# fit the device's 600 s each (tests ≤ 300 s; sanitize ≤ 2 × SAN_S — memcheck, racecheck; ab ≤ 2 × AB_S;
# wide and parts 225 s a precision, one256 75):
#   OUT=out bash scripts/gpu_swapped_wide.sh tests
#   OUT=out SAN_S=150 PRECISIONS=bf16 bash scripts/gpu_swapped_wide.sh sanitize one256
#   OUT=out OLD_TREE=$PWD/old_tree PRECISIONS=fp16 bash scripts/gpu_swapped_wide.sh ab wide
#   OUT=out PRECISIONS=fp16 bash scripts/gpu_swapped_wide.sh parts   (then bf16: 225 s a precision)
source "$(dirname "$0")/gpu_env.sh"
write_env
S=${LADDER_S:-75}
for part in "$@"; do
  case $part in
  tests)
    PYTEST_S=${PYTEST_S:-300} gpu_tests "swapped or SWAP_AB or split_k_pieces" swapped ;;
  sanitize)
    sanitize_configs wide fp16:763x1003x997:SWAP_AB=1,CONSUMERS=1,BN=256,CLUSTER=1 \
      bf16:571x1003x997:SWAP_AB=1,CONSUMERS=3,BN=192,CLUSTER=4,SHARE_A=1 \
      fp16:300x640x8192:SWAP_AB=1,CONSUMERS=3,BN=160,CLUSTER=2,SHARE_A=1 \
      fp16:289x640x8192:SWAP_AB=1,CONSUMERS=3,BN=144,CLUSTER=4,SHARE_A=1,C_PARTS=6 ;;
  ab)
    for tree in old new; do
      dir=.; [ $tree = old ] && dir=${OLD_TREE:?OLD_TREE: a copy of the tree before the change}
      in_tree ${AB_S:-150} "$dir" $tree --family wgmma --precision fp16 --shapes "$PWD/scripts/shapes/swapped_picks.txt" \
        --iters 100 --seed 420 --variants picked > "$OUT/ab_$tree.txt" 2>&1
      echo "ab $tree exit $?: $(grep -c PASS "$OUT/ab_$tree.txt") passed"
    done ;;
  wide)
    s3=SWAP_AB=1,CONSUMERS=3
    for p in ${PRECISIONS:-bf16 fp16}; do
      for run in "160 swapped_three_160" "176 three_wide_m_176" "192 three_wide_m_192"; do
        read -r bn shapes <<< "$run"
        ladder $p wide_${bn}_$p $S 420 scripts/shapes/$shapes.txt picked \
          $s3,BN=$bn,CLUSTER=4,SHARE_A=1,STAGES=3 $s3,BN=$bn,CLUSTER=2,SHARE_A=1,STAGES=3
      done
    done ;;
  one256)
    for p in ${PRECISIONS:-bf16 fp16}; do
      ladder $p one256_$p $S 420 scripts/shapes/one_swapped_256.txt picked \
        SWAP_AB=1,CONSUMERS=1,BN=256,CLUSTER=1,STAGES=4 SWAP_AB=1,CONSUMERS=1,BN=256,CLUSTER=2,STAGES=4 \
        SWAP_AB=1,CONSUMERS=1,BN=256,CLUSTER=1,C_PARTS=2,STAGES=5
    done ;;
  parts)
    s3=SWAP_AB=1,CONSUMERS=3
    for p in ${PRECISIONS:-bf16 fp16}; do
      ladder $p parts_144_$p $S 420 scripts/shapes/swapped_three_144.txt picked \
        $s3,BN=144,CLUSTER=4,SHARE_A=1,C_PARTS=6,STAGES=5 $s3,BN=144,CLUSTER=2,SHARE_A=1,C_PARTS=6,STAGES=5
      ladder $p parts_80_$p $S 420 scripts/shapes/three_two_m_80.txt picked \
        $s3,BN=80,CLUSTER=4,SHARE_A=1,STAGES=5 $s3,BN=80,CLUSTER=4,SHARE_A=1,C_PARTS=2,STAGES=6
      ladder $p parts_176_$p $S 420 scripts/shapes/fit_rounds_176.txt picked \
        SWAP_AB=1,CONSUMERS=2,BN=176,CLUSTER=4,SHARE_A=1,STAGES=4 SWAP_AB=1,CONSUMERS=2,BN=176,CLUSTER=4,SHARE_A=1,C_PARTS=2,STAGES=5
    done ;;
  *)
    echo "unknown part $part: tests sanitize ab wide one256 parts" >&2; exit 2 ;;
  esac
done
