"""Correlation filters: Golub signal-to-noise ratio or |Pearson| correlation with the labels.

Catala & Martin (section 5) name correlation among the ranking measures that capture only linear
relations; this is the baseline filter. Signal-to-noise (Golub et al. 1999):
S(j) = |mu_j+ - mu_j-| / (sd_j+ + sd_j-).
"""

from __future__ import annotations

import numpy as np
from sklearn.utils._param_validation import StrOptions

from .base import COUNT, BaseSelector, ranking_from_scores, support_from_ranking

MEASURES = ("s2n", "pearson")


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """num / den with 0/0 -> 0 and x/0 -> +inf (a feature constant within each class)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.where(num > 0, np.inf, 0.0))


def correlation_scores(X: np.ndarray, y: np.ndarray, measure: str = "s2n") -> np.ndarray:
    """Per-feature |S2N| (population standard deviations, ddof=0) or |Pearson r| with y in {-1, +1}."""
    if measure == "s2n":
        pos, neg = X[y > 0], X[y < 0]
        return _ratio(np.abs(pos.mean(0) - neg.mean(0)), pos.std(0) + neg.std(0))
    if measure == "pearson":
        Xc, yc = X - X.mean(0), y - y.mean()
        r = _ratio(np.abs(yc @ Xc), np.sqrt((Xc**2).sum(0) * (yc @ yc)))
        return np.where(np.isinf(r), 0.0, r)  # a constant feature has no correlation
    raise ValueError(f"measure must be one of {MEASURES}, got {measure!r}")


def filter_support(scores: np.ndarray, ranking: np.ndarray, n_features_to_select: int | None) -> np.ndarray:
    """The ``n_features_to_select`` best-ranked features; for ``None`` the features scoring above the
    mean score (at least the best one). Choice shared by the svmfs filters of Catala & Martin's
    comparison (osFSA, IG, correlation): the workflow truncates the ranking anyway."""
    if n_features_to_select is not None:
        return support_from_ranking(ranking, n_features_to_select)
    s = np.asarray(scores, dtype=float)
    fin = np.isfinite(s)
    if not fin.all():  # +inf scores count as just above the best finite one
        s = np.where(fin, s, s[fin].max() + 1.0 if fin.any() else 1.0)
    return (s > s.mean()) | (ranking == 1)


class Correlation(BaseSelector):
    """Rank features by signal-to-noise ratio or |Pearson r| and keep the best.

    Parameters
    ----------
    n_features_to_select : int or None
        Features kept; ``None`` keeps those scoring above the mean score (see :func:`filter_support`).
    measure : {"s2n", "pearson"}
        Golub signal-to-noise ratio or absolute Pearson correlation (not named ``score``: scikit-learn
        reads an attribute ``score`` as the estimator's scoring method).

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

    References
    ----------
    Golub signal-to-noise / |Pearson| filter (Catala & Martin, section 5, 'correlation').

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(40, 6))
    >>> y = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(int)
    >>> from svmfs.methods.correlation import Correlation
    >>> sel = Correlation(n_features_to_select=2).fit(X, y)
    >>> sel.get_support().nonzero()[0].tolist()
    [0, 1]
    """

    ranks_all_features = True

    _parameter_constraints = {"n_features_to_select": [COUNT, None], "measure": [StrOptions(set(MEASURES))]}

    def __init__(self, n_features_to_select: int | None = None, measure: str = "s2n"):
        self.n_features_to_select = n_features_to_select
        self.measure = measure

    def _fit(self, X, y):
        self.scores_ = correlation_scores(X, y, self.measure)
        self.ranking_ = ranking_from_scores(self.scores_)
        self.support_ = filter_support(self.scores_, self.ranking_, self.n_features_to_select)
