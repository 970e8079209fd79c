"""SVM-RFE on leukemia (72 x 7129): ours against scikit-learn's RFE, same ranking, time ratio.

Reads the Golub data from ../shared/data/leukemia (train + test merged, z-scored) when present,
else a synthetic 72 x 7129 problem. Usage: python benchmarks/bench_rfe.py [BLAS_THREADS]; with
BLAS_THREADS (e.g. 1, as svmfs.jobs sets for a select job with threads: 1) every timing runs under
threadpoolctl's limit, otherwise under the BLAS default (all cores).
"""

from __future__ import annotations

import sys
import time
from contextlib import nullcontext
from pathlib import Path

import numpy as np
from sklearn.feature_selection import RFE
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC, LinearSVC
from threadpoolctl import threadpool_limits

import svmfs.methods.svm_rfe as svm_rfe_module
from svmfs.methods.svm_rfe import SVMRFE, rfe_schedule

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "leukemia"


def leukemia():
    import pandas as pd

    if not SHARED.exists():
        from svmfs.data.synthetic import mit_example1

        X, y, _ = mit_example1(n=72, p=7129, k0=10, rho=0.2, seed=0)
        return X, y, "synthetic 72 x 7129"
    df = pd.concat([pd.read_csv(SHARED / "golub-train.csv"), pd.read_csv(SHARED / "golub-test.csv")])
    y = np.where(df["labels"] == "AML", 1, -1)
    X = StandardScaler().fit_transform(df.drop(columns="labels").to_numpy(float))
    return X, y, "leukemia (Golub) 72 x 7129, z-scored"


def best_of(f, repeat=3):
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = f()
        times.append(time.perf_counter() - t0)
    return min(times), out


def sklearn_rfe_schedule(X, y, C, estimator, step, switch_at):
    """scikit-learn's RFE driven through the same schedule (one RFE call per elimination size)."""
    p = X.shape[1]
    active = np.arange(p)
    ranking = np.zeros(p, dtype=int)
    nxt = p
    for r in rfe_schedule(p, step, switch_at):
        rfe = RFE(estimator, n_features_to_select=len(active) - r, step=r).fit(X[:, active], y)
        gone = np.flatnonzero(~rfe.support_)
        order = gone[np.argsort(-rfe.ranking_[gone], kind="stable")]
        for j in order:
            ranking[active[j]] = nxt
            nxt -= 1
        active = active[rfe.support_]
    ranking[active] = 1
    return ranking


def batches(ranking, schedule):
    """The elimination step of each feature (features removed in one step share it)."""
    p = len(ranking)
    bounds = p - np.cumsum([0, *schedule])  # rank thresholds after each step
    return np.searchsorted(-bounds, -ranking, side="right")


def main():
    X, y, label = leukemia()
    C = 1.0
    print(f"data: {label}; C = {C}")
    # 1. one feature at a time on the 1000 best-variance... first 1000 columns: identical rankings expected
    Xs = X[:, :1000]
    t_ours, ours = best_of(lambda: SVMRFE(C=C, switch_at=10**6, solver="kernel").fit(Xs, y).ranking_)
    t_sk, ref = best_of(lambda: RFE(SVC(kernel="linear", C=C), n_features_to_select=1, step=1).fit(Xs, y).ranking_)
    print(f"- step 1 on 72 x 1000: ours (kernel downdate) {t_ours:.2f} s, sklearn RFE(SVC linear) {t_sk:.2f} s, "
          f"ratio {t_sk / t_ours:.1f}x, same ranking: {np.array_equal(ours, ref)}")  # fmt: skip
    private, svm_rfe_module._libsvm = svm_rfe_module._libsvm, None  # the public route: SVC.fit every step
    try:
        t_pub, pub = best_of(lambda: SVMRFE(C=C, switch_at=10**6, solver="kernel").fit(Xs, y).ranking_)
    finally:
        svm_rfe_module._libsvm = private
    print(f"- same, public route only (SVC.fit under config_context): {t_pub:.2f} s, ratio {t_sk / t_pub:.1f}x, "
          f"same ranking: {np.array_equal(pub, ref)}")  # fmt: skip
    sched = rfe_schedule(X.shape[1], 0.1, 100)
    # 2. the MIT schedule (10 % of the remaining while > 100, then one at a time) on all 7129 features
    t_ours, ours = best_of(lambda: SVMRFE(C=C, step=0.1, switch_at=100, solver="kernel").fit(X, y).ranking_)
    t_lin, ours_lin = best_of(lambda: SVMRFE(C=C, step=0.1, switch_at=100, solver="liblinear").fit(X, y).ranking_)
    t_sk_svc, ref_svc = best_of(lambda: sklearn_rfe_schedule(X, y, C, SVC(kernel="linear", C=C), 0.1, 100))
    lsvc = LinearSVC(C=C, loss="hinge", dual=True, max_iter=10000, random_state=0)
    t_sk_lin, ref_lin = best_of(lambda: sklearn_rfe_schedule(X, y, C, lsvc, 0.1, 100))
    print(f"- MIT schedule on 72 x 7129: ours kernel {t_ours:.2f} s vs sklearn RFE(SVC linear) {t_sk_svc:.2f} s "
          f"(ratio {t_sk_svc / t_ours:.1f}x, same elimination steps: {np.array_equal(batches(ours, sched), batches(ref_svc, sched))})")  # fmt: skip
    print(f"- MIT schedule on 72 x 7129: ours liblinear {t_lin:.2f} s vs sklearn RFE(LinearSVC) {t_sk_lin:.2f} s "
          f"(ratio {t_sk_lin / t_lin:.1f}x, same elimination steps: {np.array_equal(batches(ours_lin, sched), batches(ref_lin, sched))})")  # fmt: skip


if __name__ == "__main__":
    threads = int(sys.argv[1]) if len(sys.argv) > 1 else None
    with threadpool_limits(limits=threads) if threads else nullcontext():
        print(f"BLAS threads: {threads or 'default'}")
        main()
