"""Issue 34, goal 3: where one KP-FS off-the-shelf select job of jimenez2021 spends its CPU, and its record.

Runs the select job itself (``run_select_job`` with the export's config, the job's seed, every audit) for one
(dataset, C2 setting, outer fold), one BLAS thread, with the selector's ``fit`` wrapped to log each fit (the job
fit, the ``global_scaling`` refit) and, inside it, the isotropic inner CV and every Ipopt start of step 2
(round, start, iterations, objective/gradient evaluations, status, CPU seconds). Then compares the record with
the committed one field by field (``svmfs.reproduce.compare.compare_jobs``, as ``reproduce check`` does).

Usage: python benchmarks/bench_kp_fs_job.py DATASET SETTING FOLD > OUT.jsonl     (e.g. pima C2-0.99 5)
Writes one JSON line per logged step to stdout, then a summary line.
"""

from __future__ import annotations

import json
import sys
import time

from threadpoolctl import threadpool_limits

from bench_milp_job import load_job
from bench_mmfs import ROOT
from fit_logging import log_selector_fits

METHOD = "kp_fs_offshelf"


def emit(row: dict) -> None:
    print(json.dumps(row), flush=True)


def instrument():
    """Wrap the isotropic CV and each Ipopt start of step 2 so that they log their CPU seconds."""
    import svmfs.methods.kp_fs_offshelf as kp
    from svmfs.solvers import mmfs_nlp

    counts = {"obj": 0, "grad": 0}
    for name in ("objective", "gradient"):
        original = getattr(mmfs_nlp.KPWidthProblem, name)

        def counted(self, v, _f=original, _k=name[:4] if name == "gradient" else "obj"):
            counts[_k] += 1
            return _f(self, v)

        setattr(mmfs_nlp.KPWidthProblem, name, counted)
    cv, widths = kp.isotropic_cv, kp.solve_kp_widths

    def timed_cv(*a, **kw):
        c = time.process_time()
        out = cv(*a, **kw)
        emit({"step": "isotropic_cv", "C": out[0], "gamma_ini": out[1], "cpu_s": round(time.process_time() - c, 2)})
        return out

    def timed_widths(*a, **kw):
        counts.update(obj=0, grad=0)
        c = time.process_time()
        v, F, st, it = widths(*a, **kw)
        emit({"step": "ipopt_start", "status": st, "iterations": it, "objective_evals": counts["obj"],
              "gradient_evals": counts["grad"], "F": F, "cpu_s": round(time.process_time() - c, 2)})  # fmt: skip
        return v, F, st, it

    kp.isotropic_cv, kp.solve_kp_widths = timed_cv, timed_widths


def main(name: str, setting: str, fold_index: int):
    import pandas as pd

    import svmfs.protocol.select_job as sj
    from svmfs.config import method_settings
    from svmfs.protocol.seeds import job_seed
    from svmfs.reproduce.compare import compare_jobs
    import tempfile
    from pathlib import Path

    from svmfs.results.record import read_records, write_record

    cfg, camp, method_cfg, ds, folds = load_job(name, METHOD)
    fold = folds[fold_index]
    seed = job_seed(cfg["seed"], name, fold["fold"], METHOD, setting)
    instrument()
    fits = []

    def record(sel, X, wall_s, cpu_s):
        row = {"step": "fit", "i": len(fits), "status": sel.diagnostics_.get("status"),
               "message": sel.diagnostics_.get("message"), "cpu_s": round(cpu_s, 2)}  # fmt: skip
        fits.append(row)
        emit(row)

    log_selector_fits(record)
    c, t = time.process_time(), time.perf_counter()
    rec = sj.run_select_job(ds.X, ds.y, fold, METHOD, method_cfg, camp, seed, setting=method_settings(method_cfg)[setting])
    cpu, wall = time.process_time() - c, time.perf_counter() - t
    committed = pd.read_parquet(ROOT / "reproduction" / "jimenez2021" / "records.parquet")
    old = committed[(committed.dataset == name) & (committed.method == METHOD) & (committed.setting == setting)
                    & (committed.fold == fold["fold"])]  # fmt: skip
    rec.update(campaign=old.iloc[0]["campaign"], dataset=name, dataset_group=old.iloc[0]["dataset_group"], setting=setting,
               config_hash=old.iloc[0]["config_hash"], selected_names=[ds.feature_names[j] for j in rec["selected"]])  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:  # through the record files, as the workflow writes them
        write_record(rec, Path(tmp) / "r.json", Path(tmp) / "r.parquet")
        new = read_records([Path(tmp) / "r.json"])
    diff, path = next(iter(compare_jobs(old, new).values()))
    emit({"summary": {
        "dataset": name, "setting": setting, "fold": fold["fold"], "seed": seed, "job_cpu_s": round(cpu, 1),
        "job_wall_s": round(wall, 1), "fit_time_s": round(rec["fit_time_s"], 1),
        "committed_fit_time_s": round(float(old.iloc[0]["fit_time_s"]), 1), "fits_cpu_s": [f["cpu_s"] for f in fits],
        "status": rec["status"], "message": rec["message"], "record_differs": diff, "path_or_last_digits": path,
    }})  # fmt: skip


if __name__ == "__main__":
    with threadpool_limits(1):
        main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
