#!/usr/bin/env bash
# (issue 14) Why 06's tiles of 64 rows or columns run slower than cuBLAS's of the same size where
# few tiles fill the SMs (1024×1024×8192, 1024×768×6144, M = 128 against the llm suite's N × K):
# device calls in parts, logs under $OUT (docs/results/2026-12-02-h200-small-tiles-l2/):
#   swapped    cuBLAS's form at 1024×1024×8192 in 06's terms (swapped, BN = 64 of M, two consumers, pairs
#              along M sharing B's columns) and its kin, beside the picks (scripts/shapes/swapped_128x64.txt)
#   ncu        Nsight Compute's sections over cuBLAS, that form, 06's pick and one consumer's 64×128 tiles
#   source     where those warps stall, instruction by instruction (SASS with the samples, as CSV)
#   cublassource cuBLAS's kernel there, instruction by instruction (its copies and MMAs, as SASS)
#   waitdepth  two consumers keeping a slice's MMAs in flight (WAIT_DEPTH=1) on 64- and 128-column tiles
#   metrics    what each asks of the L2 (sectors and requests read, those that crossed between its two
#              partitions: FABRIC=1), what the L2 sends the SMs, DRAM bytes, instructions, the tensor
#              pipe; SHAPE (default 1024 1024 8192), VARIANTS (default: the form, the pick, 64×128)
#   groupm     one consumer's 64×128 tiles in bands of GROUP_M tile rows, 1 to 64
#   groupmpicks the picks in bands of GROUP_M = 1, 2, 4, 16 (8 as built)
#   fewtiles   1024×768×6144 and its kind (scripts/shapes/few_tiles_mid_k.txt): tile shapes and cuts
#              beside the pick, and which kernel cuBLAS runs there
#   fewswapped the same shapes in swapped tiles sized to fill the SMs in one round
# (The part that timed 06 dealing work by side of the L2, L2_SIDES, is on branch wip/l2-sides, with it.)
#   OUT=out bash scripts/gpu_small_tiles.sh metrics groupm
source "$(dirname "$0")/gpu_env.sh"
write_env
TL="$PY scripts/tune_ladder.py --family wgmma --precision fp16"
FORM=SWAP_AB=1,CONSUMERS=2,BN=64,CLUSTER=2,SHARE_A=1,STAGES=8   # cuBLAS's 128x64_1x2 in 06's terms
ONE=CONSUMERS=1,BN=128,CLUSTER=2,STAGES=8                       # one consumer's 64×128, clusters of 2
for part in "$@"; do
  case $part in
  swapped)
    timeout 400 $TL --shapes scripts/shapes/swapped_128x64.txt --iters 20 --seed 112 --variants picked $FORM \
      SWAP_AB=1,CONSUMERS=2,BN=64,CLUSTER=2,STAGES=8 SWAP_AB=1,CONSUMERS=2,BN=64,CLUSTER=1,STAGES=8 \
      SWAP_AB=1,CONSUMERS=2,BN=128,CLUSTER=2,SHARE_A=1,STAGES=6 > "$OUT/swapped_128x64_fp16.txt" 2>&1
    echo "swapped exit $?"; ties "$OUT/swapped_128x64_fp16.txt" ;;
  ncu)
    echo 1024 1024 8192 > /tmp/s.txt
    S="--section LaunchStats --section SpeedOfLight --section Occupancy --section MemoryWorkloadAnalysis"
    S="$S --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis"
    timeout 120 ncu --clock-control none $S -k regex:nvjet -c 1 $TL --shapes /tmp/s.txt --iters 1 --seed 7 \
      --variants picked > "$OUT/ncu_cublas.txt" 2>&1; echo "cublas $?"
    i=0
    for v in $FORM picked $ONE; do
      i=$((i+1)); timeout 120 ncu --clock-control none $S -k regex:wgmma -c 1 $TL --shapes /tmp/s.txt --iters 1 \
        --seed 7 --variants $v > "$OUT/ncu_06_$i.txt" 2>&1; echo "$v $?"
    done
    grep -E "Duration|L2 Cache Throughput|L1/TEX Cache Throughput|DRAM Throughput|Compute \(SM\)|SM Frequency" "$OUT"/ncu_*.txt ;;
  source)
    echo 1024 1024 8192 > /tmp/s.txt
    i=0
    for v in $FORM $ONE; do
      i=$((i+1))
      timeout 150 ncu --clock-control none --section SourceCounters --section WarpStateStats --section InstructionStats \
        -k regex:wgmma -c 1 -f -o "$OUT/source_$i" $TL --shapes /tmp/s.txt --iters 1 --seed 7 --variants $v \
        > "$OUT/ncu_source_$i.txt" 2>&1; echo "$v $?"
      ncu -i "$OUT/source_$i.ncu-rep" --page source --csv --print-source sass > "$OUT/source_sass_$i.csv" 2>&1
      ncu -i "$OUT/source_$i.ncu-rep" --page details --print-details all > "$OUT/source_details_$i.txt" 2>&1
    done ;;
  cublassource)
    # cuBLAS's kernel at 1024×1024×8192 instruction by instruction: its copies (UTMALDG …) and MMAs
    echo 1024 1024 8192 > /tmp/s.txt
    timeout 150 ncu --clock-control none --section SourceCounters --section WarpStateStats -k regex:nvjet -c 1 \
      -f -o "$OUT/source_cublas" $TL --shapes /tmp/s.txt --iters 1 --seed 7 --variants picked > "$OUT/ncu_source_cublas.txt" 2>&1
    echo "cublas source $?"
    ncu -i "$OUT/source_cublas.ncu-rep" --page source --csv --print-source sass > "$OUT/source_sass_cublas.csv" 2>&1
    $PY - "$OUT/source_sass_cublas.csv" <<'PYEOF'
import csv, sys   # each copy, barrier and MMA instruction as written, with how often it ran
rows = list(csv.reader(open(sys.argv[1])))
head = rows[1]
src, ran = head.index("Source"), head.index("Instructions Executed")
for row in rows[2:]:
    text = row[src].strip() if len(row) > ran else ""
    op = text.split()[1] if text.startswith("@") and len(text.split()) > 1 else text.split(" ")[0]
    if op.startswith(("UTMA", "UBLKCP", "SYNCS", "HGMMA", "WARPGROUP", "USETMAXREG", "UCGABAR", "MEMBAR")):
        print(f"{row[ran]:>10}  {text}")
PYEOF
    ;;
  waitdepth)
    timeout 400 $TL --shapes scripts/shapes/swapped_128x64.txt --iters 20 --seed 113 --variants picked $FORM \
      $FORM,WAIT_DEPTH=1 CONSUMERS=2,BN=64,CLUSTER=1,STAGES=8,WAIT_DEPTH=1 CONSUMERS=2,BN=128,CLUSTER=2,STAGES=6,WAIT_DEPTH=1 \
      > "$OUT/wait_depth_two_fp16.txt" 2>&1
    echo "wait depth exit $?"; ties "$OUT/wait_depth_two_fp16.txt" ;;
  metrics)
    echo ${SHAPE:-1024 1024 8192} > /tmp/s.txt
    M=gpu__time_duration.sum,lts__t_sectors_op_read.sum,lts__t_requests_op_read.sum,lts__t_sectors_op_write.sum
    M=$M,lts__t_sectors_lookup_hit.sum,lts__t_sectors_lookup_miss.sum,dram__bytes_read.sum,dram__bytes_write.sum
    M=$M,l1tex__m_xbar2l1tex_read_bytes.sum,smsp__inst_executed.sum,sm__cycles_elapsed.avg.per_second
    M=$M,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active
    M=$M,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_read.sum
    [ "${FABRIC:-0}" = 1 ] && M=$M,lts__t_requests_srcunit_ltcfabric.sum,lts__t_sectors_srcunit_ltcfabric.sum
    timeout 100 ncu --clock-control none --metrics $M -k regex:nvjet -c 1 $TL --shapes /tmp/s.txt --iters 1 --seed 7 \
      --variants picked > "$OUT/metrics_cublas.txt" 2>&1; echo "cublas $?"
    i=0
    for v in ${VARIANTS:-$FORM picked $ONE}; do
      i=$((i+1)); timeout 100 ncu --clock-control none --metrics $M -k regex:wgmma -c 1 $TL --shapes /tmp/s.txt \
        --iters 1 --seed 7 --variants $v > "$OUT/metrics_06_$i.txt" 2>&1; echo "$v $?"
    done
    for f in "$OUT"/metrics_cublas.txt "$OUT"/metrics_06_*.txt; do
      echo "== $f"; grep -hE "^\s+(gpu__|lts__|dram__|l1tex__|smsp__|sm__)" "$f"
    done ;;
  groupm)
    printf "1024 1024 8192\n1024 1024 1024\n128 4096 4096\n" > /tmp/g.txt
    V=""; for g in 1 2 4 8 16 64; do V="$V $ONE,GROUP_M=$g"; done
    timeout 300 $TL --shapes /tmp/g.txt --iters 20 --seed 114 --variants picked $V > "$OUT/group_m_fp16.txt" 2>&1
    echo "group_m exit $?"; ties "$OUT/group_m_fp16.txt" ;;
  groupmpicks)
    printf "1024 1024 8192\n512 512 32768\n128 4096 4096\n128 11008 4096\n1024 1024 1024\n" > /tmp/g2.txt
    timeout 300 $TL --shapes /tmp/g2.txt --iters 20 --seed 117 --variants picked picked:GROUP_M=1 picked:GROUP_M=2 \
      picked:GROUP_M=4 picked:GROUP_M=16 > "$OUT/group_m_picks_fp16.txt" 2>&1
    echo "group_m picks exit $?"; ties "$OUT/group_m_picks_fp16.txt" ;;
  fewtiles)
    SH=scripts/shapes/few_tiles_mid_k.txt
    timeout 300 $TL --shapes $SH --iters 20 --seed 115 --variants picked CONSUMERS=2,BN=128,CLUSTER=1,STAGES=6 \
      CONSUMERS=2,BN=192,CLUSTER=2,STAGES=4 CONSUMERS=2,BN=256,CLUSTER=2,STAGES=4 \
      CONSUMERS=2,BN=128,CLUSTER=4,SHARE_A=1,STAGES=6 CONSUMERS=3,BN=192,CLUSTER=2,STAGES=3 > "$OUT/few_tiles_fp16.txt" 2>&1
    echo "few tiles exit $?"; ties "$OUT/few_tiles_fp16.txt"
    cublas_kernel "$(grep -v "^#" $SH | head -1)" kernel ;;
  fewswapped)
    timeout 300 $TL --shapes scripts/shapes/few_tiles_mid_k.txt --iters 20 --seed 116 --variants picked \
      SWAP_AB=1,CONSUMERS=1,BN=96,CLUSTER=1,STAGES=8 SWAP_AB=1,CONSUMERS=1,BN=96,CLUSTER=2,STAGES=8 \
      SWAP_AB=1,CONSUMERS=2,BN=48,CLUSTER=2,STAGES=8 SWAP_AB=1,CONSUMERS=2,BN=48,CLUSTER=1,STAGES=8 \
      SWAP_AB=1,CONSUMERS=1,BN=112,CLUSTER=2,STAGES=8 > "$OUT/few_tiles_swapped_fp16.txt" 2>&1
    echo "few swapped exit $?"; ties "$OUT/few_tiles_swapped_fp16.txt" ;;
  *) echo "unknown part $part: see the list at the top of $0"; exit 2 ;;
  esac
done
