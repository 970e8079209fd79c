"""``reproduce restore``: resume a committed campaign in a fresh clone without rerunning its finished jobs:
the committed records whose job config and code still hold are written back as select-job outputs."""

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
    from ..results.record import write_record

    folder, directory = Path(folder), Path(directory)
    configfiles = [Path(p) for p in configfiles] if configfiles else [folder / "config.yaml"]
    config = merge_configs(configfiles)
    merged = directory / ".svmfs-restore-config.yaml"
    merged.write_text(yaml.safe_dump(config, sort_keys=False))
    try:
        rows, why = restorable(config, pd.read_parquet(folder / "records.parquet"))
        # paths as the rules spell them: relative to the working directory unless results_dir is absolute
        base = Path(config.get("results_dir", "results")) / config.get("campaign", "default")
        datasets = sorted({str(r["dataset"]) for r in rows})
        if datasets:
            prep = [str(base / sub / f"{d}{ext}") for d in datasets
                    for sub, ext in (("datasets", ".npz"), ("datasets", ".json"), ("splits", ".json"))]  # fmt: skip
            prep += _initial_solutions(config, base, rows)
            run_workflow(directory, merged, *prep, *_mirror_option(mirror))
        targets = []
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
    out(f"restored {len(rows)} select jobs into {directory / base}" + (f"; to run: {rest}" if rest else ""))
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


def restorable(config: dict, records: pd.DataFrame) -> tuple[list[pd.Series], dict[str, int]]:
    """The committed records a campaign with ``config`` may reuse: same job, same ``config_hash`` of the
    job's config slice, and its method module and the select rule's script holding the same code as at the
    record's commit (:func:`~svmfs.reproduce.git.same_code`: a docstring or comment may have changed).
    Returns the rows and a count of the other jobs by reason."""
    from ..analysis.optimism import IN_RECORD
    from ..config import campaign_methods, job_config, select_job_audits, select_jobs, split_inner_folds
    from ..methods.registry import get_method
    from ..results.record import config_hash

    config = validated(config)
    by_key = {tuple(r[k] for k in JOB_KEY): r for _, r in records.iterrows()}
    methods = campaign_methods(config)
    ok, why, code_cache = [], {}, {}
    for d, m, s, k in select_jobs(config):
        row = by_key.get((d, m, s, k))
        reason = None
        if row is None:
            reason = "not in the export"
        elif row["config_hash"] != config_hash(job_config(config, d, m, s)):
            reason = "config changed"
        elif any(pd.isna(row.get(IN_RECORD[a])) for a in select_job_audits(config)):
            reason = "audits not in the record (restored or exported without them)"
        elif split_inner_folds(config, m, d):  # its parts are inputs the export does not hold: Snakemake would rerun it
            reason = "inner folds run apart (split_inner_folds): rerun with its parts"
        else:
            module = get_method(methods[m].get("method", m)).target.partition(":")[0]
            files = [ROOT / "src" / "svmfs" / "methods" / f"{module}.py", ROOT / "scripts" / "select.py"]
            key = (str(row["git_sha"]), module)
            if key not in code_cache:
                code_cache[key] = git_ok(str(row["git_sha"]), files)
            reason = code_cache[key]
        if reason is None:
            ok.append(row)
        else:
            why[reason] = why.get(reason, 0) + 1
    return ok, why


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
