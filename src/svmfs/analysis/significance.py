"""Comparing methods over several datasets (Demsar, "Statistical comparisons of classifiers over
multiple data sets", JMLR 7, 2006): Friedman test with the Iman-Davenport F variant, Nemenyi
critical difference, pairwise Wilcoxon signed-rank tests with Holm's correction.

``scores`` is a DataFrame with one row per dataset and one column per method. Rank 1 is the best
method; ties get the average of the ranks they span (Demsar section 3.2.2).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np
import pandas as pd
from scipy import stats


def _check(scores: pd.DataFrame) -> pd.DataFrame:
    if scores.isna().to_numpy().any():
        raise ValueError("scores contain NaN: drop or impute the incomplete datasets first")
    if scores.shape[0] < 2 or scores.shape[1] < 2:
        raise ValueError(f"need at least 2 datasets and 2 methods, got {scores.shape}")
    return scores.astype(float)


def average_ranks(scores: pd.DataFrame, higher_is_better: bool = True) -> pd.Series:
    """Mean over datasets of each method's rank within the dataset (1 = best, ties averaged)."""
    scores = _check(scores)
    signed = -scores.to_numpy() if higher_is_better else scores.to_numpy()
    ranks = stats.rankdata(signed, axis=1, method="average")
    return pd.Series(ranks.mean(axis=0), index=scores.columns, name="average_rank")


@dataclass(frozen=True)
class FriedmanResult:
    statistic: float  # Friedman chi^2_F, k - 1 degrees of freedom
    pvalue: float
    iman_davenport: float  # F_F, (k - 1, (k - 1)(N - 1)) degrees of freedom
    iman_davenport_pvalue: float
    average_ranks: pd.Series
    n_datasets: int
    n_methods: int


def friedman_test(scores: pd.DataFrame, higher_is_better: bool = True) -> FriedmanResult:
    """chi^2_F = 12N/(k(k+1)) [sum_j R_j^2 - k(k+1)^2/4] and F_F = (N-1) chi^2_F / (N(k-1) - chi^2_F).

    Demsar (2006) eqs. in section 3.2.2, with no correction for ties (Demsar's worked example;
    ``scipy.stats.friedmanchisquare`` divides by a tie correction and agrees when there are no ties).
    F_F is +inf when the ranks are identical on every dataset (chi^2_F = N(k-1)); its p-value is then 0.
    """
    R = average_ranks(scores, higher_is_better)
    N, k = scores.shape
    chi2 = 12.0 * N / (k * (k + 1)) * (np.sum(R.to_numpy() ** 2) - k * (k + 1) ** 2 / 4.0)
    p = float(stats.chi2.sf(chi2, k - 1))
    den = N * (k - 1) - chi2
    ff = (N - 1) * chi2 / den if den > 0 else np.inf
    pf = float(stats.f.sf(ff, k - 1, (k - 1) * (N - 1))) if np.isfinite(ff) else 0.0
    return FriedmanResult(float(chi2), p, float(ff), pf, R, N, k)


def nemenyi_q(k: int, alpha: float = 0.05) -> float:
    """q_alpha = studentized range quantile (k groups, infinite df) / sqrt(2) (Demsar Table 5a)."""
    if k < 2:
        raise ValueError("need at least 2 methods")
    return float(stats.studentized_range.ppf(1.0 - alpha, k, np.inf) / np.sqrt(2.0))


def nemenyi_critical_difference(k: int, n_datasets: int, alpha: float = 0.05) -> float:
    """CD = q_alpha sqrt(k(k+1) / (6N)) (Demsar 2006, section 3.2.2)."""
    return nemenyi_q(k, alpha) * float(np.sqrt(k * (k + 1) / (6.0 * n_datasets)))


def nemenyi_cliques(avg_ranks: pd.Series, cd: float) -> list[list[str]]:
    """Maximal groups of methods, consecutive by average rank, whose ranks differ by less than CD.

    Two methods differ significantly when their average ranks differ by at least CD (Demsar), so a
    group [i..j] in rank order is a clique iff r_j - r_i < cd. Only groups of >= 2 methods not
    contained in another are returned, in rank order (ties broken by name).
    """
    order = sorted(avg_ranks.items(), key=lambda t: (t[1], str(t[0])))
    names = [n for n, _ in order]
    r = np.array([v for _, v in order], dtype=float)
    cliques, prev_end = [], -1
    for i in range(len(r)):
        j = i + int(np.searchsorted(r[i:], r[i] + cd, side="left")) - 1  # last j with r_j - r_i < cd
        if j > i and j > prev_end:  # j is non-decreasing in i: j > prev_end means not contained
            cliques.append(names[i : j + 1])
        prev_end = max(prev_end, j)
    return cliques


def holm(pvalues) -> np.ndarray:
    """Holm's step-down adjusted p-values: max_{j<=i} min(1, (m - j + 1) p_(j)) in sorted order."""
    p = np.asarray(pvalues, dtype=float)
    m = p.size
    order = np.argsort(p, kind="stable")
    adj = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * p[order]))
    out = np.empty(m)
    out[order] = adj
    return out


def wilcoxon_pairs(scores: pd.DataFrame, zero_method: str = "zsplit") -> pd.DataFrame:
    """Two-sided Wilcoxon signed-rank test for every pair of methods, with Holm-adjusted p-values.

    ``zero_method="zsplit"``: zero differences are ranked and their ranks split evenly between
    the positive and negative sums, as Demsar (2006, section 3.1.3) recommends; scipy's default
    method then applies (exact for small N without ties/zeros, normal approximation otherwise).
    A pair whose differences are all zero gets statistic NaN and p-value 1. Holm's correction is over
    all k(k-1)/2 pairs. ``median_diff`` is the median of (a - b) over datasets.
    """
    scores = _check(scores)
    rows = []
    for a, b in combinations(scores.columns, 2):
        diff = scores[a].to_numpy() - scores[b].to_numpy()
        if np.all(diff == 0):
            stat, p = np.nan, 1.0
        else:
            res = stats.wilcoxon(scores[a], scores[b], zero_method=zero_method)
            stat, p = float(res.statistic), float(res.pvalue)
        rows.append({"method_a": a, "method_b": b, "n": len(diff), "median_diff": float(np.median(diff)), "statistic": stat, "pvalue": p})
    out = pd.DataFrame(rows)
    out["pvalue_holm"] = holm(out["pvalue"].to_numpy())
    return out
