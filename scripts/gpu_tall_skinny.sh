#!/usr/bin/env bash
# Issue 14, session 76: 06's other forms where the skinny suite is weakest, in parts:
#   clocks  the card's clocks and cuBLAS's rate (card_clocks), the env file
#   tall    tall, skinny problems (scripts/shapes/tall_skinny.txt: M large, N ≤ 512): the pick beside
#           128 × 256 tiles (pairs along M, and alone), 128 × 128 pairs along N sharing A (SHARE_A) and
#           2 × 2, swapped 128 × 128 and 128 × 256 pairs, and 128 × 128 pairs along M without turns;
#           then which kernels cuBLAS runs at 16384×256×1024 and 8192×64×8192
#   m128    M = 128 against wide B (scripts/shapes/m128_wide.txt): the pick beside one consumer's
#           64 × 176 pairs and two consumers' 128 × 96 (cuBLAS's tile) pairs along N and alone
#   rows192 tall problems whose 192-row tiles fill the SMs (scripts/shapes/tall_192.txt): the pick
#           beside 128 × 256 pairs and three consumers' 192 × 128 in pairs along N (sharing A: cuBLAS's
#           form at 12288×256×1024), along M, and alone
#   rule    the pick with and without wgmma_tall_rows (192 × 128 tiles) on scripts/shapes/tall_fresh_2.txt,
#           drawn where it fires (RULE_SHAPES: tall_fresh.txt, where its first form fired), fp16 and
#           bf16 (swap_fit_study.py)
#   tests   the rule's GPU test (bindings backend), memcheck and racecheck over its pick
#   nostore the pick and 128 × 256 pairs on scripts/shapes/epilogue_probe.txt (EPI_SHAPES), in this
#           tree and in copies whose 06 stores no C (nostore: store_c's two calls skipped) or fills
#           its C boxes in shared memory but copies none out (notma): their rows FAIL, their time
#           is the kernel less that part of its epilogue (EPI_TREES: which of store, nostore, notma)
#   ncu     Nsight Compute's counts (METRICS: duration, DRAM bytes read and written, tensor pipe busy,
#           L2 sectors) of cuBLAS's kernel and of 128 × 256 pairs at 16384×256×1024 and 12288×256×1024
#           (NCU_SHAPES: "M N K;M N K")
#   cparts  on tall_skinny.txt the pick beside cuBLAS's form at 16384×256×1024 — swapped 128 of N by 256 of M in
#           pairs along N, A's rows multicast, B copied plainly — with 3 stages (C staged whole) and with 4
#           (C_PARTS 2 or 4: C's box stored in parts, which frees the fourth stage cuBLAS's kernel holds)
#   swtall  the pick beside that form (C_PARTS=2) on scripts/shapes/swapped_tall_rows.txt (N of 129–256 where the
#           pick takes turns on 128 × 128 tiles), fp16 then bf16
#   swfresh the pick beside the turns (TURNS_CONFIG) on scripts/shapes/swapped_tall_fresh.txt, drawn where
#           wgmma_swaps_tall_rows took that form (since replaced by wgmma_fits_tall_rows), fp16 then bf16;
#           wgmma_fits_tall_rows' GPU test
#   fitfresh the pick beside the turns it replaced (TURNS_CONFIG) on FIT_SHAPES (scripts/shapes/tall_fit_fresh.txt),
#           drawn where wgmma_fits_tall_rows fires, fp16 then bf16 (FRESH_PRECISIONS); the rule's GPU test
#   nfit    the pick beside two consumers' 128 × 16·⌈N/16⌉ tiles (B's whole width) in pairs along M, each shape
#           in its own process, on NFIT_SHAPES (files; scripts/shapes/n_fit_tall.txt) in NFIT_PRECISIONS (fp16)
#   (fp16 unless TALL_PRECISION; median of 20 launches, beside cuBLAS)
#   OUT=out bash scripts/gpu_tall_skinny.sh clocks tall m128
set -u
source scripts/gpu_env.sh
p=${TALL_PRECISION:-fp16}
counts=gpu__time_duration.sum,launch__grid_size,launch__cluster_dim_x,dram__bytes_read.sum,dram__bytes_write.sum
counts+=,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,sm__cycles_active.avg,lts__t_sectors.sum
METRICS=${METRICS:-$counts}
swapped=SWAP_AB=1,CONSUMERS=2,BN=256,CLUSTER=2   # (cparts, swtall: cuBLAS's form at 16384×256×1024)
for part in "$@"; do
case $part in
  clocks)
    write_env
    card_clocks
    ;;
  tall)
    timeout ${TALL_S:-240} $PY scripts/tune_ladder.py --family wgmma --precision $p \
      --shapes scripts/shapes/tall_skinny.txt --iters 20 --seed ${SEED:-76} --variants picked \
      CONSUMERS=2,BN=256,CLUSTER=2 CONSUMERS=2,BN=256,CLUSTER=1 CONSUMERS=2,BN=128,CLUSTER=2,SHARE_A=1,STAGES=6 \
      CONSUMERS=2,BN=128,CLUSTER=4,SHARE_A=1,STAGES=6 SWAP_AB=1,CONSUMERS=2,BN=128,CLUSTER=2,STAGES=6 \
      SWAP_AB=1,CONSUMERS=2,BN=256,CLUSTER=2,STAGES=3 CONSUMERS=2,BN=128,CLUSTER=2,STAGES=6 \
      > "$OUT/tall_$p.txt" 2>&1
    echo "tall exit $?"; tail -3 "$OUT/tall_$p.txt"
    cublas_kernel "16384 256 1024" "" $p
    cublas_kernel "8192 64 8192" "" $p
    ;;
  cparts)
    timeout ${TALL_S:-240} $PY scripts/tune_ladder.py --family wgmma --precision $p \
      --shapes scripts/shapes/tall_skinny.txt --iters 20 --seed ${SEED:-78} --variants picked \
      $swapped,STAGES=3 $swapped,C_PARTS=2,STAGES=4 $swapped,C_PARTS=4,STAGES=4 > "$OUT/cparts_$p.txt" 2>&1
    echo "cparts exit $?: $(grep -c PASS "$OUT/cparts_$p.txt") passed"; ties "$OUT/cparts_$p.txt"
    ;;
  swtall)
    for q in fp16 bf16; do
      timeout ${TALL_S:-120} $PY scripts/tune_ladder.py --family wgmma --precision $q \
        --shapes scripts/shapes/swapped_tall_rows.txt --iters 20 --seed ${SEED:-78} --variants picked \
        $swapped,C_PARTS=2,STAGES=4 > "$OUT/swtall_$q.txt" 2>&1
      echo "swtall $q exit $?: $(grep -c PASS "$OUT/swtall_$q.txt") passed"; ties "$OUT/swtall_$q.txt"
    done
    ;;
  swfresh|fitfresh)
    shapes=scripts/shapes/swapped_tall_fresh.txt
    [ $part = fitfresh ] && shapes=${FIT_SHAPES:-scripts/shapes/tall_fit_fresh.txt}
    for q in ${FRESH_PRECISIONS:-fp16 bf16}; do
      timeout ${TALL_S:-120} $PY scripts/tune_ladder.py --family wgmma --precision $q \
        --shapes $shapes --iters 20 --seed ${SEED:-79} --variants picked \
        CONSUMERS=2,PINGPONG=128,BN=128,CLUSTER=2,STAGES=6 > "$OUT/${part}_$q.txt" 2>&1
      echo "$part $q exit $?: $(grep -c PASS "$OUT/${part}_$q.txt") passed"; ties "$OUT/${part}_$q.txt"
    done
    gpu_tests n_129_to_240 fits
    ;;
  nfit)
    for q in ${NFIT_PRECISIONS:-fp16}; do
      for f in ${NFIT_SHAPES:-scripts/shapes/n_fit_tall.txt}; do
        grep -v '^#' "$f" | while read -r m n k; do
          echo "$m $n $k" > /tmp/nfit_shape.txt
          timeout 60 $PY scripts/tune_ladder.py --family wgmma --precision $q --shapes /tmp/nfit_shape.txt \
            --iters 20 --seed ${SEED:-80} --variants picked CONSUMERS=2,BN=$(( (n + 15) / 16 * 16 )),CLUSTER=2 \
            >> "$OUT/nfit_$q.txt" 2>&1 || echo "nfit $q $m×$n×$k exit $?"
        done
      done
      echo "nfit $q: $(grep -c PASS "$OUT/nfit_$q.txt") passed"; ties "$OUT/nfit_$q.txt"
    done
    ;;
  m128)
    timeout ${TALL_S:-240} $PY scripts/tune_ladder.py --family wgmma --precision $p \
      --shapes scripts/shapes/m128_wide.txt --iters 20 --seed ${SEED:-76} --variants picked \
      CONSUMERS=1,BN=176,CLUSTER=2,STAGES=6 CONSUMERS=2,BN=96,CLUSTER=2,SHARE_A=1,STAGES=6 \
      CONSUMERS=2,BN=96,CLUSTER=1,STAGES=6 > "$OUT/m128_$p.txt" 2>&1
    echo "m128 exit $?"; tail -3 "$OUT/m128_$p.txt"
    ;;
  rows192)
    timeout ${TALL_S:-240} $PY scripts/tune_ladder.py --family wgmma --precision $p \
      --shapes scripts/shapes/tall_192.txt --iters 20 --seed ${SEED:-76} --variants picked \
      CONSUMERS=2,BN=256,CLUSTER=2 CONSUMERS=3,BN=128,CLUSTER=2,SHARE_A=1,STAGES=4 \
      CONSUMERS=3,BN=128,CLUSTER=2,STAGES=4 CONSUMERS=3,BN=128,CLUSTER=1,STAGES=4 > "$OUT/rows192_$p.txt" 2>&1
    echo "rows192 exit $?"; tail -3 "$OUT/rows192_$p.txt"
    ;;
  rule)   # wgmma_tall_rows: the pick with it and without it on fresh shapes, fp16 and bf16
    for key in fp16 bf16; do
      shapes=${RULE_SHAPES:-scripts/shapes/tall_fresh_2.txt}
      log="$OUT/$(basename $shapes .txt)_$key.txt"
      timeout ${RULE_S:-150} $PY scripts/swap_fit_study.py --shapes $shapes --rule wgmma_tall_rows \
        --precision $key --iters 20 --seed ${SEED:-77} > "$log" 2>&1
      echo "rule $key exit $?"; tail -4 "$log"
    done
    ;;
  tests)   # the rule's GPU test, then memcheck and racecheck over its pick at two shapes
    gpu_tests "tall_problems and bindings" tall
    SAN_S=${SAN_S:-120} sanitize_configs tall fp16:12000x217x1000 bf16:5728x489x1360
    ;;
  nostore)
    # trees: store (this one), nostore (store_c's calls skipped), notma (the boxes filled in shared
    # memory as ever, the copy engine's stores of them skipped) — EPI_TREES picks
    for tag in ${EPI_TREES:-store nostore}; do
      tree=.
      if [ $tag != store ]; then
        tree=/tmp/$tag && rm -rf $tree && mkdir -p $tree && cp -r tcraw cuda_src scripts $tree/
        cuh=$tree/cuda_src/wgmma_tma.cuh
        [ $tag = nostore ] && sed -i 's/^\( *\)store_c(map_c, d/\1if (false) store_c(map_c, d/' $cuh
        [ $tag = notma ] && sed -i 's/tma_store_2d(map_c,/if (false) &/; s/tma_add_2d(map_c,/if (false) &/' $cuh
        echo "$tag: $(grep -c "if (false)" $tree/cuda_src/wgmma_tma.cuh) calls skipped"
      fi
      in_tree ${NOSTORE_S:-100} $tree $tag --family wgmma --precision $p \
        --shapes ${EPI_SHAPES:-scripts/shapes/epilogue_probe.txt} --iters 20 --seed ${SEED:-76} \
        --variants picked CONSUMERS=2,BN=256,CLUSTER=2 > "$OUT/epilogue_${tag}_$p.txt" 2>&1
      echo "$tag exit $?"; grep -E "^(cublas|wgmma)" "$OUT/epilogue_${tag}_$p.txt" | awk '{print $1, $3, $4, $NF}'
    done
    ;;
  ncu)
    IFS=';' read -ra ncu_shapes <<< "${NCU_SHAPES:-16384 256 1024;12288 256 1024}"
    for shape in "${ncu_shapes[@]}"; do
      echo "$shape" > /tmp/tall_ncu_shape.txt
      for run in "nvjet|gemm cublas" "wgmma 06"; do
        read -r regex tag <<< "$run"
        csv="$OUT/ncu_${tag}_${shape// /x}.csv"
        timeout 120 ncu --clock-control none --metrics $METRICS --page raw --csv -k regex:"$regex" -c 3 \
          $PY scripts/tune_ladder.py --family wgmma --precision $p --shapes /tmp/tall_ncu_shape.txt --iters 1 \
          --seed ${SEED:-76} --variants CONSUMERS=2,BN=256,CLUSTER=2 > "$csv" 2>&1
        echo "== $shape $tag (ncu exit $?)"
        $PY scripts/ncu_raw_summary.py "$csv" --metrics $METRICS
      done
    done
    ;;
esac
done
