"""Incremental Feature Selection by Alignment, iFSA (Catala & Martin, section 3.2, Algorithm 1).

Greedy forward selection with the linear kernel: add the feature that raises the alignment (eq. 1)
most, updating the kernel incrementally (eq. 2, O(n^2) per candidate), until no candidate raises it.

Choices: ties pick the lowest feature index; an increment must be strictly positive (step 10).
``alignment_fraction`` r-selection follows section 4.1: keep the first r features whose alignment
reaches that fraction of the final alignment (the paper tunes the fraction over 0.85, 0.86, ..., 1).
The greedy path does not depend on the fraction, so the tuner fits it once per inner fold and reads
every fraction of its grid off it (``support_for_size``; registry ``truncation``), with the same
selections as one fit per fraction.
"""

from __future__ import annotations

from numbers import Real

import numpy as np
from sklearn.utils._param_validation import Interval

from ..solvers.alignment import candidate_alignments, target_vector, update_base
from .base import BaseSelector


class IFSA(BaseSelector):
    """Greedy forward selection by kernel-target alignment (linear kernel).

    Parameters
    ----------
    alignment_fraction : float in (0, 1], or None
        Keep the shortest prefix of the selection order reaching this fraction of the final alignment
        (None: the whole path, as 1.0; the tuner then reads each fraction by ``support_for_size``).
    prune_negative : bool
        Step 15: after each addition, drop from the candidates every feature whose increment was < 0.
    unbalanced : bool
        Ideal kernel from labels +1/m, -1/n (section 4.2).

    ``ranking_`` lists the added features in order (1 = first added); the features never added share
    the last rank. ``scores_`` holds each added feature's alignment increment (0 for the others);
    ``diagnostics_["path"]`` the alignment after each addition.

    Attributes
    ----------
    support_ : ndarray of bool of shape (n_features,)
        The kept features.
    ranking_ : ndarray of int of shape (n_features,)
        1 = most important; the tuner reads smaller selections off it.
    scores_ : ndarray of shape (n_features,)
        The per-feature score the selection ranks by.
    n_iter_ : int
        Iterations of the method's outer loop.
    diagnostics_ : dict
        ``status``, ``objective``, ``n_iter``, ``message`` and ``time_s`` (:mod:`svmfs.methods.base`).

    References
    ----------
    Catala & Martin, section 3.2, Algorithm 1, eq. 2; r by alignment fraction (section 4.1).

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(40, 6))
    >>> y = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(int)
    >>> from svmfs.methods.ifsa import IFSA
    >>> sel = IFSA().fit(X, y)
    >>> sel.get_support().nonzero()[0].tolist()
    [0]
    """

    truncation_is_size = False

    _parameter_constraints = {
        "alignment_fraction": [Interval(Real, 0, 1, closed="right"), None],
        "prune_negative": ["boolean"],
        "unbalanced": ["boolean"],
    }

    def __init__(self, alignment_fraction=1.0, prune_negative=False, unbalanced=False):
        self.alignment_fraction = alignment_fraction
        self.prune_negative = prune_negative
        self.unbalanced = unbalanced

    def _fit(self, X, y):
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
        self.path_ = path_arr = np.array(path)
        self.order_ = np.asarray(order, dtype=np.int64)
        self.ranking_ = np.full(p, len(order) + 1, dtype=np.int64)
        self.ranking_[order] = np.arange(1, len(order) + 1)
        self.scores_ = np.zeros(p)
        self.scores_[order] = np.diff(path_arr)
        fraction = 1.0 if self.alignment_fraction is None else self.alignment_fraction
        r = self._prefix_length(path_arr, fraction)
        self.support_ = self.support_for_size(fraction)
        self.n_iter_ = len(order)
        self.diagnostics_.update(
            objective=float(path_arr[r]), path=path, message=f"{len(order)} added, kept {self.support_.sum()}"
        )

    def _prefix_length(self, path_arr: np.ndarray, fraction: float) -> int:
        """r: the first point of the path whose alignment reaches ``fraction`` of the final one."""
        return int(np.argmax(path_arr >= fraction * path_arr[-1] - 1e-15)) if self.order_.size else 0

    def support_for_size(self, fraction: float) -> np.ndarray:
        """The selection this fit gives at ``alignment_fraction = fraction``: the first max(r, 1) added
        features (feature 0 when none was added: every column orthogonal to the labels)."""
        if not 0 < fraction <= 1:
            raise ValueError(f"alignment_fraction must be in (0, 1], got {fraction}")
        support = np.zeros(self.ranking_.size, dtype=bool)
        r = self._prefix_length(self.path_, fraction)
        support[self.order_[: max(r, 1)]] = True
        if not self.order_.size:
            support[0] = True
        return support
