"""No selector reports an empty selection as a success: status ``empty``, counted among the summary's failures."""

import numpy as np
import pandas as pd

from svmfs.analysis.tables import summary_table
from svmfs.methods.base import STATUSES, BaseSelector


class Nothing(BaseSelector):
    """Keeps no feature, with the status its solver would give."""

    def __init__(self, status="ok", message=""):
        self.status = status
        self.message = message

    def _fit(self, X, y):
        self.support_ = np.zeros(X.shape[1], dtype=bool)
        self.diagnostics_.update(status=self.status, message=self.message)


def _xy():
    rng = np.random.default_rng(0)
    return rng.normal(size=(20, 4)), np.repeat([0, 1], 10)


def test_an_empty_selection_is_not_ok_and_an_earlier_failure_keeps_its_status():
    X, y = _xy()
    d = Nothing().fit(X, y).diagnostics_
    assert d["status"] == "empty" and d["status"] in STATUSES and d["message"] == "no feature selected (solver: ok)"
    d = Nothing("acceptable", "Ipopt: acceptable").fit(X, y).diagnostics_
    assert d["status"] == "empty" and d["message"] == "no feature selected (solver: acceptable); Ipopt: acceptable"
    assert Nothing("time_limit").fit(X, y).diagnostics_["status"] == "time_limit"  # says more than "empty"


def test_an_empty_selection_counts_among_the_summary_failures():
    X, y = _xy()
    status = Nothing().fit(X, y).diagnostics_["status"]
    rec = pd.DataFrame({"dataset": "d", "method": "m", "setting": "default", "status": [status, "ok"],
                        "test_accuracy": 0.5, "test_balanced_accuracy": 0.5, "train_accuracy": 0.5, "test_auc": 0.5,
                        "n_selected": [0, 2], "n_features_total": 4, "recall_relevant": np.nan, "exact_relevant": np.nan,
                        "leaky_normalization": False})  # fmt: skip
    assert summary_table(rec)["failures"].tolist() == [1]


def test_a_registry_method_that_keeps_nothing_says_so():
    """The 1-norm SVM at a C small enough that every weight is 0 (Jimenez-Cordero et al.'s Fig. 2 smallest C)."""
    from svmfs.methods.l1_svm import L1SVM

    X, y = _xy()
    sel = L1SVM(C=1e-4).fit(X, y)
    assert not sel.support_.any() and sel.diagnostics_["status"] == "empty"
    assert L1SVM(C=10.0).fit(X, y).diagnostics_["status"] == "ok"


def _imbalanced_job(shift):
    """A Fisher job (2 features kept) on 60 x 20 with 45 points of class 0 and 15 of class 1; class 1 shifted by
    ``shift`` on feature 0 (0: every feature noise)."""
    from svmfs.protocol.select_job import run_select_job

    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(60, 20)), rng.permutation(np.r_[np.zeros(45, int), np.ones(15, int)])
    X[y == 1, 0] += shift
    fold = {"fold": 0, "train": list(range(40)), "test": list(range(40, 60))}
    campaign = {"normalization": {"method": "zscore"}, "inner_cv": {"n_splits": 3}, "splits": {},
                "final_classifier": {"linear": {"C": [1.0]}}}  # fmt: skip
    return run_select_job(X, y, fold, "fisher", {"method": "fisher", "grid": {"n_features_to_select": [2]}}, campaign, 1), y


def test_a_selection_the_final_classifier_cannot_use_is_collapsed_not_ok():
    """On noise the linear SVM on the 2 kept features predicts the majority class for every training point: its
    training accuracy is that class's share, and the job says ``collapsed``, a failure in the summary; with an
    informative feature it separates the classes and the job is ``ok``."""
    rec, y = _imbalanced_job(0.0)
    assert rec["status"] == "collapsed" and rec["status"] in STATUSES and rec["n_selected"] == 2
    assert rec["train_accuracy"] == np.mean(y[:40] == 0)
    assert rec["message"] == "the final classifier on the 2 selected feature(s) predicts class 0 for all 40 training points (solver: ok)"
    informative, _ = _imbalanced_job(3.0)
    assert informative["status"] == "ok" and 0 in informative["selected"]
    frame = pd.DataFrame([{k: r[k] for k in ("status", "test_accuracy", "test_balanced_accuracy", "train_accuracy",
                                             "test_auc", "n_selected", "n_features_total")} for r in (rec, informative)])  # fmt: skip
    frame = frame.assign(dataset="d", method="m", setting="default", recall_relevant=np.nan, exact_relevant=np.nan,
                         leaky_normalization=False)  # fmt: skip
    assert summary_table(frame)["failures"].tolist() == [1]
