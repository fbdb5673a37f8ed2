"""md5 of the SASS instructions (cuobjdump, every line with an address, the address dropped) of 06/07
builds compiled for sm_90a by the tcraw on PYTHONPATH — to show two source trees build the same
code. `cooperative`: every configuration the registry's 06/07 kernels can pick; `pingpong`: the
PINGPONG builds this directory's runs timed. Run it once per tree and diff the outputs (the first
line names the tree):

    PYTHONPATH=/path/to/tree python docs/results/2026-12-01-h200-pingpong/sass_hashes.py cooperative
"""
import hashlib
import re
import sys

import tcraw
from tcraw import compiler, kernels, sass

ADDRESS = re.compile(r"\s*/\*[0-9a-f]{4,}\*/")
PINGPONG = [{"PINGPONG": 128, "BN": 128, "STAGES": 6}, {"PINGPONG": 64, "BN": 256, "STAGES": 4},
            {"PINGPONG": 128, "BN": 64, "STAGES": 8, "CLUSTER": 1}, {"PINGPONG": 64, "BN": 128, "STAGES": 8, "CLUSTER": 1},
            {"PINGPONG": 128, "BN": 128, "STAGES": 6, "WAIT_DEPTH": 0},
            {"PINGPONG": 128, "BN": 128, "STAGES": 6, "CLUSTER": 1}, {"PINGPONG": 64, "BN": 192, "STAGES": 6}]


def digest(kernel):
    text = sass.dump_sass(compiler.compile_cubin(kernel, "sm_90a").image)
    lines = [ADDRESS.sub("", line).strip() for line in text.splitlines() if ADDRESS.match(line)]
    return hashlib.md5("\n".join(lines).encode()).hexdigest(), len(lines)


def builds(which):
    if which == "cooperative":
        for name, kernel in kernels.KERNELS.items():
            if kernel.source.startswith(("06", "07")):
                for config in kernel.configurations():
                    if "PINGPONG" not in config.variant:
                        yield name, config
    else:
        for key in ("fp16", "bf16", "int8", "fp8e4m3bf16"):
            for tile in PINGPONG:
                yield key, kernels.wgmma_kernel(key, tile, choose=False)


def main():
    print("# tcraw from", tcraw.__file__)
    for name, kernel in builds(sys.argv[1] if len(sys.argv) > 1 else "cooperative"):
        print(name, kernel.variant or "(registry's)", *digest(kernel))


if __name__ == "__main__":
    main()
