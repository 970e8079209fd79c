"""Algorithm 1's initial solution tuned once per outer fold and shared (Jimenez-Cordero et al. 2021, sec. 3.3 and
4.3; ``methods.<name>.initial_solution: shared``), and Table 2's counts pooled over the folds (sec. 5.1)."""

import math

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.svm import SVC

from conftest import merge_config
from svmfs.analysis.reproduction import reproduction_table
from svmfs.config import ConfigError, load_config
from svmfs.methods.kp_fs_offshelf import KPFSOffShelf
from svmfs.protocol.initial_solution import apply_initial_solution, tune_initial_solution
from svmfs.protocol.normalize import normalize_fold
from svmfs.protocol.seeds import initial_solution_seed, job_seed
from svmfs.protocol.select_job import run_select_job
from svmfs.protocol.splits import make_splits
from svmfs.solvers.mmfs_nlp import PAPER_C_GRID, PAPER_GAMMA_GRID, isotropic_cv

NORM = {"method": "minmax_pm1", "scope": "fold"}


@pytest.fixture(scope="module")
def data():
    X, y = load_breast_cancer(return_X_y=True)
    y = np.where(y == 0, 1.0, -1.0)
    idx = np.random.default_rng(1).choice(y.size, 80, replace=False)
    X, y = X[idx][:, :8], y[idx]
    fold = make_splits(y, {"kind": "stratified_kfold", "n_splits": 4}, 0)[0]
    seed = initial_solution_seed(20210601, "wdbc", 0)
    return X, y, fold, tune_initial_solution(X, y, fold, NORM, 3, seed)


def _campaign(final):
    return {"normalization": NORM, "inner_cv": {"n_splits": 3}, "final_classifier": final}


def test_the_shared_solution_is_one_isotropic_cv_on_the_folds_training_side(data):
    X, y, fold, init = data
    train, test = np.asarray(fold["train"]), np.asarray(fold["test"])
    Xtr = normalize_fold(X, train, test, "minmax_pm1")[0]
    C, g, acc = isotropic_cv(Xtr, y[train], PAPER_C_GRID, PAPER_GAMMA_GRID, 3, init["seed"])
    assert (init["C"], init["gamma_ini"], init["cv_accuracy"]) == (C, g, acc)
    assert init["seed"] == initial_solution_seed(20210601, "wdbc", 0) != initial_solution_seed(20210601, "wdbc", 1)


def test_every_c2_setting_of_a_fold_starts_from_the_shared_c_and_gamma(data):
    """Two C2 settings, each with its own job seed (which draws its own inner folds without the key): both
    records hold the fold's (C*, gamma_ini), and MM-FS solved (20) with them."""
    X, y, fold, init = data
    campaign = _campaign({"anisotropic": {"C": [1.0], "C_source": "selector"}})
    recs = [run_select_job(X, y, fold, "mm_fs", {"params": {"max_iter": 200}, "initial_solution": "shared"}, campaign,
                           seed=job_seed(20210601, "wdbc", 0, "mm_fs", f"C2-{c2}"), setting={"C2": c2}, initial=init)
            for c2 in (0.1, 0.9)]  # fmt: skip
    for rec in recs:
        assert rec["selector_params"]["C"] == init["C"] and rec["selector_params"]["gamma_ini"] == init["gamma_ini"]
        assert rec["diagnostics"]["C"] == init["C"] and rec["diagnostics"]["gamma_ini"] == init["gamma_ini"]
        assert rec["final_params"] == {"C": init["C"]}  # (10) re-solved with C*
        assert rec["initial_solution"]["seed"] == init["seed"]
    assert recs[0]["seed"] != recs[1]["seed"]


def test_no_fs_with_the_shared_solution_is_algorithm_1s_initial_svm(data):
    """Sec. 4.3: "the NO-FS method boils down to the classification results given by the initial solution of
    Algorithm 1": the Gaussian SVM with (C*, gamma_ini) on the training side, scored once on the test side."""
    X, y, fold, init = data
    campaign = _campaign({"rbf": {"C": PAPER_C_GRID, "gamma": PAPER_GAMMA_GRID, "gamma_per_feature": False}})
    rec = run_select_job(X, y, fold, "svm_rbf", {"initial_solution": "shared"}, campaign, seed=7, initial=init)
    assert rec["final_params"] == {"C": init["C"], "gamma": init["gamma_ini"]}
    train, test = np.asarray(fold["train"]), np.asarray(fold["test"])
    Xtr, Xte, _ = normalize_fold(X, train, test, "minmax_pm1")
    svc = SVC(C=init["C"], gamma=init["gamma_ini"]).fit(Xtr, y[train])
    assert rec["test_accuracy"] == np.mean(svc.predict(Xte) == y[test])


def test_kp_fs_starts_from_the_shared_isotropic_width():
    fixed, final = apply_initial_solution(KPFSOffShelf, "anisotropic", {}, {"C": 5.0, "gamma_ini": 0.02})
    assert fixed == {"C": 5.0, "v0": math.sqrt(0.04)} and final == {}  # gamma_ini = v0^2 / 2


BASE = {
    "campaign": "t",
    "datasets": {"sparse_polynomial": {"params": {"n": 60}}},
    "splits": {"kind": "stratified_kfold", "n_splits": 3},
    "final_classifier": {"rbf": {"C": [1.0], "gamma": [0.1], "gamma_per_feature": False}},
}


@pytest.mark.parametrize("methods,fragment", [
    ({"l1_svm": {"final": "own", "initial_solution": "shared"}},
     "methods.l1_svm.initial_solution: 'shared' needs a method with C and gamma_ini"),
    ({"mm_fs": {"settings": {"C": [1.0, 2.0]}, "initial_solution": "shared"}},
     "methods.mm_fs.initial_solution: 'shared' sets C from the fold's initial solution"),
    ({"mm_fs": {"initial_solution": "yes"}}, "initial_solution"),
])  # fmt: skip
def test_a_method_that_cannot_share_the_initial_solution_is_refused(methods, fragment, write_config, root):
    with pytest.raises(ConfigError, match=fragment):
        load_config(write_config(merge_config(BASE, {"methods": methods})), workdir=root)


def test_a_method_that_can_share_it_is_accepted(write_config, root):
    cfg = load_config(write_config(merge_config(BASE, {"methods": {
        "mm_fs": {"initial_solution": "shared", "settings": {"C2": [0.1, 0.9]}},
        "svm_rbf": {"initial_solution": "shared"}, "kp_fs_offshelf": {"initial_solution": "shared"}}})), workdir=root)  # fmt: skip
    assert cfg["methods"]["svm_rbf"]["initial_solution"] == "shared"


def _colon_records(accs, n_test):
    return pd.DataFrame([dict(dataset="colon", dataset_group="colon", method="svm_rbf", setting="default", fold=f,
                              status="ok", test_accuracy=a, n_test=n, train_accuracy=1.0, n_selected=2000)
                         for f, (a, n) in enumerate(zip(accs, n_test))])  # fmt: skip


def test_a_paper_protocol_campaign_pools_the_correct_counts_over_the_folds():
    """Sec. 5.1, "the percentage of well classified over the 10 folds" (colon NO-FS 83.87 = 52/62): counts
    pooled, where the nested protocol averages the folds."""
    accs, n_test = [6 / 7, 7 / 7, 4 / 6, 6 / 6], [7, 7, 6, 6]  # 23 of 26 correct
    records = _colon_records(accs, n_test)
    key = (records, ["jimenez2021"])
    paper = reproduction_table(*key, protocol={"kind": "paper", "primary": True}).set_index("key")
    nested = reproduction_table(*key).set_index("key")
    k = "jimenez2021|Table 2|colon|svm_rbf|test_accuracy||"
    assert paper.loc[k, "ours"] == pytest.approx(100 * 23 / 26, abs=1e-12)
    assert nested.loc[k, "ours"] == pytest.approx(100 * np.mean(accs), abs=1e-12)
    assert "pooled" in paper.loc[k, "note"]


def test_restore_recomputes_the_shared_solutions_its_jobs_read(write_config, root):
    """``reproduce restore`` writes records back as select outputs: the shared initial solutions those jobs
    take as input are listed for the workflow to build first (one per dataset and fold, shared methods only)."""
    from pathlib import Path

    from svmfs.reproduce.restore import _initial_solutions

    cfg = merge_config(BASE, {"methods": {"mm_fs": {"initial_solution": "shared", "settings": {"C2": [0.1, 0.9]}},
                                          "l1_svm": {"final": "own"}}})  # fmt: skip
    rows = [pd.Series({"dataset": "sparse_polynomial", "method": m, "fold": f}) for m in ("mm_fs", "l1_svm") for f in (1, 0, 1)]
    assert _initial_solutions(cfg, Path("r/t"), rows) == [
        "r/t/initial_solution/sparse_polynomial/fold-0.json", "r/t/initial_solution/sparse_polynomial/fold-1.json"]


@pytest.mark.workflow
def test_the_workflow_tunes_once_per_fold_and_every_setting_and_no_fs_read_it(tmp_path):
    """End to end through Snakemake: one rule initial_solution job per (dataset, fold); each MM-FS setting of a
    fold starts from its (C*, gamma_ini), and NO-FS is the Gaussian SVM with them."""
    import json

    from test_workflow import snakemake

    cfg = {
        "campaign": "shared", "seed": 7,
        "datasets": {"sparse_polynomial": {"params": {"n": 60, "kind": "f2"}}},
        "splits": {"kind": "stratified_kfold", "n_splits": 3}, "inner_cv": {"n_splits": 3},
        "normalization": {"method": "minmax_pm1", "scope": "fold"},
        "final_classifier": {"rbf": {"C": [1.0], "gamma": [1.0], "gamma_per_feature": False},
                             "anisotropic": {"C": [1.0], "C_source": "selector"}},
        "methods": {"mm_fs": {"initial_solution": "shared", "settings": {"C2": [0.1, 0.9]}, "params": {"route": "reduced"}},
                    "svm_rbf": {"initial_solution": "shared"}},
    }  # fmt: skip
    snakemake(tmp_path, "--cores", "1", "results/shared/records.parquet", config=cfg)
    out = tmp_path / "results" / "shared"
    assert sorted(p.name for p in (out / "initial_solution" / "sparse_polynomial").iterdir()) == [f"fold-{k}.json" for k in range(3)]
    for k in range(3):
        init = json.loads((out / "initial_solution" / "sparse_polynomial" / f"fold-{k}.json").read_text())
        assert init["seed"] == initial_solution_seed(7, "sparse_polynomial", k)
        for c2 in ("C2-0.1", "C2-0.9"):
            rec = json.loads((out / "runs" / "sparse_polynomial" / "mm_fs" / c2 / f"fold-{k}.json").read_text())
            assert (rec["selector_params"]["C"], rec["selector_params"]["gamma_ini"]) == (init["C"], init["gamma_ini"])
        rec = json.loads((out / "runs" / "sparse_polynomial" / "svm_rbf" / "default" / f"fold-{k}.json").read_text())
        assert rec["final_params"] == {"C": init["C"], "gamma": init["gamma_ini"]}


def test_the_tie_rule_of_the_isotropic_cv_picks_the_largest_c_among_the_best_pairs(data):
    """Sheet row J12: section 3.3 names no tie rule. Both rules find the same best accuracy; "largest" takes the
    largest C holding it (then its smallest gamma), "smallest" the first pair in grid order; computed by brute
    force from the same folds' accuracy table, and a grid on which every pair ties (two separated clusters)."""
    X, y, fold, init = data
    train, test = np.asarray(fold["train"]), np.asarray(fold["test"])
    Xtr, ytr = normalize_fold(X, train, test, "minmax_pm1")[0], y[train]
    small = isotropic_cv(Xtr, ytr, PAPER_C_GRID, PAPER_GAMMA_GRID, 3, init["seed"])
    large = isotropic_cv(Xtr, ytr, PAPER_C_GRID, PAPER_GAMMA_GRID, 3, init["seed"], ties="largest")
    assert small[2] == large[2] and large[0] >= small[0]
    best = [(C, g) for C in PAPER_C_GRID for g in PAPER_GAMMA_GRID  # the pairs at the best accuracy, one fit each
            if isotropic_cv(Xtr, ytr, [C], [g], 3, init["seed"])[2] == small[2]]
    assert small[:2] == best[0] and large[0] == max(C for C, _ in best)
    assert large[1] == min(g for C, g in best if C == large[0])
    rng = np.random.default_rng(0)
    Xs = np.vstack([rng.normal(-5, 0.1, (10, 2)), rng.normal(5, 0.1, (10, 2))])
    ys = np.repeat([-1.0, 1.0], 10)
    assert isotropic_cv(Xs, ys, [0.1, 1.0, 10.0], [0.01, 0.1], 2, 0, ties="largest")[:2] == (10.0, 0.01)
    assert isotropic_cv(Xs, ys, [0.1, 1.0, 10.0], [0.01, 0.1], 2, 0)[:2] == (0.1, 0.01)
    with pytest.raises(ValueError, match="ties must be one of"):
        isotropic_cv(Xs, ys, [1.0], [1.0], 2, 0, ties="median")
    assert "ties" not in init and tune_initial_solution(X, y, fold, NORM, 3, init["seed"], "largest")["ties"] == "largest"
