"""Decremental Feature Selection by Alignment, dFSA (Catala & Martin, section 5, Algorithm 2).

Backward elimination from all features: remove the feature whose removal raises the kernel-target
alignment (eq. 1) most, while some removal does not lower it. Kernels are updated incrementally by
subtracting the removed feature's contribution from the stored linear Gram matrix (eqs. 3-4) or
squared-distance matrix (eqs. 5-6), O(n^2) per candidate (solvers.alignment.backward_elimination).

Choices: the default stop is the alignment one of section 5.1. ``validation_size`` adds the
validation stop of section 5.2: that share of the training points (stratified, drawn with
``random_state``) is held out of the alignment, an SVM with the same kernel (``C``) is trained on the
rest after each removal of the alignment path, and the selection is the point of the path with the
best held-out accuracy (ties: fewer features). Read literally ("stop when a removal decreases the
validation accuracy") the rule stopped after ~1.5 removals on f2 (one misclassified validation point
suffices), far from the ~3 features of Table 5, so the best point of the path is used instead.
``subsample`` estimates the alignment on a random subset of the training points, as section 3.2
suggests for large sets (plain random draw, no stratification). Data are used as given: the paper
standardises them first (the workflow's normalisation does).
"""

from __future__ import annotations

import numpy as np
from sklearn.model_selection import train_test_split
from sklearn.svm import SVC
from sklearn.utils import check_random_state

from ..solvers.alignment import KERNELS, backward_elimination, resolve_gamma, target_vector
from .base import BaseSelector


class DFSA(BaseSelector):
    """Backward elimination by kernel-target alignment with a linear, polynomial or RBF kernel.

    Parameters
    ----------
    kernel : {"linear", "poly", "rbf"}
    degree, offset : polynomial kernel (offset + <x, z>)^degree (eq. 4: offset 1).
    gamma : float or None
        RBF exp(-gamma |x - z|^2) (gamma = 1 / (2 sigma^2)); ``None``: 1 / (p Var(X)) on all features,
        then fixed during the elimination.
    unbalanced : bool
        Ideal kernel from labels +1/m, -1/n (section 4.2).
    subsample : int or None
        Number of training points on which the alignment is computed (``None``: all).
    random_state : int, RandomState or None
        Draws the subsample.
    validation_size : int, float or None
        Held-out points (count or fraction) for the validation stop of section 5.2; ``None``: none.
    C : float
        Penalty of the validation SVM.
    max_iter : int or None
        Limit on the number of removals (``None``: until the alignment stop); reaching it sets
        status ``max_iter``.

    ``ranking_``: features kept at the alignment stop rank 1, removed ones by reverse removal order
    (last removed = 2); with ``validation_size`` the support may also keep some of the last removed.
    ``scores_``: the alignment lost when the feature is (kept: would be) removed, ``DecrAlign``;
    <= 0 for removed features, > 0 for kept ones after a normal stop. ``n_iter_``: candidate-scoring
    passes (the removals plus the final pass that found no improving removal).
    """

    def __init__(self, kernel="poly", degree=2, offset=1.0, gamma=None, unbalanced=False, subsample=None,
                 random_state=None, validation_size=None, C=1.0, max_iter=None):
        self.kernel = kernel
        self.degree = degree
        self.offset = offset
        self.gamma = gamma
        self.unbalanced = unbalanced
        self.subsample = subsample
        self.random_state = random_state
        self.validation_size = validation_size
        self.C = C
        self.max_iter = max_iter

    def _fit(self, X, y):
        if self.kernel not in KERNELS:
            raise ValueError(f"kernel must be one of {KERNELS}, got {self.kernel!r}")
        gamma = resolve_gamma(self.gamma, X)
        rng = check_random_state(self.random_state)
        if self.validation_size is not None:
            X, Xv, y, yv = train_test_split(X, y, test_size=self.validation_size, stratify=y, random_state=rng)
        Xa, ya = X, y
        if self.subsample is not None and self.subsample < X.shape[0]:
            rows = np.sort(rng.choice(X.shape[0], int(self.subsample), replace=False))
            Xa, ya = X[rows], y[rows]
        res = backward_elimination(
            Xa, target_vector(ya, self.unbalanced), self.kernel, self.degree, self.offset, gamma, self.max_iter
        )
        p = X.shape[1]
        self.ranking_ = np.ones(p, dtype=np.int64)
        self.ranking_[res.removed[::-1]] = np.arange(2, len(res.removed) + 2)
        self.scores_ = np.empty(p)
        self.scores_[res.removed] = res.decrease_at_removal
        self.scores_[res.kept] = res.kept_decrease
        n_cut = len(res.removed)
        if self.validation_size is not None:
            n_cut = self._validation_cut(X, y, Xv, yv, res.removed, gamma)
        self.support_ = self.ranking_ <= 1 + len(res.removed) - n_cut
        self.n_iter_ = res.n_iter + (res.stopped == "no_increase")  # scoring passes, incl. the final one
        if res.stopped == "max_iter":
            self.diagnostics_["status"] = "max_iter"
        self.diagnostics_.update(
            objective=res.path[n_cut], path=res.path, message=f"stopped: {res.stopped}; kept after {n_cut} removals"
        )

    def _validation_cut(self, X, y, Xv, yv, removed, gamma):
        """Number of removals (a prefix of the elimination) with the best held-out accuracy, ties to more
        removals; the SVM has the selection kernel (gamma = 1 for the polynomial so it equals eq. 4)."""
        svm = SVC(C=self.C, kernel=self.kernel, degree=self.degree, coef0=self.offset,
                  gamma=1.0 if self.kernel == "poly" else gamma)
        keep = np.ones(X.shape[1], dtype=bool)
        best, best_acc = 0, -1.0
        for i in range(len(removed) + 1):
            if i:
                keep[removed[i - 1]] = False
            acc = svm.fit(X[:, keep], y).score(Xv[:, keep], yv)
            if acc >= best_acc:
                best, best_acc = i, acc
        return best
