#!/usr/bin/env bash
# (issue 14) 10, a GEMV on the CUDA cores for M ≤ 4 (cuda_src/10_gemv_b_realigned_by_shuffles.cu),
# where 09 and 06's swapped tiles stream B latency-bound. Device calls in parts, logs under $OUT:
#   check   10's GPU tests (rows of B at every offset, every M of 1–4, K whole, in 3, in 40 and as
#           picked), then compute-sanitizer's memcheck, racecheck and synccheck over 10 at M of 1, 3
#           and 4 (K whole and split, B's end cutting its last word)
#   time    10 (its split pick, and K whole, in 4, 16 and 64 pieces) and 06's pick on
#           scripts/shapes/gemv_10.txt, each beside cuBLAS in its own process, fp16 then bf16
#   narrow  M of 1–2 with N of 64–1100 (scripts/shapes/gemv_10_narrow.txt): 10, 09 and 06's swapped
#           tiles (the pick before 10: 09 where N is off 8, else 06), fp16 — where 10 stops paying
#   handoff 06's pick handing M of 1–4 to 10 and M ≤ 48 (N off 8) to 09: those GPU tests alone
#   llm     the llm suite (`tcraw bench --shapes llm`, 06's picks: 10 at M = 1), fp16 and bf16
#   pipe    10 as it is beside $OLD10 (10's .cu as it was, in a copy of the tree), old, new, old,
#           new, each beside cuBLAS in its own process, on scripts/shapes/gemv_10.txt and
#           gemv_10_fresh.txt (PIPE_SHAPES to change; its split pick), fp16 (KEYS to change): two
#           groups of loads in flight
#   sets    K's pieces added in sets (more than 5 · 32 / M of them): 10's GPU tests and those of 06's
#           hand-offs to it, then compute-sanitizer's memcheck, racecheck and synccheck over 10 at
#           4×656×12336 (64 pieces: 8 sets of 8) and 4×280×15279 in 45 (7 sets, the last short)
#   splits  10's split pick against K in 4, 8, 16 and 32 pieces at B under 40 MB
#           (scripts/shapes/gemv_10_split_small.txt), fp16 (KEYS to change), one process
#   stalls  Nsight Compute's speed of light, warp states and scheduler statistics for 10 at
#           1×2272×1712 and 4×1872×968 (its split pick, fp16): where a small problem's time goes
#           (B's bytes there would take ~2 µs of the 9–10 µs)
#   cluster 10's pieces of K summed in one cluster through distributed shared memory (CLUSTER_K of
#           2, 4, 8): its GPU tests, compute-sanitizer's four tools at 1×3586×1572, 4×1872×968 and
#           3×4102×4101, then the pick (pieces through the workspace) against CLUSTER_K=8,
#           CLUSTER_K=4 and SPLIT=8 on scripts/shapes/gemv_10_split_small.txt and gemv_10.txt, fp16
#           (KEYS to change), one process a file
#   cluster_check  the pick summing K in a cluster where gemv_sums_in_cluster: 10's and 06's hand-off
#           GPU tests, memcheck and racecheck over 06's pick at 4×1872×968 and 1×2272×1712, then on
#           scripts/shapes/gemv_10_cluster_fresh.txt the pick against gemv_split's pieces through the
#           workspace (the pick before; one process per split value), fp16 then bf16
#   m34     M of 3–4 (scripts/shapes/gemv_10_m34.txt): 10 (its split pick) and 06's pick, each
#           beside cuBLAS in its own process, fp16 then bf16 — whether the pick should hand them to 10
#   OUT=out bash scripts/gpu_gemv_10.sh check time
source "$(dirname "$0")/gpu_env.sh"
write_env
for part in "$@"; do
  case $part in
  check)
    PYTEST_S=${PYTEST_S:-200} gpu_tests "10_gemv or hands_m_of_1 or hands_small_m" gemv10
    SAN_TOOLS=${SAN_TOOLS:-memcheck racecheck synccheck} SAN_S=${SAN_S:-80} sanitize_configs gemv10 \
      fp16:1x3586x1572 gemv_bf16:3x4102x4101:SPLIT=1 gemv_fp16:4x20001x515:SPLIT=7 bf16:2x4096x4096 \
      gemv_fp16:3x280x15279 ;;
  sets)
    PYTEST_S=${PYTEST_S:-200} gpu_tests "10_gemv or hands_m_of_1 or hands_small_m" gemv10_sets
    SAN_TOOLS=${SAN_TOOLS:-memcheck racecheck synccheck} SAN_S=${SAN_S:-60} sanitize_configs gemv10_sets \
      fp16:4x656x12336 gemv_bf16:4x280x15279:SPLIT=45 ;;
  handoff)
    PYTEST_S=${PYTEST_S:-150} gpu_tests "hands_m_of_1 or hands_small_m" handoff ;;
  narrow)
    for family in gemv small; do
      timeout 100 $PY scripts/tune_ladder.py --family $family --precision fp16 --shapes scripts/shapes/gemv_10_narrow.txt \
        --iters 100 --seed 153 --variants "" > "$OUT/gemv_10_narrow_$family.txt" 2>&1
      echo "narrow $family exit $?: $(grep -c PASS "$OUT/gemv_10_narrow_$family.txt") passed"
    done
    timeout 100 $PY scripts/tune_ladder.py --family wgmma --precision fp16 --shapes scripts/shapes/gemv_10_narrow.txt \
      --iters 100 --seed 153 --variants SWAP_AB=1,CONSUMERS=2,BN=16,CLUSTER=1,STAGES=8 > "$OUT/gemv_10_narrow_06.txt" 2>&1
    echo "narrow 06 exit $?: $(grep -c PASS "$OUT/gemv_10_narrow_06.txt") passed" ;;
  llm)
    for key in ${KEYS:-fp16 bf16}; do
      timeout ${LLM_S:-150} $PY -m tcraw bench --shapes llm --precision $key --kernel wgmma_tma_$key --iters 10 --seed 154 \
        > "$OUT/llm_$key.txt" 2>&1
      echo "llm $key exit $?: $(grep -A2 geomean "$OUT/llm_$key.txt" | tail -1)"
    done ;;
  time)
    for key in ${KEYS:-fp16 bf16}; do
      timeout 200 $PY scripts/tune_ladder.py --family gemv --precision $key --shapes scripts/shapes/gemv_10.txt \
        --iters 100 --seed 151 --variants "" SPLIT=1 SPLIT=4 SPLIT=16 SPLIT=64 > "$OUT/gemv_10_own_$key.txt" 2>&1
      echo "gemv $key exit $?: $(grep -c PASS "$OUT/gemv_10_own_$key.txt") passed"
      timeout 150 $PY scripts/tune_ladder.py --family wgmma --precision $key --shapes scripts/shapes/gemv_10.txt \
        --iters 100 --seed 152 --variants picked > "$OUT/gemv_10_picked_$key.txt" 2>&1
      echo "picked $key exit $?: $(grep -c PASS "$OUT/gemv_10_picked_$key.txt") passed"
    done ;;
  splits)
    for key in ${KEYS:-fp16}; do
      timeout 200 $PY scripts/tune_ladder.py --family gemv --precision $key --shapes scripts/shapes/gemv_10_split_small.txt \
        --iters 100 --seed 181 --variants "" SPLIT=4 SPLIT=8 SPLIT=16 SPLIT=32 > "$OUT/gemv_10_splits_$key.txt" 2>&1
      echo "splits $key exit $?: $(grep -c PASS "$OUT/gemv_10_splits_$key.txt") passed"
    done ;;
  stalls)
    for shape in "1 2272 1712" "4 1872 968"; do
      ncu_stalls gemv gemv "$shape" 10_stalls_${shape// /x}
    done ;;
  cluster)
    PYTEST_S=${PYTEST_S:-200} gpu_tests "sums_k_in_a_cluster" gemv10_cluster
    SAN_TOOLS=${SAN_TOOLS:-memcheck racecheck synccheck initcheck} SAN_S=${SAN_S:-80} sanitize_configs gemv10_cluster \
      gemv_fp16:1x3586x1572:CLUSTER_K=8 gemv_bf16:4x1872x968:CLUSTER_K=4 gemv_fp16:3x4102x4101:CLUSTER_K=2
    for key in ${KEYS:-fp16}; do
      for shapes in gemv_10_split_small gemv_10; do
        timeout 200 $PY scripts/tune_ladder.py --family gemv --precision $key --shapes scripts/shapes/$shapes.txt \
          --iters 100 --seed 201 --variants "" CLUSTER_K=8 CLUSTER_K=4 SPLIT=8 > "$OUT/${shapes}_cluster_$key.txt" 2>&1
        echo "$shapes cluster $key exit $?: $(grep -c PASS "$OUT/${shapes}_cluster_$key.txt") passed"
      done
    done ;;
  cluster_check)
    PYTEST_S=${PYTEST_S:-300} gpu_tests "10_gemv or sums_k_in_a_cluster or hands_m_of_1 or hands_small_m" gemv10_all
    SAN_TOOLS=${SAN_TOOLS:-memcheck racecheck} SAN_S=${SAN_S:-80} sanitize_configs gemv10_picked fp16:4x1872x968 \
      bf16:1x2272x1712
    for key in ${KEYS:-fp16 bf16}; do
      # the shapes by the split the workspace's hand-off would take (gemv_split on the H200's 132 SMs)
      $PY -c "
from tcraw import kernels
from tcraw.bench import parse_shapes
groups = {}
for _, (m, n, k) in parse_shapes('scripts/shapes/gemv_10_cluster_fresh.txt'):
    groups.setdefault(kernels.gemv_split(m, n, k, 132), []).append(f'{m},{n},{k}')
for split, shapes in groups.items(): print(split, *shapes)" | while read -r split shapes; do
        printf '%s\n' $shapes > /tmp/cluster_check_shapes.txt
        timeout 100 $PY scripts/tune_ladder.py --family gemv --precision $key --shapes /tmp/cluster_check_shapes.txt \
          --iters 100 --seed 211 --variants "" SPLIT=$split >> "$OUT/gemv_10_cluster_check_$key.txt" 2>&1
        echo "cluster check $key split $split exit $?"
      done
      echo "cluster check $key: $(grep -c PASS "$OUT/gemv_10_cluster_check_$key.txt") passed"
    done ;;
  m34)
    for key in ${KEYS:-fp16 bf16}; do
      for family in gemv wgmma; do
        spec=$([ $family = wgmma ] && echo picked)   # (10: its default, the empty variant)
        timeout 150 $PY scripts/tune_ladder.py --family $family --precision $key --shapes scripts/shapes/gemv_10_m34.txt \
          --iters 100 --seed 171 --variants "$spec" > "$OUT/gemv_10_m34_${family}_$key.txt" 2>&1
        echo "m34 $family $key exit $?: $(grep -c PASS "$OUT/gemv_10_m34_${family}_$key.txt") passed"
      done
    done ;;
  pipe)
    old=/tmp/tcraw_old10
    old_tree "${OLD10:?the old 10 .cu}" 10_gemv_b_realigned_by_shuffles.cu $old
    for key in ${KEYS:-fp16}; do
      for turn in old1 new1 old2 new2; do
        tree=${turn%?}
        dir=$([ $tree = old ] && echo $old || echo .)
        for shapes in ${PIPE_SHAPES:-gemv_10 gemv_10_fresh}; do
          in_tree 120 $dir $tree --family gemv --precision $key --shapes scripts/shapes/$shapes.txt --iters 100 \
            --seed 16${turn#???} --variants "" > "$OUT/${shapes}_pipe_${turn}_$key.txt" 2>&1
          echo "$shapes $turn $key exit $?: $(grep -c PASS "$OUT/${shapes}_pipe_${turn}_$key.txt") passed"
        done
      done
    done ;;
  *) echo "unknown part $part: see the list at the top of $0"; exit 2 ;;
  esac
done
