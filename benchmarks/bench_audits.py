"""Selection-bias audits on Rinaldi & Sciandrone's splits of sonar / ionosphere / musk (10 random train/test
instances of the paper's sizes, z-scores per training side, 5-fold inner CV, the campaign's linear C grid):
linear SVM and RFE-SVM at r = 20, nested accuracy next to test_tuned, global_scaling and global_selection,
straight from the library (no workflow). Reads ../shared/data (the project's copies). Usage:

    PYTHONPATH=src OMP_NUM_THREADS=1 python benchmarks/bench_audits.py sonar ionosphere [musk]

Result (2026-11-25, machine shared by 8 engineers: sonar + ionosphere took 12 min, musk 36 min)
in benchmarks/RESULTS.md, "Selection-bias audits".
"""
import json, sys, time
import numpy as np, pandas as pd
from svmfs.protocol.select_job import run_select_job
from svmfs.protocol.audits import run_global_selection
from svmfs.protocol.splits import make_splits
from svmfs.protocol.seeds import audit_global_seed, job_seed, splits_seed
from svmfs.analysis.optimism import optimism_table

D = "/work/shared/data"
def load(name):
    if name == "sonar":
        df = pd.read_csv(f"{D}/sonar/sonar.csv", header=None); return df.iloc[:, :-1].to_numpy(float), np.where(df.iloc[:, -1] == "M", 1, -1)
    if name == "ionosphere":
        df = pd.read_csv(f"{D}/ionosphere/ionosphere.csv", header=None); return df.iloc[:, :-1].to_numpy(float), np.where(df.iloc[:, -1] == "g", 1, -1)
    df = pd.read_csv(f"{D}/musk/clean1.data", header=None); return df.iloc[:, 2:-1].to_numpy(float), np.where(df.iloc[:, -1] == 1, 1, -1)
sizes = {"ionosphere": (300, 51), "sonar": (180, 28), "musk": (430, 46)}
camp = {"normalization": {"method": "zscore", "scope": "fold"}, "inner_cv": {"n_splits": 5},
        "final_classifier": {"linear": {"C": [0.001, 0.01, 0.1, 1.0, 10.0, 100.0]}}, "audits": ["test_tuned", "global_scaling"]}
methods = {"svm_linear": {}, "svm_rfe_r20": {"method": "svm_rfe", "grid": {"C": [0.01, 0.1, 1.0, 10.0]}, "params": {"n_features_to_select": 20}}}
rows = []; grecs = []
for ds in sys.argv[1:]:
    X, y = load(ds); tr, te = sizes[ds]
    folds = make_splits(y, {"kind": "random_train_test", "n_instances": 10, "train_size": tr, "test_size": te}, splits_seed(20100415, ds), ds)
    for m, cfg in methods.items():
        t = time.time()
        seeds = [job_seed(20100415, ds, f["fold"], m, "default") for f in folds]
        for f, s in zip(folds, seeds):
            r = run_select_job(X, y, f, m, cfg, camp, s)
            rows += [{"dataset": ds, "method": m, "setting": "default", "fold": f["fold"], "protocol": p, "accuracy": r[k]}
                     for p, k in (("nested", "test_accuracy"), ("test_tuned", "audit_test_tuned_accuracy"), ("global_scaling", "audit_global_scaling_accuracy"))]
        if m != "svm_linear":
            g = run_global_selection(X, y, folds, m, cfg, camp, audit_global_seed(20100415, ds, m, "default"), seeds)
            rows += [{"dataset": ds, "method": m, "setting": "default", "fold": f["fold"], "protocol": "global_selection", "accuracy": f["accuracy"]} for f in g["folds"]]
        print(ds, m, round(time.time() - t, 1), "s", flush=True)
folds = pd.DataFrame(rows)
print(optimism_table(folds).round(2).to_string(index=False))
