#!/usr/bin/env bash
# On a machine with two GPUs: the same isolated sweep on one GPU and on both (one worker per GPU
# at once), timed, rows saved. Logs go to $OUT.   bash scripts/gpu_two_gpu_sweep.sh
set -uo pipefail
source "$(dirname "$0")/gpu_env.sh"
ARGS=(--sizes 512,2048 --precision fp16,bf16 --seed 3 --iters 10)
{
  nvidia-smi --query-gpu=index,name,driver_version --format=csv
  $PY -m tcraw compile --kernel naive_fp32 --arch sm_90 > /dev/null   # warm the cubin cache first
  for spec in 0 all; do
    echo "## tcraw sweep ${ARGS[*]} --device $spec"
    start=$(date +%s.%N)
    $PY -m tcraw sweep "${ARGS[@]}" --device "$spec" --out "$OUT/sweep_$spec" --format table 2>/dev/null
    echo "exit $?, wall $($PY -c "import sys, time; print(round(time.time() - float(sys.argv[1]), 1))" "$start") s"
  done
} 2>&1 | tee "$OUT/two_gpu_sweep.txt" | grep -E "^##|exit|seed"
