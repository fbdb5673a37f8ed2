#!/usr/bin/env bash
# One device call: environment, the whole test suite, the seed comparison beside the seed's own
# nvcc build, every precision, the accumulator study. Logs go to $OUT (default ./out).
#   bash scripts/gpu_session.sh            (on the GPU machine, from the repository root)
set -uo pipefail
OUT=${OUT:-out}
mkdir -p "$OUT"
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1
PY=${PY:-python3}
export CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}

{
  echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
  $PY -c "import sys, numpy, importlib.metadata as m; print('python', sys.version.split()[0]); print('numpy', numpy.__version__); [print(p, m.version(p)) for p in ('cuda-bindings','cuda-pathfinder','nvidia-cuda-nvrtc','tabulate','pytest')]"
  nvcc --version | tail -2
  $PY -m tcraw info
} > "$OUT/env.txt" 2>&1
cat "$OUT/env.txt"

$PY -m pytest -q -rs tests 2>&1 | tee "$OUT/pytest.txt" | tail -5

{
  for n in 1024 2048; do
    echo "## seed program (nvcc -O3 -arch=sm_90), N=$n"
    nvcc -O3 -arch=sm_90 -DSEED_N=$n scripts/seed_000_wmma_matmul.cu -o /tmp/seed_$n && /tmp/seed_$n
    echo "## tcraw run --size $n"
    $PY -m tcraw run --size $n --iters 50
    echo
  done
  echo "## tcraw run --size 2048 --format json"
  $PY -m tcraw run --size 2048 --iters 50 --format json
} 2>&1 | tee "$OUT/seed_vs_tcraw.txt"

{
  echo "## tcraw run --precision all, 1000x1003x997, normal"
  $PY -m tcraw run --precision all -m 1000 -n 1003 -k 997 --iters 10
  echo "## tcraw run --precision all, 2048x512x4096, int (bit-exact)"
  $PY -m tcraw run --precision all -m 2048 -n 512 -k 4096 --iters 10 --inputs int
  echo "## tcraw run --precision all --size 4096"
  $PY -m tcraw run --precision all --size 4096 --iters 20
  echo "## accumulator study"
  $PY scripts/accumulator_study.py
} 2>&1 | tee "$OUT/precisions.txt"
