"""Generated bad arguments: every one is exit 2 with one line on stderr, never a traceback.

Each case puts one bad value into an otherwise valid command line (in place, in the process, so a
few hundred cases take seconds). Arguments are checked before anything opens the GPU, so even on a
machine without one a bad argument is 2, not 3; the request is never half-done either: no case
may compile or launch anything.
"""

import random

import pytest

from tcraw.cli import main

SEED = 20261130

# option -> values that must be refused, per command that takes it
BAD_INT = ["0", "-1", "x", "", "1.5", "1e3", "nan", "0x10", "2147483648", "9" * 30]
BAD_COUNT = ["0", "-1", "x", "", "2.0", str(10**7)]
BAD_WARMUP = ["-1", "y", "", "3.0", str(10**7)]
BAD_LIST = [",", " ", ",,", "bogus", "all,bogus", "fp4", "FP16 ,nope"]
BAD_SIZES = [",", "0", "-4", "64,big", "1.5", "2147483648", "64,,-1", "", "nan"]
BAD_DEVICE = ["-1", "first", "", "1.0", "0,1"]
BAD_SEED = ["-1", "abc", "", "2.5", str(2**64)]
BAD_DIR = ["/proc/tcraw-cannot-write", "/dev/null/sub", ""]
BAD_PATHS = ["/nonexistent.py", "", "x" * 5000, "/etc", "/dev/null/x"]

OPTIONS = {
    "run": {"--size": BAD_INT, "-m": BAD_INT, "-n": BAD_INT, "-k": BAD_INT, "--iters": BAD_COUNT,
            "--warmup": BAD_WARMUP, "--seed": BAD_SEED, "--precision": BAD_LIST,
            "--kernel": BAD_LIST, "--device": BAD_DEVICE, "--inputs": ["zeros", ""],
            "--save": BAD_DIR, "--cubin-dir": ["/nonexistent/dir", "", "x" * 5000],
            "--spec": BAD_PATHS, "--source": BAD_PATHS, "--entry": ["f"], "--block": ["32"],
            "--smem": ["-1", "x"]},
    "sweep": {"--sizes": BAD_SIZES, "--iters": BAD_COUNT, "--warmup": BAD_WARMUP, "--seed": BAD_SEED,
              "--precision": BAD_LIST, "--kernel": BAD_LIST, "--device": BAD_DEVICE,
              "--out": BAD_DIR, "--inputs": ["ints"]},
    "bench": {"--sizes": BAD_SIZES, "--iters": BAD_COUNT, "--warmup": BAD_WARMUP, "--seed": BAD_SEED,
              "--precision": BAD_LIST + ["fp16acc16"], "--device": BAD_DEVICE + ["all"], "--out": BAD_DIR,
              "--shapes": ["", "squares", "/bin/ls", "x" * 5000, "/etc"], "--kernel": ["wmma_fp16acc16", "bogus"],
              "--spec": BAD_PATHS},
    "compile": {"--arch": BAD_LIST + ["sm_90f", "sm_80a", "sm_", "90x", "sm_7", "compute_"],
                "--kernel": BAD_LIST, "--device": ["-1", "x"], "--out": BAD_DIR},
    "check": {"--kernel": BAD_LIST, "--shapes": ["", ";", "1,2", "0,1,1", "a,b,c", "1,1,1;x"],
              "--seed": BAD_SEED, "--device": ["-1", "x"], "--timeout": ["0", "-5", "x"],
              "--precision": ["fp16", "bogus"], "--cubin-dir": ["/nonexistent/dir", "", "x" * 5000],
              "--spec": BAD_PATHS, "--source": BAD_PATHS, "--sanitize": ["sometimes"]},
    "profile": {"--kernel": BAD_LIST, "--size": BAD_INT, "--device": ["-1", "x"], "--timeout": ["0", "x"],
                "--clock-control": ["locked"], "--precision": ["fp16"], "--spec": BAD_PATHS,
                "--out": BAD_DIR, "--raw": BAD_DIR},
    "info": {"--device": ["-1", "x", ""]},
    "list": {"--format": ["xml", ""]},
    "cache": {"--format": ["yaml"]},
}
COMMON = {"--format": ["xml", "", "JSON"], "--backend": ["bogus", "", "cuda"]}
# A valid completion per command, so that the bad value is the only thing wrong.
VALID_TAIL = {"run": [], "sweep": [], "bench": [], "compile": ["--kernel", "naive_fp32", "--arch", "sm_90"],
              "check": ["--kernel", "naive_fp32"], "profile": ["--kernel", "naive_fp32"],
              "info": [], "list": [], "cache": ["info"]}


def cases():
    out = []
    for command, options in OPTIONS.items():
        for option, values in {**options, **COMMON}.items():
            for value in values:
                tail = [t for t in VALID_TAIL[command]]
                if option in tail:   # replace the valid value rather than give the option twice
                    i = tail.index(option)
                    del tail[i:i + 2]
                out.append([command, *tail, option, value])
    rng = random.Random(SEED)   # and pairs of bad values, drawn from a fixed seed
    for _ in range(60):
        command = rng.choice(list(OPTIONS))
        pool = list({**OPTIONS[command], **COMMON}.items())
        (o1, v1), (o2, v2) = rng.sample(pool, 2)
        tail = [t for t in VALID_TAIL[command]]
        for o in (o1, o2):   # replace a valid value rather than give the option twice
            if o in tail:
                i = tail.index(o)
                del tail[i:i + 2]
        out.append([command, *tail, o1, rng.choice(v1), o2, rng.choice(v2)])
    out += [["nope"], [], ["run", "--no-such-flag"], ["run", "--iters"], ["cache"], ["cache", "drop"],
            ["run", "--size", "64", "-m", "64"], ["run", "--save", "x", "--isolate"]]
    return out


@pytest.fixture(autouse=True)
def no_gpu_work(monkeypatch):
    """Bad arguments must be refused before any device, compile or run: fail loudly otherwise."""
    import tcraw.cli as cli
    import tcraw.compiler as compiler

    def touched(*_a, **_k):
        raise AssertionError("a bad argument reached the GPU or the compiler")
    monkeypatch.setattr(cli, "_open_device", touched)
    monkeypatch.setattr(compiler, "compile_cubin", touched)


@pytest.mark.parametrize("argv", cases(), ids=lambda a: " ".join(a)[:80] or "<none>")
def test_bad_arguments_exit_2_with_one_line(argv, capsys):
    rc = main(argv)
    err = capsys.readouterr().err
    assert rc == 2, f"exit {rc}: {err}"
    lines = err.strip().splitlines()
    assert lines and lines[-1].startswith("tcraw: "), err
    assert "Traceback" not in err and "internal error" not in err
