"""Run from the repository root: the tables of this folder's README from its logs (through
scripts/ladder_log.py, the project's reader of tune_ladder's and `tcraw bench`'s logs).

    python docs/results/2026-12-07-h100-tall-skinny/tables.py > docs/results/2026-12-07-h100-tall-skinny/tables.txt
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2] / "scripts"))
from ladder_log import before_after, geomean, over_pick, rows   # noqa: E402  (scripts/: the logs' reader)

# runs 1 and 4: the pick beside 06's other forms (every row verified: over_pick asserts it)
for name in ("run1_tall_fp16", "run1_m128_fp16", "run4_rows192_fp16"):
    over_pick(HERE / f"{name}.txt")

# runs 2 and 3: the same kernels with store_c skipped (nostore) or the copy engine's C stores
# skipped (notma) — their rows FAIL by design; µs of each, the pick's and 128 × 256 pairs'
print("## runs 2–3: µs with C stored / C boxes filled, none copied out (notma) / store_c skipped (nostore)")
for run, tags in (("run2", ("store", "nostore")), ("run3", ("store", "notma", "nostore"))):
    logs = {tag: rows(HERE / f"{run}_epilogue_{tag}_fp16.txt") for tag in tags}
    for shape, t in logs["store"].items():
        for label in (lb for lb in t if lb != "cublas"):
            cells = " / ".join(f"{logs[tag][shape][label]:.2f}" for tag in tags)
            print(f"{run} {shape:16s} {label:32s} {'/'.join(tags)}: {cells}  (cuBLAS {t['cublas']:.2f})")
print()

# runs 5 and 6: the pick with and without wgmma_tall_rows (scripts/swap_fit_study.py)
for name in ("run5_tall_rule", "run6_tall_fresh_2"):
    for key in ("fp16", "bf16"):
        t = rows(HERE / f"{name}_{key}.txt")
        now_label = f"wgmma_tma_{key}"
        print(f"## {name}_{key}: µs before → with the rule (time ratio), × cuBLAS before → with")
        for shape, v in t.items():
            print(f"  {shape:16s} {v['before']:8.2f} → {v[now_label]:8.2f} ({v[now_label] / v['before']:.3f})  "
                  f"{v['cublas'] / v['before']:.3f} → {v['cublas'] / v[now_label]:.3f}")
        print(before_after(key, [v["cublas"] / v["before"] for v in t.values()],
                           [v["cublas"] / v[now_label] for v in t.values()]))
        print()

# run 7: survey 10 (fp16), and run 8: wgmma_coops held off at its three weakest shapes
t = rows(HERE / "run7_survey_fp16.txt")
ratio = {s: v["cublas"] / v["wgmma_tma_fp16"] for s, v in t.items()}
aligned = [r for s, r in ratio.items() if all(int(x) % 8 == 0 for x in s.split("×")[1:])]
print(f"## run7_survey_fp16: {len(ratio)} shapes, geomean {geomean(list(ratio.values())):.3f}× cuBLAS; N and K "
      f"multiples of 8 ({len(aligned)}): {geomean(aligned):.3f}; below 0.85×: "
      + ", ".join(f"{s} {r:.3f}" for s, r in sorted(ratio.items(), key=lambda i: i[1]) if r < 0.85))
t = rows(HERE / "run8_survey10_weak_coops_fp16.txt")
print("## run8: the pick with wgmma_coops held off (before) and as it is, µs (× cuBLAS)")
for shape, v in t.items():
    print(f"  {shape:16s} before {v['before']:.2f} ({v['cublas'] / v['before']:.3f}), "
          f"now {v['wgmma_tma_fp16']:.2f} ({v['cublas'] / v['wgmma_tma_fp16']:.3f})")
