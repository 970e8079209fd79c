"""SVM-RFE scored by its own last SVM (Rinaldi & Sciandrone 2010, sec. 5.3; sheet row R28)."""

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.feature_selection import RFE
from sklearn.svm import SVC

from svmfs.config import ConfigError, load_config
from svmfs.methods.registry import get_method
from svmfs.methods.svm_rfe_own import SVMRFEOwnSVM


def _data():
    X, y = make_classification(n_samples=60, n_features=20, n_informative=4, n_redundant=0, random_state=3)
    return (X - X.mean(0)) / X.std(0), y


def test_the_own_hyperplane_is_the_svm_rfe_ends_with_as_scikit_learns_rfe_fits_it():
    """Two routes: the elimination (one feature at a time below switch_at) and scikit-learn's RFE(SVC(linear),
    step=1), whose ``estimator_`` is the linear SVM on the features it keeps: the same features, the same
    decision values and predictions, w zero outside the support."""
    X, y = _data()
    sel = SVMRFEOwnSVM(C=0.5, n_features_to_select=4).fit(X, y)
    ref = RFE(SVC(kernel="linear", C=0.5), n_features_to_select=4, step=1).fit(X, y)
    assert np.array_equal(sel.support_, ref.support_)
    np.testing.assert_allclose(sel.own_decision(X), ref.decision_function(X), atol=1e-6)
    assert np.array_equal(sel.own_predict(X), ref.predict(X))
    assert np.all(sel.weights_[~sel.support_] == 0) and np.all(sel.weights_[sel.support_] != 0)


def test_its_c_is_the_eliminations_and_its_labels_follow_classes():
    """The own SVM solves with RFE's C (a smaller C gives a smaller ||w||) and predicts the labels as given."""
    X, y = _data()
    labels = np.where(y == 1, "tumour", "normal")
    small, large = (SVMRFEOwnSVM(C=c, n_features_to_select=4).fit(X, labels) for c in (0.01, 10.0))
    assert np.linalg.norm(small.weights_) < np.linalg.norm(large.weights_)
    assert set(large.own_predict(X)) <= {"tumour", "normal"}
    assert np.mean(large.own_predict(X) == labels) >= 0.8
    assert get_method("svm_rfe_own").final == "own"


def test_a_size_grid_for_a_method_scored_by_its_own_hyperplane_is_refused(write_config, root):
    base = {"campaign": "t", "datasets": {"sparse_polynomial": {"params": {"n": 60}}},
            "splits": {"kind": "stratified_kfold", "n_splits": 3}}  # fmt: skip
    bad = {**base, "methods": {"rfe_own": {"method": "svm_rfe_own", "grid": {"C": [1.0], "n_features_to_select": [2, 4]}}}}
    with pytest.raises(ConfigError, match=r"methods.rfe_own.grid: n_features_to_select read off one fit"):
        load_config(write_config(bad), workdir=root)
    good = {**base, "methods": {"fs_svmcp": {}, "rfe_own": {"method": "svm_rfe_own", "grid": {"C": [1.0]}, "match_size_of": "fs_svmcp"}}}
    assert load_config(write_config(good), workdir=root)["methods"]["rfe_own"]["match_size_of"] == "fs_svmcp"
