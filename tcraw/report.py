"""Records out: a tabulate table, CSV or JSON (a list of dicts, the contract in docs/facts.md)."""

import csv
import io
import json
import math

from tabulate import tabulate

FORMATS = ("table", "csv", "json")


def _cell(v, key=""):
    if isinstance(v, float):
        if math.isnan(v) or math.isinf(v):
            return str(v)
        if v == 0:
            return "0"
        return f"{v:.3g}" if abs(v) < 1e-2 or abs(v) >= 1e5 else f"{v:.4g}"
    if isinstance(v, bool):
        return ("PASS" if v else "FAIL") if key == "passed" else ("yes" if v else "no")
    if isinstance(v, (list, dict)):
        return json.dumps(v)
    return "" if v is None else str(v)


def shape_label(m, n, k):
    """'4096³' for a cube, '1×4096×14336' otherwise: how tables name a problem."""
    return f"{m}³" if m == n == k else f"{m}×{n}×{k}"


def as_json(rows):
    """Rows as JSON every parser reads: a number that is no number (a failed row's time, NaN) is
    null — json.dumps would write NaN, which only Python's own parser takes."""
    def finite(v):
        if isinstance(v, float) and not math.isfinite(v):
            return None
        if isinstance(v, dict):
            return {k: finite(x) for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            return [finite(x) for x in v]
        return v
    return json.dumps(finite(rows), indent=2, default=str, allow_nan=False)


def render(rows, fmt, columns=None):
    """``rows``: a list of dicts. ``columns``: (key, header) pairs the table shows; CSV and JSON
    carry every field (JSON: as_json)."""
    if fmt == "json":
        return as_json(rows)
    if fmt == "csv":
        buf = io.StringIO()
        keys = list(dict.fromkeys(k for r in rows for k in r))
        w = csv.DictWriter(buf, fieldnames=keys, lineterminator="\n")
        w.writeheader()
        for r in rows:
            w.writerow({k: json.dumps(v) if isinstance(v, (list, dict)) else v for k, v in r.items()})
        return buf.getvalue().rstrip("\n")
    columns = columns or [(k, k) for k in (rows[0] if rows else {})]
    body = [[_cell(r.get(k), k) for k, _ in columns] for r in rows]
    return tabulate(body, headers=[h for _, h in columns], disable_numparse=True)


def row_files(*stems):
    """The files write_rows writes for each of ``stems``: <stem>.json and <stem>.csv."""
    return [f"{stem}.{ext}" for stem in stems for ext in ("json", "csv")]


def write_rows(directory, stem, rows):
    """<stem>.json and <stem>.csv under ``directory``; returns the two paths."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = tuple(directory / name for name in row_files(stem))
    paths[0].write_text(render(rows, "json"))
    paths[1].write_text(render(rows, "csv") + "\n")
    return [str(p) for p in paths]


RUN_COLUMNS = [
    ("kernel", "kernel"), ("precision", "precision"), ("shape", "M×N×K"), ("inputs", "inputs"),
    ("time_ms", "median ms"), ("time_min_ms", "min ms"), ("tflops", "TFLOP/s"),
    ("pct_peak", "% peak"), ("max_rel_err", "max rel err"), ("tolerance", "bound"),
    ("norm_rel_err", "norm err"), ("passed", "check"), ("speedup", "× naive"),
]

COMPILE_COLUMNS = [
    ("kernel", "kernel"), ("arch", "arch"), ("status", "status"), ("registers", "regs"),
    ("smem_bytes", "static smem B"), ("spill_bytes", "spill B"), ("cubin_bytes", "cubin B"),
    ("compile_ms", "ms"), ("cached", "cached"), ("sass_forms", "tensor SASS"), ("warnings", "warnings"),
    ("detail", "detail"),
]

LIST_COLUMNS = [
    ("name", "kernel"), ("precision", "precision"), ("precision_key", "key"), ("min_arch", "min arch"),
    ("tile", "tile (M×N×K)"),
    ("source", "source"), ("summary", "what it is"),
]

BENCH_COLUMNS = [
    ("kernel", "kernel"), ("precision", "precision"), ("shape", "M×N×K"), ("time_ms", "median ms"),
    ("tflops", "TFLOP/s"), ("pct_peak", "% peak"), ("vs_cublas", "× cuBLAS"),
    ("max_rel_err", "max rel err"), ("tolerance", "bound"), ("passed", "check"), ("variant", "configuration"),
    ("pitched", "pitched"),
]

CHECK_COLUMNS = [
    ("kernel", "kernel"), ("case", "case"), ("max_rel_err", "max rel err"), ("tolerance", "bound"),
    ("unwritten", "unwritten"), ("padding_dirty", "pad dirty"), ("out_of_bounds", "guard bands"),
    ("passed", "check"), ("error", "error"),
]

PROFILE_COLUMNS = [
    ("kernel", "kernel"), ("shape", "M×N×K"), ("duration_ms", "ms"), ("tflops", "TFLOP/s"), ("sm_pct", "SM %"),
    ("mem_pct", "mem %"), ("tensor_pct", "tensor %"), ("intensity", "FLOP/B"), ("l2_hit_pct", "L2 hit %"),
    ("occupancy_achieved_pct", "occ %"), ("occupancy_theoretical_pct", "occ max %"),
    ("occupancy_limiter", "occ limit"), ("smem_bank_conflicts", "bank confl."), ("top_stalls", "top stalls"),
    ("sm_clock_mhz_ncu", "SM MHz"),
]

SUITE_COLUMNS = [
    ("suite", "suite"), ("precision", "precision"), ("kernel", "kernel"), ("shapes", "shapes"),
    ("geomean_vs_cublas", "geomean × cuBLAS"), ("worst_vs_cublas", "worst ×"), ("worst_shape", "worst shape"),
    ("below_0.85", "< 0.85×"), ("failed", "failed"), ("padded_untimed", "padded (untimed)"),
]
