"""Campaign configuration: schema validation with defaults, then the checks a schema cannot express.

The Snakefile validates with ``snakemake.utils.validate`` against ``workflow/schemas/config.schema.yaml``
and then calls :func:`check_campaign`, so a bad config is rejected before any job runs, with a
message naming the key. :func:`load_config` does both for use outside Snakemake.
"""

from __future__ import annotations

import inspect
import itertools
import os
import re
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from .protocol.parts import GLOBAL_SCALING_PART, PART_NAME, grid_block, is_audit_part  # noqa: F401 (the layout's names)
from .yamlio import load_yaml_file

NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
POSITIVE_PARAMS = ("C", "C2", "gamma", "beta", "eps", "v0", "threshold", "time_limit")
SCHEMA = Path(__file__).resolve().parents[2] / "workflow" / "schemas" / "config.schema.yaml"


class ConfigError(ValueError):
    """An invalid campaign configuration; the message names the file (if any) and the key."""


def _validator_with_defaults(schema):
    from jsonschema import Draft202012Validator, validators

    def set_defaults(validator, properties, instance, schema):
        if isinstance(instance, dict):
            for prop, sub in properties.items():
                if "default" in sub and prop not in instance:
                    instance[prop] = _copy(sub["default"])
        yield from Draft202012Validator.VALIDATORS["properties"](validator, properties, instance, schema)

    cls = validators.extend(Draft202012Validator, {"properties": set_defaults})
    return cls(schema)


def _copy(v):
    return yaml.safe_load(yaml.safe_dump(v))


def validate_schema(config: dict, schema_path: str | Path = SCHEMA, source: str = "config") -> dict:
    """Fill defaults and validate against the JSON schema; raise :class:`ConfigError` naming the key."""
    schema = load_yaml_file(schema_path)
    validator = _validator_with_defaults(schema)
    errors = sorted(validator.iter_errors(config), key=lambda e: list(map(str, e.absolute_path)))
    if errors:
        lines = [f"{'.'.join(map(str, e.absolute_path)) or '<top level>'}: {e.message}" for e in errors]
        raise ConfigError(f"{source}: invalid configuration:\n  " + "\n  ".join(lines))
    return config


def load_config(path: str | Path, overrides: dict | None = None, workdir: str | Path = ".") -> dict:
    """Read a campaign YAML safely, apply ``overrides``, validate, check; return the full config."""
    path = Path(path)
    config = read_config_file(path)
    if not isinstance(config, dict):
        raise ConfigError(f"{path}: the top level must be a mapping")
    if overrides:
        config = deep_update(config, overrides)
    validate_schema(config, source=str(path))
    check_campaign(config, workdir=workdir, source=str(path))
    return config


def read_config_file(path: str | Path) -> Any:
    """A campaign/config YAML read with the strict loader (duplicate keys refused); ConfigError names the file."""
    from .yamlio import DuplicateKeyError

    try:
        return load_yaml_file(path) or {}
    except DuplicateKeyError as e:
        raise ConfigError(str(e)) from None
    except yaml.YAMLError as e:
        raise ConfigError(f"{path}: not valid YAML: {e}") from None


def check_config_files(paths, config: dict | None = None) -> None:
    """Re-read the config files Snakemake loaded (``workflow.configfiles``) with the strict loader:
    Snakemake's own loader keeps the later of two equal keys silently, and reads label values by YAML
    1.1 (``positive: [yes]`` -> ``[True]``). With ``config``, the labels of its ``registry_entries`` are
    replaced by those of the strict read, which keeps them as typed (:mod:`.yamlio`)."""
    strict: dict = {}
    for path in paths:
        data = read_config_file(path)
        strict = deep_update(strict, data) if isinstance(data, dict) else strict
    if config is not None:
        typed = strict.get("registry_entries")
        for name, entry in (config.get("registry_entries") or {}).items():
            own = typed.get(name) if isinstance(typed, dict) else None
            if isinstance(entry, dict) and isinstance(own, dict) and isinstance(own.get("labels"), dict):
                entry["labels"] = own["labels"]


def deep_update(base: dict, new: dict) -> dict:
    out = dict(base)
    for k, v in new.items():
        out[k] = deep_update(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def method_settings(method_cfg: dict) -> dict[str, dict[str, Any]]:
    """Job-level settings of a method: label -> fixed parameters (``{"default": {}}`` if none).

    A label joins ``param-value`` pairs with ``_`` in the order the config gives the parameters,
    e.g. ``C2-0.1``.
    """
    settings = method_cfg.get("settings") or {}
    if not settings:
        return {"default": {}}
    labels: dict[str, dict[str, Any]] = {"": {}}
    for param, values in settings.items():
        labels = {
            (f"{lab}_" if lab else "") + f"{param}-{_fmt(v)}": {**fixed, param: v}
            for lab, fixed in labels.items()
            for v in values
        }
    return labels


def _fmt(v) -> str:
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


SPLIT_DEFAULTS = {"kind": "stratified_kfold", "n_splits": 10, "n_repeats": 1}


def campaign_methods(config: dict) -> dict[str, dict[str, Any]]:
    """The enabled methods of the campaign (``enabled: false`` leaves one out)."""
    return {n: {k: v for k, v in m.items() if k != "enabled"} for n, m in config["methods"].items() if m.get("enabled", True)}


def job_method_config(config: dict, dataset: str, method: str) -> dict[str, Any]:
    """A method's config on one (expanded) dataset: its ``params`` updated by the dataset's ``method_params``."""
    mcfg = campaign_methods(config)[method]
    own = campaign_datasets(config)[dataset].get("method_params", {}).get(method)
    return {**mcfg, "params": {**mcfg.get("params", {}), **own}} if own else mcfg


def job_campaign_config(config: dict, dataset: str, method: str) -> dict[str, Any]:
    """The campaign-wide settings one select job depends on: normalization, inner CV, its dataset's splits and
    only its own final classifier's section of ``final_classifier`` (none for ``own``), so that editing
    another classifier's grid, or a key added to it, reruns none of this method's jobs."""
    from .methods.registry import get_method

    mcfg = job_method_config(config, dataset, method)
    kind = mcfg.get("final") or get_method(mcfg.get("method", method)).final
    final = config["final_classifier"]
    out = {
        "normalization": config["normalization"],
        "inner_cv": config["inner_cv"],
        "final_classifier": {kind: final[kind]} if kind in final else {},
        "splits": dataset_splits(config, dataset),
    }
    audits = select_job_audits(config)
    if audits:  # only when on: with no audit a select job's params (and record) are those of before
        out["audits"] = audits
    return out


#: Audits computed inside the select job (the others have jobs of their own).
SELECT_JOB_AUDITS = ("test_tuned", "global_scaling")


def select_job_audits(config: dict) -> list[str]:
    """The campaign's ``audits`` a select job computes itself (``test_tuned``, ``global_scaling``), in a fixed order."""
    on = set(config.get("audits") or [])
    return [a for a in SELECT_JOB_AUDITS if a in on]


def global_selection_methods(config: dict, dataset: str) -> list[str]:
    """Methods of one dataset that get an ``audit_global`` job when ``global_selection`` is on: all but those
    scored by their ``own`` hyperplane (nothing is refitted on a fold after the selection on all samples, so
    the audit would be a resubstitution accuracy) and those with ``match_size_of`` (their size is another
    method's choice on each fold, which a selection on all samples does not have)."""
    from .methods.registry import get_method

    if "global_selection" not in (config.get("audits") or []):
        return []
    out = []
    for m in dataset_methods(config, dataset):
        mcfg = job_method_config(config, dataset, m)
        kind = mcfg.get("final") or get_method(mcfg.get("method", m)).final
        if kind != "own" and not mcfg.get("match_size_of"):
            out.append(m)
    return out


#: Method keys that lay a select job out in the workflow without changing its record (``split_inner_folds``:
#: the inner folds in parts of their own; ``split_grid``, blocks of their grid; ``split_audit``, the
#: ``test_tuned`` audit's candidates; ``split_global_scaling``, the ``global_scaling`` audit's refit): kept out of
#: the record's ``config_hash``.
LAYOUT_KEYS = ("split_inner_folds", "split_grid", "split_audit", "split_global_scaling")

def _names_dataset(config: dict, method: str, key: str, dataset: str) -> bool:
    """A method's layout key that is true, or a list naming ``dataset`` (or its group)."""
    value = campaign_methods(config)[method].get(key, False)
    if isinstance(value, list):
        return dataset in value or campaign_datasets(config)[dataset]["group"] in value
    return bool(value)


def split_inner_folds(config: dict, method: str, dataset: str) -> bool:
    """Whether the method's select jobs on ``dataset`` run their inner folds as parts of their own (rule
    select_part): ``split_inner_folds`` true, or a list that names the dataset (or its group)."""
    return _names_dataset(config, method, "split_inner_folds", dataset)


def split_global_scaling(config: dict, method: str, dataset: str) -> bool:
    """Whether the method's select jobs on ``dataset`` run their ``global_scaling`` audit as a part of its own
    (:data:`GLOBAL_SCALING_PART`): ``split_global_scaling`` true, or a list that names the dataset (or its group)."""
    return _names_dataset(config, method, "split_global_scaling", dataset)


def part_names(config: dict, method: str, dataset: str) -> list[str]:
    """The parts (rule select_part) of the method's select jobs on ``dataset`` whose inner folds run apart
    (:func:`split_inner_folds`): ``inner-<k>`` for inner fold k and the whole grid, or with ``split_grid``
    ``inner-<k>-grid-<b>`` for inner fold k and the grid's block b (:func:`grid_block`); with ``split_audit``
    also the ``test_tuned`` audit's candidates on the whole training side, ``audit`` (the whole grid) or
    ``audit-grid-<b>`` (block b); with ``split_global_scaling`` the ``global_scaling`` audit's refit,
    :data:`GLOBAL_SCALING_PART`. [] for a job run whole."""
    gs = [GLOBAL_SCALING_PART] if split_global_scaling(config, method, dataset) else []
    if not split_inner_folds(config, method, dataset):
        return gs
    inner = range(int(config["inner_cv"]["n_splits"]))
    mcfg = campaign_methods(config)[method]
    blocks = mcfg.get("split_grid")
    audit = ["audit"] if not blocks else [f"audit-grid-{b}" for b in range(len(blocks))]
    audit = audit if mcfg.get("split_audit") else []
    if not blocks:
        return [f"inner-{k}" for k in inner] + audit + gs
    return [f"inner-{k}-grid-{b}" for k in inner for b in range(len(blocks))] + audit + gs


#: Method keys that no select job's result depends on, beside :data:`LAYOUT_KEYS`: ``resources`` (what the
#: scheduler gives the job) and ``settings``, whose one value the job runs is its config's ``setting``: adding a
#: value of C to a method's settings, or raising its runtime, leaves the other jobs' configs and records as they are.
RESULT_FREE_KEYS = ("settings", "resources")


def job_config(config: dict, dataset: str, method: str, setting: str) -> dict[str, Any]:
    """Everything a select job's result depends on in the config; its hash is the record's ``config_hash``
    (the Snakefile's select params and ``python -m svmfs.reproduce restore`` both use this). The method's
    section without :data:`LAYOUT_KEYS` and :data:`RESULT_FREE_KEYS`; the job's own setting beside it."""
    mcfg = job_method_config(config, dataset, method)
    return {
        "dataset": {k: v for k, v in campaign_datasets(config)[dataset].items() if k not in ("method_params", "skip_methods")},
        "method": {k: v for k, v in mcfg.items() if k not in LAYOUT_KEYS + RESULT_FREE_KEYS},
        "setting": method_settings(campaign_methods(config)[method])[setting],
        "campaign": job_campaign_config(config, dataset, method),
        "seed": config["seed"],
    }


def legacy_job_config(config: dict, dataset: str, method: str, setting: str) -> dict[str, Any]:
    """:func:`job_config` as records written before 2026-11-29 hashed it: with the method's ``settings`` (every
    value of them) and ``resources``. ``reproduce restore`` and ``check`` accept a record under either hash."""
    return {**job_config(config, dataset, method, setting),
            "method": {k: v for k, v in job_method_config(config, dataset, method).items() if k not in LAYOUT_KEYS}}  # fmt: skip


def select_jobs(config: dict) -> list[tuple[str, str, str, int]]:
    """Every select job of a (validated) campaign: (dataset, method, setting, fold)."""
    methods = campaign_methods(config)
    return [
        (d, m, s, k)
        for d in sorted(campaign_datasets(config))
        for m in dataset_methods(config, d)
        for s in method_settings(methods[m])
        for k in range(n_folds(dataset_splits(config, d)))
    ]


def dataset_methods(config: dict, dataset: str) -> list[str]:
    """The enabled methods run on one (expanded) dataset: all but its ``skip_methods``, sorted."""
    skipped = set(campaign_datasets(config)[dataset].get("skip_methods", []))
    return sorted(m for m in campaign_methods(config) if m not in skipped)


def dataset_splits(config: dict, name: str) -> dict[str, Any]:
    """The outer-split spec of one (expanded) dataset: defaults, the campaign's, the dataset's own."""
    return {**SPLIT_DEFAULTS, **config.get("splits", {}), **campaign_datasets(config)[name].get("splits", {})}


def n_folds(spec: dict[str, Any]) -> int:
    if spec["kind"] == "stratified_kfold":
        return int(spec["n_splits"]) * int(spec.get("n_repeats", 1))
    return int(spec.get("n_instances", 10 if spec["kind"] == "random_train_test" else 1))


def campaign_datasets(config: dict) -> dict[str, dict[str, Any]]:
    """The campaign's datasets after expanding ``replicates``.

    A dataset with ``replicates: R`` (synthetic only) becomes ``<name>-r0`` .. ``<name>-r{R-1}``,
    each drawn with its own seed (the seed derives from the expanded name), all in group ``<name>``.
    Every returned entry has ``source`` and ``group`` set.
    """
    out: dict[str, dict[str, Any]] = {}
    for name, dcfg in config["datasets"].items():
        if not dcfg.get("enabled", True):
            continue
        base = {k: v for k, v in dcfg.items() if k not in ("replicates", "enabled")}
        base.setdefault("source", name)
        reps = dcfg.get("replicates")
        if reps is None:
            out[name] = {**base, "group": name}
        else:
            for i in range(int(reps)):
                out[f"{name}-r{i}"] = {**base, "group": name}
    return out


def load_dataset_registry(config: dict, workdir: str | Path = ".", cwd: str | Path | None = None) -> dict:
    """The built-in registry (``dataset_registry``, relative to ``workdir``, the project folder) plus the
    campaign's ``registry`` files (relative to ``cwd``, the working directory) and ``registry_entries``."""
    from .data.campaign_registry import merge_registries
    from .data.registry import load_registry

    path = Path(workdir) / config["dataset_registry"]
    return merge_registries(load_registry(path), path, config.get("registry"), config.get("registry_entries"), cwd)


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
    errs += _check_dataset_method_params(config, methods)
    errs += _check_skip_methods(config, methods)
    errs += _check_audits_section(config)
    if not errs:
        errs += _check_folds(config, registry)
        errs += _check_pyomo_size(config, registry)
    if errs:
        raise ConfigError(f"{source}: invalid configuration:\n  " + "\n  ".join(errs))


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


def _check_methods_section(config: dict, methods: dict) -> list[str]:
    """``methods``: at least one enabled, and each one checked by :func:`_check_method`."""
    errs: list[str] = []
    if not methods:
        errs.append("methods: every method is disabled")
    for name, mcfg in methods.items():
        errs += _check_method(config, name, mcfg, methods)
    return errs


def _check_method(config: dict, name: str, mcfg: dict, methods: dict) -> list[str]:
    """One ``methods.<name>``: a registry method, its parameters, final classifier, initial solution,
    execution layout and size matching."""
    from .methods.registry import METHODS

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
            values = value if section != "params" else [value]
            errs += _check_param_values(f"methods.{name}.{section}.{param}", param, values, spec)
    for param in set(grid) & set(settings):
        errs.append(f"methods.{name}: {param!r} is both in grid and settings (contradictory options)")
    for param in set(mcfg.get("params", {})) & (set(grid) | set(settings)):
        errs.append(f"methods.{name}.params.{param}: also in grid/settings (contradictory options)")
    return errs


def _check_param_values(where: str, param: str, values: list, spec) -> list[str]:
    """The values one parameter takes: one of its choices, positive, or an integer >= 1."""
    errs: list[str] = []
    choices = getattr(spec.load(), "param_choices", {}).get(param)
    if choices is not None:
        errs += [f"{where}: {v!r} is not one of {list(choices)}" for v in values if v not in choices]
    if param in POSITIVE_PARAMS:
        for v in values:
            if not isinstance(v, (int, float)) or isinstance(v, bool) or v <= 0:
                errs.append(f"{where}: must be > 0, got {v!r}")
    if param in ("n_features_to_select", "node_limit"):
        for v in values:
            if v is not None and (not isinstance(v, int) or isinstance(v, bool) or v < 1):
                errs.append(f"{where}: must be an integer >= 1, got {v!r}")
    return errs


def _check_method_layout(config: dict, name: str, mcfg: dict, spec, reg_name: str) -> list[str]:
    """The execution-layout keys of ``methods.<name>``: ``split_inner_folds``, ``split_grid``,
    ``split_audit``, ``split_global_scaling``."""
    errs: list[str] = []
    split = mcfg.get("split_inner_folds")
    if split and not job_grid(config, name):
        errs.append(f"methods.{name}.split_inner_folds: {reg_name} has no inner-CV grid here, so no inner fold to run apart")
    if isinstance(split, list):
        known = set(campaign_datasets(config)) | set(config["datasets"])  # a disabled one (reduced overlay) too
        for d in split:
            if d not in known:
                errs.append(f"methods.{name}.split_inner_folds: {d!r} is not a dataset of this campaign")
    if mcfg.get("split_grid"):
        errs += _check_split_grid(config, name, mcfg, spec)
    if mcfg.get("split_audit"):
        errs += _check_split_audit(config, name, mcfg)
    if mcfg.get("split_global_scaling"):
        errs += _check_split_global_scaling(config, name, mcfg, spec)
    if split and mcfg.get("initial_solution"):
        errs.append(f"methods.{name}.split_inner_folds: not with initial_solution (the parts do not read the shared initial solution)")
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


def _check_dataset_method_params(config: dict, methods: dict) -> list[str]:
    """``datasets.<d>.method_params``: known methods (disabled ones are skipped) and accepted parameters."""
    from .methods.registry import METHODS

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
            reg_name = mcfg.get("method", mname)
            if reg_name not in METHODS:
                continue
            accepted = set(inspect.signature(METHODS[reg_name].load()).parameters)
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


def _check_final(config: dict, name: str, mcfg: dict, spec) -> list[str]:
    """A campaign's ``methods.<name>.final``: ``own`` needs a selector that solves a linear SVM and
    splits that score it directly, ``anisotropic`` a selector with kernel widths."""
    from .methods.base import LinearModelSelector

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
    where = f"methods.{name}.split_grid"
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
    where = f"methods.{name}.split_audit"
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
    from .protocol.classifiers import final_grid

    where = f"methods.{name}.split_global_scaling"
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
    from .protocol.initial_solution import SHARED, shared_kind

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


def method_resources(config: dict, method: str, key: str):
    """A select job's resource ``key`` (mem_mb, runtime, threads): the method's own, else ``resources.select``."""
    return campaign_methods(config)[method].get("resources", {}).get(key, config["resources"]["select"][key])


def runtime_warnings(config: dict) -> list[str]:
    """Methods whose select job can outlast its ``resources.runtime``: every fit of the job (inner folds
    x grid points, then the refit on the training side) stopped by the method's ``time_limit`` (the
    largest over the datasets' ``method_params``). A scheduler would kill such a job before the method's
    own limit ends it with status ``time_limit``. A warning, not an error: most fits end far sooner."""
    from .methods.registry import METHODS
    from .protocol.tuning import selector_fits

    warnings = []
    for name, mcfg in campaign_methods(config).items():
        spec = METHODS.get(mcfg.get("method", name))
        fits = selector_fits(mcfg.get("grid") or {}, spec and spec.truncation, int(config["inner_cv"]["n_splits"]))
        limits = [
            job_method_config(config, d, name).get("params", {}).get("time_limit")
            for d in campaign_datasets(config)
            if name in dataset_methods(config, d)
        ]
        limits = [float(t) for t in limits if t is not None]
        runtime = method_resources(config, name, "runtime")
        if limits and fits * max(limits) / 60.0 > runtime:
            warnings.append(
                f"methods.{name}: a select job runs up to {fits} fits x time_limit {max(limits):g} s = "
                f"{fits * max(limits) / 60.0:.0f} min, above resources.runtime = {runtime} min; a scheduler may kill "
                f"it first (raise methods.{name}.resources.runtime or lower the time_limit)"
            )
    return warnings


def job_grid(config: dict, method: str) -> dict[str, list]:
    """The inner-CV grid of a method's select jobs, as ``run_select_job`` builds it: the campaign's grid
    or the registry's default, without the job-level settings (and the size fixed by ``match_size_of``)."""
    from .methods.registry import get_method

    mcfg = campaign_methods(config)[method]
    spec = get_method(mcfg.get("method", method))
    grid = {k: v for k, v in (mcfg.get("grid") or spec.default_grid).items() if k not in (mcfg.get("settings") or {})}
    if mcfg.get("match_size_of"):
        grid.pop(spec.truncation, None)
    return grid


def fit_count_warnings(config: dict) -> list[str]:
    """Methods whose select job fits more than ``limits.max_fits_per_job`` models: the selector over its
    grid and the final classifier over the joint grid (:func:`~svmfs.protocol.tuning.classifier_fits`).
    A warning, not an error: such a job is legitimate, but likely a grid made larger than meant."""
    from .methods.registry import get_method
    from .protocol.classifiers import final_grid
    from .protocol.tuning import classifier_fits, selector_fits

    bound, k = int(config["limits"]["max_fits_per_job"]), int(config["inner_cv"]["n_splits"])
    warnings = []
    for name, mcfg in campaign_methods(config).items():
        spec = get_method(mcfg.get("method", name))
        grid, kind = job_grid(config, name), mcfg.get("final") or spec.final
        n_final = len(final_grid(kind, config["final_classifier"]))
        sel = selector_fits(grid, spec.truncation, k)
        fin = classifier_fits(grid, spec.truncation, k, n_final, own=kind == "own")
        if sel + fin > bound:
            sizes = len(grid.get(spec.truncation, [])) if spec.truncation in grid else 1
            warnings.append(
                f"methods.{name}: a select job fits {sel + fin} models ({sel} selector fits; {fin} {kind} classifier "
                f"fits: {k} inner folds x {(sel - 1) // k} selector grid points x {sizes} sizes x {n_final} "
                f"final_classifier.{kind} points, then its own tuning), above limits.max_fits_per_job = {bound}; "
                f"shrink methods.{name}.grid or final_classifier.{kind}, or raise limits.max_fits_per_job"
            )
    return warnings


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


def _synthetic_dataset(config: dict, name: str, entry: dict):
    """A synthetic dataset of the campaign, drawn as the ``prepare`` rule draws it (a bad ``params`` is a ConfigError)."""
    from .data.registry import build_dataset
    from .protocol.seeds import data_seed

    dcfg = campaign_datasets(config)[name]
    try:
        return build_dataset(name, entry, dcfg.get("params"), data_seed(config["seed"], name))
    except (TypeError, ValueError) as e:
        raise ConfigError(f"datasets.{dcfg['group']}.params: {e}") from None


def _registry_expect(dcfg: dict, entry: dict) -> dict:
    """The registry's ``expect`` of a dataset, unless the campaign's ``params``/``options`` change the data."""
    return {} if dcfg.get("params") or dcfg.get("options") else (entry.get("expect") or {})


def expected_class_counts(config: dict, name: str, registry: dict) -> list[int] | None:
    """Class sizes of a dataset if known without downloading (registry ``expect`` or a generator run)."""
    dcfg = campaign_datasets(config)[name]
    entry = registry[dcfg["source"]]
    if entry["kind"] == "synthetic":
        ds = _synthetic_dataset(config, name, entry)
        return [int(np.sum(ds.y == -1)), int(np.sum(ds.y == 1))]
    counts = _registry_expect(dcfg, entry).get("class_counts")
    return [int(v) for v in counts.values()] if counts else None


def expected_shape(config: dict, name: str, registry: dict) -> tuple[int, int] | None:
    """(samples, features) of a dataset if known without downloading (registry ``expect`` or a generator run)."""
    dcfg = campaign_datasets(config)[name]
    entry = registry[dcfg["source"]]
    if entry["kind"] == "synthetic":
        n, p = _synthetic_dataset(config, name, entry).X.shape
        return int(n), int(p)
    expect = _registry_expect(dcfg, entry)
    return (int(expect["n_samples"]), int(expect["n_features"])) if "n_samples" in expect and "n_features" in expect else None


def largest_training_side(spec: dict, n_samples: int) -> int:
    """Rows of the largest outer training side ``protocol.splits.make_splits`` makes from ``n_samples``:
    k-fold test folds differ in size by at most one, so n - floor(n / k); a train/test split takes
    ``train_size`` rows (a fraction: floor(fraction * n), as scikit-learn's splitter)."""
    if spec["kind"] == "stratified_kfold":
        return n_samples - n_samples // int(spec["n_splits"])
    size = spec["train_size"]
    return int(np.floor(size * n_samples)) if isinstance(size, float) and size < 1 else int(size)


def _check_pyomo_size(config: dict, registry: dict) -> list[str]:
    """A method run with ``route: pyomo`` (MM-FS's model route) where the largest training side times the
    features exceeds its ``pyomo_max_size`` is refused before any job (the select job would refuse it
    only after the inner CV). Datasets whose shape is not known before download are left to the job."""
    from .methods.registry import METHODS

    errs = []
    for name in campaign_datasets(config):
        for mname in dataset_methods(config, name):
            mcfg = job_method_config(config, name, mname)
            spec = METHODS[mcfg.get("method", mname)]
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


def dataset_lock_path(config: dict) -> str:
    """The download lock: ``dataset_lock``, else ``<raw_dir>/datasets.lock.yaml`` beside the downloads."""
    return config.get("dataset_lock") or str(Path(config["raw_dir"]) / "datasets.lock.yaml")


def mirror_url(config: dict) -> str | None:
    """The mirror base URL: the config key, else the SVMFS_MIRROR environment variable."""
    return config.get("mirror") or os.environ.get("SVMFS_MIRROR") or None


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
        from .analysis.reproduction import published

        known = sorted({e["table"] for e in published()["entries"] if e["paper"] in (config.get("reproduces") or [])})
        errs += [f"protocol.{key}: {t!r} is no table of the papers in reproduces; they publish {known}"
                 for t in tables if t not in known]  # fmt: skip
    return errs
