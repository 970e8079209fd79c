"""KP-SVM (Maldonado, Weber & Basak 2011, sec. 4, eqs. 11-16, Algorithm 1) checked by a second route.

Everything below is written again from the paper with NumPy and scikit-learn's public SVC: kernel (11), the
dual (14) and its derivative in the widths v, the gradient (16) as printed, Algorithm 1's step and elimination.
The library is only called through its public selector :class:`svmfs.methods.kp_svm.KPSVM`, on the paper
protocol's colon training side (the campaign ``maldonado2011_paper`` as its export holds it,
``reproduction/maldonado2011_paper/config.yaml``: its outer split, z-scores fitted on the training side, C = 10
and v0 = 0.01 from the Gaussian model selection), read from ``../shared/data`` through the project's loader and
split function.

What is checked (protocol sheet rows K24, K29):

- (16)'s first term is + 2 dW/dv_j, W the objective of the dual (14): central differences agree with alpha
  fixed and, by Danskin's theorem, with alpha re-solved at every v (the derivative of the dual optimum);
- the step KPSVM takes is (16) as printed, to rounding; (15) as printed is minimised by v = 0 (its first term
  is c'Kc >= 0 and (y'alpha)^2 = 0 at v = 0), so its gradient is not (16): the two equations disagree in sign;
- Algorithm 1 written here and KPSVM give the same supports with the paper's literal gamma = 0.25 and with the
  library's rescaled first step, and the literal step eliminates nearly every feature within two iterations
  once C2 >= 1;
- the committed paper-protocol selection (1997 of 2000 genes at C2 = 0.1, t = 10) is what Algorithm 1 gives at
  that (C2, t): the count is the inner CV's choice of (C2, t), not a defect of the iteration.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from conftest import shared_data
from sklearn.svm import SVC

from svmfs.data.registry import build_dataset, load_registry
from svmfs.methods.kp_svm import KPSVM
from svmfs.protocol.normalize import normalize_fold
from svmfs.protocol.seeds import splits_seed
from svmfs.protocol.splits import make_splits

ROOT = Path(__file__).resolve().parents[1]
EXPORT = ROOT / "reproduction" / "maldonado2011_paper"  # config.yaml (the campaign as run) and records.parquet
C, V0, BETA = 10.0, 0.01, 5.0  # the campaign's K9 start for colon


@pytest.fixture(scope="module")
def colon():
    """The colon training side of the paper-protocol campaign (31 x 2000, z-scored on the training side)."""
    cfg = yaml.safe_load((EXPORT / "config.yaml").read_text())
    ds = build_dataset("colon", load_registry(ROOT / "config" / "datasets.yaml")["colon"], raw_dir=shared_data())
    spec = {**cfg["splits"], **cfg["datasets"]["colon"].get("splits", {})}
    fold = make_splits(ds.y, spec, splits_seed(cfg["seed"], "colon"), dataset="colon")[0]
    norm = cfg["normalization"]
    X, _, _ = normalize_fold(ds.X, np.asarray(fold["train"]), np.asarray(fold["test"]), norm["method"], norm["scope"])
    return X, ds.y[np.asarray(fold["train"])].astype(float)


# ---- the second route, from the paper's equations --------------------------------------------------------------


def pair_sq(X):
    """D[i, s, j] = (x_ij - x_sj)^2."""
    return (X[:, None, :] - X[None, :, :]) ** 2


def kernel(D, v):
    """Kernel (11): exp(-||v * x_i - v * x_s||^2 / 2)."""
    return np.exp(-0.5 * D @ (v * v))


def dual(K, y, C, tol=1e-3):
    """c = alpha * y of the dual (14), libsvm through SVC (the sign of c does not matter: it enters twice)."""
    svc = SVC(C=C, kernel="precomputed", tol=tol).fit(K, y)
    c = np.zeros(len(y))
    c[svc.support_] = svc.dual_coef_.ravel()
    return c


def W(c, K):
    """The objective of (14): sum_i alpha_i - 1/2 sum_{i,s} alpha_i alpha_s y_i y_s K_is."""
    return float(np.abs(c).sum() - 0.5 * c @ K @ c)


def dW_dv(c, K, D, v):
    """dW/dv_j with alpha fixed: dK_is/dv_j = -v_j (x_ij - x_sj)^2 K_is, so 1/2 v_j sum c_i c_s K_is D_isj."""
    return 0.5 * v * np.einsum("i,s,is,isj->j", c, c, K, D)


def grad16(c, K, D, v, C2):
    """(16) as printed: v_j sum c_i c_s K_is D_isj + C2 beta exp(-beta v_j)."""
    return v * np.einsum("i,s,is,isj->j", c, c, K, D) + C2 * BETA * np.exp(-BETA * v)


def algorithm1(X, y, C2, n_iter, gamma=None):
    """Algorithm 1: v = v0 e; step 1 the SVM (14); v <- min(v - gamma (16), v_max); v_j < eps -> 0 for good.
    ``gamma`` None: fixed at the first iteration as the largest step that shrinks no width by more than v0/4
    (the library's documented departure K24); a number: that gamma (the paper's 0.25). eps = v0 / 4 (K26),
    v_max = 10 v0 (K23), stop when ||v^{t+1} - v^t||_1 < 1e-3 ||v^t||_1 (K27). Returns v and the support
    size after each iteration."""
    D, eps, v_max = pair_sq(X), V0 / 4, 10 * V0
    v, sizes = np.full(X.shape[1], V0), []
    for _ in range(n_iter):
        a = v > 0
        K = kernel(D[:, :, a], v[a])
        g = grad16(dual(K, y, C), K, D[:, :, a], v[a], C2)
        if gamma is None:
            gamma = 0.25 * V0 / (g.max() if g.max() > 0 else np.abs(g).max())
        new = np.zeros_like(v)
        new[a] = np.minimum(v[a] - gamma * g, v_max)
        new[new < eps] = 0.0
        if not np.any(new > 0):  # every width would go: keep the widest (the library's documented choice)
            keep = np.flatnonzero(a)[np.argmax(v[a])]
            new[keep] = v[keep]
            sizes.append(1)
            return new, sizes
        change, norm, v = np.abs(new - v).sum(), v.sum(), new
        sizes.append(int(np.count_nonzero(v)))
        if change < 1e-3 * norm:
            break
    return v, sizes


# ---- the checks -------------------------------------------------------------------------------------------------


def test_dual_gradient_agrees_with_central_differences(colon):
    X, y = colon[0][:, :300], colon[1]
    D = pair_sq(X)
    rng = np.random.default_rng(0)
    v = V0 * np.exp(rng.normal(0.0, 0.3, X.shape[1]))  # a generic anisotropic point
    c = dual(kernel(D, v), y, C, tol=1e-12)
    g = dW_dv(c, kernel(D, v), D, v)
    h = 1e-3 * V0
    for j in rng.choice(X.shape[1], 6, replace=False):
        e = np.zeros_like(v)
        e[j] = h
        fixed = (W(c, kernel(D, v + e)) - W(c, kernel(D, v - e))) / (2 * h)
        assert fixed == pytest.approx(g[j], rel=1e-6)

        def optimum(vv):  # the dual optimum max_alpha (14), alpha re-solved at vv
            K = kernel(D, vv)
            return W(dual(K, y, C, tol=1e-12), K)

        assert (optimum(v + e) - optimum(v - e)) / (2 * h) == pytest.approx(g[j], rel=1e-4)  # Danskin


@pytest.mark.parametrize("C2", [0.1, 10.0])
def test_library_step_is_gradient_16_as_printed(colon, C2):
    X, y = colon
    D = pair_sq(X)
    v = np.full(X.shape[1], V0)
    K = kernel(D, v)
    c = dual(K, y, C)
    g = grad16(c, K, D, v, C2)
    assert np.allclose(g - C2 * BETA * np.exp(-BETA * v), 2 * dW_dv(c, K, D, v), rtol=1e-12, atol=0)
    gamma = 1e-3 * V0 / np.abs(g).max()  # a small literal step: nothing eliminated, nothing capped
    sel = KPSVM(C=C, v0=V0, C2=C2, step=gamma, step_scale="absolute", eps=1e-300, v_max=np.inf, iterations=1)
    g_lib = (V0 - sel.fit(X, y).weights_) / gamma
    assert np.max(np.abs(g_lib - g)) <= 1e-9 * np.abs(g).max()
    # (15) as printed, F(v) = c'K(v)c + C2 f(v): at v = 0 its first term is (y'alpha)^2 = 0 <= c'K(v)c, so v = 0
    # minimises it, and its gradient in v_j is -2 dW/dv_j + C2 f'(v_j): (16) has the first term's sign reversed
    assert c @ np.ones_like(K) @ c == pytest.approx(0.0, abs=1e-9) and c @ K @ c > 0


@pytest.mark.parametrize("C2", [1.0, 10.0, 100.0])
def test_literal_gamma_own_route_and_library_agree(colon, C2):
    X, y = colon
    v, sizes = algorithm1(X, y, C2, n_iter=2, gamma=0.25)
    sel = KPSVM(C=C, v0=V0, C2=C2, step=0.25, step_scale="absolute", iterations=2, max_iter=1000).fit(X, y)
    assert np.array_equal(sel.support_, v > 0)
    assert sel.diagnostics_["n_selected"] == sizes
    assert sizes[-1] <= 20  # Sec. 6's gamma = 0.25: at most 20 of 2000 genes left after two iterations


def test_shrunk_step_and_the_committed_paper_protocol_selection(colon):
    X, y = colon
    rec = pd.read_parquet(EXPORT / "records.parquet")
    rec = rec[(rec.method == "kp_svm") & (rec.dataset == "colon")].iloc[0]
    params = json.loads(rec.selector_params)
    assert (params["C2"], params["iterations"]) == (0.1, 10)
    v, sizes = algorithm1(X, y, C2=0.1, n_iter=10)
    sel = KPSVM(C=C, v0=V0, C2=0.1, iterations=10, max_iter=1000).fit(X, y)
    assert np.array_equal(sel.support_, v > 0)
    committed = rec.selected if not isinstance(rec.selected, str) else json.loads(rec.selected)
    assert set(np.flatnonzero(v > 0).tolist()) == set(committed) and len(committed) == 1997
    assert sizes[:8] == [2000] * 8  # at C2 = 0.1 the first width falls below eps = v0 / 4 at iteration 9
