#!/usr/bin/env bash
# One device call: `tcraw profile` over the fp16 ladder at 4096³ (ncu's base clock, then unlocked),
# the roofline, a run record with NVML's clocks and power, and the GPU tests on the ctypes backend.
#   OUT=out bash scripts/gpu_profile_ladder.sh
set -uo pipefail
source "$(dirname "$0")/gpu_env.sh"
LADDER=naive_fp32,wmma_fp16,tiled_simt_fp32,wmma_pipelined_fp16,mma_sync_fp16,wgmma_tma_fp16
{ date -u +%Y-%m-%dT%H:%M:%SZ; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  "$CUDA_HOME/bin/ncu" --version | tail -1; } > "$OUT/env.txt" 2>&1
$PY -m tcraw profile --kernel $LADDER --size 4096 --format json --roofline "$OUT/roofline.png" \
  > "$OUT/profile_base.json" 2> "$OUT/profile_stderr.txt"; echo "profile (base clock) exit $?"
$PY -m tcraw profile --kernel $LADDER --size 4096 --clock-control none --format json \
  > "$OUT/profile_unlocked.json" 2>> "$OUT/profile_stderr.txt"; echo "profile (unlocked) exit $?"
$PY -m tcraw run --kernel wgmma_tma_fp16 --size 4096 --iters 500 --format json > "$OUT/run_nvml.json" 2>&1
echo "run exit $?"
timeout 200 $PY -m pytest -q -rs -p no:cacheprovider -k ctypes tests/test_gpu.py tests/test_user_kernels.py \
  tests/test_faults.py tests/test_cubin_only.py > "$OUT/pytest_ctypes.txt" 2>&1; tail -1 "$OUT/pytest_ctypes.txt"
