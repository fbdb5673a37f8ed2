"""The house rules, checked: the seam is the only place a driver or NVRTC call happens, and the
package's modules import each other without a cycle (CPU)."""

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "tcraw"


def modules():
    return {".".join(p.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__"): p
            for p in PACKAGE.rglob("*.py")}


def code_without_strings(path):
    """(line number, text) of a file's code tokens: strings and comments dropped, so a message
    that names libcuda.so.1 is not mistaken for a call."""
    import io
    import tokenize
    lines = {}
    for tok in tokenize.generate_tokens(io.StringIO(path.read_text()).readline):
        if tok.type not in (tokenize.STRING, tokenize.COMMENT, tokenize.FSTRING_START, tokenize.FSTRING_MIDDLE,
                            tokenize.FSTRING_END) if hasattr(tokenize, "FSTRING_START") else \
                tok.type not in (tokenize.STRING, tokenize.COMMENT):
            lines.setdefault(tok.start[0], []).append(tok.string)
    return [(n, " ".join(parts)) for n, parts in sorted(lines.items())]


def test_no_driver_or_nvrtc_call_outside_the_seam():
    pattern = re.compile(r"cuda \. bindings|CDLL|\bcu[A-Z]\w+ \(|\bnvrtc[A-Z]\w+ \(")
    offenders = [f"{path.name}:{n}: {code}" for name, path in modules().items()
                 if not name.startswith("tcraw.driver") for n, code in code_without_strings(path)
                 if pattern.search(code)]
    assert not offenders, offenders
    assert code_without_strings(PACKAGE / "driver" / "bindings.py")   # the tokenizer sees code at all


def imports_at_load(path, name):
    """The package modules ``name`` imports when it is loaded (module level, not inside functions)."""
    found = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.ImportFrom) and node.level:
            base = name.split(".")[:len(name.split(".")) - node.level + (1 if path.name == "__init__.py" else 0)]
            target = ".".join(base + ([node.module] if node.module else []))
            found |= {target} | {f"{target}.{a.name}" for a in node.names}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("tcraw")}
    return found


def test_no_import_cycles():
    mods = modules()
    graph = {n: {m for m in imports_at_load(p, n) if m in mods and m != n} for n, p in mods.items()}
    graph.pop("tcraw", None)   # the package's __init__ gathers the public names: it imports everything
    for deps in graph.values():
        deps.discard("tcraw")
    state = {}

    def visit(n, path):
        if state.get(n) == "done":
            return
        assert state.get(n) != "open", " → ".join(path + [n])
        state[n] = "open"
        for m in sorted(graph.get(n, ())):
            visit(m, path + [n])
        state[n] = "done"
    for n in sorted(graph):
        visit(n, [])


def test_the_shards_of_a_test_run_are_the_whole_run_once():
    """TCRAW_TEST_SHARD=i/n (conftest): n shards of tests/test_gpu.py cover every test once; a bad
    shard is refused by name."""
    import os
    import subprocess
    import sys

    def collected(shard, *args):
        env = {**os.environ, "TCRAW_TEST_SHARD": shard}
        run = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                              str(PACKAGE.parent / "tests" / "test_gpu.py"), *args], capture_output=True, text=True,
                             env=env, cwd=PACKAGE.parent)
        return run.returncode, [line for line in run.stdout.splitlines() if "::" in line], run.stdout + run.stderr

    rc, whole, _ = collected("")
    shards = [collected(f"{i}/3") for i in (1, 2, 3)]
    assert rc == 0 and all(r == 0 for r, _, _ in shards) and len(whole) > 100
    assert sorted(t for _, tests, _ in shards for t in tests) == sorted(whole)
    assert all(abs(len(tests) - len(whole) / 3) < 1 for _, tests, _ in shards)
    # each names the collection it cut (its size and digest), the same for the three
    said = {re.search(r"TCRAW_TEST_SHARD=\d/3: \d+ of a collection of (\d+) tests, ([0-9a-f]{12})", text).groups()
            for _, _, text in shards}
    assert len(said) == 1 and int(next(iter(said))[0]) == len(whole)
    for bad in ("4/3", "²/3"):   # ("²" is a digit to str.isdigit, not to int())
        rc, _, text = collected(bad)
        assert rc != 0 and f"TCRAW_TEST_SHARD={bad!r}" in text and "Traceback" not in text
    # with -k, the shards split what -k keeps, evenly
    picked = [len(collected(f"{i}/3", "-k", "split_k")[1]) for i in (1, 2, 3)]
    assert sum(picked) == len(collected("", "-k", "split_k")[1]) > 3 and max(picked) - min(picked) <= 1
