"""Whether a change to cuda_src/ leaves kernels' code as it was: each configuration of the named
kernels (the registry's and every one it can pick) built with NVRTC for one arch on this machine
(no GPU needed), its SASS (cuobjdump, the dev extra) reduced to a digest of its instructions at
their addresses, beside its registers and spilled bytes.

    python scripts/sass_digests.py --out main.json [--kernels wgmma_tma_fp16,wgmma_tma_bf16] [--arch sm_90]
    python scripts/sass_digests.py --out old.json --sources /tmp/old/cuda_src   # another checkout's sources
    python scripts/sass_digests.py --compare old.json main.json

--compare prints each configuration whose digest, registers or spills differ (and those only one
side has) and exits 1 if any does: the same digests are the same instructions, one for one. A file
records the arch it was built for; two files of different archs are refused, not compared.
"""
import argparse
import hashlib
import json
import re
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tcraw import compiler, kernels, sass, validate   # noqa: E402
from tcraw.errors import MissingToolError, UsageError, run_main   # noqa: E402

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
                raise MissingToolError("cuobjdump gave no SASS: none is here, or it failed (the dev extra installs "
                                       "one; TCRAW_CUOBJDUMP names another)")
            code = sass.entry_sass(text, kernel.entry)
            if code is None:
                raise MissingToolError(f"cuobjdump's SASS of {kernel.file_stem} has no {kernel.entry}")
            out[kernel.file_stem] = [digest(code), cubin.registers, cubin.spill_bytes]
    return out


def read(path):
    """(arch or None, {stem: [digest, registers, spills]}) of a digest file --out wrote (one written
    before files recorded their arch: the configurations alone, arch None)."""
    try:
        found = json.loads(Path(path).read_text())
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise UsageError(f"--compare {path}: cannot read it as JSON ({getattr(exc, 'strerror', None) or exc})") \
            from None
    arch, configurations = (found.get("arch"), found.get("configurations")) if isinstance(found, dict) and \
        "configurations" in found else (None, found)
    if not (isinstance(configurations, dict) and all(isinstance(v, list) for v in configurations.values())):
        raise UsageError(f"--compare {path} is no digest file (sass_digests.py --out writes them)")
    return arch, configurations


def compare(a, b):
    """Lines for each configuration that differs between the digest files ``a`` and ``b``."""
    (arch_a, left), (arch_b, right) = read(a), read(b)
    if arch_a and arch_b and arch_a != arch_b:
        raise UsageError(f"--compare: {a} was built for {arch_a} and {b} for {arch_b}; compare files of one arch")
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
    if args.compare and args.out:
        raise UsageError("give --compare A B (two digest files) or --out FILE (digests to write), not both")
    if args.compare:
        differ = compare(*args.compare)
        print("\n".join(differ) or f"the same: every configuration of {args.compare[0]} and {args.compare[1]}")
        sys.exit(1 if differ else 0)
    if not args.out:
        parser.error("--out FILE (or --compare A B)")
    names = validate.names([args.kernels], "--kernels")
    arch = compiler.parse_archs(args.arch)
    if len(arch) != 1:
        raise UsageError(f"--arch {args.arch!r}: one arch, e.g. sm_90")
    out = Path(args.out)
    if out.is_dir() or not out.parent.is_dir():   # (before minutes of builds, not after)
        raise UsageError(f"--out {out}: {'a directory' if out.is_dir() else 'its directory does not exist'}; "
                         "give a file path whose directory exists")
    found = digests(names, args.arch, args.sources)
    try:
        out.write_text(json.dumps({"arch": str(arch[0]), "configurations": found}, indent=1) + "\n")
    except OSError as exc:
        raise UsageError(f"--out {out}: cannot write it ({exc.strerror or exc})") from None
    print(f"{len(found)} configurations, {args.arch}, NVRTC {'.'.join(map(str, compiler.nvrtc_version()))}, "
          f"sources {args.sources or 'this checkout'}: {args.out}")


if __name__ == "__main__":
    run_main("sass_digests", main)
