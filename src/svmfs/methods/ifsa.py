"""Incremental Feature Selection by Alignment, iFSA (Catala & Martin, section 3.2, Algorithm 1).

Greedy forward selection with the linear kernel: add the feature that raises the alignment (eq. 1)
most, updating the kernel incrementally (eq. 2, O(n^2) per candidate), until no candidate raises it.

Choices: ties pick the lowest feature index; an increment must be strictly positive (step 10).
``alignment_fraction`` r-selection follows section 4.1: keep the first r features whose alignment
reaches that fraction of the final alignment (the paper tunes the fraction over 0.85, 0.86, ..., 1).
"""

from __future__ import annotations

import numpy as np

from ..solvers.alignment import candidate_alignments, target_vector, update_base
from .base import BaseSelector


class IFSA(BaseSelector):
    """Greedy forward selection by kernel-target alignment (linear kernel).

    Parameters
    ----------
    alignment_fraction : float in (0, 1]
        Keep the shortest prefix of the selection order reaching this fraction of the final alignment.
    prune_negative : bool
        Step 15: after each addition, drop from the candidates every feature whose increment was < 0.
    unbalanced : bool
        Ideal kernel from labels +1/m, -1/n (section 4.2).

    ``ranking_`` lists the added features in order (1 = first added); the features never added share
    the last rank. ``scores_`` holds each added feature's alignment increment (0 for the others);
    ``diagnostics_["path"]`` the alignment after each addition.
    """

    def __init__(self, alignment_fraction=1.0, prune_negative=False, unbalanced=False):
        self.alignment_fraction = alignment_fraction
        self.prune_negative = prune_negative
        self.unbalanced = unbalanced

    def _fit(self, X, y):
        if not 0 < self.alignment_fraction <= 1:
            raise ValueError(f"alignment_fraction must be in (0, 1], got {self.alignment_fraction}")
        n, p = X.shape
        t = target_vector(y, self.unbalanced)
        G = np.zeros((n, n))
        C = np.arange(p)
        order, path, current = [], [0.0], 0.0
        while C.size:
            incr = candidate_alignments(G, X[:, C], t, "linear", 1.0) - current
            k = int(np.argmax(incr))
            if incr[k] <= 0:
                break
            add = int(C[k])
            G = update_base(G, X[:, add], "linear", 1.0)
            current += float(incr[k])
            order.append(add)
            path.append(current)
            keep = np.arange(C.size) != k
            if self.prune_negative:
                keep &= incr >= 0
            C = C[keep]
        path_arr = np.array(path)
        r = int(np.argmax(path_arr >= self.alignment_fraction * path_arr[-1] - 1e-15)) if order else 0
        self.ranking_ = np.full(p, len(order) + 1, dtype=np.int64)
        self.ranking_[order] = np.arange(1, len(order) + 1)
        self.scores_ = np.zeros(p)
        self.scores_[order] = np.diff(path_arr)
        self.support_ = np.zeros(p, dtype=bool)
        self.support_[order[: max(r, 1)]] = True
        if not order:  # every column is orthogonal to the labels (alignment 0): keep feature 0
            self.support_[0] = True
        self.n_iter_ = len(order)
        self.diagnostics_.update(
            objective=float(path_arr[r]), path=path, message=f"{len(order)} added, kept {self.support_.sum()}"
        )
