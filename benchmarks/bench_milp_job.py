"""Issue 34, goal 3: where one MILP-FS select job of jimenez2021 spends its time, fit by fit.

Runs the select job itself (``run_select_job`` with the export's config, the job's seed, every audit) on one
outer fold, with the selector's ``fit`` wrapped to log each MILP: its phase (inner fold k, the refit, the
``test_tuned`` audit's candidates, the ``global_scaling`` refit), C, route, status, branch-and-bound nodes,
objective, bound, wall and CPU seconds. Then compares the record with the committed one (selection, chosen C,
test accuracy, objective).

Usage: python benchmarks/bench_milp_job.py DATASET FOLD [key=value ...] > OUT.jsonl
       (key=value: MILP-FS parameters overriding the campaign's, e.g. time_limit=3600.0, so that on a loaded
       machine the wall-clock safety net does not cut a fit short of its node limit)
Writes one JSON line per fit to stdout, then a summary.

``--table OUT.jsonl ...``: the markdown tables of RESULTS.md from such outputs: CPU seconds per part of the job
as ``split_inner_folds`` lays it out (one select_part per inner fold; the select job: the refit, the
``test_tuned`` candidates, the ``global_scaling`` refit), and the fits that cost (over 5 s).
"""

from __future__ import annotations

import json
import sys
import time

import numpy as np
import yaml
from threadpoolctl import threadpool_limits

from bench_mmfs import ROOT, SHARED
from fit_logging import log_selector_fits


def load_job(name: str, method: str = "milp_fs"):
    from svmfs.config import job_campaign_config, job_method_config, load_config
    from svmfs.data.embedded import sklearn_breast_cancer
    from svmfs.data.formats import read_download
    from svmfs.data.registry import load_registry
    from svmfs.protocol.seeds import splits_seed
    from svmfs.protocol.splits import make_splits

    cfg = load_config(ROOT / "reproduction" / "jimenez2021" / "config.yaml", workdir=ROOT)
    camp, method_cfg = job_campaign_config(cfg, name, method), job_method_config(cfg, name, method)
    if name == "wdbc":
        ds = sklearn_breast_cancer("wdbc")
    else:
        ds = read_download(name, load_registry(ROOT / "config" / "datasets.yaml")[name], SHARED)
    folds = make_splits(ds.y, camp["splits"], splits_seed(cfg["seed"], name), name)
    return cfg, camp, method_cfg, ds, folds


def main(name: str, fold_index: int, overrides: dict):
    import pandas as pd

    import svmfs.protocol.select_job as sj
    from svmfs.protocol.seeds import job_seed

    cfg, camp, method_cfg, ds, folds = load_job(name)
    method_cfg = {**method_cfg, "params": {**method_cfg.get("params", {}), **overrides}}
    fold = folds[fold_index]
    seed = job_seed(cfg["seed"], name, fold["fold"], "milp_fs", "default")
    n_inner = int(camp["inner_cv"]["n_splits"])
    n_grid = len(method_cfg["grid"]["C"])
    fits = []
    def record(sel, X, wall_s, cpu_s):
        i = len(fits)
        phase = (f"inner {i // n_grid}" if i < n_inner * n_grid else "refit" if i == n_inner * n_grid
                 else "test_tuned" if i <= n_inner * n_grid + n_grid - 1 else "global_scaling")  # fmt: skip
        d = sel.diagnostics_
        row = {"i": i, "phase": phase, "C": sel.C, "n": int(X.shape[0]), "route": d.get("route"),
               "status": d.get("status"), "nodes": d.get("n_iter"), "objective": d.get("objective"),
               "bound": d.get("bound"), "n_selected": int(sel.support_.sum()),
               "wall_s": round(wall_s, 2), "cpu_s": round(cpu_s, 2)}  # fmt: skip
        fits.append(row)
        print(json.dumps(row), flush=True)

    log_selector_fits(record)
    t = time.perf_counter()
    rec = sj.run_select_job(ds.X, ds.y, fold, "milp_fs", method_cfg, camp, seed)
    wall = time.perf_counter() - t
    committed = pd.read_parquet(ROOT / "reproduction" / "jimenez2021" / "records.parquet")
    c = committed[(committed.dataset == name) & (committed.method == "milp_fs") & (committed.fold == fold["fold"])].iloc[0]
    summary = {
        "dataset": name, "fold": fold["fold"], "overrides": overrides, "job_wall_s": round(wall, 1),
        "fits": len(fits), "fits_cpu_s": round(sum(f["cpu_s"] for f in fits), 1),
        "chosen_C": rec["selector_params"]["C"], "committed_C": json.loads(c["selector_params"])["C"],
        "selected": rec["selected"], "same_selection": rec["selected"] == json.loads(c["selected"]),
        "test_accuracy": rec["test_accuracy"], "committed_test_accuracy": float(c["test_accuracy"]),
        "objective": rec["objective"], "committed_objective": float(c["objective"]),
        "inner_accuracy": rec["inner_accuracy"], "committed_inner_accuracy": float(c["inner_accuracy"]),
        "audit_test_tuned_accuracy": rec["audit_test_tuned_accuracy"],
        "committed_audit_test_tuned_accuracy": float(c["audit_test_tuned_accuracy"]),
        "audit_test_tuned": rec["audit_test_tuned"], "committed_audit_test_tuned": json.loads(c["audit_test_tuned"]),
    }  # fmt: skip
    print(json.dumps({"summary": summary}), flush=True)


def tables(paths):
    print("| job | part | fits | CPU s | of which C = 100 | of which C = 1e4 | nodes (C = 100 / 1e4) | status (C = 100 / 1e4) |")
    print("| --- | --- | ---: | ---: | ---: | ---: | --- | --- |")
    for path in paths:
        rows = [json.loads(line) for line in open(path)]
        fits, summary = [r for r in rows if "phase" in r], next((r["summary"] for r in rows if "summary" in r), None)
        job = f"wdbc fold {summary['fold']}" if summary else path
        parts: dict[str, list] = {}
        for r in fits:
            parts.setdefault(r["phase"] if r["phase"].startswith("inner") else "select (refit + audits)", []).append(r)
        for name, rs in parts.items():
            by_c = {r["C"]: r for r in rs}
            cell = lambda C, k: "-" if C not in by_c else str(by_c[C][k])  # noqa: E731
            cpu = lambda C: "-" if C not in by_c else f"{by_c[C]['cpu_s']:.1f}"  # noqa: E731
            print(f"| {job} | {name} | {len(rs)} | {sum(r['cpu_s'] for r in rs):.1f} | {cpu(100.0)} | {cpu(10000.0)} "
                  f"| {cell(100.0, 'nodes')} / {cell(10000.0, 'nodes')} | {cell(100.0, 'status')} / {cell(10000.0, 'status')} |")  # fmt: skip
        if summary:
            print(f"| {job} | whole job | {len(fits)} | {sum(r['cpu_s'] for r in fits):.1f} (wall {summary['job_wall_s']:.0f}) | "
                  f"| | | |")  # fmt: skip


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--table"]:
        tables(args[1:])
        sys.exit()
    over = {k: yaml.safe_load(v) for k, v in (a.split("=", 1) for a in args[2:])}
    with threadpool_limits(1):
        main(args[0], int(args[1]), over)
