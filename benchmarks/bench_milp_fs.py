"""MILP-FS: the LP-relaxation shortcut (``lp_first``) against HiGHS's branch and bound alone.

One jimenez2021 outer fold's training side per dataset (``bench_mmfs.train_side``: the registry's reader,
the campaign's splits, min-max to [-1, 1] on that side), B and M as the campaign sets them, the
campaign's 5 values of C (WDBC: the three smallest; at C >= 1 its budget binds, both routes solve the
same MILP, 2-6 min each). Per fit: wall time with ``lp_first`` on and off, the route taken, the
objectives (they must agree), the number of features. One HiGHS thread, as a select job runs.
Usage: python benchmarks/bench_milp_fs.py [DATASET ...]   (default: colon pima wdbc)

``--nodes``: the campaign's node limit instead. Per dataset and C (>= 1, where the budget binds): one fit
with ``node_limit`` = 50000 as jimenez2021 sets it, then the same fit again (the incumbent must be the same
bit for bit), and one fit with the former 600 s time limit alone; status, nodes, objective, bound, gap,
wall and CPU seconds.
Usage: python benchmarks/bench_milp_fs.py --nodes [DATASET ...]   (default: wdbc pima)
"""

from __future__ import annotations

import sys
import time

import numpy as np
from threadpoolctl import threadpool_limits

from bench_mmfs import train_side
from svmfs.methods.milp_fs import MILPFS

CASES = {  # dataset: (B, M, C values), B and M as config/campaigns/jimenez2021.yaml sets them
    "colon": (50, 1.0, (1e-4, 1e-2, 1.0, 1e2, 1e4)),
    "pima": (5, 1.0, (1e-4, 1e-2, 1.0, 1e2, 1e4)),
    "wdbc": (10, 200.0, (1e-4, 1e-2, 1.0)),
}


def timed_fit(X, y, **params):
    t = time.perf_counter()
    sel = MILPFS(time_limit=600.0, **params).fit(X, y)
    return time.perf_counter() - t, sel


def nodes_row(X, y, **params):
    c = time.process_time()
    wall, sel = timed_fit(X, y, **params)
    d = sel.diagnostics_
    gap = (d["objective"] - d["bound"]) / abs(d["objective"]) if d.get("bound") is not None else float("nan")
    return sel, d, gap, wall, time.process_time() - c


def main_nodes(names, node_limit=50000):
    print("| dataset | C | limit | status | nodes | objective | bound | gap | wall | CPU | again: same w and objective |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for name in names:
        B, M, _ = CASES[name]
        X, y, fold = train_side(name, fold_index=0)
        for C in (1.0, 1e2, 1e4):
            for params in ({"node_limit": node_limit}, {}):  # timed_fit sets the 600 s time limit in both
                sel, d, gap, wall, cpu = nodes_row(X, y, C=C, B=B, M=M, **params)
                again = ""
                if "node_limit" in params:
                    sel2, d2, *_ = nodes_row(X, y, C=C, B=B, M=M, **params)
                    again = str(bool(np.array_equal(sel.weights_, sel2.weights_) and d["objective"] == d2["objective"]))
                limit = f"{node_limit} nodes" if "node_limit" in params else "600 s"
                print(f"| {name} {X.shape[0]} x {X.shape[1]} (fold {fold}) | {C:g} | {limit} | {d['status']} | {d['n_iter']} "
                      f"| {d['objective']:.10g} | {d.get('bound', float('nan')):.10g} | {gap:.3g} | {wall:.1f} s | {cpu:.1f} s "
                      f"| {again} |", flush=True)  # fmt: skip


def main(names):
    print("| dataset | C | B | lp_first: route | time | features | branch and bound alone: time | status | objectives agree |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for name in names:
        B, M, Cs = CASES[name]
        X, y, fold = train_side(name, fold_index=0)
        for C in Cs:
            t_lp, lp = timed_fit(X, y, C=C, B=B, M=M)
            t_bb, bb = timed_fit(X, y, C=C, B=B, M=M, lp_first=False)
            o_lp, o_bb = lp.diagnostics_["objective"], bb.diagnostics_["objective"]
            agree = abs(o_lp - o_bb) <= 1e-6 * max(1.0, abs(o_bb))
            print(f"| {name} {X.shape[0]} x {X.shape[1]} (fold {fold}) | {C:g} | {B} | {lp.diagnostics_['route']} "
                  f"| {t_lp:.1f} s | {lp.support_.sum()} | {t_bb:.1f} s | {bb.diagnostics_['status']} "
                  f"| {agree} ({o_lp:.10g} / {o_bb:.10g}) |", flush=True)  # fmt: skip


if __name__ == "__main__":
    with threadpool_limits(1):
        if sys.argv[1:2] == ["--nodes"]:
            main_nodes(sys.argv[2:] or ["wdbc", "pima"])
        else:
            main(sys.argv[1:] or list(CASES))
