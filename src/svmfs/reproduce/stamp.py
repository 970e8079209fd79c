"""The code a committed campaign's records stand for: this tree's fingerprints, and the check stamp.

A select job's record carries ``code_hash``, the fingerprint of the code the job ran
(:func:`~svmfs.reproduce.fingerprint.code_fingerprint` of its rule script and method module). A passing
``reproduce check --stamp`` writes ``reproduction/<c>/checked.json``: the commit it ran at and this tree's
fingerprint of every (rule script, method) of the export's config. The sampled jobs, rerun by that code, gave the
committed records, so the stamp stands for the export's records: ``reproduce restore`` reuses a record whose
``code_hash`` is today's fingerprint of its job's code, or whose stamped fingerprint is (:func:`code_stands`).
A move or rename of code is thus confirmed by one check and restores again; a changed computation fails the
check, is not stamped, and its records stay stale.
"""

from __future__ import annotations

import json
from pathlib import Path

from .fingerprint import code_fingerprint, method_module
from .jobs import ROOT

#: the file a passing ``reproduce check --stamp`` writes in the export's folder
STAMP = "checked.json"
#: the rule scripts whose outputs an export keeps: the select jobs' records and their parts
SCRIPTS = ("select.py", "select_part.py")


def job_fingerprint(config: dict, method: str, script: str) -> str:
    """This tree's fingerprint of the code a job of campaign method ``method`` runs under rule script ``script``
    (the script, what it imports, the method's module and what that imports)."""
    from ..config import campaign_methods
    from ..methods.registry import method_module as module_name

    module = module_name(method, campaign_methods(config)[method])
    return code_fingerprint(ROOT / "scripts" / script, [f"svmfs.methods.{module}"])


def fingerprints(config: dict) -> dict[str, dict[str, str]]:
    """This tree's :func:`job_fingerprint` of every method of ``config`` (validated), by rule script."""
    from ..config import campaign_methods

    return {s: {m: job_fingerprint(config, m, s) for m in sorted(campaign_methods(config))} for s in SCRIPTS}


def write_stamp(folder: Path, config: dict, sha: str) -> Path:
    """Write ``<folder>/checked.json``: ``{"git_sha": sha, "fingerprints": {script: {method: fingerprint}}}``
    (no date: the same check at the same code writes the same file)."""
    from ..results.io import atomic_write_json

    path = Path(folder) / STAMP
    atomic_write_json(path, {"git_sha": sha, "fingerprints": fingerprints(config)})
    return path


def read_stamp(folder: Path) -> dict[str, dict[str, str]]:
    """The stamped fingerprints of an export (by script, then method); empty where it was never stamped."""
    path = Path(folder) / STAMP
    return json.loads(path.read_text()).get("fingerprints", {}) if path.is_file() else {}


def code_stands(recorded: str | None, stamped: str | None, current: str) -> str | None:
    """None if a record (or part) of code fingerprint ``recorded``, in an export stamped ``stamped`` for its job,
    stands for the code this tree runs (``current``): either equals it; else why not."""
    if current in (recorded, stamped):
        return None
    if not recorded and not stamped:
        return "code unknown (no code_hash and no check stamp)"
    return "code changed"
