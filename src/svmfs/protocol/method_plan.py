"""What a select job and the global-selection audit both fit: the method's plan (registry entry, inner-CV
grid, fixed parameters, final classifier) and the factory that builds its selector with the job's seed.

Below both :mod:`.select_job` and :mod:`.audits`, so that neither imports the other for it.
"""

from __future__ import annotations

import inspect

from ..methods.registry import method_spec
from .multiclass import wrap_selector_factory


def selector_factory(cls, fixed: dict, seed: int, y=None):
    """``make(**params)``: a ``cls`` selector with ``fixed`` and ``params`` (``params`` win), and
    ``random_state=seed`` when the class takes one and neither sets it. ``y``: the dataset's labels; with three
    or more classes a binary ``cls`` runs one versus rest (:func:`~svmfs.protocol.multiclass.wrap_selector_factory`)."""
    accepts_seed = "random_state" in inspect.signature(cls).parameters

    def make(**params):
        kw = {**fixed, **params}
        if accepts_seed and "random_state" not in kw:
            kw["random_state"] = seed
        return cls(**kw)

    return wrap_selector_factory(make, cls, y)


def method_plan(method_name: str, method_cfg: dict, setting: dict | None = None):
    """The method's registry entry, its inner-CV grid (without the job's setting), its fixed parameters
    (registry defaults, the config's params, the setting; none also in the grid) and its final
    classifier kind: what a select job and the global-selection audit both fit."""
    spec = method_spec(method_name, method_cfg)
    setting = dict(setting or {})
    grid = {k: list(v) for k, v in (method_cfg.get("grid") or spec.default_grid).items() if k not in setting}
    fixed = {**spec.params, **method_cfg.get("params", {}), **setting}
    fixed = {k: v for k, v in fixed.items() if k not in grid}
    return spec, grid, fixed, method_cfg.get("final", spec.final)
