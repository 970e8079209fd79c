"""The protocol sheets (docs/protocols/<paper>.md, issue 35): one per paper of published.yaml, every
committed campaign that judges a paper's numbers named in its sheet, and every row well formed: a status
from the fixed list, an implementing file that exists, and for a departure or a reading its reason and
its measurement (a committed file that holds the number, or ``unmeasured:`` with the run that would
measure it). The format is stated in docs/protocols/README.md."""

import re
from pathlib import Path

import pandas as pd
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
SHEETS = ROOT / "docs" / "protocols"
PUBLISHED = ROOT / "src" / "svmfs" / "analysis" / "published.yaml"
COLUMNS = ["id", "the paper says", "element", "implemented by", "status", "reason", "measured effect"]
STATUSES = {"as written", "departs", "readings"}
PREFIX = {"rinaldi2010": "R", "mit9520": "M", "catala_martin": "C", "maldonado2011": "K", "jimenez2021": "J"}


def _papers() -> list[str]:
    return list(yaml.safe_load(PUBLISHED.read_text())["papers"])


def _cells(line: str) -> list[str]:
    """The cells of one markdown table row (a ``|`` inside backticks does not split)."""
    body = line.strip()[1:-1]
    cells, cur, code = [], "", False
    for ch in body:
        if ch == "`":
            code = not code
        if ch == "|" and not code:
            cells.append(cur.strip())
            cur = ""
        else:
            cur += ch
    cells.append(cur.strip())
    return cells


def parse_sheet(text: str) -> list[dict]:
    """The rows of the sheet's ``## Elements`` table as dicts keyed by COLUMNS."""
    section = text.split("## Elements", 1)[1].split("\n## ", 1)[0]
    lines = [ln for ln in section.splitlines() if ln.strip().startswith("|")]
    assert lines, "no table under '## Elements'"
    header = _cells(lines[0])
    assert header == COLUMNS, f"columns {header}, expected {COLUMNS}"
    assert set(lines[1].replace("|", "").strip()) <= set("-: "), "second line is not the table's rule"
    rows = []
    for ln in lines[2:]:
        cells = _cells(ln)
        assert len(cells) == len(COLUMNS), f"{len(cells)} cells in {ln[:80]!r}"
        rows.append(dict(zip(COLUMNS, cells)))
    return rows


def existing_paths(cell: str) -> list[str]:
    """The backticked tokens of a cell that name a file or folder of the repository (a ``path:symbol``
    or ``path#anchor`` counts by its path)."""
    found = []
    for token in re.findall(r"`([^`]+)`", cell):
        path = re.split(r"[:#\s]", token.strip(), maxsplit=1)[0]
        if path and (ROOT / path).exists():
            found.append(path)
    return found


def check_row(row: dict) -> list[str]:
    """What is wrong with one row (empty when nothing is)."""
    errors = []
    rid = row["id"]
    if row["status"] not in STATUSES:
        errors.append(f"{rid}: status {row['status']!r} not in {sorted(STATUSES)}")
    said = row["the paper says"]
    if '"' not in said and not re.search(r"\bsilent\b", said):
        errors.append(f"{rid}: 'the paper says' neither quotes the paper nor says it is silent")
    if not row["element"]:
        errors.append(f"{rid}: no element")
    if not existing_paths(row["implemented by"]):
        errors.append(f"{rid}: 'implemented by' names no existing file in backticks: {row['implemented by'][:80]!r}")
    if row["status"] in {"departs", "readings"}:
        if not row["reason"]:
            errors.append(f"{rid}: a {row['status']} row without its reason")
        effect = row["measured effect"]
        if not effect:
            errors.append(f"{rid}: a {row['status']} row without its measured effect")
        elif not effect.startswith("unmeasured:") and not existing_paths(effect):
            errors.append(f"{rid}: measured effect cites no existing file in backticks and is not 'unmeasured:'")
    return errors


def test_the_checker_refuses_what_the_format_forbids():
    good = {"id": "R1", "the paper says": 'Sec. 4: "ten instances"', "element": "repetitions",
            "implemented by": "`config/campaigns/rinaldi2010/nested.yaml` `splits`", "status": "as written",
            "reason": "", "measured effect": ""}  # fmt: skip
    assert check_row(good) == []
    assert check_row({**good, "status": "differs"})
    assert check_row({**good, "implemented by": "`config/campaigns/nowhere.yaml`"})
    assert check_row({**good, "the paper says": "Sec. 4, ten instances"})
    departs = {**good, "status": "departs", "reason": "time"}
    assert any("measured effect" in e for e in check_row(departs))
    assert check_row({**departs, "measured effect": "+1.2 points"})  # a number without its file
    assert check_row({**departs, "measured effect": "`benchmarks/RESULTS.md` 'X': +1.2 points"}) == []
    assert check_row({**departs, "measured effect": "unmeasured: run config/campaigns/x.yaml"}) == []
    assert _cells("| a | `x | y` | b |") == ["a", "`x | y`", "b"]


@pytest.mark.parametrize("paper", _papers())
def test_each_paper_has_a_well_formed_sheet(paper):
    path = SHEETS / f"{paper}.md"
    assert path.is_file(), f"no protocol sheet {path.relative_to(ROOT)} for published.yaml paper {paper}"
    text = path.read_text()
    rows = parse_sheet(text)
    ids = [r["id"] for r in rows]
    assert len(ids) == len(set(ids)), f"{path.name}: duplicate ids"
    assert all(re.fullmatch(PREFIX[paper] + r"\d+", i) for i in ids), f"{path.name}: ids not {PREFIX[paper]}<n>: {ids}"
    errors = [e for r in rows for e in check_row(r)]
    assert not errors, f"{path.name}:\n" + "\n".join(errors)
    counts = {s: sum(r["status"] == s for r in rows) for s in STATUSES}
    measured = sum(r["status"] == "departs" and not r["measured effect"].startswith("unmeasured:") for r in rows)
    summary = re.search(r"Summary: (\d+) elements; (\d+) as written, (\d+) departs \((\d+) of them measured\), (\d+) with several readings", text)
    assert summary, f"{path.name}: no 'Summary: ...' line in the stated form"
    assert tuple(map(int, summary.groups())) == (
        len(rows), counts["as written"], counts["departs"], measured, counts["readings"]
    ), f"{path.name}: the summary's counts differ from the table's"
    for heading in ("## Readings", "## Published numbers and the reading they ran", "## Gaps re-read"):
        assert heading in text, f"{path.name}: no '{heading}' section"


def _campaigns_judging(paper: str) -> set[str]:
    out = set()
    for table in sorted((ROOT / "reproduction").glob("*/tables/reproduction.csv")):
        papers = set(pd.read_csv(table, usecols=["paper"])["paper"])
        if paper in papers:
            out.add(table.parents[1].name)
    return out


@pytest.mark.parametrize("paper", _papers())
def test_every_campaign_judging_a_paper_is_named_in_its_sheet(paper):
    path = SHEETS / f"{paper}.md"
    if not path.is_file():
        pytest.fail(f"no protocol sheet for {paper}")
    text = path.read_text()
    missing = sorted(c for c in _campaigns_judging(paper) if c not in text)
    assert not missing, f"{path.name} does not name the committed campaign(s) {missing} that judge its numbers"


#: A quoted measured number and its committed source, inline in a sheet:
#: ``94.60 {reproduction/<campaign>/tables/<table>.csv: dataset=colon, method=fs_svmcp, metric=train_accuracy, column=ours}``
#: or with its interval, ``94.60 [93.63, 95.57] {...: ..., column=ours}`` (the interval checked against the row's
#: ``ci_low`` and ``ci_high``, or the columns ``interval=<low> <high>`` names). The filters select exactly one
#: row; ``column`` names the value; every number is compared at its printed digits.
NUMBER = r"-?\d+(?:\.\d+)?"
QUOTE = re.compile(rf"({NUMBER})(?: \[({NUMBER}), ({NUMBER})\])? \{{(reproduction/[^:{{}}]+\.csv): ([^{{}}]+)\}}")


def quoted_numbers(text: str) -> list[tuple[str, str, dict[str, str]]]:
    """Every (number as printed, cited file, filters including ``column``) quoted in a sheet's text; a quoted
    interval adds its bounds as ``_low`` and ``_high``."""
    out = []
    for number, low, high, path, spec in QUOTE.findall(text):
        pairs = [p.strip().split("=", 1) for p in spec.split(",")]
        filters = {k.strip(): v.strip() for k, v in pairs}
        if low:
            filters.update(_low=low, _high=high)
        out.append((number, path, filters))
    return out


def _printed(value, number: str) -> str:
    digits = len(number.split(".")[1]) if "." in number else 0
    return f"{float(value):.{digits}f}"


def check_quote(number: str, path: str, spec: dict[str, str]) -> str | None:
    """None when the cited file's value (and interval) rounds to ``number`` at its printed digits; otherwise
    the error."""
    file = ROOT / path
    if not file.is_file():
        return f"{number} cites {path}: no such committed file"
    spec = dict(spec)
    column = spec.pop("column", None)
    low, high = spec.pop("_low", None), spec.pop("_high", None)
    interval = spec.pop("interval", "ci_low ci_high").split()
    table = pd.read_csv(file, keep_default_na=False)
    if column not in table.columns or (low is not None and not set(interval) <= set(table.columns)):
        return f"{number} cites {path}: no column {column!r} (or {interval})"
    for key, value in spec.items():
        table = table[table[key].astype(str) == value]
    if len(table) != 1:
        return f"{number} cites {path} {spec}: {len(table)} rows, not one"
    row = table.iloc[0]
    got = _printed(row[column], number)
    if got != number:
        return f"{number} cites {path} {spec} {column}: the file gives {got}"
    if low is not None:
        bounds = (_printed(row[interval[0]], low), _printed(row[interval[1]], high))
        if bounds != (low, high):
            return f"{number} [{low}, {high}] cites {path} {spec}: the file gives [{bounds[0]}, {bounds[1]}]"
    return None


def test_the_quote_checker_refuses_a_changed_number():
    path = "reproduction/rinaldi2010_paper/tables/reproduction.csv"
    spec = {"dataset": "colon", "method": "fs_svmcp", "metric": "train_accuracy", "column": "ours"}
    assert check_quote("94.60", path, spec) is None
    assert "the file gives 94.60" in check_quote("95.80", path, spec)
    assert "rows, not one" in check_quote("94.60", path, {"dataset": "colon", "column": "ours"})
    text = f"TR 94.60 [93.63, 95.57] {{{path}: dataset=colon, method=fs_svmcp, metric=train_accuracy, column=ours}}"
    (quote,) = quoted_numbers(text)
    assert check_quote(*quote) is None
    (moved,) = quoted_numbers(text.replace("95.57]", "95.58]"))
    assert "the file gives [93.63, 95.57]" in check_quote(*moved)


@pytest.mark.parametrize("paper", _papers())
def test_every_quoted_number_is_the_cited_files(paper):
    sheet = SHEETS / f"{paper}.md"
    errors = [e for q in quoted_numbers(sheet.read_text()) if (e := check_quote(*q))]
    assert not errors, "\n".join(errors)
