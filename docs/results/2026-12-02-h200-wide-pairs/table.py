"""The wide pairs' rule (kernels.wgmma_pairs_wide) against the picks it replaces, from this
directory's tune_ladder tables: for each shape, the rule's pick ("picked") and the configuration
06 picked before it (its pick with the rule off, as the kernels module computes it), both as
× cuBLAS from the same call. Both picks are recomputed from tcraw.kernels: as committed with these
results they are the ones the runs made (a later change to the picker changes this table). Run
from the repository root: python3 docs/results/2026-12-02-h200-wide-pairs/table.py"""
import math
import re
import sys
from pathlib import Path

sys.path.insert(0, ".")
from tcraw import kernels, wgmma  # noqa: E402

HERE = Path(__file__).parent
SPELT = {"BN=256+CLUSTER=1+STAGES=4": {"CONSUMERS": 2, "BN": 256, "CLUSTER": 1},
         "BN=128+CLUSTER=1+STAGES=6": {"CONSUMERS": 2, "BN": 128, "CLUSTER": 1},
         "CONSUMERS=1+BN=256+CLUSTER=2+STAGES=5+WAIT_DEPTH=1": {"CONSUMERS": 1, "BN": 256, "CLUSTER": 2},
         "CONSUMERS=1+BN=192+CLUSTER=2+STAGES=6+WAIT_DEPTH=1": {"CONSUMERS": 1, "BN": 192, "CLUSTER": 2}}


def rows(path):
    out = {}
    for line in path.read_text().splitlines():
        f = line.split()
        if len(f) > 9 and f[0].startswith("wgmma_") and f[9] == "PASS":   # (kernel ... × cuBLAS, err, bound, check)
            label = re.search(r"\[(.*)\]", f[0]).group(1)
            m, n, k = map(int, f[2].split("×"))
            out[(m, n, k), label] = float(f[6])
    return out


def old_pick(m, n, k):
    busy, wgmma.WIDE_PAIRS_BUSY = wgmma.WIDE_PAIRS_BUSY, 2.0   # (no width fills twice the clusters; tcraw.wgmma since 2026-12-04)
    try:
        return kernels.wgmma_pick(m, n, k, 132)
    finally:
        wgmma.WIDE_PAIRS_BUSY = busy


def label_of(config):
    return next((lb for lb, c in SPELT.items() if all(config.get(k) == v for k, v in c.items())), None)


# run 5 ran before the rule: its "picked" is the pick before it, the rule's pick a fixed variant;
# run 6 after: "picked" is the rule's, the pick before it a fixed variant
for name, before_rule in [(p, "stream128" in p.name) for p in sorted(HERE.glob("run*_*.txt"))
                          if "fresh" in p.name or "stream128" in p.name]:
    table = rows(name)
    shapes = sorted({s for s, _ in table}, key=lambda s: (s[1], s[0]))
    print(f"{name.name}: the rule's pick against the pick before it, × cuBLAS (same call)")
    ratios = []
    for s in shapes:
        old, new_config = old_pick(*s), kernels.wgmma_pick(*s, 132)
        if old == new_config:
            print(f"  {'×'.join(map(str, s)):>16}  the pick unchanged ({label_of(old) or old})")
            continue
        if before_rule:
            was, new = table.get((s, "picked")), table.get((s, label_of(new_config)))
        else:
            was, new = table.get((s, label_of(old))), table.get((s, "picked"))
        if new is None or was is None:   # (a pick among none of the timed configurations)
            print(f"  {'×'.join(map(str, s)):>16}  not timed: before {old}, now {new_config}")
            continue
        ratios.append(new / was)
        print(f"  {'×'.join(map(str, s)):>16}  {was:.3f} → {new:.3f}  ({new / was:.3f}× the rate)  "
              f"before: {label_of(old)}, now: {label_of(new_config)}")
    if ratios:
        print(f"  geomean: {math.exp(sum(map(math.log, ratios)) / len(ratios)):.3f}× the rate "
              f"({sum(r > 1.005 for r in ratios)} faster, {sum(r < 0.995 for r in ratios)} slower of {len(ratios)} "
              "where the rule fires)")
