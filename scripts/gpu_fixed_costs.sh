#!/usr/bin/env bash
# (issue 14) Where a small or split problem's fixed time goes, 06 and 10 against cuBLAS. Device calls
# in parts, logs under $OUT:
#   durations  Nsight Compute's kernel durations (gpu__time_duration: the kernel alone, no launch)
#              of 06's pick or 10 and of cuBLAS's kernels at scripts/shapes/fixed_costs.txt, fp16 —
#              beside the event-timed medians of bench (its log): what the launch adds to each
#   unshared   at long K, the pick's 128×128 tiles in clusters of 2 (sharing B by multicast) against
#              clusters of 1, both cut in 2 pieces along K (scripts/shapes/split_two_unshared.txt), fp16 —
#              what a split inside a cluster (its pieces summed through distributed shared memory)
#              would give up of the multicast
#   warm       the same kernels under Nsight Compute with caches left warm (--cache-control none: the
#              state of a timed launch, code and tensor maps cached), raw warp-state metrics and the
#              speed-of-light throughputs; WARM_SHAPES (a file of M,N,K lines; scripts/shapes/
#              fixed_costs.txt) in WARM_PRECISION (fp16) — e.g. scripts/shapes/mid_m_gaps.txt, where
#              06's swapped picks trail at M of 264–628 and neither stages nor widths closed it
#   OUT=out bash scripts/gpu_fixed_costs.sh durations unshared
source "$(dirname "$0")/gpu_env.sh"
write_env
# Nsight Compute's speed-of-light: SMs, memory as a whole, L2, DRAM — % of peak over the kernel
SOL=sm__throughput.avg.pct_of_peak_sustained_elapsed,gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed
SOL=$SOL,lts__throughput.avg.pct_of_peak_sustained_elapsed,gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed
for part in "$@"; do
  case $part in
  durations)
    timeout 150 $PY -m tcraw bench --shapes scripts/shapes/fixed_costs.txt --precision fp16 --kernel wgmma_tma_fp16 \
      --iters 20 --seed 191 > "$OUT/fixed_costs_bench.txt" 2>&1
    echo "bench exit $?: $(grep -c PASS "$OUT/fixed_costs_bench.txt") passed"
    grep -v "^#" scripts/shapes/fixed_costs.txt | grep . | while read -r shape; do
      echo "${shape//,/ }" > /tmp/fixed_costs_shape.txt
      timeout 90 ncu --clock-control none --metrics gpu__time_duration.sum,launch__grid_size,launch__cluster_dim_x \
        -k regex:'nvjet|gemm|gemv|wgmma|splitK|reduce|cutlass' -c 8 $PY scripts/tune_ladder.py --family wgmma \
        --precision fp16 --shapes /tmp/fixed_costs_shape.txt --iters 2 --seed 192 --variants picked \
        > "$OUT/ncu_durations_${shape//,/x}.txt" 2>&1
      echo "== $shape (ncu exit $?)"
      grep -E "^  [a-zA-Z_].*\(|gpu__time_duration|grid_size|cluster_dim" "$OUT/ncu_durations_${shape//,/x}.txt" \
        | awk '/\(/ {name = $1; next} {printf "%s %s %s\n", name, $1, $NF}'
    done ;;
  warm)
    p=${WARM_PRECISION:-fp16}
    grep -v "^#" ${WARM_SHAPES:-scripts/shapes/fixed_costs.txt} | grep . | while read -r shape; do
      echo "${shape//,/ }" > /tmp/fixed_costs_shape.txt
      csv="$OUT/ncu_warm_${p}_${shape//,/x}.csv"
      timeout 120 ncu --clock-control none --cache-control none --section WarpStateStats --section SchedulerStats \
        --section SpeedOfLight --metrics gpu__time_duration.sum,smsp__inst_executed.sum,sm__cycles_active.avg \
        --page raw --csv -k regex:'nvjet|gemm|gemv|wgmma|splitK|reduce|cutlass' -c 24 $PY scripts/tune_ladder.py \
        --family wgmma --precision $p --shapes /tmp/fixed_costs_shape.txt --iters 8 --seed 194 --variants picked \
        > "$csv" 2>&1
      echo "== $shape $p (ncu exit $?)"
      $PY scripts/ncu_raw_summary.py "$csv"
      $PY scripts/ncu_raw_summary.py "$csv" --metrics gpu__time_duration.sum,$SOL
    done ;;
  unshared)
    timeout 150 $PY scripts/tune_ladder.py --family wgmma --precision fp16 --shapes scripts/shapes/split_two_unshared.txt \
      --iters 50 --seed 193 --variants picked CONSUMERS=2,BN=128,CLUSTER=2,STAGES=6 CONSUMERS=2,BN=128,CLUSTER=1,STAGES=6 \
      > "$OUT/split_two_unshared.txt" 2>&1
    echo "unshared exit $?: $(grep -c PASS "$OUT/split_two_unshared.txt") passed"
    ties "$OUT/split_two_unshared.txt" ;;
  *) echo "unknown part $part: see the list at the top of $0"; exit 2 ;;
  esac
done
