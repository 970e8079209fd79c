"""Where the select time of the committed campaigns goes, from their exports alone (no rerun).

Per committed folder ``reproduction/<name>/`` and per method: the select jobs, the select phase's wall time on the
2-core machine that ran it, and its split into method fits, inner-CV tuning, final classifier and fixed cost, as
far as the export records them: ``fit_s`` (the records' ``fit_time_s``), ``tune_s`` (``tune_time_s``),
``select_span_s`` (provenance ``select_wall_s``: first select job's start to last one's end, pauses between
resumed runs included), ``jobs_wall_s`` (the select jobs' benchmark seconds, summed) and ``rest_s`` = jobs_wall_s -
fit_s - tune_s. Exports with ``select_jobs.csv`` also split each job's CPU seconds by stage (case ``cpu``):
fixed cost = CPU - fit - tune - final classifier - audits. Where an export's jobs were restored from an earlier
export, that export's times are used.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from benchmarks.common import ROOT
from svmfs.reproduce.check import job_seconds

QUESTION = "Where does the select time of the committed campaigns go: method fits, inner-CV tuning, final classifier, audits, fixed cost?"
DATA = "The committed exports under reproduction/ (records, provenance, select_jobs.csv), read only: nothing is rerun"
TOPIC = "workflow overhead"
RESULTS = "select_profile"
CASES = {
    "cpu": {"question": "How many CPU seconds do the committed campaigns' select jobs (and their parts) spend in each stage, and which job is the longest?",
            "data": "The committed exports that hold select_jobs.csv (each select job's and part's CPU seconds by stage, from its log)"},
    "records": {"question": "How much of each committed campaign's select phase is method fits and inner-CV tuning, by the records' own times?",
                "data": "Every committed export's records.parquet (fit_time_s, tune_time_s) and provenance.json (the 2-core select span)"},
    "holders": {"question": "Which (campaign, method, dataset) holds the most recorded select compute?",
                "data": "Every committed export's records.parquet (fit + tune seconds), the largest 12 (RESULTS.md: 6)"},
}
LONG_JOB_S = 300.0
NOT_RECORDED = "not recorded"


def load_export(folder: Path) -> dict:
    """Records and the select phase's times of one committed export (see the module docstring)."""
    prov = json.loads((folder / "provenance.json").read_text())
    records = pd.read_parquet(folder / "records.parquet")
    records["fit_tune_s"] = job_seconds(records)
    source = "provenance"
    times = prov
    if prov.get("select_jobs_without_benchmark"):
        same = [e for e in prov.get("earlier_exports", []) if e.get("select_jobs") == prov["select_jobs"] and not e.get("partial")]
        times, source = (same[-1], "earlier export (first run of every job)") if same else ({}, NOT_RECORDED)
    agg = times.get("aggregation_s")
    jobs_wall = times["job_benchmark_s"] - agg if agg is not None and "job_benchmark_s" in times else None
    config = {}
    cfg_path = folder / "config.yaml"
    if cfg_path.is_file():
        import yaml

        config = yaml.safe_load(cfg_path.read_text()) or {}
    jobs = folder / "select_jobs.csv"
    return {
        "folder": folder.name,
        "records": records,
        "jobs": pd.read_csv(jobs, dtype={"setting": str}) if jobs.is_file() else None,
        "select_span_s": times.get("select_wall_s"),
        "jobs_wall_s": jobs_wall,
        "aggregation_s": agg,
        "times_from": source,
        "audits": config.get("audits") or [],
        "match_size_of": {m: c["match_size_of"] for m, c in (config.get("methods") or {}).items() if c.get("match_size_of")},
    }


def exports(root: Path = ROOT / "reproduction") -> list[dict]:
    """Every committed export (a folder of ``root`` with records.parquet), by name."""
    return [load_export(p) for p in sorted(root.iterdir()) if (p / "records.parquet").is_file()]


def profile_rows(camps: list[dict]) -> pd.DataFrame:
    rows = []
    for c in camps:
        r = c["records"]
        fit, tune = float(r["fit_time_s"].sum()), float(r["tune_time_s"].sum())
        longest = r.loc[r["fit_tune_s"].idxmax()]
        base = {"campaign": c["folder"], "audits": "+".join(c["audits"]) or "none"}
        rows.append({
            **base, "method": "(all)", "select_jobs": len(r), "select_span_s": c["select_span_s"],
            "jobs_wall_s": c["jobs_wall_s"], "fit_s": fit, "tune_s": tune,
            "final_classifier_s": NOT_RECORDED, "fixed_s": NOT_RECORDED,
            "rest_s": None if c["jobs_wall_s"] is None else c["jobs_wall_s"] - fit - tune,
            "mean_fit_tune_s": fit / len(r) + tune / len(r) if len(r) else None,
            "max_fit_tune_s": float(longest["fit_tune_s"]),
            "jobs_fit_tune_over_5min": int((r["fit_tune_s"] > LONG_JOB_S).sum()),
            "times_from": c["times_from"],
        })  # fmt: skip
        for method, g in r.groupby("method", sort=True):
            rows.append({
                **base, "method": method, "select_jobs": len(g), "select_span_s": None, "jobs_wall_s": None,
                "fit_s": float(g["fit_time_s"].sum()), "tune_s": float(g["tune_time_s"].sum()),
                "final_classifier_s": NOT_RECORDED, "fixed_s": NOT_RECORDED, "rest_s": None,
                "mean_fit_tune_s": float(g["fit_tune_s"].mean()), "max_fit_tune_s": float(g["fit_tune_s"].max()),
                "jobs_fit_tune_over_5min": int((g["fit_tune_s"] > LONG_JOB_S).sum()), "times_from": "records",
            })  # fmt: skip
    df = pd.DataFrame(rows)
    order = df[df["method"] == "(all)"].sort_values("select_span_s", ascending=False, na_position="last")["campaign"]
    df["_c"] = df["campaign"].map({c: i for i, c in enumerate(order)})
    df["_m"] = df["method"].ne("(all)")
    return df.sort_values(["_c", "_m", "fit_s"], ascending=[True, True, False], kind="stable").drop(columns=["_c", "_m"]).reset_index(drop=True)


def cpu_rows(camps: list[dict]) -> pd.DataFrame:
    """Per campaign and method, for exports with ``select_jobs.csv``: select CPU seconds (jobs and their parts)
    by stage, as the export's table gives them (``stage_clock`` cpu: the job's own CPU per stage; wall: jobs run
    before the "cpu by stage" log line, whose stages are wall seconds, so that on a loaded machine the rest can
    come out below zero: the row says how many such jobs it holds). Fixed cost = CPU - the stages. Jobs restored
    from an earlier export (``run``) count with that run's times."""
    rows = []
    for c in camps:
        if c["jobs"] is None:
            continue
        jobs = c["jobs"]
        for method, g in [("(all)", jobs)] + list(jobs.groupby("method", sort=True)):
            stages = {k: float(g[k].sum()) for k in ("tune_s", "fit_s", "final_classifier_s", "audits_s")}
            cpu = float(g["cpu_s"].sum())
            rows.append({"campaign": c["folder"], "method": method, "select_jobs": int((g["rule"] == "select").sum()),
                         "jobs_and_parts": len(g), "wall_clock_stages": int((g["stage_clock"] == "wall").sum()),
                         "cpu_s": cpu, **stages, "fixed_s": cpu - sum(stages.values()),
                         "longest_cpu_s": float(g["cpu_s"].max()), "longest_job": str(g.loc[g["cpu_s"].idxmax(), "job"]),
                         "jobs_over_5min_cpu": int((g["cpu_s"] > LONG_JOB_S).sum())})  # fmt: skip
    return pd.DataFrame(rows)


def cpu_markdown(df: pd.DataFrame) -> str:
    out = ["| campaign | method | select jobs (+ parts) | select CPU | method fits | inner-CV tuning | final classifier "
           "| in-job audits | fixed cost (rest) | longest job, CPU | jobs > 5 min CPU |",
           "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]  # fmt: skip
    for r in df.itertuples():
        top = r.method == "(all)"
        whole = r.cpu_s if top else None
        parts = f" (+{r.jobs_and_parts - r.select_jobs})" if r.jobs_and_parts > r.select_jobs else ""
        wallc = f" ({r.wall_clock_stages} by wall clock)" if r.wall_clock_stages else ""
        out.append(f"| {f'**{r.campaign}**' if top else ''} | {r.method} | {r.select_jobs}{parts}{wallc} | {_s(r.cpu_s)} "
                   f"| {_s(r.fit_s)}{_pct(r.fit_s, whole)} | {_s(r.tune_s)}{_pct(r.tune_s, whole)} "
                   f"| {_s(r.final_classifier_s)}{_pct(r.final_classifier_s, whole)} | {_s(r.audits_s)}{_pct(r.audits_s, whole)} "
                   f"| {_s(r.fixed_s)}{_pct(r.fixed_s, whole)} | {_s(r.longest_cpu_s)} | {r.jobs_over_5min_cpu} |")  # fmt: skip
    return "\n".join(out)


def longest_jobs(camps: list[dict]) -> pd.DataFrame:
    rows = []
    for c in camps:
        r = c["records"]
        j = r.loc[r["fit_tune_s"].idxmax()]
        rows.append({"campaign": c["folder"], "method": j["method"], "dataset": j["dataset"], "setting": j["setting"],
                     "fold": int(j["fold"]), "fit_s": float(j["fit_time_s"]), "tune_s": float(j["tune_time_s"]),
                     "fit_tune_s": float(j["fit_tune_s"]), "jobs_over_5min": int((r["fit_tune_s"] > LONG_JOB_S).sum())})  # fmt: skip
    return pd.DataFrame(rows).sort_values("fit_tune_s", ascending=False).reset_index(drop=True)


def holders(camps: list[dict], top: int = 12) -> pd.DataFrame:
    """(campaign, method, dataset) by fit + tune: where the recorded compute is."""
    frames = [c["records"].assign(campaign=c["folder"]) for c in camps]
    allr = pd.concat(frames, ignore_index=True)
    g = allr.groupby(["campaign", "method", "dataset"]).agg(jobs=("fit_tune_s", "size"), fit_tune_s=("fit_tune_s", "sum"),
                                                            max_s=("fit_tune_s", "max")).reset_index()  # fmt: skip
    g["share"] = g["fit_tune_s"] / g["fit_tune_s"].sum()
    return g.sort_values("fit_tune_s", ascending=False).head(top).reset_index(drop=True)


def _round(df: pd.DataFrame) -> list[dict]:
    def r_(v):
        if not isinstance(v, float) or v != v:
            return v
        return round(v, 1) if abs(v) >= 100 else float(f"{v:.4g}")

    return [{k: r_(v) for k, v in r.items()} for r in df.to_dict("records")]


def run(case: str, quick: bool = False) -> list[dict]:
    camps = exports()
    if case == "cpu":
        return _round(cpu_rows(camps))
    if case == "records":
        df = profile_rows(camps)
        return _round(df.merge(longest_jobs(camps)[["campaign", "method", "dataset", "setting", "fold"]].rename(
            columns={"method": "longest_method", "dataset": "longest_dataset", "setting": "longest_setting", "fold": "longest_fold"}),
            on="campaign", how="left"))
    return _round(holders(camps))


def table(case: str, rows: list[dict]) -> list[dict]:
    """RESULTS.md shows one row per campaign (every method together), the largest first."""
    if case == "holders":
        return rows
    top = [r for r in rows if r["method"] == "(all)"]
    key = "cpu_s" if case == "cpu" else "fit_s"
    top.sort(key=lambda r: -float(r[key] or 0))
    keep = (["campaign", "select_jobs", "jobs_and_parts", "cpu_s", "fit_s", "tune_s", "final_classifier_s", "audits_s", "fixed_s",
             "longest_cpu_s", "longest_job", "jobs_over_5min_cpu"] if case == "cpu" else
            ["campaign", "select_jobs", "select_span_s", "jobs_wall_s", "fit_s", "tune_s", "rest_s", "max_fit_tune_s",
             "jobs_fit_tune_over_5min", "times_from"])  # fmt: skip
    return [{k: r[k] for k in keep} for r in top]
