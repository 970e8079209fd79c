"""One-versus-rest meta-selector: a binary selector per class on a multiclass problem, merged by the union.

The registry's SVM selectors are two-class methods (their papers solve one separating hyperplane). On a
dataset of K >= 3 classes :class:`OneVsRestSelector` fits one copy of such a selector per class c, class c
as +1 and every other class as -1, and keeps the **union of the per-class selections**: feature j is kept
when the selector of some class keeps it. For a ranking selector read at size k (the tuner's truncation),
the union of the per-class top-k sets.

Why the union: a multiclass selection has to serve every class, and a merge by one pooled score (the
maximum, the mean or the sum of the per-class scores) lets the classes that are easy to separate take the
whole budget while a hard class gets no feature of its own, the "siren pitfall" of Forman (2004, section 3),
whose remedy is to take features from each class's one-versus-rest ranking in turn (round-robin). The union
of the per-class top-k is k rounds of that round-robin, a feature chosen by two classes counted once (so the
merged size lies between k and K k). It also applies to every selector, ranking or not (l1-SVM's support
has no per-feature score to sum), unlike multiclass SVM-RFE's summed criterion (Zhou & Tuck 2007), which
belongs to one method's elimination loop.

Recorded: ``per_class_support_`` (one mask per class, in the order of ``classes_``) and the per-class
diagnostics; the select job writes the per-class selections into the record (``per_class_selected``).
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, clone
from sklearn.feature_selection import SelectorMixin
from sklearn.utils import ClassifierTags
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .base import STATUSES

#: Worst first: the meta-selector's status is the worst of its per-class fits' statuses.
_STATUS_ORDER = ("solver_error", "infeasible", "time_limit", "max_iter", "empty", "acceptable", "ok")


class OneVsRestSelector(SelectorMixin, BaseEstimator):
    """Fit ``estimator`` once per class (that class +1, the rest -1) and keep the union of the selections.

    Parameters
    ----------
    estimator : selector
        A binary svmfs selector (:class:`~svmfs.methods.base.BaseSelector`), cloned for each class.

    Attributes
    ----------
    classes_ : ndarray
        The classes, sorted; with two classes a single fit (``classes_[1]`` as +1), as the binary selector.
    estimators_ : list
        The fitted per-class selectors, in the order of ``classes_`` (one with two classes).
    per_class_support_ : ndarray of bool of shape (n_classes, n_features)
        The selection of each per-class selector.
    support_ : ndarray of bool of shape (n_features,)
        The union of the per-class selections.
    ranking_ : ndarray of int of shape (n_features,)
        Where every per-class selector ranks all features: the best rank feature j has in any class, so
        ``ranking_ <= k`` is the union of the per-class top-k sets (ties between classes share a rank).
    diagnostics_ : dict
        ``status``: the worst per-class solver status (``empty`` only when the union is empty); ``per_class``:
        each class's status, messages joined in ``message``.

    References
    ----------
    G. Forman (2004). A pitfall and solution in multi-class feature selection for text classification.
    Proc. ICML 2004, section 3 (round-robin selection from the one-versus-rest rankings).

    Examples
    --------
    >>> import numpy as np
    >>> from svmfs.methods.fisher import FisherScore
    >>> rng = np.random.default_rng(0)
    >>> y = np.arange(60) % 3
    >>> X = rng.normal(size=(60, 6))
    >>> X[np.arange(60), y] += 3.0  # class c is told apart by feature c
    >>> sel = OneVsRestSelector(FisherScore(n_features_to_select=1)).fit(X, y)
    >>> sel.get_support().nonzero()[0].tolist()
    [0, 1, 2]
    >>> [m.nonzero()[0].tolist() for m in sel.per_class_support_]
    [[0], [1], [2]]
    """

    def __init__(self, estimator=None):
        self.estimator = estimator

    def _targets(self):
        return self.classes_[1:] if self.classes_.size == 2 else self.classes_

    def fit(self, X, y, **fit_kw):
        """One clone of ``estimator`` per class on (X, class-vs-rest labels); ``fit_kw`` passed to each (a
        ``validation`` pair's labels relabelled the same way)."""
        if self.estimator is None:
            raise ValueError("OneVsRestSelector needs an estimator (a binary selector)")
        X, y = validate_data(self, X, y, dtype=np.float64, ensure_min_samples=2)
        check_classification_targets(y)
        self.classes_ = np.unique(y)
        if self.classes_.size < 2:
            raise ValueError(f"OneVsRestSelector needs two or more classes, got {self.classes_.size}")
        self.estimators_ = []
        for c in self._targets():
            kw = dict(fit_kw)
            if kw.get("validation") is not None and kw["validation"][1] is not None:
                Xv, yv = kw["validation"]
                kw["validation"] = (Xv, np.where(np.asarray(yv) == c, 1, -1))
            self.estimators_.append(clone(self.estimator).fit(X, np.where(y == c, 1, -1), **kw))
        self.per_class_support_ = np.array([np.asarray(e.get_support(), dtype=bool) for e in self.estimators_])
        self.support_ = self.per_class_support_.any(axis=0)
        if all(hasattr(e, "ranking_") for e in self.estimators_):
            self.ranking_ = np.min([np.asarray(e.ranking_) for e in self.estimators_], axis=0)
        self.diagnostics_ = self._diagnostics()
        return self

    def _diagnostics(self) -> dict:
        per = [getattr(e, "diagnostics_", {"status": "ok"}) for e in self.estimators_]
        statuses = [d.get("status", "ok") for d in per]
        # a class whose own selection is empty is said per class; the merged status is "empty" only when the union is
        solver = ["ok" if s == "empty" else s for s in statuses]
        worst = min(solver, key=lambda s: _STATUS_ORDER.index(s) if s in _STATUS_ORDER else len(_STATUS_ORDER))
        if not self.support_.any() and worst in ("ok", "acceptable"):
            worst = "empty"
        if worst not in STATUSES:  # pragma: no cover - BaseSelector.fit refuses unknown statuses
            raise ValueError(f"unknown status {worst!r}")
        messages = [f"class {c}: {d.get('message')}" for c, d in zip(self._targets().tolist(), per) if d.get("message")]
        return {
            "status": worst,
            "message": "; ".join(messages),
            "objective": None,
            "n_iter": None,
            "time_s": float(sum(d.get("time_s", 0.0) for d in per)),
            "per_class": [{"class": c, "status": s} for c, s in zip(self._targets().tolist(), statuses)],
        }

    @property
    def truncation_is_size(self) -> bool:
        """The wrapped selector's (the tuner reads its truncation grid through it)."""
        return bool(getattr(self.estimator, "truncation_is_size", True))

    def support_for_size(self, k):
        """The union of every per-class selector's selection at truncation ``k`` (:meth:`BaseSelector.support_for_size`)."""
        check_is_fitted(self, "estimators_")
        return np.any([np.asarray(e.support_for_size(k), dtype=bool) for e in self.estimators_], axis=0)

    def per_class_selected(self) -> dict[str, list[int]]:
        """``{class: selected feature indices}`` of each per-class selector (the record's ``per_class_selected``)."""
        check_is_fitted(self, "per_class_support_")
        return {str(c): np.flatnonzero(m).tolist() for c, m in zip(self._targets().tolist(), self.per_class_support_)}

    def _get_support_mask(self):
        check_is_fitted(self, "support_")
        return self.support_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        tags.classifier_tags = ClassifierTags(multi_class=True)
        return tags
