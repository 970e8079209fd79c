"""Issue 34 goal 4, checked once for real: a small campaign through workflow/profiles/slurm on the one-node SLURM
of the tests (.ci/slurm/start_cluster.sh, already up), its measured makespan next to the list-scheduling
simulation of the same DAG from that run's own benchmark seconds (``svmfs.analysis.cluster_simulation``).

The simulation takes the select jobs' benchmark seconds, prepare + split per dataset, the profile's bundles
(``group-components: 10`` on ``cores: 1``, the members one after another; bundles in the DAG's order and in a
random order) on min(node CPUs, 100) slots, and no submission or status-check latency, with and without the
per-member overhead of bench_cluster_simulation.MEMBER_OVERHEAD_S: the difference to the measured span is what
SLURM and the executor plugin add.

    .ci/slurm/start_cluster.sh     # NODE_CPUS=2: as many CPUs as the machine has
    python benchmarks/bench_slurm_check.py DIR [--init-seconds 1]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(HERE))

from svmfs.analysis.cluster_simulation import bundle_jobs, campaign_dag, list_schedule  # noqa: E402
from bench_cluster_simulation import BUNDLE_CORES, BUNDLE_SIZE, MAX_QUEUED, MEMBER_OVERHEAD_S  # noqa: E402
from svmfs.results.record import read_records  # noqa: E402

#: 4 synthetic datasets x 3 methods x 3 folds = 36 select jobs (under 1 s each at p = 200; --features 2000: seconds)
CHECK = {
    "campaign": "slurm_check",
    "seed": 34,
    "datasets": {"mit_example1": {"params": {"n": 60, "p": 200, "k0": 5, "rho": 0.2}, "replicates": 4}},
    "splits": {"kind": "stratified_kfold", "n_splits": 3},
    "inner_cv": {"n_splits": 3},
    "final_classifier": {"linear": {"C": [0.1, 1.0]}},
    "methods": {
        "fisher": {"grid": {"n_features_to_select": [2, 5, 10, 20]}},
        "svm_rfe": {"grid": {"C": [0.1, 1.0], "n_features_to_select": [2, 5, 10, 20]}},
        "l1_svm": {},
    },
}


def seconds(tsv: Path) -> float:
    return float(pd.read_csv(tsv, sep="\t")["s"].iloc[-1])


def node_cpus() -> int:
    out = subprocess.run(["sinfo", "-h", "-o", "%c"], capture_output=True, text=True, check=True).stdout.split()
    return int(out[0])


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("workdir", type=Path)
    ap.add_argument("--init-seconds", default="1", help="--slurm-init-seconds-before-status-checks (tests: 1)")
    ap.add_argument("--features", type=int, default=200, help="features of the synthetic datasets (job length)")
    args = ap.parse_args(argv)
    wd = args.workdir
    wd.mkdir(parents=True, exist_ok=True)
    config = {**CHECK, "datasets": {"mit_example1": {**CHECK["datasets"]["mit_example1"]}}}
    config["datasets"]["mit_example1"]["params"] = {**config["datasets"]["mit_example1"]["params"], "p": args.features}
    (wd / "campaign.yaml").write_text(yaml.safe_dump(config))
    cmd = [sys.executable, "-m", "snakemake", "-s", str(ROOT / "Snakefile"), "-d", str(wd),
           "--workflow-profile", str(ROOT / "workflow" / "profiles" / "slurm"),
           "--configfile", str(wd / "campaign.yaml"), "--replace-workflow-config",
           "--slurm-init-seconds-before-status-checks", args.init_seconds]  # fmt: skip
    env = {**os.environ, "SVMFS_MIRROR": "", "PYTHONPATH": str(ROOT / "src")}
    t0 = time.time()
    with open(wd / "snakemake.out", "w") as log:
        subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT, env=env, check=True)
    elapsed = time.time() - t0
    out = wd / "results" / CHECK["campaign"]
    runs = sorted((out / "runs").glob("*/*/*/fold-*.json"))
    rec = read_records(runs)
    bench = out / "benchmarks"
    sel = [seconds(bench / "select" / f"{r.dataset}/{r.method}/{r.setting}/fold-{r.fold}.tsv") for r in rec.itertuples()]
    ends = [(out / "runs" / f"{r.dataset}/{r.method}/{r.setting}/fold-{r.fold}.json").stat().st_mtime for r in rec.itertuples()]
    setup = {d: seconds(bench / "prepare" / f"{d}.tsv") + seconds(bench / "split" / f"{d}.tsv") for d in rec["dataset"].unique()}
    prep_start = min((out / "datasets" / f"{d}.npz").stat().st_mtime - seconds(bench / "prepare" / f"{d}.tsv") for d in setup)
    measured_select = max(ends) - min(e - s for e, s in zip(ends, sel))
    measured_to_last_select = max(ends) - prep_start
    submitted = [ln for ln in (wd / "snakemake.out").read_text().splitlines() if "submitted with SLURM jobid" in ln]
    cpus = node_cpus()
    dag = campaign_dag(rec, pd.Series(sel), setup_s=setup)
    slots = max(1, min(cpus // BUNDLE_CORES, MAX_QUEUED))
    random_order = list(np.random.default_rng(34).permutation(len(rec)))
    sims = {f"each select job its own slot, {cpus} slots": list_schedule(list(dag.durations), cpus, dag.deps).makespan}
    for over in (0.0, MEMBER_OVERHEAD_S):
        for name, order in (("DAG order", None), ("random order", random_order)):
            b = bundle_jobs(dag, BUNDLE_SIZE, BUNDLE_CORES, order, member_overhead_s=over)
            sims[f"profile bundles in {name}, {slots} x {BUNDLE_CORES} core, {over:g} s per member"] = list_schedule(list(b.durations), slots, b.deps).makespan
    result = {
        "features": args.features, "select_jobs": len(rec), "slurm_jobs_submitted": len(submitted), "node_cpus": cpus,
        "select_seconds_sum": round(sum(sel), 1), "prepare_split_seconds_sum": round(sum(setup.values()), 1),
        "measured_snakemake_elapsed_s": round(elapsed, 1), "measured_first_prepare_to_last_select_s": round(measured_to_last_select, 1),
        "measured_select_span_s": round(measured_select, 1),
        "simulated_first_prepare_to_last_select_s": {k: round(v, 1) for k, v in sims.items()},
    }  # fmt: skip
    (wd / "slurm_check.json").write_text(json.dumps(result, indent=1))
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
