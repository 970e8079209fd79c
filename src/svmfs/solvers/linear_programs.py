"""Linear programs of the linear SVM feature-selection methods, solved to a vertex by HiGHS.

One model serves three papers: the weighted 1-norm SVM

    min  sum_j c_j z_j + C sum_i xi_i
    s.t. y_i (w.x_i + b) >= 1 - xi_i,  xi_i >= 0   (i in rows)
         -z_j <= w_j <= z_j

is the 1-norm SVM LP of the MIT 9.520 project (section 3.1, c = 1), one step of Bradley &
Mangasarian's successive linearization for FSV (Maldonado et al. eq. 9, c_j = beta exp(-beta v_j)),
and, with ``C=None`` (no slacks: the constraints are hard) and c = grad F(z*), the LP (15) of
Rinaldi & Sciandrone's FS-SVMCP. It is solved by HiGHS's dual simplex (scipy ``highs-ds``), so the
solution is a vertex of the feasible polyhedron; ``solver="glpk"`` solves the same LP by GLPK's simplex
(through cvxopt), the solver Rinaldi & Sciandrone used (sec. 5.1, GLPK 4.9): another vertex where the LP has
several optimal ones (docs/protocols/rinaldi2010.md).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog

STATUS = {0: "ok", 1: "max_iter", 2: "infeasible", 3: "solver_error", 4: "solver_error"}


@dataclass
class LPResult:
    w: np.ndarray
    b: float
    z: np.ndarray
    xi: np.ndarray
    objective: float
    status: str
    message: str
    n_active: int  # active inequality constraints + variables at a bound
    n_variables: int


#: LP solvers of :func:`weighted_l1_svm`.
LP_SOLVERS = ("highs", "glpk")


def weighted_l1_svm(X, y, cost, C=None, rows=None, time_limit=None, solver="highs") -> LPResult:
    """Solve the weighted 1-norm SVM LP above, with w = u - v, u, v >= 0 in place of z.

    For cost c >= 0 the two forms have the same optimal value and, at an optimal vertex, min(u_j, v_j)
    = 0, so z = u + v = |w|. Splitting w leaves only the n margin rows (instead of n + 2p), which
    HiGHS's dual simplex solves much faster at microarray size. Variables are
    ordered (u, v, b, xi); the vertex count ``n_active`` is over the same number of variables.

    Parameters
    ----------
    X : ndarray of shape (n, p)
    y : ndarray of shape (n,)
        Labels in {-1, +1}.
    cost : ndarray of shape (p,)
        The weight of each |w_j| (all ones: the 1-norm SVM; FS-SVMCP's LP (15): the concave gradient).
    C : float or None
        Penalty of the slacks; None: hard margin on ``rows``.
    rows : array of int, optional
        The margin rows (default all).
    time_limit : float, optional
        Seconds for the solver.
    solver : {"highs", "glpk"}

    Returns
    -------
    LPResult
        w, b, z = |w|, the slacks, the objective and the solver's status.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[2.0, 0.1], [1.5, -0.2], [-2.0, 0.3], [-1.0, -0.1]])
    >>> y = np.array([1.0, 1.0, -1.0, -1.0])
    >>> res = weighted_l1_svm(X, y, np.ones(2), C=10.0)
    >>> res.status, res.w.round(3).tolist()  # the second feature gets no weight
    ('ok', [0.8, 0.0])
    """
    X = np.asarray(X, dtype=float)
    rows = np.arange(X.shape[0]) if rows is None else np.asarray(rows)
    Xr, yr = X[rows], np.asarray(y, dtype=float)[rows]
    n, p = Xr.shape
    cost = np.asarray(cost, dtype=float)
    if np.any(cost < 0):
        raise ValueError("weighted_l1_svm: the costs c_j must be >= 0 (else the LP is unbounded)")
    soft = C is not None
    n_xi = n if soft else 0
    n_var = 2 * p + 1 + n_xi
    c = np.concatenate([cost, cost, [0.0], np.full(n_xi, float(C) if soft else 0.0)])
    # -y_i (x_i.(u - v) + b) - xi_i <= -1
    yX = yr[:, None] * Xr
    blocks = [sp.csr_matrix(-yX), sp.csr_matrix(yX), sp.csr_matrix(-yr[:, None])]
    if soft:
        blocks.append(-sp.identity(n, format="csr"))
    A = sp.hstack(blocks).tocsc()
    b_ub = -np.ones(n)
    bounds = [(0, None)] * (2 * p) + [(None, None)] + [(0, None)] * n_xi
    if solver not in LP_SOLVERS:
        raise ValueError(f"weighted_l1_svm: solver must be one of {LP_SOLVERS}, got {solver!r}")
    if solver == "glpk":
        x, status, message, fun, slack = _glpk_simplex(c, A, b_ub, 2 * p)  # (no time limit: GLPK runs to the end)
    else:
        options = {"presolve": True}
        if time_limit is not None:
            options["time_limit"] = float(time_limit)
        res = linprog(c, A_ub=A, b_ub=b_ub, bounds=bounds, method="highs-ds", options=options)
        x, status, message = res.x, STATUS.get(res.status, "solver_error"), res.message
        fun, slack = (float(res.fun), res.slack) if x is not None else (np.nan, None)
    if x is None:
        return LPResult(np.zeros(p), 0.0, np.zeros(p), np.zeros(n_xi), np.nan, status, message, 0, n_var)
    u, v, b, xi = x[:p], x[p : 2 * p], float(x[2 * p]), x[2 * p + 1 :]
    scale = max(1.0, np.abs(x).max())
    tol = 1e-9 * scale
    at_bound = np.concatenate([u, v, xi]) <= tol
    n_active = int(np.sum(np.abs(slack) <= tol) + np.sum(at_bound))
    return LPResult(u - v, b, u + v, xi, float(fun), status, message, n_active, n_var)


def _glpk_simplex(c, A, b_ub, n_pos: int):
    """min c.x s.t. A x <= b_ub, x_j >= 0 except the free intercept (column ``n_pos``), by GLPK's simplex
    (cvxopt.glpk): the bounds become rows -x_j <= 0, the form cvxopt takes. Returns (x, status, message,
    objective, slack of the rows of A)."""
    from cvxopt import matrix, spmatrix
    from cvxopt import glpk

    n_var = A.shape[1]
    nonneg = np.r_[np.arange(n_pos), np.arange(n_pos + 1, n_var)]  # every variable but b
    G = sp.vstack([A, -sp.identity(n_var, format="csr")[nonneg]]).tocoo()
    h = np.r_[b_ub, np.zeros(nonneg.size)]
    glpk.options["msg_lev"] = "GLP_MSG_OFF"
    status, x = glpk.lp(matrix(np.asarray(c, dtype=float)),
                        spmatrix(G.data.astype(float), G.row.astype(int).tolist(), G.col.astype(int).tolist(), G.shape),
                        matrix(h.astype(float)))[:2]  # fmt: skip
    if status != "optimal" or x is None:
        kind = {"primal infeasible": "infeasible", "dual infeasible": "solver_error"}.get(status, "solver_error")
        return None, kind, f"GLPK: {status}", np.nan, None
    x = np.array(x).ravel()
    return x, "ok", "GLPK simplex: optimal", float(np.dot(c, x)), b_ub - A @ x


def support_of(w: np.ndarray, threshold: float) -> np.ndarray:
    return np.abs(w) > threshold
