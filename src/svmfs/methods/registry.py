"""Registry of selection methods: config name -> selector class and how the campaign uses it.

A new method is one module holding one selector class plus one entry here (and its tests).
Classes are imported lazily so a campaign that does not use a solver-heavy method never imports it.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class MethodSpec:
    """How the workflow runs one method.

    Attributes
    ----------
    target : "module:Class" below ``svmfs.methods``.
    final : the classifier refitted on the selected features: ``"linear"``, ``"poly"`` or ``"rbf"`` SVM.
    default_grid : inner-CV grid used when the campaign gives none (parameter -> list of values).
    settings : parameters that may be swept as job-level settings (one job per value).
    truncation : the size parameter read off ``ranking_`` without refitting (for ranking methods).
    paper : where the method is specified.
    """

    target: str
    final: str
    default_grid: dict[str, list[Any]] = field(default_factory=dict)
    settings: tuple[str, ...] = ()
    truncation: str | None = None
    paper: str = ""

    def load(self):
        module, _, cls = self.target.partition(":")
        return getattr(importlib.import_module(f"svmfs.methods.{module}"), cls)


C_GRID = [2.0**k for k in range(-5, 11, 3)]
K_GRID = [2, 5, 10, 20, 50, 100]

METHODS: dict[str, MethodSpec] = {
    "svm_linear": MethodSpec(
        "no_selection:NoSelection", "linear", paper="baseline: linear SVM on all features"
    ),
    "svm_rbf": MethodSpec(
        "no_selection:NoSelection", "rbf", paper="baseline: Gaussian SVM on all features (NO-FS)"
    ),
    "svm_poly": MethodSpec(
        "no_selection:NoSelection", "poly", paper="baseline: polynomial SVM on all features (Maldonado Table 2)"
    ),
    "fisher": MethodSpec(
        "fisher:FisherScore",
        "linear",
        {"n_features_to_select": K_GRID},
        settings=("n_features_to_select",),
        truncation="n_features_to_select",
        paper="Maldonado, Weber & Basak (2011), eq. 5",
    ),
    "svm_rfe": MethodSpec(
        "svm_rfe:SVMRFE",
        "linear",
        {"C": C_GRID, "n_features_to_select": K_GRID},
        settings=("n_features_to_select", "C"),
        truncation="n_features_to_select",
        paper="Guyon et al. (2002); MIT 9.520 project, section 2.2",
    ),
}


def get_method(name: str) -> MethodSpec:
    """The registry entry for ``name``; a clear error lists the known names."""
    try:
        return METHODS[name]
    except KeyError:
        raise KeyError(f"unknown method {name!r}; known methods: {', '.join(sorted(METHODS))}") from None
