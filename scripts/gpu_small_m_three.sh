#!/usr/bin/env bash
# (issue 14) M ≤ 32 against a large B: three consumers' swapped tiles (192 of N, SWAP_AB=1 with
# CONSUMERS=3) beside the pick's two (128 of N) — fewer tiles, so split-K in 2 over more SMs where
# two consumers' tiles are 66–131 (one each, up to half the SMs idle); device calls in parts, logs
# under $OUT
#   time    scripts/shapes/small_m_three.txt (M ≤ 16, BN 16) and small_m_three_32.txt (M of 17–32,
#           BN 32), fp16: the pick beside three consumers, 6 stages (the most that fit)
#   check   with the rule in the picker (kernels.wgmma_streams_b_wide): its GPU tests (the pick, both
#           configurations at the edges), then compute-sanitizer's memcheck, racecheck and synccheck
#           over it (split-K in 3 and 2, odd counts of tiles, K off a slice)
#   fresh   shapes drawn where the rule fires (scripts/shapes/small_m_wide_fresh.txt) and the 14 of
#           split_rounds_fresh.txt (drawn for an earlier question; the rule takes 10), fp16 and
#           bf16: the pick beside two consumers' tiles (the pick before the rule: BN 16 for M ≤ 16,
#           32 above)
#   top     the top of the rule's range (100–130 of two consumers' tiles: scripts/shapes/small_m_wide_top.txt),
#           fp16: the pick beside two consumers' tiles
#   strict  the GPU test of the rule's pick as tightened after the fact (clusters of 2, BN checked)
#   midcheck  with the rule widened (M ≤ 64: at M of 33–48 from 25 % of the SMs and not where the
#           64×48 swapped tiles are taken, at 49–64 from 30 % and 96 slices of K; at most 75 %): its
#           GPU tests (the picks of three consumers' and of 64×48 swapped tiles, the 48- and 64-wide
#           configurations at the edges), then compute-sanitizer's memcheck, racecheck and synccheck
#           over 48- and 64-wide tiles (split-K in 6 and 2, odd tile counts, K off a slice)
#   midfresh  scripts/shapes/mid_m_three_fresh.txt (drawn before part mid ran), fp16 and bf16: the
#           pick beside the picks it replaces there (one consumer's 64×128, 64×64, 64×256, the 64×48
#           swapped tiles)
#   midlow  the rule's low end at M of 33–64 (scripts/shapes/mid_m_three_low.txt, 35–51 tiles), fp16:
#           the pick beside the picks it replaces there
#   midnew  the rule as run 3 left it, on scripts/shapes/mid_m_three_check.txt (drawn after run 3:
#           M of 33–48 with N past 8448, M of 49–64 with K of 128 slices or fewer), fp16 and bf16:
#           the pick beside the picks it replaces there and the 64×48 swapped tiles
#   tiny    09 at M ≤ 8 against a B of 3–51 MB (scripts/shapes/tiny_gemv.txt), fp16: its split-K
#           pick beside K in 1–24 pieces; then which kernel cuBLAS runs at 1×3586×1572
#   mid49   the rule's refinement at M of 49–64 (96 slices, 30 % of the SMs) on shapes drawn after
#           it (scripts/shapes/mid_m_49_64_check.txt: 8 where it fires, 6 it now leaves), fp16 and
#           bf16: the pick beside three consumers' 64-wide tiles and the picks before the rule
#   split09 09 at M ≤ 32 with N off 8 (scripts/shapes/split_09_fresh.txt), fp16: the pick of
#           split-K beside K in 1–16 pieces, 100 launches each
#   tinypick  the pick (06, handing off to 09) at scripts/shapes/tiny_gemv.txt, fp16, 100 launches;
#           then Nsight Compute's duration and memory throughput of 09 (its pick, and K in 8) and
#           of cuBLAS's kernel at 1×3586×1572
#   mid     M of 33–64 with B's rows 16 bytes off 32 (scripts/shapes/mid_m_three.txt),
#           fp16: the pick beside three consumers' swapped tiles, BN 48 and 64, clusters of 2, 5 stages,
#           and two consumers' (BN 64, clusters of 2, 8 stages)
#   OUT=out bash scripts/gpu_small_m_three.sh check fresh
source "$(dirname "$0")/gpu_env.sh"
write_env
TL="$PY scripts/tune_ladder.py --family wgmma"
# The picks three consumers' tiles replace at M of 33–64: one consumer's 64×64, 64×128, 64×256
# tiles and the 64×48 swapped ones
ONE_64=CONSUMERS=1,BN=64,CLUSTER=1,STAGES=8 ONE_128=CONSUMERS=1,BN=128,CLUSTER=1,STAGES=8
ONE_256=CONSUMERS=1,BN=256,CLUSTER=1,STAGES=5 SWAPPED_48=SWAP_AB=1,CONSUMERS=1,BN=48,CLUSTER=2,STAGES=8
# A part's tune_ladder run over scripts/shapes/FILE.txt in fp16 and in bf16, 20 launches, logs FILE_KEY.txt:
#   both PART FILE SEED VARIANTS...
both() {
  local part=$1 file=$2 seed=$3; shift 3
  for p in fp16 bf16; do
    timeout 150 $TL --precision $p --shapes scripts/shapes/$file.txt --iters 20 --seed $seed --variants "$@" \
      > "$OUT/${file}_$p.txt" 2>&1
    echo "$part $p exit $?: $(grep -c PASS "$OUT/${file}_$p.txt") passed"
  done
}
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
  check)
    PYTEST_S=${PYTEST_S:-250} gpu_tests "three_consumers_swapped or (every_06_configuration and SWAP_AB and 3+BN)" wide
    SAN_TOOLS="memcheck racecheck synccheck" SAN_S=${SAN_S:-80} sanitize_configs wide fp16:17x7000x4096 bf16:1x8648x4104 ;;
  fresh)
    S=SWAP_AB=1,CONSUMERS=2,CLUSTER=1,STAGES=8
    for p in fp16 bf16; do
      for f in small_m_wide_fresh split_rounds_fresh; do
        timeout 110 $TL --precision $p --shapes scripts/shapes/$f.txt --iters 20 --seed 132 \
          --variants picked $S,BN=16 $S,BN=32 > "$OUT/${f}_$p.txt" 2>&1
        echo "fresh $f $p exit $?"; grep -c PASS "$OUT/${f}_$p.txt"
      done
    done ;;
  top)
    S=SWAP_AB=1,CONSUMERS=2,CLUSTER=1,STAGES=8
    timeout 150 $TL --precision fp16 --shapes scripts/shapes/small_m_wide_top.txt --iters 20 --seed 134 \
      --variants picked $S,BN=16 $S,BN=32 > "$OUT/small_m_wide_top_fp16.txt" 2>&1
    echo "top exit $?"; ties "$OUT/small_m_wide_top_fp16.txt" ;;
  strict)
    gpu_tests "three_consumers_swapped_tiles_streaming" wide_strict ;;
  midcheck)
    PYTEST_S=${PYTEST_S:-250} gpu_tests "three_consumers_swapped or swapped_tiles_streaming_b_for_m_of_33 or (every_06_configuration and SWAP_AB and 3+BN)" midcheck
    SAN_TOOLS="memcheck racecheck synccheck" SAN_S=${SAN_S:-80} sanitize_configs mid \
      fp16:33x4168x6152:SWAP_AB=1,CONSUMERS=3,BN=48,CLUSTER=2,STAGES=5 fp16:33x8520x6152 bf16:64x9000x6152 ;;
  midfresh)
    both midfresh mid_m_three_fresh 135 picked $ONE_128 $ONE_64 $ONE_256 $SWAPPED_48 ;;
  midlow)
    timeout 150 $TL --precision fp16 --shapes scripts/shapes/mid_m_three_low.txt --iters 20 --seed 136 \
      --variants picked $ONE_64 $ONE_128 $SWAPPED_48 > "$OUT/mid_m_three_low_fp16.txt" 2>&1
    echo "midlow exit $?: $(grep -c PASS "$OUT/mid_m_three_low_fp16.txt") passed" ;;
  midnew)
    both midnew mid_m_three_check 137 picked $ONE_64 $ONE_128 $ONE_256 $SWAPPED_48 ;;
  tiny)
    timeout 150 $PY scripts/tune_ladder.py --family small --precision fp16 --shapes scripts/shapes/tiny_gemv.txt \
      --iters 20 --seed 138 --variants "" SPLIT=1 SPLIT=2 SPLIT=3 SPLIT=4 SPLIT=6 SPLIT=8 SPLIT=12 SPLIT=16 SPLIT=24 \
      > "$OUT/tiny_gemv_fp16.txt" 2>&1
    echo "tiny exit $?: $(grep -c PASS "$OUT/tiny_gemv_fp16.txt") passed"
    cublas_kernel "1 3586 1572" tiny ;;
  mid49)
    both mid49 mid_m_49_64_check 139 picked SWAP_AB=1,CONSUMERS=3,BN=64,CLUSTER=2,STAGES=5 $ONE_64 $ONE_128 $ONE_256 ;;
  split09)
    timeout 200 $PY scripts/tune_ladder.py --family small --precision fp16 --shapes scripts/shapes/split_09_fresh.txt \
      --iters 100 --seed 140 --variants "" $(for s in 1 2 3 4 5 6 7 8 10 12 14 16; do echo SPLIT=$s; done) \
      > "$OUT/split_09_fresh_fp16.txt" 2>&1
    echo "split09 exit $?: $(grep -c PASS "$OUT/split_09_fresh_fp16.txt") passed" ;;
  tinypick)
    timeout 100 $TL --precision fp16 --shapes scripts/shapes/tiny_gemv.txt --iters 100 --seed 141 --variants picked \
      > "$OUT/tiny_gemv_picked_fp16.txt" 2>&1
    echo "tinypick exit $?: $(grep -c PASS "$OUT/tiny_gemv_picked_fp16.txt") passed"
    echo "1 3586 1572" > /tmp/tiny_one.txt
    timeout 120 ncu --clock-control none --section SpeedOfLight --section LaunchStats --section MemoryWorkloadAnalysis \
      -k regex:'small_m|^kernel|gemv' -c 6 $PY scripts/tune_ladder.py --family small --precision fp16 \
      --shapes /tmp/tiny_one.txt --iters 1 --seed 7 --variants "" SPLIT=8 > "$OUT/ncu_tiny_09_cublas.txt" 2>&1
    echo "ncu exit $?"; grep -E "^  [a-zA-Z_].*\(|Duration|DRAM Throughput|Grid Size" "$OUT/ncu_tiny_09_cublas.txt" ;;
  mid)
    S=SWAP_AB=1,CONSUMERS=3,CLUSTER=2,STAGES=5
    timeout 200 $TL --precision fp16 --shapes scripts/shapes/mid_m_three.txt --iters 20 --seed 133 \
      --variants picked $S,BN=48 $S,BN=64 SWAP_AB=1,CONSUMERS=2,CLUSTER=2,STAGES=8,BN=64 > "$OUT/mid_m_three_fp16.txt" 2>&1
    echo "mid exit $?"; ties "$OUT/mid_m_three_fp16.txt" ;;
  *) echo "unknown part $part: see the list at the top of $0"; exit 2 ;;
  esac
done
