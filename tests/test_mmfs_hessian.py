"""MM-FS (Jimenez-Cordero et al. 2021, problem (20)): the exact Hessian of the Lagrangian of the cyipopt
route against finite differences, and the exact-Hessian solve against the L-BFGS one."""

import numpy as np
import pytest
from test_mmfs import _fd, _wdbc

from svmfs.analysis.tables import OK_STATUSES
from svmfs.methods.mm_fs import MMFS
from svmfs.solvers.anisotropic import aniso_kernel
from svmfs.solvers.mmfs_nlp import MMFSProblem, pair_sqdiff_outer, solve_mmfs, svc_start


def _random_point(prob, rng, gamma):
    n = prob.n
    return prob.pack(gamma, rng.uniform(0, 2, n), 0.3, rng.uniform(0, 1, n), rng.uniform(0, 1, n))


@pytest.mark.parametrize("p", [1.0, 1.5])
def test_hessian_matches_finite_differences_of_the_lagrangian_gradient(p):
    """hessian_dense = d/dz (sigma grad f + J' mu), central differences, relative error < 1e-6."""
    rng = np.random.default_rng(4)
    n, M = 12, 5
    X, y = rng.uniform(-1, 1, size=(n, M)), np.repeat([1.0, -1.0], n // 2)
    prob = MMFSProblem(X, y, C=2.0, C2=0.3, p=p)
    z, mu, sigma = _random_point(prob, rng, rng.uniform(0.2, 1.0, M)), rng.normal(size=n), 0.7
    H = prob.hessian_dense(z, mu, sigma)
    H_fd = _fd(lambda v: sigma * prob.gradient(v) + prob.jacobian_dense(v).T @ mu, z)
    assert np.linalg.norm(H - H_fd) < 1e-6 * np.linalg.norm(H)
    np.testing.assert_allclose(H, H_fd, rtol=1e-6, atol=1e-7)
    # cyipopt's structure: lower triangle, no duplicates, covering every nonzero of the Hessian
    rows, cols = prob.hessianstructure()
    assert np.all(rows >= cols) and len(set(zip(rows.tolist(), cols.tolist()))) == rows.size
    assert len(prob.hessian(z, mu, sigma)) == rows.size
    pattern = np.zeros(H.shape, dtype=bool)
    pattern[rows, cols] = pattern[cols, rows] = True
    assert not np.any(np.abs(H_fd[~pattern]) > 1e-8)
    # the objective's bilinear terms s'a: alpha-nu, alpha-lam0, alpha-lamC are the constants -w y, w, -w
    w = sigma * (1 - 0.3)
    np.testing.assert_allclose(H[prob.inu, prob.sa], -w * y)
    np.testing.assert_allclose(np.diag(H[prob.s0, prob.sa]), w)
    np.testing.assert_allclose(np.diag(H[prob.sC, prob.sa]), -w)


def test_pair_sum_is_chunk_independent_and_matches_the_n_n_M_tensor():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(9, 6))
    A = rng.normal(size=(9, 9))
    W = A + A.T
    D = (X[:, None, :] - X[None, :, :]) ** 2
    brute = np.einsum("il,ilj,ilk->jk", W, D, D)
    for chunk in (1, 7, 6 * 36, 1 << 22):
        np.testing.assert_allclose(pair_sqdiff_outer(X, W, chunk_entries=chunk), brute, rtol=1e-12, atol=1e-12)
    lower = pair_sqdiff_outer(X, W, lower=True)  # the Hessian callback's form: the lower triangle only
    np.testing.assert_allclose(lower, np.tril(brute), rtol=1e-12, atol=1e-12)
    Wpos = np.abs(W)  # one sign only: the other syrk update is skipped
    np.testing.assert_allclose(pair_sqdiff_outer(X, Wpos), np.einsum("il,ilj,ilk->jk", Wpos, D, D), rtol=1e-12)


def test_penalty_curvature_is_finite_at_gamma_zero():
    """p = 1.5: C2 p (p-1) gamma^(p-2) is evaluated at the floor 1e-8, not at 0 (documented choice)."""
    rng = np.random.default_rng(6)
    X, y = rng.uniform(-1, 1, size=(8, 3)), np.repeat([1.0, -1.0], 4)
    prob = MMFSProblem(X, y, C=1.0, C2=0.5, p=1.5)
    z = _random_point(prob, rng, np.array([0.0, 0.5, 1.0]))
    H = prob.hessian_dense(z, rng.normal(size=8), 1.0)
    assert np.all(np.isfinite(H)) and H[0, 0] > 1e3  # 0.5 * 1.5 * 0.5 * 1e-8^-0.5 = 3750 + kernel part


def test_exact_and_limited_memory_reach_the_same_optimum_on_wdbc():
    """Same start as test_mmfs.test_cyipopt_and_pyomo_routes_agree_on_wdbc: objectives equal to 1e-6
    relative, same relevant set, KKT residuals of the exact route below 1e-6."""
    X, y = _wdbc(60, 8)
    C, g = 1.0, 0.1
    start = (g, *svc_start(aniso_kernel(X, np.full(8, g)), y, C)[:4])
    lbfgs = solve_mmfs(X, y, C, 0.3, start, hessian="limited-memory")
    exact = solve_mmfs(X, y, C, 0.3, start, hessian="exact")
    assert lbfgs.status in OK_STATUSES and exact.status in OK_STATUSES, (lbfgs.message, exact.message)
    assert abs(exact.objective - lbfgs.objective) <= 1e-6 * abs(lbfgs.objective)
    np.testing.assert_array_equal(exact.gamma > 1e-2, lbfgs.gamma > 1e-2)
    assert 0 < np.sum(exact.gamma > 1e-2) < 8
    for key in ("constraint_violation", "stationarity", "complementarity"):
        assert exact.residuals[key] < 1e-6, (key, exact.residuals)
    # the selector passes the option through: the same solve, the same point
    sel = MMFS(C2=0.3, C=1.0, gamma_ini=g, hessian="exact").fit(X, y)
    assert sel.diagnostics_["hessian"] == "exact" and sel.diagnostics_["objective"] == pytest.approx(exact.objective, rel=1e-9)
    np.testing.assert_array_equal(sel.support_, exact.gamma > 1e-2)


def test_cyipopt_exact_hessian_agrees_with_pyomo_exact_second_derivatives():
    """Two independent exact-Hessian implementations (hand-derived vs ripopt's from the Pyomo model),
    reached through MMFS(route=..., hessian="exact"): same objective to 1e-6 relative, same relevant set.
    (The iteration counts agreed too, 26 and 26 on one machine; not asserted, being the solvers' business.)"""
    X, y = _wdbc(30, 4)
    fits = {r: MMFS(C2=0.3, C=1.0, gamma_ini=0.1, route=r, hessian="exact").fit(X, y) for r in ("cyipopt", "pyomo")}
    d = {r: f.diagnostics_ for r, f in fits.items()}
    assert d["cyipopt"]["status"] in OK_STATUSES and d["pyomo"]["status"] in OK_STATUSES, d["pyomo"]["message"]
    assert abs(d["cyipopt"]["objective"] - d["pyomo"]["objective"]) <= 1e-6 * abs(d["pyomo"]["objective"])
    np.testing.assert_array_equal(fits["cyipopt"].support_, fits["pyomo"].support_)
    assert d["pyomo"]["hessian"] == "exact"


def test_bogus_hessian_is_refused_naming_the_parameter():
    X, y = _wdbc(30, 4)
    with pytest.raises(ValueError, match="hessian"):
        MMFS(C=1.0, gamma_ini=0.1, hessian="bogus").fit(X, y)
    with pytest.raises(ValueError, match="hessian"):
        solve_mmfs(X, y, 1.0, 0.3, (0.1, np.zeros(30), 0.0, np.ones(30), np.zeros(30)), hessian="bogus")
