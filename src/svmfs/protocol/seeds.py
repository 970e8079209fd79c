"""Seeds derived from names, so every random choice is reproducible and independent of job order.

Every seed of a campaign comes from its ``seed`` (the campaign seed) and the names of what it seeds
(design.md, "Reproducibility"); the workflow's rules and the benchmarks that redo a campaign's jobs take
them from the functions here, so the formula is written once. Committed records hold these seeds: the
functions must keep giving the same numbers (tests/test_seeds.py).
"""

from __future__ import annotations

import hashlib


def derive_seed(base: int, *parts: object) -> int:
    """A 32-bit seed from the campaign seed and any names (dataset, fold, method, ...)."""
    text = "\x1f".join([str(int(base)), *map(str, parts)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "little")


def job_seed(campaign_seed: int, dataset: str, fold: int | str, method: str, setting: str) -> int:
    """The seed of the select job (dataset, fold, method, setting): its inner-CV folds and its selector's
    ``random_state``; the global-selection audit's inner CV on that fold takes it too."""
    return derive_seed(campaign_seed, dataset, fold, method, setting)


def splits_seed(campaign_seed: int, dataset: str) -> int:
    """The seed of a dataset's outer splits (rule split)."""
    return derive_seed(campaign_seed, "splits", dataset)


def data_seed(campaign_seed: int, dataset: str) -> int:
    """The seed of a generated dataset (rule prepare: synthetic generators, replicates)."""
    return derive_seed(campaign_seed, "data", dataset)


def audit_global_seed(campaign_seed: int, dataset: str, method: str, setting: str) -> int:
    """The seed of the global-selection audit's selection on all samples (rule audit_global)."""
    return derive_seed(campaign_seed, "audit_global", dataset, method, setting)


def initial_solution_seed(campaign_seed: int, dataset: str, fold: int | str) -> int:
    """The seed of a fold's shared initial solution (rule initial_solution): the inner folds of Algorithm 1's
    (C*, gamma_ini) CV, one draw per (dataset, outer fold), shared by every setting that reads it."""
    return derive_seed(campaign_seed, "initial_solution", dataset, fold)
