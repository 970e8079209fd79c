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
    final : the classifier refitted on the selected features: ``"linear"``, ``"poly"`` or ``"rbf"`` SVM, or
        ``"anisotropic"``: the Gaussian SVM with the selector's fitted ``kernel_widths_`` (only C tuned).
        A campaign's ``methods.<name>.final`` overrides it (``"own"``: a LinearModelSelector's hyperplane).
    default_grid : inner-CV grid used when the campaign gives none (parameter -> list of values).
    settings : parameters that may be swept as job-level settings (one job per value).
    truncation : the parameter read off one fit without refitting: a size read off ``ranking_`` (ranking
        methods), or another quantity where the class says so (``truncation_is_size``: iFSA's fraction).
    params : fixed constructor arguments of this entry (e.g. the kernel of a dFSA variant); a
        campaign's ``params``, grid and settings override them.
    paper : where the method is specified.
    """

    target: str
    final: str
    default_grid: dict[str, list[Any]] = field(default_factory=dict)
    settings: tuple[str, ...] = ()
    truncation: str | None = None
    paper: str = ""
    params: dict[str, Any] = field(default_factory=dict)

    def load(self):
        module, _, cls = self.target.partition(":")
        return getattr(importlib.import_module(f"svmfs.methods.{module}"), cls)


C_GRID = [2.0**k for k in range(-5, 11, 3)]
K_GRID = [2, 5, 10, 20, 50, 100]

METHODS: dict[str, MethodSpec] = {
    "svm_linear": MethodSpec(
        "no_selection:NoSelection", "linear", paper="baseline: linear SVM on all features"
    ),
    "liblinear_svm": MethodSpec(
        "liblinear_svm:LinearSVMAllFeatures",
        "linear",
        paper="Rinaldi & Sciandrone (2010), Tables 1-2 \"SVM\": problem (14) on all features, C by k-fold CV (sec. 2)",
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
    # --- linear embedded and concave-programming methods ---
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
        "anisotropic",
        settings=("C2", "C"),
        paper="Jimenez-Cordero, Morales & Pineda (2021), problem (20), Algorithm 1",
    ),
    "kp_fs_offshelf": MethodSpec(
        "kp_fs_offshelf:KPFSOffShelf",
        "anisotropic",
        settings=("C", "C2"),
        paper="Maldonado, Weber & Basak (2011), eqs. 11-15; off-the-shelf as in Jimenez-Cordero et al. (2021), 4.3",
    ),
    # --- KP-SVM and kernel RFE (Maldonado) ---
    "kp_svm": MethodSpec(
        "kp_svm:KPSVM",
        "anisotropic",
        settings=("C2", "beta", "step", "eps", "v0"),
        paper="Maldonado, Weber & Basak (2011), Algorithm 1 (section 4.2), eqs. 11, 13-16; C, v0 by isotropic CV in fit",
    ),
    "kp_svm_rank": MethodSpec(
        "kp_svm_rank:KPSVMRank",
        "rbf",
        {"n_features_to_select": K_GRID},
        settings=("n_features_to_select", "C2"),
        truncation="n_features_to_select",
        paper="Maldonado, Weber & Basak (2011), Algorithm 2 (section 4.3) and the ranking of section 7",
    ),
    "rfe_kernel": MethodSpec(
        "rfe_kernel:RFEKernel",
        "rbf",
        {"C": C_GRID, "n_features_to_select": K_GRID},
        settings=("n_features_to_select", "C"),
        truncation="n_features_to_select",
        paper="Guyon et al. (2002) nonlinear SVM-RFE as in Maldonado, Weber & Basak (2011), section 3, eqs. 6-7",
    ),
    # --- kernel-alignment filters (Catala & Martin) ---
    "osfsa": MethodSpec(
        "osfsa:OSFSA",
        "linear",
        {"n_features_to_select": K_GRID},
        settings=("n_features_to_select",),
        truncation="n_features_to_select",
        paper="Catala & Martin, section 3.1 (osFSA), eq. 1",
    ),
    "ifsa": MethodSpec(
        "ifsa:IFSA",
        "linear",
        {"alignment_fraction": [0.85, 0.9, 0.95, 1.0]},
        settings=("alignment_fraction",),
        truncation="alignment_fraction",
        paper="Catala & Martin, section 3.2, Algorithm 1, eq. 2; r by alignment fraction (section 4.1)",
    ),
    "dfsa_linear": MethodSpec(
        "dfsa:DFSA",
        "linear",
        paper="Catala & Martin, section 5, Algorithm 2, eq. 3",
        params={"kernel": "linear"},
    ),
    "dfsa_poly2": MethodSpec(
        "dfsa:DFSA",
        "poly",
        paper="Catala & Martin, section 5, Algorithm 2, eq. 4 (quadratic kernel, sections 5.1-5.2)",
        params={"kernel": "poly", "degree": 2},
    ),
    "dfsa_rbf": MethodSpec(
        "dfsa:DFSA",
        "rbf",
        settings=("gamma",),
        paper="Catala & Martin, section 5, Algorithm 2, eqs. 5-6",
        params={"kernel": "rbf"},
    ),
    "info_gain": MethodSpec(
        "info_gain:InfoGain",
        "linear",
        {"n_features_to_select": K_GRID},
        settings=("n_features_to_select",),
        truncation="n_features_to_select",
        paper="Information gain baseline of Catala & Martin, section 4.1 (Forman 2003)",
    ),
    "correlation": MethodSpec(
        "correlation:Correlation",
        "linear",
        {"n_features_to_select": K_GRID},
        settings=("n_features_to_select", "measure"),
        truncation="n_features_to_select",
        paper="Golub signal-to-noise / |Pearson| filter (Catala & Martin, section 5, 'correlation')",
    ),
}


def get_method(name: str) -> MethodSpec:
    """The registry entry for ``name``; a clear error lists the known names."""
    try:
        return METHODS[name]
    except KeyError:
        raise KeyError(f"unknown method {name!r}; known methods: {', '.join(sorted(METHODS))}") from None


def method_spec(name: str, method_cfg: dict):
    """The spec ``methods.<name>`` runs: the :mod:`.external` spec of a class by import path (``class:``), else
    the registry entry its ``method`` (default: ``name``) names."""
    from .external import external_spec, is_external

    return external_spec(method_cfg) if is_external(method_cfg) else get_method(method_cfg.get("method", name))


def method_module(name: str, method_cfg: dict) -> str:
    """The module below ``svmfs.methods`` whose code ``methods.<name>`` runs (``external`` for a class by
    import path, whose own source :func:`svmfs.methods.external.class_source_hash` fingerprints)."""
    from .external import is_external

    return "external" if is_external(method_cfg) else method_spec(name, method_cfg).target.partition(":")[0]
