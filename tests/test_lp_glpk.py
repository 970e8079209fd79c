"""The weighted 1-norm SVM LP by GLPK's simplex (Rinaldi & Sciandrone's solver, sec. 5.1; sheet row R18) against
HiGHS's dual simplex: the same optimum, each a vertex, and FS-SVMCP through either."""

import numpy as np
import pytest
from sklearn.datasets import make_classification

from svmfs.methods.fs_svmcp import FSSVMCP
from svmfs.solvers.linear_programs import weighted_l1_svm


def _data(n=40, p=30, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    return X, np.sign(X[:, 0] + 0.5 * X[:, 1] + 0.1 * rng.normal(size=n)), rng.uniform(0.1, 1.0, p)


@pytest.mark.parametrize("C", [None, 1.0])
def test_glpk_and_highs_reach_the_same_optimum_each_at_a_vertex(C):
    """Two independent simplex codes on one LP (hard constraints as in (15), or soft): equal objectives, both
    feasible, and each solution a vertex (at least as many active constraints and bounds as variables)."""
    X, y, cost = _data()
    a, b = weighted_l1_svm(X, y, cost, C=C), weighted_l1_svm(X, y, cost, C=C, solver="glpk")
    assert a.status == b.status == "ok"
    assert b.objective == pytest.approx(a.objective, rel=1e-9, abs=1e-9)
    for r in (a, b):
        assert r.n_active >= r.n_variables
        margins = y * (X @ r.w + r.b) + (r.xi if C is not None else 0.0)
        assert margins.min() >= 1 - 1e-7
        assert float(cost @ np.abs(r.w)) + (C * r.xi.sum() if C is not None else 0.0) == pytest.approx(r.objective, rel=1e-9)


def test_glpk_reports_an_infeasible_hard_margin_lp_and_an_unknown_solver_is_refused():
    X = np.array([[0.0], [0.0], [1.0], [1.0]])
    y = np.array([1.0, -1.0, 1.0, -1.0])  # the same point with both labels: no hard-margin hyperplane
    assert weighted_l1_svm(X, y, np.ones(1), solver="glpk").status == "infeasible"
    with pytest.raises(ValueError, match="solver must be one of"):
        weighted_l1_svm(X, y, np.ones(1), solver="cplex")


def test_fs_svmcp_through_glpk_follows_algorithm_fs_svmcp():
    """Section 4.1 through either LP solver: every iteration but the last strictly reduces ||w||_0 (the
    algorithm ends when the LP gives no reduction), the active sets shrink monotonically from all features, and
    w is zero off the support. (That both solvers reach one optimal value of an LP: the tests above; which
    optimal vertex each returns may differ, so the selections are not compared.)"""
    X, y = make_classification(n_samples=60, n_features=40, n_informative=3, n_redundant=0, random_state=0)
    X = (X - X.mean(0)) / X.std(0)
    highs, glpk = (FSSVMCP(C_grid=[1.0], lp_solver=s).fit(X, y) for s in ("highs", "glpk"))
    for sel in (highs, glpk):
        path = sel.diagnostics_["path"]
        assert sel.diagnostics_["status"] == "ok" and all(p["lp_status"] == "ok" for p in path)
        assert all(a["n_hat"] < a["n_active"] or a is path[-1] for a in path)
        assert [p["n_active"] for p in path] == sorted((p["n_active"] for p in path), reverse=True)
        assert 0 < sel.support_.sum() < X.shape[1] and np.all(sel.weights_[~sel.support_] == 0)
    assert highs.diagnostics_["path"][0]["n_active"] == glpk.diagnostics_["path"][0]["n_active"] == X.shape[1]
