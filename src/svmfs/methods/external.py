"""A method named by import path: ``methods.<name>.class: "package.module:Class"``.

Any scikit-learn selector (a ``SelectorMixin``) or any estimator with ``coef_`` or ``feature_importances_``
runs through the same nested CV, records, stability and statistics as the registry's methods. The class is
wrapped in an adapter (:func:`adapter_class`), a :class:`~svmfs.methods.base.BaseSelector` whose constructor
takes the wrapped class's parameters, so the tuner, the config check and the records see it as any other
method. The selection:

- a selector: its own ``get_support()``;
- an estimator: scikit-learn's ``SelectFromModel`` semantics with its default threshold, the mean
  importance (``1e-5`` for an estimator with an l1 penalty), where the importance is ``|coef_|`` (the
  l1 norm over its rows for several rows) or ``feature_importances_``;
- with ``truncation: <param>`` (a size parameter, e.g. ``k`` of ``SelectKBest``): the wrapped class is
  fitted once with ``<param> = 1`` (so a recursive eliminator ranks every feature) and the ``<param>``
  best-ranked features are kept, ranked by its ``ranking_`` (a permutation of 1..p), else its
  ``scores_``, else the estimator's importance; every size of the grid is read off that one fit.

The wrapped estimator is given the labels as {-1, +1} (``classes_[1]`` is +1), as every registry method is.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import inspect
import sys
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

from .base import BaseSelector, ranking_from_scores, support_from_ranking

#: The key of ``methods.<name>`` naming a class by import path.
CLASS_KEY = "class"


class ExternalClassError(ValueError):
    """A ``class`` path that does not import, or names no selector or estimator."""


def is_external(method_cfg: dict) -> bool:
    """Whether ``methods.<name>`` names its class by import path (``class:``)."""
    return CLASS_KEY in (method_cfg or {})


def resolve_class(target: str) -> type:
    """The class ``"package.module:Class"`` names; :class:`ExternalClassError` saying why not.

    Examples
    --------
    >>> resolve_class("sklearn.feature_selection:SelectKBest").__name__
    'SelectKBest'
    >>> resolve_class("sklearn.feature_selection")
    Traceback (most recent call last):
    ...
    svmfs.methods.external.ExternalClassError: 'sklearn.feature_selection' is not of the form "package.module:Class"
    """
    module, sep, name = str(target).partition(":")
    if not sep or not module or not name:
        raise ExternalClassError(f"{target!r} is not of the form \"package.module:Class\"")
    try:
        mod = importlib.import_module(module)
    except Exception as e:  # ImportError, or an error raised by the user's module
        raise ExternalClassError(f"cannot import module {module!r} ({type(e).__name__}: {e}); is it on PYTHONPATH?") from None
    obj = mod
    for part in name.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            raise ExternalClassError(f"module {module!r} has no attribute {name!r}")
    if not inspect.isclass(obj):
        raise ExternalClassError(f"{target!r} is not a class")
    return obj


def selector_kind(cls: type) -> str:
    """``"selector"`` (a ``SelectorMixin``) or ``"estimator"`` (a classifier or regressor, whose fitted
    ``coef_`` / ``feature_importances_`` the threshold reads); :class:`ExternalClassError` otherwise."""
    from sklearn.base import is_classifier, is_regressor
    from sklearn.feature_selection import SelectorMixin

    if issubclass(cls, SelectorMixin):
        return "selector"
    if not (hasattr(cls, "fit") and hasattr(cls, "get_params")):
        raise ExternalClassError(f"{cls.__module__}.{cls.__name__} is no scikit-learn estimator (no fit/get_params)")
    try:
        inst = cls()
    except TypeError:
        inst = None
    if inst is not None and not (is_classifier(inst) or is_regressor(inst)):
        raise ExternalClassError(
            f"{cls.__module__}.{cls.__name__} is neither a selector (SelectorMixin) nor a classifier or regressor "
            f"with coef_ / feature_importances_"
        )
    return "estimator"


def class_version(target: str) -> str | None:
    """The version of the distribution that provides ``target``'s top-level package (importlib.metadata),
    else the module's or the package's ``__version__``, else None (e.g. a module on PYTHONPATH)."""
    module = str(target).partition(":")[0]
    top = module.split(".")[0]
    for dist in metadata.packages_distributions().get(top, []):
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:  # pragma: no cover - a stale mapping
            continue
    for name in (module, top):
        mod = sys.modules.get(name) or importlib.import_module(name)
        if getattr(mod, "__version__", None) is not None:
            return str(mod.__version__)
    return None


def class_source_hash(target: str) -> str:
    """SHA-256 (16 hex digits) of the source file of the module ``target`` lives in, so that editing the
    user's selector reruns its jobs (the svmfs code fingerprint covers svmfs modules only); "" without a
    source file (a compiled module)."""
    cls = resolve_class(target)
    try:
        path = inspect.getsourcefile(cls)
    except TypeError:
        path = None
    if not path or not Path(path).is_file():
        return ""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def record_fields(method_cfg: dict) -> dict[str, Any]:
    """The record's ``method_class`` and ``method_version`` for a method by import path; {} otherwise."""
    if not is_external(method_cfg):
        return {}
    target = method_cfg[CLASS_KEY]
    return {"method_class": target, "method_version": class_version(target)}


def _importances(est) -> np.ndarray:
    """``|coef_|`` (l1 norm over rows) or ``feature_importances_``: what ``SelectFromModel`` thresholds."""
    if hasattr(est, "coef_"):
        coef = np.abs(np.asarray(est.coef_, dtype=float))
        return coef if coef.ndim == 1 else np.linalg.norm(coef, axis=0, ord=1)
    if hasattr(est, "feature_importances_"):
        return np.asarray(est.feature_importances_, dtype=float)
    raise ValueError(f"{type(est).__name__} has neither coef_ nor feature_importances_ after fit")


def _ranking(est, p: int) -> np.ndarray | None:
    """A ranking of every feature: the selector's ``ranking_`` when it is a permutation of 1..p, else its
    ``scores_`` (NaN last), else the estimator's importance; None when there is none."""
    ranking = getattr(est, "ranking_", None)
    if ranking is not None and np.array_equal(np.sort(np.asarray(ranking)), np.arange(1, p + 1)):
        return np.asarray(ranking, dtype=np.int64)
    scores = getattr(est, "scores_", None)
    if scores is None and (hasattr(est, "coef_") or hasattr(est, "feature_importances_")):
        scores = _importances(est)
    if scores is None:
        return None
    scores = np.where(np.isnan(np.asarray(scores, dtype=float)), -np.inf, scores)
    return ranking_from_scores(scores)


class ExternalSelector(BaseSelector):
    """The adapter's shared ``_fit``; :func:`adapter_class` makes one subclass per wrapped class."""

    wrapped: type = None  # set on each subclass
    target: str = ""
    truncation: str | None = None

    def _fit(self, X, y):
        from sklearn.feature_selection import SelectFromModel, SelectorMixin

        kw = self.get_params(deep=False)
        if self.truncation is not None:
            kw[self.truncation] = 1  # one fit ranking every feature; the sizes are read off it
        est = self.wrapped(**kw).fit(X, y)
        self.estimator_ = est
        if isinstance(est, SelectorMixin):
            support = np.asarray(est.get_support(), dtype=bool)
        else:
            support = np.asarray(SelectFromModel(est, prefit=True).get_support(), dtype=bool)
            self.scores_ = _importances(est)
        if getattr(est, "scores_", None) is not None:
            self.scores_ = np.asarray(est.scores_, dtype=float)
        ranking = _ranking(est, X.shape[1])
        if self.truncation is not None:
            if ranking is None:
                raise ValueError(f"{self.target}: truncation {self.truncation!r} needs a ranking (ranking_, scores_, "
                                 "coef_ or feature_importances_); the fitted class has none")  # fmt: skip
            self.ranking_ = ranking
            support = support_from_ranking(ranking, getattr(self, self.truncation))
        elif ranking is not None:
            self.ranking_ = ranking
        self.support_ = support


@functools.lru_cache(maxsize=None)
def adapter_class(target: str, truncation: str | None = None) -> type:
    """The :class:`ExternalSelector` subclass wrapping ``target``: its constructor takes the wrapped class's
    parameters (keyword only, the same defaults), so ``get_params``, ``inspect.signature`` and
    :func:`~svmfs.methods.validation.check_params` see those.

    Examples
    --------
    >>> import numpy as np
    >>> Kbest = adapter_class("sklearn.feature_selection:SelectKBest", "k")
    >>> X = np.random.default_rng(0).normal(size=(40, 6)); y = np.repeat([0, 1], 20); X[y == 1, 4] += 3
    >>> sel = Kbest(k=2).fit(X, y)
    >>> int(sel.ranking_[4]), int(sel.get_support().sum())
    (1, 2)
    """
    cls = resolve_class(target)
    selector_kind(cls)
    params = [p for p in inspect.signature(cls).parameters.values() if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    names = [p.name for p in params]
    defaults = {p.name: p.default for p in params}

    def __init__(self, **kwargs):
        unknown = sorted(set(kwargs) - set(names))
        if unknown:
            raise TypeError(f"{target}: unexpected parameter(s) {', '.join(unknown)}")
        for name in names:
            setattr(self, name, kwargs.get(name, defaults[name]))

    self_param = inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)
    __init__.__signature__ = inspect.Signature([self_param, *(p.replace(kind=p.KEYWORD_ONLY) for p in params)])
    constraints = dict(getattr(cls, "_parameter_constraints", {}))
    if truncation in constraints:  # the tuner fits once with the size unset and reads every size off the ranking
        constraints[truncation] = [*constraints[truncation], None]
    attrs = {
        "__init__": __init__, "__module__": __name__, "__doc__": f"svmfs adapter of {target}.",
        "wrapped": cls, "target": target, "truncation": truncation, "ranks_all_features": truncation is not None,
        "_parameter_constraints": constraints,
    }  # fmt: skip
    return type(f"External{cls.__name__}", (ExternalSelector,), attrs)


@dataclass(frozen=True)
class ExternalSpec:
    """A :class:`~svmfs.methods.registry.MethodSpec` for a class by import path: the campaign's entry gives
    what the registry would (``final``, default ``linear``; ``truncation``); no default grid, no fixed params."""

    target: str
    final: str = "linear"
    truncation: str | None = None
    default_grid: dict[str, list[Any]] = field(default_factory=dict)
    settings: tuple[str, ...] = ()
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def paper(self) -> str:
        return f"{self.target} (by import path)"

    def load(self) -> type:
        return adapter_class(self.target, self.truncation)


def external_spec(method_cfg: dict) -> ExternalSpec:
    """The :class:`ExternalSpec` of a ``methods.<name>`` entry with ``class:``."""
    return ExternalSpec(str(method_cfg[CLASS_KEY]), method_cfg.get("final", "linear"), method_cfg.get("truncation"))


def check_external(name: str, method_cfg: dict) -> list[str]:
    """The config errors of ``methods.<name>`` with ``class:``: the path imports and names a selector or an
    estimator; ``method`` and ``class`` not both; ``truncation`` a parameter of it; each value of
    ``params``, ``grid`` and ``settings`` valid by the class's own ``_parameter_constraints``."""
    from .validation import check_params

    where = f"methods.{name}"
    if "method" in method_cfg:
        return [f"{where}: give either method (a registry name) or class (an import path), not both"]
    try:
        cls = resolve_class(method_cfg[CLASS_KEY])
        selector_kind(cls)
    except ExternalClassError as e:
        return [f"{where}.class: {e}"]
    errs: list[str] = []
    accepted = [p for p in inspect.signature(cls).parameters if p != "self"]
    trunc = method_cfg.get("truncation")
    if trunc is not None and trunc not in accepted:
        errs.append(f"{where}.truncation: {trunc!r} is not a parameter of {cls.__name__}; accepted: {', '.join(accepted)}")
    for section in ("params", "grid", "settings"):
        for param, value in (method_cfg.get(section) or {}).items():
            values = [value] if section == "params" else list(value)
            for v in values:
                errs += [f"{where}.{section}.{e}" for e in check_params(cls, {param: v})]
    return list(dict.fromkeys(errs))
