"""SVM-RFE: recursive feature elimination with linear SVM weights.

Guyon et al. (2002) as stated in the MIT 9.520 project, section 2.2: train a linear SVM (hinge loss,
L2 penalty), remove the feature(s) with the smallest |w_j| (for a linear SVM the zero- and
first-order criteria coincide, r_min = argmin_i |w_i|), repeat. Schedule of section 2.2 ("start by
removing a bunch of features at every iteration, and then only one when the reduced dataset is of
size of hundreds"): while more than ``switch_at`` features remain, remove ``ceil(step * remaining)``
of them (never dropping below ``switch_at``), then one at a time.

Choice: elimination always runs down to one feature so that ``ranking_`` is a full permutation and
the tuner can score every ``n_features_to_select`` of its grid from one fit; the selection for a
size k <= ``switch_at`` is identical to stopping at k.

Speed (MIT section 2.2: "reuse part of the calculations ... the current solution can serve as a warm
start"): with ``solver="kernel"`` (the default when n_samples <= 5000) each step solves the SVM dual
on the linear kernel K = X_A X_A^T of the active features A, and removing features R downdates it,
K <- K - X_R X_R^T, instead of touching all remaining columns again; w_A = sum_i alpha_i y_i x_iA.
The kernel is recomputed from scratch whenever the active set has halved, so rounding does not
accumulate. ``solver="liblinear"`` uses LinearSVC (hinge loss, penalised intercept) as sklearn's
RFE(LinearSVC) does.

Per-step overhead: on a 72 x 72 kernel libsvm itself takes ~0.07 ms, SVC.fit's input validation
~0.6 ms. The kernel route therefore calls scikit-learn's libsvm binding ``sklearn.svm._libsvm.fit``
directly, with exactly the arguments SVC(kernel="precomputed") passes (labels encoded 0/1, dual
coefficients negated as SVC does for two classes), so the ranking is unchanged. Risk: ``_libsvm`` is
private (signature stable from scikit-learn 1.1 to 1.9.1, the version pinned in constraints.txt); if
it is missing or its call fails, the route falls back to SVC.fit for the rest of the fit, same
result, slower (tests/test_methods_core.py checks that the direct call is in use and agrees). The
fits after the first (which validates the parameters) run under scikit-learn's public
``config_context(assume_finite=True, skip_parameter_validation=True)``.
"""

from __future__ import annotations

import math

import numpy as np
from sklearn import config_context
from sklearn.svm import SVC, LinearSVC

try:  # private libsvm binding of scikit-learn: see "Per-step overhead" above
    from sklearn.svm import _libsvm
except ImportError:  # pragma: no cover - a future scikit-learn
    _libsvm = None

from .base import BaseSelector, support_from_ranking


def rfe_schedule(n_features: int, step: float, switch_at: int) -> list[int]:
    """Number of features removed at each elimination, down to one remaining feature."""
    if not 0 < step < 1:
        raise ValueError(f"step must be a fraction in (0, 1), got {step}")
    removals, remaining = [], n_features
    while remaining > 1:
        if remaining > switch_at:
            r = min(max(1, math.ceil(step * remaining)), remaining - switch_at)
        else:
            r = 1
        removals.append(r)
        remaining -= r
    return removals


class SVMRFE(BaseSelector):
    """Recursive feature elimination by |w_j| of a linear SVM (MIT 9.520 project, section 2.2).

    Parameters
    ----------
    C : float
        Penalty of the linear SVM (tuned by inner CV).
    n_features_to_select : int or None
        Size of the selection read off the ranking; ``None`` keeps all.
    step : float
        Fraction of the remaining features removed per iteration while more than ``switch_at`` remain.
    switch_at : int
        From this many remaining features on, one feature is removed per iteration.
    max_iter : int
        Iteration limit of each liblinear solve.
    solver : {"auto", "kernel", "liblinear"}
        "kernel": libsvm dual on the incrementally downdated linear kernel (unpenalised intercept);
        "liblinear": LinearSVC; "auto": "kernel" when n_samples <= 5000.
    """

    ranks_all_features = True

    def __init__(self, C=1.0, n_features_to_select=None, step=0.1, switch_at=100, max_iter=10000, solver="auto"):
        self.C = C
        self.n_features_to_select = n_features_to_select
        self.step = step
        self.switch_at = switch_at
        self.max_iter = max_iter
        self.solver = solver

    def _fit(self, X, y):
        solver = self.solver if self.solver != "auto" else ("kernel" if X.shape[0] <= 5000 else "liblinear")
        if solver not in ("kernel", "liblinear"):
            raise ValueError(f"solver must be 'auto', 'kernel' or 'liblinear', got {self.solver!r}")
        weights = _KernelWeights(X, y, self.C) if solver == "kernel" else _LiblinearWeights(X, y, self.C, self.max_iter)
        p = X.shape[1]
        active = np.arange(p)
        ranking = np.zeros(p, dtype=np.int64)
        next_rank = p
        iters = 0
        self.weights_ = weights(active).copy()  # validates the parameters: later fits skip it
        with config_context(assume_finite=True, skip_parameter_validation=True):
            for n_remove in rfe_schedule(p, self.step, self.switch_at):
                w = weights(active) if iters else self.weights_
                order = np.lexsort((-active, np.abs(w)))  # smallest |w| first; ties: higher index first
                removed = order[:n_remove]
                ranking[active[removed]] = next_rank - np.arange(n_remove)
                next_rank -= n_remove
                weights.remove(active[removed])
                active = np.delete(active, removed)
                iters += 1
        ranking[active] = 1
        if solver == "kernel":
            fits = weights.fits
            self.diagnostics_["message"] = f"{fits['libsvm']} direct libsvm fits, {fits['SVC']} SVC fits"
        self.ranking_ = ranking
        self.n_iter_ = iters
        self.support_ = support_from_ranking(ranking, self.n_features_to_select)


class _LiblinearWeights:
    """w on the active features from LinearSVC (hinge loss, L2), refitted on the active columns."""

    def __init__(self, X, y, C, max_iter):
        self.X, self.y, self.svm = X, y, LinearSVC(C=C, loss="hinge", dual=True, max_iter=max_iter, random_state=0)

    def __call__(self, active):
        return self.svm.fit(self.X[:, active], self.y).coef_.ravel()

    def remove(self, features):
        pass


class _KernelWeights:
    """w on the active features from the SVM dual on a downdated linear kernel (see module doc)."""

    def __init__(self, X, y, C):
        self.X, self.y, self.C = X, y, C
        self.K = X @ X.T
        self.n_at_recompute = X.shape[1]
        self.active = np.ones(X.shape[1], dtype=bool)
        self.direct = _libsvm is not None
        self.y01 = (y > 0).astype(np.float64)  # SVC's label encoding: index into classes_ = [-1, 1]
        self.fits = {"libsvm": 0, "SVC": 0}

    def __call__(self, active):
        support, dual_coef = self._dual()
        return (dual_coef @ self.X[support][:, active]).ravel()

    def _dual(self):
        """Support indices and alpha_i y_i of the C-SVC on the precomputed kernel self.K."""
        if self.direct and self.fits["SVC"]:  # the first fit goes through SVC: parameter validation
            try:
                _libsvm.set_verbosity_wrap(0)
                support, _, _, dual_coef, *_ = _libsvm.fit(
                    self.K, self.y01, svm_type=0, kernel="precomputed", degree=3, gamma=0.0, coef0=0.0,
                    tol=1e-3, C=float(self.C), nu=0.0, epsilon=0.0, class_weight=np.ones(2),
                    sample_weight=np.empty(0), shrinking=1, probability=0, cache_size=200.0, max_iter=-1,
                    random_seed=0)  # fmt: skip
                self.fits["libsvm"] += 1
                return support, -dual_coef  # SVC negates dual_coef_ for two classes
            except (TypeError, ValueError, AttributeError):  # the private API changed: public route
                self.direct = False
        svc = SVC(kernel="precomputed", C=self.C).fit(self.K, self.y)
        self.fits["SVC"] += 1
        return svc.support_, svc.dual_coef_

    def remove(self, features):
        self.active[features] = False
        n_active = int(self.active.sum())
        if 2 * n_active <= self.n_at_recompute:
            Xa = self.X[:, self.active]
            self.K = Xa @ Xa.T
            self.n_at_recompute = n_active
        else:
            Xr = self.X[:, features]
            self.K -= Xr @ Xr.T
