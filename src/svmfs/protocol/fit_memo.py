"""One select job's final-classifier fits, each computed once.

The inner CV of :func:`~svmfs.protocol.tuning.tune_selector` fits the final classifier on every (inner fold,
selector point, size, final point), and the ``test_tuned`` audit scores every (selector point, size, final
point) on the test side. Many of those fits are the same fit: a linear, polynomial or Gaussian SVM refitted on
the selected columns depends only on the rows, the selected columns and its own parameters, and different
selector points often select the same columns (SVM-RFE's best few features are the same at most of the 21 C
of the MIT 9.520 grid, section 2.2; 1-norm RFE never selects beyond the 1-norm SVM's support, section 3.2, so
every size above it repeats it).

:class:`FitMemo` returns the stored (predictions, decision values) for a repeated fit instead of refitting.
libsvm is deterministic for a given input (its seed only drives probability estimates, off here), so the
stored numbers are the ones a refit would give. What a refit would still change is NumPy's global generator:
``SVC.fit`` (and :func:`~svmfs.solvers.libsvm.svc_fit_predict`, which mimics it) draws libsvm's seed
from it; a repeated fit draws that number too, so the generator ends every job in the state it did before.
Fits through a fitted selector (``own``, ``anisotropic``: they depend on the selector, not only on its
support) are never memoized.
"""

from __future__ import annotations

import numpy as np

from ..solvers.libsvm import draw_seed
from .classifiers import fit_predict

#: Final classifiers whose fit depends only on (rows, selected columns, parameters, campaign section).
MEMO_KINDS = ("linear", "poly", "rbf")


class FitMemo:
    """``fit_predict`` with the results of repeated fits kept for the life of the memo (one select job).

    A fit is the same fit when its kind, parameters, campaign section and selected columns are equal and its
    training rows, labels and evaluation rows are the same array objects. The memo holds a reference to every
    array it keyed by identity, so no identity is reused while it lives. ``hits`` and ``misses`` count calls.
    ``fit``: the function that fits (the caller's ``fit_predict``). ``enabled = False`` fits every call (tests
    compare the two routes).
    """

    enabled = True

    def __init__(self, fit=fit_predict):
        self._fit = fit
        self._results: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
        self._arrays: dict[int, object] = {}
        self.hits = self.misses = 0

    def _ident(self, obj) -> int:
        self._arrays.setdefault(id(obj), obj)
        return id(obj)

    def fit_predict(self, kind, params, cfg, X_fit, y_fit, X_eval, support, selector=None):
        """(predictions, decision values), as :func:`~svmfs.protocol.classifiers.fit_predict` returns them."""
        if kind not in MEMO_KINDS or not self.enabled:
            return self._fit(kind, params, cfg, X_fit, y_fit, X_eval, support, selector)
        sup = np.asarray(support, dtype=bool)
        key = (kind, tuple(sorted(params.items())), self._ident(cfg), self._ident(X_fit), self._ident(y_fit),
               self._ident(X_eval), sup.tobytes())  # fmt: skip
        found = self._results.get(key)
        if found is None:
            self.misses += 1
            found = self._results[key] = self._fit(kind, params, cfg, X_fit, y_fit, X_eval, sup, selector)
        else:
            self.hits += 1
            if sup.any():  # an SVC would be fitted (an empty selection: a DummyClassifier, no draw)
                draw_seed()
        return found
