"""SVM-RFE with solver="warm": our SMO (solvers/smo.py) warm-started along the elimination."""

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from svmfs.data.synthetic import mit_example1
from svmfs.methods.svm_rfe import SVMRFE, rfe_schedule
from svmfs.solvers.smo import dual_objective, smo


def random_problem():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((40, 30))
    y = np.where(X[:, 0] + rng.standard_normal(40) > 0, 1.0, -1.0)
    return X, y


def wdbc_subsample():
    b = load_breast_cancer()
    idx = np.random.default_rng(0).choice(b.data.shape[0], 100, replace=False)
    return StandardScaler().fit_transform(b.data)[idx], np.where(b.target[idx] == 0, 1.0, -1.0)


def libsvm_objective(K, y, C):
    svc = SVC(kernel="precomputed", C=C, tol=1e-8).fit(K, y)
    alpha = np.zeros(len(y))
    alpha[svc.support_] = np.abs(svc.dual_coef_.ravel())
    return dual_objective(K, y, alpha)


@pytest.mark.parametrize("data", [random_problem, wdbc_subsample])
@pytest.mark.parametrize("C", [0.01, 1.0, 100.0])
def test_smo_from_zero_reaches_libsvm_objective(data, C):
    X, y = data()
    K = X @ X.T
    ref = libsvm_objective(K, y, C)
    for tol, rel in [(1e-3, 1e-6), (1e-8, 1e-10)]:  # libsvm's default tolerance, then a tight one
        alpha, n_iter, converged = smo(K, y, C, tol=tol)
        assert converged and n_iter > 0
        assert alpha.min() >= 0 and alpha.max() <= C and abs(alpha @ y) < 1e-12  # feasible
        assert abs(dual_objective(K, y, alpha) - ref) <= rel * abs(ref)
        assert max_violation(K, y, C, alpha) < tol


def max_violation(K, y, C, alpha):
    """m(a) - M(a) (Fan, Chen & Lin 2005), here from the KKT conditions written per sample."""
    minus_yg = -y * (y * (K @ (alpha * y)) - 1.0)
    up = [t for t in range(len(y)) if (y[t] > 0 and alpha[t] < C) or (y[t] < 0 and alpha[t] > 0)]
    low = [t for t in range(len(y)) if (y[t] < 0 and alpha[t] < C) or (y[t] > 0 and alpha[t] > 0)]
    return max(minus_yg[up]) - min(minus_yg[low])


@pytest.mark.parametrize("C", [0.01, 1.0])
def test_warm_start_matches_cold_objective_in_fewer_iterations(C):
    """Along an RFE run (one feature at a time, removal by the warm solution's |w_j|), each warm solve
    from the previous alpha reaches a cold solve's objective on the downdated kernel, in fewer
    iterations summed over the run."""
    X, y, _ = mit_example1(n=60, p=40, seed=0)
    for tol, rel in [(1e-3, 1e-5), (1e-8, 1e-12)]:
        active, K, alpha = np.arange(X.shape[1]), X @ X.T, None
        warm_iters = cold_iters = 0
        while active.size > 1:
            alpha, n_warm, ok_warm = smo(K, y, C, alpha, tol=tol)
            cold, n_cold, ok_cold = smo(K, y, C, None, tol=tol)
            assert ok_warm and ok_cold
            f_warm, f_cold = dual_objective(K, y, alpha), dual_objective(K, y, cold)
            assert abs(f_warm - f_cold) <= rel * abs(f_cold)
            warm_iters, cold_iters = warm_iters + n_warm, cold_iters + n_cold
            r = active[np.argmin(np.abs((alpha * y) @ X[:, active]))]
            K = K - np.outer(X[:, r], X[:, r])
            active = active[active != r]
        # fewer, the point of the warm start; by how much is the machine's rounding's business
        # (measured at tol = 1e-3: 1115 vs 1933 (C = 0.01) and 2055 vs 2752 (C = 1))
        assert warm_iters < cold_iters, (tol, warm_iters, cold_iters)


@pytest.mark.parametrize("C", [0.1, 1.0])
def test_warm_ranking_equals_kernel_ranking(C):
    """mit_example1 (n=60, p=40): no near-ties, so the warm SMO's ranking is libsvm's exactly."""
    X, y, _ = mit_example1(n=60, p=40, seed=0)
    kernel = SVMRFE(C=C, switch_at=1000, solver="kernel").fit(X, y)
    warm = SVMRFE(C=C, switch_at=1000, solver="warm").fit(X, y)
    assert np.array_equal(warm.ranking_, kernel.ranking_)
    assert np.abs(warm.weights_ - kernel.weights_).max() <= 1e-2 * np.abs(kernel.weights_).max()
    assert warm.diagnostics_["status"] == "ok" and len(warm.smo_iter_) == 39
    assert warm.diagnostics_["message"] == f"39 SMO solves, {warm.smo_iter_.sum()} iterations"
    # the MIT schedule (12, 8, 6, 4 features per step, then one; one kernel recompute): the same
    # features leave at each step. The order inside a step may differ: at C = 0.1 features 12 and 38
    # leave together with |w| = 0.004126 / 0.004186 (libsvm) and 0.004203 / 0.004195 (SMO), a
    # difference of the size of the tol = 1e-3 solutions' w error (~8e-5 here).
    k2 = SVMRFE(C=C, step=0.3, switch_at=10, solver="kernel").fit(X, y)
    w2 = SVMRFE(C=C, step=0.3, switch_at=10, solver="warm").fit(X, y)
    bounds = 40 - np.cumsum([0, *rfe_schedule(40, 0.3, 10)])
    step_of = lambda ranking: np.searchsorted(-bounds, -ranking, side="right")  # noqa: E731
    assert np.array_equal(step_of(w2.ranking_), step_of(k2.ranking_))


def test_warm_iteration_limit_sets_status_and_still_ranks():
    X, y, _ = mit_example1(n=60, p=40, seed=0)
    sel = SVMRFE(C=1.0, switch_at=1000, solver="warm", max_iter=3, n_features_to_select=5).fit(X, y)
    assert sel.diagnostics_["status"] == "max_iter" and "stopped at max_iter=3" in sel.diagnostics_["message"]
    assert sorted(sel.ranking_) == list(range(1, 41)) and sel.support_.sum() == 5


def test_unknown_solver_rejected():
    with pytest.raises(ValueError, match="'warm'"):
        SVMRFE(solver="smo").fit(*mit_example1(n=20, p=5, k0=2, seed=0)[:2])
