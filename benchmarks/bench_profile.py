"""Issue 34 goal 1: where the select time of the committed campaigns goes, from their exports alone (no rerun).

Per committed folder ``reproduction/<name>/`` and per method: the select jobs, the select phase's wall time on
the 2-core machine that ran it, and its split into method fits, inner-CV tuning, final classifier and fixed
cost, as far as the export records them:

- ``fit_s``: the records' ``fit_time_s`` (the selector's fit on the whole training side, select_job step 4);
- ``tune_s``: the records' ``tune_time_s`` (the selector's inner-CV tuning, jointly with the final
  classifier's grid, step 3);
- ``select_span_s``: provenance ``select_wall_s``, first select job's start to last one's end on 2 cores
  (over every session of a resumed campaign: it includes the pauses between them);
- ``jobs_wall_s``: the select jobs' benchmark seconds, summed (provenance ``job_benchmark_s`` minus
  ``aggregation_s``); per job they are not exported, so not per method either;
- ``rest_s`` = jobs_wall_s - fit_s - tune_s: the final classifier (its inner-CV tuning, refit and test
  scoring, logged by the job, not exported), the in-job audits (test_tuned, global_scaling) and the fixed cost
  (process, reading, writing). The export does not split it: final classifier and fixed cost are "not recorded".

Where the current export's jobs have no benchmark (restored from an earlier export, ``select_jobs_without_benchmark``)
the times of the earlier export of the same jobs (``earlier_exports``) are used and the row says so.
Longest jobs and jobs over 5 minutes go by fit + tune, a lower bound of a job's wall time.

Exports made since the per-job table existed (``select_jobs.csv``: each select job's and part's CPU seconds, its
final classifier's and audits' seconds from its log) get a second table, in CPU seconds, with the stages the
first one calls "not recorded" (:func:`cpu_rows`): fixed cost = CPU - fit - tune - final classifier - audits.

    python benchmarks/bench_profile.py            # writes benchmarks/profile_select_time.csv (and
                                                  # profile_select_cpu.csv), prints markdown
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from svmfs.reproduce.check import job_seconds  # noqa: E402

OUT_CSV = ROOT / "benchmarks" / "profile_select_time.csv"
OUT_CPU_CSV = ROOT / "benchmarks" / "profile_select_cpu.csv"
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


def _s(v) -> str:
    if v is None or (isinstance(v, float) and pd.isna(v)):
        return "-"
    if isinstance(v, str):
        return v
    return f"{v:,.0f}".replace(",", " ") if abs(v) >= 10 else f"{v:.1f}"


def _pct(part, whole) -> str:
    return "" if whole in (None, 0) or part is None or pd.isna(whole) else f" ({100 * part / whole:.0f} %)"


def markdown(df: pd.DataFrame, longest: pd.DataFrame, top: pd.DataFrame) -> str:
    out = ["| campaign | method | select jobs | select span, 2 cores | jobs' wall, sum | method fits | inner-CV tuning "
           "| final classifier | fixed cost | rest: final + audits + fixed | longest job (fit+tune) | jobs > 5 min |",
           "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | --- | ---: | ---: | ---: |"]  # fmt: skip
    for r in df.itertuples():
        whole = r.jobs_wall_s if r.method == "(all)" else None
        camp = f"**{r.campaign}**" if r.method == "(all)" else ""
        wall = _s(r.jobs_wall_s) if r.method == "(all)" else NOT_RECORDED
        if r.method == "(all)" and r.times_from.startswith("earlier"):
            wall += " (first run)"
        rest = f"{_s(r.rest_s)}{_pct(r.rest_s, whole)}" if r.method == "(all)" else "-"
        out.append(f"| {camp} | {r.method} | {r.select_jobs} | {_s(r.select_span_s)} | {wall} | {_s(r.fit_s)}{_pct(r.fit_s, whole)} "
                   f"| {_s(r.tune_s)}{_pct(r.tune_s, whole)} | {r.final_classifier_s} | {r.fixed_s} | {rest} "
                   f"| {_s(r.max_fit_tune_s)} | {r.jobs_fit_tune_over_5min} |")  # fmt: skip
    camp = df[df["method"] == "(all)"]
    out.append(f"| **all committed** | | {camp['select_jobs'].sum()} | {_s(camp['select_span_s'].dropna().sum())} "
               f"| {_s(camp['jobs_wall_s'].dropna().sum())} | {_s(camp['fit_s'].sum())} | {_s(camp['tune_s'].sum())} "
               f"| {NOT_RECORDED} | {NOT_RECORDED} | {_s(camp['rest_s'].dropna().sum())} | {_s(camp['max_fit_tune_s'].max())} "
               f"| {camp['jobs_fit_tune_over_5min'].sum()} |")  # fmt: skip
    out += ["", "Longest select job per campaign (by fit + tune, a lower bound of its wall time):", "",
            "| campaign | method | dataset | setting | fold | fit + tune | jobs > 5 min |", "| --- | --- | --- | --- | ---: | ---: | ---: |"]  # fmt: skip
    for r in longest.itertuples():
        out.append(f"| {r.campaign} | {r.method} | {r.dataset} | {r.setting} | {r.fold} | {r.fit_tune_s:.1f} s | {r.jobs_over_5min} |")
    out += ["", "Where the recorded compute is (fit + tune by campaign, method and dataset, the largest):", "",
            "| campaign | method | dataset | jobs | fit + tune | share of all committed fit + tune | longest job |",
            "| --- | --- | --- | ---: | ---: | ---: | ---: |"]  # fmt: skip
    for r in top.itertuples():
        out.append(f"| {r.campaign} | {r.method} | {r.dataset} | {r.jobs} | {_s(r.fit_tune_s)} s | {100 * r.share:.1f} % | {r.max_s:.0f} s |")
    return "\n".join(out)


def main() -> None:
    camps = exports()
    df = profile_rows(camps)
    tmp = OUT_CSV.with_suffix(".csv.tmp")
    df.to_csv(tmp, index=False, float_format="%.1f", lineterminator="\n")
    tmp.replace(OUT_CSV)
    print(markdown(df, longest_jobs(camps), holders(camps)))
    cpu = cpu_rows(camps)
    if not cpu.empty:
        tmp = OUT_CPU_CSV.with_suffix(".csv.tmp")
        cpu.to_csv(tmp, index=False, float_format="%.1f", lineterminator="\n")
        tmp.replace(OUT_CPU_CSV)
        print("\nSelect CPU by stage (exports with select_jobs.csv):\n")
        print(cpu_markdown(cpu))


if __name__ == "__main__":
    main()
