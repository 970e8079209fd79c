"""Stability of the selected subsets over the outer folds (pure functions, no solver).

* :func:`nogueira_stability` and :func:`nogueira_confidence_interval`: the estimator and the
  asymptotic normal confidence interval of Nogueira, Sechidis & Brown, "On the stability of feature
  selection algorithms", JMLR 18(174), 2018 (Definition 4, Theorem 1/Proposition on its variance).
* :func:`kuncheva_index`: mean pairwise consistency index of Kuncheva (2007), equal subset sizes.
* :func:`lustgarten_index`: its generalisation to unequal sizes (Lustgarten, Gopalakrishnan &
  Visweswaran, AMIA 2009), ``(r - ka kb / d) / (min(ka, kb) - max(0, ka + kb - d))``.
* :func:`mean_jaccard`: mean pairwise Jaccard index.

Undefined inputs raise ``ValueError`` in every function (fewer than 2 runs; every run selecting no
feature or all ``d`` features, where the Nogueira/Kuncheva/Lustgarten denominators vanish; unequal
sizes for Kuncheva). :func:`stability_table` turns such cases into NaN so one degenerate group
(e.g. the all-features baseline) does not stop the table.
"""

from __future__ import annotations

import json
from itertools import combinations

import numpy as np
import pandas as pd
from scipy.stats import norm

from ..results.io import atomic_write_text
from ..results.record import FLOAT_FORMAT

GROUP_KEYS = ["campaign", "dataset", "method", "setting"]


def _as_matrix(Z) -> np.ndarray:
    Z = np.asarray(Z)
    if Z.ndim != 2:
        raise ValueError(f"Z must be an (M runs x d features) matrix, got shape {Z.shape}")
    if not np.isin(Z, (0, 1)).all():
        raise ValueError("Z must contain only 0/1 (or booleans)")
    M, d = Z.shape
    if M < 2:
        raise ValueError("stability needs at least 2 runs")
    k_bar = Z.sum(axis=1).mean()
    if k_bar == 0 or k_bar == d:
        raise ValueError("stability is undefined when every run selects no feature or all features")
    return Z.astype(float)


def subsets_to_matrix(subsets, d: int) -> np.ndarray:
    """0/1 matrix (runs x d) from a list of index collections."""
    Z = np.zeros((len(subsets), int(d)), dtype=np.int8)
    for i, s in enumerate(subsets):
        Z[i, np.asarray(list(s), dtype=int)] = 1
    return Z


def nogueira_stability(Z) -> float:
    """Phi_hat = 1 - mean_f s_f^2 / (k_bar/d (1 - k_bar/d)), s_f^2 = M/(M-1) p_f (1 - p_f).

    ``p_f`` is the fraction of runs selecting feature f and ``k_bar`` the mean subset size
    (Nogueira et al. 2018, Definition 4). Equal to 1 iff all runs select the same subset; its
    expectation is 0 for random subsets of the observed sizes. Raises ``ValueError`` if M < 2 or
    if every run selects no feature or all features (0/0).
    """
    Z = _as_matrix(Z)
    M, d = Z.shape
    p = Z.mean(axis=0)
    k_bar = p.sum()
    s2 = M / (M - 1) * p * (1.0 - p)
    return float(1.0 - s2.mean() / (k_bar / d * (1.0 - k_bar / d)))


def nogueira_confidence_interval(Z, alpha: float = 0.05) -> tuple[float, float, float]:
    """(Phi_hat, lower, upper): the asymptotic normal (1 - alpha) interval of Nogueira et al. (2018).

    Var(Phi_hat) = 4/M^2 sum_i (phi_i - mean phi)^2 with, for run i of size k_i,
    phi_i = [ (1/d) sum_f z_if p_f - k_i k_bar/d^2 + Phi_hat/2 (2 k_i k_bar/d^2 - k_i/d - k_bar/d + 1) ]
            / (k_bar/d (1 - k_bar/d)),
    as in the paper and its reference code (getVarianceofStability). The bounds are not clipped
    to Phi's range.
    """
    Z = _as_matrix(Z)
    M, d = Z.shape
    p = Z.mean(axis=0)
    k_bar = p.sum()
    k = Z.sum(axis=1)
    phi_hat = nogueira_stability(Z)
    denom = k_bar / d * (1.0 - k_bar / d)
    phi = (Z @ p / d - k * k_bar / d**2 + phi_hat / 2 * (2 * k * k_bar / d**2 - k / d - k_bar / d + 1)) / denom
    var = 4.0 / M**2 * np.sum((phi - phi.mean()) ** 2)
    half = norm.ppf(1 - alpha / 2) * np.sqrt(var)
    return phi_hat, float(phi_hat - half), float(phi_hat + half)


def _sets(subsets) -> list[frozenset]:
    sets = [frozenset(int(j) for j in s) for s in subsets]
    if len(sets) < 2:
        raise ValueError("stability needs at least 2 subsets")
    return sets


def kuncheva_index(subsets, d: int) -> float:
    """Mean over pairs of KI(A, B) = (r d - k^2) / (k (d - k)), r = |A & B|, k = |A| = |B|.

    Requires all subsets to have the same size k with 0 < k < d, otherwise ``ValueError`` (use
    :func:`lustgarten_index` for unequal sizes).
    """
    sets = _sets(subsets)
    sizes = {len(s) for s in sets}
    if len(sizes) != 1:
        raise ValueError(f"Kuncheva's index needs equal subset sizes, got {sorted(sizes)}")
    k = sizes.pop()
    if k == 0 or k >= d:
        raise ValueError(f"Kuncheva's index is undefined for k = {k}, d = {d}")
    return float(np.mean([(len(a & b) * d - k * k) / (k * (d - k)) for a, b in combinations(sets, 2)]))


def lustgarten_index(subsets, d: int) -> float:
    """Mean over pairs of (r - ka kb / d) / (min(ka, kb) - max(0, ka + kb - d)) (Lustgarten et al. 2009).

    Defined for unequal sizes; ``ValueError`` if a pair's denominator is 0 (a subset empty or full).
    """
    vals = []
    for a, b in combinations(_sets(subsets), 2):
        ka, kb = len(a), len(b)
        den = min(ka, kb) - max(0, ka + kb - d)
        if den == 0:
            raise ValueError(f"Lustgarten's index is undefined for sizes {ka}, {kb} of d = {d}")
        vals.append((len(a & b) - ka * kb / d) / den)
    return float(np.mean(vals))


def mean_jaccard(subsets) -> float:
    """Mean over pairs of |A & B| / |A | B|; a pair of two empty subsets counts as 1 (identical)."""
    vals = [len(a & b) / len(a | b) if a | b else 1.0 for a, b in combinations(_sets(subsets), 2)]
    return float(np.mean(vals))


def parse_selected(v) -> list[int]:
    """The ``selected`` record field: a list/array of 0-based indices or its JSON string (the store)."""
    if isinstance(v, str):
        v = json.loads(v)
    if v is None or (np.ndim(v) == 0 and pd.isna(v)):
        raise ValueError("missing 'selected' field")
    return [int(j) for j in v]


def _nan_on_error(f, *args):
    try:
        return f(*args)
    except ValueError:
        return np.nan


def stability_table(records: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """Stability over the outer folds, one row per (campaign, dataset, method, setting).

    Uses the ``selected`` column (0-based indices of the selected features; a list or the store's
    JSON string) and ``n_features_total``. All folds count, failed ones included: a failing solver
    still leaves the support that was evaluated. Undefined indices (one fold, all folds selecting
    nothing or everything, unequal sizes for Kuncheva) are NaN. ``campaign`` is used when present.
    """
    keys = [c for c in GROUP_KEYS if c in records.columns]
    rows = []
    for key, g in records.groupby(keys, sort=True, dropna=False):
        d = g["n_features_total"].astype(int).unique()
        if d.size != 1:
            raise ValueError(f"{key}: folds disagree on n_features_total {sorted(d)}")
        d = int(d[0])
        subsets = [parse_selected(v) for v in g["selected"]]
        Z = subsets_to_matrix(subsets, d)
        ci = _nan_on_error(nogueira_confidence_interval, Z, alpha)
        phi, lo, hi = ci if isinstance(ci, tuple) else (np.nan, np.nan, np.nan)
        sizes = Z.sum(axis=1)
        rows.append(
            {
                **dict(zip(keys, key)),
                "folds": len(subsets),
                "n_features_total": d,
                "n_selected_mean": float(sizes.mean()),
                "n_selected_min": int(sizes.min()),
                "n_selected_max": int(sizes.max()),
                "nogueira": phi,
                "nogueira_ci_low": lo,
                "nogueira_ci_high": hi,
                "kuncheva": _nan_on_error(kuncheva_index, subsets, d),
                "lustgarten": _nan_on_error(lustgarten_index, subsets, d),
                "jaccard": _nan_on_error(mean_jaccard, subsets),
            }
        )
    return pd.DataFrame(rows)


def write_stability(records: pd.DataFrame, csv, alpha: float = 0.05) -> None:
    table = stability_table(records, alpha)
    atomic_write_text(csv, table.to_csv(index=False, float_format=FLOAT_FORMAT, lineterminator="\n"))
