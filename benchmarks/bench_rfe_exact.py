"""Issue 20 goal 1: one-feature-at-a-time SVM-RFE on leukemia against scikit-learn, in one run.

Leukemia (Golub, train + test, 72 x 7129, z-scored; bench_rfe.leukemia), C = 1, 1 BLAS thread.
Rows: one feature at a time on all 7129 probes and on the first 1000, and the MIT schedule (10 % of
the remaining while more than 100 remain, then one at a time) on all 7129. Routes of SVMRFE:
``kernel`` (default: libsvm at tol 1e-3 on the downdated kernel, as scikit-learn's SVC) and
``active_set`` (the exact dual by rank-one KKT updates). References: scikit-learn's
``RFE(SVC(kernel="linear", C=1), step=1)`` (default tol 1e-3) for ``kernel``, and the same with
``SVC(tol=1e-12)`` (the exact dual) for ``active_set``; the MIT schedule is compared with a plain loop
of SVC fits (same schedule, same tie rule: smallest |w| first, equal |w| the higher index first)
and, per elimination step, with scikit-learn's RFE driven through the schedule (bench_rfe.py).

Times: wall (perf_counter) and CPU (process_time) of this process; with 1 BLAS thread the CPU
time is what the machine's load inflates least. Ours: best of ``REPEAT``; scikit-learn: best of
``SK_REPEAT`` on 7129 probes (one run is ~1 min), best of ``REPEAT`` on 1000. The load (uptime) is
printed before and after each row. Usage: python benchmarks/bench_rfe_exact.py [SK_REPEAT]
"""

from __future__ import annotations

import os
import sys
import time
from datetime import datetime, timezone

import numpy as np
from sklearn.feature_selection import RFE
from sklearn.svm import SVC
from threadpoolctl import threadpool_limits

from bench_rfe import batches, leukemia, sklearn_rfe_schedule
from svmfs.methods.svm_rfe import SVMRFE, rfe_schedule

REPEAT = 3
C = 1.0


def timed(f, repeat):
    """Best wall and best CPU time over ``repeat`` calls, and the last result."""
    walls, cpus, out = [], [], None
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        out = f()
        walls.append(time.perf_counter() - w0)
        cpus.append(time.process_time() - c0)
    return min(walls), min(cpus), out


def load():
    return "load %.1f %.1f %.1f" % os.getloadavg()


def svc_schedule_loop(X, y, step, switch_at, tol):
    """The MIT schedule by plain SVC(kernel="linear") fits: the reference ranking of that schedule."""
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


def one_at_a_time(X, y, label, sk_repeat):
    print(f"## one feature at a time, {label} ({X.shape[1] - 1} eliminations)  [{load()}]")
    ours = {}
    for solver in ["kernel", "active_set"]:
        wall, cpu, sel = timed(lambda: SVMRFE(C=C, switch_at=10**6, solver=solver).fit(X, y), REPEAT)
        ours[solver] = (wall, cpu, sel)
        print(f"- ours {solver}: wall {wall:.2f} s, CPU {cpu:.2f} s; {sel.diagnostics_['message']}; "
              f"w products full / pruned: {sel.w_products_['full']} / {sel.w_products_['pruned']}")  # fmt: skip
    for solver, tol in [("kernel", 1e-3), ("active_set", 1e-12)]:
        wall, cpu, ref = timed(
            lambda: RFE(SVC(kernel="linear", C=C, tol=tol), n_features_to_select=1, step=1).fit(X, y).ranking_,
            sk_repeat)  # fmt: skip
        o_wall, o_cpu, sel = ours[solver]
        same = np.array_equal(sel.ranking_, ref)
        ndiff = int(np.sum(sel.ranking_ != ref))
        print(f"- scikit-learn RFE(SVC(kernel='linear', tol={tol:g}), step=1): wall {wall:.2f} s, CPU {cpu:.2f} s; "
              f"ours {solver} is {wall / o_wall:.1f}x (wall) / {cpu / o_cpu:.1f}x (CPU) faster; identical ranking: "
              f"{same} ({ndiff} positions differ)")  # fmt: skip
    print(f"  [{load()}]")


def mit_schedule(X, y):
    sched = rfe_schedule(X.shape[1], 0.1, 100)
    print(f"## MIT schedule on 72 x {X.shape[1]} ({len(sched)} eliminations)  [{load()}]")
    for solver, tol in [("kernel", 1e-3), ("active_set", 1e-12)]:
        wall, cpu, sel = timed(lambda: SVMRFE(C=C, step=0.1, switch_at=100, solver=solver).fit(X, y), REPEAT)
        r_wall, r_cpu, ref = timed(lambda: svc_schedule_loop(X, y, 0.1, 100, tol), REPEAT)
        svc = SVC(kernel="linear", C=C, tol=tol)
        s_wall, s_cpu, sk = timed(lambda: sklearn_rfe_schedule(X, y, C, svc, 0.1, 100), 1)
        print(f"- ours {solver}: wall {wall:.3f} s, CPU {cpu:.3f} s; {sel.diagnostics_['message']}")
        print(f"  SVC(tol={tol:g}) loop: wall {r_wall:.2f} s, CPU {r_cpu:.2f} s ({r_cpu / cpu:.1f}x CPU); identical "
              f"ranking: {np.array_equal(sel.ranking_, ref)}; scikit-learn RFE through the schedule: wall "
              f"{s_wall:.2f} s ({s_wall / wall:.1f}x), identical elimination steps: "
              f"{np.array_equal(batches(sel.ranking_, sched), batches(sk, sched))}")  # fmt: skip
    print(f"  [{load()}]")


def main(sk_repeat):
    X, y, label = leukemia()
    print(f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC; data: {label}; C = {C}; 1 BLAS thread")
    one_at_a_time(X[:, :1000], y, "72 x 1000 (first 1000 probes)", REPEAT)
    mit_schedule(X, y)
    one_at_a_time(X, y, "72 x 7129", sk_repeat)


if __name__ == "__main__":
    with threadpool_limits(limits=1):
        main(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
