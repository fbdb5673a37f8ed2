"""One CUDA toolchain at a time (tcraw.toolchain): both wheel layouts, the order of choice, and
every refusal a mixed or too-new toolchain gets (CPU)."""

import sys
from types import SimpleNamespace

import pytest

from tcraw import compiler, kernels, toolchain
from tcraw.errors import ArchError, MissingHeaderError, UsageError


@pytest.fixture(autouse=True)
def forget_the_choice():
    """choose() is made once per process: a test that fakes the machine must not leave its choice."""
    yield
    toolchain._chosen.clear()


@pytest.fixture
def fake_site(tmp_path, monkeypatch):
    """A site-packages with both wheel layouts: CUDA 13's one tree, CUDA 12's three."""
    nv = tmp_path / "nvidia"
    for d in ("cu13/lib", "cu13/include/crt", "cuda_nvrtc/lib", "cuda_runtime/include", "cuda_nvcc/include/crt"):
        (nv / d).mkdir(parents=True)
    (nv / "cu13/lib/libnvrtc.so.13").write_text("")
    (nv / "cuda_nvrtc/lib/libnvrtc.so.12").write_text("")
    (nv / "cuda_nvrtc/lib/libnvrtc-builtins.so.12.9").write_text("")
    monkeypatch.setattr(sys, "path", [str(tmp_path)])
    monkeypatch.delenv("CUDA_HOME", raising=False)
    monkeypatch.delenv("CUDA_PATH", raising=False)
    monkeypatch.setattr(toolchain, "toolkit_major", lambda root: None)
    return nv


def test_both_wheel_layouts_are_found(fake_site):
    stacks = toolchain.installed_stacks()
    assert stacks[13].nvrtc.endswith("cu13/lib/libnvrtc.so.13")
    assert stacks[13].include_dirs == [fake_site / "cu13/include"]
    assert stacks[12].nvrtc.endswith("cuda_nvrtc/lib/libnvrtc.so.12")   # not the builtins library
    assert stacks[12].include_dirs == [fake_site / "cuda_runtime/include", fake_site / "cuda_nvcc/include"]


@pytest.mark.parametrize("env,driver,bindings,expected,why", [
    ("12", (13, 0), "13.3.1", 12, "TCRAW_CUDA"),
    ("", (12, 8), "13.3.1", 12, "the driver (CUDA 12.8)"),
    ("", (13, 0), "12.9.1", 13, "the driver (CUDA 13.0)"),
    ("", None, "12.9.1", 12, "cuda-bindings 12.9.1"),
    ("", None, None, 13, "the newest installed stack"),
])
def test_the_order_of_choice(fake_site, monkeypatch, env, driver, bindings, expected, why):
    monkeypatch.setenv("TCRAW_CUDA", env)
    monkeypatch.setattr(toolchain, "driver_cuda_version", lambda: driver)
    monkeypatch.setattr(toolchain, "bindings_version", lambda: bindings)
    tc = toolchain.choose(refresh=True)
    assert (tc.major, tc.chosen_by) == (expected, why)
    assert tc.as_dict()["cuda_major"] == expected


def test_a_bad_tcraw_cuda_is_refused(monkeypatch):
    monkeypatch.setenv("TCRAW_CUDA", "11")
    with pytest.raises(UsageError, match="TCRAW_CUDA='11': set it to 12 or 13"):
        toolchain.choose(refresh=True)


def test_an_nvrtc_of_the_other_major_is_refused_with_both_versions(monkeypatch):
    monkeypatch.setattr(toolchain, "choose", lambda: SimpleNamespace(major=13, chosen_by="the driver (CUDA 13.0)",
                                                                      stack=None))
    with pytest.raises(UsageError, match=r"NVRTC 12\.9 \(TCRAW_NVRTC_LIBRARY=x\) is not the chosen CUDA 13 "
                                         r"toolchain.*TCRAW_CUDA=12.*drop TCRAW_NVRTC_LIBRARY=x and have "
                                         r"CUDA 13's NVRTC: pip install 'tcraw\[cu13\]'"):
        toolchain.check_nvrtc_matches((12, 9), "TCRAW_NVRTC_LIBRARY=x")
    toolchain.check_nvrtc_matches((13, 5), "fine")
    # both stacks installed (make install CUDA=12), cuda.bindings loading CUDA 13's NVRTC: the chosen
    # major's is here already, for the ctypes backend — not an install to do again
    monkeypatch.setattr(toolchain, "choose", lambda: SimpleNamespace(major=12, chosen_by="TCRAW_CUDA", stack=object()))
    with pytest.raises(UsageError, match=r"NVRTC 13\.5 \(the bindings backend's NVRTC\) is not the chosen CUDA "
                                         r"12 toolchain \(chosen by TCRAW_CUDA\), whose NVRTC is installed here: "
                                         r"the ctypes backend loads it by path"):
        toolchain.check_nvrtc_matches((13, 5), "the bindings backend's NVRTC")


def test_headers_of_the_other_major_are_skipped_and_named(tmp_path, monkeypatch):
    inc = tmp_path / "include"
    (inc / "crt").mkdir(parents=True)
    for h in ("mma.h", "crt/mma.h", "cuda_fp16.h"):
        (inc / h).write_text("")
    (inc / "cuda_runtime_api.h").write_text("#define CUDART_VERSION 13000\n")
    monkeypatch.setattr(toolchain, "choose", lambda: SimpleNamespace(major=12, chosen_by="TCRAW_CUDA"))
    monkeypatch.setattr(compiler, "_header_candidates", lambda: iter([[inc]]))
    with pytest.raises(MissingHeaderError, match=r"CUDA 13 headers, not 12.*tcraw\[cu12\]"):
        compiler.find_include_dirs()


def test_cubins_say_which_toolkit_built_them():
    cubin = compiler.compile_cubin(kernels.KERNELS["naive_fp32"], "sm_90")
    built = toolchain.cubin_cuda_version(cubin.image)
    assert built[0] == compiler.nvrtc_version()[0] and built[1] in (None, compiler.nvrtc_version()[1])
    assert toolchain.cubin_cuda_version(b"not a cubin") is None


def test_a_cubin_newer_than_the_driver_is_refused_before_loading():
    from tcraw.runtime import check_driver_takes
    image = compiler.compile_cubin(kernels.KERNELS["naive_fp32"], "sm_90").image
    built = toolchain.cubin_cuda_version(image)
    old = SimpleNamespace(name="an old-driver GPU", drv=SimpleNamespace(driver_version=lambda: (built[0] - 1) * 1000 + 80))
    with pytest.raises(ArchError, match=rf"built by CUDA {built[0]}\S*; the driver of an old-driver GPU "
                                        rf"supports CUDA {built[0] - 1}\.8"):
        check_driver_takes(old, image)
    same = SimpleNamespace(name="GPU", drv=SimpleNamespace(driver_version=lambda: built[0] * 1000))
    check_driver_takes(same, image)   # an older minor of the same major takes it


def test_info_shows_the_toolchain():
    import json
    import subprocess
    p = subprocess.run([sys.executable, "-m", "tcraw", "info", "--format", "json"], capture_output=True, text=True,
                       timeout=120)
    tc = json.loads(p.stdout)["toolchain"]
    assert tc["cuda_major"] in (12, 13) and tc["chosen_by"] and tc["nvrtc_library"]


def _sm70_or_skip():
    if 70 not in {a.cc for a in compiler.supported_archs()}:
        pytest.skip("this NVRTC does not target sm_70: the CUDA 12 toolchain is not the one in use")


def test_an_sm70_cubin_cuobjdump_cannot_read_says_what_to_do(monkeypatch):
    """CUDA 13's cuobjdump refuses sm_50 … sm_72 cubins: the compile row says so and names the fix."""
    from tcraw import sass
    _sm70_or_skip()
    tool = sass.find_cuobjdump()
    if tool is None:
        pytest.skip("no cuobjdump (the dev extra)")
    (row,) = compiler.compile_table([kernels.KERNELS["wmma_fp16"]], [compiler.Arch(70)], note=lambda m: None)
    if row["sass"] is not None:
        pytest.skip(f"{tool} reads sm_70 cubins")
    assert row["status"] == "ok" and "TCRAW_CUOBJDUMP" in row["detail"]


def test_sm70_wmma_is_hmma_in_its_sass():
    """With an older cuobjdump (TCRAW_CUOBJDUMP), the CUDA 12 toolchain's sm_70 WMMA cubin shows HMMA."""
    import os
    from tcraw import sass
    _sm70_or_skip()
    if not os.environ.get("TCRAW_CUOBJDUMP"):
        pytest.skip("TCRAW_CUOBJDUMP is not set: no cuobjdump that reads sm_70 (Debian's nvidia-cuda-toolkit has one)")
    image = compiler.compile_cubin(kernels.KERNELS["wmma_fp16"], "sm_70").image
    assert sass.tensor_op_counts(image).get("HMMA", 0) > 0
