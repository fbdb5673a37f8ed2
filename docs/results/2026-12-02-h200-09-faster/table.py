"""The tables of this directory's README from its raw files: per shape × cuBLAS of each variant (tune_ladder
rows, "small_fp16[VARIANT]") and of 06's picks (tcraw bench rows, "06"), side by side, with geomeans.

    python3 docs/results/2026-12-02-h200-09-faster/table.py > docs/results/2026-12-02-h200-09-faster/table.txt
"""
import math
import re
from pathlib import Path

HERE = Path(__file__).parent
ROW = re.compile(r"\s*(\S+)\s+(\d+×\d+×\d+)\s+[\d.]+ TFLOP/s\s+([\d.]+)× cuBLAS")


def ratios(name, label="06"):
    """shape -> {variant: × cuBLAS} from one raw file's summary lines."""
    out = {}
    for line in (HERE / name).read_text().splitlines():
        if (m := ROW.match(line)):
            kernel, shape, ratio = m.groups()
            variant = kernel.split("[", 1)[1][:-1] if "[" in kernel else label
            out.setdefault(shape, {})[variant] = float(ratio)
    return out


def table(title, *files):
    rows = {}
    for name, label in files:
        for shape, got in ratios(name, label).items():
            rows.setdefault(shape, {}).update(got)
    variants = list(dict.fromkeys(v for got in rows.values() for v in got))
    print(f"\n{title}\n{'shape':>16} " + " ".join(f"{v[:22]:>22}" for v in variants))
    for shape, got in rows.items():
        print(f"{shape:>16} " + " ".join(f"{got[v]:22.3f}" if v in got else " " * 22 for v in variants))
    both = [got for got in rows.values() if all(v in got for v in variants)]   # (shapes every column timed)
    means = [math.exp(sum(math.log(got[v]) for got in both) / len(both)) for v in variants]
    print(f"{'geomean':>16} " + " ".join(f"{m:22.3f}" for m in means) + f"   ({len(both)} shapes)")


table("run 1: B fetched by 4 threads a row (the last stop's 09), by 16 (B_LANES=16), 10 stages",
      ("run1_vars09_fp16.txt", ""))
table("run 3: wide B / even A reads (the default, FRAGS=1) against none (FRAGS=0); 3 and 4 blocks an SM (PER_SM); "
      "06's picks (another process)", ("run3_vars09_fp16.txt", ""), ("run3_small_m_06_fp16.txt", "06"))
table("run 4: the partial sums stored 16/8 bytes at a time, rows below M only; 64 rows of A",
      ("run4_vars09_fp16.txt", ""))
table("run 4: M of 33–64 — 09 beside 06's picks (06 copies B where N is off 8; another process)",
      ("run4_mid09_09_fp16.txt", ""), ("run4_mid09_06_fp16.txt", "06"))
table("run 5: M of 33–64 — 06's picks as this stop leaves them (09 where M ≤ 48, N ≥ 4096 and off 8) against run 4's",
      ("run4_mid09_06_fp16.txt", "06 (run 4)"), ("run5_picks_mid_m_09.txt", "06's pick (run 5)"))
table("run 5: the first 17 shapes of small_m_09.txt as 06 picks them (the call's time ran out there) against run 3's",
      ("run3_small_m_06_fp16.txt", "06 (run 3)"), ("run5_picks_small_m_09.txt", "06's pick (run 5)"))
