"""Critical-difference diagram (Demsar 2006, Fig. 1): average ranks on an axis, the best methods
labelled on the left, a CD bar, and thick bars joining methods not significantly different (Nemenyi).
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from .figures import save_figure  # noqa: E402
from .significance import nemenyi_cliques  # noqa: E402


def cd_figure(avg_ranks: pd.Series, cd: float, title: str | None = None):
    """The figure; rank 1 (best) on the left. Ties in rank are ordered by name."""
    order = sorted(avg_ranks.items(), key=lambda t: (t[1], str(t[0])))
    names = [str(n) for n, _ in order]
    r = np.array([v for _, v in order], dtype=float)
    k = len(r)
    lo, hi = 1, max(k, int(np.ceil(r.max())))
    cliques = nemenyi_cliques(avg_ranks, cd)
    n_left = (k + 1) // 2
    n_rows = max(n_left, k - n_left)
    height = 0.9 + 0.22 * (n_rows + len(cliques))
    fig, ax = plt.subplots(figsize=(6.4, height))
    top = 0.0  # the rank axis; everything else goes below (y grows downwards)
    ax.set_xlim(lo - 0.9, hi + 0.9)
    ax.axis("off")
    ax.hlines(top, lo, hi, color="k", lw=1)
    for t in range(lo, hi + 1):
        ax.vlines(t, top - 0.15, top, color="k", lw=1)
        ax.text(t, top - 0.22, str(t), ha="center", va="bottom", fontsize=9)
    # CD bar above the axis, starting at rank 1
    ax.hlines(-0.95, lo, lo + cd, color="k", lw=1.5)
    ax.vlines([lo, lo + cd], -1.05, -0.85, color="k", lw=1)
    ax.text(lo + cd / 2, -1.08, f"CD = {cd:.2f}", ha="center", va="bottom", fontsize=8)
    # clique bars just below the axis
    for c, members in enumerate(cliques):
        y = 0.3 + 0.35 * c
        i0, i1 = names.index(str(members[0])), names.index(str(members[-1]))
        ax.hlines(y, r[i0] - 0.03, r[i1] + 0.03, color="k", lw=3)
    # labels: elbow lines from the axis to the left/right margins
    y0 = 0.3 + 0.35 * len(cliques) + 0.2
    ax.set_ylim(y0 + 0.45 * n_rows, -1.3)
    for i, (name, rank) in enumerate(zip(names, r)):
        left = i < n_left
        row = i if left else k - 1 - i
        y = y0 + 0.45 * row
        xend = lo - 0.2 if left else hi + 0.2
        ax.plot([rank, rank, xend], [top, y, y], color="k", lw=0.8)
        ax.text(xend + (-0.05 if left else 0.05), y, f"{name} ({rank:.2f})", ha="right" if left else "left", va="center", fontsize=8)
    if title:
        ax.set_title(title, fontsize=9)
    return fig


def plot_cd_diagram(avg_ranks: pd.Series, cd: float, path, pdf_path=None, title: str | None = None) -> None:
    """Write the diagram to ``path`` (PNG) and optionally ``pdf_path``, with deterministic bytes."""
    save_figure(cd_figure(avg_ranks, cd, title), path, pdf_path)
