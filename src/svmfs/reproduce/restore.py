"""``reproduce restore``: resume a committed campaign in a fresh clone without rerunning its finished jobs:
the committed records whose job config and code still hold are written back as select-job outputs, and so are
the exported parts (rule select_part) of the jobs whose inner folds run apart, finished job or not."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from .git import git_ok
from .jobs import JOB_KEY, ROOT, job_path, merge_configs, run_workflow, validated

#: columns of the merged store that hold JSON text (lists and dicts of the record)
JSON_COLUMNS = ("selected", "selector_params", "final_params", "versions", "scores", "selected_names")


def restore(folder: Path, configfiles=None, directory: Path = ROOT, mirror: str | None = None, out=print) -> int:
    """Resume a committed campaign in a fresh clone without rerunning its finished jobs.

    The committed records that :func:`restorable` accepts are written back as select-job outputs under
    ``<directory>/<results_dir>/<campaign>/runs/`` after Snakemake has prepared their datasets and splits;
    Snakemake then marks them complete (``--touch``, which records its own metadata for them), so the
    campaign's usual command runs only the other jobs, and later edits of a restored job's parameters
    or code rerun it as with any job.
    """
    from ..results.io import atomic_write_json
    from ..results.record import write_record

    folder, directory = Path(folder), Path(directory)
    configfiles = [Path(p) for p in configfiles] if configfiles else [folder / "config.yaml"]
    config = merge_configs(configfiles)
    merged = directory / ".svmfs-restore-config.yaml"
    merged.write_text(yaml.safe_dump(config, sort_keys=False))
    try:
        earlier = _export_config(folder)
        parts, part_why = restorable_parts(config, folder / "parts", earlier)
        rows, why = restorable(config, pd.read_parquet(folder / "records.parquet"), parts, earlier)
        # paths as the rules spell them: relative to the working directory unless results_dir is absolute
        base = Path(config.get("results_dir", "results")) / config.get("campaign", "default")
        datasets = sorted({str(r["dataset"]) for r in rows} | {d for d, _, _, _ in parts})
        if datasets:
            prep = [str(base / sub / f"{d}{ext}") for d in datasets
                    for sub, ext in (("datasets", ".npz"), ("datasets", ".json"), ("splits", ".json"))]  # fmt: skip
            prep += _initial_solutions(config, base, rows)
            run_workflow(directory, merged, *prep, *_mirror_option(mirror))
        targets = []
        for (d, m, st, k), files in sorted(parts.items()):  # before the records: a job is newer than its parts
            for f in files:
                path = base / "parts" / d / m / st / f"fold-{k}" / f.name
                (directory / path).parent.mkdir(parents=True, exist_ok=True)
                (directory / path).write_bytes(f.read_bytes())
                targets.append(str(path))
        checked = validated(config)
        for r in rows:  # a part the record stands for (split_global_scaling), also before the record
            key = (str(r["dataset"]), str(r["method"]), str(r["setting"]), int(r["fold"]))
            for name in _from_record(checked, key[1], r) - {f.stem for f in parts.get(key, [])}:
                path = base / "parts" / key[0] / key[1] / key[2] / f"fold-{key[3]}" / f"{name}.json"
                (directory / path).parent.mkdir(parents=True, exist_ok=True)
                atomic_write_json(directory / path, global_scaling_part_of(checked, r))
                targets.append(str(path))
        for r in rows:
            rec = {**_record_of(r), "restored_from": str(folder)}
            path = job_path(base, r)
            (directory / path).parent.mkdir(parents=True, exist_ok=True)
            write_record(rec, directory / path, (directory / path).with_suffix(".parquet"))
            targets.append(str(path))
        if targets:
            run_workflow(directory, merged, "--touch", "--force", *targets, *_mirror_option(mirror))  # forced: metadata recorded
    finally:
        merged.unlink(missing_ok=True)
    rest = ", ".join(f"{n} {r}" for r, n in sorted(why.items()))
    n_parts = sum(len(f) for f in parts.values())
    kept = f" and {n_parts} parts of select jobs run apart" if n_parts else ""
    left = ", ".join(f"{n} {r}" for r, n in sorted(part_why.items()))
    out(f"restored {len(rows)} select jobs{kept} into {directory / base}" + (f"; to run: {rest}" if rest else "")
        + (f"; parts to run again: {left}" if left else ""))
    return 0


def _initial_solutions(config: dict, base: Path, rows) -> list[str]:
    """The shared initial solutions (rule initial_solution, one inner CV per dataset and fold) that the restored
    jobs of methods with ``initial_solution: shared`` read: computed again before the records are written
    back, so that those jobs' inputs exist and are older than their outputs."""
    from ..config import campaign_methods

    methods = campaign_methods(validated(config))
    shared = {(str(r["dataset"]), int(r["fold"])) for r in rows
              if methods.get(str(r["method"]), {}).get("initial_solution") == "shared"}  # fmt: skip
    return [str(base / "initial_solution" / d / f"fold-{k}.json") for d, k in sorted(shared)]


def job_config_hashes(config: dict, dataset: str, method: str, setting: str) -> tuple[str, str]:
    """The ``config_hash`` a record or part of this job carries: today's (:func:`~svmfs.config.job_config`), first,
    and that of records written before 2026-11-29 (:func:`~svmfs.config.legacy_job_config`, the method's every
    setting and its resources hashed too), under which the committed exports of then still stand for their jobs."""
    from ..config import job_config, legacy_job_config
    from ..results.record import config_hash

    return (config_hash(job_config(config, dataset, method, setting)),
            config_hash(legacy_job_config(config, dataset, method, setting)))  # fmt: skip


def stands_for(recorded: str | None, config: dict, earlier: dict | None, job: tuple[str, str, str]) -> bool:
    """Whether a record or part with ``config_hash`` ``recorded`` stands for ``job`` (dataset, method, setting) under
    ``config``: the hash is one of the job's (:func:`job_config_hashes`); or, with ``earlier`` (the config the export
    ran, its ``config.yaml``), the hash is the job's under ``earlier`` and the two configs give the job the same slice
    (:func:`~svmfs.config.job_config`). The second is how a record hashed before 2026-11-29 with its method's every
    setting stays good when a value is added to those settings: only the added setting's jobs run."""
    from ..config import job_config

    if recorded is None:
        return False
    if recorded in job_config_hashes(config, *job):
        return True
    if earlier is None:
        return False
    try:
        same = job_config(earlier, *job) == job_config(config, *job)
    except KeyError:  # the job's dataset, method or setting is not in the earlier config
        return False
    return same and recorded in job_config_hashes(earlier, *job)


def _export_config(folder: Path) -> dict | None:
    """The config an export ran (its ``config.yaml``), checked against this tree's schema; None where it has none
    or this tree no longer reads it (then only a record's own hash can make it stand)."""
    path = Path(folder) / "config.yaml"
    if not path.exists():
        return None
    try:
        return validated(yaml.safe_load(path.read_text()))
    except (ValueError, KeyError):  # ConfigError is a ValueError
        return None


def _code_files(config: dict, method: str, script: str) -> list[Path]:
    """The files whose code a select job's (``select.py``) or part's (``select_part.py``) output depends on."""
    from ..config import campaign_methods
    from ..methods.registry import method_module

    module = method_module(method, campaign_methods(config)[method])
    return [ROOT / "src" / "svmfs" / "methods" / f"{module}.py", ROOT / "scripts" / script]


def restorable_parts(config: dict, folder: Path, earlier: dict | None = None) -> tuple[dict[tuple, list[Path]], dict[str, int]]:
    """The exported parts (``<export>/parts/<dataset>/<method>/<setting>/fold-<k>/<part>.json``) a campaign
    with ``config`` may reuse, by select job: a job run in parts in this config, the part one
    of this config's (:func:`~svmfs.config.part_names`: the whole grid or its blocks), the part's
    ``config_hash`` that of the job's config slice, and the method module and ``scripts/select_part.py``
    holding the same code as at the part's ``git_sha``. Returns them and a count of the other parts by reason.
    With ``earlier``, the export's own config, a part of an older hash stands too where :func:`stands_for` says so."""
    from ..config import PART_NAME, part_names, select_jobs

    config = validated(config)
    ok, why, cache = {}, {}, {}
    for d, m, st, k in select_jobs(config):
        files = [f for f in sorted((Path(folder) / d / m / st / f"fold-{k}").glob("*.json")) if PART_NAME.fullmatch(f.stem)]
        if not files:
            continue
        if not part_names(config, m, d):
            why["job not run in parts in this config"] = why.get("job not run in parts in this config", 0) + len(files)
            continue
        names = set(part_names(config, m, d))
        for f in files:
            part = json.loads(f.read_text())
            if f.stem not in names:
                reason = "not a part of this config's layout (split_grid, split_audit)"
            elif not stands_for(part.get("config_hash"), config, earlier, (d, m, st)):
                reason = "config changed" if part.get("config_hash") else "part without a config hash (written before 2026-11-27)"
            else:
                key = (str(part.get("git_sha")), m)
                if key not in cache:
                    cache[key] = git_ok(str(part.get("git_sha")), _code_files(config, m, "select_part.py"))
                reason = cache[key]
            if reason is None:
                ok.setdefault((d, m, st, k), []).append(f)
            else:
                why[reason] = why.get(reason, 0) + 1
    return ok, why


def restorable(config: dict, records: pd.DataFrame, parts: dict | None = None,
               earlier: dict | None = None) -> tuple[list[pd.Series], dict[str, int]]:  # fmt: skip
    """The committed records a campaign with ``config`` may reuse: same job, same ``config_hash`` of the
    job's config slice, and its method module and the select rule's script holding the same code as at the
    record's commit (:func:`~svmfs.reproduce.git.same_code`: a docstring or comment may have changed). A job
    whose inner folds run apart also needs every one of its parts among ``parts`` (:func:`restorable_parts`):
    they are its inputs; but for a ``global-scaling`` part, which its record stands for (:func:`_from_record`).
    With ``earlier``, the export's own config, a record of an older hash stands too where :func:`stands_for` says
    so. Returns the rows and a count of the other jobs by reason."""
    from ..analysis.optimism import IN_RECORD
    from ..config import part_names, select_job_audits, select_jobs

    config = validated(config)
    by_key = {tuple(r[k] for k in JOB_KEY): r for _, r in records.iterrows()}
    ok, why, code_cache = [], {}, {}
    for d, m, s, k in select_jobs(config):
        row = by_key.get((d, m, s, k))
        reason = None
        if row is None:
            reason = "not in the export"
        elif not stands_for(row["config_hash"], config, earlier, (d, m, s)):
            reason = "config changed"
        elif any(pd.isna(row.get(IN_RECORD[a])) for a in select_job_audits(config)):
            reason = "audits not in the record (restored or exported without them)"
        elif set(part_names(config, m, d)) - {f.stem for f in (parts or {}).get((d, m, s, k), [])} - _from_record(config, m, row):
            reason = "run in parts (split_inner_folds, split_audit): not every part in the export"  # its inputs
        else:
            key = (str(row["git_sha"]), m)
            if key not in code_cache:
                code_cache[key] = git_ok(str(row["git_sha"]), _code_files(config, m, "select.py"))
            reason = code_cache[key]
        if reason is None:
            ok.append(row)
        else:
            why[reason] = why.get(reason, 0) + 1
    return ok, why


def _from_record(config: dict, method: str, row: pd.Series) -> set[str]:
    """The parts a committed record can stand for when the export lacks them: the ``global_scaling`` audit's
    (``split_global_scaling``), whose whole result is in the record (:func:`global_scaling_part_of`); not for a
    method with a shared initial solution (the record's parameters then mix the grid's and the solution's)."""
    from ..config import GLOBAL_SCALING_PART, campaign_methods, split_global_scaling

    mcfg = campaign_methods(config)[method]
    if (not split_global_scaling(config, method, str(row["dataset"])) or mcfg.get("initial_solution")
            or pd.isna(row.get("audit_global_scaling_accuracy"))):  # fmt: skip
        return set()
    return {GLOBAL_SCALING_PART}


def global_scaling_part_of(config: dict, row: pd.Series) -> dict:
    """The ``global-scaling`` part (rule select_part, :func:`~svmfs.protocol.select_job.run_global_scaling_part`)
    of a committed record that ran its ``global_scaling`` audit inside the job: the same audit fields, the grid's one
    point as the record chose it, marked ``from_record`` (its ``time_s`` 0: the seconds are the job's)."""
    from ..config import job_grid
    from ..protocol.classifiers import final_grid
    from ..protocol.method_plan import method_plan

    rec = _record_of(row)
    chosen = rec.get("selector_params") or {}
    grid = job_grid(config, str(row["method"]))
    final_kind = method_plan(str(row["method"]), _method_cfg(config, row), None)[3]
    audit = {k: rec[k] for k in ("audit_global_scaling_accuracy", "audit_global_scaling_accuracy_resamples",
                                 "audit_global_scaling_n_selected") if k in rec}  # fmt: skip
    return {"selector_params": {k: chosen[k] for k in grid}, "final_params": final_grid(final_kind, config["final_classifier"])[0],
            "audit": audit, "time_s": 0.0, "config_hash": rec["config_hash"], "git_sha": rec["git_sha"], "from_record": True}  # fmt: skip


def _method_cfg(config: dict, row: pd.Series) -> dict:
    from ..config import job_method_config

    return job_method_config(config, str(row["dataset"]), str(row["method"]))


def _record_of(row: pd.Series) -> dict:
    """A select job's record rebuilt from its row of the merged store (the JSON-only per-feature fields,
    e.g. ``ranking`` and ``weights``, are not in the store and stay out). A store-only field the job did
    not write (an audit the campaign does not run, no resamples) is left out, as in the job's record."""
    from ..results.record import STORE_ONLY_COLUMNS

    rec = {}
    for col, v in row.items():
        if col in STORE_ONLY_COLUMNS and col not in ("scores", "selected_names") and (v is None or (isinstance(v, float) and np.isnan(v))):
            continue
        if (col in JSON_COLUMNS or col in STORE_ONLY_COLUMNS) and isinstance(v, str) and v[:1] in "[{":
            v = json.loads(v)
        elif isinstance(v, np.generic):
            v = v.item()
        rec[col] = v
    return rec


def _mirror_option(mirror: str | None) -> list[str]:
    return ["--config", f"mirror={mirror}"] if mirror else []
