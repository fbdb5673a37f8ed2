# Sourced by the gpu_*.sh session scripts: where logs go ($OUT), tcraw from this checkout, the image's
# CUDA toolkit (ncu, compute-sanitizer, cuobjdump), a cubin cache of the session's own.
OUT=${OUT:-out}
mkdir -p "$OUT"
export OUT PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1 CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
export TCRAW_CACHE_DIR=${TCRAW_CACHE_DIR:-/tmp/tcraw-cache}
PY=${PY:-python3}
# The machine and versions a session ran on, into $OUT/env.txt (each results folder names them)
write_env() {
  {
    echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.max.sm,uuid,pci.bus_id --format=csv
    ncu --version 2>/dev/null | tail -1
    $PY -c "import sys, numpy, importlib.metadata as m; print('python', sys.version.split()[0]); print('numpy', numpy.__version__); [print(p, m.version(p)) for p in ('cuda-bindings','tabulate','pytest')]"
    $PY -m tcraw info | grep -E "cublas|driver_cuda|nvrtc "   # (the cuBLAS the ratios are against)
  } > "$OUT/env.txt" 2>&1
}
# compute-sanitizer over 06/07 problems in given configurations (scripts/sanitize_configs.py's
# KEY:MxNxK[:MACROS] arguments): the tools in SAN_TOOLS (memcheck and racecheck unless set), each
# under SAN_S seconds; logs sanitize_NAME_TOOL.log
sanitize_configs() {
  local name=$1; shift
  for tool in ${SAN_TOOLS:-memcheck racecheck}; do
    timeout ${SAN_S:-90} compute-sanitizer --tool $tool --error-exitcode 9 $PY scripts/sanitize_configs.py "$@" \
      > "$OUT/sanitize_${name}_$tool.log" 2>&1
    echo "$tool exit $?: $(grep -E 'SUMMARY' "$OUT/sanitize_${name}_$tool.log" | tail -1)"
  done
}
# The GPU tests matching $1 (pytest -k), logged to pytest_$2.txt — TCRAW_TEST_SHARD cleared: a
# shard set for a later part (a suite's) must not cut them
gpu_tests() {
  TCRAW_TEST_SHARD= timeout ${PYTEST_S:-150} $PY -m pytest -q -rs -p no:cacheprovider tests/test_gpu.py -k "$1" \
    > "$OUT/pytest_$2.txt" 2>&1
  echo "pytest exit $?: $(tail -1 "$OUT/pytest_$2.txt")"
}
# A tune_ladder log's table rows, one a line: kernel, shape, median ms, × cuBLAS (cuBLAS's own row: 1)
ties() {
  grep -E "^(cublas|wgmma)" "$1" | grep "×" | awk '{print $1, $3, $4, ($1 == "cublas" ? 1 : $7)}'
}
# Which kernel cuBLAS runs at one shape ("M N K"; its name says tile, stages and cluster), in
# precision $3 (fp16): Nsight Compute's launch statistics into $OUT/ncu_cublas_TAG.txt (TAG: $2,
# else MxNxK), and the kernels' names, grids, blocks and clusters echoed
cublas_kernel() {
  local log="$OUT/ncu_cublas_${2:-${1// /x}}.txt"
  echo "$1" > /tmp/cublas_kernel_shape.txt
  timeout 60 ncu --clock-control none --section LaunchStats -k regex:'nvjet|gemm|Kernel|splitK|reduce' -c 4 \
    $PY scripts/tune_ladder.py --family wgmma --precision ${3:-fp16} --shapes /tmp/cublas_kernel_shape.txt --iters 1 \
    --seed 7 --variants picked > "$log" 2>&1
  grep -E "^  [a-zA-Z_].*\(|Grid Size|Block Size|Cluster Size" "$log"
}
# The card's clocks, clocks event reasons, power and temperature (nvidia-smi, into $OUT/clocks.txt)
# and cuBLAS's rate beside 06's pick at 4096³ and 1024×1024×8192, fp16 ($OUT/clocks_cublas.txt):
# read before any ratio against cuBLAS is (it ran at a fraction of its rate on one H200, session 71)
card_clocks() {
  nvidia-smi -q -d PERFORMANCE,CLOCK,POWER,TEMPERATURE > "$OUT/clocks.txt" 2>&1
  printf '4096 4096 4096\n1024 1024 8192\n' > /tmp/clocks_shapes.txt
  timeout ${CLOCKS_S:-90} $PY scripts/tune_ladder.py --family wgmma --precision fp16 --shapes /tmp/clocks_shapes.txt \
    --iters 20 --seed ${SEED:-72} --variants picked > "$OUT/clocks_cublas.txt" 2>&1
  echo "clocks exit $?"; grep -E "^(cublas|wgmma)" "$OUT/clocks_cublas.txt"
  grep -E "Clocks Event Reasons|Active|Graphics|SM  |Power Draw|GPU Current Temp" "$OUT/clocks.txt" | head -30
}
# A copy of this tree (tcraw, cuda_src, scripts) at $3 with cuda_src/$2 replaced by the file $1: a
# kernel's old and new forms timed one after the other, each in its own process and cubin cache
old_tree() {
  rm -rf "$3" && mkdir -p "$3" && cp -r tcraw cuda_src scripts "$3"/ && cp "${1:?the old .cu}" "$3/cuda_src/$2"
}
# tune_ladder.py's arguments ($4...) run under $1 seconds in tree $2 (this one: .), with a cubin
# cache of its own (/tmp/tcraw-cache-$3)
in_tree() {
  local seconds=$1 dir=$2 cache=$3; shift 3
  (cd "$dir" && PYTHONPATH=$PWD TCRAW_CACHE_DIR=/tmp/tcraw-cache-$cache timeout $seconds $PY scripts/tune_ladder.py "$@")
}
# Nsight Compute's speed of light, warp states, scheduler statistics, memory tables and launch
# statistics for one launch of a tune_ladder family's default variant ($1, kernels matching $2) at
# one shape ("M N K", $3), fp16: into $OUT/ncu_$4.txt, its main lines echoed
ncu_stalls() {
  echo "$3" > "/tmp/ncu_stalls_$4.txt"
  timeout 120 ncu --clock-control none --section SpeedOfLight --section WarpStateStats --section SchedulerStats \
    --section MemoryWorkloadAnalysis_Tables --section LaunchStats -k regex:"$2" -c 1 $PY scripts/tune_ladder.py \
    --family "$1" --precision fp16 --shapes "/tmp/ncu_stalls_$4.txt" --iters 1 --seed 7 --variants "" \
    > "$OUT/ncu_$4.txt" 2>&1
  echo "stalls $4 exit $?"
  grep -E "Duration|Stall|Issued Warp|No Eligible|Active Warps|DRAM Throughput" "$OUT/ncu_$4.txt" | head -20
}
# scripts/tune_ladder.py's wgmma family in precision $1 (median of 100 launches) into $OUT/$2.txt,
# under $3 seconds, seed $4, on the shapes $5 with the variants after them; its passed / failed
# rows echoed
ladder() {
  local key=$1 name=$2 seconds=$3 seed=$4 shapes=$5; shift 5
  timeout $seconds $PY scripts/tune_ladder.py --family wgmma --precision $key --shapes "$shapes" --iters 100 \
    --seed $seed --variants "$@" > "$OUT/$name.txt" 2>&1
  echo "$name exit $?: $(grep -c PASS "$OUT/$name.txt") passed, $(grep -c FAIL "$OUT/$name.txt") failed"
}
# The llm suite against cuBLAS, fp16, and llm_small_m.txt's 20 shapes (M ≤ 512), bf16 — `tcraw bench`,
# 10 launches, each under $1 seconds: logs suite_llm_KEY.txt, their geomean lines echoed
llm_suites() {
  for run in "fp16 llm" "bf16 scripts/shapes/llm_small_m.txt"; do
    read -r key shapes <<< "$run"
    timeout $1 $PY -m tcraw bench --shapes "$shapes" --precision $key --kernel wgmma_tma_$key --iters 10 --warmup 3 \
      --seed 7 > "$OUT/suite_llm_$key.txt" 2>&1
    echo "$key $shapes exit $?: $(grep -A2 geomean "$OUT/suite_llm_$key.txt" | tail -1)"
  done
}
# How many clusters of 1, 2 and 4 of 06's blocks the device holds at once (cuOccupancyMaxActiveClusters;
# the model assumes kernel.CLUSTERS_OF_4_HELD of 4 on 132 SMs), into $OUT/held_clusters.txt
held_clusters() {
  $PY - <<'PYEOF' 2>&1 | tee "$OUT/held_clusters.txt"
from tcraw import compiler, kernels, runtime
device = runtime.Device(0)
for tile in ({"CLUSTER": 1}, {"CLUSTER": 2}, {"CLUSTER": 4}, {"CLUSTER": 4, "SHARE_A": 1}, {"CLUSTER": 4, "BN": 192},
             {"CLUSTER": 4, "BN": 128, "STAGES": 6}, {"CLUSTER": 2, "BN": 128, "STAGES": 6}):
    kernel = kernels.wgmma_kernel("fp16", tile, choose=False)
    with runtime.Module(device, compiler.compile_cubin(kernel, device.arch, device.drv).image) as mod:
        fn = mod.function(kernel.entry)
        g = kernel.launch_geometry(8192, 8192, 8192, device.sm_count)
        fn.set_max_dynamic_smem(g.smem_bytes)
        print(f"{device.name} {device.sm_count} SMs: {kernel.variant}: {fn.max_active_clusters(g)} clusters of "
              f"{kernel.cluster} held at once ({g.smem_bytes} B shared memory a block)")
PYEOF
}
