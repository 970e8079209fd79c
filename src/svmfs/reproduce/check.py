"""``reproduce check``: rerun k seeded-random select jobs of a committed campaign through the workflow
(Snakemake, in a scratch directory) and compare each new record with the committed one (:mod:`.compare`)."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from ..yamlio import load_yaml_file
from .compare import FLOAT_RTOL, compare_jobs
from .jobs import JOB_KEY, ROOT, job_path, run_workflow


def check(folder: Path, k: int, seed: int, mirror: str | None = None, workdir: Path | None = None,
          cores: int = 2, raw_dir: str | None = None, out=print, max_job_s: float | None = None,
          stamp: bool = False) -> int:  # fmt: skip
    """Rerun k sampled jobs of a committed campaign (with ``max_job_s``: among those that took at most that
    long, e.g. to bound CI's time); 0 if every job has its committed result (:func:`compare_jobs`: its solver
    path and the last digits of its floats may differ on another CPU, and are listed), else 1. With ``stamp``, a
    pass writes ``<folder>/checked.json`` (:func:`~svmfs.reproduce.stamp.write_stamp`): the code this tree runs
    for every job of the export, under which ``reproduce restore`` then reuses its records."""
    compared = check_jobs(folder, k, seed, mirror=mirror, workdir=workdir, cores=cores, raw_dir=raw_dir, out=out, max_job_s=max_job_s)
    if tally(compared)["differ"]:
        return 1
    if stamp and compared:
        from ..results.record import git_sha
        from .jobs import validated
        from .stamp import write_stamp

        out(f"stamped {write_stamp(folder, validated(load_yaml_file(Path(folder) / 'config.yaml')), git_sha(ROOT))}")
    return 0


def check_all(folders, k: int, seed: int, max_job_s: float | None = None, stamp: bool = False, out=print, **kw) -> int:
    """:func:`check` on each committed campaign of ``folders`` (default: every one, :func:`committed_campaigns`)
    in turn, with its time; 0 if every one passes, else 1 (a folder that fails or cannot run is named and the
    others still run; one whose downloaded sources are absent, without a mirror, is skipped and named)."""
    import time

    folders = [Path(f) for f in folders] or [ROOT / "reproduction" / c for c in committed_campaigns()]
    failed, skipped = [], []
    for folder in folders:
        t0 = time.perf_counter()
        missing = [] if kw.get("mirror") else missing_downloads(folder, kw.get("raw_dir"))
        if missing:
            out(f"{folder.name}: skipped, its sources are not downloaded ({', '.join(missing)}): give --mirror or --raw-dir")
            skipped.append(folder.name)
            continue
        try:
            if sample_jobs(pd.read_parquet(folder / "records.parquet"), k, seed, max_job_s).empty:
                rc = 2  # no job short enough to rerun: nothing checked, nothing stamped
            else:
                rc = check(folder, k, seed, out=out, max_job_s=max_job_s, stamp=stamp, **kw)
        except SystemExit as e:  # the rerun failed
            out(str(e)[-2000:])
            rc = 1
        out(f"{folder.name}: {('pass', 'FAIL', 'nothing checked (no job under --max-job-s)')[rc]} in {time.perf_counter() - t0:.1f} s")
        if rc == 1:
            failed.append(folder.name)
        elif rc == 2:
            skipped.append(folder.name)
    out(f"{len(folders) - len(failed) - len(skipped)} of {len(folders)} campaigns pass"
        + (f"; failed: {', '.join(failed)}" if failed else "") + (f"; skipped: {len(skipped)}" if skipped else ""))
    return 1 if failed else 0


def missing_downloads(folder: Path, raw_dir: str | None = None) -> list[str]:
    """The download sources the committed campaign in ``folder`` reads that ``raw_dir`` (default: the clone's
    data/raw) does not hold (no ``<source>/MANIFEST.json``): without a mirror, its check cannot run."""
    from ..config import campaign_datasets, load_dataset_registry
    from .jobs import validated

    config = validated(load_yaml_file(Path(folder) / "config.yaml"))
    registry = load_dataset_registry(config, str(ROOT))
    raw = Path(raw_dir) if raw_dir else ROOT / "data" / "raw"
    sources = sorted({d["source"] for d in campaign_datasets(config).values() if registry[d["source"]]["kind"] == "download"})
    return [s for s in sources if not (raw / s / "MANIFEST.json").is_file()]


def tally(compared: dict) -> dict[str, int]:
    """How many of the compared jobs (:func:`compare_jobs`' result) are identical on every deterministic field,
    have the same result with their solver path or last digits differing, or differ."""
    differ = sum(bool(d) for d, _ in compared.values())
    same_result = sum(bool(path) and not d for d, path in compared.values())
    return {"jobs": len(compared), "identical": len(compared) - differ - same_result,
            "same_result_path_differs": same_result, "differ": differ}  # fmt: skip


def check_jobs(folder: Path, k: int, seed: int, mirror: str | None = None, workdir: Path | None = None,
               cores: int = 2, raw_dir: str | None = None, out=print, max_job_s: float | None = None) -> dict:  # fmt: skip
    """:func:`check`'s rerun and report: each sampled job's :func:`compare_jobs` result, by job key."""
    folder = Path(folder)
    config = load_yaml_file(folder / "config.yaml")
    records = pd.read_parquet(folder / "records.parquet")
    jobs = sample_jobs(records, k, seed, max_job_s)
    from ..results.record import git_sha

    among = "" if max_job_s is None else f", drawn among the {int((job_seconds(records) <= max_job_s).sum())} that took at most {max_job_s:g} s"
    out(f"check {folder}: {len(jobs)} of {len(records)} select jobs (seed {seed}{among}), rerun through the workflow")
    out(f"committed jobs ran at {', '.join(sorted(set(jobs['git_sha'].astype(str))))}; this tree: {git_sha(ROOT)}")
    if jobs.empty:  # nothing to rerun (no job under max_job_s): no workflow run, which would build the whole campaign
        out("no job to rerun")
        return {}
    scratch = Path(workdir) if workdir else Path(tempfile.mkdtemp(prefix="svmfs-check-"))
    try:
        new = rerun_jobs(config, jobs, scratch, cores=cores, mirror=mirror, raw_dir=raw_dir)
    finally:
        if workdir is None:
            shutil.rmtree(scratch, ignore_errors=True)
    compared = compare_jobs(jobs, new)
    for key, (d, path) in compared.items():
        name = "{}/{}/{}/fold-{}".format(*key)
        out(f"{'DIFF' if d else 'ok' if not path else 'ok, same result'} {name}")
        for line in d:
            out(f"       {line}")
        for line in path:
            out(f"       (path or last digits) {line}")
    n = tally(compared)
    out(f"{n['identical']} of {n['jobs']} jobs identical on every deterministic field"
        + (f"; {n['same_result_path_differs']} with the same result, their solver path or last digits differing (status, "
           f"message, n_iter; floats within {FLOAT_RTOL:g} relative)" if n["same_result_path_differs"] else "")
        + (f"; {n['differ']} differ" if n["differ"] else ""))  # fmt: skip
    return compared


#: the jobs a full check of a committed campaign reruns: 5, or 2 of a departure campaign (``protocol.measures``:
#: the measured campaign's config with one element changed, run by the same code, whose paths its measured
#: campaign's 5 check); ``python -m benchmarks run committed_check`` runs it for every campaign
MEASURED_JOBS, DEPARTURE_JOBS = 5, 2


def committed_campaigns(root: Path = ROOT) -> list[str]:
    """Every campaign exported under ``root/reproduction`` (a folder holding its records.parquet)."""
    return sorted(p.name for p in (Path(root) / "reproduction").iterdir() if (p / "records.parquet").is_file())


def is_departure(folder: Path) -> bool:
    """Whether the committed campaign in ``folder`` measures a departure of another (``protocol.measures``)."""
    from ..analysis.departures import measures

    return bool(measures((load_yaml_file(Path(folder) / "config.yaml") or {}).get("protocol")))


#: the reasons :func:`~svmfs.reproduce.restore.restorable` gives that make an export stale under this tree without
#: any rerun (a changed method code is not one: ``reproduce check`` reruns the job to see whether it matters)
STALE_REASONS = ("config changed", "not in the export")


def stale_jobs(folder: Path) -> dict[str, int]:
    """The select jobs of the committed campaign in ``folder`` whose record no longer stands for the job under this
    tree, by reason (:data:`STALE_REASONS`): its ``config.yaml`` is validated against this tree's schema, and every
    job it names needs its record under the ``config_hash`` this tree computes for the job's config slice."""
    from .restore import restorable

    folder = Path(folder)
    _, why = restorable(load_yaml_file(folder / "config.yaml"), pd.read_parquet(folder / "records.parquet"))
    return {r: n for r, n in why.items() if r in STALE_REASONS}


#: the committed record's own timings that bound what a rerun of the job costs
JOB_TIME_COLUMNS = ("fit_time_s", "tune_time_s", "audit_test_tuned_time_s")


def job_seconds(records: pd.DataFrame) -> pd.Series:
    """Fit, tuning and in-job audit time of each committed job, as its record gives them (missing = 0)."""
    cols = [c for c in JOB_TIME_COLUMNS if c in records]
    return records[cols].apply(pd.to_numeric, errors="coerce").fillna(0.0).sum(axis=1)


def sample_jobs(records: pd.DataFrame, k: int, seed: int, max_job_s: float | None = None) -> pd.DataFrame:
    """k select jobs drawn without replacement by ``numpy.random.default_rng(seed)`` from the
    records sorted by (dataset, method, setting, fold); with ``max_job_s``, only among the jobs whose
    record took at most that long (:func:`job_seconds`)."""
    rec = records.sort_values(JOB_KEY, kind="stable").reset_index(drop=True)
    if max_job_s is not None:
        rec = rec[job_seconds(rec) <= max_job_s].reset_index(drop=True)
    idx = np.sort(np.random.default_rng(seed).choice(len(rec), size=min(k, len(rec)), replace=False))
    return rec.iloc[idx].reset_index(drop=True)


def rerun_jobs(config: dict, jobs: pd.DataFrame, workdir: Path, cores: int = 2, mirror: str | None = None,
               raw_dir: str | None = None) -> pd.DataFrame:  # fmt: skip
    """Run the given select jobs through the workflow (Snakemake) in ``workdir``; their new records."""
    from ..results.record import read_records

    cfg, out = _scratch_config(config, workdir, mirror, raw_dir)
    targets = [str(job_path(out, r)) for _, r in jobs.iterrows()]
    run_workflow(workdir, workdir / "config.yaml", *targets, cores=cores, failure="check: the rerun failed")
    return read_records(targets)


def _scratch_config(config: dict, workdir: Path, mirror: str | None = None, raw_dir: str | None = None) -> tuple[dict, Path]:
    """``config`` with its results in ``workdir`` (written to ``workdir/config.yaml``) and its results folder."""
    workdir.mkdir(parents=True, exist_ok=True)
    cfg = dict(config)
    cfg["results_dir"] = str(workdir / "results")
    cfg["raw_dir"] = raw_dir or str(ROOT / "data" / "raw")
    if mirror:
        cfg["mirror"] = mirror
    (workdir / "config.yaml").write_text(yaml.safe_dump(cfg, sort_keys=False))
    return cfg, workdir / "results" / cfg.get("campaign", "default")


def prepare_job_data(config: dict, datasets, workdir: Path, cores: int = 1) -> tuple[dict, Path]:
    """The canonical datasets and outer splits of ``datasets`` built through the workflow in ``workdir`` (not
    again where present), for benchmarks that rerun parts of committed select jobs by hand: the scratch
    config and its results folder."""
    cfg, res = _scratch_config(config, workdir)
    targets = sorted({str(res / sub / f"{d}{ext}") for d in datasets for sub, ext in (("datasets", ".npz"), ("splits", ".json"))})
    if not all(Path(t).exists() for t in targets):
        run_workflow(workdir, workdir / "config.yaml", *targets, cores=cores, failure="bench: the data rule failed")
    return cfg, res
