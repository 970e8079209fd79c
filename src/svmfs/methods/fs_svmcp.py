"""FS-SVMCP: linear SVM + one Frank-Wolfe step on a concave zero-norm approximation, repeated in
shrinking subspaces (Rinaldi & Sciandrone 2010, Algorithm FS-SVMCP, section 4.1), and FW1, the
plain Frank-Wolfe method with unit stepsize on problem (16) (section 3).

Step 1: the SVM (14) (hinge loss, L2; LinearSVC as the paper's LIBLINEAR) on the active features,
C chosen by an inner stratified CV over ``C_grid`` at every iteration (section 5.1; on the data
passed to ``fit`` only); by default every training point's slack is penalized, as in (5) (``svm_rows``:
(14) as printed penalizes only those of the previous iteration's I). Step 2: I = {i : xi*_i < 1} (the points the SVM classifies correctly),
z* = |w*|, and a vertex solution of the LP (15), min grad F(z*).z s.t. y_i(w.x_i + b) >= 1 (i in I),
-z <= w <= z, by HiGHS's dual simplex. If ||w_hat||_0 < ||w*||_0 the features with w_hat_j = 0 are
removed and the algorithm repeats; otherwise it returns the SVM of step 1.
Default concave function: (11) with eps = 1e-6, p = 1 (the paper's eq. 17).

Choices: w_hat_j counts as zero when |w_hat_j| <= ``zero_tol`` * max|w_hat|; ||w*||_0 counts the
nonzero SVM weights exactly (LinearSVC weights are almost never exactly zero). An LP solution with
no nonzero weight (possible only when I holds a single class) ends the algorithm like no reduction.
"""

from __future__ import annotations

from numbers import Real

import numpy as np
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.svm import LinearSVC
from sklearn.utils._param_validation import Interval, StrOptions

from ..solvers.concave import CONCAVE, check_concave, concave_gradient, concave_value
from ..solvers.linear_programs import LP_SOLVERS, weighted_l1_svm
from .base import COUNT, FOLDS, POSITIVE, LinearModelSelector

DEFAULT_C_GRID = (0.01, 0.1, 1.0, 10.0, 100.0)


def _svm(C, max_iter):
    return LinearSVC(C=C, loss="hinge", dual=True, max_iter=max_iter, random_state=0)


#: Tie rules of the C choice (``C_ties``). The paper names none: "The value of C which gives the lowest
#: cross-validation error rate is selected" (section 2; docs/protocols/rinaldi2010.md).
C_TIE_RULES = ("smallest", "largest")

#: Whose slacks the step-1 SVM penalizes (``svm_rows``): "all" training points, as problem (5) of section 2
#: (every campaign's), or "I", problem (14) as printed: "C sum_{i in I} xi^i".
SVM_ROWS = ("all", "I")


def _tuned_svm(X, y, C_grid, cv, seed, max_iter, C_ties="smallest"):
    """Step 1: linear SVM with C by stratified k-fold CV (section 2: the lowest CV error rate).

    Ties in CV accuracy: ``C_ties="smallest"`` takes the first best C in grid order (the smallest C of an
    ascending grid, every campaign's); ``"largest"`` the largest C among the best."""
    if C_ties not in C_TIE_RULES:
        raise ValueError(f"C_ties must be one of {', '.join(C_TIE_RULES)}, got {C_ties!r}")
    if len(C_grid) == 1:
        C = C_grid[0]
    else:
        folds = StratifiedKFold(n_splits=min(cv, int(min(np.sum(y > 0), np.sum(y < 0)))), shuffle=True, random_state=seed)
        scores = np.round([cross_val_score(_svm(C, max_iter), X, y, cv=folds).mean() for C in C_grid], 12)
        if C_ties == "smallest":
            C = C_grid[int(np.argmax(scores))]
        else:
            C = max(c for c, s in zip(C_grid, scores) if s == scores.max())
    svm = _svm(C, max_iter).fit(X, y)
    return svm, C


class _ConcaveBase(LinearModelSelector):
    """Shared parameters (documented on FSSVMCP) and the LP step of FS-SVMCP and FW1."""


    _parameter_constraints = {
        "C_grid": ["array-like"],
        "concave": [StrOptions(set(CONCAVE))],
        "eps": [POSITIVE],
        "p": [POSITIVE],  # and by formulation: 0 < p < 1 for (10), p >= 1 for (11) (checked at fit)
        "alpha": [POSITIVE],
        "cv": [FOLDS],
        "zero_tol": [Interval(Real, 0, None, closed="left")],
        "max_iter": [COUNT],
        "svm_max_iter": [COUNT],
        "random_state": ["random_state"],
        "C_ties": [StrOptions(set(C_TIE_RULES))],
        "svm_rows": [StrOptions(set(SVM_ROWS))],
        "lp_solver": [StrOptions(set(LP_SOLVERS))],
    }

    def __init__(self, C_grid=DEFAULT_C_GRID, concave="inverse", eps=1e-6, p=1.0, alpha=5.0, cv=5,
                 zero_tol=1e-8, max_iter=100, svm_max_iter=10000, random_state=0, C_ties="smallest",
                 svm_rows="all", lp_solver="highs"):  # fmt: skip
        self.C_grid = C_grid
        self.lp_solver = lp_solver
        self.C_ties = C_ties
        self.svm_rows = svm_rows
        self.concave = concave
        self.eps = eps
        self.p = p
        self.alpha = alpha
        self.cv = cv
        self.zero_tol = zero_tol
        self.max_iter = max_iter
        self.svm_max_iter = svm_max_iter
        self.random_state = random_state

    def _lp_step(self, X, y, z_star, rows):
        grad = concave_gradient(z_star, self.concave, self.eps, self.p, self.alpha)
        return weighted_l1_svm(X, y, grad, C=None, rows=rows, solver=self.lp_solver)

    def _zero(self, w):
        return np.abs(w) <= self.zero_tol * max(np.abs(w).max(), 1e-300)


class FSSVMCP(_ConcaveBase):
    """Algorithm FS-SVMCP (section 4.1).

    Parameters
    ----------
    C_grid : sequence of float
        Grid of the SVM's C, chosen by ``cv``-fold CV at every iteration (a single value fixes C).
    concave : {"inverse", "exp", "log", "power"}
        The concave function: (11), (8), (9) or (10).
    eps, p, alpha : float
        Their parameters (eps = 1e-6 and p = 1 for (11); alpha for (8)).
    cv : int
        Folds of the inner CV choosing C.
    C_ties : {"smallest", "largest"}
        Which C wins a tie in CV accuracy: the first best in grid order (default; the smallest C of an
        ascending grid) or the largest best C (the paper names no rule).
    svm_rows : {"all", "I"}
        Whose slacks the step-1 SVM penalizes. "all" (default): every training point, the SVM (5) of
        section 2 on the active features. "I": problem (14) as printed, "C sum_{i in I} xi^i" with the
        constraints on every point: I is the set of step 2 of the previous iteration (every point at the
        first), so the SVM and its CV choosing C are fitted on the rows of I only (a point outside I has a
        free slack, hence no influence); step 2 then takes I = {i : xi*_i < 1} over all N points, xi*_i
        the smallest feasible slack max(0, 1 - y_i(w*.x_i + b*)).
    zero_tol : float
        Relative tolerance below which a component of w_hat counts as zero.
    lp_solver : {"highs", "glpk"}
        Who solves the LP (15) to a vertex: HiGHS's dual simplex (default) or GLPK's simplex, the paper's
        solver (sec. 5.1: "solved using GLPK (4.9)"; cvxopt's GLPK). Where (15) has several optimal vertices
        the two may return different supports.
    max_iter : int
        Safety limit on the outer iterations (status ``max_iter``).
    random_state : int
        Seed of the inner CV's fold assignment.

    Attributes
    ----------
    support_ : ndarray of bool of shape (n_features,)
        The kept features.
    weights_ : ndarray of shape (n_features,)
        The model's weight of each feature (0 off the support).
    intercept_ : float
        With ``weights_``, the hyperplane the method solved (the final classifier ``own`` scores it).
    C_ : float
        The SVM penalty used (chosen by the method's own inner CV where not given).
    n_iter_ : int
        Iterations of the method's outer loop.
    diagnostics_ : dict
        ``status``, ``objective``, ``n_iter``, ``message`` and ``time_s`` (:mod:`svmfs.methods.base`).

    References
    ----------
    Rinaldi & Sciandrone (2010), Algorithm FS-SVMCP (section 4.1), eqs. 11, 14-15.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(40, 6))
    >>> y = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(int)
    >>> from svmfs.methods.fs_svmcp import FSSVMCP
    >>> sel = FSSVMCP().fit(X, y)
    >>> sel.get_support().nonzero()[0].tolist()
    [0, 1]
    """

    def _fit(self, X, y):
        check_concave(self.concave, self.eps, self.p, self.alpha)
        active = np.arange(X.shape[1])
        fit_rows = np.arange(X.shape[0])  # the rows whose slacks step 1 penalizes: all at the first iteration
        path, status = [], "max_iter"
        for it in range(1, self.max_iter + 1):
            svm_active, Xa = active, X[:, active]  # the features of this iteration's step-1 SVM
            svm, C = _tuned_svm(Xa[fit_rows], y[fit_rows], list(self.C_grid), self.cv, self.random_state,
                                self.svm_max_iter, self.C_ties)  # fmt: skip
            w_star, b_star = svm.coef_.ravel(), float(svm.intercept_[0])
            xi = np.maximum(0.0, 1.0 - y * (Xa @ w_star + b_star))
            rows = np.flatnonzero(xi < 1)
            lp = self._lp_step(Xa, y, np.abs(w_star), rows)
            n_star = int(np.count_nonzero(w_star))
            n_hat = int(np.sum(~self._zero(lp.w))) if lp.status == "ok" else n_star
            path.append({"n_active": int(active.size), "C": C, "n_rows": int(rows.size), "n_hat": n_hat,
                         "lp_status": lp.status, "lp_active": lp.n_active, "lp_variables": lp.n_variables})  # fmt: skip
            if lp.status != "ok" or n_hat >= n_star or n_hat == 0:
                status = "ok" if lp.status == "ok" else lp.status
                break
            active = active[~self._zero(lp.w)]
            if self.svm_rows == "I" and np.unique(y[rows]).size == 2:  # one class left: keep the last rows
                fit_rows = rows
        self.n_iter_ = it
        self.weights_ = np.zeros(X.shape[1])
        self.weights_[svm_active] = w_star  # at max_iter, the last SVM's features (before the last removal)
        self.intercept_ = b_star
        self.C_ = C
        self.support_ = self.weights_ != 0
        self.diagnostics_.update(status=status, path=path, message=f"{len(path)} iterations")


class FW1(_ConcaveBase):
    """Frank-Wolfe with unit stepsize on problem (16), run to its stationary vertex (section 3).

    The constraint set is fixed by one SVM (step 1 of FS-SVMCP, C by CV): I = {i : xi*_i < 1}, and
    the start is z^0 = |w*|. Each iteration solves the LP (13) at the gradient of F at z^k; it stops
    when the new vertex does not lower grad F(z^k).z below its value at z^k (Proposition 3.2:
    finitely many steps). The selection is the support of the final vertex.

    Attributes
    ----------
    support_ : ndarray of bool of shape (n_features,)
        The kept features.
    weights_ : ndarray of shape (n_features,)
        The model's weight of each feature (0 off the support).
    intercept_ : float
        With ``weights_``, the hyperplane the method solved (the final classifier ``own`` scores it).
    C_ : float
        The SVM penalty used (chosen by the method's own inner CV where not given).
    n_iter_ : int
        Iterations of the method's outer loop.
    diagnostics_ : dict
        ``status``, ``objective``, ``n_iter``, ``message`` and ``time_s`` (:mod:`svmfs.methods.base`).

    References
    ----------
    Rinaldi & Sciandrone (2010), FW1 algorithm on problem (16) (section 3).

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(40, 6))
    >>> y = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(int)
    >>> from svmfs.methods.fs_svmcp import FW1
    >>> sel = FW1().fit(X, y)
    >>> sel.get_support().nonzero()[0].tolist()
    [0, 1]
    """

    def _fit(self, X, y):
        check_concave(self.concave, self.eps, self.p, self.alpha)
        svm, C = _tuned_svm(X, y, list(self.C_grid), self.cv, self.random_state, self.svm_max_iter, self.C_ties)
        w, b = svm.coef_.ravel(), float(svm.intercept_[0])
        rows = np.flatnonzero(np.maximum(0.0, 1.0 - y * (X @ w + b)) < 1)
        z = np.abs(w)
        values, status = [concave_value(z, self.concave, self.eps, self.p, self.alpha)], "max_iter"
        for it in range(1, self.max_iter + 1):
            grad = concave_gradient(z, self.concave, self.eps, self.p, self.alpha)
            lp = self._lp_step(X, y, z, rows)
            if lp.status != "ok":
                status = lp.status
                break
            if grad @ lp.z >= grad @ z - 1e-12 * max(1.0, abs(grad @ z)):  # z^k solves (13): stationary
                status = "ok"
                break
            z, w, b = lp.z, lp.w, lp.b
            values.append(concave_value(z, self.concave, self.eps, self.p, self.alpha))
        self.n_iter_ = it
        self.weights_, self.intercept_, self.C_ = w, b, C
        self.support_ = ~self._zero(w)
        self.diagnostics_.update(status=status, objective=values[-1], path=values)
