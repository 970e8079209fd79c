"""Issue 34 goal 4: each committed campaign list-scheduled on 1, 8, 64 and 512 SLURM slots, by simulation.

Inputs are the committed exports alone (``bench_profile.load_export``) of the campaigns of the issue's profile
table (``bench_before_after.CAMPAIGNS``). Per select job, where the export has ``select_jobs.csv`` (exports made
since 2026-11-27), the job's own CPU seconds and those of its ``select_part`` jobs (``split_inner_folds``: jobs
of their own, after the split, before their select job, never bundled) ("†" in the table); else its record's
``fit_time_s + tune_time_s`` plus an equal share of the campaign's ``rest_s`` (the select jobs' benchmark seconds
minus fits and tuning: final classifier, in-job audits, fixed cost, which such an export keeps as a campaign sum
only; "*": no rest recorded, fit + tune alone).
The DAG is the workflow's (``svmfs.analysis.cluster_simulation.campaign_dag``): prepare+split per dataset (0 s
here: their seconds are inside the export's ``aggregation_s``, not per rule), the select jobs (after the
``match_size_of`` job of the same fold where a method has one), then the aggregation rules, which run on the
submitting host (``localrules``) and are reported apart as the export's ``aggregation_s`` (every non-select
rule's seconds summed: an upper bound of their serial time).

Rule: list scheduling, longest ready job first (LPT), one select job per slot (= one core: select jobs ask
for 1 thread). Two variants of the SLURM profile's grouping (``group-components: select_bundle: 10``,
``cores: 1``, ``jobs: 100``): bundles of 10 select jobs, their members one after another (the SLURM plugin runs
a bundle's members in series, each through srun and a Snakemake of its own: ``MEMBER_OVERHEAD_S`` each, measured on
the tests' one-node SLURM), at most 100 bundles queued at once, so N cores run min(N, 100) bundles; bundles taken
in the DAG's order and in a seeded random order (Snakemake 9 chunks a set of components, so which jobs share a
bundle is in effect arbitrary). Until 2026-11-28 the profile asked 2 cores per bundle and this model ran a
bundle's members two at a time on them, which the plugin does not do (benchmarks/RESULTS.md, "The SLURM profile's
bundles run in series").

    python benchmarks/bench_cluster_simulation.py   # writes benchmarks/cluster_simulation.{csv,png}, prints markdown
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "src"))

from bench_before_after import CAMPAIGNS  # noqa: E402
from bench_profile import exports  # noqa: E402

from svmfs.analysis.cluster_simulation import bundle_jobs, campaign_dag, list_schedule, longest_path  # noqa: E402

SLOTS = (1, 2, 8, 64, 512)
#: the SLURM profile's bundle size, cores per bundle and jobs queued at once, read from the profile itself
PROFILE = yaml.safe_load((HERE.parent / "workflow" / "profiles" / "slurm" / "config.yaml").read_text())
BUNDLE_SIZE, BUNDLE_CORES, MAX_QUEUED = int(PROFILE["group-components"]["select_bundle"]), int(PROFILE["cores"]), int(PROFILE["jobs"])
#: seconds each bundle member adds (its srun and Snakemake start inside the SLURM job): a bundle of 6 select jobs
#: of 5.98 s in all ran 45 s on the tests' one-node SLURM, beside a 2-core campaign (RESULTS.md, 2026-11-28)
MEMBER_OVERHEAD_S = 6.0
ALL = "all committed, one run"
OUT_CSV = HERE / "cluster_simulation.csv"
OUT_PNG = HERE / "cluster_simulation.png"


def job_times(c: dict) -> tuple[pd.Series, list | None, str]:
    """Each select job's seconds, its parts' seconds (split_inner_folds; None: no parts known) and where they
    come from: the export's ``select_jobs.csv`` (each job's and part's own CPU seconds: "cpu"), else fit + tune
    + an equal share of the campaign's rest ("wall"; "fit+tune" where the rest is unknown). A job that
    select_jobs.csv lacks (restored from an earlier export with no table) counts its fit + tune."""
    r = c["records"].reset_index(drop=True)
    jobs = c.get("jobs")
    if jobs is not None:
        key = lambda d: list(zip(d["dataset"].astype(str), d["method"].astype(str), d["setting"].astype(str), d["fold"].astype(int)))  # noqa: E731
        own = dict(zip(key(jobs[jobs["rule"] == "select"]), jobs.loc[jobs["rule"] == "select", "cpu_s"]))
        part_rows = jobs[jobs["rule"] == "select_part"]
        parts: dict = {}
        for k, sec in zip(key(part_rows), part_rows["cpu_s"]):
            parts.setdefault(k, []).append(float(sec))
        keys = key(r)
        seconds = pd.Series([float(own[k]) if k in own and pd.notna(own[k]) else float(f) for k, f in zip(keys, r["fit_tune_s"])])
        return seconds, [parts.get(k, []) for k in keys], "cpu"
    if c["jobs_wall_s"] is None:
        return r["fit_tune_s"], None, "fit+tune"
    rest = max(c["jobs_wall_s"] - float(r["fit_tune_s"].sum()), 0.0)
    return r["fit_tune_s"] + rest / len(r), None, "wall"


def union(dags) -> tuple[list[float], list[tuple[int, ...]]]:
    """Several campaigns' DAGs as one (no job of one waits for another's): one run of them all."""
    durations, deps = [], []
    for dag in dags:
        off = len(durations)
        durations += list(dag.durations)
        deps += [tuple(j + off for j in pre) for pre in dag.deps]
    return durations, deps


def select_makespan(dag, slots: int) -> float:
    """Makespan of the select phase (the aggregation job has 0 s in ``dag``)."""
    return list_schedule(list(dag.durations), slots, dag.deps).makespan


def dag_of(c: dict):
    seconds, parts, source = job_times(c)
    return campaign_dag(c["records"], seconds, c["match_size_of"], parts=parts), seconds, source


def simulate_all(camps: list[dict]) -> dict:
    """Every committed campaign in one run on N slots (its select phase)."""
    durations, deps = union(dag_of(c)[0] for c in camps)
    row = {"campaign": ALL, "select_jobs": sum(len(c["records"]) for c in camps), "times": "mixed",
           "jobs_total_s": sum(durations), "longest_job_s": max(durations), "critical_path_s": longest_path(durations, deps),
           "measured_span_2_cores_s": sum(c["select_span_s"] or 0.0 for c in camps),
           "aggregation_s": sum(c["aggregation_s"] or 0.0 for c in camps)}  # fmt: skip
    for n in SLOTS:
        row[f"slots_{n}_s"] = list_schedule(durations, n, deps).makespan
    return row


def simulate(c: dict, seed: int = 34) -> dict:
    dag, seconds, source = dag_of(c)
    part_s = [d for n, d in zip(dag.names, dag.durations) if n.startswith("select_part")]
    row = {"campaign": c["folder"], "select_jobs": len(seconds), "select_parts": len(part_s), "times": source,
           "jobs_total_s": float(seconds.sum()) + sum(part_s), "longest_job_s": max([float(seconds.max()), *part_s]),
           "critical_path_s": longest_path(dag.durations, dag.deps),
           "measured_span_2_cores_s": c["select_span_s"], "aggregation_s": c["aggregation_s"]}  # fmt: skip
    for n in SLOTS:
        row[f"slots_{n}_s"] = select_makespan(dag, n)
    n_comp = sum(bundle_jobs(dag, 1, 1).select)  # connected components of select jobs
    orders = {"ordered": None, "random": list(np.random.default_rng(seed).permutation(n_comp))}
    for name, order in orders.items():
        bundled = bundle_jobs(dag, BUNDLE_SIZE, BUNDLE_CORES, order, member_overhead_s=MEMBER_OVERHEAD_S)
        row[f"bundle_{name}_longest_s"] = max(d for d, s in zip(bundled.durations, bundled.select) if s)
        for n in SLOTS[2:]:
            row[f"bundle_{name}_cores_{n}_s"] = select_makespan(bundled, min(n // BUNDLE_CORES, MAX_QUEUED))
    return row


def _h(s) -> str:
    if s is None or pd.isna(s):
        return "-"
    return f"{s / 3600:.2f} h" if s >= 3600 else f"{s / 60:.1f} min" if s >= 60 else f"{s:.0f} s"


def markdown(df: pd.DataFrame) -> str:
    out = ["| campaign | select jobs | measured, 2 cores (span) | simulated 2 slots | 1 slot | 8 | 64 | 512 "
           "| longest job = critical path | aggregation (other rules, sum) |",
           "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]  # fmt: skip
    for r in df.itertuples():
        star = {"cpu": " †", "wall": "", "fit+tune": " *"}.get(r.times, "")
        measured = _h(r.measured_span_2_cores_s)
        if r.campaign == ALL:
            r, measured = r._replace(campaign=f"**{ALL}**"), measured + " (the spans, one after another)"
        out.append(f"| {r.campaign}{star} | {r.select_jobs} | {measured} | {_h(r.slots_2_s)} | {_h(r.slots_1_s)} "
                   f"| {_h(r.slots_8_s)} | {_h(r.slots_64_s)} | {_h(r.slots_512_s)} | {_h(r.critical_path_s)} | {_h(r.aggregation_s)} |")  # fmt: skip
    out += ["", f"With the SLURM profile's bundles ({BUNDLE_SIZE} select jobs per SLURM job on {BUNDLE_CORES} core(s), run one after another, "
            f"each member {MEMBER_OVERHEAD_S:g} s more; at most {MAX_QUEUED} queued; N cores = min(N / {BUNDLE_CORES}, {MAX_QUEUED}) bundles at once), select phase:", "",
            "| campaign | longest bundle, ordered / random | 8 cores, ordered / random | 64 cores | 512 cores |",
            "| --- | ---: | ---: | ---: | ---: |"]  # fmt: skip
    for r in df[df["campaign"] != ALL].itertuples():
        b = r._asdict()
        cell = lambda k: f"{_h(b[f'bundle_ordered_{k}'])} / {_h(b[f'bundle_random_{k}'])}"  # noqa: E731
        out.append(f"| {r.campaign} | {cell('longest_s')} | {cell('cores_8_s')} | {cell('cores_64_s')} | {cell('cores_512_s')} |")
    return "\n".join(out)


def figure(df: pd.DataFrame, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 5.5))
    big = df[df["slots_1_s"] >= 600]  # campaigns of under 10 min on one slot stay in the table only
    for k, r in enumerate(big.itertuples()):
        color = "black" if r.campaign == ALL else plt.cm.tab10(k % 10)
        ys = [getattr(r, f"slots_{n}_s") / 3600 for n in SLOTS]
        ax.plot(SLOTS, ys, "o-", color=color, label=r.campaign)
        if r.measured_span_2_cores_s and not pd.isna(r.measured_span_2_cores_s):
            ax.plot([2], [r.measured_span_2_cores_s / 3600], "x", color=color, markersize=9, mew=2)
        ax.axhline(r.critical_path_s / 3600, color=color, lw=0.8, ls=":")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xticks(SLOTS, [str(n) for n in SLOTS])
    ax.set_xlabel("SLURM slots (one select job each)")
    ax.set_ylabel("select phase, hours (log)")
    ax.set_title("Committed campaigns list-scheduled (LPT) on N slots\n"
                 "x: measured on 2 cores; dotted: longest job (the floor)", fontsize=10)  # fmt: skip
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    tmp = path.with_suffix(".tmp.png")
    fig.savefig(tmp, dpi=110)
    plt.close(fig)
    tmp.replace(path)


def main() -> None:
    camps = [c for c in exports() if c["folder"] in CAMPAIGNS]
    df = pd.DataFrame([simulate(c) for c in camps]).sort_values("slots_1_s", ascending=False)
    df = pd.concat([df, pd.DataFrame([simulate_all(camps)])], ignore_index=True)
    tmp = OUT_CSV.with_suffix(".csv.tmp")
    df.to_csv(tmp, index=False, float_format="%.1f", lineterminator="\n")
    tmp.replace(OUT_CSV)
    figure(df, OUT_PNG)
    print(markdown(df))


if __name__ == "__main__":
    main()
