"""Canonical datasets: bad data is rejected naming the problem; files round-trip without pickle."""

import json

import numpy as np
import pytest

from svmfs.data.canonical import Dataset, DatasetError, check_dataset, load_dataset, save_dataset
from svmfs.data.registry import build_dataset, load_registry


def _ds(X=None, y=None, names=None):
    X = np.arange(12, dtype=float).reshape(4, 3) + np.array([[0, 0, 0], [1, 0, 2], [0, 3, 1], [5, 1, 0]]) if X is None else X
    y = np.array([1, 1, -1, -1]) if y is None else y
    names = names or [f"f{j}" for j in range(X.shape[1])]
    return Dataset("toy", X, y, names, [f"s{i}" for i in range(X.shape[0])])


@pytest.mark.parametrize(
    "kwargs,fragment",
    [
        ({"X": np.array([[1.0, 2.0], [np.inf, 3.0], [1.0, 1.0], [0.0, 2.0]])}, "inf first at row 1, column 0"),
        ({"y": np.array([1, -1, 2, 1])}, "3 classes must be the codes 0..2 after mapping"),
        ({"y": np.array([1, -1, -1, -1])}, "a class has only 1 sample"),
        ({"y": np.array([0, 1, 0, 1])}, "labels must be -1/+1"),
        ({"y": np.array([1, -1, 1])}, "4 rows in X but labels of shape (3,)"),
        ({"X": np.zeros((0, 3))}, "non-empty 2-D matrix"),
    ],
)
def test_bad_data_rejected(kwargs, fragment):
    with pytest.raises(DatasetError) as e:
        check_dataset(_ds(**kwargs))
    assert "dataset 'toy'" in str(e.value) and fragment in str(e.value)


def test_constant_and_duplicated_columns_logged_or_dropped():
    X = np.array([[1.0, 7.0, 1.0, 2.0], [2.0, 7.0, 2.0, 0.0], [3.0, 7.0, 3.0, 1.0], [0.0, 7.0, 0.0, 5.0]])
    ds = Dataset("toy", X, np.array([1, 1, -1, -1]), ["a", "b", "c", "d"], list("wxyz"), relevant=[0, 3])
    kept = check_dataset(ds)
    assert kept.X.shape == (4, 4) and any("constant" in w for w in kept.meta["warnings"])
    dropped = check_dataset(ds, on_constant="drop", on_duplicate="drop")
    assert dropped.feature_names == ["a", "d"] and dropped.relevant == [0, 1]
    assert dropped.meta["preprocessing"]


def test_roundtrip_without_pickle(tmp_path):
    ds = check_dataset(Dataset("toy", np.eye(4) + 1, np.array([1, 1, -1, -1]), list("abcd"), list("wxyz"), relevant=[2]))
    save_dataset(ds, tmp_path / "toy.npz", tmp_path / "toy.json")
    back = load_dataset(tmp_path / "toy.npz", tmp_path / "toy.json")
    assert np.array_equal(back.X, ds.X) and back.y.tolist() == [1, 1, -1, -1]
    assert back.feature_names == list("abcd") and back.relevant == [2]
    meta = json.loads((tmp_path / "toy.json").read_text())
    assert meta["class_counts"] == {"-1": 2, "+1": 2} and meta["n_features"] == 4
    with np.load(tmp_path / "toy.npz", allow_pickle=False) as f:  # no object arrays inside
        assert all(f[k].dtype != object for k in f.files)
    assert not list(tmp_path.glob("*.part"))


def test_wdbc_embedded_matches_published_counts(root):
    reg = load_registry(root / "config" / "datasets.yaml")
    ds = check_dataset(build_dataset("wdbc", reg["wdbc"]))
    assert ds.X.shape == (569, 30)
    assert ds.class_counts == {"-1": 357, "+1": 212}  # +1 = malignant
    assert reg["wdbc"]["expect"]["class_counts"] == ds.class_counts
