#!/usr/bin/env bash
# Issue 14, session 74: whole K against split-K at M of 65–128, fp16 unless WHOLE_K_PRECISION,
# median of 20 launches, beside cuBLAS, in parts:
#   m65  scripts/shapes/whole_k_m65.txt: the pick (64 × 128 tiles in clusters of 2, cut in 2–8),
#        the same tile fixed (its control), cut in at most 2, and whole
#   64   scripts/shapes/whole_k_64.txt: cuBLAS's form at 128×4096×4096 (64 × 64 tiles, 13 stages,
#        pairs along M, whole K) beside the pick and 64 × 128 whole
set -u
source scripts/gpu_env.sh
part=${1:?part: m65 or 64}
p=${WHOLE_K_PRECISION:-fp16}
wide=CONSUMERS=1,BN=128,CLUSTER=2,STAGES=8
narrow=CONSUMERS=1,BN=64,CLUSTER=2
case $part in
  m65) variants="$wide $wide,SPLIT_MAX=2 $wide,SPLIT_K=0" ;;
  64) variants="$wide,SPLIT_K=0 $narrow,STAGES=13,SPLIT_K=0 $narrow,STAGES=13 $narrow,STAGES=8,SPLIT_K=0" ;;
esac
timeout ${WHOLE_K_S:-240} $PY scripts/tune_ladder.py --family wgmma --precision $p \
  --shapes scripts/shapes/whole_k_$part.txt --iters 20 --seed ${SEED:-74} --variants picked $variants \
  > "$OUT/whole_k_${part}_$p.txt" 2>&1
echo "whole_k $part exit $?"; ties "$OUT/whole_k_${part}_$p.txt"
