"""Incremental reruns, resume after kill -9, and failure isolation (on tiny campaigns)."""

import copy
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
import yaml

from test_workflow import ROOT, TINY, snakemake

pytestmark = [pytest.mark.workflow, pytest.mark.e2e]

SMALL = copy.deepcopy(TINY)
SMALL["methods"] = {"fisher": TINY["methods"]["fisher"], "svm_rfe": TINY["methods"]["svm_rfe"]}


def _copy_workflow(dest: Path) -> Path:
    """A private copy of the workflow and of src/svmfs (method modules and the aggregation steps' library
    files are rule inputs, so editing one is safe here; the code itself runs from the installed package)."""
    for item in ("Snakefile", "workflow", "scripts", "config", "envs"):
        src = ROOT / item
        (shutil.copytree if src.is_dir() else shutil.copy)(src, dest / item)
    shutil.copytree(ROOT / "src" / "svmfs", dest / "src" / "svmfs", ignore=shutil.ignore_patterns("__pycache__"))
    return dest


def _run(wd: Path, cfg: dict, *args, check=True):
    cmd = [sys.executable, "-m", "snakemake", "-s", str(wd / "Snakefile"), "-d", str(wd)]
    cmd += ["--workflow-profile", str(ROOT / "workflow" / "profiles" / "default")]
    (wd / "campaign.yaml").write_text(yaml.safe_dump(cfg))
    cmd += ["--configfile", str(wd / "campaign.yaml"), "--replace-workflow-config", *args]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    if check and proc.returncode != 0:
        raise AssertionError(proc.stdout[-3000:] + proc.stderr[-5000:])
    return proc


def planned(wd: Path, cfg: dict) -> list[tuple[str, dict]]:
    """(rule, wildcards) of every job a dry run would execute."""
    out = _run(wd, cfg, "-n").stdout
    jobs, rule = [], None
    for line in out.splitlines():
        m = re.match(r"^(?:localrule|rule) (\w+):", line.strip())
        if m:
            rule = m.group(1)
            jobs.append((rule, {}))
            continue
        m = re.match(r"^wildcards: (.*)$", line.strip())
        if m and jobs:
            jobs[-1] = (rule, dict(kv.split("=", 1) for kv in m.group(1).split(", ")))
    return jobs


AGGREGATION = {"collect", "tables", "figures", "statistics", "correlation", "all"}  # per-campaign and per-dataset summaries


@pytest.fixture(scope="module")
def done(tmp_path_factory):
    wd = _copy_workflow(tmp_path_factory.mktemp("inc"))
    _run(wd, SMALL, "--cores", "2")
    return wd


def test_nothing_changed_nothing_to_do(done):
    assert planned(done, SMALL) == []


def test_changed_grid_reruns_only_that_method(done):
    cfg = copy.deepcopy(SMALL)
    cfg["methods"]["fisher"]["grid"]["n_features_to_select"] = [2, 4]
    jobs = planned(done, cfg)
    selects = [w for r, w in jobs if r == "select"]
    assert selects and {w["method"] for w in selects} == {"fisher"}
    assert len(selects) == 3 * 3  # three datasets (one replicated twice) x three folds
    assert {r for r, _ in jobs} == {"select"} | AGGREGATION


def test_another_final_classifiers_grid_reruns_no_select_job(done):
    """A select job depends on its own final classifier's section only: fisher and svm_rfe (linear SVM)
    keep their records when the RBF grid or the anisotropic widths change; their linear grid reruns them."""
    cfg = copy.deepcopy(SMALL)
    cfg.setdefault("final_classifier", {})
    cfg["final_classifier"]["rbf"] = {"C": [3.0], "gamma": [0.5]}
    cfg["final_classifier"]["anisotropic"] = {"widths": "selected"}
    assert not [w for r, w in planned(done, cfg) if r == "select"]
    cfg["final_classifier"]["linear"] = {"C": [0.5, 5.0]}
    assert {w["method"] for r, w in planned(done, cfg) if r == "select"} == {"fisher", "svm_rfe"}


def test_a_value_added_to_a_methods_settings_runs_only_its_jobs(tmp_path):
    """Fig. 2's case: a method swept over settings of C gets one more value and a longer runtime; only the new
    value's select jobs run (the others' params and records are as they were), then the aggregation. Before
    2026-11-29 a job's params held the method's every setting and resources: all of them ran again."""
    wd = _copy_workflow(tmp_path)
    cfg = copy.deepcopy(SMALL)
    cfg["datasets"] = {"sparse_polynomial": SMALL["datasets"]["sparse_polynomial"]}
    cfg["methods"] = {"l1_by_C": {"method": "l1_svm", "final": "own", "settings": {"C": [0.1, 1.0]}}}
    _run(wd, cfg, "--cores", "2")
    assert planned(wd, cfg) == []
    cfg["methods"]["l1_by_C"]["settings"]["C"].append(10.0)
    cfg["methods"]["l1_by_C"]["resources"] = {"runtime": 99}
    jobs = planned(wd, cfg)
    assert sorted((w["setting"], w["fold"]) for r, w in jobs if r == "select") == [("C-10", str(k)) for k in range(3)]
    assert {r for r, _ in jobs} <= {"select"} | AGGREGATION


def test_added_dataset_runs_only_its_jobs(done):
    cfg = copy.deepcopy(SMALL)
    cfg["datasets"]["weston_nonlinear"] = {"params": {"n": 40}}
    jobs = planned(done, cfg)
    per_dataset = [w.get("dataset") for r, w in jobs if r in ("prepare", "split", "select")]
    assert per_dataset and set(per_dataset) == {"weston_nonlinear"}
    assert {r for r, _ in jobs} == {"prepare", "split", "select"} | AGGREGATION


def test_added_method_runs_only_its_jobs(done):
    cfg = copy.deepcopy(SMALL)
    cfg["methods"]["svm_linear"] = {}
    jobs = planned(done, cfg)
    assert {w["method"] for r, w in jobs if r == "select"} == {"svm_linear"}
    assert {r for r, _ in jobs} == {"select"} | AGGREGATION


def test_skipped_method_on_a_dataset_reruns_only_the_aggregation(done):
    """``skip_methods`` is not part of any select job's config: the other jobs of that dataset stay done."""
    cfg = copy.deepcopy(SMALL)
    cfg["datasets"]["sparse_polynomial"]["skip_methods"] = ["svm_rfe"]
    jobs = planned(done, cfg)
    assert not [w for r, w in jobs if r == "select"]
    assert "collect" in {r for r, _ in jobs} and {r for r, _ in jobs} <= AGGREGATION


def test_edited_method_module_reruns_only_that_method(done):
    """A select job's ``params: code`` is the fingerprint of the code it runs: a changed statement of the method's
    module reruns that method's jobs; a comment or docstring edit reruns nothing."""
    module = done / "src" / "svmfs" / "methods" / "fisher.py"
    original = module.read_text()
    module.write_text(original + "\n_PROBE = 1\n")
    try:
        jobs = planned(done, SMALL)
        assert {w["method"] for r, w in jobs if r == "select"} == {"fisher"}
        assert {r for r, _ in jobs} == {"select"} | AGGREGATION
        module.write_text(original + "\n# an edit\n")
        assert not [w for r, w in planned(done, SMALL) if r == "select"]
    finally:
        module.write_text(original)


def test_edited_solver_reruns_the_jobs_that_run_it(done):
    """The fingerprint follows the imports: a changed statement of the solver svm_rfe's module imports (and
    fisher's does not) reruns svm_rfe's jobs only."""
    module = done / "src" / "svmfs" / "solvers" / "smo.py"
    original = module.read_text()
    module.write_text(original + "\n_PROBE = 1\n")
    try:
        jobs = planned(done, SMALL)
        assert {w["method"] for r, w in jobs if r == "select"} == {"svm_rfe"}
    finally:
        module.write_text(original)


def test_edited_record_module_reruns_only_the_aggregation(done):
    """results/record.py is an input of collect (it shapes the merged store): editing it reruns the
    aggregation, not one select job."""
    module = done / "src" / "svmfs" / "results" / "record.py"
    original, stat = module.read_text(), module.stat()
    module.write_text(original + "\n# an edit\n")
    try:
        assert {r for r, _ in planned(done, SMALL)} == AGGREGATION
    finally:
        module.write_text(original)
        os.utime(module, ns=(stat.st_atime_ns, stat.st_mtime_ns))


def test_edited_analysis_module_reruns_only_the_steps_that_use_it(done):
    """Each aggregation step takes the analysis modules it calls as inputs: editing the paths table's
    module redraws the figures (which write that table) and nothing else."""
    module = done / "src" / "svmfs" / "analysis" / "paths.py"
    original, stat = module.read_text(), module.stat()
    module.write_text(original + "\n# an edit\n")
    try:
        assert {r for r, _ in planned(done, SMALL)} == {"figures", "all"}
    finally:
        module.write_text(original)
        os.utime(module, ns=(stat.st_atime_ns, stat.st_mtime_ns))


def test_resume_after_kill_gives_identical_tables(tmp_path, done):
    wd = _copy_workflow(tmp_path)
    (wd / "campaign.yaml").write_text(yaml.safe_dump(SMALL))
    cmd = [sys.executable, "-m", "snakemake", "-s", str(wd / "Snakefile"), "-d", str(wd), "--cores", "2",
           "--workflow-profile", str(ROOT / "workflow" / "profiles" / "default"),
           "--configfile", str(wd / "campaign.yaml"), "--replace-workflow-config"]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    runs = wd / "results" / "tiny" / "runs"
    deadline = time.time() + 300
    while time.time() < deadline and len(list(runs.rglob("fold-*.json"))) < 3:
        time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGKILL)  # snakemake and the jobs it started
    proc.wait()
    assert not (wd / "results" / "tiny" / "tables" / "summary.csv").exists(), "killed too late to test resume"
    for part in (wd / "results").rglob("*.part"):  # an atomic writer's leftovers are never consumed
        assert not part.name.endswith((".json", ".npz", ".parquet"))
    _run(wd, SMALL, "--unlock")
    _run(wd, SMALL, "--cores", "2")
    for rel in ("tables/summary.csv", "records.csv"):
        assert (wd / "results/tiny" / rel).read_bytes() == (done / "results/tiny" / rel).read_bytes(), rel


CRASHING = """from sklearn.base import BaseEstimator
from sklearn.feature_selection import SelectorMixin


class Crashing(SelectorMixin, BaseEstimator):
    def fit(self, X, y):
        raise ValueError("a bug in the user's selector")

    def _get_support_mask(self):
        raise AssertionError
"""


def test_crashing_job_fails_loudly_and_keep_going_finishes_the_rest(tmp_path, monkeypatch):
    """A method whose fit raises (a user's selector by import path with a bug; every bad parameter value of a
    registry method is a config error before any job): its jobs fail with the traceback shown, and --keep-going
    finishes the other jobs."""
    pkg = tmp_path / "userpkg"
    pkg.mkdir()
    (pkg / "crashing.py").write_text(CRASHING)
    monkeypatch.syspath_prepend(str(pkg))
    monkeypatch.setenv("PYTHONPATH", str(pkg))
    cfg = copy.deepcopy(SMALL)
    cfg["methods"] = {"fisher": cfg["methods"]["fisher"], "crashing": {"class": "crashing:Crashing"}}
    proc = snakemake(tmp_path, "--cores", "2", "--keep-going", config=cfg, check=False)
    text = proc.stdout + proc.stderr
    assert proc.returncode != 0
    assert "a bug in the user's selector" in text  # the job's log, shown
    assert "Traceback" in text
    fisher = list((tmp_path / "results" / "tiny" / "runs").glob("*/fisher/default/fold-*.json"))
    assert len(fisher) == 3 * 3


def test_solver_time_limit_is_recorded_and_counted_not_fatal(tmp_path):
    """KP-FS off-the-shelf with a 10 ms budget: every fold ends in ``time_limit``, the campaign completes,
    and the summary counts the failures per method (fisher, which has no solver limit, has none)."""
    cfg = copy.deepcopy(SMALL)
    cfg["datasets"] = {"sparse_polynomial": TINY["datasets"]["sparse_polynomial"]}
    cfg["methods"] = {"fisher": TINY["methods"]["fisher"], "kp_fs_offshelf": {"params": {"C": 1.0, "C2": 0.5, "time_limit": 0.01}}}
    snakemake(tmp_path, "--cores", "2", config=cfg)
    out = tmp_path / "results" / "tiny"
    records = pd.read_csv(out / "records.csv")
    kp = records[records["method"] == "kp_fs_offshelf"]
    assert len(kp) == 3 and set(kp["status"]) == {"time_limit"}
    assert kp["test_accuracy"].notna().all()  # evaluated on the support the solver left
    summary = pd.read_csv(out / "tables" / "summary.csv").set_index("method")
    assert summary.loc["kp_fs_offshelf", "failures"] == 3 and summary.loc["fisher", "failures"] == 0
    kp_row = [ln for ln in (out / "tables" / "summary.md").read_text().splitlines() if "kp_fs_offshelf" in ln]
    assert len(kp_row) == 1 and kp_row[0].rstrip(" |").endswith("3/3")  # failures, last column
