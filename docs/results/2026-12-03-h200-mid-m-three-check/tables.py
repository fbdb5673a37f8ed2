"""The tables of this directory's README from its raw files (tune_ladder logs, unedited):

    python docs/results/2026-12-03-h200-mid-m-three-check/tables.py > docs/results/2026-12-03-h200-mid-m-three-check/tables.txt

Every tune_ladder log's shapes: µs and × cuBLAS per variant, geomeans, each variant's time over the
pick's. Then: run 1 (three consumers' swapped tiles at M of 33–64 as the rule then stood) against
the pick before the rule took M of 33–64; the refinement at M of 49–64 fitted on runs 2–3 of
docs/results/2026-12-03-h200-mid-m-three/ and run 1 here; run 3's check of it on shapes drawn
after; 09's pieces of K at M ≤ 32 (runs 2 and 3); and 09 against its .cu as it was, same call,
one process each, each beside cuBLAS (run 5: the last piece's sum by float4 groups, 02bf0d7's
tree against 879346b's .cu; run 6: its code out of line, bba7b3a against d04b361's .cu).
"""
import sys
from pathlib import Path

from tcraw import kernels, wgmma

HERE = Path(__file__).resolve().parent
EARLIER = HERE.parent / "2026-12-03-h200-mid-m-three"
sys.path.insert(0, str(HERE.parents[2] / "scripts"))
from ladder_log import before_after, geomean, label_for, ladder, pick_with_rule_held, rows   # noqa: E402  (scripts/: the logs' reader)

C64 = {"SWAP_AB": 1, "CONSUMERS": 3, "BN": 64, "CLUSTER": 2, "STAGES": 5}   # three consumers' 64-wide tiles


def before_rule(m, n, k):
    """06's pick for (m, n, k) with wgmma_streams_b_wide held to M ≤ 32, as before it took M of 33–64."""
    return pick_with_rule_held(m, n, k, "wgmma_streams_b_wide", 32)


def rule_as_run(m, n, k):
    """wgmma_streams_b_wide as run 1 ran it (16-bit, 132 SMs): M ≤ 64, rows off lines, K of 64 slices
    or more, 40 % (M ≤ 32) or 25 % of the SMs up to 75 %, not where the 64×48 swapped tiles are taken."""
    return m <= 64 and kernels.box_row_requests(2 * n) > 1 and not kernels.wgmma_streams_b_swapped(m, n, k, 132) \
        and wgmma._streams_b_in_one_round(n, k, 132, 2, 128, 64, 0.4 if m <= 32 else 0.25, 0.75)


def refined(m, n, k):
    """The refinement: at M of 49–64, K of 96 slices or more and 30 % of the SMs (40 tiles) too."""
    return rule_as_run(m, n, k) and (m <= 48 or (k >= 96 * 64 and kernels.cdiv(n, 128) >= 0.3 * 132))


def shapes(path):
    for shape, t in rows(path).items():
        yield tuple(map(int, shape.split("×"))), shape, t


def against(key, path, p, keep, old_config):
    """The pick against a fixed variant (``old_config(m, n, k)``) at the shapes of ``path`` that
    ``keep(m, n, k)``: a row each, then before_after's line."""
    before, after = [], []
    for (m, n, k), shape, t in shapes(path):
        if not keep(m, n, k):
            continue
        old = label_for(t, old_config(m, n, k))
        before.append(t["cublas"] / t[old])
        after.append(t["cublas"] / t["picked"])
        print(f"  {p} {shape:16s} {kernels.cdiv(n, 128):3d} tiles {k // 64:3d} slices  {before[-1]:.3f} → "
              f"{after[-1]:.3f}×  (time {t['picked'] / t[old]:.3f} of {old})")
    print(before_after(key, before, after) + "\n")


def run1():
    print("## run 1: the pick (the rule as it ran) against the pick before the rule took M of 33–64\n")
    for p in ("fp16", "bf16"):
        for lo, hi in ((33, 48), (49, 64)):
            against(f"{p} M of {lo}–{hi}", HERE / f"run1_mid_m_three_check_{p}.txt", p,
                    lambda m, n, k: lo <= m <= hi, before_rule)


def pooled():
    print("## M of 49–64 over runs 2–3 (the earlier folder) and run 1 here, fp16: three consumers' "
          "64-wide tiles' time over the pick before\n")
    logs = [EARLIER / "run2_mid_m_three_fresh_fp16.txt", EARLIER / "run3_mid_m_three_low_fp16.txt",
            HERE / "run1_mid_m_three_check_fp16.txt"]
    kept, left = [], []
    for path in logs:
        for (m, n, k), shape, t in shapes(path):
            if not 49 <= m <= 64 or not rule_as_run(m, n, k):
                continue
            over = t["picked"] / t[label_for(t, before_rule(m, n, k))]
            (kept if refined(m, n, k) else left).append(over)
            print(f"  {shape:16s} {kernels.cdiv(n, 128):3d} tiles {k // 64:3d} slices  time {over:.3f} of before  "
                  f"({'kept' if refined(m, n, k) else 'left'}; {path.name})")
    for name, xs in (("kept", kept), ("left", left)):
        print(f"  {name}: {len(xs)} shapes, less time at {sum(x < 1 for x in xs)}, time geomean {geomean(xs):.3f}, "
              f"range {min(xs):.3f}–{max(xs):.3f}")
    print()


def run3():
    print("## run 3: the refined rule on shapes drawn after it — where it fires, the pick against the pick "
          "before the rule; where it now leaves the shape, the pick against three consumers' tiles\n")
    for p in ("fp16", "bf16"):
        for fires in (True, False):
            against(f"{p} {'fires' if fires else 'left'}", HERE / f"run3_mid_m_49_64_check_{p}.txt", p,
                    lambda m, n, k: refined(m, n, k) == fires, before_rule if fires else lambda *_: C64)


def split_09():
    print("## 09's pieces of K (runs 2 and 3): µs per split, the pick (small_m_split) and the fastest\n")
    for path in (HERE / "run2_tiny_gemv_fp16.txt", HERE / "run3_split_09_fresh_fp16.txt"):
        print(f"  {path.name}")
        picks, bests = [], []
        for (m, n, k), shape, t in shapes(path):
            splits = {int(label.split("=")[1]): us for label, us in t.items() if label.startswith("SPLIT=")}
            best = min(splits, key=splits.get)
            picks.append(t["cublas"] / t["default"])
            bests.append(t["cublas"] / splits[best])
            print(f"  {shape:14s} cuBLAS {t['cublas']:6.2f}  pick {kernels.small_m_split(m, n, k, 132):2d}: "
                  f"{t['default']:6.2f} ({picks[-1]:.3f}×)  fastest {best:2d}: {splits[best]:6.2f} ({bests[-1]:.3f}×)  "
                  + " ".join(f"{s}:{us:.1f}" for s, us in sorted(splits.items())))
        print(f"  geomean × cuBLAS: the pick {geomean(picks):.3f}, the fastest split {geomean(bests):.3f}\n")


def old_new():
    print("## runs 5 and 6: 09 against its .cu as it was, same call, one process each (the pick: 09's split, and 06's handing to 09)\n")
    for run in (5, 6):
        for name, label in (("split_09_fresh", "default"), ("tiny_gemv", "picked")):
            old, new = (rows(HERE / f"run{run}_{name}_{tree}_fp16.txt") for tree in ("old", "new"))
            before, after = [], []
            for shape, t in old.items():
                u = new[shape]
                before.append(t["cublas"] / t[label])
                after.append(u["cublas"] / u[label])
                print(f"  run {run} {shape:14s} {t[label]:6.2f} → {u[label]:6.2f} µs  ({before[-1]:.3f} → {after[-1]:.3f}× "
                      f"cuBLAS; time {u[label] / t[label]:.3f})")
            times = [new[shape][label] / t[label] for shape, t in old.items()]
            print(before_after(f"run {run} {name}", before, after))
            print(f"  run {run} {name}: its own time (not over each process's cuBLAS) geomean {geomean(times):.3f} of "
                  f"before, less at {sum(x < 1 for x in times)} of {len(times)}, {min(times):.3f}–{max(times):.3f}\n")


for name in sorted(p.name for p in HERE.glob("run*_*.txt")):
    if any(skip in name for skip in ("env", "pytest", "sanitize", "ncu", "output", "_old_", "_new_")):
        continue
    ladder(HERE / name)
run1()
pooled()
run3()
split_09()
old_new()
