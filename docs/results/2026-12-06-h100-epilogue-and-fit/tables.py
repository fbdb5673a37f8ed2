"""Prints tables.txt from this folder's logs (run from the repository root):
python docs/results/2026-12-06-h100-epilogue-and-fit/tables.py"""
import csv
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent


def tiles():
    """run1_tiles_weak_survey9.txt's rows: {shape: {variant: (ms, × cuBLAS)}}, cuBLAS's as 'cublas'."""
    out = {}
    for line in (HERE / "run1_tiles_weak_survey9.txt").read_text().splitlines():
        m = re.match(r"^(cublas|wgmma_fp16\[(.*?)\])\s+fp16→fp32\s+(\S+)\s+([\d.]+)\s+[\d.]+\s+[\d.]+\s+([\d.]*)", line)
        if m:
            name = "cublas" if m.group(1) == "cublas" else m.group(2)
            out.setdefault(m.group(3), {})[name] = (float(m.group(4)), float(m.group(5) or 1))
    return out


def pipe():
    """run1_pipe.txt: (kernel, µs, tensor pipe %) in the order profiled."""
    rows, name = [], None
    for line in (HERE / "run1_pipe.txt").read_text().splitlines():
        if re.match(r"^  [a-zA-Z_].*\(", line):
            name = line.split()[0]
        elif "gpu__time_duration.sum" in line:
            us = float(line.split()[-1])
        elif "hmma_cycles_active" in line:
            rows.append((name, us, float(line.split()[-1])))
    return rows


def stall_regions():
    """Warp samples of run1_stalls_sass_*.csv by region of the SASS: the k-slice loop (from the
    first wait on a stage's full barrier to the MMAs' wait), the epilogue after it (to the last C
    store's barrier), and the rest."""
    rows = list(csv.reader(open(HERE / "run1_stalls_sass_1072x12136x1624.csv")))
    start = next(i for i, r in enumerate(rows) if r and r[0] == "Address")
    body = [(r[1].strip(), int(r[2] or 0)) for r in rows[start + 1:] if r[0].startswith("0x")]
    total = sum(n for _, n in body)
    trywait = next(i for i, (s, _) in enumerate(body) if "TRYWAIT" in s)
    mma_wait = next(i for i, (s, _) in enumerate(body) if "WARPGROUP.DEPBAR" in s)
    stores = [i for i, (s, _) in enumerate(body) if "BAR.SYNC" in s and i > mma_wait][:12]
    loop = body[trywait:mma_wait + 1]
    epilogue = body[mma_wait + 1:stores[-1] + 1]
    full_wait = sum(n for s, n in body[trywait:trywait + 2])
    return total, {
        "k-slice loop": sum(n for _, n in loop),
        "  of it, waiting for a stage's data (full barrier)": full_wait,
        "  of it, waiting for the MMAs (WARPGROUP.DEPBAR)": body[mma_wait][1],
        "epilogue (C through shared memory, TMA stores)": sum(n for _, n in epilogue),
        "the rest (producer, schedule, set-up)": total - sum(n for _, n in loop) - sum(n for _, n in epilogue)}


lines = ["06's tiles at three weak shapes (H100, fp16, median of 20; time ÷ the pick's, × cuBLAS)", ""]
for shape, rows in tiles().items():
    pick = rows["picked"][0]
    lines.append(f"{shape}: cuBLAS {rows['cublas'][0] * 1000:.1f} µs, the pick {pick * 1000:.1f} µs")
    for name, (ms, ratio) in rows.items():
        if name != "cublas":
            lines.append(f"  {name:62s} {ms / pick:6.3f}  {ratio:.3f}×")
    lines.append("")
lines.append("C_BUFS (eb68c4d, not merged): time with 3 or 4 C boxes ÷ with 2, same tile")
for shape, rows in tiles().items():
    for name, (ms, _) in rows.items():
        if "+C_BUFS=" in name:
            twin = re.sub(r"\+C_BUFS=\d", "", name)
            lines.append(f"  {shape:16s} {name:55s} {ms / rows[twin][0]:.3f}")
lines += ["", "Nsight Compute (one launch each; clocks not locked): kernel, µs, tensor pipe busy % of elapsed"]
lines += [f"  {name:52s} {us:7.2f}  {pct:5.1f}" for name, us, pct in pipe()]
total, regions = stall_regions()
lines += ["", f"06's pick at 1072×12136×1624: warp samples by region ({total} samples)"]
lines += [f"  {name:52s} {n:6d}  {100 * n / total:5.1f} %" for name, n in regions.items()]
text = "\n".join(lines) + "\n"
(HERE / "tables.txt").write_text(text)
print(text, end="")
