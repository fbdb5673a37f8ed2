"""tune_ladder.py with the tensor maps' L2 promotion set per operand: a probe of what the
promotion (tcraw.driver.constants.TENSOR_MAP_L2_PROMOTION_256B in every map tcraw encodes) costs
or saves. --inputs sets it for the maps of A and B (fp16 or bf16), --output for C's (fp32):
0 none, 1 64 bytes, 2 128 bytes, 3 256 bytes (CUtensorMapL2promotion). The rest of the arguments
are tune_ladder.py's; run one promotion per process, each its own call.

    python scripts/promotion_probe.py --inputs 3 --output 0 -- --family wgmma --shapes FILE --variants picked
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import tune_ladder  # noqa: E402
from tcraw.driver import bindings, constants, ctypes_backend  # noqa: E402
from tcraw.errors import run_main  # noqa: E402


def promoting(inputs, output):
    """Both backends' tensor_map_encode_tiled, wrapped: the promotion their module reads at the
    call is ``output`` for fp32 maps (C, for 16-bit inputs) and ``inputs`` for the others."""
    for module, cls in ((bindings, bindings.BindingsBackend), (ctypes_backend, ctypes_backend.CtypesBackend)):
        def encode(self, dtype, *args, _module=module, _encode=cls.tensor_map_encode_tiled):
            _module.TENSOR_MAP_L2_PROMOTION_256B = output if dtype == constants.TMA_FP32[0] else inputs
            try:
                return _encode(self, dtype, *args)
            finally:
                _module.TENSOR_MAP_L2_PROMOTION_256B = constants.TENSOR_MAP_L2_PROMOTION_256B
        cls.tensor_map_encode_tiled = encode


def main():
    argv = sys.argv[1:]
    ours, theirs = (argv[:argv.index("--")], argv[argv.index("--") + 1:]) if "--" in argv else (argv, [])
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--inputs", type=int, choices=range(4), default=3, help="A's and B's maps' promotion")
    ap.add_argument("--output", type=int, choices=range(4), default=3, help="C's map's promotion")
    args = ap.parse_args(ours)
    promoting(args.inputs, args.output)
    print(f"# L2 promotion: A and B {args.inputs}, C {args.output} (CUtensorMapL2promotion)")
    sys.argv = [sys.argv[0], *theirs]
    tune_ladder.main()


if __name__ == "__main__":
    run_main("promotion_probe", main)
