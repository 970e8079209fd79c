"""Fit and predict a two-class ``SVC`` through scikit-learn's libsvm binding, without its per-call validation.

Inner-CV tuning fits the final classifier tens of thousands of times on small matrices (MIT 9.520's SVM-RFE
job: 5 inner folds x 21 C x 14 sizes x 21 final C = 30870 fits of a linear SVC on 64 x <= 100). There
scikit-learn's input validation, tag and config look-ups cost several times libsvm's own solve. :func:`svc_fit_predict` makes
the calls ``SVC.fit``, ``SVC.predict`` and ``SVC.decision_function`` make for dense two-class data (same
arguments, same order, the same draw of libsvm's seed from NumPy's global generator), so predictions and
decision values are bit-identical to the public route (tests/test_libsvm_direct.py). Anything else (one or
more than two classes, a kernel given as a callable, ``probability``, class weights) and any error of the
private API (a future scikit-learn) take the public route; a failure of the private API switches the
direct route off for the process.
"""

from __future__ import annotations

import numpy as np
from sklearn.svm import SVC

try:
    from sklearn.svm import _libsvm
except ImportError:  # pragma: no cover - a future scikit-learn
    _libsvm = None

#: libsvm's own stopping tolerance (scikit-learn's SVC default): the campaigns' libsvm_tol keys when absent.
LIBSVM_TOL = 1e-3

_STATE = {"direct": _libsvm is not None}


def _public(clf: SVC, X_fit, y_fit, X_eval):
    clf.fit(X_fit, y_fit)
    return clf.predict(X_eval), clf.decision_function(X_eval)


def _eligible(clf) -> bool:
    if not _STATE["direct"] or type(clf) is not SVC:
        return False
    if not isinstance(clf.kernel, str) or clf.kernel == "precomputed":
        return False
    if clf.class_weight is not None or clf.break_ties or clf.probability not in (False, "deprecated"):
        return False
    return clf.kernel == "linear" or not isinstance(clf.gamma, str)


def svc_fit_predict(clf: SVC, X_fit, y_fit, X_eval):
    """(predictions, decision values) of ``clf`` fitted on (X_fit, y_fit), evaluated on X_eval: the same
    numbers as ``clf.fit(X_fit, y_fit)`` then ``predict`` and ``decision_function``, by libsvm directly for
    an unweighted two-class ``SVC`` with a named kernel and a numeric gamma (any gamma for ``linear``)."""
    if not _eligible(clf):
        return _public(clf, X_fit, y_fit, X_eval)
    classes, y_enc = np.unique(y_fit, return_inverse=True)
    if len(classes) != 2:
        return _public(clf, X_fit, y_fit, X_eval)
    X = np.ascontiguousarray(X_fit, dtype=np.float64)
    Xe = np.ascontiguousarray(X_eval, dtype=np.float64)
    if X.ndim != 2 or Xe.ndim != 2 or X.shape[1] != Xe.shape[1] or not (np.isfinite(X).all() and np.isfinite(Xe).all()):
        return _public(clf, X_fit, y_fit, X_eval)
    # SVC.fit: gamma "scale"/"auto" only matters for non-linear kernels (excluded above); libsvm's seed is
    # drawn from NumPy's global generator as BaseLibSVM.fit draws it (check_random_state(None))
    gamma = float(clf.gamma) if not isinstance(clf.gamma, str) else 1.0 / X.shape[1]
    rng_state = np.random.get_state()  # a fallback below refits through SVC, which draws the seed itself
    seed = np.random.mtrand._rand.randint(np.iinfo("i").max)
    kw = dict(svm_type=0, kernel=clf.kernel, degree=int(clf.degree), coef0=float(clf.coef0), gamma=gamma)
    try:
        _libsvm.set_verbosity_wrap(0)
        support, sv, n_sv, dual, intercept, prob_a, prob_b, status, _ = _libsvm.fit(
            X, y_enc.astype(np.float64), sample_weight=np.empty(0), class_weight=np.ones(2), C=float(clf.C),
            nu=float(clf.nu), probability=0, shrinking=int(bool(clf.shrinking)), tol=float(clf.tol),
            cache_size=float(clf.cache_size), epsilon=float(clf.epsilon), max_iter=int(clf.max_iter),
            random_seed=seed, **kw)  # fmt: skip
        args = (support, sv, n_sv, dual, intercept, prob_a, prob_b)
        pred = _libsvm.predict(Xe, *args, cache_size=float(clf.cache_size), **kw)
        dec = _libsvm.decision_function(Xe, *args, cache_size=float(clf.cache_size), **kw)
    except (TypeError, ValueError, AttributeError):  # the private API changed: public route from now on
        _STATE["direct"] = False
        np.random.set_state(rng_state)
        return _public(clf, X_fit, y_fit, X_eval)
    if status != 0:  # libsvm's max_iter reached: the public route warns about it
        np.random.set_state(rng_state)
        return _public(clf, X_fit, y_fit, X_eval)
    return classes.take(np.asarray(pred, dtype=np.intp)), -np.asarray(dec).ravel()
