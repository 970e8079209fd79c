"""The audits' rule: a gap explained by a measured audit protocol (``tables/optimism.csv``: tuning on the
test side, selection bias, scaling on the whole data; docs/audits.md).

An audit explains a gap only where its 95 % interval holds the published value and it moves our mean at
least :data:`EXPLAINED_FRACTION` of the way to it (:func:`moves_half_way`, also the departures' rule).

Examples
--------
>>> bool(moves_half_way(94.5, 92.0, 96.0, change=5.0, gap=8.4))
True
>>> bool(moves_half_way(94.5, 92.0, 96.0, change=3.0, gap=8.4))
False
"""

from __future__ import annotations

import numpy as np
import pandas as pd


def read_optimism(path) -> pd.DataFrame | None:
    """The audits' ``tables/optimism.csv`` (None where the campaign ran no audit)."""
    if path is None:
        return None
    from pathlib import Path

    if not Path(path).is_file():
        return None
    return pd.read_csv(path, dtype={"dataset": str, "method": str, "setting": str, "protocol": str, "group": str})


#: The audit protocols (docs/audits.md) and the cause each one measures, as the verdict names it.
AUDIT_CAUSES = {
    "test_tuned": "tuning on the test side",
    "global_selection": "selection bias",
    "global_scaling": "scaling on the whole data",
}


def _audit_rows(e: dict, setting, optimism: pd.DataFrame | None) -> pd.DataFrame | None:
    """The audited (non-``nested``) rows of ``optimism.csv`` for an accuracy, error or feature-count entry,
    matched on the entry's dataset (a replicate group's pooled row for replicated datasets), method and
    setting; None where the campaign ran no audit, the metric is none of those, or (feature counts) the
    table predates its ``n_selected`` columns."""
    if optimism is None or optimism.empty or e["metric"] not in ("test_accuracy", "test_error", "n_selected"):
        return None
    if e["metric"] == "n_selected" and "n_selected_mean" not in optimism:
        return None
    rows = _optimism_rows(optimism, e["dataset"], e["method"], setting)
    return rows[rows["protocol"] != "nested"].sort_values("protocol", kind="stable")


def _optimism_rows(optimism: pd.DataFrame, dataset, method, setting) -> pd.DataFrame:
    """The rows of ``optimism.csv`` for one dataset (or pooled group), method and setting (any if None)."""
    rows = optimism[(optimism["dataset"] == dataset) & (optimism["method"] == method)]
    if setting is not None and "setting" in rows:
        rows = rows[rows["setting"].astype(str) == str(setting)]
    return rows


def _published_accuracy(e: dict) -> float:
    """The published value on the audit table's scale: an error entry compares 100 - error."""
    return 100.0 - float(e["value"]) if e["metric"] == "test_error" else float(e["value"])


def _audited(e: dict, r) -> tuple[float, float, float]:
    """(mean, low, high) of an audit row in the entry's unit: accuracy in percent, or features kept."""
    col = "n_selected" if e["metric"] == "n_selected" else "accuracy"
    return float(getattr(r, f"{col}_mean")), float(getattr(r, f"{col}_ci_low")), float(getattr(r, f"{col}_ci_high"))


#: An audit explains a gap only if it moves our mean at least this fraction of the way to the published value
#: (besides its 95 % interval holding that value): an interval that reaches the published value by its width
#: alone, the mean barely moved, explains nothing.
EXPLAINED_FRACTION = 0.5


def moves_half_way(target: float, lo: float, hi: float, change: float, gap: float) -> bool:
    """The rule by which a measured protocol (an audit, or a departure campaign: ``analysis.departures``)
    explains a gap: its 95 % interval [lo, hi] holds the published ``target`` and it moves our mean
    (``change``) at least :data:`EXPLAINED_FRACTION` of the ``gap`` toward it."""
    return lo <= target <= hi and change * np.sign(gap) >= EXPLAINED_FRACTION * abs(gap) - 1e-9 * max(1.0, abs(gap))


def _nested_mean(e: dict, r, optimism: pd.DataFrame) -> float:
    """The nested row's mean (accuracy in percent or features kept) beside audit row ``r``; NaN if absent."""
    col = "n_selected_mean" if e["metric"] == "n_selected" else "accuracy_mean"
    rows = _optimism_rows(optimism, r.dataset, r.method, r.setting)
    nested = rows[rows["protocol"] == "nested"]
    return float(nested[col].iloc[0]) if not nested.empty else float("nan")


def _audit_change(e: dict, r, optimism: pd.DataFrame, ours: float) -> tuple[float, float]:
    """(the audit's measured change, the gap it is measured against), both audited-minus-ours in the audit
    table's unit: the paired optimism in points for accuracies, the difference of mean counts for features.
    ``ours`` stands in for the nested mean where the table has no nested row."""
    nested = _nested_mean(e, r, optimism)
    base = nested if np.isfinite(nested) else ours
    change = float(r.optimism_mean) if e["metric"] != "n_selected" else _audited(e, r)[0] - base
    return change, _published_accuracy(e) - base


def _audit_explanation(e: dict, setting, optimism: pd.DataFrame | None, ours: float = float("nan")) -> str | None:
    """``<cause> (+x.x measured, <protocol>)`` where an audited accuracy's (or feature count's) 95 % interval
    holds the published value (:func:`_audit_rows`) and the audit moves our mean at least
    :data:`EXPLAINED_FRACTION` of the way to it; the measured change is the optimism in points, or the
    audited minus the nested mean count of features. The campaign's own ``nested`` rows explain nothing.
    ``ours``: our mean on the audit table's scale, used where the table has no nested row."""
    rows = _audit_rows(e, setting, optimism)
    if rows is None:
        return None
    target = _published_accuracy(e)
    for r in rows.itertuples():
        mean, lo, hi = _audited(e, r)
        change, gap = _audit_change(e, r, optimism, ours)
        if moves_half_way(target, lo, hi, change, gap):
            cause = AUDIT_CAUSES.get(r.protocol, r.protocol)
            unit = " features" if e["metric"] == "n_selected" else ""
            return f"{cause} ({change:+.1f}{unit} measured, {r.protocol})"
    return None


def _audits_tried(e: dict, setting, optimism: pd.DataFrame | None, ours: float = float("nan")) -> str:
    """The audits measured for an unexplained gap: none both holds the published value in its interval
    and moves our mean half-way to it (:func:`_audit_explanation`); each with its mean, interval and change."""
    rows = _audit_rows(e, setting, optimism)
    if rows is None or rows.empty:
        return ""
    what = "features kept under the audits on the same folds" if e["metric"] == "n_selected" else "audits measured on the same folds"
    parts = []
    for r in rows.itertuples():
        change, gap = _audit_change(e, r, optimism, ours)
        need = f" ({change:+.1f} of the {gap:+.1f} needed)" if np.isfinite(gap) else ""
        parts.append("{} {:.2f} [{:.2f}, {:.2f}]{}".format(r.protocol, *_audited(e, r), need))
    target = f"{_published_accuracy(e):.2f}"
    if e["metric"] == "test_error":
        target += f" (accuracy: 100 - the published {float(e['value']):g} % error)"
    return (f"{what}: {', '.join(parts)}; none holds the published {target} and moves our mean half-way to it")


def _on_audit_scale(e: dict, vals) -> float:
    """Our mean on the audit table's scale: an error entry's values become accuracies (100 - error)."""
    m = float(np.mean(vals)) if len(vals) else float("nan")
    return 100.0 - m if e["metric"] == "test_error" else m
