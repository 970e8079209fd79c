"""The 1-norm SVM LP (MIT 9.520 sec. 3.1) along a C grid: each C solved cold (scipy ``linprog``, HiGHS dual
simplex, a fresh model per C: :func:`svmfs.solvers.linear_programs.weighted_l1_svm`) against the shipped route
(:class:`svmfs.solvers.l1_svm_path.L1SVMPath`: one HiGHS model, only the slacks' cost changed from one C to the
next, each solve started from the previous optimal basis; a warm optimum kept only when it is dual nondegenerate,
i.e. the LP's unique optimum, every other C solved again cold).

For each inner training side of a select job (an outer fold's training side of MIT 9.520 Examples 1-3, z-scored,
split by a stratified 5-fold CV), the 21 LPs of the mit9520 grid C = 2^-10..2^10 by both routes: CPU seconds, how
many C the path answered warm, and whether every solution has the cold one's support (|w_j| > 1e-2, the
selection) and how far the w differ.
"""

from __future__ import annotations

import time

import numpy as np

from benchmarks.common import blas_threads

QUESTION = "Does warm-starting the 1-norm SVM LP along the C grid give the cold solves' supports, and how much CPU does it save?"
DATA = ("MIT 9.520 Examples 1-3 (n = 100; p = 2000, 2000, 500; rho = 0.2, seed 0), outer fold 0's training side z-scored, "
        "its 5 inner training sides, C = 2^-10..2^10 (quick: Example 1 only)")
TOPIC = "solvers"
RESULTS = "l1_svm_path"
CS = [2.0**e for e in range(-10, 11)]


def run(case: str = "", quick: bool = False) -> list[dict]:
    from sklearn.model_selection import StratifiedKFold

    from svmfs.data import synthetic
    from svmfs.protocol.normalize import normalize_fold
    from svmfs.protocol.splits import make_splits
    from svmfs.solvers.l1_svm_path import L1SVMPath
    from svmfs.solvers.linear_programs import weighted_l1_svm

    rows = []
    examples = [("mit_example1", 2000)] + ([] if quick else [("mit_example2", 2000), ("mit_example3", 500)])
    with blas_threads(1):
        for name, p in examples:
            X, y, _ = getattr(synthetic, name)(n=100, p=p, k0=10, rho=0.2, seed=0)
            fold = make_splits(y, {"kind": "stratified_kfold", "n_splits": 5}, 0)[0]
            Xtr = normalize_fold(X, np.asarray(fold["train"]), np.asarray(fold["test"]), "zscore", "fold")[0]
            ytr = np.where(y[fold["train"]] > 0, 1.0, -1.0)
            tot = {"lps": 0, "same_support": 0, "cold_cpu_s": 0.0, "path_cpu_s": 0.0, "warm": 0, "max_abs_w_diff": 0.0}
            for tr, _ in StratifiedKFold(5, shuffle=True, random_state=0).split(Xtr, ytr):
                Xi, yi = Xtr[tr], ytr[tr]
                t = time.process_time()
                cold = [weighted_l1_svm(Xi, yi, np.ones(Xi.shape[1]), C=C) for C in CS]
                tot["cold_cpu_s"] += time.process_time() - t
                t = time.process_time()
                path = L1SVMPath(Xi, yi, np.ones(Xi.shape[1]))
                warm = [path.solve(C) for C in CS]
                tot["path_cpu_s"] += time.process_time() - t
                tot["warm"] += path.counts["warm"]
                for c, w in zip(cold, warm):
                    tot["lps"] += 1
                    tot["same_support"] += bool(np.array_equal(np.abs(c.w) > 1e-2, np.abs(w.w) > 1e-2))
                    tot["max_abs_w_diff"] = max(tot["max_abs_w_diff"], float(np.abs(c.w - w.w).max()))
            rows.append({"data": f"{name} {Xtr.shape[0]} x {p} (5 inner sides)", "lps": tot["lps"], "answered_warm": tot["warm"],
                         "solved_again_cold": tot["lps"] - tot["warm"], "cold_cpu_s": round(tot["cold_cpu_s"], 2),
                         "path_cpu_s": round(tot["path_cpu_s"], 2), "speedup": round(tot["cold_cpu_s"] / max(tot["path_cpu_s"], 1e-9), 2),
                         "same_support": f"{tot['same_support']} of {tot['lps']}", "max_abs_w_diff": float(f"{tot['max_abs_w_diff']:.2e}")})  # fmt: skip
    return rows
