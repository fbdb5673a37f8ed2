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
#   tests    the rule's GPU test (its picks run, verified); 10's GPU tests (its set's slot named once)
set -u
source scripts/gpu_env.sh
part=${1:?part: explore, mixed, fresh or tests}
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
    gpu_tests sectors sectors
    gpu_tests test_10_ gemv10 ;;
  *) echo "unknown part $part"; exit 2 ;;
esac
