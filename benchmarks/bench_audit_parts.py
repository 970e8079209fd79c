"""Issue 34, goal 3: the ``test_tuned`` audit of a jimenez2021 MILP-FS WDBC select job run as parts of its own
(``methods.milp_fs.split_audit``), timed part by part, and its result checked against the committed record.

The audit is the select job's longest stage there: the selector refitted on the whole training side at each C
of the grid but the nested choice, each scored on the test side (benchmarks/RESULTS.md, "jimenez2021's rerun,
session 7": 415-682 CPU s of a 419-685 s job). With ``split_audit`` each block of the grid is a ``select_part``
job (:func:`svmfs.protocol.select_job.run_audit_part`) that runs beside the inner folds, and the select job only
merges (:func:`svmfs.protocol.audits.best_on_test_side`). This script runs those parts for one outer fold, with
the export's config and the job's seed, and merges them with the committed record's nested choice (its chosen
C, test accuracy and size): the merged audit must be the committed ``audit_test_tuned`` and its accuracy.

Usage: python benchmarks/bench_audit_parts.py FOLD [FOLD ...] [--blocks campaign|each] > OUT.jsonl
       (``campaign``: the ``split_grid`` blocks of config/campaigns/jimenez2021.yaml; ``each``: one block per C)
Writes one JSON line per part, then one per fold (the merge against the record).
"""

from __future__ import annotations

import json
import sys
import time

import pandas as pd
import yaml
from threadpoolctl import threadpool_limits

from bench_milp_job import load_job
from bench_mmfs import ROOT


def main(folds: list[int], blocks_kind: str) -> None:
    from svmfs.protocol.audits import best_on_test_side
    from svmfs.protocol.classifiers import final_grid
    from svmfs.protocol.seeds import job_seed
    from svmfs.protocol.select_job import run_audit_part

    cfg, camp, method_cfg, ds, all_folds = load_job("wdbc")
    grid = method_cfg["grid"]["C"]
    campaign_file = yaml.safe_load((ROOT / "config" / "campaigns" / "jimenez2021.yaml").read_text())
    blocks = campaign_file["methods"]["milp_fs"]["split_grid"] if blocks_kind == "campaign" else [{"C": [c]} for c in grid]
    records = pd.read_parquet(ROOT / "reproduction" / "jimenez2021" / "records.parquet")
    records = records[(records["dataset"] == "wdbc") & (records["method"] == "milp_fs")].set_index("fold")
    for k in folds:
        fold = all_folds[k]
        seed = job_seed(cfg["seed"], "wdbc", fold["fold"], "milp_fs", "default")
        rows = []
        for b, block in enumerate(blocks):
            wall, cpu = time.perf_counter(), time.process_time()
            with threadpool_limits(1):
                part = run_audit_part(ds.X, ds.y, fold, "milp_fs", method_cfg, camp, seed, grid_block=block)
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            rows += json.loads(json.dumps(part))  # through JSON, as the part's file
            print(json.dumps({"fold": k, "part": f"audit-grid-{b}", "C": block["C"], "cpu_s": round(cpu, 1),
                              "wall_s": round(wall, 1), "candidates": len(part)}), flush=True)  # fmt: skip
        rec = records.loc[k]
        nested = {"selector_params": json.loads(rec["selector_params"]), "final_params": json.loads(rec["final_params"]),
                  "accuracy": float(rec["test_accuracy"]), "n_selected": int(rec["n_selected"])}  # fmt: skip
        choice = best_on_test_side(rows, nested, final_grid("own", {}), len(grid))
        committed = json.loads(rec["audit_test_tuned"])
        got = {**choice, "selector_params": {**nested["selector_params"], **choice["selector_params"]}}
        accuracy = got.pop("accuracy")
        print(json.dumps({"fold": k, "merged_C": got["selector_params"]["C"], "committed_C": committed["selector_params"]["C"],
                          "same_audit": got == committed, "same_accuracy": accuracy == float(rec["audit_test_tuned_accuracy"])}),
              flush=True)  # fmt: skip


if __name__ == "__main__":
    args = sys.argv[1:]
    kind = "campaign"
    if "--blocks" in args:
        i = args.index("--blocks")
        kind = args[i + 1]
        del args[i : i + 2]
    if kind not in ("campaign", "each") or not args:
        sys.exit(__doc__)
    main([int(a) for a in args], kind)
