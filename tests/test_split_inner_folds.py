"""Issue 34 goal 3: ``execution.methods.<name>.split_inner_folds`` runs each select job's inner folds as jobs of their own
(rule select_part), ``split_grid`` each inner fold's blocks of the grid, and both give the records of the jobs
run whole (a tiny campaign, run both ways)."""

import copy
import json

import pandas as pd
import pytest
import yaml

from test_workflow import TINY, snakemake

pytestmark = pytest.mark.workflow

CAMPAIGN = {
    **copy.deepcopy(TINY),
    "datasets": {"mit_example1": {"params": {"n": 40, "p": 12, "k0": 3, "rho": 0.2}}},
    "methods": {
        "fisher": {"grid": {"n_features_to_select": [2, 3, 5]}},
        "milp_fs": {"final": "own", "grid": {"C": [0.1, 10.0]}, "params": {"B": 3, "M": 2.0, "node_limit": 500}},
    },
    "audits": ["test_tuned"],
}
VOLATILE = ("fit_time_s", "tune_time_s", "audit_test_tuned_time_s", "git_sha", "host", "versions")


def _records(wd):
    runs = sorted((wd / "results" / "tiny" / "runs").rglob("fold-*.json"))
    return {str(p.relative_to(wd)): {k: v for k, v in json.loads(p.read_text()).items() if k not in VOLATILE} for p in runs}


def layout(cfg: dict, method: str) -> dict:
    """The method's ``execution.methods.<method>`` of ``cfg`` (made empty when absent), to set a layout key in."""
    return cfg.setdefault("execution", {}).setdefault("methods", {}).setdefault(method, {})


def _targets():
    return [f"results/tiny/runs/mit_example1/{m}/default/fold-{k}.json" for m in CAMPAIGN["methods"] for k in range(3)]


def test_inner_folds_run_apart_give_the_records_of_the_whole_jobs(tmp_path):
    whole, apart = tmp_path / "whole", tmp_path / "apart"
    snakemake(whole, "--cores", "2", *_targets(), config=CAMPAIGN)
    split = copy.deepcopy(CAMPAIGN)
    for m in split["methods"]:
        layout(split, m)["split_inner_folds"] = True
    layout(split, "milp_fs")["split_grid"] = [{"C": [10.0]}, {"C": [0.1]}]  # and its C grid in two blocks
    layout(split, "milp_fs")["split_audit"] = layout(split, "fisher")["split_audit"] = True  # and the test_tuned audit
    snakemake(apart, "--cores", "2", *_targets(), config=split)
    parts = sorted(p.relative_to(apart / "results" / "tiny" / "parts") for p in (apart / "results" / "tiny" / "parts").rglob("*.json"))
    assert len(parts) == 3 * 3 + 3 * 3 * 2 + 3 * (1 + 2)  # 3 outer folds x 3 inner folds, x 2 blocks for MILP-FS; the audits
    assert {p.name for p in parts if p.parts[1] == "milp_fs"} == {f"inner-{k}-grid-{b}.json" for k in range(3) for b in range(2)} | {
        "audit-grid-0.json", "audit-grid-1.json"}
    assert {p.name for p in parts if p.parts[1] == "fisher"} == {"inner-0.json", "inner-1.json", "inner-2.json", "audit.json"}
    assert not (whole / "results" / "tiny" / "parts").exists()
    assert _records(apart) == _records(whole)  # config_hash included: the layout key is not part of it
    assert len(_records(whole)) == 6


def test_split_inner_folds_needs_a_grid(tmp_path):
    cfg = copy.deepcopy(CAMPAIGN)
    cfg["methods"]["svm_rbf"] = {}
    layout(cfg, "svm_rbf")["split_inner_folds"] = True
    proc = snakemake(tmp_path, "-n", config=cfg, check=False)
    assert proc.returncode != 0
    assert "execution.methods.svm_rbf.split_inner_folds: svm_rbf has no inner-CV grid here, so no inner fold to run apart" in proc.stdout + proc.stderr
    del cfg["execution"]["methods"]["svm_rbf"]
    layout(cfg, "fisher")["split_inner_folds"] = ["wdbc"]
    proc = snakemake(tmp_path, "-n", config=cfg, check=False)
    assert proc.returncode != 0
    assert "execution.methods.fisher.split_inner_folds: 'wdbc' is not a dataset of this campaign" in proc.stdout + proc.stderr


def test_split_inner_folds_on_the_datasets_it_names():
    from svmfs.config import split_inner_folds

    cfg = {"datasets": {"wdbc": {}, "pima": {}, "mit_example1": {"replicates": 2}}, "methods": {"milp_fs": {}},
           "execution": {"methods": {"milp_fs": {"split_inner_folds": ["wdbc", "mit_example1"]}}}}
    assert [split_inner_folds(cfg, "milp_fs", d) for d in ("wdbc", "pima", "mit_example1-r0", "mit_example1-r1")] == [True, False, True, True]


def test_an_exports_select_seconds_count_the_parts_and_not_as_aggregation(tmp_path):
    import pandas as pd

    from svmfs.reproduce.export import _benchmark_seconds

    res = tmp_path / "results" / "tiny"
    rec = pd.DataFrame([{"dataset": "wdbc", "method": "milp_fs", "setting": "default", "fold": 0}])
    for rel, s in {"select/wdbc/milp_fs/default/fold-0.tsv": 2.0, "select_part/wdbc/milp_fs/default/fold-0/inner-0.tsv": 30.0,
                   "select_part/wdbc/milp_fs/default/fold-0/inner-1.tsv": 40.0, "collect.tsv": 1.5}.items():  # fmt: skip
        (res / "benchmarks" / rel).parent.mkdir(parents=True, exist_ok=True)
        (res / "benchmarks" / rel).write_text(f"s\th:m:s\n{s}\t0:00:00\n")
    got = _benchmark_seconds(res, rec)
    assert (got["job_benchmark_s"], got["aggregation_s"]) == (73.5, 1.5)


def test_an_exports_select_cpu_seconds_come_from_the_worker_lines_and_count_each_part_as_a_job(tmp_path):
    """The warm worker's last "worker child: cpu" line of a job's log, else the benchmark file's cpu_time; a
    job with neither is not counted; the longest job names its rule and part."""
    import pandas as pd

    from svmfs.reproduce.export import _cpu_seconds, job_times

    res = tmp_path / "results" / "tiny"
    rec = pd.DataFrame([{"dataset": "wdbc", "method": "milp_fs", "setting": "C2-0.5", "fold": 0}])
    job = "wdbc/milp_fs/C2-0.5/fold-0"
    files = {
        f"logs/select/{job}.log": "x INFO worker child: cpu 9.000 s, max rss 1 MB\nx INFO worker child: cpu 2.500 s, max rss 1 MB\n",
        f"benchmarks/select/{job}.tsv": "s\tcpu_time\n3.0\t0.1\n",
        f"benchmarks/select_part/{job}/inner-0.tsv": "s\tcpu_time\n50.0\t41.25\n",  # no log: the file's cpu_time
        f"benchmarks/select_part/{job}/inner-1.tsv": "s\th:m:s\n60.0\t0:01:00\n",  # neither: not counted
    }
    for rel, text in files.items():
        (res / rel).parent.mkdir(parents=True, exist_ok=True)
        (res / rel).write_text(text)
    got = _cpu_seconds(job_times(res, rec))
    assert got == {"select_cpu_s": 43.8, "select_cpu_jobs": 2,
                   "longest_select_job": {"job": f"select_part/{job}/inner-0", "cpu_s": 41.2}}  # fmt: skip
    assert _cpu_seconds(job_times(tmp_path / "nothing", rec)) == {"select_cpu_s": None, "select_cpu_jobs": 0, "longest_select_job": None}


def test_a_select_jobs_log_gives_its_seconds_by_stage(tmp_path):
    """The per-job table of an export (select_jobs.csv): a job's "cpu by stage" line; else wall seconds: tune
    (less its parts') and fit from the record, the final classifier's line, the audits from that line to the
    status line; a part is all tuning; a log without these lines gives none."""
    import pandas as pd

    from svmfs.reproduce.export import job_times

    res = tmp_path / "results" / "tiny"
    rec = pd.DataFrame([{"dataset": "pima", "method": "mm_fs", "setting": "C2-0.01", "fold": f, "fit_time_s": 20.0,
                         "tune_time_s": 7.0} for f in (1, 2, 3)])  # fmt: skip
    job = "pima/mm_fs/C2-0.01/fold-"
    files = {
        f"logs/select/{job}1.log": (
            "2026-11-27 04:54:38,704 INFO final classifier: inner-CV tuning, refit and test scoring 0.120 s\n"
            "2026-11-27 04:55:03,325 INFO status ok, 8 of 8 features, test accuracy 0.6364, params {'C2': 0.01}\n"
            "2026-11-27 04:55:03 INFO worker child: cpu 44.390 s, max rss 272 MB, exit status 0\n"),
        f"benchmarks/select/{job}1.tsv": "s\tcpu_time\n46.0\t0.4\n",
        f"benchmarks/select_part/{job}1/inner-0.tsv": "s\tcpu_time\n5.0\t4.5\n",
        f"parts/{job}1/inner-0.json": '{"inner_fold": 0, "scores": {}, "time_s": 4.75}',
        f"logs/select/{job}2.log": "2026-11-27 04:54:38,704 INFO something else\n",
        f"benchmarks/select/{job}2.tsv": "s\tcpu_time\n2.0\t1.5\n",
        f"logs/select/{job}3.log": (
            "2026-11-27 04:55:03,325 INFO cpu by stage: tune 6.500 s, fit 18.250 s, final classifier 0.100 s, audits 9.000 s\n"
            "2026-11-27 04:55:03 INFO worker child: cpu 34.000 s, max rss 272 MB, exit status 0\n"),
    }
    for rel, text in files.items():
        (res / rel).parent.mkdir(parents=True, exist_ok=True)
        (res / rel).write_text(text)
    t = job_times(res, rec).set_index("job")
    one = t.loc[f"select/{job}1"]
    assert (one["stage_clock"], one["cpu_s"], one["wall_s"], one["fit_s"], one["final_classifier_s"]) == ("wall", 44.39, 46.0, 20.0, 0.12)
    assert one["tune_s"] == pytest.approx(7.0 - 4.75) and one["audits_s"] == pytest.approx(24.621)
    part = t.loc[f"select_part/{job}1/inner-0"]
    assert (part["cpu_s"], part["part"], part["tune_s"], part["fit_s"]) == (4.5, "inner-0", 4.5, 0.0)
    two = t.loc[f"select/{job}2"]
    assert two["cpu_s"] == 1.5 and pd.isna(two["final_classifier_s"]) and pd.isna(two["audits_s"])
    three = t.loc[f"select/{job}3"]
    assert three["stage_clock"] == "cpu" and pd.isna(three["wall_s"])
    assert [three[k] for k in ("cpu_s", "tune_s", "fit_s", "final_classifier_s", "audits_s")] == [34.0, 6.5, 18.25, 0.1, 9.0]


def test_split_inner_folds_is_refused_with_a_shared_initial_solution(root):
    """The parts (rule select_part) do not read the fold's shared initial solution (rule initial_solution), so a
    method with both would tune other candidates in its parts than in its select job: refused before any job."""
    from svmfs.config import ConfigError, load_config

    mm_fs = {"initial_solution": "shared", "grid": {"p": [1.0, 2.0]}}
    with pytest.raises(ConfigError) as err:
        load_config(root / "config" / "campaigns" / "jimenez2021" / "nested.yaml", overrides={"methods": {"mm_fs": mm_fs}, "execution": {"methods": {"mm_fs": {"split_inner_folds": True}}}}, workdir=root)
    assert "execution.methods.mm_fs.split_inner_folds: not with initial_solution (the parts do not read the shared initial solution)" in str(err.value)


@pytest.mark.e2e
def test_a_partial_export_keeps_the_parts_and_restore_puts_them_back(tmp_path, monkeypatch):
    """Issue 34: a rerun that spans sessions keeps the finished parts of its split jobs. Session 1 stops with
    one MILP-FS job done (its three parts and its record) and two of another job's three parts; its partial
    export holds those five parts; session 2 restores the job and the five parts, runs 13 parts and 5 jobs,
    and ends with the records of one uninterrupted run; the export after it times every job and part once."""
    import shutil

    import pandas as pd

    from svmfs.reproduce.export import export
    from svmfs.reproduce.restore import restorable_parts, restore

    split = copy.deepcopy(CAMPAIGN)
    for m in split["methods"]:
        layout(split, m)["split_inner_folds"] = True
    whole = tmp_path / "whole"
    snakemake(whole, "--cores", "2", *_targets(), config=split)
    cfg, res = whole / "campaign.yaml", whole / "results" / "tiny"
    first = tmp_path / "session1" / "results" / "tiny"
    done, half = "mit_example1/milp_fs/default/fold-0", "mit_example1/milp_fs/default/fold-1"
    copies = [f"runs/{done}.json", f"logs/select/{done}.log", f"benchmarks/select/{done}.tsv"]
    copies += [f"{kind}/{job}/inner-{i}.{ext}" for job, n in ((done, 3), (half, 2)) for i in range(n)
               for kind, ext in (("parts", "json"), ("logs/select_part", "log"), ("benchmarks/select_part", "tsv"))]  # fmt: skip
    for rel in copies:
        (first / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(res / rel, first / rel)
    staging = tmp_path / "staging"
    export(first, staging, [cfg])
    assert sorted(str(p.relative_to(staging / "parts")) for p in (staging / "parts").rglob("*.json")) == sorted(
        f"{job}/inner-{i}.json" for job, n in ((done, 3), (half, 2)) for i in range(n))
    assert len(pd.read_csv(staging / "select_jobs.csv")) == 1 + 3 + 2  # the job, its parts, the unfinished job's parts

    clone, lines = tmp_path / "session2", []
    clone.mkdir()
    restore(staging, [cfg], clone, out=lines.append)
    assert lines == [f"restored 1 select jobs and 5 parts of select jobs run apart into {clone / 'results' / 'tiny'}; to run: 5 not in the export"]
    proc = snakemake(clone, "--cores", "2", *_targets(), "--configfile", str(cfg), "--replace-workflow-config")
    log = proc.stdout + proc.stderr
    assert (log.count("rule select_part:\n"), log.count("rule select:\n")) == (2 * 3 * 3 - 5, 6 - 1)
    again, once = _records(clone), _records(whole)
    restored = f"results/tiny/runs/{done}.json"  # rebuilt from the store: the JSON-only per-feature fields stay out
    assert {k: r for k, r in again.items() if k != restored} == {k: r for k, r in once.items() if k != restored}
    assert again[restored]["restored_from"] == str(staging)
    assert all(again[restored][f] == v for f, v in once[restored].items() if f in again[restored])
    export(clone / "results" / "tiny", tmp_path / "final", [cfg], earlier=staging)
    jobs = pd.read_csv(tmp_path / "final" / "select_jobs.csv")
    assert len(jobs) == 6 + 18 and jobs["job"].is_unique
    assert sorted(jobs.loc[jobs["run"] == "earlier export", "job"]) == sorted(
        [f"select/{done}"] + [f"select_part/{job}/inner-{i}" for job, n in ((done, 3), (half, 2)) for i in range(n)])

    old = tmp_path / "old_parts"  # a part written before parts carried their config hash is not restored
    shutil.copytree(staging / "parts", old)
    stale = old / half / "inner-0.json"
    stale.write_text(json.dumps({k: v for k, v in json.loads(stale.read_text()).items() if k != "config_hash"}))
    from svmfs.reproduce.jobs import merge_configs

    ok, why = restorable_parts(merge_configs([cfg]), old)
    assert sum(map(len, ok.values())) == 4 and why == {"part without a config hash": 1}
    blocked = merge_configs([cfg])  # the C grid in blocks now: the whole-grid parts are not this layout's
    layout(blocked, "milp_fs")["split_grid"] = [{"C": [0.1]}, {"C": [10.0]}]
    assert restorable_parts(blocked, staging / "parts") == ({}, {"not a part of this config's layout (split_grid, split_audit)": 5})


def test_split_grid_blocks_must_cover_the_grid_once(root):
    """``split_grid``: blocks of the inner-CV grid, each point of it in exactly one block, over the grid's
    parameters, and only for inner folds run apart; each fault is named before any job."""
    from svmfs.config import ConfigError, load_config

    path = root / "config" / "campaigns" / "jimenez2021" / "nested.yaml"  # milp_fs: split_inner_folds [wdbc], C in 5 values

    def errors(milp_fs):
        with pytest.raises(ConfigError) as err:
            load_config(path, overrides={"execution": {"methods": {"milp_fs": milp_fs}}}, workdir=root)
        return str(err.value)

    two = [{"C": [0.0001, 0.01, 1.0, 100.0]}, {"C": [10000.0]}]
    assert load_config(path, overrides={"execution": {"methods": {"milp_fs": {"split_grid": two}}}}, workdir=root)["execution"]["methods"]["milp_fs"]["split_grid"] == two
    assert "execution.methods.milp_fs.split_grid: the grid's point(s) [{'C': 10000.0}] are in no block" in errors({"split_grid": [{"C": [0.0001, 0.01]}, {"C": [1.0, 100.0]}]})
    assert "execution.methods.milp_fs.split_grid[1]: {'C': 1.0} is in block 0 too" in errors({"split_grid": two[:1] + [{"C": [1.0, 10000.0]}]})
    assert "execution.methods.milp_fs.split_grid[2]: {'C': 5.0} is not a point of the grid" in errors({"split_grid": two + [{"C": [5.0]}]})
    assert "execution.methods.milp_fs.split_grid[1]: names ['B']; a block names the grid's parameters ['C']" in errors({"split_grid": two[:1] + [{"B": [3]}]})
    assert "execution.methods.milp_fs.split_grid: the blocks are parts of inner folds run apart; set split_inner_folds too" in errors(
        {"split_inner_folds": False, "split_grid": two})


def test_part_names_and_their_blocks():
    from svmfs.config import campaign_methods, grid_block, part_names

    blocks = [{"C": [0.1]}, {"C": [10.0]}]
    cfg = {"inner_cv": {"n_splits": 2}, "datasets": {"wdbc": {}, "pima": {}},
           "methods": {"milp_fs": {}, "fisher": {}},
           "execution": {"methods": {"milp_fs": {"split_inner_folds": ["wdbc"], "split_grid": blocks}, "fisher": {"split_inner_folds": True}}}}  # fmt: skip
    assert part_names(cfg, "milp_fs", "wdbc") == ["inner-0-grid-0", "inner-0-grid-1", "inner-1-grid-0", "inner-1-grid-1"]
    assert part_names(cfg, "milp_fs", "pima") == [] and part_names(cfg, "fisher", "pima") == ["inner-0", "inner-1"]
    assert grid_block(campaign_methods(cfg)["milp_fs"], "inner-1-grid-1") == (1, {"C": [10.0]})
    assert grid_block(campaign_methods(cfg)["fisher"], "inner-1") == (1, None)
    with pytest.raises(ValueError, match="split_grid has 2 blocks"):
        grid_block(campaign_methods(cfg)["milp_fs"], "inner-0-grid-2")
    layout(cfg, "milp_fs")["split_audit"] = layout(cfg, "fisher")["split_audit"] = True  # the test_tuned audit's parts
    assert part_names(cfg, "milp_fs", "wdbc")[-2:] == ["audit-grid-0", "audit-grid-1"] and part_names(cfg, "milp_fs", "pima") == []
    assert part_names(cfg, "fisher", "pima") == ["inner-0", "inner-1", "audit"]
    assert grid_block(campaign_methods(cfg)["milp_fs"], "audit-grid-1") == (None, {"C": [10.0]})
    assert grid_block(campaign_methods(cfg)["fisher"], "audit") == (None, None)
    with pytest.raises(ValueError, match="not inner-<k>, inner-<k>-grid-<b>, audit or audit-grid-<b>"):
        grid_block(campaign_methods(cfg)["fisher"], "audits")


def test_split_audit_is_checked_before_any_job(root):
    """``split_audit``: the test_tuned audit's parts need a job run apart, the audit on, and no validation points
    (the select job's refit takes them; a part's fit would not): each fault named before any job."""
    from svmfs.config import ConfigError, load_config

    path = root / "config" / "campaigns" / "jimenez2021" / "nested.yaml"  # milp_fs: split_inner_folds [wdbc]; audits test_tuned

    def errors(overrides, path=path):
        with pytest.raises(ConfigError) as err:
            load_config(path, overrides=overrides, workdir=root)
        return str(err.value)

    ok = load_config(path, overrides={"execution": {"methods": {"milp_fs": {"split_audit": True}}}}, workdir=root)
    assert ok["execution"]["methods"]["milp_fs"]["split_audit"] is True
    assert "execution.methods.milp_fs.split_audit: the audit's parts are parts of a job run apart; set split_inner_folds too" in errors(
        {"execution": {"methods": {"milp_fs": {"split_audit": True, "split_inner_folds": False, "split_grid": False}}}})
    assert "execution.methods.milp_fs.split_audit: the campaign's audits have no test_tuned, so there is no audit to run apart" in errors(
        {"execution": {"methods": {"milp_fs": {"split_audit": True}}}, "audits": ["global_scaling"]})
    catala = root / "config" / "campaigns" / "catala_martin" / "paper.yaml"  # splits.validation_size: 100
    split = {"split_inner_folds": ["poly_f1_train25"], "split_audit": True}
    msg = errors({"execution": {"methods": {"dfsa_poly2": split}}, "audits": ["test_tuned"]}, catala)
    assert ("execution.methods.dfsa_poly2.split_audit: dataset 'poly_f1_train25' has splits.validation_size (the select job's refit takes "
            "those points; an audit part's fit would not)") in msg  # fmt: skip


def test_an_export_takes_the_parts_of_its_layout_only(tmp_path):
    """The whole-grid parts an earlier layout left in a results folder are neither exported nor timed once the
    config splits the grid (:func:`~svmfs.reproduce.export.job_parts`)."""
    from svmfs.reproduce.export import job_parts

    for name in ("inner-0.json", "inner-1.json", "inner-0-grid-0.json", "inner-0-grid-1.json", "inner-1-grid-0.json", "audit-grid-1.json",
                 "notes.json"):  # fmt: skip
        (tmp_path / name).write_text("{}")
    cfg = {"inner_cv": {"n_splits": 2}, "datasets": {"wdbc": {}},
           "methods": {"milp_fs": {}},
           "execution": {"methods": {"milp_fs": {"split_inner_folds": True, "split_grid": [{"C": [0.1]}, {"C": [10.0]}]}}}}  # fmt: skip
    assert [p.name for p in job_parts(tmp_path, ".json", cfg, "wdbc", "milp_fs")] == ["inner-0-grid-0.json", "inner-0-grid-1.json", "inner-1-grid-0.json"]
    assert len(job_parts(tmp_path, ".json", None, "wdbc", "milp_fs")) == 6  # every part's name, not notes.json
    layout(cfg, "milp_fs")["split_audit"] = True
    assert [p.name for p in job_parts(tmp_path, ".json", cfg, "wdbc", "milp_fs")][0] == "audit-grid-1.json"


def test_an_export_leaves_out_the_parts_restore_wrote_from_records(tmp_path):
    """A ``global-scaling`` part that ``restore`` wrote from its record (``from_record``) is not exported: the record
    stands for it, and a copy would carry the record's commit, which the next restore's code rule refuses. A part
    the job's own run wrote is exported, in the same folder."""
    from svmfs.reproduce.export import exported_parts, part_files

    fold = tmp_path / "parts" / "pima" / "mm_fs" / "default" / "fold-0"
    fold.mkdir(parents=True)
    (fold / "global-scaling.json").write_text(json.dumps({"audit": {}, "time_s": 0.0, "from_record": True}))
    (fold / "inner-0.json").write_text(json.dumps({"scores": [0.5], "time_s": 3.0}))
    job = [("pima", "mm_fs", "default", 0)]
    assert [p.name for p in part_files(tmp_path, job)] == ["global-scaling.json", "inner-0.json"]
    assert [p.name for p in exported_parts(tmp_path, job)] == ["inner-0.json"]
    (fold / "global-scaling.json").write_text(json.dumps({"audit": {}, "time_s": 41.0}))  # run by the job's part
    assert [p.name for p in exported_parts(tmp_path, job)] == ["global-scaling.json", "inner-0.json"]


def test_an_exports_earlier_times_keep_the_parts_of_its_layout_only(tmp_path):
    """A partial export staged before ``split_grid`` timed whole-grid parts; the next export, under the blocked
    layout, does not carry their rows over (those parts are not its jobs' inputs), and keeps the rest."""
    import pandas as pd

    from svmfs.reproduce.export import TIME_COLUMNS, _with_earlier_times

    job = {"dataset": "wdbc", "method": "milp_fs", "setting": "default", "fold": 3}
    rows = [{**job, "job": f"select_part/wdbc/milp_fs/default/fold-3/{p}", "rule": "select_part", "part": p, "cpu_s": 1.0}
            for p in ("inner-0", "inner-0-grid-0")] + [{**job, "fold": 2, "job": "select/wdbc/milp_fs/default/fold-2", "rule": "select", "part": "", "cpu_s": 2.0}]  # fmt: skip
    earlier = tmp_path / "select_jobs.csv"
    pd.DataFrame(rows).reindex(columns=TIME_COLUMNS).to_csv(earlier, index=False)
    records = pd.DataFrame([{**job, "fold": 2}])
    layout = {"inner_cv": {"n_splits": 1}, "datasets": {"wdbc": {}},
              "methods": {"milp_fs": {}},
           "execution": {"methods": {"milp_fs": {"split_inner_folds": True, "split_grid": [{"C": [0.1]}, {"C": [10.0]}]}}}}  # fmt: skip
    got = _with_earlier_times(pd.DataFrame(columns=TIME_COLUMNS), records, earlier, [("wdbc", "milp_fs", "default", 3)], layout)
    assert sorted(got["job"]) == ["select/wdbc/milp_fs/default/fold-2", "select_part/wdbc/milp_fs/default/fold-3/inner-0-grid-0"]
    assert len(_with_earlier_times(pd.DataFrame(columns=TIME_COLUMNS), records, earlier, [("wdbc", "milp_fs", "default", 3)])) == 3


def test_split_global_scaling_part_names_and_config_check(root):
    """``split_global_scaling``: one ``global-scaling`` part per job on the datasets it names, beside the inner
    folds' parts or alone; refused before any job without the audit, with a grid or a final classifier of more
    than one point (the nested choice the part refits is then known only after the job's inner CV), or with a
    dataset the campaign does not have."""
    from svmfs.config import ConfigError, campaign_methods, grid_block, is_audit_part, load_config, part_names

    cfg = {"inner_cv": {"n_splits": 2}, "datasets": {"wdbc": {}, "pima": {}},
           "methods": {"mm_fs": {}, "milp_fs": {}},
           "execution": {"methods": {"mm_fs": {"split_global_scaling": ["pima"]}, "milp_fs": {"split_inner_folds": True, "split_global_scaling": True}}}}  # fmt: skip
    assert part_names(cfg, "mm_fs", "pima") == ["global-scaling"] and part_names(cfg, "mm_fs", "wdbc") == []
    assert part_names(cfg, "milp_fs", "wdbc") == ["inner-0", "inner-1", "global-scaling"]
    assert is_audit_part("global-scaling") and not is_audit_part("inner-0")
    with pytest.raises(ValueError, match="not inner-<k>"):
        grid_block(campaign_methods(cfg)["milp_fs"], "global-scaling")

    path = root / "config" / "campaigns" / "jimenez2021" / "nested.yaml"  # audits test_tuned, global_scaling

    def errors(overrides):
        with pytest.raises(ConfigError) as err:
            load_config(path, overrides=overrides, workdir=root)
        return str(err.value)

    ok = load_config(path, overrides={"execution": {"methods": {"mm_fs": {"split_global_scaling": ["pima", "wdbc"]}}}}, workdir=root)
    assert ok["execution"]["methods"]["mm_fs"]["split_global_scaling"] == ["pima", "wdbc"]
    assert "execution.methods.mm_fs.split_global_scaling: the campaign's audits have no global_scaling, so there is no audit to run apart" in errors(
        {"execution": {"methods": {"mm_fs": {"split_global_scaling": True}}}, "audits": ["test_tuned"]})
    assert "execution.methods.mm_fs.split_global_scaling: 'iris' is not a dataset of this campaign" in errors(
        {"execution": {"methods": {"mm_fs": {"split_global_scaling": ["iris"]}}}})
    assert ("execution.methods.milp_fs.split_global_scaling: the grid has 5 points, so the nested choice the audit refits is known only "
            "after the job's inner CV; a part needs a grid of one point") in errors({"execution": {"methods": {"milp_fs": {"split_global_scaling": True}}}})
    assert "execution.methods.svm_rbf.split_global_scaling: the final classifier 'rbf' has 153 grid points" in errors(
        {"execution": {"methods": {"svm_rbf": {"split_global_scaling": True}}}})


GLOBAL = {
    **copy.deepcopy(TINY),
    "datasets": {"mit_example1": {"params": {"n": 40, "p": 12, "k0": 3, "rho": 0.2}}},
    "methods": {"milp_fs": {"final": "own", "grid": {"C": [1.0]}, "params": {"B": 3, "M": 2.0, "node_limit": 500}}},
    "audits": ["global_scaling"],
}


@pytest.mark.e2e
def test_the_global_scaling_audit_run_apart_gives_the_records_of_the_whole_jobs(tmp_path, monkeypatch):
    """The tiny campaign with its ``global_scaling`` audit in parts of their own (``split_global_scaling``) gives
    the records of the jobs run whole, three parts for three jobs; restored from the whole run's export, whose
    records ran the audit inside their jobs, each part is written back from its record and nothing runs again."""
    from svmfs.reproduce.export import export
    from svmfs.reproduce.restore import restore

    targets = [f"results/tiny/runs/mit_example1/milp_fs/default/fold-{k}.json" for k in range(3)]
    whole, apart = tmp_path / "whole", tmp_path / "apart"
    snakemake(whole, "--cores", "2", *targets, config=GLOBAL)
    split = copy.deepcopy(GLOBAL)
    layout(split, "milp_fs")["split_global_scaling"] = True
    snakemake(apart, "--cores", "2", *targets, config=split)
    parts = sorted((apart / "results" / "tiny" / "parts").rglob("*.json"))
    assert [p.name for p in parts] == ["global-scaling.json"] * 3
    assert _records(apart) == _records(whole) and len(_records(whole)) == 3
    assert {r["audit_global_scaling_accuracy"] for r in _records(whole).values()} != {None}

    export(whole / "results" / "tiny", tmp_path / "export", [whole / "campaign.yaml"])
    clone, lines = tmp_path / "clone", []
    clone.mkdir()
    (clone / "campaign.yaml").write_text(yaml.safe_dump(split))
    restore(tmp_path / "export", [clone / "campaign.yaml"], clone, out=lines.append)
    assert lines == [f"restored 3 select jobs into {clone / 'results' / 'tiny'}"]
    for p in parts:  # the part written back from the record is the part the job's own run wrote, but its seconds
        back = json.loads((clone / p.relative_to(apart)).read_text())
        ran = json.loads(p.read_text())
        assert back["from_record"] and {k: back[k] for k in ("selector_params", "final_params", "audit", "config_hash")} == {
            k: ran[k] for k in ("selector_params", "final_params", "audit", "config_hash")}
    proc = snakemake(clone, "-n", *targets, "--configfile", str(clone / "campaign.yaml"), "--replace-workflow-config")
    assert "Nothing to be done" in proc.stdout + proc.stderr
    export(clone / "results" / "tiny", tmp_path / "again", [clone / "campaign.yaml"])  # the records stand for those parts
    assert not (tmp_path / "again" / "parts").exists() and len(pd.read_parquet(tmp_path / "again" / "records.parquet")) == 3


def test_layout_keys_live_in_the_execution_block(root):
    """A layout key under ``methods.<m>`` is refused by the schema (it is not science config); an
    ``execution.methods`` entry must name a method of the campaign."""
    from svmfs.config import ConfigError, load_config

    path = root / "config" / "campaigns" / "jimenez2021" / "nested.yaml"
    with pytest.raises(ConfigError, match=r"split_grid"):
        load_config(path, overrides={"methods": {"milp_fs": {"split_grid": False}}}, workdir=root)
    with pytest.raises(ConfigError, match=r"execution\.methods\.nope: not a method of this campaign"):
        load_config(path, overrides={"execution": {"methods": {"nope": {"split_audit": True}}}}, workdir=root)
    ok = load_config(path, workdir=root)
    assert "split_grid" not in ok["methods"]["milp_fs"] and ok["execution"]["methods"]["milp_fs"]["split_inner_folds"] == ["wdbc"]
