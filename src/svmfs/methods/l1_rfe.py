"""1-norm RFE (MIT 9.520 project, section 3.2): SVM-RFE run on the support of the 1-norm SVM."""

from __future__ import annotations

import numpy as np

from ..solvers.l1_svm_path import l1_svm_lp
from ..solvers.linear_programs import support_of
from .base import COUNT, POSITIVE, RFE_STEP, SWITCH_AT, OwnSVMAtSize
from .svm_rfe import SVMRFE


class L1RFE(OwnSVMAtSize):
    """Polish the 1-norm SVM's support with SVM-RFE.

    ``ranking_`` orders every feature: the 1-norm support first, in SVM-RFE's order, then the
    features the 1-norm SVM dropped, by decreasing |w_j| (ties by index). The selection is the
    ``n_features_to_select`` best-ranked features, never more than the 1-norm support.

    Parameters
    ----------
    C : float
        Penalty of both the 1-norm SVM LP and the linear SVM of the RFE (the project shares one C).
    n_features_to_select : int or None
        Size of the selection; ``None`` keeps the whole 1-norm support.
    threshold, step, switch_at : as in :class:`L1SVM` and :class:`SVMRFE`.

    Attributes
    ----------
    support_ : ndarray of bool of shape (n_features,)
        The kept features.
    ranking_ : ndarray of int of shape (n_features,)
        1 = most important; the tuner reads smaller selections off it.
    weights_ : ndarray of shape (n_features,)
        The 1-norm SVM's weight of each feature (0 off the support); once the final classifier ``own``
        scores the fit, w of the linear SVM with this ``C`` on the selected features, the SVM the RFE on the
        1-norm support ends with at that size (MIT 9.520 project, secs. 3.2 and 4.1).
    intercept_ : float
        b of that SVM, set when ``own`` scores the fit
        (:class:`~svmfs.methods.base.OwnSVMAtSize`).
    diagnostics_ : dict
        ``status``, ``objective``, ``n_iter``, ``message`` and ``time_s`` (:mod:`svmfs.methods.base`).

    References
    ----------
    MIT 9.520 project, section 3.2 (1-norm RFE).

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(40, 6))
    >>> y = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(int)
    >>> from svmfs.methods.l1_rfe import L1RFE
    >>> sel = L1RFE(C=1.0, n_features_to_select=2).fit(X, y)
    >>> sel.get_support().nonzero()[0].tolist()
    [0, 1]
    """

    ranks_all_features = True

    _parameter_constraints = {
        "C": [POSITIVE],
        "n_features_to_select": [COUNT, None],
        "threshold": [POSITIVE],
        "step": RFE_STEP,
        "switch_at": [SWITCH_AT],
    }

    def __init__(self, C=1.0, n_features_to_select=None, threshold=1e-2, step=0.1, switch_at=100):
        self.C = C
        self.n_features_to_select = n_features_to_select
        self.threshold = threshold
        self.step = step
        self.switch_at = switch_at

    def _fit(self, X, y):
        res = l1_svm_lp(X, y, np.ones(X.shape[1]), C=self.C)  # warm-started over the C grid on one X (L1SVM)
        keep = np.flatnonzero(support_of(res.w, self.threshold))
        p = X.shape[1]
        ranking = np.empty(p, dtype=np.int64)
        if keep.size:
            rfe = SVMRFE(C=self.C, step=self.step, switch_at=self.switch_at).fit(X[:, keep], y)
            ranking[keep] = rfe.ranking_
        rest = np.setdiff1d(np.arange(p), keep)
        order = rest[np.lexsort((rest, -np.abs(res.w[rest])))]
        ranking[order] = np.arange(keep.size + 1, p + 1)
        self.ranking_ = ranking
        self.weights_ = res.w
        self.l1_support_size_ = int(keep.size)
        self.support_ = self.support_for_size(self.n_features_to_select)
        self.diagnostics_.update(status=res.status, objective=res.objective, message=str(res.message), l1_support=int(keep.size))
        self._keep_rows(X, y)

    def support_for_size(self, k):
        """The ``k`` best-ranked features, never beyond the 1-norm SVM's support."""
        k = self.l1_support_size_ if k is None else min(int(k), self.l1_support_size_)
        return self.ranking_ <= k
