"""The final classifier: an SVM refitted on the selected features (linear, polynomial, Gaussian or anisotropic
Gaussian), or the selector's own hyperplane.

``"anisotropic"`` is the SVM with the selector's own kernel (13) of Jimenez-Cordero et al. (2021),
K(x, z) = exp(-sum_j gamma_j (x_j - z_j)^2), with the per-feature widths gamma_j the selector exposes
as ``kernel_widths_`` (MM-FS: the gamma of (20); KP-SVM / KP-FS: gamma_j = v_j^2 / 2 = 1 / (2 sigma_j^2)),
on every feature with gamma_j > 0 (``final_classifier.anisotropic.widths: all``, the default: Algorithm 1's
last step re-solves (10) with the gamma found, small gamma_j included) or on the selected features only
(``selected``: those below the selector's threshold dropped); its C is tuned over
``final_classifier.anisotropic.C`` (``C_source: grid``, the default) or is the selector's own C
(``C_source: selector``: MM-FS's C*, as Algorithm 1 re-solves (10)). This is the last step of MM-FS's
Algorithm 1 and KP-SVM's final model (KP-SVM's unselected widths are 0, so both ``widths`` modes give the
same classifier there). Choices: in :func:`~svmfs.protocol.tuning.tune_final` every inner fold uses the
widths of the selector fitted on the whole training side, as it uses that selector's support (the
selection, widths included, was already chosen by its own inner CV; refitting it per inner fold would
cost N more selector fits), while :func:`~svmfs.protocol.tuning.tune_selector` uses each inner fold's
own fitted widths.

``"own"`` refits nothing: it scores the linear SVM the selector solved, sign(w.x + b) with its
``weights_`` and ``intercept_`` (:class:`~svmfs.methods.base.LinearModelSelector`: l1-SVM, MILP-FS,
FSV, FS-SVMCP, FW1), as Jimenez-Cordero et al. (2021, section 4.3) evaluate l1-SVM and MILP-FS. It has no
grid of its own; the selector's grid is tuned by the inner-CV accuracy of that same hyperplane.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.dummy import DummyClassifier
from sklearn.model_selection import ParameterGrid
from sklearn.svm import SVC

from ..methods.base import LinearModelSelector
from ..solvers.anisotropic import aniso_kernel
from ..solvers.libsvm import LIBSVM_TOL, svc_fit_predict

#: Values of a registry entry's ``final`` (MethodSpec.final).
FINAL_KINDS = ("linear", "poly", "rbf", "anisotropic", "own")


class AnisotropicSVC(ClassifierMixin, BaseEstimator):
    """C-SVM (libsvm, precomputed Gram matrix) with the fixed anisotropic Gaussian kernel (13).

    ``widths``: gamma_j >= 0 of exp(-sum_j gamma_j (x_j - z_j)^2), one per column of the X given to fit.
    """

    def __init__(self, C=1.0, widths=None, tol=LIBSVM_TOL):
        self.C = C
        self.widths = widths
        self.tol = tol

    def fit(self, X, y):
        self.X_fit_ = np.asarray(X, dtype=float)
        self.svc_ = SVC(C=self.C, kernel="precomputed", tol=self.tol).fit(aniso_kernel(self.X_fit_, self.widths), y)
        self.classes_ = self.svc_.classes_
        return self

    def _gram(self, X):
        return aniso_kernel(np.asarray(X, dtype=float), self.widths, self.X_fit_)

    def decision_function(self, X):
        return self.svc_.decision_function(self._gram(X))

    def predict(self, X):
        return self.svc_.predict(self._gram(X))


def c_from_selector(cfg: dict) -> bool:
    """``final_classifier.anisotropic.C_source: selector``: the anisotropic SVM takes the selector's own C
    (MM-FS's C* of Algorithm 1) instead of an inner-CV choice over ``anisotropic.C``."""
    return cfg.get("anisotropic", {}).get("C_source", "grid") == "selector"


def selector_C(selector) -> float:
    """The C the selector solved its SVM with (``C_``), for ``C_source: selector``."""
    C = getattr(selector, "C_", None)
    if C is None:
        raise ValueError("final_classifier.anisotropic.C_source 'selector' needs a selector that sets C_ (MM-FS, KP-SVM, KP-FS)")
    return float(C)


def final_grid(kind: str, cfg: dict) -> list[dict]:
    """Grid points of the final classifier from the campaign's ``final_classifier`` section."""
    if kind == "linear":
        return list(ParameterGrid({"C": cfg["linear"]["C"]}))
    if kind == "rbf":
        return list(ParameterGrid({"C": cfg["rbf"]["C"], "gamma": cfg["rbf"]["gamma"]}))
    if kind == "poly":
        return list(ParameterGrid({"C": cfg["poly"]["C"], "degree": cfg["poly"]["degree"]}))
    if kind == "anisotropic":
        return [{}] if c_from_selector(cfg) else list(ParameterGrid({"C": cfg["anisotropic"]["C"]}))
    if kind == "own":
        return [{}]
    raise ValueError(f"final classifier must be one of {FINAL_KINDS}, got {kind!r}")


#: ``final_classifier.poly.form`` -> (gamma, coef0) of scikit-learn's (gamma x.z + coef0)^d, gamma None
#: meaning 1 / (number of selected features).
POLY_FORMS = {
    "scaled": (None, 1.0),  # (x.z / n + 1)^d, the default (no paper states it)
    "homogeneous": (1.0, 0.0),  # (x.z)^d: Maldonado et al. (2011), section 2, "Polynomial function"
    "offset": (1.0, 1.0),  # (1 + x.z)^d: Catala & Martin, eq. 4
}


def poly_kernel_params(cfg: dict, n_selected: int) -> tuple[float, float]:
    """(gamma, coef0) of the polynomial kernel named by ``final_classifier.poly.form`` (absent: ``scaled``,
    so that campaigns written before the key keep their records' ``config_hash``)."""
    gamma, coef0 = POLY_FORMS[cfg.get("poly", {}).get("form", "scaled")]
    return (1.0 / n_selected if gamma is None else gamma), coef0


def make_final(kind: str, params: dict, n_selected: int, cfg: dict, widths=None):
    """An unfitted SVC; with ``gamma_per_feature`` the RBF width is gamma / (number of features).

    The polynomial kernel is (gamma x.z + coef0)^degree with ``final_classifier.poly.form`` (``POLY_FORMS``):
    (x.z / n_selected + 1)^degree by default, (x.z)^degree (``homogeneous``) or (1 + x.z)^degree (``offset``).
    ``"anisotropic"`` needs ``widths``, the selector's gamma_j on the selected features. Every SVM stops at
    libsvm's tolerance ``final_classifier.libsvm_tol`` (absent: libsvm's 1e-3).
    """
    if n_selected == 0:
        return DummyClassifier(strategy="most_frequent")
    tol = float(cfg.get("libsvm_tol", LIBSVM_TOL))
    if kind == "linear":
        return SVC(kernel="linear", C=params["C"], tol=tol)
    if kind == "anisotropic":
        if widths is None or len(widths) != n_selected:
            raise ValueError("final classifier 'anisotropic' needs the selector's kernel_widths_ (one per feature)")
        return AnisotropicSVC(C=params["C"], widths=np.asarray(widths, dtype=float), tol=tol)
    if kind == "poly":
        gamma, coef0 = poly_kernel_params(cfg, n_selected)
        return SVC(kernel="poly", C=params["C"], degree=int(params["degree"]), gamma=gamma, coef0=coef0, tol=tol)
    gamma = params["gamma"]
    if cfg["rbf"].get("gamma_per_feature", True):
        gamma = gamma / n_selected
    return SVC(kernel="rbf", C=params["C"], gamma=gamma, tol=tol)


def fit_predict(kind, params, cfg, X_fit, y_fit, X_eval, support, selector=None):
    """Fit the final classifier on the selected columns; return (predictions, decision scores).

    ``selector``: the fitted selector whose ``kernel_widths_`` (``"anisotropic"``) or own hyperplane
    (``"own"``: nothing is fitted, ``X_fit`` and ``y_fit`` are unused) the final classifier needs.
    """
    support = np.asarray(support, dtype=bool)
    if kind == "own":
        if not isinstance(selector, LinearModelSelector):  # as the config check (config._check_final)
            raise ValueError("final classifier 'own' needs a selector that solves a linear SVM (LinearModelSelector)")
        return selector.own_predict(X_eval), selector.own_decision(X_eval)
    widths = getattr(selector, "kernel_widths_", None) if kind == "anisotropic" else None
    if widths is not None:
        widths = np.asarray(widths, dtype=float)
        if cfg.get("anisotropic", {}).get("widths", "all") == "all":
            support = widths > 0  # Algorithm 1: (10) with every gamma_j found, not only those above the threshold
        widths = widths[support]
        if c_from_selector(cfg):
            params = {**params, "C": selector_C(selector)}
    clf = make_final(kind, params, int(support.sum()), cfg, widths)
    Xe = X_eval[:, support]
    if type(clf) is SVC:  # the same numbers as clf.fit / predict / decision_function, without their overhead
        return svc_fit_predict(clf, X_fit[:, support], y_fit, Xe)
    clf.fit(X_fit[:, support], y_fit)
    pred = clf.predict(Xe)
    if hasattr(clf, "decision_function"):
        score = clf.decision_function(Xe)
    else:
        score = np.zeros(len(Xe))
    return pred, score
