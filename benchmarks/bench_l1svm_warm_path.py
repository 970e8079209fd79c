"""Issue 34 goal 2: the 1-norm SVM LP (MIT 9.520 section 3.1) warm-started along the C grid, without the fallback.

The shipped route (svmfs.solvers.l1_svm_path) keeps a warm optimum only when it is dual nondegenerate and hands
the others to the cold solve; this benchmark measures the bare warm route against the cold one, degenerate
optima included, to show how often they agree and what the warm start saves.

For each inner training side of a select job (the training side of an outer fold, z-scored, split by a stratified
5-fold CV as the job's inner CV splits it), the 21 LPs of the mit9520 grid C = 2^-10..2^10 are solved twice:
cold, as the library does today (``weighted_l1_svm``: scipy ``linprog(method="highs-ds")``, a fresh model per C),
and warm: the model built once in the HiGHS that scipy bundles (``scipy.optimize._highspy._core``, private), only
the slacks' cost changed from one C to the next, each solve started from the previous optimal basis. Printed: CPU
seconds of each route, and per LP whether the warm solution has the cold one's support (|w_j| > 1e-2, the
selection), bit-identical w, the largest |w_warm - w_cold| and relative objective gap, and how many warm optima
are dual degenerate (a nonbasic column with reduced cost within 1e-9 of 0: the optimum may not be unique, so
another start may end at another vertex).

Usage: PYTHONPATH=src python benchmarks/bench_l1svm_warm_path.py WORKDIR [DATASET ...]
(WORKDIR: a ``bench_mit9520_speed.py --prepare`` folder with results/mit9520/{datasets,splits}.)
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import numpy as np
import scipy.optimize._highspy._core as _h
import scipy.sparse as sp
from sklearn.model_selection import StratifiedKFold

from svmfs.data.canonical import load_dataset
from svmfs.protocol.normalize import normalize_fold
from svmfs.solvers.linear_programs import weighted_l1_svm

CS = [2.0**e for e in range(-10, 11)]


def warm_path(X, y, Cs):
    """w, objective and the number of dual-degenerate nonbasic columns per C, one HiGHS model, warm starts."""
    n, p = X.shape
    yX = y[:, None] * X
    A = sp.hstack([sp.csr_matrix(-yX), sp.csr_matrix(yX), sp.csr_matrix(-y[:, None]), -sp.identity(n, format="csr")]).tocsc()
    nc, inf = 2 * p + 1 + n, _h.kHighsInf
    lp = _h.HighsLp()
    lp.num_col_, lp.num_row_ = nc, n
    lp.a_matrix_.num_col_, lp.a_matrix_.num_row_, lp.a_matrix_.format_ = nc, n, _h.MatrixFormat.kColwise
    lp.col_cost_ = np.concatenate([np.ones(2 * p), [0.0], np.full(n, Cs[0])])
    lp.col_lower_ = np.concatenate([np.zeros(2 * p), [-inf], np.zeros(n)])
    lp.col_upper_ = np.full(nc, inf)
    lp.row_lower_, lp.row_upper_ = np.full(n, -inf), -np.ones(n)
    lp.a_matrix_.start_, lp.a_matrix_.index_, lp.a_matrix_.value_ = A.indptr, A.indices, A.data
    h = _h._Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("simplex_strategy", 1)  # dual simplex, as highs-ds
    h.passModel(lp)
    xi_cols = np.arange(2 * p + 1, nc, dtype=np.int32)
    out = []
    for i, C in enumerate(Cs):
        if i:
            h.changeColsCost(n, xi_cols, np.full(n, C))
        h.run()
        sol, basis = h.getSolution(), h.getBasis()
        x = np.array(sol.col_value)
        nonbasic = np.array([s != _h.HighsBasisStatus.kBasic for s in basis.col_status])
        degenerate = int(np.sum(nonbasic & (np.abs(np.array(sol.col_dual)) <= 1e-9)))
        out.append((x[:p] - x[p : 2 * p], h.getInfo().objective_function_value, degenerate))
    return out


def main(workdir: Path, datasets) -> None:
    res = workdir / "results" / "mit9520"
    datasets = datasets or sorted(p.stem for p in (res / "datasets").glob("*.npz"))
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; load {os.getloadavg()[0]:.1f}")
    tot = {"lps": 0, "support": 0, "bits": 0, "degenerate": 0, "cold": 0.0, "warm": 0.0, "dw": 0.0, "dobj": 0.0}
    for d in datasets:
        ds = load_dataset(res / "datasets" / f"{d}.npz")
        fold = json.loads((res / "splits" / f"{d}.json").read_text())["folds"][0]
        Xtr, _, _ = normalize_fold(ds.X, np.asarray(fold["train"]), np.asarray(fold["test"]), "zscore", "fold")
        ytr = np.where(ds.y[fold["train"]] > 0, 1.0, -1.0)
        for tr, _ in StratifiedKFold(5, shuffle=True, random_state=0).split(Xtr, ytr):
            X, y = Xtr[tr], ytr[tr]
            t = time.process_time()
            cold = [weighted_l1_svm(X, y, np.ones(X.shape[1]), C=C) for C in CS]
            tot["cold"] += time.process_time() - t
            t = time.process_time()
            warm = warm_path(X, y, CS)
            tot["warm"] += time.process_time() - t
            for c, (w, obj, deg) in zip(cold, warm):
                tot["lps"] += 1
                tot["support"] += np.array_equal(np.abs(c.w) > 1e-2, np.abs(w) > 1e-2)
                tot["bits"] += np.array_equal(c.w, w)
                tot["degenerate"] += deg > 0
                tot["dw"] = max(tot["dw"], float(np.abs(c.w - w).max()))
                tot["dobj"] = max(tot["dobj"], abs(c.objective - obj) / max(1.0, abs(c.objective)))
        print(f"{d}: {tot}", flush=True)
    print(f"load {os.getloadavg()[0]:.1f}")
    print("| LPs | cold CPU | warm CPU | ratio | same support | bit-identical w | max abs w diff | max rel objective gap | dual-degenerate warm optima |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    print(f"| {tot['lps']} | {tot['cold']:.1f} s | {tot['warm']:.1f} s | {tot['cold'] / tot['warm']:.1f}x | {tot['support']} | {tot['bits']} "
          f"| {tot['dw']:.1e} | {tot['dobj']:.1e} | {tot['degenerate']} |")  # fmt: skip


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2:])
