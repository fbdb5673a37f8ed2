"""tcraw.profile and tcraw.nvml on the CPU: ncu's output parsed from a SYNTHETIC fixture
(tests/fixtures/ncu/README.md), records, failures classified, the command line built, the
roofline's missing extra, and NVML sampling through a fake pynvml."""

import os
import re
import sys
import types
from pathlib import Path

import pytest

from tcraw import profile
from tcraw.errors import UsageError
from tcraw.kernels import KERNELS, user_kernel
from tcraw.nvml import ClockSampler

FIXTURE = Path(__file__).parent / "fixtures" / "ncu" / "synthetic_ncu.csv"
SHAPE = (4096, 4096, 4096)
WGMMA = KERNELS["wgmma_tma_fp16"]
FACTS = {"name": "NVIDIA H200", "sm_clock_mhz": 1980.0, "dram_bytes_per_s": 4.9e12,
         "peak_tflops": {"fp16": 1070.5, "fp32": 66.9}}
RECORD_FIELDS = ("kernel", "m", "n", "k", "duration_ms", "tflops", "flop_count_measured", "flop_count_expected",
                 "sm_pct", "mem_pct", "tensor_pct", "dram_read_bytes", "dram_write_bytes", "intensity", "l2_hit_pct",
                 "occupancy_achieved_pct", "occupancy_theoretical_pct", "occupancy_limiter", "smem_bank_conflicts",
                 "top_stalls", "sm_clock_mhz_ncu", "clock_control")


def fixture_text():
    return FIXTURE.read_text()


def without_columns(text, *prefixes):
    """The fixture with every metric column whose name starts with one of ``prefixes`` removed."""
    import csv
    import io
    lines = text.splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith(profile.CSV_HEADER))
    rows = list(csv.reader(lines[start:]))
    keep = [i for i, name in enumerate(rows[0]) if not name.startswith(prefixes)]
    out = io.StringIO()
    csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\n").writerows([[r[i] for i in keep] for r in rows])
    return "\n".join(lines[:start]) + "\n" + out.getvalue()


# -- parsing ------------------------------------------------------------------------------------------

def test_the_fixture_parses_to_one_launch_with_units_and_separators_resolved():
    (launch,) = profile.parse_ncu_csv(fixture_text())
    assert launch["Kernel Name"] == "wgmma_tma_fp16" and launch["Block Size"] == "(384, 1, 1)"
    assert launch["ID"] == "0" and launch["CC"] == "9.0"                          # identity stays text
    assert launch["gpu__time_duration.sum"] == 249_876.0                         # "249,876" nsecond
    assert launch["sm__ops_path_tensor_src_fp16_dst_fp32.sum"] == 2.0 * 4096**3   # "137,438,953,472"
    assert launch["sm__cycles_elapsed.avg.per_second"] == 1.275e9
    assert set(profile.metric_names("fp16")) <= set(launch)                      # the columns asked for


def test_the_childs_json_records_are_separated_from_ncus_output():
    (rec,) = profile.child_records(fixture_text())
    assert rec["kernel"] == "wgmma_tma_fp16" and rec["passed"] is True
    assert profile.child_records("==PROF== nothing here\n[not json") == []


def test_thousands_separators_quotes_units_and_text_cells():
    text = "\n".join([
        "==PROF== Connected to process 1 (python3)",
        '"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size",'
        '"Device","CC","a.sum","b.sum","gpu__time_duration.sum","c.pct"',
        '"","","","","","","","","","","","byte","Kbyte","usecond","%"',
        '"0","1","python3","h","k(float*)","1","7","(256, 1, 1)","(8, 1, 1)","0","9.0","1,234,567","2.5","1,500","n/a"',
        '"1","1","python3","h","k(float*)","1","7","(256, 1, 1)","(8, 1, 1)","0","9.0","7","","3","12.5"',
        "==PROF== Disconnected from process 1"])
    first, second = profile.parse_ncu_csv(text)
    assert first["a.sum"] == 1_234_567 and first["b.sum"] == 2500.0
    assert first["gpu__time_duration.sum"] == 1_500_000.0 and first["c.pct"] == "n/a"
    assert second["b.sum"] is None and second["c.pct"] == 12.5
    assert profile.parse_ncu_csv("==PROF== no CSV at all\n{}") == []


# -- the record ---------------------------------------------------------------------------------------

def test_record_fields_from_the_fixture():
    (launch,) = profile.parse_ncu_csv(fixture_text())
    r = profile.profile_record(launch, WGMMA, SHAPE, FACTS, clock_control="base")
    assert set(RECORD_FIELDS) <= set(r)
    assert (r["kernel"], r["m"], r["n"], r["k"], r["clock_control"]) == ("wgmma_tma_fp16", 4096, 4096, 4096, "base")
    assert r["duration_ms"] == pytest.approx(0.249876)
    assert r["flop_count_expected"] == r["flop_count_measured"] == 2.0 * 4096**3 and r["flop_ratio"] == 1.0
    assert r["flops_source"] == "counters" and r["tflops"] == pytest.approx(550.03, rel=1e-4)
    assert r["pct_peak"] == pytest.approx(100 * r["tflops"] / 1070.5)
    assert r["pct_peak_at_ncu_clock"] == pytest.approx(100 * r["tflops"] / (1070.5 * 1275 / 1980))
    assert (r["dram_read_bytes"], r["dram_write_bytes"]) == (100_663_296, 67_108_864)
    assert r["intensity"] == pytest.approx(2.0 * 4096**3 / (100_663_296 + 67_108_864))
    assert (r["sm_pct"], r["mem_pct"], r["tensor_pct"], r["l2_hit_pct"]) == (71.24, 45.31, 82.51, 78.4)
    assert (r["occupancy_achieved_pct"], r["occupancy_theoretical_pct"]) == (18.7, 18.75)
    assert r["occupancy_limiter"] == "registers+shared_mem" and r["registers"] == 168
    assert r["smem_bank_conflicts"] == 1024
    assert r["top_stalls"] == [["gmma", 3.12], ["barrier", 1.2], ["wait", 0.81]]
    assert r["sm_clock_mhz_ncu"] == 1275.0 and r["block"] == "(384, 1, 1)"


def test_missing_metrics_are_none_never_a_crash():
    text = without_columns(fixture_text(), "dram__bytes_write", "sm__ops_path", "smsp__average_warps",
                           "sm__pipe_tensor_cycles", "launch__occupancy_limit_shared", "l1tex__")
    (launch,) = profile.parse_ncu_csv(text)
    r = profile.profile_record(launch, WGMMA, SHAPE)
    assert r["dram_write_bytes"] is None and r["intensity"] is None and r["dram_read_bytes"] == 100_663_296
    assert r["flop_count_measured"] is None and r["flops_source"] == "2mnk" and r["flop_ratio"] is None
    assert r["tflops"] == pytest.approx(2.0 * 4096**3 / 249_876e-9 / 1e12)        # from 2MNK
    assert r["tensor_pct"] == 82.51                                             # falls back to the HMMA pipe
    assert r["occupancy_limiter"] == "registers" and r["smem_bank_conflicts"] is None
    assert r["top_stalls"] == [] and r["pct_peak"] is None
    empty = profile.profile_record({}, "naive_fp32", (64, 64, 64))
    assert empty["tflops"] is None and empty["duration_ms"] is None and empty["occupancy_limiter"] is None
    assert all(empty[f] is None for f in ("sm_pct", "mem_pct", "l2_hit_pct", "sm_clock_mhz_ncu", "registers"))
    text_cell = profile.profile_record({"gpu__time_duration.sum": "n/a"}, "naive_fp32", (64, 64, 64))
    assert text_cell["duration_ms"] is None


def test_simt_flops_count_an_fma_twice_and_other_dram_spellings_are_read():
    simt = profile._SIMT
    raw = {"gpu__time_duration.sum": 1e6, simt.format("ffma"): 1000.0, simt.format("fadd"): 10.0,
           simt.format("fmul"): 5.0, "dram__bytes_op_read.sum": 100.0, "dram__bytes_op_write.sum": 50.0}
    r = profile.profile_record(raw, KERNELS["naive_fp32"], (10, 10, 10))
    assert r["flop_count_measured"] == 2015.0 and r["flop_ratio"] == pytest.approx(2015 / 2000)
    assert r["dram_read_bytes"] == 100.0 and r["intensity"] == pytest.approx(2015 / 150)


def test_the_metric_set_is_documented_and_each_precision_counts_flops():
    fields = [f for _, f, _, _ in profile.METRICS]
    assert len(fields) == len(set(fields)) and all(len(t) == 4 and t[3] for t in profile.METRICS)
    for key in ("fp32", "fp16", "fp16acc16", "bf16", "tf32", "int8", "fp64"):
        names = profile.metric_names(key)
        assert any(m in names for m, *_ in profile.FLOP_METRICS[key]) and len(names) == len(set(names))
    assert all(not m.endswith("_selected_per_issue_active.ratio") or "not_selected" in m
               for m in profile.metric_names("fp16"))                             # 'selected' is no stall
    swapped = profile.metric_names("fp16", unknown={"dram__bytes_read", "sm__pipe_tensor_op_gmma_cycles_active"})
    assert "dram__bytes_op_read.sum" in swapped and "dram__bytes_read.sum" not in swapped
    assert not any(m.startswith("sm__pipe_tensor_op_gmma_cycles_active") for m in swapped)


# -- failures ------------------------------------------------------------------------------------------

def test_no_permission_to_the_counters_names_the_driver_error_and_the_fix():
    err = profile.classify_ncu_failure(
        1, "==PROF== Connected to process 7 (python3)\n",
        "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance "
        "Counters on the target device 0.\n")
    assert isinstance(err, profile.NcuPermissionError) and err.exit_code == 3
    msg = str(err)
    assert "ERR_NVGPUCTRPERM" in msg and "NVreg_RestrictProfilingToAdminUsers=0" in msg
    assert "root" in msg and "modprobe" in msg


def test_no_kernels_profiled_names_the_filter_and_the_entry_names():
    regex = profile.kernel_regex(KERNELS["mma_sync_fp16"])
    err = profile.classify_ncu_failure(0, "[]\n", "tcraw: kernel mma_sync_fp16 needs sm_80 or newer\n"
                                       "==WARNING== No kernels were profiled.\n", regex=regex)
    msg = str(err)
    assert isinstance(err, profile.ProfileError) and err.exit_code == 1
    assert "regex:^mma_sync_fp16$" in msg and "entry symbol" in msg
    assert "naive_fp32" in msg and "wgmma_tma_fp16" in msg and "wmma_naive_fp16_fp32" in msg
    assert "needs sm_80" in msg                                                 # the child's own reason


def test_other_failures_carry_ncus_last_words_and_unknown_metrics_are_named():
    err = profile.classify_ncu_failure(9, "", "line 1\n==ERROR== The application returned an error code (11).\n")
    assert "exit 9" in str(err) and "error code (11)" in str(err)
    err = profile.classify_ncu_failure(1, "==ERROR== Failed to find metric regex:^sm__bogus(\\.(sum|avg))?$\n", "")
    assert "sm__bogus" in str(err) and "--query-metrics" in str(err)
    said = "==ERROR== Failed to find metric sm__x.avg.pct_of_peak_sustained_active"
    assert profile.missing_metric("", said) == "sm__x"
    assert profile.missing_metric("all fine", "") is None


def test_find_ncu_refuses_a_tcraw_ncu_that_is_not_there(monkeypatch, tmp_path):
    """A $TCRAW_NCU that names no executable is the user's input gone wrong: exit 2, as a wrong
    $TCRAW_CUOBJDUMP is (no ncu found anywhere, with none named, is 3)."""
    missing = tmp_path / "no" / "ncu"
    monkeypatch.setenv("TCRAW_NCU", str(missing))
    with pytest.raises(UsageError, match=re.escape(f"TCRAW_NCU={missing}")) as exc:
        profile.find_ncu()
    assert exc.value.exit_code == 2
    fake = tmp_path / "ncu"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    monkeypatch.setenv("TCRAW_NCU", str(fake))
    assert profile.find_ncu() == str(fake)


def test_find_ncu_names_every_place_it_looked(monkeypatch, tmp_path):
    if Path("/usr/local/cuda/bin/ncu").exists() or list(Path("/opt/nvidia").glob("nsight-compute/*/ncu")):
        pytest.skip("this machine has ncu in a standard place")
    monkeypatch.delenv("TCRAW_NCU", raising=False)
    monkeypatch.setenv("CUDA_HOME", str(tmp_path / "cuda"))
    monkeypatch.delenv("CUDA_PATH", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(profile.NcuNotFound) as exc:
        profile.find_ncu()
    msg = str(exc.value)
    assert str(tmp_path / "cuda" / "bin" / "ncu") in msg and "/usr/local/cuda/bin/ncu" in msg
    assert "PATH" in msg and "TCRAW_NCU=/path/to/ncu" in msg


# -- the command ---------------------------------------------------------------------------------------

def test_profile_command_profiles_only_the_kernels_own_launch():
    argv = profile.profile_command(WGMMA, SHAPE, ncu="/opt/ncu", clock_control="base")
    assert argv[0] == "/opt/ncu"
    regex = argv[argv.index("--kernel-name") + 1]
    assert regex == "regex:^wgmma_tma_fp16$"
    body = regex.removeprefix("regex:")
    assert re.search(body, "wgmma_tma_fp16") and not re.search(body, "reference_fp16")
    assert not re.search(body, "wgmma_tma_fp16_v2")
    assert argv[argv.index("--launch-count") + 1] == "1" and argv[argv.index("--clock-control") + 1] == "base"
    assert argv[argv.index("--page") + 1] == "raw" and argv[argv.index("--print-units") + 1] == "base"
    assert "--csv" in argv and "--export" not in argv
    assert argv[argv.index("--metrics") + 1].split(",") == profile.metric_names("fp16")
    child = argv[argv.index(sys.executable):]
    assert child[1:4] == ["-m", "tcraw", "run"] and child[child.index("--kernel") + 1] == "wgmma_tma_fp16"
    for flag, value in (("-m", "4096"), ("--iters", "1"), ("--warmup", "0"), ("--seed", "1"),
                        ("--format", "json"), ("--device", "0")):
        assert child[child.index(flag, 3) + 1] == value


def test_profile_command_options_and_refusals(tmp_path):
    argv = profile.profile_command(KERNELS["naive_fp32"], (100, 200, 300), ncu="ncu", clock_control="none",
                                   raw_path=tmp_path / "r", backend="ctypes", device=1, extra_args=("--nvtx",))
    assert argv[argv.index("--clock-control") + 1] == "none" and argv[argv.index("--export") + 1] == str(tmp_path / "r")
    assert argv.index("--nvtx") < argv.index(sys.executable)
    assert argv[-2:] == ["--backend", "ctypes"] and argv[argv.index("--device") + 1] == "1"
    with pytest.raises(UsageError, match="clock-control"):
        profile.profile_command(WGMMA, SHAPE, ncu="ncu", clock_control="boost")
    with pytest.raises(UsageError):
        profile.profile_command(WGMMA, (0, 1, 1), ncu="ncu")
    (tmp_path / "mine.cu").write_text("")   # (declared only: user_kernel wants its source to be a file)
    mine = user_kernel(str(tmp_path / "mine.cu"), "my_entry", "fp16", block=(128,), name="mine")
    argv = profile.profile_command(mine, (64, 64, 64), ncu="ncu")
    assert "regex:^my_entry$" in argv and "--source" in argv
    child = argv[argv.index(sys.executable):]
    assert child[child.index("--kernel") + 1] == "mine" and child.index("--source") < child.index("--kernel")


def test_run_profile_retries_without_a_metric_ncu_does_not_know():
    calls = []

    def fake_run(argv, timeout):
        calls.append(argv[argv.index("--metrics") + 1].split(","))
        if len(calls) == 1:
            return 1, "==ERROR== Failed to find metric regex:^sm__pipe_tensor_op_gmma_cycles_active(\\..*)?$\n", ""
        if len(calls) == 2:
            return 1, "", "==ERROR== Failed to find metric dram__bytes_read.sum\n"
        return 0, fixture_text(), "==PROF== Disconnected\n"
    seen = []
    r = profile.run_profile("wgmma_tma_fp16", SHAPE, ncu="ncu", device_facts=FACTS, run=fake_run,
                            log=lambda *a: seen.append(a[1]))
    assert len(calls) == 3 and seen == [1, 1, 0]
    assert "sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active" in calls[0]
    assert not any(m.startswith("sm__pipe_tensor_op_gmma_cycles") for m in calls[1])
    assert "dram__bytes_op_read.sum" in calls[2] and "dram__bytes_read.sum" not in calls[2]
    assert r["metrics_unknown"] == ["dram__bytes_read", "sm__pipe_tensor_op_gmma_cycles_active"]
    assert r["passed"] is True and r["tflops"] == pytest.approx(550.03, rel=1e-4)


def test_with_export_the_results_are_read_back_from_this_runs_report(tmp_path):
    raw = tmp_path / "wgmma"
    calls = []

    def fake_run(argv, timeout):
        calls.append(argv)
        if "--import" in argv:
            assert argv[argv.index("--import") + 1] == str(raw) + ".ncu-rep"
            return 0, fixture_text(), ""
        (tmp_path / "wgmma.ncu-rep").write_bytes(b"report")   # ncu wrote the report, printed no CSV
        return 0, "==PROF== Report: wgmma.ncu-rep\n", ""
    r = profile.run_profile(WGMMA, SHAPE, ncu="ncu", raw_path=raw, run=fake_run)
    assert len(calls) == 2 and r["duration_ms"] == pytest.approx(0.249876)
    os.utime(tmp_path / "wgmma.ncu-rep", (1, 1))                  # a report left from an older run

    def stale(argv, timeout):
        assert "--import" not in argv
        return 0, "", "==WARNING== No kernels were profiled.\n"
    with pytest.raises(profile.ProfileError, match="no kernel"):
        profile.run_profile(WGMMA, SHAPE, ncu="ncu", raw_path=raw, run=stale)


def test_run_profile_says_why_nothing_was_profiled():
    def fake_run(argv, timeout):
        return 0, "[]\n", "==WARNING== No kernels were profiled.\n"
    with pytest.raises(profile.ProfileError, match=re.escape("regex:^naive_fp32$")):
        profile.run_profile(KERNELS["naive_fp32"], (64, 64, 64), ncu="ncu", run=fake_run)


def test_a_run_past_its_timeout_is_stopped_with_its_children():
    with pytest.raises(profile.ProfileError, match="ran past"):
        profile._run_process(["sh", "-c", "sleep 30 & sleep 30"], timeout=0.5)


# -- facts and the roofline ----------------------------------------------------------------------------

def test_dram_bandwidth_and_device_facts():
    assert profile.dram_bandwidth(3_201_000, 6144) == pytest.approx(4.917e12, rel=1e-3)   # H200

    from tcraw.precision import PRECISIONS

    class Dev:   # what a tcraw Device says of an H200
        name, clock_khz, mem_clock_khz, mem_bus_bits = "NVIDIA H200", 1_980_000, 3_201_000, 6144

        def peak_tflops(self, p):
            return {"fp16": 1070.5}.get(p.key)
    facts = profile.device_facts(Dev())
    assert facts["dram_bytes_per_s"] == pytest.approx(4.917e12, rel=1e-3)
    assert facts["peak_tflops"] == {"fp16": 1070.5} and facts["sm_clock_mhz"] == 1980.0
    assert profile.device_facts(Dev(), dram_bytes_per_s=4.8e12)["dram_bytes_per_s"] == 4.8e12
    assert PRECISIONS


def test_the_roofline_without_matplotlib_says_which_extra(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)   # import matplotlib now fails
    (launch,) = profile.parse_ncu_csv(fixture_text())
    records = [profile.profile_record(launch, WGMMA, SHAPE)]
    with pytest.raises(UsageError, match=re.escape("pip install 'tcraw[plot]'")):
        profile.roofline_png(records, FACTS, tmp_path / "roofline.png")


def test_the_roofline_draws_when_matplotlib_is_there(tmp_path):
    pytest.importorskip("matplotlib", reason="matplotlib is the optional 'plot' extra")
    (launch,) = profile.parse_ncu_csv(fixture_text())
    records = [profile.profile_record(launch, WGMMA, SHAPE), {"kernel": "no data", "intensity": None}]
    out = profile.roofline_png(records, FACTS, tmp_path / "roofline.png")
    assert Path(out).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# -- NVML ------------------------------------------------------------------------------------------------

def fake_pynvml(fail_init=False):
    m = types.ModuleType("pynvml")
    m.NVML_CLOCK_SM = 1
    m.nvmlClocksThrottleReasonGpuIdle, m.nvmlClocksThrottleReasonSwPowerCap = 0x1, 0x4
    m.nvmlClocksThrottleReasonHwSlowdown, m.nvmlClocksThrottleReasonAll = 0x8, 0xFF
    clocks = iter([1980, 1755, 1830] + [1900] * 100000)
    m.calls = []

    def init():
        if fail_init:
            raise RuntimeError("NVML Shared Library Not Found")
    m.nvmlInit = init
    m.nvmlShutdown = lambda: m.calls.append("shutdown")
    m.nvmlDeviceGetHandleByIndex = lambda i: ("gpu", i)
    m.nvmlDeviceGetClockInfo = lambda h, kind: next(clocks)
    m.nvmlDeviceGetPowerUsage = lambda h: 612_500          # mW
    m.nvmlDeviceGetCurrentClocksThrottleReasons = lambda h: 0x1 | 0x4
    return m


def test_clock_sampler_with_a_fake_pynvml(monkeypatch):
    fake = fake_pynvml()
    monkeypatch.setitem(sys.modules, "pynvml", fake)
    with ClockSampler(0, interval_s=0.001) as s:
        import time
        time.sleep(0.02)
    r = s.result
    assert r["samples"] >= 2 and r["sm_clock_mhz_min"] == 1755 and r["sm_clock_mhz_max"] == 1980
    assert r["power_w_max"] == 612.5 and r["throttle_reasons"] == ["sw_power_cap"]   # gpu_idle left out
    assert r["nvml"].startswith("nvidia-ml-py") and fake.calls == ["shutdown"]


def test_clock_sampler_without_pynvml_or_a_driver_says_why(monkeypatch):
    monkeypatch.setitem(sys.modules, "pynvml", None)
    with ClockSampler(0) as s:
        pass
    assert s.result["nvml"] == "unavailable: pynvml is not installed (pip install nvidia-ml-py)"
    assert s.result["sm_clock_mhz_max"] is None and s.result["throttle_reasons"] is None
    monkeypatch.setitem(sys.modules, "pynvml", fake_pynvml(fail_init=True))
    with ClockSampler(0) as s:
        pass
    assert s.result["nvml"] == "unavailable: RuntimeError: NVML Shared Library Not Found"
    assert s.result["power_w_max"] is None and s.result["samples"] == 0


def test_every_public_function_has_a_docstring():
    import inspect
    import tcraw.nvml
    for mod in (profile, tcraw.nvml):
        for name, obj in vars(mod).items():
            if not name.startswith("_") and (inspect.isfunction(obj) or inspect.isclass(obj)) \
                    and obj.__module__ == mod.__name__:
                assert obj.__doc__, f"{mod.__name__}.{name}"
    assert os.path.basename(profile.__file__) == "profile.py"



@pytest.mark.gpu
def test_ncu_counts_exactly_the_naive_kernels_flops(device):
    """One FFMA per multiply-add: the FLOPs ncu counts on 01 are 2·M·N·K, exactly, and only the
    kernel's own launch was profiled (one launch, its entry name)."""
    from tcraw.kernels import KERNELS
    try:
        ncu = profile.find_ncu()
    except profile.NcuNotFound as exc:
        pytest.skip(str(exc))
    shape = (256, 192, 128)
    r = profile.run_profile(KERNELS["naive_fp32"], shape, ncu=ncu, backend=device.drv.name, timeout=300)
    assert r["flop_count_measured"] == 2 * 256 * 192 * 128, r
    assert r["passed"] and r["duration_ms"] > 0 and r["flops_source"] == "counters"


def h200_blocks():
    """{(kernel, clock control): (shape, ncu's stdout)} of the real H200 run in the fixtures."""
    text = (Path(__file__).parent / "fixtures" / "ncu" / "h200_ladder.txt").read_text()
    blocks = {}
    for block in text.split("### ")[1:]:
        head, _, body = block.partition("\n")
        name, m, n, k, clock = head.split()[:5]
        blocks[(name, clock.removeprefix("clock="))] = ((int(m), int(n), int(k)), body)
    return blocks


def test_the_h200_run_parses_into_records():
    blocks = h200_blocks()
    assert set(blocks) == {("naive_fp32", "base"), ("mma_sync_fp16", "base"), ("wgmma_tma_fp16", "base"),
                           ("wgmma_tma_fp16", "none")}
    records = {}
    for (name, clock), (shape, body) in blocks.items():
        (launch,) = profile.parse_ncu_csv(body)           # only the kernel's own launch was profiled
        assert launch["Kernel Name"].split("(")[0] == KERNELS[name].entry
        r = profile.profile_record(launch, KERNELS[name], shape, clock_control=clock)
        assert [c["passed"] for c in profile.child_records(body)] == [True]
        records[name, clock] = r
    naive = records["naive_fp32", "base"]
    assert naive["flop_count_measured"] == 2 * 2048**3 and naive["flops_source"] == "counters"   # one FFMA each
    assert naive["tensor_pct"] == 0 and naive["occupancy_limiter"]
    wgmma, free = records["wgmma_tma_fp16", "base"], records["wgmma_tma_fp16", "none"]
    assert wgmma["tensor_pct"] > 80 and wgmma["registers"] > 128 and wgmma["intensity"] > 100
    # ncu's default locks the SM clock below what `tcraw run` sees: the same kernel is faster unlocked
    assert wgmma["sm_clock_mhz_ncu"] < free["sm_clock_mhz_ncu"] and wgmma["duration_ms"] > free["duration_ms"]
    assert all(len(r["top_stalls"]) == 3 for r in records.values())
