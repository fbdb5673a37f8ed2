"""ptxas's spills for three consumers' swapped tiles as 06 builds them (sm_90, this machine's NVRTC;
no GPU needed), run from the repository root:

    python docs/results/2026-12-04-h200-survey-4/spills.py > docs/results/2026-12-04-h200-survey-4/spills_nvrtc.txt
"""
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from cuda.bindings import nvrtc   # noqa: E402
from tcraw import compiler, kernels   # noqa: E402
print("NVRTC", "%d.%d" % nvrtc.nvrtcVersion()[1:])
for bn in (144, 160, 176):
    for cluster, share_a in ((1, 0), (2, 0), (2, 1), (4, 1)):
        tile = {"SWAP_AB": 1, "CONSUMERS": 3, "BN": bn, "CLUSTER": cluster, "SHARE_A": share_a,
                "STAGES": kernels.wgmma_max_stages(3, bn, swap=True)}
        try:
            log = compiler.compile_cubin(kernels.wgmma_kernel("fp16", tile, choose=False), "sm_90", cache=False).log
            spills = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", log).groups()
            print(f"BN={bn} CLUSTER={cluster} SHARE_A={share_a} STAGES={tile['STAGES']}: "
                  f"{spills[0]} bytes spill stores, {spills[1]} bytes spill loads")
        except Exception as exc:
            print(f"BN={bn} CLUSTER={cluster} SHARE_A={share_a}: refused — {str(exc)[:120]}")
