"""Run from the repository root: each variant's time over the pick's, shape by shape, from the
tune_ladder logs here (their table rows: kernel, precision, shape, median ms, ..., check)."""
from pathlib import Path

HERE = Path(__file__).parent
for log in sorted(HERE.glob("run*_*.txt")):
    if not any(part in log.name for part in ("_whole_k_", "_a_shift_", "_narrow_")) or "pytest" in log.name:
        continue   # (tune_ladder's logs only)
    rows = [r for r in map(str.split, log.read_text().splitlines())
            if len(r) > 3 and "→" in r[1] and r[0].startswith(("cublas", "wgmma_"))]
    assert rows and all("PASS" in r for r in rows), log.name
    times, order = {}, []
    for r in rows:
        name = r[0].split("[", 1)[1].removesuffix("]") if "[" in r[0] else r[0]
        times[name, r[2]] = float(r[3]) * 1000
        order += [name] if name not in order else []
    print(f"## {log.name}: µs (× the pick's time); the pick × cuBLAS")
    for shape in dict.fromkeys(r[2] for r in rows):
        picked = times["picked", shape]
        cells = [f"{times[n, shape]:.2f}" + ("" if n in ("cublas", "picked") else f" ({times[n, shape] / picked:.3f})")
                 for n in order]
        print(shape, *cells, f"{times['cublas', shape] / picked:.3f}", sep=" | ")
    print("columns:", *order, sep="\n  ")
    print()
