"""The download and prepare rules end to end, through a mirror on 127.0.0.1; bad data fails cleanly."""

from pathlib import Path

import pandas as pd
import pytest
import yaml

from conftest import serve_directory, shared_data, url_of
from test_workflow import ROOT, snakemake

pytestmark = pytest.mark.workflow
SHARED = ROOT.parent / "shared" / "data"


@pytest.fixture
def serve():
    servers = []

    def start(directory: Path) -> str:
        servers.append(serve_directory(directory))
        return url_of(servers[-1])

    yield start
    for srv in servers:
        srv.shutdown()
        srv.server_close()


@pytest.mark.e2e
def test_pima_campaign_through_mirror(tmp_path, serve):
    shared_data()
    cfg = {
        "campaign": "pima",
        "mirror": serve(SHARED),
        "datasets": {"pima": {}},
        "splits": {"kind": "stratified_kfold", "n_splits": 3},
        "inner_cv": {"n_splits": 3},
        "final_classifier": {"linear": {"C": [1.0]}},
        "methods": {"fisher": {"grid": {"n_features_to_select": [2, 8]}}},
    }
    snakemake(tmp_path, "--cores", "2", config=cfg)
    assert (tmp_path / "data" / "raw" / "pima" / "MANIFEST.json").exists()
    meta = yaml.safe_load((tmp_path / "results" / "pima" / "datasets" / "pima.json").read_text())
    assert meta["n_samples"] == 768 and meta["class_counts"] == {"-1": 500, "+1": 268}
    assert "pima/pima-indians-diabetes.csv" in meta["source"]["files"]
    rec = pd.read_csv(tmp_path / "results" / "pima" / "records.csv")
    assert len(rec) == 3 and rec["test_accuracy"].between(0.6, 0.9).all()


@pytest.mark.parametrize(
    "content,fragment",
    [
        ("1,2,1\n3,nan,-1\n5,6,1\n7,8,-1\n", "NaN first at row 1, column 1"),
        ("1,2,1\n3,4\n5,6,1\n", "ragged rows: row 2 has 2 fields"),
        ("1,2,1\n3,4,1\n5,6,1\n", "needs exactly two classes, found 1"),
    ],
)
def test_bad_dataset_fails_its_job_and_leaves_no_output(tmp_path, serve, content, fragment):
    src = tmp_path / "srv" / "bad"
    src.mkdir(parents=True)
    (src / "bad.csv").write_text(content)
    registry = {
        "datasets": {
            "bad": {
                "kind": "download",
                "files": [{"path": "bad/bad.csv", "url": "https://example.invalid/bad.csv", "sha256": None}],
                "format": "matrix",
                "read": {"file": "bad/bad.csv", "sep": ",", "label_column": -1},
                "labels": {"positive": ["1"]},
            }
        }
    }
    (tmp_path / "registry.yaml").write_text(yaml.safe_dump(registry))
    cfg = {
        "campaign": "bad",
        "mirror": serve(tmp_path / "srv"),
        "dataset_registry": str(tmp_path / "registry.yaml"),
        "dataset_lock": str(tmp_path / "lock.yaml"),
        "datasets": {"bad": {}},
        "splits": {"kind": "stratified_kfold", "n_splits": 2},
        "inner_cv": {"n_splits": 2},
        "methods": {"svm_linear": {}},
    }
    proc = snakemake(tmp_path, "--cores", "1", config=cfg, check=False)
    text = proc.stdout + proc.stderr
    assert proc.returncode != 0 and fragment in text
    assert "bad.csv" in text or "dataset 'bad'" in text
    assert not list((tmp_path / "results" / "bad" / "datasets").glob("bad.*"))
    assert "had no pinned sha256; pinned" in text  # the first download pinned the file
