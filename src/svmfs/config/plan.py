"""Job planning: the select jobs of a campaign, the slice of the config each one's result depends on
(its ``config_hash``), and the execution layout that runs a job in parts (rule select_part)."""

from __future__ import annotations

from typing import Any

from ..protocol.parts import GLOBAL_SCALING_PART, PART_NAME, grid_block, is_audit_part  # noqa: F401 (the layout's names)
from .campaign import campaign_datasets, campaign_methods, dataset_methods, dataset_splits, job_method_config, method_execution, method_settings, n_folds


def job_campaign_config(config: dict, dataset: str, method: str) -> dict[str, Any]:
    """The campaign-wide settings one select job depends on: normalization, inner CV, its dataset's splits and
    only its own final classifier's section of ``final_classifier`` (none for ``own``), so that editing
    another classifier's grid, or a key added to it, reruns none of this method's jobs."""
    from ..methods.registry import method_spec
    from ..protocol.prefilter import prefilter_entry
    from ..protocol.job_budget import budget_entry

    mcfg = job_method_config(config, dataset, method)
    kind = mcfg.get("final") or method_spec(method, mcfg).final
    final = config["final_classifier"]
    out = {
        "normalization": config["normalization"],
        "inner_cv": config["inner_cv"],
        "final_classifier": {kind: final[kind]} if kind in final else {},
        "splits": dataset_splits(config, dataset),
    }
    out.update(prefilter_entry(config, mcfg))  # a fold-local prefilter: in the hash of the jobs it affects only
    out.update(budget_entry(config, method, mcfg))  # a job budget: in the hash of the jobs that have one only
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
    from ..methods.registry import method_spec

    if "global_selection" not in (config.get("audits") or []):
        return []
    out = []
    for m in dataset_methods(config, dataset):
        mcfg = job_method_config(config, dataset, m)
        kind = mcfg.get("final") or method_spec(m, mcfg).final
        if kind != "own" and not mcfg.get("match_size_of"):
            out.append(m)
    return out


def job_grid(config: dict, method: str) -> dict[str, list]:
    """The inner-CV grid of a method's select jobs, as ``run_select_job`` builds it: the campaign's grid
    or the registry's default, without the job-level settings (and the size fixed by ``match_size_of``)."""
    from ..methods.registry import method_spec

    mcfg = campaign_methods(config)[method]
    spec = method_spec(method, mcfg)
    grid = {k: v for k, v in (mcfg.get("grid") or spec.default_grid).items() if k not in (mcfg.get("settings") or {})}
    if mcfg.get("match_size_of"):
        grid.pop(spec.truncation, None)
    return grid


#: The keys of ``execution.methods.<name>`` that lay a select job out in the workflow without changing its record (``split_inner_folds``:
#: the inner folds in parts of their own; ``split_grid``, blocks of their grid; ``split_audit``, the
#: ``test_tuned`` audit's candidates; ``split_global_scaling``, the ``global_scaling`` audit's refit): kept out of
#: the record's ``config_hash``.
LAYOUT_KEYS = ("split_inner_folds", "split_grid", "split_audit", "split_global_scaling")


def _names_dataset(config: dict, method: str, key: str, dataset: str) -> bool:
    """A method's layout key that is true, or a list naming ``dataset`` (or its group)."""
    value = method_execution(config, method).get(key, False)
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
    mcfg = method_execution(config, method)
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
