"""Methods swept over one parameter as job settings, read as paths (Jimenez-Cordero et al. Fig. 2).

A method whose settings are ``C-<value>`` for several values (``mm_fs_by_C``, ``l1_svm_by_C``) traces
accuracy against the number of selected features as C grows. ``path_table`` condenses each path to the
numbers behind the paper's reading of Fig. 2 ("similar accuracy with fewer features"): the path's best
accuracy, and the fewest features at which it comes within ``tolerance`` points of the best accuracy any
path reaches on that dataset.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from ..results.io import atomic_write_text
from ..results.record import FLOAT_FORMAT

_SETTING = re.compile(r"^(?P<param>[A-Za-z][A-Za-z0-9_]*)-(?P<value>[-+]?[0-9.]+(?:[eE][-+]?[0-9]+)?)$")

PATH_COLUMNS = [
    "dataset", "method", "parameter", "points", "best_accuracy", "value_at_best", "features_at_best",
    "target_accuracy", "fewest_features_at_target", "value_at_fewest", "accuracy_at_fewest",
]  # fmt: skip


def swept_parameter(settings) -> tuple[str, list[float]] | None:
    """(parameter, values) when every setting label is ``<param>-<number>`` for one parameter."""
    parsed = [_SETTING.match(str(s)) for s in settings]
    if len(parsed) < 2 or not all(parsed) or len({m["param"] for m in parsed}) != 1:
        return None
    return parsed[0]["param"], [float(m["value"]) for m in parsed]


def swept_paths(summary: pd.DataFrame, parameter: str | None = None) -> list[tuple[str, str, str, pd.DataFrame]]:
    """(dataset, method, parameter, rows with a ``value`` column in increasing order) for every method
    whose settings on a dataset sweep one parameter (``parameter`` only, when given)."""
    out = []
    for (ds, m), g in summary.groupby(["dataset", "method"], sort=True):
        sw = swept_parameter(g["setting"])
        if sw is not None and parameter in (None, sw[0]):
            out.append((ds, m, sw[0], g.assign(value=sw[1]).sort_values("value", kind="stable")))
    return out


def path_table(summary: pd.DataFrame, parameter: str = "C", tolerance: float = 1.0) -> pd.DataFrame:
    """One row per (dataset, method) swept over ``parameter``: its best mean accuracy (smallest value on
    ties) and features there; target = best accuracy of all such paths on the dataset - ``tolerance``
    points; the fewest mean features at which the path reaches the target (NaN if it never does)."""
    paths = swept_paths(summary, parameter)
    best_on = {}
    for ds, _, _, g in paths:
        best_on[ds] = max(best_on.get(ds, -np.inf), float(g["test_accuracy_mean"].max()))
    rows = []
    for ds, m, param, g in paths:
        acc = g["test_accuracy_mean"].to_numpy(float)
        feats = g["n_selected_mean"].to_numpy(float)
        vals = g["value"].to_numpy(float)
        i = int(np.argmax(acc))
        target = best_on[ds] - tolerance
        reach = np.flatnonzero(acc >= target)
        j = reach[np.lexsort((vals[reach], feats[reach]))[0]] if reach.size else None
        rows.append({
            "dataset": ds, "method": m, "parameter": param, "points": len(g), "best_accuracy": acc[i],
            "value_at_best": vals[i], "features_at_best": feats[i], "target_accuracy": target,
            "fewest_features_at_target": np.nan if j is None else feats[j],
            "value_at_fewest": np.nan if j is None else vals[j], "accuracy_at_fewest": np.nan if j is None else acc[j],
        })  # fmt: skip
    return pd.DataFrame(rows, columns=PATH_COLUMNS)


def write_path_table(summary: pd.DataFrame, csv, md, parameter: str = "C", tolerance: float = 1.0) -> None:
    """``path_table`` as CSV and Markdown (a note when no method sweeps ``parameter``)."""
    table = path_table(summary, parameter, tolerance)
    atomic_write_text(csv, table.to_csv(index=False, float_format=FLOAT_FORMAT, lineterminator="\n"))
    if table.empty:
        text = f"No method of this campaign sweeps {parameter} as settings.\n"
    else:
        text = table.to_markdown(index=False, floatfmt=".2f") + (
            f"\n\nTarget: the best mean accuracy of any path over {parameter} on the dataset minus {tolerance:g} points; "
            "features are means over the outer folds.\n"
        )
    atomic_write_text(md, text)
