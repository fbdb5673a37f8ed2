#!/usr/bin/env bash
# Issue 14, session 71: 06's unswapped tiles of any width in 16s (B's last 64-column box read BN
# into it, C's last box over the one before), in parts so that each call ends inside the limit:
#   tests  their GPU test (fp16, int8, fp8e4m3bf16: stored, added, split; verified, integers exact,
#          repeatable), then the sectors rule's (session 70's fix)
#   time   the new widths beside the pick and fixed tiles of 64s on scripts/shapes/widths16.txt
#          (fp16; WIDTHS_PRECISION)
#   survey the pick (192-row tiles of 176, 160, 144 weighed over the ranking's: wgmma_narrows)
#          against the last tree's on scripts/shapes/widths16_fresh.txt
#   sanitize compute-sanitizer over the new edge paths
#   drawn  06/07 in drawn configurations on drawn shapes, verified (scripts/draw_configs.py)
#   drawn_sanitize  some of them under memcheck and racecheck
#   clocks the card's clocks and cuBLAS's rate, before its ratios are read
set -u
source scripts/gpu_env.sh
part=${1:?part: tests, time, survey, sanitize, drawn, drawn_sanitize or clocks}
case $part in
  tests)
    PYTEST_S=${WIDTHS_TEST_S:-330} gpu_tests any_width_in_16s widths
    gpu_tests sectors sectors ;;
  time)
    p=${WIDTHS_PRECISION:-fp16}
    timeout ${WIDTHS_S:-240} $PY scripts/tune_ladder.py --family wgmma --precision $p \
      --shapes scripts/shapes/widths16.txt --iters 10 --seed ${SEED:-71} --variants picked \
      CONSUMERS=3,BN=192,CLUSTER=2,STAGES=3 CONSUMERS=3,BN=176,CLUSTER=2,STAGES=3 \
      CONSUMERS=3,BN=144,CLUSTER=2,STAGES=3 CONSUMERS=2,BN=256,CLUSTER=2,STAGES=4 \
      CONSUMERS=2,BN=176,CLUSTER=2,STAGES=4 CONSUMERS=2,BN=224,CLUSTER=2,STAGES=4 > "$OUT/widths16_$p.txt" 2>&1
    echo "time exit $?"; grep -E "×.*cuBLAS" "$OUT/widths16_$p.txt" ;;
  survey)
    # the pick in this tree and in the last one's (OLD_TREE: a copy of its tcraw, cuda_src and
    # scripts), each in its own process and cubin cache, on SURVEY_FILE (widths16_fresh)
    f=${SURVEY_FILE:-widths16_fresh}; p=${WIDTHS_PRECISION:-fp16}
    for tree in new old; do
      dir=.; [ $tree = old ] && dir=${OLD_TREE:?a copy of the last tree}
      in_tree ${SURVEY_S:-200} $dir $tree --family wgmma --precision $p --shapes $PWD/scripts/shapes/$f.txt --iters 10 \
        --seed ${SEED:-71} --variants picked > "$OUT/${f}_${p}_$tree.txt" 2>&1
      echo "survey $tree exit $?"; grep -E "×.*cuBLAS" "$OUT/${f}_${p}_$tree.txt"
    done ;;
  sanitize)
    # compute-sanitizer (memcheck, racecheck, synccheck) over the new edge paths: C's last box over the
    # one before — stored (a partial last tile along N and M), added by stream-K, summed by split-K's
    # pieces — in fp32 and bf16 C, and B's last box read BN into it in clusters of 2 and 4
    SAN_TOOLS=${SAN_TOOLS:-memcheck racecheck synccheck} SAN_S=${SAN_S:-150} sanitize_configs widths \
      fp16:1003x523x997:CONSUMERS=3,BN=176,CLUSTER=2,STAGES=3 fp16:130x353x8192:CONSUMERS=2,BN=176,CLUSTER=2 \
      fp8e4m3bf16:700x179x256:CONSUMERS=2,BN=176,CLUSTER=2 int8:1003x427x997:CONSUMERS=2,BN=144,CLUSTER=4 \
      bf16:4936x864x2552 fp16:1000x11753x4100:CONSUMERS=2,BN=176,CLUSTER=2 ;;   # (the largest last: a tool's
      # time limit then cuts only it)
  drawn)
    # 06/07 in drawn configurations on drawn shapes (scripts/draw_configs.py), each verified
    timeout ${DRAWN_S:-200} $PY scripts/draw_configs.py --count ${DRAWN_COUNT:-60} --seed ${SEED:-72} --jobs 16 \
      > "$OUT/drawn_configs.txt" 2>&1
    echo "drawn exit $?"; grep -E "^(seed|FAILED)| of .* passed" "$OUT/drawn_configs.txt" | head -20 ;;
  drawn_sanitize)
    # the same under compute-sanitizer (DRAWN_TOOLS: memcheck, racecheck), canary bands off, on pairs
    # of another seed, each tool under DRAWN_S seconds
    for tool in ${DRAWN_TOOLS:-memcheck racecheck}; do
      timeout ${DRAWN_S:-200} compute-sanitizer --tool $tool --error-exitcode 9 $PY scripts/draw_configs.py \
        --count ${DRAWN_COUNT:-12} --seed ${SEED:-73} --jobs 16 --no-guard > "$OUT/drawn_$tool.txt" 2>&1
      echo "drawn $tool exit $?"; grep -E "^(seed|FAILED)| of .* passed|SUMMARY" "$OUT/drawn_$tool.txt" | head
    done ;;
  clocks) card_clocks ;;
  *) echo "unknown part $part"; exit 2 ;;
esac
