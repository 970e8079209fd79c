"""The semantic checks after the schema (:func:`check_campaign`), one validator per config section, and
:func:`load_config`, which reads, merges, validates and checks a campaign outside Snakemake."""

from __future__ import annotations

import inspect
from pathlib import Path

from .budget import check_budgets
from .campaign import campaign_datasets, campaign_methods, dataset_methods, dataset_splits, job_method_config, load_dataset_registry
from .merge import deep_update, merge_config_files
from .schema import ConfigError, validate_schema
from .sizes import expected_class_counts, expected_shape, largest_training_side
from ..protocol.null_labels import check_null_labels
from ..protocol.prefilter import check_prefilters
from .multiclass import check_multiclass_finals
from .validate_methods import _check_method, check_execution_section


def load_config(path, overrides: dict | None = None, workdir: str | Path = ".") -> dict:
    """Read a campaign YAML safely (or a list of them, merged in order: a base and its overlays), apply
    ``overrides``, validate, check; return the full config."""
    paths = [Path(path)] if isinstance(path, (str, Path)) else [Path(p) for p in path]
    path = paths[-1]
    config = merge_config_files(paths)
    if overrides:
        config = deep_update(config, overrides)
    validate_schema(config, source=str(path))
    check_campaign(config, workdir=workdir, source=str(path))
    return config


def check_campaign(config: dict, workdir: str | Path = ".", source: str = "config") -> None:
    """Semantic checks after the schema; all problems are reported together, each naming its key.

    One validator per section, in this order: data (datasets, stand-in), the inner-CV tables, the
    splits, the methods, the per-dataset method options, the audits; then, when all of these pass,
    the checks that need the data's size (folds against the smallest class, the Pyomo route's limit).
    """
    try:
        registry = load_dataset_registry(config, workdir)
    except (OSError, ValueError) as e:
        raise ConfigError(f"{source}: dataset registry: {e}") from None
    methods = campaign_methods(config)
    errs = _check_data_section(config, registry)
    errs += _check_inner_cv_tables(config)
    errs += _check_splits_section(config)
    errs += _check_methods_section(config, methods)
    errs += check_execution_section(config)
    errs += _check_dataset_method_params(config, methods)
    errs += _check_skip_methods(config, methods)
    errs += _check_audits_section(config)
    errs += check_budgets(config, methods)
    errs += check_null_labels(config, campaign_datasets(config), _class_counts_and_splits(config, registry))
    if not errs:
        errs += _check_folds(config, registry)
        errs += _check_pyomo_size(config, registry)
        errs += check_multiclass_finals(config, registry)
        errs += check_prefilters(config, methods, sorted(campaign_datasets(config)), lambda d: expected_shape(config, d, registry))
    if errs:
        raise ConfigError(f"{source}: invalid configuration:\n  " + "\n  ".join(errs))


def _class_counts_and_splits(config: dict, registry: dict):
    """The (class counts, splits) of a dataset, for the null-label audit's size check."""
    return lambda name: (expected_class_counts(config, name, registry), dataset_splits(config, name))


def _check_data_section(config: dict, registry: dict) -> list[str]:
    """``datasets``: known registry entries, replicable and present files, names that do not clash;
    and ``stand_in`` against ``reproduces``."""
    errs: list[str] = []
    for name, dcfg in config["datasets"].items():
        src = dcfg.get("source", name)
        if src not in registry:
            errs.append(f"datasets.{name}: unknown dataset {src!r}; the registry has: {', '.join(sorted(registry))}")
        else:
            if dcfg.get("replicates") is not None and registry[src]["kind"] != "synthetic":
                errs.append(f"datasets.{name}.replicates: only synthetic datasets can be replicated ({src!r} is {registry[src]['kind']})")
            if registry[src]["kind"] == "local" and dcfg.get("enabled", True):
                errs += [
                    f"datasets.{name}: local file {f['path']} of {src!r} (declared in {registry[src]['declared_in']}) not found"
                    for f in registry[src]["files"] if not Path(f["path"]).is_file()
                ]  # fmt: skip
    n_expected = sum(int(d.get("replicates") or 1) for d in config["datasets"].values() if d.get("enabled", True))
    if n_expected == 0:
        errs.append("datasets: every dataset is disabled")
    if len(campaign_datasets(config)) != n_expected:
        errs.append("datasets: a dataset name clashes with a replicate name <name>-r<i> of another dataset")
    if config.get("stand_in") and config.get("reproduces"):
        errs.append(
            f"stand_in: a campaign on stand-in data compares nothing with a paper, but reproduces lists "
            f"{config['reproduces']}; give it reproduces: []"
        )
    return errs


def _check_splits_section(config: dict) -> list[str]:
    """Contradictory or missing split options, per dataset (a dataset may override the campaign's)."""
    errs: list[str] = []
    for name in sorted(campaign_datasets(config)):
        errs += _check_splits(dataset_splits(config, name), name, config)
    return errs


def _check_splits(sp: dict, name: str, config: dict) -> list[str]:
    own = campaign_datasets(config)[name].get("splits")
    where = f"datasets.{campaign_datasets(config)[name]['group']}.splits" if own else "splits"
    errs = []
    if sp["kind"] == "stratified_kfold":
        for key in ("n_instances", "train_size", "test_size", "n_resamples", "fit_fraction", "stratify", "validation_size"):
            if key in sp:
                errs.append(f"{where}.{key}: not used by splits.kind 'stratified_kfold' (contradictory options)")
    else:
        if "train_size" not in sp:
            errs.append(f"{where}.train_size: required by splits.kind {sp['kind']!r}")
        if sp["kind"] == "random_train_test" and ("n_resamples" in sp or "fit_fraction" in sp):
            errs.append(f"{where}.n_resamples/fit_fraction: only for splits.kind 'kp_svm'")
        if sp["kind"] == "kp_svm":
            errs += [f"{where}.{key}: only for splits.kind 'random_train_test'" for key in ("stratify", "validation_size") if key in sp]
        if sp.get("n_repeats", 1) != 1:
            errs.append(f"{where}.n_repeats: only for splits.kind 'stratified_kfold'")
    return sorted(set(errs))


def _check_inner_cv_tables(config: dict) -> list[str]:
    """``protocol.judged_by_inner_cv`` and ``protocol.judged_by_best_run``: paper-protocol readings only, each
    naming tables the campaign's papers publish."""
    protocol = config.get("protocol") or {}
    errs: list[str] = []
    for key, what in (("judged_by_inner_cv", "judges a table by its inner CV"),
                      ("judged_by_best_run", "judges a table by its best run")):  # fmt: skip
        tables = protocol.get(key) or []
        if not tables:
            continue
        if protocol.get("kind", "nested") != "paper":
            errs.append(f"protocol.{key}: only a paper-protocol campaign (protocol.kind: paper) {what}")
            continue
        from ..analysis.reproduction import published

        known = sorted({e["table"] for e in published()["entries"] if e["paper"] in (config.get("reproduces") or [])})
        errs += [f"protocol.{key}: {t!r} is no table of the papers in reproduces; they publish {known}"
                 for t in tables if t not in known]  # fmt: skip
    return errs


def _check_methods_section(config: dict, methods: dict) -> list[str]:
    """``methods``: at least one enabled, and each one checked by :func:`_check_method`."""
    errs: list[str] = []
    if not methods:
        errs.append("methods: every method is disabled")
    for name, mcfg in methods.items():
        errs += _check_method(config, name, mcfg, methods)
    return errs


def _check_dataset_method_params(config: dict, methods: dict) -> list[str]:
    """``datasets.<d>.method_params``: known methods (disabled ones are skipped) and accepted parameters."""
    from ..methods.external import check_external, is_external
    from ..methods.registry import METHODS, method_spec

    errs: list[str] = []
    for dname, dcfg in config["datasets"].items():
        for mname, params in (dcfg.get("method_params") or {}).items():
            where = f"datasets.{dname}.method_params.{mname}"
            if mname in (config.get("methods") or {}) and mname not in methods:
                continue  # disabled (e.g. by a reduced overlay): its per-dataset params are not used
            if mname not in methods:
                errs.append(f"{where}: {mname!r} is not a method of this campaign")
                continue
            mcfg = methods[mname]
            reg_name = mcfg.get("class") or mcfg.get("method", mname)
            if reg_name not in METHODS and not (is_external(mcfg) and not check_external(mname, mcfg)):
                continue  # an unknown method or a bad class: its own error names it
            accepted = set(inspect.signature(method_spec(mname, mcfg).load()).parameters)
            tuned = set(mcfg.get("grid", {})) | set(mcfg.get("settings", {}))
            for param in params:
                if param not in accepted:
                    errs.append(f"{where}.{param}: not a parameter of {reg_name}; accepted: {', '.join(sorted(accepted))}")
                elif param in tuned:
                    errs.append(f"{where}.{param}: also in methods.{mname} grid/settings (contradictory options)")
    return errs


def _check_skip_methods(config: dict, methods: dict) -> list[str]:
    """``datasets.<d>.skip_methods``: methods of the campaign (disabled ones are fine), not all of them,
    and never the method another one matches the size of."""
    errs: list[str] = []
    for dname, dcfg in config["datasets"].items():
        skipped = dcfg.get("skip_methods") or []
        where = f"datasets.{dname}.skip_methods"
        for mname in skipped:
            if mname not in (config.get("methods") or {}):
                errs.append(f"{where}: {mname!r} is not a method of this campaign")
        if methods and dcfg.get("enabled", True) and set(methods) <= set(skipped):
            errs.append(f"{where}: skips every enabled method of the campaign")
        for mname, mcfg in methods.items():
            other = mcfg.get("match_size_of")
            if other in skipped and mname not in skipped:
                errs.append(f"{where}: skips {other!r}, which methods.{mname}.match_size_of needs; skip {mname!r} too")
    return errs


def _check_audits_section(config: dict) -> list[str]:
    """``audits``: the global scaler only differs from the per-fold one when normalization is per fold."""
    if "global_scaling" in (config.get("audits") or []) and config["normalization"].get("scope", "fold") == "global":
        return ["audits: global_scaling needs normalization.scope 'fold' (the campaign already scales on all rows)"]
    return []


def _check_folds(config: dict, registry: dict) -> list[str]:
    errs = []
    inner = config["inner_cv"]["n_splits"]
    for name in campaign_datasets(config):
        sp = dataset_splits(config, name)
        try:
            counts = expected_class_counts(config, name, registry)
        except ConfigError as e:
            errs.append(str(e))
            continue
        if counts is None:
            continue
        smallest = min(counts)
        if smallest < 2:
            errs.append(f"datasets.{name}: a class has {smallest} sample(s); two classes of >= 2 are needed")
            continue
        if sp["kind"] == "stratified_kfold" and sp["n_splits"] > smallest:
            errs.append(f"splits.n_splits = {sp['n_splits']} exceeds the smallest class of dataset {name!r} ({smallest})")
            continue
        train_smallest = smallest * (1 - 1 / sp["n_splits"]) if sp["kind"] == "stratified_kfold" else None
        if train_smallest is not None and inner > int(train_smallest):
            errs.append(
                f"inner_cv.n_splits = {inner} exceeds the smallest class on the training side of dataset "
                f"{name!r} (about {int(train_smallest)})"
            )
    return errs


def _check_pyomo_size(config: dict, registry: dict) -> list[str]:
    """A method run with ``route: pyomo`` (MM-FS's model route) where the largest training side times the
    features exceeds its ``pyomo_max_size`` is refused before any job (the select job would refuse it
    only after the inner CV). Datasets whose shape is not known before download are left to the job."""
    from ..methods.registry import method_spec

    errs = []
    for name in campaign_datasets(config):
        for mname in dataset_methods(config, name):
            mcfg = job_method_config(config, name, mname)
            spec = method_spec(mname, mcfg)
            accepted = inspect.signature(spec.load()).parameters
            if "route" not in accepted or "pyomo_max_size" not in accepted:
                continue
            params = {**spec.params, **mcfg.get("params", {})}
            tuned = [*(mcfg.get("settings") or {}).get("route", []), *(mcfg.get("grid") or {}).get("route", [])]
            if "pyomo" not in (tuned or [params.get("route", accepted["route"].default)]):
                continue
            shape = expected_shape(config, name, registry)
            if shape is None:
                continue
            rows = largest_training_side(dataset_splits(config, name), shape[0])
            limit = params.get("pyomo_max_size", accepted["pyomo_max_size"].default)
            if rows * shape[1] > limit:
                errs.append(
                    f"methods.{mname}.params.route: 'pyomo' on dataset {name!r}: {rows} training rows x {shape[1]} "
                    f"features = {rows * shape[1]} exceeds methods.{mname}.params.pyomo_max_size = {limit} "
                    "(the model route is for small problems); use route 'cyipopt' or raise pyomo_max_size"
                )
    return errs
