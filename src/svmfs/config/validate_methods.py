"""The checks of one ``methods.<name>`` section a schema cannot express: registry method, parameters and
their values, final classifier, shared initial solution, execution layout and size matching."""

from __future__ import annotations

import inspect
import itertools

import numpy as np

from .campaign import campaign_datasets, dataset_methods, dataset_splits
from .plan import job_grid, split_inner_folds


def _check_method(config: dict, name: str, mcfg: dict, methods: dict) -> list[str]:
    """One ``methods.<name>``: a registry method, its parameters, final classifier, initial solution,
    execution layout and size matching."""
    from ..methods.external import is_external
    from ..methods.registry import METHODS

    if is_external(mcfg):  # a class by import path (methods/external.py)
        return _check_external_method(config, name, mcfg, methods)
    reg_name = mcfg.get("method", name)
    if reg_name not in METHODS:
        return [f"methods.{name}: unknown method {reg_name!r}; known methods: {', '.join(sorted(METHODS))}"]
    spec = METHODS[reg_name]
    try:
        accepted = set(inspect.signature(spec.load()).parameters)
    except Exception as e:  # pragma: no cover - an import error is a broken install
        return [f"methods.{name}: cannot load {spec.target}: {e}"]
    errs = _check_method_params(name, mcfg, spec, reg_name, accepted)
    errs += _check_final(config, name, mcfg, spec)
    errs += _check_initial_solution(config, name, mcfg, spec)
    errs += _check_method_layout(config, name, mcfg, spec, reg_name)
    errs += _check_match_size_of(name, mcfg, spec, reg_name, methods)
    return errs


def _check_external_method(config: dict, name: str, mcfg: dict, methods: dict) -> list[str]:
    """``methods.<name>`` with ``class:``: the class and its parameter values (:func:`~svmfs.methods.external.check_external`),
    then the final classifier, execution layout and size matching as for a registry method."""
    from ..methods.external import check_external, external_spec

    errs = check_external(name, mcfg)
    if errs:
        return errs
    spec = external_spec(mcfg)
    errs += _check_final(config, name, mcfg, spec)
    errs += _check_initial_solution(config, name, mcfg, spec)
    errs += _check_method_layout(config, name, mcfg, spec, mcfg["class"])
    errs += _check_match_size_of(name, mcfg, spec, mcfg["class"], methods)
    return errs


def _check_method_params(name: str, mcfg: dict, spec, reg_name: str, accepted: set) -> list[str]:
    """``methods.<name>.grid/params/settings``: accepted parameters with valid values, none in two sections."""
    errs: list[str] = []
    grid = mcfg.get("grid", {})
    settings = mcfg.get("settings", {})
    for section in ("grid", "params", "settings"):
        for param, value in (mcfg.get(section) or {}).items():
            if param not in accepted:
                errs.append(
                    f"methods.{name}.{section}.{param}: not a parameter of {reg_name}; "
                    f"accepted: {', '.join(sorted(accepted)) or 'none'}"
                )
                continue
            values = value if section != "params" else [value]
            errs += _check_param_values(f"methods.{name}.{section}", param, values, spec.load())
    for param in set(grid) & set(settings):
        errs.append(f"methods.{name}: {param!r} is both in grid and settings (contradictory options)")
    for param in set(mcfg.get("params", {})) & (set(grid) | set(settings)):
        errs.append(f"methods.{name}.params.{param}: also in grid/settings (contradictory options)")
    return errs


def _check_param_values(where: str, param: str, values: list, cls: type) -> list[str]:
    """The values one parameter takes, by the estimator's own ``_parameter_constraints``
    (:func:`svmfs.methods.validation.check_params`); each error names ``<where>.<param>``."""
    from ..methods.validation import check_params

    errs: list[str] = []
    for v in values:
        errs += [f"{where}.{e}" for e in check_params(cls, {param: v})]
    return errs


def check_execution_section(config: dict) -> list[str]:
    """``execution.methods``: every name one of the campaign's ``methods`` (a disabled one too)."""
    layouts = (config.get("execution") or {}).get("methods") or {}
    return [f"execution.methods.{name}: not a method of this campaign (methods has: {', '.join(sorted(config['methods']))})"
            for name in layouts if name not in config["methods"]]  # fmt: skip


def _check_method_layout(config: dict, name: str, mcfg: dict, spec, reg_name: str) -> list[str]:
    """The execution layout of a method, ``execution.methods.<name>`` (``split_inner_folds``, ``split_grid``,
    ``split_audit``, ``split_global_scaling``), which ``mcfg`` (:func:`~svmfs.config.campaign_methods`) carries."""
    errs: list[str] = []
    split = mcfg.get("split_inner_folds")
    if split and not job_grid(config, name):
        errs.append(f"execution.methods.{name}.split_inner_folds: {reg_name} has no inner-CV grid here, so no inner fold to run apart")
    if isinstance(split, list):
        known = set(campaign_datasets(config)) | set(config["datasets"])  # a disabled one (reduced overlay) too
        for d in split:
            if d not in known:
                errs.append(f"execution.methods.{name}.split_inner_folds: {d!r} is not a dataset of this campaign")
    if mcfg.get("split_grid"):
        errs += _check_split_grid(config, name, mcfg, spec)
    if mcfg.get("split_audit"):
        errs += _check_split_audit(config, name, mcfg)
    if mcfg.get("split_global_scaling"):
        errs += _check_split_global_scaling(config, name, mcfg, spec)
    if split and mcfg.get("initial_solution"):
        errs.append(f"execution.methods.{name}.split_inner_folds: not with initial_solution (the parts do not read the shared initial solution)")
    return errs


def _check_match_size_of(name: str, mcfg: dict, spec, reg_name: str, methods: dict) -> list[str]:
    """``methods.<name>.match_size_of``: another enabled, unmatched method, and a selector that ranks features."""
    other = mcfg.get("match_size_of")
    if other is None:
        return []
    errs: list[str] = []
    grid = mcfg.get("grid", {})
    settings = mcfg.get("settings", {})
    if other not in methods:
        errs.append(f"methods.{name}.match_size_of: {other!r} is not a method of this campaign (or it is disabled)")
    elif other == name or methods[other].get("match_size_of"):
        errs.append(f"methods.{name}.match_size_of: {other!r} must be a method without match_size_of")
    if not spec.truncation or not spec.load().truncation_is_size:
        errs.append(f"methods.{name}.match_size_of: {reg_name} does not rank features")
    elif spec.truncation in grid or spec.truncation in settings:
        errs.append(f"methods.{name}: match_size_of fixes {spec.truncation}; remove it from grid/settings")
    if settings or (other in methods and methods[other].get("settings")):
        errs.append(f"methods.{name}.match_size_of: methods with settings cannot be matched")
    return errs


def _check_final(config: dict, name: str, mcfg: dict, spec) -> list[str]:
    """A campaign's ``methods.<name>.final``: ``own`` needs a selector that solves a linear SVM and
    splits that score it directly, ``anisotropic`` a selector with kernel widths."""
    from ..methods.base import LinearModelSelector

    final = mcfg.get("final")
    where, reg_name = f"methods.{name}.final", mcfg.get("method", name)
    if final == "own":
        if not issubclass(spec.load(), LinearModelSelector):
            return [f"{where}: 'own' needs a method that solves a linear SVM (weights and intercept); {reg_name} does not"]
        resampled = [d for d in campaign_datasets(config) if name in dataset_methods(config, d)
                     and dataset_splits(config, d).get("kind") == "kp_svm"]  # fmt: skip
        if resampled:
            return [f"{where}: 'own' refits nothing, so splits.kind kp_svm (refit on test-side resamples) does not apply; datasets: {', '.join(resampled)}"]
    if ((final or spec.final) == "own" and spec.truncation and spec.truncation in (mcfg.get("grid") or spec.default_grid)
            and not hasattr(spec.load(), "own_at_size")):  # fmt: skip
        return [f"methods.{name}.grid: {spec.truncation} read off one fit would be scored by the hyperplane solved at "
                f"another size ('own' final classifier); give it as a setting or by match_size_of"]  # fmt: skip
    if final == "anisotropic" and spec.final != "anisotropic":
        return [f"{where}: 'anisotropic' needs a method with kernel widths (its registry final is {spec.final!r})"]
    return []


def _check_split_grid(config: dict, name: str, mcfg: dict, spec) -> list[str]:
    """``split_grid``: blocks of the inner-CV grid (each a grid over the same parameters, the truncation sizes
    aside: one fit gives them all) whose points are the grid's, each in exactly one block."""
    where = f"execution.methods.{name}.split_grid"
    if not mcfg.get("split_inner_folds"):
        return [f"{where}: the blocks are parts of inner folds run apart; set split_inner_folds too"]
    grid = {k: v for k, v in job_grid(config, name).items() if k != spec.truncation}
    if not grid:
        return [f"{where}: {mcfg.get('method', name)} has no grid here but truncation sizes, so no block to run apart"]
    keys = sorted(grid)
    owner: dict[tuple, int] = {}
    errs = []
    for b, block in enumerate(mcfg["split_grid"]):
        if sorted(block) != keys:
            errs.append(f"{where}[{b}]: names {sorted(block)}; a block names the grid's parameters {keys}")
            continue
        for point in itertools.product(*(block[k] for k in keys)):
            if any(v not in grid[k] for k, v in zip(keys, point)):
                errs.append(f"{where}[{b}]: {dict(zip(keys, point))} is not a point of the grid")
            elif point in owner:
                errs.append(f"{where}[{b}]: {dict(zip(keys, point))} is in block {owner[point]} too")
            else:
                owner[point] = b
    if not errs:
        missing = [dict(zip(keys, p)) for p in itertools.product(*(grid[k] for k in keys)) if p not in owner]
        if missing:
            errs.append(f"{where}: the grid's point(s) {missing} are in no block")
    return errs


def _check_split_audit(config: dict, name: str, mcfg: dict) -> list[str]:
    """``split_audit``: the ``test_tuned`` audit's candidates as parts of a job whose inner folds run apart. Its
    parts fit the nested choice's point again without the fold's validation points, which the select job's refit
    takes (splits.validation_size): refused there, where the two fits would differ."""
    where = f"execution.methods.{name}.split_audit"
    if not mcfg.get("split_inner_folds"):
        return [f"{where}: the audit's parts are parts of a job run apart; set split_inner_folds too"]
    if "test_tuned" not in (config.get("audits") or []):
        return [f"{where}: the campaign's audits have no test_tuned, so there is no audit to run apart"]
    return [
        f"{where}: dataset {d!r} has splits.validation_size (the select job's refit takes those points; an audit part's fit would not)"
        for d in campaign_datasets(config)
        if split_inner_folds(config, name, d) and "validation_size" in dataset_splits(config, d)
    ]


def _check_split_global_scaling(config: dict, name: str, mcfg: dict, spec) -> list[str]:
    """``split_global_scaling``: the ``global_scaling`` audit's refit as a part of its own, beside the select job.
    The refit is at the nested choice, so the choice must be known before the job: a selector grid of one point
    and a final classifier of one point (``own``, ``anisotropic`` with ``C_source: selector``, or a one-value grid)."""
    from ..protocol.classifiers import final_grid

    where = f"execution.methods.{name}.split_global_scaling"
    if "global_scaling" not in (config.get("audits") or []):
        return [f"{where}: the campaign's audits have no global_scaling, so there is no audit to run apart"]
    errs = []
    value = mcfg["split_global_scaling"]
    if isinstance(value, list):
        known = set(campaign_datasets(config)) | set(config["datasets"])
        errs += [f"{where}: {d!r} is not a dataset of this campaign" for d in value if d not in known]
    n_sel = int(np.prod([len(v) for v in job_grid(config, name).values()])) if job_grid(config, name) else 1
    if n_sel != 1:
        errs.append(f"{where}: the grid has {n_sel} points, so the nested choice the audit refits is known only "
                    f"after the job's inner CV; a part needs a grid of one point")  # fmt: skip
    final = mcfg.get("final") or spec.final
    n_final = len(final_grid(final, config["final_classifier"]))
    if n_final != 1:
        errs.append(f"{where}: the final classifier {final!r} has {n_final} grid points, tuned on the nested "
                    f"selection; a part needs one")  # fmt: skip
    return errs


def _check_initial_solution(config: dict, name: str, mcfg: dict, spec) -> list[str]:
    """``methods.<name>.initial_solution: shared`` needs a method that takes (C, gamma_ini) or (C, v0), or a
    Gaussian final classifier with one width for all features, and none of those tuned or fixed elsewhere."""
    from ..protocol.initial_solution import SHARED, shared_kind

    if mcfg.get("initial_solution", "own") != SHARED:
        return []
    where, reg_name = f"methods.{name}.initial_solution", mcfg.get("method", name)
    final = mcfg.get("final") or spec.final
    kind = shared_kind(spec.load(), final)
    if kind is None:
        return [f"{where}: 'shared' needs a method with C and gamma_ini (MM-FS) or v0 (KP-FS), or final rbf (NO-FS); {reg_name} with final {final!r} has none"]
    if kind == "rbf" and (config.get("final_classifier") or {}).get("rbf", {}).get("gamma_per_feature"):
        return [f"{where}: 'shared' gives the Gaussian SVM gamma_ini itself; set final_classifier.rbf.gamma_per_feature: false"]
    taken = {"gamma_ini": ("C", "gamma_ini"), "v0": ("C", "v0"), "rbf": ()}[kind]
    own = set(mcfg.get("params", {})) | set(mcfg.get("grid", {})) | set(mcfg.get("settings", {}))
    own |= {k for d in config["datasets"].values() for k in ((d.get("method_params") or {}).get(name) or {})}
    clash = sorted(own & set(taken))
    if clash:
        return [f"{where}: 'shared' sets {', '.join(clash)} from the fold's initial solution; remove {', '.join(clash)} from methods.{name} params/grid/settings and method_params"]
    return []
