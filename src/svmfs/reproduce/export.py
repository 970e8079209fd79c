"""``reproduce export``: copy a finished campaign's results into ``reproduction/<name>/`` (the report, the
tables, the top-level figures as PNG, the merged records, the merged config and ``provenance.json``), or the
finished select jobs of an unfinished one (a partial export, to resume from with ``reproduce restore``). Either
holds the finished parts of the select jobs whose inner folds run apart (``parts/``), finished job or not, so
that ``restore`` can put back a split job, or the parts an unfinished one had done."""

from __future__ import annotations

import json
import os
import platform
import re
import shutil
from pathlib import Path

import pandas as pd
import yaml

from ..config import is_audit_part
from ..protocol.select_job import scores_from_parts
from .jobs import ROOT, job_key, job_path, merge_configs, validated

#: A figure larger than this is left out of an export (named in provenance.json): one panel per dataset
#: over a campaign's hundreds of replicate datasets makes a 10 MB PNG nobody reads in the repository.
MAX_FIGURE_BYTES = 2 * 2**20
MAX_EXPORT_BYTES = 50 * 2**20


def export(results: Path, dest: Path, configfiles, command: str | None = None, earlier: Path | None = None) -> list[Path]:
    """Copy a finished campaign's results into ``dest`` (see the module docstring); return the files. The
    campaign counts as finished when ``records.parquet`` holds every select job of ``configfiles``; else
    (no store, or another run's, e.g. a subset's, in the same folder) the export is partial: the finished
    select jobs of this campaign only.

    ``earlier``: the export the run's restored jobs came from (``reproduce restore``), whose times
    (``select_jobs.csv``, ``provenance.json``) this export keeps for them; default ``dest`` itself. A rerun
    spread over several runs exports its partial state elsewhere (e.g. ``benchmarks/reruns/<campaign>``),
    so that the committed export in ``dest`` stays whole until the rerun ends."""
    from ..results.record import write_store

    results, dest = Path(results), Path(dest)
    if not configfiles:
        raise SystemExit("export: --configfile is required (the campaign files the run used, in order)")
    config = merge_configs(configfiles)
    from ..config import select_jobs

    layout = validated(config)  # which parts (rule select_part) a split job has: part_names
    expected = set(select_jobs(layout))
    records, partial = _campaign_records(results, expected)
    names = set(records["campaign"].astype(str))
    if names != {config.get("campaign", "default")}:
        raise SystemExit(f"export: the records are of campaign(s) {sorted(names)}, the config names {config.get('campaign')!r}")
    # provenance first: the export's git sha is the tree's before this export rewrites committed files
    unfinished = sorted(expected - {job_key(r) for _, r in records.iterrows()})
    times, pending = job_times(results, records, layout), part_times(results, unfinished, layout)
    times = times if pending.empty else pd.concat([times, pending], ignore_index=True)
    prov = {**provenance(results, records, configfiles, command, config, times, layout), "partial": partial}
    earlier = Path(earlier) if earlier is not None else Path(dest)
    _keep_earlier_exports(prov, earlier)
    final, dest = dest, dest.with_name(dest.name + ".export-tmp")  # built aside, swapped in when complete
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    if partial:
        write_store(records, dest / "records.parquet", dest / "records.csv")
    files, left_out = _copy_results(results, dest, partial)
    (dest / "config.yaml").write_text(
        "# The campaign config of this export: " + " + ".join(str(p) for p in configfiles) + " (merged)\n"
        + yaml.safe_dump(config, sort_keys=False)
    )  # fmt: skip
    if left_out:  # e.g. one panel per dataset of a campaign with 1300 replicate datasets
        prov["figures_left_out"] = {"files": left_out, "why": f"over {MAX_FIGURE_BYTES / 2**20:.0f} MB each; rebuilt by the figures rule"}
    (dest / "provenance.json").write_text(json.dumps(prov, indent=1, sort_keys=True) + "\n")
    files += [dest / "config.yaml", dest / "provenance.json"] + ([dest / "records.parquet", dest / "records.csv"] if partial else [])
    for src in exported_parts(results, sorted(expected), layout):  # split jobs: their finished parts, for restore
        out = dest / "parts" / src.relative_to(results / "parts")
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, out)
        files.append(out)
    times = _with_earlier_times(times, records, earlier / "select_jobs.csv", unfinished, layout)
    if not times.empty:  # per select job: wall, CPU, final classifier, audits
        times.to_csv(dest / "select_jobs.csv", index=False, float_format="%.3f", lineterminator="\n")
        files.append(dest / "select_jobs.csv")
    size = sum(f.stat().st_size for f in files)
    if size > MAX_EXPORT_BYTES:
        shutil.rmtree(dest)
        raise SystemExit(f"export: {size / 2**20:.1f} MB for {final}, over the {MAX_EXPORT_BYTES / 2**20:.0f} MB limit (nothing written)")
    if final.exists():
        shutil.rmtree(final)
    dest.rename(final)
    return [final / f.relative_to(dest) for f in files]


def _campaign_records(results: Path, expected: set) -> tuple[pd.DataFrame, bool]:
    """The records to export and whether the export is partial: ``records.parquet`` when it holds every
    ``expected`` select job, else the finished select jobs of this campaign (to resume from: restore)."""
    from ..results.record import read_records

    partial = not (results / "records.parquet").is_file()
    if not partial:
        records = pd.read_parquet(results / "records.parquet")
        # records.parquet of another run in the same folder (e.g. a subset's) does not make this one finished
        partial = not expected <= {job_key(r) for _, r in records.iterrows()}
    if partial:  # an unfinished campaign: its finished select jobs only, to resume from (restore)
        done = sorted((results / "runs").glob("*/*/*/fold-*.json"))
        if not done:
            raise SystemExit(f"{results}: no records.parquet and no finished select job")
        records = read_records(done)
        records = records[[job_key(r) in expected for _, r in records.iterrows()]].reset_index(drop=True)
        if records.empty:
            raise SystemExit(f"{results}: no finished select job of this campaign config")
    return records, partial


def _keep_earlier_exports(prov: dict, earlier: Path) -> None:
    """Jobs restored from the folder's last export: keep that export's times (which the new ones do not
    cover) in ``prov["earlier_exports"]``."""
    if prov["select_jobs_without_benchmark"] and (earlier / "provenance.json").is_file():
        old = json.loads((earlier / "provenance.json").read_text())
        if old.get("campaign") == prov["campaign"]:
            keep = ("export_git_sha", "select_jobs", "partial", "select_wall_s", "job_benchmark_s", "aggregation_s",
                    "wall_time_s", "select_cpu_s", "select_cpu_jobs", "command")  # fmt: skip
            prov["earlier_exports"] = old.get("earlier_exports", []) + [{k: old.get(k) for k in keep}]


def _copy_results(results: Path, dest: Path, partial: bool) -> tuple[list[Path], list[str]]:
    """Copy the records, report, tables and figures into ``dest`` (a partial export takes none: they would
    be an earlier run's); return the copies and the figures left out for their size."""
    wanted = []
    if not partial:
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
    return files, left_out


def provenance(results: Path, records: pd.DataFrame, configfiles, command: str | None, config: dict | None = None,
               times: pd.DataFrame | None = None, layout: dict | None = None) -> dict:
    """Git SHA(s), versions, machine(s), wall and CPU time and the command of a finished campaign (``times``:
    :func:`job_times`, computed here if not given; ``layout``: see :func:`job_parts`)."""
    from ..results.record import git_sha, provenance as job_provenance

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
        **_benchmark_seconds(results, records, layout),
        **_cpu_seconds(job_times(results, records, layout) if times is None else times),
        "configfiles": [str(p) for p in configfiles],
        "reduced": any(Path(p).stem == "reduced" or "reduced" in Path(p).parts for p in configfiles),
        "stand_in": (config or {}).get("stand_in"),
        "command": command or (
            "snakemake --cores 2 --workflow-profile workflow/profiles/default --configfile "
            + " ".join(str(p) for p in configfiles) + " --replace-workflow-config"
        ),
    }  # fmt: skip


#: The rules whose benchmarks are a select job's own seconds (select_part: its inner folds run apart).
SELECT_RULES = ("select", "select_part")


def job_parts(folder: Path, suffix: str, layout: dict | None, dataset: str, method: str) -> list[Path]:
    """A split job's part files in ``folder`` (``inner-*<suffix>``, ``audit*<suffix>``, rule select_part): with
    ``layout`` (the validated campaign config) only those of its parts (:func:`~svmfs.config.part_names`), not those
    another layout left in the folder (the whole-grid parts before a ``split_grid``); without, all of them."""
    from ..config import PART_NAME, part_names

    files = [f for f in sorted(Path(folder).glob(f"*{suffix}")) if PART_NAME.fullmatch(f.name[: -len(suffix)])]
    if layout is None:
        return files

    names = set(part_names(layout, method, dataset))
    return [f for f in files if f.name[: -len(suffix)] in names]


def _benchmark_seconds(results: Path, records: pd.DataFrame, layout: dict | None = None) -> dict:
    """Benchmark seconds of a campaign's jobs, as the results folder's files show them.

    ``job_benchmark_s``: the sum over the select jobs of ``records`` (with their select_part jobs) (another run's select jobs in the same
    folder, e.g. a subset's, do not count; a job restored from an export has no benchmark file) and every
    other rule. ``select_wall_s``: from the first select job's start to the last one's end, over every
    run a resumed campaign took. ``aggregation_s``: the other rules' seconds (their last runs).
    ``wall_time_s`` = select_wall_s + aggregation_s, the wall time of one run that selects and then
    aggregates (a later rerun of an aggregation rule replaces its seconds; it does not stretch a span).
    ``select_jobs_without_benchmark``: the jobs none of these cover (restored from an export).
    """

    def seconds(tsv: Path) -> float | None:
        return _benchmark_value(tsv, "s")

    bench = results / "benchmarks"
    selected, starts, ends, unmeasured = 0.0, [], [], 0
    for _, r in records.iterrows():
        out = job_path(results, r)
        s = seconds(bench / "select" / out.relative_to(results / "runs").with_suffix(".tsv"))
        if s is None:
            unmeasured += 1
            continue
        selected += s
        if out.is_file():
            starts.append(out.stat().st_mtime - s)
            ends.append(out.stat().st_mtime)
        rel = out.relative_to(results / "runs").with_suffix("")
        for tsv in job_parts(bench / "select_part" / rel, ".tsv", layout, r["dataset"], r["method"]):  # split_inner_folds: the job's parts
            part_s, part = seconds(tsv), results / "parts" / rel / tsv.with_suffix(".json").name
            selected += part_s or 0.0
            if part_s is not None and part.is_file():
                starts.append(part.stat().st_mtime - part_s)
    other = sum(seconds(t) or 0.0 for t in sorted(bench.rglob("*.tsv")) if t.relative_to(bench).parts[0] not in SELECT_RULES)
    span = (max(ends) - min(starts)) if starts else None
    return {"job_benchmark_s": round(selected + other, 1), "select_wall_s": None if span is None else round(span, 1),
            "aggregation_s": round(other, 1), "wall_time_s": None if span is None else round(span + other, 1),
            "select_jobs_without_benchmark": unmeasured}  # fmt: skip


#: The warm worker's line in a job's log (``svmfs.worker._note_usage``): the forked child's CPU seconds,
#: which Snakemake's benchmark file does not see (it measures the client process).
_WORKER_CPU = re.compile(r"worker child: cpu ([0-9.]+) s")


def _job_cpu_seconds(log: Path, tsv: Path) -> float | None:
    """One job's CPU seconds: the last worker line of its log, else its benchmark file's ``cpu_time`` (a job
    run outside the warm worker), else None."""
    try:
        found = _WORKER_CPU.findall(log.read_text(errors="replace"))
    except OSError:
        found = []
    return float(found[-1]) if found else _benchmark_value(tsv, "cpu_time")


def _benchmark_value(tsv: Path, column: str) -> float | None:
    """The last row's ``column`` of a Snakemake benchmark file (``s``: wall seconds, ``cpu_time``), or None."""
    try:
        return float(pd.read_csv(tsv, sep="\t")[column].iloc[-1])
    except (OSError, ValueError, KeyError, IndexError, pd.errors.ParserError):
        return None


#: The select job's own log lines (``svmfs.jobs.job_context``'s format, milliseconds after the comma): the CPU
#: seconds of its stages where the log has them, else the final classifier's wall seconds and the status
#: line written once the in-job audits are done.
_STAMP = r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}) INFO "
_CPU_STAGES = re.compile(r"cpu by stage: tune ([0-9.]+) s, fit ([0-9.]+) s, final classifier ([0-9.]+) s, audits ([0-9.]+) s")
_FINAL = re.compile(_STAMP + r"final classifier: .*? ([0-9.]+) s$", re.M)
_STATUS = re.compile(_STAMP + r"status ", re.M)
STAGES = ("tune_s", "fit_s", "final_classifier_s", "audits_s")


def _log_stages(log: Path, record, parts_s: float) -> dict:
    """A select job's seconds by stage (:data:`STAGES`), from its log: the "cpu by stage" line (``stage_clock``
    cpu), else wall seconds: tune and fit from the record (tune less its parts' seconds ``parts_s``), the
    final classifier's line, and the audits (test_tuned, global_scaling) from that line to the status line."""
    try:
        text = log.read_text(errors="replace")
    except OSError:
        text = ""
    found = _CPU_STAGES.findall(text)
    if found:
        return {"stage_clock": "cpu", **dict(zip(STAGES, map(float, found[-1])))}
    final, status = _FINAL.findall(text), _STATUS.findall(text)
    audits = None
    if final and status:
        stamp = [pd.Timestamp(t.replace(",", ".")) for t in (final[-1][0], status[-1])]
        audits = max((stamp[1] - stamp[0]).total_seconds(), 0.0)
    tune = record.get("tune_time_s")
    return {"stage_clock": "wall", "tune_s": None if tune is None else max(float(tune) - parts_s, 0.0),
            "fit_s": record.get("fit_time_s"), "final_classifier_s": float(final[-1][1]) if final else None, "audits_s": audits}  # fmt: skip


def job_times(results: Path, records: pd.DataFrame, layout: dict | None = None) -> pd.DataFrame:
    """One row per select job of ``records`` and per ``select_part`` of a split one, as its results folder shows
    it: ``wall_s`` (benchmark file), ``cpu_s`` (the warm worker's line, else the benchmark's ``cpu_time``), and
    its seconds by stage (:func:`_log_stages`; a part is all tuning: its CPU). Written into an export as
    ``select_jobs.csv``: where a job's time goes beyond the records' fit and tuning seconds.
    No row where the folder has neither log nor benchmark of a job (restored from an export)."""
    rows = []
    for _, r in records.iterrows():
        rel = job_path(results, r).relative_to(results / "runs").with_suffix("")
        parts = job_parts(results / "benchmarks" / "select_part" / rel, ".tsv", layout, r["dataset"], r["method"])
        part_files = [f for f in (results / "parts" / rel / t.with_suffix(".json").name for t in parts) if f.is_file()]
        parts_s = scores_from_parts([f for f in part_files if not is_audit_part(f.stem)])[1]  # the seconds tune_time_s added
        for rule, name, part in [("select", rel, "")] + [("select_part", rel / t.stem, t.stem) for t in parts]:
            log, tsv = results / "logs" / rule / name.with_suffix(".log"), results / "benchmarks" / rule / name.with_suffix(".tsv")
            cpu, wall = _job_cpu_seconds(log, tsv), _benchmark_value(tsv, "s")
            if cpu is None and wall is None:
                continue
            stages = _log_stages(log, r, parts_s) if rule == "select" else _part_stages(cpu, part)
            rows.append({"job": f"{rule}/{name.as_posix()}", "rule": rule, "dataset": r["dataset"], "method": r["method"],
                         "setting": r["setting"], "fold": int(r["fold"]), "part": part, "wall_s": wall, "cpu_s": cpu, **stages})  # fmt: skip
    return pd.DataFrame(rows, columns=TIME_COLUMNS)


#: The columns of ``select_jobs.csv`` before ``run``.
TIME_COLUMNS = ["job", "rule", "dataset", "method", "setting", "fold", "part", "wall_s", "cpu_s", "stage_clock", *STAGES]


def _part_stages(cpu, part: str):
    """A part's seconds by stage: all of it inner-CV tuning, or for a ``test_tuned`` audit part (``split_audit``)
    all of it audit."""
    audit = is_audit_part(part)
    return {"stage_clock": "cpu", "tune_s": 0.0 if audit else cpu, "fit_s": 0.0, "final_classifier_s": 0.0, "audits_s": cpu if audit else 0.0}


def part_files(results: Path, jobs, layout: dict | None = None) -> list[Path]:
    """The finished parts (rule select_part) of the select jobs ``jobs`` ((dataset, method, setting, fold)) in a
    campaign's results folder (``layout``: see :func:`job_parts`)."""
    out = []
    for d, m, st, k in jobs:
        out += job_parts(results / "parts" / d / m / st / f"fold-{k}", ".json", layout, d, m)
    return out


def exported_parts(results: Path, jobs, layout: dict | None = None) -> list[Path]:
    """The parts of :func:`part_files` an export copies: not those ``restore`` wrote from a record (``from_record``,
    :func:`~svmfs.reproduce.restore.global_scaling_part_of`). The record is in the export and stands for such a
    part; a copy would carry the record's commit and so be refused by the code rule of the next ``restore``, which
    writes it from the record again."""
    return [f for f in part_files(results, jobs, layout) if not json.loads(f.read_text()).get("from_record")]


def part_times(results: Path, jobs, layout: dict | None = None) -> pd.DataFrame:
    """:func:`job_times`' rows for the finished parts of select jobs that have no record yet (``jobs``: their
    keys): a partial export keeps their seconds, which the export that finishes the job then takes as an
    earlier export's (the parts are restored, their logs and benchmark files are not)."""
    rows = []
    for d, m, st, k in jobs:
        for part in part_files(results, [(d, m, st, k)], layout):
            name = part.relative_to(results / "parts").with_suffix("")
            log, tsv = results / "logs" / "select_part" / name.with_suffix(".log"), results / "benchmarks" / "select_part" / name.with_suffix(".tsv")
            cpu, wall = _job_cpu_seconds(log, tsv), _benchmark_value(tsv, "s")
            if cpu is None and wall is None:
                continue
            rows.append({"job": f"select_part/{name.as_posix()}", "rule": "select_part", "dataset": d, "method": m, "setting": st,
                         "fold": int(k), "part": part.stem, "wall_s": wall, "cpu_s": cpu, **_part_stages(cpu, part.stem)})  # fmt: skip
    return pd.DataFrame(rows, columns=TIME_COLUMNS)


def _with_earlier_times(times: pd.DataFrame, records: pd.DataFrame, earlier: Path, unfinished=(),
                        layout: dict | None = None) -> pd.DataFrame:  # fmt: skip
    """``times`` plus the rows of the folder's last ``select_jobs.csv`` for this export's jobs that ``times``
    lacks (restored from that export: no log or benchmark here), marked ``run: earlier export``; the jobs are
    those of ``records`` and the ``unfinished`` ones whose restored parts that export timed (with ``layout``,
    only the parts of its layout: :func:`job_parts`)."""
    times = times.assign(run="this")
    if not earlier.is_file():
        return times
    old = pd.read_csv(earlier, dtype={"setting": str, "part": str}, keep_default_na=False, na_values=[""])
    keys = {(str(r["dataset"]), str(r["method"]), str(r["setting"]), int(r["fold"])) for _, r in records.iterrows()}
    keys |= {(str(d), str(m), str(st), int(k)) for d, m, st, k in unfinished}
    mine = old.apply(lambda r: (str(r["dataset"]), str(r["method"]), str(r["setting"]), int(r["fold"])) in keys, axis=1)
    if layout is not None and not old.empty:
        from ..config import part_names

        mine &= old.apply(lambda r: r["rule"] != "select_part" or r["part"] in part_names(layout, r["method"], r["dataset"]), axis=1)
    old = old[mine.astype(bool) & ~old["job"].isin(times["job"])].assign(run="earlier export")
    return times if old.empty else pd.concat([times, old[times.columns]], ignore_index=True)


def _cpu_seconds(times: pd.DataFrame) -> dict:
    """CPU seconds of a campaign's select jobs (their select_part jobs counted as jobs of their own), from
    :func:`job_times`: unlike the wall times of ``_benchmark_seconds`` they do not grow with the machine's load.

    ``select_cpu_s``: the sum; ``select_cpu_jobs``: how many jobs it covers (a restored job has no log);
    ``longest_select_job``: the job (``rule/dataset/method/setting/fold[/inner]``) with the most CPU
    seconds, the critical path of a run with a free slot per job.
    """
    cpu = times.dropna(subset=["cpu_s"])
    if cpu.empty:
        return {"select_cpu_s": None, "select_cpu_jobs": 0, "longest_select_job": None}
    longest = cpu.loc[cpu["cpu_s"].astype(float).idxmax()]
    return {"select_cpu_s": round(float(cpu["cpu_s"].sum()), 1), "select_cpu_jobs": int(len(cpu)),
            "longest_select_job": {"job": longest["job"], "cpu_s": round(float(longest["cpu_s"]), 1)}}  # fmt: skip
