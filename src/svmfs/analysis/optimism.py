"""Optimism of the papers' kinds of protocol: audited minus nested-CV accuracy, paired by outer fold.

Per (dataset, method, setting) and protocol (``nested``, ``test_tuned``, ``global_selection``,
``global_scaling``): the mean test accuracy over the outer folds with its 95 % t confidence interval, and the
optimism, the audited accuracy minus the nested one on the same fold, with its mean and 95 % t interval
(mean +- t_{0.975, n-1} sd / sqrt(n) over the n paired folds; NaN bounds with fewer than 2 folds). All in
percent; nested rows have optimism 0. Folds of a failed nested job count as they are (the record's accuracy).
Each row also gives the number of features the protocol kept (mean and 95 % t interval over the same folds).

Replicated datasets (``dataset_group``, e.g. the five draws of one synthetic example) get a pooled row per
group as well (``dataset`` = the group's name, every replicate's folds paired within their replicate), since
a paper's number, and the reproduction verdict, are over the pooled runs.
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
    "optimism_mean", "optimism_ci_low", "optimism_ci_high", "n_selected_mean", "n_selected_ci_low",
    "n_selected_ci_high", "group",
]  # fmt: skip
KEYS = ["dataset", "method", "setting"]
IN_RECORD = {"test_tuned": "audit_test_tuned_accuracy", "global_scaling": "audit_global_scaling_accuracy"}
FOLD_COLUMNS = [*KEYS, "group", "fold", "protocol", "accuracy", "n_selected"]


def _n_selected(rec: dict, protocol: str) -> float:
    """The number of features a protocol kept in a select job's record (NaN where not recorded)."""
    if protocol == "nested":
        v = rec.get("n_selected")
    elif protocol == "test_tuned":
        v = (rec.get("audit_test_tuned") or {}).get("n_selected")
    else:
        v = rec.get(f"audit_{protocol}_n_selected")
    return _num(v)


def _num(v) -> float:
    return float(v) if v is not None else float("nan")  # the JSON record spells NaN as "nan"


def read_audit_records(select_jsons, global_jsons) -> pd.DataFrame:
    """Long table (dataset, method, setting, fold, protocol, accuracy in [0, 1]) from the select jobs'
    records (nested, and the in-job audits where present) and the audit_global records. A (dataset,
    method, setting) with a single split of the kp_svm protocol contributes one row per test-side resample
    (``fold`` = the resample's index) where its records keep the per-resample accuracies. ``n_selected``:
    the features each protocol kept; ``group``: the record's ``dataset_group`` (its dataset if none)."""
    rows = []
    recs = [json.loads(Path(path).read_text()) for path in select_jsons]
    globs = [json.loads(Path(path).read_text()) for path in global_jsons]
    n_folds = Counter(tuple(rec[k] for k in KEYS) for rec in recs)
    # a global_selection record without per-resample accuracies (made before they were kept) keeps its
    # (dataset, method, setting) one unit: its one accuracy is paired with the nested mean, not resample 0
    unpaired = {tuple(g[k] for k in KEYS) for g in globs if any("accuracy_resamples" not in f for f in g["folds"])}
    expanded = set()
    groups = {rec["dataset"]: rec.get("dataset_group") or rec["dataset"] for rec in recs}
    for rec in recs:
        key = {k: rec[k] for k in KEYS} | {"group": groups[rec["dataset"]], "fold": int(rec["fold"])}
        n_sel = {p: _n_selected(rec, p) for p in ("nested", *IN_RECORD)}
        per = rec.get("test_accuracy_resamples")
        audited = [f for f in IN_RECORD.values() if f in rec]
        if (n_folds[tuple(rec[k] for k in KEYS)] == 1 and per and len(per) > 1
                and all(len(rec.get(f"{f}_resamples") or []) == len(per) for f in audited)
                and tuple(rec[k] for k in KEYS) not in unpaired):  # fmt: skip
            expanded.add(tuple(rec[k] for k in KEYS))
            # one split of the kp_svm protocol: its test-side resamples are the paired units (same fit /
            # evaluation rows for every protocol), as the reproduction verdict's interval is over them
            rows += [{**key, "fold": i, "protocol": "nested", "accuracy": _num(a), "n_selected": n_sel["nested"]}
                     for i, a in enumerate(per)]  # fmt: skip
            for protocol, field in IN_RECORD.items():
                if field in rec:
                    rows += [{**key, "fold": i, "protocol": protocol, "accuracy": _num(a), "n_selected": n_sel[protocol]}
                             for i, a in enumerate(rec[f"{field}_resamples"])]  # fmt: skip
            continue
        rows.append({**key, "protocol": "nested", "accuracy": _num(rec["test_accuracy"]), "n_selected": n_sel["nested"]})
        for protocol, field in IN_RECORD.items():
            if field in rec:
                rows.append({**key, "protocol": protocol, "accuracy": _num(rec[field]), "n_selected": n_sel[protocol]})
    for rec in globs:
        key = {k: rec[k] for k in KEYS} | {"group": groups.get(rec["dataset"], rec["dataset"])}
        for f in rec["folds"]:
            if tuple(rec[k] for k in KEYS) in expanded:  # one kp_svm split: paired resample by resample
                rows += [{**key, "fold": i, "protocol": "global_selection", "accuracy": _num(a),
                          "n_selected": _num(rec.get("n_selected"))} for i, a in enumerate(f["accuracy_resamples"])]  # fmt: skip
                continue
            rows.append({**key, "fold": int(f["fold"]), "protocol": "global_selection", "accuracy": _num(f["accuracy"]),
                         "n_selected": _num(rec.get("n_selected"))})  # fmt: skip
    return pd.DataFrame(rows, columns=FOLD_COLUMNS)


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


def _with_pooled_groups(folds: pd.DataFrame) -> pd.DataFrame:
    """``folds`` plus, for every replicated dataset, its rows again under the group's name, each fold
    named ``<replicate>/<fold>`` so that the pairing stays within a replicate."""
    if "group" not in folds:
        folds = folds.assign(group=folds["dataset"])
    folds = folds.assign(fold=folds["fold"].astype(str))
    rep = folds[folds["group"] != folds["dataset"]]
    pooled = rep.assign(fold=rep["dataset"] + "/" + rep["fold"], dataset=rep["group"])
    return pd.concat([folds, pooled], ignore_index=True)


def optimism_table(folds: pd.DataFrame, level: float = 0.95) -> pd.DataFrame:
    """One row per (dataset, method, setting, protocol) present in ``folds`` (:func:`read_audit_records`),
    and per replicate group (:func:`_with_pooled_groups`), protocols in the order of :data:`PROTOCOLS`;
    accuracies and optimism in percent, the features kept as counts."""
    rows = []
    folds = _with_pooled_groups(folds)
    if "n_selected" not in folds:
        folds = folds.assign(n_selected=np.nan)
    for key, g in folds.groupby(KEYS, sort=True):
        nested = g[g["protocol"] == "nested"].set_index("fold")["accuracy"] * 100.0
        for protocol in PROTOCOLS:
            sub = g[g["protocol"] == protocol].set_index("fold")
            acc = sub["accuracy"] * 100.0
            if acc.empty:
                continue
            if protocol == "nested":
                paired = acc.index
                n, a, opt = len(acc), t_interval(acc.to_numpy(), level), (0.0, 0.0, 0.0)
            else:
                paired = acc.index.intersection(nested.index)
                diff = (acc.loc[paired] - nested.loc[paired]).to_numpy()
                n, a, opt = len(paired), t_interval(acc.loc[paired].to_numpy(), level), t_interval(diff, level)
            k = t_interval(sub["n_selected"].loc[paired].to_numpy(float), level)
            rows.append(dict(zip(KEYS, key)) | {"protocol": protocol, "n": int(n),
                        "accuracy_mean": a[0], "accuracy_ci_low": a[1], "accuracy_ci_high": a[2],
                        "optimism_mean": opt[0], "optimism_ci_low": opt[1], "optimism_ci_high": opt[2],
                        "n_selected_mean": k[0], "n_selected_ci_low": k[1], "n_selected_ci_high": k[2],
                        "group": g["group"].iloc[0]})  # fmt: skip
    return pd.DataFrame(rows, columns=COLUMNS)


def _ci(m, lo, hi) -> str:
    if pd.isna(m):
        return "n/a"
    return f"{m:.2f}" if pd.isna(lo) else f"{m:.2f} [{lo:.2f}, {hi:.2f}]"


def headline(table: pd.DataFrame) -> pd.DataFrame:
    """The rows a reader compares with a paper: plain datasets and pooled replicate groups (the per-replicate
    rows stay in the CSV)."""
    if "group" not in table:
        return table
    return table[table["group"].isna() | (table["group"] == table["dataset"])]


def display_table(table: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for _, r in headline(table).iterrows():
        rows.append(
            {
                "dataset": r["dataset"],
                "method": method_label(r),
                "protocol": r["protocol"],
                "folds": int(r["n"]),
                "accuracy (%) [95 % CI]": _ci(r["accuracy_mean"], r["accuracy_ci_low"], r["accuracy_ci_high"]),
                "optimism (points) [95 % CI]": "0 (reference)" if r["protocol"] == "nested" else _ci(r["optimism_mean"], r["optimism_ci_low"], r["optimism_ci_high"]),
                "features kept [95 % CI]": _ci(r.get("n_selected_mean"), r.get("n_selected_ci_low"), r.get("n_selected_ci_high")),
            }
        )
    return pd.DataFrame(rows)


def optimism_figure(table: pd.DataFrame):
    """One panel per dataset: optimism (points) with its 95 % CI per method, one marker per audit."""
    from .figures import MARKERS, OKABE_ITO, label, message_figure, panels, plt

    audits = headline(table)
    audits = audits[audits["protocol"] != "nested"]
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
        "outer folds; optimism = audited minus nested accuracy, paired by fold (mean and 95 % t CI); the features "
        "each protocol kept. Replicated datasets are shown pooled by group (per replicate in optimism.csv)."
    )
    if audits:
        head += f" Audits on: {', '.join(audits)}."
    md = head + "\n\n" + display_table(table).to_markdown(index=False, disable_numparse=True) + "\n"
    atomic_write_text(out["md"], md)
    save_figure(optimism_figure(table), out["png"], out.get("pdf"))
    return table
