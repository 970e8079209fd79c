"""The final classifier refitted on the selected features: a linear, polynomial or Gaussian SVM."""

from __future__ import annotations

import numpy as np
from sklearn.dummy import DummyClassifier
from sklearn.model_selection import ParameterGrid
from sklearn.svm import SVC


def final_grid(kind: str, cfg: dict) -> list[dict]:
    """Grid points of the final classifier from the campaign's ``final_classifier`` section."""
    if kind == "linear":
        return list(ParameterGrid({"C": cfg["linear"]["C"]}))
    if kind == "rbf":
        return list(ParameterGrid({"C": cfg["rbf"]["C"], "gamma": cfg["rbf"]["gamma"]}))
    if kind == "poly":
        return list(ParameterGrid({"C": cfg["poly"]["C"], "degree": cfg["poly"]["degree"]}))
    raise ValueError(f"final classifier must be 'linear', 'poly' or 'rbf', got {kind!r}")


def make_final(kind: str, params: dict, n_selected: int, cfg: dict):
    """An unfitted SVC; with ``gamma_per_feature`` the RBF width is gamma / (number of features).

    The polynomial kernel is (x.z / n_selected + 1)^degree (scikit-learn's gamma = 1/n, coef0 = 1).
    """
    if n_selected == 0:
        return DummyClassifier(strategy="most_frequent")
    if kind == "linear":
        return SVC(kernel="linear", C=params["C"])
    if kind == "poly":
        return SVC(kernel="poly", C=params["C"], degree=int(params["degree"]), gamma=1.0 / n_selected, coef0=1.0)
    gamma = params["gamma"]
    if cfg["rbf"].get("gamma_per_feature", True):
        gamma = gamma / n_selected
    return SVC(kernel="rbf", C=params["C"], gamma=gamma)


def fit_predict(kind, params, cfg, X_fit, y_fit, X_eval, support):
    """Fit the final classifier on the selected columns; return (predictions, decision scores)."""
    support = np.asarray(support, dtype=bool)
    clf = make_final(kind, params, int(support.sum()), cfg)
    clf.fit(X_fit[:, support], y_fit)
    Xe = X_eval[:, support]
    pred = clf.predict(Xe)
    if hasattr(clf, "decision_function"):
        score = clf.decision_function(Xe)
    else:
        score = np.zeros(len(Xe))
    return pred, score
