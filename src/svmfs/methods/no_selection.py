"""No selection: the SVM on all features (the papers' "SVM" / "NO-FS" baseline)."""

from __future__ import annotations

import numpy as np

from .base import BaseSelector


class NoSelection(BaseSelector):
    """Keep every feature; the final classifier (linear or RBF SVM, by registry entry) does the rest.

    Attributes
    ----------
    support_ : ndarray of bool of shape (n_features,)
        The kept features.
    diagnostics_ : dict
        ``status``, ``objective``, ``n_iter``, ``message`` and ``time_s`` (:mod:`svmfs.methods.base`).

    References
    ----------
    baseline: linear SVM on all features.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(40, 6))
    >>> y = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(int)
    >>> from svmfs.methods.no_selection import NoSelection
    >>> sel = NoSelection().fit(X, y)
    >>> sel.get_support().nonzero()[0].tolist()
    [0, 1, 2, 3, 4, 5]
    """

    ranks_all_features = False

    _parameter_constraints: dict = {}

    def _fit(self, X, y):
        self.support_ = np.ones(X.shape[1], dtype=bool)
