#!/usr/bin/env bash
# Issue 14, session 80: C stored in place where its rows lie off 16 bytes (C_PLAIN, the .cu's
# plain_box), in parts:
#   clocks   the card's clocks and cuBLAS's rate (card_clocks), the env file
#   tests    the GPU test over C_PLAIN's forms (test_06_07_store_c_in_place_at_every_row_pitch)
#   others   the GPU tests whose shapes' picks now take it (edges, A to lines, turns, 07's forms, tall problems)
#   sanitize memcheck and racecheck over C_PLAIN's forms: the pick, stream-K's adds (fp32, s32), split-K,
#            swapped boxes (two at a time, and in parts), bf16 C
#   time     on scripts/shapes/plain_c.txt the pick (C in place) beside itself with C copied
#            (picked:C_PLAIN=0), fp16 then bf16 (PLAIN_PRECISIONS), median of 20, beside cuBLAS
#   aligned  on scripts/shapes/plain_c_aligned.txt the pick (C by TMA) beside itself with C_PLAIN=1, fp16
#   OUT=out bash scripts/gpu_plain_c.sh clocks tests time
#   OUT=out bash scripts/gpu_plain_c.sh sanitize others aligned
set -u
source scripts/gpu_env.sh
for part in "$@"; do
case $part in
  clocks)
    write_env
    card_clocks
    ;;
  tests)
    PYTEST_S=${PLAIN_TESTS_S:-300} gpu_tests store_c_in_place plain_c
    ;;
  others)
    PYTEST_S=${PLAIN_TESTS_S:-300} gpu_tests \
      "no_tile_divides or copies_a_to_lines or taking_tiles_in_turn or k_major_forms or n_129_to_240" plain_c_others
    ;;
  sanitize)
    SAN_S=${SAN_S:-150} sanitize_configs plain_c fp16:1000x1003x997 bf16:1000x2753x2100:CONSUMERS=1,BN=80,CLUSTER=1 \
      int8:1000x2753x4200:CONSUMERS=1,BN=80,CLUSTER=1 fp16:130x301x4105 \
      fp16:100x1001x997:SWAP_AB=1,CONSUMERS=1,BN=48,CLUSTER=2 \
      fp16:300x1002x997:SWAP_AB=1,CONSUMERS=2,BN=128,CLUSTER=2,C_PARTS=2,STAGES=4 fp8e4m3bf16:777x1001x333
    ;;
  time)
    for q in ${PLAIN_PRECISIONS:-fp16 bf16}; do
      timeout ${PLAIN_S:-240} $PY scripts/tune_ladder.py --family wgmma --precision $q \
        --shapes scripts/shapes/plain_c.txt --iters 20 --seed ${SEED:-80} --variants picked picked:C_PLAIN=0 \
        > "$OUT/time_$q.txt" 2>&1
      echo "time $q exit $?: $(grep -c PASS "$OUT/time_$q.txt") passed"; ties "$OUT/time_$q.txt"
    done
    ;;
  aligned)
    timeout ${PLAIN_S:-240} $PY scripts/tune_ladder.py --family wgmma --precision fp16 \
      --shapes scripts/shapes/plain_c_aligned.txt --iters 20 --seed ${SEED:-80} --variants picked picked:C_PLAIN=1 \
      > "$OUT/aligned_fp16.txt" 2>&1
    echo "aligned exit $?: $(grep -c PASS "$OUT/aligned_fp16.txt") passed"; ties "$OUT/aligned_fp16.txt"
    ;;
  *) echo "unknown part $part"; exit 2 ;;
esac
done
