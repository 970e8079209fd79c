"""Issue 20 goal 4: the fixed cost of a select job (process start, imports, reading, writing) against its fits.

Summarizes one or more finished campaign result folders: per select job, the benchmark file's wall time
(``s``) and the record's ``fit_time_s + tune_time_s`` (inner-CV tuning of the selector and its final
fit; the final classifier's own tuning is in neither), the difference being the job's fixed cost; the job
log's "final classifier: ... s" (its inner-CV tuning, refit and test scoring) is summed apart. With a
warm worker the benchmark's ``cpu_time`` covers only the client; the forked child's CPU time is in the
job's log (``worker child: cpu ...``) and is added here.

    # the default campaign with the worker (the default) and without it (SVMFS_WORKER=0), in copies:
    python benchmarks/bench_job_overhead.py --run /tmp/after --worker on
    python benchmarks/bench_job_overhead.py --run /tmp/nowork --worker off
    # select jobs per minute for a fast method (60 fisher jobs on WDBC):
    python benchmarks/bench_job_overhead.py --run /tmp/tp --throughput
    # or summarize existing result folders (e.g. a run of the commit before the worker):
    python benchmarks/bench_job_overhead.py /tmp/base/results/default /tmp/after/results/default
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHILD_CPU = re.compile(r"worker child: cpu ([0-9.]+) s")
FINAL = re.compile(r"final classifier: inner-CV tuning, refit and test scoring ([0-9.]+) s")


def run_campaign(dest: Path, worker: bool, config: Path | None = None) -> float:
    """Copy the workflow to ``dest`` and run the default campaign there; return the elapsed seconds."""
    for item in ("Snakefile", "workflow", "scripts", "config", "envs", "src"):
        src = ROOT / item
        if not (dest / item).exists():
            (shutil.copytree if src.is_dir() else shutil.copy)(src, dest / item)
    env = {**os.environ, "PYTHONPATH": str(dest / "src"), "SVMFS_WORKER": "1" if worker else "0"}
    cmd = [sys.executable, "-m", "snakemake", "--cores", "2", "--workflow-profile", "workflow/profiles/default"]
    if config:
        cmd += ["--configfile", str(config), "--replace-workflow-config"]
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=dest, env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0


#: The throughput campaign: one fast method on one small dataset, 60 select jobs.
THROUGHPUT = {
    "campaign": "default",
    "seed": 1,
    "datasets": {"wdbc": {}},
    "splits": {"kind": "stratified_kfold", "n_splits": 10},
    "normalization": {"method": "zscore", "scope": "fold"},
    "inner_cv": {"n_splits": 5},
    "final_classifier": {"linear": {"C": [0.01, 0.1, 1.0, 10.0]}},
    "methods": {"fisher": {"settings": {"n_features_to_select": [1, 2, 3, 5, 10, 20]}}},
}


def throughput(out: Path) -> dict:
    """Select jobs per minute: from the first to the last record written (n - 1 intervals)."""
    times = sorted(p.stat().st_mtime for p in (out / "runs").rglob("fold-*.json"))
    rate = (len(times) - 1) / (times[-1] - times[0]) * 60 if len(times) > 1 else None
    return {"jobs": len(times), "jobs_per_minute": round(rate, 1) if rate else None}


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
        cpu = float(b["cpu_time"]) + (float(m.group(1)) if m else 0.0)
        compute = float(rec["fit_time_s"]) + float(rec["tune_time_s"])
        rows.append({"job": str(rel), "wall": float(b["s"]), "cpu": cpu, "fit_tune": compute,
                     "final": float(f.group(1)) if f else float("nan")})  # fmt: skip
    n = len(rows)
    wall, cpu, fit, final = (sum(r[k] for r in rows) for k in ("wall", "cpu", "fit_tune", "final"))
    fisher = [r for r in rows if r["job"].startswith("wdbc/fisher/")]
    return {
        "folder": str(out),
        "jobs": n,
        "wall_s": round(wall, 1),
        "cpu_s": round(cpu, 1),
        "fit_tune_s": round(fit, 1),
        "fit_tune_share_of_wall": round(fit / wall, 3) if wall else None,
        "fixed_per_job_s": round((wall - fit) / n, 3) if n else None,
        # + the final classifier's inner-CV tuning, refit and test scoring (from the job logs; nan before they had it)
        "final_s": round(final, 1),
        "fit_tune_final_share_of_wall": round((fit + final) / wall, 3) if wall else None,
        "fixed_without_final_per_job_s": round((wall - fit - final) / n, 3) if n else None,
        "wall_per_job_s": round(wall / n, 3) if n else None,
        "wdbc_fisher_wall_per_job_s": round(sum(r["wall"] for r in fisher) / len(fisher), 3) if fisher else None,
    }


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", nargs="*", type=Path, help="results/<campaign> folders to summarize")
    ap.add_argument("--run", type=Path, help="copy the workflow here and run the default campaign first")
    ap.add_argument("--worker", choices=("on", "off"), default="on")
    ap.add_argument("--configfile", type=Path)
    ap.add_argument("--throughput", action="store_true", help="with --run: 60 fisher jobs on WDBC, jobs per minute")
    args = ap.parse_args(argv)
    folders = list(args.folders)
    if args.run and args.throughput:
        import yaml

        args.run.mkdir(parents=True, exist_ok=True)
        args.configfile = args.run / "throughput.yaml"
        args.configfile.write_text(yaml.safe_dump(THROUGHPUT))
    if args.run:
        args.run.mkdir(parents=True, exist_ok=True)
        up0 = os.getloadavg()
        elapsed = run_campaign(args.run, args.worker == "on", args.configfile)
        print(json.dumps({"run": str(args.run), "worker": args.worker, "elapsed_s": round(elapsed, 1),
                          "load_before": up0, "load_after": os.getloadavg()}))  # fmt: skip
        folders.append(args.run / "results" / "default")
        if args.throughput:
            print(json.dumps({"throughput": throughput(args.run / "results" / "default")}))
    for out in folders:
        print(json.dumps(summarize(out)))


if __name__ == "__main__":
    main()
