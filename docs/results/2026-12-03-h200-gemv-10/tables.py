"""The tables of this directory's README from its raw files (tune_ladder and `tcraw bench` logs, unedited):

    python docs/results/2026-12-03-h200-gemv-10/tables.py > docs/results/2026-12-03-h200-gemv-10/tables.txt

Every tune_ladder log's shapes: µs and × cuBLAS per variant, geomeans, each variant's time over the
pick's. Then: run 1, 10 (its split pick) against 06's pick before 10 (09 where N is off 8, else
06's swapped tiles; each log beside cuBLAS in its own process), M of 1–2 and of 3–4 apart; run 2,
the same at N of 80–1086 (fp16), the pick before 10 timed as itself (09, or 06's swapped tiles with
the macros it picked); run 3, the llm suite with 10 at M = 1 against its last full run
(docs/results/2026-12-01-h200-suites-at-head/, runs 3–4).
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
HEAD = HERE.parent / "2026-12-01-h200-suites-at-head"
sys.path.insert(0, str(HERE.parents[2] / "scripts"))
from ladder_log import before_after, geomean, ladder, rows   # noqa: E402  (scripts/: the logs' reader)

SWAPPED = "SWAP_AB=1+CONSUMERS=2+BN=16+CLUSTER=1+STAGES=8"   # 06's pick at M ≤ 16 before 10 (N a multiple of 8)


def dims(shape):
    return tuple(map(int, shape.split("×")))


def against(key, pairs):
    """10 against the pick before it, (shape, 10's row, the old pick's row, its label) each: a row
    a shape (µs and × cuBLAS against each row's own cuBLAS), then before_after's line."""
    before, after, time = [], [], []
    for shape, new, old, label in pairs:
        before.append(old["cublas"] / old[label])
        after.append(new["cublas"] / new["default"])
        time.append(new["default"] / old[label])
        print(f"  {key} {shape:14s} N mod 8 = {dims(shape)[1] % 8}  {old[label]:7.2f} → {new['default']:7.2f} µs  "
              f"{before[-1]:.3f} → {after[-1]:.3f}×  (time {new['default'] / old[label]:.3f})")
    print(before_after(key, before, after) + "  (× cuBLAS, each log's own)")
    print(f"  {key}: 10's time against the pick's: less at {sum(t < 1 for t in time)} of {len(time)}, "
          f"{min(time):.3f}–{max(time):.3f}\n")


def main():
    logs = sorted(p for p in HERE.glob("run[12]_gemv_10_*.txt"))
    for path in logs:
        ladder(path)

    print("# Run 1: 10 (its split pick) against 06's pick before it, same shapes (scripts/shapes/gemv_10.txt)\n")
    for key in ("fp16", "bf16"):
        new, old = rows(HERE / f"run1_gemv_10_own_{key}.txt"), rows(HERE / f"run1_gemv_10_picked_{key}.txt")
        for what, keep in (("M of 1–2", lambda m: m <= 2), ("M of 3–4", lambda m: m > 2)):
            print(f"## {key}, {what}\n")
            against(key, [(s, new[s], old[s], "picked") for s in new if keep(dims(s)[0])])

    print("# Run 2: M of 1–2, N of 80–1086 (scripts/shapes/gemv_10_narrow.txt), fp16: 10 against the pick before\n"
          "# it, timed as itself — 09 where N is off 8, else 06's swapped tiles\n")
    new = rows(HERE / "run2_gemv_10_narrow_gemv.txt")
    k09, k06 = rows(HERE / "run2_gemv_10_narrow_small.txt"), rows(HERE / "run2_gemv_10_narrow_06.txt")
    against("fp16", [(s, new[s], *((k09[s], "default") if dims(s)[1] % 8 else (k06[s], SWAPPED))) for s in new])

    print("# Run 3: the llm suite (06's picks, 10 at M = 1) against its last full run (suites-at-head runs 3–4)\n")
    for key, run in (("fp16", "run3_all_suites_fp16.txt"), ("bf16", "run4_all_suites_bf16.txt")):
        now, then = rows(HERE / f"run3_llm_{key}.txt"), rows(HEAD / run)
        kernel = f"wgmma_tma_{key}"
        ratio = {s: t["cublas"] / t[kernel] for s, t in now.items()}
        was = {s: then[s]["cublas"] / then[s][kernel] for s in now}
        for s in now:
            if dims(s)[0] == 1:
                print(f"  {key} {s:14s} {was[s]:.3f} → {ratio[s]:.3f}×  (cuBLAS {then[s]['cublas']:.2f} → "
                      f"{now[s]['cublas']:.2f} µs)")
        rest = [s for s in now if dims(s)[0] > 1]
        print(f"  {key}: {len(now)} shapes, geomean {geomean(list(was.values())):.4f} → {geomean(list(ratio.values())):.4f}× "
              f"cuBLAS; M = 1 rows {geomean([was[s] for s in now if s not in rest]):.3f} → "
              f"{geomean([ratio[s] for s in now if s not in rest]):.3f}; the other 25 (picks unchanged) "
              f"{geomean([was[s] for s in rest]):.4f} → {geomean([ratio[s] for s in rest]):.4f}; "
              f"least {min(ratio.values()):.3f} ({min(ratio, key=ratio.get)})\n")


if __name__ == "__main__":
    main()
