"""The benchmark harness (benchmarks/, ``python -m benchmarks``): every module declares what it measures, the
runner lists each one, results files carry their provenance, and RESULTS.md is the report regenerated from
them (deterministic, at most 400 lines)."""

import csv
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import benchmarks  # noqa: E402
from benchmarks.__main__ import RESULTS_MD, report_text, table_md, write_results  # noqa: E402
from benchmarks.common import RESULTS  # noqa: E402

NAMES = benchmarks.names()


def test_at_most_twenty_benchmark_modules():
    assert 0 < len(NAMES) <= 20, NAMES


def test_the_runner_lists_every_module():
    out = subprocess.run([sys.executable, "-m", "benchmarks", "list"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    listed = {line.split()[0] for line in out.splitlines() if line and not line.startswith(" ")}
    assert listed == set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_each_module_declares_question_data_topic_results(name):
    m = benchmarks.load(name)
    for attr in ("QUESTION", "DATA", "RESULTS"):
        assert isinstance(getattr(m, attr, None), str) and getattr(m, attr).strip(), f"{name}: no {attr}"
    assert m.QUESTION.rstrip().endswith("?"), f"{name}: QUESTION is not one question"
    assert m.TOPIC in benchmarks.TOPICS, f"{name}: TOPIC {m.TOPIC!r} not one of {benchmarks.TOPICS}"
    assert callable(getattr(m, "run", None)), f"{name}: no run()"
    for case, decl in benchmarks.cases(m).items():
        assert decl["question"].rstrip().endswith("?") and decl["data"], f"{name} {case}: question or data missing"


def test_results_stems_are_unique():
    stems = [benchmarks.stem(benchmarks.load(n), c) for n in NAMES for c in benchmarks.cases(benchmarks.load(n))]
    assert len(stems) == len(set(stems))


def test_every_results_file_belongs_to_a_case_and_states_its_provenance():
    declared = {benchmarks.stem(benchmarks.load(n), c) for n in NAMES for c in benchmarks.cases(benchmarks.load(n))}
    for path in sorted(RESULTS.glob("*.json")):
        assert path.stem in declared, f"{path.name}: no benchmark case writes it"
        assert path.with_suffix(".csv").is_file(), f"{path.name}: no CSV beside it"
        meta = json.loads(path.read_text())
        assert meta["command"].startswith("python -m benchmarks run "), path.name
        assert meta["size"] in ("quick", "full"), path.name
        if "converted_from" in meta:  # an old script's CSV, converted once: the command and commit that made it
            assert {"file", "command", "commit"} <= set(meta["converted_from"]), path.name
        else:
            assert meta["git_sha"] and meta["started_utc"], path.name
            assert meta["machine"]["cpu"] and meta["machine"]["cores"] and meta["machine"]["load_average"], path.name
    for path in sorted(RESULTS.glob("*.csv")):
        assert path.with_suffix(".json").is_file(), f"{path.name}: no provenance JSON beside it"


def test_report_is_deterministic_and_committed():
    """(Its length: tests/test_code_shape.py.)"""
    text = report_text()
    assert text == report_text()
    assert RESULTS_MD.read_text() == text, "benchmarks/RESULTS.md differs from `python -m benchmarks report`"


def test_report_is_organised_by_topic_without_issue_or_session_headings():
    text = report_text()
    positions = [text.index(f"## {t[0].upper()}{t[1:]}\n") for t in benchmarks.TOPICS]
    assert positions == sorted(positions)
    for line in text.splitlines():
        if line.startswith("#"):
            assert not re.search(r"\b(issue|session|rerun)\b|\brows? [A-Z]\d", line, re.IGNORECASE), line


def test_a_written_result_appears_in_the_report_with_its_command(tmp_path):
    m = benchmarks.load("dag")
    meta = {"benchmark": "dag", "case": "", "command": "python -m benchmarks run dag --quick", "size": "quick",
            "started_utc": "2000-01-01 00:00:00", "git_sha": "0" * 40, "wall_s": 1.0,
            "machine": {"cpu": "a CPU", "cores": 2, "load_average": [1.0, 1.0, 1.0]}, "notes": {}}  # fmt: skip
    path = write_results(m, "", [{"measure": "x", "wall_s": 0.123456, "ok": True}, {"measure": "y|z", "wall_s": 2.0}], meta, tmp_path)
    with open(path, newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert rows[0] == {"measure": "x", "wall_s": "0.123456", "ok": "True"} and rows[1]["ok"] == ""
    text = report_text(tmp_path)
    assert "| x | 0.1235 | True |" in text and "y\\|z" in text
    assert "`python -m benchmarks run dag --quick`" in text and "quick size, a CPU, 2 cores, load 1.0" in text
    assert "Not run yet: `python -m benchmarks run svm_rfe one_at_a_time`" in text


def test_long_tables_are_cut_with_a_pointer_to_the_csv():
    lines = table_md([{"a": i} for i in range(20)], max_rows=12)
    assert len(lines) == 2 + 12 + 1 and "8 more rows in the CSV" in lines[-1]
