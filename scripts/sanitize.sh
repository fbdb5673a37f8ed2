#!/usr/bin/env bash
# compute-sanitizer over every kernel at odd sizes: memcheck (with allocation padding), racecheck,
# initcheck, synccheck. Exit 9 from the sanitizer = it found something. Needs a GPU.
#   bash scripts/sanitize.sh [LOG]        (make sanitize)
#   KERNELS=mma_sync_fp16,tiled_simt_fp32 bash scripts/sanitize.sh     (only those kernels)
set -uo pipefail
LOG=${1:-build/sanitize.log}
PY=${PY:-python3}
# SANITIZER, else where `tcraw check --sanitize` looks: $CUDA_HOME/bin, $CUDA_PATH/bin, /usr/local/cuda/bin, PATH
SAN=${SANITIZER:-$("$PY" -c 'from tcraw.check import find_sanitizer; print(find_sanitizer() or "")' 2>/dev/null)}
SAN=${SAN:-$(command -v compute-sanitizer || echo compute-sanitizer)}
WHAT=(--precision all)
if [ -n "${KERNELS:-}" ]; then   # a name that is no kernel, or an empty item: refused before anything runs, exit 2
  KERNELS=$("$PY" -c 'import sys; from tcraw import kernels, validate; from tcraw.errors import run_main
def names():
    chosen = validate.names([sys.argv[1]], "KERNELS")   # (as --kernel reads them)
    kernels.select(chosen)
    print(",".join(chosen))
run_main("sanitize: KERNELS", names)' "$KERNELS") || exit $?
  WHAT=(--kernel "$KERNELS")
fi
if ! { mkdir -p "$(dirname "$LOG")" && : > "$LOG"; } 2> /dev/null; then   # (bad input: 2 on any machine)
  echo "sanitize: cannot write $LOG; give OUT a directory you can write" >&2
  exit 2
fi
if [ ! -x "$SAN" ]; then   # (as `tcraw check --sanitize`: one line, exit 3 — not 32 runs' "exit 127")
  echo "sanitize: compute-sanitizer not found ($SAN); it ships with the CUDA toolkit:" \
       "put it on PATH, set CUDA_HOME to its toolkit or SANITIZER to it" >&2
  exit 3
fi
status=0
for tool in memcheck racecheck initcheck synccheck; do
  extra=""
  [ "$tool" = memcheck ] && extra="--padding 32"
  # 06 (H200 picks): split-K in 4 pieces; stream-K cutting tiles in 2 or 3 after four whole rounds;
  # the swapped form (M ≤ 32) split in 16 pieces, A copied to pitched rows; 09 (06's pick at M ≤ 32,
  # and M ≤ 48 with N ≥ 4096, with N not a multiple of 8: B read in place, K in pieces; one m16 block, three)
  for shape in "1 1 1" "15 17 33" "127 129 255" "256 512 2112" "5120 1792 2112" "3 1000 4105" "3 1003 4105" \
               "45 4101 1571"; do
    set -- $shape
    echo "## $tool  M=$1 N=$2 K=$3" | tee -a "$LOG"
    "$SAN" --tool "$tool" $extra --error-exitcode 9 \
      "$PY" -m tcraw run "${WHAT[@]}" -m "$1" -n "$2" -k "$3" --iters 1 --warmup 0 --seed 1 \
      >> "$LOG" 2>&1
    rc=$?
    echo "exit $rc" | tee -a "$LOG"
    if [ $rc -eq 3 ]; then   # tcraw's "no usable GPU": so will every other run be — one line, exit 3
      echo "sanitize: no usable GPU, CUDA driver or NVRTC (tcraw run exited 3; see $LOG)" >&2
      exit 3
    fi
    [ $rc -ne 0 ] && status=1
  done
done
grep -E "ERROR SUMMARY|errors" "$LOG" | sort | uniq -c
exit $status
