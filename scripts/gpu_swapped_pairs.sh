#!/usr/bin/env bash
# (issue 14) Two consumers' swapped tiles of M ≤ 32 (128 of N × 16 or 32 of M) now run in clusters
# of 2 along N where B's rows lie off 128-byte lines (kernels.SWAPPED_PAIRS_CONFIGS;
# scripts/gpu_idle_sms.sh's runs found it). Device calls in parts, logs under $OUT:
#   tests     the GPU tests of swapped tiles (clusters of 1 and 2), of split-K in rounds, of small M
#             and of shapes no tile divides
#   sanitize  compute-sanitizer memcheck, racecheck and synccheck over such picks as built (K whole,
#             split in 3 and 4 pieces, the last tile partly past N), integer inputs
#   fresh     the pick beside the same tiles in clusters of 1 (the pick before, fixed) on 16 shapes
#             drawn after the rule for each BN (scripts/shapes/swapped_pairs_fresh_16/32.txt), fp16
#             and bf16
#   check     the pick beside the same tiles fixed in clusters of 1 and of 2, on 10 shapes drawn
#             after clusters of 2 were kept to rows off lines, for each BN
#             (scripts/shapes/swapped_pairs_check_16/32.txt), fp16
#   suites    the llm suite against cuBLAS (its M = 16 rows are such picks), fp16; bf16 on llm_small_m.txt
#   OUT=out bash scripts/gpu_swapped_pairs.sh tests sanitize fresh check suites
# (tests, sanitize, fresh and suites ran with clusters of 2 for every such tile, the rule's first form)
source "$(dirname "$0")/gpu_env.sh"
write_env
for part in "$@"; do
  case $part in
  tests)
    PYTEST_S=300 gpu_tests "swapped_operands or split_k_pieces_in_several_rounds or small_m or shapes_no_tile_divides" pairs ;;
  sanitize)
    SAN_TOOLS="memcheck racecheck synccheck" SAN_S=150 sanitize_configs pairs \
      fp16:16x11008x4096 fp16:8x4008x1808 bf16:23x5088x10488 fp16:31x2000x1000 fp16:13x1003x997 ;;
  fresh)
    for bn in 16 32; do
      for key in fp16 bf16; do
        timeout 140 $PY scripts/tune_ladder.py --family wgmma --precision $key --shapes scripts/shapes/swapped_pairs_fresh_$bn.txt \
          --iters 100 --seed $((260 + bn)) --variants picked SWAP_AB=1,CONSUMERS=2,BN=$bn,WAIT_DEPTH=1,CLUSTER=1,STAGES=8 \
          > "$OUT/pairs_fresh_${bn}_$key.txt" 2>&1
        echo "fresh BN $bn $key exit $?: $(grep -c PASS "$OUT/pairs_fresh_${bn}_$key.txt") passed"
      done
    done ;;
  check)
    for bn in 16 32; do
      t=SWAP_AB=1,CONSUMERS=2,BN=$bn,WAIT_DEPTH=1,STAGES=8
      timeout 150 $PY scripts/tune_ladder.py --family wgmma --precision fp16 --shapes scripts/shapes/swapped_pairs_check_$bn.txt \
        --iters 100 --seed $((270 + bn)) --variants picked $t,CLUSTER=1 $t,CLUSTER=2 > "$OUT/pairs_check_${bn}_fp16.txt" 2>&1
      echo "check BN $bn exit $?: $(grep -c PASS "$OUT/pairs_check_${bn}_fp16.txt") passed"
    done ;;
  suites)
    llm_suites 280 ;;
  *) echo "unknown part $part: see the list at the top of $0"; exit 2 ;;
  esac
done
