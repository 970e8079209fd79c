"""The method contract every selector follows (see docs/adding-a-method.md).

A selector is a scikit-learn ``SelectorMixin`` estimator. ``fit(X, y)`` accepts any two-class ``y``
and hands ``_fit`` the labels mapped to {-1, +1} (``classes_[1]`` is +1), as the papers write them. A
selector with ``multi_class = True`` (a filter whose score has a multiclass definition) also takes three or
more classes, through ``_fit_multiclass`` with the class codes 0..K-1.
After ``fit``:

- ``support_``: boolean mask of the kept features (always);
- ``ranking_``: 1 = most important, a permutation of 1..p when the method orders all features
  (then the tuner may truncate it to any ``n_features_to_select`` without refitting);
- ``scores_`` / ``weights_``: per-feature scores or model weights where the method has them;
- ``intercept_``: with ``weights_``, the linear classifier the method solved, on
  :class:`LinearModelSelector`s (scored as it is by the final classifier ``own``);
- ``n_iter_``: iterations of the method's outer loop where it has one;
- ``diagnostics_``: a dict with ``status`` (one of :data:`STATUSES`), ``objective``, ``n_iter``,
  ``message`` and ``time_s``. A solver that stops early (iteration or time limit, numerical failure)
  sets the status and still leaves a usable ``support_``; only programming errors raise.
"""

from __future__ import annotations

import time
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.feature_selection import SelectorMixin
from sklearn.utils import ClassifierTags
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

STATUSES = ("ok", "acceptable", "max_iter", "time_limit", "solver_error", "infeasible", "empty", "collapsed")
"""Solver outcomes a record may carry. ``acceptable`` is Ipopt's "solved to acceptable level"; ``empty``: the
solver ended ``ok`` or ``acceptable`` but kept no feature (set by :meth:`BaseSelector.fit`, never by a method);
``collapsed``: the solver ended ``ok`` or ``acceptable`` with features, but the final classifier refitted on them
on the training side predicts one class for every training point (set by the select job,
:mod:`svmfs.protocol.job_status`, never by a method). A select job past its budget (``job_budget_s``) ends
``time_limit`` (:mod:`svmfs.protocol.job_budget`)."""

# Building blocks of the selectors' ``_parameter_constraints`` (scikit-learn's ``sklearn.utils._param_validation``).
#: A penalty, width, threshold or time: a real number > 0.
POSITIVE = Interval(Real, 0, None, closed="neither")
#: A number of features, iterations or nodes: an integer >= 1.
COUNT = Interval(Integral, 1, None, closed="left")
#: A number of cross-validation folds: an integer >= 2.
FOLDS = Interval(Integral, 2, None, closed="left")
#: A fraction of the features removed per elimination step, in (0, 1), or SPIDER's ``"halve"``.
RFE_STEP = [Interval(Real, 0, 1, closed="neither"), StrOptions({"halve"})]
#: The number of features below which elimination goes one feature at a time: an integer >= 0.
SWITCH_AT = Interval(Integral, 0, None, closed="left")


class BaseSelector(SelectorMixin, BaseEstimator):
    """Shared ``fit`` for all svmfs selectors: validation, label mapping, timing, diagnostics."""

    #: ``ranking_`` orders every feature, so truncating it gives the selection for any size.
    ranks_all_features: bool = False
    #: The registry's ``truncation`` parameter is a size (clipped to p). A selector whose truncation is
    #: another quantity read off one fit (iFSA's alignment fraction) sets False and overrides
    #: :meth:`support_for_size`, which then receives the grid's values unchanged.
    truncation_is_size: bool = True
    #: ``fit`` takes three or more classes too, handing ``_fit_multiclass`` the class codes (a filter whose
    #: score has a multiclass definition); else two classes only, and a multiclass dataset runs the selector
    #: one versus rest (:class:`svmfs.methods.one_vs_rest.OneVsRestSelector`). Declared in the tags.
    multi_class: bool = False
    #: The parameters' valid values (scikit-learn's ``_parameter_constraints``), checked by ``fit`` and, before
    #: any job runs, by the config validator (:func:`svmfs.methods.validation.check_params`).
    _parameter_constraints: dict = {}

    def fit(self, X, y):
        self._validate_params()
        X, y = validate_data(self, X, y, dtype=np.float64, ensure_min_samples=2)
        check_classification_targets(y)
        self.classes_ = np.unique(y)
        multi = self.multi_class and self.classes_.size > 2  # a filter with a multiclass definition
        if self.classes_.size != 2 and not multi:
            raise ValueError(
                f"{type(self).__name__} needs exactly two classes, got {self.classes_.size}: "
                f"{self.classes_[:5].tolist()}"
            )
        self.diagnostics_ = {"status": "ok", "objective": None, "n_iter": None, "message": ""}
        start = time.perf_counter()
        if multi:  # class codes 0..K-1 in the order of classes_
            self._fit_multiclass(X, np.searchsorted(self.classes_, y))
        else:
            self._fit(X, self._plus_minus(y))
        self.diagnostics_["time_s"] = time.perf_counter() - start
        if getattr(self, "n_iter_", None) is not None and self.diagnostics_["n_iter"] is None:
            self.diagnostics_["n_iter"] = int(self.n_iter_)
        if self.diagnostics_["status"] not in STATUSES:
            raise ValueError(f"unknown status {self.diagnostics_['status']!r}; use one of {STATUSES}")
        self.support_ = np.asarray(self.support_, dtype=bool)
        if not self.support_.any() and self.diagnostics_["status"] in ("ok", "acceptable"):  # not a success
            d = self.diagnostics_
            d.update(status="empty", message="; ".join(filter(None, [f"no feature selected (solver: {d['status']})", d["message"]])))
        return self

    def _plus_minus(self, y) -> np.ndarray:
        """The labels as ``_fit`` receives them: +1 for ``classes_[1]``, -1 for the other class."""
        return np.where(np.asarray(y) == self.classes_[1], 1.0, -1.0)

    def _fit(self, X: np.ndarray, y: np.ndarray) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _fit_multiclass(self, X: np.ndarray, codes: np.ndarray) -> None:  # pragma: no cover - abstract
        """The fit of a ``multi_class`` selector on three or more classes, ``codes`` in 0..K-1."""
        raise NotImplementedError

    def support_for_size(self, k: int | None) -> np.ndarray:
        """Selection of size ``k`` read off ``ranking_`` (the tuner's truncation; see ranks_all_features;
        for a selector with ``truncation_is_size = False``, ``k`` is a value of its truncation parameter)."""
        return support_from_ranking(self.ranking_, k)

    def _get_support_mask(self):
        check_is_fitted(self, "support_")
        return self.support_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        # binary-only: the papers' methods are two-class SVMs; scikit-learn's checks then feed two classes
        tags.classifier_tags = ClassifierTags(multi_class=bool(self.multi_class))
        return tags


class LinearModelSelector(BaseSelector):
    """A selector whose fit solves a linear SVM: ``weights_`` (over all features) and ``intercept_``.

    The final classifier ``own`` (:mod:`svmfs.protocol.classifiers`) scores that hyperplane as it is,
    sign(w.x + b), instead of refitting an SVM on the selected features: how Jimenez-Cordero et al.
    (2021, section 4.3) evaluate the l1-SVM and MILP-FS comparators. w keeps the coefficients below the
    selection threshold: the hyperplane is the one solved.
    """

    def own_decision(self, X) -> np.ndarray:
        """w.x + b on the rows of X (all features)."""
        check_is_fitted(self, ("weights_", "intercept_"))
        return np.asarray(X, dtype=float) @ self.weights_ + float(self.intercept_)

    def own_predict(self, X) -> np.ndarray:
        """``classes_[1]`` where w.x + b > 0 (the +1 class of ``fit``), else ``classes_[0]``."""
        return np.where(self.own_decision(X) > 0, self.classes_[1], self.classes_[0])


def own_linear_svm(X: np.ndarray, y_pm: np.ndarray, keep: np.ndarray, C: float) -> tuple[np.ndarray, float]:
    """(w over all features, b) of the linear SVM with penalty ``C`` (hinge loss, unpenalised intercept: libsvm)
    on the columns ``keep`` of X, w = 0 elsewhere; labels ``y_pm`` in {-1, +1}. No column kept: w = 0 and the
    constant classifier of the larger class (ties to -1, ``classes_[0]``, as scikit-learn's
    DummyClassifier(strategy="most_frequent") the refitted final classifier falls back to)."""
    from sklearn.svm import SVC

    keep = np.asarray(keep, dtype=bool)
    w = np.zeros(X.shape[1])
    if not keep.any():
        return w, (1.0 if np.sum(y_pm > 0) > np.sum(y_pm < 0) else -1.0)
    svm = SVC(kernel="linear", C=C, max_iter=-1).fit(X[:, keep], y_pm)
    # y_pm in {-1, +1}: SVC's positive class is +1, so w.x + b > 0 is classes_[1]
    w[keep] = svm.coef_.ravel()
    return w, float(svm.intercept_[0])


class OwnSVMAtSize(LinearModelSelector):
    """A ranking selector whose own hyperplane (final classifier ``own``) is the linear SVM its elimination ends
    with: :func:`own_linear_svm` with the selector's ``C`` on ``support_``, fitted on the rows ``fit`` was given.

    It is solved when first scored (:meth:`own_decision`), so a fit scored by another final classifier solves
    nothing more; from then ``weights_`` and ``intercept_`` are that hyperplane (``weights_`` is, until then, the
    selector's own weights: the first SVM's of the elimination). A subclass's ``_fit`` ends with
    :meth:`_keep_rows`.

    That hyperplane belongs to one size, so the tuner cannot score other sizes of the truncation grid with it;
    :meth:`own_at_size` gives, from the same fit, the selector that ``n_features_to_select = k`` would have
    fitted (the same ranking, so the same k features, and the SVM on them), and the tuner scores each size of
    its grid with that (``svmfs.protocol.tuning.size_candidates``).
    """

    def _keep_rows(self, X: np.ndarray, y_pm: np.ndarray) -> None:
        """Keep (a reference to) the fit's rows, for the own hyperplane when it is first scored."""
        self._own_rows = (X, y_pm)

    def own_decision(self, X) -> np.ndarray:
        """w.x + b of the linear SVM on ``support_`` (solved now if not yet) on the rows of X (all features)."""
        rows = getattr(self, "_own_rows", None)
        if rows is not None:
            check_is_fitted(self, "support_")
            self.weights_, self.intercept_ = own_linear_svm(rows[0], rows[1], self.support_, self.C)
            self._own_rows = None
        return super().own_decision(X)

    def own_at_size(self, k, X, y):
        """A copy of this fitted selector with the selection of size ``k`` (:meth:`support_for_size`) and the
        linear SVM on those features, fitted on (X, y), the rows this selector was fitted on (labels as given
        to ``fit``)."""
        import copy

        check_is_fitted(self, "ranking_")
        X = np.asarray(X, dtype=np.float64)
        y_pm = self._plus_minus(y)
        other = copy.copy(self)
        other.n_features_to_select = None if k is None else int(k)
        other.support_ = np.asarray(self.support_for_size(k), dtype=bool)
        other.weights_, other.intercept_ = own_linear_svm(X, y_pm, other.support_, self.C)
        other._own_rows = None
        return other


def support_from_ranking(ranking: np.ndarray, n_features_to_select: int | None) -> np.ndarray:
    """Mask of the ``n_features_to_select`` best-ranked features (all when ``None``)."""
    ranking = np.asarray(ranking)
    if n_features_to_select is None:
        return np.ones(ranking.shape[0], dtype=bool)
    k = int(min(max(n_features_to_select, 1), ranking.shape[0]))
    return ranking <= k


#: Scores that agree to this fraction of the largest finite |score| are tied in :func:`ranking_from_scores`.
#: Equal in exact arithmetic (features of a text corpus that occur in the same documents have the same
#: alignment, information gain or Fisher score), such scores come out of the floating-point arithmetic in an
#: order set by rounding, which a row permutation or another CPU's BLAS kernels change.
TIE_RTOL = 1e-12


def ranking_from_scores(scores: np.ndarray) -> np.ndarray:
    """Ranks 1..p by decreasing score; ties keep the lower feature index first: the same ranking on any CPU.

    Tied: finite scores that, sorted, follow one another within :data:`TIE_RTOL` of the largest finite |score|
    (a run of such neighbours is one tie, ranked at its largest score). Not a rounding grid of that step: two
    scores a last bit apart could fall on either side of one of its boundaries (the text stand-in's
    0.04749999999999996 and ...97, 0.5 step apart on a grid of 1e-12 x 0.0942, did)."""
    s = np.asarray(scores, dtype=float)
    key = s.copy()
    fin = np.flatnonzero(np.isfinite(s))
    scale = float(np.max(np.abs(s[fin]), initial=0.0))
    if scale > 0.0:
        by_score = fin[np.lexsort((fin, -s[fin]))]  # decreasing score
        new_tie = np.r_[True, -np.diff(s[by_score]) > scale * TIE_RTOL]
        key[by_score] = s[by_score][np.flatnonzero(new_tie)][np.cumsum(new_tie) - 1]  # each tie's largest score
    order = np.lexsort((np.arange(s.size), -key))
    ranking = np.empty(s.size, dtype=np.int64)
    ranking[order] = np.arange(1, s.size + 1)
    return ranking
