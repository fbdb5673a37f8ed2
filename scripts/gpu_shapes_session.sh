#!/usr/bin/env bash
# One device call for issue 14: 06 on edge shapes and every configuration (GPU tests), every fixed
# configuration against cuBLAS on the shapes that need them (the data the heuristic's model is
# checked against), then the suites with the heuristic choosing. Logs under $OUT (8 files).
#   OUT=out bash scripts/gpu_shapes_session.sh [suite ...]
source "$(dirname "$0")/gpu_env.sh"
{
  echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.max.sm --format=csv
  $PY -c "import sys, numpy, importlib.metadata as m; print('python', sys.version.split()[0]); print('numpy', numpy.__version__); [print(p, m.version(p)) for p in ('cuda-bindings','tabulate','pytest')]"
} > "$OUT/env.txt" 2>&1
timeout ${PYTEST_S:-200} $PY -m pytest -q -rs -p no:cacheprovider tests/test_gpu.py -k "06 or pci" -x > "$OUT/pytest_06.txt" 2>&1
echo "pytest exit $?: $(tail -1 "$OUT/pytest_06.txt")"
if [ -z "${SKIP_TUNE:-}" ]; then
  variants=$($PY -c "from tcraw.kernels import WGMMA_CONFIGS as C; print(' '.join(','.join(f'{k}={v}' for k, v in c.items()) for c in C))")
  timeout ${TUNE_S:-240} $PY scripts/tune_ladder.py --family wgmma --shapes scripts/shapes/tune06.txt --iters 10 \
    --seed 7 --variants $variants > "$OUT/tune06.txt" 2>&1
  echo "tune exit $?"; tail -3 "$OUT/tune06.txt"
fi
for suite in ${@:-skinny long-k square}; do
  log="$OUT/suite_$(basename "$suite" .txt).txt"
  timeout ${SUITE_S:-120} $PY -m tcraw bench --shapes "$suite" --precision ${PRECISION:-fp16} \
    --kernel wgmma_tma_${PRECISION:-fp16} --iters 10 --warmup 3 --seed 7 > "$log" 2>&1
  echo "$suite exit $?"; grep -A2 "geomean" "$log" | tail -1
done
