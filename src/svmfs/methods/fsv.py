"""FSV: Bradley & Mangasarian's concave feature selection (Maldonado et al. 2011, eqs. 8-9).

Problem (9): min sum_j [1 - exp(-beta v_j)] + C sum_i xi_i over the 1-norm SVM's constraints
(y_i(w.x_i + b) >= 1 - xi_i, -v <= w <= v, xi >= 0). The successive linearization algorithm (SLA)
replaces the concave term by its linearization at v^k and solves the LP

    min  sum_j beta exp(-beta v^k_j) v_j + C sum_i xi_i

to a vertex (HiGHS dual simplex); it stops when the vertex repeats, which happens after finitely
many steps (Bradley & Mangasarian 1998). Start: v^0 = 0 (the first LP is the 1-norm SVM scaled by
beta). A feature is kept when v_j > ``threshold``.
"""

from __future__ import annotations

import numpy as np

from ..solvers.linear_programs import weighted_l1_svm
from .base import COUNT, POSITIVE, LinearModelSelector


class FSV(LinearModelSelector):
    """Feature Selection concaVe by successive linearization.

    Parameters
    ----------
    C : float
        Weight of the slacks.
    beta : float
        Parameter of the exponential approximation of the zero-norm (eq. 8); default 5.
    threshold : float
        v_j above it marks feature j as selected.
    max_iter : int
        SLA iterations before stopping with status ``max_iter``.

    Attributes
    ----------
    support_ : ndarray of bool of shape (n_features,)
        The kept features.
    weights_ : ndarray of shape (n_features,)
        The model's weight of each feature (0 off the support).
    intercept_ : float
        With ``weights_``, the hyperplane the method solved (the final classifier ``own`` scores it).
    n_iter_ : int
        Iterations of the method's outer loop.
    diagnostics_ : dict
        ``status``, ``objective``, ``n_iter``, ``message`` and ``time_s`` (:mod:`svmfs.methods.base`).

    References
    ----------
    Bradley & Mangasarian (1998); Maldonado et al. (2011), eqs. 8-9.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(40, 6))
    >>> y = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(int)
    >>> from svmfs.methods.fsv import FSV
    >>> sel = FSV().fit(X, y)
    >>> sel.get_support().nonzero()[0].tolist()
    [0, 1]
    """

    _parameter_constraints = {"C": [POSITIVE], "beta": [POSITIVE], "threshold": [POSITIVE], "max_iter": [COUNT]}

    def __init__(self, C=1.0, beta=5.0, threshold=1e-6, max_iter=50):
        self.C = C
        self.beta = beta
        self.threshold = threshold
        self.max_iter = max_iter

    def _fit(self, X, y):
        v = np.zeros(X.shape[1])
        path = []
        status = "max_iter"
        for it in range(1, self.max_iter + 1):
            res = weighted_l1_svm(X, y, self.beta * np.exp(-self.beta * v), C=self.C)
            if res.status != "ok":
                status = res.status
                break
            concave = float(np.sum(1 - np.exp(-self.beta * res.z)) + self.C * res.xi.sum())
            path.append({"objective": concave, "n_selected": int(np.sum(res.z > self.threshold))})
            repeated = np.allclose(res.z, v, rtol=0, atol=1e-9 * max(1.0, np.abs(v).max()))
            v, w, b = res.z, res.w, res.b
            if repeated:
                status = "ok"
                break
        self.n_iter_ = it
        self.weights_ = w if path else np.zeros(X.shape[1])
        self.intercept_ = b if path else 0.0
        self.support_ = v > self.threshold
        self.diagnostics_.update(status=status, objective=path[-1]["objective"] if path else None, path=path)
