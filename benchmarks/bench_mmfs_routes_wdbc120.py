"""The MM-FS cross-check at the issue's size, WDBC n = 120 x its first 8 features scaled to [-1, 1] (the
paper's scaling, section 4.2), C = 1, gamma_ini = 0.1, C2 = 0.3: cyipopt's L-BFGS route against the Pyomo
model solved by Ipopt with the exact Hessian, from the same start. Until 2026-11-27 an e2e test (~4 min of
the Pyomo route's solver time); the same agreement at WDBC n = 60 stays in the default command
(tests/test_mmfs.py). Result in benchmarks/RESULTS.md ("MM-FS routes at WDBC n = 120").

    python benchmarks/bench_mmfs_routes_wdbc120.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
from sklearn.datasets import load_breast_cancer
from sklearn.preprocessing import MinMaxScaler

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from svmfs.solvers.anisotropic import aniso_kernel  # noqa: E402
from svmfs.solvers.mmfs_nlp import solve_mmfs, svc_start  # noqa: E402
from svmfs.solvers.mmfs_pyomo import solve_mmfs_pyomo  # noqa: E402

N, M, C, GAMMA, C2 = 120, 8, 1.0, 0.1, 0.3


def main() -> int:
    X, y = load_breast_cancer(return_X_y=True)
    y = np.where(y == 0, 1.0, -1.0)  # malignant = +1
    idx = np.random.default_rng(0).choice(y.size, N, replace=False)
    X, y = MinMaxScaler((-1, 1)).fit_transform(X)[idx][:, :M], y[idx]
    start = (GAMMA, *svc_start(aniso_kernel(X, np.full(M, GAMMA)), y, C)[:4])
    out = {}
    for name, solve, hessian in (("cyipopt", solve_mmfs, "limited-memory"), ("pyomo", solve_mmfs_pyomo, "exact")):
        t0 = time.perf_counter()
        res = solve(X, y, C, C2, start, hessian=hessian)
        out[name] = res
        print(f"{name:8s} {hessian:14s} objective {res.objective:.10g}  status {res.status}  "
              f"support {np.flatnonzero(res.gamma > 1e-2).tolist()}  {time.perf_counter() - t0:.1f} s")  # fmt: skip
    a, b = out["cyipopt"], out["pyomo"]
    rel = abs(a.objective - b.objective) / abs(a.objective)
    same = bool(np.array_equal(a.gamma > 1e-2, b.gamma > 1e-2))
    print(f"relative objective difference {rel:.2e} (agree: <= 1e-6); same support (gamma_j > 1e-2): {same}")
    return 0 if rel <= 1e-6 and same else 1


if __name__ == "__main__":
    raise SystemExit(main())
