"""The tables of this directory's README, from its raw files (run from the repository root):
every suite timed with the stream held while the timed launches are queued (runs 3, 4) against
the last stop's runs, the same suites unheld (docs/results/2026-12-01-h200-warm-floor-suites/,
runs 2, 3) — our time and cuBLAS's, each now against then —, and the shapes whose ratio moved
most.

    python docs/results/2026-12-01-h200-held-timing/held_table.py
"""
import math
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))
from tcraw.bench import parse_shapes   # noqa: E402

LAST = HERE.parent / "2026-12-01-h200-warm-floor-suites"
ALL = "square,skinny,long-k,odd,scripts/shapes/mid_m.txt,llm"   # the session part allsuites' --shapes


def groups(path):
    """[(shape, {kernel: ms})] of a bench table's rows, shape after shape, in order."""
    out = []
    for line in path.read_text().splitlines():
        fields = line.split()
        if len(fields) > 4 and "→" in fields[1] and ("×" in fields[2] or "³" in fields[2]):   # (not a summary)
            if not out or out[-1][0] != fields[2]:
                out.append((fields[2], {}))
            out[-1][1][fields[0]] = float(fields[3])
    return out


def by_suite(*files):
    """{(suite, shape): {kernel: ms}} of bench tables run with the --shapes given beside each file."""
    out = {}
    for path, shapes in files:
        suites = [suite for suite, _ in parse_shapes(shapes)]
        found = groups(path)
        assert len(found) == len(suites), (path, len(found), len(suites))
        out.update({(suite, shape): kernels for suite, (shape, kernels) in zip(suites, found)})
    return out


def geomean(values):
    return math.exp(sum(map(math.log, values)) / len(values))


def compare(runs):
    """Each suite's × cuBLAS geomean then → now per precision, and the ten shapes whose ratio moved
    most; ``runs``: {precision: (now's [(bench table, --shapes)], then's [(bench table, --shapes)])}."""
    moved = []
    for precision, (now_files, then_files) in runs.items():
        now, then = by_suite(*now_files), by_suite(*then_files)
        ours = f"wgmma_tma_{precision}"
        for suite in dict.fromkeys(suite for suite, _ in now):
            shapes = [key for key in now if key[0] == suite]
            ratio = {key: now[key]["cublas"] / now[key][ours] for key in shapes}
            ratio_then = {key: then[key]["cublas"] / then[key][ours] for key in shapes}
            worst = min(shapes, key=ratio.get)
            below = [key[1] for key in shapes if ratio[key] < 0.85]
            print(f"  {precision} {suite:>7} ({len(shapes):2} shapes): {geomean(ratio_then.values()):.3f} → "
                  f"{geomean(ratio.values()):.3f}× (worst {ratio[worst]:.3f}× at {worst[1]}; below 0.85×: "
                  f"{', '.join(below) or 'none'}); our time {geomean([now[k][ours] / then[k][ours] for k in shapes]):.3f}× "
                  f"then's, cuBLAS's {geomean([now[k]['cublas'] / then[k]['cublas'] for k in shapes]):.3f}×")
            moved += [(ratio[k] / ratio_then[k], precision, k, then[k], now[k], ours) for k in shapes]

    print("\nthe ten shapes whose ratio moved most (µs then → now, ours and cuBLAS's)")
    for change, precision, (suite, shape), then, now, ours in sorted(moved, key=lambda m: -abs(math.log(m[0])))[:10]:
        print(f"  {precision} {suite:>6} {shape:>16}: × cuBLAS {then['cublas'] / then[ours]:.3f} → "
              f"{now['cublas'] / now[ours]:.3f}; ours {then[ours] * 1000:6.1f} → {now[ours] * 1000:6.1f} µs, cuBLAS "
              f"{then['cublas'] * 1000:6.1f} → {now['cublas'] * 1000:6.1f} µs")


# the runs of this directory (now) and the last stop's (then)
HELD = {"fp16": ([(HERE / "run3_all_suites_held_fp16.txt", ALL)], [(LAST / "run2_all_suites_fp16.txt", ALL)]),
        "bf16": ([(HERE / "run3_square_long_k_held_bf16.txt", "square,long-k"),
                  (HERE / "run4_other_suites_held_bf16.txt", "skinny,odd,scripts/shapes/mid_m.txt,llm")],
                 [(LAST / "run3_all_suites_bf16.txt", ALL)])}


def main():
    print("every suite, 06's picks, × cuBLAS geomean (worst): the last stop unheld → now held;")
    print("our time and cuBLAS's now against then, geomean over the suite's shapes")
    compare(HELD)


if __name__ == "__main__":
    main()
