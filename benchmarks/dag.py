"""How the workflow scales with the number of jobs: building the DAG of a 20 000-job campaign (``snakemake -n``)
and the rate at which the local executor runs small select jobs, with each scheduler."""

from __future__ import annotations

import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

from benchmarks.common import ROOT

QUESTION = "How long does Snakemake take to build the DAG of a 20 000-job campaign, and how many small select jobs per second does the local executor run?"
DATA = ("Synthetic campaigns (MIT 9.520 Example 1 data, the fisher filter): 25 datasets x 8 methods x 10 folds x 10 settings "
        "for the DAG (quick: 5 x 4 x 10 x 10 = 2 000 jobs); 60 select jobs on one small dataset for the rate (quick: 24), 2 cores")
TOPIC = "scale"
RESULTS = "dag"


def big_campaign(n_datasets=25, n_methods=8, n_folds=10, n_settings=10) -> dict:
    """n_datasets x n_methods x n_folds x n_settings select jobs (20 000 by default)."""
    datasets = {f"syn{i:02d}": {"source": "mit_example1", "params": {"n": 40, "p": 20 + i, "k0": 3}} for i in range(n_datasets)}
    methods = {f"fisher{j}": {"method": "fisher", "settings": {"n_features_to_select": list(range(1, n_settings + 1))}}
               for j in range(n_methods)}  # fmt: skip
    return {"campaign": "scale", "datasets": datasets, "methods": methods,
            "splits": {"kind": "stratified_kfold", "n_splits": n_folds}, "inner_cv": {"n_splits": 3}}  # fmt: skip


def snakemake(workdir: Path, cfg: dict, *args: str) -> tuple[float, float, str]:
    """Wall time (s), peak RSS of the child (MB) and output of one snakemake call."""
    (workdir / "c.yaml").write_text(yaml.safe_dump(cfg))
    cmd = [sys.executable, "-m", "snakemake", "-s", str(ROOT / "Snakefile"), "-d", str(workdir),
           "--configfile", str(workdir / "c.yaml"), "--replace-workflow-config", *args]  # fmt: skip
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    if proc.returncode != 0:
        raise SystemExit(proc.stderr[-3000:])
    return wall, max(peak, before) / 1024, proc.stdout + proc.stderr


def run(case: str = "", quick: bool = False) -> list[dict]:
    rows = []
    shape = (5, 4, 10, 10) if quick else (25, 8, 10, 10)
    with tempfile.TemporaryDirectory() as tmp:
        wall, rss, out = snakemake(Path(tmp), big_campaign(*shape), "-n", "--quiet", "rules")
        n = int(re.search(r"select\s+(\d+)", out).group(1))
        total = int(re.search(r"total\s+(\d+)", out).group(1))
        rows.append({"measure": "snakemake -n (DAG)", "select_jobs": n, "jobs": total, "wall_s": round(wall, 1),
                     "peak_rss_mb": round(rss), "jobs_per_s": round(total / wall, 1)})  # fmt: skip
    rate_jobs = 24 if quick else 60
    for sched in ("greedy", "ilp"):
        cfg = big_campaign(n_datasets=1, n_methods=1, n_folds=rate_jobs // 6, n_settings=6)
        cfg["datasets"] = {"tiny": {"source": "mit_example1", "params": {"n": 60, "p": 10, "k0": 2}}}
        cfg["final_classifier"] = {"linear": {"C": [1.0]}}
        with tempfile.TemporaryDirectory() as tmp:
            wall, rss, out = snakemake(Path(tmp), cfg, "--cores", "2", "--scheduler", sched, "--quiet", "all")
            jobs = rate_jobs + 4
            rows.append({"measure": f"local run, --scheduler {sched}", "select_jobs": rate_jobs, "jobs": jobs,
                         "wall_s": round(wall, 1), "peak_rss_mb": round(rss), "jobs_per_s": round(jobs / wall, 2)})  # fmt: skip
    return rows
