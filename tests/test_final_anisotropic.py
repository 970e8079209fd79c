"""The "anisotropic" final classifier: the SVM with the selector's anisotropic Gaussian kernel (13) of
Jimenez-Cordero et al. (2021), K(x, z) = exp(-sum_j gamma_j (x_j - z_j)^2), the last step of MM-FS's
Algorithm 1 and KP-SVM's final model (Maldonado et al. 2011, kernel (11) with gamma_j = v_j^2 / 2)."""

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.model_selection import ParameterGrid
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from svmfs.data.synthetic import weston_nonlinear
from svmfs.methods.kp_svm import KPSVM
from svmfs.methods.mm_fs import MMFS
from svmfs.protocol.classifiers import AnisotropicSVC
from svmfs.protocol.normalize import normalize_fold
from svmfs.protocol.select_job import run_select_job
from svmfs.protocol.splits import make_splits
from svmfs.protocol.tuning import inner_cv
from svmfs.solvers.anisotropic import kp_kernel
from svmfs.solvers.anisotropic import aniso_kernel


def _gram(A, B, widths):
    """Kernel (13) by broadcasting (independent of svmfs.solvers' expansion of the squared distance)."""
    return np.exp(-np.einsum("j,ilj->il", widths, (A[:, None, :] - B[None, :, :]) ** 2))


def test_equal_widths_give_sklearns_rbf_kernel_and_svm():
    rng = np.random.default_rng(0)
    A, B = rng.normal(size=(40, 6)), rng.normal(size=(25, 6))
    for g in (0.01, 0.3, 2.0):
        w = np.full(6, g)
        assert np.abs(aniso_kernel(A, w, B) - rbf_kernel(A, B, gamma=g)).max() <= 1e-12
        assert np.abs(aniso_kernel(A, w) - rbf_kernel(A, gamma=g)).max() <= 1e-12
    y = np.where(A[:, 0] * A[:, 1] > 0, 1.0, -1.0)  # same kernel -> same SVM as libsvm's own RBF
    ours = AnisotropicSVC(C=10.0, widths=np.full(6, 0.3)).fit(A, y)
    ref = SVC(C=10.0, kernel="rbf", gamma=0.3).fit(A, y)
    assert np.abs(ours.decision_function(B) - ref.decision_function(B)).max() < 1e-6
    assert np.array_equal(ours.predict(B), ref.predict(B))


def test_zero_width_features_do_not_change_the_kernel():
    rng = np.random.default_rng(1)
    A, B = rng.normal(size=(30, 7)), rng.normal(size=(20, 7))
    w = np.array([0.5, 0.0, 2.0, 0.0, 0.0, 0.1, 0.0])
    on = w > 0
    K = aniso_kernel(A, w, B)
    assert np.abs(K - aniso_kernel(A[:, on], w[on], B[:, on])).max() <= 1e-12
    A2, B2 = A.copy(), B.copy()
    A2[:, ~on] = 1e3 * rng.normal(size=(30, (~on).sum()))  # whatever the zero-width columns hold
    B2[:, ~on] = -7.0
    assert np.abs(K - aniso_kernel(A2, w, B2)).max() <= 1e-12
    assert np.abs(K - _gram(A, B, w)).max() <= 1e-12


def test_widths_on_the_relevant_features_beat_the_isotropic_svm_on_weston_xor():
    X, y, relevant = weston_nonlinear(n=600, seed=0)  # XOR in (x1, x2) + 50 noise features N(0, 20)
    perm = np.random.default_rng(0).permutation(y.size)
    tr, te = perm[:100], perm[100:]
    X = StandardScaler().fit(X[tr]).transform(X)
    w = np.zeros(X.shape[1])
    w[relevant] = 1.0
    aniso = np.mean(AnisotropicSVC(C=1.0, widths=w).fit(X[tr], y[tr]).predict(X[te]) == y[te])
    iso = max(  # the isotropic SVM's best (C, gamma) chosen on the held-out side itself (an upper bound)
        np.mean(SVC(C=C, gamma=g).fit(X[tr], y[tr]).predict(X[te]) == y[te])
        for C in (0.1, 1.0, 10.0, 100.0) for g in (1e-3, 3e-3, 1e-2, 3e-2, 0.1, 0.3, 1.0)
    )
    # measured (seed 0): 0.966 against 0.562 (seeds 0-4: >= 0.954 against <= 0.562)
    assert aniso >= 0.93 and iso <= 0.65 and aniso - iso >= 0.3


def test_kp_svm_widths_reproduce_kernel_11():
    X, y, _ = weston_nonlinear(n=60, p=6, seed=2)
    X = StandardScaler().fit_transform(X)
    sel = KPSVM(C=10.0, v0=0.5, C2=20.0, max_iter=100).fit(X, y)
    v, s = sel.weights_, sel.support_
    assert 0 < s.sum() < X.shape[1]  # measured: 3 of 6 kept, among them x1 and x2
    assert np.array_equal(sel.kernel_widths_ > 0, s)  # eliminated features (v = 0) have width 0
    assert np.allclose(sel.kernel_widths_[s], 1.0 / (2.0 * (1.0 / v[s]) ** 2))  # 1 / (2 sigma_j^2)
    assert np.abs(aniso_kernel(X[:, s], sel.kernel_widths_[s]) - kp_kernel(X[:, s], v[s])).max() <= 1e-12


@pytest.mark.parametrize("widths,C_source", [("all", "grid"), ("selected", "grid"), ("all", "selector")])
def test_select_job_mm_fs_record_agrees_with_an_independent_recomputation(widths, C_source):
    """``widths: all`` (default): (10) re-solved with every gamma_j > 0 found, Algorithm 1's last step as
    printed; ``selected``: only the features above the threshold. The fixture has widths in (0, 1e-2].
    ``C_source: selector``: (10) with MM-FS's own C (C*), recorded as the final C; ``grid``: the inner-CV choice."""
    X, y = load_breast_cancer(return_X_y=True)
    y = np.where(y == 0, 1.0, -1.0)  # malignant = +1
    idx = np.random.default_rng(0).choice(y.size, 90, replace=False)
    X, y = X[idx][:, :10], y[idx]
    fold = make_splits(y, {"kind": "stratified_kfold", "n_splits": 3}, 0)[0]
    grid = [0.1, 1.0, 10.0, 100.0] if C_source == "grid" else [0.1, 10.0, 100.0]  # selector: C* = 1 is off the grid
    campaign = {
        "normalization": {"method": "minmax_pm1", "scope": "fold"},
        "inner_cv": {"n_splits": 3},
        "final_classifier": {"anisotropic": {"C": grid, "widths": widths, "C_source": C_source}},
    }
    params = {"C": 1.0, "gamma_ini": 0.1, "max_iter": 300}
    rec = run_select_job(X, y, fold, "mm_fs", {"params": params}, campaign, seed=0, setting={"C2": 0.3})
    assert rec["final_classifier"] == "anisotropic"
    assert set(rec["final_params"]) == {"C"} and rec["final_params"]["C"] in (grid if C_source == "grid" else [1.0])

    # the selector refitted on the same normalized training side gives the recorded widths and support
    train, test = np.asarray(fold["train"]), np.asarray(fold["test"])
    Xtr, Xte, _ = normalize_fold(X, train, test, "minmax_pm1")
    ytr, yte = y[train], y[test]
    sel = MMFS(**params, C2=0.3, random_state=0).fit(Xtr, ytr)
    s = sel.support_
    assert np.array_equal(np.flatnonzero(s), rec["selected"]) and 0 < s.sum() < X.shape[1]
    assert np.allclose(sel.kernel_widths_, rec["kernel_widths"], rtol=0, atol=1e-12)
    small = (sel.kernel_widths_ > 0) & ~sel.support_
    assert small.any()  # features the two modes treat differently
    s = sel.kernel_widths_ > 0 if widths == "all" else sel.support_
    w = sel.kernel_widths_[s]

    def accuracy(C, A, yA, B, yB):
        svc = SVC(C=C, kernel="precomputed").fit(_gram(A[:, s], A[:, s], w), yA)
        return np.mean(svc.predict(_gram(B[:, s], A[:, s], w)) == yB)

    # the recorded C is the inner-CV choice (first best in grid order) with the training-side widths
    cv = inner_cv(ytr, 3, 0)
    inner = [np.mean([accuracy(p["C"], Xtr[a], ytr[a], Xtr[b], ytr[b]) for a, b in cv.split(Xtr, ytr)])
             for p in ParameterGrid({"C": grid})]  # fmt: skip
    best = int(np.argmax(np.round(inner, 12)))
    C = grid[best] if C_source == "grid" else params["C"]
    assert rec["final_params"]["C"] == C
    assert abs(rec["test_accuracy"] - accuracy(C, Xtr, ytr, Xte, yte)) < 1e-12
    if C_source == "grid":
        assert abs(rec["inner_final_accuracy"] - inner[best]) < 1e-12
    assert rec["test_accuracy"] >= 0.85  # measured 0.933 (5 of the 10 features)


def test_all_widths_keep_the_small_gamma_of_unselected_features():
    """``widths: all`` scores the SVM (10) with every gamma_j > 0 (Algorithm 1), ``selected`` the one on the
    features above the threshold: a feature with gamma = 5e-3 on a wide range changes the kernel, so the
    two decision functions differ and each equals its own AnisotropicSVC; a zero width is left out by both."""
    from types import SimpleNamespace

    from svmfs.protocol.classifiers import fit_predict

    rng = np.random.default_rng(1)
    X = np.column_stack([rng.uniform(-1, 1, 80), 20 * rng.uniform(-1, 1, 80), rng.uniform(-1, 1, 80)])
    y = np.where(X[:, 0] + X[:, 1] / 20 > 0, 1.0, -1.0)
    gamma = np.array([2.0, 5e-3, 0.0])
    sel = SimpleNamespace(kernel_widths_=gamma)
    support = gamma > 1e-2  # MM-FS's threshold: only feature 0
    scores = {}
    for mode, cols in (("all", [0, 1]), ("selected", [0])):
        cfg = {"anisotropic": {"C": [1.0], "widths": mode}}
        _, scores[mode] = fit_predict("anisotropic", {"C": 1.0}, cfg, X[:60], y[:60], X[60:], support, sel)
        ref = AnisotropicSVC(C=1.0, widths=gamma[cols]).fit(X[:60][:, cols], y[:60])
        assert np.allclose(scores[mode], ref.decision_function(X[60:][:, cols]), atol=1e-10)
    assert np.abs(scores["all"] - scores["selected"]).max() > 1e-2
