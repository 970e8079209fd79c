"""MM-FS (Jimenez-Cordero et al. 2021, problem (20)) and KP-FS off-the-shelf: derivatives, the
starting point, agreement of the cyipopt and Pyomo routes, KKT residuals, the C2 trade-off."""

import glob
import re
import tempfile
import time

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.preprocessing import MinMaxScaler

from svmfs.analysis.tables import OK_STATUSES
from svmfs.data.synthetic import weston_nonlinear
from svmfs.methods.kp_fs_offshelf import KPFSOffShelf
from svmfs.methods.mm_fs import MMFS
from svmfs.solvers.anisotropic import aniso_kernel, pair_sqdiff_sums
from svmfs.solvers.kp_widths import KPWidthProblem
from svmfs.solvers.mmfs_nlp import MMFSProblem, solve_mmfs, svc_start
from svmfs.solvers.mmfs_pyomo import iterations_from_log, solve_mmfs_pyomo, status_from


def _fd(f, z, h=1e-6):
    """Central differences of f (scalar or vector valued) at z, one column per coordinate."""
    cols = []
    for j in range(z.size):
        e = np.zeros_like(z)
        e[j] = h
        cols.append((np.asarray(f(z + e)) - np.asarray(f(z - e))) / (2 * h))
    return np.array(cols).T


def _wdbc(n, M, seed=0):
    """A stratified-enough WDBC subsample scaled to [-1, 1] (the paper's scaling, section 4.2)."""
    X, y = load_breast_cancer(return_X_y=True)
    y = np.where(y == 0, 1.0, -1.0)  # malignant = +1
    idx = np.random.default_rng(seed).choice(y.size, n, replace=False)
    return MinMaxScaler((-1, 1)).fit_transform(X)[idx][:, :M], y[idx]


@pytest.mark.parametrize("p", [1.0, 1.5])
def test_mmfs_gradient_and_jacobian_match_finite_differences(p):
    rng = np.random.default_rng(1)
    X, y = rng.normal(size=(12, 4)), np.repeat([1.0, -1.0], 6)
    prob = MMFSProblem(X, y, C=2.0, C2=0.3, p=p)
    z = prob.pack(rng.uniform(0.2, 1.0, 4), rng.uniform(0, 2, 12), 0.3, rng.uniform(0, 1, 12), rng.uniform(0, 1, 12))
    np.testing.assert_allclose(prob.gradient(z), _fd(prob.objective, z), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(prob.jacobian_dense(z), _fd(prob.constraints, z), rtol=1e-6, atol=1e-7)
    rows, cols = prob.jacobianstructure()  # the sparse pattern covers every nonzero of the dense Jacobian
    dense = prob.jacobian_dense(z)
    pattern = np.zeros(dense.shape, dtype=bool)
    pattern[rows, cols] = True
    assert not np.any(dense[~pattern])


def test_kp_width_gradient_matches_finite_differences():
    rng = np.random.default_rng(2)
    X, beta = rng.normal(size=(10, 5)), rng.normal(size=10)
    prob = KPWidthProblem(X, beta - beta.mean(), C2=0.7, b=5.0)
    v = rng.uniform(0.1, 1.5, 5)
    np.testing.assert_allclose(prob.gradient(v), _fd(prob.objective, v).ravel(), rtol=1e-6, atol=1e-8)


def test_kernel_into_buffers_has_the_bits_of_the_allocating_kernel():
    # issue 34: the KP-FS width problem evaluates K(v) in place; a record must not change by a bit
    from svmfs.solvers.anisotropic import aniso_kernel_into

    rng = np.random.default_rng(3)
    X = rng.uniform(-1, 1, (37, 6))
    out, work = np.empty((37, 37)), np.empty((37, 37))
    for gamma in (rng.uniform(0, 2, 6), np.full(6, 1e-17), np.array([-1e-9, 0, 3e-9, 1e4, 0.5, 1e-12])):
        assert np.array_equal(aniso_kernel_into(X, X * X, gamma, out, work), aniso_kernel(X, gamma))


class _KPWidthProblemAsBefore(KPWidthProblem):
    """(15) evaluated afresh at every call, as before issue 34 (no kept values, a new kernel each time)."""

    def _K(self, v):
        return aniso_kernel(self.X, 0.5 * v * v)

    def objective(self, v):
        return float(self.beta @ self._K(v) @ self.beta + self.C2 * np.sum(1.0 - np.exp(-self.b * v)))

    def gradient(self, v):
        q = pair_sqdiff_sums(self.X, self.X2, np.outer(self.beta, self.beta) * self._K(v))
        return -v * q + self.C2 * self.b * np.exp(-self.b * v)


def test_kp_widths_with_kept_values_take_ipopts_path_bit_for_bit(monkeypatch):
    # a start where the widths collapse to 0 and Ipopt's line search asks for the same point many times
    import svmfs.solvers.kp_widths as nlp
    from sklearn.svm import SVC

    X, y = _wdbc(150, 8, seed=5)
    svc = SVC(C=1e3, kernel="precomputed").fit(aniso_kernel(X, np.full(8, 1e-4)), y)
    beta = np.zeros(y.size)
    beta[svc.support_] = svc.dual_coef_.ravel()
    runs = []
    for cls in (KPWidthProblem, _KPWidthProblemAsBefore):
        monkeypatch.setattr(nlp, "KPWidthProblem", cls)
        runs.append(nlp.solve_kp_widths(X, beta, 0.99, np.full(8, np.sqrt(2e-4)), max_iter=150))
    (v, F, status, it), (v0, F0, status0, it0) = runs
    assert np.array_equal(v, v0) and F == F0 and (status, it) == (status0, it0)


def test_kp_fs_offshelf_solves_a_repeated_start_once_with_the_same_fit(monkeypatch):
    # once the widths collapse to v <= 0, the multistart's v * U(0, 2) all clip to v = 0: one Ipopt run, not three
    # (tol_v < 0 turns off both stopping tests, the collapse's included, so that rounds run after the collapse)
    import svmfs.solvers.kp_widths as nlp

    X, y = _wdbc(100, 8, seed=2)
    runs, solve = [], nlp.ipopt_solve
    monkeypatch.setattr(nlp, "ipopt_solve", lambda *a, **k: (runs.append(1), solve(*a, **k))[1])
    fits = []
    for kept in (nlp.KP_SOLVES_KEPT, 0):
        monkeypatch.setattr(nlp, "KP_SOLVES_KEPT", kept)
        nlp._kp_solves.clear()
        runs.clear()
        fits.append((KPFSOffShelf(C=100.0, v0=np.sqrt(0.2), C2=0.99, tol_v=-1.0, random_state=0).fit(X, y), len(runs)))
    (kept, n_kept), (fresh, n_fresh) = fits
    assert n_fresh == 3 * kept.n_iter_ and n_kept < n_fresh
    assert np.array_equal(kept.weights_, fresh.weights_)
    for k in ("objective", "message", "status", "ipopt_iterations", "converged"):
        assert kept.diagnostics_[k] == fresh.diagnostics_[k]


def test_svc_start_is_a_complementary_dual_point():
    """nu = +intercept_ makes the libsvm solution satisfy (17) with complementary multipliers."""
    X, y = _wdbc(80, 10)
    K = aniso_kernel(X, np.full(10, 0.1))
    alpha, nu, lam0, lamC, compl = svc_start(K, y, C=1.0)
    s = 1.0 - nu * y + lam0 - lamC
    assert np.max(np.abs(y * (K @ (y * alpha)) - s)) < 1e-12  # (20b) / (17)
    assert compl < 1e-5 and np.all((alpha >= 0) & (alpha <= 1.0))
    assert abs(y @ alpha) < 1e-6  # the dual's equality constraint
    # with nu = -intercept_ the start would violate complementarity: check the sign convention matters
    r = y * (K @ (y * alpha)) - 1.0 - nu * y
    assert max(np.max(np.abs(np.maximum(r, 0) * alpha)), np.max(np.abs(np.maximum(-r, 0) * (1.0 - alpha)))) > 1e-3


def test_cyipopt_and_pyomo_routes_agree_on_wdbc():
    """Same start, same problem: objectives equal to 1e-6 relative, same relevant set, KKT holds."""
    X, y = _wdbc(60, 8)
    C, g = 1.0, 0.1
    start = (g, *svc_start(aniso_kernel(X, np.full(8, g)), y, C)[:4])
    fast = solve_mmfs(X, y, C, 0.3, start, hessian="limited-memory")
    model = solve_mmfs_pyomo(X, y, C, 0.3, start, hessian="limited-memory")
    assert fast.status in OK_STATUSES and model.status in OK_STATUSES
    assert abs(fast.objective - model.objective) <= 1e-6 * abs(fast.objective)
    np.testing.assert_array_equal(fast.gamma > 1e-2, model.gamma > 1e-2)
    assert 0 < np.sum(fast.gamma > 1e-2) < 8
    for key in ("constraint_violation", "stationarity", "complementarity"):
        assert fast.residuals[key] < 1e-6, (key, fast.residuals)
    assert model.residuals["constraint_violation"] < 1e-6
    assert isinstance(model.n_iter, int) and model.n_iter > 0  # read from the solver's log


def test_lbfgs_history_reaches_ipopt_and_both_histories_reach_the_same_optimum(monkeypatch):
    """Ipopt's default 6 L-BFGS pairs against MMFS's default 50: the option reaches Ipopt (as
    ``limited_memory_max_history``, from MMFS too), and both reach the same optimum (objective to 1e-6
    relative, the tolerance of Ipopt's ``acceptable`` stop), the same support and a KKT point.
    Not asserted: the iteration counts (404 against 54 on one machine; 305, stopping ``acceptable``,
    against 54 on another of the same kind)."""
    import svmfs.solvers.mmfs_nlp as nlp

    X, y = _wdbc(60, 8)
    start = (0.1, *svc_start(aniso_kernel(X, np.full(8, 0.1)), y, 1.0)[:4])
    seen = []
    solve = nlp.ipopt_solve
    monkeypatch.setattr(nlp, "ipopt_solve", lambda *a, **k: seen.append(a[6]) or solve(*a, **k))
    short, long_ = (solve_mmfs(X, y, 1.0, 0.3, start, hessian="limited-memory", lbfgs_history=h) for h in (6, 50))
    assert [o["limited_memory_max_history"] for o in seen] == [6, 50]
    assert short.status in OK_STATUSES and long_.status in OK_STATUSES, (short.message, long_.message)
    assert abs(short.objective - long_.objective) <= 1e-6 * abs(long_.objective)
    np.testing.assert_array_equal(short.gamma > 1e-2, long_.gamma > 1e-2)
    assert 0 < np.sum(long_.gamma > 1e-2) < 8
    for key in ("constraint_violation", "stationarity", "complementarity"):
        assert long_.residuals[key] < 1e-6, (key, long_.residuals)
    seen.clear()
    sel = MMFS(C2=0.3, C=1.0, gamma_ini=0.1, hessian="limited-memory").fit(X, y)
    assert sel.diagnostics_["lbfgs_history"] == 50 and seen[-1]["limited_memory_max_history"] == 50
    np.testing.assert_array_equal(sel.support_, long_.gamma > 1e-2)


def test_iteration_count_is_read_from_ipopt_and_ripopt_logs():
    ipopt_log = "Number of objective function evaluations             = 40\nNumber of Iterations....: 37\n"
    ripopt_log = "ripopt 0.8.2: Optimal after 12 iterations\n--- ripopt diagnostics ---\niterations: 12\n"
    assert iterations_from_log(ipopt_log) == 37 and iterations_from_log(ripopt_log) == 12
    assert iterations_from_log("no summary printed") is None


@pytest.mark.parametrize(
    "limit, where", [(5.0, "killed at the time limit|time exceeded"), (1e-6, "while building the model")]
)
def test_pyomo_route_time_limit_covers_build_and_solver_and_cleans_up(limit, where):
    """WDBC 60 x 30 with the exact Hessian takes ripopt ~50 s here: the limit ends it (ripopt's own check
    between iterations, or the hard kill of its process, whichever comes first; or before solving when the
    build alone used the time), status time_limit, no temporary .nl/.sol is left, the next solve works.
    5 s, not less: on a loaded 2-core machine the build alone took over 1.5 s (CI, three jobs running)."""
    X, y = _wdbc(60, 30)
    start = (0.1, *svc_start(aniso_kernel(X, np.full(30, 0.1)), y, 1.0)[:4])
    t = time.perf_counter()
    res = solve_mmfs_pyomo(X, y, 1.0, 0.3, start, hessian="exact", time_limit=limit)
    elapsed = time.perf_counter() - t
    assert res.status == "time_limit" and re.search(where, res.message, re.IGNORECASE), res.message
    # Pyomo's kill margin max(1 s, 1 %) + model build and start-up: ~3.8 s idle; the full solve takes ~50 s
    assert elapsed < limit + 10.0, elapsed
    if "time exceeded" in res.message.lower():  # ripopt stopped itself: its last iterate, a few iterations in
        assert res.n_iter is not None and res.n_iter < 50 and np.all(res.gamma >= -1e-8)
    else:  # killed, or never started: the start point
        np.testing.assert_array_equal(res.gamma, np.full(30, 0.1))
    assert not glob.glob(f"{tempfile.gettempdir()}/svmfs-pyomo-*")
    X2, y2 = _wdbc(30, 4)
    again = solve_mmfs_pyomo(X2, y2, 1.0, 0.3, (0.1, *svc_start(aniso_kernel(X2, np.full(4, 0.1)), y2, 1.0)[:4]),
                             hessian="exact")
    assert again.status in OK_STATUSES, again.message


def test_pyomo_status_reads_ripopts_time_limit_from_its_message():
    """ripopt ends on its own max_wall_time with termination condition maxIterations and the message
    "Maximum CPU Time Exceeded" (seen in CI): that is a time limit, not an iteration limit."""
    from pyomo.opt import TerminationCondition as TC

    ripopt_time = "ripopt: maxIterations; ripopt 0.8.2: Maximum CPU Time Exceeded"
    assert status_from(TC.maxIterations, ripopt_time) == "time_limit"
    assert status_from(TC.maxIterations, "ripopt: maxIterations; Maximum Number of Iterations Exceeded.") == "max_iter"
    assert status_from(TC.maxTimeLimit, "ipopt: maxTimeLimit; Maximum wallclock time exceeded") == "time_limit"
    assert status_from(TC.other, "ipopt: other; Solved To Acceptable Level.") == "acceptable"
    assert status_from(TC.optimal, "ripopt: optimal; Optimal Solution Found") == "ok"


def test_pyomo_route_refuses_large_problems_with_the_config_key():
    X, y = _wdbc(40, 30)
    with pytest.raises(ValueError, match="methods.mm_fs.params.pyomo_max_size"):
        MMFS(C=1.0, gamma_ini=0.1, route="pyomo", pyomo_max_size=1000).fit(X, y)


def test_larger_C2_gives_smaller_gamma_norm():
    """Section 4.4 / Fig. 1: the larger C2, the lower ||gamma||_1."""
    X, y = _wdbc(60, 8, seed=3)
    norms = [MMFS(C2=c2, C=1.0, gamma_ini=0.1).fit(X, y).diagnostics_["gamma_l1"] for c2 in (0.1, 0.5, 0.9)]
    assert norms[0] > norms[1] > norms[2]


def test_kp_fs_offshelf_reproduces_the_papers_collapse_to_zero_widths():
    """Jimenez-Cordero et al. section 5.1: solved off the shelf, KP-FS drives every width to zero.

    (v = 0 gives K = ee' and, with y'alpha = 0, F = 0, the global minimum of (15) for any alpha.)
    """
    X, y, _ = weston_nonlinear(n=80, p=10, seed=0)
    X = (X - X.mean(0)) / X.std(0)
    sel = KPFSOffShelf(C=1.0, v0=0.3, C2=0.5, random_state=0).fit(X, y)
    assert sel.diagnostics_["converged"]  # Ipopt's status is its path (another CPU may stop it at its cap): not asserted
    assert sel.diagnostics_["collapsed"] and not sel.get_support().any()
    assert sel.n_iter_ == 1  # collapsed in round 1: v = 0 is (15)'s global minimum, no later round can leave it
    assert np.array_equal(sel.weights_, np.zeros(10)) and np.array_equal(sel.kernel_widths_, np.zeros(10))
    assert 0.0 <= sel.diagnostics_["objective"] < 1e-20  # F(0) = (y'alpha)^2, not Ipopt's value at its last iterate


def test_a_collapsed_kp_fs_fits_objective_is_its_closed_form_not_a_blas_round_off():
    """At v = 0, F = (sum_i alpha_i y_i)^2, zero by (14)'s constraint up to libsvm's round-off. A pima-sized problem
    at C = 1000 (sum |alpha| about 4e5): beta' K beta with K = ee' summed by BLAS, which adds columns in blocks, gave
    -2.7e-9 here (-1.8e-9 on jimenez2021's pima fold 0); the closed form gives about 1e-23 on any machine."""
    rng = np.random.default_rng(2)
    X = rng.uniform(-1.0, 1.0, (690, 8))
    y = np.where(X[:, 0] + X[:, 1] ** 2 + 0.8 * rng.normal(size=690) > 0.3, 1, -1)
    sel = KPFSOffShelf(C=1000.0, v0=np.sqrt(0.02), C2=0.5, random_state=0).fit(X, y)
    assert sel.diagnostics_["collapsed"] and 0.0 <= sel.diagnostics_["objective"] < 1e-20


def test_a_collapsed_kp_fs_fit_is_scored_as_the_majority_class_on_every_machine():
    """Section 5.1: "all the elements are classified with the label of the predominant class". The widths of a
    collapsed fit are 0 exactly, so the final anisotropic SVM (``widths: all``) keeps no feature: its scores are
    one constant (AUC 0.5 exactly, not a ranking of round-off) and it predicts the training side's majority."""
    from sklearn.metrics import roc_auc_score

    from svmfs.protocol.classifiers import fit_predict

    X, y, _ = weston_nonlinear(n=80, p=10, seed=0)
    X = (X - X.mean(0)) / X.std(0)
    test = np.arange(len(y)) % 4 == 0
    train = ~test & ~((y == y.min()) & (np.cumsum(y == y.min()) <= 10))  # unbalanced: 10 fewer of one class
    Xt, yt = X[train], y[train]
    sel = KPFSOffShelf(C=1.0, v0=0.3, C2=0.5, random_state=0).fit(Xt, yt)
    assert sel.diagnostics_["collapsed"]
    cfg = {"anisotropic": {"C": [1.0], "widths": "all"}}
    pred, score = fit_predict("anisotropic", {"C": 1.0}, cfg, Xt, yt, X[test], sel.get_support(), sel)
    classes, counts = np.unique(yt, return_counts=True)
    assert counts.min() < counts.max() and np.all(pred == classes[np.argmax(counts)])
    assert np.ptp(score) == 0.0 and roc_auc_score(y[test], score) == 0.5


def test_kp_fs_offshelf_keeps_widths_that_have_not_collapsed():
    """The collapse rule applies only within the alternation's stopping test of v = 0: cut off after a few
    Ipopt iterations from v0 = 1, the widths are still far from zero and are returned as Ipopt left them."""
    X, y, _ = weston_nonlinear(n=80, p=10, seed=0)
    X = (X - X.mean(0)) / X.std(0)
    sel = KPFSOffShelf(C=1.0, v0=1.0, C2=0.5, max_iter=2, max_alternations=1, n_starts=1, random_state=0).fit(X, y)
    assert not sel.diagnostics_["collapsed"] and sel.weights_.sum() > sel.tol_v
    assert np.allclose(sel.kernel_widths_, sel.weights_**2 / 2)


def test_kp_fs_offshelf_time_limit_is_a_status():
    X, y = _wdbc(120, 30)
    sel = KPFSOffShelf(C=1.0, v0=1.0, C2=0.5, time_limit=0.05).fit(X, y)
    assert sel.diagnostics_["status"] == "time_limit" and sel.support_.shape == (30,)



def test_job_log_keeps_svmfs_messages_and_drops_cyipopt_callback_chatter(tmp_path):
    """cyipopt logs every callback at INFO; a select job's log must hold our lines, not thousands of those."""
    import logging

    from svmfs.jobs import job_context

    root = logging.getLogger()
    saved_handlers, saved_level = root.handlers[:], root.level
    try:
        with job_context(str(tmp_path / "job.log")) as log:
            log.info("fit starts")
            X, y = _wdbc(30, 4)
            MMFS(C2=0.3, C=1.0, gamma_ini=0.1).fit(X, y)
        text = (tmp_path / "job.log").read_text()
    finally:
        root.handlers[:] = saved_handlers
        root.setLevel(saved_level)
    assert "fit starts" in text
    assert "objective_cb" not in text and "gradient_cb" not in text, text[:300]
