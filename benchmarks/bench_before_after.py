"""Issue 34 goal 2, before and after: each profiled campaign's export at the issue's commit against today's.

"Before" is ``reproduction/<c>/`` as committed at ``BASE`` (b3a2c19, the commit the issue's table was read
from), "after" is the working tree's export. Per campaign: the select jobs, the 2-core select span and the
select jobs' summed benchmark seconds from both provenances, the select jobs' CPU seconds and longest job
where the new export records them (its ``select_jobs.csv``, every session's jobs and parts of a resumed export;
else ``select_cpu_s``, ``longest_select_job``: exports made after c2e9b00),
the longest job by the records' fit + tune on both sides, and the records compared job by job as
``reproduce check`` compares them (:func:`svmfs.reproduce.compare.compare_jobs`: every deterministic field;
a solver's path and a float's last digits are listed apart). An export that has not changed since ``BASE``
says "not rerun". Reads git and the exports only (a few seconds):

    python benchmarks/bench_before_after.py          # prints markdown, writes benchmarks/before_after.csv
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from svmfs.reproduce.check import job_seconds  # noqa: E402
from svmfs.reproduce.compare import compare_jobs  # noqa: E402

from bench_profile import _s  # noqa: E402  (the same number format as the profile table)

BASE = "b3a2c19"
#: The campaigns of the issue's profile table (benchmarks/RESULTS.md, "Issue 34: where the select time goes").
CAMPAIGNS = ("jimenez2021", "mit9520", "maldonado2011", "jimenez2021_fig2_reduced", "catala_martin",
             "catala_martin_text_standin", "rinaldi2010", "jimenez2021_colon", "maldonado2011_params",
             "mit9520_reduced")  # fmt: skip
OUT_CSV = ROOT / "benchmarks" / "before_after.csv"


def _git_bytes(rev: str, path: str) -> bytes:
    return subprocess.run(["git", "show", f"{rev}:{path}"], cwd=ROOT, check=True, capture_output=True).stdout


def side(campaign: str, rev: str | None) -> tuple[dict, pd.DataFrame]:
    """(provenance, records) of one export: at ``rev``, or the working tree's (``None``)."""
    rel = f"reproduction/{campaign}"
    if rev is None:
        return json.loads((ROOT / rel / "provenance.json").read_text()), pd.read_parquet(ROOT / rel / "records.parquet")
    return json.loads(_git_bytes(rev, f"{rel}/provenance.json")), pd.read_parquet(io.BytesIO(_git_bytes(rev, f"{rel}/records.parquet")))


def row(campaign: str) -> dict:
    (p0, r0), (p1, r1) = side(campaign, BASE), side(campaign, None)
    if len(r1) and set(r0["campaign"]) != set(r1["campaign"]):  # a name, not a result: mit9520_reduced's overlay
        r0 = r0.assign(campaign=r1["campaign"].iloc[0])  # named its campaign mit9520 until 2026-11-29
    rerun = p1.get("export_git_sha") != p0.get("export_git_sha")
    ft0, ft1 = job_seconds(r0), job_seconds(r1)
    jobs = compare_jobs(r0, r1)
    same = sum(1 for diff, path in jobs.values() if not diff and not path)
    path_only = sum(1 for diff, path in jobs.values() if not diff and path)
    # config_hash alone: the hash's form changed on 2026-11-28 (d30f2f6, every setting hashed), not the result
    hash_only = sum(1 for diff, _ in jobs.values() if diff and all(d.startswith("config_hash:") for d in diff))
    longest = p1.get("longest_select_job") or {}
    cpu_after = p1.get("select_cpu_s")
    times = ROOT / "reproduction" / campaign / "select_jobs.csv"
    if rerun and times.is_file():  # every job's and part's CPU, those of a resumed export's earlier sessions too
        t = pd.read_csv(times).dropna(subset=["cpu_s"])
        if len(t):
            cpu_after = float(t["cpu_s"].sum())
            top = t.loc[t["cpu_s"].idxmax()]
            longest = {"cpu_s": float(top["cpu_s"]), "job": str(top["job"])}
    return {
        "campaign": campaign, "rerun": rerun, "select_jobs_before": len(r0), "select_jobs_after": len(r1),
        "span_before_s": p0.get("select_wall_s"), "span_after_s": p1.get("select_wall_s") if rerun else None,
        "jobs_wall_before_s": _jobs_wall(p0), "jobs_wall_after_s": _jobs_wall(p1) if rerun else None,
        "cpu_after_s": cpu_after if rerun else None,
        "longest_before_fit_tune_s": float(ft0.max()), "longest_after_fit_tune_s": float(ft1.max()) if rerun else None,
        "longest_after_cpu_s": longest.get("cpu_s") if rerun else None, "longest_after_job": longest.get("job") if rerun else None,
        "records_identical": same, "records_path_only": path_only, "records_hash_only": hash_only,
        "records_differ": len(jobs) - same - path_only - hash_only,
        "export_after": (p1.get("export_git_sha") or "")[:7],
    }  # fmt: skip


def _jobs_wall(prov: dict) -> float | None:
    agg, total = prov.get("aggregation_s"), prov.get("job_benchmark_s")
    return None if agg is None or total is None else total - agg


def markdown(df: pd.DataFrame) -> str:
    out = ["| campaign | select jobs | select span, 2 cores: before / after | jobs' wall, sum: before / after | select CPU, after "
           "| longest job: before (fit + tune) / after (fit + tune; CPU) | records: identical / path only / config_hash only / differ | export after |",
           "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]  # fmt: skip
    for r in df.itertuples():
        if not r.rerun:
            out.append(f"| {r.campaign} | {r.select_jobs_before} | {_s(r.span_before_s)} / not rerun | {_s(r.jobs_wall_before_s)} / - | - "
                       f"| {_s(r.longest_before_fit_tune_s)} / - | - | {r.export_after} (before the speed-ups) |")  # fmt: skip
            continue
        cpu_long = f"; {_s(r.longest_after_cpu_s)} CPU" if r.longest_after_cpu_s is not None else ""
        out.append(f"| {r.campaign} | {r.select_jobs_after} | {_s(r.span_before_s)} / {_s(r.span_after_s)} "
                   f"| {_s(r.jobs_wall_before_s)} / {_s(r.jobs_wall_after_s)} | {_s(r.cpu_after_s)} "
                   f"| {_s(r.longest_before_fit_tune_s)} / {_s(r.longest_after_fit_tune_s)}{cpu_long} "
                   f"| {r.records_identical} / {r.records_path_only} / {r.records_hash_only} / {r.records_differ} "
                   f"| {r.export_after} |")  # fmt: skip
    return "\n".join(out)


def main() -> None:
    df = pd.DataFrame([row(c) for c in CAMPAIGNS])
    tmp = OUT_CSV.with_suffix(".csv.tmp")
    df.to_csv(tmp, index=False, float_format="%.1f", lineterminator="\n")
    tmp.replace(OUT_CSV)
    print(markdown(df))


if __name__ == "__main__":
    main()
