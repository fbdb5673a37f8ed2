#!/usr/bin/env bash
# Issue 14, session 69: 06's clusters of 4 where A's and B's rows lie off 128-byte lines, in parts
# so that each call ends well inside the 10-minute limit:
#   explore  how many clusters the device holds (held_clusters); then the pick with and without
#            wgmma_sectors_take_clusters_of_4 on scripts/shapes/c4_sectors.txt (the model's least
#            time clusters of 4, its ranking's choice not: the shapes the rule was set on), fp16
#   mixed    on scripts/shapes/c4_mixed.txt (drawn so, but A's and B's rows off lines in different
#            ways: the rule does not fire), the pick beside 128×256 along M and 2 × 2 (fp16; not run yet)
#   fresh    the pick with and without the rule on scripts/shapes/c4_sectors_fresh.txt (drawn after
#            it; FRESH_FILE: another such file), FRESH_PRECISIONS (fp16)
#   tests    the rule's GPU test (its picks run, verified)
#   pipe     (session 70) Nsight Compute at PIPE_SHAPES ("M,N,K" …): cuBLAS's kernels and 06's pick —
#            names, grids, durations, how busy the tensor pipe was, DRAM bytes written
#   stalls   (session 70) where 06's warps stall at STALL_SHAPES (Nsight Compute's per-instruction
#            samples of one launch of the pick, SASS: stalls_MxNxK.csv) — the epilogue's share
#   tiles    (session 70) 06's other tiles beside the pick on scripts/shapes/weak_survey9.txt (fp16),
#            consumers taking turns among them
set -u
source scripts/gpu_env.sh
part=${1:?part: explore, mixed, fresh, tests, pipe, stalls or tiles}
case $part in
  explore)
    held_clusters
    timeout ${EXPLORE_S:-250} $PY scripts/swap_fit_study.py --shapes scripts/shapes/c4_sectors.txt \
      --rule wgmma_sectors_take_clusters_of_4 --iters 10 --seed 69 > "$OUT/c4_sectors_fp16.txt" 2>&1
    echo "sectors exit $?"; grep -E "×.*cuBLAS" "$OUT/c4_sectors_fp16.txt"; tail -5 "$OUT/c4_sectors_fp16.txt" ;;
  mixed)
    timeout ${MIXED_S:-200} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/c4_mixed.txt --iters 10 \
      --seed 69 --variants picked CLUSTER=4 CLUSTER=4,SHARE_A=1 > "$OUT/c4_mixed_fp16.txt" 2>&1
    echo "mixed exit $?"; grep -E "×.*cuBLAS" "$OUT/c4_mixed_fp16.txt" ;;
  fresh)
    file=${FRESH_FILE:-c4_sectors_fresh}
    for p in ${FRESH_PRECISIONS:-fp16}; do
      timeout ${FRESH_S:-250} $PY scripts/swap_fit_study.py --shapes scripts/shapes/$file.txt \
        --rule wgmma_sectors_take_clusters_of_4 --precision $p --iters 10 --seed ${SEED:-$RANDOM} \
        > "$OUT/${file}_$p.txt" 2>&1
      echo "fresh $p exit $?"; grep -E "×.*cuBLAS" "$OUT/${file}_$p.txt"; tail -5 "$OUT/${file}_$p.txt"
    done ;;
  tests)
    gpu_tests sectors sectors ;;
  pipe)
    for shape in ${PIPE_SHAPES:-1072,12136,1624 6000,7344,1624 4936,864,2552}; do
      echo "$shape" > /tmp/pipe_shape.txt
      for run in "gemm|nvjet|splitK|reduce 3" "wgmma 2"; do   # (cuBLAS's kernels, then 06's)
        read -r kernels count <<< "$run"
        timeout ${PIPE_S:-60} ncu --clock-control none --section LaunchStats --metrics gpu__time_duration.sum,\
sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed,dram__bytes_write.sum,dram__bytes_read.sum \
          -k regex:"$kernels" -c $count $PY scripts/tune_ladder.py --family wgmma --shapes /tmp/pipe_shape.txt --iters 1 --seed 7 \
          --variants picked >> "$OUT/pipe.txt" 2>&1
      done
      echo "pipe $shape exit $?"
    done
    grep -E "^  [a-zA-Z_].*\(|Grid Size|Cluster Size|gpu__time|hmma|dram__bytes" "$OUT/pipe.txt" ;;
  stalls)
    for shape in ${STALL_SHAPES:-1072,12136,1624 6000,7344,1624}; do
      echo "$shape" > /tmp/stall_shape.txt; tag=${shape//,/x}
      timeout ${STALL_S:-90} ncu --clock-control none --section SourceCounters --section WarpStateStats -k regex:wgmma -c 1 \
        -o "$OUT/stalls_$tag" $PY scripts/tune_ladder.py --family wgmma --shapes /tmp/stall_shape.txt --iters 1 --seed 7 \
        --variants picked > "$OUT/ncu_stalls_$tag.txt" 2>&1
      echo "ncu stalls $shape exit $?"
      ncu -i "$OUT/stalls_$tag.ncu-rep" --page source --csv --print-source sass > "$OUT/stalls_$tag.csv" 2>&1
      echo "sass page exit $?: $(wc -l < "$OUT/stalls_$tag.csv") lines"; rm -f "$OUT/stalls_$tag.ncu-rep"
    done ;;
  tiles)
    # (run 1 of docs/results/2026-12-06-h100-epilogue-and-fit/ ran these at eb68c4d, branch wip/c-bufs,
    # with C_BUFS=3 or 4 beside three consumers' form, 128 × 192 and 128 × 256 at STAGES=3 too)
    timeout ${TILES_S:-200} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/weak_survey9.txt --iters 20 \
      --seed 70 --variants picked CONSUMERS=3,BN=192,CLUSTER=2,STAGES=3 CONSUMERS=2,BN=192,CLUSTER=2 \
      CONSUMERS=2,BN=256,CLUSTER=2 CONSUMERS=2,BN=256,CLUSTER=2,STAGES=3 CONSUMERS=2,BN=256,CLUSTER=4 \
      CONSUMERS=2,BN=128,PINGPONG=128,CLUSTER=2,STAGES=6 CONSUMERS=2,BN=256,PINGPONG=64,CLUSTER=2 \
      > "$OUT/tiles_weak_survey9.txt" 2>&1
    echo "tiles exit $?"; grep -E "×.*cuBLAS" "$OUT/tiles_weak_survey9.txt" ;;
  *) echo "unknown part $part"; exit 2 ;;
esac
