"""The accuracy-against-features front and its knee (Kneedle, Satopaa et al. 2011) on known curves."""

import numpy as np
import pandas as pd

from svmfs.analysis.front import front_figure, front_table, knee_index, pareto_front


def test_kneedle_finds_the_known_knee_of_a_concave_curve_and_of_a_corner():
    x = np.linspace(0.0, 1.0, 101)
    assert knee_index(x, np.sqrt(x)) == 25  # max of sqrt(x) - x on [0, 1] at x = 1/4
    assert knee_index([0, 1, 2, 3], [0.0, 0.9, 0.95, 1.0]) == 1
    assert knee_index([0, 1, 2], [0.0, 0.5, 1.0]) is None  # a straight line: nothing above its chord
    assert knee_index([0, 1], [0.0, 1.0]) is None


def test_the_front_keeps_the_non_dominated_points_in_order_of_features():
    n = [10, 2, 5, 5, 50, 1]
    acc = [90, 80, 85, 70, 90, 60]
    assert pareto_front(n, acc) == [5, 1, 2, 0]  # 5@70 and 50@90 are dominated


def _summary():
    rows = [("d", "a", "default", 1, 70.0), ("d", "b", "default", 3, 90.0), ("d", "c", "default", 10, 92.0),
            ("d", "e", "default", 30, 93.0), ("d", "f", "default", 30, 80.0), ("z", "a", "default", 2, 60.0)]
    return pd.DataFrame(rows, columns=["dataset", "method", "setting", "n_selected_mean", "test_accuracy_mean"]).assign(n_features_total=30)


def test_front_table_marks_one_knee_per_dataset_and_the_figure_draws(tmp_path):
    t = front_table(_summary())
    d = t[t["dataset"] == "d"]
    assert list(d["competitor"]) == ["a", "b", "c", "e"] and list(d["competitor"][d["knee"]]) == ["b"]
    assert not t[t["dataset"] == "z"]["knee"].any()  # one point: no knee
    from svmfs.analysis.figures import save_figure

    save_figure(front_figure(_summary()), tmp_path / "front.png")
    assert (tmp_path / "front.png").stat().st_size > 1000
