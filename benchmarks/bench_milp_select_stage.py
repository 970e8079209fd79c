"""Issue 34, goal 3: a jimenez2021 MILP-FS WDBC select job's own stages (the parts' scores merged, the refit, the
final classifier, the two in-job audits), CPU seconds each, in one process; the audit's fits logged one by one.

The rerun's session 7 logged 415-682 CPU s of audits for these jobs, while the same ``test_tuned`` candidates run as
``split_audit`` parts took 318-320 s (``bench_audit_parts.py``). This runs the select job from its inner parts'
files (a rerun's results folder) to see which stage, and which fit, takes the rest.

Usage: python benchmarks/bench_milp_select_stage.py PARTS_DIR FOLD > OUT.jsonl
       (PARTS_DIR: <results>/parts/wdbc/milp_fs/default/fold-<FOLD>, the inner-<k>-grid-<b>.json files)
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from bench_milp_job import load_job
from fit_logging import log_selector_fits


def main(parts_dir: Path, k: int) -> None:
    import svmfs.protocol.select_job as sj
    from svmfs.protocol.seeds import job_seed

    cfg, camp, method_cfg, ds, folds = load_job("wdbc")
    fold = folds[k]
    seed = job_seed(cfg["seed"], "wdbc", fold["fold"], "milp_fs", "default")
    files = sorted(p for p in parts_dir.glob("inner-*.json"))
    def record(sel, X, wall_s, cpu_s):
        d = sel.diagnostics_
        print(json.dumps({"C": sel.C, "n": int(X.shape[0]), "status": d.get("status"), "nodes": d.get("n_iter"),
                          "objective": d.get("objective"), "cpu_s": round(cpu_s, 1), "wall_s": round(wall_s, 1)}), flush=True)  # fmt: skip

    log_selector_fits(record)
    c = time.process_time()
    rec = sj.run_select_job(ds.X, ds.y, fold, "milp_fs", {**method_cfg, "inner_scores_from": files}, camp, seed)
    print(json.dumps({"fold": k, "whole_cpu_s": round(time.process_time() - c, 1), "C": rec["selector_params"]["C"],
                      "audit_test_tuned": rec["audit_test_tuned"], "audit_time_s": rec["audit_test_tuned_time_s"]}), flush=True)  # fmt: skip


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(Path(sys.argv[1]), int(sys.argv[2]))
