"""The job side of a per-job budget (``limits.job_budget_s``, or ``methods.<m>.job_budget_s``; the cost warning is
:mod:`svmfs.config.budget`'s): the budget a method's jobs get, its place in their campaign settings, and the
time limit it gives each fit of a method that has one (``time_limit``: MILP-FS, MM-FS, KP-FS off the shelf).
"""

from __future__ import annotations

import inspect
import math


def job_budget(config: dict, method_cfg: dict) -> float | None:
    """The method's ``job_budget_s``, else the campaign's ``limits.job_budget_s``; None without one."""
    value = method_cfg.get("job_budget_s", (config.get("limits") or {}).get("job_budget_s"))
    return None if value is None else float(value)


def budget_entry(config: dict, method: str, method_cfg: dict) -> dict:
    """``{"job_budget_s": ...}`` for the campaign settings of a job whose method takes a ``time_limit`` (the
    budget changes what those jobs compute, so it is in their config hash; in no other job's)."""
    from ..methods.registry import method_spec

    budget = job_budget(config, method_cfg)
    if budget is None or not math.isfinite(budget):
        return {}
    if "time_limit" not in inspect.signature(method_spec(method, method_cfg).load()).parameters:
        return {}
    return {"job_budget_s": budget}


def budget_time_limit(cls, fixed: dict, grid: dict, truncation, campaign: dict) -> dict:
    """``fixed`` with ``time_limit = job_budget_s / F`` (F: the job's selector fits) for a class that takes a
    ``time_limit`` when the job's campaign settings carry a budget and neither ``fixed`` nor ``grid`` sets it."""
    from .tuning import selector_fits

    budget = campaign.get("job_budget_s")
    if budget is None or "time_limit" in fixed or "time_limit" in grid or "time_limit" not in inspect.signature(cls).parameters:
        return fixed
    fits = selector_fits(grid, truncation, int(campaign["inner_cv"]["n_splits"]))
    return {**fixed, "time_limit": float(budget) / fits}
