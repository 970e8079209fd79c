"""SVM-RFE and 1-norm RFE scored by their own last SVM, the final classifier ``own`` (Rinaldi & Sciandrone 2010,
sec. 5.3, sheet row R28; MIT 9.520 project, sec. 4.1, sheet row M18)."""

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.feature_selection import RFE
from sklearn.svm import SVC

from svmfs.config import ConfigError, load_config
from svmfs.methods.registry import get_method
from svmfs.methods.l1_rfe import L1RFE
from svmfs.methods.svm_rfe import SVMRFE


def _data():
    X, y = make_classification(n_samples=60, n_features=20, n_informative=4, n_redundant=0, random_state=3)
    return (X - X.mean(0)) / X.std(0), y


def test_the_own_hyperplane_is_the_svm_rfe_ends_with_as_scikit_learns_rfe_fits_it():
    """Two routes: the elimination (one feature at a time below switch_at) and scikit-learn's RFE(SVC(linear),
    step=1), whose ``estimator_`` is the linear SVM on the features it keeps: the same features, the same
    decision values and predictions, w zero outside the support."""
    X, y = _data()
    sel = SVMRFE(C=0.5, n_features_to_select=4).fit(X, y)
    ref = RFE(SVC(kernel="linear", C=0.5), n_features_to_select=4, step=1).fit(X, y)
    assert np.array_equal(sel.support_, ref.support_)
    np.testing.assert_allclose(sel.own_decision(X), ref.decision_function(X), atol=1e-6)
    assert np.array_equal(sel.own_predict(X), ref.predict(X))
    assert np.all(sel.weights_[~sel.support_] == 0) and np.all(sel.weights_[sel.support_] != 0)


def test_its_c_is_the_eliminations_and_its_labels_follow_classes():
    """The own SVM solves with RFE's C (a smaller C gives a smaller ||w||) and predicts the labels as given."""
    X, y = _data()
    labels = np.where(y == 1, "tumour", "normal")
    small, large = (SVMRFE(C=c, n_features_to_select=4).fit(X, labels) for c in (0.01, 10.0))
    small.own_decision(X), large.own_decision(X)  # the own hyperplanes, solved when first scored
    assert np.linalg.norm(small.weights_) < np.linalg.norm(large.weights_)
    assert set(large.own_predict(X)) <= {"tumour", "normal"}
    assert np.mean(large.own_predict(X) == labels) >= 0.8


def test_a_size_grid_is_refused_only_for_an_own_hyperplane_that_cannot_be_solved_at_each_size(write_config, root, monkeypatch):
    """svm_rfe and l1_rfe with final own score each size of a grid by the SVM at that size (own_at_size): accepted. A
    LinearModelSelector with a truncation but no own_at_size would score every size by the one hyperplane its
    fit ended with: refused, naming the grid."""
    from dataclasses import replace

    from svmfs.methods import registry

    base = {"campaign": "t", "datasets": {"sparse_polynomial": {"params": {"n": 60}}},
            "splits": {"kind": "stratified_kfold", "n_splits": 3}}  # fmt: skip
    grid = {"C": [1.0], "n_features_to_select": [2, 4]}
    ok = {**base, "methods": {"rfe_own": {"method": "svm_rfe", "final": "own", "grid": grid},
                              "l1_own": {"method": "l1_rfe", "final": "own", "grid": grid}}}  # fmt: skip
    assert load_config(write_config(ok), workdir=root)["methods"]["rfe_own"]["grid"] == grid
    monkeypatch.setitem(registry.METHODS, "linear_sized", replace(get_method("liblinear_svm"), truncation="n_features_to_select"))
    bad = {**base, "methods": {"rfe_own": {"method": "linear_sized", "final": "own", "grid": {"C": [1.0], "n_features_to_select": [2, 4]}}}}
    with pytest.raises(ConfigError, match=r"methods.rfe_own.grid: n_features_to_select read off one fit"):
        load_config(write_config(bad), workdir=root)
    good = {**base, "methods": {"fs_svmcp": {}, "rfe_own": {"method": "svm_rfe", "final": "own", "grid": {"C": [1.0]},
                                                           "match_size_of": "fs_svmcp"}}}  # fmt: skip
    assert load_config(write_config(good), workdir=root)["methods"]["rfe_own"]["match_size_of"] == "fs_svmcp"


@pytest.mark.parametrize("cls", ["SVMRFE", "L1RFE"])
def test_the_own_svm_at_a_size_read_off_one_fit_is_the_fit_stopped_at_that_size(cls):
    """Two routes to the SVM the elimination ends with at size k (MIT 9.520 sec. 4.1, sheet row M18): one fit down
    to one feature read at k (own_at_size, the tuner's route) and a fit with n_features_to_select = k (the
    select job's refit): the same features, weights and intercept, hence the same predictions; every size
    gets its own hyperplane (w zero off its support)."""
    klass = {"SVMRFE": SVMRFE, "L1RFE": L1RFE}[cls]
    X, y = _data()
    labels = np.where(y == 1, "a", "b")
    whole = klass(C=0.5).fit(X, labels)
    for k in (1, 3, 6):
        at = whole.own_at_size(k, X, labels)
        alone = klass(C=0.5, n_features_to_select=k).fit(X, labels)
        assert np.array_equal(at.support_, alone.support_) and 1 <= at.support_.sum() <= k
        alone.own_decision(X)  # the own hyperplane, solved when first scored
        np.testing.assert_allclose(at.weights_, alone.weights_, atol=1e-9)
        assert at.intercept_ == pytest.approx(alone.intercept_, abs=1e-9)
        assert np.all(at.weights_[~at.support_] == 0)
        assert np.array_equal(at.own_predict(X), alone.own_predict(X))
    assert whole.own_at_size(3, X, labels).weights_.tolist() != whole.own_at_size(6, X, labels).weights_.tolist()


def test_l1_rfe_scored_own_with_an_empty_1_norm_support_predicts_the_larger_class():
    """At a C so small that the 1-norm SVM keeps no feature, the own classifier is the constant one of the
    larger class, as the refitted final classifier's DummyClassifier."""
    X, y = _data()
    y = y.copy()
    y[:8] = 1  # more of class 1
    sel = L1RFE(C=1e-6, n_features_to_select=3).fit(X, y)
    assert sel.l1_support_size_ == 0 and not sel.support_.any()
    assert set(sel.own_predict(X)) == {1}


def test_the_tuner_scores_each_size_of_an_own_grid_by_the_svm_at_that_size():
    """inner_fold_scores with the final classifier ``own`` and a size grid: each row's accuracy is that of the
    selector fitted with that size alone on the inner fold (not the whole-ranking fit's hyperplane, which
    would score every size the same), and its feature count is the size."""
    from sklearn.model_selection import StratifiedKFold

    from svmfs.protocol.tuning import inner_fold_scores

    X, y = _data()
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    make = lambda **kw: SVMRFE(**kw)  # noqa: E731
    scores = inner_fold_scores(make, {"C": [0.5], "n_features_to_select": [1, 2, 4, 20]}, "n_features_to_select",
                               "own", {}, X, y, cv)  # fmt: skip
    accs = set()
    for k_fold, (tr, va) in enumerate(cv.split(X, y)):
        for si, k, fi, acc, nf in scores[k_fold]:
            alone = SVMRFE(C=0.5, n_features_to_select=k).fit(X[tr], y[tr])
            assert nf == k and acc == pytest.approx(np.mean(alone.own_predict(X[va]) == y[va]))
            accs.add((k_fold, acc))
    assert len({a for _, a in accs}) > 1


def test_a_fit_not_scored_by_own_keeps_the_first_svms_weights_and_solves_no_other_svm():
    """Scored by a refitted final classifier, SVM-RFE's ``weights_`` stay the first SVM's, on all features
    (a linear SVC on every column, a second route), and no intercept is set; ``own`` then solves the SVM
    on the selection, the one scikit-learn's RFE ends with."""
    X, y = _data()
    sel = SVMRFE(C=0.5, n_features_to_select=4).fit(X, y)
    first = SVC(kernel="linear", C=0.5).fit(X, y).coef_.ravel()
    np.testing.assert_allclose(sel.weights_, first, atol=1e-6)
    assert not hasattr(sel, "intercept_")
    ref = RFE(SVC(kernel="linear", C=0.5), n_features_to_select=4, step=1).fit(X, y)
    np.testing.assert_allclose(sel.own_decision(X), ref.decision_function(X), atol=1e-6)
    assert hasattr(sel, "intercept_") and np.all(sel.weights_[~sel.support_] == 0)
