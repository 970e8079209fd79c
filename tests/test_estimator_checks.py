"""scikit-learn's estimator checks on every registry class, binary-only declared through the estimator tags (the
filters with a multiclass definition declare multi_class), and on the one-versus-rest meta-selector."""

from __future__ import annotations

import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

from svmfs.methods.registry import METHODS

#: Registry entry -> constructor arguments that make the checks' fits cheap (small iteration and time limits,
#: small inner grids); the class's contract is the same at any value of them.
CHEAP = {
    "liblinear_svm": {"C_grid": [1.0], "cv": 2},
    "svm_rfe": {"max_iter": 200},
    "fsv": {"max_iter": 5},
    "fs_svmcp": {"C_grid": [1.0], "cv": 2, "max_iter": 5},
    "fw1": {"C_grid": [1.0], "cv": 2, "max_iter": 5},
    "milp_fs": {"time_limit": 5.0},
    "mm_fs": {"max_iter": 3, "C_grid": [1.0], "gamma_grid": [1.0], "n_folds": 2},
    "kp_fs_offshelf": {"max_iter": 3, "C_grid": [1.0], "gamma_grid": [1.0], "n_folds": 2, "n_starts": 1},
    "kp_svm": {"max_iter": 2, "n_folds": 2},
    "kp_svm_rank": {"max_iter": 2, "n_folds": 2},
}


def _instances():
    """One cheap instance per registry class (entries sharing a class with the same parameters give one)."""
    seen, out = set(), []
    for name, spec in METHODS.items():
        cls = spec.load()
        params = {**spec.params, **{k: v for k, v in CHEAP.get(name, {}).items()}}
        key = (cls, repr(sorted(params.items())))
        if key not in seen:
            seen.add(key)
            out.append(cls(**params))
    return out


def _meta_instances():
    """The one-versus-rest meta-selector (a multiclass dataset's binary selectors run through it) over a cheap
    ranking selector and a cheap selector without a ranking."""
    from svmfs.methods.l1_svm import L1SVM
    from svmfs.methods.one_vs_rest import OneVsRestSelector
    from svmfs.methods.svm_rfe import SVMRFE

    return [OneVsRestSelector(SVMRFE(max_iter=200)), OneVsRestSelector(L1SVM())]


@parametrize_with_checks(_instances() + _meta_instances())
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)
