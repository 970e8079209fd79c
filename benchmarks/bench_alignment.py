"""Kernel-alignment selectors (Catala & Martin): speed of the incremental dFSA and the paper's recovery rates.

1. dFSA on colon (62 x 2000, z-scored; a random 62 x 2000 problem if the data are absent): incremental
   kernels (eqs. 3-6) against recomputing every candidate kernel from scratch, over the first
   ``STEPS`` removals (a full recomputed run would take hours); same removals required; time ratio.
   Plus the time of the complete incremental run for each kernel.
2. Table 4: Weston data, 100 training points, quadratic kernel, exact {x1, x2} over 500 seeded runs.
3. Table 5 (f2 = x1 x2 + x3, 200 training points): recall and size, alignment stop and validation stop.

Usage: python benchmarks/bench_alignment.py  (prints a Markdown table and lines for benchmarks/RESULTS.md)
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from svmfs.data.synthetic import sparse_polynomial, weston_nonlinear
from svmfs.methods.dfsa import DFSA
from svmfs.solvers.alignment import backward_elimination, resolve_gamma

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
STEPS = {"linear": 3, "poly": 3, "rbf": 1}


def zscore(X):
    sd = X.std(0)
    return (X - X.mean(0)) / np.where(sd > 0, sd, 1.0)


def colon():
    try:
        from svmfs.data.formats import read_download
        from svmfs.data.registry import load_registry

        ds = read_download("colon", load_registry(ROOT / "config" / "datasets.yaml")["colon"], SHARED)
        return zscore(ds.X.astype(float)), ds.y.astype(float), "colon 62 x 2000"
    except Exception:  # data absent: same shape, random
        rng = np.random.default_rng(0)
        return rng.standard_normal((62, 2000)), np.where(rng.random(62) < 0.35, 1.0, -1.0), "random 62 x 2000"


def speed():
    X, y, name = colon()
    y = np.where(y == y.max(), 1.0, -1.0)
    gamma = resolve_gamma(None, X)
    rows = []
    for kernel, steps in STEPS.items():
        t0 = time.perf_counter()
        fast = backward_elimination(X, y, kernel, gamma=gamma, max_iter=steps)
        t_fast = time.perf_counter() - t0
        t0 = time.perf_counter()
        slow = backward_elimination(X, y, kernel, gamma=gamma, max_iter=steps, incremental=False)
        t_slow = time.perf_counter() - t0
        same = fast.removed == slow.removed and np.allclose(fast.path, slow.path, rtol=1e-9)
        t0 = time.perf_counter()
        full = DFSA(kernel=kernel).fit(X, y)
        t_full = time.perf_counter() - t0
        rows.append(
            f"| {name} | {kernel} | {steps} | {t_fast:.2f} s | {t_slow:.1f} s | {t_slow / t_fast:.0f}x | {same} "
            f"| {full.n_iter_} passes, {full.support_.sum()} kept, {t_full:.1f} s |"
        )
    print("| data | kernel | removals compared | incremental | recompute | ratio | same removals | full incremental run |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    print("\n".join(rows))


def weston(reps=500):
    t0 = time.perf_counter()
    exact, recall, sizes = 0, [], []
    for seed in range(reps):
        X, y, rel = weston_nonlinear(n=100, seed=seed)
        sup = set(np.flatnonzero(DFSA(kernel="poly", degree=2).fit(zscore(X), y).support_).tolist())
        exact += sup == set(rel)
        recall.append(len(sup & set(rel)) / 2)
        sizes.append(len(sup))
    print(f"Weston n=100, {reps} runs: exact {100 * exact / reps:.1f} %, recall {100 * np.mean(recall):.1f} %, "
          f"mean size {np.mean(sizes):.2f} ({time.perf_counter() - t0:.0f} s); paper Table 4: 95.9 / 100 / 2.40")


def f2(reps=100):
    t0 = time.perf_counter()
    out = {"alignment stop": ([], []), "validation stop (100 held out)": ([], [])}
    for seed in range(reps):
        X, y, rel = sparse_polynomial(n=300, kind="f2", seed=seed)
        X = zscore(X)
        for key, sel in (("alignment stop", DFSA().fit(X[:200], y[:200])),
                         ("validation stop (100 held out)", DFSA(validation_size=100, random_state=seed).fit(X, y))):
            sup = set(np.flatnonzero(sel.support_).tolist())
            out[key][0].append(len(sup & set(rel)) / 3)
            out[key][1].append(len(sup))
    for key, (rec, size) in out.items():
        print(f"f2, 200 alignment points, {reps} runs, {key}: recall {100 * np.mean(rec):.1f} %, mean size "
              f"{np.mean(size):.2f}; paper Table 5: 100.00 / 3.03")
    print(f"({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    speed()
    weston()
    f2()
