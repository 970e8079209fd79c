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

``--c-path``: pima's MILP-FS on all 10 outer folds of jimenez2021 over the paper's whole C grid (section
4.3: 1e-4 ... 1e-1, 1, 2, ..., 9, 10, ..., 1e4; the campaign tunes over 5 of its values). Per C: the
test accuracy of the hyperplane w.x + b on each outer fold, the features kept, and on how many folds it
predicts the majority class for every test sample (the paper: its MILP-FS off the shelf "just predicts
correctly the predominant class" on diabetes, 67.44 %). Then whole select jobs (``run_select_job``, the
campaign's seeds) with the campaign's grid, whose records must equal the committed ones, and with the
paper's whole grid: nested accuracy and the test_tuned audit.
Usage: python benchmarks/bench_milp_fs.py --c-path
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


PAPER_C = (1e-4, 1e-3, 1e-2, 1e-1, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 1e2, 1e3, 1e4)


def main_c_path(name="pima", published=67.44):
    import json

    import pandas as pd

    from bench_mmfs import ROOT, SHARED
    from svmfs.analysis.reproduction import t_interval
    from svmfs.config import job_campaign_config, job_method_config, load_config
    from svmfs.data.formats import read_download
    from svmfs.data.registry import load_registry
    from svmfs.protocol.normalize import normalize_fold
    from svmfs.protocol.seeds import job_seed, splits_seed
    from svmfs.protocol.select_job import run_select_job
    from svmfs.protocol.splits import make_splits

    cfg = load_config(ROOT / "reproduction" / "jimenez2021" / "config.yaml", workdir=ROOT)  # the export's config
    camp, method_cfg = job_campaign_config(cfg, name, "milp_fs"), job_method_config(cfg, name, "milp_fs")
    ds = read_download(name, load_registry(ROOT / "config" / "datasets.yaml")[name], SHARED)
    folds = make_splits(ds.y, camp["splits"], splits_seed(cfg["seed"], name), name)
    params = method_cfg["params"]
    committed = pd.read_parquet(ROOT / "reproduction" / "jimenez2021" / "records.parquet")
    committed = committed[(committed.dataset == name) & (committed.method == "milp_fs")].set_index("fold")

    def summary(accs):
        lo, hi = t_interval(accs)
        inside = "yes" if lo <= published / 100 <= hi else "no"
        return f"{100 * np.mean(accs):.2f} [{100 * lo:.2f}, {100 * hi:.2f}] | {inside}"

    print(f"### Per C, {name}, 10 outer folds (published {published}; majority class "
          f"{100 * max(np.mean(ds.y == c) for c in np.unique(ds.y)):.2f} %)\n")  # fmt: skip
    print("| C | test accuracy, mean [95 % t] | published inside | features (min-max) | folds predicting one class only |")
    print("| --- | --- | --- | --- | --- |")
    for C in PAPER_C:
        accs, nsel, one_class = [], [], 0
        for f in folds:
            tr, te = np.asarray(f["train"]), np.asarray(f["test"])
            Xtr, Xte, _ = normalize_fold(ds.X.astype(float), tr, te, camp["normalization"]["method"])
            sel = MILPFS(C=C, **params).fit(Xtr, ds.y[tr])
            pred = sel.own_predict(Xte)  # how the campaign's final classifier ``own`` scores it
            accs.append(float(np.mean(pred == ds.y[te])))
            nsel.append(int(sel.support_.sum()))
            one_class += int(np.unique(pred).size == 1)
        print(f"| {C:g} | {summary(accs)} | {min(nsel)}-{max(nsel)} | {one_class} of {len(folds)} |", flush=True)

    print("\n### Whole select jobs (inner 5-fold CV, the campaign's seeds)\n")
    print("| C grid | nested accuracy [95 % t] | published inside | test_tuned [95 % t] | published inside | equal to the committed records |")
    print("| --- | --- | --- | --- | --- | --- |")
    for label, grid in (("campaign's 5 values", method_cfg["grid"]["C"]), ("paper's 17 values", list(PAPER_C))):
        job_cfg = {**method_cfg, "grid": {"C": grid}}
        nested, tuned, same = [], [], 0
        for f in folds:
            seed = job_seed(cfg["seed"], name, f["fold"], "milp_fs", "default")
            rec = run_select_job(ds.X, ds.y, f, "milp_fs", job_cfg, camp, seed)
            nested.append(rec["test_accuracy"])
            tuned.append(rec["audit_test_tuned_accuracy"])
            c = committed.loc[f["fold"]]
            same += int(rec["test_accuracy"] == c["test_accuracy"] and json.loads(c["selected"]) == rec["selected"])
        print(f"| {label} | {summary(nested)} | {summary(tuned)} | {same} of {len(folds)} |", flush=True)


if __name__ == "__main__":
    with threadpool_limits(1):
        if sys.argv[1:2] == ["--c-path"]:
            main_c_path()
        elif sys.argv[1:2] == ["--nodes"]:
            main_nodes(sys.argv[2:] or ["wdbc", "pima"])
        else:
            main(sys.argv[1:] or list(CASES))
