"""MM-FS's reduced route (solvers/mmfs_reduced.py): problem (20) in gamma alone. The value function equals
(20a) at the SVM's point, its gradient matches finite differences, and it reaches the optimum the Ipopt
routes reach from the same start (objective compared as F at max(gamma, 0), see the module doc)."""

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.preprocessing import MinMaxScaler

from svmfs.methods.mm_fs import MMFS
from svmfs.solvers.anisotropic import aniso_kernel
from svmfs.solvers.mmfs_nlp import MMFSProblem, solve_mmfs, svc_start
from svmfs.solvers.mmfs_pyomo import solve_mmfs_pyomo
from svmfs.solvers.mmfs_reduced import (
    SVMValue,
    c2_path,
    projected_gradient,
    reduced_objective,
    solve_mmfs_reduced,
    solve_mmfs_reduced_from,
)


def _wdbc(n, M, seed=0):
    X, y = load_breast_cancer(return_X_y=True)
    y = np.where(y == 0, 1.0, -1.0)
    idx = np.random.default_rng(seed).choice(y.size, n, replace=False)
    return MinMaxScaler((-1, 1)).fit_transform(X)[idx][:, :M], y[idx]


@pytest.mark.parametrize("p", [1.0, 1.5])
def test_value_function_gradient_matches_finite_differences(p):
    X, y = _wdbc(40, 6)
    fun = SVMValue(X, y, C=2.0, C2=0.3, p=p)
    gamma = np.random.default_rng(3).uniform(0.05, 0.5, 6)
    _, grad = fun(gamma)
    h = 1e-6
    fd = [(fun(gamma + h * e)[0] - fun(gamma - h * e)[0]) / (2 * h) for e in np.eye(6)]
    np.testing.assert_allclose(grad, fd, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("C, p", [(2.0, 1.0), (0.5, 1.5)])
def test_free_set_hessian_matches_finite_differences_of_the_gradient(C, p):
    X, y = _wdbc(40, 6)
    fun = SVMValue(X, y, C=C, C2=0.3, p=p)
    gamma = np.random.default_rng(3).uniform(0.05, 0.5, 6)
    free = np.array([True, True, False, True, True, False])
    h = 1e-6
    fd = np.array([(fun(gamma + h * e)[1] - fun(gamma - h * e)[1]) / (2 * h) for e in np.eye(6)])
    np.testing.assert_allclose(fun.hessian_free(gamma, free), fd[np.ix_(free, free)], rtol=1e-6, atol=1e-7)


def test_newton_polish_keeps_the_optimum():
    """With and without the Newton phase: same F (1e-9 relative), same support, and both points stationary
    (projected gradient < 1e-6; which of the two is tighter follows the CPU's rounding)."""
    X, y = _wdbc(120, 30)
    with_newton = solve_mmfs_reduced(X, y, 1.0, 0.5, 0.05, newton_after=3)  # Newton early, on this small case
    without = solve_mmfs_reduced(X, y, 1.0, 0.5, 0.05, newton=False)
    assert "Newton on the support" in with_newton.message
    assert abs(with_newton.objective - without.objective) <= 1e-9 * abs(without.objective)
    np.testing.assert_array_equal(with_newton.gamma > 1e-2, without.gamma > 1e-2)
    assert with_newton.residuals["stationarity"] < 1e-6 and without.residuals["stationarity"] < 1e-6


def test_value_function_is_20a_at_the_svm_point():
    """F(gamma) = (20a) at (gamma, the SVM's alpha, nu = intercept, lam0, lamC) up to the complementarity of
    that point: with (20b) exact, (20a) - F = (1 - C2) (lam0'a + lamC'(C - a) - nu y'a) >= 0 (Wolfe duality)."""
    X, y = _wdbc(50, 8)
    gamma = np.random.default_rng(4).uniform(0.0, 0.4, 8)
    for C, C2 in ((1.0, 0.5), (10.0, 0.1), (0.3, 0.9)):
        alpha, nu, lam0, lamC, compl = svc_start(aniso_kernel(X, gamma), y, C, tol=1e-12)
        prob = MMFSProblem(X, y, C, C2)
        z20a = prob.objective(prob.pack(gamma, alpha, nu, lam0, lamC))
        F = SVMValue(X, y, C, C2)(gamma)[0]
        gap = (1 - C2) * (lam0 @ alpha + lamC @ (C - alpha) - nu * (y @ alpha))
        assert abs((z20a - F) - gap) <= 1e-9 * abs(F), (z20a, F, gap)
        assert -1e-9 * abs(F) <= z20a - F <= (1 - C2) * y.size * (compl + abs(nu) * 1e-9) + 1e-9 * abs(F)


@pytest.mark.parametrize("C, C2", [(1.0, 0.3), (1.0, 0.7), (5.0, 0.5)])
def test_reduced_route_reaches_the_ipopt_optimum_on_wdbc(C, C2):
    """Same start (isotropic gamma = 0.1): the reduced route, cyipopt with the exact Hessian and cyipopt with
    L-BFGS end at the same F (1e-6 relative) and the same features above 1e-2."""
    X, y = _wdbc(60, 8)
    g = 0.1
    start = (g, *svc_start(aniso_kernel(X, np.full(8, g)), y, C)[:4])
    red = solve_mmfs_reduced(X, y, C, C2, g)
    # the projected gradient of F: 7e-6 here with libsvm's alpha alone (no SVMValue.refine)
    assert red.residuals["stationarity"] < 1e-6 and red.residuals["constraint_violation"] < 1e-9
    assert 0 < np.sum(red.gamma > 1e-2) < 8
    # the returned (gamma, alpha, nu, lam0, lamC) is a point of (20) whose (20a) is the reported F
    assert red.residuals["complementarity"] < 1e-9
    prob = MMFSProblem(X, y, C, C2)
    z20a = prob.objective(prob.pack(red.gamma, red.alpha, red.nu, red.lam0, red.lamC))
    assert abs(z20a - red.objective) <= 1e-9 * abs(red.objective)
    for hessian in ("exact", "limited-memory"):
        ref = solve_mmfs(X, y, C, C2, start, hessian=hessian)
        F_ref = reduced_objective(X, y, C, C2, ref.gamma)
        assert abs(red.objective - F_ref) <= 1e-6 * abs(F_ref), (hessian, red.objective, F_ref)
        np.testing.assert_array_equal(red.gamma > 1e-2, ref.gamma > 1e-2)


def test_reduced_route_agrees_with_the_pyomo_model():
    """The reference route of the model as written: Pyomo (ripopt, exact Hessian) on WDBC 60 x 8."""
    X, y = _wdbc(60, 8)
    C, C2, g = 1.0, 0.3, 0.1
    start = (g, *svc_start(aniso_kernel(X, np.full(8, g)), y, C)[:4])
    model = solve_mmfs_pyomo(X, y, C, C2, start, hessian="exact")
    red = solve_mmfs_reduced(X, y, C, C2, g)
    F_model = reduced_objective(X, y, C, C2, model.gamma)
    assert abs(red.objective - F_model) <= 1e-6 * abs(F_model)
    np.testing.assert_array_equal(red.gamma > 1e-2, model.gamma > 1e-2)


def test_mmfs_reduced_route_through_the_selector():
    X, y = _wdbc(60, 8)
    sel = MMFS(C2=0.3, C=1.0, gamma_ini=0.1, route="reduced").fit(X, y)
    d = sel.diagnostics_
    assert d["route"] == "reduced" and d["hessian"] == "L-BFGS-B (reduced)"
    ref = MMFS(C2=0.3, C=1.0, gamma_ini=0.1, route="cyipopt", hessian="exact").fit(X, y)
    assert abs(d["objective"] - reduced_objective(X, y, 1.0, 0.3, ref.weights_)) <= 1e-6 * abs(d["objective"])
    np.testing.assert_array_equal(sel.support_, ref.support_)


def test_reduced_route_refuses_p_below_one_and_bad_routes():
    X, y = _wdbc(30, 4)
    with pytest.raises(ValueError, match="p >= 1"):
        MMFS(C2=0.3, C=1.0, gamma_ini=0.1, p=0.5, route="reduced").fit(X, y)
    with pytest.raises(ValueError, match="The 'route' parameter of MMFS must be a str among"):
        MMFS(route="bogus").fit(X, y)


def test_reduced_route_time_limit_is_a_status():
    X, y = _wdbc(120, 30)
    res = solve_mmfs_reduced(X, y, 1.0, 0.5, 0.1, time_limit=1e-4)
    assert res.status == "time_limit" and np.all(np.isfinite(res.gamma))


def test_jimenez2021_runs_colons_mm_fs_by_the_reduced_route():
    from pathlib import Path

    from svmfs.config import job_method_config, load_config

    cfg = load_config(Path(__file__).resolve().parents[1] / "config" / "campaigns" / "jimenez2021" / "nested.yaml")
    for method in ("mm_fs", "mm_fs_by_C"):
        assert job_method_config(cfg, "colon", method)["params"]["route"] == "reduced"
        assert "route" not in job_method_config(cfg, "wdbc", method)["params"]


def test_alpha_from_the_previous_partition_is_libsvms_optimum_or_refused():
    """SVMValue.alpha reuses the last support partition only where its KKT solution is optimal: along a
    line of gamma it equals libsvm + refine (1e-9), and a wrong partition (a support vector moved to 0)
    is refused (None), not returned."""
    X, y = _wdbc(60, 8)
    fun = SVMValue(X, y, C=2.0, C2=0.3)
    g0 = np.random.default_rng(5).uniform(0.05, 0.5, 8)
    for t in np.linspace(0.0, 0.05, 6):
        K = fun.kernel(g0 * (1.0 + t))
        np.testing.assert_allclose(fun.alpha(K), fun.refine(K, fun.svm_alpha(K)), rtol=0, atol=1e-9)
    assert fun.n_reused >= 3  # neighbouring points kept the partition
    K = fun.kernel(g0)
    a = fun.refine(K, fun.svm_alpha(K))
    free, upper = (a > 1e-9) & (a < 2.0 - 1e-9), a >= 2.0 - 1e-9
    assert fun.kkt_on(K, free, upper) is not None
    wrong = free.copy()
    wrong[np.flatnonzero(free)[0]] = False
    assert fun.kkt_on(K, wrong, upper) is None


def test_warm_started_c2_path_reaches_the_cold_fits_kkt_points():
    """Issue 20 goal 2: a C2 sweep warm-started on a working set ends, at every C2, at a KKT point of the
    full problem (projected gradient over all M widths below 1e-7) with the cold fit's F (1e-9) and support."""
    X, y = _wdbc(120, 30)
    C2s = [0.1, 0.3, 0.5, 0.7, 0.9]
    path = c2_path(X, y, 1.0, C2s, 0.05)
    for c2, warm in zip(C2s, path):
        cold = solve_mmfs_reduced(X, y, 1.0, c2, 0.05)
        F = reduced_objective(X, y, 1.0, c2, warm.gamma)
        assert abs(F - cold.objective) <= 1e-9 * abs(cold.objective), (c2, F, cold.objective)
        np.testing.assert_array_equal(warm.gamma > 1e-2, cold.gamma > 1e-2)
        _, grad = SVMValue(X, y, 1.0, c2)(warm.gamma)
        assert projected_gradient(warm.gamma, grad) < 1e-7 and warm.residuals["stationarity"] < 1e-7
    assert all("working set" in r.message for r in path[1:])


def test_working_set_takes_in_widths_the_start_left_at_zero():
    """From a start with every gamma_j at 0 but one, the widths whose derivative is negative there join the
    working set: the result is the cold fit's KKT point (same F and support), not the one-width problem's."""
    X, y = _wdbc(120, 30)
    cold = solve_mmfs_reduced(X, y, 1.0, 0.3, 0.05)
    start = np.zeros(30)
    start[int(np.argmax(cold.gamma))] = cold.gamma.max()
    warm = solve_mmfs_reduced_from(X, y, 1.0, 0.3, start)
    assert int((warm.gamma > 0).sum()) > 1 and warm.residuals["stationarity"] < 1e-7
    assert abs(warm.objective - cold.objective) <= 1e-9 * abs(cold.objective)
    np.testing.assert_array_equal(warm.gamma > 1e-2, cold.gamma > 1e-2)
