"""libsvm's stopping tolerance as a campaign key (sheet row J41 of docs/protocols/jimenez2021.md): Jimenez-Cordero
et al. solve the convex SVM problems with CPLEX, this project with libsvm at its 1e-3. ``final_classifier.libsvm_tol``
sets it for every final SVM, ``inner_cv.initial_solution_libsvm_tol`` for Algorithm 1's isotropic CV."""

import cvxpy as cp
import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.svm import SVC

from svmfs.config import campaign_chain, load_config
from svmfs.protocol.classifiers import AnisotropicSVC, make_final
from svmfs.protocol.initial_solution import tune_initial_solution
from svmfs.protocol.splits import make_splits
from svmfs.solvers.mmfs_nlp import aniso_kernel

FINAL = {"rbf": {"gamma_per_feature": False}, "poly": {}, "anisotropic": {}}


@pytest.fixture(scope="module")
def data():
    X, y = load_breast_cancer(return_X_y=True)
    idx = np.random.default_rng(3).choice(y.size, 70, replace=False)
    X = X[idx][:, :6]
    X = (X - X.mean(0)) / X.std(0)
    return X, np.where(y[idx] == 0, 1.0, -1.0)


def _dual_objective(K, y, alpha):
    a = alpha * y
    return float(alpha.sum() - 0.5 * a @ K @ a)


def _clarabel_dual(K, y, C):
    """The SVM dual max e.a - 1/2 (a y)' K (a y), 0 <= a <= C, y.a = 0, solved by CLARABEL: its optimum."""
    L = np.linalg.cholesky(K + 1e-12 * np.eye(len(y)))
    a = cp.Variable(len(y))
    prob = cp.Problem(cp.Maximize(cp.sum(a) - 0.5 * cp.sum_squares(L.T @ cp.multiply(y, a))), [a >= 0, a <= C, y @ a == 0])
    prob.solve(solver=cp.CLARABEL, tol_gap_abs=1e-10, tol_gap_rel=1e-10, tol_feas=1e-10)
    return prob.value


@pytest.mark.parametrize("kind,params", [("linear", {"C": 1.0}), ("rbf", {"C": 1.0, "gamma": 0.5}), ("poly", {"C": 1.0, "degree": 2})])
def test_every_final_svm_takes_the_campaigns_libsvm_tol_and_libsvms_own_without_it(kind, params):
    assert make_final(kind, params, 3, {**FINAL, "libsvm_tol": 1e-8}).tol == 1e-8
    assert make_final(kind, params, 3, FINAL).tol == SVC().tol == 1e-3
    aniso = make_final("anisotropic", {"C": 1.0}, 2, {**FINAL, "libsvm_tol": 1e-8}, widths=[0.3, 0.7])
    assert isinstance(aniso, AnisotropicSVC) and aniso.tol == 1e-8


def test_at_a_tight_libsvm_tol_the_anisotropic_svm_reaches_the_dual_optimum_clarabel_finds(data):
    X, y = data
    widths, C = np.linspace(0.05, 0.4, X.shape[1]), 10.0
    K = aniso_kernel(X, widths)
    best = _clarabel_dual(K, y, C)
    clf = make_final("anisotropic", {"C": C}, X.shape[1], {**FINAL, "libsvm_tol": 1e-8}, widths=widths).fit(X, y)
    alpha = np.zeros(len(y))
    alpha[clf.svc_.support_] = np.abs(clf.svc_.dual_coef_.ravel())
    assert np.all(alpha <= C + 1e-9) and abs(alpha @ y) < 1e-8 * C * len(y)  # feasible
    # libsvm stops when its maximal KKT violation is below tol: at 1e-8 its dual objective is the optimum
    assert abs(_dual_objective(K, y, alpha) - best) <= 1e-6 * abs(best)


def test_the_shared_initial_solution_solves_its_svms_to_the_set_tol_and_records_it_only_then(data, monkeypatch):
    import sklearn.svm

    X, y = data
    seen = set()

    class Recording(SVC):
        def fit(self, *a, **k):
            seen.add(self.tol)
            return super().fit(*a, **k)

    monkeypatch.setattr(sklearn.svm, "SVC", Recording)  # isotropic_cv imports it at call time
    fold = make_splits(y, {"kind": "stratified_kfold", "n_splits": 4}, 0)[0]
    norm = {"method": "minmax_pm1", "scope": "fold"}
    plain = tune_initial_solution(X, y, fold, norm, 3, 7)
    assert seen == {1e-3}
    seen.clear()
    tight = tune_initial_solution(X, y, fold, norm, 3, 7, libsvm_tol=1e-8)
    assert seen == {1e-8}  # every SVM of the isotropic CV stopped at the campaign's tolerance
    assert "libsvm_tol" not in plain and tight["libsvm_tol"] == 1e-8
    assert tight["C"] in tight["C_grid"] and tight["gamma_ini"] in tight["gamma_grid"]
    assert 0.5 <= tight["cv_accuracy"] <= 1.0


def test_campaigns_without_the_keys_keep_their_config_as_it_was(root):
    cfg = load_config(root / "config/campaigns/jimenez2021/paper.yaml")
    assert "libsvm_tol" not in cfg["final_classifier"] and "initial_solution_libsvm_tol" not in cfg["inner_cv"]
    j41 = load_config(campaign_chain(root / "config/campaigns/jimenez2021/paper/libsvm_tol_1e8.yaml"))
    assert j41["final_classifier"]["libsvm_tol"] == 1e-8 and j41["inner_cv"]["initial_solution_libsvm_tol"] == 1e-8
