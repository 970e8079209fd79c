"""Linear programs of the linear SVM feature-selection methods, solved to a vertex by HiGHS.

One model serves three papers: the weighted 1-norm SVM

    min  sum_j c_j z_j + C sum_i xi_i
    s.t. y_i (w.x_i + b) >= 1 - xi_i,  xi_i >= 0   (i in rows)
         -z_j <= w_j <= z_j

is the 1-norm SVM LP of the MIT 9.520 project (section 3.1, c = 1), one step of Bradley &
Mangasarian's successive linearization for FSV (Maldonado et al. eq. 9, c_j = beta exp(-beta v_j)),
and, with ``C=None`` (no slacks: the constraints are hard) and c = grad F(z*), the LP (15) of
Rinaldi & Sciandrone's FS-SVMCP. It is solved by HiGHS's dual simplex (scipy ``highs-ds``), so the
solution is a vertex of the feasible polyhedron.
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


def weighted_l1_svm(X, y, cost, C=None, rows=None, time_limit=None) -> LPResult:
    """Solve the weighted 1-norm SVM LP above, with w = u - v, u, v >= 0 in place of z.

    For cost c >= 0 the two forms have the same optimal value and, at an optimal vertex, min(u_j, v_j)
    = 0, so z = u + v = |w|. Splitting w leaves only the n margin rows (instead of n + 2p), which
    HiGHS's dual simplex solves 25-30x faster at microarray size (benchmarks/RESULTS.md). Variables are
    ordered (u, v, b, xi); the vertex count ``n_active`` is over the same number of variables.
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
    options = {"presolve": True}
    if time_limit is not None:
        options["time_limit"] = float(time_limit)
    res = linprog(c, A_ub=A, b_ub=b_ub, bounds=bounds, method="highs-ds", options=options)
    if res.x is None:
        return LPResult(np.zeros(p), 0.0, np.zeros(p), np.zeros(n_xi), np.nan, STATUS.get(res.status, "solver_error"), res.message, 0, n_var)
    x = res.x
    u, v, b, xi = x[:p], x[p : 2 * p], float(x[2 * p]), x[2 * p + 1 :]
    scale = max(1.0, np.abs(x).max())
    tol = 1e-9 * scale
    at_bound = np.concatenate([u, v, xi]) <= tol
    n_active = int(np.sum(np.abs(res.slack) <= tol) + np.sum(at_bound))
    return LPResult(u - v, b, u + v, xi, float(res.fun), STATUS.get(res.status, "solver_error"), res.message, n_active, n_var)


def support_of(w: np.ndarray, threshold: float) -> np.ndarray:
    return np.abs(w) > threshold
