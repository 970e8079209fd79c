"""Figures from the merged records (matplotlib, Agg, colour-blind-safe, deterministic bytes)."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from ..results.io import atomic_write_bytes  # noqa: E402

# Okabe & Ito (2008) colour-blind-safe palette.
OKABE_ITO = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"]
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]


def save_figure(fig, png_path, pdf_path=None) -> None:
    """Write PNG (and PDF) atomically with no timestamp or version in the metadata."""
    import io

    for path, fmt, meta in ((png_path, "png", {"Software": None}), (pdf_path, "pdf", {"CreationDate": None, "Producer": None, "Creator": None})):
        if path is None:
            continue
        buf = io.BytesIO()
        fig.savefig(buf, format=fmt, metadata=meta, dpi=150, bbox_inches="tight")
        atomic_write_bytes(path, buf.getvalue())
    plt.close(fig)


def label(method, setting):
    """A competitor's name in tables and legends: the method, with its setting unless "default"."""
    return method if setting == "default" else f"{method} ({setting})"


def accuracy_vs_features(summary: pd.DataFrame):
    """One panel per dataset: mean test accuracy against mean number of selected features (log x)."""
    datasets = sorted(summary["dataset"].unique())
    labels = sorted({label(m, s) for m, s in zip(summary["method"], summary["setting"])})
    style = {lab: (OKABE_ITO[i % 8], MARKERS[i % 8]) for i, lab in enumerate(labels)}
    ncol = min(3, len(datasets))
    nrow = int(np.ceil(len(datasets) / ncol))
    fig, axes = plt.subplots(nrow, ncol, figsize=(4.2 * ncol, 3.4 * nrow), squeeze=False)
    for ax, ds in zip(axes.flat, datasets):
        sub = summary[summary["dataset"] == ds]
        for _, r in sub.iterrows():
            lab = label(r["method"], r["setting"])
            c, mk = style[lab]
            x, sd = r["n_selected_mean"], 0.0 if pd.isna(r["n_selected_sd"]) else r["n_selected_sd"]
            acc, asd = r["test_accuracy_mean"], 0.0 if pd.isna(r["test_accuracy_sd"]) else r["test_accuracy_sd"]
            xerr = [[min(sd, max(x - 1.0, 0.0))], [sd]]  # at least one feature on the log axis
            yerr = [[asd], [min(asd, 100.0 - acc)]]  # accuracy stays within 100 %
            ax.errorbar(x, acc, yerr=yerr, xerr=xerr, fmt=mk, color=c, capsize=2, label=lab)
        ax.set_xscale("log")
        ax.set_title(f"{ds} (p = {int(sub['n_features_total'].iloc[0])})")
        ax.set_xlabel("selected features (mean over folds)")
        ax.set_ylabel("test accuracy (%)")
        ax.grid(True, alpha=0.3)
    for ax in list(axes.flat)[len(datasets):]:
        ax.axis("off")
    handles = [plt.Line2D([], [], marker=style[lab][1], color=style[lab][0], ls="", label=lab) for lab in labels]
    fig.legend(handles=handles, loc="lower center", ncol=min(len(labels), 5), bbox_to_anchor=(0.5, -0.02 - 0.04 * (len(labels) // 6)))
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    return fig


def runtime_figure(timing: pd.DataFrame):
    """Mean fit time per method and dataset, log scale."""
    timing = timing.assign(label=[label(m, s) for m, s in zip(timing["method"], timing["setting"])])
    pivot = timing.pivot_table(index="label", columns="dataset", values="fit_time_s_mean", aggfunc="mean").sort_index()
    fig, ax = plt.subplots(figsize=(max(5, 1.2 * len(pivot)), 3.6))
    n = pivot.shape[1]
    width = 0.8 / max(n, 1)
    x = np.arange(len(pivot))
    for i, ds in enumerate(pivot.columns):
        ax.bar(x + i * width - 0.4 + width / 2, pivot[ds].clip(lower=1e-4), width, label=ds, color=OKABE_ITO[i % 8])
    ax.set_yscale("log")
    ax.set_xticks(x, pivot.index, rotation=30, ha="right")
    ax.set_ylabel("fit time on the training side (s)")
    ax.legend(fontsize=8)
    ax.grid(True, axis="y", alpha=0.3)
    fig.tight_layout()
    return fig


def write_figures(summary: pd.DataFrame, timing: pd.DataFrame, out: dict[str, str | Path]) -> None:
    save_figure(accuracy_vs_features(summary), out["acc_png"], out.get("acc_pdf"))
    save_figure(runtime_figure(timing), out["runtime_png"], out.get("runtime_pdf"))
