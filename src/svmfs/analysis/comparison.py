"""A campaign's comparison of methods over its datasets (Demsar 2006) and the stability figure.

Each (method, setting) is one competitor; its score on a dataset is a column of the summary table
(mean over outer folds). A competitor that was not run on some dataset (no summary row: the dataset's
``skip_methods``) is left out of the test; a dataset where a competitor ran but has no score (failed
folds) is left out; the tables say which. With fewer than two complete datasets or two competitors
nothing is tested: the tables carry a ``note`` and the figures say why, so a small campaign still
completes and nothing is faked.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..results.io import atomic_write_text
from ..results.record import FLOAT_FORMAT
from .cd_diagram import cd_figure
from .figures import OKABE_ITO, label, message_figure, panels, save_figure
from .significance import friedman_test, nemenyi_cliques, nemenyi_critical_difference, wilcoxon_pairs


def score_matrix(summary: pd.DataFrame, metric: str = "test_accuracy_mean") -> tuple[pd.DataFrame, list[str], list[str]]:
    """Datasets x competitors of ``metric``, complete rows only; the datasets and competitors left out.

    Competitors without a row on some dataset (not run there) go first, then datasets with a missing score.
    """
    if metric not in summary.columns:
        raise ValueError(f"statistics.metric: the summary table has no column {metric!r}")
    summary = summary.assign(competitor=[label(m, s) for m, s in zip(summary["method"], summary["setting"])])
    wide = summary.pivot_table(index="dataset", columns="competitor", values=metric, aggfunc="first", dropna=False)
    wide = wide.sort_index().reindex(sorted(wide.columns), axis=1)
    ran = summary.groupby("competitor")["dataset"].nunique().reindex(wide.columns)
    not_run = sorted(ran.index[ran < wide.shape[0]])
    wide = wide.drop(columns=not_run)
    complete = wide.notna().all(axis=1)
    return wide[complete], sorted(wide.index[~complete]), not_run


def _note(scores: pd.DataFrame, dropped: list[str], not_run: list[str]) -> str:
    parts = []
    if not_run:
        parts.append("competitors left out (not run on every dataset): " + ", ".join(not_run))
    if dropped:
        parts.append("datasets left out (a competitor has no score): " + ", ".join(dropped))
    if scores.shape[0] < 2:
        parts.append(f"not tested: {scores.shape[0]} complete dataset(s), the Friedman test needs at least 2")
    if scores.shape[1] < 2:
        parts.append(f"not tested: {scores.shape[1]} competitor(s), at least 2 are needed")
    return "; ".join(parts)


def comparison_tables(summary: pd.DataFrame, metric: str = "test_accuracy_mean", alpha: float = 0.05):
    """(friedman, ranks, wilcoxon) DataFrames and the critical difference (NaN when not tested).

    friedman: one row (N datasets, k competitors, chi^2_F and p, Iman-Davenport F_F and p, CD, note);
    ranks: competitor, average rank (1 = best), the Nemenyi groups it belongs to;
    wilcoxon: every pair with Holm-adjusted p-values.
    """
    scores, dropped, not_run = score_matrix(summary, metric)
    note = _note(scores, dropped, not_run)
    N, k = scores.shape
    tested = N >= 2 and k >= 2
    row = {"metric": metric, "alpha": alpha, "n_datasets": N, "n_methods": k}
    if tested:
        fr = friedman_test(scores)
        cd = nemenyi_critical_difference(k, N, alpha)
        row.update(chi2_f=fr.statistic, pvalue=fr.pvalue, iman_davenport_f=fr.iman_davenport,
                   iman_davenport_pvalue=fr.iman_davenport_pvalue, critical_difference=cd)
        ranks = fr.average_ranks.rename_axis("method").reset_index()
        groups = nemenyi_cliques(fr.average_ranks, cd)
        ranks["nemenyi_groups"] = [
            " ".join(chr(ord("a") + g) for g, members in enumerate(groups) if m in members) for m in ranks["method"]
        ]
        ranks = ranks.sort_values(["average_rank", "method"], kind="stable")
        wilcoxon = wilcoxon_pairs(scores)
    else:
        cd = float("nan")
        row.update(chi2_f=np.nan, pvalue=np.nan, iman_davenport_f=np.nan, iman_davenport_pvalue=np.nan, critical_difference=cd)
        ranks = pd.DataFrame(columns=["method", "average_rank", "nemenyi_groups"])
        wilcoxon = pd.DataFrame(columns=["method_a", "method_b", "n", "median_diff", "statistic", "pvalue", "pvalue_holm"])
    row["note"] = note
    return pd.DataFrame([row]), ranks, wilcoxon, cd


def stability_figure(stability: pd.DataFrame):
    """Nogueira's stability with its confidence interval, one panel per dataset, one bar per competitor."""
    st = stability.dropna(subset=["nogueira"])
    if st.empty:
        return message_figure("stability not defined: every competitor keeps all features or has one fold")
    st = st.assign(competitor=[label(m, s) for m, s in zip(st["method"], st["setting"])])
    datasets = sorted(st["dataset"].unique())
    labels = sorted(st["competitor"].unique())
    colour = {lab: OKABE_ITO[i % 8] for i, lab in enumerate(labels)}
    fig, axes = panels(len(datasets), height=3.2)
    for ax, ds in zip(axes, datasets):
        sub = st[st["dataset"] == ds].sort_values("competitor")
        x = np.arange(len(sub))
        phi = sub["nogueira"].to_numpy(float)
        lo = (phi - sub["nogueira_ci_low"].to_numpy(float)).clip(min=0)
        hi = (sub["nogueira_ci_high"].to_numpy(float) - phi).clip(min=0)
        ax.bar(x, phi, color=[colour[c] for c in sub["competitor"]], yerr=[np.nan_to_num(lo), np.nan_to_num(hi)], capsize=3)
        ax.set_xticks(x, sub["competitor"], rotation=30, ha="right", fontsize=8)
        ax.set_ylim(min(0.0, float(np.nanmin(phi - lo)) - 0.05), 1.05)
        ax.axhline(0, color="k", lw=0.6)
        ax.set_title(ds)
        ax.set_ylabel("Nogueira stability")
        ax.grid(True, axis="y", alpha=0.3)
    fig.tight_layout()
    return fig


def write_comparison(summary: pd.DataFrame, stability: pd.DataFrame, out: dict[str, str | Path],
                     metric: str = "test_accuracy_mean", alpha: float = 0.05) -> None:
    """Write friedman/ranks/wilcoxon CSVs, the CD diagram and the stability figure (PNG and PDF)."""
    friedman, ranks, wilcoxon, cd = comparison_tables(summary, metric, alpha)
    for key, table in (("friedman", friedman), ("ranks", ranks), ("wilcoxon", wilcoxon)):
        atomic_write_text(out[key], table.to_csv(index=False, float_format=FLOAT_FORMAT, lineterminator="\n"))
    if np.isfinite(cd):
        avg = ranks.set_index("method")["average_rank"]
        title = f"{metric}, {int(friedman['n_datasets'].iloc[0])} datasets, Friedman p = {friedman['pvalue'].iloc[0]:.3g}"
        fig = cd_figure(avg, cd, title)
    else:
        fig = message_figure("no critical-difference diagram: " + friedman["note"].iloc[0])
    save_figure(fig, out["cd_png"], out.get("cd_pdf"))
    save_figure(stability_figure(stability), out["stability_png"], out.get("stability_pdf"))


__all__ = ["score_matrix", "comparison_tables", "stability_figure", "write_comparison"]
