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
    "ours", "ours_sd", "runs", "failures", "difference", "status", "note",
]  # fmt: skip


@cache
def published() -> dict:
    """The project's copy of the published figures: ``{"papers": {...}, "entries": [...]}``."""
    source = resources.files("svmfs.analysis").joinpath("published.yaml")
    return load_yaml_text(source.read_text(), source)


def _metric_values(rows: pd.DataFrame, metric: str) -> pd.Series:
    """Per-run values of ``metric`` (percent for accuracies, error, recall and exact rate)."""
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


def _best_setting(rows: pd.DataFrame) -> str:
    means = rows.groupby("setting", sort=True)["test_accuracy"].mean()
    return str(means.idxmax())  # first of the sorted settings on ties


def reproduction_table(records: pd.DataFrame, papers: list[str]) -> pd.DataFrame:
    """One row per published entry of ``papers`` with ours, the difference (ours - published), a status."""
    pub = published()
    unknown = sorted(set(papers) - set(pub["papers"]))
    if unknown:
        raise ValueError(f"reproduces: unknown paper(s) {unknown}; known: {sorted(pub['papers'])}")
    groups = records.get("dataset_group", records["dataset"])
    rows_out = []
    for e in (e for e in pub["entries"] if e["paper"] in papers):
        row = {c: None for c in COLUMNS}
        row.update({k: e.get(k) for k in ("paper", "table", "dataset", "method", "setting", "metric", "note")})
        row["published"], row["published_sd"] = e.get("value"), e.get("sd")
        rows = records[(groups == e["dataset"]) & (records["method"] == e["method"])]
        if e.get("value") is None and (rows.empty or e["metric"] == "top5_features"):
            row["status"] = "published without a number"
        elif not (groups == e["dataset"]).any():
            row["status"] = "not run: dataset not in campaign"
        elif rows.empty and (records["method"] == e["method"]).any():
            row["status"] = "not run: method skipped on this dataset"
        elif rows.empty:
            row["status"] = "not run: method not in campaign"
        else:
            setting = e.get("setting")
            if e.get("aggregate") == "best_setting":
                setting = _best_setting(rows)
                row["note"] = f"{e.get('note', '')}; ours: {setting}".lstrip("; ")
            elif setting is None and rows["setting"].nunique() == 1:
                setting = rows["setting"].iloc[0]
            rows = rows[rows["setting"] == setting] if setting is not None else rows.iloc[0:0]
            row["setting"] = setting
            if rows.empty:
                row["status"] = "not run: setting not in campaign"
            elif e["metric"] == "top5_features":
                ours = _top_features(rows)
                row["published"] = " ".join(map(str, e["value"]))
                row["ours"] = " ".join(map(str, ours))
                row["difference"] = f"{len(set(ours) & set(e['value']))}/{len(e['value'])} shared"
                names = _feature_names(rows)
                if names:  # Table 4 names the features (the literature's are in the entry's note)
                    row["note"] = f"{row['note'] or ''}; ours named: {_named(ours, names)}".lstrip("; ")
                row["runs"], row["status"] = len(rows), "reproduced"
            else:
                vals = _metric_values(rows, e["metric"]).dropna()
                row["runs"] = len(rows)
                row["failures"] = int((~rows["status"].isin(("ok", "acceptable"))).sum())
                if vals.empty:
                    row["status"] = "no finite result"
                else:
                    row["ours"] = float(vals.mean())
                    row["ours_sd"] = float(vals.std(ddof=1)) if len(vals) > 1 else np.nan
                    if e.get("value") is None:  # e.g. KP-FS on colon: the paper stopped at 24 h, ours finished
                        row["status"] = "ours only: published without a number"
                    else:
                        row["difference"] = row["ours"] - float(e["value"])
                        row["status"] = "reproduced"
        rows_out.append(row)
    return pd.DataFrame(rows_out, columns=COLUMNS)


def _fmt(v) -> str:
    if v is None or (isinstance(v, float) and np.isnan(v)):
        return ""
    return f"{v:.2f}" if isinstance(v, float) else str(v)


def reproduction_markdown(table: pd.DataFrame, campaign: str) -> str:
    """The reproduction report: per paper, its protocol, our differences, and every published number."""
    pub = published()["papers"]
    out = [f"# Reproduction report: campaign `{campaign}`", ""]
    out.append("Ours: mean (sd) over the campaign's outer folds and dataset replicates. Difference = ours - published.")
    for paper, sub in table.groupby("paper", sort=False):
        info = pub[paper]
        out += ["", f"## {paper}", "", f"*{info['citation']}*", "", f"**Published protocol.** {info['protocol']}", ""]
        out.append("**Protocol differences that may explain a gap:**")
        out += [f"- {d}" for d in info.get("differences", [])]
        done = sub[sub["status"] == "reproduced"]
        out += ["", f"{len(done)} of {len(sub)} published numbers reproduced by this campaign.", ""]
        for tab, t in sub.groupby("table", sort=False):
            out += [f"### {tab}", "", "| dataset | method | setting | metric | published | ours | difference | status |",
                    "|---|---|---|---|---|---|---|---|"]  # fmt: skip
            for r in t.itertuples():
                pubv = _fmt(r.published) + (f" ± {_fmt(r.published_sd)}" if _fmt(r.published_sd) else "")
                ours = _fmt(r.ours) + (f" ± {_fmt(r.ours_sd)}" if _fmt(r.ours_sd) else "")
                status = r.status + (f" ({r.note})" if isinstance(r.note, str) and r.note else "")
                out.append(f"| {r.dataset} | {r.method} | {_fmt(r.setting)} | {r.metric} | {pubv} | {ours} | {_fmt(r.difference)} | {status} |")
            out.append("")
    return "\n".join(out).rstrip() + "\n"


def reproduction_latex(table: pd.DataFrame) -> str:
    """One booktabs table per published table: published, ours (mean $\\pm$ sd), difference, status."""
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
                "status": t["status"],
            }
        )
        parts.append(to_latex_booktabs(disp, f"{paper}, {tab}: published figures and this campaign's (difference = ours - published)."))
    return "\n".join(parts)


def write_reproduction(table: pd.DataFrame, campaign: str, csv: str, md: str, report: str, tex: str | None = None) -> None:
    """CSV (every entry), Markdown and LaTeX tables of the reproduced rows, and the full report."""
    atomic_write_text(csv, table.to_csv(index=False, float_format=FLOAT_FORMAT, lineterminator="\n"))
    done = table[table["status"] == "reproduced"][["paper", "table", "dataset", "method", "setting", "metric", "published", "ours", "difference"]]
    atomic_write_text(md, done.to_markdown(index=False, floatfmt=".2f") + "\n")
    if tex is not None:
        atomic_write_text(tex, reproduction_latex(table))
    atomic_write_text(report, reproduction_markdown(table, campaign))
