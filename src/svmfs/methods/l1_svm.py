"""1-norm SVM (MIT 9.520 project, section 3.1): the LP min sum z + C sum xi, solved by HiGHS.

Fits on one array X at several C (the inner CV's grid on one inner fold, the ``test_tuned`` audit's on the training
side) share one LP warm-started from C to C (:func:`~svmfs.solvers.l1_svm_path.l1_svm_lp`: the same vertex as a
cold solve, or the cold solve itself where the optimum may not be unique).
"""

from __future__ import annotations

import numpy as np

from ..solvers.l1_svm_path import l1_svm_lp
from ..solvers.linear_programs import support_of, weighted_l1_svm
from .base import POSITIVE, LinearModelSelector


def l1_svm_path(X, y, Cs):
    """Solutions of the 1-norm SVM LP for each C (ascending order is the natural path).

    Each point is a fresh (cold) dual-simplex solve, kept so for the figures drawn from it; the path is a
    convenience for plotting sparsity against C. Fits of :class:`L1SVM` warm-start along C instead
    (:mod:`svmfs.solvers.l1_svm_path`).
    """
    return [weighted_l1_svm(X, y, np.ones(X.shape[1]), C=C) for C in Cs]


class L1SVM(LinearModelSelector):
    """1-norm SVM; keeps feature j when |w_j| > ``threshold`` (default 1e-2, Jimenez-Cordero 5.2).

    Parameters
    ----------
    C : float
        Weight of the hinge losses (the LP's sum of slacks).
    threshold : float
        A feature is selected when |w_j| exceeds it.
    refit_selected : bool
        False (default): ``weights_`` and ``intercept_`` are the LP's solution on every feature, the
        hyperplane the final classifier ``own`` scores. True: the LP is solved again at the same C on the
        selected columns only and that hyperplane is kept (zero outside the selection; ``support_`` is
        still the first solve's): Jimenez-Cordero et al. (2021), section 5.2, "recomputing the classifier
        that this method provides with those selected features only", read as the l1-SVM itself
        (docs/protocols/jimenez2021.md).

    Attributes
    ----------
    support_ : ndarray of bool of shape (n_features,)
        The kept features.
    weights_ : ndarray of shape (n_features,)
        The model's weight of each feature (0 off the support).
    intercept_ : float
        With ``weights_``, the hyperplane the method solved (the final classifier ``own`` scores it).
    diagnostics_ : dict
        ``status``, ``objective``, ``n_iter``, ``message`` and ``time_s`` (:mod:`svmfs.methods.base`).

    References
    ----------
    MIT 9.520 project, section 3.1 (1-norm SVM LP); threshold 1e-2 (Jimenez-Cordero 5.2).

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(40, 6))
    >>> y = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(int)
    >>> from svmfs.methods.l1_svm import L1SVM
    >>> sel = L1SVM(C=1.0).fit(X, y)
    >>> {0, 1} <= set(sel.get_support().nonzero()[0].tolist())
    True
    """

    _parameter_constraints = {"C": [POSITIVE], "threshold": [POSITIVE], "refit_selected": ["boolean"]}

    def __init__(self, C=1.0, threshold=1e-2, refit_selected=False):
        self.C = C
        self.threshold = threshold
        self.refit_selected = refit_selected

    def _fit(self, X, y):
        res = l1_svm_lp(X, y, np.ones(X.shape[1]), C=self.C)
        self.weights_ = res.w
        self.intercept_ = res.b
        self.support_ = support_of(res.w, self.threshold)
        self.diagnostics_.update(status=res.status, objective=res.objective, message=str(res.message))
        if self.refit_selected and self.support_.any():
            again = weighted_l1_svm(X[:, self.support_], y, np.ones(int(self.support_.sum())), C=self.C)
            self.weights_ = np.zeros(X.shape[1])
            self.weights_[self.support_] = again.w
            self.intercept_ = again.b
            self.diagnostics_.update(refit_objective=again.objective)
            if again.status != "ok":
                self.diagnostics_.update(status=again.status, message=f"refit on the selected features: {again.message}")
