"""The one caller of scikit-learn's private libsvm binding (``sklearn.svm._libsvm``): two-class C-SVC fits and
predictions without ``SVC``'s per-call input validation, with the arguments ``SVC`` itself passes, so the numbers
are ``SVC``'s bit for bit.

Two uses. :func:`precomputed_fit` / :func:`precomputed_predict` solve the SVM dual on a precomputed kernel, the
inner step of the methods that solve many SVMs on one set of rows (SVM-RFE's elimination, KP-SVM's and MM-FS's
width updates, the isotropic start's grid); a caller falls back to ``SVC`` when they raise one of
:data:`API_ERRORS` (the binding missing or its signature changed in a future scikit-learn).

:func:`svc_fit_predict`, the final classifier's fit and evaluation. Inner-CV tuning fits the final classifier tens of thousands of times on small matrices (MIT 9.520's SVM-RFE
job: 5 inner folds x 21 C x 14 sizes x 21 final C = 30870 fits of a linear SVC on 64 x <= 100). There
scikit-learn's input validation, tag and config look-ups cost several times libsvm's own solve. :func:`svc_fit_predict` makes
the calls ``SVC.fit``, ``SVC.predict`` and ``SVC.decision_function`` make for dense two-class data (same
arguments, same order, the same draw of libsvm's seed from NumPy's global generator, :func:`draw_seed`), so
predictions and decision values are bit-identical to the public route (tests/test_libsvm.py). Anything else (one or
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
#: The private binding is importable (a caller still falls back on :data:`API_ERRORS` at a call).
AVAILABLE = _libsvm is not None
#: What a call of a changed private API raises: the callers then take ``SVC``'s public route.
API_ERRORS = (TypeError, ValueError, AttributeError)

_STATE = {"direct": AVAILABLE}


def draw_seed() -> int:
    """Advance NumPy's global generator as ``SVC.fit`` does when it draws libsvm's seed
    (``check_random_state(None).randint``), and return the number drawn."""
    return np.random.mtrand._rand.randint(np.iinfo("i").max)


def precomputed_fit(K, y01, C, tol=LIBSVM_TOL, shrinking=True) -> tuple:
    """libsvm's C-SVC on the precomputed kernel ``K`` (n x n) with labels ``y01`` (0/1, float64: the index into
    ``SVC``'s ``classes_``), as ``SVC(kernel="precomputed", C=C, tol=tol, shrinking=shrinking).fit`` solves it;
    seed 0 (libsvm uses it for probability estimates only, off here).

    Returns the model ``(support, support_vectors, n_support, dual_coef, intercept, prob_a, prob_b)``;
    ``dual_coef`` is libsvm's, the negative of ``SVC.dual_coef_`` for two classes. Raises one of
    :data:`API_ERRORS` when the private binding is missing or changed.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.svm import SVC
    >>> X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 2.0], [3.0, 1.0]]); y = np.array([-1, -1, 1, 1])
    >>> K = X @ X.T
    >>> support, _, _, dual_coef, *_ = precomputed_fit(K, (y > 0).astype(float), C=1.0)
    >>> svc = SVC(kernel="precomputed", C=1.0).fit(K, y)
    >>> bool(np.array_equal(support, svc.support_) and np.array_equal(-dual_coef, svc.dual_coef_))
    True
    """
    if _libsvm is None:
        raise AttributeError("sklearn.svm._libsvm is not available")
    _libsvm.set_verbosity_wrap(0)
    model = _libsvm.fit(
        np.ascontiguousarray(K, dtype=np.float64), y01, svm_type=0, kernel="precomputed", degree=3, gamma=0.0,
        coef0=0.0, tol=float(tol), C=float(C), nu=0.0, epsilon=0.0, class_weight=np.ones(2),
        sample_weight=np.empty(0), shrinking=int(bool(shrinking)), probability=0, cache_size=200.0, max_iter=-1,
        random_seed=0)  # fmt: skip
    return tuple(model[:7])


def precomputed_predict(K, model: tuple) -> np.ndarray:
    """Labels (0/1 as floats: the index into ``classes_``) of the rows of ``K`` (n_eval x n_fit, the kernel
    between the evaluation rows and the rows :func:`precomputed_fit` was given) under ``model``."""
    if _libsvm is None:
        raise AttributeError("sklearn.svm._libsvm is not available")
    return _libsvm.predict(
        np.ascontiguousarray(K, dtype=np.float64), *model, svm_type=0, kernel="precomputed", degree=3, coef0=0.0,
        gamma=0.0, cache_size=200.0)  # fmt: skip


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
    seed = draw_seed()
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
    except API_ERRORS:  # the private API changed: public route from now on
        _STATE["direct"] = False
        np.random.set_state(rng_state)
        return _public(clf, X_fit, y_fit, X_eval)
    if status != 0:  # libsvm's max_iter reached: the public route warns about it
        np.random.set_state(rng_state)
        return _public(clf, X_fit, y_fit, X_eval)
    return classes.take(np.asarray(pred, dtype=np.intp)), -np.asarray(dec).ravel()
