"""Reads this folder's logs and prints tables.txt: run 2's Nsight Compute stall samples at
272×12376×9496 (06's pick and cuBLAS's kernel, H100) by instruction; run 3's picks with B's boxes
whole and split by rows of K (SPLIT_BOXES, H200); run 5's three consumers' fits with and without a
slice in flight (H200); run 4's survey (H200) shape by shape. Run from
the repository root:
python docs/results/2026-12-05-h100-h200-split-boxes-survey6/tables.py > docs/results/2026-12-05-h100-h200-split-boxes-survey6/tables.txt"""
import csv
import math
import re
from pathlib import Path

HERE = Path(__file__).parent
ROW = re.compile(r"^(cublas|wgmma_\w+\[(.*?)\])\s+\S+\s+(\d+×\d+×\d+)\s+([\d.]+)\s.*\bPASS\b")


def geomean(values):
    values = list(values)
    return math.exp(sum(map(math.log, values)) / len(values))


def stalls(name, top=12):
    """The instructions with the most stall samples in a source page (ncu --page source --csv)."""
    table = list(csv.reader(open(HERE / name)))
    head = table[1]
    src, ran, samples = (head.index(c) for c in ("Source", "Instructions Executed",
                                                  "Warp Stall Sampling (All Samples)"))
    lines = [r for r in table[2:] if len(r) > samples]
    total = sum(int(r[samples] or 0) for r in lines)
    print(f"# {name}: {table[0][1]}, {total} stall samples; the {top} instructions with the most")
    for r in sorted(lines, key=lambda r: -int(r[samples] or 0))[:top]:
        print(f"  {int(r[samples]):6d} {100 * int(r[samples]) / total:5.1f} %  ran {int(r[ran]):7d}  {r[src].strip()}")
    print()


def ladder(name):
    """{shape: {variant: µs}} from a tune_ladder log's table ('cublas' for cuBLAS), verified rows only."""
    table = {}
    for line in open(HERE / name):
        if (m := ROW.match(line)):
            table.setdefault(m[3], {})[m[2] or "cublas"] = float(m[4]) * 1000
    return table


def wait_depth():
    table = ladder("run5_three_wait_fp16.txt")
    print("# Run 5 (H200, fp16): three consumers' 144-wide picks, WAIT_DEPTH 1 (as picked then) and 0; µs, × cuBLAS")
    for shape, t in table.items():
        one, zero = t["picked"], t["picked+WAIT_DEPTH=0"]
        print(f"  {shape:16s} cuBLAS {t['cublas']:8.2f}  1: {one:8.2f} ({t['cublas'] / one:.3f})"
              f"  0: {zero:8.2f} ({t['cublas'] / zero:.3f})  0 / 1 {zero / one:.3f}")
    print(f"  geomean 0 / 1 {geomean(t['picked+WAIT_DEPTH=0'] / t['picked'] for t in table.values()):.3f}\n")


def split_boxes():
    table = {}
    for line in open(HERE / "run3_split_boxes_fp16.txt"):
        if (m := ROW.match(line)):
            table.setdefault(m[3], {})[m[2] or "cublas"] = float(m[4]) * 1000
    print("# Run 3 (H200, fp16): the picks with B's boxes whole and split by rows of K; µs, × cuBLAS")
    print(f"  {'shape':16s} {'cuBLAS':>8s} {'pick':>8s} {'split':>8s}  {'pick ×':>7s} {'split ×':>7s}  split / pick")
    for shape, t in table.items():
        p, s = t["picked"], t["picked+SPLIT_BOXES=1"]
        print(f"  {shape:16s} {t['cublas']:8.2f} {p:8.2f} {s:8.2f}  {t['cublas'] / p:7.3f} {t['cublas'] / s:7.3f}  {s / p:.3f}")
    print(f"  geomean split / pick {geomean(t['picked+SPLIT_BOXES=1'] / t['picked'] for t in table.values()):.3f}"
          f" over {len(table)} shapes\n")


PROGRESS = re.compile(r"^\s+wgmma_tma_\w+\s+(\d+×\d+×\d+)\s+[\d.]+ TFLOP/s\s+([\d.]+)× cuBLAS$")


def survey(precision):
    """× cuBLAS per shape from bench's progress lines (a ratio is printed only where both rows were
    verified; bf16's call was cut by its time limit before bench's table)."""
    ratios = {m[1]: float(m[2]) for line in open(HERE / f"run4_survey_{precision}.txt")
              if (m := PROGRESS.match(line.rstrip("\n")))}
    print(f"# Run 4 (H200, {precision}): {len(ratios)} shapes timed and verified, × cuBLAS, least first")
    for shape in sorted(ratios, key=ratios.get)[:12]:
        print(f"  {shape:18s} {ratios[shape]:.3f}")
    aligned = [r for s, r in ratios.items() if all(int(d) % 8 == 0 for d in s.split("×")[1:])]
    print(f"  geomean {geomean(ratios.values()):.3f}, below 0.85: {sum(r < 0.85 for r in ratios.values())}; "
          f"the {len(aligned)} with N and K multiples of 8 (nothing copied): {geomean(aligned):.3f}\n")
    return ratios


if __name__ == "__main__":
    stalls("run2_source_sass_wgmma.csv")
    stalls("run2_source_sass_nvjet.csv")
    split_boxes()
    wait_depth()
    fp16, bf16 = survey("fp16"), survey("bf16")
    common = [s for s in bf16 if s in fp16]
    print(f"# Run 4: fp16 on the {len(common)} shapes bf16 reached: geomean {geomean(fp16[s] for s in common):.3f} "
          f"(bf16 {geomean(bf16[s] for s in common):.3f})")
