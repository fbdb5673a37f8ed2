"""The tables of this directory's README, from the runs' own output: for every shape timed with
the consumers taking 128×128 tiles in turn (PINGPONG=128, clusters of 2) and with the cooperative
tile the model picks there, both times, and whether tcraw.kernels.wgmma_takes_turns now takes
turns there. Times are µs from the one-line summaries tune_ladder prints per row (2·M·N·K over
the TFLOP/s shown, so rounded to its four digits) — they are there also for the runs cut short
before the tables (run 3's short-K file). Run from the repository root:

    python docs/results/2026-12-01-h200-pingpong/turns_table.py > docs/results/2026-12-01-h200-pingpong/turns_table.txt
"""
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))
sys.path.insert(0, str(HERE.parents[2] / "scripts"))

from fit_wgmma_model import picker_at  # noqa: E402
from tabulate import tabulate          # noqa: E402

# the picker as this directory's stop left it (7b5dbff), so the tables reproduce after later stops
K = picker_at("7b5dbff")

RUNS = ["run2_pingpong_fp16.txt", "run3_pingpong_short_k_fp16.txt", "run3_pingpong_bf16.txt",
        "run4_pingpong_fresh_fp16.txt", "run5_pingpong_edges_fp16.txt"]
TURNS = "PINGPONG=128+BN=128+STAGES=6+WAIT_DEPTH=1"
# tune_ladder's label of each cooperative configuration the model can pick (fixed variants)
LABELS = {(256, 2): "default", (192, 2): "BN=192", (128, 2): "BN=128+STAGES=6"}
SUMMARY = re.compile(r"\s*wgmma_(\w+)\[(.*?)\]\s+(\S+)\s+([\d.]+) TFLOP/s")


def times(path):
    """{(precision, (m, n, k)): {label: µs}} from tune_ladder's one-line summaries."""
    out = {}
    for line in (HERE / path).read_text().splitlines():
        if not (m := SUMMARY.match(line)):
            continue
        key, label, shape, tflops = m.groups()
        dims = tuple(int(v) for v in shape.replace("³", "").split("×"))
        dims = dims * 3 if len(dims) == 1 else dims
        out.setdefault((key, dims), {})[label] = 2 * dims[0] * dims[1] * dims[2] / (float(tflops) * 1e6)
    return out


def main():
    rows = []
    for path in RUNS:
        for (key, shape), timed in times(path).items():
            coop = K.wgmma_choose(K.wgmma_ranked(*shape, 132))
            label = LABELS.get((coop["BN"], coop["CLUSTER"])) if coop["CONSUMERS"] == 2 else None
            if TURNS not in timed or label not in timed:
                continue   # the model's cooperative pick (one consumer, ...) was not timed here
            turns = K.wgmma_takes_turns(*shape, 132, coop)
            kt = K.cdiv(shape[2], 64)
            before, after = timed[label], timed[TURNS]
            rows.append([path.split("_")[0], key, "×".join(map(str, shape)), kt,
                         f"{label.split('+')[0]} c{coop['CLUSTER']}", f"{before:.1f}", f"{after:.1f}",
                         f"{100 * (after / before - 1):+.1f} %", "turns" if turns else "cooperative"])
    print(tabulate(rows, headers=["run", "precision", "M×N×K", "k-slices", "cooperative pick", "its µs",
                                  "turns µs", "turns against it", "picked now"]))
    taken = [float(r[7].split()[0]) for r in rows if r[8] == "turns"]
    left = [float(r[7].split()[0]) for r in rows if r[8] == "cooperative"]
    print(f"\nwhere the pick now takes turns ({len(taken)} rows): {min(taken):+.1f} % to {max(taken):+.1f} % time"
          f"\nwhere it stays cooperative ({len(left)} rows): turns would take {min(left):+.1f} % to {max(left):+.1f} %")
    # the grid of ../2026-12-01-h200-one-consumer-in-flight/pick_table.py
    sizes = [1, 16, 32, 64, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192]
    grid = [(m, n, k) for m in sizes for n in sizes[3:] for k in (256, 1024, 2048, 4096, 8192, 16384, 32768)]
    moved = [s for s in grid if K.wgmma_config(*s, 132).get("PINGPONG")]
    print(f"\nthe grid (M in {sizes}, N in {sizes[3:]}, K 256–32768: {len(grid)} shapes): {len(moved)} picks take "
          f"turns (16-bit), at K {sorted({s[2] for s in moved})}")


if __name__ == "__main__":
    main()
