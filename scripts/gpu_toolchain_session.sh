#!/usr/bin/env bash
# One device call for issue 16 and the big-problem check: the GPU tests touched by this work (bindings
# backend), cubins built by the CUDA 12 toolchain run on this GPU's driver with NVRTC unimportable,
# a 16384³ run's time and host memory, then scripts/gpu_profile_session.sh on part of the ladder.
# First, on a CPU machine: make install CUDA=12 VENV=.venv12 and
#   TCRAW_CUDA=12 .venv12/bin/tcraw compile --arch sm_90 --out cubins12   (the directory travels along)
#   OUT=out bash scripts/gpu_toolchain_session.sh
source "$(dirname "$0")/gpu_env.sh"
set -uo pipefail
M=$OUT/gpu_misc.txt
{
  echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"; nvidia-smi --query-gpu=index,name,driver_version --format=csv
  python3 -m tcraw info 2>&1 | grep -E "backend|toolchain|nvrtc  |cuda_bindings"
  echo "## GPU tests touched since the last full run (bindings backend)"
  timeout 240 python3 -m pytest -q -rs -p no:cacheprovider -k "not ctypes" tests/test_gpu.py tests/test_user_kernels.py tests/test_faults.py tests/test_cubin_only.py tests/test_profile.py tests/test_toolchain.py 2>&1 | tail -15
  echo "## NVRTC 12.9 cubins (built on the CPU machine, TCRAW_CUDA=12) on the 13.0 driver, NVRTC unimportable"
  python3 -c "from tcraw.toolchain import cubin_cuda_version as v; print('cubin built by CUDA', v(open('cubins12/wmma_fp16.sm_90.cubin','rb').read()))"
  python3 -c "import sys; sys.modules['cuda.bindings.nvrtc'] = None; from tcraw.cli import main; sys.exit(main(sys.argv[1:]))" run --precision all -m 1000 -n 1003 -k 997 --inputs int --iters 5 --cubin-dir cubins12 --backend ctypes; echo "exit $?"
  echo "## tcraw run --kernel wgmma_tma_fp16 --size 16384 (device reference; host memory)"
  /usr/bin/time -v python3 -m tcraw run --kernel wgmma_tma_fp16 --size 16384 --iters 5 --format json 2>&1 | grep -E '"reference"|"passed"|"tflops"|Elapsed|Maximum resident|exit'
} > $M 2>&1
cat $M | tail -40
mkdir -p $OUT/p
OUT=$OUT/p PROFILE_RUNS=naive_fp32:2048:base,mma_sync_fp16:4096:base,wgmma_tma_fp16:4096:base,wgmma_tma_fp16:4096:none timeout 330 bash scripts/gpu_profile_session.sh > /dev/null 2>&1
{ echo "## ncu stderr"; cat $OUT/p/ncu_stderr.txt; echo "## profile env"; cat $OUT/p/env.txt; } >> $OUT/p/session.txt
rm -f $OUT/p/ncu_stderr.txt $OUT/p/env.txt
cat $OUT/p/session.txt | head -30
