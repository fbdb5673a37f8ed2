"""Scripts that need no GPU: the bench plot from recorded results."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "docs" / "results" / "2026-11-29-h200" / "bench.json"


def test_plot_bench_draws_the_recorded_run(tmp_path):
    pytest.importorskip("matplotlib", reason="matplotlib is the optional 'plot' extra")
    out = tmp_path / "bench.png"
    p = subprocess.run([sys.executable, str(ROOT / "scripts" / "plot_bench.py"), str(RESULTS), "-o", str(out)],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 10_000
    assert len(json.loads(RESULTS.read_text())) > 0
