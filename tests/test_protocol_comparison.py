"""The paper's protocol beside the nested one (svmfs.analysis.protocol_comparison, issue 35)."""

import math

import pandas as pd

from svmfs.analysis.protocol_comparison import campaign_protocol, preference, side_by_side, side_by_side_markdown


def _table(rows):
    base = {"paper": "p", "table": "Table 1", "dataset": "d", "method": "m", "setting": None, "metric": "test_accuracy",
            "published": 90.0, "ours": None, "ci_low": None, "ci_high": None, "runs": 10, "verdict": "not run: x"}  # fmt: skip
    return pd.DataFrame([{**base, **r} for r in rows])


def test_a_config_without_the_key_is_nested_and_a_primary_reading_comes_first():
    assert campaign_protocol({})["kind"] == "nested" and campaign_protocol(None)["kind"] == "nested"
    paper = campaign_protocol({"protocol": {"kind": "paper", "reading": "R11 (a)"}})
    primary = campaign_protocol({"protocol": {"kind": "paper", "primary": True}})
    assert preference(primary) < preference(paper) < preference(campaign_protocol({}))


def test_each_paper_reading_is_listed_with_the_nested_result_and_the_difference():
    nested_small = _table([{"key": "k1", "ours": 80.0, "ci_low": 78.0, "ci_high": 82.0, "runs": 5, "verdict": "gap, unexplained"}])
    nested_big = _table([{"key": "k1", "ours": 81.0, "ci_low": 79.0, "ci_high": 83.0, "runs": 10, "verdict": "gap, unexplained"},
                         {"key": "k2", "ours": 70.0, "runs": 10, "verdict": "agrees"}])  # fmt: skip
    reading_a = _table([{"key": "k1", "ours": 89.5, "ci_low": 87.0, "ci_high": 92.0, "verdict": "agrees"},
                        {"key": "k3", "ours": None}])  # fmt: skip
    reading_b = _table([{"key": "k1", "ours": 84.0, "ci_low": 83.0, "ci_high": 85.0, "verdict": "gap, unexplained"}])
    campaigns = [
        ("z_nested", nested_small, campaign_protocol({})),
        ("a_nested", nested_big, campaign_protocol({})),
        ("p_a", reading_a, campaign_protocol({"protocol": {"kind": "paper", "reading": "(a)"}})),
        ("p_b", reading_b, campaign_protocol({"protocol": {"kind": "paper", "reading": "(b)", "primary": True}})),
    ]
    df = side_by_side(campaigns)
    # both readings of k1 listed, the primary one first and counted, whichever matches better; k3 has no run
    assert list(df["campaign"]) == ["p_b", "p_a"] and list(df["counted"]) == [True, False]
    assert set(df["nested_campaign"]) == {"a_nested"}  # the nested campaign with the most runs
    assert math.isclose(df.iloc[0]["difference"], 84.0 - 81.0) and math.isclose(df.iloc[1]["difference"], 89.5 - 81.0)
    md = "\n".join(side_by_side_markdown(df))
    assert "| 84.00 [83.00, 85.00] | `p_b` |" in md and "+3.00" in md and "| `p_a` (not counted) |" in md
    assert "- `p_b`: (b)" in md and "- `p_a`: (a)" in md
    assert "81.00 [79.00, 83.00] (`a_nested`)" in md


def test_a_paper_number_without_a_nested_run_has_no_difference():
    df = side_by_side([("p", _table([{"key": "k", "ours": 50.0, "verdict": "agrees"}]), campaign_protocol({"protocol": {"kind": "paper"}}))])
    assert df.iloc[0]["nested_campaign"] is None or pd.isna(df.iloc[0]["nested_campaign"])
    assert "not run" in "\n".join(side_by_side_markdown(df))
    assert side_by_side_markdown(side_by_side([])) [0].startswith("No paper-protocol campaign")
