"""Outer splits, computed once per dataset and shared by every method.

Kinds (config key ``splits.kind``):
- ``stratified_kfold``: stratified k-fold, optionally repeated (``n_splits``, ``n_repeats``);
- ``random_train_test``: ``n_instances`` stratified random train/test splits with ``train_size`` and
  ``test_size`` given as counts or fractions (Rinaldi & Sciandrone: 10 instances of their Tr/Ts);
  ``stratify: false`` draws them at random without stratification (Catala & Martin, section 5.1:
  random training sets of a given size from one balanced pool, not themselves balanced);
  ``validation_size`` (a count) reserves that many further points per instance, apart from both
  sides, drawn at random from what the training side leaves (Catala & Martin, section 5.2: "a
  validation set of 100 examples" beside training sets of 25..300 points);
- ``kp_svm``: the protocol of Maldonado et al. (2011), section 5: one stratified train/test split
  per instance (``train_size``); selection and tuning on the training side (by inner CV); the test
  side is split ``n_resamples`` times into ``fit_fraction`` (60 %) to train the final classifier and
  the rest (40 %) to test it, stratified; the reported error is the mean over the resamples.

Each fold is ``{"fold": k, "train": [...], "test": [...]}`` with sorted indices; ``kp_svm`` folds
also carry ``"evaluation": [{"fit": [...], "test": [...]}, ...]``, folds with ``validation_size`` a
``"validation": [...]``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.model_selection import RepeatedStratifiedKFold, ShuffleSplit, StratifiedShuffleSplit


class SplitError(ValueError):
    """A split specification that cannot be applied to a dataset."""


def _size(value, n: int):
    return value if isinstance(value, float) and value < 1 else int(value)


def make_splits(y: np.ndarray, spec: dict[str, Any], seed: int, dataset: str = "") -> list[dict]:
    """Outer folds for labels ``y`` according to ``spec`` (the campaign's ``splits`` section)."""
    y = np.asarray(y)
    kind = spec.get("kind", "stratified_kfold")
    smallest = int(min(np.sum(y == c) for c in np.unique(y)))
    folds: list[dict] = []
    if kind == "stratified_kfold":
        k, reps = int(spec.get("n_splits", 10)), int(spec.get("n_repeats", 1))
        if k > smallest:
            raise SplitError(
                f"dataset {dataset!r}: splits.n_splits = {k} exceeds the smallest class ({smallest} samples)"
            )
        cv = RepeatedStratifiedKFold(n_splits=k, n_repeats=reps, random_state=seed)
        pairs = cv.split(np.zeros(len(y)), y)
    elif kind in ("random_train_test", "kp_svm"):
        n_inst = int(spec.get("n_instances", 10 if kind == "random_train_test" else 1))
        train = _size(spec["train_size"], len(y))
        test = spec.get("test_size")
        test = None if test is None else _size(test, len(y))
        n_val = _validation_count(spec, dataset)
        if n_val and test is not None:  # the test side as drawn, plus the validation points, split apart below
            test = int(test) + n_val
        stratify = spec.get("stratify", True)
        if not isinstance(stratify, bool):
            raise SplitError(f"dataset {dataset!r}: splits.stratify must be true or false, got {stratify!r}")
        splitter = StratifiedShuffleSplit if stratify else ShuffleSplit
        try:
            cv = splitter(n_splits=n_inst, train_size=train, test_size=test, random_state=seed)
            pairs = list(cv.split(np.zeros(len(y)), y))
        except ValueError as e:
            raise SplitError(f"dataset {dataset!r}: splits.train_size/test_size: {e}") from None
        if n_val and len(pairs[0][1]) <= n_val:
            raise SplitError(f"dataset {dataset!r}: splits.validation_size = {n_val} leaves no test side "
                             f"({len(pairs[0][1])} points beside the training side)")
        if n_val:
            rng = np.random.default_rng(seed)
            pairs = [(tr, te, rng.permutation(te)) for tr, te in pairs]
            pairs = [(tr, np.sort(perm[n_val:]), np.sort(perm[:n_val])) for tr, _, perm in pairs]
    else:
        raise SplitError(f"unknown splits.kind {kind!r}")
    for k, (tr, te, *val) in enumerate(pairs):
        fold = {"fold": k, "train": sorted(map(int, tr)), "test": sorted(map(int, te))}
        if val:
            fold["validation"] = sorted(map(int, val[0]))
        if kind == "kp_svm":
            fold["evaluation"] = _resample_test_side(y, np.asarray(fold["test"]), spec, seed + k, dataset)
        folds.append(fold)
    return folds


def _validation_count(spec: dict, dataset: str) -> int:
    """``splits.validation_size``: a count of points (0 when unset)."""
    n_val = spec.get("validation_size", 0)
    if isinstance(n_val, bool) or not isinstance(n_val, int) or n_val < 0:
        raise SplitError(f"dataset {dataset!r}: splits.validation_size must be a count of points (an integer >= 1), got {n_val!r}")
    return n_val


def _resample_test_side(y, test_idx, spec, seed, dataset) -> list[dict]:
    """Maldonado et al. section 5: split the test side repeatedly into fit (60 %) / test (40 %)."""
    n_res = int(spec.get("n_resamples", 100))
    frac = float(spec.get("fit_fraction", 0.6))
    try:
        cv = StratifiedShuffleSplit(n_splits=n_res, train_size=frac, random_state=seed)
        pairs = list(cv.split(np.zeros(len(test_idx)), y[test_idx]))
    except ValueError as e:
        raise SplitError(f"dataset {dataset!r}: splits.fit_fraction on the test side: {e}") from None
    return [
        {"fit": sorted(map(int, test_idx[a])), "test": sorted(map(int, test_idx[b]))} for a, b in pairs
    ]
