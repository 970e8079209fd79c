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
    """Solve the weighted 1-norm SVM LP above; variables are ordered (w, b, z, xi)."""
    X = np.asarray(X, dtype=float)
    rows = np.arange(X.shape[0]) if rows is None else np.asarray(rows)
    Xr, yr = X[rows], np.asarray(y, dtype=float)[rows]
    n, p = Xr.shape
    soft = C is not None
    n_xi = n if soft else 0
    n_var = 2 * p + 1 + n_xi
    c = np.concatenate([np.zeros(p + 1), np.asarray(cost, dtype=float), np.full(n_xi, float(C) if soft else 0.0)])
    # -y_i (x_i.w + b) - xi_i <= -1
    margin = sp.hstack([sp.csr_matrix(-yr[:, None] * Xr), sp.csr_matrix(-yr[:, None])])
    blocks = [margin, sp.csr_matrix((n, p))]
    if soft:
        blocks.append(-sp.identity(n, format="csr"))
    A_margin = sp.hstack(blocks)
    eye = sp.identity(p, format="csr")
    zero_b = sp.csr_matrix((p, 1))
    zero_xi = [sp.csr_matrix((p, n_xi))] if soft else []
    A_pos = sp.hstack([eye, zero_b, -eye, *zero_xi])  # w - z <= 0
    A_neg = sp.hstack([-eye, zero_b, -eye, *zero_xi])  # -w - z <= 0
    A = sp.vstack([A_margin, A_pos, A_neg]).tocsc()
    b_ub = np.concatenate([-np.ones(n), np.zeros(2 * p)])
    bounds = [(None, None)] * (p + 1) + [(0, None)] * (p + n_xi)
    options = {"presolve": True}
    if time_limit is not None:
        options["time_limit"] = float(time_limit)
    res = linprog(c, A_ub=A, b_ub=b_ub, bounds=bounds, method="highs-ds", options=options)
    if res.x is None:
        return LPResult(np.zeros(p), 0.0, np.zeros(p), np.zeros(n_xi), np.nan, STATUS.get(res.status, "solver_error"), res.message, 0, n_var)
    x = res.x
    w, b, z, xi = x[:p], float(x[p]), x[p + 1 : 2 * p + 1], x[2 * p + 1 :]
    scale = max(1.0, np.abs(x).max())
    tol = 1e-9 * scale
    n_active = int(np.sum(np.abs(res.slack) <= tol) + np.sum(x[p + 1 :] <= tol))
    return LPResult(w, b, z, xi, float(res.fun), STATUS.get(res.status, "solver_error"), res.message, n_active, n_var)


def support_of(w: np.ndarray, threshold: float) -> np.ndarray:
    return np.abs(w) > threshold
