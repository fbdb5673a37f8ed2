"""The seam's interface, its two backends and the tracer agree by construction (CPU)."""

import io
import re

import pytest

from tcraw.driver import PREPARED, SEAM_CALLS, Backend
from tcraw.driver.trace import Traced


def public_methods(cls):
    return {n for n, v in vars(cls).items() if callable(v) and not n.startswith("_")}


def test_every_method_of_the_interface_is_a_seam_call():
    assert public_methods(Backend) == set(SEAM_CALLS)
    assert all(re.fullmatch(r"(cu|nvrtc)[A-Z]\w+", c) for c in SEAM_CALLS.values())


@pytest.mark.parametrize("module,cls", [("tcraw.driver.bindings", "BindingsBackend"),
                                        ("tcraw.driver.ctypes_backend", "CtypesBackend")])
def test_each_backend_implements_every_seam_call(module, cls):
    impl = getattr(pytest.importorskip(module), cls)
    missing = [n for n in SEAM_CALLS if getattr(impl, n) is getattr(Backend, n)]
    assert not missing, f"{cls} lacks {missing}"


class Recorder(Backend):
    """A backend whose every seam call records its name and returns a value."""

    name = "recorder"

    def __init__(self):
        self.called = []


def _recording(method):
    def call(self, *args):
        self.called.append(method)
        return (lambda: self.called.append("go")) if method in PREPARED else 7
    return call


for _name in SEAM_CALLS:
    setattr(Recorder, _name, _recording(_name))


def test_the_tracer_prints_every_seam_call_once_with_its_driver_name():
    inner, out = Recorder(), io.StringIO()
    traced = Traced(inner, stream=out)
    for name in SEAM_CALLS:
        result = getattr(traced, name)(1, 2)
        if name in PREPARED:
            result()
    assert inner.called == [n for name in SEAM_CALLS for n in ([name, "go"] if name in PREPARED else [name])]
    lines = out.getvalue().splitlines()
    assert [line.split("(")[0] for line in lines] == [f"[tcraw] {SEAM_CALLS[n]}" for n in SEAM_CALLS]
