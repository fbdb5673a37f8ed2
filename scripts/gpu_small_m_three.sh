#!/usr/bin/env bash
# (issue 14) M ≤ 32 against a large B: three consumers' swapped tiles (192 of N, SWAP_AB=1 with
# CONSUMERS=3) beside the pick's two (128 of N) — fewer tiles, so split-K in 2 over more SMs where
# two consumers' tiles are 66–131 (one each, up to half the SMs idle); device calls in parts, logs
# under $OUT
#   time    scripts/shapes/small_m_three.txt (M ≤ 16, BN 16) and small_m_three_32.txt (M of 17–32,
#           BN 32), fp16: the pick beside three consumers, 6 stages (the most that fit)
#   OUT=out bash scripts/gpu_small_m_three.sh time
source "$(dirname "$0")/gpu_env.sh"
write_env
TL="$PY scripts/tune_ladder.py --family wgmma"
for part in "$@"; do
  case $part in
  time)
    for f in small_m_three small_m_three_32; do
      bn=$([ $f = small_m_three ] && echo 16 || echo 32)
      timeout 200 $TL --precision fp16 --shapes scripts/shapes/$f.txt --iters 20 --seed 131 \
        --variants picked SWAP_AB=1,CONSUMERS=3,BN=$bn,CLUSTER=1,STAGES=6 SWAP_AB=1,CONSUMERS=3,BN=$bn,CLUSTER=2,STAGES=6 \
        > "$OUT/${f}_fp16.txt" 2>&1
      echo "time $f exit $?"; ties "$OUT/${f}_fp16.txt"
    done ;;
  *) echo "unknown part $part: see the list at the top of $0"; exit 2 ;;
  esac
done
