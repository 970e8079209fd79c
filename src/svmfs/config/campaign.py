"""A validated campaign's datasets and methods as the jobs see them: enabled entries, replicates
expanded, per-dataset method parameters and outer splits, job-level settings, the dataset registry."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any


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
    """The enabled methods of the campaign (``enabled: false`` leaves one out), each with its execution layout
    (:func:`method_execution`) beside its science keys, as the select and part jobs read it (the layout keys
    never enter a job's config: :data:`svmfs.config.LAYOUT_KEYS`)."""
    return {n: {**{k: v for k, v in m.items() if k != "enabled"}, **method_execution(config, n)}
            for n, m in config["methods"].items() if m.get("enabled", True)}  # fmt: skip


def method_execution(config: dict, method: str) -> dict[str, Any]:
    """How the workflow lays a method's select jobs out: ``execution.methods.<method>`` (``split_inner_folds``,
    ``split_grid``, ``split_audit``, ``split_global_scaling``), {} when the campaign sets none.

    Examples
    --------
    >>> method_execution({"execution": {"methods": {"milp_fs": {"split_inner_folds": ["wdbc"]}}}}, "milp_fs")
    {'split_inner_folds': ['wdbc']}
    >>> method_execution({}, "milp_fs")
    {}
    """
    return dict(((config.get("execution") or {}).get("methods") or {}).get(method) or {})


def job_method_config(config: dict, dataset: str, method: str) -> dict[str, Any]:
    """A method's config on one (expanded) dataset: its ``params`` updated by the dataset's ``method_params``."""
    mcfg = campaign_methods(config)[method]
    own = campaign_datasets(config)[dataset].get("method_params", {}).get(method)
    return {**mcfg, "params": {**mcfg.get("params", {}), **own}} if own else mcfg


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
    from ..data.campaign_registry import merge_registries
    from ..data.registry import load_registry

    path = Path(workdir) / config["dataset_registry"]
    return merge_registries(load_registry(path), path, config.get("registry"), config.get("registry_entries"), cwd)


def dataset_lock_path(config: dict) -> str:
    """The download lock: ``dataset_lock``, else ``<raw_dir>/datasets.lock.yaml`` beside the downloads."""
    return config.get("dataset_lock") or str(Path(config["raw_dir"]) / "datasets.lock.yaml")


def mirror_url(config: dict) -> str | None:
    """The mirror base URL: the config key, else the SVMFS_MIRROR environment variable."""
    return config.get("mirror") or os.environ.get("SVMFS_MIRROR") or None
