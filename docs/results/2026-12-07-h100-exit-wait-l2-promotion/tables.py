"""Run from the repository root: the tables of this folder's README from its logs (through
scripts/ladder_log.py and scripts/ncu_raw_summary.py, the project's readers of tune_ladder's logs
and of Nsight Compute's raw CSVs).

    python docs/results/2026-12-07-h100-exit-wait-l2-promotion/tables.py \
        > docs/results/2026-12-07-h100-exit-wait-l2-promotion/tables.txt
"""
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2] / "scripts"))
from ladder_log import ROW, geomean, verified   # noqa: E402  (scripts/: the logs' readers)
from ncu_raw_summary import number, rows as ncu_rows   # noqa: E402

# run 1: the pick in this tree (here) and with C's last wait `.read` (exitread), each twice in turn
logs = {tag: HERE / f"run1_exit_{tag}.txt" for tag in ("here", "exitread", "here_2", "exitread_2")}
t = {tag: verified(path) for tag, path in logs.items()}
print("## run 1: the pick's µs, this tree (here) and C's last wait .read (exitread), two passes each in turn")
print(f"  {'shape':16s} {'here':>15s} {'exitread':>15s}  exitread ÷ here (means)")
ratios = []
for shape in t["here"]:
    here = [t[tag][shape]["picked"] for tag in ("here", "here_2")]
    ex = [t[tag][shape]["picked"] for tag in ("exitread", "exitread_2")]
    ratios.append(sum(ex) / sum(here))
    print(f"  {shape:16s} {here[0]:7.2f} {here[1]:7.2f} {ex[0]:7.2f} {ex[1]:7.2f}  {ratios[-1]:.3f}")
print(f"  geomean {geomean(ratios):.3f}\n")

# runs 2 and 3 (and the stop before's run 3, 256-byte promotion everywhere, and cuBLAS's kernel):
# Nsight Compute's L2 counts of 128 × 256 pairs at 16384×256×1024 under each promotion
metrics = ("gpu__time_duration.sum", "lts__t_sectors_op_read.sum", "lts__t_sectors_srcunit_tex.sum",
           "lts__t_sectors_srcunit_ltcfabric.sum")
before = HERE.parent / "2026-12-07-h100-tall-skinny"
csvs = {"A, B 256 B; C 256 B (the stop before's run 3)": before / "run3_ncu_06_16384x256x1024.csv",
        "A, B 256 B; C none (run 2)": HERE / "run2_ncu_promo_3_0.csv",
        "A, B 128 B; C 128 B (run 3)": HERE / "run3_ncu_promo_2_2.csv",
        "none (run 2)": HERE / "run2_ncu_promo_0_0.csv",
        "cuBLAS's kernel (the stop before's run 3)": before / "run3_ncu_cublas_16384x256x1024.csv"}
print("## runs 2–3: 128 × 256 pairs at 16384×256×1024 under Nsight Compute (medians of the launches)")
print(f"  {'L2 promotion':46s} {'n':>2s} {'ns':>7s} {'read (M)':>9s} {'srcunit_tex (M)':>16s} {'fabric (M)':>11s}")
for label, path in csvs.items():
    launches = ncu_rows(path)[0]
    med = [statistics.median(number(r[m]) for r in launches) for m in metrics]
    print(f"  {label:46s} {len(launches):2d} {med[0]:7.0f} "
          f"{med[1] / 1e6:9.3f} {med[2] / 1e6:16.3f} {med[3] / 1e6:11.3f}")
print()

# run 3: the pick timed under 256-byte promotion (3:3) and none (0:0), in turn, one process each
sections, current = [], None
for line in (HERE / "run3_promo_time.txt").read_text().splitlines():
    if line.startswith("# L2 promotion:"):
        current = (line.split(": ", 1)[1].split(" (")[0], {})
        sections.append(current)
    elif (m := ROW.match(line)) and current:
        assert " PASS " in line, line
        label = "cublas" if m.group(1) == "cublas" else "picked"
        current[1].setdefault(m.group(2), {})[label] = float(m.group(3)) * 1e3
print("## run 3: the pick's µs under each promotion, four processes in turn")
print(f"  {'shape':16s} " + " ".join(f"{name[:22]:>22s}" for name, _ in sections) + "  none ÷ 256 B (means)")
for shape in sections[0][1]:
    us = [s[1][shape]["picked"] for s in sections]
    full = [u for (name, _), u in zip(sections, us) if name.startswith("A and B 3")]
    none = [u for (name, _), u in zip(sections, us) if name.startswith("A and B 0")]
    print(f"  {shape:16s} " + " ".join(f"{u:22.2f}" for u in us) + f"  {sum(none) / sum(full):.3f}")
