"""End to end: snakemake runs a tiny campaign; two runs give byte-identical tables; lint is clean."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from svmfs.analysis.tables import OK_STATUSES

ROOT = Path(__file__).resolve().parents[1]
TINY = {
    "campaign": "tiny",
    "seed": 7,
    "datasets": {
        "sparse_polynomial": {"params": {"n": 60, "kind": "f2"}},
        "mit_example1": {"params": {"n": 40, "p": 30, "k0": 3, "rho": 0.2}, "replicates": 2},
    },
    "splits": {"kind": "stratified_kfold", "n_splits": 3},
    "inner_cv": {"n_splits": 3},
    "final_classifier": {"linear": {"C": [0.1, 1.0]}, "rbf": {"C": [1.0, 10.0], "gamma": [1.0]}},
    "methods": {
        "svm_rbf": {},
        "fisher": {"grid": {"n_features_to_select": [2, 3, 5]}},
        "svm_rfe": {"grid": {"C": [0.1], "n_features_to_select": [2, 3, 5]}},
        "rfe_matched": {"method": "svm_rfe", "grid": {"C": [0.1]}, "match_size_of": "fisher"},
    },
}

pytestmark = pytest.mark.workflow


def snakemake(workdir: Path, *args: str, config: dict | None = None, check=True) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "snakemake", "-s", str(ROOT / "Snakefile"), "-d", str(workdir)]
    cmd += ["--workflow-profile", str(ROOT / "workflow" / "profiles" / "default")]
    if config is not None:
        cfg = workdir / "campaign.yaml"
        workdir.mkdir(parents=True, exist_ok=True)
        cfg.write_text(yaml.safe_dump(config))
        cmd += ["--configfile", str(cfg), "--replace-workflow-config"]
    env = {**os.environ, "SVMFS_MIRROR": ""}
    proc = subprocess.run([*cmd, *args], capture_output=True, text=True, env=env, timeout=900)
    if check and proc.returncode != 0:
        raise AssertionError(f"snakemake failed ({proc.returncode}):\n{proc.stdout[-4000:]}\n{proc.stderr[-6000:]}")
    return proc


def _tiny_run(tmp_path_factory, name: str) -> Path:
    wd = tmp_path_factory.mktemp(name)
    snakemake(wd, "--cores", "2", config=TINY)
    return wd / "results" / "tiny"


@pytest.fixture(scope="module")
def first_run(tmp_path_factory) -> Path:
    """One run of TINY, shared by every test of this module that reads it (the default test command's
    end-to-end campaign)."""
    return _tiny_run(tmp_path_factory, "a")


@pytest.fixture(scope="module")
def two_runs(first_run, tmp_path_factory) -> list[Path]:
    """The first run and a second one in another directory (``-m e2e``: the byte-identity check)."""
    return [first_run, _tiny_run(tmp_path_factory, "b")]


def test_campaign_outputs_and_records(first_run):
    out = first_run
    summary = pd.read_csv(out / "tables" / "summary.csv")
    assert len(summary) == 3 * 4 and set(summary["folds"]) == {3}
    rec = pd.read_csv(out / "records.csv")
    assert len(rec) == 3 * 4 * 3 and set(rec["status"]) <= set(OK_STATUSES)
    # replicates: two independent draws of the generator, one group
    reps = rec[rec["dataset_group"] == "mit_example1"]
    assert set(reps["dataset"]) == {"mit_example1-r0", "mit_example1-r1"}
    d0, d1 = (np.load(out / "datasets" / f"mit_example1-r{i}.npz")["X"] for i in (0, 1))
    assert d0.shape == d1.shape and not np.array_equal(d0, d1)
    # one correlation figure per dataset, of a group of replicates only the first's
    figs = sorted(f.name for f in (out / "figures" / "correlation").glob("*.png"))
    assert figs == ["mit_example1-r0.png", "sparse_polynomial.png"]
    # match_size_of: the matched RFE keeps as many features as Fisher did, fold by fold
    fis = rec[rec["method"] == "fisher"].set_index(["dataset", "fold"])["n_selected"]
    mat = rec[rec["method"] == "rfe_matched"].set_index(["dataset", "fold"])["n_selected"]
    assert fis.equals(mat)
    # recall of the relevant set is reported for synthetic data; sparse f2 relevant = x1, x2, x3
    assert rec["recall_relevant"].notna().all()
    for f in ("accuracy_vs_features.png", "accuracy_vs_features.pdf", "runtime.png"):
        assert (out / "figures" / f).stat().st_size > 1000
    assert "± " in (out / "tables" / "summary.md").read_text()
    assert "\\toprule" in (out / "tables" / "summary.tex").read_text()
    assert not list(out.rglob("*.part"))
    # the select jobs ran in the warm worker (svmfs.worker), each with its own log, and their records
    # still carry the provenance: the commit (40 hex digits, maybe -dirty) and the package versions
    logs = sorted((out / "logs" / "select").rglob("fold-*.log"))
    assert len(logs) == len(rec) and all("worker child: cpu" in p.read_text() for p in logs)
    # so did the per-dataset rules, whose time is mostly imports on small datasets (issue 34)
    for rule in ("prepare", "split"):
        logs = sorted((out / "logs" / rule).rglob("*.log"))
        assert logs and all("worker child: cpu" in p.read_text() for p in logs), rule
    store = pd.read_parquet(out / "records.parquet")
    assert store["git_sha"].str.fullmatch(r"[0-9a-f]{40}(-dirty)?").all()
    assert store["versions"].str.contains('"scikit-learn":"').all()


@pytest.mark.e2e
def test_two_runs_byte_identical(two_runs):
    a, b = two_runs
    for rel in ("tables/summary.csv", "tables/summary.md", "tables/summary.tex", "records.csv", "figures/accuracy_vs_features.png"):
        assert (a / rel).read_bytes() == (b / rel).read_bytes(), rel


def test_nothing_to_do_after_a_complete_run(first_run):
    wd = first_run.parents[1]
    proc = snakemake(wd, "-n", config=TINY)
    assert "Nothing to be done" in proc.stdout + proc.stderr


def test_bad_config_rejected_before_any_job(tmp_path):
    bad = {**TINY, "methods": {"fisher": {"grid": {"n_features_to_select": [0]}}}}
    proc = snakemake(tmp_path, "--cores", "1", config=bad, check=False)
    assert proc.returncode != 0
    assert "methods.fisher.grid.n_features_to_select: The 'n_features_to_select' parameter of FisherScore must be an int in the range [1, inf) or None. Got 0 instead." in proc.stdout + proc.stderr
    assert not (tmp_path / "results").exists()
    bad = {**TINY, "splits": {"kind": "stratified_kfold", "n_splits": "ten"}}
    proc = snakemake(tmp_path, "--cores", "1", config=bad, check=False)
    assert proc.returncode != 0 and "n_splits" in proc.stdout + proc.stderr
    assert not (tmp_path / "results").exists()


def test_lint_clean(tmp_path):
    proc = snakemake(tmp_path, "--lint", config=TINY, check=False)
    text = proc.stdout + proc.stderr
    assert proc.returncode == 0 and "Congratulations, your workflow is in a good condition!" in text, text[-3000:]


def test_snakefmt_clean():
    exe = shutil.which("snakefmt") or str(Path(sys.executable).parent / "snakefmt")
    files = [ROOT / "Snakefile", *sorted((ROOT / "workflow" / "rules").glob("*.smk"))]
    proc = subprocess.run([exe, "--check", *map(str, files)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_html_report_has_every_caption(first_run):
    wd = first_run.parents[1]
    snakemake(wd, "--report", str(wd / "report.html"), config=TINY)
    html = (wd / "report.html").read_text(errors="replace")
    for caption in sorted((ROOT / "workflow" / "report").glob("*.rst")):
        if caption.name in ("reproduction.rst", "optimism.rst", "optimism_figure.rst", "null_labels.rst", "null_labels_figure.rst"):
            continue  # only campaigns with `reproduces:` / `audits:` have them (tests/test_campaigns.py, test_null_labels.py)
        first_words = " ".join(caption.read_text().split()[:6])
        assert first_words in html, caption.name
