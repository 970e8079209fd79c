"""The paper's protocol beside the nested one (svmfs.analysis.protocol_comparison, issue 35)."""

import math

import pandas as pd

from svmfs.analysis.protocol_comparison import (
    campaign_protocol,
    preference,
    readings_after_the_fact,
    readings_after_the_fact_markdown,
    side_by_side,
    side_by_side_markdown,
)


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


def test_readings_run_as_other_methods_are_judged_as_the_published_method_and_never_counted():
    from svmfs.analysis.protocol_comparison import reading_campaigns

    records = pd.DataFrame({"method": ["m", "m", "m_best", "m_best"], "test_accuracy": [80.0, 82.0, 90.0, 92.0]})
    config = {"reproduces": ["p"], "protocol": {"kind": "paper", "primary": True,
                                                 "readings": {"m_best": {"of": "m", "reading": "(b) best"}}}}  # fmt: skip
    seen = []

    def judge(rows, papers):
        seen.append((sorted(set(rows["method"])), papers))
        return _table([{"key": "k", "ours": rows["test_accuracy"].mean(), "verdict": "agrees"}])

    extra = reading_campaigns("camp", records, config, judge)
    assert seen == [(["m"], ["p"])]  # the reading's records, relabelled as the published method
    assert [(n, p["reading"], p["primary"]) for n, _, p in extra] == [("camp: m_best", "(b) best", False)]
    own = ("camp", _table([{"key": "k", "ours": 81.0, "verdict": "gap, unexplained"}, {"key": "k2", "ours": 5.0}]),
           campaign_protocol(config))  # fmt: skip
    df = side_by_side([own, *extra])
    # the reading sits right after the campaign's own row of the same number, and is not counted
    assert list(df["campaign"]) == ["camp", "camp: m_best", "camp"] and list(df["counted"]) == [True, False, True]
    assert df.iloc[1]["ours"] == 91.0
    try:
        reading_campaigns("camp", records[records["method"] == "m"], config, judge)
    except ValueError as e:
        assert str(e) == "camp: protocol.readings.m_best: no record of method 'm_best' in the campaign"
    else:
        raise AssertionError("a reading without records must fail")


def test_readings_chosen_after_the_fact_count_only_gaps_another_reading_closes():
    """k1: the counted reading is a gap and another agrees (it would flip); k2: the counted one agrees (nothing to
    gain); k3: a gap no listed reading closes; k4: a gap the scorecard explains by a departure (merged verdict),
    so another reading agreeing gains nothing. The ceiling is counted + 1 of 4."""
    primary = campaign_protocol({"protocol": {"kind": "paper", "primary": True}})
    other = campaign_protocol({"protocol": {"kind": "paper", "reading": "(b)"}})
    a = _table([{"key": "k1", "ours": 80.0, "verdict": "gap, unexplained"}, {"key": "k2", "ours": 90.0, "verdict": "agrees"},
                {"key": "k3", "ours": 70.0, "verdict": "gap, unexplained"}, {"key": "k4", "ours": 60.0, "verdict": "gap, unexplained"}])  # fmt: skip
    b = _table([{"key": k, "ours": 90.0, "verdict": "agrees"} for k in ("k1", "k2", "k4")] + [{"key": "k3", "ours": 75.0, "verdict": "gap, unexplained"}])
    df = side_by_side([("a", a, primary), ("b", b, other)])
    merged = a.assign(verdict=["gap, unexplained", "agrees", "gap, unexplained", "gap, explained: departure X"])
    flips = readings_after_the_fact(merged, df)
    assert flips["key"].tolist() == ["k1"] and flips["agreeing_readings"].tolist() == ["b"]
    md = "\n".join(readings_after_the_fact_markdown(flips, agree=1, explained=1, run=4))
    assert "2 (50.0 %)" in md and "1 unexplained gaps would agree: 3 of 4 (75.0 %)" in md and "| p | Table 1 | 1 | `b` |" in md
    assert readings_after_the_fact(merged, df.iloc[0:0]).empty
