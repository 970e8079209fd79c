"""Published figures next to ours: the reproduction table and its verdicts.

The published numbers live in ``published.yaml`` (next to this module; :mod:`.entries`), one entry per
number. For each entry of the papers a campaign reproduces, ``ours`` is computed from the campaign's
records of the same dataset (replicates pooled through ``dataset_group``) and method; an entry whose
dataset or method the campaign did not run is listed with the reason, never filled in. A gap is explained
by the audits' rule (:mod:`.audit_rule`); the report is written by :mod:`.reproduction_report`, whose
names this module re-exports with those of the other two.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from .audit_rule import (  # noqa: F401 (re-exported)
    AUDIT_CAUSES, EXPLAINED_FRACTION, _audit_explanation, _audits_tried, _on_audit_scale, moves_half_way,
    read_optimism,
)  # fmt: skip
from .entries import (  # noqa: F401 (re-exported)
    _published_runs, data_not_run, entry_key, method_not_run, not_run_verdict, published, same_as_key,
)  # fmt: skip
from .reproduction_report import (  # noqa: F401 (re-exported)
    DEPARTURE_RULE, RULE, SCORE_COLUMNS, _fmt, reproduction_latex, reproduction_markdown, scorecard,
    scorecard_markdown, unexplained_markdown, verdict_kind, write_reproduction,
)  # fmt: skip

COLUMNS = [
    "paper", "table", "dataset", "method", "setting", "metric", "published", "published_sd",
    "published_ci_low", "published_ci_high", "ours", "ours_sd", "ci_low", "ci_high", "runs", "failures",
    "difference", "verdict", "assumption", "tried", "note", "key",
]  # fmt: skip


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


def _tried(e: dict) -> str:
    """What was done to close a gap of this entry (published.yaml ``tried``), "; "-joined."""
    keys = ("paper", "table", "dataset", "method")
    out = [
        f"{t['what']} [{t['source']}]"
        for t in published().get("tried", [])
        if all(t.get(k) is None or t.get(k) == e.get(k) for k in keys)
    ]
    return "; ".join(out)


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


def judge_campaign(records_parquet, papers, campaign: str, csv: str, md: str, report: str, tex: str | None = None,
                   optimism_csv=None, protocol: dict | None = None) -> None:  # fmt: skip
    """The reproduction rule: a campaign's merged records (and its audits' ``optimism.csv``, if it has audits)
    judged against ``papers``' published figures, written by :func:`write_reproduction`; ``protocol`` is the
    campaign's ``protocol`` block (:func:`accuracy_rule`). The rule's script and ``python -m svmfs.reproduce
    rejudge`` (a committed folder's own records) both call this."""
    table = reproduction_table(pd.read_parquet(records_parquet), list(papers), optimism=read_optimism(optimism_csv),
                               protocol=protocol)  # fmt: skip
    write_reproduction(table, campaign, csv, md, report, tex)
