"""Committed reproductions: export a finished campaign, index them, check one by rerunning its jobs.

::

    python -m svmfs.reproduce export results/<campaign> reproduction/<name> --configfile A.yaml [B.yaml ...]
    python -m svmfs.reproduce index                      # REPRODUCTION.md from reproduction/*/
    python -m svmfs.reproduce check reproduction/<name> -k 5 --seed 1 [--mirror URL]
    python -m svmfs.reproduce restore reproduction/<name> [--configfile A.yaml ...]
    python -m svmfs.reproduce rejudge [reproduction/<name> ...] [--check]

``export`` copies what a reader needs into ``reproduction/<name>/``: the reproduction report, the
tables (summary, statistics, reproduction, audits), the top-level figures as PNG, the merged
``records.parquet`` / ``records.csv`` (one row per select job, with its ``config_hash``), the merged
campaign config (``config.yaml``) and ``provenance.json`` (git SHA, versions, hosts, job and wall
times, the command). ``index`` writes the repository's ``REPRODUCTION.md`` from the committed folders
alone (deterministic). ``check`` reruns k seeded-random select jobs of a committed campaign through the
normal pipeline (Snakemake, in a scratch directory) and compares every deterministic field
(:data:`svmfs.results.record.STABLE_COLUMNS`, as ``records.csv`` prints them) with the committed row.
``restore`` writes the committed records back as select-job outputs of a fresh clone, only those whose
job config hash and method code still match (see the README, "Committed reproductions").
``rejudge`` reruns the reproduction rule on a committed folder's own records and audits with this tree's
published figures and verdict code, so a changed ``published.yaml`` (a figure, a ``tried`` entry) reaches
every export without rerunning a job; ``--check`` only reports folders whose verdicts are stale.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from .results.record import AUDIT_COLUMNS, FLOAT_FORMAT, STABLE_COLUMNS  # noqa: F401 (AUDIT_COLUMNS: tests)
from .yamlio import load_yaml_file

ROOT = Path(__file__).resolve().parents[2]
#: A figure larger than this is left out of an export (named in provenance.json): one panel per dataset
#: over a campaign's hundreds of replicate datasets makes a 10 MB PNG nobody reads in the repository.
MAX_FIGURE_BYTES = 2 * 2**20
MAX_EXPORT_BYTES = 50 * 2**20
JOB_KEY = ["dataset", "method", "setting", "fold"]


# --------------------------------------------------------------------------------------------- export
def merge_configs(paths) -> dict:
    """The campaign config as Snakemake builds it from ``--configfile A B ... --replace-workflow-config``."""
    from .config import deep_update

    config: dict = {}
    for p in paths:
        config = deep_update(config, load_yaml_file(p) or {})
    return config


def _benchmark_seconds(results: Path, records: pd.DataFrame) -> dict:
    """Benchmark seconds of a campaign's jobs, as the results folder's files show them.

    ``job_benchmark_s``: the sum over the select jobs of ``records`` (another run's select jobs in the same
    folder, e.g. a subset's, do not count; a job restored from an export has no benchmark file) and every
    other rule. ``select_wall_s``: from the first select job's start to the last one's end, over every
    session a resumed campaign took. ``aggregation_s``: the other rules' seconds (their last runs).
    ``wall_time_s`` = select_wall_s + aggregation_s, the wall time of one run that selects and then
    aggregates (a later rerun of an aggregation rule replaces its seconds; it does not stretch a span).
    ``select_jobs_without_benchmark``: the jobs none of these cover (restored from an export).
    """

    def seconds(tsv: Path) -> float | None:
        try:
            return float(pd.read_csv(tsv, sep="\t")["s"].iloc[-1])
        except (OSError, ValueError, KeyError, IndexError, pd.errors.ParserError):
            return None

    bench = results / "benchmarks"
    selected, starts, ends, unmeasured = 0.0, [], [], 0
    for _, r in records.iterrows():
        out = _job_path(results, r)
        s = seconds(bench / "select" / out.relative_to(results / "runs").with_suffix(".tsv"))
        if s is None:
            unmeasured += 1
            continue
        selected += s
        if out.is_file():
            starts.append(out.stat().st_mtime - s)
            ends.append(out.stat().st_mtime)
    other = sum(seconds(t) or 0.0 for t in sorted(bench.rglob("*.tsv")) if t.relative_to(bench).parts[0] != "select")
    span = (max(ends) - min(starts)) if starts else None
    return {"job_benchmark_s": round(selected + other, 1), "select_wall_s": None if span is None else round(span, 1),
            "aggregation_s": round(other, 1), "wall_time_s": None if span is None else round(span + other, 1),
            "select_jobs_without_benchmark": unmeasured}  # fmt: skip


def provenance(results: Path, records: pd.DataFrame, configfiles, command: str | None, config: dict | None = None) -> dict:
    """Git SHA(s), versions, machine(s), wall time and the command of a finished campaign."""
    from .results.record import git_sha, provenance as job_provenance

    versions = records["versions"].dropna().astype(str).value_counts() if "versions" in records else pd.Series(dtype=int)
    return {
        "campaign": str(records["campaign"].iloc[0]) if len(records) else None,
        "select_jobs": int(len(records)),
        "job_git_sha": {str(k): int(v) for k, v in records["git_sha"].astype(str).value_counts().sort_index().items()},
        "job_hosts": {str(k): int(v) for k, v in records["host"].astype(str).value_counts().sort_index().items()},
        "job_versions": [{"versions": json.loads(k) if k.startswith("{") else k, "jobs": int(v)} for k, v in versions.items()],
        "export_git_sha": git_sha(ROOT),
        "export_versions": job_provenance(ROOT)["versions"],
        "machine": {"platform": platform.platform(), "python": platform.python_version(), "cpus": os.cpu_count()},
        "select_fit_and_tune_s": float(records[["fit_time_s", "tune_time_s"]].astype(float).sum().sum()),
        **_benchmark_seconds(results, records),
        "configfiles": [str(p) for p in configfiles],
        "reduced": any("reduced" in Path(p).parts for p in configfiles),
        "stand_in": (config or {}).get("stand_in"),
        "command": command or (
            "snakemake --cores 2 --workflow-profile workflow/profiles/default --configfile "
            + " ".join(str(p) for p in configfiles) + " --replace-workflow-config"
        ),
    }  # fmt: skip


def _job_key(r) -> tuple[str, str, str, int]:
    return str(r["dataset"]), str(r["method"]), str(r["setting"]), int(r["fold"])


def _validated(config: dict) -> dict:
    """A merged campaign config through the schema (defaults filled in), as the workflow sees it."""
    from .config import validate_schema

    return validate_schema(yaml.safe_load(yaml.safe_dump(config)))


def export(results: Path, dest: Path, configfiles, command: str | None = None) -> list[Path]:
    """Copy a finished campaign's results into ``dest`` (see the module docstring); return the files. The
    campaign counts as finished when ``records.parquet`` holds every select job of ``configfiles``; else
    (no store, or another run's, e.g. a subset's, in the same folder) the export is partial: the finished
    select jobs of this campaign only."""
    from .results.record import read_records, write_store

    results, dest = Path(results), Path(dest)
    if not configfiles:
        raise SystemExit("export: --configfile is required (the campaign files the run used, in order)")
    config = merge_configs(configfiles)
    from .config import select_jobs

    expected = set(select_jobs(_validated(config)))
    partial = not (results / "records.parquet").is_file()
    if not partial:
        records = pd.read_parquet(results / "records.parquet")
        # records.parquet of another run in the same folder (e.g. a subset's) does not make this one finished
        partial = not expected <= {_job_key(r) for _, r in records.iterrows()}
    if partial:  # an unfinished campaign: its finished select jobs only, to resume from (restore)
        done = sorted((results / "runs").glob("*/*/*/fold-*.json"))
        if not done:
            raise SystemExit(f"{results}: no records.parquet and no finished select job")
        records = read_records(done)
        records = records[[_job_key(r) in expected for _, r in records.iterrows()]].reset_index(drop=True)
        if records.empty:
            raise SystemExit(f"{results}: no finished select job of this campaign config")
    names = set(records["campaign"].astype(str))
    if names != {config.get("campaign", "default")}:
        raise SystemExit(f"export: the records are of campaign(s) {sorted(names)}, the config names {config.get('campaign')!r}")
    # provenance first: the export's git sha is the tree's before this export rewrites committed files
    prov = {**provenance(results, records, configfiles, command, config), "partial": partial}
    earlier = Path(dest) / "provenance.json"
    if prov["select_jobs_without_benchmark"] and earlier.is_file():
        # jobs restored from this folder's last export: its times, which the new ones do not cover, are kept
        old = json.loads(earlier.read_text())
        if old.get("campaign") == prov["campaign"]:
            keep = ("export_git_sha", "select_jobs", "partial", "select_wall_s", "job_benchmark_s", "aggregation_s",
                    "wall_time_s", "command")  # fmt: skip
            prov["earlier_exports"] = old.get("earlier_exports", []) + [{k: old.get(k) for k in keep}]
    final, dest = dest, dest.with_name(dest.name + ".export-tmp")  # built aside, swapped in when complete
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    if partial:
        write_store(records, dest / "records.parquet", dest / "records.csv")
    wanted = []
    if not partial:  # (a partial export takes no report or table: they would be an earlier run's)
        wanted += [results / "records.parquet", results / "records.csv"]
        wanted += sorted((results / "report").glob("*.md"))
        wanted += sorted(p for p in (results / "tables").glob("*") if p.suffix in (".csv", ".md", ".tex"))
        wanted += sorted((results / "figures").glob("*.png"))
    files, left_out = [], []
    for src in wanted:
        if src.suffix == ".png" and src.is_file() and src.stat().st_size > MAX_FIGURE_BYTES:
            left_out.append(f"{src.relative_to(results)} ({src.stat().st_size / 2**20:.1f} MB)")
            continue
        if src.is_file():
            out = dest / src.relative_to(results)
            out.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, out)
            files.append(out)
    (dest / "config.yaml").write_text(
        "# The campaign config of this export: " + " + ".join(str(p) for p in configfiles) + " (merged)\n"
        + yaml.safe_dump(config, sort_keys=False)
    )  # fmt: skip
    if left_out:  # e.g. one panel per dataset of a campaign with 1300 replicate datasets
        prov["figures_left_out"] = {"files": left_out, "why": f"over {MAX_FIGURE_BYTES / 2**20:.0f} MB each; rebuilt by the figures rule"}
    (dest / "provenance.json").write_text(json.dumps(prov, indent=1, sort_keys=True) + "\n")
    files += [dest / "config.yaml", dest / "provenance.json"] + ([dest / "records.parquet", dest / "records.csv"] if partial else [])
    size = sum(f.stat().st_size for f in files)
    if size > MAX_EXPORT_BYTES:
        shutil.rmtree(dest)
        raise SystemExit(f"export: {size / 2**20:.1f} MB for {final}, over the {MAX_EXPORT_BYTES / 2**20:.0f} MB limit (nothing written)")
    if final.exists():
        shutil.rmtree(final)
    dest.rename(final)
    return [final / f.relative_to(dest) for f in files]


# ---------------------------------------------------------------------------------------------- index
def _load_campaigns(root: Path) -> list[tuple[str, pd.DataFrame, dict]]:
    out = []
    for d in sorted(p for p in Path(root).iterdir() if p.is_dir()) if Path(root).is_dir() else []:
        csv = d / "tables" / "reproduction.csv"
        if not csv.is_file():
            continue
        prov = json.loads((d / "provenance.json").read_text()) if (d / "provenance.json").is_file() else {}
        t = pd.read_csv(csv, keep_default_na=False, na_values=[""])
        if "key" not in t or "verdict" not in t:
            raise SystemExit(f"{csv}: made before verdicts (no key / verdict column); rerun its reproduction rule and export again")
        out.append((d.name, t, prov))
    return out


def _without_verdicts(root: Path) -> list[tuple[str, dict]]:
    """Committed folders with no published number judged (no tables/reproduction.csv): a campaign without
    published numbers, or a partial export (``partial: true``); their provenance."""
    out = []
    for d in sorted(p for p in Path(root).iterdir() if p.is_dir()) if Path(root).is_dir() else []:
        if (d / "provenance.json").is_file() and not (d / "tables" / "reproduction.csv").is_file():
            out.append((d.name, json.loads((d / "provenance.json").read_text())))
    return out


def _unexported() -> pd.DataFrame:
    """Every published number as no committed campaign has it: not run (or published without a number)."""
    from .analysis.reproduction import COLUMNS, entry_key, not_run_verdict, published

    rows = []
    for e in published()["entries"]:
        row = {c: None for c in COLUMNS}
        row.update({k: e.get(k) for k in ("paper", "table", "dataset", "method", "setting", "metric", "note")})
        v = e.get("value")
        row["published"] = " ".join(map(str, v)) if isinstance(v, list) else v
        row["key"] = entry_key(e)
        if v is None:
            row["verdict"] = "no verdict: published without a number"
        else:
            row["verdict"] = not_run_verdict(e, "no committed campaign")
        rows.append(row)
    return pd.DataFrame(rows, columns=COLUMNS)


def _merge_rank(rank: int, verdict: str, unexported: bool) -> int:
    """A not-run with a reason of its own (no public source, not reachable here) outranks a campaign's
    "dataset not in campaign"; otherwise a committed campaign's row comes before the "~" row."""
    if rank == 2 and verdict == "not run: dataset not in campaign":
        return 3
    if unexported and not (rank == 2 and verdict != "not run: no committed campaign"):
        return rank + 1
    return rank


def merged_verdicts(campaigns) -> pd.DataFrame:
    """Every published number once: the verdict of the campaign that ran it (a run before a
    no-verdict before a not-run; then more runs; then the campaign's name); a number no committed
    campaign lists is "not run: no committed campaign" (campaign "~")."""
    from .analysis.reproduction import published, verdict_kind

    rank = {"agrees": 0, "gap explained": 0, "gap unexplained": 0, "no verdict": 1, "not run": 2}
    frames = []
    for name, t, _ in [*campaigns, ("~", _unexported(), {})]:  # "~": after every campaign's name
        t = t.copy()
        t["campaign"] = name
        t["rank"] = t["verdict"].map(lambda v: _merge_rank(rank[verdict_kind(v)], v, name == "~"))
        t["order"] = np.arange(len(t))
        frames.append(t)
    allrows = pd.concat(frames, ignore_index=True)
    position = dict(zip(frames[-1]["key"], frames[-1]["order"]))  # the entry's place in published.yaml
    allrows["order"] = allrows["key"].map(position).fillna(len(position))
    allrows["neg_runs"] = -allrows["runs"].fillna(0).astype(float)
    best = allrows.sort_values(["rank", "neg_runs", "campaign"], kind="stable").drop_duplicates("key")
    papers = {p: i for i, p in enumerate(published()["papers"])}
    best["paper_order"] = best["paper"].map(papers)
    best = best.sort_values(["paper_order", "order"], kind="stable").drop(columns="paper_order").reset_index(drop=True)
    return _judge_copies(best)


#: what a copied number takes over from the entry it copies (the published value itself is the same)
COPIED = ["published_sd", "published_ci_low", "published_ci_high", "setting", "ours", "ours_sd", "ci_low", "ci_high",
          "runs", "failures", "difference", "verdict", "assumption", "tried", "campaign"]  # fmt: skip


def _judge_copies(merged: pd.DataFrame) -> pd.DataFrame:
    """A number a paper copies from another (``same_as`` in published.yaml: Jimenez-Cordero et al.'s KP-FS
    ad hoc is Maldonado et al.'s KP-SVM) gets the verdict of the entry it copies, where that entry was run;
    where it was not (or the copy's own data cannot be had, or a campaign ran the copy itself), the copy
    keeps its own row."""
    from .analysis.reproduction import data_not_run, entry_key, published, same_as_key, verdict_kind

    by_key = merged.set_index("key")
    out = merged.copy()
    for e in published()["entries"]:
        ref = same_as_key(e)
        if ref is None or data_not_run(e):
            continue
        if ref not in by_key.index:
            raise ValueError(f"published.yaml: {e['paper']} {e['table']} {e['dataset']} {e['method']}: same_as names no entry ({ref})")
        src = by_key.loc[ref]
        if verdict_kind(src["verdict"]) not in ("agrees", "gap explained", "gap unexplained"):
            continue
        i = out.index[out["key"] == entry_key(e)][0]
        if verdict_kind(out.loc[i, "verdict"]) != "not run":  # run (or judged) as itself: its own verdict stands
            continue
        out.loc[i, COPIED] = src[COPIED].to_numpy()
        copied = f"judged as {e['same_as']['paper']} {e['same_as']['table']} {e['same_as']['method']}, the number it copies"
        out.loc[i, "note"] = f"{e.get('note') or ''}; {copied}".lstrip("; ")
        if verdict_kind(src["verdict"]) != "agrees":  # a gap: what was tried is the copied entry's
            tried = src["tried"] if isinstance(src["tried"], str) and src["tried"] else "nothing recorded yet"
            out.loc[i, "tried"] = f"({copied}) {tried}"
    return out


def index_markdown(root: Path = ROOT / "reproduction") -> str:
    """REPRODUCTION.md: the scorecard over every committed campaign, the unexplained gaps, the campaigns."""
    from .analysis.reproduction import scorecard, scorecard_markdown

    campaigns = _load_campaigns(root)
    out = [
        "# Reproduction of the five papers",
        "",
        "Generated by `python -m svmfs.reproduce index` from the committed campaign folders `reproduction/*/`",
        "(do not edit by hand). A published number run by several campaigns counts once, with the verdict of",
        "the campaign that ran it (the one with the most runs).",
        "",
    ]
    reduced = [c for c in campaigns if c[2].get("reduced")]
    out += _index_body([c for c in campaigns if not c[2].get("reduced")])
    others = _without_verdicts(root)
    unfinished = [(n, p) for n, p in others if p.get("partial")]
    figures_only = [(n, p) for n, p in others if not p.get("partial")]
    if unfinished:
        out += ["## Unfinished campaigns (partial exports: `python -m svmfs.reproduce restore`, then run the rest)", ""]
        out += [f"- `{name}`: {prov.get('select_jobs', '')} select jobs finished; `{_command(prov)}`"
                + (f"; **stand-in:** {prov['stand_in']}" if prov.get("stand_in") else "") for name, prov in unfinished]  # fmt: skip
        out.append("")
    if figures_only:
        out += ["## Campaigns without published numbers (figures, parameter sweeps)", "",
                "| campaign | data | figures | select jobs | job commit(s) | command |", "|---|---|---|---|---|---|"]
        for name, prov in figures_only:
            shas = ", ".join(s[:12] + ("-dirty" if s.endswith("-dirty") else "") for s in prov.get("job_git_sha", {}))
            data = f"**stand-in:** {prov['stand_in']}" if prov.get("stand_in") else "the paper's"
            out.append(f"| `{name}` | {data} | [figures](reproduction/{name}/figures/) | {prov.get('select_jobs', '')} | {shas} | "
                       f"`{_command(prov)}` |")  # fmt: skip
        out.append("")
    if reduced:
        out += ["## Reduced runs (CI size, not the papers' sizes: left out of the scorecard above)", ""]
        for name, t, prov in reduced:
            out += [f"### `{name}`", "", f"[report](reproduction/{name}/report/reproduction.md); `{_command(prov)}`", ""]
            out += scorecard_markdown(scorecard(t)) + [""]
    return "\n".join(out).rstrip() + "\n"


def _command(prov: dict) -> str:
    """The command column of the index: how the campaign ran, and the commit that last re-judged its verdicts."""
    sha = prov.get("rejudged_git_sha")
    return prov.get("command", "") + (f"; verdicts re-judged from the records at {sha[:12]} (reproduce rejudge)" if sha else "")


def _index_body(campaigns) -> list[str]:
    from .analysis.reproduction import RULE, published, scorecard, unexplained_markdown

    out = []
    merged = merged_verdicts(campaigns)
    card = scorecard(merged)
    by = merged.groupby(["paper", "table"], sort=False)["campaign"].agg(
        lambda c: ", ".join(sorted(set(c[merged.loc[c.index, "runs"].fillna(0) > 0]))) or "-"
    )
    card["campaigns"] = [by[(p, t)] for p, t in zip(card["paper"], card["table"])]
    out += ["## Scorecard", ""]
    cols = list(card.columns)
    out += ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    out += ["| " + " | ".join(str(v) for v in r) + " |" for r in card.itertuples(index=False)]
    totals = card[["published", "run", "agrees", "gap explained", "gap unexplained", "not run", "no verdict"]].sum()
    out += ["", "Totals: " + ", ".join(f"{k} {int(v)}" for k, v in totals.items()) + ".", "", RULE, ""]
    missing = sorted(set(published()["papers"]) - set(merged["paper"]))
    if missing:
        out += [f"Papers no committed campaign reproduces: {', '.join(missing)}.", ""]
    out += ["## Unexplained gaps and what was tried", ""]
    gaps = unexplained_markdown(merged)
    out += [f"{g} (campaign `{c}`)" for g, c in zip(gaps, merged[merged["verdict"].astype(str).str.startswith("gap, unexplained")]["campaign"])] or ["None."]
    out += ["", "## Campaigns", ""]
    if not campaigns:
        return out + ["No full campaign has been exported yet: `python -m svmfs.reproduce export results/<campaign> "
                      "reproduction/<campaign> --configfile ...`, then `python -m svmfs.reproduce index`.", ""]  # fmt: skip
    out += ["| campaign | report | select jobs | job commit(s) | command |", "|---|---|---|---|---|"]
    for name, _, prov in campaigns:
        shas = ", ".join(s[:12] + ("-dirty" if s.endswith("-dirty") else "") for s in prov.get("job_git_sha", {}))
        out.append(f"| `{name}` | [report](reproduction/{name}/report/reproduction.md) | {prov.get('select_jobs', '')} | "
                   f"{shas} | `{_command(prov)}` |")  # fmt: skip
    return out + [""]


# -------------------------------------------------------------------------------------------- rejudge
#: The files the reproduction rule writes, as an export holds them (relative to its folder).
VERDICT_FILES = ("tables/reproduction.csv", "tables/reproduction.md", "tables/reproduction.tex", "report/reproduction.md")


def judged(folder: Path) -> bool:
    """Whether a committed folder holds verdicts (a reproduction table): not a partial export, nor a campaign
    with no published number."""
    return (Path(folder) / VERDICT_FILES[0]).is_file()


def rejudge_texts(folder: Path) -> dict[str, str]:
    """The reproduction rule run once more on a committed campaign, from what the folder holds: its records
    (``records.parquet``), its audits (``tables/optimism.csv``, when its ``config.yaml`` has ``audits``) and
    its campaign and papers, with this tree's ``published.yaml`` and ``analysis/reproduction.py``. Returns
    {relative path: text} for :data:`VERDICT_FILES`, what the rule would write (its own function,
    :func:`svmfs.analysis.reproduction.judge_campaign`)."""
    from .analysis.reproduction import judge_campaign

    folder = Path(folder)
    config = load_yaml_file(folder / "config.yaml")
    optimism = folder / "tables" / "optimism.csv"
    if config.get("audits") and not optimism.is_file():
        raise SystemExit(f"{folder}: its config has audits but it holds no tables/optimism.csv")
    with tempfile.TemporaryDirectory() as tmp:
        paths = [Path(tmp) / f.replace("/", "_") for f in VERDICT_FILES]
        csv, md, tex, report = (str(p) for p in paths)
        judge_campaign(folder / "records.parquet", config["reproduces"], str(config["campaign"]), csv, md, report, tex,
                       optimism_csv=optimism if config.get("audits") else None)  # fmt: skip
        return {f: p.read_text() for f, p in zip(VERDICT_FILES, paths)}


def stale_files(folder: Path) -> tuple[dict[str, str], list[str]]:
    """(:func:`rejudge_texts`, the verdict files of ``folder`` that differ from them); ([], []) for a folder
    without verdicts (:func:`judged`: a partial export or a campaign with no published number stays so)."""
    folder = Path(folder)
    if not judged(folder):
        return {}, []
    texts = rejudge_texts(folder)
    return texts, [f for f, text in texts.items() if not (folder / f).is_file() or (folder / f).read_text() != text]


def rejudge(folder: Path, sha: str | None = None) -> list[str]:
    """Write :func:`rejudge_texts` over a committed folder's stale verdict files (:func:`stale_files`), and note
    the commit that judged them (``sha``, default: the tree's now) in its ``provenance.json``
    (``rejudged_git_sha``); returns the files changed. The records are not touched: only the published figures,
    the verdict rules or the ``tried`` entries have moved since the export."""
    from .results.io import atomic_write_json, atomic_write_text
    from .results.record import git_sha

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


# ---------------------------------------------------------------------------------------------- check
def _fmt_value(v) -> str:
    """A value as ``records.csv`` prints it (floats with the store's format; lists as JSON text)."""
    if v is None or (isinstance(v, float) and np.isnan(v)):
        return ""
    if isinstance(v, (bool, np.bool_)):
        return str(bool(v))
    if isinstance(v, (float, np.floating)):
        return FLOAT_FORMAT % float(v)
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    return str(v)


#: Fields that describe a solver's path, not its result: its status, message and iteration count follow the CPU's
#: rounding (another machine's BLAS kernels take another path to the same optimum). A rerun that differs only
#: there has the committed result; ``check`` reports it without failing.
PATH_COLUMNS = ("status", "message", "n_iter")
#: Real-valued results compared with a tolerance: |a - b| <= FLOAT_RTOL max(|a|, |b|) + FLOAT_ATOL, what an
#: iterative solver's converged output keeps across CPUs (its last digits do not; on one machine they are equal).
#: Accuracies are counts over n: any changed prediction moves them by at least 1 / n, far above it.
FLOAT_COLUMNS = ("train_accuracy", "test_accuracy", "test_balanced_accuracy", "test_auc", "inner_accuracy",
                 "inner_final_accuracy", "recall_relevant", "precision_relevant", "objective", "kernel_width_l1")  # fmt: skip
FLOAT_RTOL, FLOAT_ATOL = 1e-6, 1e-9


def _close(a: str, b: str) -> bool:
    try:
        x, y = float(a), float(b)
    except ValueError:
        return False
    return abs(x - y) <= FLOAT_RTOL * max(abs(x), abs(y)) + FLOAT_ATOL


def compare_jobs(committed: pd.DataFrame, new: pd.DataFrame) -> dict[tuple, tuple[list[str], list[str]]]:
    """Per job (dataset, method, setting, fold): (the deterministic fields whose results differ, the fields that
    differ within what another CPU may change: :data:`PATH_COLUMNS`, and :data:`FLOAT_COLUMNS` within the
    tolerance), each as ``"<field>: committed '...', rerun '...'"``, compared as records.csv prints them."""
    out: dict[tuple, tuple[list[str], list[str]]] = {}
    new_by = {tuple(r[k] for k in JOB_KEY): r for _, r in new.iterrows()}
    for _, old in committed.iterrows():
        key = tuple(old[k] for k in JOB_KEY)
        row = new_by.get(key)
        if row is None:
            out[key] = (["no new record"], [])
            continue
        diff, path = [], []
        for col in STABLE_COLUMNS:
            a = _fmt_value(old[col]) if col in old else ""
            b = _fmt_value(row[col]) if col in row else ""
            if a != b:
                line = f"{col}: committed {a[:80]!r}, rerun {b[:80]!r}"
                (path if col in PATH_COLUMNS or (col in FLOAT_COLUMNS and _close(a, b)) else diff).append(line)
        out[key] = (diff, path)
    return out


def compare_records(committed: pd.DataFrame, new: pd.DataFrame) -> dict[tuple, list[str]]:
    """Per job: the fields whose results differ (:func:`compare_jobs`), nothing for a path or last-digit change."""
    return {key: diff for key, (diff, _) in compare_jobs(committed, new).items()}


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


def _job_path(out: Path, r) -> Path:
    return out / "runs" / str(r["dataset"]) / str(r["method"]) / str(r["setting"]) / f"fold-{int(r['fold'])}.json"


def rerun_jobs(config: dict, jobs: pd.DataFrame, workdir: Path, cores: int = 2, mirror: str | None = None,
               raw_dir: str | None = None) -> pd.DataFrame:  # fmt: skip
    """Run the given select jobs through the workflow (Snakemake) in ``workdir``; their new records."""
    from .results.record import read_records

    workdir.mkdir(parents=True, exist_ok=True)
    cfg = dict(config)
    cfg["results_dir"] = str(workdir / "results")
    cfg["raw_dir"] = raw_dir or str(ROOT / "data" / "raw")
    if mirror:
        cfg["mirror"] = mirror
    (workdir / "config.yaml").write_text(yaml.safe_dump(cfg, sort_keys=False))
    out = workdir / "results" / cfg.get("campaign", "default")
    targets = [str(_job_path(out, r)) for _, r in jobs.iterrows()]
    cmd = [sys.executable, "-m", "snakemake", "-s", str(ROOT / "Snakefile"), "-d", str(workdir), "--cores", str(cores),
           "--workflow-profile", str(ROOT / "workflow" / "profiles" / "default"),
           "--configfile", str(workdir / "config.yaml"), "--replace-workflow-config", *targets]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")]))}
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        raise SystemExit(f"check: the rerun failed ({proc.returncode}):\n{proc.stdout[-3000:]}\n{proc.stderr[-5000:]}")
    return read_records(targets)


def check(folder: Path, k: int, seed: int, mirror: str | None = None, workdir: Path | None = None,
          cores: int = 2, raw_dir: str | None = None, out=print, max_job_s: float | None = None) -> int:  # fmt: skip
    """Rerun k sampled jobs of a committed campaign (with ``max_job_s``: among those that took at most that
    long, e.g. to bound CI's time); 0 if every job has its committed result (:func:`compare_jobs`: its solver
    path and the last digits of its floats may differ on another CPU, and are listed), else 1."""
    folder = Path(folder)
    config = load_yaml_file(folder / "config.yaml")
    records = pd.read_parquet(folder / "records.parquet")
    jobs = sample_jobs(records, k, seed, max_job_s)
    from .results.record import git_sha

    among = "" if max_job_s is None else f", drawn among the {int((job_seconds(records) <= max_job_s).sum())} that took at most {max_job_s:g} s"
    out(f"check {folder}: {len(jobs)} of {len(records)} select jobs (seed {seed}{among}), rerun through the workflow")
    out(f"committed jobs ran at {', '.join(sorted(set(jobs['git_sha'].astype(str))))}; this tree: {git_sha(ROOT)}")
    scratch = Path(workdir) if workdir else Path(tempfile.mkdtemp(prefix="svmfs-check-"))
    try:
        new = rerun_jobs(config, jobs, scratch, cores=cores, mirror=mirror, raw_dir=raw_dir)
    finally:
        if workdir is None:
            shutil.rmtree(scratch, ignore_errors=True)
    compared = compare_jobs(jobs, new)
    bad = close = 0
    for key, (d, path) in compared.items():
        name = "{}/{}/{}/fold-{}".format(*key)
        out(f"{'DIFF' if d else 'ok' if not path else 'ok, same result'} {name}")
        for line in d:
            out(f"       {line}")
        for line in path:
            out(f"       (path or last digits) {line}")
        bad += bool(d)
        close += bool(path) and not d
    same = len(compared) - bad - close
    out(f"{same} of {len(compared)} jobs identical on every deterministic field"
        + (f"; {close} with the same result, their solver path or last digits differing (status, message, n_iter; "
           f"floats within {FLOAT_RTOL:g} relative)" if close else "")
        + (f"; {bad} differ" if bad else ""))  # fmt: skip
    return 1 if bad else 0


# -------------------------------------------------------------------------------------------- restore
#: columns of the merged store that hold JSON text (lists and dicts of the record)
JSON_COLUMNS = ("selected", "selector_params", "final_params", "versions", "scores", "selected_names")


def _record_of(row: pd.Series) -> dict:
    """A select job's record rebuilt from its row of the merged store (the JSON-only per-feature fields,
    e.g. ``ranking`` and ``weights``, are not in the store and stay out). A store-only field the job did
    not write (an audit the campaign does not run, no resamples) is left out, as in the job's record."""
    from .results.record import STORE_ONLY_COLUMNS

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


def same_code(old: str, new: str) -> bool:
    """Whether two versions of a Python file hold the same code: equal syntax trees once every docstring is
    dropped (comments and layout never reach the tree). A corrected docstring or comment in a method module
    does not make its committed records stale; any change of a statement, name or constant does."""
    import ast

    def tree(text: str) -> str:
        node = ast.parse(text)
        for n in ast.walk(node):
            body = getattr(n, "body", None)
            if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and body and \
                    isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):  # fmt: skip
                n.body = body[1:] or [ast.Pass()]
        return ast.dump(node)

    try:
        return tree(old) == tree(new)
    except SyntaxError:
        return old == new


def _git_ok(sha: str, files: list[Path]) -> str | None:
    """None if ``files`` hold the same code at commit ``sha`` as in the working tree (:func:`same_code`:
    docstrings and comments may differ), else why not."""
    if not sha or sha == "unknown" or sha.endswith("-dirty"):
        return "code unknown (record made from a dirty or unknown tree)"
    git = ["git", "-C", str(ROOT)]
    if subprocess.run([*git, "cat-file", "-e", f"{sha}^{{commit}}"], capture_output=True).returncode != 0:
        return "code unknown (commit not in this clone)"
    for f in files:
        rel = str(f.relative_to(ROOT))
        if subprocess.run([*git, "diff", "--quiet", sha, "--", rel], capture_output=True).returncode == 0:
            continue
        old = subprocess.run([*git, "show", f"{sha}:{rel}"], capture_output=True, text=True)
        if old.returncode != 0 or not f.is_file() or not same_code(old.stdout, f.read_text()):
            return "code changed"
    return None


def restorable(config: dict, records: pd.DataFrame) -> tuple[list[pd.Series], dict[str, int]]:
    """The committed records a campaign with ``config`` may reuse: same job, same ``config_hash`` of the
    job's config slice, and its method module and the select rule's script holding the same code as at the
    record's commit (:func:`same_code`: a docstring or comment may have changed). Returns the rows and a count
    of the other jobs by reason."""
    from .analysis.optimism import IN_RECORD
    from .config import campaign_methods, job_config, select_job_audits, select_jobs
    from .methods.registry import get_method
    from .results.record import config_hash

    config = _validated(config)
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
        else:
            module = get_method(methods[m].get("method", m)).target.partition(":")[0]
            files = [ROOT / "src" / "svmfs" / "methods" / f"{module}.py", ROOT / "scripts" / "select.py"]
            key = (str(row["git_sha"]), module)
            if key not in code_cache:
                code_cache[key] = _git_ok(str(row["git_sha"]), files)
            reason = code_cache[key]
        if reason is None:
            ok.append(row)
        else:
            why[reason] = why.get(reason, 0) + 1
    return ok, why


def _snakemake(directory: Path, configfile: Path, *args: str, mirror: str | None = None) -> None:
    cmd = [sys.executable, "-m", "snakemake", "-s", str(ROOT / "Snakefile"), "-d", str(directory), "--cores", "1",
           "--workflow-profile", str(ROOT / "workflow" / "profiles" / "default"),
           "--configfile", str(configfile), "--replace-workflow-config", *args]  # fmt: skip
    if mirror:
        cmd += ["--config", f"mirror={mirror}"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")]))}
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        raise SystemExit(f"snakemake failed ({proc.returncode}):\n{proc.stdout[-3000:]}\n{proc.stderr[-5000:]}")


def restore(folder: Path, configfiles=None, directory: Path = ROOT, mirror: str | None = None, out=print) -> int:
    """Resume a committed campaign in a fresh clone without rerunning its finished jobs.

    The committed records that :func:`restorable` accepts are written back as select-job outputs under
    ``<directory>/<results_dir>/<campaign>/runs/`` after Snakemake has prepared their datasets and splits;
    Snakemake then marks them complete (``--touch``, which records its own metadata for them), so the
    campaign's usual command runs only the other jobs, and later edits of a restored job's parameters
    or code rerun it as with any job.
    """
    from .results.record import write_record

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
            _snakemake(directory, merged, *prep, mirror=mirror)
        targets = []
        for r in rows:
            rec = {**_record_of(r), "restored_from": str(folder)}
            path = _job_path(base, r)
            (directory / path).parent.mkdir(parents=True, exist_ok=True)
            write_record(rec, directory / path, (directory / path).with_suffix(".parquet"))
            targets.append(str(path))
        if targets:
            _snakemake(directory, merged, "--touch", "--force", *targets, mirror=mirror)  # forced: metadata recorded
    finally:
        merged.unlink(missing_ok=True)
    rest = ", ".join(f"{n} {r}" for r, n in sorted(why.items()))
    out(f"restored {len(rows)} select jobs into {directory / base}" + (f"; to run: {rest}" if rest else ""))
    return 0


# ------------------------------------------------------------------------------------------------ cli
def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m svmfs.reproduce", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    e = sub.add_parser("export", help="copy a finished campaign's results into reproduction/<name>/")
    e.add_argument("results", type=Path)
    e.add_argument("dest", type=Path)
    e.add_argument("--configfile", nargs="+", required=True, help="the campaign files of the run, in order")
    e.add_argument("--command", help="the command that ran the campaign (default: the usual snakemake call)")
    i = sub.add_parser("index", help="write REPRODUCTION.md from reproduction/*/")
    i.add_argument("--root", type=Path, default=ROOT / "reproduction")
    i.add_argument("--out", type=Path, default=ROOT / "REPRODUCTION.md")
    c = sub.add_parser("check", help="rerun k random select jobs of a committed campaign and compare")
    c.add_argument("folder", type=Path)
    c.add_argument("-k", type=int, default=5)
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--mirror", default=os.environ.get("SVMFS_MIRROR") or None, help="dataset mirror (default $SVMFS_MIRROR)")
    c.add_argument("--cores", type=int, default=2)
    c.add_argument("--max-job-seconds", type=float, help="draw only among jobs whose record took at most this long (fit + tuning + audit)")
    c.add_argument("--workdir", type=Path, help="keep the rerun here (default: a temporary folder, removed)")
    c.add_argument("--raw-dir", help="downloaded sources (default: the clone's data/raw)")
    j = sub.add_parser("rejudge", help="rerun the reproduction rule on committed campaigns' own records")
    j.add_argument("folders", type=Path, nargs="*", help="default: every folder of reproduction/ with verdicts")
    j.add_argument("--check", action="store_true", help="write nothing; exit 1 if a folder's verdicts are stale")
    r = sub.add_parser("restore", help="write a committed campaign's still-valid records back into results/<campaign>")
    r.add_argument("folder", type=Path)
    r.add_argument("--configfile", nargs="+", help="the campaign files to resume with (default: the export's config.yaml)")
    r.add_argument("--directory", type=Path, default=Path.cwd(), help="the workflow's working directory (default: here)")
    r.add_argument("--mirror", default=os.environ.get("SVMFS_MIRROR") or None)
    a = ap.parse_args(argv)
    if a.cmd == "export":
        files = export(a.results, a.dest, a.configfile, a.command)
        size = sum(f.stat().st_size for f in files)
        print(f"exported {len(files)} files ({size / 2**20:.2f} MB) to {a.dest}")
        return 0
    if a.cmd == "index":
        a.out.write_text(index_markdown(a.root))
        print(f"wrote {a.out}")
        return 0
    if a.cmd == "rejudge":
        from .results.record import git_sha

        folders = a.folders or [d for d in sorted((ROOT / "reproduction").iterdir()) if judged(d)]
        stale, sha = 0, git_sha(ROOT)  # the tree before the first folder is rewritten
        for folder in folders:
            if not judged(folder):
                print(f"{os.path.relpath(folder)}: no verdicts (a partial export or no published number), left alone")
                continue
            diff = stale_files(folder)[1] if a.check else rejudge(folder, sha)
            stale += bool(diff)
            print(f"{os.path.relpath(folder)}: " + (("stale: " if a.check else "rewrote ") + ", ".join(diff) if diff else "up to date"))
        return 1 if a.check and stale else 0
    if a.cmd == "check":
        return check(a.folder, a.k, a.seed, mirror=a.mirror, workdir=a.workdir, cores=a.cores, raw_dir=a.raw_dir,
                     max_job_s=a.max_job_seconds)
    return restore(a.folder, a.configfile, a.directory, a.mirror)


if __name__ == "__main__":
    sys.exit(main())
