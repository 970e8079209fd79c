"""One-shot Feature Selection by Alignment, osFSA (Catala & Martin, section 3.1).

Each feature i is scored by the alignment A(K_{i}, T) (eq. 1) of the kernel built on that feature
alone; the r best are kept. For the linear kernel A = (t'x_i)^2 / (|x_i|^2 |t|^2), the squared
cosine between the feature column and the label vector.
"""

from __future__ import annotations

from numbers import Real

import numpy as np
from sklearn.utils._param_validation import Interval, StrOptions

from ..solvers.alignment import KERNELS, candidate_alignments, resolve_gamma, target_vector
from .base import COUNT, POSITIVE, BaseSelector, ranking_from_scores
from .correlation import filter_support


class OSFSA(BaseSelector):
    """Rank features by single-feature kernel-target alignment.

    Parameters
    ----------
    n_features_to_select : int or None
        r, the features kept; ``None`` keeps those scoring above the mean alignment (svmfs choice;
        the paper tunes r on a validation set, which the workflow does by truncating ``ranking_``).
    kernel : {"linear", "poly", "rbf"}
        Kernel on the single feature (the paper uses linear).
    degree, offset : polynomial kernel (offset + <x, z>)^degree (eq. 4 has offset 1).
    gamma : float or None
        RBF exp(-gamma |x - z|^2); ``None``: 1 / (p Var(X)) over all features.
    unbalanced : bool
        Ideal kernel from labels +1/m, -1/n (section 4.2).

    Attributes
    ----------
    support_ : ndarray of bool of shape (n_features,)
        The kept features.
    ranking_ : ndarray of int of shape (n_features,)
        1 = most important; the tuner reads smaller selections off it.
    scores_ : ndarray of shape (n_features,)
        The per-feature score the selection ranks by.
    diagnostics_ : dict
        ``status``, ``objective``, ``n_iter``, ``message`` and ``time_s`` (:mod:`svmfs.methods.base`).

    References
    ----------
    Catala & Martin, section 3.1 (osFSA), eq. 1.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(40, 6))
    >>> y = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(int)
    >>> from svmfs.methods.osfsa import OSFSA
    >>> sel = OSFSA(n_features_to_select=2).fit(X, y)
    >>> sel.get_support().nonzero()[0].tolist()
    [0, 1]
    """

    ranks_all_features = True

    _parameter_constraints = {
        "n_features_to_select": [COUNT, None],
        "kernel": [StrOptions(set(KERNELS))],
        "degree": [COUNT],
        "offset": [Interval(Real, None, None, closed="neither")],
        "gamma": [POSITIVE, None],
        "unbalanced": ["boolean"],
    }

    def __init__(self, n_features_to_select=None, kernel="linear", degree=2, offset=1.0, gamma=None, unbalanced=False):
        self.n_features_to_select = n_features_to_select
        self.kernel = kernel
        self.degree = degree
        self.offset = offset
        self.gamma = gamma
        self.unbalanced = unbalanced

    def _fit(self, X, y):
        t = target_vector(y, self.unbalanced)
        empty = np.zeros((X.shape[0], X.shape[0]))
        self.scores_ = candidate_alignments(
            empty, X, t, self.kernel, 1.0, self.degree, self.offset, resolve_gamma(self.gamma, X)
        )
        self.ranking_ = ranking_from_scores(self.scores_)
        self.support_ = filter_support(self.scores_, self.ranking_, self.n_features_to_select)
        self.diagnostics_["objective"] = float(self.scores_.max())
