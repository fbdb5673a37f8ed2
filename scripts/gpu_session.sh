#!/usr/bin/env bash
# One device call: environment, the whole test suite (both backends), the seed comparison beside
# the seed's own nvcc build, every precision, the accumulator study, launch overhead, the cache,
# cubin-only and sweep runs, the walkthrough, compute-sanitizer. Logs go to $OUT (default ./out).
#   bash scripts/gpu_session.sh            (on the GPU machine, from the repository root)
set -uo pipefail
OUT=${OUT:-out}
mkdir -p "$OUT"
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1
export PY=${PY:-python3}
export CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
export TCRAW_CACHE_DIR=${TCRAW_CACHE_DIR:-/tmp/tcraw-cache}
section() { echo; echo "## $*"; }

{
  echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
  $PY -c "import sys, numpy, importlib.metadata as m; print('python', sys.version.split()[0]); print('numpy', numpy.__version__); [print(p, m.version(p)) for p in ('cuda-bindings','cuda-pathfinder','nvidia-cuda-nvrtc','tabulate','pytest')]"
  nvcc --version | tail -2
  $PY -m tcraw info
} > "$OUT/env.txt" 2>&1
cat "$OUT/env.txt"

$PY -m pytest -q -rs tests 2>&1 | tee "$OUT/pytest.txt" | tail -8

{
  for n in 1024 2048; do
    section "seed program (nvcc -O3 -arch=sm_90), N=$n"
    nvcc -O3 -arch=sm_90 -DSEED_N=$n scripts/seed_000_wmma_matmul.cu -o /tmp/seed_$n && /tmp/seed_$n
    section "tcraw run --size $n"
    $PY -m tcraw run --size $n --iters 50
    section "tcraw run --size $n --backend ctypes"
    $PY -m tcraw run --size $n --iters 50 --backend ctypes
  done
  section "tcraw run --size 1024 --format json"
  $PY -m tcraw run --size 1024 --iters 50 --format json
  section "scripts/walkthrough.py (bindings, then ctypes)"
  $PY scripts/walkthrough.py && $PY scripts/walkthrough.py --backend ctypes
} 2>&1 | tee "$OUT/seed_vs_tcraw.txt" | grep -E "^##|ms|faster" 

{
  section "tcraw run --precision all, 1000x1003x997, normal"
  $PY -m tcraw run --precision all -m 1000 -n 1003 -k 997 --iters 10
  section "tcraw run --precision all, 2048x512x4096, int (bit-exact)"
  $PY -m tcraw run --precision all -m 2048 -n 512 -k 4096 --iters 10 --inputs int
  section "tcraw run --precision all, 15x17x33, int, ctypes backend"
  $PY -m tcraw run --precision all -m 15 -n 17 -k 33 --iters 10 --inputs int --backend ctypes
  section "accumulator study"
  $PY scripts/accumulator_study.py
} 2>&1 | tee "$OUT/precisions.txt" | grep -E "^##|PASS|FAIL" | head -40

{
  section "launch overhead"
  $PY scripts/bench_launch.py
  section "cache: cold vs warm compile of every kernel"
  $PY scripts/bench_cache.py
  section "cubin-only: make cubins, then run with NVRTC unimportable"
  $PY -m tcraw compile --arch all --out build/cubins --format json > /dev/null && ls build/cubins | wc -l
  $PY -c "import sys; sys.modules['cuda.bindings.nvrtc'] = None; from tcraw.cli import main; sys.exit(main(sys.argv[1:]))" run --precision all --size 512 --cubin-dir build/cubins
  section "sweep --device all (isolated, one process per kernel)"
  $PY -m tcraw sweep --sizes 512,2048 --device all --out build/sweep
  section "sweep --device 1 (no such device)"
  $PY -m tcraw sweep --device 1; echo "exit $?"
} 2>&1 | tee "$OUT/bench_cache_cubins_sweep.txt"

section "tcraw bench (the ladder vs cuBLAS)"
$PY -m tcraw bench --out build/bench 2>&1 | tee "$OUT/bench.txt" | tail -45
cp build/bench/bench.json "$OUT/bench.json"
section "compute-sanitizer"
bash scripts/sanitize.sh "$OUT/sanitize.txt" 2>&1 | tail -12

{
  section "tuning evidence: the Hopper kernel without clusters / with 3 stages, the WMMA tile"
  timeout 200 $PY scripts/tune_ladder.py --family wgmma --variants "" CLUSTER=1 STAGES=3
  timeout 200 $PY scripts/tune_ladder.py --family wgmma --precision bf16 --variants "" CLUSTER=1
  timeout 200 $PY scripts/tune_ladder.py --family wmma --variants "" BN=128,BK=32,STAGES=4 BK=32,STAGES=3
} 2>&1 | tee -a "$OUT/bench.txt" | grep -E "^##|cublas|\]"

