"""The 1-norm SVM LP of one data set over a grid of C, warm-started from the previous C's optimal basis.

MIT 9.520 project, section 3.1: min sum_j z_j + C sum_i xi_i s.t. y_i (w.x_i + b) >= 1 - xi_i, |w_j| <= z_j, in
the split form of :func:`~svmfs.solvers.linear_programs.weighted_l1_svm` (w = u - v, variables (u, v, b, xi)).
Only the slacks' cost C changes along the grid, so the previous optimal basis stays primal feasible and the dual
simplex restarts from it (a select job of the MIT grid solves the LP of one inner fold at 21 C, and the LP of the
training side at 21 more for the ``test_tuned`` audit; docs/methods/l1_svm.md).

Same vertex as the cold solve: a warm optimum is returned only when it is dual nondegenerate (every nonbasic
column and row has a reduced cost above the dual feasibility tolerance), which makes it the LP's unique
optimum, so the cold route (scipy ``linprog``, presolve on) ends at the same point; the two differ only in the
last digits of the floats they compute it with. A degenerate optimum (the LP may have other optimal vertices, and
a cold solve another one) and any status other than optimal are solved again by the cold route, whose answer is
then returned. The model lives in the HiGHS that scipy bundles (``scipy.optimize._highspy._core``, private; the
version pinned in constraints.txt); without it, or if a call to it fails, the cold route answers.
"""

from __future__ import annotations

import weakref

import numpy as np
import scipy.sparse as sp

from .linear_programs import LPResult, weighted_l1_svm

try:  # scipy's own HiGHS build: the cold route's solver, so the same library on both routes
    import scipy.optimize._highspy._core as _h
except ImportError:  # pragma: no cover - a future scipy
    _h = None

#: Reduced costs at most this far from 0 count as 0 (HiGHS's default dual feasibility tolerance).
DEGENERACY_TOL = 1e-7


class L1SVMPath:
    """The LP of (X, y) with costs ``cost`` on |w|, solved for any C in turn (see the module doc).

    ``counts``: how many C were answered warm, and how many went to the cold route (degenerate or not optimal).
    """

    def __init__(self, X, y, cost):
        # copies: the cache of l1_svm_lp drops this path when the caller's X is freed, so it must not hold X
        self.X, self.y = np.array(X, dtype=float), np.array(y, dtype=float)
        self.cost = np.asarray(cost, dtype=float)
        self.counts = {"warm": 0, "cold": 0}
        self._highs = None
        if _h is not None:
            try:
                self._highs = self._model()
            except (AttributeError, TypeError, ValueError):  # the private API changed: every C cold
                self._highs = None

    def _model(self):
        n, p = self.X.shape
        yX = self.y[:, None] * self.X
        A = sp.hstack([sp.csr_matrix(-yX), sp.csr_matrix(yX), sp.csr_matrix(-self.y[:, None]), -sp.identity(n, format="csr")]).tocsc()
        n_col, inf = 2 * p + 1 + n, _h.kHighsInf
        lp = _h.HighsLp()
        lp.num_col_, lp.num_row_ = n_col, n
        lp.a_matrix_.num_col_, lp.a_matrix_.num_row_, lp.a_matrix_.format_ = n_col, n, _h.MatrixFormat.kColwise
        lp.col_cost_ = np.concatenate([self.cost, self.cost, [0.0], np.ones(n)])
        lp.col_lower_ = np.concatenate([np.zeros(2 * p), [-inf], np.zeros(n)])
        lp.col_upper_ = np.full(n_col, inf)
        lp.row_lower_, lp.row_upper_ = np.full(n, -inf), -np.ones(n)
        lp.a_matrix_.start_, lp.a_matrix_.index_, lp.a_matrix_.value_ = A.indptr, A.indices, A.data
        highs = _h._Highs()
        highs.setOptionValue("output_flag", False)
        highs.setOptionValue("simplex_strategy", int(_h.simplex_constants.SimplexStrategy.kSimplexStrategyDual))
        if highs.passModel(lp) == _h.HighsStatus.kError:
            return None
        self._xi_cols = np.arange(2 * p + 1, n_col, dtype=np.int32)
        return highs

    def solve(self, C: float) -> LPResult:
        """The LP at C: the warm optimum if it is the unique one, else the cold route's solution."""
        found = None
        if self._highs is not None:
            try:
                found = self._warm(float(C))
            except (AttributeError, TypeError, ValueError):  # the private API changed: cold from now on
                self._highs = None
        if found is None:
            self.counts["cold"] += 1
            return weighted_l1_svm(self.X, self.y, self.cost, C=C)
        self.counts["warm"] += 1
        return found

    def _warm(self, C: float) -> LPResult | None:
        h, n, p = self._highs, self.X.shape[0], self.X.shape[1]
        h.changeColsCost(n, self._xi_cols, np.full(n, C))
        if h.run() == _h.HighsStatus.kError or h.getModelStatus() != _h.HighsModelStatus.kOptimal:
            h.clearSolver()  # the next C starts cold inside HiGHS
            return None
        sol, basis = h.getSolution(), h.getBasis()
        basic = _h.HighsBasisStatus.kBasic
        col_nonbasic = np.fromiter((s != basic for s in basis.col_status), dtype=bool, count=2 * p + 1 + n)
        row_nonbasic = np.fromiter((s != basic for s in basis.row_status), dtype=bool, count=n)
        col_dual, row_dual = np.asarray(sol.col_dual), np.asarray(sol.row_dual)
        if np.any(np.abs(col_dual[col_nonbasic]) <= DEGENERACY_TOL) or np.any(np.abs(row_dual[row_nonbasic]) <= DEGENERACY_TOL):
            return None  # another optimal vertex may exist: the cold route decides
        x = np.asarray(sol.col_value)
        u, v, b, xi = x[:p], x[p : 2 * p], float(x[2 * p]), x[2 * p + 1 :]
        slack = -1.0 - np.asarray(sol.row_value)  # b_ub - A x, as linprog's res.slack
        tol = 1e-9 * max(1.0, np.abs(x).max())
        n_active = int(np.sum(np.abs(slack) <= tol) + np.sum(np.concatenate([u, v, xi]) <= tol))
        status = h.getModelStatus()
        message = f"Optimization terminated successfully. (HiGHS Status {int(status)}: {h.modelStatusToString(status)})"
        return LPResult(u - v, b, u + v, xi, float(h.getInfo().objective_function_value), "ok", message, n_active, 2 * p + 1 + n)


_PATHS: dict[tuple, tuple] = {}  # (id(X), y bytes, cost bytes) -> (weakref to X, L1SVMPath)


def l1_svm_lp(X, y, cost, C) -> LPResult:
    """The 1-norm SVM LP at C through the :class:`L1SVMPath` of this very array X (and these labels and costs):
    the selectors fitted on one inner fold at each C of a grid share one warm-started model. X must not be
    changed in place while it lives (the protocol never does). An X that cannot be referenced weakly (not a
    numpy array) takes the cold route."""
    try:
        ref = weakref.ref(X)
    except TypeError:
        return weighted_l1_svm(X, y, cost, C=C)
    cost = np.asarray(cost, dtype=float)
    for key in [k for k, (rx, _) in _PATHS.items() if rx() is None]:
        del _PATHS[key]  # the array is gone (its id may be reused)
    key = (id(X), np.asarray(y, dtype=float).tobytes(), cost.tobytes())
    entry = _PATHS.get(key)
    if entry is None or entry[0]() is not X:
        entry = _PATHS[key] = (ref, L1SVMPath(X, y, cost))
    return entry[1].solve(C)
