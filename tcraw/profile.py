"""Why a kernel is slow: Nsight Compute (ncu) metrics of one launch, and a roofline.

The library under `tcraw profile`: ``find_ncu`` → ``profile_command`` (ncu runs a child
``python -m tcraw run`` of one kernel and profiles only that kernel's own launch) →
``parse_ncu_csv`` → ``profile_record``, one flat dict per kernel × shape; ``run_profile`` does all
of it, retrying without a metric this ncu does not know; ``roofline_png`` draws the records under
the device's roofs.

Metric names differ between Nsight Compute versions and chips. The set below (``METRICS``,
``FLOP_METRICS``) was chosen for sm_90 (H100/H200) with Nsight Compute 2025.x; names marked
"unverified" come from public scripts, not NVIDIA's reference. A metric ncu does not print is None
in the record, never an error.
"""

import csv
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from contextlib import suppress
from pathlib import Path

from . import validate
from .errors import MissingToolError, TcrawError, UsageError
from .kernels import KERNELS, checked_chosen, child_args, get_kernel


class ProfileError(TcrawError):
    """ncu ran but did not profile the kernel; the message says why (exit 1)."""


class NcuNotFound(ProfileError, MissingToolError):
    """No ncu executable where tcraw looks. Exit 3, like a missing driver, NVRTC or
    compute-sanitizer: the machine lacks a tool, the request was fine."""

    exit_code = 3   # (ProfileError's 1 comes first in the bases' order)


class NcuPermissionError(ProfileError):
    """ERR_NVGPUCTRPERM: the driver refuses this user the GPU's performance counters (exit 3)."""

    exit_code = 3


# -- the metric set ---------------------------------------------------------------------------------
# (ncu metric, field, unit, meaning). Fields are the names profile_record reads them by; units are
# what parse_ncu_csv normalises to (ns, Hz, byte; % and counts as ncu prints them).

STALL_REASONS = ("barrier", "branch_resolving", "dispatch_stall", "drain", "gmma", "imc_miss",
                 "lg_throttle", "long_scoreboard", "math_pipe_throttle", "membar", "mio_throttle", "misc",
                 "no_instruction", "not_selected", "short_scoreboard", "sleeping", "tex_throttle", "wait")
# "selected" is left out: a warp that issued is not stalled. "gmma" (waiting on wgmma) is sm_90 only.

METRICS = [
    ("gpu__time_duration.sum", "duration", "ns", "the launch's duration on the GPU"),
    ("sm__cycles_elapsed.avg.per_second", "sm_clock", "Hz",
     "the SM clock ncu saw (locked to base unless --clock-control none)"),
    ("sm__throughput.avg.pct_of_peak_sustained_elapsed", "sm_pct", "%",
     "SM throughput: its busiest unit against that unit's peak (Speed Of Light)"),
    ("gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", "mem_pct", "%",
     "memory throughput: the busiest of DRAM, L2, L1 and shared memory against its peak"),
    ("sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active", "tensor_pct", "%",
     "cycles a tensor pipe (any kind) was busy, % of the SMs' active cycles"),
    ("sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active", "tensor_hmma_pct", "%",
     "HMMA pipe busy (mma.sync, WMMA: fp16/bf16/tf32); public H100 profiles show it counting wgmma too"),
    ("sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active", "tensor_gmma_pct", "%",
     "GMMA pipe busy (wgmma, sm_90 only; unverified name)"),
    ("sm__inst_executed_pipe_tensor_op_hmma.sum", "hmma_inst", "inst", "HMMA warp instructions executed"),
    ("sm__inst_executed_pipe_tensor_op_gmma.sum", "gmma_inst", "inst", "GMMA (wgmma) instructions executed"),
    ("dram__bytes_read.sum", "dram_read", "byte", "bytes read from DRAM (HBM)"),
    ("dram__bytes_write.sum", "dram_write", "byte", "bytes written to DRAM"),
    ("lts__t_sector_hit_rate.pct", "l2_hit_pct", "%", "L2 sector hit rate (ncu flushes caches first)"),
    ("sm__warps_active.avg.pct_of_peak_sustained_active", "occupancy_achieved_pct", "%",
     "achieved occupancy: warps resident per active cycle / the SM's maximum"),
    ("sm__maximum_warps_per_active_cycle_pct", "occupancy_theoretical_pct", "%",
     "theoretical occupancy the launch's registers, shared memory and block size allow"),
    ("launch__occupancy_limit_registers", "limit_registers", "blocks", "blocks per SM the registers allow"),
    ("launch__occupancy_limit_shared_mem", "limit_shared_mem", "blocks", "blocks per SM shared memory allows"),
    ("launch__occupancy_limit_warps", "limit_warps", "blocks", "blocks per SM the warp slots allow"),
    ("launch__occupancy_limit_blocks", "limit_blocks", "blocks", "blocks per SM the block slots allow"),
    ("launch__registers_per_thread", "registers", "reg", "registers per thread"),
    ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "smem_conflicts_ld", "count",
     "shared-memory bank conflicts of LSU loads (not TMA/wgmma/ldmatrix traffic; Hopper overcounts a little)"),
    ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "smem_conflicts_st", "count",
     "shared-memory bank conflicts of LSU stores"),
    *[(f"smsp__average_warps_issue_stalled_{r}_per_issue_active.ratio", f"stall_{r}", "cycles/inst",
       f"cycles warps spent stalled on '{r}' per issued instruction (Warp State Statistics)")
      for r in STALL_REASONS],
]

# FLOPs counted by the hardware, for the kernel's precision only (fewer names to go wrong):
# (metric, field, unit, meaning, FLOPs per count). The tensor "ops" are math operations — NVIDIA's
# forum answers point to them for FLOPs — but whether a multiply-add counts 1 or 2 is not stated:
# the record's flop_ratio (measured / 2MNK) shows it (≈1 when they are FLOPs).
_SIMT = "smsp__sass_thread_inst_executed_op_{}_pred_on.sum"
FLOP_METRICS = {
    "fp32": [(_SIMT.format("ffma"), "flops", "inst", "FP32 FMA thread instructions (2 FLOPs)", 2),
             (_SIMT.format("fadd"), "flops", "inst", "FP32 add thread instructions", 1),
             (_SIMT.format("fmul"), "flops", "inst", "FP32 multiply thread instructions", 1)],
    "fp64": [("sm__ops_path_tensor_src_fp64.sum", "flops", "op", "DMMA tensor math ops", 1),
             (_SIMT.format("dfma"), "flops", "inst", "FP64 FMA thread instructions (2 FLOPs)", 2)],
    **{key: [(f"sm__ops_path_tensor_src_{src}.sum", "flops", "op", f"tensor math ops, {src}", 1)]
       for key, src in (("fp16", "fp16_dst_fp32"), ("fp16acc16", "fp16_dst_fp16"), ("bf16", "bf16_dst_fp32"),
                        ("tf32", "tf32_dst_fp32"), ("int8", "int8"))},   # int8: unverified name
}

# Names another Nsight Compute spells differently (newer ones, on Blackwell: dram__bytes_op_read).
ALTERNATES = {"dram__bytes_read.sum": "dram__bytes_op_read.sum",
              "dram__bytes_write.sum": "dram__bytes_op_write.sum"}


def _base(metric):
    return metric.split(".")[0]


def metric_names(precision_key, unknown=()):
    """The ncu metric names profiled for a kernel of ``precision_key`` ("fp16", ...): METRICS and
    that precision's FLOP_METRICS. A name whose base (before the first '.') is in ``unknown``
    (ncu said it does not know it) is replaced by its ALTERNATES spelling, or left out."""
    names = []
    for metric, *_ in METRICS + FLOP_METRICS.get(precision_key, []):
        if _base(metric) in unknown:
            metric = ALTERNATES.get(metric)
            if metric is None or _base(metric) in unknown:
                continue
        if metric not in names:
            names.append(metric)
    return names


# -- finding and running ncu --------------------------------------------------------------------------

def find_ncu():
    """The ncu executable: $TCRAW_NCU, then $CUDA_HOME/bin/ncu, $CUDA_PATH/bin/ncu,
    /usr/local/cuda/bin/ncu, /opt/nvidia/nsight-compute/*/ncu, then PATH. NcuNotFound (exit 3)
    names every place looked at; a $TCRAW_NCU that is not an executable is refused (UsageError,
    exit 2, as a wrong $TCRAW_CUOBJDUMP is), not skipped."""
    def runnable(p):
        return p.is_file() and os.access(p, os.X_OK)
    if (env := os.environ.get("TCRAW_NCU")):
        if (found := shutil.which(env)):   # a path, or a name on PATH
            return found
        raise UsageError(f"TCRAW_NCU={env} is not an executable file; point it at Nsight Compute's "
                         "ncu (e.g. TCRAW_NCU=/usr/local/cuda/bin/ncu) or unset it")
    places = [Path(os.environ[v]) / "bin" / "ncu" for v in ("CUDA_HOME", "CUDA_PATH") if os.environ.get(v)]
    places += [Path("/usr/local/cuda/bin/ncu"), *sorted(Path("/opt/nvidia").glob("nsight-compute/*/ncu"),
                                                         reverse=True)]
    for p in places:
        if runnable(p):
            return str(p)
    if (found := shutil.which("ncu")):
        return found
    looked = ", ".join(dict.fromkeys(str(p) for p in places)) or "(none)"
    raise NcuNotFound(f"Nsight Compute's ncu was not found (looked at $TCRAW_NCU, {looked}, and PATH); "
                      "install Nsight Compute (it comes with the CUDA toolkit) and set "
                      "TCRAW_NCU=/path/to/ncu")


CLOCK_CONTROLS = ("base", "none")


def raw_name(kernel, shape):
    """The name `tcraw profile --raw DIR` gives one kernel's report there (ncu adds .ncu-rep)."""
    return f"{kernel.name}.{'x'.join(map(str, shape))}"


def kernel_regex(kernel):
    """The --kernel-name filter that matches only ``kernel``'s own entry symbol: not the fp64
    reference kernels (reference_*) tcraw runs for big problems, nor anything else."""
    return f"regex:^{re.escape(kernel.entry)}$"


def profile_command(kernel, shape, *, ncu, clock_control="base", raw_path=None, backend=None, device=0,
                    extra_args=(), metrics=None):
    """The argv that runs ``ncu`` on a child ``python -m tcraw run`` of ``kernel`` (a Kernel; a
    user's carries its declaring flags in ``kernel.origin``) at ``shape`` = (m, n, k): one timed
    launch, no warm-up, seed 1, JSON records on stdout. ncu profiles only the first launch of the
    kernel's entry (``--launch-count 1``), with clocks ``clock_control`` ("base": locked to base,
    ncu's default and repeatable; "none": as the GPU runs them, comparable with ``tcraw run``), and
    prints the raw page as CSV in base units. ``raw_path``: also save the full report (.ncu-rep).
    ``metrics``: the names to collect (default: metric_names of the kernel's precision)."""
    m, n, k = shape
    validate.problem(m, n, k)
    validate.device_index(device)
    if clock_control not in CLOCK_CONTROLS:
        raise UsageError(f"--clock-control takes {' or '.join(CLOCK_CONTROLS)}, got {clock_control!r}")
    names = metrics if metrics is not None else metric_names(kernel.precision.key)
    argv = [str(ncu), "--target-processes", "all", "--kernel-name", kernel_regex(kernel), "--launch-count", "1",
            "--clock-control", clock_control, "--csv", "--page", "raw", "--print-units", "base",
            "--metrics", ",".join(names)]
    if raw_path is not None:
        argv += ["--export", str(raw_path), "--force-overwrite"]
    argv += [*extra_args, sys.executable, "-m", "tcraw", "run", *child_args(kernel),
             "-m", str(m), "-n", str(n), "-k", str(k), "--iters", "1", "--warmup", "0", "--seed", "1",
             "--format", "json", "--device", str(device)]
    if backend is not None:
        argv += ["--backend", backend]
    return argv


def import_command(ncu, report):
    """The argv that prints a saved .ncu-rep's raw page as CSV in base units (as profiled)."""
    return [str(ncu), "--import", str(report), "--csv", "--page", "raw", "--print-units", "base"]


# -- ncu's output ---------------------------------------------------------------------------------------

CSV_HEADER = '"ID","Process ID"'   # how the raw page's header line starts
IDENTITY = ("ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context", "Stream",
            "Block Size", "Grid Size", "Device", "CC")

# Units as --print-units base prints them (and auto's, in case): each to ns, Hz or byte.
_SCALE = {"nsecond": 1, "usecond": 1e3, "msecond": 1e6, "second": 1e9, "ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9,
          "hz": 1, "khz": 1e3, "mhz": 1e6, "ghz": 1e9, "cycle/second": 1, "cycle/nsecond": 1e9,
          "cycle/usecond": 1e6, "cycle/msecond": 1e3, "byte": 1, "kbyte": 1e3, "mbyte": 1e6, "gbyte": 1e9,
          "tbyte": 1e12, "kib": 2**10, "mib": 2**20, "gib": 2**30}


def _value(text, unit=""):
    """A CSV cell as a float in the unit's base (thousands separators dropped), None when empty,
    or the text itself when it is not a number (ncu prints "n/a" for some)."""
    text = text.strip()
    if not text:
        return None
    try:
        number = float(text.replace(",", "")) if re.fullmatch(r"[-+0-9.,eE]+", text) else float(text)
    except ValueError:
        return text
    return number * _SCALE.get(unit.strip().lower(), 1)


def _csv_blocks(text):
    """The raw-page tables in ncu's stdout: each a header line and the quoted lines after it.
    ==PROF== lines and the child's own output (its JSON records) are not part of any."""
    blocks, block = [], None
    for line in text.splitlines():
        if line.startswith(CSV_HEADER):
            block = [line]
            blocks.append(block)
        elif block is not None and line.startswith('"'):
            block.append(line)
        else:
            block = None
    return blocks


def parse_ncu_csv(text):
    """Per-launch dicts from the stdout of ``ncu --csv --page raw --print-units base``: the
    identity columns (IDENTITY) as text, each metric as a float converted by the units row to
    ns, Hz or byte (percentages and counts as printed), or text where ncu printed no number.
    Everything that is not the CSV (==PROF== lines, the child's output) is ignored."""
    launches = []
    for block in _csv_blocks(text):
        rows = list(csv.reader(block))
        header, rows = rows[0], rows[1:]
        units = rows.pop(0) if rows and rows[0] and rows[0][0] == "" else [""] * len(header)
        for row in rows:
            launches.append({col: (cell if col in IDENTITY else _value(cell, unit))
                             for col, unit, cell in zip(header, units + [""] * len(header), row)})
    return launches


def child_records(text):
    """The JSON records the child ``tcraw run --format json`` printed into ncu's stdout ([] when
    none can be found)."""
    decoder = json.JSONDecoder()
    for match in re.finditer(r"^\[", text, re.M):
        try:
            found, _ = decoder.raw_decode(text, match.start())
        except ValueError:
            continue
        if isinstance(found, list) and all(isinstance(r, dict) and "kernel" in r for r in found):
            return found
    return []


def _tail(text, lines=6):
    return " | ".join(l.strip() for l in text.strip().splitlines()[-lines:] if l.strip())


def missing_metric(stdout, stderr):
    """The base name of the metric ncu said it cannot find ("==ERROR== Failed to find metric
    regex:^name..."), or None."""
    found = re.search(r"Failed to find metric\s+(?:regex:)?\^?([A-Za-z0-9_]+)", f"{stdout}\n{stderr}")
    return found.group(1) if found else None


def classify_ncu_failure(returncode, stdout, stderr, *, regex=None):
    """The TcrawError that says why an ncu run produced no profile: no permission to the
    performance counters (NcuPermissionError), no launch matching the kernel filter ``regex``,
    an unknown metric, or else ncu's last words (ProfileError)."""
    both = f"{stdout}\n{stderr}"
    if "ERR_NVGPUCTRPERM" in both:
        return NcuPermissionError(
            "ncu: ERR_NVGPUCTRPERM, this user may not read the GPU's performance counters. Run the "
            "profile as root (sudo), or let every user profile: `options nvidia "
            "NVreg_RestrictProfilingToAdminUsers=0` in /etc/modprobe.d/, then reload the nvidia module "
            "or reboot (in a container, --cap-add=SYS_ADMIN); NVIDIA's page: search \"ERR_NVGPUCTRPERM\" "
            "(developer.nvidia.com/ERR_NVGPUCTRPERM)")
    if "No kernels were profiled" in both:
        entries = ", ".join(sorted({k.entry for k in KERNELS.values()}))
        child = [l for l in stderr.splitlines() if l.startswith("tcraw:")]
        return ProfileError(
            f"ncu profiled no kernel: --kernel-name {regex or '(the filter)'} matched no launch of the "
            "child run. The filter must be the kernel's CUDA entry symbol exactly (the built-ins': "
            f"{entries}; a kernel of your own: its --entry)"
            + (f"; the child run said: {' | '.join(child)}" if child else f" (ncu exit {returncode})"))
    if (name := missing_metric(stdout, stderr)):
        return ProfileError(f"ncu does not know the metric {name} (Nsight Compute version or GPU differs); "
                            "list the names it knows with `ncu --query-metrics`")
    errors = [l for l in both.splitlines() if l.startswith("==ERROR==")]
    return ProfileError(f"ncu failed (exit {returncode}): " + (" | ".join(errors) or _tail(stderr) or _tail(stdout)
                                                                or "no output"))


def _run_process(argv, timeout):
    """Run argv in its own process group, so that on a timeout ncu and the child it started go
    together; (returncode, stdout, stderr)."""
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        with suppress(ProcessLookupError):   # it may have ended just now
            os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        raise ProfileError(f"ncu ran past {timeout} s and was stopped ({' '.join(argv[:3])} ...)") from None
    return p.returncode, out, err


def run_profile(kernel, shape, *, ncu=None, clock_control="base", raw_path=None, backend=None, device=0,
                device_facts=None, unknown=(), timeout=300, retries=6, log=None, run=_run_process):
    """Profile ``kernel`` (a Kernel or a built-in's name) at ``shape`` with ncu and return its
    profile_record. A metric this ncu does not know is dropped (or swapped for its ALTERNATES
    spelling) and the run repeated, up to ``retries`` times; the record's ``metrics_unknown`` lists
    them (pass them as ``unknown`` to the next call to skip the retries). ``log(argv, returncode,
    stdout, stderr)``, when given, sees every ncu run. Raises classify_ncu_failure's error when no
    launch was profiled."""
    kernel = get_kernel(kernel) if isinstance(kernel, str) else kernel
    checked_chosen([kernel])
    timeout = validate.timeout_s(timeout, "timeout")
    shape = validate.shape(shape)
    if raw_path is not None and not validate.is_dir(Path(str(raw_path)).parent):
        raise UsageError(f"raw_path {raw_path} is where the .ncu-rep report goes: its directory must exist")
    # (its checks — the problem, the device index, the clocks — before ncu is looked for; and what a
    # user's kernel's source refuses: compiler.check_declared)
    profile_command(kernel, shape, ncu="ncu", clock_control=clock_control, raw_path=raw_path, backend=backend,
                    device=device)
    if KERNELS.get(kernel.name) is not kernel:
        from .compiler import check_declared
        check_declared(kernel)
    ncu = ncu or find_ncu()
    unknown = set(unknown)
    rep = raw_path and Path(str(raw_path) + ("" if str(raw_path).endswith(".ncu-rep") else ".ncu-rep"))
    for _ in range(retries + 1):
        names = metric_names(kernel.precision.key, unknown)
        argv = profile_command(kernel, shape, ncu=ncu, clock_control=clock_control, raw_path=raw_path,
                               backend=backend, device=device, metrics=names)
        started = time.time()
        code, out, err = run(argv, timeout)
        if log:
            log(argv, code, out, err)
        launches = parse_ncu_csv(out)
        if not launches and rep and rep.is_file() and rep.stat().st_mtime >= started - 1:
            # with --export, ncu may keep the results out of stdout: read them back from this run's report
            code2, out2, err2 = run(import_command(ncu, rep), timeout)
            if log:
                log(import_command(ncu, rep), code2, out2, err2)
            launches = parse_ncu_csv(out2)
        ours = [l for l in launches if l.get("Kernel Name", "").split("(")[0] == kernel.entry] or launches
        name = missing_metric(out, err)
        if ours or not name or name in unknown or metric_names(kernel.precision.key, unknown | {name}) == names:
            break
        unknown.add(name)
    if not ours:
        raise classify_ncu_failure(code, out, err, regex=kernel_regex(kernel))
    record = profile_record(ours[0], kernel, shape, device_facts, clock_control=clock_control)
    child = [r for r in child_records(out) if r.get("kernel") == kernel.name]
    record["passed"] = child[0].get("passed") if child else None
    record["metrics_unknown"] = sorted(unknown)
    return record


# -- the record ------------------------------------------------------------------------------------------

def _get(raw, metric):
    v = raw.get(metric, raw.get(ALTERNATES.get(metric, "")))
    return v if isinstance(v, (int, float)) else None


def profile_record(raw_metrics, kernel, shape, device_facts=None, *, clock_control=None):
    """One flat record from one launch's metrics (a parse_ncu_csv dict) of ``kernel`` (a Kernel
    or a built-in's name) at ``shape`` = (m, n, k). ``device_facts`` (see ``device_facts``) adds
    % of peak. FLOPs come from the hardware counters of the kernel's precision when they are there
    and not zero (``flops_source`` "counters"), else from 2·M·N·K ("2mnk"). Any metric ncu did not
    print gives None in the fields that need it."""
    kernel = get_kernel(kernel) if isinstance(kernel, str) else kernel
    m, n, k = shape
    f = {field: _get(raw_metrics, metric) for metric, field, *_ in METRICS}
    counted = [(_get(raw_metrics, metric), per) for metric, _, _, _, per in FLOP_METRICS.get(kernel.precision.key, [])]
    counted = [v * per for v, per in counted if v is not None]
    measured = sum(counted) if counted else None
    expected = 2.0 * m * n * k
    flops = measured if measured else expected
    ns = f["duration"]
    tflops = flops / (ns * 1e-9) / 1e12 if ns else None
    dram = f["dram_read"] + f["dram_write"] if None not in (f["dram_read"], f["dram_write"]) else None
    limits = {name: f[f"limit_{name}"] for name in ("registers", "shared_mem", "warps", "blocks")
              if f[f"limit_{name}"] is not None}
    least = min(limits.values(), default=None)
    conflicts = [v for v in (f["smem_conflicts_ld"], f["smem_conflicts_st"]) if v is not None]
    stalls = sorted(((r, f[f"stall_{r}"]) for r in STALL_REASONS if f[f"stall_{r}"]), key=lambda s: -s[1])
    clock_mhz = f["sm_clock"] / 1e6 if f["sm_clock"] else None
    peak = (device_facts or {}).get("peak_tflops", {}).get(kernel.precision.key)
    max_mhz = (device_facts or {}).get("sm_clock_mhz")
    return {
        "kernel": kernel.name, "precision": kernel.precision.label, "m": m, "n": n, "k": k,
        "duration_ms": ns / 1e6 if ns else None, "tflops": tflops,
        "pct_peak": 100 * tflops / peak if tflops and peak else None,
        # against the peak at the clock ncu ran the SMs at (base, unless --clock-control none)
        "pct_peak_at_ncu_clock": (100 * tflops / (peak * clock_mhz / max_mhz)
                                  if tflops and peak and clock_mhz and max_mhz else None),
        "flop_count_measured": measured, "flop_count_expected": expected,
        "flop_ratio": measured / expected if measured is not None else None,
        "flops_source": "counters" if measured else "2mnk",
        "sm_pct": f["sm_pct"], "mem_pct": f["mem_pct"],
        "tensor_pct": f["tensor_pct"] if f["tensor_pct"] is not None else
        max((v for v in (f["tensor_hmma_pct"], f["tensor_gmma_pct"]) if v is not None), default=None),
        "tensor_hmma_pct": f["tensor_hmma_pct"], "tensor_gmma_pct": f["tensor_gmma_pct"],
        "dram_read_bytes": f["dram_read"], "dram_write_bytes": f["dram_write"],
        "intensity": flops / dram if dram else None,
        "l2_hit_pct": f["l2_hit_pct"],
        "occupancy_achieved_pct": f["occupancy_achieved_pct"],
        "occupancy_theoretical_pct": f["occupancy_theoretical_pct"],
        # the resource(s) allowing the fewest blocks per SM
        "occupancy_limiter": "+".join(name for name, v in limits.items() if v == least) or None,
        "registers": int(f["registers"]) if f["registers"] is not None else None,
        "smem_bank_conflicts": sum(conflicts) if conflicts else None,
        "top_stalls": [[r, round(v, 2)] for r, v in stalls[:3]],
        "sm_clock_mhz_ncu": clock_mhz, "clock_control": clock_control,
        "block": raw_metrics.get("Block Size"), "grid": raw_metrics.get("Grid Size"),
    }


# -- device facts and the roofline -----------------------------------------------------------------------

def dram_bandwidth(mem_clock_khz, bus_width_bits):
    """Peak DRAM bytes/s: two transfers per memory clock over the bus (H200: 3201 MHz × 2 ×
    6144 bits / 8 = 4.92 TB/s; NVIDIA quotes 4.8)."""
    return 2.0 * mem_clock_khz * 1e3 * bus_width_bits / 8


def device_facts(dev, *, dram_bytes_per_s=None):
    """What profile_record and roofline_png need of a tcraw Device: its name, max SM clock (MHz),
    peak TFLOP/s per precision key, and DRAM bytes/s (from the memory clock and the bus width the
    device reports, or ``dram_bytes_per_s``)."""
    from .precision import PRECISIONS
    if dram_bytes_per_s is None:
        bits = getattr(dev, "mem_bus_bits", None)
        dram_bytes_per_s = dram_bandwidth(dev.mem_clock_khz, bits) if bits else None
    return {"name": dev.name, "sm_clock_mhz": dev.clock_khz / 1e3, "dram_bytes_per_s": dram_bytes_per_s,
            "peak_tflops": {p.key: t for p in PRECISIONS.values() if (t := dev.peak_tflops(p)) is not None}}


def check_roofline_path(path, option="--roofline"):
    """A file the roofline can be drawn to — a name with a suffix matplotlib writes, not a
    directory, in a directory that can be written — and matplotlib installed: asked before the
    profile runs, not after it."""
    import importlib.util
    from .validate import is_dir, output_dir
    if not str(path).strip():
        raise UsageError(f"{option} needs a file to draw to, e.g. roofline.png; got an empty name")
    if is_dir(path):
        raise UsageError(f"{option} {path} is a directory; name a file in it, e.g. {Path(path) / 'roofline.png'}")
    if importlib.util.find_spec("matplotlib") is None:
        raise UsageError(f"{option} needs matplotlib: pip install 'tcraw[plot]'")
    from matplotlib.figure import Figure
    suffix = Path(path).suffix.lstrip(".").lower()
    if suffix not in Figure().canvas.get_supported_filetypes():
        what = f".{suffix} files" if suffix else "a file without a suffix"
        raise UsageError(f"{option} {path}: matplotlib cannot write {what}; name it .png (or .svg, .pdf)")
    output_dir(Path(path).parent, option)   # (made last: a refused name leaves no directory behind)


def roofline_png(records, device_facts, path):
    """Draw ``records`` (profile_record dicts) as achieved TFLOP/s against arithmetic intensity
    (FLOP per DRAM byte), log-log, each point labelled with its kernel, under a flat roof per
    precision (device_facts["peak_tflops"]: {precision: TFLOP/s}) and the DRAM roof
    (device_facts["dram_bytes_per_s"]). Records without intensity or TFLOP/s are left out.
    Needs matplotlib (the 'plot' extra). Returns ``path``."""
    check_roofline_path(path, "the roofline's path")
    import matplotlib
    matplotlib.use("Agg")   # files only: no display needed
    import matplotlib.pyplot as plt
    import numpy as np
    points = [(r["intensity"], r["tflops"], r["kernel"]) for r in records if r.get("intensity") and r.get("tflops")]
    peaks = {k: v for k, v in (device_facts.get("peak_tflops") or {}).items() if v}
    bw = device_facts.get("dram_bytes_per_s")
    top = max(peaks.values(), default=1000.0)
    ridge = top * 1e12 / bw if bw else 100.0
    xs = np.logspace(np.log10(min([0.5, *(p[0] / 3 for p in points)])),
                     np.log10(max([ridge * 8, *(p[0] * 3 for p in points)])), 400)
    fig, ax = plt.subplots(figsize=(9, 6))
    roofs = {}
    for key, tf in peaks.items():   # precisions with the same peak (fp32, fp64 on sm_90) share a roof
        roofs.setdefault(round(tf, 1), []).append(key)
    for tf, keys in sorted(roofs.items(), reverse=True):
        roof = np.minimum(tf, bw * xs / 1e12) if bw else np.full_like(xs, tf)
        ax.plot(xs, roof, lw=1)
        ax.text(xs[-1], tf, f" {'/'.join(keys)} {tf:.0f}", va="center", fontsize=8)
    if bw:
        slope = xs[xs <= ridge]   # up to the highest roof, beyond which nothing runs
        ax.plot(slope, bw * slope / 1e12, "k--", lw=0.8, label=f"DRAM {bw / 1e12:.2f} TB/s")
        ax.legend(loc="lower right")
    for x, y, name in points:
        ax.plot(x, y, "o")
        ax.annotate(name, (x, y), textcoords="offset points", xytext=(4, 4), fontsize=8)
    ax.set(xscale="log", yscale="log", xlabel="arithmetic intensity (FLOP / DRAM byte)", ylabel="TFLOP/s",
           title=f"roofline: {device_facts.get('name') or 'GPU'}"
                 + ("".join(f", SM clock {r['sm_clock_mhz_ncu']:.0f} MHz under ncu" for r in records[:1]
                            if r.get("sm_clock_mhz_ncu"))))
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


__all__ = ["METRICS", "FLOP_METRICS", "ALTERNATES", "STALL_REASONS", "ProfileError", "NcuNotFound",
           "NcuPermissionError", "metric_names", "find_ncu", "kernel_regex", "profile_command", "import_command",
           "parse_ncu_csv", "child_records", "missing_metric", "classify_ncu_failure", "run_profile",
           "profile_record", "dram_bandwidth", "device_facts", "check_roofline_path", "roofline_png"]
