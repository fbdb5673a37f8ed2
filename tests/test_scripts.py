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


def test_tune_ladder_builds_the_variant_it_names():
    """A variant is the registry kernel with the named macros overridden, and nothing else."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from tune_ladder import variant
    from tcraw import compiler, kernels
    v = variant("wgmma", "fp16", "STAGES=3,CLUSTER=1")
    base = kernels.KERNELS["wgmma_tma_fp16"]
    assert "STAGES=3" in v.defines and "CLUSTER=1" in v.defines and v.entry == base.entry
    assert v.tile == (128, 256, 64) and base.tile == (256, 256, 64)   # a cluster pads M to two tiles
    assert v.geometry(512, 512, 64).smem_bytes < base.geometry(512, 512, 64).smem_bytes
    assert compiler.compile_cubin(v, "sm_90").spill_bytes == 0
    with pytest.raises(SystemExit, match="MACRO=number"):
        variant("simt", "fp32", "STAGE=3")
