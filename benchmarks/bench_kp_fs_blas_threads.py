"""KP-FS off the shelf on pima folds: the old module (85b8a12) and the new one, each with 1 and 2 BLAS threads
(another summation order, as another CPU's BLAS would take): is the record (widths, objective, AUC) the same?
Run from a campaign folder holding results/jimenez2021 (datasets and splits), inside the repository:
    python benchmarks/bench_kp_fs_blas_threads.py
The old module is taken from git (85b8a12) into a temporary folder, its relative imports made absolute."""
import json, subprocess, sys, tempfile
from pathlib import Path

import numpy as np

_old = subprocess.run(["git", "show", "85b8a12:src/svmfs/methods/kp_fs_offshelf.py"], capture_output=True, text=True, check=True).stdout
_tmp = Path(tempfile.mkdtemp())
(_tmp / "kp_old.py").write_text(_old.replace("from ..solvers", "from svmfs.solvers").replace("from .base", "from svmfs.methods.base"))
sys.path.insert(0, str(_tmp))
from threadpoolctl import threadpool_limits
from sklearn.metrics import roc_auc_score
from svmfs.methods.kp_fs_offshelf import KPFSOffShelf as New
from kp_old import KPFSOffShelf as Old
from svmfs.protocol.classifiers import fit_predict
d = np.load("results/jimenez2021/datasets/pima.npz"); X, y = d["X"], d["y"]
folds = json.load(open("results/jimenez2021/splits/pima.json"))["folds"]
cfg = {"anisotropic": {"C_source": "selector", "widths": "all", "C": [1.0]}}
for k in (0, 5):
    tr, te = np.array(folds[k]["train"]), np.array(folds[k]["test"])
    lo, hi = X[tr].min(0), X[tr].max(0)
    Xs = 2 * (X - lo) / np.where(hi > lo, hi - lo, 1) - 1
    for C2 in (0.5, 0.8):
        for name, cls in (("old", Old), ("new", New)):
            out = []
            for threads in (1, 2):
                with threadpool_limits(threads):
                    s = cls(C2=C2, random_state=k).fit(Xs[tr], y[tr])
                    pred, score = fit_predict("anisotropic", {}, cfg, Xs[tr], y[tr], Xs[te], s.get_support(), s)
                out.append((float(np.sum(s.kernel_widths_)), s.diagnostics_["objective"], roc_auc_score(y[te], score), float(np.mean(pred == y[te]))))
            same = out[0] == out[1]
            print(f"fold {k} C2 {C2} {name}: 1 thread {out[0]}  2 threads {out[1]}  identical {same}", flush=True)
