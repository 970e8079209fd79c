"""CPU time of one isotropic_cv, Algorithm 1's initial solution (Jimenez-Cordero et al. 2021, sec. 3.3: 17 C x 9 gamma
x 5 inner folds), on fold 0's training side of wdbc, pima and colon scaled to [-1, 1] on that side: what each MM-FS
or KP-FS job without `initial_solution: shared` spends before its NLP (issue 34). Data from ../shared/data and
scikit-learn's WDBC. Run: OMP_NUM_THREADS=1 PYTHONPATH=src python benchmarks/bench_initial_solution.py colon wdbc pima
"""
import time, sys
import numpy as np
from sklearn.datasets import load_breast_cancer
from svmfs.protocol.normalize import normalize_fold
from svmfs.protocol.splits import make_splits
from svmfs.solvers.mmfs_nlp import PAPER_C_GRID, PAPER_GAMMA_GRID, isotropic_cv

def load(name):
    if name == "wdbc":
        X, y = load_breast_cancer(return_X_y=True)
        return X, np.where(y == 0, 1.0, -1.0)
    if name == "pima":
        a = np.loadtxt("/work/shared/data/pima/pima-indians-diabetes.csv", delimiter=",")
        return a[:, :-1], np.where(a[:, -1] == 1, 1.0, -1.0)
    X = np.loadtxt("/work/shared/data/colon/I2000.txt").T
    y = np.sign(np.loadtxt("/work/shared/data/colon/tissue.txt"))
    return X, y

for name in sys.argv[1:]:
    X, y = load(name)
    fold = make_splits(y, {"kind": "stratified_kfold", "n_splits": 10}, 0)[0]
    tr, te = np.asarray(fold["train"]), np.asarray(fold["test"])
    Xtr = normalize_fold(X, tr, te, "minmax_pm1")[0]
    t0, c0 = time.perf_counter(), time.process_time()
    out = isotropic_cv(Xtr, y[tr], PAPER_C_GRID, PAPER_GAMMA_GRID, 5, 1)
    print(name, Xtr.shape, out, f"cpu {time.process_time()-c0:.1f} s wall {time.perf_counter()-t0:.1f} s", flush=True)
