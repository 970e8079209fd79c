"""MM-FS problem (20) with cyipopt: exact Hessian of the Lagrangian against Ipopt's L-BFGS.

Same problem, same start (libsvm's solution of (18) at the isotropic gamma_ini, ``svc_start``), C = 1,
gamma_ini = 1/M fixed (no inner CV), C2 = 0.5, p = 1, tol = 1e-8, wall-time limit 300 s per solve:
- WDBC (sklearn's breast-cancer data) scaled to [-1, 1], random subsamples n = 60, M = 8 and n = 120, M = 30;
- colon (Alon, ../shared/data) scaled to [-1, 1]: 56 samples (a 10-fold training fold's size, stratified)
  x the first 500 genes.
Also the time of one ``MMFSProblem.hessian`` evaluation (mean of 3) at each size and at n = 86, M = 2000.

Run: python benchmarks/bench_mmfs_hessian.py  (appends a section to benchmarks/RESULTS.md with --write).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import StratifiedShuffleSplit
from sklearn.preprocessing import MinMaxScaler

from svmfs.data.formats import read_download
from svmfs.data.registry import load_registry
from svmfs.solvers.anisotropic import aniso_kernel
from svmfs.solvers.mmfs_nlp import MMFSProblem, solve_mmfs, svc_start

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
C, C2, TIME_LIMIT = 1.0, 0.5, 300.0


def wdbc(n, M, seed=0):
    X, y = load_breast_cancer(return_X_y=True)
    y = np.where(y == 0, 1.0, -1.0)
    idx = np.random.default_rng(seed).choice(y.size, n, replace=False)
    return MinMaxScaler((-1, 1)).fit_transform(X[idx][:, :M]), y[idx]


def colon(n=56, M=500, seed=0):
    ds = read_download("colon", load_registry(ROOT / "config" / "datasets.yaml")["colon"], SHARED)
    X, y = ds.X.astype(float)[:, :M], np.where(ds.y.astype(float) > 0, 1.0, -1.0)
    idx, _ = next(StratifiedShuffleSplit(1, train_size=n, random_state=seed).split(X, y))
    return MinMaxScaler((-1, 1)).fit_transform(X[idx]), y[idx]


def hessian_eval_time(X, y, reps=3):
    prob = MMFSProblem(X, y, C, C2)
    rng = np.random.default_rng(0)
    n, M = X.shape
    z = prob.pack(np.full(M, 1.0 / M), rng.uniform(0, C, n), 0.1, rng.uniform(0, 1, n), rng.uniform(0, 1, n))
    mu = rng.normal(size=n)
    prob.hessianstructure()
    t = time.perf_counter()
    for _ in range(reps):
        prob.hessian(z, mu, 1.0)
    return (time.perf_counter() - t) / reps


def main():
    lines, evals = [], []
    cases = [("WDBC", wdbc(60, 8)), ("WDBC", wdbc(120, 30)), ("colon", colon())]
    for name, (X, y) in cases:
        n, M = X.shape
        g = 1.0 / M
        start = (g, *svc_start(aniso_kernel(X, np.full(M, g)), y, C)[:4])
        res = {}
        for hessian in ("limited-memory", "exact"):
            r = res[hessian] = solve_mmfs(X, y, C, C2, start, hessian=hessian, time_limit=TIME_LIMIT)
            lines.append(
                f"| {name} {n} x {M} | {hessian} | {r.status} | {r.n_iter} | {r.time_s:.2f} s | {r.objective:.8g} | "
                f"{int(np.sum(r.gamma > 1e-2))} | {r.residuals['stationarity']:.1e} |"
            )
            print(lines[-1], flush=True)
        a, b = res["limited-memory"], res["exact"]
        same = np.array_equal(a.gamma > 1e-2, b.gamma > 1e-2)
        rel = abs(a.objective - b.objective) / abs(a.objective)
        evals.append(f"- {name} {n} x {M}: objectives differ by {rel:.1e} relative, same relevant set "
                     f"(gamma > 1e-2): {same}; exact/L-BFGS time {b.time_s / a.time_s:.3f}; "
                     f"one Hessian evaluation {hessian_eval_time(X, y) * 1e3:.1f} ms")
        print(evals[-1], flush=True)
    rng = np.random.default_rng(1)
    X, y = rng.uniform(-1, 1, (86, 2000)), np.repeat([1.0, -1.0], 43)
    evals.append(f"- random 86 x 2000 (microarray size): one Hessian evaluation {hessian_eval_time(X, y, 1):.2f} s")
    print(evals[-1], flush=True)
    if "--write" in sys.argv:
        text = "\n".join([
            "", "## MM-FS (20): exact Hessian vs L-BFGS in cyipopt "
            f"(`bench_mmfs_hessian.py`, {time.strftime('%Y-%m-%d')})",
            "",
            "Machine: 2 cores shared with other engineers' jobs while measuring, 24 GiB. Data scaled to [-1, 1];",
            f"C = {C:g}, gamma_ini = 1/M (no inner CV), C2 = {C2}, p = 1, tol = 1e-8, "
            f"limit {TIME_LIMIT:.0f} s per solve;",
            "same start (libsvm at the isotropic gamma_ini) for both. Colon: 56 stratified samples x first 500 genes.",
            "Time = Ipopt's solve (callbacks included), stationarity = ||grad L||_inf with Ipopt's multipliers.", "",
            "| data | Hessian | status | iterations | time | objective | gamma > 1e-2 | stationarity |",
            "| --- | --- | --- | --- | --- | --- | --- | --- |", *lines, "", *evals, "",
        ])
        with open(ROOT / "benchmarks" / "RESULTS.md", "a") as f:
            f.write(text)


if __name__ == "__main__":
    main()
