"""Paths over C (Jimenez-Cordero Fig. 2) condensed to best accuracy and fewest features at a target."""

import math

import pandas as pd
import pytest

from svmfs.analysis.paths import path_table, write_path_table


def _summary():
    # path a: sparse and slightly less accurate; path b: best accuracy but dense, and sparse only at 95.0
    rows = [
        ("a", "C-0.01", 62.0, 0.0), ("a", "C-0.1", 96.5, 4.0), ("a", "C-1", 97.0, 9.0), ("a", "C-10", 97.0, 16.0),
        ("b", "C-0.01", 62.0, 0.0), ("b", "C-0.1", 95.0, 3.0), ("b", "C-1", 96.9, 12.0), ("b", "C-100", 97.8, 27.0),
        ("c", "C2-0.1", 99.0, 1.0), ("c", "C2-0.9", 99.5, 1.0),  # swept over C2: not a path over C
    ]  # fmt: skip
    return pd.DataFrame(
        [{"dataset": "d", "method": m, "setting": s, "test_accuracy_mean": a, "n_selected_mean": f} for m, s, a, f in rows]
    )


def test_best_accuracy_and_fewest_features_within_the_tolerance():
    t = path_table(_summary(), "C", tolerance=1.0).set_index("method")
    assert list(t.index) == ["a", "b"]  # c sweeps C2
    assert t.loc["a", "best_accuracy"] == 97.0 and t.loc["a", "value_at_best"] == 1.0  # smallest C on a tie
    assert t.loc["b", "best_accuracy"] == 97.8 and t.loc["b", "features_at_best"] == 27.0
    # target = 97.8 - 1 = 96.8 for both paths: a reaches it at 9 features (C = 1), b at 12 (C = 1)
    assert t.loc["a", "target_accuracy"] == pytest.approx(96.8) and t.loc["b", "target_accuracy"] == pytest.approx(96.8)
    assert (t.loc["a", "fewest_features_at_target"], t.loc["a", "value_at_fewest"]) == (9.0, 1.0)
    assert (t.loc["b", "fewest_features_at_target"], t.loc["b", "accuracy_at_fewest"]) == (12.0, 96.9)
    # a tolerance of 3 points reaches b's 95.0 at 3 features and a's 96.5 at 4
    t3 = path_table(_summary(), "C", tolerance=3.0).set_index("method")
    assert t3["fewest_features_at_target"].to_dict() == {"a": 4.0, "b": 3.0}


def test_a_path_that_never_reaches_the_target_says_so(tmp_path):
    s = _summary()
    s.loc[s["method"] == "a", "test_accuracy_mean"] -= 5.0
    t = path_table(s, "C").set_index("method")
    assert math.isnan(t.loc["a", "fewest_features_at_target"]) and t.loc["b", "fewest_features_at_target"] == 12.0
    write_path_table(s[s["method"] == "c"], tmp_path / "p.csv", tmp_path / "p.md")
    assert (tmp_path / "p.csv").read_text().startswith("dataset,method,parameter,points,best_accuracy")
    assert (tmp_path / "p.md").read_text() == "No method of this campaign sweeps C as settings.\n"
