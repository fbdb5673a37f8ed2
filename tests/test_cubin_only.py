"""Cubin-only mode: prebuilt cubins run where NVRTC cannot even be imported (GPU)."""

import json
import shutil
import subprocess
import sys

import pytest

from tcraw import kernels

pytestmark = pytest.mark.gpu

# Runs tcraw with NVRTC made unimportable: what a machine without the NVRTC wheel looks like.
NO_NVRTC = ("import sys; sys.modules['cuda.bindings.nvrtc'] = None; "
            "from tcraw.cli import main; sys.exit(main(sys.argv[1:]))")


def tcraw_without_nvrtc(*args):
    return subprocess.run([sys.executable, "-c", NO_NVRTC, *args], capture_output=True, text=True,
                          timeout=300)


@pytest.fixture(scope="module")
def cubin_dir(device, tmp_path_factory):
    out = tmp_path_factory.mktemp("cubins")
    from tcraw.cli import main
    assert main(["compile", "--arch", f"{device.arch},sm_80", "--out", str(out), "--format", "json"]) == 0
    return out


def test_nvrtc_really_is_gone_in_the_child():
    p = tcraw_without_nvrtc("compile", "--arch", "sm_90", "--kernel", "naive_fp32")
    assert p.returncode == 3 and "NVRTC is not available" in p.stderr and "--cubin-dir" in p.stderr


def test_run_from_prebuilt_cubins_without_nvrtc(device, cubin_dir):
    p = tcraw_without_nvrtc("run", "--precision", "all", "-m", "127", "-n", "129", "-k", "255",
                            "--cubin-dir", str(cubin_dir), "--format", "json", "--iters", "2")
    assert p.returncode == 0, p.stderr
    rows = json.loads(p.stdout)
    assert {r["kernel"] for r in rows} == {k.name for k in kernels.KERNELS.values() if not k.device_refusal(device)}
    assert all(r["passed"] for r in rows)
    assert all(r["held_ms"] == 0 for r in rows)   # no NVRTC to build the hold: timed unheld, and said so


def test_no_matching_cubin_names_what_there_is(device, cubin_dir, tmp_path):
    only_old = tmp_path / "old"
    only_old.mkdir()
    shutil.copy(cubin_dir / "naive_fp32.sm_80.cubin", only_old)
    if device.cc // 10 == 8:
        pytest.skip("an sm_80 cubin runs on this GPU")
    p = tcraw_without_nvrtc("run", "--kernel", "naive_fp32", "--cubin-dir", str(only_old))
    assert p.returncode == 2
    assert "sm_80" in p.stderr and str(device.arch) in p.stderr and "Traceback" not in p.stderr


def test_cubin_for_another_gpu_is_named_not_crashed_on(device, cubin_dir, tmp_path):
    """A cubin named for this GPU but built for another is refused by its ELF before the driver
    sees it; loaded all the same (runtime.Module), CUDA_ERROR_NO_BINARY_FOR_GPU becomes a message
    with both archs."""
    if device.cc // 10 == 8:
        pytest.skip("an sm_80 cubin runs on this GPU")
    lying = tmp_path / "lying"
    lying.mkdir()
    shutil.copy(cubin_dir / "naive_fp32.sm_80.cubin", lying / f"naive_fp32.{device.arch}.cubin")
    p = tcraw_without_nvrtc("run", "--kernel", "naive_fp32", "--cubin-dir", str(lying))
    assert p.returncode == 2
    assert f"named for {device.arch} but its ELF says sm_80" in p.stderr and "Traceback" not in p.stderr
    from tcraw.errors import ArchError
    from tcraw.runtime import Module
    with pytest.raises(ArchError, match="built for sm_80.*NO_BINARY_FOR_GPU"):
        Module(device, (cubin_dir / "naive_fp32.sm_80.cubin").read_bytes())
