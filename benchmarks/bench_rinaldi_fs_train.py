"""Rinaldi & Sciandrone's FS-SVMCP training accuracy (published 100 % on colon, 99.83 % on ionosphere): can
any C reach it on the features our FS-SVMCP selected?

On the committed campaign's own instances (``results/<campaign>/splits``, ``datasets``) and the features
each fs_svmcp job selected (``records.parquet``, column ``selected``), z-scored on the training side: the
training accuracy of a linear SVM on those features at every C of the campaign's grid, for libsvm's hinge
(the campaign's final classifier) and LIBLINEAR's hinge (FS-SVMCP's own step-1 SVM). The largest over
the grid bounds what a choice of C alone could report. Mean and 95 % t interval over the instances.

Usage: python benchmarks/bench_rinaldi_fs_train.py RESULTS_DIR [DATASET ...]   (e.g. results/rinaldi2010)
"""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.exceptions import ConvergenceWarning
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC, LinearSVC

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_rinaldi_solver import GRID, ci  # noqa: E402

SOLVERS = {
    "libsvm hinge": lambda C: SVC(kernel="linear", C=C),
    "LIBLINEAR hinge": lambda C: LinearSVC(C=C, loss="hinge", max_iter=100000, random_state=0),
}


def main(results: Path, names):
    warnings.simplefilter("ignore", ConvergenceWarning)
    rec = pd.read_parquet(results / "records.parquet")
    rec = rec[rec["method"] == "fs_svmcp"]
    names = names or sorted(rec["dataset"].unique())
    print("| dataset | solver | features (per instance) | train accuracy, campaign record | "
          + " | ".join(f"train accuracy at C = {C:g}" for C in GRID) + " | best C per instance |")  # fmt: skip
    print("| --- " * (5 + len(GRID)) + "|")
    for name in names:
        d = np.load(results / "datasets" / f"{name}.npz", allow_pickle=False)
        X, y = d["X"].astype(float), d["y"]
        folds = {int(f["fold"]): f for f in json.loads((results / "splits" / f"{name}.json").read_text())["folds"]}
        jobs = rec[rec["dataset"] == name].sort_values("fold")
        for solver, make in SOLVERS.items():
            acc = {C: [] for C in GRID}
            for _, job in jobs.iterrows():
                f = folds[int(job["fold"])]
                sel = np.asarray(json.loads(job["selected"]) if isinstance(job["selected"], str) else job["selected"], dtype=int)
                tr = np.asarray(f["train"])
                Xtr = StandardScaler().fit_transform(X[tr])[:, sel]
                for C in GRID:
                    acc[C].append(100 * np.mean(make(C).fit(Xtr, y[tr]).predict(Xtr) == y[tr]))
            best = np.max(np.array([acc[C] for C in GRID]), axis=0)
            sizes = " ".join(str(len(json.loads(s) if isinstance(s, str) else s)) for s in jobs["selected"])
            print(f"| {name} | {solver} | {sizes} | {ci(100 * jobs['train_accuracy'])} | "
                  + " | ".join(ci(acc[C]) for C in GRID) + f" | {ci(best)} |", flush=True)  # fmt: skip


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2:])
