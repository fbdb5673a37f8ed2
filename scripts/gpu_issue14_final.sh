#!/usr/bin/env bash
# Issue 14's closing device calls. `tests`: the whole GPU test suite, then compute-sanitizer over 06
# at odd sizes (split-K, pitched copies, stream-K). `suites`: every shape suite against cuBLAS,
# fp16 then bf16, one log per precision (each suite's table and geomean line appended);
# SUITES_FP16 / SUITES_BF16 narrow them.
#   OUT=out bash scripts/gpu_issue14_final.sh tests|suites
source "$(dirname "$0")/gpu_env.sh"
{
  echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.max.sm --format=csv
  $PY -c "import sys, numpy, importlib.metadata as m; print('python', sys.version.split()[0]); print('numpy', numpy.__version__); [print(p, m.version(p)) for p in ('cuda-bindings','tabulate','pytest')]"
} > "$OUT/env_$1.txt" 2>&1
case "$1" in
tests)
  timeout ${PYTEST_S:-330} $PY -m pytest -q -rs -p no:cacheprovider tests > "$OUT/pytest.txt" 2>&1
  echo "pytest exit $?: $(tail -1 "$OUT/pytest.txt")"
  KERNELS=wgmma_tma_fp16 timeout ${SAN_S:-200} bash scripts/sanitize.sh "$OUT/sanitize_06.txt" | tail -8
  ;;
suites)
  for p in fp16 bf16; do
    suites=${SUITES_FP16:-square skinny long-k odd llm scripts/shapes/mid_m.txt}
    [ $p = bf16 ] && suites=${SUITES_BF16:-square skinny long-k odd scripts/shapes/llm_small_m.txt scripts/shapes/mid_m.txt}
    for suite in $suites; do
      echo "## $p $suite" >> "$OUT/suites_$p.txt"
      timeout ${SUITE_S:-150} $PY -m tcraw bench --shapes "$suite" --precision $p --kernel wgmma_tma_$p \
        --iters 10 --warmup 3 --seed 7 >> "$OUT/suites_$p.txt" 2>&1
      echo "$p $suite exit $?: $(grep -A2 geomean "$OUT/suites_$p.txt" | tail -1)"
    done
  done
  ;;
esac
