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
"""

from __future__ import annotations

import math

import numpy as np
from sklearn.svm import LinearSVC

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
    """

    ranks_all_features = True

    def __init__(self, C=1.0, n_features_to_select=None, step=0.1, switch_at=100, max_iter=10000):
        self.C = C
        self.n_features_to_select = n_features_to_select
        self.step = step
        self.switch_at = switch_at
        self.max_iter = max_iter

    def _svm(self):
        return LinearSVC(C=self.C, loss="hinge", dual=True, max_iter=self.max_iter, random_state=0)

    def _fit(self, X, y):
        p = X.shape[1]
        active = np.arange(p)
        ranking = np.zeros(p, dtype=np.int64)
        next_rank = p
        iters = 0
        for n_remove in rfe_schedule(p, self.step, self.switch_at):
            w = self._svm().fit(X[:, active], y).coef_.ravel()
            order = np.lexsort((-active, np.abs(w)))  # smallest |w| first; ties: higher index first
            removed = order[:n_remove]
            for j in removed:
                ranking[active[j]] = next_rank
                next_rank -= 1
            active = np.delete(active, removed)
            iters += 1
        ranking[active] = 1
        svm = self._svm().fit(X, y)
        self.weights_ = svm.coef_.ravel().copy()
        self.ranking_ = ranking
        self.n_iter_ = iters
        self.support_ = support_from_ranking(ranking, self.n_features_to_select)
