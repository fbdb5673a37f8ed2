"""Run from the repository root: the tables of this folder's README from its logs (through
scripts/ladder_log.py and scripts/ncu_raw_summary.py, the project's readers of tune_ladder's logs
and of Nsight Compute's raw CSVs).

    python docs/results/2026-12-07-h100-coop-clusters-of-4/tables.py \
        > docs/results/2026-12-07-h100-coop-clusters-of-4/tables.txt
"""
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2] / "scripts"))
from ladder_log import geomean, verified   # noqa: E402  (scripts/: the logs' readers)
from ncu_raw_summary import number, rows as ncu_rows   # noqa: E402



# runs 1 and 3: swap_fit_study --rule wgmma_coops, the pick without the rule ([before]) beside it,
# one process a log. What the rule replaced (the pick without it, as scripts/swap_fit_study.py's
# picker_before gives it at this tree's parent, 4bc71b6): 128 × 192, 128 × 256 or 128 × 128 tiles
# in clusters of 4 running whole (coop_over_c4.txt); 128 × 256 tiles in clusters of 4 whose last
# round stream-K cuts (coop_over_stream_k.txt's but one, coop_over_stream_k_2.txt); 128 × 256 pairs
# whose last round stream-K cuts (1576×14840×9661 alone).
PAIRS_CUT = {"1576×14840×9661"}
groups = {"clusters of 4, whole": [], "clusters of 4, stream-K's cut": [], "pairs, stream-K's cut": []}
for run, name in ((1, "coop_over_c4"), (1, "coop_over_stream_k"), (3, "coop_over_stream_k_2")):
    print(f"## run {run}: {name}.txt, µs (the rule's ÷ without it)")
    print(f"  {'shape':16s} {'cuBLAS fp16':>11s} {'without':>8s} {'rule':>8s}  {'÷':>5s}   "
          f"{'cuBLAS bf16':>11s} {'without':>8s} {'rule':>8s}  {'÷':>5s}")
    t = {p: verified(HERE / f"run{run}_{name}_{p}.txt") for p in ("fp16", "bf16")}
    for shape in t["fp16"]:
        cells = []
        for p in ("fp16", "bf16"):
            r = t[p][shape]
            rule = next(v for label, v in r.items() if label not in ("cublas", "before"))
            ratio = rule / r["before"]
            cells.append(f"{r['cublas']:11.1f} {r['before']:8.1f} {rule:8.1f}  {ratio:5.3f}")
            key = ("pairs, stream-K's cut" if shape in PAIRS_CUT else
                   "clusters of 4, whole" if name == "coop_over_c4" else "clusters of 4, stream-K's cut")
            groups[key].append(ratio)
        print(f"  {shape:16s} " + "   ".join(cells))
    print()
print("## the rule's time ÷ without it, by what it replaced (fp16 and bf16 together)")
for key, ratios in groups.items():
    print(f"  {key:30s} {len(ratios):2d} rows, geomean {geomean(ratios):.3f}, "
          f"{min(ratios):.3f}–{max(ratios):.3f}, faster at {sum(r < 1 for r in ratios)}")
print()

# run 2: Nsight Compute's L2 counts of 128 × 256 tiles at 16384×256×1024, no L2 promotion on any
# map, alone, in pairs along M and in fours (B's boxes multicast), and of cuBLAS's kernel
metrics = ("gpu__time_duration.sum", "dram__bytes_read.sum", "lts__t_sectors_op_read.sum",
           "lts__t_sectors_srcunit_tex_op_read.sum", "lts__t_sectors_srcunit_tex_op_write.sum",
           "lts__t_sectors_srcunit_ltcfabric.sum")
csvs = {"alone (clusters of 1)": "CONSUMERS_2_BN_256_CLUSTER_1", "pairs along M": "CONSUMERS_2_BN_256_CLUSTER_2",
        "fours along M": "CONSUMERS_2_BN_256_CLUSTER_4", "cuBLAS's kernel": "cublas"}
print("## run 2: 128 × 256 tiles at 16384×256×1024, promotion none, Nsight Compute (medians of the launches)")
print(f"  {'form':22s} {'n':>2s} {'ns':>6s} {'DRAM read MB':>12s} {'L2 read (M)':>11s} {'SMs read (M)':>12s} "
      f"{'SMs write (M)':>13s} {'fabric (M)':>10s}")
for label, tag in csvs.items():
    launches = ncu_rows(HERE / f"run2_ncu_mcast_{tag}.csv")[0]
    med = [statistics.median(number(r[m]) for r in launches) for m in metrics]
    print(f"  {label:22s} {len(launches):2d} {med[0]:6.0f} {med[1] / 1e6:12.2f} {med[2] / 1e6:11.3f} "
          f"{med[3] / 1e6:12.3f} {med[4] / 1e6:13.3f} {med[5] / 1e6:10.3f}")
print()

# run 4: on five shapes where the rule lost over clusters of 4 and five where it won most, the pick
# (the rule's: COOP=5 at all ten) beside both coopB forms and the two clusters of 4 it replaced
t = verified(HERE / "run4_coopforms_fp16.txt")
labels = {"SWAP_AB=1+CONSUMERS=2+COOP=5+BN=64+CLUSTER=2+SPLIT_K=0+STAGES=3": "COOP=5",
          "SWAP_AB=1+CONSUMERS=2+COOP=3+BN=80+CLUSTER=2+SHARE_A=1+SPLIT_K=0+STAGES=4": "COOP=3",
          "CONSUMERS=2+BN=192+CLUSTER=4+STAGES=4": "128×192 in 4s",
          "CONSUMERS=2+BN=192+CLUSTER=4+SHARE_A=1+STAGES=4": "the same, A shared"}
print("## run 4: fp16, µs of the pick (the rule's) and each form's time ÷ the pick's")
print(f"  {'shape':16s} {'cuBLAS':>8s} {'pick':>7s} " + " ".join(f"{v:>18s}" for v in labels.values()))
for shape, r in t.items():
    print(f"  {shape:16s} {r['cublas']:8.1f} {r['picked']:7.1f} "
          + " ".join(f"{r[label] / r['picked']:18.3f}" for label in labels))
print()

# runs 5–6: swapped 128 × 256 pairs along N (cuBLAS's form at 16384×256×1024) beside the pick, with
# 3 stages (C staged whole) and with 4 (C_PARTS=2 or 4); run 6 on shapes drawn where the pick takes
# turns on 128 × 128 tiles at N of 129–256, C_PARTS=2 alone, fp16 and bf16
swapped = "SWAP_AB=1+CONSUMERS=2+BN=256+CLUSTER=2"
forms = {f"{swapped}+STAGES=3": "3 stages", f"{swapped}+C_PARTS=2+STAGES=4": "C_PARTS=2, 4",
         f"{swapped}+C_PARTS=4+STAGES=4": "C_PARTS=4, 4"}
for run, name in ((5, "cparts_fp16"), (6, "swtall_fp16"), (6, "swtall_bf16")):
    t = verified(HERE / f"run{run}_{name}.txt")
    here = [label for label in forms if label in next(iter(t.values()))]
    print(f"## run {run}: {name}, µs of cuBLAS and the pick, each form's time ÷ the pick's")
    print(f"  {'shape':16s} {'cuBLAS':>8s} {'pick':>7s} " + " ".join(f"{forms[label]:>14s}" for label in here))
    ratios = []
    for shape, r in t.items():
        ratios.append(r[here[-1 if run == 6 else 1]] / r["picked"])
        print(f"  {shape:16s} {r['cublas']:8.1f} {r['picked']:7.1f} "
              + " ".join(f"{r[label] / r['picked']:14.3f}" for label in here))
    if run == 6:   # (the first 8 rows: N of 129–192)
        print(f"  N of 129–192: geomean {geomean(ratios[:8]):.3f}, {min(ratios[:8]):.3f}–{max(ratios[:8]):.3f}")
    print()
