"""The tables of this directory's README, from its raw files (run from the repository root):
every suite with the 10 ms warm-up floor (runs 2, 3) against the last stop's runs without it
(docs/results/2026-12-01-h200-long-k-clusters-of-4/, runs 4, 5) — our time and cuBLAS's, each
now against then —, the shapes left below 0.85× (run 3), and 06's pick against 128×256 tiles in
clusters of 2 on the fresh shapes where breaking the model's ties toward whole tiles only against
split-K would take those (run 5; run 4 timed 128×256 in clusters of 1 in another process).

    python docs/results/2026-12-01-h200-warm-floor-suites/warm_floor_table.py
"""
import math
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))
from tcraw.bench import parse_shapes   # noqa: E402

LAST = HERE.parent / "2026-12-01-h200-long-k-clusters-of-4"
SUITES = "square,skinny,long-k,odd,scripts/shapes/mid_m.txt,llm"   # the session part allsuites' --shapes


def groups(path):
    """[(shape, {kernel: (ms, configuration)})] of a bench table's rows, shape after shape, in order."""
    out = []
    for line in path.read_text().splitlines():
        fields = line.split()
        if len(fields) > 4 and "→" in fields[1] and ("×" in fields[2] or "³" in fields[2]):   # (not a summary)
            config = fields[-2] if fields[0] != "cublas" and not fields[-2].startswith(("PASS", "[")) else ""
            if not out or out[-1][0] != fields[2]:
                out.append((fields[2], {}))
            out[-1][1][fields[0]] = (float(fields[3]), config)
    return out


def by_suite(path):
    """{(suite, shape): {kernel: (ms, configuration)}} of an allsuites table (its rows follow the suites' order)."""
    suites = [suite for suite, _ in parse_shapes(SUITES)]
    found = groups(path)
    assert len(found) == len(suites), (path, len(found), len(suites))
    return {(suite, shape): kernels for suite, (shape, kernels) in zip(suites, found)}


def geomean(values):
    return math.exp(sum(map(math.log, values)) / len(values))


print("every suite, 06's picks, with the warm-up floor (now) and without (the last stop), × cuBLAS geomean (worst);")
print("our time and cuBLAS's now against then, geomean over the suite's shapes")
for precision, now_file, then_file in (("fp16", "run2_all_suites_fp16.txt", "run4_all_suites_fp16.txt"),
                                       ("bf16", "run3_all_suites_bf16.txt", "run5_all_suites_bf16.txt")):
    now, then = by_suite(HERE / now_file), by_suite(LAST / then_file)
    ours = f"wgmma_tma_{precision}"
    for suite in dict.fromkeys(suite for suite, _ in now):
        shapes = [key for key in now if key[0] == suite]
        ratio = {key: now[key]["cublas"][0] / now[key][ours][0] for key in shapes}
        ratio_then = [then[key]["cublas"][0] / then[key][ours][0] for key in shapes]
        worst = min(shapes, key=ratio.get)
        print(f"  {precision} {suite:>7} ({len(shapes):2} shapes): {geomean(ratio_then):.3f} → "
              f"{geomean(ratio.values()):.3f}× (worst {ratio[worst]:.3f}× at {worst[1]}); our time "
              f"{geomean([now[k][ours][0] / then[k][ours][0] for k in shapes]):.3f}× then's, cuBLAS's "
              f"{geomean([now[k]['cublas'][0] / then[k]['cublas'][0] for k in shapes]):.3f}×")
    square = [key for key in now if key[0] == "square"]
    first = ("square", "1024³")   # each call's first shape: the one an idle GPU's slow first launches fell on
    print(f"  {precision} 1024³, µs then → now: ours {then[first][ours][0] * 1000:.1f} → {now[first][ours][0] * 1000:.1f}, "
          f"cuBLAS {then[first]['cublas'][0] * 1000:.1f} → {now[first]['cublas'][0] * 1000:.1f}")
    print(f"  {precision} square, × cuBLAS now (then): " + ", ".join(
        f"{key[1]} {now[key]['cublas'][0] / now[key][ours][0]:.3f} ({then[key]['cublas'][0] / then[key][ours][0]:.3f})"
        for key in square))

print("\nshapes below 0.85× in an earlier stop, the picks again (run 3): µs, × cuBLAS, configuration")
for precision in ("fp16", "bf16"):
    for shape, kernels in groups(HERE / f"run3_below_085_{precision}.txt"):
        (ms, config), (cublas, _) = kernels[f"wgmma_tma_{precision}"], kernels["cublas"]
        print(f"  {precision} {shape:>16}: {ms * 1000:6.1f} µs against cuBLAS's {cublas * 1000:6.1f}: "
              f"{cublas / ms:.3f}×  {config}")

print("\nthe ties (run 5, one process): 06's pick against 128×256 in clusters of 2 (the alternative; at "
      "1895×12352×5568 it would be clusters of 1, run 4)")
alt_c1 = {shape: k["wgmma_fp16[CONSUMERS=2+BN=256+CLUSTER=1+SHARE_A=0]"][0]
          for shape, k in groups(HERE / "run4_tie_break_128x256_c2_c1_fp16.txt")}
moves, moves_c1 = [], []
for shape, kernels in groups(HERE / "run5_tie_break_pick_vs_128x256_c2_fp16.txt"):
    # (the table rows name the pick wgmma_tma_fp16: a configured kernel took the registry's name until
    #  Kernel.configured kept the spec's, after this run; its streamed lines say pick_fp16)
    (pick, config), (alt, _) = kernels["wgmma_tma_fp16"], kernels["c2_128x256_fp16"]
    moves.append(alt / pick)
    moves_c1.append((alt_c1[shape] if shape == "1895×12352×5568" else alt) / pick)
    print(f"  {shape:>16}: pick {pick * 1000:7.1f} µs ({config}), 128×256 c2 {alt * 1000:7.1f} µs: "
          f"{alt / pick - 1:+.1%} time" + (f"; c1 (run 4) {alt_c1[shape] * 1000:.1f} µs" if shape == "1895×12352×5568" else ""))
print(f"  the alternative's time against the pick's, geomean {geomean(moves):.3f} "
      f"({sum(m < 1 for m in moves)} of {len(moves)} faster); with 1895×12352×5568's own alternative, clusters "
      f"of 1 (run 4, another process), {geomean(moves_c1):.3f}")
