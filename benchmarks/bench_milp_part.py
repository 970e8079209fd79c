"""Issue 34, goal 3: one MILP-FS part of jimenez2021 (``split_grid``: an inner fold's block of the C grid) timed
on its own, e.g. on an idle machine, and its scores compared with those the workflow's part wrote.

Runs ``run_inner_folds`` as rule select_part does (jimenez2021.yaml's config, the job's seed, the part's inner fold
and block) in the results folder of a run of the campaign, and prints one JSON line: CPU and wall seconds, and
whether the scores equal the part file's.

Usage (from a clone that ran the campaign, its results under results/jimenez2021):
    OMP_NUM_THREADS=1 python benchmarks/bench_milp_part.py FOLD PART      # e.g. 9 inner-1-grid-1
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path


def main(fold_k: int, part: str, root: Path = Path(".")) -> dict:
    from svmfs.config import grid_block, job_campaign_config, job_method_config, load_config
    from svmfs.data.canonical import load_dataset
    from svmfs.protocol.seeds import job_seed
    from svmfs.protocol.select_job import run_inner_folds

    cfg = load_config(root / "config" / "campaigns" / "jimenez2021.yaml", workdir=root)
    res = root / "results" / "jimenez2021"
    ds = load_dataset(res / "datasets" / "wdbc.npz", res / "datasets" / "wdbc.json")
    fold = json.loads((res / "splits" / "wdbc.json").read_text())["folds"][fold_k]
    mcfg = job_method_config(cfg, "wdbc", "milp_fs")
    inner, block = grid_block(mcfg, part)
    seed = job_seed(cfg["seed"], "wdbc", fold_k, "milp_fs", "default")
    t0, c0 = time.perf_counter(), time.process_time()
    scores = run_inner_folds(ds.X, ds.y, fold, "milp_fs", mcfg, job_campaign_config(cfg, "wdbc", "milp_fs"), seed, [inner], grid_block=block)
    cpu, wall = time.process_time() - c0, time.perf_counter() - t0
    written = json.loads((res / "parts" / "wdbc" / "milp_fs" / "default" / f"fold-{fold_k}" / f"{part}.json").read_text())
    return {"part": f"wdbc/milp_fs/default/fold-{fold_k}/{part}", "block": block, "cpu_s": round(cpu, 1), "wall_s": round(wall, 1),
            "same_scores_as_the_part_file": json.loads(json.dumps(scores)) == written["scores"]}  # fmt: skip


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]), sys.argv[2])))
