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
    # --- linear embedded and concave-programming methods (issue 3) ---
    "l1_svm": MethodSpec(
        "l1_svm:L1SVM",
        "linear",
        {"C": C_GRID},
        settings=("C",),
        paper="MIT 9.520 project, section 3.1 (1-norm SVM LP); threshold 1e-2 (Jimenez-Cordero 5.2)",
    ),
    "l1_rfe": MethodSpec(
        "l1_rfe:L1RFE",
        "linear",
        {"C": C_GRID, "n_features_to_select": K_GRID},
        truncation="n_features_to_select",
        paper="MIT 9.520 project, section 3.2 (1-norm RFE)",
    ),
    "fsv": MethodSpec(
        "fsv:FSV",
        "linear",
        {"C": C_GRID},
        settings=("C", "beta"),
        paper="Bradley & Mangasarian (1998); Maldonado et al. (2011), eqs. 8-9",
    ),
    "fs_svmcp": MethodSpec(
        "fs_svmcp:FSSVMCP",
        "linear",
        paper="Rinaldi & Sciandrone (2010), Algorithm FS-SVMCP (section 4.1), eqs. 11, 14-15",
    ),
    "fw1": MethodSpec(
        "fs_svmcp:FW1",
        "linear",
        paper="Rinaldi & Sciandrone (2010), FW1 algorithm on problem (16) (section 3)",
    ),
    "milp_fs": MethodSpec(
        "milp_fs:MILPFS",
        "linear",
        {"C": [0.1, 1.0, 10.0]},
        settings=("B",),
        paper="Labbe, Martinez-Merino & Rodriguez-Chia (2019), as Jimenez-Cordero et al. (2021), 4.3",
    ),
    # --- MM-FS and KP-FS off-the-shelf (Ipopt NLPs; C and the start width tuned inside fit) ---
    "mm_fs": MethodSpec(
        "mm_fs:MMFS",
        "rbf",
        settings=("C2",),
        paper="Jimenez-Cordero, Morales & Pineda (2021), problem (20), Algorithm 1",
    ),
    "kp_fs_offshelf": MethodSpec(
        "kp_fs_offshelf:KPFSOffShelf",
        "rbf",
        settings=("C", "C2"),
        paper="Maldonado, Weber & Basak (2011), eqs. 11-15; off-the-shelf as in Jimenez-Cordero et al. (2021), 4.3",
    ),
}


def get_method(name: str) -> MethodSpec:
    """The registry entry for ``name``; a clear error lists the known names."""
    try:
        return METHODS[name]
    except KeyError:
        raise KeyError(f"unknown method {name!r}; known methods: {', '.join(sorted(METHODS))}") from None
