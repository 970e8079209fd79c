"""The null-label audit: every protocol of a campaign run again on its datasets with the labels permuted.

A protocol free of selection bias reports chance on labels that carry nothing; one that selects, scales or
tunes with the test rows reports more (Ambroise & McLachlan 2002, sec. 3; Varma & Simon 2006). Permutation
``p`` of a dataset's labels is drawn over the whole data set from a seed derived from the audit's seed, the
dataset's replicate group and ``p`` (:func:`permutation_seed`): the replicates of one group (fresh draws of
one generator, the same number of rows) are permuted alike. The outer splits are the real data's (the same
splits file); every select job (and every audit the campaign switches on) runs again on the permuted labels
with its own seed, so its inner folds come from the same seeded splitter, stratified on the permuted labels.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .seeds import derive_seed

#: The audit's name in the campaign's ``audits``.
AUDIT = "null_labels"


def null_labels_on(config: dict) -> bool:
    """Whether the campaign switches the null-label audit on."""
    return AUDIT in (config.get("audits") or [])


def null_labels_block(config: dict) -> dict[str, Any]:
    """The campaign's ``null_labels`` block (``permutations``, ``seed``); the seed defaults to the campaign's."""
    block = dict(config.get(AUDIT) or {})
    block.setdefault("seed", config.get("seed", 0))
    return block


def permutation_seed(audit_seed: int, group: str, permutation: int) -> int:
    """The seed of permutation ``permutation`` of the labels of the datasets of replicate group ``group``
    (a dataset without replicates is its own group)."""
    return derive_seed(audit_seed, AUDIT, group, permutation)


def permuted_labels(y: np.ndarray, seed: int) -> np.ndarray:
    """``y`` permuted over all its rows by a generator seeded ``seed`` (class counts unchanged)."""
    rng = np.random.default_rng(seed)
    return np.asarray(y)[rng.permutation(len(y))]


def _largest_test_side(spec: dict, n_samples: int) -> int:
    """Rows of the largest outer test side of the splits ``spec`` on ``n_samples`` rows (k-fold test folds differ
    in size by at most one; a train/test split keeps ``train_size`` rows, a fraction floored, for training)."""
    if spec["kind"] == "stratified_kfold":
        return -(-n_samples // int(spec["n_splits"]))
    size = spec["train_size"]
    return n_samples - (int(np.floor(size * n_samples)) if isinstance(size, float) and size < 1 else int(size))


def _check_block(config: dict) -> list[str]:
    block = config.get(AUDIT)
    if block is None:
        return []
    errs = []
    if not null_labels_on(config):
        errs.append(f"{AUDIT}: the block is set but the campaign's audits do not name {AUDIT}; add it to audits")
    if not isinstance(block, dict):
        return errs + [f"{AUDIT}: a mapping with permutations (and seed) is needed, not {block!r}"]
    k = block.get("permutations")
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        errs.append(f"{AUDIT}.permutations: a positive integer is needed, not {k!r}")
    seed = block.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        errs.append(f"{AUDIT}.seed: a non-negative integer is needed, not {seed!r}")
    return errs


def _check_sizes(config: dict, datasets, sizes) -> list[str]:
    """Every permutation keeps the folds usable: the smallest class, less the largest outer test side (the
    most of it a permutation can move there), still fills the inner folds on every training side."""
    errs = []
    inner = int(config["inner_cv"]["n_splits"])
    for name in datasets:
        try:
            counts, spec = sizes(name)
        except Exception:  # the campaign check reports an unknown or broken entry itself
            continue
        if not counts:
            continue
        test = _largest_test_side(spec, sum(counts))
        worst = min(counts) - test
        if worst < inner:
            errs.append(
                f"{AUDIT}: dataset {name!r} is too small for its folds after permutation: its smallest class "
                f"({min(counts)}) less its largest outer test side ({test}) leaves {worst} on a training side, "
                f"fewer than inner_cv.n_splits = {inner}"
            )
    return errs


def check_null_labels(config: dict, datasets=(), sizes=None) -> list[str]:
    """The null-label audit's config errors, each naming its key (empty when the audit is off and unset).

    ``datasets``: the campaign's (expanded) dataset names; ``sizes``: name -> (class counts known before any
    job or None, the dataset's outer splits spec), as the campaign check knows them; without it the dataset
    sizes are not checked.
    """
    errs = _check_block(config)
    if null_labels_on(config) and config.get(AUDIT) is None:
        errs.append(f"audits: {AUDIT} needs a {AUDIT} block with permutations (a positive integer)")
    if not errs and null_labels_on(config) and sizes is not None:
        errs += _check_sizes(config, datasets, sizes)
    return errs


def permutations(config: dict) -> list[int]:
    """The permutation indices the campaign runs (none when the audit is off)."""
    return list(range(int(null_labels_block(config)["permutations"]))) if null_labels_on(config) else []
