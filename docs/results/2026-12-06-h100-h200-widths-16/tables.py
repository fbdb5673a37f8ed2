"""Prints tables.txt from this folder's logs (run from the repository root):
python docs/results/2026-12-06-h100-h200-widths-16/tables.py"""
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))
from tcraw import kernels, wgmma   # noqa: E402  (the model as this tree has it)
# kernel, precision, shape, median ms, TFLOP/s, % peak, × cuBLAS (none on cuBLAS's row), errors, check
ROW = re.compile(r"^(cublas|wgmma_\w+\[(.*?)\])\s+\S+→\S+\s+(\S+)\s+([\d.]+)\s+[\d.]+\s+[\d.]+\s+([\d.]*)"
                 r"\s+\S+\s+\S+\s+(\S+)")


def rows(name):
    """A tune_ladder log's rows: {shape: {variant: (ms, × cuBLAS, check)}} (cuBLAS's as 'cublas')."""
    out = {}
    path = HERE / name
    for line in path.read_text().splitlines() if path.exists() else []:
        if (m := ROW.match(line)):
            variant = "cublas" if m.group(1) == "cublas" else m.group(2)
            out.setdefault(m.group(3), {})[variant] = (float(m.group(4)), float(m.group(5) or 1), m.group(6))
    return out


def geomean(xs):
    product = 1.0
    for x in xs:
        product *= x
    return product ** (1 / len(xs)) if xs else float("nan")


lines = ["Run 2: 06's tiles of widths in 16s beside those of 64s (H100, fp16, median of 10; time ÷ the same",
         "rows' tile of the next multiple of 64, × cuBLAS; measured ÷ the model's µs, wgmma_model_us)", ""]
base = {"CONSUMERS=3+BN=176+CLUSTER=2+STAGES=3": "CONSUMERS=3+BN=192+CLUSTER=2+STAGES=3",
        "CONSUMERS=3+BN=144+CLUSTER=2+STAGES=3": "CONSUMERS=3+BN=192+CLUSTER=2+STAGES=3",
        "CONSUMERS=2+BN=176+CLUSTER=2+STAGES=4": "CONSUMERS=2+BN=256+CLUSTER=2+STAGES=4",
        "CONSUMERS=2+BN=224+CLUSTER=2+STAGES=4": "CONSUMERS=2+BN=256+CLUSTER=2+STAGES=4"}
for shape, got in rows("run2_widths16_fp16.txt").items():
    lines.append(f"{shape}: cuBLAS {got['cublas'][0] * 1000:.1f} µs")
    for variant, (ms, ratio, check) in got.items():
        if variant == "cublas":
            continue
        against = f"{ms / got[base[variant]][0]:.3f} of {base[variant].split('+')[1]}" if variant in base else ""
        model = ""
        if variant != "picked":
            m, n, k = (3000,) * 3 if "³" in shape else map(int, shape.split("×"))
            tile = {**kernels.WGMMA_TILE, **{a: int(b) for a, b in (x.split("=") for x in variant.split("+"))}}
            model = f"measured/model {ms * 1000 / wgmma.wgmma_model_us(m, n, k, 132, tile)[0]:.3f}"
        lines.append(f"  {variant:40s} {ms * 1000:7.1f} µs  {ratio:.3f}×  {check}  {model:22s}  {against}")
    lines.append("")

for run, precision in ((3, "fp16"), (4, "bf16")):
    new, old = (rows(f"run{run}_widths16_fresh_{precision}_{tree}.txt") for tree in ("new", "old"))
    if not new:
        continue
    lines += [f"Run {run} (H200, {precision}, median of 10): the pick (192-row tiles of 176, 160, 144 weighed over the",
              "ranking's) against the last tree's, each in its own process; × cuBLAS against that process's own",
              "cuBLAS (which ran at 80–200 TFLOP/s here: the README)", ""]
    times, x_new, x_old, cublas = [], [], [], []
    for shape, got in new.items():
        (ms, ratio, check), (old_ms, old_ratio, old_check) = got["picked"], old[shape]["picked"]
        times.append(ms / old_ms)
        m, n, k = map(int, shape.split("×"))
        cublas.append(2 * m * n * k / got["cublas"][0] / 1e9)   # (TFLOP/s)
        x_new.append(ratio)
        x_old.append(old_ratio)
        lines.append(f"  {shape:16s} new {ms * 1000:7.1f} µs {ratio:.3f}× {check}   old {old_ms * 1000:7.1f} µs "
                     f"{old_ratio:.3f}× {old_check}   time new/old {ms / old_ms:.3f}")
    lines += [f"  geomean: time new/old {geomean(times):.3f}; × cuBLAS {geomean(x_old):.3f} → {geomean(x_new):.3f}; "
              f"less time at {sum(t < 1 for t in times)} of {len(times)}",
              f"  cuBLAS in the new tree's process: {min(cublas):.0f}–{max(cublas):.0f} TFLOP/s", ""]
(HERE / "tables.txt").write_text("\n".join(lines) + "\n")
print("\n".join(lines))
