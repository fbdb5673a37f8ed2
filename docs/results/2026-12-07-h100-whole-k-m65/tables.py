"""Run from the repository root: each variant's time over the pick's, shape by shape, from the
tune_ladder logs here (scripts/ladder_log.py's over_pick).

    python docs/results/2026-12-07-h100-whole-k-m65/tables.py > docs/results/2026-12-07-h100-whole-k-m65/tables.txt
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2] / "scripts"))
from ladder_log import over_pick   # noqa: E402  (scripts/: the logs' reader)

for log in sorted(HERE.glob("run*_whole_k_*.txt")):
    over_pick(log)
