"""SVM-RFE one feature at a time: the pruned w of the kernel route and the exact active-set route.

References: scikit-learn's RFE(SVC(kernel="linear"), step=1), at its default tol = 1e-3 for
``solver="kernel"`` (the same libsvm solves) and at tol = 1e-12 (the exact dual) for
``solver="active_set"``.
"""

import numpy as np
import pytest
from sklearn.feature_selection import RFE
from sklearn.svm import SVC

import svmfs.solvers.rfe_weights as mod
from svmfs.methods.svm_rfe import SVMRFE, rfe_schedule


def problem(seed, n=36, p=24, separable=True):
    """Two Gaussian classes; separable: a wide margin on the first 3 features, else 25 % labels flipped."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, p))
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    X[:, :3] += 0.8 * y[:, None] * np.array([1.0, 0.7, 0.5])
    if separable:
        X[:, 0] += 2.0 * y
    else:
        flip = rng.choice(n, n // 4, replace=False)
        y[flip] = -y[flip]
    return X, y


def sklearn_ranking(X, y, C, tol):
    return RFE(SVC(kernel="linear", C=C, tol=tol), n_features_to_select=1, step=1).fit(X, y).ranking_


def max_violation(K, y, C, alpha):
    """m(a) - M(a) (Fan, Chen & Lin 2005) from the KKT conditions written per sample."""
    minus_yg = -y * (y * (K @ (alpha * y)) - 1.0)
    up = ((y > 0) & (alpha < C)) | ((y < 0) & (alpha > 0))
    low = ((y < 0) & (alpha < C)) | ((y > 0) & (alpha > 0))
    return minus_yg[up].max() - minus_yg[low].min()


CASES = [(seed, sep, C) for seed in range(3) for sep in (True, False) for C in (0.01, 1.0, 100.0)]


@pytest.mark.parametrize(("seed", "separable", "C"), CASES)
def test_active_set_ranking_equals_sklearn_exact(seed, separable, C):
    X, y = problem(seed, separable=separable)
    sel = SVMRFE(C=C, switch_at=1000, solver="active_set").fit(X, y)
    assert np.array_equal(sel.ranking_, sklearn_ranking(X, y, C, 1e-12))
    n = sel.diagnostics_["message"]
    assert "rank-one updates" in n and sel.diagnostics_["status"] == "ok"
    assert sel.kkt_violation_ < 1e-8  # over every solve of the path
    # the last dual (2 features left), checked from scratch
    last = np.flatnonzero(sel.ranking_ <= 2)
    K = X[:, last] @ X[:, last].T
    alpha = sel.dual_alpha_
    assert alpha.min() >= 0 and alpha.max() <= C and abs(alpha @ y) < 1e-9 * C * len(y)
    assert max_violation(K, y, C, alpha) < 1e-8


@pytest.mark.parametrize(("seed", "separable", "C"), CASES)
def test_kernel_route_ranking_equals_sklearn_default(seed, separable, C):
    """The default route runs libsvm at tol 1e-3 as SVC does: scikit-learn's ranking exactly."""
    X, y = problem(seed, separable=separable)
    sel = SVMRFE(C=C, switch_at=1000).fit(X, y)
    assert np.array_equal(sel.ranking_, sklearn_ranking(X, y, C, 1e-3))


def test_bound_support_vectors_and_active_set_changes_are_exercised():
    """Small C (bound alphas) on noisy labels: the sets F / U / L change along the path, the
    primal-dual active-set steps run, and so (forced here) does the libsvm fallback; same ranking."""
    X, y = problem(1, n=40, p=30, separable=False)
    ref = sklearn_ranking(X, y, 0.05, 1e-12)
    sel = SVMRFE(C=0.05, switch_at=1000, solver="active_set").fit(X, y)
    assert np.array_equal(sel.ranking_, ref)
    counts = _counts(sel)
    assert counts["set_change"] > 0 and counts["update"] > 0 and sum(counts.values()) == 29
    assert (sel.dual_alpha_ == 0.05).any()  # bound support vectors in the last dual


def test_libsvm_fallback_runs_when_the_active_set_steps_fail(monkeypatch):
    X, y = problem(2, n=40, p=30, separable=False)
    ref = sklearn_ranking(X, y, 1.0, 1e-12)
    monkeypatch.setattr(mod.ActiveSetWeights, "_active_set_steps", lambda self, *a, **k: False)
    sel = SVMRFE(C=1.0, switch_at=1000, solver="active_set").fit(X, y)
    counts = _counts(sel)
    assert counts["set_change"] == 0 and counts["fallback"] > 1  # the first solve is a fallback too
    assert np.array_equal(sel.ranking_, ref) and sel.kkt_violation_ < 1e-8


def _counts(sel):
    words = sel.diagnostics_["message"].replace(",", "").split()
    return {
        "update": int(words[0]),
        "refactor": int(words[words.index("refactorizations") - 1]),
        "set_change": int(words[words.index("active-set") - 1]),
        "fallback": int(words[words.index("fallback") - 1]),
    }


def test_mit_schedule_active_set_equals_svc_loop():
    """Batch removals then one at a time: ranking of a plain loop of exact SVC fits (same tie rule)."""
    X, y = problem(0, n=40, p=60, separable=False)
    C, p = 0.5, X.shape[1]
    active, ref, nxt = np.arange(p), np.zeros(p, dtype=int), p
    for r in rfe_schedule(p, 0.3, 15):
        w = SVC(kernel="linear", C=C, tol=1e-12).fit(X[:, active], y).coef_.ravel()
        gone = np.lexsort((-active, np.abs(w)))[:r]
        ref[active[gone]] = nxt - np.arange(r)
        nxt -= r
        active = np.delete(active, gone)
    ref[active] = 1
    sel = SVMRFE(C=C, step=0.3, switch_at=15, solver="active_set").fit(X, y)
    assert np.array_equal(sel.ranking_, ref)


def spider_rfe_support(X, y, C, r):
    """SPIDER's RFE as its training.m states it (speed = 0): while more than r features remain, train the
    linear SVM and remove the floor(n / 2) smallest w_j^2, capped so that exactly r remain."""
    active = np.arange(X.shape[1])
    while active.size > r:
        w = SVC(kernel="linear", C=C, tol=1e-12).fit(X[:, active], y).coef_.ravel()
        n_remove = min(active.size // 2, active.size - r)
        active = np.delete(active, np.argsort(w**2, kind="stable")[:n_remove])
    return np.sort(active)


def test_halve_schedule_is_spiders_rfe_at_every_size():
    """step="halve" (sheet row R26 (c) of docs/protocols/rinaldi2010.md): floor(n / 2) per iteration, and the
    size r read off the full ranking keeps what SPIDER's capped elimination keeps, also where a halving passes
    over r (60 -> 30 -> 15 -> 8 -> 4: r = 5, 6, 7, 9, ..., 14)."""
    assert rfe_schedule(60, "halve", 0) == [30, 15, 7, 4, 2, 1]
    assert rfe_schedule(125, "halve", 0)[:2] == [62, 31]  # floor, where step=0.5 takes ceil: [63, 31]
    X, y = problem(3, n=40, p=60, separable=False)
    sel = SVMRFE(C=0.5, step="halve", switch_at=0, solver="active_set").fit(X, y)
    for r in range(1, 31):
        ours = np.sort(np.flatnonzero(sel.ranking_ <= r))
        assert np.array_equal(ours, spider_rfe_support(X, y, 0.5, r)), r
    with pytest.raises(ValueError, match="halve"):
        rfe_schedule(10, "half", 0)


@pytest.mark.parametrize("solver", ["kernel", "active_set"])
def test_tie_rule_duplicated_feature(solver):
    """Identical columns have equal w_j up to rounding (BLAS may round the two products differently,
    seen here: 0.2647313488663168 / ...1644), which the tie margin covers: of the two, the higher index
    leaves first (the other one's weight then changes, so it may stay longer)."""
    X, y = problem(0, separable=False)
    X = np.hstack([X, X[:, [5]]])  # feature 24 duplicates feature 5
    sel = SVMRFE(C=1.0, switch_at=1000, solver=solver).fit(X, y)
    assert sel.weights_[24] == pytest.approx(sel.weights_[5], rel=1e-14)
    assert sel.ranking_[24] > sel.ranking_[5]
    assert sorted(sel.ranking_) == list(range(1, 26))
    X2 = np.hstack([X[:, [24]], X[:, :24]])  # the duplicate first: now it is the lower index, feature 6 leaves first
    sel2 = SVMRFE(C=1.0, switch_at=1000, solver=solver).fit(X2, y)
    assert sel2.ranking_[6] > sel2.ranking_[0]


@pytest.mark.parametrize("solver", ["kernel", "active_set"])
def test_pruned_w_selects_as_full_w(monkeypatch, solver):
    """The Cauchy-Schwarz pruning of w (one at a time) removes the same features as full products."""
    X, y = problem(1, n=50, p=400, separable=False)
    pruned = SVMRFE(C=1.0, switch_at=1000, solver=solver).fit(X, y)
    assert pruned.w_products_["pruned"] > 100  # of 399 steps (measured 127 and 126; 6000+ of 7128 on leukemia)
    monkeypatch.setattr(mod.KernelWeights, "prune", False)
    full = SVMRFE(C=1.0, switch_at=1000, solver=solver).fit(X, y)
    assert full.w_products_["pruned"] == 0
    assert np.array_equal(pruned.ranking_, full.ranking_)
