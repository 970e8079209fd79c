"""SVM-RFE: recursive feature elimination with linear SVM weights.

Guyon et al. (2002) as stated in the MIT 9.520 project, section 2.2: train a linear SVM (hinge loss,
L2 penalty), remove the feature(s) with the smallest |w_j| (for a linear SVM the zero- and
first-order criteria coincide, r_min = argmin_i |w_i|, section 2.4), repeat. Schedule of section
2.5 ("start by removing a bunch of features at every iteration, and then only one when the reduced
dataset is of size of hundreds"): while more than ``switch_at`` features remain, remove
``ceil(step * remaining)`` of them (never dropping below ``switch_at``), then one at a time.

The elimination always runs down to one feature, so ``ranking_`` is a full permutation and the tuner
scores every ``n_features_to_select`` of its grid from one fit. Each step solves the SVM dual on the
linear kernel of the active features, downdated as features leave (section 2.5's reuse of
calculations); scikit-learn's private libsvm binding is called directly with SVC's own arguments,
with SVC.fit as the fallback (the routes: :mod:`svmfs.solvers.rfe_weights`). Routes, tie rule and what each route gives against scikit-learn's RFE:
docs/methods/svm_rfe.md.
"""

from __future__ import annotations

import math
from numbers import Integral

import numpy as np
from sklearn import config_context
from sklearn.utils._param_validation import Interval, StrOptions

from ..solvers.rfe_weights import ActiveSetWeights, KernelWeights, LiblinearWeights, WarmKernelWeights, smallest
from .base import COUNT, POSITIVE, RFE_STEP, SWITCH_AT, OwnSVMAtSize, support_from_ranking


def rfe_schedule(n_features: int, step: float | str, switch_at: int) -> list[int]:
    """Number of features removed at each elimination, down to one remaining feature.

    ``step="halve"`` is the SPIDER toolbox's RFE (Rinaldi & Sciandrone 2010, sec. 5.3):
    ``floor(remaining / 2)`` while more than ``switch_at`` (SPIDER's ``speed``, default 0) remain. SPIDER caps
    its last removal so that exactly r stay; read off the full ranking, the size r keeps the same features
    (the r largest |w_j| of the SVM at the last size above r).

    Examples
    --------
    >>> rfe_schedule(10, 0.5, 4)  # half while more than 4 remain (never below 4), then one at a time
    [5, 1, 1, 1, 1]
    >>> rfe_schedule(10, "halve", 0)
    [5, 2, 1, 1]
    """
    halve = step == "halve"
    if not halve and not (isinstance(step, (int, float)) and 0 < step < 1):
        raise ValueError(f"step must be a fraction in (0, 1), got {step!r} (or 'halve', SPIDER's schedule)")
    removals, remaining = [], n_features
    while remaining > 1:
        if remaining > switch_at:
            n = remaining // 2 if halve else math.ceil(step * remaining)
            r = min(max(1, n), remaining - switch_at)
        else:
            r = 1
        removals.append(r)
        remaining -= r
    return removals


class SVMRFE(OwnSVMAtSize):
    """Recursive feature elimination by |w_j| of a linear SVM (MIT 9.520 project, sections 2.2-2.5).

    The ranking criterion is r_min = argmin_i |w_i| (section 2.4); the schedule is section 2.5's
    (:func:`rfe_schedule`).

    Parameters
    ----------
    C : float
        Penalty of the linear SVM (tuned by inner CV).
    n_features_to_select : int or None
        Size of the selection read off the ranking; ``None`` keeps all.
    step : float or "halve"
        Fraction of the remaining features removed per iteration while more than ``switch_at`` remain;
        "halve": half of them, rounded down (the SPIDER toolbox's RFE, :func:`rfe_schedule`).
    switch_at : int
        From this many remaining features on, one feature is removed per iteration.
    max_iter : int
        Iteration limit of each liblinear or SMO solve.
    solver : {"auto", "kernel", "active_set", "warm", "liblinear"}
        "kernel": libsvm dual on the incrementally downdated linear kernel (unpenalised intercept),
        scikit-learn's RFE(SVC(kernel="linear")) ranking; "active_set": the same dual solved exactly
        by rank-one updates of its KKT system (MIT section 2.5's warm start; module doc), the ranking
        of an exact solver (SVC at tol 1e-12);
        "warm": the same dual by our SMO, warm-started from the previous step's alpha;
        "liblinear": LinearSVC; "auto": "kernel" when n_samples <= 5000.

    Attributes
    ----------
    ranking_ : ndarray of shape (n_features,)
        1 for the last feature left, p for the first removed (a permutation of 1..p).
    support_ : ndarray of bool
        The ``n_features_to_select`` best ranked features.
    weights_ : ndarray of shape (n_features,)
        w of the first SVM, on all features; once the final classifier ``own`` scores the fit, w of the
        linear SVM with this ``C`` on the selected features (0 elsewhere): the machine RFE-SVM determines
        at that size (Rinaldi & Sciandrone 2010, sec. 5.3, Tables 3-4; MIT 9.520 project, sec. 4.1).
    intercept_ : float
        b of that SVM, set when ``own`` scores the fit
        (:class:`~svmfs.methods.base.OwnSVMAtSize`).
    n_iter_ : int
        Elimination steps.
    kkt_violation_ : float
        ``solver="active_set"`` only: the largest KKT violation m(a) - M(a) along the path.
    smo_iter_ : ndarray of int
        ``solver="warm"`` only: SMO iterations per step.
    diagnostics_ : dict
        ``status``, ``message`` (solves of each kind), ``time_s``.

    Examples
    --------
    >>> import numpy as np
    >>> from svmfs.methods.svm_rfe import SVMRFE
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(40, 6))
    >>> y = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(int)
    >>> sel = SVMRFE(C=1.0, n_features_to_select=2).fit(X, y)
    >>> sel.get_support().nonzero()[0].tolist()
    [0, 1]
    >>> int(sel.ranking_[0])
    1
    """

    ranks_all_features = True

    _parameter_constraints = {
        "C": [POSITIVE],
        "n_features_to_select": [COUNT, None],
        "step": RFE_STEP,
        "switch_at": [SWITCH_AT],
        "max_iter": [Interval(Integral, -1, None, closed="left")],  # libsvm's iteration cap; -1: none
        "solver": [StrOptions({"auto", "kernel", "active_set", "warm", "liblinear"})],
    }

    def __init__(self, C=1.0, n_features_to_select=None, step=0.1, switch_at=100, max_iter=10000, solver="auto"):
        self.C = C
        self.n_features_to_select = n_features_to_select
        self.step = step
        self.switch_at = switch_at
        self.max_iter = max_iter
        self.solver = solver

    def _fit(self, X, y):
        solver = self.solver if self.solver != "auto" else ("kernel" if X.shape[0] <= 5000 else "liblinear")
        routes = {"kernel": KernelWeights, "active_set": ActiveSetWeights, "warm": WarmKernelWeights,
                  "liblinear": LiblinearWeights}  # fmt: skip
        weights = routes[solver](X, y, self.C, self.max_iter)
        p = X.shape[1]
        ranking = np.zeros(p, dtype=np.int64)
        next_rank = p
        iters = 0
        self.weights_ = weights().copy()  # validates the parameters: later fits skip it
        with config_context(assume_finite=True, skip_parameter_validation=True):
            for n_remove in rfe_schedule(p, self.step, self.switch_at):
                idx = weights.idx[: weights.m]  # original index of each active feature, in w's order
                if iters:
                    removed = weights.select(n_remove)
                else:
                    removed = smallest(self.weights_, idx, n_remove, weights.tie())
                ranking[idx[removed]] = next_rank - np.arange(n_remove)
                next_rank -= n_remove
                weights.remove(removed)
                iters += 1
        ranking[weights.idx[: weights.m]] = 1
        if solver != "liblinear":
            self.w_products_ = {"full": weights.n_full, "pruned": weights.n_pruned}
        if solver == "kernel":
            fits = weights.fits
            self.diagnostics_["message"] = f"{fits['libsvm']} direct libsvm fits, {fits['SVC']} SVC fits"
        elif solver == "active_set":
            n = weights.counts
            self.kkt_violation_ = weights.max_violation
            self.dual_alpha_ = weights.alpha  # the last solve's dual, on the 2 features left before the last removal
            self.diagnostics_["message"] = (
                f"{n['update']} rank-one updates, {n['refactor']} refactorizations, {n['set_change']} active-set "
                f"changes, {n['fallback']} fallback solves "
                f"(libsvm tol {weights.tol:g}); max KKT violation {weights.max_violation:.1e}")
        elif solver == "warm":
            self.smo_iter_ = np.array(weights.smo_iter)
            self.diagnostics_["message"] = f"{len(weights.smo_iter)} SMO solves, {int(self.smo_iter_.sum())} iterations"
            if weights.unconverged:
                self.diagnostics_["status"] = "max_iter"
                self.diagnostics_["message"] += f", {weights.unconverged} stopped at max_iter={self.max_iter}"
        self.ranking_ = ranking
        self.n_iter_ = iters
        self.support_ = support_from_ranking(ranking, self.n_features_to_select)
        self._keep_rows(X, y)
