"""``reproduce rejudge``: rerun the reproduction rule on committed folders' own records and audits with this
tree's published figures and verdict code (``analysis/published.yaml``, ``analysis/reproduction.py``), so a
changed published figure or ``tried`` entry reaches every export without rerunning a job; ``--check`` only
reports the folders whose verdicts are stale."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from ..yamlio import load_yaml_file
from .jobs import ROOT

#: The files the reproduction rule writes, as an export holds them (relative to its folder).
VERDICT_FILES = ("tables/reproduction.csv", "tables/reproduction.md", "tables/reproduction.tex", "report/reproduction.md")


def rejudge_folders(folders, check: bool = False, out=print) -> int:
    """The command: :func:`rejudge` each folder (default: every folder of ``reproduction/`` with verdicts), or
    with ``check`` only list the stale ones (:func:`stale_files`); 1 if ``check`` found one stale, else 0."""
    from ..results.record import git_sha

    folders = folders or [d for d in sorted((ROOT / "reproduction").iterdir()) if judged(d)]
    stale, sha = 0, git_sha(ROOT)  # the tree before the first folder is rewritten
    for folder in folders:
        if not judged(folder):
            out(f"{os.path.relpath(folder)}: no verdicts (a partial export or no published number), left alone")
            continue
        diff = stale_files(folder)[1] if check else rejudge(folder, sha)
        stale += bool(diff)
        out(f"{os.path.relpath(folder)}: " + (("stale: " if check else "rewrote ") + ", ".join(diff) if diff else "up to date"))
    return 1 if check and stale else 0


def rejudge(folder: Path, sha: str | None = None) -> list[str]:
    """Write :func:`rejudge_texts` over a committed folder's stale verdict files (:func:`stale_files`), and note
    the commit that judged them (``sha``, default: the tree's now) in its ``provenance.json``
    (``rejudged_git_sha``); returns the files changed. The records are not touched: only the published figures,
    the verdict rules or the ``tried`` entries have moved since the export."""
    from ..results.io import atomic_write_json, atomic_write_text
    from ..results.record import git_sha

    folder = Path(folder)
    sha = sha or git_sha(ROOT)  # before anything is written: the rewrites would make the tree dirty
    texts, changed = stale_files(folder)
    for f in changed:
        atomic_write_text(folder / f, texts[f])
    if changed:
        prov_path = folder / "provenance.json"
        prov = json.loads(prov_path.read_text()) if prov_path.is_file() else {}
        atomic_write_json(prov_path, {**prov, "rejudged_git_sha": sha})
    return changed


def stale_files(folder: Path) -> tuple[dict[str, str], list[str]]:
    """(:func:`rejudge_texts`, the verdict files of ``folder`` that differ from them); ([], []) for a folder
    without verdicts (:func:`judged`: a partial export or a campaign with no published number stays so)."""
    folder = Path(folder)
    if not judged(folder):
        return {}, []
    texts = rejudge_texts(folder)
    return texts, [f for f, text in texts.items() if not (folder / f).is_file() or (folder / f).read_text() != text]


def rejudge_texts(folder: Path) -> dict[str, str]:
    """The reproduction rule run once more on a committed campaign, from what the folder holds: its records
    (``records.parquet``), its audits (``tables/optimism.csv``, when its ``config.yaml`` has ``audits``) and
    its campaign and papers, with this tree's ``published.yaml`` and ``analysis/reproduction.py``. Returns
    {relative path: text} for :data:`VERDICT_FILES`, what the rule would write (its own function,
    :func:`svmfs.analysis.reproduction.judge_campaign`)."""
    from ..analysis.reproduction import judge_campaign

    folder = Path(folder)
    config = load_yaml_file(folder / "config.yaml")
    optimism = folder / "tables" / "optimism.csv"
    if config.get("audits") and not optimism.is_file():
        raise SystemExit(f"{folder}: its config has audits but it holds no tables/optimism.csv")
    with tempfile.TemporaryDirectory() as tmp:
        paths = [Path(tmp) / f.replace("/", "_") for f in VERDICT_FILES]
        csv, md, tex, report = (str(p) for p in paths)
        judge_campaign(folder / "records.parquet", config["reproduces"], str(config["campaign"]), csv, md, report, tex,
                       optimism_csv=optimism if config.get("audits") else None,
                       protocol=config.get("protocol"))  # fmt: skip
        return {f: p.read_text() for f, p in zip(VERDICT_FILES, paths)}


def judged(folder: Path) -> bool:
    """Whether a committed folder holds verdicts (a reproduction table): not a partial export, nor a campaign
    with no published number."""
    return (Path(folder) / VERDICT_FILES[0]).is_file()
