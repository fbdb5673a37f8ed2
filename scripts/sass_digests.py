"""Whether a change to cuda_src/ leaves kernels' code as it was: each configuration of the named
kernels (the registry's and every one it can pick) built with NVRTC for one arch on this machine
(no GPU needed), its SASS (cuobjdump, the dev extra) reduced to a digest of its instructions at
their addresses, beside its registers and spilled bytes.

    python scripts/sass_digests.py --out main.json [--kernels wgmma_tma_fp16,wgmma_tma_bf16] [--arch sm_90]
    python scripts/sass_digests.py --out old.json --sources /tmp/old/cuda_src   # another checkout's sources
    python scripts/sass_digests.py --compare old.json main.json

--compare prints each configuration whose digest, registers or spills differ (and those only one
side has) and exits 1 if any does: the same digests are the same instructions, one for one.
"""
import argparse
import hashlib
import json
import re
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tcraw import compiler, kernels, sass   # noqa: E402
from tcraw.errors import run_main           # noqa: E402

# An instruction line of cuobjdump's SASS: "/*0a70*/  HGMMA.64x256x16.F32 gdesc[UR4], RZ, !UPT ;"
# (its encoding, on the next line, carries no address and is left out with the headers)
INSTRUCTION = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")


def digest(text):
    """sha256 (16 hex digits) of the instructions, each with its address, of cuobjdump's ``text``."""
    code = "\n".join(" ".join(m.groups()) for m in INSTRUCTION.finditer(text))
    return hashlib.sha256(code.encode()).hexdigest()[:16]


def digests(names, arch, sources=None):
    """{configuration's file stem: [digest, registers, spill bytes]} for the kernels ``names``."""
    out = {}
    for name in names:
        base = kernels.get_kernel(name)
        for kernel in [base, *base.configurations()]:
            if kernel.source != base.source:   # (06's small-M picks are 09's and 10's code)
                continue
            if sources:   # (an absolute path: its "name" includes are read beside it)
                kernel = replace(kernel, source=str(Path(sources).resolve() / kernel.source))
            cubin = compiler.compile_cubin(kernel, arch)
            text = sass.dump_sass(cubin.image)
            if text is None:
                raise SystemExit("sass_digests: no cuobjdump here (the dev extra installs one)")
            code = sass.entry_sass(text, kernel.entry)
            if code is None:
                raise SystemExit(f"sass_digests: cuobjdump's SASS of {kernel.file_stem} has no {kernel.entry}")
            out[kernel.file_stem] = [digest(code), cubin.registers, cubin.spill_bytes]
    return out


def compare(a, b):
    """Lines for each configuration that differs between the digest files ``a`` and ``b``."""
    left, right = (json.loads(Path(p).read_text()) for p in (a, b))
    return [f"{stem}: {left.get(stem)} vs {right.get(stem)}" for stem in sorted({*left, *right})
            if left.get(stem) != right.get(stem)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kernels", default="wgmma_tma_fp16,wgmma_tma_bf16")
    parser.add_argument("--arch", default="sm_90")
    parser.add_argument("--sources", help="another checkout's cuda_src/ to build instead of this one's")
    parser.add_argument("--out", help="where the digests go (JSON)")
    parser.add_argument("--compare", nargs=2, metavar=("A", "B"), help="two digest files: what differs")
    args = parser.parse_args()
    if args.compare:
        differ = compare(*args.compare)
        print("\n".join(differ) or f"the same: every configuration of {args.compare[0]} and {args.compare[1]}")
        sys.exit(1 if differ else 0)
    if not args.out:
        parser.error("--out FILE (or --compare A B)")
    found = digests([k.strip() for k in args.kernels.split(",") if k.strip()], args.arch, args.sources)
    Path(args.out).write_text(json.dumps(found, indent=1) + "\n")
    print(f"{len(found)} configurations, {args.arch}, NVRTC {'.'.join(map(str, compiler.nvrtc_version()))}, "
          f"sources {args.sources or 'this checkout'}: {args.out}")


if __name__ == "__main__":
    run_main("sass_digests", main)
