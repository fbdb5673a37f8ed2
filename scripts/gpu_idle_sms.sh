#!/usr/bin/env bash
# (issue 14) At M ≤ 32, 06's two consumers' swapped tiles (128 of N × 16 or 32 of M) often number
# fewer than the SMs and run whole: 82–127 of 132 SMs busy. Where that time goes against cuBLAS,
# and whether stream-K over every SM wins there now. Device calls in parts, logs under $OUT:
#   ncu     Nsight Compute's duration, grid, cluster, DRAM bytes and L2 requests / sectors of
#           cuBLAS's kernels, 06's pick and the pick with stream-K over every SM
#           (picked:STREAM_K_ROUNDS=0) at three shapes: B's rows off 128-byte lines with 113 and
#           123 tiles, on lines with 106 (1.07× cuBLAS) — one process each, fp16
#   stream  the pick beside picked:STREAM_K_ROUNDS=0 (and with SPLIT_MIN_SAVED=4, where a share
#           saves fewer than 16 slices) on scripts/shapes/idle_sms_probe.txt, fp16
#   clusters  the pick beside the same tiles fixed (clusters of 1, 8 stages: the pick's own), in
#           clusters of 2 (8 stages, and the most that fit: 10 for BN 16, 9 for 32), of 4 (BN 32,
#           9 stages) and in clusters of 1 with the most stages, on small_m_clusters_16.txt and
#           small_m_clusters_32.txt, fp16
#   ncu06   the same Nsight Compute metrics for 06's pick and its tiles in clusters of 2 at the two
#           shapes off lines (run 1's ncu part caught cuBLAS's launches only)
#   OUT=out bash scripts/gpu_idle_sms.sh ncu stream
source "$(dirname "$0")/gpu_env.sh"
write_env
METRICS=gpu__time_duration.sum,launch__grid_size,launch__cluster_dim_x,launch__block_size,dram__bytes_read.sum,lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors.sum,lts__t_requests_srcunit_ltcfabric.sum,sm__cycles_active.avg
# Nsight Compute's METRICS for the launches matching $3 (the first $4 of them) of tune_ladder's
# variant $2 at one shape ("M N K", $1), fp16, seed $6: raw CSV $OUT/$5.csv, its medians echoed
ncu_counts() {
  echo "$1" > /tmp/idle_sms_shape.txt
  timeout 120 ncu --clock-control none --metrics $METRICS --page raw --csv -k regex:"$3" -c $4 \
    $PY scripts/tune_ladder.py --family wgmma --precision fp16 --shapes /tmp/idle_sms_shape.txt --iters 1 \
    --seed $6 --variants $2 > "$OUT/$5.csv" 2>&1
  echo "== $1 $2 (ncu exit $?)"
  $PY scripts/ncu_raw_summary.py "$OUT/$5.csv" --metrics $METRICS
}
for part in "$@"; do
  case $part in
  ncu)
    for shape in "16 14424 15080" "26 15720 15688" "23 13504 14280"; do
      for v in picked picked:STREAM_K_ROUNDS=0; do
        # (-c 6 was meant to take cuBLAS's launches and the variant's, but tune_ladder runs cuBLAS's
        # first and more than 6 times: run 1 caught only cuBLAS's — ncu06 below takes 06's)
        ncu_counts "$shape" $v 'nvjet|gemm|wgmma|splitK|reduce|cutlass' 6 "ncu_${shape// /x}_${v//[:=]/_}" 251
      done
    done ;;
  stream)
    timeout 300 $PY scripts/tune_ladder.py --family wgmma --precision fp16 --shapes scripts/shapes/idle_sms_probe.txt \
      --iters 100 --seed 252 --variants picked picked:STREAM_K_ROUNDS=0 picked:STREAM_K_ROUNDS=0,SPLIT_MIN_SAVED=4 \
      > "$OUT/idle_sms_stream_fp16.txt" 2>&1
    echo "stream exit $?: $(grep -c PASS "$OUT/idle_sms_stream_fp16.txt") passed"
    ties "$OUT/idle_sms_stream_fp16.txt" ;;
  clusters)
    for bn in 16 32; do
      t=SWAP_AB=1,CONSUMERS=2,BN=$bn,WAIT_DEPTH=1
      most=$((bn == 16 ? 10 : 9))
      variants="picked $t,CLUSTER=1,STAGES=8 $t,CLUSTER=2,STAGES=8 $t,CLUSTER=2,STAGES=$most $t,CLUSTER=1,STAGES=$most"
      [ $bn = 32 ] && variants="$variants $t,CLUSTER=4,STAGES=9"
      timeout 250 $PY scripts/tune_ladder.py --family wgmma --precision fp16 --shapes scripts/shapes/small_m_clusters_$bn.txt \
        --iters 100 --seed $((252 + bn)) --variants $variants > "$OUT/small_m_clusters_${bn}_fp16.txt" 2>&1
      echo "clusters BN $bn exit $?: $(grep -c PASS "$OUT/small_m_clusters_${bn}_fp16.txt") passed"
      ties "$OUT/small_m_clusters_${bn}_fp16.txt" | grep -v "^cublas"
    done ;;
  ncu06)
    for run in "16 14424 15080 16" "26 15720 15688 32"; do
      read -r m n k bn <<< "$run"
      for v in picked SWAP_AB=1,CONSUMERS=2,BN=$bn,WAIT_DEPTH=1,CLUSTER=2,STAGES=8; do
        ncu_counts "$m $n $k" $v wgmma 2 "ncu06_${m}x${n}x${k}_${v//[:=,]/_}" 253
      done
    done ;;
  *) echo "unknown part $part: see the list at the top of $0"; exit 2 ;;
  esac
done
