#!/usr/bin/env bash
# (issue 14) 06's picks that cut K in clusters of 1 at small M (scripts/shapes/cluster_k.txt: M of
# 5–78, N of 1128–13144), many below 0.85× cuBLAS. Device calls in parts, logs under $OUT:
#   cublas   which kernel cuBLAS runs (Nsight Compute's launch statistics: tile, cluster, grid) at
#            six of them, fp16
#   configs  the pick beside overrides of it — K in at most 2 pieces (SPLIT_MAX=2), pieces of at
#            least 16 slices (SPLIT_MIN_SLICES=16) — each beside cuBLAS in one process; then at M ≤ 16
#            the pick beside one consumer's swapped 64 × 16 tiles (twice the tiles, K in half the
#            pieces); fp16 (KEYS to change)
#   stages   at M ≤ 64, one consumer's swapped 64 × BN tiles (BN the 16s that fit M) in 8 stages and in
#            the most that fit up to 16, K split as the kernel cuts it and whole, beside the pick, fp16
#   wait_depth  the pick beside it with a slice's MMAs kept in flight (WAIT_DEPTH=1) on cluster_k.txt
#            and on 16 fresh shapes where the pick is two consumers' swapped tiles
#            (scripts/shapes/swapped_two_fresh.txt), fp16 (KEYS to change)
#   OUT=out bash scripts/gpu_small_m_split.sh cublas configs stages wait_depth
source "$(dirname "$0")/gpu_env.sh"
write_env
for part in "$@"; do
  case $part in
  cublas)
    for shape in "8 4008 1808" "22 7152 2888" "78 8648 4160" "59 8592 4928" "44 2488 3784" "52 1128 6968"; do
      echo "== $shape"
      cublas_kernel "$shape"
    done ;;
  configs)
    for key in ${KEYS:-fp16}; do
      timeout 240 $PY scripts/tune_ladder.py --family wgmma --precision $key --shapes scripts/shapes/cluster_k.txt \
        --iters 100 --seed 231 --variants picked picked:SPLIT_MAX=2 picked:SPLIT_MIN_SLICES=16 \
        > "$OUT/small_m_split_$key.txt" 2>&1
      echo "configs $key exit $?: $(grep -c PASS "$OUT/small_m_split_$key.txt") passed"
      # M ≤ 16: one consumer's swapped 64 × 16 tiles (twice the tiles, K in half the pieces)
      awk '!/^#/ && NF == 3 && $1 <= 16' scripts/shapes/cluster_k.txt > /tmp/small_m_16.txt
      timeout 120 $PY scripts/tune_ladder.py --family wgmma --precision $key --shapes /tmp/small_m_16.txt \
        --iters 100 --seed 232 --variants picked SWAP_AB=1,CONSUMERS=1,BN=16,CLUSTER=1,STAGES=8 \
        > "$OUT/small_m_16_one_consumer_$key.txt" 2>&1
      echo "one consumer $key exit $?: $(grep -c PASS "$OUT/small_m_16_one_consumer_$key.txt") passed"
    done ;;
  stages)
    # cuBLAS there (part cublas), at four of six: 64 of N × 8–56 of M, 14–16 stages, clusters of 4, K whole or split.
    # Here one consumer's swapped 64 × BN tiles, BN the 16s that fit M, in 8 stages (the picker's most) and
    # in the most that fit up to 16 (16, 16, 14, 13), K as split_pieces cuts it and whole (SPLIT_K=0)
    for key in ${KEYS:-fp16}; do
      for bn in 16 32 48 64; do
        awk -v hi=$bn '!/^#/ && NF == 3 && $1 > hi - 16 && $1 <= hi' scripts/shapes/cluster_k.txt > /tmp/small_m_bn.txt
        most=$($PY -c "from tcraw import kernels; print(kernels.wgmma_max_stages(1, $bn, most=16, swap=True))")
        one="SWAP_AB=1,CONSUMERS=1,BN=$bn,CLUSTER=1"
        timeout 150 $PY scripts/tune_ladder.py --family wgmma --precision $key --shapes /tmp/small_m_bn.txt \
          --iters 100 --seed 233 --variants picked $one,STAGES=8 $one,STAGES=$most $one,STAGES=$most,SPLIT_K=0 \
          >> "$OUT/small_m_stages_$key.txt" 2>&1
        echo "stages $key BN=$bn ($most stages) exit $?"
      done
      echo "stages $key: $(grep -c PASS "$OUT/small_m_stages_$key.txt") passed"
    done ;;
  wait_depth)
    # two consumers keeping a slice's MMAs in flight (WAIT_DEPTH=1, one consumer's default) over swapped
    # picks, whose slices are a few small MMAs each: on cluster_k.txt (its two-consumer picks differ;
    # one consumer's build the same) and on 16 fresh shapes where the pick is two consumers' swapped tiles
    for key in ${KEYS:-fp16}; do
      for shapes in cluster_k swapped_two_fresh; do
        timeout 150 $PY scripts/tune_ladder.py --family wgmma --precision $key --shapes scripts/shapes/$shapes.txt \
          --iters 100 --seed 234 --variants picked picked:WAIT_DEPTH=1 > "$OUT/wait_depth_${shapes}_$key.txt" 2>&1
        echo "wait_depth $key $shapes exit $?: $(grep -c PASS "$OUT/wait_depth_${shapes}_$key.txt") passed"
      done
    done ;;
  *) echo "unknown part $part: see the list at the top of $0"; exit 2 ;;
  esac
done
