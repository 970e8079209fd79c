"""Information gain filter (the IG baseline of Catala & Martin, section 4.1, after Forman 2003).

IG(j) = H(Y) - H(Y | B_j) in bits, where B_j is feature j discretised into ``n_bins``
equal-frequency bins (edges at the empirical quantiles; tied values share a bin, so a feature with
few distinct values gets fewer bins).
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
from sklearn.utils._param_validation import Interval

from .base import COUNT, BaseSelector, ranking_from_scores
from .correlation import filter_support


def _entropy(counts: np.ndarray) -> np.ndarray:
    """Entropy in bits of the count vectors along the last axis (0 log 0 = 0)."""
    total = counts.sum(-1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(total > 0, counts / np.where(total > 0, total, 1), 0.0)
        return -np.sum(np.where(p > 0, p * np.log2(np.where(p > 0, p, 1.0)), 0.0), axis=-1)


def equal_frequency_bins(x: np.ndarray, n_bins: int) -> np.ndarray:
    """Bin index of each value: bins separated at the interior quantiles of ``x``."""
    edges = np.unique(np.quantile(x, np.linspace(0.0, 1.0, n_bins + 1)[1:-1]))
    return np.searchsorted(edges, x, side="right")


def information_gain(X: np.ndarray, y: np.ndarray, n_bins: int = 10) -> np.ndarray:
    """IG of the labels (y in {-1, +1}) given each equal-frequency-discretised feature."""
    return information_gain_codes(X, (y > 0).astype(int), 2, n_bins)


def information_gain_codes(X: np.ndarray, codes: np.ndarray, n_classes: int, n_bins: int = 10) -> np.ndarray:
    """IG(j) = H(Y) - H(Y | B_j) in bits for classes ``codes`` in 0..n_classes-1: the class entropy over all
    K classes (Quinlan 1986; Forman 2003, its multiclass form), two classes being the {-1, +1} case of
    :func:`information_gain` (codes 0 = -1, 1 = +1).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0, 1.0], [0.1, 0.0], [1.0, 1.0], [1.1, 0.0], [2.0, 1.0], [2.1, 0.0]])
    >>> information_gain_codes(X, np.array([0, 0, 1, 1, 2, 2]), 3, n_bins=3).round(3).tolist()
    [1.585, 0.0]
    """
    codes = np.asarray(codes, dtype=int)
    h_y = _entropy(np.bincount(codes, minlength=n_classes)[None, :].astype(float))[0]
    scores = np.empty(X.shape[1])
    for j in range(X.shape[1]):
        b = equal_frequency_bins(X[:, j], n_bins)
        table = np.bincount(b * n_classes + codes, minlength=n_classes * n_bins).reshape(-1, n_classes).astype(float)
        scores[j] = h_y - np.sum(table.sum(1) / codes.size * _entropy(table))
    return np.maximum(scores, 0.0)


class InfoGain(BaseSelector):
    """Rank features by information gain and keep the best.

    Parameters
    ----------
    n_features_to_select : int or None
        Features kept; ``None`` keeps those scoring above the mean score (see correlation.filter_support).
    n_bins : int
        Number of equal-frequency bins per feature.

    Attributes
    ----------
    support_ : ndarray of bool of shape (n_features,)
        The kept features.
    ranking_ : ndarray of int of shape (n_features,)
        1 = most important; the tuner reads smaller selections off it.
    scores_ : ndarray of shape (n_features,)
        The per-feature score the selection ranks by.
    diagnostics_ : dict
        ``status``, ``objective``, ``n_iter``, ``message`` and ``time_s`` (:mod:`svmfs.methods.base`).

    Notes
    -----
    Three or more classes: :func:`information_gain_codes` with the entropy of all K classes (the estimator's
    tags declare ``multi_class``).

    References
    ----------
    Information gain baseline of Catala & Martin, section 4.1 (Forman 2003).

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(40, 6))
    >>> y = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(int)
    >>> from svmfs.methods.info_gain import InfoGain
    >>> sel = InfoGain(n_features_to_select=2).fit(X, y)
    >>> sel.get_support().nonzero()[0].tolist()
    [0, 1]
    """

    ranks_all_features = True
    multi_class = True

    _parameter_constraints = {"n_features_to_select": [COUNT, None], "n_bins": [Interval(Integral, 2, None, closed="left")]}

    def __init__(self, n_features_to_select: int | None = None, n_bins: int = 10):
        self.n_features_to_select = n_features_to_select
        self.n_bins = n_bins

    def _fit(self, X, y):
        self._keep(information_gain(X, y, int(self.n_bins)))

    def _fit_multiclass(self, X, codes):
        self._keep(information_gain_codes(X, codes, int(codes.max()) + 1, int(self.n_bins)))

    def _keep(self, scores):
        self.scores_ = scores
        self.ranking_ = ranking_from_scores(self.scores_)
        self.support_ = filter_support(self.scores_, self.ranking_, self.n_features_to_select)
