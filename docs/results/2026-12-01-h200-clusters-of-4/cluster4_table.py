"""The tables of this directory's README, from its raw files (run from the repository root): how
many clusters of each size the H200 holds (run 2); clusters of 4 against clusters of 2 on rows off
128-byte lines and on lines (run 2); the picks of the last stop (9818395, read from git) and of
today's picker against the fastest of 13 configurations on fresh shapes (run 3), and the soft
bound's order swept there; the same on round-number shapes listed after the picker was settled
(run 6); how many picks of two grids move; the final picks against cuBLAS (run 5).

    python docs/results/2026-12-01-h200-clusters-of-4/cluster4_table.py
"""
import math
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))
sys.path.insert(0, str(HERE.parents[2] / "scripts"))
from fit_wgmma_model import pick_grids, picker_at, table_rows   # noqa: E402

# today's picker as this directory's stop left it (be13a7f), so the tables reproduce after later stops
new = picker_at("be13a7f")

old = picker_at("9818395")   # the last stop's picker


def key(config):
    """A configuration as the picker names one: (consumers, columns, cluster, shares A)."""
    tile = {**new.WGMMA_TILE, **config}
    return tile["CONSUMERS"], tile["BN"], tile["CLUSTER"], tile["SHARE_A"]


def name(k):
    cluster = {1: " c1", 2: " c2 A" if k[3] else " c2", 4: " 2×2" if k[3] else " 4×1"}[k[2]]
    return f"{64 * k[0]}×{k[1]}{cluster}"


def timings(file, where=HERE):
    """{shape: {configuration key: µs}} of one tune_ladder table."""
    out = {}
    for shape, config, us in table_rows([where / file]):
        out.setdefault(shape, {})[key(config)] = us
    return out


def other_rows(file, label):
    """{shape: µs} of the rows whose kernel column is ``label`` (cublas, or a picked wgmma)."""
    out = {}
    for line in (HERE / file).read_text().splitlines():
        fields = line.split()
        if len(fields) > 3 and fields[0] == label and "→" in fields[1]:
            dims = tuple(int(v) for v in fields[2].replace("³", "").split("×"))
            out[dims * 3 if len(dims) == 1 else dims] = float(fields[3]) * 1000
    return out


def geomean(values):
    return math.exp(sum(map(math.log, values)) / len(values))


def fmt(shape):
    return "×".join(map(str, shape))


def held():
    print("clusters held at once (run 2, cuOccupancyMaxActiveClusters):")
    for line in (HERE / "run2_held_clusters.txt").read_text().splitlines():
        print("  " + line)


def against_clusters_of_2():
    print("\nclusters of 4 against clusters of 2, fastest timed each way (run 2, fp16, µs; seven configurations):")
    t, cublas = timings("run2_cluster4_fp16.txt"), other_rows("run2_cluster4_fp16.txt", "cublas")
    picked = other_rows("run2_cluster4_picked_fp16.txt", "wgmma_fp16[picked]")
    for shape, row in t.items():
        two = min((us, k) for k, us in row.items() if k[2] == 2)
        four = min((us, k) for k, us in row.items() if k[2] == 4)
        lines = "on" if all(new.box_row_requests(2 * d) == 1 for d in shape[1:]) else "off"
        now = key(new.wgmma_config(*shape, 132))
        now_us = row.get(now)
        print(f"  {fmt(shape):>15} (rows {lines:3} lines)  c2 {two[0]:6.1f} ({name(two[1]):>10})  "
              f"c4 {four[0]:6.1f} ({name(four[1]):>11})  {four[0] / two[0] - 1:+6.1%}   "
              f"last stop's pick {picked[shape]:6.1f} ({cublas[shape] / picked[shape]:.3f}× cuBLAS)   today's pick "
              f"{name(now):>11}" + (f" {now_us:6.1f} ({cublas[shape] / now_us:.3f}×)" if now_us else " (not timed)"))


def picks(file, title, sweep=False):
    """Each shape's last-stop pick and today's against the fastest configuration timed and cuBLAS."""
    print(f"\n{title}: each pick's time against the fastest configuration timed (µs), today's against cuBLAS")
    t = timings(file)
    cublas = other_rows(file, "cublas")
    ratios = {"last": [], "now": []}
    for shape, row in t.items():
        best = min(row.values())
        cells = []
        for label, picker in (("last", old), ("now", new)):
            k = key(picker.wgmma_config(*shape, 132))
            ratios[label].append(row[k] / best)
            cells.append(f"{label} {name(k):>11} {row[k]:6.1f} ({row[k] / best:.3f})")
        fastest = min(row, key=row.get)
        print(f"  {fmt(shape):>15}  " + "  ".join(cells) + f"  fastest {name(fastest):>11} {best:6.1f}"
              f"  today's pick {cublas[shape] / row[key(new.wgmma_config(*shape, 132))]:.3f}× cuBLAS")
    change = [b / a for a, b in zip(ratios["last"], ratios["now"])]
    print(f"  geomean pick / fastest: last stop's {geomean(ratios['last']):.3f}, today's {geomean(ratios['now']):.3f}; "
          f"today's time against the last's: {geomean(change):.3f} (from {min(change):.3f} to {max(change):.3f})")
    times = {label: [row[key(picker.wgmma_config(*s, 132))] for s, row in t.items()] for label, picker in
             (("last", old), ("now", new))}
    print(f"  against cuBLAS, geomean: last stop's picks {geomean([cublas[s] / u for s, u in zip(t, times['last'])]):.3f}×, "
          f"today's {geomean([cublas[s] / u for s, u in zip(t, times['now'])]):.3f}× "
          f"(worst {min(cublas[s] / u for s, u in zip(t, times['now'])):.3f}×)")
    if sweep:
        saved, cells = new.L2_OVERLAP, []
        for q in (3, 4, 6, 8, None):
            new.L2_OVERLAP = q
            ratios = [row[k] / min(row.values()) for s, row in t.items() if (k := key(new.wgmma_config(*s, 132))) in row]
            cells.append(f"{q or 'the larger alone'}: {geomean(ratios):.3f}"
                         + (f" ({len(ratios)} of {len(t)} picks timed)" if len(ratios) < len(t) else ""))
        new.L2_OVERLAP = saved
        print("  the order of the norm (L2_OVERLAP), clusters of 4 among the candidates, geomean pick / fastest — "
              + ", ".join(cells))


def grids():
    aligned, off = pick_grids()
    print()
    for label, grid in (("the earlier stops' grid (rows on 128-byte lines)", aligned),
                        ("a grid of rows mostly off 128-byte lines (runs 3 and 6 of the last stop drew from it)", off)):
        for elem in (2, 1, 4):
            picks = [(old.wgmma_config(*s, 132, elem), new.wgmma_config(*s, 132, elem)) for s in grid]
            moved = sum(a != b for a, b in picks)
            fours = sum(b["CLUSTER"] == 4 for a, b in picks)
            print(f"{label}, {elem}-byte inputs: {moved} of {len(grid)} picks move, {fours} to clusters of 4")


def final():
    files = [f for f in ("run5_final_picked_cluster4_fp16.txt", "run5_final_picked_cluster4_fresh_fp16.txt",
                         "run5_final_picked_pitch_fresh_fp16.txt", "run5_final_picked_pitch_fresh_bf16.txt")
             if (HERE / f).exists()]
    if not files:
        return
    print("\ntoday's picks against cuBLAS, same call (run 5), with the last stop's pick and today's where an earlier "
          "run timed both (this directory's runs 2 and 3; the last stop's runs 6 and 7, ../2026-12-01-h200-pitch/)")
    pitch = HERE.parent / "2026-12-01-h200-pitch"
    earlier = {"fp16": {**timings("run6_pitch_fresh_fp16.txt", pitch), **timings("run2_cluster4_fp16.txt"),
                        **timings("run3_cluster4_fresh_fp16.txt")},
               "bf16": timings("run7_pitch_fresh_bf16.txt", pitch)}
    for f in files:
        precision = "bf16" if "bf16" in f else "fp16"
        picked, cublas = other_rows(f, f"wgmma_{precision}[picked]"), other_rows(f, "cublas")
        ratios = [cublas[s] / picked[s] for s in picked]
        print(f"  {f}: geomean {geomean(ratios):.3f}× cuBLAS, worst {min(ratios):.3f}")
        for shape in picked:
            k = key(new.wgmma_config(*shape, 132))
            note = ""
            timed = earlier[precision].get(shape, {})
            last = key(old.wgmma_config(*shape, 132))
            if last in timed and k in timed:
                note = f"   (earlier run: last stop's {name(last)} {timed[last]:.1f}, today's {timed[k]:.1f})"
            elif last in timed:
                note = f"   (earlier run: last stop's {name(last)} {timed[last]:.1f}; today's not timed there)"
            print(f"    {fmt(shape):>15} {name(k):>11} {picked[shape]:7.1f} µs  cuBLAS {cublas[shape]:7.1f}  "
                  f"{cublas[shape] / picked[shape]:.3f}×{note}")


if __name__ == "__main__":
    held()
    against_clusters_of_2()
    picks("run3_cluster4_fresh_fp16.txt", "fresh shapes (run 3, fp16, 13 configurations)", sweep=True)
    picks("run6_cluster4_round_fp16.txt", "round-number shapes listed after the picker was settled (run 6, fp16, "
          "6 configurations)", sweep=True)
    grids()
    final()
