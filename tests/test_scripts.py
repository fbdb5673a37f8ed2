"""Scripts that need no GPU: the bench plot from recorded results, the walkthrough's bad input."""

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


def walkthrough(*argv):
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "walkthrough.py"), *argv],
                          capture_output=True, text=True, timeout=120)


def gpu_present():
    from tcraw.driver import get_backend
    from tcraw.errors import NoDeviceError
    try:
        get_backend().init()
        return True
    except NoDeviceError:
        return False


@pytest.mark.parametrize("n", ["100", "0", "-64"])
def test_walkthrough_refuses_a_size_that_is_not_a_positive_multiple_of_64(n):
    p = walkthrough("--n", n)
    assert p.returncode == 2, p.stderr
    assert "usage:" in p.stderr and "positive multiple of 64" in p.stderr
    assert "Traceback" not in p.stderr


def test_walkthrough_refuses_an_unknown_backend():
    p = walkthrough("--backend", "bogus", "--n", "64")
    assert p.returncode == 2, p.stderr
    assert p.stderr.startswith("walkthrough: ") and "unknown backend 'bogus'" in p.stderr
    assert len(p.stderr.splitlines()) == 1 and "Traceback" not in p.stderr


def test_walkthrough_without_a_gpu_says_so_and_exits_3():
    if gpu_present():
        pytest.skip("a CUDA driver and GPU are present: the no-GPU path cannot be exercised here")
    p = walkthrough("--n", "64")
    assert p.returncode == 3, p.stderr
    assert p.stderr.startswith("walkthrough: ") and ("no CUDA driver" in p.stderr or "GPU" in p.stderr)
    assert len(p.stderr.splitlines()) == 1 and "Traceback" not in p.stderr


def test_tune_ladder_builds_the_variant_it_names():
    """A variant is the registry kernel with the named macros overridden, and nothing else."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from tune_ladder import variant
    from tcraw import compiler, kernels
    v = variant("wgmma", "fp16", "STAGES=3,CLUSTER=1")
    base = kernels.KERNELS["wgmma_tma_fp16"]
    assert "STAGES=3" in v.defines and "CLUSTER=1" in v.defines and v.entry == base.entry
    assert v.tile == base.tile == (1, 1, 1) and v.variant == "STAGES=3+CLUSTER=1"   # any shape, one configuration
    assert v.configured(1, 4096, 4096, 132) is v and base.configured(1, 4096, 4096, 132).defines != base.defines
    assert v.geometry(512, 512, 64).smem_bytes < base.geometry(512, 512, 64).smem_bytes
    assert compiler.compile_cubin(v, "sm_90").spill_bytes == 0
    from tcraw.errors import UsageError
    with pytest.raises(UsageError, match="MACRO=number"):
        variant("simt", "fp32", "STAGE=3")


def test_tune_ladder_picked_keeps_each_problems_configuration():
    """--picked: the variant still picks per problem (what 06 would run), its macros under the pick."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from tune_ladder import variant
    from tcraw import kernels
    from tcraw.errors import UsageError
    base = kernels.KERNELS["wgmma_tma_fp16"]
    v = variant("wgmma", "fp16", "SPLIT_LOADS=1", picked=True)
    assert v.name == "wgmma_fp16[picked+SPLIT_LOADS=1]" and variant("wgmma", "fp16", "", picked=True).name == "wgmma_fp16[picked]"
    for shape in [(512, 512, 32768), (4096, 4096, 4096), (7, 4096, 4096)]:
        got, want = v.configured(*shape, 132).defines, base.configured(*shape, 132).defines
        assert "SPLIT_LOADS=1" in got and [d for d in got if "SPLIT_LOADS" not in d] == \
            [d for d in want if "SPLIT_LOADS" not in d], shape
    # one consumer's slice in flight is the pick's unless a variant says otherwise — and a fixed
    # variant's label says when it is on without being asked
    for spec, depth in [("", "WAIT_DEPTH=1"), ("WAIT_DEPTH=0", "WAIT_DEPTH=0")]:
        assert depth in variant("kmajor", "int8", spec, picked=True).configured(1, 4096, 4096, 132).defines
    assert variant("wgmma", "fp16", "CONSUMERS=1,BN=64").name == "wgmma_fp16[CONSUMERS=1+BN=64+WAIT_DEPTH=1]"
    assert variant("wgmma", "fp16", "BN=128,STAGES=6").name == "wgmma_fp16[BN=128+STAGES=6]"
    with pytest.raises(UsageError, match="the pick's to set"):
        variant("wgmma", "fp16", "BN=128", picked=True)
    with pytest.raises(UsageError, match="--picked is for"):
        variant("simt", "fp32", "", picked=True)
    # "picked" / "picked:MACROS" name the pick among fixed variants (no --picked): one process for both
    assert variant("wgmma", "fp16", "picked").name == "wgmma_fp16[picked]"
    named = variant("wgmma", "fp16", "picked:SPLIT_LOADS=1")
    assert named.name == v.name and named.configured(512, 512, 32768, 132).defines == \
        v.configured(512, 512, 32768, 132).defines
    default = variant("wgmma", "fp16", "")   # the default tile, fixed: not the pick
    assert default.configured(512, 512, 32768, 132) is default and "CLUSTER=2" in default.defines
    assert "CLUSTER=4" in variant("wgmma", "fp16", "picked").configured(512, 512, 32768, 132).defines
    with pytest.raises(UsageError, match="--picked is for"):
        variant("simt", "fp32", "picked")
    twice = script("tune_ladder", "--picked", "--variants", "", "picked")   # the same kernel twice
    assert twice.returncode == 2 and "wgmma_fp16[picked] builds the same kernel" in twice.stderr
    from tune_ladder import repeated
    assert repeated([variant("kmajor", "int8", v, picked=True) for v in ("", "WAIT_DEPTH=0")]) == []   # differ per pick
    assert repeated([variant("wgmma", "fp16", v) for v in ("", "STAGES=4", "BN=128", "STAGES=4")]) == \
        ["wgmma_fp16[STAGES=4]", "wgmma_fp16[STAGES=4]"]
    # A_LINES builds the same cubin, but copies A first: another kernel to time
    assert repeated([variant("wgmma", "fp16", v) for v in ("", "A_LINES=1", "A_LINES=0")]) == ["wgmma_fp16[A_LINES=0]"]


@pytest.mark.skipif(__import__("tcraw.sass").sass.find_cuobjdump() is None,
                    reason="no cuobjdump (pip install 'cuda-toolkit[cuobjdump,nvdisasm]')")
def test_hmma_probe_runs_the_instruction_of_the_wmma_and_mma_sync_rungs():
    """The ceiling probe measures HMMA.16816 — what 04 (WMMA) and 05 (mma.sync) compile to —
    in both of its loops, and nothing that touches memory inside them."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from hmma_peak import probe_cubin
    from tcraw import compiler, sass
    from tcraw.driver import get_backend
    text = sass.dump_sass(probe_cubin(get_backend(), compiler.Arch(90)))
    for entry in ("hmma_peak_mma_sync", "hmma_peak_wmma"):
        body = text.split(f"Function : {entry}")[1].split("Function :")[0]
        assert "HMMA.16816.F32" in body
        assert not any(op in body for op in ("LDG", "LDS", "LDSM")), entry


def test_l2_sides_probe_walks_one_cycle_a_block_and_splits_the_sms_at_the_widest_gap():
    """scripts/l2_sides.py: block b's walk visits each of its lines once (i·sets + b) and comes
    back to line b — the second walk retraces the first; the SMs split where their extra cycles a
    line jump; and the probe builds with NVRTC for sm_90 (its cluster kernel needs it)."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import numpy as np
    from l2_sides import chain_words, two_sides
    from tcraw import compiler
    from tcraw.driver import get_backend
    sets, lines = 7, 5
    words = chain_words(sets, lines, np.random.default_rng(3))
    for b in range(sets):
        at, seen = b, []
        for _ in range(lines):
            seen.append(at)
            at = int(words[32 * at])
        assert at == b and sorted(seen) == [i * sets + b for i in range(lines)]
    beside, across = two_sides(np.array([-1.0, 80.0, 0.0, 84.0, 1.0, 77.0]))
    assert sorted(beside) == [0, 2, 4] and sorted(across) == [1, 3, 5]
    source = (compiler.CUDA_SRC / "probe_l2_sides.cu").read_text()
    image = compiler.nvrtc_compile(get_backend(), source, "probe_l2_sides.cu", compiler.build_options("sm_90"))[0]
    assert image[:4] == b"\x7fELF"


def script(name, *argv):
    return subprocess.run([sys.executable, str(ROOT / "scripts" / f"{name}.py"), *argv],
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("name, argv", [   # (tune_ladder's: test_tune_ladder_refuses_what_names_no_run_before_the_gpu)
    ("accumulator_study", ["--mn", "0"]),
    ("accumulator_study", ["--mn", "x"]),
    ("fp8_accumulator_study", ["--mn", "0"]),
    ("fp8_accumulator_study", ["--seed", "-2"]),
    ("hmma_peak", ["--iters", "0"]),
    ("hmma_peak", ["--blocks-per-sm", "-1"]),
    ("hmma_peak", ["--launches", "0"]),
    ("l2_sides", ["--lines", "1"]),
    ("l2_sides", ["--refs", "auto"]),
    ("l2_sides", ["--seed", "-1"]),
    ("pitch_study", ["--shapes", "odd", "--pitches", "16,100"]),
    ("pitch_study", ["--shapes", "odd", "--pitches", "128"]),
    ("pitch_study", ["--shapes", "odd", "--rounds", "0"]),
    ("ncu_raw_summary", ["/no/such.csv"]),
    ("ncu_raw_summary", ["/"]),
    ("swapped_spills", ["--jobs", "0"]),
    ("promotion_probe", ["--inputs", "4"]),
])
def test_scripts_refuse_a_bad_argument_before_the_gpu(name, argv):
    p = script(name, *argv)
    assert p.returncode == 2, p.stderr
    assert "usage:" in p.stderr and "Traceback" not in p.stderr


@pytest.mark.parametrize("argv, words", [
    (["--iters", "0"], "--iters 0: must be at least 1"),
    (["--shapes", "nope.txt"], "nope.txt"),
    (["--shapes", "odd", "--precision", "int8"], "invalid choice"),
    (["--shapes", "square", "--fits"], "M up to 512, not 1024 (1024×1024×1024)"),   # (BN is at most 256)
    (["--fits", "2:3"], "--fits '2:3': each form is TILES:CLUSTER or TILES:CLUSTER:SA"),
    (["--fits", "2:1:SA"], "(SA, pairs along M sharing B's columns: 2 or 4)"),
    (["--fits", "2:2", "2:2"], "2:2 is given twice"),
    (["--fits", "1:2:SA:C1"], "or TILES:CLUSTER:C1 — tiles of M at least 1"),   # (one consumer shares no B)
    (["--fits", "1:2:C1", "1:2:C1"], "1:2:C1 is given twice"),
    (["--without", "2:4:sa"], "--without '2:4:sa': each form is TILES:CLUSTER or TILES:CLUSTER:SA, or split"),
    (["--without", "2:2:SA"], "not among the rule's forms — 3:4 3:2 2:4 2:4:SA 2:2, or split"),
    (["--without", "split", "split"], "split is given twice"),
    (["--without", "split", "--fits"], "give one of them"),
    (["--rule", "wgmma_swaps_one_tile", "--fits"], "are wgmma_swaps_to_fit's: give them without --rule"),
    (["--rule", "wgmma_swaps_one_tile", "--without", "split"], "give them without --rule"),
    (["--rule", "bogus"], "invalid choice"),
])
def test_swap_fit_study_refuses_bad_arguments_before_the_gpu(argv, words):
    p = script("swap_fit_study", *(argv if "--shapes" in argv else ["--shapes", "odd", *argv]))
    assert p.returncode == 2 and words in p.stderr, p.stderr
    assert "Traceback" not in p.stderr


@pytest.mark.parametrize("argv, words", [
    (["--family", "simt", "--variants", "STAGE=3"], "MACRO=number"),
    (["--family", "simt", "--precision", "fp16"], "simt comes in fp32, not fp16"),
    (["--variants", "BN=²"], "BN takes a whole number ≥ 0"),       # a digit to str.isdigit, not to int()
    (["--variants", "A_EDGE=-1"], "A_EDGE takes a whole number ≥ 0"),
    (["--variants", "picked", "picked:A_EDGE=4"], "builds the same kernel"),   # 4: A_EDGE's default
    (["--variants", "", "STAGES=4"], "builds the same kernel"),    # "" is the default tile: STAGES=4 twice
    (["--variants", "BN=128,CLUSTER=1", "CLUSTER=1,BN=128"], "builds the same kernel"),
    (["--variants", "picked:BN=128"], "leave out --picked (or a variant's \"picked:\")"),
    (["--variants", "SWAP_AB=1,BN=144,CLUSTER=1,BN=96"], "names BN twice"),
])
def test_tune_ladder_refuses_a_bad_variant_or_precision_in_one_line(argv, words):
    p = script("tune_ladder", *argv)
    assert p.returncode == 2, p.stderr
    assert p.stderr.startswith("tune_ladder: ") and words in p.stderr
    assert len(p.stderr.splitlines()) == 1 and "Traceback" not in p.stderr


def test_cluster_one_study_picks_without_clusters_of_one_and_puts_the_ranking_back():
    """scripts/cluster_one_study.py's second picker: two and three consumers' tiles in clusters of 1
    out of the ranking for the call only — 3896×13376×16192's 128 × 256 tiles in clusters of 1
    become the same tiles in clusters of 2, as wgmma_leaves_clusters_of_one, the rule made of it,
    makes them; swap_fit_study's --rule wgmma_leaves_clusters_of_one picker holds that rule off for
    the call only — and --iters 0 refused before the GPU."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from cluster_one_study import picker_without_cluster_one
        from swap_fit_study import picker_before
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    from tcraw import wgmma
    ranked, rule = wgmma.wgmma_ranked, wgmma.wgmma_leaves_clusters_of_one
    one, two = ({"CONSUMERS": 2, "BN": 256, "CLUSTER": cluster, "STAGES": 4} for cluster in (1, 2))
    assert wgmma.wgmma_choose(wgmma.wgmma_ranked(3896, 13376, 16192, 132)) == one
    assert picker_without_cluster_one(2)(3896, 13376, 16192, 132) == two == wgmma.wgmma_config(3896, 13376, 16192, 132)
    assert picker_before(2, None, "wgmma_leaves_clusters_of_one")(3896, 13376, 16192, 132) == one
    assert wgmma.wgmma_ranked is ranked and wgmma.wgmma_leaves_clusters_of_one is rule
    p = script("cluster_one_study", "--shapes", "odd", "--iters", "0")
    assert p.returncode == 2 and "--iters 0: must be at least 1" in p.stderr, p.stderr


@pytest.mark.parametrize("name", ["tune_ladder", "accumulator_study", "fp8_accumulator_study", "hmma_peak", "pitch_study",
                                  "swap_fit_study", "cluster_one_study", "l2_sides", "promotion_probe"])
def test_gpu_scripts_without_a_gpu_say_so_and_exit_3(name):
    if gpu_present():
        pytest.skip("a CUDA driver and GPU are present: the no-GPU path cannot be exercised here")
    p = script(name, *(["--shapes", "odd"] if name in ("pitch_study", "swap_fit_study", "cluster_one_study") else []))
    assert p.returncode == 3, p.stderr
    assert p.stderr.startswith(f"{name}: ") and ("no CUDA driver" in p.stderr or "GPU" in p.stderr)
    assert len(p.stderr.splitlines()) == 1 and "Traceback" not in p.stderr


def test_promotion_probe_sets_each_maps_promotion_by_its_operand_for_the_call_only(monkeypatch):
    """scripts/promotion_probe.py: both backends encode C's maps (fp32, for 16-bit inputs) with
    --output's L2 promotion and A's and B's with --inputs', and their module's constant is tcraw's
    own again after each call."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from promotion_probe import promoting
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    from tcraw.driver import bindings, constants, ctypes_backend
    backends = ((bindings, bindings.BindingsBackend), (ctypes_backend, ctypes_backend.CtypesBackend))
    seen = []   # (module, dtype, the promotion the module's encode would pass)
    for module, cls in backends:
        def record(self, dtype, *args, _m=module):
            seen.append((_m, dtype, _m.TENSOR_MAP_L2_PROMOTION_256B))
        monkeypatch.setattr(cls, "tensor_map_encode_tiled", record)
    promoting(1, 0)
    for module, cls in backends:
        for dtype in (constants.TMA_FP16[0], constants.TMA_FP32[0], constants.TMA_BF16[0]):
            cls.tensor_map_encode_tiled(None, dtype, 0, (64, 64), (128,), (64, 64), 3)
        assert module.TENSOR_MAP_L2_PROMOTION_256B == constants.TENSOR_MAP_L2_PROMOTION_256B == 3
    assert [(dtype, promotion) for _, dtype, promotion in seen] == [(6, 1), (7, 0), (9, 1)] * 2
    assert [m for m, *_ in seen] == [bindings] * 3 + [ctypes_backend] * 3


def plot_bench(*argv):
    return script("plot_bench", *argv)


def assert_one_line_exit_2(p, words):
    assert p.returncode == 2, p.stderr
    assert p.stderr.startswith("plot_bench: ") and words in p.stderr, p.stderr
    assert len(p.stderr.splitlines()) == 1 and "Traceback" not in p.stderr


def test_plot_bench_refuses_a_missing_file(tmp_path):
    assert_one_line_exit_2(plot_bench(str(tmp_path / "nope.json")), "no such file")


def test_plot_bench_refuses_a_file_that_is_not_json(tmp_path):
    bad = tmp_path / "bench.json"
    bad.write_text("not json at all")
    assert_one_line_exit_2(plot_bench(str(bad)), "not JSON")


def test_plot_bench_refuses_a_directory(tmp_path):
    assert_one_line_exit_2(plot_bench(str(tmp_path)), "is a directory")


@pytest.mark.parametrize("content, words", [
    ('{"kernel": "x"}', "JSON list"),
    ("[]", "JSON list"),
    ("[1, 2]", "not an object"),
    ('[{"kernel": "x"}]', "lacks precision"),
    ('[{"kernel": null, "precision": "fp16", "m": 64, "tflops": 1.0, "passed": true}]', "row 0's kernel None"),
    ('[{"kernel": "k", "precision": "fp16", "m": 64, "tflops": "NaN", "passed": true}]', "tflops 'NaN' is not"),
])
def test_plot_bench_refuses_json_that_is_not_bench_rows(tmp_path, content, words):
    bad = tmp_path / "bench.json"
    bad.write_text(content)
    assert_one_line_exit_2(plot_bench(str(bad)), words)


@pytest.mark.parametrize("out, words", [("missing_dir/b.png", "does not exist"), (".", "is a directory"),
                                        ("b.txt", "the suffix says the format")])
def test_plot_bench_refuses_an_output_it_cannot_write(tmp_path, out, words):
    assert_one_line_exit_2(plot_bench(str(RESULTS), "-o", str(tmp_path / out)), words)


def test_fit_wgmma_model_reads_the_default_variant_and_fixed_ones(tmp_path):
    sys.path.insert(0, str(ROOT / "scripts"))
    from fit_wgmma_model import read_tables
    table = tmp_path / "t.txt"
    table.write_text("wgmma_fp16[default]  fp16→fp32  4096³  0.1875  733\n"
                     "wgmma_fp16[CONSUMERS=1+BN=64+CLUSTER=1+STAGES=8+WAIT_DEPTH=1]  fp16→fp32  1×4096×14336  0.051  2.3\n"
                     "wgmma_fp16[CONSUMERS=1+BN=64+CLUSTER=1+STAGES=8]  fp16→fp32  1×4096×14336  0.052  2.3\n"
                     "wgmma_fp16[CONSUMERS=1+BN=192]  fp16→fp32  4096³  0.2  700\n"   # no rate: left out
                     "cublas  fp16→fp32  4096³  0.18  740\n")
    # one consumer without a slice in flight is not how a pick of it runs: left out
    assert read_tables([table]) == [((4096, 4096, 4096), {}, 187.5),
                                    ((1, 4096, 14336), {"CONSUMERS": 1, "BN": 64, "CLUSTER": 1, "STAGES": 8,
                                                        "WAIT_DEPTH": 1}, 51.0)]


def test_fit_wgmma_model_moves_only_the_constants_it_is_told(tmp_path):
    script = ROOT / "scripts" / "fit_wgmma_model.py"
    table = tmp_path / "t.txt"
    table.write_text("wgmma_fp16[default]  fp16→fp32  4096³  0.1875  733\n"
                     "wgmma_fp16[CONSUMERS=1+BN=128+CLUSTER=2+STAGES=8+WAIT_DEPTH=1]  fp16→fp32  4096³  0.25  550\n")
    out = subprocess.run([sys.executable, str(script), "--free", "1x128", str(table)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    rates = out.stdout.splitlines()[0]
    assert "(2, 256): 5.0" in rates and "(1, 256): 3.9" in rates and "LAUNCH_US = 5.8" in out.stdout
    bad = subprocess.run([sys.executable, str(script), "--free", "1x96", str(table)], capture_output=True, text=True)
    assert bad.returncode != 0 and "--free '1x96'" in bad.stderr and "1x128" in bad.stderr


@pytest.mark.parametrize("arg, words", [("bogus", "write KEY:MxNxK"), ("fp16:1x2", "KEY is one of"),
                                        ("fp99:8x8x8", "KEY is one of"), ("fp16:8x8x8:BN", "write KEY:MxNxK"),
                                        ("fp16:8x8x8:A_EDGE= 4", "write KEY:MxNxK"), ("fp16:0x8x8", "M must be"),
                                        ("fp16:72x8x8:A_EDGE=33", "A_EDGE=33"), ("fp16:8x8x8:NOPE=1", "NOPE")])
def test_sanitize_configs_refuses_a_problem_it_cannot_read(arg, words):
    """Every problem and its macros checked before a GPU is opened (here there is none: exit 2, not 3)."""
    p = script("sanitize_configs", arg)
    assert p.returncode == 2 and p.stderr.startswith("sanitize_configs: ") and words in p.stderr, p.stderr
    assert len(p.stderr.splitlines()) == 1 and "Traceback" not in p.stderr


def test_fit_wgmma_model_judges_the_pick_the_picker_would_make(tmp_path):
    """The fit's pick on a shape is wgmma_config's among the configurations timed there (its
    rules and tie-breaks), and a one-consumer row that says WAIT_DEPTH=0 is not how a pick runs."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from fit_wgmma_model import picks, read_tables
    from tcraw import kernels
    table = tmp_path / "t.txt"
    # 256×4096×4096: today's pick is one consumer × 128 columns in clusters of 2
    table.write_text("wgmma_fp16[BN=128+STAGES=6]  fp16→fp32  256×4096×4096  0.0204  420\n"
                     "wgmma_fp16[CONSUMERS=1+BN=128+CLUSTER=2+STAGES=8+WAIT_DEPTH=1]  fp16→fp32  256×4096×4096  0.0192  440\n"
                     "wgmma_fp16[CONSUMERS=1+BN=128+CLUSTER=1+STAGES=8+WAIT_DEPTH=1]  fp16→fp32  256×4096×4096  0.0190  450\n"
                     "wgmma_fp16[CONSUMERS=1+BN=128+CLUSTER=2+STAGES=8+WAIT_DEPTH=0]  fp16→fp32  256×4096×4096  0.0150  560\n")
    rows = read_tables([table])
    assert len(rows) == 3   # the WAIT_DEPTH=0 one-consumer row is left out
    chosen, fastest, config, best = picks(rows)[(256, 4096, 4096)]
    want = kernels.wgmma_config(256, 4096, 4096, 132)
    assert (config["CONSUMERS"], config["BN"], config["CLUSTER"]) == (want["CONSUMERS"], want["BN"], want["CLUSTER"])
    assert chosen == pytest.approx(19.2) and fastest == pytest.approx(19.0) and best["CLUSTER"] == 1


@pytest.mark.parametrize("argv, needle", [
    (["--variants"], "--variants names none"),
    (["--shapes", ""], "--shapes names no shape"),
    (["--shapes", "llm", "--sizes", "1024"], "--sizes and --shapes both"),
    (["--sizes", "1024,x"], "write positive integers"),
    (["--sizes", "0"], "write positive integers"),
    (["--iters", "0"], "--iters 0: must be at least 1"),
])
def test_tune_ladder_refuses_what_names_no_run_before_the_gpu(argv, needle):
    """No variant, an empty --shapes or both --sizes and --shapes (not a run of cuBLAS alone, the
    default sizes, or one of the two silently dropped), bad sizes or --iters: one line (as tcraw's
    own errors: run_main) and exit 2."""
    p = subprocess.run([sys.executable, str(ROOT / "scripts" / "tune_ladder.py"), *argv],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and p.stderr.startswith("tune_ladder: ") and needle in p.stderr, p.stderr
    assert len(p.stderr.splitlines()) == 1


@pytest.mark.skipif(__import__("tcraw.sass").sass.find_cuobjdump() is None,
                    reason="no cuobjdump here (the dev extra installs one)")
def test_sass_digests_tell_the_same_code_from_another(tmp_path):
    """scripts/sass_digests.py: a checkout's sources built again give the same digests (compare
    exits 0); one instruction changed — another copy of the source, a multiply for an add — is
    named and exits 1."""
    import json
    src = tmp_path / "cuda_src"
    src.mkdir()
    text = (ROOT / "cuda_src" / "01_naive_fp32.cu").read_text()
    (src / "01_naive_fp32.cu").write_text(text)
    here, copy = tmp_path / "here.json", tmp_path / "copy.json"
    for out, extra in ((here, []), (copy, ["--sources", str(src)])):
        p = script("sass_digests", "--kernels", "naive_fp32", "--arch", "sm_80", "--out", str(out), *extra)
        assert p.returncode == 0, p.stderr
    assert json.loads(here.read_text())["arch"] == "sm_80"
    assert list(json.loads(here.read_text())["configurations"]) == ["naive_fp32"]
    assert script("sass_digests", "--compare", str(here), str(copy)).returncode == 0
    changed = text.replace("acc += ", "acc *= ", 1)
    assert changed != text
    (src / "01_naive_fp32.cu").write_text(changed)
    assert script("sass_digests", "--kernels", "naive_fp32", "--arch", "sm_80", "--out", str(copy),
                  "--sources", str(src)).returncode == 0
    p = script("sass_digests", "--compare", str(here), str(copy))
    assert p.returncode == 1 and p.stdout.startswith("naive_fp32: ["), p.stdout
    sm90 = tmp_path / "sm90.json"   # (another arch's digests differ for that alone: refused, not compared)
    assert script("sass_digests", "--kernels", "naive_fp32", "--out", str(sm90)).returncode == 0
    p = script("sass_digests", "--compare", str(here), str(sm90))
    assert p.returncode == 2 and "was built for sm_80" in p.stderr and f"{sm90} for sm_90" in p.stderr


def test_draw_configs_draws_pairs_06_07_build_the_same_from_a_seed():
    """Every drawn pair is one 06/07 build and can run (refusals drawn again), the same pairs come
    from the same seed, and the draw reaches what no list does: widths between 64s, swapped tiles,
    clusters of 4, split-K and stream-K changed, every precision. Each pair spelt is an argument
    that names the same build again."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import draw_configs
    pairs, refused = draw_configs.draw(200, 72)
    assert draw_configs.draw(200, 72) == (pairs, refused) and draw_configs.draw(200, 73)[0] != pairs
    for key, shape, macros in pairs:
        kernel = draw_configs.runnable(key, shape, macros)   # (refused: raises)
        assert not kernel.max_m or shape[0] <= kernel.max_m   # (A_ROWS's, refused at launch)
        assert shape[0] * shape[1] * shape[2] <= draw_configs.MOST_MNK
        assert draw_configs.parse_pair(draw_configs.spelt(key, shape, macros)) == (key, shape, macros)
    assert {key for key, _, _ in pairs} == set(draw_configs.KEYS)
    drawn = [macros for _, _, macros in pairs]
    assert any(m["BN"] % 64 and not m["SWAP_AB"] for m in drawn) and any(m["SWAP_AB"] for m in drawn)
    assert any(m.get("COOP") and m["SWAP_AB"] for m in drawn) and any(m.get("COOP") and not m["SWAP_AB"] for m in drawn)
    for name, value in (("CLUSTER", 4), ("SPLIT_K", 0), ("STREAM_K_ROUNDS", 0), ("SHARE_A", 1), ("B_REALIGN", 1),
                        ("COOP", 2)):
        assert any(m.get(name) == value for m in drawn), name


@pytest.mark.parametrize("arg, words", [("fp16:8x8x8", "write KEY:MxNxK:MACRO=VALUE"),
                                        ("fp16:8x8:BN=64", "then M×N×K"), ("fp99:8x8x8:BN=64", "KEY is one of"),
                                        ("fp16:8x8x8:BN=+64", "write KEY:MxNxK"), ("fp16:0x8x8:BN=64", "M must be"),
                                        ("fp16:100x8x8:A_ROWS=8,CONSUMERS=1", "leave A_ROWS out"),
                                        ("fp16:8x8x8:BN=72", "BN a multiple of 16")])
def test_draw_configs_refuses_a_pair_it_cannot_run(arg, words):
    """A pair given is checked as the draw checks its own, before the GPU (here there is none)."""
    p = script("draw_configs", arg)
    assert p.returncode == 2 and p.stderr.startswith("draw_configs: ") and words in p.stderr, p.stderr
    assert len(p.stderr.splitlines()) == 1 and "Traceback" not in p.stderr


def test_a_script_whose_reader_leaves_ends_quietly():
    """`script | head`: run_main ends a script whose stdout closed with exit 0 and nothing on
    stderr, as the CLI does — not a BrokenPipeError's traceback."""
    p = subprocess.Popen([sys.executable, str(ROOT / "scripts" / "draw_configs.py"), "--count", "1500", "--seed", "1",
                          "--draw-only"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.stdout.readline().startswith(b"seed 1: 1500 pairs")
    p.stdout.close()   # (the rest, past a pipe's buffer, has no reader)
    assert p.wait(timeout=120) == 0 and p.stderr.read() == b""
