"""Reading scripts/tune_ladder.py's and `tcraw bench`'s logs as printed, for the tables scripts in
docs/results/ (each run from the repository root):

    rows(path)    {shape: {label: µs}} — label cublas, or the variant in brackets
    verified(path)  rows(path), once every row of the log is verified (PASS) and it has some
    geomean(xs)
    ladder(path)  prints every shape's µs and × cuBLAS per variant, each variant's geomean ×
                  cuBLAS and, where the first variant is the pick, each one's time over the pick's
    over_pick(path)  prints every shape's µs per variant with its time over the pick's, and the
                  pick × cuBLAS — once every row of the log is verified (PASS)
    before_after(key, before, after)  a line summing up a rule's pick against the one before it
    label_for(t, config)  the variant of a shape's row ``t`` that ran ``config`` (a pick, as a dict)
    pick_with_rule_held(m, n, k, rule, top_m)  06's pick (132 SMs) with wgmma.<rule> held to M ≤ top_m
"""
import math
import re

# a tune_ladder or `tcraw bench` row: kernel[variant], precision, shape, median ms, ... (06/07's
# kernels, 09's and 10's: tune_ladder's small and gemv families)
ROW = re.compile(r"^(cublas|wgmma\S*|small_\S*|gemv_\S*)\s+\S+\s+(\d+×\d+×\d+)\s+([\d.]+)\s")


def rows(path):
    """{shape: {label: µs}} in the log's order (label: cublas, or the variant in brackets)."""
    out = {}
    for line in path.read_text().splitlines():
        if (m := ROW.match(line)):
            label = "cublas" if m.group(1) == "cublas" else (m.group(1).partition("[")[2].rstrip("]") or m.group(1))
            out.setdefault(m.group(2), {})[label] = float(m.group(3)) * 1e3
    return out


def verified(path):
    """rows(path), after asserting that the log has rows and every one PASSed."""
    lines = [line for line in path.read_text().splitlines() if ROW.match(line)]
    assert lines and all(" PASS " in line for line in lines), path.name   # (every row verified)
    return rows(path)


def geomean(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


def ladder(path):
    table = rows(path)
    labels = [label for label in next(iter(table.values())) if label != "cublas"]
    print(f"## {path.name}\n")
    for i, label in enumerate(labels):
        print(f"  v{i} = {label}")
    print(f"\n  {'shape':18s} {'cuBLAS µs':>10s} " + " ".join(f"{'v%d µs (×)' % i:>17s}" for i in range(len(labels))))
    for shape, t in table.items():
        print(f"  {shape:18s} {t['cublas']:10.2f} " + " ".join(
            f"{t[label]:8.2f} ({t['cublas'] / t[label]:.3f})" for label in labels))
    print("  geomean × cuBLAS: " + ", ".join(
        f"v{i} {geomean([t['cublas'] / t[label] for t in table.values()]):.3f}" for i, label in enumerate(labels)))
    if labels[0] in ("picked", "default"):   # (the pick: 06's, or 09's split)
        for i, label in enumerate(labels[1:], 1):
            over = [t[label] / t[labels[0]] for t in table.values()]
            print(f"  v{i} time / the pick's: geomean {geomean(over):.3f}, range {min(over):.3f}–{max(over):.3f}, "
                  f"slower at {sum(o > 1 for o in over)} of {len(over)}")
    print()


def over_pick(path):
    table = verified(path)
    labels = list(next(iter(table.values())))
    print(f"## {path.name}: µs (× the pick's time); the pick × cuBLAS")
    for shape, t in table.items():
        cells = [f"{t[label]:.2f}" + ("" if label in ("cublas", "picked") else f" ({t[label] / t['picked']:.3f})")
                 for label in labels]
        print(shape, *cells, f"{t['cublas'] / t['picked']:.3f}", sep=" | ")
    print("columns:", *labels, sep="\n  ")
    print()


def before_after(key, before, after):
    """One line for a rule's pick against the pick before it over the same shapes (× cuBLAS each):
    geomeans, where faster, the range of time against before, how many below 0.85×."""
    over = [b / a for a, b in zip(after, before)]
    return (f"  {key}: {len(after)} shapes, geomean {geomean(before):.3f} → {geomean(after):.3f}× cuBLAS; "
            f"faster at {sum(o < 1 for o in over)}, time {min(over):.3f}–{max(over):.3f} of before; "
            f"below 0.85× {sum(x < 0.85 for x in before)} → {sum(x < 0.85 for x in after)}")


def as_config(label):
    """A variant's label as a configuration, less the WAIT_DEPTH tune_ladder adds to every one."""
    return {name: int(v) for name, _, v in (kv.partition("=") for kv in label.split("+")) if name != "WAIT_DEPTH"}


def label_for(t, config):
    """The fixed variant of a shape's row ``t`` (rows()) that ran ``config``."""
    return next(label for label in t if label not in ("cublas", "picked") and as_config(label) == config)


def pick_with_rule_held(m, n, k, rule, top_m):
    """06's pick for (m, n, k) on 132 SMs with the picker's rule ``rule`` (a tcraw.wgmma function's
    name) firing only at M ≤ ``top_m`` — the pick before the rule reached past it."""
    from tcraw import wgmma
    held = getattr(wgmma, rule)
    setattr(wgmma, rule, lambda m, *rest, **kw: m <= top_m and held(m, *rest, **kw))
    try:
        return wgmma.wgmma_config(m, n, k, 132)
    finally:
        setattr(wgmma, rule, held)
