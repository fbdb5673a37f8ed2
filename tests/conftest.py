import hashlib
import os
import shutil
import tempfile

import pytest

from tcraw import kernels
from tcraw.errors import NoDeviceError

# Tests compile through NVRTC for real: give them a cache of their own, not the user's, and
# remove it when the session ends (unless TCRAW_CACHE_DIR named one to keep).
_OWN_CACHE = None if os.environ.get("TCRAW_CACHE_DIR", "").strip() else tempfile.mkdtemp(prefix="tcraw-test-cache-")
if _OWN_CACHE:
    os.environ["TCRAW_CACHE_DIR"] = _OWN_CACHE


def pytest_unconfigure(config):
    if _OWN_CACHE:
        shutil.rmtree(_OWN_CACHE, ignore_errors=True)


@pytest.hookimpl(trylast=True)   # after -k / -m have deselected theirs: shards of what is left
def pytest_collection_modifyitems(config, items):
    """TCRAW_TEST_SHARD=i/n keeps every n-th test from the i-th (1-based), so that the GPU tests
    (tests/test_gpu.py: 562 of its 1154 in 560 s on the H200, 2026-12-01 — about 19 minutes in
    all) can run as n calls of a limited length; the n shards together are the whole run. Unset:
    every test."""
    shard = os.environ.get("TCRAW_TEST_SHARD", "").strip()
    if not shard:
        return
    i, _, n = shard.partition("/")
    if not (f"{i}{n}".isascii() and i.isdigit() and n.isdigit() and 1 <= int(i) <= int(n)):
        raise pytest.UsageError(f"TCRAW_TEST_SHARD={shard!r}: write i/n with 1 ≤ i ≤ n, e.g. 2/3")
    i, n = int(i), int(n)
    # Shards are positions in the collection: shards run from two commits whose tests differ do
    # not add up to either run. Each says which collection it cut, so that shows in their logs.
    total, digest = len(items), hashlib.sha1("\n".join(t.nodeid for t in items).encode()).hexdigest()[:12]
    config.hook.pytest_deselected(items=[t for j, t in enumerate(items) if j % n != i - 1])
    items[:] = items[i - 1::n]
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(f"TCRAW_TEST_SHARD={i}/{n}: {len(items)} of a collection of {total} tests, {digest}")


@pytest.fixture(scope="session", params=["bindings", "ctypes"])
def device(request):
    """GPU 0 through each backend, or a skip that says why there is none (never a vacuous pass)."""
    from tcraw.runtime import Device
    try:
        dev = Device(0, backend=request.param)
    except NoDeviceError as exc:
        pytest.skip(f"no CUDA GPU: {exc}")
    yield dev
    dev.close()


@pytest.fixture(scope="session")
def cubins(device):
    """Each kernel compiled once for the GPU in hand."""
    from tcraw import compiler, kernels
    return {k.name: compiler.compile_cubin(k, device.arch, device.drv) for k in kernels.KERNELS.values()
            if not k.device_refusal(device)}


import secrets  # noqa: E402

# Fresh random inputs every session; TCRAW_TEST_SEED=<n> replays one.
SEED = int(os.environ.get("TCRAW_TEST_SEED") or secrets.randbits(31))


def pytest_report_header(config):
    return f"tcraw input seed: {SEED} (replay with TCRAW_TEST_SEED={SEED})"


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """The seed again at the end, where -q (make test) shows it too: a failure can be replayed."""
    terminalreporter.write_line(f"tcraw input seed: {SEED} (replay with TCRAW_TEST_SEED={SEED})")


@pytest.fixture(scope="session")
def host_problems():
    """HostProblem per (precision, m, n, k, mode), built once per session."""
    from tcraw.precision import PRECISIONS, base_matrices, host_problem
    cache = {}

    def get(key, m, n, k, mode):
        if (key, m, n, k, mode) not in cache:
            a, b = base_matrices(m, n, k, mode, SEED + m * 7 + n * 13 + k * 17)
            cache[(key, m, n, k, mode)] = host_problem(PRECISIONS[key], a, b, mode)
        return cache[(key, m, n, k, mode)]
    return get


def bindings_nvrtc_mismatch():
    """Why the bindings backend cannot compile here, or None: in a CUDA 12 environment beside the
    default CUDA 13 wheels, cuda.bindings loads CUDA 13's NVRTC, which tcraw refuses to pair with
    the chosen toolchain's headers (the ctypes backend loads the right one by path)."""
    from tcraw.driver import _bindings_nvrtc_major
    from tcraw.toolchain import choose
    major, chosen = _bindings_nvrtc_major(), choose().major
    if major is not None and major != chosen:
        return f"cuda.bindings loads NVRTC {major}.x; the toolchain is CUDA {chosen}"
    return None


def wgmma_macros(defines):
    """06/07's tile macros from the defines a configuration is built with (a Kernel's, or a
    record's config split at its commas)."""
    return {**kernels.WGMMA_TILE, **{n: int(v) for n, _, v in (d.partition("=") for d in defines)
                                     if n in kernels.WGMMA_TILE}}
