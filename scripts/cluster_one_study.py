"""06's pick beside the pick made without two and three consumers' tiles in clusters of 1, side by
side with cuBLAS, in one process, on the same buffers (issue 14: large problems whose pick runs in
clusters of 1 ran at 0.79× cuBLAS where tiles in clusters of 2 beat it at 11 of 12 —
docs/results/2026-12-05-h100-low-fit/, run 7). The second picker is wgmma_config with those
configurations left out of wgmma_ranked's list, every rule after it as it stands: the rule a
change to the picker would make, timed before it is made. It was made, with the exceptions these
runs found (kernels.wgmma_leaves_clusters_of_one; `swap_fit_study.py --rule` times it), so the
first picker ("[before]") is wgmma_config with that rule held off, as runs 1–2 of
docs/results/2026-12-05-h100-cluster-one/ timed it.

    python scripts/cluster_one_study.py --shapes scripts/shapes/cluster_one_big.txt --precision bf16
"""

import dataclasses
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from swap_fit_study import parsed, picker_before, side_by_side, study_parser  # noqa: E402
from tcraw import kernels, wgmma  # noqa: E402
from tcraw.wgmma import in_clusters_of_one  # noqa: E402
from tcraw.bench import parse_shapes  # noqa: E402
from tcraw.errors import run_main  # noqa: E402


def picker_without_cluster_one(elem_bytes):
    """wgmma_config with in_clusters_of_one's configurations out of the ranking for the call (all
    of it where nothing else is left)."""
    def pick(m, n, k, sms):
        ranked = wgmma.wgmma_ranked

        def without(*args, **kw):
            entries = ranked(*args, **kw)
            return [r for r in entries if not in_clusters_of_one(r[4])] or entries
        wgmma.wgmma_ranked = without
        try:
            return wgmma.wgmma_config(m, n, k, sms, elem_bytes)
        finally:
            wgmma.wgmma_ranked = ranked
    return pick


def main():
    args = parsed(study_parser(__doc__))
    now = kernels.wgmma_kernel(args.precision)
    before = picker_before(2, None, "wgmma_leaves_clusters_of_one")
    rung = [dataclasses.replace(now, name=f"{now.name}[before]", pick=before),
            dataclasses.replace(now, name=f"{now.name}[no-cluster-1]", pick=picker_without_cluster_one(2))]
    side_by_side(args.precision, parse_shapes(args.shapes), rung, args.iters, args.seed)


if __name__ == "__main__":
    run_main("cluster_one_study", main)
