"""What the reproduce commands share: the repository, a select job's key and path, the campaign config as
the workflow builds it, and a Snakemake run of this tree's workflow."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import yaml


#: The repository (its Snakefile, workflow/, reproduction/, REPRODUCTION.md).
ROOT = Path(__file__).resolve().parents[3]
#: The columns that name a select job, in the order records are sorted by.
JOB_KEY = ["dataset", "method", "setting", "fold"]


def job_key(r) -> tuple[str, str, str, int]:
    """(dataset, method, setting, fold) of a record row, as the workflow's select jobs name them."""
    return str(r["dataset"]), str(r["method"]), str(r["setting"]), int(r["fold"])


def job_path(out: Path, r) -> Path:
    """The select job's record under a campaign's results folder ``out``."""
    return out / "runs" / str(r["dataset"]) / str(r["method"]) / str(r["setting"]) / f"fold-{int(r['fold'])}.json"


def merge_configs(paths) -> dict:
    """The campaign config as Snakemake builds it from ``--configfile A B ... --replace-workflow-config``
    (a ``null`` in a later file deleting its key: :func:`svmfs.config.merge_config_files`)."""
    from ..config import merge_config_files

    return merge_config_files(paths)


def validated(config: dict) -> dict:
    """A merged campaign config through the schema (defaults filled in), as the workflow sees it."""
    from ..config import validate_schema

    return validate_schema(yaml.safe_load(yaml.safe_dump(config)))


def run_workflow(directory: Path, configfile: Path, *args: str, cores: int = 1, failure: str = "snakemake failed") -> None:
    """Run this tree's workflow (its library first on PYTHONPATH) in ``directory`` with ``configfile`` and
    ``args`` (targets, options); SystemExit "<failure> (<exit code>): <the output's end>" when it fails."""
    cmd = [sys.executable, "-m", "snakemake", "-s", str(ROOT / "Snakefile"), "-d", str(directory), "--cores", str(cores),
           "--workflow-profile", str(ROOT / "workflow" / "profiles" / "default"),
           "--configfile", str(configfile), "--replace-workflow-config", *args]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")]))}
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        raise SystemExit(f"{failure} ({proc.returncode}):\n{proc.stdout[-3000:]}\n{proc.stderr[-5000:]}")
