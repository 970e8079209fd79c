"""Optimism of the papers' kinds of protocol: audited minus nested-CV accuracy, paired by outer fold.

Per (dataset, method, setting) and protocol (``nested``, ``test_tuned``, ``global_selection``,
``global_scaling``): the mean test accuracy over the outer folds with its 95 % t confidence interval, and the
optimism, the audited accuracy minus the nested one on the same fold, with its mean and 95 % t interval
(mean +- t_{0.975, n-1} sd / sqrt(n) over the n paired folds; NaN bounds with fewer than 2 folds). All in
percent; nested rows have optimism 0. Folds of a failed nested job count as they are (the record's accuracy).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from ..results.io import atomic_write_text
from ..results.record import FLOAT_FORMAT
from .tables import method_label

PROTOCOLS = ("nested", "test_tuned", "global_selection", "global_scaling")
COLUMNS = [
    "dataset", "method", "setting", "protocol", "n", "accuracy_mean", "accuracy_ci_low", "accuracy_ci_high",
    "optimism_mean", "optimism_ci_low", "optimism_ci_high",
]  # fmt: skip
KEYS = ["dataset", "method", "setting"]
IN_RECORD = {"test_tuned": "audit_test_tuned_accuracy", "global_scaling": "audit_global_scaling_accuracy"}


def _num(v) -> float:
    return float(v) if v is not None else float("nan")  # the JSON record spells NaN as "nan"


def read_audit_records(select_jsons, global_jsons) -> pd.DataFrame:
    """Long table (dataset, method, setting, fold, protocol, accuracy in [0, 1]) from the select jobs'
    records (nested, and the in-job audits where present) and the audit_global records. A (dataset,
    method, setting) with a single split of the kp_svm protocol contributes one row per test-side resample
    (``fold`` = the resample's index) where its records keep the per-resample accuracies."""
    rows = []
    recs = [json.loads(Path(path).read_text()) for path in select_jsons]
    n_folds = Counter(tuple(rec[k] for k in KEYS) for rec in recs)
    for rec in recs:
        key = {k: rec[k] for k in KEYS} | {"fold": int(rec["fold"])}
        per = rec.get("test_accuracy_resamples")
        audited = [f for f in IN_RECORD.values() if f in rec]
        if (n_folds[tuple(rec[k] for k in KEYS)] == 1 and per and len(per) > 1
                and all(len(rec.get(f"{f}_resamples") or []) == len(per) for f in audited)):  # fmt: skip
            # one split of the kp_svm protocol: its test-side resamples are the paired units (same fit /
            # evaluation rows for every protocol), as the reproduction verdict's interval is over them
            rows += [{**key, "fold": i, "protocol": "nested", "accuracy": _num(a)} for i, a in enumerate(per)]
            for protocol, field in IN_RECORD.items():
                if field in rec:
                    rows += [{**key, "fold": i, "protocol": protocol, "accuracy": _num(a)} for i, a in enumerate(rec[f"{field}_resamples"])]
            continue
        rows.append({**key, "protocol": "nested", "accuracy": _num(rec["test_accuracy"])})
        for protocol, field in IN_RECORD.items():
            if field in rec:
                rows.append({**key, "protocol": protocol, "accuracy": _num(rec[field])})
    for path in global_jsons:
        rec = json.loads(Path(path).read_text())
        for f in rec["folds"]:
            rows.append({**{k: rec[k] for k in KEYS}, "fold": int(f["fold"]), "protocol": "global_selection", "accuracy": _num(f["accuracy"])})
    return pd.DataFrame(rows, columns=[*KEYS, "fold", "protocol", "accuracy"])


def t_interval(values, level: float = 0.95) -> tuple[float, float, float]:
    """(mean, low, high): mean +- t_{(1+level)/2, n-1} sd / sqrt(n); NaN bounds for n < 2 (a zero sd gives
    a zero-width interval)."""
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    if v.size == 0:
        return float("nan"), float("nan"), float("nan")
    m = float(v.mean())
    if v.size < 2:
        return m, float("nan"), float("nan")
    half = float(stats.t.ppf(0.5 + level / 2, v.size - 1) * v.std(ddof=1) / np.sqrt(v.size))
    return m, m - half, m + half


def optimism_table(folds: pd.DataFrame, level: float = 0.95) -> pd.DataFrame:
    """One row per (dataset, method, setting, protocol) present in ``folds`` (:func:`read_audit_records`),
    protocols in the order of :data:`PROTOCOLS`; accuracies and optimism in percent."""
    rows = []
    for key, g in folds.groupby(KEYS, sort=True):
        nested = g[g["protocol"] == "nested"].set_index("fold")["accuracy"] * 100.0
        for protocol in PROTOCOLS:
            acc = g[g["protocol"] == protocol].set_index("fold")["accuracy"] * 100.0
            if acc.empty:
                continue
            if protocol == "nested":
                n, a, opt = len(acc), t_interval(acc.to_numpy(), level), (0.0, 0.0, 0.0)
            else:
                paired = acc.index.intersection(nested.index)
                diff = (acc.loc[paired] - nested.loc[paired]).to_numpy()
                n, a, opt = len(paired), t_interval(acc.loc[paired].to_numpy(), level), t_interval(diff, level)
            rows.append(dict(zip(KEYS, key)) | {"protocol": protocol, "n": int(n),
                        "accuracy_mean": a[0], "accuracy_ci_low": a[1], "accuracy_ci_high": a[2],
                        "optimism_mean": opt[0], "optimism_ci_low": opt[1], "optimism_ci_high": opt[2]})  # fmt: skip
    return pd.DataFrame(rows, columns=COLUMNS)


def _ci(m, lo, hi) -> str:
    if pd.isna(m):
        return "n/a"
    return f"{m:.2f}" if pd.isna(lo) else f"{m:.2f} [{lo:.2f}, {hi:.2f}]"


def display_table(table: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for _, r in table.iterrows():
        rows.append(
            {
                "dataset": r["dataset"],
                "method": method_label(r),
                "protocol": r["protocol"],
                "folds": int(r["n"]),
                "accuracy (%) [95 % CI]": _ci(r["accuracy_mean"], r["accuracy_ci_low"], r["accuracy_ci_high"]),
                "optimism (points) [95 % CI]": "0 (reference)" if r["protocol"] == "nested" else _ci(r["optimism_mean"], r["optimism_ci_low"], r["optimism_ci_high"]),
            }
        )
    return pd.DataFrame(rows)


def optimism_figure(table: pd.DataFrame):
    """One panel per dataset: optimism (points) with its 95 % CI per method, one marker per audit."""
    from .figures import MARKERS, OKABE_ITO, label, message_figure, panels, plt

    audits = table[table["protocol"] != "nested"]
    if audits.empty:
        return message_figure("no audit result (campaign key audits)")
    protocols = [p for p in PROTOCOLS[1:] if p in set(audits["protocol"])]
    datasets = sorted(audits["dataset"].unique())
    fig, axes = panels(len(datasets), width=4.6, height=3.4)
    for ax, ds in zip(axes, datasets):
        sub = audits[audits["dataset"] == ds]
        labels = sorted({label(m, s) for m, s in zip(sub["method"], sub["setting"])})
        x = {lab: i for i, lab in enumerate(labels)}
        width = 0.7 / len(protocols)
        for j, protocol in enumerate(protocols):
            pts = sub[sub["protocol"] == protocol]
            if pts.empty:
                continue
            xs = np.array([x[label(m, s)] for m, s in zip(pts["method"], pts["setting"])]) - 0.35 + width * (j + 0.5)
            m = pts["optimism_mean"].to_numpy(float)
            lo, hi = pts["optimism_ci_low"].to_numpy(float), pts["optimism_ci_high"].to_numpy(float)
            yerr = np.vstack([np.nan_to_num(m - lo), np.nan_to_num(hi - m)])
            ax.errorbar(xs, m, yerr=yerr, fmt=MARKERS[j], color=OKABE_ITO[j], capsize=2, ms=5, lw=1,
                        label=protocol if ds == datasets[0] else None)  # fmt: skip
        ax.axhline(0.0, color="0.4", lw=0.8)
        ax.set_xticks(range(len(labels)), labels, rotation=30, ha="right", fontsize=7)
        ax.set_title(ds)
        ax.set_ylabel("audited - nested accuracy (points)")
        ax.grid(True, axis="y", alpha=0.3)
    fig.legend(loc="lower center", ncol=len(protocols), bbox_to_anchor=(0.5, -0.02))
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    return fig


def write_optimism(folds: pd.DataFrame, out: dict, audits=None) -> pd.DataFrame:
    """Write ``out["csv"]``, ``out["md"]`` and the figure ``out["png"]`` (and ``out["pdf"]``)."""
    from .figures import save_figure

    table = optimism_table(folds)
    atomic_write_text(out["csv"], table.to_csv(index=False, float_format=FLOAT_FORMAT, lineterminator="\n"))
    head = (
        "Selection-bias audits: accuracy (%) of the nested CV and of the papers' kinds of protocol on the same "
        "outer folds; optimism = audited minus nested accuracy, paired by fold (mean and 95 % t CI)."
    )
    if audits:
        head += f" Audits on: {', '.join(audits)}."
    md = head + "\n\n" + display_table(table).to_markdown(index=False, disable_numparse=True) + "\n"
    atomic_write_text(out["md"], md)
    save_figure(optimism_figure(table), out["png"], out.get("pdf"))
    return table
