"""KP-SVM (Algorithm 1) and kernel SVM-RFE on microarray data: iterations, time, selected features.

Colon (Alon, 62 x 2000) and leukemia (Golub train + test, 72 x 7129) from ../shared/data, read with the
project's dataset registry and readers, z-scored. For KP-SVM: C and v0 from the isotropic inner CV
(section 6's model selection; 5 folds, sigma grid of section 5.2, C in {0.1, 1, 10, 100, 1000}), then
Algorithm 1 with the paper's defaults (eps = v0 / 4, gamma = 0.25, beta = 5) for a few C2, with the
relative step (the default before issue 20; now "shrink", see bench_kp_svm_issue20.py) and the
paper's literal (absolute) step. Also a
stratified 5-fold CV accuracy of the KP-SVM model (SVC on kernel (11) with the final v) on colon, and
kernel SVM-RFE timing (C = 1, gamma = scale, 10 % per step down to 100 features, then one).

Run: python benchmarks/bench_kp_svm.py  (appends a section to benchmarks/RESULTS.md with --write).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
from sklearn.model_selection import StratifiedKFold
from sklearn.svm import SVC

from svmfs.data.formats import read_download
from svmfs.data.registry import load_registry
from svmfs.methods.kp_svm import KPSVM
from svmfs.methods.rfe_kernel import RFEKernel
from svmfs.solvers.anisotropic import kp_kernel

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
C2S = (1.0, 10.0, 100.0, 1000.0)


def load(name):
    ds = read_download(name, load_registry(ROOT / "config" / "datasets.yaml")[name], SHARED)
    X = ds.X.astype(float)
    sd = X.std(0)
    return (X - X.mean(0)) / np.where(sd > 0, sd, 1.0), ds.y.astype(float)


def kp_cv_accuracy(X, y, C2, folds=5):
    acc, sizes = [], []
    for tr, te in StratifiedKFold(folds, shuffle=True, random_state=0).split(X, y):
        sel = KPSVM(C2=C2).fit(X[tr], y[tr])
        v = sel.weights_
        svc = SVC(C=sel.C_, kernel="precomputed").fit(kp_kernel(X[tr], v), y[tr])
        acc.append(np.mean(svc.predict(kp_kernel(X[te], v, X[tr])) == y[te]))
        sizes.append(int(sel.support_.sum()))
    return float(np.mean(acc)), sizes


def main():
    lines = []
    for name in ("colon", "leukemia"):
        X, y = load(name)
        for C2, scale in [(c2, "relative") for c2 in C2S] + [(1.0, "absolute"), (100.0, "absolute")]:
            sel = KPSVM(C2=C2, step_scale=scale).fit(X, y)
            d = sel.diagnostics_
            vc = d["v_change"]
            lines.append(
                f"| {name} {X.shape[0]} x {X.shape[1]} | KP-SVM C2={C2:g}, step {scale} | C={d['C']:g}, v0={d['v0']:.4g} | "
                f"{d['n_iter']} | {d['status']} | {int(sel.support_.sum())} | {d['time_s']:.1f} s | "
                f"{vc[0]:.3g} -> {vc[-1]:.3g} |"
            )
            print(lines[-1], flush=True)
        t = time.perf_counter()
        r = RFEKernel(C=1.0).fit(X, y)
        lines.append(
            f"| {name} {X.shape[0]} x {X.shape[1]} | kernel SVM-RFE (full ranking) | C=1, gamma=scale | "
            f"{r.n_iter_} | ok | - | {time.perf_counter() - t:.1f} s | - |"
        )
        print(lines[-1], flush=True)
    X, y = load("colon")
    cv = []
    for C2 in C2S:
        t = time.perf_counter()
        acc, sizes = kp_cv_accuracy(X, y, C2)
        cv.append(f"- colon, C2={C2}: 5-fold CV accuracy {acc:.3f}, selected per fold {sizes}, "
                  f"{time.perf_counter() - t:.0f} s")
        print(cv[-1], flush=True)
    if "--write" in sys.argv:
        text = "\n".join([
            "", f"## KP-SVM and kernel SVM-RFE on microarrays (`bench_kp_svm.py`, {time.strftime('%Y-%m-%d')})", "",
            "Machine: 2 cores (shared with other jobs while measuring), 24 GiB. Data z-scored; KP-SVM's C and v0",
            "from the isotropic inner CV (included in the time), eps = v0/4, gamma = 0.25, beta = 5, v_max = 10 v0,",
            "tol = 1e-4 on ||v^{t+1} - v^t||_1, max_iter = 200.", "",
            "| data | method | start | iterations | status | selected | time | v change first -> last |",
            "| --- | --- | --- | --- | --- | --- | --- | --- |", *lines, "", *cv, "",
        ])
        with open(ROOT / "benchmarks" / "RESULTS.md", "a") as f:
            f.write(text)


if __name__ == "__main__":
    main()
