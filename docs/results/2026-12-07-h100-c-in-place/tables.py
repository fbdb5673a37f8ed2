"""Run from the repository root: the tables of this folder's README from its logs (through
scripts/ladder_log.py, the project's reader of tune_ladder's logs).

    python docs/results/2026-12-07-h100-c-in-place/tables.py > docs/results/2026-12-07-h100-c-in-place/tables.txt
"""
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2] / "scripts"))
from ladder_log import geomean, verified   # noqa: E402  (scripts/: the logs' readers)


def in_place_over_copied(path):
    """Each shape's µs — cuBLAS, the pick (C in place where its rows lie off 16 bytes: C_PLAIN=1), the
    pick with C copied out of a pitched buffer (C_PLAIN=0) — and the pick's time over the copy's."""
    table = verified(path)
    print(f"## {path.name}: the pick (C in place) against itself with C copied")
    print(f"  {'shape':16s} {'cuBLAS':>8s} {'in place':>9s} {'×cuB':>6s} {'copied':>8s} {'×cuB':>6s} {'÷copied':>8s}")
    ratios, plain, copied = [], [], []
    for shape, t in table.items():
        p, c = t["picked"], t["picked+C_PLAIN=0"]
        ratios.append(p / c), plain.append(t["cublas"] / p), copied.append(t["cublas"] / c)
        print(f"  {shape:16s} {t['cublas']:8.2f} {p:9.2f} {t['cublas'] / p:6.3f} {c:8.2f} {t['cublas'] / c:6.3f} "
              f"{p / c:8.3f}")
    print(f"  geomean over {len(ratios)} shapes: in place {geomean(plain):.3f}× cuBLAS, copied {geomean(copied):.3f}×; "
          f"in place takes {geomean(ratios):.3f} of the copy's time ({min(ratios):.3f}–{max(ratios):.3f}); "
          f"below 0.85× cuBLAS: {sum(x < 0.85 for x in plain)} in place, {sum(x < 0.85 for x in copied)} copied\n")


# (the aligned log's squares are written N³, which ladder_log.rows does not read)
ROW = re.compile(r"^(cublas|wgmma\S*)\s+\S+\s+(\S+)\s+([\d.]+)\s.*\b(PASS|FAIL)\b")


def plain_where_tma_can(path):
    """Shapes whose C a tensor map takes: the pick (TMA stores) against itself with C_PLAIN=1."""
    table = {}
    for line in path.read_text().splitlines():
        if (m := ROW.match(line)):
            assert m.group(4) == "PASS", line
            label = "cublas" if m.group(1) == "cublas" else m.group(1).partition("[")[2].rstrip("]")
            table.setdefault(m.group(2), {})[label] = float(m.group(3)) * 1e3
    print(f"## {path.name}: C stored by the consumers (C_PLAIN=1) where TMA can store it")
    print(f"  {'shape':16s} {'cuBLAS':>8s} {'TMA':>8s} {'plain':>8s} {'÷TMA':>6s}")
    for shape, t in table.items():
        print(f"  {shape:16s} {t['cublas']:8.2f} {t['picked']:8.2f} {t['picked+C_PLAIN=1']:8.2f} "
              f"{t['picked+C_PLAIN=1'] / t['picked']:6.3f}")
    print()


for name in ("run3_time_fp16.txt", "run3_time_bf16.txt"):
    in_place_over_copied(HERE / name)
plain_where_tma_can(HERE / "run2_aligned_fp16.txt")
