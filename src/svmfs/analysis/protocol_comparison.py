"""The paper's protocol against the project's nested one.

A campaign declares which protocol it runs (config key ``protocol``: ``kind: nested``, the default, or
``kind: paper``, the paper's experimental section as written, with the ``reading`` it runs where the text
admits several). REPRODUCTION.md judges a published number by a paper-protocol campaign where one ran
it, and lists beside it the nested result on the same data and the difference between the two: the
optimism (or pessimism) of the paper's protocol, measured. Where several paper-protocol campaigns run
other readings of the same number, the one declared ``primary`` before the run is counted (then the
campaign name), never the one that matches best; the others are listed with theirs. A campaign may also
run other readings as other methods (``protocol.readings``: ``{method: {of: <the published method>, reading:
...}}``, e.g. dFSA's validation stop read three ways): each is judged against the published method's
numbers and listed beside the campaign's own row, never counted.

Reads the reproduction tables and the campaigns' configs only (no method is imported).
"""

from __future__ import annotations

import math

import pandas as pd

NESTED = {"kind": "nested", "reading": "", "primary": False}


def campaign_protocol(config: dict | None) -> dict:
    """The campaign's ``protocol`` block with its defaults (a config exported before the key: nested)."""
    return {**NESTED, **((config or {}).get("protocol") or {})}


def preference(protocol: dict) -> int:
    """Which campaign's verdict a published number takes first: a primary paper-protocol reading that the
    reading rule (docs/protocols/README.md) puts before another primary campaign's reading of the same
    numbers (``primary_over``: the campaigns it supersedes) (-1), a primary paper-protocol reading (0),
    another paper-protocol reading (1), the nested protocol (2).

    Examples
    --------
    >>> preference({"kind": "paper", "primary": True, "primary_over": ["maldonado2011_paper"]})
    -1
    >>> preference({"kind": "paper", "primary": True}), preference({"kind": "nested"})
    (0, 2)
    """
    if protocol["kind"] == "paper":
        if protocol.get("primary") and protocol.get("primary_over"):
            return -1
        return 0 if protocol.get("primary") else 1
    return 2


def row_preferences(protocol: dict, table: pd.DataFrame) -> list[int]:
    """:func:`preference` per row of a campaign's reproduction ``table``: a campaign whose reading supersedes
    another's (``primary_over``) does so only on the datasets its reading changes (``primary_datasets``,
    shell patterns; absent: every dataset); on the others it is another reading (1), listed beside.

    Examples
    --------
    >>> t = pd.DataFrame({"dataset": ["poly_sp095_train50", "poly_sp000_train50"]})
    >>> row_preferences({"kind": "paper", "primary": True, "primary_over": ["catala_martin_paper"],
    ...                  "primary_datasets": ["poly_sp095_*"]}, t)
    [-1, 1]
    """
    from fnmatch import fnmatch

    rank = preference(protocol)
    patterns = protocol.get("primary_datasets")
    if rank != -1 or not patterns:
        return [rank] * len(table)
    return [-1 if any(fnmatch(str(d), p) for p in patterns) else 1 for d in table["dataset"]]


def reading_campaigns(name: str, records: pd.DataFrame, config: dict | None, judge) -> list[tuple[str, pd.DataFrame, dict]]:
    """The campaign's other readings run as other methods (``protocol.readings``), each as a pseudo-campaign
    ``"<name>: <method>"`` whose table ``judge(records, papers)`` (the reproduction table) computes from the
    reading's records relabelled as the published method; a non-primary paper protocol, so never counted.
    An unknown method is an error naming the campaign and the key."""
    protocol = campaign_protocol(config)
    out = []
    for method, spec in sorted((protocol.get("readings") or {}).items()):
        rows = records[records["method"] == method]
        if rows.empty:
            raise ValueError(f"{name}: protocol.readings.{method}: no record of method {method!r} in the campaign")
        table = judge(rows.assign(method=spec["of"]), list((config or {}).get("reproduces") or []))
        out.append((f"{name}: {method}", table, {**NESTED, "kind": "paper", "reading": spec["reading"]}))
    return out


def _has_run(row) -> bool:
    ours = row.get("ours")
    try:
        return ours is not None and not math.isnan(float(ours))
    except (TypeError, ValueError):
        return bool(str(ours).strip())  # a feature list (top5) is a run too


def side_by_side(campaigns: list[tuple[str, pd.DataFrame, dict]]) -> pd.DataFrame:
    """One row per (published number, paper-protocol campaign that ran it): the paper-protocol result and
    verdict, the nested result on the same number (the nested campaign with the most runs; then its
    name), ``counted`` for the reading whose verdict the scorecard counts (the first by ``preference``,
    then campaign name), the readings of one number in consecutive rows, and ``difference`` = paper-protocol mean - nested mean (empty where either is not a number).

    ``campaigns``: (name, reproduction table, protocol) with the tables as ``tables/reproduction.csv``
    holds them.
    """
    cols = ["paper", "table", "dataset", "method", "setting", "metric", "published", "campaign", "reading",
            "counted", "ours", "ci_low", "ci_high", "verdict", "nested_campaign", "nested", "nested_ci_low",
            "nested_ci_high", "nested_verdict", "difference", "key"]  # fmt: skip
    nested: dict[str, tuple] = {}
    for name, table, protocol in sorted(campaigns, key=lambda c: c[0]):
        if protocol["kind"] != "nested":
            continue
        for _, r in table.iterrows():
            if not _has_run(r):
                continue
            runs = float(r.get("runs") or 0)
            if r["key"] not in nested or runs > nested[r["key"]][0]:
                nested[r["key"]] = (runs, name, r)
    rows, seen = [], set()
    for name, table, protocol in sorted(campaigns, key=lambda c: (preference(c[2]), c[0])):
        if protocol["kind"] != "paper":
            continue
        for _, r in table.iterrows():
            if not _has_run(r):
                continue
            row = {c: r.get(c) for c in ("paper", "table", "dataset", "method", "setting", "metric", "published",
                                         "ours", "ci_low", "ci_high", "verdict", "key")}  # fmt: skip
            row.update(campaign=name, reading=protocol.get("reading", ""), counted=r["key"] not in seen)
            seen.add(r["key"])
            if r["key"] in nested:
                _, nname, n = nested[r["key"]]
                row.update(nested_campaign=nname, nested=n.get("ours"), nested_ci_low=n.get("ci_low"),
                           nested_ci_high=n.get("ci_high"), nested_verdict=n.get("verdict"))  # fmt: skip
                try:
                    row["difference"] = float(r["ours"]) - float(n["ours"])
                except (TypeError, ValueError):
                    row["difference"] = None
            rows.append(row)
    first = {}
    for i, r in enumerate(rows):
        first.setdefault(r["key"], i)
    rows = [r for _, r in sorted(enumerate(rows), key=lambda t: (first[t[1]["key"]], t[0]))]  # readings together
    return pd.DataFrame(rows, columns=cols)


def _num(v, digits: int = 2) -> str:
    try:
        f = float(v)
    except (TypeError, ValueError):
        return "" if v is None else str(v)
    return "" if math.isnan(f) else f"{f:.{digits}f}"


def _with_ci(mean, lo, hi) -> str:
    m = _num(mean)
    return f"{m} [{_num(lo)}, {_num(hi)}]" if m and _num(lo) else m


def side_by_side_markdown(df: pd.DataFrame) -> list[str]:
    """The comparison as markdown (REPRODUCTION.md's "Paper protocol against nested protocol"): each
    paper-protocol campaign with the reading it runs, then one row per number."""
    if df.empty:
        return ["No paper-protocol campaign has been exported yet (config key `protocol: {kind: paper}`)."]
    out = []
    for name, reading in df.drop_duplicates("campaign")[["campaign", "reading"]].itertuples(index=False):
        out.append(f"- `{name}`: {reading or 'the one reading the text admits'}")
    out += ["", "| paper | table | dataset | method | metric | published | paper protocol | campaign | verdict | "
            "nested (campaign) | paper - nested |", "|---|---|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for r in df.itertuples(index=False):
        method = r.method + (f" ({r.setting})" if isinstance(r.setting, str) and r.setting else "")
        campaign = f"`{r.campaign}`" + ("" if r.counted else " (not counted)")
        ran = isinstance(r.nested_campaign, str) and r.nested_campaign
        nested = f"{_with_ci(r.nested, r.nested_ci_low, r.nested_ci_high)} (`{r.nested_campaign}`)" if ran else "not run"
        diff = _num(r.difference)
        out.append(f"| {r.paper} | {r.table} | {r.dataset} | {method} | {r.metric} | {_num(r.published)} | "
                   f"{_with_ci(r.ours, r.ci_low, r.ci_high)} | {campaign} | {r.verdict} | {nested} | "
                   f"{('+' if diff and not diff.startswith('-') else '') + diff} |")  # fmt: skip
    return out


def readings_after_the_fact(merged: pd.DataFrame, df: pd.DataFrame) -> pd.DataFrame:
    """The published numbers whose counted verdict (``merged``, the scorecard's, departures applied) is an
    unexplained gap while another reading listed for them (``df``, :func:`side_by_side`, ``counted`` false)
    agrees: what choosing the reading after seeing which one matches would gain, which the rule forbids. One
    row per number, with the readings that agree (campaign names, sorted)."""
    from .reproduction import verdict_kind

    cols = ["paper", "table", "dataset", "method", "setting", "metric", "published", "key", "agreeing_readings"]
    if df.empty or merged.empty:
        return pd.DataFrame(columns=cols)
    gaps = merged[merged["verdict"].astype(str).map(verdict_kind) == "gap unexplained"]
    other = df[~df["counted"].astype(bool) & (df["verdict"].astype(str) == "agrees")]
    agreeing = other.groupby("key")["campaign"].agg(lambda c: ", ".join(sorted(set(c))))
    out = gaps[gaps["key"].isin(agreeing.index)].copy()
    out["agreeing_readings"] = out["key"].map(agreeing)
    return out.reindex(columns=cols).reset_index(drop=True)


def readings_after_the_fact_markdown(flips: pd.DataFrame, agree: int, explained: int, run: int) -> list[str]:
    """REPRODUCTION.md's "Readings chosen after the fact": the scorecard as counted (``agree`` + ``explained`` of
    ``run``) and what it would read if each number took whichever listed reading agrees, per table, with the
    readings that would do it. A measure of how far the choice of reading alone moves the numbers; never a
    verdict."""
    share = (lambda k: f"{100.0 * k / run:.1f} %") if run else (lambda k: "-")
    now, ceiling = agree + explained, agree + explained + len(flips)
    out = [f"Counted (readings fixed before the runs): {agree} agree and {explained} gaps explained of {run} numbers "
           f"run, {now} ({share(now)}). If each number instead took whichever of its listed readings agrees, the "
           f"reading chosen after seeing which one matches (what the rule forbids), {len(flips)} unexplained gaps "
           f"would agree: {ceiling} of {run} ({share(ceiling)}). Per table, the numbers and the readings that "
           "would flip them:", ""]  # fmt: skip
    if flips.empty:
        return out + ["None.", ""]
    out += ["| paper | table | numbers | readings that agree where the counted one is a gap |", "|---|---|---|---|"]
    for (paper, table), g in flips.groupby(["paper", "table"], sort=False):
        names = sorted({n for s in g["agreeing_readings"] for n in s.split(", ")})
        out.append(f"| {paper} | {table} | {len(g)} | " + ", ".join(f"`{n}`" for n in names) + " |")
    return out + [""]


def changed_primaries_markdown(changes: list[dict]) -> list[str]:
    """The primaries changed after their results were seen (published.yaml ``primaries_changed_after_results``),
    one line each: the sheet row, the campaign now counted, the reading now and before, and the rule's reason.

    Examples
    --------
    >>> changed_primaries_markdown([{"row": "R31", "campaign": "p", "now": "(a)", "was": "(b)", "why": "literal"}])
    ['- R31: `p` counts (a), before (b): literal. Changed after its results were seen.']
    """
    if not changes:
        return ["No primary was changed after its results were seen."]
    return [f"- {c['row']}: `{c['campaign']}` counts {c['now']}, before {c['was']}: {c['why']}. Changed after its "
            "results were seen." for c in changes]  # fmt: skip
