"""Fisher criterion score filter (Maldonado, Weber & Basak 2011, eq. 5; three or more classes: the ratio of
between-class to within-class variance, Duda, Hart & Stork 2001 section 3.8.3, as Gu, Li & Han 2011, eq. 1)."""

from __future__ import annotations

import numpy as np

from .base import COUNT, BaseSelector, ranking_from_scores, support_from_ranking


def fisher_scores(X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """F(j) = |mu_j+ - mu_j-| / (sigma_j+^2 + sigma_j-^2), eq. (5), y in {-1, +1}.

    Standard deviations are the population ones (ddof=0). A feature constant within both classes
    has a zero denominator: its score is +inf when the class means differ and 0 when they do not.
    """
    pos, neg = X[y > 0], X[y < 0]
    num = np.abs(pos.mean(axis=0) - neg.mean(axis=0))
    den = pos.var(axis=0) + neg.var(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        scores = np.where(den > 0, num / np.where(den > 0, den, 1.0), np.where(num > 0, np.inf, 0.0))
    return scores


def fisher_scores_multiclass(X: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """F(j) = sum_k n_k (mu_jk - mu_j)^2 / sum_k n_k sigma_jk^2, the between-class over the within-class
    scatter of feature j (Duda, Hart & Stork 2001, section 3.8.3; the Fisher score of Gu, Li & Han 2011, eq. 1),
    classes ``codes`` in 0..K-1, population variances (ddof=0). A zero denominator scores +inf when the
    class means differ and 0 when they do not, as :func:`fisher_scores`.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0, 1.0], [0.2, 3.0], [5.0, 1.2], [5.2, 2.8], [10.0, 1.1], [10.2, 2.9]])
    >>> fisher_scores_multiclass(X, np.array([0, 0, 1, 1, 2, 2])).round(2).tolist()
    [1666.67, 0.0]
    """
    mu = X.mean(axis=0)
    num = np.zeros(X.shape[1])
    den = np.zeros(X.shape[1])
    for k in np.unique(codes):
        Xk = X[codes == k]
        num += Xk.shape[0] * (Xk.mean(axis=0) - mu) ** 2
        den += Xk.shape[0] * Xk.var(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.where(num > 0, np.inf, 0.0))


class FisherScore(BaseSelector):
    """Rank features by the Fisher score (eq. 5) and keep the ``n_features_to_select`` best.

    Parameters
    ----------
    n_features_to_select : int or None
        Features kept; ``None`` keeps all (the ranking is still computed). Tuned by inner CV.

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
    Two classes: eq. (5). Three or more classes: :func:`fisher_scores_multiclass`, the between/within-class
    variance ratio (the estimator's tags declare ``multi_class``).

    References
    ----------
    Maldonado, Weber & Basak (2011), eq. 5. Duda, Hart & Stork (2001), Pattern Classification, section 3.8.3.
    Gu, Li & Han (2011), Generalized Fisher score for feature selection, UAI, eq. 1.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(40, 6))
    >>> y = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(int)
    >>> from svmfs.methods.fisher import FisherScore
    >>> sel = FisherScore(n_features_to_select=2).fit(X, y)
    >>> sel.get_support().nonzero()[0].tolist()
    [0, 1]
    """

    ranks_all_features = True
    multi_class = True

    _parameter_constraints = {"n_features_to_select": [COUNT, None]}

    def __init__(self, n_features_to_select: int | None = None):
        self.n_features_to_select = n_features_to_select

    def _fit(self, X, y):
        self._keep(fisher_scores(X, y))

    def _fit_multiclass(self, X, codes):
        self._keep(fisher_scores_multiclass(X, codes))

    def _keep(self, scores):
        self.scores_ = scores
        self.ranking_ = ranking_from_scores(self.scores_)
        self.support_ = support_from_ranking(self.ranking_, self.n_features_to_select)
