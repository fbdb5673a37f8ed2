"""06's picks on scripts/shapes/small_m_09.txt before 09 (run 2: B copied to pitched rows where N is
not a multiple of 8) and after (runs 5 and 6: 06's pick hands those to 09), × cuBLAS in each run.

    python3 docs/results/2026-12-02-h200-small-m-b-in-place/table.py > table.txt
"""
import math
import re
from pathlib import Path

HERE = Path(__file__).parent


def ratios(name, kernel):
    """shape -> (× cuBLAS, ran 09?) from a `tcraw bench` log."""
    base, out = {}, {}
    for line in (HERE / name).read_text().splitlines():
        p = line.split()
        if len(p) > 4 and re.fullmatch(r"\d+×\d+×\d+", p[2]):
            if p[0] == "cublas":
                base[p[2]] = float(p[3])
            elif p[0] == kernel:
                out[p[2]] = (base[p[2]] / float(p[3]), " 09 " in line)
    return out


for key in ("fp16", "bf16"):
    runs = [("run2_small_m_06_fp16.txt", "before")] if key == "fp16" else []
    runs += [(f"run5_small_m_06_routed_{key}.txt", "run 5")]
    runs += [("run6_small_m_06_routed_fp16.txt", "run 6")] if key == "fp16" else []
    cols = [(label, ratios(name, f"wgmma_tma_{key}")) for name, label in runs]
    print(f"{key}: 06's pick × cuBLAS ({', '.join(label for label, _ in cols)}); 09: the pick ran 09")
    print(f"{'shape':>16} {'N%8':>4} " + " ".join(f"{label:>8}" for label, _ in cols) + "  ran")
    for shape in cols[0][1]:
        n = int(shape.split("×")[1])
        print(f"{shape:>16} {n % 8:>4} " + " ".join(f"{c[shape][0]:8.3f}" for _, c in cols)
              + ("  09" if cols[-1][1][shape][1] else ""))
    for label, c in cols:
        for what, keep in (("N off 8", lambda s: int(s.split("×")[1]) % 8), ("N on 8", lambda s: not int(s.split("×")[1]) % 8)):
            v = [r for s, (r, _) in c.items() if keep(s)]
            print(f"  {label} {what} ({len(v)} shapes): geomean {math.exp(sum(map(math.log, v)) / len(v)):.3f}, "
                  f"worst {min(v):.3f}, below 0.85× {sum(x < 0.85 for x in v)}")
    print()
