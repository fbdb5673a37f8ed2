#!/usr/bin/env bash
# (issue 14) Two consumers' swapped tiles of BN ≤ 32 (M ≤ 32) and three consumers' swapped tiles
# now keep a slice's MMAs in flight (kernels.wgmma_wait_depth, SWAPPED_IN_FLIGHT_BN). Device calls
# in parts, logs under $OUT:
#   tests     the GPU tests of swapped tiles and of a slice in flight
#   sanitize  compute-sanitizer memcheck, racecheck and synccheck over such picks as built (K whole,
#             in 3 and in 4 pieces; M off 16; three consumers' in clusters of 2), integer inputs
#   fresh     the pick beside itself without (picked:WAIT_DEPTH=0, the old default) on 24 shapes drawn
#             after the rule (scripts/shapes/swapped_in_flight_fresh.txt), fp16 and bf16
#   three     three consumers' swapped picks beside themselves without (picked:WAIT_DEPTH=0) on 12
#             shapes drawn after they were given a slice in flight (three_in_flight_fresh.txt), fp16
#             and bf16 (run 2's probe, three_in_flight_probe.txt, ran before: the pick then built with 0,
#             beside picked:WAIT_DEPTH=1)
#   suites    the llm suite against cuBLAS (its M = 16 rows are such picks), fp16; bf16 on llm_small_m.txt
#   OUT=out bash scripts/gpu_in_flight.sh tests sanitize fresh three suites
source "$(dirname "$0")/gpu_env.sh"
write_env
# The pick beside itself without a slice in flight on the shapes file $1 (seed $2), fp16 and bf16,
# each under $3 seconds: logs $4_KEY.txt
pick_without() {
  for key in fp16 bf16; do
    timeout $3 $PY scripts/tune_ladder.py --family wgmma --precision $key --shapes "$1" \
      --iters 100 --seed $2 --variants picked picked:WAIT_DEPTH=0 > "$OUT/$4_$key.txt" 2>&1
    echo "$4 $key exit $?: $(grep -c PASS "$OUT/$4_$key.txt") passed"
  done
}
for part in "$@"; do
  case $part in
  tests)
    PYTEST_S=240 gpu_tests "swapped or slice_of_mmas" in_flight ;;
  sanitize)
    SAN_TOOLS="memcheck racecheck synccheck" SAN_S=150 sanitize_configs in_flight \
      fp16:16x11008x4096 fp16:8x4008x1808 bf16:23x5088x10488 fp16:31x2000x1000 fp16:17x7000x4096 bf16:49x5000x8200 ;;
  fresh)
    pick_without scripts/shapes/swapped_in_flight_fresh.txt 241 200 in_flight_fresh ;;
  three)
    pick_without scripts/shapes/three_in_flight_fresh.txt 243 120 in_flight_three_fresh ;;
  suites)
    llm_suites 150 ;;
  *) echo "unknown part $part: see the list at the top of $0"; exit 2 ;;
  esac
done
