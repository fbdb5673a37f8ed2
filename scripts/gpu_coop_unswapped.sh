#!/usr/bin/env bash
# Issue 14, session 73: two consumers side by side along an unswapped tile's N (COOP with
# SWAP_AB=0: each over all of the tile's COOP · 64 rows of M, BN columns each — cuBLAS's coopA
# form, and its two consumers of 64 × 64 where few tiles fill the SMs), in parts:
#   tests  their GPU test (fp16, bf16, int8, FP8 → bf16: alone, pairs, sharing A, 2 × 2; partial
#          tiles, pitched rows, one slice, stream-K; verified, integers exact, repeatable)
#   time   beside the pick and one consumer's 64 × 128 on scripts/shapes/coop_unswapped.txt (fp16;
#          COOP_PRECISION)
#   drawn  the 24 drawn pairs of scripts/shapes/coop_unswapped_drawn.txt (every precision, drawn
#          macros and shapes), each checked as `tcraw check` checks a shape (scripts/draw_configs.py)
set -u
source scripts/gpu_env.sh
part=${1:?part: tests, time or drawn}
case $part in
  tests)
    PYTEST_S=${COOP_TEST_S:-200} gpu_tests coop_unswapped coop_unswapped ;;
  time)
    p=${COOP_PRECISION:-fp16}
    timeout ${COOP_S:-300} $PY scripts/tune_ladder.py --family wgmma --precision $p \
      --shapes ${COOP_SHAPES:-scripts/shapes/coop_unswapped.txt} --iters 20 --seed ${SEED:-73} --variants picked \
      CONSUMERS=1,BN=128,CLUSTER=2,STAGES=8,SPLIT_K=0 \
      CONSUMERS=2,COOP=1,BN=64,CLUSTER=2,STAGES=8,SPLIT_K=0 \
      CONSUMERS=2,COOP=1,BN=64,CLUSTER=2,STAGES=8,SPLIT_K=0,WAIT_DEPTH=1 \
      CONSUMERS=2,COOP=1,BN=64,CLUSTER=2,STAGES=8,SPLIT_K=0,STREAM_K_ROUNDS=0 \
      CONSUMERS=2,COOP=2,BN=64,CLUSTER=2,STAGES=6,SPLIT_K=0 \
      CONSUMERS=2,COOP=1,BN=128,CLUSTER=2,STAGES=4,SPLIT_K=0 > "$OUT/coop_unswapped_$p.txt" 2>&1
    echo "time exit $?"; grep -E "×.*cuBLAS" "$OUT/coop_unswapped_$p.txt" ;;
  drawn)
    timeout ${COOP_DRAWN_S:-200} $PY scripts/draw_configs.py --jobs 8 --seed ${SEED:-73} \
      $(grep -v '^#' scripts/shapes/coop_unswapped_drawn.txt) > "$OUT/coop_unswapped_drawn.txt" 2>&1
    echo "drawn exit $?"; tail -4 "$OUT/coop_unswapped_drawn.txt" ;;
esac
