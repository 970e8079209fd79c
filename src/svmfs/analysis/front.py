"""The accuracy-against-features front of each dataset and its knee, from the summary table (records only).

Every competitor (method and setting) of a dataset is one point: its mean number of selected features and
its mean test accuracy over the outer folds (``summary.csv``). The *front* is the set of points no other
point dominates (as few or fewer features and as high or higher accuracy, one of them strictly): the
best accuracy reached at each number of features. Its *knee* is the point after which more features buy
little accuracy, found by Kneedle (Satopaa, Albrecht, Irwin & Raghavan, "Finding a 'kneedle' in a
haystack: detecting knee points in system behavior", ICDCS Workshops 2011, sec. III): the front, with the
number of features on a log scale (log10(1 + n), the scale of :func:`~svmfs.analysis.figures.accuracy_vs_features`),
is normalized to the unit square, and the knee is the point of the largest difference between the
normalized accuracy and the normalized feature count, the point furthest above the chord from the front's
first point to its last (:func:`knee_index`). A front of fewer than three points, or one that never rises
above its chord, has no knee.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .figures import label, message_figure, panels, plt


def pareto_front(n_features, accuracy) -> list[int]:
    """Indices of the non-dominated points (fewer features and higher accuracy are better), in order of the
    number of features; of points equal in both, the first."""
    x, y = np.asarray(n_features, float), np.asarray(accuracy, float)
    order = sorted(range(len(x)), key=lambda i: (x[i], -y[i], i))
    front, best = [], -np.inf
    for i in order:
        if y[i] > best:
            front.append(i)
            best = y[i]
    return front


def knee_index(x, y) -> int | None:
    """Kneedle's knee of an increasing curve (x ascending; Satopaa et al. 2011, sec. III): x and y scaled to
    [0, 1], the index of the largest ``y_n - x_n`` (for a concave increasing curve, the point furthest from
    the chord joining its ends); None for fewer than three points or no point above the chord."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    if len(x) < 3 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return None
    diff = (y - y.min()) / np.ptp(y) - (x - x.min()) / np.ptp(x)
    k = int(np.argmax(np.round(diff, 12)))  # the first maximum
    return k if diff[k] > 1e-12 else None


def front_table(summary: pd.DataFrame) -> pd.DataFrame:
    """The front of each dataset: dataset, competitor, mean features, mean test accuracy and ``knee`` (True at
    the knee), in order of dataset then features."""
    rows = []
    for ds, sub in summary.groupby("dataset", sort=True):
        sub = sub.reset_index(drop=True)
        idx = pareto_front(sub["n_selected_mean"], sub["test_accuracy_mean"])
        pts = sub.loc[idx]
        k = knee_index(np.log10(1.0 + pts["n_selected_mean"].to_numpy(float)), pts["test_accuracy_mean"].to_numpy(float))
        for j, (_, r) in enumerate(pts.iterrows()):
            rows.append({"dataset": ds, "competitor": label(r["method"], r["setting"]), "n_selected_mean": r["n_selected_mean"],
                         "test_accuracy_mean": r["test_accuracy_mean"], "knee": j == k})  # fmt: skip
    return pd.DataFrame(rows, columns=["dataset", "competitor", "n_selected_mean", "test_accuracy_mean", "knee"])


def front_figure(summary: pd.DataFrame):
    """One panel per dataset: every competitor in grey, the front as a line through its points, the knee as
    a star named by its competitor (:func:`front_table`)."""
    table = front_table(summary)
    if table.empty:
        return message_figure("no competitor with a mean test accuracy: no front to draw")
    datasets = sorted(table["dataset"].unique())
    fig, axes = panels(len(datasets))
    for ax, ds in zip(axes, datasets):
        sub, pts = summary[summary["dataset"] == ds], table[table["dataset"] == ds]
        ax.plot(sub["n_selected_mean"], sub["test_accuracy_mean"], "o", color="#999999", ms=4, label="competitor")
        ax.plot(pts["n_selected_mean"], pts["test_accuracy_mean"], "-o", color="#0072B2", ms=5, lw=1.2, label="front")
        for _, r in pts[pts["knee"]].iterrows():
            ax.plot([r["n_selected_mean"]], [r["test_accuracy_mean"]], "*", color="#D55E00", ms=14, label="knee")
            ax.annotate(r["competitor"], (r["n_selected_mean"], r["test_accuracy_mean"]), textcoords="offset points",
                        xytext=(6, -12), fontsize=8)  # fmt: skip
        ax.set_xscale("symlog", linthresh=1.0, linscale=0.5)
        ax.set_title(f"{ds} (p = {int(sub['n_features_total'].iloc[0])})")
        ax.set_xlabel("selected features (mean over folds)")
        ax.set_ylabel("test accuracy (%)")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    return fig
