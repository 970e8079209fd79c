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


#: Draws of a permutation tried before a dataset is declared too small for its folds after permutation.
MAX_DRAWS = 1000


def usable_on_every_side(y: np.ndarray, folds: list[dict], inner_splits: int) -> bool:
    """Whether every class of ``y`` keeps at least ``inner_splits`` rows on every outer training side of
    ``folds`` (each ``{"train": [...], ...}``), so the inner folds stratified on ``y`` can be drawn.

    Examples
    --------
    >>> y = np.array([0, 0, 0, 1, 1, 1])
    >>> usable_on_every_side(y, [{"train": [0, 1, 3, 4]}], 2)
    True
    >>> usable_on_every_side(y, [{"train": [0, 1, 2, 3]}], 2)
    False
    """
    y = np.asarray(y)
    classes = np.unique(y)
    for fold in folds:
        side = y[np.asarray(fold["train"], dtype=int)]
        if min(int((side == c).sum()) for c in classes) < inner_splits:
            return False
    return True


def permuted_labels_for_folds(
    y: np.ndarray, seed: int, folds: list[dict], inner_splits: int, dataset: str = "dataset"
) -> tuple[np.ndarray, int]:
    """``y`` permuted over all its rows, uniformly among the permutations under which every class still fills
    ``inner_splits`` inner folds on every outer training side of ``folds`` (the real data's splits).

    The draws of one generator seeded ``seed`` are tried in turn and the first usable one is kept (rejection
    sampling: uniform over the usable permutations; whether a draw is usable depends on the labels and the
    splits alone, never on the features, so the labels stay independent of the data). When the first draw
    is usable the result equals :func:`permuted_labels`. Returns the labels and the number of draws
    rejected; raises ``ValueError`` naming the dataset when none of :data:`MAX_DRAWS` draws is usable.

    Examples
    --------
    >>> y = np.array([0] * 6 + [1] * 6)
    >>> folds = [{"train": list(range(0, 12, 2))}, {"train": list(range(1, 12, 2))}]
    >>> yp, rejected = permuted_labels_for_folds(y, 3, folds, 2)
    >>> usable_on_every_side(yp, folds, 2), sorted(yp) == sorted(y)
    (True, True)
    """
    rng = np.random.default_rng(seed)
    y = np.asarray(y)
    for draw in range(MAX_DRAWS):
        candidate = y[rng.permutation(len(y))]
        if usable_on_every_side(candidate, folds, inner_splits):
            return candidate, draw
    raise ValueError(
        f"{AUDIT}: dataset {dataset!r} is too small for its folds after permutation: none of {MAX_DRAWS} "
        f"permutations (seed {seed}) leaves every class {inner_splits} rows (inner_cv.n_splits) on every outer "
        f"training side; lower inner_cv.n_splits or enlarge the training sides"
    )


def _best_training_side(spec: dict, count: int, n_samples: int) -> int:
    """The most rows of a class of ``count`` rows a permutation can leave on every outer training side of the
    splits ``spec`` on ``n_samples`` rows: spread evenly over the k-fold test folds, or all on the training
    side of a train/test split (``train_size`` a fraction floored, or a count)."""
    if spec["kind"] == "stratified_kfold":
        return count - -(-count // int(spec["n_splits"]))
    size = spec["train_size"]
    train = int(np.floor(size * n_samples)) if isinstance(size, float) and size < 1 else int(size)
    return min(count, train)


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
    """Some permutation keeps the folds usable: every class, at its most favourable spread over the outer
    splits, still fills the inner folds on every training side (the draws themselves are restricted to such
    permutations: :func:`permuted_labels_for_folds`)."""
    errs = []
    inner = int(config["inner_cv"]["n_splits"])
    for name in datasets:
        try:
            counts, spec = sizes(name)
        except Exception:  # the campaign check reports an unknown or broken entry itself
            continue
        if not counts:
            continue
        best = min(_best_training_side(spec, c, sum(counts)) for c in counts)
        if best < inner:
            errs.append(
                f"{AUDIT}: dataset {name!r} is too small for its folds after permutation: its smallest class "
                f"({min(counts)}) leaves at most {best} on some training side, fewer than inner_cv.n_splits = {inner}"
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
