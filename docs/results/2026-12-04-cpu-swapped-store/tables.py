"""spills_before.txt against spills_after.txt (scripts/swapped_spills.py on the kernel sources before
— `--sources` 8923be1's cuda_src/ — and after store_c's swapped addresses were made four bases a
thread): by consumers, how many swapped
configurations built, how many spilled and the most, and the SASS instruction counts' ratio
(after / before, geomean over those both built). Prints tables.txt's text."""
import math
import re
from pathlib import Path

LINE = re.compile(r"^(SWAP_AB=\S+): (?:(\d+) registers, (\d+) bytes spilled, (\d+) SASS instructions, "
                  r"(\d+) integer arithmetic|(.*))$")


def read(name):
    rows = {}
    for line in (Path(__file__).parent / name).read_text().splitlines():
        if (m := LINE.match(line)):
            spec = dict(kv.split("=") for kv in m.group(1).split(","))
            rows[m.group(1)] = (int(spec["CONSUMERS"]), int(spec["BN"]),
                                None if m.group(2) is None else tuple(int(m.group(i)) for i in range(2, 6)))
    return rows


def geomean(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


before, after = read("spills_before.txt"), read("spills_after.txt")
print("consumers | built before / after | spilled before / after | most spilled before (bytes, at BN) | "
      "SASS instructions after/before | integer arithmetic after/before")
for consumers in (1, 2, 3):
    keys = [k for k, v in after.items() if v[0] == consumers]
    built_b = [k for k in keys if before.get(k, (0, 0, None))[2]]
    built_a = [k for k in keys if after[k][2]]
    spilled_b = [k for k in built_b if before[k][2][1]]
    spilled_a = [k for k in built_a if after[k][2][1]]
    most = max(((before[k][2][1], before[k][1]) for k in spilled_b), default=(0, "-"))
    both = [k for k in built_b if k in built_a]
    ins = geomean([after[k][2][2] / before[k][2][2] for k in both])
    ints = geomean([after[k][2][3] / before[k][2][3] for k in both])
    print(f"{consumers} | {len(built_b)} / {len(built_a)} | {len(spilled_b)} / {len(spilled_a)} | "
          f"{most[0]} at {most[1]} | {ins:.3f} | {ints:.3f}")
print()
print("spilled before (bytes, stores + loads), by consumers and BN of M: the cluster shapes' range")
for consumers in (1, 2, 3):
    by_bn = {}
    for k, (c, bn, r) in before.items():
        if c == consumers and r and r[1]:
            by_bn.setdefault(bn, []).append(r[1])
    print(f"{consumers}: " + ", ".join(f"{bn}: {min(v)}–{max(v)}" if min(v) != max(v) else f"{bn}: {v[0]}"
                                     for bn, v in sorted(by_bn.items())))
