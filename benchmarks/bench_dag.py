"""Scale benchmark: DAG construction of a 20 000-job campaign, and the local scheduling rate.

Usage: python benchmarks/bench_dag.py [--jobs-only]
Writes nothing into the project; prints a Markdown block for benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import platform
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def big_campaign(n_datasets=25, n_methods=8, n_folds=10, n_settings=10) -> dict:
    """n_datasets x n_methods x n_folds x n_settings select jobs (20 000 by default)."""
    datasets = {f"syn{i:02d}": {"source": "mit_example1", "params": {"n": 40, "p": 20 + i, "k0": 3}} for i in range(n_datasets)}
    methods = {
        f"fisher{j}": {"method": "fisher", "settings": {"n_features_to_select": list(range(1, n_settings + 1))}}
        for j in range(n_methods)
    }
    return {"campaign": "scale", "datasets": datasets, "methods": methods, "splits": {"kind": "stratified_kfold", "n_splits": n_folds}, "inner_cv": {"n_splits": 3}}


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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rate-jobs", type=int, default=60, help="select jobs in the scheduling-rate run")
    args = ap.parse_args()
    lines = [f"machine: {platform.node()}, {platform.processor() or platform.machine()}, 2 cores, 24 GiB; Python {platform.python_version()}"]
    with tempfile.TemporaryDirectory() as tmp:
        wall, rss, out = snakemake(Path(tmp), big_campaign(), "-n", "--quiet", "rules")
        n = int(re.search(r"select\s+(\d+)", out).group(1))
        lines.append(f"- `snakemake -n` on a campaign of {n} select jobs ({n + 25 * 2 + 4} jobs in all): {wall:.1f} s, peak RSS {rss:.0f} MB")
    for sched in ("greedy", "ilp"):
        cfg = big_campaign(n_datasets=1, n_methods=1, n_folds=args.rate_jobs // 6, n_settings=6)
        cfg["datasets"] = {"tiny": {"source": "mit_example1", "params": {"n": 60, "p": 10, "k0": 2}}}
        cfg["final_classifier"] = {"linear": {"C": [1.0]}}
        with tempfile.TemporaryDirectory() as tmp:
            wall, _, out = snakemake(Path(tmp), cfg, "--cores", "2", "--scheduler", sched, "--quiet", "all")
            jobs = args.rate_jobs + 4
            lines.append(f"- local run, `--scheduler {sched}`, {jobs} jobs (each a Python process fitting a small selector): {wall:.1f} s, {jobs / wall:.2f} jobs/s")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
