"""Rinaldi & Sciandrone's RFE-SVM at the SPIDER toolbox's defaults (sheet rows R26 (c) and R27 (b)).

Section 5.3 runs "the Matlab implementation of RFE-SVM provided by SPIDER Toolbox" and states neither its
schedule nor its C. SPIDER's defaults (its ``rfe`` and ``svm`` objects): ``speed = 0``, i.e. floor(n / 2) of the
remaining features removed per iteration, the last removal capped so that exactly r remain, by the smallest w_j^2;
the base ``svm`` at ``C = Inf`` with ``ridge = 1e-13`` on the kernel, a hard margin; the machine scored is the SVM
trained on the r features kept. A hard margin exists only where the training side is linearly separable on the
active features; there the SVM at any C above its largest alpha is that solution (the ridge moves alpha by about
1e-13 relative). On a side that is not separable, the ridge alone bounds the dual (alpha of order 1e13) and what
SPIDER's optimizer returns is not reproduced here: such an instance is counted, not scored.

For each instance of a campaign's results (``results/<campaign>/``: datasets, splits, z-scores on the training
side as the campaign, r from its ``fs_svmcp`` records or the sizes given), at every iteration: an LP (HiGHS)
decides whether y_i (w.x_i + b) >= 1 is feasible on the active features; if so, libsvm at C = 1e6 and the check
that every alpha is below C give the hard-margin w. Prints per dataset and r: instances separable at every
iteration, their test accuracy (mean, 95 % t interval) and the campaign's record for the same instances.

Usage: python benchmarks/bench_rinaldi_spider_defaults.py RESULTS_DIR [DATASET[:r,r,...] ...]
       (e.g. results/rinaldi2010_paper colon:matched,20,40,80 leukemia:matched ionosphere:matched)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
from scipy.optimize import linprog
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_rinaldi_solver import ci  # noqa: E402

C_HARD = 1e6


def separable(X, y) -> bool:
    """Whether y_i (w.x_i + b) >= 1 has a solution (an LP feasibility problem, HiGHS)."""
    n, p = X.shape
    A = -y[:, None] * np.hstack([X, np.ones((n, 1))])
    res = linprog(np.zeros(p + 1), A_ub=A, b_ub=-np.ones(n), bounds=[(None, None)] * (p + 1), method="highs")
    return res.status == 0


def hard_margin(X, y):
    """The hard-margin linear SVM on a separable side, or None where alpha reaches C (not the hard margin)."""
    m = SVC(kernel="linear", C=C_HARD, tol=1e-6).fit(X, y)
    return m if np.max(np.abs(m.dual_coef_)) < C_HARD * (1 - 1e-9) else None


def spider_rfe(X, y, r):
    """SPIDER's rfe at speed = 0 on a hard-margin svm; None where a side is not separable."""
    active = np.arange(X.shape[1])
    while True:
        if not separable(X[:, active], y):
            return None
        m = hard_margin(X[:, active], y)
        if m is None:
            return None
        if active.size <= r:
            return active, m
        w = m.coef_.ravel()
        n_remove = min(active.size // 2, active.size - r)
        active = np.delete(active, np.argsort(w**2, kind="stable")[:n_remove])


def main(results: Path, specs):
    runs = results / "runs"
    print("| dataset | r | instances separable at every iteration | test accuracy, SPIDER defaults (those) | "
          "campaign rfe_svm (same instances) | campaign rfe_svm_*_halve (same instances) |")
    print("| --- | --- | ---: | --- | --- | --- |")
    for spec in specs:
        name, _, sizes = spec.partition(":")
        d = np.load(results / "datasets" / f"{name}.npz", allow_pickle=False)
        X, y = d["X"].astype(float), d["y"].astype(float)
        folds = json.loads((results / "splits" / f"{name}.json").read_text())["folds"]
        for size in (sizes or "matched").split(","):
            acc, ours, halve, n_ok = [], [], [], 0
            for f in folds:
                k = int(f["fold"])
                if size == "matched":
                    r = int(json.loads((runs / name / "fs_svmcp" / "default" / f"fold-{k}.json").read_text())["n_selected"])
                    base, setting = "rfe_svm_matched", "default"
                else:
                    r, base, setting = int(size), "rfe_svm_fixed", f"n_features_to_select-{size}"
                tr, te = np.asarray(f["train"]), np.asarray(f["test"])
                sc = StandardScaler().fit(X[tr])
                Xtr, Xte = sc.transform(X[tr]), sc.transform(X[te])
                out = spider_rfe(Xtr, y[tr], r)
                if out is None:
                    continue
                n_ok += 1
                active, m = out
                acc.append(100 * np.mean(m.predict(Xte[:, active]) == y[te]))
                for lst, meth in ((ours, base), (halve, f"{base}_halve")):
                    p = runs / name / meth / setting / f"fold-{k}.json"
                    lst.append(100 * json.loads(p.read_text())["test_accuracy"] if p.exists() else np.nan)
            fmt = (lambda v: ci(v) if len(v) and not np.isnan(v).any() else "-")
            print(f"| {name} | {size} | {n_ok} of {len(folds)} | {fmt(acc)} | {fmt(ours)} | {fmt(halve)} |")


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2:])
