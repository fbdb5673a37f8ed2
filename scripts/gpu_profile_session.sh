#!/usr/bin/env bash
# One device call for issue #15: Nsight Compute on the kernel ladder through tcraw.profile, so that
# the metric names are checked against the H200's ncu and its raw outputs become the CPU fixtures.
#   OUT=out bash scripts/gpu_profile_session.sh      (on the GPU machine, from the repository root)
# Eight flat files in $OUT (the most that come back):
#   env.txt          GPU, driver, ncu version, Python, tcraw info
#   ncu_query.txt    ncu --list-chips, --query-metrics for gh100, and the suffixes of tcraw's metrics
#   ncu_ladder.txt   ncu's raw stdout of every run, each after "### <kernel> <m> <n> <k> clock=.. try=.. rc=.."
#                    and "#argv [...]": the fixtures (a "try" is a retry without a metric ncu refused)
#   ncu_stderr.txt   the last 80 lines of ncu's stderr of every run, same headers
#   records.json     device facts, the metrics ncu did not know, and profile_record of every kernel
#   nvml.txt         tcraw.nvml.ClockSampler around a plain `tcraw run` of wgmma_tma_fp16 (no ncu)
#   roofline.png     roofline_png of the base-clock records (when matplotlib is installed)
#   session.txt      one line per run: seconds, tries, TFLOP/s, flop_ratio, top stalls, or the error
# Each ncu run has 120 s, the whole driver 420 s, everything at most ~9.5 min (expected 3-6).
set -uo pipefail
source "$(dirname "$0")/gpu_env.sh"
export TCRAW_NCU=${TCRAW_NCU:-$CUDA_HOME/bin/ncu}

{
  echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  user: $(id -un) ($(id -u))"
  nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm,clocks.max.mem --format=csv
  "$TCRAW_NCU" --version
  $PY -c "import sys, importlib.util as u; print('python', sys.version.split()[0])
for m in ('pynvml', 'matplotlib'): print(m, 'importable' if u.find_spec(m) else 'absent')"
  $PY -m tcraw info
} > "$OUT/env.txt" 2>&1
cat "$OUT/env.txt" | head -12

# (a) the metric names this ncu knows for GH100, and the suffixes of the ones tcraw asks for
BASES=$($PY -c "from tcraw.profile import metric_names, ALTERNATES, FLOP_METRICS
names = {m for p in FLOP_METRICS for m in metric_names(p)} | set(ALTERNATES.values())
names |= {'sm__ops_path_tensor_op_hgmma_src_fp16_sparsity_off',   # per-instruction-kind spellings seen
          'sm__ops_path_tensor_op_hmma_src_fp16_dst_fp32_sparsity_off'}   # in public H100 profiles
print(','.join(sorted({m.split('.')[0] for m in names})))")
{
  echo "### ncu --list-chips"; timeout 30 "$TCRAW_NCU" --list-chips
  echo "### ncu --query-metrics --chip gh100"; timeout 60 "$TCRAW_NCU" --query-metrics --chip gh100
  echo "### ncu --query-metrics-mode suffix --chip gh100 --metrics <tcraw's bases>"
  timeout 30 "$TCRAW_NCU" --query-metrics-mode suffix --chip gh100 --metrics "$BASES"
} > "$OUT/ncu_query.txt" 2>&1
echo "ncu_query.txt: $(wc -l < "$OUT/ncu_query.txt") lines"

# (b) the ladder, each through profile.run_profile (its retries and every ncu run logged)
timeout 420 $PY - <<'PY'
import json, os, subprocess, sys, time
from pathlib import Path
from tcraw import profile
from tcraw.kernels import KERNELS

OUT, NCU = Path(os.environ["OUT"]), os.environ["TCRAW_NCU"]
RUNS = [("naive_fp32", 2048, "base", None)] + [(k, 4096, "base", None) for k in (
    "wmma_fp16", "tiled_simt_fp32", "wmma_pipelined_fp16", "mma_sync_fp16", "wgmma_tma_fp16")] + [
    ("wgmma_tma_fp16", 4096, "none", None),                          # clocks as `tcraw run` sees them
    ("mma_sync_fp16", 4096, "base", "/tmp/tcraw-profile/mma_sync")]  # does --export keep the CSV on stdout?
if os.environ.get("PROFILE_RUNS"):   # kernel:size:clock[:export],... to run fewer (device time is short)
    RUNS = [(k, int(n), c, (f"/tmp/tcraw-profile/{k}" if rest else None))
            for k, n, c, *rest in (r.split(":") for r in os.environ["PROFILE_RUNS"].split(","))]
ladder, errs, log = (open(OUT / f, "w") for f in ("ncu_ladder.txt", "ncu_stderr.txt", "session.txt"))
os.makedirs("/tmp/tcraw-profile", exist_ok=True)
records, unknown, export_check = [], set(), None
for name, size, clock, raw in RUNS:
    tries, t0 = [], time.time()

    def keep(argv, rc, out, err):
        tries.append(rc)
        head = f"### {name} {size} {size} {size} clock={clock} try={len(tries)} rc={rc}\n#argv {json.dumps(argv)}\n"
        ladder.write(head + out + ("" if out.endswith("\n") else "\n"))
        errs.write(head + "\n".join(err.splitlines()[-80:]) + "\n")
        ladder.flush()
        errs.flush()
    try:
        r = profile.run_profile(KERNELS[name], (size,) * 3, ncu=NCU, clock_control=clock, raw_path=raw,
                                unknown=unknown, timeout=120, log=keep)
        unknown |= set(r["metrics_unknown"])
        if raw:
            export_check = r
        else:
            records.append(r)
        msg = (f"ok {r['tflops']:.1f} TFLOP/s ({r['flops_source']}, flop_ratio {r['flop_ratio']}), "
               f"tensor {r['tensor_pct']}% sm {r['sm_pct']}% mem {r['mem_pct']}% clock {r['sm_clock_mhz_ncu']} MHz, "
               f"occupancy {r['occupancy_achieved_pct']}/{r['occupancy_theoretical_pct']} ({r['occupancy_limiter']}), "
               f"stalls {r['top_stalls']}, passed {r['passed']}")
    except Exception as exc:
        msg = f"FAILED {type(exc).__name__}: {exc}"
    if raw:
        msg += f"; report written: {Path(raw + '.ncu-rep').is_file()}, runs incl. --import: {len(tries)}"
    print(f"{name:20} {size} clock={clock:4} {time.time() - t0:5.1f}s tries={len(tries)} {msg}", file=log, flush=True)
    (OUT / "records.json").write_text(json.dumps({"metrics_unknown": sorted(unknown), "records": records}, indent=2))
print("metrics ncu did not know:", sorted(unknown) or "none", file=log, flush=True)

# NVML around a plain run (no ncu): the clocks and power a timed run really sees
from tcraw.nvml import ClockSampler
with ClockSampler(0) as s:
    p = subprocess.run([sys.executable, "-m", "tcraw", "run", "--kernel", "wgmma_tma_fp16", "--size", "4096",
                        "--iters", "2000", "--warmup", "10", "--seed", "1", "--format", "json"],
                       capture_output=True, text=True, timeout=120)
(OUT / "nvml.txt").write_text(json.dumps({"sampler": s.result, "rc": p.returncode, "stderr": p.stderr[-2000:],
                                          "tcraw_run": profile.child_records(p.stdout)}, indent=2))
print("nvml:", json.dumps(s.result), file=log, flush=True)

try:
    from tcraw.runtime import Device
    with Device(0) as dev:
        facts = profile.device_facts(dev)
    (OUT / "records.json").write_text(json.dumps({"device_facts": facts, "metrics_unknown": sorted(unknown),
                                                  "records": records, "export_check": export_check}, indent=2))
    profile.roofline_png([r for r in records if r["clock_control"] == "base"], facts, OUT / "roofline.png")
except Exception as exc:
    print(f"device facts / roofline: {type(exc).__name__}: {exc}", file=log, flush=True)
PY
echo "driver exit $?"
cat "$OUT/session.txt"
