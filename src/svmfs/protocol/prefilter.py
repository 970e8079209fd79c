"""A fold-local prefilter: ``prefilter: {method: fisher | variance | <registry filter>, keep: K}``, campaign-wide
or per method (``methods.<m>.prefilter``, which wins; ``prefilter: false`` there turns the campaign's off).

The K features a filter ranks best are kept before the method runs, as the microarray literature does before
its expensive selectors (Guyon et al. 2002, section 5.2: "we pre-selected ... genes" by a correlation
criterion before SVM-RFE on the leukemia set). The filter is part of the selector (:func:`prefiltered_class`):
every fit of the method, on each inner training fold and on the outer training side, first ranks the features
on the rows it is given and keeps K, so the prefilter never sees a test or validation row. The fitted
attributes are mapped back to the original feature indices (``support_``, ``ranking_``, ``scores_``,
``weights_``, ``kernel_widths_``): a record's ``selected`` names columns of the dataset. ``ranking_``
orders the kept features by the method's ranking, then the dropped ones by the prefilter's.

``variance`` ranks by the variance on the rows the method receives, i.e. after the campaign's normalization:
with ``normalization: zscore`` every training-side variance is 1, so the config check refuses it there.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

#: The filters a prefilter may name besides the registry's ranking filters.
BUILTIN = ("variance",)
#: Fitted per-feature attributes mapped back to the original features (value on a dropped feature).
PER_FEATURE = {"scores_": np.nan, "weights_": 0.0, "kernel_widths_": 0.0}


def prefilter_of(config: dict, method_cfg: dict) -> dict | None:
    """The prefilter a method's jobs run: ``methods.<m>.prefilter`` when the key is there (false: none), else
    the campaign's ``prefilter``; None without one."""
    spec = method_cfg["prefilter"] if "prefilter" in method_cfg else config.get("prefilter")
    return dict(spec) if spec else None


def prefilter_entry(config: dict, method_cfg: dict) -> dict[str, Any]:
    """``{"prefilter": ...}`` for the campaign settings of a job it affects (so in that job's config hash
    only), {} for the others."""
    spec = prefilter_of(config, method_cfg)
    return {"prefilter": spec} if spec else {}


def filter_ranking(method: str, X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Ranks 1..p of the features on (X, y) by the filter ``method``: ``variance``, or the ``ranking_`` of the
    registry's filter of that name fitted with its defaults (``fisher``: Maldonado, Weber & Basak 2011, eq. 5)."""
    from ..methods.base import ranking_from_scores
    from ..methods.registry import get_method

    if method == "variance":
        return ranking_from_scores(np.var(X, axis=0))
    return np.asarray(get_method(method).load()().fit(X, y).ranking_, dtype=np.int64)


def kept_features(method: str, keep: int, X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The indices (increasing) of the ``keep`` features ``method`` ranks best on (X, y), and the ranking."""
    ranking = filter_ranking(method, X, y)
    return np.flatnonzero(ranking <= min(int(keep), X.shape[1])), ranking


def _map_back(sel, kept: np.ndarray, p: int, prefilter_ranking: np.ndarray) -> None:
    """The fitted selector's per-feature attributes over all ``p`` features (``kept``: the columns it saw)."""
    support = np.zeros(p, dtype=bool)
    support[kept] = np.asarray(sel.support_, dtype=bool)
    sel.support_ = support
    for attr, fill in PER_FEATURE.items():
        value = getattr(sel, attr, None)
        if value is not None and np.ndim(value) == 1 and len(value) == kept.size:
            full = np.full(p, fill, dtype=float)
            full[kept] = np.asarray(value, dtype=float)
            setattr(sel, attr, full)
    if getattr(sel, "ranking_", None) is not None:
        dropped = np.setdiff1d(np.arange(p), kept)
        ranking = np.empty(p, dtype=np.int64)
        ranking[kept] = np.asarray(sel.ranking_)
        ranking[dropped[np.argsort(prefilter_ranking[dropped], kind="stable")]] = np.arange(kept.size + 1, p + 1)
        sel.ranking_ = ranking
    sel.n_features_in_ = p


@functools.lru_cache(maxsize=None)
def prefiltered_class(cls: type, method: str, keep: int) -> type:
    """A subclass of the selector class ``cls`` whose ``fit`` keeps the ``keep`` features ``method`` ranks best
    on the rows it is given, fits ``cls`` on them and maps its attributes back to all features.

    Examples
    --------
    >>> import numpy as np
    >>> from svmfs.methods.svm_rfe import SVMRFE
    >>> rng = np.random.default_rng(0); X = rng.normal(size=(40, 30)); y = np.repeat([0, 1], 20)
    >>> X[y == 1, 17] += 3
    >>> sel = prefiltered_class(SVMRFE, "fisher", 5)(n_features_to_select=1).fit(X, y)
    >>> np.flatnonzero(sel.get_support()).tolist(), sel.ranking_.size
    ([17], 30)
    """

    def fit(self, X, y, **kw):
        X = np.asarray(X, dtype=np.float64)
        kept, ranking = kept_features(method, keep, X, np.asarray(y))
        if "validation" in kw:  # dFSA's validation points: the same columns
            Xv, yv = kw["validation"]
            kw["validation"] = (np.asarray(Xv)[:, kept], yv)
        cls.fit(self, X[:, kept], y, **kw)
        _map_back(self, kept, X.shape[1], ranking)
        self.diagnostics_ = {**getattr(self, "diagnostics_", {}), "prefilter_kept": kept.tolist()}
        return self

    def support_for_size(self, k):
        """The method's own reading at ``k``, over all features (a custom reading over the kept ones mapped back)."""
        mask = np.asarray(cls.support_for_size(self, k), dtype=bool)
        kept = np.asarray(self.diagnostics_["prefilter_kept"])
        if mask.size == kept.size and mask.size != self.n_features_in_:
            full = np.zeros(self.n_features_in_, dtype=bool)
            full[kept] = mask
            return full
        return mask

    fit.__doc__ = cls.fit.__doc__
    attrs = {"fit": fit, "support_for_size": support_for_size, "__module__": cls.__module__,
             "__qualname__": cls.__qualname__, "prefilter": (method, int(keep))}  # fmt: skip
    return type(cls.__name__, (cls,), attrs)


def apply_prefilter(cls: type, campaign: dict) -> type:
    """``cls``, prefiltered when the job's campaign settings have a ``prefilter`` (:func:`prefilter_entry`)."""
    spec = campaign.get("prefilter")
    return prefiltered_class(cls, spec["method"], int(spec["keep"])) if spec else cls


def check_prefilters(config: dict, methods: dict, datasets: list[str], shape_of) -> list[str]:
    """The config errors of the campaign's and each method's ``prefilter``: a known filter, ``keep`` a positive
    integer no larger than the features of any of ``datasets`` (``shape_of(name)``: (n, p), or None when
    unknown before the download), ``variance`` not after z-scoring."""
    from ..methods.registry import METHODS

    errs: list[str] = []
    where_spec = [("prefilter", config.get("prefilter"))]
    where_spec += [(f"methods.{m}.prefilter", c["prefilter"]) for m, c in methods.items() if c.get("prefilter")]
    filters = sorted(n for n, s in METHODS.items() if s.truncation and s.target.split(":")[0] in
                     ("fisher", "correlation", "info_gain", "osfsa"))  # fmt: skip
    for where, spec in where_spec:
        if not spec:
            continue
        method, keep = spec.get("method"), spec.get("keep")
        if method not in (*BUILTIN, *filters):
            errs.append(f"{where}.method: {method!r} is not a prefilter; one of {', '.join((*BUILTIN, *filters))}")
        if method == "variance" and config["normalization"]["method"] == "zscore":
            errs.append(f"{where}.method: 'variance' after normalization zscore ranks nothing (every training-side variance is 1)")
        if not isinstance(keep, int) or isinstance(keep, bool) or keep < 1:
            errs.append(f"{where}.keep: must be an integer >= 1, got {keep!r}")
            continue
        for name in datasets:
            shape = shape_of(name)
            if shape is not None and keep > shape[1]:
                errs.append(f"{where}.keep: {keep} is more than the {shape[1]} features of dataset {name!r}")
    return errs
