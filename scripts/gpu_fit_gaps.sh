#!/usr/bin/env bash
# (issue 14) Gaps the sixth survey and session 59's profile left, and rules that came of them, each
# against the picks (fp16; PRECISIONS for more), every row verified, logs under $OUT:
#   lowfit  M of 129–240 against a large B (scripts/shapes/mid_m_low_fit.txt): swapped tiles whose M side
#           fits M — BN 144, 176, 208, 240; two consumers (128 of N) in clusters of 2 and 4 along N, three
#           (192 of N, BN ≤ 192) in clusters of 2 — beside the pick; LOWFIT_BNS (144 176 208 240) the width
#           groups, up to LOWFIT_S (150) seconds each: two or three groups a call
#   wait    three consumers' swapped 144-wide picks without and with a slice's MMAs in flight
#           (picked:WAIT_DEPTH=1, their default until run 5 of docs/results/2026-12-05-h100-h200-split-boxes-survey6/,
#           which ran this part with picked:WAIT_DEPTH=0 against it; scripts/shapes/three_swapped_wait.txt)
#   bigfit  large problems below 0.95× or whose 128 × 256 picks fit badly (scripts/shapes/big_loose_fit.txt):
#           128 × 192 in clusters of 2, 128 × 128 in clusters of 2, 192 × 192 in clusters of 2, beside the pick
#   lowfresh  the rule that came of lowfit (kernels.wgmma_swaps_one_tile): the pick with and without it
#           on scripts/shapes/low_fit_fresh.txt (swap_fit_study.py --rule, one process a pass: fp16, bf16,
#           fp16 again — logs STEM_fp16, _bf16, _fp16_2, STEM the file's), every row verified; LOW_SHAPES
#           another file (scripts/shapes/low_fit_fresh_2.txt, _3.txt: drawn after each of the rule's two
#           later forms)
#   lowchecks its GPU test, then compute-sanitizer's memcheck, racecheck and synccheck over its new
#           widths in clusters of 4 (N off 8: pitched; cut along K), integer inputs
#   clusterone  large problems whose pick runs in clusters of 1 (scripts/shapes/cluster_one_big.txt): the
#           pick beside two consumers' 128 × 256 and 128 × 192 tiles in clusters of 2 (tune_ladder leaves a
#           pick's cluster to the pick), up to CLUSTERONE_S (240) seconds (the pick as it is now: since
#           wgmma_leaves_clusters_of_one, in clusters at most of them)
#   clusterstudy  the pick before wgmma_leaves_clusters_of_one beside the pick made without two and three
#           consumers' clusters of 1
#           (scripts/cluster_one_study.py) on CLUSTER_SHAPES (scripts/shapes/cluster_one_big.txt; then
#           cluster_one_fresh.txt, the rest of its draw), PRECISIONS (fp16) each up to CLUSTER_S (150) seconds;
#           logs STEM_study_PRECISION, STEM the shapes file's
#   clusterrule  the rule that came of clusterstudy (kernels.wgmma_leaves_clusters_of_one): the pick with and
#           without it on scripts/shapes/cluster_one_rule.txt (drawn after it), CLUSTER_RUNS (fp16 bf16) each a
#           process of swap_fit_study.py --rule, up to RULE_S (200) seconds
#   clusterchecks  its GPU test (test_06_leaves_clusters_of_one)
#   clustersuite  the suite shapes it moves (scripts/shapes/cluster_one_suite.txt), the pick with and without it,
#           fp16, bf16 and fp16 again, each up to SUITE1_S (100) seconds — timed on an H100 only so far
#   survey7big  survey 7's large shapes below 0.95× (scripts/shapes/survey7_big_weak.txt): the pick beside the
#           other large tiles, up to BIG7_S (240) seconds; then 128×9488×11096 beside 64- and 128-row tiles and
#           swapped tiles that cover M (scripts/shapes/survey7_m128.txt), up to M128_S (100)
#   cublastiles  survey 7's two shapes where cuBLAS runs swapped 192-row tiles in pairs along M
#           (scripts/shapes/survey7_cublas_tiles.txt): 06's three consumers' swapped 192 × 160 and 192 × 128
#           in pairs along M, each at the most stages that fit with C in one box and in two parts (C_PARTS=2),
#           beside the pick, up to TILES7_S (90) seconds
#   onetile65  M of 65–128 (scripts/shapes/m65_128_one_tile.txt): the pick beside one swapped tile that covers
#           M in clusters of 4 and of 2 along N (swap_fit_study.py --fits 1:4 1:2), PRECISIONS (fp16) each up to
#           ONE65_S (240) seconds
#   shortfits  the candidate that came of onetile65 (branch wip/short-fit): the pick beside one swapped tile of
#           128 of M in clusters of 4 along N (--fits 1:4) on SHORT_SHAPES (scripts/shapes/short_fit_fresh_2.txt,
#           drawn after it was narrowed to M of 97–128), fp16 and bf16, each up to SHORT_S (120) seconds
#           (1.010 / 1.013× the pick's time there: docs/results/2026-12-06-h100-coop-after/, refuted)
#   coop  COOP's GPU test (test_06_coop_swapped_tiles_are_correct, PYTEST_S), then cuBLAS's
#           coopB tiles in 06's COOP form beside the pick (scripts/shapes/coop_cublas_tiles.txt), PRECISIONS
#           (fp16) each up to COOP_S (200) seconds
#   cooprule  06's pick with and without wgmma_coops (cuBLAS's coopB tiles) on the shapes drawn after it
#           went in, where it fires (scripts/shapes/coop_rule_after.txt), fp16 then bf16, each up to
#           COOPRULE_S (200) seconds. (The shapes it was set on, coop_rule_fresh*.txt, were timed with
#           COOP_MMAS at 0.97 in tcraw/wgmma.py: docs/results/2026-12-05-h100-coop-rule/.)
#   coop3  the same on COOP=3's picks either side of N = 1536 (scripts/shapes/coop3_small_n.txt fp16 and bf16,
#           coop3_large_n.txt fp16), each up to COOP3_S (85) seconds
#   coopc4  the same where it replaces a pick in clusters of 4 (scripts/shapes/coop_over_c4.txt), or one that
#           stream-K cuts (coop_over_stream_k.txt), fp16 then bf16, each up to COOPC4_S (200) / 80 seconds
#   coopsk2 the same over more picks in clusters of 4 that stream-K cuts (coop_over_stream_k_2.txt)
#   coopforms where the rule replaces clusters of 4 running whole (coop_c4_forms.txt): the pick beside both coopB
#           forms (COOP=5 and COOP=3) and the clusters of 4 it replaced there (128 × 192, A shared or not), fp16
#   OUT=out bash scripts/gpu_fit_gaps.sh wait lowfit bigfit
source "$(dirname "$0")/gpu_env.sh"
write_env
ladder() {   # name shapes-file seconds variants...
  local name=$1 shapes=$2 seconds=$3; shift 3
  for p in ${PRECISIONS:-fp16}; do
    timeout $seconds $PY scripts/tune_ladder.py --family wgmma --precision $p --shapes "$shapes" --iters 20 \
      --seed 59 --variants "$@" > "$OUT/${name}_$p.txt" 2>&1
    echo "$name $p exit $?: $(grep -c PASS "$OUT/${name}_$p.txt") passed"
    ties "$OUT/${name}_$p.txt"
  done
}
study() {   # shapes-file seconds seed "swap_fit_study.py options" runs... (a run: a precision, _2 for a second pass)
  local shapes=$1 seconds=$2 seed=$3 options=$4; shift 4
  for run in "$@"; do
    local log=$(basename "$shapes" .txt)_$run
    timeout $seconds $PY scripts/swap_fit_study.py --shapes "$shapes" --precision ${run%_2} $options \
      --seed $seed > "$OUT/$log.txt" 2>&1
    echo "$log exit $?: $(grep -c PASS "$OUT/$log.txt") passed"
  done
}
with_and_without() {   # rule shapes-file seconds runs...: the pick with and without the rule
  study "$2" "$3" 60 "--rule $1" "${@:4}"
}
for part in "$@"; do
  case $part in
  lowfit)
    for bn in ${LOWFIT_BNS:-144 176 208 240}; do   # (this width's shapes from the file; stages: the most that fit)
      awk -v bn="# BN=$bn" '/^# BN=/ {on = ($0 == bn); next} on && /^[0-9]/' scripts/shapes/mid_m_low_fit.txt \
        > "$OUT/low_fit_$bn.txt"
      s2=$($PY -c "from tcraw.wgmma import wgmma_max_stages as m; print(m(2, $bn, 8, 128, True))")
      s3=$($PY -c "from tcraw.wgmma import wgmma_max_stages as m; print(m(3, $bn, 8, 192, True))")
      two=SWAP_AB=1,CONSUMERS=2,BN=$bn,STAGES=$s2
      three=$([ $bn -le 192 ] && echo SWAP_AB=1,CONSUMERS=3,BN=$bn,CLUSTER=2,STAGES=$s3)
      ladder low_fit_$bn "$OUT/low_fit_$bn.txt" ${LOWFIT_S:-150} picked $two,CLUSTER=2 $two,CLUSTER=4 $three
    done ;;
  wait) ladder three_wait scripts/shapes/three_swapped_wait.txt ${WAIT_S:-150} picked picked:WAIT_DEPTH=1 ;;
  bigfit)
    ladder big_fit scripts/shapes/big_loose_fit.txt ${BIGFIT_S:-300} picked CONSUMERS=2,BN=192,CLUSTER=2,STAGES=4 \
      CONSUMERS=2,BN=128,CLUSTER=2,STAGES=6 CONSUMERS=3,BN=192,CLUSTER=2,STAGES=3 ;;
  clusterone) ladder cluster_one scripts/shapes/cluster_one_big.txt ${CLUSTERONE_S:-240} picked \
    CONSUMERS=2,BN=256,CLUSTER=2,STAGES=4 CONSUMERS=2,BN=192,CLUSTER=2,STAGES=4 ;;
  clusterstudy)
    shapes=${CLUSTER_SHAPES:-scripts/shapes/cluster_one_big.txt}
    for p in ${PRECISIONS:-fp16}; do
      log="$OUT/$(basename "$shapes" .txt)_study_$p.txt"
      timeout ${CLUSTER_S:-150} $PY scripts/cluster_one_study.py --shapes "$shapes" --precision $p --seed 61 \
        > "$log" 2>&1
      rc=$?
      echo "$(basename "$log") exit $rc: $(grep -c PASS "$log") passed"
    done ;;
  lowfresh)
    with_and_without wgmma_swaps_one_tile "${LOW_SHAPES:-scripts/shapes/low_fit_fresh.txt}" ${FRESH_S:-150} \
      fp16 bf16 fp16_2 ;;
  shortfits) study "${SHORT_SHAPES:-scripts/shapes/short_fit_fresh_2.txt}" ${SHORT_S:-120} 62 "--fits 1:4" fp16 bf16 ;;
  clusterrule)   # (150 s ran out at run 3's 24th bf16 shape: docs/results/2026-12-05-h100-cluster-one/)
    with_and_without wgmma_leaves_clusters_of_one scripts/shapes/cluster_one_rule.txt ${RULE_S:-200} \
      ${CLUSTER_RUNS:-fp16 bf16} ;;
  clusterchecks) gpu_tests "leaves_clusters_of_one" cluster_one ;;
  clustersuite)
    with_and_without wgmma_leaves_clusters_of_one scripts/shapes/cluster_one_suite.txt ${SUITE1_S:-100} \
      fp16 bf16 fp16_2 ;;
  survey7big)
    ladder survey7_big scripts/shapes/survey7_big_weak.txt ${BIG7_S:-240} picked picked:GROUP_M=4 \
      CONSUMERS=2,BN=256,CLUSTER=2,STAGES=4 CONSUMERS=2,BN=256,CLUSTER=4,SHARE_A=1,STAGES=4 \
      CONSUMERS=3,BN=192,CLUSTER=2,SHARE_A=1,STAGES=3 CONSUMERS=3,BN=192,CLUSTER=2,STAGES=3 \
      CONSUMERS=2,BN=192,CLUSTER=2,STAGES=4 CONSUMERS=2,BN=128,CLUSTER=2,STAGES=6 \
      PINGPONG=128,CONSUMERS=2,BN=128,CLUSTER=2,STAGES=6
    ladder survey7_m128 scripts/shapes/survey7_m128.txt ${M128_S:-100} picked CONSUMERS=2,BN=128,CLUSTER=2,STAGES=6 \
      CONSUMERS=2,BN=256,CLUSTER=2,STAGES=4 CONSUMERS=1,BN=256,CLUSTER=2,STAGES=5 \
      SWAP_AB=1,CONSUMERS=2,BN=128,CLUSTER=2,STAGES=6 SWAP_AB=1,CONSUMERS=2,BN=128,CLUSTER=4,SHARE_A=1,STAGES=6 \
      SWAP_AB=1,CONSUMERS=3,BN=128,CLUSTER=2,SHARE_A=1,STAGES=4 ;;
  cublastiles)
    sw=SWAP_AB=1,CONSUMERS=3,CLUSTER=2,SHARE_A=1
    ladder survey7_cublas_tiles scripts/shapes/survey7_cublas_tiles.txt ${TILES7_S:-90} picked $sw,BN=160,STAGES=3 \
      $sw,BN=160,STAGES=4,C_PARTS=2 $sw,BN=128,STAGES=4 $sw,BN=128,STAGES=5,C_PARTS=2 ;;
  onetile65) study scripts/shapes/m65_128_one_tile.txt ${ONE65_S:-240} 61 "--fits 1:4 1:2" ${PRECISIONS:-fp16} ;;
  coop)
    gpu_tests coop_swapped coop
    c=SWAP_AB=1,CONSUMERS=2,SPLIT_K=0
    ladder coop_cublas_tiles scripts/shapes/coop_cublas_tiles.txt ${COOP_S:-200} picked \
      $c,COOP=3,BN=80,CLUSTER=2,SHARE_A=1,STAGES=4 $c,COOP=3,BN=64,CLUSTER=2,SHARE_A=1,STAGES=4 \
      $c,COOP=3,BN=80,CLUSTER=2,STAGES=4 $c,COOP=5,BN=64,CLUSTER=2,STAGES=3 ;;
  cooprule) with_and_without wgmma_coops scripts/shapes/coop_rule_after.txt ${COOPRULE_S:-200} fp16 bf16 ;;
  coopc4)
    with_and_without wgmma_coops scripts/shapes/coop_over_c4.txt ${COOPC4_S:-200} fp16 bf16
    with_and_without wgmma_coops scripts/shapes/coop_over_stream_k.txt 80 fp16 bf16 ;;
  coopsk2)
    with_and_without wgmma_coops scripts/shapes/coop_over_stream_k_2.txt 90 fp16 bf16 ;;
  coopforms)
    ladder coopforms scripts/shapes/coop_c4_forms.txt ${COOPFORMS_S:-200} picked \
      SWAP_AB=1,CONSUMERS=2,COOP=5,BN=64,CLUSTER=2,SPLIT_K=0,STAGES=3 \
      SWAP_AB=1,CONSUMERS=2,COOP=3,BN=80,CLUSTER=2,SHARE_A=1,SPLIT_K=0,STAGES=4 \
      CONSUMERS=2,BN=192,CLUSTER=4,STAGES=4 CONSUMERS=2,BN=192,CLUSTER=4,SHARE_A=1,STAGES=4 ;;
  coop3)
    with_and_without wgmma_coops scripts/shapes/coop3_small_n.txt ${COOP3_S:-85} fp16 bf16
    with_and_without wgmma_coops scripts/shapes/coop3_large_n.txt ${COOP3_S:-85} fp16 ;;
  lowchecks)
    gpu_tests "swapped_tiles_that_fit" low_fit
    sw=SWAP_AB=1,CONSUMERS=2,CLUSTER=4
    SAN_TOOLS="memcheck racecheck synccheck" SAN_S=120 sanitize_configs low_fit fp16:137x4001x1003:$sw,BN=144,STAGES=5 \
      bf16:171x3001x2056:$sw,BN=176,STAGES=4 fp16:201x2001x777:$sw,BN=208,STAGES=4 ;;
  *) echo "unknown part $part: see the list at the top of $0"; exit 2 ;;
  esac
done
