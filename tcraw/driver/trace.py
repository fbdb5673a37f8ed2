"""--trace / TCRAW_TRACE=1: print every seam call as it happens — name, arguments, result, µs.

A wrapper over any backend, so both print the same lines and a learner sees the exact flow:
    [tcraw] cuMemAlloc(nbytes=2097152) -> 0x7f3a00000000  (3.1 µs)
"""

import sys
import time

from . import PREPARED, SEAM_CALLS, Backend

# Arguments (and results) that are addresses or handles read best in hex.
HEX = {"ptr", "dst", "src", "dst_addr", "src_addr", "params_addr", "prog", "fn", "mod", "ctx", "ev",
       "start", "end"}
RETURNS_HANDLE = {"mem_alloc": "ptr", "primary_ctx_retain": "ctx", "module_load_data": "mod",
                  "module_get_function": "fn", "event_create": "ev", "nvrtc_create_program": "prog"}


def _show(name, value):
    if isinstance(value, (bytes, bytearray)):
        return f"<{len(value)} bytes>"
    if isinstance(value, str) and len(value) > 60:
        return f"<{len(value)} chars>"
    if isinstance(value, int) and name in HEX:
        return hex(value)
    if hasattr(value, "getPtr"):  # a cuda.bindings handle object
        return f"{type(value).__name__}({int(value.getPtr()):#x})"
    return repr(value)


class Traced(Backend):
    def __init__(self, inner, stream=None):
        self.inner, self.name, self.stream = inner, inner.name, stream

    def __getattribute__(self, attr):
        if attr not in SEAM_CALLS:
            return object.__getattribute__(self, attr)
        inner_fn = getattr(object.__getattribute__(self, "inner"), attr)
        stream = object.__getattribute__(self, "stream") or sys.stderr
        varnames = inner_fn.__code__.co_varnames[1:inner_fn.__code__.co_argcount]

        if attr in PREPARED:  # trace each call the prepared callable makes, not its making
            def prepare(*args):
                go = inner_fn(*args)
                shown = ", ".join(f"{n}={_show(n, v)}" for n, v in zip(varnames, args))
                return lambda: _traced_call(SEAM_CALLS[attr], shown, go, (), "", stream)
            return prepare

        def call(*args):
            shown = ", ".join(f"{n}={_show(n, v)}" for n, v in zip(varnames, args))
            return _traced_call(SEAM_CALLS[attr], shown, inner_fn, args, RETURNS_HANDLE.get(attr, ""), stream)
        return call


def _traced_call(call_name, shown, fn, args, result_name, stream):
    t0 = time.perf_counter()
    try:
        result = fn(*args)
    except Exception as exc:
        us = (time.perf_counter() - t0) * 1e6
        print(f"[tcraw] {call_name}({shown}) -> {type(exc).__name__}: "
              f"{(str(exc).splitlines() or [''])[0]}  ({us:.1f} µs)", file=stream, flush=True)
        raise
    us = (time.perf_counter() - t0) * 1e6
    res = "" if result is None else " -> " + _show(result_name, result)
    print(f"[tcraw] {call_name}({shown}){res}  ({us:.1f} µs)", file=stream, flush=True)
    return result

