"""A select job on a multiclass dataset (three or more classes, docs/multiclass.md).

- :func:`wrap_selector_factory`: a binary selector (its tags say ``multi_class=False``) runs one versus
  rest through :class:`~svmfs.methods.one_vs_rest.OneVsRestSelector`; a selector whose score has a
  multiclass definition (Fisher's, information gain) takes the classes directly.
- :func:`multiclass_metrics`: accuracy, balanced accuracy (the mean of the per-class recalls) and the
  macro one-versus-rest AUC of the final classifier's decision values (one column per class, as
  scikit-learn's ``SVC.decision_function`` gives them with its default ``decision_function_shape="ovr"``).
- :func:`record_fields`: the record's ``n_classes`` and the meta-selector's per-class selections
  (``per_class_selected``), on multiclass jobs only.

Binary jobs never reach this module's code paths: their selectors, metrics and records are unchanged.
"""

from __future__ import annotations

import numpy as np
from sklearn.metrics import accuracy_score, balanced_accuracy_score, roc_auc_score

from ..methods.one_vs_rest import OneVsRestSelector


def is_multiclass(y) -> bool:
    """Whether the job's labels have three or more classes."""
    return y is not None and np.unique(np.asarray(y)).size > 2


def is_multiclass_score(y_true, score) -> bool:
    """Whether a test side is scored multiclass: decision values with one column per class, or three or
    more classes in ``y_true`` (a binary job has one column and two classes, and never takes this route)."""
    return np.ndim(score) == 2 or is_multiclass(y_true)


def native_multiclass(cls) -> bool:
    """Whether selector class ``cls`` takes three or more classes itself (its ``multi_class`` flag, as its tags)."""
    return bool(getattr(cls, "multi_class", False))


def wrap_selector_factory(make, cls, y):
    """``make`` unchanged for two classes or a native multiclass selector; else a factory of
    ``OneVsRestSelector(make(**params))`` (the parameters, tuned or fixed, are the binary selector's).

    Examples
    --------
    >>> import numpy as np
    >>> from svmfs.methods.svm_rfe import SVMRFE
    >>> make = wrap_selector_factory(lambda **kw: SVMRFE(**kw), SVMRFE, np.array([0, 1, 2, 0, 1, 2]))
    >>> type(make(n_features_to_select=2)).__name__
    'OneVsRestSelector'
    """
    if not is_multiclass(y) or native_multiclass(cls):
        return make

    def make_ovr(**params):
        return OneVsRestSelector(make(**params))

    return make_ovr


def macro_ovr_auc(y_true, score, classes) -> float:
    """The unweighted mean over the classes c present in ``y_true`` of the AUC of ``score[:, c]`` for c against
    the rest (scikit-learn's ``roc_auc_score(multi_class="ovr", average="macro")``, which takes probabilities
    only, here on decision values). A 1-D ``score`` (a constant classifier) gives 0.5; NaN when fewer than two
    classes are present.

    Examples
    --------
    >>> import numpy as np
    >>> macro_ovr_auc(np.array([0, 1, 2]), np.eye(3), [0, 1, 2])
    1.0
    """
    y_true = np.asarray(y_true)
    score = np.asarray(score, dtype=float)
    classes = list(classes)
    if score.ndim == 1:
        score = np.tile(score[:, None], (1, len(classes)))
    if score.shape[1] != len(classes):
        raise ValueError(f"{score.shape[1]} decision columns for {len(classes)} classes")
    aucs = [roc_auc_score(y_true == c, score[:, i]) for i, c in enumerate(classes) if 0 < np.sum(y_true == c) < y_true.size]
    return float(np.mean(aucs)) if aucs else float("nan")


def multiclass_metrics(y_true, pred, score, classes=None) -> dict[str, float]:
    """The test-side metrics of a multiclass job: ``accuracy``, ``balanced_accuracy`` (mean per-class recall)
    and ``auc`` (:func:`macro_ovr_auc`); ``classes``: the decision columns' classes (default: the codes
    0..K-1 of a canonical multiclass dataset for K columns, as the final classifier fitted on a training side
    holding every class orders them; for a 1-D score the sorted classes of ``y_true`` and ``pred``).

    Examples
    --------
    >>> import numpy as np
    >>> m = multiclass_metrics(np.array([0, 0, 1, 2]), np.array([0, 1, 1, 2]), np.eye(3)[[0, 1, 1, 2]])
    >>> m["accuracy"], round(m["balanced_accuracy"], 4)
    (0.75, 0.8333)
    """
    if classes is None and np.ndim(score) == 2:
        classes = np.arange(np.shape(score)[1])
    elif classes is None:
        classes = np.unique(np.concatenate([np.asarray(y_true), np.asarray(pred)]))
    return {
        "accuracy": float(accuracy_score(y_true, pred)),
        "balanced_accuracy": float(balanced_accuracy_score(y_true, pred)),
        "auc": macro_ovr_auc(y_true, score, classes),
    }


def record_fields(selector, ytr) -> dict:
    """The record's multiclass fields: ``n_classes`` (the training side's classes) on a multiclass job, and
    ``per_class_selected`` ({class code: selected feature indices}) for the one-versus-rest meta-selector;
    nothing on a binary job (its record unchanged)."""
    if not is_multiclass(ytr):
        return {}
    out: dict = {"n_classes": int(np.unique(np.asarray(ytr)).size)}
    if isinstance(selector, OneVsRestSelector):
        out["per_class_selected"] = selector.per_class_selected()
    return out
