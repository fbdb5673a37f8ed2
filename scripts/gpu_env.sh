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
  } > "$OUT/env.txt" 2>&1
}
# A tune_ladder log's table rows, one a line: kernel, shape, median ms, × cuBLAS (cuBLAS's own row: 1)
ties() {
  grep -E "^(cublas|wgmma)" "$1" | grep "×" | awk '{print $1, $3, $4, ($1 == "cublas" ? 1 : $7)}'
}
