"""Rinaldi & Sciandrone's (2010) "standard linear SVM classifier (SVM)" of Tables 1-2 as the paper measures
it: the SVM (14) on all features (FS-SVMCP's step 1 on W = R^n, C by k-fold CV on the training set,
section 2), scored by its own hyperplane H(w*, b*) (a campaign's ``final: own``), its feature count ||w*||_0: the
features with w*_j != 0. The baseline that keeps every column and leaves the classifier to the final
SVM is :class:`svmfs.methods.no_selection.NoSelection`; it is not this class, whose selection (w*_j != 0)
can drop a column and whose SVM is solved, C by CV, inside ``fit``.
"""

from __future__ import annotations

from sklearn.utils._param_validation import StrOptions

from .base import COUNT, FOLDS, LinearModelSelector
from .fs_svmcp import C_TIE_RULES, DEFAULT_C_GRID, _tuned_svm


class LinearSVMAllFeatures(LinearModelSelector):
    """The linear SVM (14) on all features, C by ``cv``-fold CV over ``C_grid`` ("The value of C which
    gives the lowest cross-validation error rate is selected", section 2; ties by ``C_ties``), by
    the same solver as FS-SVMCP's step 1 (LIBLINEAR's hinge loss). ``support_`` marks w*_j != 0, so a
    feature the SVM gives no weight (a column constant at zero on the training side) is not counted:
    Tables 1-2's ||w*||_0 (ionosphere 33.0 of 34 columns). Scored as the paper scores it with the campaign's
    ``final: own`` (the hyperplane H(w*, b*) as it is).

    Parameters
    ----------
    C_grid : sequence of float
        The C values of the cross-validation.
    cv : int
        Folds of the stratified cross-validation of C.
    svm_max_iter : int
        LIBLINEAR's iteration cap.
    random_state : int
        Seed of the folds and of LIBLINEAR.
    C_ties : {"smallest", "largest"}
        Which C of tied CV accuracy is taken (the first best in grid order, or the largest).

    Attributes
    ----------
    support_ : ndarray of bool of shape (n_features,)
        w*_j != 0.
    weights_, intercept_ : ndarray of shape (n_features,), float
        The SVM (14) solved at ``C_``.
    C_ : float
        The C the cross-validation chose.
    diagnostics_ : dict
        ``status``, ``objective``, ``n_iter``, ``message`` and ``time_s`` (:mod:`svmfs.methods.base`).

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(60, 5)); X[:, 4] = 0.0
    >>> y = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(int)
    >>> sel = LinearSVMAllFeatures(C_grid=[0.1, 1.0], cv=3).fit(X, y)
    >>> sel.get_support().tolist()  # the constant column gets no weight
    [True, True, True, True, False]
    >>> float(np.mean(sel.own_predict(X) == y)) > 0.9
    True
    """

    _parameter_constraints = {
        "C_grid": ["array-like"],
        "cv": [FOLDS],
        "svm_max_iter": [COUNT],
        "random_state": ["random_state"],
        "C_ties": [StrOptions(set(C_TIE_RULES))],
    }

    def __init__(self, C_grid=DEFAULT_C_GRID, cv=5, svm_max_iter=10000, random_state=0, C_ties="smallest"):
        self.C_grid = C_grid
        self.C_ties = C_ties  # tie rule of the C choice, as FSSVMCP's (sheet row R13)
        self.cv = cv
        self.svm_max_iter = svm_max_iter
        self.random_state = random_state

    def _fit(self, X, y):
        svm, self.C_ = _tuned_svm(X, y, list(self.C_grid), self.cv, self.random_state, self.svm_max_iter, self.C_ties)
        self.weights_ = svm.coef_.ravel().copy()
        self.intercept_ = float(svm.intercept_[0])
        self.support_ = self.weights_ != 0
        self.diagnostics_.update(message=f"C = {self.C_:g}, ||w||_0 = {int(self.support_.sum())}")
