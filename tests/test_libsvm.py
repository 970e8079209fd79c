"""The direct libsvm route of the final classifier gives SVC's own predictions and decision values, bit for bit."""

import numpy as np
import pytest
from sklearn.svm import SVC

from svmfs.solvers import libsvm
from svmfs.solvers.libsvm import svc_fit_predict


def _data(seed, n=60, p=7, labels=(-1, 1)):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] + rng.normal(scale=0.8, size=n) > 0, labels[1], labels[0])
    return X[:40], y[:40], X[40:]


MODELS = [
    lambda: SVC(kernel="linear", C=0.01),
    lambda: SVC(kernel="linear", C=1024.0),
    lambda: SVC(kernel="poly", C=10.0, degree=2, gamma=1 / 7, coef0=1.0),
    lambda: SVC(kernel="rbf", C=3.0, gamma=0.3),
]


@pytest.mark.parametrize("make", MODELS)
@pytest.mark.parametrize("labels", [(-1, 1), (0, 1), ("no", "yes"), (2.0, 7.0)])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_direct_route_is_svcs_fit_predict_and_decision_bit_for_bit(make, labels, seed):
    Xf, yf, Xe = _data(seed, labels=labels)
    ref = make().fit(Xf, yf)
    pred, dec = svc_fit_predict(make(), Xf, yf, Xe)
    assert np.array_equal(pred, ref.predict(Xe)) and pred.dtype == ref.predict(Xe).dtype
    assert np.array_equal(dec, ref.decision_function(Xe))


def test_direct_route_draws_libsvms_seed_as_svc_does():
    """SVC.fit draws libsvm's seed from NumPy's global generator; the direct route leaves it in the same state."""
    Xf, yf, Xe = _data(3)
    np.random.seed(123)
    SVC(kernel="linear").fit(Xf, yf)
    after_svc = np.random.random()
    np.random.seed(123)
    svc_fit_predict(SVC(kernel="linear"), Xf, yf, Xe)
    assert np.random.random() == after_svc


def test_other_cases_take_the_public_route(monkeypatch):
    calls = []
    real = libsvm._public
    monkeypatch.setattr(libsvm, "_public", lambda *a: calls.append(1) or real(*a))
    Xf, yf, Xe = _data(4)
    y3 = np.arange(len(yf)) % 3
    svc_fit_predict(SVC(kernel="linear"), Xf, y3, Xe)  # three classes
    svc_fit_predict(SVC(kernel="rbf", gamma="scale"), Xf, yf, Xe)  # gamma from the data
    svc_fit_predict(SVC(kernel="linear", class_weight="balanced"), Xf, yf, Xe)
    assert len(calls) == 3
    ref = SVC(kernel="rbf", gamma="scale").fit(Xf, yf)
    pred, dec = svc_fit_predict(SVC(kernel="rbf", gamma="scale"), Xf, yf, Xe)
    assert np.array_equal(pred, ref.predict(Xe)) and np.array_equal(dec, ref.decision_function(Xe))


def test_a_changed_private_api_switches_to_the_public_route(monkeypatch):
    Xf, yf, Xe = _data(5)

    def broken(*a, **k):
        raise TypeError("fit() got an unexpected keyword argument")

    from types import SimpleNamespace

    # only the direct route's handle on the binding: SVC keeps the real one
    monkeypatch.setattr(libsvm, "_libsvm", SimpleNamespace(set_verbosity_wrap=lambda v: None, fit=broken))
    monkeypatch.setitem(libsvm._STATE, "direct", True)
    np.random.seed(7)
    pred, dec = svc_fit_predict(SVC(kernel="linear", C=2.0), Xf, yf, Xe)
    after_fallback = np.random.random()
    np.random.seed(7)
    ref = SVC(kernel="linear", C=2.0).fit(Xf, yf)
    assert np.random.random() == after_fallback  # one seed draw, as SVC alone makes
    assert np.array_equal(pred, ref.predict(Xe)) and np.array_equal(dec, ref.decision_function(Xe))
    assert libsvm._STATE["direct"] is False


@pytest.mark.parametrize("form,kernel", [
    ("scaled", lambda A, B: (A @ B.T / A.shape[1] + 1.0) ** 3),
    ("homogeneous", lambda A, B: (A @ B.T) ** 3),  # Maldonado et al. (2011), section 2
    ("offset", lambda A, B: (1.0 + A @ B.T) ** 3),  # Catala & Martin, eq. 4
])  # fmt: skip
def test_each_polynomial_form_is_the_svm_on_its_gram_matrix_written_out(form, kernel):
    """final_classifier.poly.form: the final classifier's predictions and decision values are those of a
    precomputed-kernel SVC on the form's Gram matrix computed by hand (two routes); absent means scaled."""
    from svmfs.protocol.classifiers import fit_predict

    rng = np.random.default_rng(3)
    X = rng.normal(size=(60, 5))
    y = np.where(X[:, 0] * X[:, 1] + 0.3 * X[:, 2] > 0, 1, -1)
    fit, ev = slice(0, 40), slice(40, 60)
    support = np.array([True, True, True, False, True])
    cfg = {"poly": {"C": [1.0], "degree": [3], "form": form}}
    pred, dec = fit_predict("poly", {"C": 1.0, "degree": 3}, cfg, X[fit], y[fit], X[ev], support)
    Xs = X[:, support]
    ref = SVC(kernel="precomputed", C=1.0).fit(kernel(Xs[fit], Xs[fit]), y[fit])
    gram = kernel(Xs[ev], Xs[fit])
    assert np.array_equal(pred, ref.predict(gram))
    np.testing.assert_allclose(dec, ref.decision_function(gram), rtol=1e-6, atol=1e-6)
    if form == "scaled":  # the key absent: the same classifier
        pred0, dec0 = fit_predict("poly", {"C": 1.0, "degree": 3}, {"poly": {"C": [1.0], "degree": [3]}}, X[fit], y[fit], X[ev], support)
        assert np.array_equal(pred0, pred) and np.array_equal(dec0, dec)
