"""The tables of this directory's README, from its raw files (run from the repository root):
192-row tiles (three consumers) beside the last stop's picks and 128×192 tiles (run 2); the rate
of 192×192 tiles swept on run 2's shapes and on fresh ones drawn after it was set (run 3), with
the last stop's pick and this stop's against the fastest of 11 configurations; how many picks of
two grids move; the final picks against cuBLAS (run 5, cut short by its time limit: the rows it
printed).

    python docs/results/2026-12-01-h200-rows-192/rows192_table.py
"""
import math
import random
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))
sys.path.insert(0, str(HERE.parents[2] / "scripts"))
from fit_wgmma_model import pick_grids, picker_at, table_rows   # noqa: E402

new = picker_at("2c7c9aa")   # this stop's picker as it left it, so the tables reproduce after later stops
old = picker_at("6dd4930")  # the last stop's picker


def key(config):
    """A configuration as the picker names one: (consumers, columns, cluster, shares A, turns)."""
    tile = {**new.WGMMA_TILE, **config}
    return tile["CONSUMERS"], tile["BN"], tile["CLUSTER"], tile["SHARE_A"], tile["PINGPONG"]


def name(k):
    cluster = {1: " c1", 2: " c2 A" if k[3] else " c2", 4: " 2×2" if k[3] else " 4×1"}[k[2]]
    return f"{64 * k[0] if not k[4] else k[4]}×{k[1]}{cluster}{' turns' if k[4] else ''}"


def timings(file):
    """{shape: {configuration key: µs}} of one tune_ladder table of fixed configurations."""
    out = {}
    for shape, config, us in table_rows([HERE / file]):
        out.setdefault(shape, {})[key(config)] = us
    return out


def dims(text):
    d = tuple(int(v) for v in text.replace("³", "").split("×"))
    return d * 3 if len(d) == 1 else d


def table(file, label):
    """{shape: (µs, configuration key)} of the table rows whose kernel column is ``label``
    (cublas's configuration key is None)."""
    out = {}
    for line in (HERE / file).read_text().splitlines():
        fields = line.split()
        if len(fields) > 9 and fields[0] == label and "→" in fields[1] and fields[-2] == "PASS" or \
                len(fields) > 9 and fields[0] == label and "PASS" in fields:
            config = fields[fields.index("PASS") + 1]
            config = {} if config.startswith("[") else dict((k, int(v)) for k, v in
                                                           (item.split("=") for item in config.split("+")))
            out[dims(fields[2])] = (float(fields[3]) * 1000, key(config) if label != "cublas" else None)
    return out


def streamed(file):
    """{(kernel, shape): × cuBLAS} of the lines tune_ladder and bench print as each shape is done
    (verified: a failed one prints FAILED)."""
    out = {}
    for line in (HERE / file).read_text().splitlines():
        m = re.match(r"\s*(\S+)\s+(\S+)\s+[\d.]+ TFLOP/s\s+([\d.]+)× cuBLAS", line)
        if m:
            out[m.group(1), dims(m.group(2))] = float(m.group(3))
    return out


def geomean(values):
    return math.exp(sum(map(math.log, values)) / len(values))


def fmt(shape):
    return "×".join(map(str, shape))


def run2():
    print("192-row tiles beside the last stop's picks (run 2, fp16, µs; × cuBLAS in brackets, each against the\n"
          "cuBLAS of its own process: the picks, then the fixed configurations):")
    t = timings("run2_rows192_fp16.txt")
    cublas = table("run2_rows192_picked_fp16.txt", "cublas")   # each file's own: the picks ran in a second process
    cublas_fixed = table("run2_rows192_fp16.txt", "cublas")
    picked = table("run2_rows192_picked_fp16.txt", "wgmma_fp16[picked]")
    forms = [(3, 192, 2, 0, 0), (3, 192, 1, 0, 0), (3, 192, 2, 1, 0), (3, 192, 4, 1, 0), (3, 128, 2, 0, 0),
             (2, 192, 2, 0, 0)]
    print(f"  {'shape':>15} {'last pick':>20} " + " ".join(f"{name(k):>11}" for k in forms))
    for shape, row in t.items():
        us, k = picked[shape]
        assert k == key(old.wgmma_config(*shape, 132)), (shape, k)   # the pick as it ran is the last stop's
        best3 = min(v for f, v in row.items() if f[0] == 3 and f[1] == 192)
        print(f"  {fmt(shape):>15} {name(k):>11} {us:6.1f} " + " ".join(f"{row[f]:11.1f}" for f in forms)
              + f"   best 192×192 {best3 / us - 1:+6.1%} ({cublas[shape][0] / us:.3f} → {cublas_fixed[shape][0] / best3:.3f}×)")


def rates():
    print("\nthe rate of 192×192 tiles (WGMMA_SM_TFLOPS[3, 192]): this stop's pick / fastest timed, geomean")
    saved = new.WGMMA_SM_TFLOPS[3, 192]
    for file, label in (("run2_rows192_fp16.txt", "run 2, the 17 shapes it was set on (with the last picks as run)"),
                        ("run3_rows192_fresh_fp16.txt", "run 3, 16 fresh shapes")):
        t = timings(file)
        if file.startswith("run2"):
            for shape, (us, k) in table("run2_rows192_picked_fp16.txt", "wgmma_fp16[picked]").items():
                t[shape].setdefault(k, us)
        cells = []
        for rate in (4.8, 4.9, 5.0, 5.1, 5.2):
            new.WGMMA_SM_TFLOPS[3, 192] = rate
            ratios = [row[k] / min(row.values()) for s, row in t.items() if (k := key(new.wgmma_config(*s, 132))) in row]
            cells.append(f"{rate}: {geomean(ratios):.3f}" + (f" ({len(ratios)} of {len(t)})" if len(ratios) < len(t) else ""))
        print(f"  {label}: " + ", ".join(cells))
    new.WGMMA_SM_TFLOPS[3, 192] = saved


def draw():
    """scripts/shapes/rows192_fresh.txt's draw, again (it must give the file's shapes)."""
    rng, on, off = random.Random(20261201), [], []
    while len(on) < 8 or len(off) < 8:
        m = rng.randrange(128, 8193)
        aligned = rng.random() < 0.5
        if aligned:
            n, k = 64 * rng.randrange(4, 160), 64 * rng.randrange(4, 128)
        else:
            n, k = 8 * rng.randrange(32, 1280), 8 * rng.randrange(32, 1024)
            if not new.wgmma_rows_off_lines(n, k, 2):
                continue
        if old.wgmma_config(m, n, k, 132) != new.wgmma_config(m, n, k, 132):
            (on if aligned else off).append((m, n, k))
    return on[:8] + off[:8]


def fresh():
    shapes = draw()
    listed = [tuple(int(v) for v in line.split(",")) for line in
              (HERE.parents[2] / "scripts/shapes/rows192_fresh.txt").read_text().splitlines() if line[:1].isdigit()]
    assert shapes == listed, "the fresh shapes no longer come from their draw"
    print("\nfresh shapes (run 3, fp16, 11 configurations): each pick's µs (its time / the fastest timed)")
    t = timings("run3_rows192_fresh_fp16.txt")
    change, r_old, r_new = [], [], []
    for shape in shapes:
        row, best = t[shape], min(t[shape].values())
        a, b = key(old.wgmma_config(*shape, 132)), key(new.wgmma_config(*shape, 132))
        fastest = min(row, key=row.get)
        r_old.append(row[a] / best)
        r_new.append(row[b] / best)
        change.append(row[b] / row[a])
        lines = "off" if new.wgmma_rows_off_lines(shape[1], shape[2], 2) else "on"
        print(f"  {fmt(shape):>15} (rows {lines})  last {name(a):>12} {row[a]:7.1f} ({row[a] / best:.3f})  "
              f"now {name(b):>12} {row[b]:7.1f} ({row[b] / best:.3f})  {row[b] / row[a] - 1:+6.1%}  "
              f"fastest {name(fastest):>12} {best:7.1f}")
    print(f"  geomean pick / fastest: last stop's {geomean(r_old):.3f}, this stop's {geomean(r_new):.3f}; this stop's "
          f"time against the last's {geomean(change):.3f} ({min(change) - 1:+.1%} to {max(change) - 1:+.1%})")


def grids():
    aligned, off = pick_grids()
    print()
    for label, grid in (("the earlier stops' grid (rows on 128-byte lines)", aligned),
                        ("the last stop's grid of rows mostly off 128-byte lines", off)):
        for elem in (2, 1, 4):
            picks = [(old.wgmma_config(*s, 132, elem), new.wgmma_config(*s, 132, elem)) for s in grid]
            moved = sum(a != b for a, b in picks)
            three = sum(b["CONSUMERS"] == 3 for a, b in picks)
            print(f"{label}, {elem}-byte inputs: {moved} of {len(grid)} picks move, {three} to 192-row tiles")


def final():
    print("\nfinal picks against cuBLAS (run 5, cut at its time limit; the rows it printed, each verified):")
    for file, kernel in (("run5_final_picked_rows192_fp16_cut_at_timeout.txt", "wgmma_fp16[picked]"),
                         ("run5_final_picked_rows192_bf16_cut_at_timeout.txt", "wgmma_bf16[picked]"),
                         ("run5_suites_fp16_cut_at_timeout.txt", "wgmma_tma_fp16"),
                         ("run5_suites_bf16_cut_at_timeout.txt", "wgmma_tma_bf16")):
        rows = {s: r for (k, s), r in streamed(file).items() if k == kernel}
        print(f"  {file}: {len(rows)} shapes, geomean {geomean(list(rows.values())):.3f}×, worst "
              f"{min(rows.values()):.3f}× ({fmt(min(rows, key=rows.get))})")
        if "suites" in file:
            square = [r for s, r in rows.items() if s[0] == s[1] == s[2]]
            print(f"    square suite (1024³–8192³): {len(square)} shapes, geomean {geomean(square):.3f}×, "
                  + ", ".join(f"{s[0]}³ {r:.3f}" for s, r in rows.items() if s[0] == s[1] == s[2]))


if __name__ == "__main__":
    run2()
    rates()
    fresh()
    grids()
    final()
