"""Issue 34, goal 2: would optimality-based bound tightening (OBBT) strengthen MILP-FS on WDBC?

MILP-FS's branch and bound on WDBC (M = 200, B = 10, Jimenez-Cordero et al. sec. 4.3) is the largest single
holder of the committed campaigns' select time: what costs is the bound, the LP relaxation's, not the incumbent
("Issue 34, goal 3: the jobs over 5 minutes"). Labbe et al. (2019) tighten the big-M bounds by solving extra
problems first. The standard form of that: with an incumbent's objective UB, every optimal solution lies in
{the LP relaxation} cap {sum_j t_j + C sum_i xi_i <= UB}, so max and min of w_j over that set are valid bounds
L_j <= w_j <= U_j, and w_j <= U_j z_j, w_j >= L_j z_j replace the symmetric +-M z_j. Repeated with the
tightened bounds until they stop moving. This script measures, on one outer fold's training side (the
campaign's split and [-1, 1] scaling), the LP relaxation's objective and the mean width U_j - L_j after each
round: if the relaxation's objective does not rise toward the optimum, the branch and bound gains nothing.

Usage: python benchmarks/bench_milp_obbt.py FOLD C UB [ROUNDS]
       (UB: an incumbent's objective, e.g. the optimum a MILP-FS run proved; RESULTS.md gives fold 0's)
"""

from __future__ import annotations

import sys
import time

import numpy as np
from scipy import sparse
from scipy.optimize import linprog

from bench_milp_job import load_job


def lp_parts(X, y, C):
    """The LP relaxation over x = [w, t, z, b, xi] without the big-M rows: (c, A, b_ub) of
    y_i (w.x_i + b) >= 1 - xi_i and -t <= w <= t."""
    n, p = X.shape
    c = np.r_[np.zeros(p), np.ones(p), np.zeros(p), 0.0, C * np.ones(n)]
    eye, zero, pad = sparse.identity(p, format="csr"), sparse.csr_matrix((p, p)), sparse.csr_matrix((p, 1 + n))
    margin = sparse.hstack([sparse.csr_matrix(-y[:, None] * X), sparse.csr_matrix((n, 2 * p)),
                            sparse.csr_matrix(-y[:, None]), -sparse.identity(n)])  # fmt: skip
    absolute = sparse.vstack([sparse.hstack([eye, -eye, zero, pad]), sparse.hstack([-eye, -eye, zero, pad])])
    return c, sparse.vstack([margin, absolute]).tocsr(), np.r_[-np.ones(n), np.zeros(2 * p)], (eye, zero, pad)


def relaxation(X, y, C, B, lower, upper):
    """(c, A_ub, b_ub, bounds) of the LP relaxation with w_j <= U_j z_j, w_j >= L_j z_j, sum z <= B."""
    n, p = X.shape
    c, A, b, (eye, zero, pad) = lp_parts(X, y, C)
    big_m = sparse.vstack([sparse.hstack([eye, zero, -sparse.diags(upper), pad]),
                           sparse.hstack([-eye, zero, sparse.diags(lower), pad])])  # fmt: skip
    budget = sparse.csr_matrix(np.r_[np.zeros(2 * p), np.ones(p), 0.0, np.zeros(n)][None, :])
    A = sparse.vstack([A, big_m, budget]).tocsr()
    b = np.r_[b, np.zeros(2 * p), B]
    bounds = [(lo, hi) for lo, hi in zip(lower, upper)] + [(0, None)] * p + [(0, 1)] * p + [(None, None)] + [(0, None)] * n
    return c, A, b, bounds


def main(fold_index: int, C: float, ub: float, rounds: int = 4) -> None:
    from svmfs.protocol.normalize import normalize_fold

    cfg, camp, method_cfg, ds, folds = load_job("wdbc")
    params = {**method_cfg.get("params", {}), **(cfg["datasets"]["wdbc"].get("method_params") or {}).get("milp_fs", {})}
    B, M = int(params["B"]), float(params["M"])
    fold = folds[fold_index]
    train, test = np.asarray(fold["train"]), np.asarray(fold["test"])
    X = normalize_fold(ds.X, train, test, camp["normalization"]["method"], "fold")[0]
    y = ds.y[train].astype(float)
    p = X.shape[1]
    lower, upper = np.full(p, -M), np.full(p, M)
    t0 = time.process_time()
    print(f"wdbc fold {fold_index}, C = {C:g}, B = {B}, M = {M:g}, UB = {ub:g}")
    print("| round | LP relaxation objective | mean width U_j - L_j | CPU s so far |")
    print("| ---: | ---: | ---: | ---: |")
    for r in range(rounds + 1):
        c, A, b, bounds = relaxation(X, y, C, B, lower, upper)
        lp = linprog(c, A_ub=A, b_ub=b, bounds=bounds, method="highs")
        print(f"| {r} | {lp.fun:.1f} | {np.mean(upper - lower):.1f} | {time.process_time() - t0:.1f} |")
        if r == rounds:
            break
        A_cut, b_cut = sparse.vstack([A, sparse.csr_matrix(c[None, :])]).tocsr(), np.r_[b, ub]
        for j in range(p):
            e = np.zeros(len(c))
            e[j] = 1.0
            upper[j] = min(upper[j], max(0.0, -linprog(-e, A_ub=A_cut, b_ub=b_cut, bounds=bounds, method="highs").fun))
            lower[j] = max(lower[j], min(0.0, linprog(e, A_ub=A_cut, b_ub=b_cut, bounds=bounds, method="highs").fun))


if __name__ == "__main__":
    args = sys.argv[1:]
    main(int(args[0]), float(args[1]), float(args[2]), *(int(a) for a in args[3:4]))
