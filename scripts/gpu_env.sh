# Sourced by the gpu_*.sh session scripts: where logs go ($OUT), tcraw from this checkout, the image's
# CUDA toolkit (ncu, compute-sanitizer, cuobjdump), a cubin cache of the session's own.
OUT=${OUT:-out}
mkdir -p "$OUT"
export OUT PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1 CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
export TCRAW_CACHE_DIR=${TCRAW_CACHE_DIR:-/tmp/tcraw-cache}
PY=${PY:-python3}
