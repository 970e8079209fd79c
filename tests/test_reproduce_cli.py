"""Committed reproductions (issue 19 sec. 4-5): export a tiny finished campaign, index it, check it by
rerunning sampled select jobs through the workflow, and catch a tampered record."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import yaml

from svmfs.reproduce.check import check, committed_campaigns, is_departure, sample_jobs, stale_jobs, tally
from svmfs.reproduce.cli import main
from svmfs.reproduce.compare import compare_jobs, compare_records
from svmfs.reproduce.export import MAX_EXPORT_BYTES, export
from svmfs.reproduce.index import index_markdown
from svmfs.reproduce.jobs import JOB_KEY, merge_configs
from svmfs.reproduce.rejudge import VERDICT_FILES, rejudge, rejudge_texts
from svmfs.reproduce.restore import restorable, restore
from svmfs.reproduce.stamp import code_stands, fingerprints, read_stamp, write_stamp
from svmfs.results.record import AUDIT_COLUMNS, STABLE_COLUMNS
from svmfs.yamlio import load_yaml_file

ROOT = Path(__file__).resolve().parents[1]
#: 4 select jobs on one small draw of MIT Example 1 (the name of a mit9520 dataset, so the
#: reproduction report has verdicts); 2 outer folds, 2 inner folds
MINI = {
    "campaign": "mini",
    "reproduces": ["mit9520"],
    "audits": ["test_tuned", "global_scaling"],  # in-job audits: a restore must bring them back too
    "seed": 11,
    "datasets": {"ex1_rho02": {"source": "mit_example1", "params": {"n": 40, "p": 20, "k0": 3, "rho": 0.2}}},
    "splits": {"kind": "stratified_kfold", "n_splits": 2},
    "inner_cv": {"n_splits": 2},
    "final_classifier": {"linear": {"C": [0.1, 1.0]}},
    "methods": {
        "l1_svm": {"final": "own", "grid": {"C": [0.1, 1.0]}},
        "svm_rfe": {"grid": {"C": [0.1], "n_features_to_select": [2, 5]}},
    },
}

pytestmark = pytest.mark.workflow


@pytest.fixture(scope="module")
def mini_run(tmp_path_factory):
    wd = tmp_path_factory.mktemp("mini")
    cfg = wd / "mini.yaml"
    cfg.write_text(yaml.safe_dump(MINI))
    cmd = [sys.executable, "-m", "snakemake", "-s", str(ROOT / "Snakefile"), "-d", str(wd), "--cores", "2",
           "--workflow-profile", str(ROOT / "workflow" / "profiles" / "default"),
           "--configfile", str(cfg), "--replace-workflow-config"]  # fmt: skip
    proc = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "SVMFS_MIRROR": "", "PYTHONPATH": str(ROOT / "src")}, timeout=900)
    assert proc.returncode == 0, proc.stderr[-4000:]
    return wd, cfg


@pytest.fixture(scope="module")
def exported(mini_run, tmp_path_factory):
    wd, cfg = mini_run
    dest = tmp_path_factory.mktemp("repro") / "reproduction" / "mini"
    assert main(["export", str(wd / "results" / "mini"), str(dest), "--configfile", str(cfg)]) == 0
    return dest


@pytest.mark.e2e
def test_export_leaves_out_an_oversized_figure_and_says_so(mini_run, tmp_path, monkeypatch):
    wd, cfg = mini_run
    results = tmp_path / "results"
    shutil.copytree(wd / "results" / "mini", results)
    sizes = {p.name: p.stat().st_size for p in (results / "figures").glob("*.png")}
    monkeypatch.setattr("svmfs.reproduce.export.MAX_FIGURE_BYTES", sizes["accuracy_vs_features.png"] - 1)
    dest = tmp_path / "out"
    export(results, dest, [cfg])
    prov = json.loads((dest / "provenance.json").read_text())
    left = [n for n, b in sizes.items() if b > sizes["accuracy_vs_features.png"] - 1]
    assert sorted(Path(f.split(" (")[0]).name for f in prov["figures_left_out"]["files"]) == sorted(left)
    assert not (dest / "figures" / "accuracy_vs_features.png").exists()
    assert {p.name for p in (dest / "figures").glob("*.png")} == set(sizes) - set(left)


@pytest.mark.e2e
def test_export_over_the_size_limit_keeps_the_previous_export(mini_run, tmp_path, monkeypatch):
    """An export is built aside and swapped in whole: over the size limit, the committed folder stays as it
    was and nothing half-written is left. Its wall time ends at the last select job, not at a later rerun of
    an aggregation rule."""
    wd, cfg = mini_run
    results = tmp_path / "results"
    shutil.copytree(wd / "results" / "mini", results)
    dest = tmp_path / "out"
    export(results, dest, [cfg])
    before = {p.relative_to(dest): p.read_bytes() for p in dest.rglob("*") if p.is_file()}
    wall = json.loads((dest / "provenance.json").read_text())["wall_time_s"]
    later = (results / "tables" / "reproduction.csv").stat().st_mtime + 3600.0  # the reproduction rule, an hour on
    os.utime(results / "tables" / "reproduction.csv", (later, later))
    monkeypatch.setattr("svmfs.reproduce.export.MAX_EXPORT_BYTES", 1000)
    with pytest.raises(SystemExit, match="over the 0 MB limit"):
        export(results, dest, [cfg])
    assert {p.relative_to(dest): p.read_bytes() for p in dest.rglob("*") if p.is_file()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "results"]
    monkeypatch.undo()
    export(results, dest, [cfg])
    assert json.loads((dest / "provenance.json").read_text())["wall_time_s"] == wall


@pytest.mark.e2e
def test_export_holds_report_tables_figures_records_config_provenance(exported):
    for rel in ("report/reproduction.md", "tables/reproduction.csv", "tables/summary.csv", "records.parquet",
                "records.csv", "figures/accuracy_vs_features.png", "config.yaml", "provenance.json"):  # fmt: skip
        assert (exported / rel).is_file(), rel
    assert not list(exported.rglob("*.pdf")) and not (exported / "runs").exists()
    assert yaml.safe_load((exported / "config.yaml").read_text()) == MINI
    prov = json.loads((exported / "provenance.json").read_text())
    assert prov["select_jobs"] == 4 and prov["wall_time_s"] > 0 and "--configfile" in prov["command"]
    assert prov["wall_time_s"] == pytest.approx(prov["select_wall_s"] + prov["aggregation_s"], abs=0.11)
    assert 0 < prov["aggregation_s"] < prov["job_benchmark_s"]
    assert set(prov) >= {"job_git_sha", "job_hosts", "job_versions", "export_git_sha", "machine", "job_benchmark_s"}
    jobs = pd.read_csv(exported / "select_jobs.csv")  # per job: where its time goes beyond fit and tuning
    assert len(jobs) == 4 and (jobs["run"] == "this").all() and (jobs["cpu_s"] > 0).all()
    assert (jobs["stage_clock"] == "cpu").all() and (jobs[["tune_s", "fit_s", "final_classifier_s", "audits_s"]] >= 0).all().all()
    assert (jobs[["tune_s", "fit_s", "final_classifier_s", "audits_s"]].sum(axis=1) <= jobs["cpu_s"] + 0.01).all()
    assert jobs["cpu_s"].sum() == pytest.approx(prov["select_cpu_s"], abs=0.06)
    assert sum(f.stat().st_size for f in exported.rglob("*") if f.is_file()) < MAX_EXPORT_BYTES


@pytest.mark.e2e
def test_index_is_deterministic_and_has_the_scorecard(exported):
    md = index_markdown(exported.parent)
    assert md == index_markdown(exported.parent)
    assert "## Scorecard" in md and "| mit9520 | Table 1 |" in md and "[report](reproduction/mini/report/reproduction.md)" in md
    table1 = pd.read_csv(exported / "tables" / "reproduction.csv").query("table == 'Table 1'")
    assert (table1["runs"] > 0).sum() == 4  # ex1_rho02: test error and features of l1_svm and svm_rfe


@pytest.mark.e2e
def test_check_passes_then_names_a_tampered_job(exported, tmp_path):
    exported = Path(shutil.copytree(exported, tmp_path / "mini"))  # the fixture's copy stays untouched
    lines = []
    work = tmp_path / "rerun"
    assert check(exported, k=2, seed=1, workdir=work, out=lines.append) == 0, "\n".join(lines)
    checked = [ln for ln in lines if ln.startswith("ok ")]
    assert len(checked) == 2 and lines[-1] == "2 of 2 jobs identical on every deterministic field"
    # the same seed picks the same jobs; tamper with the first one's committed test accuracy
    job = checked[0].split()[1]
    dataset, method, setting, fold = job.split("/")
    rec = pd.read_parquet(exported / "records.parquet")
    row = (rec.dataset == dataset) & (rec.method == method) & (rec.setting == setting) & (rec.fold == int(fold.split("-")[1]))
    assert row.sum() == 1
    rec.loc[row, "test_accuracy"] = rec.loc[row, "test_accuracy"] - 0.01
    rec.to_parquet(exported / "records.parquet", index=False)
    lines.clear()
    assert check(exported, k=2, seed=1, workdir=work, out=lines.append) == 1
    assert f"DIFF {job}" in lines and any(ln.strip().startswith("test_accuracy: committed") for ln in lines)
    assert lines[-1].endswith("; 1 differ")


@pytest.mark.e2e
def test_cli_check_from_the_command_line(exported, tmp_path):
    """The documented command, as a reader runs it: the jobs it checked on stdout, exit code 0."""
    proc = subprocess.run([sys.executable, "-m", "svmfs.reproduce", "check", str(exported), "-k", "1", "--seed", "3"],
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT / "src")})  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr[-3000:]
    assert proc.stdout.count("ok ex1_rho02/") == 1 and "1 of 1 jobs identical" in proc.stdout


@pytest.mark.e2e
def test_rejudge_gives_the_rules_verdicts_and_rewrites_only_stale_files(exported, tmp_path):
    """Two routes to the same verdicts: the reproduction rule inside the workflow (the export) and ``rejudge`` on
    the export's own records and audits. A stale file is rewritten (and only it); the commit is noted."""
    folder = Path(shutil.copytree(exported, tmp_path / "mini"))
    texts = rejudge_texts(folder)
    assert {f: (folder / f).read_text() for f in VERDICT_FILES} == texts
    assert rejudge(folder) == [] and "rejudged_git_sha" not in json.loads((folder / "provenance.json").read_text())
    partial = Path(shutil.copytree(exported, tmp_path / "partial"))
    (partial / "tables" / "reproduction.csv").unlink()  # no verdicts (as a partial export): left without any
    assert rejudge(partial) == [] and not (partial / "tables" / "reproduction.csv").exists()
    report = folder / "report" / "reproduction.md"
    report.write_text(report.read_text().replace("agrees", "matches"))  # a verdict text as an older rule wrote it
    cli = [sys.executable, "-m", "svmfs.reproduce", "rejudge", str(folder)]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    stale = subprocess.run(cli + ["--check"], capture_output=True, text=True, env=env)
    assert stale.returncode == 1 and "stale: report/reproduction.md" in stale.stdout
    assert report.read_text() != texts["report/reproduction.md"]  # --check writes nothing
    assert subprocess.run(cli, capture_output=True, text=True, env=env).returncode == 0
    assert report.read_text() == texts["report/reproduction.md"]
    sha = json.loads((folder / "provenance.json").read_text())["rejudged_git_sha"]
    assert f"verdicts re-judged from the records at {sha[:12]}" in index_markdown(folder.parent)
    assert subprocess.run(cli + ["--check"], capture_output=True, text=True, env=env).returncode == 0


def _dry_run_jobs(directory: Path, cfg: Path) -> str:
    cmd = [sys.executable, "-m", "snakemake", "-s", str(ROOT / "Snakefile"), "-d", str(directory), "-n",
           "--workflow-profile", str(ROOT / "workflow" / "profiles" / "default"),
           "--configfile", str(cfg), "--replace-workflow-config"]  # fmt: skip
    proc = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout + proc.stderr


@pytest.mark.e2e
def test_restore_resumes_a_fresh_clone_and_snakemake_still_reruns_changed_jobs(mini_run, exported, tmp_path, monkeypatch):
    _, cfg = mini_run
    lines = []
    clone = tmp_path / "clone"
    clone.mkdir()
    assert restore(exported, [cfg], clone, out=lines.append) == 0
    assert lines == [f"restored 4 select jobs into {clone / 'results' / 'mini'}"]
    rec = json.loads((clone / "results/mini/runs/ex1_rho02/l1_svm/default/fold-0.json").read_text())
    assert rec["restored_from"] == str(exported) and rec["fold"] == 0 and isinstance(rec["selected"], list)
    plan = _dry_run_jobs(clone, cfg)
    assert "collect" in plan and not any(ln.split()[:1] == ["select"] for ln in plan.splitlines())
    # a parameter of svm_rfe changed after the restore: Snakemake reruns its two jobs (its metadata was recorded)
    changed = tmp_path / "changed.yaml"
    cfg2 = yaml.safe_load(cfg.read_text())
    cfg2["methods"]["svm_rfe"]["grid"]["n_features_to_select"] = [2, 4]
    changed.write_text(yaml.safe_dump(cfg2))
    assert any(ln.split()[:2] == ["select", "2"] for ln in _dry_run_jobs(clone, changed).splitlines())
    # restoring with the changed config leaves svm_rfe's records out: their config hash differs
    other = tmp_path / "other"
    other.mkdir()
    lines.clear()
    restore(exported, [changed], other, out=lines.append)
    assert lines == [f"restored 2 select jobs into {other / 'results' / 'mini'}; to run: 2 config changed"]
    assert not (other / "results/mini/runs/ex1_rho02/svm_rfe").exists()


def test_code_stands_on_the_records_fingerprint_or_the_checks_stamp():
    assert code_stands("abc", None, "abc") is None and code_stands(None, "abc", "abc") is None
    assert code_stands("old", "abc", "abc") is None  # moved code, confirmed by a passing check
    assert code_stands("old", "older", "abc") == "code changed"
    assert code_stands(None, None, "abc") == "code unknown (no code_hash and no check stamp)"


def test_restore_takes_a_record_by_its_code_hash_or_the_stamp_of_the_last_passing_check(tmp_path):
    """A copy of a committed export, its records given code fingerprints: today's restores; another does not, until
    a passing check stamps today's fingerprints in checked.json (the stamp stands for the export's records)."""
    folder = Path(shutil.copytree(ROOT / "reproduction" / "mit9520_reduced", tmp_path / "export"))
    (folder / "checked.json").unlink(missing_ok=True)
    config, records = load_yaml_file(folder / "config.yaml"), pd.read_parquet(folder / "records.parquet")
    from svmfs.reproduce.jobs import validated

    today = fingerprints(validated(config))
    assert set(today) == {"select.py", "select_part.py"} and set(today["select.py"]) == set(records["method"])
    mine = records.assign(code_hash=[today["select.py"][m] for m in records["method"]])
    rows, why = restorable(config, mine)
    assert len(rows) == len(records) and why == {}
    moved = records.assign(code_hash="0123456789abcdef")
    rows, why = restorable(config, moved, {}, read_stamp(folder))
    assert rows == [] and why == {"code changed": len(records)}
    write_stamp(folder, validated(config), "f" * 40)
    assert json.loads((folder / "checked.json").read_text()) == {"git_sha": "f" * 40, "fingerprints": today}
    rows, why = restorable(config, moved, {}, read_stamp(folder))
    assert len(rows) == len(records) and why == {}
    stamp = read_stamp(folder)
    stamp["select.py"] = {m: "0" * 16 for m in stamp["select.py"]}  # the code changed since the check
    assert restorable(config, moved, {}, stamp)[1] == {"code changed": len(records)}


@pytest.mark.e2e
def test_partial_export_restore_and_finish_give_the_same_tables(mini_run, tmp_path, monkeypatch):
    """Session 1 stops after two of the four select jobs and exports them; session 2 (a fresh directory)
    restores them, runs the rest, and ends with the same records.csv and summary as one uninterrupted run."""
    wd, cfg = mini_run
    partial = tmp_path / "session1" / "results" / "mini"
    for job in ("ex1_rho02/l1_svm/default/fold-0", "ex1_rho02/svm_rfe/default/fold-1"):
        for rel in (f"runs/{job}.json", f"logs/select/{job}.log", f"benchmarks/select/{job}.tsv"):
            (partial / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(wd / "results" / "mini" / rel, partial / rel)
    dest = tmp_path / "reproduction" / "mini"
    export(partial, dest, [cfg])
    assert len(pd.read_csv(dest / "select_jobs.csv")) == 2
    assert json.loads((dest / "provenance.json").read_text())["partial"] is True and not (dest / "tables").exists()
    staging = tmp_path / "benchmarks" / "reruns" / "mini"  # the same partial state, kept apart from dest
    export(partial, staging, [cfg])
    lines = []
    clone = tmp_path / "session2"
    clone.mkdir()
    restore(dest, [cfg], clone, out=lines.append)
    assert lines == [f"restored 2 select jobs into {clone / 'results' / 'mini'}; to run: 2 not in the export"]
    cmd = [sys.executable, "-m", "snakemake", "-s", str(ROOT / "Snakefile"), "-d", str(clone), "--cores", "2",
           "--workflow-profile", str(ROOT / "workflow" / "profiles" / "default"),
           "--configfile", str(cfg), "--replace-workflow-config"]  # fmt: skip
    proc = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert (proc.stdout + proc.stderr).count("rule select:\n") == 2  # (local)rule select: only the two not restored
    for rel in ("records.csv", "tables/summary.csv", "tables/reproduction.csv", "tables/optimism.csv"):
        assert (clone / "results" / "mini" / rel).read_bytes() == (wd / "results" / "mini" / rel).read_bytes(), rel
    old = pd.read_parquet(dest / "records.parquet").drop(columns=AUDIT_COLUMNS)  # an export from before
    rows, why = restorable(merge_configs([cfg]), old)  # the store kept the audits
    assert rows == [] and why == {"audits not in the record (restored or exported without them)": 2, "not in the export": 2}
    # session 2's export covers its own two jobs' times; session 1's export, whose jobs it restored, is kept
    first = json.loads((dest / "provenance.json").read_text())
    export(clone / "results" / "mini", dest, [cfg])
    prov = json.loads((dest / "provenance.json").read_text())
    assert prov["partial"] is False and prov["select_jobs_without_benchmark"] == 2
    assert prov["earlier_exports"] == [{k: first.get(k) for k in prov["earlier_exports"][0]}]
    assert prov["earlier_exports"][0]["select_jobs"] == 2 and prov["earlier_exports"][0]["partial"] is True
    jobs = pd.read_csv(dest / "select_jobs.csv")  # the restored jobs' rows come from session 1's export
    assert len(jobs) == 4 and sorted(jobs["run"]) == ["earlier export"] * 2 + ["this"] * 2
    # a rerun whose partial state was exported elsewhere: --earlier names it, the whole export goes to a new folder
    fresh = tmp_path / "reproduction" / "mini_fresh"
    export(clone / "results" / "mini", fresh, [cfg], earlier=staging)
    prov = json.loads((fresh / "provenance.json").read_text())
    assert prov["partial"] is False and prov["earlier_exports"][0]["partial"] is True
    jobs = pd.read_csv(fresh / "select_jobs.csv")
    assert len(jobs) == 4 and sorted(jobs["run"]) == ["earlier export"] * 2 + ["this"] * 2
    alone = tmp_path / "reproduction" / "mini_alone"  # without it, a new folder has no times for the restored jobs
    export(clone / "results" / "mini", alone, [cfg])
    assert "earlier_exports" not in json.loads((alone / "provenance.json").read_text())
    assert len(pd.read_csv(alone / "select_jobs.csv")) == 2


@pytest.mark.e2e
def test_a_subsets_records_do_not_make_the_whole_campaign_finished(mini_run, tmp_path):
    """A results folder whose records.parquet is a subset run's (the jimenez2021 colon overlay before the
    tables run): exporting the whole campaign from it is a partial export of the campaign's own finished jobs."""
    wd, cfg = mini_run
    results = tmp_path / "results" / "mini"
    shutil.copytree(wd / "results" / "mini" / "runs", results / "runs")
    shutil.copytree(wd / "results" / "mini" / "benchmarks" / "select", results / "benchmarks" / "select")
    (results / "runs" / "ex1_rho02" / "svm_rfe" / "default" / "fold-1.json").unlink()  # not finished
    rec = pd.read_parquet(wd / "results" / "mini" / "records.parquet")
    rec[rec["method"] == "l1_svm"].to_parquet(results / "records.parquet", index=False)  # the subset's store
    dest = tmp_path / "reproduction" / "mini"
    export(results, dest, [cfg])
    prov = json.loads((dest / "provenance.json").read_text())
    assert prov["partial"] is True and not (dest / "tables").exists()
    assert len(pd.read_parquet(dest / "records.parquet")) == len(rec) - 1
    # the benchmark seconds are the exported jobs' (the unfinished job's benchmark file is not counted)
    bench = results / "benchmarks" / "select" / "ex1_rho02"
    seconds = [float(pd.read_csv(p, sep="\t")["s"].iloc[-1]) for p in sorted(bench.rglob("*.tsv"))]
    unfinished = float(pd.read_csv(bench / "svm_rfe" / "default" / "fold-1.tsv", sep="\t")["s"].iloc[-1])
    assert len(seconds) == 4 and prov["job_benchmark_s"] == pytest.approx(sum(seconds) - unfinished, abs=0.051)


def test_compare_records_prints_like_records_csv():
    """Floats compared as records.csv prints them (%.10g), NaN equal to NaN, lists as their JSON text."""
    base = pd.DataFrame([{c: None for c in STABLE_COLUMNS}])
    base[JOB_KEY] = ["d", "m", "default", 0]
    base["test_accuracy"], base["test_auc"], base["selected"] = 0.9, float("nan"), "[1,2]"
    same = base.copy()
    same["test_accuracy"] = 0.9 + 1e-13  # below the CSV's 10 significant digits
    assert compare_records(base, same) == {("d", "m", "default", 0): []}
    other = base.copy()
    other["selected"] = "[1,3]"
    assert compare_records(base, other)[("d", "m", "default", 0)] == ["selected: committed '[1,2]', rerun '[1,3]'"]
    assert compare_records(base, base.iloc[0:0])[("d", "m", "default", 0)] == ["no new record"]
    # another CPU: the solver's path (status, message, iterations) and the last digits of a float may move, the
    # result may not; a one-sample change of an accuracy (1/n) or a float beyond 1e-6 relative is a difference
    base["objective"], base["n_iter"], base["message"] = 1.0, 30, "Newton (6 steps)"
    path = base.copy()
    path["objective"], path["n_iter"], path["message"] = 1.0 + 3e-7, 31, "Newton (30 steps)"
    ((diff, notes),) = compare_jobs(base, path).values()
    assert diff == [] and [n.split(":")[0] for n in notes] == ["message", "objective", "n_iter"]
    for col, value in (("objective", 1.0 + 3e-6), ("test_accuracy", 0.9 + 1 / 40)):
        far = base.copy()
        far[col] = value
        assert [d.split(":")[0] for d in compare_records(base, far)[("d", "m", "default", 0)]] == [col]
    # the sample is fixed by the seed and independent of the store's row order
    recs = pd.DataFrame({"dataset": list("abcdef"), "method": "m", "setting": "s", "fold": range(6)})
    a = sample_jobs(recs, 3, seed=1)
    assert a.equals(sample_jobs(recs.iloc[::-1], 3, seed=1)) and len(a) == 3
    # with a time cap, only jobs whose record took at most that long (fit + tuning + audit) are drawn
    recs["fit_time_s"], recs["tune_time_s"] = [1.0, 500.0, 2.0, 3.0, 400.0, 1.0], [1.0, 1.0, None, 50.0, 1.0, 1.0]
    capped = sample_jobs(recs, 6, seed=1, max_job_s=10.0)
    assert sorted(capped["dataset"]) == ["a", "c", "f"]


#: CI draws its job among those whose committed record took at most this long (a MILP-FS job on WDBC takes up
#: to 50 min); a reader's `reproduce check` draws among all unless given --max-job-seconds.
CI_MAX_JOB_S = 20.0
COMMITTED = committed_campaigns(ROOT)
#: CI reruns one job of each measured campaign (2026-11-27: 55 campaigns at 5 jobs, 2 of a departure, took CI
#: past its 90 min); the full sample of every campaign is ``python -m benchmarks run committed_check``, its
#: result in benchmarks/results/committed_check.csv. A departure campaign (``protocol.measures``) runs its measured campaign's code
#: with one config element changed: CI checks its config and records below, without a rerun.
MEASURED = [name for name in COMMITTED if not is_departure(ROOT / "reproduction" / name)]


@pytest.mark.e2e
def test_every_committed_export_holds_one_record_per_job_of_its_config_under_this_tree():
    """Every committed campaign (departures included): its config.yaml still passes this tree's schema and
    every select job it names has its record, made under the same ``config_hash`` this tree computes for the
    job's config slice (a schema default changed since would make it stale without a rerun showing it).
    The method code since the record's commit may have changed (``reproduce restore`` says which)."""
    bad = {name: stale for name in COMMITTED if (stale := stale_jobs(ROOT / "reproduction" / name))}
    assert not bad, bad


def test_stale_jobs_names_a_changed_config_and_a_missing_record(tmp_path):
    """The rerun-free export check can fail: a copy of a committed export whose config moved (another seed: every
    job's config slice hashes differently) and whose records lost one job is reported with both reasons."""
    folder = Path(shutil.copytree(ROOT / "reproduction" / "mit9520_reduced", tmp_path / "export"))
    assert stale_jobs(folder) == {}
    rec = pd.read_parquet(folder / "records.parquet")
    rec.iloc[1:].to_parquet(folder / "records.parquet", index=False)
    assert stale_jobs(folder) == {"not in the export": 1}
    cfg = load_yaml_file(folder / "config.yaml")
    (folder / "config.yaml").write_text(yaml.safe_dump({**cfg, "seed": int(cfg["seed"]) + 1}, sort_keys=False))
    assert stale_jobs(folder) == {"not in the export": 1, "config changed": len(rec) - 1}


def test_records_stand_when_a_value_is_added_to_the_settings(monkeypatch):
    """Fig. 2's reduced export (9 values of C) under the campaign with all 25 values: its l1-SVM records at the 9
    shared values stand for their jobs (a job's config slice holds its own setting only), a record whose own slice
    changed (another threshold) does not, and a job of an added value is not in the export. (The code check is set
    aside: this is about the config.)"""
    monkeypatch.setattr("svmfs.reproduce.restore._code_reason", lambda *a: None)
    folder = ROOT / "reproduction" / "jimenez2021_fig2_reduced"
    records = pd.read_parquet(folder / "records.parquet")
    records = records[records["method"] == "l1_svm_by_C"]
    full = merge_configs([ROOT / "config/campaigns/jimenez2021/nested.yaml", ROOT / "config/campaigns/jimenez2021/nested/fig2.yaml"])
    rows, why = restorable(full, records, {})
    assert len(rows) == len(records) == 270 and set(why) == {"not in the export"}
    assert why["not in the export"] == 16 * 3 * 10 + 25 * 3 * 10  # the 16 added values x 3 x 10, and MM-FS's 750
    other = merge_configs([ROOT / "config/campaigns/jimenez2021/nested.yaml", ROOT / "config/campaigns/jimenez2021/nested/fig2.yaml"])
    other["methods"]["l1_svm_by_C"]["params"] = {"threshold": 0.1}
    rows, why = restorable(other, records, {})
    assert not rows and why["config changed"] == 270


def test_tally_counts_each_compared_job_by_its_worst_difference():
    """``reproduce check``'s count (and the committed_check benchmark's CSV): a job differing on a deterministic field
    counts as differing whatever its path did; a job differing only in its path has the same result."""
    compared = {("d", "m", "s", 0): ([], []), ("d", "m", "s", 1): ([], ["n_iter: 3 -> 4"]),
                ("d", "m", "s", 2): (["test_accuracy: 0.9 -> 0.8"], ["status"]), ("d", "m", "s", 3): ([], [])}  # fmt: skip
    assert tally(compared) == {"jobs": 4, "identical": 2, "same_result_path_differs": 1, "differ": 1}
    assert tally({}) == {"jobs": 0, "identical": 0, "same_result_path_differs": 0, "differ": 0}


@pytest.mark.e2e
@pytest.mark.parametrize("name", MEASURED)
def test_every_measured_committed_campaign_passes_the_check_on_one_job(name, shared_mirror, tmp_path):
    """Issue 19 sec. 5 as CI runs it: one seeded-random select job (of those that took at most CI_MAX_JOB_S)
    of each measured campaign committed under reproduction/, rerun from this clone, with the committed result
    on every deterministic field (compare_jobs: on another CPU only the solver's path and the floats' last
    digits may differ)."""
    lines: list[str] = []
    rc = check(ROOT / "reproduction" / name, k=1, seed=1, mirror=shared_mirror,
               workdir=tmp_path / "w", out=lines.append, max_job_s=CI_MAX_JOB_S)  # fmt: skip
    assert rc == 0, "\n".join(lines)  # no DIFF: a solver's path and a float's last digits may move on another CPU


def test_check_all_skips_what_it_cannot_rerun_and_names_it(tmp_path):
    """``check-all`` reruns nothing for a campaign whose downloads are absent (no mirror) or with no job under
    ``--max-job-s`` (a workflow run with no target would build the whole campaign): each is named, none stamped."""
    from svmfs.reproduce.check import check_all, missing_downloads

    lines = []
    folder = Path(shutil.copytree(ROOT / "reproduction" / "mit9520_reduced", tmp_path / "short"))
    (folder / "checked.json").unlink(missing_ok=True)
    assert check_all([folder], 1, 1, max_job_s=0.0, stamp=True, out=lines.append, raw_dir=str(tmp_path)) == 0
    assert lines[0].startswith("short: nothing checked") and not (folder / "checked.json").exists()
    assert missing_downloads(ROOT / "reproduction" / "jimenez2021", str(tmp_path)) == ["colon", "pima"]
    lines.clear()
    assert check_all([ROOT / "reproduction" / "jimenez2021"], 1, 1, out=lines.append, raw_dir=str(tmp_path)) == 0
    assert lines == ["jimenez2021: skipped, its sources are not downloaded (colon, pima): give --mirror or --raw-dir",
                     "0 of 1 campaigns pass; skipped: 1"]
