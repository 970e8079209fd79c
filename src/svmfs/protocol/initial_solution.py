"""Algorithm 1's initial solution, tuned once per outer fold and shared (Jimenez-Cordero et al. 2021).

Section 3.3, Algorithm 1: "Input: sample division S~ and S_test, and hyperparameter C2"; its first step
picks "(C*, gamma^ini) ... the one that maximizes the averaged accuracy on S_val over the N folds", which
depends on S~ alone, not on C2. Section 4.3: "the NO-FS method boils down to the classification results
given by the initial solution of Algorithm 1". A method whose campaign config says
``initial_solution: shared`` therefore takes (C*, gamma_ini) from one inner CV per (dataset, outer fold)
(rule initial_solution, :func:`tune_initial_solution`) instead of its own:

- MM-FS (a selector with ``gamma_ini``): C = C*, gamma_ini fixed, so ``fit`` skips step 1;
- KP-FS off the shelf (a selector with ``v0``): C = C*, v0 = sqrt(2 gamma_ini) (its isotropic start);
- NO-FS (final classifier ``rbf``): the Gaussian SVM with C* and gamma_ini, the initial solution itself.

Without the key each job runs that inner CV itself with folds seeded by the job (its setting included):
the campaigns committed before the key.
"""

from __future__ import annotations

import inspect
import json
import math
from pathlib import Path

import numpy as np

from ..solvers.mmfs_nlp import PAPER_C_GRID, PAPER_GAMMA_GRID, isotropic_cv
from ..solvers.libsvm import LIBSVM_TOL
from .normalize import normalize_fold

#: Value of ``methods.<name>.initial_solution`` that reads the fold's shared initial solution.
SHARED = "shared"


def tune_initial_solution(X, y, fold: dict, normalization: dict, n_folds: int, seed: int, ties: str = "smallest",
                          libsvm_tol: float = LIBSVM_TOL) -> dict:  # fmt: skip
    """(C*, gamma_ini) of Algorithm 1's first step on the fold's training side (scaled as its select jobs
    scale it): one :func:`~svmfs.solvers.mmfs_nlp.isotropic_cv` over the paper's grids (C: 17 values,
    section 5.1; gamma: 1e-4..1e4, section 4.2), ``n_folds`` stratified inner folds seeded by ``seed``, ties by
    ``ties`` (``inner_cv.initial_solution_ties``), each SVM solved by libsvm to ``libsvm_tol``
    (``inner_cv.initial_solution_libsvm_tol``); each recorded only when not the default, so that
    the files of the campaigns without the keys stay as they were."""
    train, test = np.asarray(fold["train"]), np.asarray(fold["test"])
    Xtr = normalize_fold(X, train, test, normalization["method"], normalization.get("scope", "fold"))[0]
    C, gamma_ini, acc = isotropic_cv(Xtr, y[train], PAPER_C_GRID, PAPER_GAMMA_GRID, n_folds, seed, ties, libsvm_tol)
    out = {
        "fold": int(fold["fold"]), "C": C, "gamma_ini": gamma_ini, "cv_accuracy": acc, "seed": int(seed),
        "n_folds": int(n_folds), "n_train": int(train.size), "C_grid": PAPER_C_GRID, "gamma_grid": PAPER_GAMMA_GRID,
    }  # fmt: skip
    if ties != "smallest":
        out["ties"] = ties
    if float(libsvm_tol) != LIBSVM_TOL:
        out["libsvm_tol"] = float(libsvm_tol)
    return out


def read_initial_solution(campaign: dict) -> dict | None:
    """The fold's shared initial solution a select job reads: the JSON file at the job's
    ``campaign["initial_solution"]`` (the workflow puts the path there, and the file among the job's inputs,
    for a method with ``initial_solution: shared``), else None."""
    path = campaign.get("initial_solution")
    return json.loads(Path(path).read_text()) if path else None


def shared_kind(cls, final_kind: str) -> str | None:
    """How a method takes the shared initial solution: ``"gamma_ini"`` (MM-FS), ``"v0"`` (KP-FS), ``"rbf"``
    (a Gaussian SVM final classifier: NO-FS), or None when it cannot."""
    params = inspect.signature(cls).parameters
    if "C" in params and "gamma_ini" in params:
        return "gamma_ini"
    if "C" in params and "v0" in params:
        return "v0"
    return "rbf" if final_kind == "rbf" else None


def apply_initial_solution(cls, final_kind: str, final_cfg: dict, initial: dict) -> tuple[dict, dict]:
    """The selector's extra fixed parameters and the final classifier's config once the fold's shared
    ``initial`` (:func:`tune_initial_solution`'s output) is applied; see the module docstring."""
    C, gamma_ini = float(initial["C"]), float(initial["gamma_ini"])
    kind = shared_kind(cls, final_kind)
    if kind == "gamma_ini":
        return {"C": C, "gamma_ini": gamma_ini}, final_cfg
    if kind == "v0":
        return {"C": C, "v0": math.sqrt(2.0 * gamma_ini)}, final_cfg
    if kind == "rbf":
        if final_cfg["rbf"].get("gamma_per_feature"):
            raise ValueError("initial_solution 'shared' needs final_classifier.rbf.gamma_per_feature: false")
        return {}, {**final_cfg, "rbf": {**final_cfg["rbf"], "C": [C], "gamma": [gamma_ini]}}
    raise ValueError(f"initial_solution 'shared': {cls.__name__} takes no (C, gamma_ini) and its final classifier is {final_kind!r}, not rbf")
