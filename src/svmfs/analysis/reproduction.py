"""Published figures next to ours: the reproduction table and the Markdown reproduction report.

The published numbers live in ``published.yaml`` (next to this module), one entry per number. For
each entry of the papers a campaign reproduces, ``ours`` is computed from the campaign's records of
the same dataset (replicates pooled through ``dataset_group``) and method; an entry whose dataset or
method the campaign did not run is listed with the reason, never filled in.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

import numpy as np
import pandas as pd

from ..results.io import atomic_write_text
from ..results.record import FLOAT_FORMAT
from ..yamlio import load_yaml_text

COLUMNS = [
    "paper", "table", "dataset", "method", "setting", "metric", "published", "published_sd",
    "published_ci_low", "published_ci_high", "ours", "ours_sd", "ci_low", "ci_high", "runs", "failures",
    "difference", "verdict", "assumption", "tried", "note", "key",
]  # fmt: skip


def entry_key(e: dict) -> str:
    """The published number's identity (unique in published.yaml): paper, table, dataset, method, metric,
    and the entry's own setting and aggregate; the index of committed campaigns matches rows on it."""
    return "|".join(str(e.get(k) or "") for k in ("paper", "table", "dataset", "method", "metric", "setting", "aggregate"))


@cache
def published() -> dict:
    """The project's copy of the published figures: ``{"papers": {...}, "entries": [...]}``."""
    source = resources.files("svmfs.analysis").joinpath("published.yaml")
    return load_yaml_text(source.read_text(), source)


def _metric_values(rows: pd.DataFrame, metric: str, inner_cv: bool = False) -> pd.Series:
    """Per-run values of ``metric`` (percent for accuracies, error, recall and exact rate).

    One run of the kp_svm protocol (Maldonado et al.: one train/test split, the test side resampled into
    fit / evaluation parts) gives its per-resample test accuracies (``test_accuracy_resamples``) instead of
    their mean: the paper's mean (sd) is over those resamples, so the interval is too.
    ``inner_cv`` (a table the campaign's ``protocol.judged_by_inner_cv`` names): an accuracy or error is
    the final classifier's inner CV on the training side at its chosen point, one value per inner fold
    (``inner_final_accuracy_folds``), e.g. Maldonado et al.'s Table 2, "the test error for the training
    subset using 10-fold cross-validation"."""
    if inner_cv and metric in ("test_accuracy", "test_error"):
        per = [_as_list(v) for v in rows.get("inner_final_accuracy_folds", pd.Series([None] * len(rows)))]
        if any(not isinstance(v, list) or not v for v in per):
            raise ValueError("protocol.judged_by_inner_cv: a judged record has no inner_final_accuracy_folds "
                             f"(method {rows['method'].iloc[0]!r} on {rows['dataset'].iloc[0]!r}); "
                             "rerun its select jobs with this version of svmfs")  # fmt: skip
        acc = pd.Series([a for v in per for a in v], dtype=float)
        return 100.0 * acc if metric == "test_accuracy" else 100.0 * (1.0 - acc)
    if metric in ("test_accuracy", "test_error") and len(rows) == 1 and "test_accuracy_resamples" in rows:
        per = _as_list(rows["test_accuracy_resamples"].iloc[0])
        if isinstance(per, list) and len(per) > 1:
            acc = pd.Series(per, dtype=float)
            return 100.0 * acc if metric == "test_accuracy" else 100.0 * (1.0 - acc)
    acc = rows["test_accuracy"].astype(float)
    values = {
        "test_accuracy": lambda: 100.0 * acc,
        "train_accuracy": lambda: 100.0 * rows["train_accuracy"].astype(float),
        "test_error": lambda: 100.0 * (1.0 - acc),
        "n_selected": lambda: rows["n_selected"].astype(float),
        "recall": lambda: 100.0 * rows["recall_relevant"].astype(float),
        "exact_rate": lambda: 100.0 * rows["exact_relevant"].astype(float),
    }
    return values[metric]()


def pooled_values(rows: pd.DataFrame, metric: str) -> pd.Series:
    """Per-run values whose mean is the accuracy pooled over the runs' test sides (correct counts summed
    over all test points, Jimenez-Cordero et al. 2021, sec. 5.1): run i gives 100 k_i / mean(n), with k_i =
    round(accuracy_i n_i) its correct count; the mean over the runs is 100 sum(k) / sum(n), and the verdict's
    t interval is that of these values (unchanged rule). With equal test sides they are the per-run
    accuracies themselves."""
    n = rows["n_test"].astype(float)
    correct = np.round(rows["test_accuracy"].astype(float) * n)
    acc = 100.0 * correct / float(n.mean())
    return acc if metric == "test_accuracy" else 100.0 - acc


def accuracy_rule(paper: str, protocol: dict | None) -> str:
    """How a campaign's accuracies on ``paper``'s numbers are computed: ``pooled`` (:func:`pooled_values`) for
    a paper-protocol campaign of a paper that declares ``paper_protocol_accuracy: pooled`` in published.yaml,
    else ``mean`` (the mean of the per-run accuracies)."""
    if (protocol or {}).get("kind") != "paper":
        return "mean"
    return published()["papers"][paper].get("paper_protocol_accuracy", "mean")


def _as_list(v):
    return json.loads(v) if isinstance(v, str) else v  # the merged store keeps lists as JSON


def _top_features(rows: pd.DataFrame, k: int = 5) -> list[int]:
    """The k most relevant features (1-based) over the runs, as section 4.2 of Jimenez-Cordero et al.
    ranks them for Table 3: in each run the features are ranked by score (gamma_j; tied scores share
    their mean rank, so the many gamma_j = 0 do not favour low indices), the ranks are averaged over the
    runs, the k best mean ranks win (ties by index). Runs without scores: the k features selected most
    often (ties by index)."""
    from scipy.stats import rankdata

    scores = [_as_list(v) for v in rows["scores"]] if "scores" in rows else []
    if scores and all(v is not None and len(v) > 0 for v in scores):
        S = np.asarray(scores, dtype=float)
        mean_rank = np.mean([rankdata(-np.nan_to_num(r, nan=-np.inf), method="average") for r in S], axis=0)
        return [int(j) + 1 for j in np.lexsort((np.arange(mean_rank.size), mean_rank))[:k]]
    counts: dict[int, int] = {}
    for sel in rows["selected"]:
        sel = _as_list(sel)
        for j in sel if sel is not None else []:
            counts[int(j)] = counts.get(int(j), 0) + 1
    return [j + 1 for j, _ in sorted(counts.items(), key=lambda t: (-t[1], t[0]))[:k]]


def _feature_names(rows: pd.DataFrame) -> dict[int, str]:
    """Names of the features (1-based) the runs selected, from the records' ``selected_names``."""
    names: dict[int, str] = {}
    if "selected_names" not in rows:
        return names
    for sel, nm in zip(rows["selected"], rows["selected_names"]):
        sel, nm = _as_list(sel), _as_list(nm)
        if isinstance(sel, list) and isinstance(nm, list):
            names.update((int(j) + 1, str(n)) for j, n in zip(sel, nm))
    return names


def _named(features: list[int], names: dict[int, str]) -> str:
    """``21 radius_worst, 22 texture_worst, ...``; a feature no run selected keeps its index alone."""
    return ", ".join(f"{j} {names[j]}" if j in names else f"{j} (not selected)" for j in features)


def best_run(rows: pd.DataFrame) -> pd.DataFrame:
    """The one run a "best of the runs" number comes from: section 5.4 of the MIT 9.520 project, "We run 5
    iterations for all three methods and keep the best result" (Tables 4-5; sheet row M26, reading (i)+(a)):
    the run with the lowest test error gives both its test error and its feature count; runs tied on the
    error go to the fewer selected features, then to the earlier run (dataset, fold)."""
    keys = rows.assign(_error=-rows["test_accuracy"].astype(float), _n=rows["n_selected"].astype(float))
    order = keys.sort_values(["_error", "_n", "dataset", "fold"], kind="mergesort").index
    return rows.loc[order[:1]]


def _best_setting(rows: pd.DataFrame, rule: str = "mean") -> str:
    if rule == "pooled":
        means = rows.groupby("setting", sort=True).apply(lambda r: pooled_values(r, "test_accuracy").mean())
    else:
        means = rows.groupby("setting", sort=True)["test_accuracy"].mean()
    return str(means.idxmax())  # first of the sorted settings on ties


def _half_unit(value) -> float:
    """Half a unit of the published number's last printed digit (97.35 -> 0.005, 100 -> 0.5): a
    published figure is rounded, so it stands for any value within that much of it."""
    text = repr(float(value)) if not isinstance(value, int) else str(value)
    if "e" in text or "inf" in text or "nan" in text:
        return 0.0
    decimals = len(text.split(".")[1].rstrip("0")) if "." in text else 0
    return 0.5 * 10.0 ** (-decimals)


def t_interval(values) -> tuple[float, float]:
    """95 % Student t interval for the mean of ``values`` (one value: the value itself)."""
    from scipy.stats import t

    v = np.asarray(values, dtype=float)
    mean = float(v.mean())
    if v.size < 2:
        return mean, mean
    half = float(t.ppf(0.975, v.size - 1) * v.std(ddof=1) / np.sqrt(v.size))
    return mean - half, mean + half


def _published_runs(e: dict, ours_n: int) -> tuple[int, str | None]:
    """The paper's run count behind its sd (its ``runs`` per table), else the campaign's own count."""
    runs = published()["papers"][e["paper"]].get("runs", {})
    n = e.get("runs", runs.get(e["table"]) if isinstance(runs, dict) else runs)
    if n:
        return int(n), None
    return ours_n, f"paper's run count unknown: taken as the campaign's {ours_n}"


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


def _tried(e: dict) -> str:
    """What was done to close a gap of this entry (published.yaml ``tried``), "; "-joined."""
    keys = ("paper", "table", "dataset", "method")
    out = [
        f"{t['what']} [{t['source']}]"
        for t in published().get("tried", [])
        if all(t.get(k) is None or t.get(k) == e.get(k) for k in keys)
    ]
    return "; ".join(out)


def _on_audit_scale(e: dict, vals) -> float:
    """Our mean on the audit table's scale: an error entry's values become accuracies (100 - error)."""
    m = float(np.mean(vals)) if len(vals) else float("nan")
    return 100.0 - m if e["metric"] == "test_error" else m


def verdict(e: dict, vals, setting=None, optimism: pd.DataFrame | None = None) -> dict:
    """The verdict on one published number against our per-run values (percent or counts).

    ``agrees``: the published value (give or take half its last printed digit) lies in our 95 % t
    interval for the mean, or, where the paper gives an sd, the paper's 95 % interval (its sd over its
    run count) overlaps ours. Otherwise a ``gap``: explained by a measured audit (the published value
    inside an audited accuracy's 95 % interval), else by the entry's recorded ``explained_by``
    evidence, else unexplained.
    """
    lo, hi = t_interval(vals)
    pub = float(e["value"])
    r = _half_unit(e["value"])
    out = {"ci_low": lo, "ci_high": hi, "published_ci_low": pub - r, "published_ci_high": pub + r, "assumption": None}
    if e.get("sd") is not None:
        n_pub, assumption = _published_runs(e, len(vals))
        if n_pub >= 2:
            from scipy.stats import t

            half = float(t.ppf(0.975, n_pub - 1) * float(e["sd"]) / np.sqrt(n_pub))
            out["published_ci_low"], out["published_ci_high"] = pub - max(half, r), pub + max(half, r)
        out["assumption"] = "; ".join(filter(None, (out["assumption"], assumption))) or None
    if len(vals) > 1 and lo == hi:
        out["assumption"] = "every run gave the same value: our interval is a point"
    tol = 1e-9 * max(1.0, abs(pub))
    if out["published_ci_low"] <= hi + tol and lo - tol <= out["published_ci_high"]:
        out["verdict"] = "agrees"
        return out
    cause = _audit_explanation(e, setting, optimism, _on_audit_scale(e, vals))
    if cause is None and isinstance(e.get("explained_by"), dict) and e["explained_by"].get("evidence"):
        cause = str(e["explained_by"]["kind"])
    out["verdict"] = f"gap, explained: {cause}" if cause else "gap, unexplained"
    return out


def data_not_run(e: dict) -> str | None:
    """The not-run verdict of a published entry whose data cannot be had here, else None: no public source
    (``unavailable``, by dataset), or public but not reachable from the machine that ran the committed
    campaigns (``unreachable``, by dataset or by "paper/table")."""
    pub = published()
    why = pub.get("unavailable", {}).get(e["dataset"])
    if why:
        return f"not run: no public source ({why})"
    unreachable = pub.get("unreachable", {})
    why = unreachable.get(e["dataset"]) or unreachable.get(f"{e['paper']}/{e['table']}")
    return f"not run: not reachable here ({why})" if why else None


def method_not_run(e: dict) -> str | None:
    """The not-run verdict of a published entry whose method cannot be run here, else None: a number the
    paper copies from another paper that ``published.yaml`` also holds (``same_as``: judged as that entry,
    :func:`same_as_key`), or a method no module implements (``not_implemented``, by method)."""
    if e.get("same_as"):
        ref = e["same_as"]
        return f"not run: copied from {ref['paper']} {ref['table']} ({ref['method']}), judged there"
    why = published().get("not_implemented", {}).get(e["method"])
    return f"not run: not implemented here ({why})" if why else None


def same_as_key(e: dict) -> str | None:
    """The key of the entry a copied number stands for (its ``same_as``: paper, table and method; the
    dataset, metric, setting and aggregate are the entry's own); None if it is not a copy."""
    return entry_key({**e, **e["same_as"]}) if e.get("same_as") else None


def not_run_verdict(e: dict, reason: str) -> str:
    """Why a published entry was not run: its data's or its method's own reason, else ``reason``."""
    return data_not_run(e) or method_not_run(e) or f"not run: {reason}"


def _score_row(row: dict, e: dict, rows: pd.DataFrame, setting, rule: str, inner_cv_tables: tuple,
               best_run_tables: tuple, optimism: pd.DataFrame | None) -> None:
    """Fill ``row`` for a published number with runs: ours (by the entry's protocol: best run, pooled
    counts or the inner CV), its spread and interval, the difference and the verdict."""
    by_inner_cv = e["table"] in inner_cv_tables and e["metric"] in ("test_accuracy", "test_error")
    n_runs = len(rows)
    if e["table"] in best_run_tables:
        rows = best_run(rows)
        chosen = rows.iloc[0]
        row["note"] = "; ".join(filter(None, (row["note"], f"ours: the best of {n_runs} runs (fold {chosen['fold']}: the lowest test error, ties to fewer features; protocol.judged_by_best_run)")))
    if rule == "pooled":
        vals = pooled_values(rows, e["metric"]).dropna()
        row["note"] = f"{row['note'] or ''}; ours: correct counts pooled over the runs' test points".lstrip("; ")
    else:
        vals = _metric_values(rows, e["metric"], by_inner_cv).dropna()
    if by_inner_cv:
        row["note"] = "; ".join(filter(None, (row["note"], "ours: the inner CV on the training side, one value per fold (protocol.judged_by_inner_cv)")))
    row["runs"] = n_runs
    row["failures"] = int((~rows["status"].isin(("ok", "acceptable"))).sum())
    if vals.empty:
        row["verdict"] = "no verdict: no finite result"
        return
    row["ours"] = float(vals.mean())
    row["ours_sd"] = float(vals.std(ddof=1)) if len(vals) > 1 else np.nan
    if e.get("value") is None:  # e.g. KP-FS on colon: the paper stopped at 24 h, ours finished
        row["verdict"] = "no verdict: ours only, published without a number"
        row["ci_low"], row["ci_high"] = t_interval(vals)
    else:
        row["difference"] = row["ours"] - float(e["value"])
        row.update(verdict(e, vals.to_numpy(), setting, optimism))


def reproduction_table(records: pd.DataFrame, papers: list[str], optimism: pd.DataFrame | None = None,
                       protocol: dict | None = None) -> pd.DataFrame:  # fmt: skip
    """One row per published entry of ``papers``: ours, our 95 % interval, the difference
    (ours - published) and the verdict (:func:`verdict`); ``optimism`` is the audits' table, if any;
    ``protocol`` the campaign's ``protocol`` block: accuracies by :func:`accuracy_rule`, and the tables of
    its ``judged_by_inner_cv`` judged by the inner CV on the training side (:func:`_metric_values`), those of
    its ``judged_by_best_run`` by the one run :func:`best_run` picks."""
    pub = published()
    unknown = sorted(set(papers) - set(pub["papers"]))
    if unknown:
        raise ValueError(f"reproduces: unknown paper(s) {unknown}; known: {sorted(pub['papers'])}")
    groups = records.get("dataset_group", records["dataset"])
    inner_cv_tables = tuple((protocol or {}).get("judged_by_inner_cv") or ())
    best_run_tables = tuple((protocol or {}).get("judged_by_best_run") or ())
    rows_out = []
    for e in (e for e in pub["entries"] if e["paper"] in papers):
        row = {c: None for c in COLUMNS}
        row.update({k: e.get(k) for k in ("paper", "table", "dataset", "method", "setting", "metric", "note")})
        row["published"], row["published_sd"], row["key"] = e.get("value"), e.get("sd"), entry_key(e)
        rows = records[(groups == e["dataset"]) & (records["method"] == e["method"])]
        if e.get("value") is None and (rows.empty or e["metric"] == "top5_features"):
            row["verdict"] = "no verdict: published without a number"
        elif not (groups == e["dataset"]).any():
            row["verdict"] = not_run_verdict(e, "dataset not in campaign")
        elif rows.empty and (records["method"] == e["method"]).any():
            row["verdict"] = "not run: method skipped on this dataset"
        elif rows.empty:
            row["verdict"] = not_run_verdict(e, "method not in campaign")
        else:
            setting = e.get("setting")
            rule = accuracy_rule(e["paper"], protocol) if e["metric"] in ("test_accuracy", "test_error") else "mean"
            if e.get("aggregate") == "best_setting":
                setting = _best_setting(rows, rule)
                row["note"] = f"{e.get('note', '')}; ours: {setting}".lstrip("; ")
            elif setting is None and rows["setting"].nunique() == 1:
                setting = rows["setting"].iloc[0]
            rows = rows[rows["setting"] == setting] if setting is not None else rows.iloc[0:0]
            row["setting"] = setting
            if rows.empty:
                row["verdict"] = "not run: setting not in campaign"
            elif e["metric"] == "top5_features":
                ours = _top_features(rows)
                row["published"] = " ".join(map(str, e["value"]))
                row["ours"] = " ".join(map(str, ours))
                row["difference"] = f"{len(set(ours) & set(e['value']))}/{len(e['value'])} shared"
                names = _feature_names(rows)
                if names:  # Table 4 names the features (the literature's are in the entry's note)
                    row["note"] = f"{row['note'] or ''}; ours named: {_named(ours, names)}".lstrip("; ")
                row["runs"] = len(rows)
                row["verdict"] = f"no verdict: feature sets ({row['difference']})"
            else:
                _score_row(row, e, rows, setting, rule, inner_cv_tables, best_run_tables, optimism)
        if str(row["verdict"]).startswith("gap"):
            ours = _on_audit_scale(e, [row["ours"]]) if row["ours"] is not None else float("nan")
            audits = _audits_tried(e, row["setting"], optimism, ours) if row["verdict"] == "gap, unexplained" else ""
            row["tried"] = "; ".join(t for t in (_tried(e), audits) if t) or None
        rows_out.append(row)
    return pd.DataFrame(rows_out, columns=COLUMNS)


def verdict_kind(v: str) -> str:
    """The scorecard column of a verdict: agrees, gap explained, gap unexplained, not run, no verdict."""
    v = str(v)
    if v == "agrees":
        return "agrees"
    if v.startswith("gap, explained"):
        return "gap explained"
    if v.startswith("gap"):
        return "gap unexplained"
    if v.startswith("not run"):
        return "not run"
    return "no verdict"


SCORE_COLUMNS = ["paper", "table", "published", "run", "agrees", "gap explained", "gap unexplained", "not run", "no verdict", "not run because"]


def scorecard(table: pd.DataFrame) -> pd.DataFrame:
    """Per paper and table: numbers published, run, agreeing, gaps explained / unexplained, not run (why)."""
    out = []
    for (paper, tab), t in table.groupby(["paper", "table"], sort=False):
        kinds = t["verdict"].map(verdict_kind)
        reasons = t.loc[kinds == "not run", "verdict"].str.replace("not run: ", "", regex=False).value_counts()
        why = "; ".join(f"{n} {r}" for r, n in sorted(reasons.items(), key=lambda x: (-x[1], x[0])))
        out.append({
            "paper": paper, "table": tab, "published": int(t["published"].notna().sum()),
            "run": int(kinds.isin(["agrees", "gap explained", "gap unexplained"]).sum()),
            "agrees": int((kinds == "agrees").sum()), "gap explained": int((kinds == "gap explained").sum()),
            "gap unexplained": int((kinds == "gap unexplained").sum()), "not run": int((kinds == "not run").sum()),
            "no verdict": int((kinds == "no verdict").sum()), "not run because": why,
        })  # fmt: skip
    return pd.DataFrame(out, columns=SCORE_COLUMNS)


def scorecard_markdown(card: pd.DataFrame) -> list[str]:
    cols = SCORE_COLUMNS
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for r in card.itertuples(index=False):
        lines.append("| " + " | ".join(str(v) for v in r) + " |")
    return lines


def unexplained_markdown(table: pd.DataFrame) -> list[str]:
    """The unexplained gaps, each with what was tried (published.yaml ``tried``) or "nothing yet"."""
    gaps = table[table["verdict"].map(verdict_kind) == "gap unexplained"]
    out = []
    for r in gaps.itertuples():
        tried = r.tried if isinstance(r.tried, str) and r.tried else "nothing recorded yet"
        out.append(f"- {r.paper} {r.table}, {r.dataset} / {r.method} {_fmt(r.setting)} {r.metric}: published "
                   f"{_fmt(r.published)}, ours {_fmt(r.ours)} [{_fmt(r.ci_low)}, {_fmt(r.ci_high)}], "
                   f"difference {_fmt(r.difference)}. Tried: {tried}")  # fmt: skip
    return out


def _fmt(v) -> str:
    """Two decimals for a number, also one read back as text from a CSV column that mixes numbers with
    feature lists (``ours`` of a table with top-5 rows); other text as it is."""
    if isinstance(v, str):
        try:
            v = float(v)
        except ValueError:
            return v
    if v is None or (isinstance(v, float) and np.isnan(v)):
        return ""
    return f"{v:.2f}" if isinstance(v, float) else str(v)


def _interval(lo, hi) -> str:
    return f"[{_fmt(lo)}, {_fmt(hi)}]" if _fmt(lo) else ""


RULE = (
    "Verdict: **agrees** when the published number (give or take half its last printed digit) lies in "
    "our 95 % t interval for the mean over outer folds / instances / replicates, or, where the paper "
    "gives its own sd, when the paper's 95 % interval (its sd over its number of runs; where the paper "
    "does not state that number, the campaign's own count is assumed, as the row says) overlaps ours; "
    "feature counts and recall by the same rule. Otherwise a **gap** (difference = ours - published): "
    "*explained* only by a measured audit (the published value inside an audited accuracy's, or for a "
    "feature count the audited count's, 95 % interval, `tables/optimism.csv`, replicates pooled by group, "
    "and the audit moving our mean at least half-way to the published value) or by evidence recorded for the entry in `published.yaml`, else "
    "*unexplained*. One run gives a point, not an interval."
)

DEPARTURE_RULE = (
    "A departure (a campaign with `protocol.measures`) explains a gap only where its protocol sheet row is "
    "marked \"departs\" (a \"readings\" row run as a measuring campaign never explains), the published value "
    "lies inside its 95 % interval, it moves our mean at least half-way there, and its move on that number "
    "exceeds the number's seed-redraw spread (the largest move a seed redraw of the same campaign made on the "
    "same number: `measures.explains: false`); where no redraw ran the number, the gap stays unexplained. "
    "Both ways: a \"departs\" row whose move exceeds that spread and turns an agreement into a gap **breaks** "
    "it, counted in the scorecard's `breaks` beside `gap explained` (the verdict stays the judging "
    "campaign's). A redraw explains and breaks nothing."
)


def reproduction_markdown(table: pd.DataFrame, campaign: str) -> str:
    """The reproduction report: the scorecard, the unexplained gaps with what was tried, then per paper
    its protocol, our differences, and every published number with its verdict."""
    pub = published()["papers"]
    out = [f"# Reproduction report: campaign `{campaign}`", "", "## Scorecard", ""]
    out += scorecard_markdown(scorecard(table))
    out += ["", RULE, ""]
    gaps = unexplained_markdown(table)
    out += ["## Unexplained gaps and what was tried", ""] + (gaps or ["None."])
    out += ["", "Ours: mean ± sd over the campaign's outer folds and dataset replicates, then our 95 % interval."]
    for paper, sub in table.groupby("paper", sort=False):
        info = pub[paper]
        out += ["", f"## {paper}", "", f"*{info['citation']}*", "", f"**Published protocol.** {info['protocol']}", ""]
        out.append("**Protocol differences that may explain a gap:**")
        out += [f"- {d}" for d in info.get("differences", [])]
        kinds = sub["verdict"].map(verdict_kind)
        out += ["", f"{int(kinds.isin(['agrees', 'gap explained', 'gap unexplained']).sum())} of {len(sub)} published "
                f"numbers run by this campaign: {int((kinds == 'agrees').sum())} agree, "
                f"{int((kinds == 'gap explained').sum())} gaps explained, {int((kinds == 'gap unexplained').sum())} unexplained.", ""]  # fmt: skip
        for tab, t in sub.groupby("table", sort=False):
            out += [f"### {tab}", "", "| dataset | method | setting | metric | published | ours | ours 95 % | difference | verdict |",
                    "|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
            for r in t.itertuples():
                pubv = _fmt(r.published) + (f" ± {_fmt(r.published_sd)}" if _fmt(r.published_sd) else "")
                ours = _fmt(r.ours) + (f" ± {_fmt(r.ours_sd)}" if _fmt(r.ours_sd) else "")
                extra = [x for x in (r.assumption, r.note) if isinstance(x, str) and x]
                v = r.verdict + (f" ({'; '.join(extra)})" if extra else "")
                out.append(f"| {r.dataset} | {r.method} | {_fmt(r.setting)} | {r.metric} | {pubv} | {ours} | "
                           f"{_interval(r.ci_low, r.ci_high)} | {_fmt(r.difference)} | {v} |")  # fmt: skip
            out.append("")
    return "\n".join(out).rstrip() + "\n"


def reproduction_latex(table: pd.DataFrame) -> str:
    """One booktabs table per published table: published, ours (mean $\\pm$ sd), difference, verdict."""
    from .tables import to_latex_booktabs

    parts = []
    for (paper, tab), t in table.groupby(["paper", "table"], sort=False):
        disp = pd.DataFrame(
            {
                "dataset": t["dataset"],
                "method": t["method"],
                "setting": [_fmt(v) for v in t["setting"]],
                "metric": t["metric"],
                "published": [_fmt(p) + (f" ± {_fmt(sd)}" if _fmt(sd) else "") for p, sd in zip(t["published"], t["published_sd"])],
                "ours": [_fmt(o) + (f" ± {_fmt(sd)}" if _fmt(sd) else "") for o, sd in zip(t["ours"], t["ours_sd"])],
                "difference": [_fmt(d) for d in t["difference"]],
                "verdict": t["verdict"],
            }
        )
        parts.append(to_latex_booktabs(disp, f"{paper}, {tab}: published figures and this campaign's (difference = ours - published)."))
    return "\n".join(parts)


def write_reproduction(table: pd.DataFrame, campaign: str, csv: str, md: str, report: str, tex: str | None = None) -> None:
    """CSV (every entry), Markdown and LaTeX tables of the rows run, and the full report."""
    atomic_write_text(csv, table.to_csv(index=False, float_format=FLOAT_FORMAT, lineterminator="\n"))
    run = table["verdict"].map(verdict_kind).isin(["agrees", "gap explained", "gap unexplained"])
    done = table[run][["paper", "table", "dataset", "method", "setting", "metric", "published", "ours", "ci_low", "ci_high", "difference", "verdict"]]
    atomic_write_text(md, done.to_markdown(index=False, floatfmt=".2f") + "\n")
    if tex is not None:
        atomic_write_text(tex, reproduction_latex(table))
    atomic_write_text(report, reproduction_markdown(table, campaign))


def judge_campaign(records_parquet, papers, campaign: str, csv: str, md: str, report: str, tex: str | None = None,
                   optimism_csv=None, protocol: dict | None = None) -> None:  # fmt: skip
    """The reproduction rule: a campaign's merged records (and its audits' ``optimism.csv``, if it has audits)
    judged against ``papers``' published figures, written by :func:`write_reproduction`; ``protocol`` is the
    campaign's ``protocol`` block (:func:`accuracy_rule`). The rule's script and ``python -m svmfs.reproduce
    rejudge`` (a committed folder's own records) both call this."""
    table = reproduction_table(pd.read_parquet(records_parquet), list(papers), optimism=read_optimism(optimism_csv),
                               protocol=protocol)  # fmt: skip
    write_reproduction(table, campaign, csv, md, report, tex)
