"""KP-SVM for feature ranking: Algorithm 2 of Maldonado, Weber & Basak (2011), section 4.3.

Algorithm 2 iterates Algorithm 1 until at most r features have v_j > 0 (k of them), then puts back the
r - k features of the last eliminated batch with the largest v^t. Section 7 turns this into a ranking:
features eliminated later rank better, and within one iteration's batch the larger last v_j ranks
better; the survivors rank first by decreasing v. That is :class:`~svmfs.methods.kp_svm.KPSVM`'s
``ranking_``, and truncating it to r gives exactly Algorithm 2's selection for every r reached by the
elimination (the first iteration with k <= r keeps the k survivors plus the r - k best of its batch).

Choices: one run of Algorithm 1 (its stopping rule) gives the whole ranking, so the tuner can score
every r from one fit (``ranks_all_features``). For r below the number of features left at convergence
(where the paper says Algorithm 2 "is not valid"), the r survivors with the largest v are kept.
"""

from __future__ import annotations

from .base import COUNT, support_from_ranking
from .kp_svm import KPSVM


class KPSVMRank(KPSVM):
    """KP-SVM ranking (Algorithm 2): selection of ``n_features_to_select`` read off the elimination order.

    Parameters are those of :class:`~svmfs.methods.kp_svm.KPSVM` plus

    n_features_to_select : int or None
        r of Algorithm 2; ``None`` keeps the features with v > 0 at convergence (Algorithm 1).

    Attributes
    ----------
    support_ : ndarray of bool of shape (n_features,)
        The kept features.
    ranking_ : ndarray of int of shape (n_features,)
        1 = most important; the tuner reads smaller selections off it.
    diagnostics_ : dict
        ``status``, ``objective``, ``n_iter``, ``message`` and ``time_s`` (:mod:`svmfs.methods.base`).

    References
    ----------
    Maldonado, Weber & Basak (2011), Algorithm 2 (section 4.3) and the ranking of section 7.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(40, 6))
    >>> y = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(int)
    >>> from svmfs.methods.kp_svm_rank import KPSVMRank
    >>> sel = KPSVMRank(n_features_to_select=2).fit(X, y)
    >>> sel.get_support().nonzero()[0].tolist()
    [0, 1]
    """

    ranks_all_features = True

    _parameter_constraints = {**KPSVM._parameter_constraints, "n_features_to_select": [COUNT, None]}

    def __init__(
        self, n_features_to_select=None, C=None, C2=1.0, v0=None, step=0.25, step_scale="shrink", beta=5.0, eps=None,
        v_max=None, tol=1e-3, max_iter=200, n_folds=5, random_state=0,
    ):
        super().__init__(
            C=C, C2=C2, v0=v0, step=step, step_scale=step_scale, beta=beta, eps=eps, v_max=v_max, tol=tol, max_iter=max_iter,
            n_folds=n_folds, random_state=random_state,
        )
        self.n_features_to_select = n_features_to_select

    def _fit(self, X, y):
        super()._fit(X, y)
        if self.n_features_to_select is not None:
            self.support_ = support_from_ranking(self.ranking_, self.n_features_to_select)
