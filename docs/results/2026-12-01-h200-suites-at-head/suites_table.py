"""The tables of this directory's README, from its raw files (run from the repository root):
every suite at 8932a61 (runs 3, 4: A_EDGE 4 and the pairs rule in) against the last full run,
held (docs/results/2026-12-01-h200-held-timing/, runs 3, 4); the pairs rule on fresh shapes
(run 1) and A_EDGE 4 against whole boxes on fresh shapes it cuts (run 2) — each row's time
against the first variant's, per shape and as a geomean.

    python docs/results/2026-12-01-h200-suites-at-head/suites_table.py
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent / "2026-12-01-h200-held-timing"), str(HERE.parent / "2026-12-01-h200-a-edge")]
from a_edge_table import table   # noqa: E402
from held_table import ALL, HELD, compare   # noqa: E402


def columns(shape):
    """The pairs rule's two sides of N (kernels.wgmma_pairs_rows takes N over 512 since run 1)."""
    return "N = 512" if int(shape.split("×")[1]) <= 512 else "N > 512"


print("every suite, 06's picks, × cuBLAS geomean (worst): the last full run (held) → now (held);")
print("our time and cuBLAS's now against then, geomean over the suite's shapes")
compare({precision: ([(HERE / f"run{run}_all_suites_{precision}.txt", ALL)], HELD[precision][0])
         for run, precision in ((3, "fp16"), (4, "bf16"))})
print()
ONE = "CONSUMERS=1+BN=64+CLUSTER=1+STAGES=8+WAIT_DEPTH=1"
for precision in ("fp16", "bf16"):
    table(f"run 1, {precision}: the pairs rule's pick (64×128 in clusters of 2) — time / 64×64 in clusters of 1's",
          HERE / f"run1_paired_rows_fresh_{precision}.txt", [ONE, "picked"], ONE, group=columns)
    table(f"run 2, {precision}: 06's picks with A_EDGE 4 (the default) — time / whole boxes' (A_EDGE=0)",
          HERE / f"run2_m_edge_fresh_{precision}.txt", ["picked+A_EDGE=0", "picked"], "picked+A_EDGE=0")
for precision, lt in (("fp8e4m3bf16", "cuBLASLt: its default accumulation, the second of its rows"), ("int8", "cuBLASLt")):
    table(f"run 2, 07 {precision}: A_EDGE 4 — time / whole boxes' ({lt})", HERE / f"run2_edge_07_{precision}.txt", ["picked+A_EDGE=0", "picked"], "picked+A_EDGE=0",
          yardstick="cublaslt")
