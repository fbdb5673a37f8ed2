#!/usr/bin/env bash
# (issue 14) What holds 06 where it realigns B (B_REALIGN) over long K with few tiles
# (scripts/shapes/realign_long_k.txt): device calls in parts, logs under $OUT
#   check     the GPU tests that realign B (every N mod 8, K's tail rows, edges, clusters of 1, 2, 4),
#             then compute-sanitizer's memcheck, racecheck and synccheck over realigning configurations
#   rate      the picks beside one consumer's 64-column tiles (aligned N: no realigning), B copied
#             to pitched rows, split-K in rounds and stream-K over every SM
#   wide      past where the picks realign B (M of 33–64, one consumer): the picks (B copied) beside
#             the same with B realigned, on scripts/shapes/b_realign.txt and b_realign_mid.txt
#   aligned   M of 33–64, N and K aligned, long K (scripts/shapes/mid_m_long_k_aligned.txt and
#             mid_m_long_k_aligned_fresh.txt): the picks beside swapped tiles (M along the wgmma's n:
#             48 or 64 of it), the most stages, clusters of 1, 2, 4;
#             then which kernel cuBLAS runs at two (Nsight Compute's launch statistics)
#   ncu       Nsight Compute at 33×6438×10320 (the pick) and 33×6400×10240 (the same tiles, aligned):
#             warp states, and the 60 SASS lines with the most stall samples
# Run 3 of docs/results/2026-12-03-h200-realign-rate/ is rate and ncu on main; runs 1–2 of
# docs/results/2026-12-03-h200-mid-m-swapped/ are rate, aligned and ncu on branch
# wip/realign-by-class (the realigning pass by row class: no faster; check and wide not run).
#   OUT=out bash scripts/gpu_realign.sh check rate
source "$(dirname "$0")/gpu_env.sh"
write_env
TL="$PY scripts/tune_ladder.py --family wgmma --precision fp16"
ONE=CONSUMERS=1,BN=64,CLUSTER=1,STAGES=8
for part in "$@"; do
  case $part in
  check)
    PYTEST_S=${PYTEST_S:-250} gpu_tests "realigning_b or (every_06_configuration and B_REALIGN)" realign
    SAN_TOOLS="memcheck racecheck synccheck" SAN_S=120 sanitize_configs realign fp16:60x1001x1555 \
      bf16:40x3001x1100 fp16:33x6438x1030 fp16:64x2999x4099:CONSUMERS=1,BN=128,CLUSTER=2,B_REALIGN=1 \
      fp16:130x1003x1100:CONSUMERS=2,BN=128,CLUSTER=4,B_REALIGN=1 fp16:100x1001x333:CONSUMERS=2,BN=192,CLUSTER=2,B_REALIGN=1 ;;
  rate)
    timeout 400 $TL --shapes scripts/shapes/realign_long_k.txt --iters 20 --seed 121 --variants picked $ONE \
      $ONE,B_REALIGN=1 picked:SPLIT_ROUNDS=2 picked:STREAM_K_ROUNDS=0 \
      > "$OUT/realign_rate_fp16.txt" 2>&1
    echo "rate exit $?"; ties "$OUT/realign_rate_fp16.txt" ;;
  wide)
    for f in b_realign b_realign_mid; do
      timeout 250 $TL --shapes scripts/shapes/$f.txt --iters 20 --seed 123 --variants picked picked:B_REALIGN=1 \
        > "$OUT/wide_$f.txt" 2>&1
      echo "wide $f exit $?"; ties "$OUT/wide_$f.txt"
    done ;;
  aligned)
    # (Run 1: 13 stages of one consumer's 64 columns no faster at 33×6400×10240; swapped 64×48
    # tiles, 13 stages, ahead of the pick at 3 of 6 — cuBLAS there runs swapped 64×40 and 64×48
    # tiles, 15–16 stages, in clusters of 4 that multicast A. So: swapped tiles, the most stages,
    # clusters of 1, 2 and 4.)
    S=SWAP_AB=1,CONSUMERS=1
    for f in mid_m_long_k_aligned mid_m_long_k_aligned_fresh; do
      timeout 250 $TL --shapes scripts/shapes/$f.txt --iters 20 --seed 124 --variants picked \
        $S,BN=48,CLUSTER=1,STAGES=14 $S,BN=48,CLUSTER=2,STAGES=14 $S,BN=64,CLUSTER=2,STAGES=13 \
        $S,BN=64,CLUSTER=4,STAGES=13 CONSUMERS=1,BN=128,CLUSTER=1,STAGES=8 > "$OUT/$f.txt" 2>&1
      echo "aligned $f exit $?"; ties "$OUT/$f.txt"
    done
    # which kernel cuBLAS runs (its name: tile, stages, cluster; grid): run 1 at 33×6400×10240 and
    # 48×7000×8192, now M of 64 and one fresh shape
    for s in "64 6144 8192" "40 6144 8192"; do
      echo "$s:"; cublas_kernel "$s"
    done ;;
  ncu)
    # (i: shape, then realigning or not — the same tiles at N off 8 and aligned)
    for run in "1 33 6438 10320 1" "2 33 6400 10240 0"; do
      set -- $run; i=$1; echo "$2 $3 $4" > /tmp/s.txt
      timeout 200 ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis \
        --section SourceCounters --section WarpStateStats -k regex:wgmma -c 1 -f -o "$OUT/realign_$i" \
        $TL --shapes /tmp/s.txt --iters 1 --seed 7 --variants $ONE,B_REALIGN=$5 > "$OUT/ncu_realign_$i.txt" 2>&1
      echo "$2×$3×$4 B_REALIGN=$5 $?"
      ncu -i "$OUT/realign_$i.ncu-rep" --page source --csv --print-source sass > /tmp/sass_$i.csv 2>&1
      ncu -i "$OUT/realign_$i.ncu-rep" --page details --print-details all > "$OUT/realign_details_$i.txt" 2>&1
      rm -f "$OUT/realign_$i.ncu-rep"
      $PY - /tmp/sass_$i.csv > "$OUT/realign_stalls_$i.txt" <<'PYEOF'
import csv, sys   # every instruction with stall samples, most first: samples, executions, the SASS
rows = list(csv.reader(open(sys.argv[1])))
head = next(r for r in rows if "Source" in r)
src, ran, samp = head.index("Source"), head.index("Instructions Executed"), head.index("Warp Stall Sampling (All Samples)")
body = [r for r in rows[rows.index(head) + 1:] if len(r) > max(src, ran, samp) and r[samp].replace(",", "").isdigit()]
total = sum(int(r[samp].replace(",", "")) for r in body)
print(f"# {total} samples")
for r in sorted(body, key=lambda r: -int(r[samp].replace(",", "")))[:60]:
    print(f"{r[samp]:>8} {r[ran]:>10}  {r[src].strip()}")
PYEOF
      grep -E "Duration|DRAM Throughput|Memory Throughput|L2 Cache Throughput|Compute \(SM\)" "$OUT/realign_details_$i.txt"
    done ;;
  *) echo "unknown part $part: see the list at the top of $0"; exit 2 ;;
  esac
done
