"""Linear embedded and concave-programming methods: optima, vertices, monotone paths, recovery."""

import time
from itertools import combinations

import cvxpy as cp
import numpy as np
import pytest

from svmfs.analysis.tables import OK_STATUSES
from svmfs.data.synthetic import mit_example1
from svmfs.methods.fs_svmcp import FSSVMCP, FW1
from svmfs.methods.fsv import FSV
from svmfs.methods.l1_rfe import L1RFE
from svmfs.methods.l1_svm import L1SVM, l1_svm_path
from svmfs.methods.milp_fs import MILPFS, SafetyLimitReached
from svmfs.solvers.concave import CONCAVE, concave_gradient, concave_value
from svmfs.solvers.linear_programs import weighted_l1_svm


def _data(n=60, p=30, seed=0, rho=0.2):
    X, y, rel = mit_example1(n=n, p=p, k0=4, rho=rho, seed=seed)
    return X, y.astype(float), rel


def _cvxpy_l1_svm(X, y, C, M=None, support=None):
    """The 1-norm SVM by an interior-point solver (CLARABEL): an independent solve."""
    p = X.shape[1]
    w, b, xi = cp.Variable(p), cp.Variable(), cp.Variable(X.shape[0], nonneg=True)
    cons = [cp.multiply(y, X @ w + b) >= 1 - xi]
    if M is not None:
        cons.append(cp.abs(w) <= M)
    if support is not None:
        off = [j for j in range(p) if j not in support]
        if off:
            cons.append(w[off] == 0)
    prob = cp.Problem(cp.Minimize(cp.norm1(w) + C * cp.sum(xi)), cons)
    prob.solve(solver=cp.CLARABEL)
    return prob.value


@pytest.mark.parametrize("C", [0.05, 1.0, 20.0])
def test_l1_svm_optimum_matches_interior_point(C):
    X, y, _ = _data()
    ours = weighted_l1_svm(X, y, np.ones(X.shape[1]), C=C)
    assert ours.status in OK_STATUSES
    assert ours.objective == pytest.approx(_cvxpy_l1_svm(X, y, C), rel=1e-6)
    assert ours.n_active >= ours.n_variables  # simplex: a vertex


def test_l1_svm_path_equals_cold_solves():
    X, y, _ = _data(seed=1)
    Cs = [0.1, 1.0, 10.0]
    for C, res in zip(Cs, l1_svm_path(X, y, Cs)):
        assert res.objective == pytest.approx(weighted_l1_svm(X, y, np.ones(X.shape[1]), C=C).objective, rel=1e-9)
    nnz = [int(np.sum(np.abs(r.w) > 1e-6)) for r in l1_svm_path(X, y, [0.01, 0.1, 1.0, 10.0])]
    assert nnz[0] <= nnz[-1]  # a stronger l1 penalty (small C) keeps fewer features


@pytest.mark.parametrize("C", [0.1, 1.0])
def test_l1_svm_refit_selected_re_solves_the_lp_on_its_own_support(C):
    """Jimenez-Cordero et al. (2021), sec. 5.2, reading (a) of sheet row J35: the same support as the plain
    fit, and a hyperplane that is the 1-norm SVM optimum on the selected columns alone (CLARABEL's value),
    zero on every other column."""
    X, y, _ = _data(seed=2)
    plain = L1SVM(C=C).fit(X, y)
    refit = L1SVM(C=C, refit_selected=True).fit(X, y)
    s = plain.support_
    assert 0 < s.sum() < X.shape[1]
    assert np.array_equal(refit.support_, s)
    assert np.all(refit.weights_[~s] == 0.0)
    ys = np.where(y == refit.classes_[1], 1.0, -1.0)
    assert refit.diagnostics_["refit_objective"] == pytest.approx(_cvxpy_l1_svm(X[:, s], ys, C), rel=1e-6)
    w, b = refit.weights_[s], refit.intercept_
    assert np.sum(np.abs(w)) + C * np.sum(np.maximum(0.0, 1 - ys * (X[:, s] @ w + b))) == pytest.approx(
        refit.diagnostics_["refit_objective"], rel=1e-6)
    assert np.allclose(refit.own_decision(X), X[:, s] @ w + b)


@pytest.mark.parametrize("kind", CONCAVE)
def test_concave_gradients_match_finite_differences(kind):
    z = np.array([0.0, 1e-3, 0.3, 2.0])
    kw = {"p": 0.5} if kind == "power" else {}
    g = concave_gradient(z, kind, eps=1e-2, **kw)
    h = 1e-7
    for j in range(z.size):
        e = np.zeros_like(z)
        e[j] = h
        fd = (concave_value(z + e, kind, eps=1e-2, **kw) - concave_value(z - e if z[j] > h else z, kind, eps=1e-2, **kw)) / (2 * h if z[j] > h else h)
        assert g[j] == pytest.approx(fd, rel=1e-4)
    assert np.all(g > 0) and np.all(np.diff(g) < 0)  # increasing and concave


def test_fs_svmcp_vertices_and_strictly_decreasing_counts():
    X, y, _ = mit_example1(n=80, p=120, k0=6, rho=0.3, seed=2)
    sel = FSSVMCP(C_grid=[0.01, 0.1, 1.0], cv=3).fit(X, y)
    path = sel.diagnostics_["path"]
    assert sel.diagnostics_["status"] in OK_STATUSES and len(path) >= 2
    for step in path:
        assert step["lp_status"] in OK_STATUSES
        assert step["lp_active"] >= step["lp_variables"]  # the LP (15) solution is a vertex
    counts = [s["n_active"] for s in path]
    assert all(a > b for a, b in zip(counts, counts[1:]))  # the subspace shrinks at every repetition
    assert path[-1]["n_hat"] >= int(np.count_nonzero(sel.weights_))  # stop: no further reduction
    assert 0 < sel.support_.sum() <= path[-1]["n_active"]


def test_fw1_reaches_a_stationary_vertex_with_monotone_objective():
    X, y, _ = _data(n=60, p=40, seed=3)
    sel = FW1(C_grid=[0.1]).fit(X, y)
    values = sel.diagnostics_["path"]
    assert sel.diagnostics_["status"] == "ok" and sel.n_iter_ < sel.max_iter
    assert all(b < a for a, b in zip(values, values[1:]))  # Frank-Wolfe on a concave F descends
    assert 0 < sel.support_.sum() < 40


def test_fsv_terminates_finitely_at_a_repeated_vertex():
    X, y, _ = _data(n=60, p=40, seed=4)
    sel = FSV(C=1.0, beta=5.0, max_iter=50).fit(X, y)
    assert sel.diagnostics_["status"] == "ok" and sel.n_iter_ < 50
    objs = [s["objective"] for s in sel.diagnostics_["path"]]
    assert all(b <= a + 1e-9 for a, b in zip(objs[1:], objs[2:]))  # SLA descends on the concave (9)


@pytest.mark.parametrize("lp_first", [True, False])
def test_milp_fs_equals_brute_force_over_subsets(lp_first):
    X, y, _ = mit_example1(n=40, p=8, k0=3, rho=0.3, seed=5)
    y = y.astype(float)
    C, B, M = 1.0, 3, 2.0
    sel = MILPFS(C=C, B=B, M=M, time_limit=60, lp_first=lp_first).fit(X, y)
    best = min(_cvxpy_l1_svm(X, y, C, M=M, support=set(S)) for k in range(B + 1) for S in combinations(range(8), k))
    assert sel.diagnostics_["status"] in OK_STATUSES
    assert sel.diagnostics_["route"] == "milp"  # the budget binds: the relaxation has more than B nonzeros
    assert sel.diagnostics_["objective"] == pytest.approx(best, rel=1e-6, abs=1e-7)
    assert sel.support_.sum() <= B


def test_milp_fs_keeps_a_relaxation_within_budget_as_the_branch_and_bound_optimum():
    X, y, _ = mit_example1(n=40, p=8, k0=3, rho=0.3, seed=5)
    y = y.astype(float)
    C, B, M = 1.0, 6, 2.0
    lp = MILPFS(C=C, B=B, M=M, time_limit=60).fit(X, y)
    bb = MILPFS(C=C, B=B, M=M, time_limit=60, lp_first=False).fit(X, y)
    assert lp.diagnostics_["route"] == "lp_relaxation" and bb.diagnostics_["route"] == "milp"
    assert lp.support_.sum() <= B < X.shape[1]
    assert lp.diagnostics_["objective"] == pytest.approx(bb.diagnostics_["objective"], rel=1e-7)
    assert lp.diagnostics_["objective"] == pytest.approx(_cvxpy_l1_svm(X, y, C, M=M), rel=1e-6)  # budget slack
    assert np.array_equal(lp.support_, bb.support_)


def test_milp_fs_time_limit_is_a_status_not_an_error():
    X, y, _ = mit_example1(n=120, p=120, k0=10, rho=0.5, seed=6)
    sel = MILPFS(C=10.0, B=5, M=1.0, time_limit=0.01).fit(X, y)
    assert sel.diagnostics_["status"] in ("time_limit", "solver_error")
    assert sel.support_.shape == (120,)


def test_milp_fs_node_limit_stops_at_the_same_feasible_incumbent_every_time():
    X, y, _ = mit_example1(n=120, p=60, k0=10, rho=0.5, seed=6)
    C, B, M, limit = 10.0, 5, 1.0, 20
    a, b = (MILPFS(C=C, B=B, M=M, time_limit=600, lp_first=False, node_limit=limit).fit(X, y) for _ in range(2))
    d = a.diagnostics_
    assert d["n_iter"] <= limit  # HiGHS explored at most the nodes allowed
    assert d["status"] in ("ok", "max_iter")
    assert np.array_equal(a.weights_, b.weights_) and d["objective"] == b.diagnostics_["objective"]  # deterministic
    # the incumbent is a feasible point of the MILP and its objective is the one reported
    w, b0, yy = a.weights_, a.intercept_, np.where(y == a.classes_[1], 1.0, -1.0)
    assert a.support_.sum() <= B and np.all(np.abs(w) <= M + 1e-7) and np.all(np.abs(w[~a.support_]) <= 1e-9)
    hinge = np.maximum(0.0, 1.0 - yy * (X @ w + b0)).sum()
    assert d["objective"] == pytest.approx(np.abs(w).sum() + C * hinge, rel=1e-6)
    assert d["bound"] <= d["objective"] * (1 + 1e-9)
    # "max_iter" only when the bound leaves a gap; "ok" only when it closes it (HiGHS's relative gap 1e-4)
    closed = d["objective"] - d["bound"] <= 1e-4 * abs(d["objective"]) + 1e-6
    assert closed == (d["status"] == "ok")


@pytest.mark.parametrize("lp_first", [True, False])
def test_milp_fs_safety_limit_before_the_node_limit_fails_the_fit_instead_of_returning_an_incumbent(lp_first):
    # issue 34: a time limit that fires before the node limit would make the incumbent depend on the machine
    X, y, _ = mit_example1(n=120, p=60, k0=10, rho=0.5, seed=6)
    sel = MILPFS(C=10.0, B=5, M=1.0, time_limit=1e-4, lp_first=lp_first, node_limit=20)
    with pytest.raises(SafetyLimitReached, match=r"safety limit time_limit \((0.0001 CPU|0.0004 wall-clock) seconds\) stopped the fit .* before node_limit = 20"):
        sel.fit(X, y)


def test_milp_fs_time_limit_counts_cpu_seconds_not_wall_clock_seconds(monkeypatch):
    # a loaded machine: wall-clock seconds pass while the fit gets no CPU (here: 3 s asleep while the model is
    # built); the node-limited fit must still return what it returns on an idle machine
    import svmfs.methods.milp_fs as milp_fs

    X, y, _ = mit_example1(n=60, p=20, k0=10, rho=0.5, seed=6)
    make = lambda: MILPFS(C=10.0, B=3, M=1.0, time_limit=2.0, lp_first=False, node_limit=5)  # noqa: E731
    idle = make().fit(X, y)
    build = milp_fs.build_model
    monkeypatch.setattr(milp_fs, "build_model", lambda *a: (time.sleep(3.0), build(*a))[1])
    loaded = make().fit(X, y)
    assert loaded.diagnostics_["status"] == idle.diagnostics_["status"]
    assert np.array_equal(idle.weights_, loaded.weights_)
    assert idle.diagnostics_["objective"] == loaded.diagnostics_["objective"]


def test_milp_fs_rejects_a_node_limit_that_is_not_a_positive_integer():
    X, y, _ = mit_example1(n=40, p=8, k0=3, rho=0.3, seed=5)
    with pytest.raises(ValueError, match="node_limit"):
        MILPFS(B=3, node_limit=0.5).fit(X, y)


@pytest.mark.parametrize("make", [lambda: L1SVM(C=1.0), lambda: FSSVMCP(C_grid=[0.01, 0.1, 1.0], cv=5)])
def test_recovers_mit_example1_relevant_features(make):
    X, y, rel = mit_example1(n=100, p=200, k0=10, rho=0.0, seed=3)
    sel = make().fit(X, y)
    recall = len(set(np.flatnonzero(sel.support_)) & set(rel)) / len(rel)
    assert recall >= 0.8


def test_l1_rfe_stays_inside_the_l1_support():
    X, y, _ = _data(n=80, p=60, seed=7)
    l1 = L1SVM(C=1.0).fit(X, y).support_
    sel = L1RFE(C=1.0, n_features_to_select=50).fit(X, y)
    assert sel.support_.sum() == l1.sum() and np.all(sel.support_ <= l1)
    small = L1RFE(C=1.0, n_features_to_select=2).fit(X, y)
    assert small.support_.sum() == 2 and np.all(small.support_ <= l1)
    assert sorted(small.ranking_) == list(range(1, 61))



def test_linear_svm_all_features_counts_nonzero_weights_as_rinaldi_tables_1_2():
    """Rinaldi & Sciandrone's SVM column counts ||w*||_0: a column constant at zero (ionosphere's second
    attribute) gets w_j = 0 and is not counted, in the selector and in the select job's n_selected; the
    scored classifier is that hyperplane itself (final ``own``), trained and tested on the fold."""
    from sklearn.model_selection import StratifiedKFold
    from sklearn.svm import LinearSVC

    from svmfs.methods.liblinear_svm import LinearSVMAllFeatures
    from svmfs.protocol.select_job import run_select_job

    X, y, _ = mit_example1(n=60, p=12, k0=3, rho=0.2, seed=4)
    X[:, 5] = 0.0
    sel = LinearSVMAllFeatures(C_grid=[0.1, 1.0, 10.0], cv=3).fit(X, y)
    assert sel.weights_[5] == 0.0 and np.count_nonzero(sel.weights_) == 11
    assert sel.get_support().tolist() == [j != 5 for j in range(12)]
    ref = LinearSVC(C=sel.C_, loss="hinge", dual=True, max_iter=10000, random_state=0).fit(X, y)
    assert np.array_equal(sel.own_predict(X), ref.predict(X))  # H(w*, b*) is the SVM solved at the chosen C
    train, test = next(StratifiedKFold(4, shuffle=True, random_state=0).split(X, y))
    fold = {"fold": 0, "train": train.tolist(), "test": test.tolist()}
    camp = {"normalization": {"method": "none"}, "inner_cv": {"n_splits": 3}, "final_classifier": {}}
    rec = run_select_job(X, y, fold, "svm_linear", {"method": "liblinear_svm", "final": "own", "params": {"C_grid": [0.1, 1.0, 10.0]}}, camp, seed=1)
    assert rec["n_selected"] == 11 and 5 not in rec["selected"]
    base = run_select_job(X, y, fold, "svm_linear", {}, {**camp, "final_classifier": {"linear": {"C": [1.0]}}}, seed=1)
    assert base["n_selected"] == 12


@pytest.mark.parametrize("make", ["fs_svmcp", "liblinear_svm"])
def test_c_ties_rule_picks_the_smallest_or_the_largest_best_c(make):
    """Sheet row R13 (Rinaldi & Sciandrone, section 2: "The value of C which gives the lowest cross-validation
    error rate is selected", no tie rule): ``C_ties`` chooses among the C values whose CV accuracy ties for
    the best, computed here by a second route (the same folds scored directly). The default keeps the
    first best in grid order."""
    from sklearn.model_selection import StratifiedKFold, cross_val_score
    from sklearn.svm import LinearSVC

    from svmfs.methods.liblinear_svm import LinearSVMAllFeatures

    X, y, _ = mit_example1(n=40, p=6, k0=2, rho=0.0, seed=3)
    grid = [0.001, 0.01, 0.1, 1.0, 10.0, 100.0]
    folds = StratifiedKFold(n_splits=3, shuffle=True, random_state=0)
    scores = np.round([cross_val_score(LinearSVC(C=c, loss="hinge", dual=True, max_iter=10000, random_state=0),
                                       X, y, cv=folds).mean() for c in grid], 12)  # fmt: skip
    best = [c for c, s in zip(grid, scores) if s == scores.max()]
    assert len(best) >= 2  # the data make a tie, so the rule matters
    cls = FSSVMCP if make == "fs_svmcp" else LinearSVMAllFeatures
    kw = {"max_iter": 1} if make == "fs_svmcp" else {}  # one step 1: the C of the first SVM
    assert cls(C_grid=grid, cv=3, **kw).fit(X, y).C_ == best[0]
    assert cls(C_grid=grid, cv=3, C_ties="smallest", **kw).fit(X, y).C_ == best[0]
    assert cls(C_grid=grid, cv=3, C_ties="largest", **kw).fit(X, y).C_ == best[-1]
    with pytest.raises(ValueError, match="The 'C_ties' parameter of .* must be a str among .*Got 'middle' instead"):
        cls(C_grid=grid, cv=3, C_ties="middle").fit(X, y)


def test_fs_svmcp_stopped_by_max_iter_returns_its_last_svm():
    """Stopped by the safety limit after a removal, FS-SVMCP returns the last step-1 SVM H(w*, b*) on the
    features that SVM was solved on (section 4.1), not weights of one subspace put on another's indices."""
    from sklearn.svm import LinearSVC

    X, y, _ = mit_example1(n=40, p=6, k0=2, rho=0.0, seed=3)
    sel = FSSVMCP(C_grid=[1.0], max_iter=1).fit(X, y)
    assert sel.diagnostics_["status"] == "max_iter" and sel.diagnostics_["path"][0]["n_hat"] < 6
    ref = LinearSVC(C=1.0, loss="hinge", dual=True, max_iter=10000, random_state=0).fit(X, y)
    assert np.allclose(sel.weights_, ref.coef_.ravel()) and np.isclose(sel.intercept_, ref.intercept_[0])


def test_fs_svmcp_svm_rows_I_fits_step_1_on_the_previous_set_I_only():
    """Sheet row R31: problem (14) as printed penalizes "C sum_{i in I} xi^i", I from step 2 of the previous
    iteration (every point at the first). With ``svm_rows="I"`` the second step-1 SVM equals an SVM fitted on
    the rows the first iteration kept in I (a point outside I has a free slack); the default fits all rows."""
    from sklearn.svm import LinearSVC

    X, y, _ = mit_example1(n=60, p=8, k0=2, rho=0.0, seed=5)
    y = y.copy()
    y[:6] = -y[:6]  # label noise: the first SVM misclassifies some points, so I is a proper subset
    svm = lambda: LinearSVC(C=1.0, loss="hinge", dual=True, max_iter=10000, random_state=0)  # noqa: E731
    first = svm().fit(X, y)
    in_I = np.maximum(0.0, 1.0 - y * first.decision_function(X)) < 1
    assert 0 < np.sum(~in_I)
    runs = {r: FSSVMCP(C_grid=[1.0], svm_rows=r, max_iter=2).fit(X, y) for r in ("all", "I")}
    path = runs["I"].diagnostics_["path"]
    assert path[0]["n_rows"] == int(in_I.sum()) and path[0]["n_hat"] < 8 and len(path) == 2
    kept = np.flatnonzero(runs["I"].weights_ != 0)
    assert len(kept) == path[1]["n_active"]
    second_I = svm().fit(X[in_I][:, kept], y[in_I])
    second_all = svm().fit(X[:, kept], y)
    assert np.allclose(runs["I"].weights_[kept], second_I.coef_.ravel())
    assert np.allclose(runs["all"].weights_[kept], second_all.coef_.ravel())
    assert not np.allclose(second_I.coef_, second_all.coef_)
    with pytest.raises(ValueError, match="The 'svm_rows' parameter of FSSVMCP must be a str among .*Got 'none' instead"):
        FSSVMCP(C_grid=[1.0], svm_rows="none").fit(X, y)
