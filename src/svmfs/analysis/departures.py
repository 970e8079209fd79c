"""Departures measured: a campaign that reruns another campaign's protocol with one element changed.

A protocol sheet (docs/protocols/<paper>.md) marks a row "departs" where the campaign does what the paper
does not state (the paper is silent, the data are not reachable here, time). A campaign with the config key
``protocol.measures: {campaign: <the measured campaign>, departure: "<row id>: <what changes>"}`` measures
that one departure. It never judges a published number itself. REPRODUCTION.md lists every number it ran
beside the measured campaign's result, and it explains a gap of the campaign that judges the number by the
audits' rule (:data:`svmfs.analysis.reproduction.EXPLAINED_FRACTION`): the published value inside the
departure's 95 % interval, and our mean moved at least half-way to it. Otherwise the gap stays unexplained
and the departure is listed under what was tried. A departure that only redraws what is random (another seed
for instances the paper never published: ``measures.explains: false``) measures the draw's spread; it never
explains a gap, since among enough redraws one lands half-way to any number within that spread: it is listed
under what was tried.

Reads reproduction tables only.
"""

from __future__ import annotations

import math

import pandas as pd

COLUMNS = ["paper", "table", "dataset", "method", "setting", "metric", "published", "key", "campaign", "ours",
           "ci_low", "ci_high", "verdict", "judges", "departure", "departure_campaign", "departure_ours",
           "departure_ci_low", "departure_ci_high", "change", "explains", "redraw"]  # fmt: skip


def measures(protocol: dict | None) -> dict | None:
    """The campaign's ``protocol.measures`` block, or None for a campaign that judges its own numbers."""
    return (protocol or {}).get("measures") or None


def _float(v) -> float:
    try:
        return float(v)
    except (TypeError, ValueError):
        return math.nan


def _explains(published: float, ours: float, dep: float, lo: float, hi: float) -> bool:
    """The audits' rule (:func:`svmfs.analysis.reproduction.moves_half_way`), for a number, not a feature list."""
    from .reproduction import moves_half_way

    if not all(map(math.isfinite, (published, ours, dep, lo, hi))):
        return False
    return moves_half_way(published, lo, hi, dep - ours, published - ours)


def departure_rows(merged: pd.DataFrame, measuring: list[tuple[str, pd.DataFrame, dict]],
                   tables: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """One row per (published number, departure campaign that ran it) where the measured campaign ran it too:
    the measured campaign's result and verdict, the departure's, their difference (``change`` = departure -
    measured) and whether the departure explains the gap (only where the measured campaign is the one whose
    verdict ``merged`` counts, ``judges``). ``measuring``: (name, reproduction table, provenance whose
    ``protocol`` has ``measures``); ``tables``: every campaign's reproduction table by name, for the measured one's results."""
    rows = []
    judge = dict(zip(merged["key"], merged["campaign"]))
    for name, table, prov in sorted(measuring, key=lambda c: c[0]):
        spec = measures(prov.get("protocol"))
        measured = spec["campaign"]
        base = tables.get(measured)
        if base is None:
            raise ValueError(f"{name}: protocol.measures.campaign: no committed campaign {measured!r} to measure")
        base = base.set_index("key")
        for _, r in table.iterrows():
            dep = _float(r.get("ours"))
            if r["key"] not in base.index or not math.isfinite(dep):
                continue
            b = base.loc[r["key"]]
            ours = _float(b.get("ours"))
            if not math.isfinite(ours):
                continue
            judges = judge.get(r["key"]) == measured
            verdict = str(b.get("verdict"))
            lo, hi = _float(r.get("ci_low")), _float(r.get("ci_high"))
            rows.append({
                **{c: r.get(c) for c in ("paper", "table", "dataset", "method", "setting", "metric", "published", "key")},
                "campaign": measured, "ours": ours, "ci_low": b.get("ci_low"), "ci_high": b.get("ci_high"),
                "verdict": verdict, "judges": judges, "departure": spec["departure"], "departure_campaign": name,
                "departure_ours": dep, "departure_ci_low": lo, "departure_ci_high": hi, "change": dep - ours,
                "explains": spec.get("explains", True) and judges and verdict.startswith("gap, unexplained")
                and _explains(_float(r.get("published")), ours, dep, lo, hi),
                "redraw": not spec.get("explains", True),
            })  # fmt: skip
    return pd.DataFrame(rows, columns=COLUMNS)


def apply_departures(merged: pd.DataFrame, rows: pd.DataFrame) -> pd.DataFrame:
    """``merged`` with each unexplained gap a departure explains marked "gap, explained: departure <id>
    (<change> measured, <campaign>)", and the departures measured without explaining it added to its
    ``tried`` (mean, interval, and the change against the change needed)."""
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
            out.loc[i, "verdict"] = f"gap, explained: departure {h['departure']} ({h['change']:+.1f}{unit} measured, {h['departure_campaign']})"
            continue
        tried = [f"departure {g.departure} measured by {g.departure_campaign}: {g.departure_ours:.2f} "
                 f"[{g.departure_ci_low:.2f}, {g.departure_ci_high:.2f}] ({g.change:+.2f} of the "
                 f"{_float(g.published) - g.ours:+.2f} needed), "
                 + ("a redraw (measures.explains: false): it measures the draw's spread and explains nothing" if g.redraw
                    else "not both holding the published value and half-way to it")
                 for g in group.itertuples()]  # fmt: skip
        old = out.loc[i, "tried"] if isinstance(out.loc[i, "tried"], str) and out.loc[i, "tried"] else ""
        out.loc[i, "tried"] = "; ".join(filter(None, [old, *tried]))
    return out


def departures_markdown(rows: pd.DataFrame) -> list[str]:
    """REPRODUCTION.md's "Departures measured": per departure campaign, every number it ran beside the
    measured campaign's result, the change, and whether it explains a gap."""
    if rows.empty:
        return ["No departure has been measured by a campaign of its own yet (config key `protocol.measures`)."]
    out = []
    for (name, dep, measured), _ in rows.groupby(["departure_campaign", "departure", "campaign"], sort=True):
        out.append(f"- `{name}` measures `{measured}`'s departure {dep}")
    out += ["", "| paper | table | dataset | method | metric | published | measured campaign | its verdict | "
            "departure | change | explains the gap |", "|---|---|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for r in rows.itertuples(index=False):
        method = r.method + (f" ({r.setting})" if isinstance(r.setting, str) and r.setting else "")
        verdict = r.verdict if r.judges else f"{r.verdict} (not the judging campaign)"
        out.append(f"| {r.paper} | {r.table} | {r.dataset} | {method} | {r.metric} | {_float(r.published):.2f} | "
                   f"{r.ours:.2f} [{_float(r.ci_low):.2f}, {_float(r.ci_high):.2f}] (`{r.campaign}`) | {verdict} | "
                   f"{r.departure_ours:.2f} [{r.departure_ci_low:.2f}, {r.departure_ci_high:.2f}] (`{r.departure_campaign}`) | "
                   f"{r.change:+.2f} | {'yes' if r.explains else 'no'} |")  # fmt: skip
    return out
