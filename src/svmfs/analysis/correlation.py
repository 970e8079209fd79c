"""Correlation of a dataset's features next to what each method selected (Jimenez-Cordero et al.
2021, Fig. 3: MM-FS keeps one feature of a block of correlated ones).

Top panel: Pearson correlation of the features (all rows of the canonical dataset, before any fold's
normalization, which does not change correlations). Bottom panel: for every competitor (method and
setting), the fraction of outer folds that selected each feature. With more than ``max_features``
features, only the most often selected ones are shown (ties by index), so microarrays stay legible.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from .figures import label  # noqa: E402
from .stability import parse_selected, subsets_to_matrix  # noqa: E402


def selection_frequency(records: pd.DataFrame, dataset: str, n_features: int) -> pd.DataFrame:
    """Competitors x features: fraction of the dataset's outer folds whose selection holds the feature.

    Competitors that keep every feature in every fold (no selection) are left out.
    """
    rows = records[records["dataset"] == dataset]
    out = {}
    for (m, s), g in rows.groupby(["method", "setting"], sort=True):
        freq = subsets_to_matrix([parse_selected(v) for v in g["selected"]], n_features).mean(axis=0)
        if not np.all(freq == 1.0):
            out[label(m, s)] = freq
    return pd.DataFrame(out, index=range(n_features)).T


def shown_features(freq: pd.DataFrame, n_features: int, max_features: int = 60) -> np.ndarray:
    """All features when there are at most ``max_features``, else the most often selected ones."""
    if n_features <= max_features:
        return np.arange(n_features)
    total = freq.sum(axis=0).to_numpy() if not freq.empty else np.zeros(n_features)
    order = np.lexsort((np.arange(n_features), -total))
    return np.sort(order[:max_features])


def correlation_figure(X: np.ndarray, freq: pd.DataFrame, title: str, max_features: int = 60):
    p = X.shape[1]
    cols = shown_features(freq, p, max_features)
    with np.errstate(invalid="ignore", divide="ignore"):
        corr = np.corrcoef(X[:, cols], rowvar=False).reshape(len(cols), len(cols))
    k = len(cols)
    n_rows = max(len(freq), 1)
    fig, (ax, bx) = plt.subplots(
        2, 1, figsize=(max(5.0, 0.16 * k + 2.5), max(5.0, 0.16 * k + 2.0) + 0.22 * n_rows),
        gridspec_kw={"height_ratios": [max(k, 1), max(0.6 * n_rows, 1)]}, sharex=True,
    )
    im = ax.imshow(corr, cmap="RdBu_r", vmin=-1, vmax=1, interpolation="nearest", aspect="auto")
    fig.colorbar(im, ax=ax, fraction=0.04, pad=0.02, label="Pearson correlation")
    ax.set_yticks(range(k), [str(j + 1) for j in cols], fontsize=6)
    ax.set_title(title + ("" if k == p else f" ({k} of {p} features: the most often selected)"), fontsize=9)
    if freq.empty:
        bx.text(k / 2, 0, "no method selected a proper subset", ha="center", va="center", fontsize=8)
        bx.set_yticks([])
        bx.set_xlim(-0.5, k - 0.5)
    else:
        im2 = bx.imshow(freq.to_numpy()[:, cols], cmap="Greys", vmin=0, vmax=1, interpolation="nearest", aspect="auto")
        fig.colorbar(im2, ax=bx, fraction=0.04, pad=0.02, label="selected in\nfraction of folds")
        bx.set_yticks(range(len(freq)), list(freq.index), fontsize=7)
    bx.set_xticks(range(k), [str(j + 1) for j in cols], rotation=90, fontsize=6)
    bx.set_xlabel("feature (1-based index)")
    fig.tight_layout()
    return fig
