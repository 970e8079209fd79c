"""First methods: Fisher score (Maldonado eq. 5), SVM-RFE (Guyon; MIT 9.520 schedule), no selection."""

import numpy as np
import pytest
from sklearn.feature_selection import RFE
from sklearn.svm import SVC, LinearSVC

from svmfs.data.synthetic import mit_example1
from svmfs.methods.fisher import FisherScore, fisher_scores
from svmfs.methods.no_selection import NoSelection
from svmfs.methods.registry import METHODS, get_method
from svmfs.methods.svm_rfe import SVMRFE, rfe_schedule
from svmfs.protocol.classifiers import FINAL_KINDS


def test_fisher_score_hand_example():
    X = np.array([[1.0, 5.0], [3.0, 5.0], [0.0, 1.0], [2.0, 2.0]])
    y = np.array([1.0, 1.0, -1.0, -1.0])
    # feature 0: |2 - 1| / (1 + 1) = 0.5; feature 1: |5 - 1.5| / (0 + 0.25) = 14
    assert fisher_scores(X, y) == pytest.approx([0.5, 14.0])
    sel = FisherScore(n_features_to_select=1).fit(X, y)
    assert sel.ranking_.tolist() == [2, 1] and sel.get_support().tolist() == [False, True]


def test_fisher_constant_within_class_is_infinite_not_nan():
    X = np.array([[1.0, 0.0], [1.0, 1.0], [0.0, 0.0], [0.0, 2.0]])
    y = np.array([1, 1, -1, -1])
    s = fisher_scores(X, y.astype(float))
    assert np.isinf(s[0]) and np.isfinite(s[1])


def test_rfe_schedule_fraction_then_one_at_a_time():
    sched = rfe_schedule(1000, 0.5, 100)
    assert sched[:4] == [500, 250, 125, 25] and set(sched[4:]) == {1} and sum(sched) == 999
    assert rfe_schedule(10, 0.5, 100) == [1] * 9


def test_svm_rfe_ranking_equals_sklearn_rfe_one_at_a_time():
    X, y, _ = mit_example1(n=60, p=25, k0=5, rho=0.2, seed=0)
    lin = SVMRFE(C=0.5, switch_at=1000, solver="liblinear").fit(X, y)
    ref = RFE(LinearSVC(C=0.5, loss="hinge", dual=True, max_iter=10000, random_state=0), n_features_to_select=1, step=1).fit(X, y)
    assert np.array_equal(lin.ranking_, ref.ranking_)
    assert sorted(lin.ranking_) == list(range(1, 26))


def test_svm_rfe_kernel_downdate_equals_recomputing():
    """The downdated kernel route ranks exactly as sklearn's RFE with the linear-kernel SVC (libsvm)."""
    X, y, _ = mit_example1(n=50, p=120, k0=5, rho=0.5, seed=1)
    ours = SVMRFE(C=0.2, switch_at=1000, solver="kernel").fit(X, y)  # 119 downdates, 6 recomputes
    ref = RFE(SVC(kernel="linear", C=0.2), n_features_to_select=1, step=1).fit(X, y)
    assert np.array_equal(ours.ranking_, ref.ranking_)
    w_full = SVC(kernel="linear", C=0.2).fit(X, y).coef_.ravel()
    assert np.allclose(ours.weights_, w_full, atol=1e-8)


def test_svm_rfe_direct_libsvm_call_agrees_with_svc_fallback(monkeypatch):
    """The kernel route's private libsvm call is in use and gives SVC.fit's ranking and weights bit for bit."""
    import svmfs.solvers.libsvm as mod

    X, y, _ = mit_example1(n=40, p=60, k0=5, rho=0.3, seed=2)
    fast = SVMRFE(C=0.5, step=0.2, switch_at=20, solver="kernel").fit(X, y)
    assert fast.diagnostics_["message"] == f"{fast.n_iter_ - 1} direct libsvm fits, 1 SVC fits"

    class ChangedAPI:  # a future scikit-learn whose private binding no longer takes these arguments
        def set_verbosity_wrap(self, v):
            pass

        def fit(self, *args, **kwargs):
            raise TypeError("fit() got an unexpected keyword argument")

    monkeypatch.setattr(mod, "_libsvm", ChangedAPI())
    slow = SVMRFE(C=0.5, step=0.2, switch_at=20, solver="kernel").fit(X, y)
    assert slow.diagnostics_["message"] == f"0 direct libsvm fits, {slow.n_iter_} SVC fits"
    assert np.array_equal(fast.ranking_, slow.ranking_) and np.array_equal(fast.weights_, slow.weights_)


def test_svm_rfe_recovers_mit_example1_relevant_set():
    X, y, rel = mit_example1(n=100, p=200, k0=10, rho=0.0, seed=3)
    sel = SVMRFE(C=0.1, n_features_to_select=10, step=0.2, switch_at=50).fit(X, y)
    recall = len(set(np.flatnonzero(sel.support_)) & set(rel)) / 10
    assert recall >= 0.8


def test_no_selection_keeps_all():
    assert NoSelection().fit(np.eye(4), [0, 1, 0, 1]).get_support().all()


def test_two_classes_required():
    with pytest.raises(ValueError, match="exactly two classes"):  # a binary selector (multi_class False)
        SVMRFE().fit(np.eye(3), [0, 1, 2])
    with pytest.raises(ValueError, match="exactly two classes"):  # a multiclass filter needs two classes at least
        FisherScore().fit(np.eye(3), [0, 0, 0])



def test_registry_entries_load():
    for name, spec in METHODS.items():
        cls = spec.load()
        assert spec.final in FINAL_KINDS, name
        if spec.truncation:
            assert cls.ranks_all_features or not cls.truncation_is_size, f"{name}: a size truncation needs a full ranking"
    with pytest.raises(KeyError, match="unknown method 'nope'"):
        get_method("nope")
