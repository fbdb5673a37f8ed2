"""The tables of this directory's README from its raw files (tune_ladder and `tcraw bench` logs,
unedited):

    python docs/results/2026-12-04-h200-in-flight/tables.py > docs/results/2026-12-04-h200-in-flight/tables.txt

Run 2: two consumers' swapped picks of BN ≤ 32, now built with a slice's MMAs in flight, beside
themselves without (picked:WAIT_DEPTH=0, the old default) on 24 shapes drawn after the rule; three
consumers' swapped picks (then built without) beside WAIT_DEPTH=1 on 8 probe shapes; the llm
suites. Run 3: three consumers' swapped picks, now built with it, beside themselves without on 12
shapes drawn after.
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2] / "scripts"))
from ladder_log import ROW, before_after, ladder, rows   # noqa: E402  (scripts/: the logs' reader)


def rule_against_old(key, path, new, old):
    """before_after's line for the pick with the rule (``new``) against without (``old``)."""
    table = rows(path)
    after = [t["cublas"] / t[new] for t in table.values()]
    before = [t["cublas"] / t[old] for t in table.values()]
    return before_after(key, before, after)


def pick_against_without(name):
    """The fp16 and bf16 logs runN_NAME_KEY.txt of the pick beside picked:WAIT_DEPTH=0: tables, then
    a line each."""
    for key in ("fp16", "bf16"):
        ladder(HERE / f"{name}_{key}.txt")
    for key in ("fp16", "bf16"):
        print(rule_against_old(key, HERE / f"{name}_{key}.txt", "picked", "picked+WAIT_DEPTH=0"))


def main():
    print("# Run 2: two consumers' swapped picks of BN ≤ 32 with a slice in flight (v0, the pick) "
          "and without (v1, the old default)\n")
    pick_against_without("run2_in_flight_fresh")
    print("\n# Run 2: three consumers' swapped picks then built without (v0) and with a slice in flight (v1), "
          "the probe\n")
    ladder(HERE / "run2_in_flight_three_fp16.txt")
    print(rule_against_old("fp16", HERE / "run2_in_flight_three_fp16.txt", "picked+WAIT_DEPTH=1", "picked"))
    print("\n# Run 3: three consumers' swapped picks with a slice in flight (v0, the pick) and without (v1), "
          "shapes drawn after\n")
    pick_against_without("run3_in_flight_three_fresh")
    print("\n# Run 2: the llm suites' M = 16 rows (`tcraw bench`, 10 launches; each suite's geomean line below)\n")
    for key in ("fp16", "bf16"):
        lines = (HERE / f"run2_suite_llm_{key}.txt").read_text().splitlines()
        for line in lines:
            if (m := ROW.match(line)) and m.group(2).startswith("16×") and not line.startswith("cublas"):
                print(f"  {key} {m.group(2):16s} × cuBLAS {line.split()[6]}")
        geo = next(i for i, line in enumerate(lines) if "geomean" in line)
        print("  " + lines[geo + 2].strip())
    print()


if __name__ == "__main__":
    main()
