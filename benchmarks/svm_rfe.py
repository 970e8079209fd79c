"""SVM-RFE (Guyon et al. 2002; MIT 9.520 sec. 4.1) against scikit-learn's RFE on leukemia: the same ranking, and
how much faster.

Leukemia (Golub, train + test, 72 x 7129, z-scored; :func:`benchmarks.common.leukemia`), C = 1, 1 BLAS thread.
Routes of :class:`svmfs.methods.svm_rfe.SVMRFE`: ``kernel`` (default: libsvm at tol 1e-3 on the downdated
kernel, as scikit-learn's SVC), ``active_set`` (the exact dual by rank-one KKT updates), ``liblinear`` and
``warm`` (a warm-started SMO). References: scikit-learn's ``RFE(SVC(kernel="linear", C=1), step=1)`` (tol
1e-3) for ``kernel`` and the same with ``SVC(tol=1e-12)`` (the exact dual) for ``active_set``; the MIT schedule
(10 % of the remaining while more than 100 remain, then one at a time) is compared with a plain loop of SVC
fits (same schedule, same tie rule: smallest |w| first, equal |w| the higher index first) and with
scikit-learn's RFE driven through the schedule (one RFE call per elimination step). Times: best wall and best
CPU (``process_time``) over the repeats.
"""

from __future__ import annotations

import time
from functools import partial

import numpy as np

from benchmarks.common import best_of, blas_threads, leukemia

QUESTION = "Does SVM-RFE rank features as scikit-learn's RFE does, and how much faster is it?"
DATA = "Leukemia (Golub, train + test merged, 72 x 7129, z-scored), C = 1, 1 BLAS thread"
TOPIC = "methods' speed against their anchors"
RESULTS = "svm_rfe"
CASES = {
    "one_at_a_time": {"question": "One feature at a time: does SVM-RFE give scikit-learn's RFE(SVC, step=1) ranking, and how much faster is it?",
                      "data": "Leukemia 72 x 1000 (first 1000 probes) and 72 x 7129, z-scored, C = 1, 1 BLAS thread (quick: 72 x 300 only)"},
    "mit_schedule": {"question": "Under the MIT schedule (10 % per step down to 100, then one), does SVM-RFE eliminate as scikit-learn's RFE and a loop of SVC fits do, and how much faster?",
                     "data": "Leukemia 72 x 7129, z-scored, C = 1, 1 BLAS thread (quick: 72 x 2000)"},
    "warm_smo": {"question": "How many SMO iterations does warm-starting each step of SVM-RFE save, and does the ranking stay libsvm's?",
                 "data": "Leukemia 72 x 1000 (first 1000 probes), z-scored, one feature at a time, C = 1, 1 BLAS thread (quick: 72 x 300)"},
}
C = 1.0


def timed(f, repeat: int):
    """Best wall and best CPU time over ``repeat`` calls, and the last result."""
    walls, cpus, out = [], [], None
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        out = f()
        walls.append(time.perf_counter() - w0)
        cpus.append(time.process_time() - c0)
    return min(walls), min(cpus), out


def sklearn_rfe_schedule(X, y, estimator, step, switch_at):
    """scikit-learn's RFE driven through SVM-RFE's schedule (one RFE call per elimination size): a ranking."""
    from sklearn.feature_selection import RFE

    from svmfs.methods.svm_rfe import rfe_schedule

    p = X.shape[1]
    active, ranking, nxt = np.arange(p), np.zeros(p, dtype=int), p
    for r in rfe_schedule(p, step, switch_at):
        rfe = RFE(estimator, n_features_to_select=len(active) - r, step=r).fit(X[:, active], y)
        gone = np.flatnonzero(~rfe.support_)
        for j in gone[np.argsort(-rfe.ranking_[gone], kind="stable")]:
            ranking[active[j]] = nxt
            nxt -= 1
        active = active[rfe.support_]
    ranking[active] = 1
    return ranking


def batches(ranking, schedule):
    """The elimination step of each feature (features removed in one step share it)."""
    bounds = len(ranking) - np.cumsum([0, *schedule])
    return np.searchsorted(-bounds, -ranking, side="right")


def svc_schedule_loop(X, y, step, switch_at, tol):
    """The MIT schedule by plain SVC(kernel="linear") fits: the reference ranking of that schedule."""
    from sklearn.svm import SVC

    from svmfs.methods.svm_rfe import rfe_schedule

    p = X.shape[1]
    active, ranking, nxt = np.arange(p), np.zeros(p, dtype=np.int64), p
    for r in rfe_schedule(p, step, switch_at):
        w = SVC(kernel="linear", C=C, tol=tol).fit(X[:, active], y).coef_.ravel()
        removed = np.lexsort((-active, np.abs(w)))[:r]
        ranking[active[removed]] = nxt - np.arange(r)
        nxt -= r
        active = np.delete(active, removed)
    ranking[active] = 1
    return ranking


def _row(data, ours, reference, o, r, same, differ) -> dict:
    return {"data": data, "ours": ours, "reference": reference, "ours_wall_s": round(o[0], 3), "ours_cpu_s": round(o[1], 3),
            "reference_wall_s": round(r[0], 3), "reference_cpu_s": round(r[1], 3),
            "speedup_cpu": round(r[1] / max(o[1], 1e-9), 1), "identical": same, "positions_differ": differ}  # fmt: skip


def one_at_a_time(X, y, label: str, repeat: int, sk_repeat: int) -> list[dict]:
    from sklearn.feature_selection import RFE
    from sklearn.svm import SVC

    from svmfs.methods.svm_rfe import SVMRFE

    rows = []
    for solver, tol in [("kernel", 1e-3), ("active_set", 1e-12)]:
        o = timed(lambda: SVMRFE(C=C, switch_at=10**6, solver=solver).fit(X, y), repeat)
        r = timed(lambda: RFE(SVC(kernel="linear", C=C, tol=tol), n_features_to_select=1, step=1).fit(X, y).ranking_, sk_repeat)
        rows.append(_row(label, f"SVMRFE(solver={solver!r})", f"RFE(SVC(kernel='linear', tol={tol:g}), step=1)", o, r,
                         bool(np.array_equal(o[2].ranking_, r[2])), int(np.sum(o[2].ranking_ != r[2]))))  # fmt: skip
    return rows


def mit_schedule(X, y, label: str, repeat: int) -> list[dict]:
    from sklearn.svm import SVC, LinearSVC

    from svmfs.methods.svm_rfe import SVMRFE, rfe_schedule

    sched = rfe_schedule(X.shape[1], 0.1, 100)
    rows = []
    for solver, tol in [("kernel", 1e-3), ("active_set", 1e-12)]:
        o = timed(lambda: SVMRFE(C=C, step=0.1, switch_at=100, solver=solver).fit(X, y), repeat)
        r = timed(lambda: svc_schedule_loop(X, y, 0.1, 100, tol), repeat)
        rows.append(_row(label, f"SVMRFE(solver={solver!r})", f"loop of SVC(kernel='linear', tol={tol:g}) fits", o, r,
                         bool(np.array_equal(o[2].ranking_, r[2])), int(np.sum(o[2].ranking_ != r[2]))))  # fmt: skip
        s = timed(lambda: sklearn_rfe_schedule(X, y, SVC(kernel="linear", C=C, tol=tol), 0.1, 100), 1)
        same = bool(np.array_equal(batches(o[2].ranking_, sched), batches(s[2], sched)))
        rows.append(_row(label, f"SVMRFE(solver={solver!r})", f"RFE(SVC(tol={tol:g})) through the schedule (same steps)", o, s, same,
                         int(np.sum(batches(o[2].ranking_, sched) != batches(s[2], sched)))))  # fmt: skip
    lsvc = LinearSVC(C=C, loss="hinge", dual=True, max_iter=10000, random_state=0)
    o = timed(lambda: SVMRFE(C=C, step=0.1, switch_at=100, solver="liblinear").fit(X, y), repeat)
    s = timed(lambda: sklearn_rfe_schedule(X, y, lsvc, 0.1, 100), 1)
    b_o, b_s = batches(o[2].ranking_, sched), batches(s[2], sched)
    rows.append(_row(label, "SVMRFE(solver='liblinear')", "RFE(LinearSVC(hinge)) through the schedule (same steps)", o, s,
                     bool(np.array_equal(b_o, b_s)), int(np.sum(b_o != b_s))))  # fmt: skip
    return rows


def warm_smo(X, y, label: str, repeat: int) -> list[dict]:
    import svmfs.methods.svm_rfe as module
    from svmfs.methods.svm_rfe import SVMRFE

    def fit(solver, rep=repeat, **route_kwargs):
        route = getattr(module, "WarmKernelWeights", None)
        if route_kwargs and route is None:
            return None
        if route_kwargs:
            module.WarmKernelWeights = partial(route, **route_kwargs)
        try:
            return best_of(lambda: SVMRFE(C=C, switch_at=10**6, solver=solver).fit(X, y), rep)
        finally:
            if route_kwargs:
                module.WarmKernelWeights = route

    t_k, k = fit("kernel")
    t_w, w = fit("warm")
    cold = fit("warm", warm_start=False)
    rows = [{"data": label, "route": "libsvm (solver='kernel')", "wall_s": round(t_k, 3), "smo_iterations": "",
             "ranking_equals_libsvm": True, "positions_differ": 0},
            {"data": label, "route": "warm-started SMO (solver='warm')", "wall_s": round(t_w, 3), "smo_iterations": int(w.smo_iter_.sum()),
             "ranking_equals_libsvm": bool(np.array_equal(w.ranking_, k.ranking_)), "positions_differ": int(np.sum(w.ranking_ != k.ranking_))}]  # fmt: skip
    if cold is not None:
        t_c, c = cold
        rows.append({"data": label, "route": "cold SMO (alpha = 0 at each step)", "wall_s": round(t_c, 3), "smo_iterations": int(c.smo_iter_.sum()),
                     "ranking_equals_libsvm": bool(np.array_equal(c.ranking_, k.ranking_)), "positions_differ": int(np.sum(c.ranking_ != k.ranking_))})  # fmt: skip
    return rows


def run(case: str, quick: bool = False) -> list[dict]:
    X, y, label = leukemia()
    with blas_threads(1):
        if case == "one_at_a_time":
            if quick:
                return one_at_a_time(X[:, :300], y, "72 x 300", 1, 1)
            return one_at_a_time(X[:, :1000], y, "72 x 1000", 3, 3) + one_at_a_time(X, y, "72 x 7129", 1, 1)
        if case == "mit_schedule":
            Xs = X[:, :2000] if quick else X
            return mit_schedule(Xs, y, f"72 x {Xs.shape[1]}", 1 if quick else 3)
        Xs = X[:, :300] if quick else X[:, :1000]
        return warm_smo(Xs, y, f"72 x {Xs.shape[1]}", 1 if quick else 3)
