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
