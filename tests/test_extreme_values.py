"""A finite but extreme value (1e308) is refused where it would overflow: by ``prepare`` (the column's
squares or range overflow float64), naming the dataset, its file and the feature, writing nothing; and by
the per-fold scaling of a select job, naming the column, instead of scikit-learn's "Input contains
infinity" from the classifier later."""

import numpy as np
import pytest

from svmfs.data.canonical import DatasetError
from svmfs.data.registry import prepare_dataset
from svmfs.protocol.normalize import METHODS, normalize_fold
from svmfs.protocol.select_job import run_select_job

ROWS = [(1, 2, 1), (3, 5, -1), (5, 1, 1), (7, 8, -1), (2, 4, 1), (6, 3, -1)]


def _prepare(tmp_path, value):
    rows = [list(r) for r in ROWS]
    rows[2][1] = value
    (tmp_path / "raw" / "big").mkdir(parents=True)
    (tmp_path / "raw" / "big" / "d.csv").write_text("a,b,label\n" + "".join(",".join(map(str, r)) + "\n" for r in rows))
    entry = {"kind": "download", "files": [{"path": "big/d.csv", "url": "https://example.invalid/d.csv", "sha256": None}],
             "format": "csv", "read": {"files": ["big/d.csv"], "label_column": "label"}, "labels": {"positive": ["1"]}}  # fmt: skip
    out = tmp_path / "out"
    out.mkdir()
    return prepare_dataset("big", entry, out / "big.npz", out / "big.json", raw_dir=tmp_path / "raw"), out


@pytest.mark.parametrize("value", ["1e308", "-1e308", "1e200"])
def test_prepare_refuses_a_column_whose_squares_overflow(tmp_path, value):
    with pytest.raises(DatasetError) as e:
        _prepare(tmp_path, value)
    msg = str(e.value)
    assert "dataset 'big'" in msg and "big/d.csv" in msg, msg
    assert f"feature 'b' (column 1, 0-based) holds {float(value):.6g} (row 2" in msg and "overflow float64" in msg, msg
    assert list((tmp_path / "out").iterdir()) == []


def test_prepare_accepts_large_values_whose_squares_are_finite(tmp_path):
    ds, out = _prepare(tmp_path, "1e150")
    assert ds.X[2, 1] == 1e150 and sorted(p.name for p in out.iterdir()) == ["big.json", "big.npz"]


@pytest.mark.parametrize("method", METHODS)
def test_per_fold_scaling_refuses_values_that_overflow_naming_the_column(method):
    X = np.array(ROWS, dtype=float)[:, :2]
    X[[1, 2], 1] = [-1e308, 1e308]
    with pytest.raises(ValueError, match=rf"normalization '{method}': feature column 1 \(0-based\) cannot be scaled"):
        normalize_fold(X, np.arange(4), np.arange(4, 6), method)
    X[[1, 2], 1] = [-1e150, 1e150]  # extreme, but every scaling stays finite
    Xtr, Xte, _ = normalize_fold(X, np.arange(4), np.arange(4, 6), method)
    assert np.all(np.isfinite(Xtr)) and np.all(np.isfinite(Xte))


def test_select_job_stops_at_the_scaling_not_in_the_classifier():
    X = np.array(ROWS * 3, dtype=float)[:, :2]
    y = np.array([r[2] for r in ROWS] * 3)
    X[4, 1] = 1e308
    fold = {"fold": 0, "train": list(range(12)), "test": list(range(12, 18))}
    campaign = {"normalization": {"method": "zscore", "scope": "fold"}, "inner_cv": {"n_splits": 2},
                "final_classifier": {"linear": {"C": [1.0]}}}  # fmt: skip
    with pytest.raises(ValueError, match=r"feature column 1 \(0-based\) cannot be scaled: its variance overflows"):
        run_select_job(X, y, fold, "svm_linear", {}, campaign, 0)
