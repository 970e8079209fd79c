"""``reproduce restore``: resume a committed campaign in a fresh clone without rerunning its finished jobs:
the committed records whose job config and code still hold are written back as select-job outputs, and so are
the exported parts (rule select_part) of the jobs whose inner folds run apart, finished job or not."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from .jobs import JOB_KEY, ROOT, job_path, merge_configs, run_workflow, validated
from .stamp import code_stands, job_fingerprint, read_stamp

#: columns of the merged store that hold JSON text (lists and dicts of the record)
JSON_COLUMNS = ("selected", "selector_params", "final_params", "versions", "scores", "selected_names")


def restore(folder: Path, configfiles=None, directory: Path = ROOT, mirror: str | None = None, out=print) -> int:
    """Resume a committed campaign in a fresh clone without rerunning its finished jobs.

    The committed records that :func:`restorable` accepts are written back as select-job outputs under
    ``<directory>/<results_dir>/<campaign>/runs/`` after Snakemake has prepared their datasets and splits;
    Snakemake then marks them complete (``--touch``, which records its own metadata for them), so the
    campaign's usual command runs only the other jobs, and later edits of a restored job's parameters
    or code rerun it as with any job (the rules' ``params: code``).
    """
    from ..results.io import atomic_write_json
    from ..results.record import write_record

    folder, directory = Path(folder), Path(directory)
    configfiles = [Path(p) for p in configfiles] if configfiles else [folder / "config.yaml"]
    config = merge_configs(configfiles)
    merged = directory / ".svmfs-restore-config.yaml"
    merged.write_text(yaml.safe_dump(config, sort_keys=False))
    try:
        stamp = read_stamp(folder)
        parts, part_why = restorable_parts(config, folder / "parts", stamp)
        rows, why = restorable(config, pd.read_parquet(folder / "records.parquet"), parts, stamp)
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
            write_record(rec, directory / path, (directory / path).with_suffix(".parquet"), check=False)
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


def stands_for(recorded: str | None, config: dict, job: tuple[str, str, str]) -> bool:
    """Whether a record or part with ``config_hash`` ``recorded`` stands for ``job`` (dataset, method, setting) under
    ``config``: it is the hash of the job's config slice (:func:`~svmfs.config.job_config`)."""
    from ..config import job_config
    from ..results.record import config_hash

    return recorded is not None and recorded == config_hash(job_config(config, *job))


def _code_reason(config: dict, method: str, script: str, recorded, stamp: dict | None, cache: dict) -> str | None:
    """None if a record or part of ``method`` run by ``script`` with ``code_hash`` ``recorded`` stands for this
    tree's code (:func:`~svmfs.reproduce.stamp.code_stands`, the export's ``stamp`` beside it), else why not."""
    if (method, script) not in cache:
        cache[(method, script)] = job_fingerprint(config, method, script)
    recorded = None if recorded is None or (isinstance(recorded, float) and np.isnan(recorded)) else str(recorded)
    return code_stands(recorded, (stamp or {}).get(script, {}).get(method), cache[(method, script)])


def restorable_parts(config: dict, folder: Path, stamp: dict | None = None) -> tuple[dict[tuple, list[Path]], dict[str, int]]:
    """The exported parts (``<export>/parts/<dataset>/<method>/<setting>/fold-<k>/<part>.json``) a campaign
    with ``config`` may reuse, by select job: a job run in parts in this config, the part one
    of this config's (:func:`~svmfs.config.part_names`: the whole grid or its blocks), the part's
    ``config_hash`` that of the job's config slice, and the code ``scripts/select_part.py`` runs for the method
    the code the part ran (its ``code_hash``) or the code the export's last passing check ran (``stamp``:
    :func:`~svmfs.reproduce.stamp.read_stamp`). Returns them and a count of the other parts by reason."""
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
            elif not stands_for(part.get("config_hash"), config, (d, m, st)):
                reason = "config changed" if part.get("config_hash") else "part without a config hash"
            else:
                reason = _code_reason(config, m, "select_part.py", part.get("code_hash"), stamp, cache)
            if reason is None:
                ok.setdefault((d, m, st, k), []).append(f)
            else:
                why[reason] = why.get(reason, 0) + 1
    return ok, why


def restorable(config: dict, records: pd.DataFrame, parts: dict | None = None,
               stamp: dict | None = None) -> tuple[list[pd.Series], dict[str, int]]:  # fmt: skip
    """The committed records a campaign with ``config`` may reuse: same job, same ``config_hash`` of the
    job's config slice, and the code the select rule's script runs for the job's method
    (:func:`~svmfs.reproduce.stamp.job_fingerprint`: a docstring or comment may have changed) the record's
    ``code_hash`` or the one the export's last passing check stamped (``stamp``). A job
    whose inner folds run apart also needs every one of its parts among ``parts`` (:func:`restorable_parts`):
    they are its inputs; but for a ``global-scaling`` part, which its record stands for (:func:`_from_record`).
    Returns the rows and a count of the other jobs by reason."""
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
        elif not stands_for(row["config_hash"], config, (d, m, s)):
            reason = "config changed"
        elif any(pd.isna(row.get(IN_RECORD[a])) for a in select_job_audits(config)):
            reason = "audits not in the record (restored or exported without them)"
        elif set(part_names(config, m, d)) - {f.stem for f in (parts or {}).get((d, m, s, k), [])} - _from_record(config, m, row):
            reason = "run in parts (split_inner_folds, split_audit): not every part in the export"  # its inputs
        else:
            reason = _code_reason(config, m, "select.py", row.get("code_hash"), stamp, code_cache)
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
