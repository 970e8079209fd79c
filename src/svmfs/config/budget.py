"""A per-job time budget (``limits.job_budget_s``, or ``methods.<m>.job_budget_s``) and the cost warning a
campaign earns before any job runs.

The cost model of one select job of a registry method on a dataset of n training rows and p features (after
the method's prefilter, if any) is

    T = F x t_fit,    t_fit = t_ref x (p / 12 600) ^ beta x (n / 80),

F the selector fits of the job (:func:`~svmfs.protocol.tuning.selector_fits`: inner folds x grid points
without the truncation sizes, plus the refit), ``t_ref`` the wall seconds of one fit with the registry's
defaults on 80 x 12 600 and ``beta`` the exponent in p between 80 x 12 600 and 80 x 54 675, both from
:data:`COST`. Where those come from: both from ``python -m benchmarks run omics_scale`` (full size,
benchmarks/results/omics_scale.csv, the table in benchmarks/RESULTS.md): ``t_ref`` is its ``wall_s`` at 80 x
12 600 (at least 0.01 s; a method stopped there has the 120 s limit as a lower bound), ``beta`` is
log(t(54 675) / t(12 600)) / log(54 675 / 12 600) of its CPU seconds (``cpu_s``) where both fits end with
status ok and take at least 0.1 s; 1 (linear) elsewhere: not measured at both sizes, a fit that selects nothing,
or a fit too short for its time to be more than overhead (fisher, correlation, osfsa). The benchmark
varies p only: the factor n / 80 is an assumption (linear in n; an SVM's solve grows faster, so for n >> 80
the estimate is low), and the final classifier's fits are not counted. It is a warning, not a promise.

Every method's job honours the budget between the fits of its inner CV (:mod:`svmfs.protocol.job_budget`:
past it, no further inner fit, the choice among what was scored, status ``time_limit``). A method with a time
limit (its ``time_limit`` parameter: MILP-FS, MM-FS, KP-FS off the shelf) also has each of the job's fits
given ``job_budget_s / F`` seconds unless the campaign sets ``time_limit`` itself, and a fit stopped there ends
with status ``time_limit`` and the best selection it reached. ``resources.runtime`` stays the scheduler's hard
stop.
"""

from __future__ import annotations

import math

from ..protocol.job_budget import job_budget
from .campaign import campaign_methods, dataset_splits, job_method_config

#: Reference size of ``t_ref`` (rows, features).
REF_N, REF_P = 80, 12600
#: method -> (t_ref wall seconds at 80 x 12 600, beta); see the module docstring for the commands.
COST: dict[str, tuple[float, float]] = {
    "correlation": (0.04, 1.0), "dfsa_linear": (120.0, 1.0), "dfsa_poly2": (120.0, 1.0), "dfsa_rbf": (0.72, 0.81),
    "fisher": (0.03, 1.0), "fs_svmcp": (2.29, 1.43), "fsv": (7.88, 1.17), "fw1": (4.12, 1.35), "ifsa": (0.43, 1.16),
    "info_gain": (1.52, 0.92), "kp_fs_offshelf": (5.24, 1.0), "kp_svm": (0.22, 0.8), "kp_svm_rank": (0.2, 0.65),
    "l1_rfe": (1.58, 1.23), "l1_svm": (1.37, 1.31), "liblinear_svm": (1.78, 1.46), "milp_fs": (80.71, 1.0),
    "mm_fs": (120.0, 1.0), "osfsa": (0.08, 1.0), "rfe_kernel": (5.0, 0.73), "svm_linear": (0.01, 1.0),
    "svm_poly": (0.01, 1.0), "svm_rbf": (0.01, 1.0), "svm_rfe": (0.08, 0.68),
}  # fmt: skip


def fit_seconds(method: str, n: int, p: int) -> float | None:
    """The model's wall seconds of one fit of the registry method ``method`` on n x p; None when unmeasured.

    Examples
    --------
    >>> round(fit_seconds("fisher", 80, 12600), 3), round(fit_seconds("fisher", 160, 25200), 3)
    (0.03, 0.12)
    >>> fit_seconds("no_such_method", 80, 100) is None
    True
    """
    if method not in COST:
        return None
    t_ref, beta = COST[method]
    return t_ref * (p / REF_P) ** beta * (n / REF_N)


def _job_fits(config: dict, name: str) -> int:
    from ..methods.registry import method_spec
    from ..protocol.tuning import selector_fits
    from .plan import job_grid

    spec = method_spec(name, campaign_methods(config)[name])
    return selector_fits(job_grid(config, name), spec.truncation, int(config["inner_cv"]["n_splits"]))


def budget_warnings(config: dict, shape_of) -> list[str]:
    """One warning per (method, dataset) whose modelled job time exceeds its budget (``shape_of(dataset)``:
    (n, p), or None when the size is not known before the download)."""
    from ..protocol.prefilter import prefilter_of
    from .plan import select_jobs
    from .sizes import largest_training_side

    jobs: dict[tuple[str, str], int] = {}
    for d, m, _, _ in select_jobs(config):
        jobs[(m, d)] = jobs.get((m, d), 0) + 1
    warnings = []
    for (m, d), n_jobs in sorted(jobs.items()):
        mcfg = job_method_config(config, d, m)
        budget, shape = job_budget(config, mcfg), shape_of(d)
        if budget is None or shape is None or "class" in mcfg:
            continue
        n = largest_training_side(dataset_splits(config, d), shape[0])
        pre = prefilter_of(config, mcfg)
        p = min(shape[1], int(pre["keep"])) if pre else shape[1]
        t = fit_seconds(mcfg.get("method", m), n, p)
        if t is None:
            continue
        total = t * _job_fits(config, m)
        if total > budget:
            warnings.append(f"methods.{m} on {d} ({shape[0]} x {shape[1]}): about {total:.0f} s per job, {n_jobs} jobs; "
                            f"over the budget of {budget:g} s (cost model: svmfs.config.budget)")  # fmt: skip
    return warnings


def campaign_budget_warnings(config: dict, workdir=".") -> list[str]:
    """:func:`budget_warnings` with the datasets' sizes known before any download (registry ``expect``,
    synthetic generators)."""
    from .campaign import load_dataset_registry
    from .sizes import expected_shape

    if not any(job_budget(config, c) for c in campaign_methods(config).values()):
        return []
    registry = load_dataset_registry(config, workdir)
    return budget_warnings(config, lambda d: expected_shape(config, d, registry))


def check_budgets(config: dict, methods: dict) -> list[str]:
    """``limits.job_budget_s`` and ``methods.<m>.job_budget_s``: positive numbers."""
    errs = []
    places = [("limits.job_budget_s", (config.get("limits") or {}).get("job_budget_s"))]
    places += [(f"methods.{m}.job_budget_s", c.get("job_budget_s")) for m, c in methods.items()]
    for where, v in places:
        if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float)) or not v > 0 or not math.isfinite(v)):
            errs.append(f"{where}: must be a positive number of seconds, got {v!r}")
    return errs
