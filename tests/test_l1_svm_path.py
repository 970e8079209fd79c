"""The 1-norm SVM LP warm-started along the C grid (issue 34 goal 2) ends at the cold solve's vertex, and hands a
possibly non-unique optimum to the cold solve."""

import gc

import numpy as np
import pytest

from svmfs.methods.l1_svm import L1SVM
from svmfs.solvers import l1_svm_path
from svmfs.solvers.l1_svm_path import L1SVMPath, l1_svm_lp
from svmfs.solvers.linear_programs import weighted_l1_svm

CS = [2.0**e for e in range(-10, 11)]  # the mit9520 grid


def _problem(seed, n=50, p=120):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    y = np.where(X[:, 0] + 0.7 * X[:, 1] + 0.6 * rng.normal(size=n) > 0, 1.0, -1.0)
    return X, y


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_warm_path_ends_at_the_cold_vertex_at_every_c(seed):
    X, y = _problem(seed)
    path = L1SVMPath(X, y, np.ones(X.shape[1]))
    for C in CS:
        warm, cold = path.solve(C), weighted_l1_svm(X, y, np.ones(X.shape[1]), C=C)
        assert np.array_equal(np.abs(warm.w) > 1e-2, np.abs(cold.w) > 1e-2)  # the selection
        assert np.allclose(warm.w, cold.w, rtol=0, atol=1e-9) and abs(warm.b - cold.b) <= 1e-9
        assert warm.objective == pytest.approx(cold.objective, rel=1e-10, abs=1e-12)
        assert (warm.status, warm.message, warm.n_active, warm.n_variables) == (cold.status, cold.message, cold.n_active, cold.n_variables)
    assert path.counts["warm"] >= 10  # most of the grid is answered warm


def test_a_possibly_non_unique_optimum_goes_to_the_cold_solve():
    """Two identical columns: the weight may sit on either copy, so the LP has several optimal vertices once the
    feature is used; those C take the cold route and return its very solution."""
    X, y = _problem(3)
    X[:, 1] = X[:, 0]
    path = L1SVMPath(X, y, np.ones(X.shape[1]))
    for C in CS:
        before = dict(path.counts)
        warm, cold = path.solve(C), weighted_l1_svm(X, y, np.ones(X.shape[1]), C=C)
        if abs(cold.w[0]) + abs(cold.w[1]) > 1e-9:  # the duplicated feature is used
            assert path.counts["cold"] == before["cold"] + 1
            assert np.array_equal(warm.w, cold.w) and warm.objective == cold.objective
    assert path.counts["cold"] >= 10


def test_fits_on_one_array_share_one_model_and_a_freed_array_its_entry():
    X, y = _problem(4)
    l1_svm_path._PATHS.clear()
    for C in CS[:5]:
        l1_svm_lp(X, y, np.ones(X.shape[1]), C)
    assert len(l1_svm_path._PATHS) == 1
    ((_, path),) = l1_svm_path._PATHS.values()
    assert sum(path.counts.values()) == 5
    l1_svm_lp(X.copy(), y, np.ones(X.shape[1]), 1.0)  # another array: its own model
    del X
    gc.collect()
    l1_svm_lp(*_problem(5), np.ones(120), 1.0)
    assert len(l1_svm_path._PATHS) == 1  # the two freed arrays' entries are gone


def test_l1svm_fitted_along_the_grid_selects_as_the_cold_lp():
    X, y = _problem(6)
    for C in CS:
        sel = L1SVM(C=C).fit(X, y)
        cold = weighted_l1_svm(X, y, np.ones(X.shape[1]), C=C)
        assert np.array_equal(sel.get_support(), np.abs(cold.w) > 1e-2)
        assert np.allclose(sel.weights_, cold.w, rtol=0, atol=1e-9)


def test_a_changed_private_highs_api_takes_the_cold_route(monkeypatch):
    X, y = _problem(7)
    monkeypatch.setattr(l1_svm_path._h, "simplex_constants", object())  # linprog holds its own reference
    path = L1SVMPath(X, y, np.ones(X.shape[1]))
    res, cold = path.solve(1.0), weighted_l1_svm(X, y, np.ones(X.shape[1]), C=1.0)
    assert path.counts == {"warm": 0, "cold": 1} and np.array_equal(res.w, cold.w)
