"""Decremental Feature Selection by Alignment, dFSA (Catala & Martin, section 5, Algorithm 2).

Backward elimination from all features: remove the feature whose removal raises the kernel-target
alignment (eq. 1) most, while some removal does not lower it. Kernels are updated incrementally by
subtracting the removed feature's contribution from the stored linear Gram matrix (eqs. 3-4) or
squared-distance matrix (eqs. 5-6), O(n^2) per candidate (solvers.alignment.backward_elimination).

Choices: the default stop is the alignment one of section 5.1. Section 5.2 replaces it by a validation
stop: "we measured at each iteration of dFSA if the removal of features decrease the accuracy in a
validation set, and stop in that case ... a validation set of 100 examples". The validation points are
either given to ``fit`` (``validation=(X_val, y_val)``: points apart from the training side, the
workflow's ``splits.validation_size``) or held out of the training side (``validation_size``, a share
or count, stratified, drawn with ``random_state``). After each removal an SVM with the selection
kernel (eq. 4, penalty ``C``) is trained on the training points and scored on the validation points.
The text admits several readings, chosen by two parameters:

- ``validation_rule="first_drop"``: stop at the first removal that lowers the validation accuracy and
  keep the set before it (the sentence read literally); ``"best"`` (default): the point of the path with
  the best validation accuracy, ties to fewer features (read literally the rule stopped after ~1.5
  removals on f2 with 100 held-out training points, far from the ~3 features of Table 5);
- ``validation_path="alignment"`` (default): the removals of the alignment path, never past the alignment
  stop; ``"full"``: removals go on past the alignment stop (down to one feature), so that the validation
  stop alone ends the elimination ("Instead of selecting the best r ...").
``step13=True`` runs Algorithm 2's optional step 13 (with the sign of step 9, see
:func:`~svmfs.solvers.alignment.backward_elimination`): an iteration removes every feature whose removal
alone does not lower the alignment, and the validation stop is checked once per iteration, "at each
iteration of dFSA if the removal of features decrease the accuracy" (docs/protocols/catala_martin.md).
``subsample`` estimates the alignment on a random subset of the training points, as section 3.2
suggests for large sets (plain random draw, no stratification). Data are used as given: the paper
standardises them first (the workflow's normalisation does).
"""

from __future__ import annotations

from numbers import Real

import numpy as np
from sklearn.model_selection import train_test_split
from sklearn.svm import SVC
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions

from ..solvers.alignment import KERNELS, backward_elimination, resolve_gamma, target_vector
from .base import COUNT, POSITIVE, BaseSelector


class DFSA(BaseSelector):
    """Backward elimination by kernel-target alignment with a linear, polynomial or RBF kernel.

    Parameters
    ----------
    kernel : {"linear", "poly", "rbf"}
    degree, offset : polynomial kernel (offset + <x, z>)^degree (eq. 4: offset 1).
    gamma : float or None
        RBF exp(-gamma |x - z|^2) (gamma = 1 / (2 sigma^2)); ``None``: 1 / (p Var(X)) on all features,
        then fixed during the elimination.
    unbalanced : bool
        Ideal kernel from labels +1/m, -1/n (section 4.2).
    subsample : int or None
        Number of training points on which the alignment is computed (``None``: all).
    random_state : int, RandomState or None
        Draws the subsample.
    validation_size : int, float or None
        Points (count or fraction) held out of the training side for the validation stop of section 5.2;
        ``None``: none (or the points given to ``fit``).
    validation_rule : {"best", "first_drop"}
        How the validation accuracies along the path choose the selection (see above).
    validation_path : {"alignment", "full"}
        Whether the validation stop reads the alignment path only or removals past the alignment stop.
    C : float
        Penalty of the validation SVM.
    max_iter : int or None
        Limit on the number of iterations, removals without ``step13`` (``None``: until the alignment stop);
        reaching it sets status ``max_iter``.
    step13 : bool
        Algorithm 2's optional step 13: an iteration removes a batch (see above).

    ``ranking_``: features kept at the alignment stop rank 1, removed ones by reverse removal order
    (last removed = 2); with ``validation_size`` the support may also keep some of the last removed.
    ``scores_``: the alignment lost when the feature is (kept: would be) removed, ``DecrAlign``;
    <= 0 for removed features, > 0 for kept ones after a normal stop. ``n_iter_``: candidate-scoring
    passes (the removals plus the final pass that found no improving removal).

    Attributes
    ----------
    support_ : ndarray of bool of shape (n_features,)
        The kept features.
    ranking_ : ndarray of int of shape (n_features,)
        1 = most important; the tuner reads smaller selections off it.
    scores_ : ndarray of shape (n_features,)
        The per-feature score the selection ranks by.
    n_iter_ : int
        Iterations of the method's outer loop.
    diagnostics_ : dict
        ``status``, ``objective``, ``n_iter``, ``message`` and ``time_s`` (:mod:`svmfs.methods.base`).

    References
    ----------
    Catala & Martin, section 5, Algorithm 2, eq. 3.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(40, 6))
    >>> y = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(int)
    >>> from svmfs.methods.dfsa import DFSA
    >>> sel = DFSA(kernel="linear").fit(X, y)
    >>> sel.get_support().nonzero()[0].tolist()
    [0]
    """

    _parameter_constraints = {
        "kernel": [StrOptions(set(KERNELS))],
        "degree": [COUNT],
        "offset": [Interval(Real, None, None, closed="neither")],
        "gamma": [POSITIVE, None],
        "unbalanced": ["boolean"],
        "subsample": [COUNT, None],
        "random_state": ["random_state"],
        "validation_size": [COUNT, Interval(Real, 0, 1, closed="neither"), None],
        "validation_rule": [StrOptions({"best", "first_drop"})],
        "validation_path": [StrOptions({"alignment", "full"})],
        "C": [POSITIVE],
        "max_iter": [COUNT, None],
        "step13": ["boolean"],
    }

    def __init__(self, kernel="poly", degree=2, offset=1.0, gamma=None, unbalanced=False, subsample=None,
                 random_state=None, validation_size=None, validation_rule="best", validation_path="alignment",
                 C=1.0, max_iter=None, step13=False):
        self.kernel = kernel
        self.degree = degree
        self.offset = offset
        self.gamma = gamma
        self.unbalanced = unbalanced
        self.subsample = subsample
        self.random_state = random_state
        self.validation_size = validation_size
        self.validation_rule = validation_rule
        self.validation_path = validation_path
        self.C = C
        self.max_iter = max_iter
        self.step13 = step13

    def fit(self, X, y, validation=None):
        """Fit on (X, y); ``validation``: (X_val, y_val), points apart from the training side for the
        validation stop of section 5.2 (labels as ``y``'s)."""
        self._validation = validation
        try:
            return super().fit(X, y)
        finally:
            del self._validation

    def _fit(self, X, y):
        given = getattr(self, "_validation", None)
        if given is not None and self.validation_size is not None:
            raise ValueError("validation points given to fit and validation_size set: use one of them")
        gamma = resolve_gamma(self.gamma, X)
        rng = check_random_state(self.random_state)
        validating = given is not None or self.validation_size is not None
        if given is not None:
            Xv = np.asarray(given[0], dtype=np.float64)
            yv = np.where(np.asarray(given[1]) == self.classes_[1], 1.0, -1.0)
        elif self.validation_size is not None:
            X, Xv, y, yv = train_test_split(X, y, test_size=self.validation_size, stratify=y, random_state=rng)
        Xa, ya = X, y
        if self.subsample is not None and self.subsample < X.shape[0]:
            rows = np.sort(rng.choice(X.shape[0], int(self.subsample), replace=False))
            Xa, ya = X[rows], y[rows]
        res = backward_elimination(
            Xa, target_vector(ya, self.unbalanced), self.kernel, self.degree, self.offset, gamma, self.max_iter,
            past_stop=validating and self.validation_path == "full", batch=self.step13,
        )
        p = X.shape[1]
        self.ranking_ = np.ones(p, dtype=np.int64)
        self.ranking_[res.removed[::-1]] = np.arange(2, len(res.removed) + 2)
        self.scores_ = np.empty(p)
        self.scores_[res.removed] = res.decrease_at_removal
        self.scores_[res.kept] = res.kept_decrease
        n_cut = len(res.batches)  # iterations kept
        if validating:
            n_cut = self._validation_cut(X, y, Xv, yv, res.batches, gamma)
        n_out = sum(len(b) for b in res.batches[:n_cut])
        self.support_ = self.ranking_ <= 1 + len(res.removed) - n_out
        self.n_iter_ = res.n_iter + (res.stopped == "no_increase")  # scoring passes, incl. the final one
        if res.stopped == "max_iter":
            self.diagnostics_["status"] = "max_iter"
        self.diagnostics_.update(
            objective=res.path[n_cut], path=res.path, message=f"stopped: {res.stopped}; kept after {n_out} removals"
        )

    def _validation_cut(self, X, y, Xv, yv, batches, gamma):
        """Number of iterations (a prefix of the elimination; ``batches``: the features each removes) kept by
        the validation stop: ``best``, the best validation accuracy (ties to more iterations); ``first_drop``,
        the iterations before the first one that lowers it. The SVM has the selection kernel (gamma = 1 for
        the polynomial so it equals eq. 4)."""
        svm = SVC(C=self.C, kernel=self.kernel, degree=self.degree, coef0=self.offset,
                  gamma=1.0 if self.kernel == "poly" else gamma)
        keep = np.ones(X.shape[1], dtype=bool)
        best, best_acc = 0, -1.0
        for i in range(len(batches) + 1):
            if i:
                keep[batches[i - 1]] = False
            acc = svm.fit(X[:, keep], y).score(Xv[:, keep], yv)
            if self.validation_rule == "first_drop" and acc < best_acc:
                return i - 1
            if acc >= best_acc:
                best, best_acc = i, acc
        return best
