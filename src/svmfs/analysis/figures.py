"""Figures from the merged records (matplotlib, Agg, colour-blind-safe, deterministic bytes)."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker as mticker  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from ..results.io import atomic_write_bytes  # noqa: E402
from .paths import swept_paths  # noqa: E402

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


def message_figure(text: str):
    """A small figure that only says why there is nothing to draw (outputs still exist; nothing faked)."""
    fig, ax = plt.subplots(figsize=(6.4, 1.2))
    ax.axis("off")
    ax.text(0.5, 0.5, text, ha="center", va="center", fontsize=9, wrap=True)
    return fig


def method_styles(names) -> dict:
    """Colour and marker per name, in the given order (Okabe-Ito colours); past eight names the marker
    shifts, so no two of up to 64 names share both colour and marker."""
    return {m: (OKABE_ITO[i % 8], MARKERS[(i + i // 8) % 8]) for i, m in enumerate(names)}


def panels(n: int, width=4.2, height=3.4):
    """A grid of ``n`` panels, at most three per row; unused cells are hidden."""
    ncol = min(3, n)
    nrow = int(np.ceil(n / ncol))
    fig, axes = plt.subplots(nrow, ncol, figsize=(width * ncol, height * nrow), squeeze=False)
    for ax in list(axes.flat)[n:]:
        ax.axis("off")
    return fig, list(axes.flat)[:n]


def _legend(fig, style, labels):
    handles = [plt.Line2D([], [], marker=style[lab][1], color=style[lab][0], ls="-", label=lab) for lab in labels]
    fig.legend(handles=handles, loc="lower center", ncol=min(len(labels), 5), bbox_to_anchor=(0.5, -0.02 - 0.04 * (len(labels) // 6)))
    fig.tight_layout(rect=(0, 0.06, 1, 1))


def accuracy_vs_features(summary: pd.DataFrame):
    """One panel per dataset: mean test accuracy against mean number of selected features (x logarithmic
    from 1 feature up, linear below it, so that a setting that keeps no feature, e.g. Fig. 2's smallest C,
    where the classifier predicts the majority class, stays on the plot at 0).

    One colour and marker per method; a method run with several settings (a grid of sizes, of C or
    of C2) is a line through its settings in order of the number of features, which draws Maldonado
    et al.'s Figs. 1-5 (error vs number of ranked features) and Jimenez-Cordero et al.'s Fig. 2.
    """
    datasets = sorted(summary["dataset"].unique())
    methods = sorted(summary["method"].unique())
    style = method_styles(methods)
    fig, axes = panels(len(datasets))
    for ax, ds in zip(axes, datasets):
        sub = summary[summary["dataset"] == ds]
        for m, pts in sub.groupby("method", sort=True):
            pts = pts.sort_values(["n_selected_mean", "setting"])
            c, mk = style[m]
            x, sd = pts["n_selected_mean"].to_numpy(float), pts["n_selected_sd"].fillna(0.0).to_numpy(float)
            acc, asd = pts["test_accuracy_mean"].to_numpy(float), pts["test_accuracy_sd"].fillna(0.0).to_numpy(float)
            xerr = [np.minimum(sd, x), sd]  # never below 0 features
            yerr = [asd, np.minimum(asd, 100.0 - acc)]  # accuracy stays within 100 %
            ax.errorbar(x, acc, yerr=yerr, xerr=xerr, fmt=mk + ("-" if len(pts) > 1 else ""), color=c, capsize=2,
                        ms=4 if len(pts) > 1 else 6, lw=1)
        ax.set_xscale("symlog", linthresh=1.0, linscale=0.5)
        # ticks at 0, 1, 2, 5, 10, 20, ... in plain numbers, up to the dataset's feature count
        top = float(max(sub["n_features_total"].max(), np.nanmax(sub["n_selected_mean"])))
        ticks = [0.0] + [m * 10.0**e for e in range(int(np.log10(max(top, 1.0))) + 1) for m in (1.0, 2.0, 5.0) if m * 10.0**e <= top]
        ax.xaxis.set_major_locator(mticker.FixedLocator(ticks))
        ax.xaxis.set_major_formatter(mticker.FuncFormatter(lambda v, _: f"{v:g}"))
        ax.xaxis.set_minor_formatter(mticker.NullFormatter())
        ax.set_title(f"{ds} (p = {int(sub['n_features_total'].iloc[0])})")
        ax.set_xlabel("selected features (mean over folds)")
        ax.set_ylabel("test accuracy (%)")
        ax.grid(True, alpha=0.3)
    _legend(fig, style, methods)
    return fig


def width_frontier(summary: pd.DataFrame):
    """Test accuracy against ||gamma||_1 of the anisotropic widths, one point per setting
    (Jimenez-Cordero et al. Fig. 1: MM-FS over C2); a note when no method has widths."""
    sub = summary.dropna(subset=["kernel_width_l1_mean"]) if "kernel_width_l1_mean" in summary else summary.iloc[0:0]
    if sub.empty:
        return message_figure("no method of this campaign has anisotropic kernel widths (MM-FS, KP-SVM, KP-FS)")
    datasets = sorted(sub["dataset"].unique())
    methods = sorted(sub["method"].unique())
    style = method_styles(methods)
    fig, axes = panels(len(datasets))
    for ax, ds in zip(axes, datasets):
        for m, pts in sub[sub["dataset"] == ds].groupby("method", sort=True):
            pts = pts.sort_values(["kernel_width_l1_mean", "setting"])
            c, mk = style[m]
            ax.plot(pts["kernel_width_l1_mean"], pts["test_accuracy_mean"], mk + "-", color=c, ms=4, lw=1)
            for x, y, s in zip(pts["kernel_width_l1_mean"], pts["test_accuracy_mean"], pts["setting"]):
                if s != "default":
                    ax.annotate(s.split("-", 1)[-1], (x, y), textcoords="offset points", xytext=(3, 3), fontsize=6, color=c)
        ax.set_xscale("symlog", linthresh=1e-2)
        ax.set_title(ds)
        ax.set_xlabel("||gamma||_1 (mean over folds)")
        ax.set_ylabel("test accuracy (%)")
        ax.grid(True, alpha=0.3)
    _legend(fig, style, methods)
    return fig


def settings_sweep(summary: pd.DataFrame):
    """Accuracy and number of selected features against the one parameter a method sweeps as
    settings, one panel per (dataset, method): Maldonado et al.'s section-6 study (Figs. 6-10:
    C2, beta, gamma, eps, v0 varied one at a time) and Jimenez-Cordero et al.'s accuracy over C2."""
    cases = swept_paths(summary)
    if not cases:
        return message_figure("no method of this campaign sweeps one parameter as settings")
    fig, axes = panels(len(cases), width=4.4, height=3.2)
    for ax, (ds, m, param, g) in zip(axes, cases):
        x = g["value"].to_numpy(float)
        ax.errorbar(x, g["test_accuracy_mean"], yerr=g["test_accuracy_sd"].fillna(0.0), fmt="o-", color=OKABE_ITO[0], ms=4, lw=1, capsize=2)
        ax.set_ylabel("test accuracy (%)", color=OKABE_ITO[0])
        bx = ax.twinx()
        bx.plot(x, g["n_selected_mean"], "s--", color=OKABE_ITO[5], ms=4, lw=1)
        bx.set_ylabel("selected features", color=OKABE_ITO[5])
        if np.all(x > 0) and x.max() / x.min() >= 100:
            ax.set_xscale("log")
        ax.set_xlabel(param)
        ax.set_title(f"{ds}: {m}", fontsize=9)
        ax.grid(True, alpha=0.3)
    fig.tight_layout()
    return fig


def regularization_paths(summary: pd.DataFrame, parameter: str = "C"):
    """Test accuracy against the number of selected features, one point per value of ``parameter``,
    for every method whose settings sweep it; one panel per dataset, linear x from 0 to p
    (Jimenez-Cordero et al. Fig. 2: MM-FS at one C2 and l1-SVM, one point per C). A thin line joins
    the points in order of the parameter, so the path reads from sparse (small C) to dense."""
    cases = swept_paths(summary, parameter)
    if not cases:
        return message_figure(f"no method of this campaign sweeps {parameter} as settings")
    datasets = sorted({c[0] for c in cases})
    style = method_styles(sorted({c[1] for c in cases}))
    fig, axes = panels(len(datasets))
    for ax, ds in zip(axes, datasets):
        for _, m, _, g in (c for c in cases if c[0] == ds):
            col, mk = style[m]
            x, y = g["n_selected_mean"].to_numpy(float), g["test_accuracy_mean"].to_numpy(float)
            ax.plot(x, y, "-", color=col, lw=0.6, alpha=0.5)
            ax.plot(x, y, mk, color=col, ms=5, mfc="none", ls="none")
        p = int(summary.loc[summary["dataset"] == ds, "n_features_total"].iloc[0])
        ax.set_xlim(-0.03 * p, 1.03 * p)
        ax.set_title(f"{ds} (p = {p})")
        ax.set_xlabel(f"selected features (mean over folds), one point per {parameter}")
        ax.set_ylabel("test accuracy (%)")
        ax.grid(True, alpha=0.3)
    _legend(fig, style, list(style))
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
    if "width_png" in out:
        save_figure(width_frontier(summary), out["width_png"], out.get("width_pdf"))
    if "sweep_png" in out:
        save_figure(settings_sweep(summary), out["sweep_png"], out.get("sweep_pdf"))
    if "paths_png" in out:
        save_figure(regularization_paths(summary), out["paths_png"], out.get("paths_pdf"))
    save_figure(runtime_figure(timing), out["runtime_png"], out.get("runtime_pdf"))
