"""Each committed campaign list-scheduled on 1, 8, 64 and 512 SLURM slots, by simulation.

Case ``simulation``: inputs are the committed exports alone (:func:`benchmarks.select_profile.load_export`), every
folder of reproduction/. Per select job, where the export has ``select_jobs.csv``, the job's own CPU seconds and those of its ``select_part`` jobs (``split_inner_folds``: jobs
of their own, after the split, before their select job, never bundled) (column ``times`` "cpu"); else its record's
``fit_time_s + tune_time_s`` plus an equal share of the campaign's ``rest_s`` (the select jobs' benchmark seconds
minus fits and tuning: final classifier, in-job audits, fixed cost, which such an export keeps as a campaign sum
only: "wall"; "fit+tune": no rest recorded, fit + tune alone).
The DAG is the workflow's (``svmfs.analysis.cluster_simulation.campaign_dag``): prepare+split per dataset (0 s
here: their seconds are inside the export's ``aggregation_s``, not per rule), the select jobs (after the
``match_size_of`` job of the same fold where a method has one), then the aggregation rules, which run on the
submitting host (``localrules``) and are reported apart as the export's ``aggregation_s`` (every non-select
rule's seconds summed: an upper bound of their serial time).

Rule: list scheduling, longest ready job first (LPT), one select job per slot (= one core: select jobs ask
for 1 thread). Two variants of the SLURM profile's grouping (``group-components: select_bundle: 10``,
``cores: 1``, ``jobs: 100``): bundles of 10 select jobs, their members one after another (the SLURM plugin runs
a bundle's members in series, each through srun and a Snakemake of its own: ``MEMBER_OVERHEAD_S`` each, measured on
the tests' one-node SLURM), at most 100 bundles queued at once, so N cores run min(N, 100) bundles; bundles taken
in the DAG's order and in a seeded random order (Snakemake 9 chunks a set of components, so which jobs share a
bundle is in effect arbitrary).

Case ``slurm``: a small campaign through workflow/profiles/slurm on the one-node SLURM of the tests
(``.ci/slurm/start_cluster.sh``, already up), its measured makespan next to the same simulation of that DAG from
the run's own benchmark seconds (prepare + split per dataset, the profile's bundles in the DAG's order and in a
random order on min(node CPUs, 100) slots, no submission or status-check latency), with and without the
per-member overhead ``MEMBER_OVERHEAD_S``: the difference to the measured span is what SLURM and the executor
plugin add.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from benchmarks.common import ROOT, WORK
from benchmarks.select_profile import exports
from svmfs.analysis.cluster_simulation import bundle_jobs, campaign_dag, list_schedule, longest_path

HERE = Path(__file__).resolve().parent
QUESTION = "How long would the committed campaigns' select phase take on a SLURM cluster of N cores, and does the model match a real SLURM run?"
DATA = "The committed exports' select job seconds (no rerun); a small synthetic campaign on the tests' one-node SLURM"
TOPIC = "scale"
RESULTS = "cluster_simulation"
CASES = {
    "simulation": {"question": "How long would each committed campaign's select phase take list-scheduled on 1 to 512 SLURM slots, with and without the SLURM profile's bundles?",
                   "data": "Every committed export (reproduction/*): each select job's CPU seconds from select_jobs.csv, else fit + tune + a share of the recorded rest; the workflow's DAG"},
    "slurm": {"question": "Does the list-scheduling model give the makespan a real SLURM run of the profile measures?",
              "data": "36 select jobs (MIT 9.520 Example 1, p = 200; quick: p = 50) through workflow/profiles/slurm on the tests' one-node SLURM (.ci/slurm/start_cluster.sh, started beforehand)"},
}
OPTIONS = {"init_seconds": ("1", "slurm: --slurm-init-seconds-before-status-checks")}

SLOTS = (1, 2, 8, 64, 512)
#: the SLURM profile's bundle size, cores per bundle and jobs queued at once, read from the profile itself
PROFILE = yaml.safe_load((ROOT / "workflow" / "profiles" / "slurm" / "config.yaml").read_text())
BUNDLE_SIZE, BUNDLE_CORES, MAX_QUEUED = int(PROFILE["group-components"]["select_bundle"]), int(PROFILE["cores"]), int(PROFILE["jobs"])
#: seconds each bundle member adds (its srun and Snakemake start inside the SLURM job); case ``slurm`` compares a
#: measured span with the simulation with and without it
MEMBER_OVERHEAD_S = 6.0
ALL = "all committed, one run"


def job_times(c: dict) -> tuple[pd.Series, list | None, str]:
    """Each select job's seconds, its parts' seconds (split_inner_folds; None: no parts known) and where they
    come from: the export's ``select_jobs.csv`` (each job's and part's own CPU seconds: "cpu"), else fit + tune
    + an equal share of the campaign's rest ("wall"; "fit+tune" where the rest is unknown). A job that
    select_jobs.csv lacks (restored from an earlier export with no table) counts its fit + tune."""
    r = c["records"].reset_index(drop=True)
    jobs = c.get("jobs")
    if jobs is not None:
        key = lambda d: list(zip(d["dataset"].astype(str), d["method"].astype(str), d["setting"].astype(str), d["fold"].astype(int)))  # noqa: E731
        own = dict(zip(key(jobs[jobs["rule"] == "select"]), jobs.loc[jobs["rule"] == "select", "cpu_s"]))
        part_rows = jobs[jobs["rule"] == "select_part"]
        parts: dict = {}
        for k, sec in zip(key(part_rows), part_rows["cpu_s"]):
            parts.setdefault(k, []).append(float(sec))
        keys = key(r)
        seconds = pd.Series([float(own[k]) if k in own and pd.notna(own[k]) else float(f) for k, f in zip(keys, r["fit_tune_s"])])
        return seconds, [parts.get(k, []) for k in keys], "cpu"
    if c["jobs_wall_s"] is None:
        return r["fit_tune_s"], None, "fit+tune"
    rest = max(c["jobs_wall_s"] - float(r["fit_tune_s"].sum()), 0.0)
    return r["fit_tune_s"] + rest / len(r), None, "wall"


def union(dags) -> tuple[list[float], list[tuple[int, ...]]]:
    """Several campaigns' DAGs as one (no job of one waits for another's): one run of them all."""
    durations, deps = [], []
    for dag in dags:
        off = len(durations)
        durations += list(dag.durations)
        deps += [tuple(j + off for j in pre) for pre in dag.deps]
    return durations, deps


def select_makespan(dag, slots: int) -> float:
    """Makespan of the select phase (the aggregation job has 0 s in ``dag``)."""
    return list_schedule(list(dag.durations), slots, dag.deps).makespan


def dag_of(c: dict):
    seconds, parts, source = job_times(c)
    return campaign_dag(c["records"], seconds, c["match_size_of"], parts=parts), seconds, source


def simulate_all(camps: list[dict]) -> dict:
    """Every committed campaign in one run on N slots (its select phase)."""
    durations, deps = union(dag_of(c)[0] for c in camps)
    row = {"campaign": ALL, "select_jobs": sum(len(c["records"]) for c in camps), "times": "mixed",
           "jobs_total_s": sum(durations), "longest_job_s": max(durations), "critical_path_s": longest_path(durations, deps),
           "measured_span_2_cores_s": sum(c["select_span_s"] or 0.0 for c in camps),
           "aggregation_s": sum(c["aggregation_s"] or 0.0 for c in camps)}  # fmt: skip
    for n in SLOTS:
        row[f"slots_{n}_s"] = list_schedule(durations, n, deps).makespan
    return row


def simulate(c: dict, seed: int = 34) -> dict:
    dag, seconds, source = dag_of(c)
    part_s = [d for n, d in zip(dag.names, dag.durations) if n.startswith("select_part")]
    row = {"campaign": c["folder"], "select_jobs": len(seconds), "select_parts": len(part_s), "times": source,
           "jobs_total_s": float(seconds.sum()) + sum(part_s), "longest_job_s": max([float(seconds.max()), *part_s]),
           "critical_path_s": longest_path(dag.durations, dag.deps),
           "measured_span_2_cores_s": c["select_span_s"], "aggregation_s": c["aggregation_s"]}  # fmt: skip
    for n in SLOTS:
        row[f"slots_{n}_s"] = select_makespan(dag, n)
    n_comp = sum(bundle_jobs(dag, 1, 1).select)  # connected components of select jobs
    orders = {"ordered": None, "random": list(np.random.default_rng(seed).permutation(n_comp))}
    for name, order in orders.items():
        bundled = bundle_jobs(dag, BUNDLE_SIZE, BUNDLE_CORES, order, member_overhead_s=MEMBER_OVERHEAD_S)
        row[f"bundle_{name}_longest_s"] = max(d for d, s in zip(bundled.durations, bundled.select) if s)
        for n in SLOTS[2:]:
            row[f"bundle_{name}_cores_{n}_s"] = select_makespan(bundled, min(n // BUNDLE_CORES, MAX_QUEUED))
    return row


# ---------------------------------------------------------------- the real SLURM run
#: 4 synthetic datasets x 3 methods x 3 folds = 36 select jobs (under 1 s each at p = 200)
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


def _seconds(tsv: Path) -> float:
    return float(pd.read_csv(tsv, sep="\t")["s"].iloc[-1])


def slurm_check(wd: Path, features: int, init_seconds: str) -> list[dict]:
    """Run :data:`CHECK` through the SLURM profile in ``wd``; the measured spans and the simulated ones."""
    from svmfs.results.record import read_records

    config = {**CHECK, "datasets": {"mit_example1": {**CHECK["datasets"]["mit_example1"]}}}
    config["datasets"]["mit_example1"]["params"] = {**config["datasets"]["mit_example1"]["params"], "p": features}
    (wd / "campaign.yaml").write_text(yaml.safe_dump(config))
    cmd = [sys.executable, "-m", "snakemake", "-s", str(ROOT / "Snakefile"), "-d", str(wd),
           "--workflow-profile", str(ROOT / "workflow" / "profiles" / "slurm"),
           "--configfile", str(wd / "campaign.yaml"), "--replace-workflow-config",
           "--slurm-init-seconds-before-status-checks", init_seconds]  # fmt: skip
    env = {**os.environ, "SVMFS_MIRROR": "", "PYTHONPATH": str(ROOT / "src")}
    t0 = time.time()
    with open(wd / "snakemake.out", "w") as log:
        subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT, env=env, check=True)
    elapsed = time.time() - t0
    out = wd / "results" / CHECK["campaign"]
    rec = read_records(sorted((out / "runs").glob("*/*/*/fold-*.json")))
    bench = out / "benchmarks"
    name = lambda r: f"{r.dataset}/{r.method}/{r.setting}/fold-{r.fold}"  # noqa: E731
    sel = [_seconds(bench / "select" / f"{name(r)}.tsv") for r in rec.itertuples()]
    ends = [(out / "runs" / f"{name(r)}.json").stat().st_mtime for r in rec.itertuples()]
    setup = {d: _seconds(bench / "prepare" / f"{d}.tsv") + _seconds(bench / "split" / f"{d}.tsv") for d in rec["dataset"].unique()}
    prep_start = min((out / "datasets" / f"{d}.npz").stat().st_mtime - _seconds(bench / "prepare" / f"{d}.tsv") for d in setup)
    submitted = [ln for ln in (wd / "snakemake.out").read_text().splitlines() if "submitted with SLURM jobid" in ln]
    cpus = int(subprocess.run(["sinfo", "-h", "-o", "%c"], capture_output=True, text=True, check=True).stdout.split()[0])
    dag = campaign_dag(rec, pd.Series(sel), setup_s=setup)
    slots = max(1, min(cpus // BUNDLE_CORES, MAX_QUEUED))
    random_order = list(np.random.default_rng(34).permutation(len(rec)))
    base = {"select_jobs": len(rec), "slurm_jobs_submitted": len(submitted), "node_cpus": cpus,
            "select_seconds_sum": round(sum(sel), 1), "prepare_split_seconds_sum": round(sum(setup.values()), 1)}  # fmt: skip
    rows = [{"span": "measured: snakemake elapsed", "seconds": round(elapsed, 1), **base},
            {"span": "measured: first prepare to last select", "seconds": round(max(ends) - prep_start, 1), **base},
            {"span": "measured: select phase", "seconds": round(max(ends) - min(e - s for e, s in zip(ends, sel)), 1), **base},
            {"span": f"simulated: each select job its own slot, {cpus} slots",
             "seconds": round(list_schedule(list(dag.durations), cpus, dag.deps).makespan, 1), **base}]  # fmt: skip
    for over in (0.0, MEMBER_OVERHEAD_S):
        for label, order in (("DAG order", None), ("random order", random_order)):
            b = bundle_jobs(dag, BUNDLE_SIZE, BUNDLE_CORES, order, member_overhead_s=over)
            rows.append({"span": f"simulated: profile bundles in {label}, {slots} x {BUNDLE_CORES} core, {over:g} s per member",
                         "seconds": round(list_schedule(list(b.durations), slots, b.deps).makespan, 1), **base})  # fmt: skip
    return rows


def _round(row: dict) -> dict:
    return {k: (round(v, 1) if isinstance(v, float) else v) for k, v in row.items()}


def run(case: str, quick: bool = False, init_seconds: str = "1") -> list[dict]:
    if case == "slurm":
        WORK.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=WORK) as tmp:
            return slurm_check(Path(tmp), 50 if quick else 200, init_seconds)
    camps = exports()
    df = pd.DataFrame([simulate(c) for c in camps]).sort_values(["slots_1_s", "campaign"], ascending=[False, True])
    df = pd.concat([df, pd.DataFrame([simulate_all(camps)])], ignore_index=True)
    return [_round(r) for r in df.to_dict("records")]


def table(case: str, rows: list[dict]) -> list[dict]:
    """RESULTS.md: the run of every campaign together, then the 11 longest campaigns, in hours, unbundled and bundled."""
    if case == "slurm":
        return [{"span": r["span"], "seconds": r["seconds"]} for r in rows]
    h = lambda v: "" if v in ("", None, "nan") or float(v) != float(v) else f"{float(v) / 3600:.2f}"  # noqa: E731
    order = [r for r in rows if r["campaign"] == ALL] + [r for r in rows if r["campaign"] != ALL][:11]
    return [{"campaign": r["campaign"], "select jobs": r["select_jobs"], "times": r["times"],
             "measured 2 cores, h": h(r["measured_span_2_cores_s"]), "1 slot, h": h(r["slots_1_s"]),
             "8 slots, h": h(r["slots_8_s"]), "64 slots, h": h(r["slots_64_s"]), "512 slots, h": h(r["slots_512_s"]),
             "longest job, h": h(r["longest_job_s"]), "bundled, 64 cores, h": h(r.get("bundle_random_cores_64_s", "")),
             "bundled, 512 cores, h": h(r.get("bundle_random_cores_512_s", ""))} for r in order]  # fmt: skip
