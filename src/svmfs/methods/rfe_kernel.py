"""Nonlinear SVM-RFE with a Gaussian kernel (Guyon et al. 2002, as stated by Maldonado, Weber & Basak
2011, section 3, eqs. 6-7).

Each step trains the SVM dual on the RBF kernel K_is = exp(-gamma ||x_i - x_s||^2) of the active
features, then, with alpha fixed, removes the feature(s) p with the smallest |W^2(alpha) - W^2_(-p)(alpha)|
(eq. 7: kernel recomputed without p, the other widths unchanged). Removing p multiplies K_is by
exp(gamma (x_ip - x_sp)^2), so all candidates are scored from one kernel
(:func:`~svmfs.solvers.anisotropic.w2_removal_changes`), and the kernel of the active set is downdated
(:class:`~svmfs.solvers.anisotropic.SqDistSum`) instead of recomputed.

Choices: the paper removes one feature per iteration; as in :mod:`svmfs.methods.svm_rfe` (same
:func:`~svmfs.methods.svm_rfe.rfe_schedule`), ``ceil(step * remaining)`` features go per iteration while
more than ``switch_at`` remain, then one at a time, down to one feature so that ``ranking_`` is a full
permutation. gamma stays fixed during the elimination (Guyon's criterion compares kernels with one width);
``gamma=None`` takes sklearn's "scale" value 1 / (n_features * X.var()) of the full training data.
Ties: the higher feature index goes first.
"""

from __future__ import annotations

import numpy as np
from sklearn.svm import SVC

from ..solvers.anisotropic import SqDistSum, w2_removal_changes
from .base import COUNT, POSITIVE, RFE_STEP, SWITCH_AT, BaseSelector, support_from_ranking
from .svm_rfe import rfe_schedule


class RFEKernel(BaseSelector):
    """Recursive feature elimination by the change of W^2(alpha) of a Gaussian-kernel SVM (eqs. 6-7).

    Parameters
    ----------
    C : float
        SVM penalty.
    gamma : float or None
        RBF width, K = exp(-gamma ||x - x'||^2); ``None`` = 1 / (n_features * X.var()).
    n_features_to_select : int or None
        Size of the selection read off the ranking; ``None`` keeps all.
    step : float
        Fraction of the remaining features removed per iteration while more than ``switch_at`` remain.
    switch_at : int
        From this many remaining features on, one feature is removed per iteration.

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
    Guyon et al. (2002) nonlinear SVM-RFE as in Maldonado, Weber & Basak (2011), section 3, eqs. 6-7.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(80, 6))
    >>> y = (X[:, 0] ** 2 + X[:, 1] ** 2 > 1.4).astype(int)
    >>> from svmfs.methods.rfe_kernel import RFEKernel
    >>> sel = RFEKernel(C=100.0, gamma=0.3, n_features_to_select=2).fit(X, y)
    >>> sel.get_support().nonzero()[0].tolist()
    [0, 1]
    """

    ranks_all_features = True

    _parameter_constraints = {
        "C": [POSITIVE],
        "gamma": [POSITIVE, None],
        "n_features_to_select": [COUNT, None],
        "step": RFE_STEP,
        "switch_at": [SWITCH_AT],
    }

    def __init__(self, C=1.0, gamma=None, n_features_to_select=None, step=0.1, switch_at=100):
        self.C = C
        self.gamma = gamma
        self.n_features_to_select = n_features_to_select
        self.step = step
        self.switch_at = switch_at

    def _fit(self, X, y):
        p = X.shape[1]
        var = X.var()
        gamma = self.gamma if self.gamma is not None else (1.0 / (p * var) if var > 0 else 1.0)
        dist = SqDistSum(X, gamma)
        active = np.arange(p)
        ranking = np.zeros(p, dtype=np.int64)
        next_rank, iters = p, 0
        self.scores_ = np.zeros(p)
        for n_remove in rfe_schedule(p, self.step, self.switch_at):
            K = dist.kernel()
            svc = SVC(C=self.C, kernel="precomputed").fit(K, y)
            c = np.zeros(y.size)
            c[svc.support_] = svc.dual_coef_.ravel()
            change = w2_removal_changes(X[:, active], c, K, gamma)
            if iters == 0:
                self.scores_ = change  # criterion of eq. 7 on all features, first step
            order = np.lexsort((-active, change))  # smallest change first; ties: higher index first
            removed = order[:n_remove]
            ranking[active[removed]] = np.arange(next_rank, next_rank - n_remove, -1)
            next_rank -= n_remove
            dist.remove(active[removed])
            active = np.delete(active, removed)
            iters += 1
        ranking[active] = 1
        self.gamma_ = gamma
        self.ranking_ = ranking
        self.n_iter_ = iters
        self.support_ = support_from_ranking(ranking, self.n_features_to_select)
