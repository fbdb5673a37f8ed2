"""Run from the repository root: each variant's time over the pick's, shape by shape, from run 2's
tune_ladder log (its table rows: kernel, precision, shape, median ms, ..., check)."""
from pathlib import Path

HERE = Path(__file__).parent
rows = [line.split() for line in (HERE / "run2_coop_unswapped_fp16.txt").read_text().splitlines()
        if line.startswith(("cublas ", "wgmma_fp16[")) and " PASS " in line]
assert rows and all("FAIL" not in r for r in rows)
times, order = {}, []
for r in rows:
    name = r[0].removeprefix("wgmma_fp16[").removesuffix("]")
    times[name, r[2]] = float(r[3]) * 1000
    if name not in order:
        order.append(name)
shapes = list(dict.fromkeys(r[2] for r in rows))
print("µs (× the pick's time)")
for shape in shapes:
    picked = times["picked", shape]
    cells = [f"{times[n, shape]:.2f}" + ("" if n in ("cublas", "picked") else f" ({times[n, shape] / picked:.3f})")
             for n in order]
    print(shape, *cells, sep=" | ")
print("columns:", *order, sep="\n  ")
