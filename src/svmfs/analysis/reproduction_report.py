"""The reproduction report: the scorecard, the unexplained gaps, and every published number with its
verdict, as Markdown, LaTeX and CSV (the verdicts themselves: :mod:`svmfs.analysis.reproduction`).

Examples
--------
>>> verdict_kind("gap, explained: selection bias (+3.1 measured, global_selection)")
'gap explained'
>>> _fmt("97.5")
'97.50'
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..results.io import atomic_write_text
from ..results.record import FLOAT_FORMAT
from .entries import published


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
