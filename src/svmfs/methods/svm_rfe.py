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

Warm starts (opt-in ``solver="warm"``): libsvm has no warm start of alpha, so this route solves the
same dual (min 1/2 a'Qa - e'a, Q = (y y') * K, 0 <= a <= C, y'a = 0) with our own SMO in numpy
(svmfs.solvers.smo: libsvm's second-order working-set selection, no shrinking) on the downdated
kernel, started at each elimination from the previous step's alpha, which stays feasible since the
constraints do not involve the features; G = Q a - e is recomputed once per step. It stops at
libsvm's default criterion, maximal violation m(a) - M(a) < 1e-3, and ``max_iter`` bounds each solve
(status "max_iter" if one stops there). ``smo_iter_`` holds the iterations per step. "kernel" stays
the default: it matches scikit-learn's RFE(SVC(kernel="linear")) ranking bit for bit. The warm route
reaches the same objective to ~1e-6 relative, but two tol = 1e-3 solutions differ in w (leukemia
72 x 1000: max |w_libsvm - w_SMO| = 1.3e-5 while the smallest |w_j| are 1.6e-6 apart), so features
whose |w_j| differ by less than that may leave in another order, and later steps then differ too
(benchmarks/RESULTS.md, "SVM-RFE with a warm-started SMO"; libsvm at tol 1e-3 and our SMO at tol
1e-8 differ there as well). On 72 x 1000 warm starts need 2.7-3x fewer SMO iterations than cold
starts, but a numpy iteration (~25 us) costs more than a whole libsvm solve: 5-7x slower overall.
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

from ..solvers.smo import smo
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
        Iteration limit of each liblinear or SMO solve.
    solver : {"auto", "kernel", "warm", "liblinear"}
        "kernel": libsvm dual on the incrementally downdated linear kernel (unpenalised intercept);
        "warm": the same dual by our SMO, warm-started from the previous step's alpha;
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
        routes = {"kernel": _KernelWeights, "warm": _WarmKernelWeights, "liblinear": _LiblinearWeights}
        if solver not in routes:
            raise ValueError(f"solver must be 'auto', 'kernel', 'warm' or 'liblinear', got {self.solver!r}")
        weights = routes[solver](X, y, self.C, self.max_iter)
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
        elif solver == "warm":
            self.smo_iter_ = np.array(weights.smo_iter)
            self.diagnostics_["message"] = f"{len(weights.smo_iter)} SMO solves, {int(self.smo_iter_.sum())} iterations"
            if weights.unconverged:
                self.diagnostics_["status"] = "max_iter"
                self.diagnostics_["message"] += f", {weights.unconverged} stopped at max_iter={self.max_iter}"
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

    def __init__(self, X, y, C, max_iter=None):
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


class _WarmKernelWeights(_KernelWeights):
    """The kernel route with our SMO (solvers/smo.py) warm-started from the previous step's alpha."""

    def __init__(self, X, y, C, max_iter, warm_start=True, tol=1e-3):
        super().__init__(X, y, C)
        self.max_iter, self.warm_start, self.tol = max_iter, warm_start, tol
        self.alpha, self.smo_iter, self.unconverged = None, [], 0

    def _dual(self):
        # alpha stays feasible after a removal (the constraints do not involve the features); smo
        # recomputes G = Q a - e once from the downdated kernel
        start = self.alpha if self.warm_start else None
        self.alpha, n_iter, converged = smo(self.K, self.y, float(self.C), start, tol=self.tol, max_iter=self.max_iter)
        self.smo_iter.append(n_iter)
        self.unconverged += not converged
        support = np.flatnonzero(self.alpha > 0)
        return support, (self.alpha * self.y)[support][None, :]
