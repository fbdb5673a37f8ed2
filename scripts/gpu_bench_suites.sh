#!/usr/bin/env bash
# One device call: where 06 stands on every shape suite against cuBLAS (fp16), one suite at a time
# so that each one's rows are kept whatever happens to the next. Logs under $OUT.
#   OUT=out bash scripts/gpu_bench_suites.sh [suite ...]
source "$(dirname "$0")/gpu_env.sh"
for suite in ${@:-odd skinny long-k square llm}; do
  $PY -m tcraw bench --shapes "$suite" --precision fp16 --kernel wgmma_tma_fp16 --iters 10 --warmup 3 \
    --seed 7 > "$OUT/$suite.txt" 2>&1
  echo "$suite exit $?"; grep -A3 "geomean" "$OUT/$suite.txt" | tail -2
done
