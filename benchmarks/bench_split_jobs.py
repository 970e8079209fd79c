"""Issue 34, goal 3: select jobs rerun in a results folder with their parts (rule select_part), timed job by job
and part by part (CPU seconds from the warm worker's log lines), and their records compared with a committed
export's (:func:`svmfs.reproduce.compare.compare_jobs`: deterministic fields; a solver path apart).

Usage: python benchmarks/bench_split_jobs.py RESULTS EXPORT JOB [JOB ...]
       python benchmarks/bench_split_jobs.py --whole CONFIGFILE RESULTS JOB [JOB ...]
       python benchmarks/bench_split_jobs.py --summary RESULTS EXPORT 'PATTERN' (e.g. 'pima/*/*/fold-*')
       JOB: <dataset>/<method>/<setting>/fold-<k> (e.g. pima/mm_fs/C2-0.9/fold-5)
Prints one markdown row per job: the committed job's CPU seconds (the export's select_jobs.csv: the machine
that ran it), the select job's and each part's CPU seconds here, and what the record comparison found. With
``--whole``: each job run whole in this process (:func:`whole_here`) against the split run's record in RESULTS,
the comparison that separates the split from the machine.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

from svmfs.reproduce.compare import compare_jobs
from svmfs.reproduce.export import _job_cpu_seconds
from svmfs.results.record import read_records


def main(results: Path, export: Path, jobs: list[str]) -> None:
    committed = pd.read_parquet(export / "records.parquet")
    before = pd.read_csv(export / "select_jobs.csv", dtype={"setting": str, "part": str}, keep_default_na=False, na_values=[""])
    print("| job | committed job, CPU s (its machine) | select job here, CPU s | parts here, CPU s | record |")
    print("| --- | ---: | ---: | --- | --- |")
    for job in jobs:
        d, m, st, fold = job.split("/")
        k = int(fold.removeprefix("fold-"))
        old = before.loc[before["job"] == f"select/{job}", "cpu_s"]
        cpu = _job_cpu_seconds(results / "logs" / "select" / f"{job}.log", results / "benchmarks" / "select" / f"{job}.tsv")
        parts = sorted((results / "parts" / job).glob("*.json"))
        part_cpu = [(p.stem, _job_cpu_seconds(results / "logs" / "select_part" / job / f"{p.stem}.log",
                                               results / "benchmarks" / "select_part" / job / f"{p.stem}.tsv")) for p in parts]  # fmt: skip
        new = read_records([results / "runs" / f"{job}.json"])
        mine = committed[(committed["dataset"] == d) & (committed["method"] == m) & (committed["setting"] == st) & (committed["fold"] == k)]
        diff, path = next(iter(compare_jobs(mine, new).values()))
        verdict = "identical" if not diff and not path else ("same result, other solver path: " + "; ".join(path) if not diff else "differs: " + "; ".join(diff))
        parts_txt = ", ".join(f"{name} {s:.1f}" for name, s in part_cpu if s is not None) or "-"
        print(f"| {job} | {float(old.iloc[0]) if len(old) else float('nan'):.1f} | {cpu:.1f} | {parts_txt} | {verdict[:300]} |")


def summary(results: Path, export: Path, pattern: str) -> None:
    """Every job of ``results`` whose runs path matches ``pattern`` (e.g. ``pima/*/*/fold-*``): how its record
    compares with the export's, and the CPU seconds of its select jobs and parts here (the largest, the sum),
    against the committed jobs' on their machines."""
    committed = pd.read_parquet(export / "records.parquet")
    before = pd.read_csv(export / "select_jobs.csv", dtype={"setting": str, "part": str}, keep_default_na=False, na_values=[""])
    jobs = sorted(str(p.relative_to(results / "runs").with_suffix("")) for p in (results / "runs").glob(f"{pattern}.json")
                  if (results / "benchmarks" / "select" / p.relative_to(results / "runs").with_suffix(".tsv")).is_file())  # run here, not restored
    new = read_records([results / "runs" / f"{j}.json" for j in jobs])
    keys = set(zip(new["dataset"], new["method"], new["setting"], new["fold"]))
    mine = committed[[k in keys for k in zip(committed["dataset"], committed["method"], committed["setting"], committed["fold"])]]
    verdicts = {"identical": 0, "same result, other solver path": 0, "differs": 0}
    differing = []
    for key, (diff, path) in compare_jobs(mine, new).items():
        verdicts["differs" if diff else ("same result, other solver path" if path else "identical")] += 1
        if diff:
            differing.append(f"{'/'.join(map(str, key))}: {'; '.join(d.split(':')[0] for d in diff)}")
    job_s, part_s = [], []
    for j in jobs:
        job_s.append(_job_cpu_seconds(results / "logs" / "select" / f"{j}.log", results / "benchmarks" / "select" / f"{j}.tsv"))
        for part in (results / "parts" / j).glob("*.json"):
            part_s.append(_job_cpu_seconds(results / "logs" / "select_part" / j / f"{part.stem}.log",
                                           results / "benchmarks" / "select_part" / j / f"{part.stem}.tsv"))  # fmt: skip
    old = before[before["job"].isin([f"select/{j}" for j in jobs])]["cpu_s"]
    job_s, part_s = [s for s in job_s if s is not None], [s for s in part_s if s is not None]
    print(f"{len(jobs)} jobs: records {verdicts}")
    print(f"committed (their machines): CPU s {old.sum():.0f} in all, the longest job {old.max():.1f}, {int((old > 300).sum())} over 300 s")
    print(f"here: select jobs {sum(job_s):.0f} CPU s in all, the longest {max(job_s):.1f}; parts {sum(part_s):.0f} in all, "
          f"the longest {max(part_s):.1f}; over 300 s: {sum(s > 300 for s in job_s + part_s)}")  # fmt: skip
    for line in differing:
        print("differs:", line)


def main_whole(configfile: Path, results: Path, jobs: list[str]) -> None:
    print("| job | the split run's record against the job run whole here |")
    print("| --- | --- |")
    for job in jobs:
        split = read_records([results / "runs" / f"{job}.json"])
        diff, path = next(iter(compare_jobs(split, whole_here(results, configfile, job)).values()))
        print(f"| {job} | {'identical' if not diff and not path else ('path only: ' + '; '.join(path) if not diff else 'differs: ' + '; '.join(diff))} |")




def whole_here(results: Path, configfile: Path, job: str) -> pd.DataFrame:
    """The select job ``job`` run whole in this process (no part: its ``global_scaling`` audit inside the job), from
    the results folder's dataset and splits files, with the campaign's config and the job's seed: the record the
    workflow's split run must equal on this machine."""
    import json
    import time

    from svmfs.config import campaign_datasets, job_campaign_config, job_config, job_method_config, load_config, method_settings
    from svmfs.data.canonical import load_dataset
    from svmfs.protocol.seeds import job_seed
    from svmfs.protocol.select_job import run_select_job
    from svmfs.results.record import config_hash, flat_row

    d, m, st, fold = job.split("/")
    k = int(fold.removeprefix("fold-"))
    cfg = load_config(configfile, workdir=Path(__file__).resolve().parents[1])
    ds = load_dataset(results / "datasets" / f"{d}.npz", results / "datasets" / f"{d}.json")
    folds = json.loads((results / "splits" / f"{d}.json").read_text())["folds"]
    setting = method_settings(cfg["methods"][m])[st]
    t0 = time.process_time()
    rec = run_select_job(ds.X, ds.y, folds[k], m, job_method_config(cfg, d, m), job_campaign_config(cfg, d, m),
                         job_seed(cfg["seed"], d, k, m, st), setting=setting, relevant=ds.relevant)  # fmt: skip
    rec.update(campaign=cfg["campaign"], dataset=d, dataset_group=campaign_datasets(cfg)[d]["group"], setting=st,
               config_hash=config_hash(job_config(cfg, d, m, st)))  # fmt: skip  # what scripts/select.py adds
    print(f"{job}: whole job here {time.process_time() - t0:.1f} CPU s", file=sys.stderr)
    return pd.DataFrame([flat_row(rec)])


if __name__ == "__main__":
    if sys.argv[1] == "--whole":
        main_whole(Path(sys.argv[2]), Path(sys.argv[3]), sys.argv[4:])
    elif sys.argv[1] == "--summary":
        summary(Path(sys.argv[2]), Path(sys.argv[3]), sys.argv[4])
    else:
        main(Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3:])
