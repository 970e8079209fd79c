"""Rinaldi & Sciandrone's linear SVM column: libsvm's hinge loss (the campaign) against LIBLINEAR's default.

The paper solves Step 1 and its SVM baseline with LIBLINEAR (section 5), whose default is the L2-regularized
*squared* hinge loss with the bias as a regularized feature (scikit-learn's ``LinearSVC`` is LIBLINEAR with
that default). The campaign's ``svm_linear`` is libsvm's hinge-loss SVC. This measures both on the committed
campaign's own instances (``results/<campaign>/splits``, ``datasets``): C by 5-fold inner CV on the training
side over the campaign's grid (lowest error, ties to the smaller C), z-scored on the training side, then the
training and test accuracy and the number of features with w_j != 0; and, as a bound, the training accuracy
at the grid's largest C. Mean and 95 % t interval over the 10 instances.

Usage: python benchmarks/bench_rinaldi_solver.py RESULTS_DIR [DATASET ...]   (e.g. results/rinaldi2010)
"""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import numpy as np
from scipy.stats import t as student_t
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import StratifiedKFold
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC, LinearSVC

GRID = (0.001, 0.01, 0.1, 1.0, 10.0, 100.0)


def models(C):
    return {
        "libsvm hinge (campaign)": SVC(kernel="linear", C=C),
        "LIBLINEAR squared hinge (paper)": LinearSVC(C=C, max_iter=100000, random_state=0),
        "LIBLINEAR hinge": LinearSVC(C=C, loss="hinge", max_iter=100000, random_state=0),
    }


def coef(m):
    return np.ravel(m.coef_)


def tuned(name, X, y, seed):
    cv = StratifiedKFold(5, shuffle=True, random_state=seed)
    errs = []
    for C in GRID:
        e = 0
        for tr, va in cv.split(X, y):
            m = models(C)[name].fit(X[tr], y[tr])
            e += int(np.sum(m.predict(X[va]) != y[va]))
        errs.append(e)
    return GRID[int(np.argmin(errs))]


def ci(v):
    v = np.asarray(v, dtype=float)
    h = student_t.ppf(0.975, len(v) - 1) * v.std(ddof=1) / np.sqrt(len(v)) if len(v) > 1 else 0.0
    return f"{v.mean():.2f} [{v.mean() - h:.2f}, {v.mean() + h:.2f}]"


def main(results: Path, names):
    warnings.simplefilter("ignore", ConvergenceWarning)
    names = names or sorted(p.stem for p in (results / "splits").glob("*.json"))
    print("| dataset | solver | C (inner CV), per instance | train accuracy | test accuracy | w_j != 0 | train accuracy at C = 100 |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name in names:
        d = np.load(results / "datasets" / f"{name}.npz", allow_pickle=False)
        X, y = d["X"].astype(float), d["y"]
        folds = json.loads((results / "splits" / f"{name}.json").read_text())["folds"]
        for solver in models(1.0):
            tr_acc, te_acc, nnz, tr_max, Cs = [], [], [], [], []
            for f in folds:
                tr, te = np.asarray(f["train"]), np.asarray(f["test"])
                sc = StandardScaler().fit(X[tr])
                Xtr, Xte = sc.transform(X[tr]), sc.transform(X[te])
                C = tuned(solver, Xtr, y[tr], seed=int(f["fold"]))
                m = models(C)[solver].fit(Xtr, y[tr])
                Cs.append(C)
                tr_acc.append(100 * np.mean(m.predict(Xtr) == y[tr]))
                te_acc.append(100 * np.mean(m.predict(Xte) == y[te]))
                nnz.append(int(np.sum(coef(m) != 0)))
                mx = models(GRID[-1])[solver].fit(Xtr, y[tr])
                tr_max.append(100 * np.mean(mx.predict(Xtr) == y[tr]))
            print(f"| {name} | {solver} | {' '.join(f'{c:g}' for c in Cs)} | {ci(tr_acc)} | {ci(te_acc)} | {ci(nnz)} | {ci(tr_max)} |",
                  flush=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2:])
