"""SVM-RFE with the warm-started SMO (solver="warm") against libsvm (solver="kernel") on leukemia.

Setting of bench_rfe.py's first row: leukemia 72 x 1000 (first 1000 probes, z-scored), C = 1, one
feature at a time (999 SVM solves). Reports the total SMO iterations of a cold-started run (alpha = 0
at every step, through the same SMO) and of the warm-started run, wall times (best of 3) and whether
the rankings agree. Usage: python benchmarks/bench_rfe_warm.py [BLAS_THREADS] [C ...].
"""

from __future__ import annotations

import sys
from contextlib import nullcontext
from functools import partial

import numpy as np
from threadpoolctl import threadpool_limits

import svmfs.methods.svm_rfe as svm_rfe_module
from bench_rfe import best_of, leukemia
from svmfs.methods.svm_rfe import SVMRFE


def run(X, y, C, solver, repeat=3, **route_kwargs):
    """Best-of-``repeat`` time and the fitted selector; ``route_kwargs`` (warm_start, tol) go to the SMO route."""
    route = svm_rfe_module._WarmKernelWeights
    svm_rfe_module._WarmKernelWeights = partial(route, **route_kwargs)
    try:
        return best_of(lambda: SVMRFE(C=C, switch_at=10**6, solver=solver).fit(X, y), repeat)
    finally:
        svm_rfe_module._WarmKernelWeights = route


def overlap(a, b, k):
    return len(set(np.flatnonzero(a.ranking_ <= k)) & set(np.flatnonzero(b.ranking_ <= k)))


def main(Cs):
    X, y, label = leukemia()
    Xs = X[:, :1000]
    print(f"data: {label}, first 1000 columns; one feature at a time")
    for C in Cs:
        t_k, k = run(Xs, y, C, "kernel")
        t_w, w = run(Xs, y, C, "warm")
        t_c, c = run(Xs, y, C, "warm", warm_start=False)
        _, tight = run(Xs, y, C, "warm", repeat=1, tol=1e-8)
        diff = np.flatnonzero(k.ranking_ != w.ranking_)
        print(f"- C = {C}: kernel (libsvm) {t_k:.2f} s; warm SMO {t_w:.2f} s, {w.smo_iter_.sum()} iterations "
              f"(first solve {w.smo_iter_[0]}, later mean {w.smo_iter_[1:].mean():.1f}, max {w.smo_iter_[1:].max()}); "
              f"cold SMO {t_c:.2f} s, {c.smo_iter_.sum()} iterations; ratio cold/warm iterations "
              f"{c.smo_iter_.sum() / w.smo_iter_.sum():.1f}x; warm ranking = kernel ranking: {diff.size == 0} "
              f"({diff.size} positions differ, best differing rank {k.ranking_[diff].min() if diff.size else '-'}); "
              f"cold ranking = kernel: {np.array_equal(c.ranking_, k.ranking_)}; status {w.diagnostics_['status']}")  # fmt: skip
        p = Xs.shape[1]
        for name, a, b in [("warm vs kernel", w, k), ("kernel vs SMO tol=1e-8", k, tight),
                           ("warm vs SMO tol=1e-8", w, tight), ("warm tol=1e-8 iterations", tight, tight)]:
            if a is b:
                print(f"  {name}: {a.smo_iter_.sum()}")
                continue
            d = np.flatnonzero(a.ranking_ != b.ranking_)
            first = p - a.ranking_[d].max() + 1 if d.size else None  # elimination step of the first difference
            print(f"  {name}: first different removal at step {first} of {p - 1}"
                  f"{f' ({p - first + 1} features active, ranks 1..{a.ranking_[d].max()} can differ)' if d.size else ''}; "
                  f"top-10 / top-50 overlap: {overlap(a, b, 10)} / {overlap(a, b, 50)}")  # fmt: skip


if __name__ == "__main__":
    args = sys.argv[1:]
    threads = int(args.pop(0)) if args and "." not in args[0] else None
    with threadpool_limits(limits=threads) if threads else nullcontext():
        print(f"BLAS threads: {threads or 'default'}")
        main([float(a) for a in args] or [1.0])
