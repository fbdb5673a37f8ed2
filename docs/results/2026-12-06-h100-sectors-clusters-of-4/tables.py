"""Prints tables.txt from this directory's logs (run from the repository root):
    python docs/results/2026-12-06-h100-sectors-clusters-of-4/tables.py"""

import math
from pathlib import Path

HERE = Path(__file__).resolve().parent


def geomean(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


def rows_of(path):
    """swap_fit_study's table rows: {shape: {"before"/"now": (ms, × cuBLAS, configuration, A copied)}}."""
    rows = {}
    for line in path.read_text().splitlines():
        p = line.split()
        if len(p) > 10 and p[0].startswith("wgmma") and p[2].count("×") == 2 and p[3][0].isdigit():
            assert p[9] == "PASS", line
            config = p[10] if not p[10].startswith("[") else "(the default: 128 × 256 in pairs)"
            rows.setdefault(p[2], {})["before" if p[0].endswith("[before]") else "now"] = \
                (float(p[3]), float(p[6]), config, '"A"' in line)
    return rows


def summary(label, ratios, before, now):
    below = (sum(x < 0.85 for x in before), sum(x < 0.85 for x in now))
    print(f"  {label}: {len(ratios)} shapes, now / before time {geomean(ratios):.3f} (geomean); less time at "
          f"{sum(r < 0.99 for r in ratios)}, more at {sum(r > 1.01 for r in ratios)}; × cuBLAS {geomean(before):.3f} "
          f"→ {geomean(now):.3f}; below 0.85× {below[0]} → {below[1]}")


def table(name, title):
    rows = rows_of(HERE / name)
    print(f"\n{name} — {title}\n  shape, before ms, now ms, now / before, × cuBLAS before → now, "
          "before's configuration (A copied to lines: +lines), now's")
    groups = {"all": [], "before copied A to lines": [], "before read A in place": []}
    for shape, r in rows.items():
        (b_ms, b_x, b_cfg, b_lines), (n_ms, n_x, n_cfg, _) = r["before"], r["now"]
        print(f"  {shape:>17}  {b_ms:7.4f}  {n_ms:7.4f}  {n_ms / b_ms:.3f}  {b_x:.3f} → {n_x:.3f}  "
              f"{b_cfg}{' +lines' * b_lines}  {n_cfg}")
        for g in ("all", "before copied A to lines" if b_lines else "before read A in place"):
            groups[g].append((n_ms / b_ms, b_x, n_x))
    for g, xs in groups.items():
        if xs:
            summary(g, *zip(*xs))


print("NVIDIA H100 80GB HBM3 (one card, the same UUID every run); fp16/bf16 → fp32; the median of 10 launches")
table("run1_c4_sectors_fp16.txt", "the first rule (any pick), shapes it was set on")
table("run1_c4_sectors_fresh_fp16.txt", "the first rule, 14 shapes drawn after it")
table("run2_c4_sectors_fresh_2_fp16.txt", "the rule as committed (not over a pick that copies A), 12 drawn after it")
table("run2_c4_sectors_fresh_2_bf16.txt", "the same shapes, bf16")
table("run4_survey9_two_fp16.txt", "survey 9's two weakest shapes")
table("run4_survey9_two_bf16.txt", "survey 9's two weakest shapes, bf16")
