"""The job side of a per-job budget (``limits.job_budget_s``, or ``methods.<m>.job_budget_s``; the cost warning is
:mod:`svmfs.config.budget`'s): the budget a method's jobs get, its place in their campaign settings, the
time limit it gives each fit of a method that has one (``time_limit``: MILP-FS, MM-FS, KP-FS off the shelf), and
the clock every select job's tuning reads between its fits (:class:`JobClock`).

Every method honours the budget through its job's inner CV: the wall time since the job started is read after
each selector fit (a grid point on an inner fold); past the budget no further inner fit is made, the choice is
made among the candidates scored on the same inner folds (every fold completed, or the first fold's scored
points when none was), the chosen point is refitted on the training side and the final classifier tuned and
refitted as in a job under budget; the record's status is ``time_limit`` and its message says how far the
tuning got (:meth:`JobClock.record_fields`). A job with a grid always scores its first point (the clock is read
after a fit, never before the first), so the budget never leaves a job with nothing to choose from; a job
without a grid (nothing to tune) makes one fit, stopped only by a ``time_limit`` of its own. A job under budget
computes exactly what it computes without one (the clock is read, never acted on), and a campaign without a
budget keeps every job's config hash (:func:`budget_entry`).
"""

from __future__ import annotations

import inspect
import math
import time


def job_budget(config: dict, method_cfg: dict) -> float | None:
    """The method's ``job_budget_s``, else the campaign's ``limits.job_budget_s``; None without one."""
    value = method_cfg.get("job_budget_s", (config.get("limits") or {}).get("job_budget_s"))
    return None if value is None else float(value)


def budget_entry(config: dict, method: str, method_cfg: dict) -> dict:
    """``{"job_budget_s": ...}`` for the campaign settings of a job with a budget (the budget can change what
    any job computes, so it is in the config hash of every job that has one); ``{}`` without one, so a campaign
    without a budget keeps its jobs' hashes.

    Examples
    --------
    >>> budget_entry({"limits": {"job_budget_s": 150}}, "fisher", {}), budget_entry({}, "fisher", {})
    ({'job_budget_s': 150.0}, {})
    """
    budget = job_budget(config, method_cfg)
    if budget is None or not math.isfinite(budget):
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


class JobClock:
    """The wall clock of one select job against its budget (``job_budget_s`` seconds, or None: no budget).

    Started with the job; :meth:`stop` is asked before each selector fit of the inner CV and says True once a fit
    has been made and the budget is spent (from then on it says True for every later fit, which is skipped).

    Examples
    --------
    >>> clock = JobClock(1e-9)
    >>> clock.stop()  # before the first fit: never
    False
    >>> clock.fitted(); clock.stop(), clock.stop(), clock.skipped
    (True, True, 2)
    >>> JobClock(None).stop(), JobClock(None).record_fields({"status": "ok", "message": ""})
    (False, {})
    """

    def __init__(self, budget: float | None):
        self.budget = None if budget is None else float(budget)
        self.start = time.perf_counter()
        self.fits = 0
        self.skipped = 0
        self.stopped_after: float | None = None  # seconds at the first skipped fit
        self.folds_used: list[int] | None = None

    def fitted(self) -> None:
        """One selector fit done."""
        self.fits += 1

    def stop(self) -> bool:
        """Whether to skip the next selector fit: the budget is spent and at least one fit was made."""
        if self.budget is None:
            return False
        if self.stopped_after is None:
            elapsed = time.perf_counter() - self.start
            if self.fits == 0 or elapsed <= self.budget:
                return False
            self.stopped_after = elapsed
        self.skipped += 1
        return True

    @property
    def stopped(self) -> bool:
        return self.stopped_after is not None

    def usable_scores(self, scores: dict[int, list[list]]) -> dict[int, list[list]]:
        """The inner folds the choice is made on once stopped (``scores`` itself when not stopped): the folds are
        scored one after the other, so every fold but the last scored one is complete; the complete folds, or the
        first fold with the candidates it scored when it is the only one."""
        if not self.stopped:
            return scores
        scored = sorted((k for k, rows in scores.items() if rows), key=int)
        full = len(scores[scored[0]])
        keep = [k for k in scored if len(scores[k]) == full] if len(scored) > 1 else scored
        self.folds_used = [int(k) for k in keep]
        return {k: scores[k] for k in keep}

    def record_fields(self, rec: dict) -> dict:
        """The record's ``status`` (``time_limit``, unless the selector failed: ``solver_error``, ``infeasible``)
        and ``message`` of a job the budget stopped; ``{}`` for a job under budget."""
        if not self.stopped:
            return {}
        folds = ", ".join(map(str, self.folds_used or []))
        note = (f"job budget of {self.budget:g} s spent after {self.stopped_after:.1f} s and {self.fits} selector fit(s) of "
                f"the inner CV, the others skipped: chose among the {rec.get('n_candidates')} candidate(s) scored on inner "
                f"fold(s) {folds}")  # fmt: skip
        status = rec["status"] if rec["status"] in ("solver_error", "infeasible") else "time_limit"
        return {"status": status, "message": "; ".join(filter(None, [note, rec.get("message", "")]))}
