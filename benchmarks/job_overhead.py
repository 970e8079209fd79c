"""The fixed cost of a select job (process start, imports, reading, writing) against its fits, with the warm
worker (``SVMFS_WORKER=1``, the default) and without it.

A campaign of one fast method (the fisher filter) on WDBC, 60 select jobs (10 outer folds x 6 kept counts), run by
Snakemake on 2 cores in a copy of the workflow. Per select job: the benchmark file's wall time (``s``) and the
record's ``fit_time_s + tune_time_s`` (the selector's inner-CV tuning and final fit); their difference is the job's
fixed cost; the job log's "final classifier: ... s" (its inner-CV tuning, refit and test scoring) is summed apart.
With the warm worker the benchmark's ``cpu_time`` covers only the client; the forked child's CPU time is in the
job's log (``worker child: cpu ...``) and is added. Jobs per minute: from the first to the last record written.
"""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

from benchmarks.common import ROOT, WORK

QUESTION = "What does a select job cost beyond its fits, with the warm worker and without it, and how many fast jobs run per minute?"
DATA = "60 fisher select jobs on WDBC (10 outer folds x 6 kept counts, 5 inner folds), Snakemake on 2 cores, worker on and off (quick: 5 outer folds, 30 jobs)"
TOPIC = "workflow overhead"
RESULTS = "job_overhead"
CHILD_CPU = re.compile(r"worker child: cpu ([0-9.]+) s")
FINAL = re.compile(r"final classifier: inner-CV tuning, refit and test scoring ([0-9.]+) s")
THROUGHPUT = {
    "campaign": "default", "seed": 1, "datasets": {"wdbc": {}}, "splits": {"kind": "stratified_kfold", "n_splits": 10},
    "normalization": {"method": "zscore", "scope": "fold"}, "inner_cv": {"n_splits": 5},
    "final_classifier": {"linear": {"C": [0.01, 0.1, 1.0, 10.0]}},
    "methods": {"fisher": {"settings": {"n_features_to_select": [1, 2, 3, 5, 10, 20]}}},
}  # fmt: skip


def run_campaign(dest: Path, worker: bool, config: Path) -> float:
    """Copy the workflow to ``dest`` and run ``config`` there; the elapsed seconds."""
    for item in ("Snakefile", "workflow", "scripts", "config", "envs", "src"):
        src = ROOT / item
        if src.exists() and not (dest / item).exists():
            (shutil.copytree if src.is_dir() else shutil.copy)(src, dest / item)
    env = {**os.environ, "PYTHONPATH": str(dest / "src"), "SVMFS_WORKER": "1" if worker else "0"}
    cmd = [sys.executable, "-m", "snakemake", "--cores", "2", "--workflow-profile", "workflow/profiles/default",
           "--configfile", str(config), "--replace-workflow-config"]  # fmt: skip
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=dest, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0


def summarize(out: Path) -> dict:
    rows = []
    for bench in sorted((out / "benchmarks" / "select").rglob("fold-*.tsv")):
        rel = bench.relative_to(out / "benchmarks" / "select").with_suffix("")
        rec = json.loads((out / "runs" / rel).with_suffix(".json").read_text())
        with bench.open() as f:
            b = next(csv.DictReader(f, delimiter="\t"))
        log = (out / "logs" / "select" / rel).with_suffix(".log")
        text = log.read_text() if log.exists() else ""
        m, f = CHILD_CPU.search(text), FINAL.search(text)
        rows.append({"wall": float(b["s"]), "cpu": float(b["cpu_time"]) + (float(m.group(1)) if m else 0.0),
                     "fit_tune": float(rec["fit_time_s"]) + float(rec["tune_time_s"]), "final": float(f.group(1)) if f else float("nan")})  # fmt: skip
    n = len(rows)
    wall, cpu, fit, final = (sum(r[k] for r in rows) for k in ("wall", "cpu", "fit_tune", "final"))
    times = sorted(p.stat().st_mtime for p in (out / "runs").rglob("fold-*.json"))
    rate = (len(times) - 1) / (times[-1] - times[0]) * 60 if len(times) > 1 else None
    return {"select_jobs": n, "jobs_wall_s": round(wall, 1), "jobs_cpu_s": round(cpu, 1), "fit_tune_s": round(fit, 2),
            "final_classifier_s": round(final, 2), "wall_per_job_s": round(wall / n, 3),
            "fixed_per_job_s": round((wall - fit - final) / n, 3), "cpu_per_job_s": round(cpu / n, 3),
            "jobs_per_minute": round(rate, 1) if rate else None}  # fmt: skip


def run(case: str = "", quick: bool = False) -> list[dict]:
    cfg = {**THROUGHPUT, "splits": {**THROUGHPUT["splits"], "n_splits": 5 if quick else 10}}
    rows = []
    WORK.mkdir(parents=True, exist_ok=True)
    for worker in (True, False):
        with tempfile.TemporaryDirectory(dir=WORK) as tmp:
            dest = Path(tmp)
            (dest / "throughput.yaml").write_text(yaml.safe_dump(cfg))
            elapsed = run_campaign(dest, worker, dest / "throughput.yaml")
            rows.append({"worker": "on" if worker else "off", "campaign_elapsed_s": round(elapsed, 1),
                         **summarize(dest / "results" / "default")})  # fmt: skip
    return rows
