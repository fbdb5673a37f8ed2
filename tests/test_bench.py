"""Bench's shape suites and their summary (CPU): what `tcraw bench --shapes` measures and reports."""

import math
from pathlib import Path

import numpy as np
import pytest

from tcraw.bench import SUITES, parse_shapes, suite_summary
from tcraw.cli import main
from tcraw.errors import UsageError


def test_suites_cover_what_the_issue_names():
    assert {"square", "llm", "skinny", "long-k", "odd"} <= set(SUITES)
    assert {m for m, _, _ in SUITES["llm"]} >= {1, 16384} and (4096, 11008) in {(n, k) for _, n, k in SUITES["llm"]}
    assert all(v % 8 for shape in SUITES["odd"] for v in shape)   # nothing a multiple of 8
    assert all(k >= 8 * max(m, n) for m, n, k in SUITES["long-k"])


def test_shapes_from_suites_and_files(tmp_path):
    f = tmp_path / "mine.txt"
    f.write_text("1000 1003 997   # a comment\n\n64,64,64\n7x9x11\n")
    got = parse_shapes(f"odd,{f}")
    assert got[:len(SUITES["odd"])] == [("odd", s) for s in SUITES["odd"]]
    assert got[len(SUITES["odd"]):] == [("mine", (1000, 1003, 997)), ("mine", (64, 64, 64)), ("mine", (7, 9, 11))]
    f.write_text("12 34\n")
    with pytest.raises(UsageError, match=r"mine.txt:1: '12 34' is not a shape"):
        parse_shapes(str(f))
    with pytest.raises(UsageError, match="neither a suite"):
        parse_shapes("squares")


def test_the_summary_is_a_geomean_with_the_worst_shape_named():
    def row(kernel, m, ratio, passed=True):
        return {"kernel": kernel, "suite": "llm", "precision": "fp16→fp32", "m": m, "n": 4096, "k": 4096,
                "vs_cublas": ratio, "passed": passed, "padded": [max(m, 256), 4096, 4096]}
    rows = [row("cublas", 1, None), row("k", 1, 0.5), row("k", 16, 2.0), row("k", 128, 1.0), row("k", 512, None, False)]
    (s,) = suite_summary(rows)
    assert s["geomean_vs_cublas"] == pytest.approx(math.exp((math.log(0.5) + math.log(2.0)) / 3))
    assert (s["worst_shape"], s["below_0.85"], s["failed"], s["shapes"]) == ("512×4096×4096", 2, 1, 4)
    assert s["padded_untimed"] == 3   # M = 1, 16, 128 ran padded to 256 rows
    # a ratio no bench row holds (NaN, negative) counts as none — below the floor, out of the mean
    (s,) = suite_summary(rows[:4] + [row("k", 512, float("nan")), row("k", 1024, -1.0)])
    assert s["geomean_vs_cublas"] == pytest.approx(math.exp((math.log(0.5) + math.log(2.0)) / 3))
    assert (s["below_0.85"], s["worst_vs_cublas"], s["shapes"]) == (3, None, 5)
    (s,) = suite_summary([row("k", 1, np.float32(0.5)), row("k", 16, np.float64(2.0))])   # (numpy's count)
    assert s["geomean_vs_cublas"] == pytest.approx(1.0) and s["below_0.85"] == 1


def test_sizes_and_shapes_together_are_refused(capsys):
    assert main(["bench", "--sizes", "1024", "--shapes", "square"]) == 2
    assert "not both" in capsys.readouterr().err


def test_the_cublaslt_yardstick_is_no_kernel_of_the_summary():
    rows = [{"kernel": "cublaslt", "suite": "square", "precision": "e4m3→fp32", "m": 64, "n": 64, "k": 64,
             "passed": True, "padded": [64, 64, 64]},
            {"kernel": "k", "suite": "square", "precision": "e4m3→fp32", "m": 64, "n": 64, "k": 64,
             "vs_cublas": 1.0, "passed": True, "padded": [64, 64, 64]}]
    assert [s["kernel"] for s in suite_summary(rows)] == ["k"]


class FakeClock:
    """A driver whose launches take ``cost(i)`` ms of GPU time (the i-th launch), timed by events."""

    def __init__(self, cost):
        self.cost, self.launches, self.clock, self.events, self.destroyed = cost, 0, 0.0, [], 0

    def launch(self):
        self.clock += self.cost(self.launches)
        self.launches += 1

    def event_create(self):
        self.events.append(None)
        return len(self.events)

    def event_record(self, ev):
        self.events[ev - 1] = self.clock

    def event_synchronize(self, ev):
        pass

    def event_elapsed_ms(self, start, end):
        return self.events[end - 1] - self.events[start - 1]

    def event_destroy(self, ev):
        self.destroyed += 1


def test_warm_up_lasts_at_least_its_gpu_time_and_none_means_none(monkeypatch):
    """runtime.warm_up: the launches asked for, then batches sized by the last one's time per
    launch until WARM_MS of GPU time has passed — also when the first launches (an idle GPU's)
    are the slow ones; none asked, none run and no event made; time_launches warms up so, then
    holds the stream (Device.hold) while it queues the timed launches, none recorded before it."""
    from types import SimpleNamespace
    from tcraw import runtime
    tick = 1 / 64   # ms a launch: exact in binary, so the sums are too
    drv = FakeClock(lambda i: tick)
    runtime.warm_up(drv, drv.launch, 5, least_ms=30.0)
    assert drv.launches == 1920 and drv.destroyed == 2   # 5 took 5/64 ms: 1915 more make 30 ms
    drv = FakeClock(lambda i: 1.0 if i < 5 else tick / 2)   # slow first launches: the first batch comes up short
    runtime.warm_up(drv, drv.launch, 5, least_ms=10.0)
    assert drv.clock >= 10.0 and drv.launches == 5 + 5 + 635
    drv = FakeClock(lambda i: tick)
    runtime.warm_up(drv, drv.launch, 5, least_ms=0.05)   # the asked-for launches took longer already
    assert drv.launches == 5
    drv = FakeClock(lambda i: tick)
    runtime.warm_up(drv, drv.launch, 0)
    assert drv.launches == 0 and drv.events == []
    drv = FakeClock(lambda i: tick)
    held = []   # (launches before it, events before it, ms): the hold comes after warm-up, before the timed events
    device = SimpleNamespace(drv=drv, hold=lambda ms: held.append((drv.launches, list(drv.events), ms)) or True)
    times = runtime.time_launches(device, drv.launch, 3, 2)
    assert times == [tick] * 3 and drv.launches == 2 + 638 + 3   # WARM_MS (10) of warm-up first
    assert times.held_ms == 3 * runtime.HOLD_MS_PER_LAUNCH   # what the record's held_ms says
    (built, _, nothing), (launches, events, ms) = held   # the first builds it, before warm-up
    assert built == 0 and nothing == 0
    assert launches == 2 + 638 and events[2:] == [None] * 6 and ms == 3 * runtime.HOLD_MS_PER_LAUNCH
    held.clear()   # more than a chunk: a hold before each HOLD_CHUNK launches, between their pairs
    before = len(drv.events)
    times = runtime.time_launches(device, drv.launch, 2 * runtime.HOLD_CHUNK + 7, 0)
    chunk_ms = runtime.HOLD_CHUNK * runtime.HOLD_MS_PER_LAUNCH
    assert [ms for *_, ms in held] == [0, chunk_ms, chunk_ms, 7 * runtime.HOLD_MS_PER_LAUNCH]
    assert [sum(e is not None for e in events[before:]) for _, events, _ in held[1:]] == \
        [0, 2 * runtime.HOLD_CHUNK, 4 * runtime.HOLD_CHUNK]   # events recorded before each: whole pairs
    assert times.held_ms == (2 * runtime.HOLD_CHUNK + 7) * runtime.HOLD_MS_PER_LAUNCH
    for unheld in (SimpleNamespace(drv=FakeClock(lambda i: tick)),                       # without hold
                   SimpleNamespace(drv=FakeClock(lambda i: tick), hold=lambda ms: False)):  # one that cannot
        times = runtime.time_launches(unheld, unheld.drv.launch, 2, 0)
        assert times == [tick] * 2 and times.held_ms == 0.0
    monkeypatch.setattr(runtime, "HOLD_MS_PER_LAUNCH", 0)   # asked for none: hold is not called at all
    times = runtime.time_launches(SimpleNamespace(drv=drv, hold=None), drv.launch, 2, 0)
    assert times.held_ms == 0.0


def test_the_footer_says_whether_the_timed_launches_were_held():
    """bench's and run's footers: held when every timed row was (Record.held_ms), else how many
    were not and the likely reasons; failed rows (no time) do not count."""
    from tcraw.cli import _held
    rows = [{"iters": 10, "error": None, "held_ms": 1.0}, {"iters": 10, "error": "boom", "held_ms": 0.0}]
    assert _held(rows) == "queued behind a hold of the stream"
    assert _held(rows + [{"iters": 10, "error": None, "held_ms": 0.0}]).endswith("— 1 of 2 rows")
    assert _held([{"iters": 10, "error": None, "held_ms": 0.0}]).startswith("unheld: no hold could be built")


def test_a_bad_hold_is_refused_before_anything_runs(monkeypatch):
    """Device.hold's ms and runtime.HOLD_MS_PER_LAUNCH: a finite number of ms in [0, 60 000] —
    anything else (negative, NaN, inf, text, a bool, a year) a UsageError naming it, before a
    warm-up launch or a compile."""
    from types import SimpleNamespace
    from tcraw import runtime
    from tcraw.errors import UsageError
    device = SimpleNamespace(_check=lambda: None, _helpers={}, arch=None, drv=None)
    for bad in (-1, float("nan"), float("inf"), "0.1", None, True, 1e12):
        with pytest.raises(UsageError, match=r"the hold must be a number of ms in \[0, 60000\]"):
            runtime.Device.hold(device, bad)
        drv = FakeClock(lambda i: 1.0)
        monkeypatch.setattr(runtime, "HOLD_MS_PER_LAUNCH", bad)
        with pytest.raises(UsageError, match="runtime.HOLD_MS_PER_LAUNCH must be"):
            runtime.time_launches(SimpleNamespace(drv=drv, hold=lambda ms: None), drv.launch, 3, 2)
        assert drv.launches == 0 and drv.events == []


def test_helper_kernels_are_skipped_where_they_cannot_be_built(monkeypatch):
    """Device.hold and Device.pitch_kernels without NVRTC (a cubin-only run), with one that cannot
    build them for this GPU (no such arch, another CUDA major), or with a cubin the driver
    refuses: no hold (the timing goes on unheld) and no pitch kernels (the copies go through
    cuMemcpy2DAsync), no error — and each build is tried once per Device. A lost context is not
    swallowed."""
    from types import SimpleNamespace
    from tcraw import compiler, runtime
    from tcraw.errors import ArchError, CudaError, NoNvrtcError, UsageError
    refused_load = CudaError("cuModuleLoadData", "CUDA_ERROR_UNSUPPORTED_PTX_VERSION", 222)
    lost = CudaError("cuModuleLoadData", "CUDA_ERROR_ILLEGAL_ADDRESS", 700)
    for compile_error, load_error in ((NoNvrtcError("no libnvrtc"), None),
                                      (ArchError("sm_70 is not supported by the installed NVRTC"), None),
                                      (UsageError("NVRTC 13 with the CUDA 12 stack"), None),
                                      (None, refused_load), (None, lost)):
        tries = []

        def build(*args, error=compile_error, **kwargs):
            tries.append(args)
            if error:
                raise error
            return SimpleNamespace(image=b"cubin")

        def load(device, image, error=load_error):
            raise error
        monkeypatch.setattr(compiler, "compile_source", build)
        monkeypatch.setattr(runtime, "Module", load)
        device = runtime.Device.__new__(runtime.Device)   # (no GPU: only what the two read)
        device.__dict__.update(_open=True, _helpers={}, drv=None, cc=70, ctx=object())
        monkeypatch.setattr(runtime._current, "ctx", device.ctx, raising=False)   # (current already)
        if load_error is lost:
            with pytest.raises(CudaError, match="ILLEGAL_ADDRESS"):
                runtime.Device.hold(device, 1.0)
            with pytest.raises(CudaError, match="ILLEGAL_ADDRESS"):
                runtime.Device.pitch_kernels(device)
            continue
        assert runtime.Device.hold(device, 1.0) is False and runtime.Device.hold(device, 1.0) is False
        assert not runtime.Device.pitch_kernels(device) and not runtime.Device.pitch_kernels(device)
        assert [Path(a[0]).name for a in tries] == ["hold_gpu.cu", "pitch_rows.cu"]


def test_shape_files_keep_their_own_suite_and_say_where_a_shape_is_wrong(tmp_path, monkeypatch):
    """A file named like a built-in suite, or like another file, is its own suite (labelled by its
    path): two suites are never merged into one geomean. A file with no shape, a shape out of
    range (with its file and line), and digits that are not ASCII are refused."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "d1").mkdir()
    (tmp_path / "d2").mkdir()
    (tmp_path / "llm.txt").write_text("8 8 8\n")
    (tmp_path / "d1" / "s.txt").write_text("16 16 16\n")
    (tmp_path / "d2" / "s.txt").write_text("32 32 32\n")
    assert {suite for suite, _ in parse_shapes("llm,llm.txt")} == {"llm", "llm.txt"}
    assert parse_shapes("d1/s.txt,d2/s.txt") == [("s", (16, 16, 16)), ("d2/s.txt", (32, 32, 32))]
    for text, needle in (("# only a comment\n", "no shape in it"), ("4 4 4\n0 5 5\n", "bad.txt:2: M must be"),
                         ("\u0663 2 2\n", "is not a shape")):
        (tmp_path / "bad.txt").write_text(text)
        with pytest.raises(UsageError, match=needle):
            parse_shapes("square,bad.txt")


def test_shapes_given_to_the_library_are_read_as_python_ints_or_refused():
    """bench_vs_cublas's shapes (shape_items): sizes, triples and (suite, triple) pairs, numpy
    integers too, come back as Python ints; an empty list, a bare suite name and a pair that is
    no shape are refused by name — before any GPU is asked for."""
    import numpy as np
    from tcraw.bench import bench_vs_cublas, shape_items
    got = shape_items([np.int64(64), (np.uint32(1), 2, 3), ("llm", (4, np.int32(5), 6))])
    assert got == [(None, (64, 64, 64)), (None, (1, 2, 3)), ("llm", (4, 5, 6))]
    assert all(type(v) is int for _, shape in got for v in shape)
    for bad, needle in (([], "no shape to time"), ("llm", "parse_shapes"), ([(1024, 64)], "is not a shape"),
                        ([(0, 1, 1)], "M must be")):
        with pytest.raises(UsageError, match=needle):
            bench_vs_cublas(0, ["fp16"], bad, open_device=lambda i: pytest.fail("the GPU was asked for"))


def test_a_shape_file_takes_ascii_digits_and_a_byte_order_mark(tmp_path):
    """A file saved with a byte-order mark reads as without one, an uppercase X separates as x does;
    '+128' and '1_000' (which int() would take) are not shapes."""
    f = tmp_path / "mine.txt"
    f.write_bytes("\ufeff128 256 512\n64X32X16\n".encode())
    assert parse_shapes(str(f)) == [("mine", (128, 256, 512)), ("mine", (64, 32, 16))]
    for line in ("+128 256 512", "1_000 256 512"):
        f.write_text(line + "\n")
        with pytest.raises(UsageError, match="is not a shape"):
            parse_shapes(str(f))


def test_bench_takes_run_and_sweeps_group_names_for_its_ladders():
    """`--precision fp8` and `all`, as run and sweep take them: the three FP8 ladders, every
    ladder — accepted before the GPU is asked for; an unknown name still refused by name."""
    from tcraw.bench import LADDER, LADDER_GROUPS, bench_vs_cublas

    class Opened(Exception):
        pass

    def open_device(index):
        raise Opened   # past every check made before the GPU
    assert LADDER_GROUPS == {"fp8": ["fp8e4m3bf16", "fp8e4m3", "fp8e5m2"], "all": list(LADDER)}
    for keys in (["fp8"], ["all"], ["fp16", "fp8"]):
        with pytest.raises(Opened):
            bench_vs_cublas(0, keys, [64], open_device=open_device)
    with pytest.raises(UsageError, match="no ladder for 'fp8e4m3x'"):
        bench_vs_cublas(0, ["fp8", "fp8e4m3x"], [64], open_device=open_device)
