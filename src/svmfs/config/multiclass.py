"""The campaign check of multiclass datasets (docs/multiclass.md): what a one-versus-rest selector cannot do.

A binary selector on a dataset of three or more classes runs one versus rest
(:class:`~svmfs.methods.one_vs_rest.OneVsRestSelector`): K hyperplanes, K sets of kernel widths, so neither
the final classifier ``own`` (one hyperplane, scored as it is) nor ``anisotropic`` (one set of widths) has
a meaning there. A dataset whose class counts are known before any job runs (a generator, or the registry's
``expect``) is checked here; the others when their select jobs start.
"""

from __future__ import annotations

from .campaign import campaign_datasets, dataset_methods, job_method_config
from .schema import ConfigError
from .sizes import expected_class_counts

#: Final classifiers that need one binary selector's own fitted model.
BINARY_ONLY_FINALS = ("own", "anisotropic")


def check_multiclass_finals(config: dict, registry: dict) -> list[str]:
    """Errors naming ``methods.<m>.final`` (or the registry's final) for each multiclass dataset whose method's
    final classifier is ``own`` or ``anisotropic``.

    Examples
    --------
    >>> cfg = {"datasets": {"wine": {}}, "methods": {"l1_svm": {"final": "own"}}}
    >>> check_multiclass_finals(cfg, {"wine": {"kind": "embedded", "loader": "sklearn_wine",
    ...     "expect": {"class_counts": {"class_0": 59, "class_1": 71, "class_2": 48}}}})  # doctest: +ELLIPSIS
    ["methods.l1_svm.final: 'own' ... dataset 'wine' has 3 classes ..."]
    """
    from ..methods.registry import get_method

    errs = []
    for name in campaign_datasets(config):
        try:
            counts = expected_class_counts(config, name, registry)
        except ConfigError:  # a generator's bad params: the folds check reports it, naming the key
            continue
        if counts is None or len(counts) <= 2:
            continue
        for mname in dataset_methods(config, name):
            mcfg = job_method_config(config, name, mname)
            final = mcfg.get("final", get_method(mcfg.get("method", mname)).final)
            if final in BINARY_ONLY_FINALS:
                errs.append(f"methods.{mname}.final: {final!r} scores one binary selector's own model, but dataset "
                            f"{name!r} has {len(counts)} classes (the selector runs one versus rest); give a refitted "
                            "final classifier (linear, poly, rbf) or skip the method there (skip_methods)")
    return errs
