#!/usr/bin/env bash
# Issue 14, session 75: a 64-row tile at M's edge copies A's last 64 rows (A_SHIFT, the .cu's
# a_shift), in parts:
#   tests  the GPU tests of tiles at M's edge (A_SHIFT's and A_EDGE's), then memcheck and racecheck
#          over shifted tiles whole, cut along K and by stream-K, 06 and 07
#   time   the pick with A_SHIFT=1 beside the pick (A_SHIFT=0) on scripts/shapes/a_shift.txt, fp16 unless
#          A_SHIFT_PRECISION, median of 20 launches, beside cuBLAS
#   narrow one consumer's 64 × 64 pairs, 13 stages (cuBLAS's form at 128×4096×4096), as the pick cuts
#          them and whole, A_SHIFT on and off, beside the pick: scripts/shapes/narrow_shift.txt, then
#          (NARROW_FRESH=1) scripts/shapes/narrow_fresh.txt
#   rule   the pick (wgmma_pairs_narrow's 64 × 64 pairs) beside the 64 × 128 pairs it replaced on
#          scripts/shapes/narrow_pairs_fresh.txt, fp16 and bf16
set -u
source scripts/gpu_env.sh
one=CONSUMERS=1,BN=128,CLUSTER=2,SWAP_AB=0,A_SHIFT=1
case ${1:?part: tests, time, narrow or rule} in
  tests)
    gpu_tests "m_edge and bindings" a_shift   # (the ctypes backend: the same launches)
    SAN_S=${SAN_S:-120} sanitize_configs a_shift fp16:100x1003x997:$one fp16:127x1024x4096:$one,SPLIT_K=0 \
      fp16:67x1024x4096:$one,SPLIT_K=0,STREAM_K_ROUNDS=0 \
      fp16:129x1003x997:CONSUMERS=1,BN=64,CLUSTER=1,SWAP_AB=0,A_SHIFT=1 fp8e4m3bf16:100x1003x997:$one \
      fp16:228x1021x997:$one,B_REALIGN=1
    ;;
  time)
    p=${A_SHIFT_PRECISION:-fp16}
    timeout ${A_SHIFT_S:-240} $PY scripts/tune_ladder.py --family wgmma --precision $p \
      --shapes scripts/shapes/a_shift.txt --iters 20 --seed ${SEED:-75} --variants picked:A_SHIFT=1 picked \
      > "$OUT/a_shift_$p.txt" 2>&1
    echo "a_shift exit $?"; tail -3 "$OUT/a_shift_$p.txt"
    ;;
  narrow)
    p=${A_SHIFT_PRECISION:-fp16} n=CONSUMERS=1,BN=64,CLUSTER=2,STAGES=13,SWAP_AB=0
    for f in shift ${NARROW_FRESH:+fresh}; do
      timeout ${A_SHIFT_S:-240} $PY scripts/tune_ladder.py --family wgmma --precision $p \
        --shapes scripts/shapes/narrow_$f.txt --iters 20 --seed ${SEED:-75} \
        --variants picked picked:A_SHIFT=1 $n,A_SHIFT=1 $n,A_SHIFT=0 $n,A_SHIFT=1,SPLIT_K=0 \
        > "$OUT/narrow_${f}_$p.txt" 2>&1
      echo "narrow $f exit $?"
    done
    ;;
  rule)
    for p in fp16 bf16; do
      timeout ${A_SHIFT_S:-120} $PY scripts/tune_ladder.py --family wgmma --precision $p \
        --shapes scripts/shapes/narrow_pairs_fresh.txt --iters 20 --seed ${SEED:-75} \
        --variants picked CONSUMERS=1,BN=128,CLUSTER=2,STAGES=8 > "$OUT/narrow_pairs_$p.txt" 2>&1
      echo "rule $p exit $?"; tail -3 "$OUT/narrow_pairs_$p.txt"
    done
    ;;
esac
