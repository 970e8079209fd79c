"""Departures measured: a campaign that reruns another campaign's protocol with one element changed.

A protocol sheet (docs/protocols/<paper>.md) marks a row "departs" where the campaign does what the paper
does not state (the paper is silent, the data are not reachable here, time). A campaign with the config key
``protocol.measures: {campaign: <the measured campaign>, departure: "<row id>: <what changes>"}`` measures
that one departure. It never judges a published number itself. REPRODUCTION.md lists every number it ran
beside the measured campaign's result.

The explanation rule, both ways. A departure explains a gap of the campaign that judges the number only
when all of these hold:

1. its sheet row is marked ``departs`` (a ``readings`` row run as a measuring campaign measures a reading
   the text admits: it never explains);
2. the audits' rule (:data:`svmfs.analysis.audit_rule.EXPLAINED_FRACTION`): the published value inside
   the departure's 95 % interval, and our mean moved at least half-way to it;
3. its measured effect on that number exceeds the seed-redraw spread measured for that number: the largest
   move, on the same number of the same measured campaign, of a campaign that only redraws what is random
   (another seed for instances the paper never published: ``measures.explains: false``). Where no redraw
   ran the number, its spread is unknown and the gap stays unexplained: a move a redraw could make is no
   explanation.

Symmetrically a departure *breaks* an agreement where the measured campaign's number agrees, the
departure's own verdict on it is a gap, its row is marked ``departs`` and its effect exceeds the number's
redraw spread; REPRODUCTION.md counts the breaks beside the gaps explained. A redraw itself never explains
or breaks: among enough redraws one lands half-way to any number within that spread.

Reads reproduction tables and the sheets' ``## Elements`` tables only.
"""

from __future__ import annotations

import math
import re
from functools import cache
from pathlib import Path

import pandas as pd

COLUMNS = ["paper", "table", "dataset", "method", "setting", "metric", "published", "key", "campaign", "ours",
           "ci_low", "ci_high", "verdict", "judges", "departure", "departure_campaign", "departure_ours",
           "departure_ci_low", "departure_ci_high", "departure_verdict", "change", "status", "spread",
           "spread_campaign", "explains", "breaks", "redraw"]  # fmt: skip

#: The protocol sheets of the repository (docs/protocols/<paper>.md).
SHEETS = Path(__file__).resolve().parents[3] / "docs" / "protocols"


def measures(protocol: dict | None) -> dict | None:
    """The campaign's ``protocol.measures`` block, or None for a campaign that judges its own numbers."""
    return (protocol or {}).get("measures") or None


def row_id(departure: str) -> str:
    """The sheet row a ``measures.departure`` names: its leading id (``"C20 (b): ..."`` -> ``"C20"``).

    Examples
    --------
    >>> row_id("K6: training subset 0.33 of the rows")
    'K6'
    >>> row_id("M13 (b): the kept count tuned over every size")
    'M13'
    """
    m = re.match(r"\s*([A-Z]\d+)\b", str(departure))
    return m.group(1) if m else ""


def _cells(line: str) -> list[str]:
    """The cells of one markdown table row (a ``|`` inside backticks does not split)."""
    cells, cur, code = [], "", False
    for ch in line.strip()[1:-1]:
        code = not code if ch == "`" else code
        if ch == "|" and not code:
            cells.append(cur.strip())
            cur = ""
        else:
            cur += ch
    return cells + [cur.strip()]


def parse_statuses(text: str) -> dict[str, str]:
    """``{row id: status}`` of one sheet's ``## Elements`` table (columns id, ..., status as the fifth).

    Examples
    --------
    >>> sheet = "## Elements\\n\\n| id | a | b | c | status |\\n|---|---|---|---|---|\\n| R1 | x | y | `z` | departs |\\n"
    >>> parse_statuses(sheet)
    {'R1': 'departs'}
    """
    if "## Elements" not in text:
        return {}
    section = text.split("## Elements", 1)[1].split("\n## ", 1)[0]
    rows = [_cells(ln) for ln in section.splitlines() if ln.strip().startswith("|")][2:]
    return {r[0]: r[4] for r in rows if len(r) >= 5}


@cache
def sheet_statuses(sheets: Path = SHEETS) -> dict[str, str]:
    """``{row id: status}`` over every protocol sheet in ``sheets`` (no sheets: empty, nothing explains)."""
    out: dict[str, str] = {}
    for path in sorted(Path(sheets).glob("*.md")) if Path(sheets).is_dir() else []:
        out.update(parse_statuses(path.read_text(encoding="utf-8")))
    return out


def _float(v) -> float:
    try:
        return float(v)
    except (TypeError, ValueError):
        return math.nan


def _half_way(published: float, ours: float, dep: float, lo: float, hi: float) -> bool:
    """The audits' rule (:func:`svmfs.analysis.audit_rule.moves_half_way`), for a number, not a feature list."""
    from .audit_rule import moves_half_way

    if not all(map(math.isfinite, (published, ours, dep, lo, hi))):
        return False
    return moves_half_way(published, lo, hi, dep - ours, published - ours)


def _row(r, b, spec: dict, name: str, measured: str, judges: bool, status: str) -> dict:
    """One departure row before the rule (:func:`apply_rule`): both results, the change and the row's status."""
    dep, ours = _float(r.get("ours")), _float(b.get("ours"))
    return {
        **{c: r.get(c) for c in ("paper", "table", "dataset", "method", "setting", "metric", "published", "key")},
        "campaign": measured, "ours": ours, "ci_low": b.get("ci_low"), "ci_high": b.get("ci_high"),
        "verdict": str(b.get("verdict")), "judges": judges, "departure": spec["departure"], "departure_campaign": name,
        "departure_ours": dep, "departure_ci_low": _float(r.get("ci_low")), "departure_ci_high": _float(r.get("ci_high")),
        "departure_verdict": str(r.get("verdict")), "change": dep - ours, "status": status,
        "spread": math.nan, "spread_campaign": "", "explains": False, "breaks": False,
        "redraw": not spec.get("explains", True),
    }  # fmt: skip


def departure_rows(merged: pd.DataFrame, measuring: list[tuple[str, pd.DataFrame, dict]],
                   tables: dict[str, pd.DataFrame], statuses: dict[str, str] | None = None) -> pd.DataFrame:
    """One row per (published number, departure campaign that ran it) where the measured campaign ran it too:
    the measured campaign's result and verdict, the departure's, their difference (``change`` = departure -
    measured), the sheet status of the departure's row, the number's seed-redraw spread, and whether the
    departure explains the gap or breaks the agreement (:func:`apply_rule`; only where the measured campaign
    is the one whose verdict ``merged`` counts, ``judges``). ``measuring``: (name, reproduction table,
    provenance whose ``protocol`` has ``measures``); ``tables``: every campaign's reproduction table by name,
    for the measured one's results; ``statuses``: ``{row id: status}`` (default: the repository's sheets,
    :func:`sheet_statuses`)."""
    statuses = sheet_statuses() if statuses is None else statuses
    rows = []
    judge = dict(zip(merged["key"], merged["campaign"]))
    for name, table, prov in sorted(measuring, key=lambda c: c[0]):
        spec = measures(prov.get("protocol"))
        measured = spec["campaign"]
        base = tables.get(measured)
        if base is None:
            raise ValueError(f"{name}: protocol.measures.campaign: no committed campaign {measured!r} to measure")
        base = base.set_index("key")
        status = statuses.get(row_id(spec["departure"]), "not in the sheets")
        for _, r in table.iterrows():
            if r["key"] not in base.index or not math.isfinite(_float(r.get("ours"))):
                continue
            b = base.loc[r["key"]]
            if not math.isfinite(_float(b.get("ours"))):
                continue
            rows.append(_row(r, b, spec, name, measured, judge.get(r["key"]) == measured, status))
    return apply_rule(pd.DataFrame(rows, columns=COLUMNS))


def apply_rule(rows: pd.DataFrame) -> pd.DataFrame:
    """``rows`` with each number's seed-redraw ``spread`` (the largest ``|change|`` of a redraw of the same
    measured campaign on the same number; NaN where none ran it) and the rule applied both ways:
    ``explains`` (a gap closed) and ``breaks`` (an agreement broken), each only for a ``departs`` row that is
    no redraw, whose verdict counts (``judges``) and whose ``|change|`` exceeds the spread.

    Examples
    --------
    >>> import pandas as pd
    >>> base = {"key": "k", "campaign": "p", "published": 90.0, "ours": 80.0, "verdict": "gap, unexplained",
    ...         "judges": True, "departure_ci_low": 85.0, "departure_ci_high": 95.0, "departure_verdict": "agrees",
    ...         "status": "departs"}
    >>> rows = pd.DataFrame([{**base, "departure_campaign": "p_seed", "departure_ours": 82.0, "change": 2.0,
    ...                       "redraw": True},
    ...                      {**base, "departure_campaign": "p_dep", "departure_ours": 89.0, "change": 9.0,
    ...                       "redraw": False}], columns=COLUMNS)
    >>> apply_rule(rows)[["departure_campaign", "spread", "explains"]].values.tolist()
    [['p_seed', 2.0, False], ['p_dep', 2.0, True]]
    """
    out = rows.copy()
    if out.empty:
        return out
    redraws = out[out["redraw"].astype(bool)]
    spread: dict[tuple, tuple[float, str]] = {}
    for r in redraws.itertuples():
        k = (r.campaign, r.key)
        if k not in spread or abs(r.change) > spread[k][0]:
            spread[k] = (abs(float(r.change)), r.departure_campaign)
    found = [spread.get((c, k), (math.nan, "")) for c, k in zip(out["campaign"], out["key"])]
    out["spread"] = [s for s, _ in found]
    out["spread_campaign"] = [n for _, n in found]
    beyond = (out["change"].abs() > out["spread"]) & out["spread"].notna()
    eligible = (out["status"] == "departs") & ~out["redraw"].astype(bool) & out["judges"].astype(bool) & beyond
    gap = out["verdict"].astype(str).str.startswith("gap, unexplained")
    half = [_half_way(_float(r.published), r.ours, r.departure_ours, r.departure_ci_low, r.departure_ci_high)
            for r in out.itertuples()]  # fmt: skip
    out["explains"] = eligible & gap & pd.Series(half, index=out.index, dtype=bool)
    out["breaks"] = eligible & (out["verdict"] == "agrees") & out["departure_verdict"].astype(str).str.startswith("gap")
    return out


def _why_not(g) -> str:
    """Why a departure measured on an unexplained gap does not explain it (the first rule it fails)."""
    if g.redraw:
        return "a redraw (measures.explains: false): it measures the draw's spread and explains nothing"
    if g.status != "departs":
        return f"its sheet row is marked {g.status!r}, not 'departs': it measures a reading and explains nothing"
    if not _half_way(_float(g.published), g.ours, g.departure_ours, g.departure_ci_low, g.departure_ci_high):
        return "not both holding the published value and half-way to it"
    if not math.isfinite(g.spread):
        return "no seed redraw ran this number: its redraw spread is unknown, so the move explains nothing"
    return f"its move is inside the seed-redraw spread (±{g.spread:.2f}, {g.spread_campaign})"


def apply_departures(merged: pd.DataFrame, rows: pd.DataFrame) -> pd.DataFrame:
    """``merged`` with each unexplained gap a departure explains marked "gap, explained: departure <id>
    (<change> measured, <campaign>; beyond the seed-redraw spread ±<s>, <redraw>)", and the departures
    measured without explaining it added to its ``tried`` (mean, interval, the change against the change
    needed, and the rule it fails)."""
    out = merged.copy()
    if rows.empty:
        return out
    for key, group in rows[rows["judges"]].groupby("key", sort=False):
        i = out.index[out["key"] == key][0]
        if not str(out.loc[i, "verdict"]).startswith("gap, unexplained"):
            continue
        hit = group[group["explains"]]
        if not hit.empty:
            h = hit.iloc[0]
            unit = " features" if h["metric"] == "n_selected" else ""
            out.loc[i, "verdict"] = (f"gap, explained: departure {h['departure']} ({h['change']:+.1f}{unit} measured, "
                                     f"{h['departure_campaign']}; beyond the seed-redraw spread ±{h['spread']:.2f}, "
                                     f"{h['spread_campaign']})")  # fmt: skip
            continue
        tried = [f"departure {g.departure} measured by {g.departure_campaign}: {g.departure_ours:.2f} "
                 f"[{g.departure_ci_low:.2f}, {g.departure_ci_high:.2f}] ({g.change:+.2f} of the "
                 f"{_float(g.published) - g.ours:+.2f} needed), {_why_not(g)}"
                 for g in group.itertuples()]  # fmt: skip
        old = out.loc[i, "tried"] if isinstance(out.loc[i, "tried"], str) and out.loc[i, "tried"] else ""
        out.loc[i, "tried"] = "; ".join(filter(None, [old, *tried]))
    return out


def breaks_by_table(rows: pd.DataFrame) -> dict[tuple[str, str], int]:
    """``{(paper, table): agreements some departure breaks}``, each number counted once."""
    if rows.empty:
        return {}
    broken = rows[rows["breaks"].astype(bool)].drop_duplicates("key")
    return {k: int(n) for k, n in broken.groupby(["paper", "table"], sort=False).size().items()}


def departures_markdown(rows: pd.DataFrame) -> list[str]:
    """REPRODUCTION.md's "Departures measured": per departure campaign, its sheet row's status and how many
    gaps it explains and agreements it breaks; then every number it ran beside the measured campaign's
    result, the change, the number's seed-redraw spread, and whether it explains a gap or breaks an agreement."""
    if rows.empty:
        return ["No departure has been measured by a campaign of its own yet (config key `protocol.measures`)."]
    out = []
    for (name, dep, measured), g in rows.groupby(["departure_campaign", "departure", "campaign"], sort=True):
        kind = "a seed redraw" if g["redraw"].iloc[0] else f"sheet row {row_id(dep)}: {g['status'].iloc[0]}"
        out.append(f"- `{name}` measures `{measured}`'s departure {dep} ({kind}): explains {int(g['explains'].sum())}, "
                   f"breaks {int(g['breaks'].sum())}")  # fmt: skip
    out += ["", "| paper | table | dataset | method | metric | published | measured campaign | its verdict | "
            "departure | change | redraw spread | explains the gap | breaks the agreement |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for r in rows.itertuples(index=False):
        method = r.method + (f" ({r.setting})" if isinstance(r.setting, str) and r.setting else "")
        verdict = r.verdict if r.judges else f"{r.verdict} (not the judging campaign)"
        spread = "(a redraw)" if r.redraw else (f"±{r.spread:.2f}" if math.isfinite(r.spread) else "none ran")
        out.append(f"| {r.paper} | {r.table} | {r.dataset} | {method} | {r.metric} | {_float(r.published):.2f} | "
                   f"{r.ours:.2f} [{_float(r.ci_low):.2f}, {_float(r.ci_high):.2f}] (`{r.campaign}`) | {verdict} | "
                   f"{r.departure_ours:.2f} [{r.departure_ci_low:.2f}, {r.departure_ci_high:.2f}] (`{r.departure_campaign}`) | "
                   f"{r.change:+.2f} | {spread} | {'yes' if r.explains else 'no'} | {'yes' if r.breaks else 'no'} |")  # fmt: skip
    return out
