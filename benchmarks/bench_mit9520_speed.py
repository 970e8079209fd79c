"""Issue 34 goal 2: CPU time of sampled committed mit9520 select jobs, and their records against the committed ones.

Draws k jobs per method from ``reproduction/mit9520/records.parquet`` (``reproduce check``'s draw,
:func:`svmfs.reproduce.check.sample_jobs`, seeded), builds their datasets and outer splits through the workflow
once (``WORKDIR/results``), then runs each job in this process with ``run_select_job`` (1 BLAS thread),
timing it with ``time.process_time`` (CPU: the machine is shared) and ``perf_counter``. Per job it prints
the CPU seconds and whether the record's deterministic fields equal the committed ones
(:func:`svmfs.reproduce.compare.compare_jobs`, the comparison of ``reproduce check``), and writes every full
record (weights, ranking and audits included, times excluded) to ``OUT`` as JSON, so that two versions of
the code can be compared field by field (``--compare A.json B.json``).

Usage (PYTHONPATH selects the code measured):

    PYTHONPATH=src python benchmarks/bench_mit9520_speed.py WORKDIR OUT.json --prepare [-k 3] [--seed 1]  # data, once
    PYTHONPATH=SRC python benchmarks/bench_mit9520_speed.py WORKDIR OUT.json [-k 3] [--seed 1] [--methods ...]
    python benchmarks/bench_mit9520_speed.py --compare BEFORE.json AFTER.json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "reproduction" / "mit9520"
TIMES = ("fit_time_s", "tune_time_s", "audit_test_tuned_time_s", "job_cpu_s", "job_wall_s")


def run(workdir: Path, out: Path, k: int, seed: int, methods, prepare_only: bool = False) -> None:
    from threadpoolctl import threadpool_limits

    threadpool_limits(1)
    import pandas as pd

    from svmfs.config import job_campaign_config, job_method_config, method_settings
    from svmfs.data.canonical import load_dataset
    from svmfs.protocol.seeds import job_seed
    from svmfs.protocol.select_job import run_select_job
    from svmfs.reproduce.check import sample_jobs
    from svmfs.reproduce.compare import compare_jobs
    from svmfs.reproduce.check import prepare_job_data
    from svmfs.reproduce.jobs import validated
    from svmfs.results.record import flat_row
    from svmfs.yamlio import load_yaml_file

    records = pd.read_parquet(FOLDER / "records.parquet")
    jobs = pd.concat([sample_jobs(records[records["method"] == m], k, seed) for m in methods], ignore_index=True)
    cfg, res = prepare_job_data(dict(load_yaml_file(FOLDER / "config.yaml")), jobs["dataset"], workdir)
    if prepare_only:
        return
    config = validated(cfg)
    print(f"{time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())}; load {os.getloadavg()}; code {__import__('svmfs').__file__}")
    full, rows = {}, []
    for _, job in jobs.iterrows():
        d, m, s, f = str(job["dataset"]), str(job["method"]), str(job["setting"]), int(job["fold"])
        ds = load_dataset(res / "datasets" / f"{d}.npz", res / "datasets" / f"{d}.json")
        fold = json.loads((res / "splits" / f"{d}.json").read_text())["folds"][f]
        mcfg = job_method_config(config, d, m)
        w, c = time.perf_counter(), time.process_time()
        rec = run_select_job(ds.X, ds.y, fold, m, mcfg, job_campaign_config(config, d, m), job_seed(config["seed"], d, f, m, s),
                             setting=method_settings(mcfg)[s], relevant=ds.relevant)  # fmt: skip
        rec["job_cpu_s"], rec["job_wall_s"] = time.process_time() - c, time.perf_counter() - w
        rec.update(dataset=d, setting=s, campaign=job["campaign"], dataset_group=job["dataset_group"], config_hash=job["config_hash"])
        diff, path = compare_jobs(jobs.iloc[[_]], pd.DataFrame([flat_row({**rec, "git_sha": "", "host": "", "versions": ""})]))[(d, m, s, f)]
        verdict = "DIFF " + "; ".join(diff) if diff else ("same (path: " + "; ".join(path) + ")" if path else "same")
        committed = float(job["fit_time_s"]) + float(job["tune_time_s"])
        print(f"{d}/{m}/{s}/fold-{f}: cpu {rec['job_cpu_s']:.2f} s, wall {rec['job_wall_s']:.2f} s, tuning {rec['tune_time_s']:.2f} s, "
              f"committed fit+tune {committed:.1f} s; vs committed: {verdict}", flush=True)  # fmt: skip
        full[f"{d}/{m}/{s}/fold-{f}"] = json.loads(json.dumps(rec, default=str))
        rows.append({"method": m, "cpu": rec["job_cpu_s"], "same": not diff})
    out.write_text(json.dumps(full, indent=1, sort_keys=True))
    print(f"load {os.getloadavg()}")
    df = pd.DataFrame(rows)
    print(df.groupby("method").agg(jobs=("cpu", "size"), cpu_mean=("cpu", "mean"), cpu_sum=("cpu", "sum"), same=("same", "sum")).round(2))


def compare(a_path: Path, b_path: Path) -> int:
    """Every field of every record except the times: equal in A and B? Also the CPU ratio per method."""
    a, b = json.loads(a_path.read_text()), json.loads(b_path.read_text())
    bad = 0
    per: dict[str, list[float]] = {}
    for key in sorted(set(a) | set(b)):
        ra, rb = a.get(key, {}), b.get(key, {})
        diff = sorted(f for f in set(ra) | set(rb) if f not in TIMES and json.dumps(ra.get(f), sort_keys=True) != json.dumps(rb.get(f), sort_keys=True))
        bad += bool(diff)
        per.setdefault(key.split("/")[1], []).append((ra.get("job_cpu_s", float("nan")), rb.get("job_cpu_s", float("nan"))))
        print(f"{key}: cpu {ra.get('job_cpu_s', float('nan')):.2f} -> {rb.get('job_cpu_s', float('nan')):.2f} s; "
              + ("identical record" if not diff else "DIFFERS in " + ", ".join(diff)))  # fmt: skip
    print("| method | jobs | CPU per job before | after | ratio |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for m, v in sorted(per.items()):
        x, y = sum(t[0] for t in v) / len(v), sum(t[1] for t in v) / len(v)
        print(f"| {m} | {len(v)} | {x:.2f} s | {y:.2f} s | {x / y:.1f}x |")
    return 1 if bad else 0


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs=2, type=Path)
    ap.add_argument("--compare", action="store_true")
    ap.add_argument("-k", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--prepare", action="store_true", help="build the datasets and splits only (this tree's workflow)")
    ap.add_argument("--methods", nargs="+", default=["l1_rfe", "l1_svm", "svm_rfe"])
    args = ap.parse_args()
    if args.compare:
        sys.exit(compare(*args.paths))
    run(args.paths[0], args.paths[1], args.k, args.seed, args.methods, args.prepare)
