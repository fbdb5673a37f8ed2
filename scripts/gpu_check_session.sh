#!/usr/bin/env bash
# One device call for the judge: the GPU test suite, then `tcraw check` on every built-in kernel
# and on the two examples (the correct one passes, the buggy one is caught by its guard band).
# Logs go to $OUT (default ./out).   bash scripts/gpu_check_session.sh [pytest args...]
set -uo pipefail
source "$(dirname "$0")/gpu_env.sh"
{
  echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.max.sm --format=csv
  $PY -c "import sys, numpy, importlib.metadata as m; print('python', sys.version.split()[0]); print('numpy', numpy.__version__); [print(p, m.version(p)) for p in ('cuda-bindings','cuda-pathfinder','tabulate','pytest')]"
  $PY -m tcraw info
} > "$OUT/env.txt" 2>&1
timeout 330 $PY -m pytest -q -rs -p no:cacheprovider tests "$@" > "$OUT/pytest.txt" 2>&1
echo "pytest exit $?: $(tail -1 "$OUT/pytest.txt")"
{
  for k in $($PY -m tcraw list --format json | $PY -c "import json,sys; print(' '.join(r['name'] for r in json.load(sys.stdin)))"); do
    echo "## tcraw check --kernel $k --no-isolate --seed 11"
    timeout 120 $PY -m tcraw check --kernel "$k" --no-isolate --seed 11 2>&1 | tail -4
  done
} > "$OUT/check_builtins.txt" 2>&1
grep -E "^##|cases passed" "$OUT/check_builtins.txt" | paste - - | sed 's/## tcraw check --kernel //'
{
  echo "## tcraw check --spec examples/wmma_smem_64.py --seed 11"
  $PY -m tcraw check --spec examples/wmma_smem_64.py --seed 11; echo "exit $?"
  echo "## tcraw check --spec examples/edge_bug.py --seed 11 --sanitize"
  $PY -m tcraw check --spec examples/edge_bug.py --seed 11 --sanitize; echo "exit $?"
} > "$OUT/check_examples.txt" 2>&1
grep -E "^##|exit|cases passed|guard|C: " "$OUT/check_examples.txt" | head -20
