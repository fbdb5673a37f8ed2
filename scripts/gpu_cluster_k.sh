#!/usr/bin/env bash
# (issue 14) 06's pieces of K summed in one cluster through distributed shared memory (CLUSTER_K)
# in place of the workspace's hand-off through L2. Device calls in parts, logs under $OUT:
#   check  the GPU tests of CLUSTER_K (06: five tile forms × 2, 3, 4, 8 pieces × fp16, bf16; 07:
#          int8, FP8 to bf16, TF32), then compute-sanitizer's memcheck, racecheck and synccheck over
#          swapped 128×16 tiles in 4 pieces, 128×128 in 8 with several tiles a block (the ring's
#          scratch between them) and 64×256 in 8 pieces at K of 2 slices (pieces of none)
#   time   on scripts/shapes/cluster_k.txt, grouped by the pieces p the pick cuts K in: the pick
#          (through the workspace) beside CLUSTER_K=p over it (and CLUSTER_K=4 where p > 4), each
#          beside cuBLAS in one process a group, fp16 then bf16 (KEYS to change)
#   OUT=out bash scripts/gpu_cluster_k.sh check time
source "$(dirname "$0")/gpu_env.sh"
write_env
for part in "$@"; do
  case $part in
  check)
    PYTEST_S=${PYTEST_S:-400} gpu_tests "06_sums_k_in_a_cluster or 07_sums_k_in_a_cluster" cluster_k
    SAN_TOOLS=${SAN_TOOLS:-memcheck racecheck synccheck} SAN_S=${SAN_S:-120} sanitize_configs cluster_k \
      fp16:8x1003x1808:SWAP_AB=1,CONSUMERS=2,BN=16,CLUSTER=1,CLUSTER_K=4 \
      bf16:300x4100x1000:CONSUMERS=2,BN=128,CLUSTER=1,CLUSTER_K=8 \
      fp16:1x600x70:CONSUMERS=1,BN=256,CLUSTER=1,CLUSTER_K=8 ;;
  time)
    for key in ${KEYS:-fp16 bf16}; do
      # the shapes by the pieces the pick cuts K in (wgmma_schedule on the H200's 132 SMs)
      $PY -c "
from tcraw import kernels
from tcraw.bench import parse_shapes
groups = {}
for _, (m, n, k) in parse_shapes('scripts/shapes/cluster_k.txt'):
    tile = {**kernels.WGMMA_TILE, **kernels.wgmma_pick(m, n, k, 132)}
    groups.setdefault(kernels.wgmma_schedule(m, n, k, 132, tile)[3], []).append(f'{m},{n},{k}')
for p, shapes in sorted(groups.items()): print(p, *shapes)" | while read -r p shapes; do
        [ "$p" -gt 1 ] || continue   # (the pick runs whole)
        printf '%s\n' $shapes > /tmp/cluster_k_shapes.txt
        variants="picked picked:CLUSTER_K=$p"
        [ "$p" -gt 4 ] && variants="$variants picked:CLUSTER_K=4"
        timeout 150 $PY scripts/tune_ladder.py --family wgmma --precision $key --shapes /tmp/cluster_k_shapes.txt \
          --iters 100 --seed 221 --variants $variants >> "$OUT/cluster_k_$key.txt" 2>&1
        echo "cluster_k $key p=$p exit $?"
      done
      echo "cluster_k $key: $(grep -c PASS "$OUT/cluster_k_$key.txt") passed"
    done ;;
  *) echo "unknown part $part: see the list at the top of $0"; exit 2 ;;
  esac
done
