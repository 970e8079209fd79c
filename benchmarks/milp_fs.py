"""MILP-FS (Jimenez-Cordero et al. 2021, sec. 4.3; Labbe et al. 2019's model) solved by HiGHS: the LP-relaxation
shortcut (``lp_first``) against branch and bound alone, and the campaign's node limit against a time limit.

One jimenez2021 outer fold's training side per dataset (:func:`benchmarks.common.train_side`: the registry's reader,
the campaign's splits, min-max to [-1, 1] on that side), B and M as config/campaigns/jimenez2021/nested.yaml sets them.
One HiGHS thread, as a select job runs.
"""

from __future__ import annotations

import time

import numpy as np

from benchmarks.common import blas_threads, train_side

QUESTION = "How long does HiGHS take on MILP-FS, with the LP relaxation first and with the campaign's node limit?"
DATA = "jimenez2021's outer fold 0 training sides of colon (55 x 2000), pima (691 x 8) and WDBC (512 x 30), [-1, 1], B and M as the campaign sets them"
TOPIC = "solvers"
RESULTS = "milp_fs"
CASES = {
    "lp_first": {"question": "Does solving MILP-FS's LP relaxation first give branch and bound's objective, and how much time does it save?",
                 "data": "colon, pima and WDBC fold 0 at the campaign's C values (WDBC: the three smallest, where its budget does not bind), 600 s limit (quick: colon and pima at C = 1e-4, 1)"},
    "node_limit": {"question": "With the campaign's limit of 50 000 branch-and-bound nodes, is the incumbent the same when solved again, and how far is it from the bound against the former 600 s limit alone?",
                   "data": "WDBC and pima fold 0 at C = 1, 100, 1e4 (where the budget binds) (quick: WDBC at C = 1 only)"},
}
#: dataset: (B, M, C values), B and M as config/campaigns/jimenez2021/nested.yaml sets them
SETUP = {"colon": (50, 1.0, (1e-4, 1e-2, 1.0, 1e2, 1e4)), "pima": (5, 1.0, (1e-4, 1e-2, 1.0, 1e2, 1e4)),
         "wdbc": (10, 200.0, (1e-4, 1e-2, 1.0))}  # fmt: skip


def timed_fit(X, y, **params):
    from svmfs.methods.milp_fs import MILPFS

    params = {"time_limit": 600.0, **params}
    t, c = time.perf_counter(), time.process_time()
    sel = MILPFS(**params).fit(X, y)
    return sel, time.perf_counter() - t, time.process_time() - c


def lp_first(quick: bool) -> list[dict]:
    rows = []
    for name in ("colon", "pima") if quick else ("colon", "pima", "wdbc"):
        B, M, Cs = SETUP[name]
        X, y, fold = train_side(name, fold_index=0)
        for C in (1e-4, 1.0) if quick else Cs:
            lp, t_lp, c_lp = timed_fit(X, y, C=C, B=B, M=M)
            bb, t_bb, c_bb = timed_fit(X, y, C=C, B=B, M=M, lp_first=False)
            o_lp, o_bb = lp.diagnostics_["objective"], bb.diagnostics_["objective"]
            rows.append({"data": f"{name} {X.shape[0]} x {X.shape[1]} (fold {fold})", "C": C, "B": B, "lp_first_route": lp.diagnostics_["route"],
                         "lp_first_cpu_s": round(c_lp, 2), "features": int(lp.support_.sum()), "branch_and_bound_cpu_s": round(c_bb, 2),
                         "branch_and_bound_status": bb.diagnostics_["status"], "objectives_agree": bool(abs(o_lp - o_bb) <= 1e-6 * max(1.0, abs(o_bb))),
                         "objective": float(f"{o_bb:.10g}")})  # fmt: skip
    return rows


def node_limit(quick: bool, limit: int = 50000) -> list[dict]:
    rows = []
    for name in ("wdbc", "pima"):
        B, M, _ = SETUP[name]
        X, y, fold = train_side(name, fold_index=0)
        for C in (1.0,) if quick and name == "wdbc" else (1.0, 1e2, 1e4):
            for params in ({"node_limit": limit}, {}):
                sel, wall, cpu = timed_fit(X, y, C=C, B=B, M=M, **params)
                d = sel.diagnostics_
                again = ""
                if params:
                    sel2, *_ = timed_fit(X, y, C=C, B=B, M=M, **params)
                    again = bool(np.array_equal(sel.weights_, sel2.weights_) and d["objective"] == sel2.diagnostics_["objective"])
                gap = (d["objective"] - d["bound"]) / abs(d["objective"]) if d.get("bound") is not None else None
                rows.append({"data": f"{name} {X.shape[0]} x {X.shape[1]} (fold {fold})", "C": C,
                             "limit": f"{limit} nodes" if params else "600 s", "status": d["status"], "nodes": d["n_iter"],
                             "objective": float(f"{d['objective']:.10g}"), "bound": None if d.get("bound") is None else float(f"{d['bound']:.10g}"),
                             "gap": None if gap is None else float(f"{gap:.3g}"), "wall_s": round(wall, 1), "cpu_s": round(cpu, 1),
                             "rerun_same_w_and_objective": again})  # fmt: skip
    return rows


def run(case: str, quick: bool = False) -> list[dict]:
    with blas_threads(1):
        return lp_first(quick) if case == "lp_first" else node_limit(quick)
