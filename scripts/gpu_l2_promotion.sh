#!/usr/bin/env bash
# Issue 14, sessions 77–78: where 06's extra L2 reads come from, in parts:
#   clocks  the card's clocks and cuBLAS's rate (card_clocks), the env file
#   promo   the pick and 128 × 256 pairs on scripts/shapes/l2_promotion.txt (PROMO_SHAPES) under each of
#           PROMOS (A and B's maps' promotion : C's; 3 is tcraw's 256 bytes, 0 none), one process each
#           (scripts/promotion_probe.py), up to PROMO_S (90) seconds each
#   promoncu  Nsight Compute's counts (duration, L2 sectors read and written, fabric, DRAM) of 128 × 256
#           pairs at 16384×256×1024 (NCU_SHAPE) under each of PROMOS, and of cuBLAS's kernel
#   mcast   the same counts, and the SMs' reads and writes apart, at NCU_SHAPE, promotion none, for 128 × 256
#           tiles alone, in pairs along M (B's boxes multicast to both) and in fours (MCAST_VARIANTS), then
#           cuBLAS's kernel: what multicasting B saves in L2 reads
#   exitread  the pick (EXIT_VARIANTS) on EXIT_SHAPES (scripts/shapes/epilogue_probe_2.txt) in this tree and in
#           a copy whose blocks wait at exit only until C's last boxes are read (cp.async.bulk.wait_group.read),
#           not written — what CUTLASS's epilogue waits for — each tree twice in turn, up to EXIT_S (90) seconds
#   (fp16; median of 20 launches, beside cuBLAS)
#   OUT=out bash scripts/gpu_l2_promotion.sh clocks promo promoncu
set -u
source scripts/gpu_env.sh
shapes=${PROMO_SHAPES:-scripts/shapes/l2_promotion.txt}
promos=${PROMOS:-3:3 3:0 0:0 2:2 1:1}
pairs=CONSUMERS=2,BN=256,CLUSTER=2
METRICS=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_read.sum
METRICS+=,lts__t_sectors_op_write.sum,lts__t_sectors_srcunit_tex.sum,lts__t_sectors_srcunit_ltcfabric.sum
# Nsight Compute's counts (metrics $5) of one kernel at NCU_SHAPE into CSV $1, its maps' promotion $2
# (inputs:output), 06 in configuration $3 beside cuBLAS, the kernels named by regex $4; their medians echoed
ncu_counts() {
  local csv=$1 promo=$2 variant=$3 regex=$4 metrics=$5
  echo "${NCU_SHAPE:-16384 256 1024}" > /tmp/promo_ncu_shape.txt
  timeout 120 ncu --clock-control none --metrics $metrics --page raw --csv -k regex:"$regex" -c 3 \
    $PY scripts/promotion_probe.py --inputs ${promo%:*} --output ${promo#*:} -- --family wgmma --precision fp16 \
    --shapes /tmp/promo_ncu_shape.txt --iters 1 --seed ${SEED:-77} --variants $variant > "$csv" 2>&1
  echo "== $(basename $csv) (ncu exit $?)"
  $PY scripts/ncu_raw_summary.py "$csv" --metrics $metrics
}
for part in "$@"; do
case $part in
  clocks) write_env; card_clocks ;;
  promo)
    for promo in $promos; do
      log="$OUT/promo_${promo/:/_}.txt"
      timeout ${PROMO_S:-90} $PY scripts/promotion_probe.py --inputs ${promo%:*} --output ${promo#*:} -- \
        --family wgmma --precision fp16 --shapes $shapes --iters 20 --seed ${SEED:-77} --variants picked $pairs \
        > "$log" 2>&1
      echo "promo $promo exit $?: $(grep -c PASS "$log") passed"
      grep -E "^ +wgmma" "$log"
    done
    ;;
  promoncu)
    for promo in cublas $promos; do
      if [ $promo = cublas ]; then
        ncu_counts "$OUT/ncu_promo_cublas.csv" 3:3 $pairs "nvjet|gemm" $METRICS
      else
        ncu_counts "$OUT/ncu_promo_${promo/:/_}.csv" $promo $pairs wgmma $METRICS
      fi
    done
    ;;
  mcast)
    metrics=$METRICS,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum
    for variant in ${MCAST_VARIANTS:-CONSUMERS=2,BN=256,CLUSTER=1 $pairs CONSUMERS=2,BN=256,CLUSTER=4}; do
      ncu_counts "$OUT/ncu_mcast_${variant//[=,]/_}.csv" 0:0 $variant wgmma $metrics
    done
    ncu_counts "$OUT/ncu_mcast_cublas.csv" 0:0 $pairs "nvjet|gemm" $metrics
    ;;
  exitread)
    tree=/tmp/exitread && rm -rf $tree && mkdir -p $tree && cp -r tcraw cuda_src scripts $tree/
    wait='if (t % 128 == 0) bulk_wait'
    sed -i "s|$wait<0>();   // C.s last boxes|${wait}_read<0>();   // (read)|" $tree/cuda_src/wgmma_tma.cuh
    echo "exitread: $(grep -c 'bulk_wait_read<0>();   // (read)' $tree/cuda_src/wgmma_tma.cuh) wait changed"
    for tag in here exitread here_2 exitread_2; do   # (each tree twice, in turn: the second from its cache)
      dir=.; [ ${tag%_2} = exitread ] && dir=$tree
      in_tree ${EXIT_S:-90} $dir ${tag%_2} --family wgmma --precision fp16 \
        --shapes ${EXIT_SHAPES:-scripts/shapes/epilogue_probe_2.txt} --iters 20 --seed ${SEED:-77} \
        --variants ${EXIT_VARIANTS:-picked} > "$OUT/exit_$tag.txt" 2>&1
      echo "$tag exit $?: $(grep -c PASS "$OUT/exit_$tag.txt") passed"; grep -E "^ +wgmma" "$OUT/exit_$tag.txt"
    done
    ;;
  *) echo "unknown part $part: see the list at the top of $0"; exit 2 ;;
esac
done
