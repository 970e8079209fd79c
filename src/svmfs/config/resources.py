"""A select job's resources and the warnings a campaign earns before it runs: jobs that can outlast their
runtime, jobs that fit more models than ``limits.max_fits_per_job``."""

from __future__ import annotations

from .campaign import campaign_datasets, campaign_methods, dataset_methods, job_method_config
from .plan import job_grid


def method_resources(config: dict, method: str, key: str):
    """A select job's resource ``key`` (mem_mb, runtime, threads): the method's own, else ``resources.select``."""
    return campaign_methods(config)[method].get("resources", {}).get(key, config["resources"]["select"][key])


def runtime_warnings(config: dict) -> list[str]:
    """Methods whose select job can outlast its ``resources.runtime``: every fit of the job (inner folds
    x grid points, then the refit on the training side) stopped by the method's ``time_limit`` (the
    largest over the datasets' ``method_params``). A scheduler would kill such a job before the method's
    own limit ends it with status ``time_limit``. A warning, not an error: most fits end far sooner."""
    from ..methods.registry import method_spec
    from ..protocol.tuning import selector_fits

    warnings = []
    for name, mcfg in campaign_methods(config).items():
        spec = method_spec(name, mcfg)
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


def fit_count_warnings(config: dict) -> list[str]:
    """Methods whose select job fits more than ``limits.max_fits_per_job`` models: the selector over its
    grid and the final classifier over the joint grid (:func:`~svmfs.protocol.tuning.classifier_fits`).
    A warning, not an error: such a job is legitimate, but likely a grid made larger than meant."""
    from ..methods.registry import method_spec
    from ..protocol.classifiers import final_grid
    from ..protocol.tuning import classifier_fits, selector_fits

    bound, k = int(config["limits"]["max_fits_per_job"]), int(config["inner_cv"]["n_splits"])
    warnings = []
    for name, mcfg in campaign_methods(config).items():
        spec = method_spec(name, mcfg)
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
