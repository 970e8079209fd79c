"""Figures from the summary: a method's settings drawn as one path; the ||gamma||_1 frontier."""

import numpy as np
import pandas as pd
import pytest

from svmfs.analysis.figures import accuracy_vs_features, width_frontier
from svmfs.analysis.tables import summary_table
from svmfs.results.record import flat_row


def _records():
    rows = []
    for setting, widths, acc in (("C2-0.1", [2.0, 1.0, 0.0], 0.9), ("C2-0.7", [0.5, 0.0, 0.0], 0.8)):
        for fold in range(2):
            rows.append(flat_row({
                "dataset": "d", "method": "mm_fs", "setting": setting, "fold": fold, "status": "ok",
                "n_features_total": 3, "n_selected": int(np.sum(np.array(widths) > 1e-2)), "test_accuracy": acc,
                "test_balanced_accuracy": acc, "train_accuracy": 1.0, "kernel_widths": [w * (1 + fold) for w in widths],
                "leaky_normalization": False, "selected": [],
            }))  # fmt: skip
    return pd.DataFrame(rows)


def test_width_l1_is_derived_per_record_and_averaged_per_setting():
    assert flat_row({"kernel_widths": [0.5, 0.0, 1.5]})["kernel_width_l1"] == 2.0
    assert flat_row({"weights": [1.0]})["kernel_width_l1"] is None
    s = summary_table(_records()).set_index("setting")
    # folds 0 and 1 scale the widths by 1 and 2: mean l1 = 1.5 * sum(widths)
    assert s.loc["C2-0.1", "kernel_width_l1_mean"] == pytest.approx(4.5)
    assert s.loc["C2-0.7", "kernel_width_l1_mean"] == pytest.approx(0.75)


def test_settings_of_a_method_are_one_path_in_order_of_features():
    summary = pd.DataFrame({
        "dataset": ["d"] * 4, "method": ["fisher"] * 3 + ["svm_rbf"], "setting": ["k-20", "k-2", "k-5", "default"],
        "test_accuracy_mean": [95.0, 90.0, 92.0, 96.0], "test_accuracy_sd": [1.0, 1.0, 1.0, np.nan],
        "n_selected_mean": [20.0, 2.0, 5.0, 30.0], "n_selected_sd": [0.0, 0.0, 0.0, np.nan], "n_features_total": [30] * 4,
    })  # fmt: skip
    fig = accuracy_vs_features(summary)
    lines = [ln for ln in fig.axes[0].lines if len(ln.get_xdata()) > 1 and ln.get_linestyle() == "-"]
    assert len(lines) == 1
    assert list(lines[0].get_xdata()) == [2.0, 5.0, 20.0] and list(lines[0].get_ydata()) == [90.0, 92.0, 95.0]


def test_frontier_plots_accuracy_against_l1_or_says_why_not():
    fig = width_frontier(summary_table(_records()))
    (line,) = [ln for ln in fig.axes[0].lines if len(ln.get_xdata()) == 2]
    assert list(line.get_xdata()) == pytest.approx([0.75, 4.5]) and list(line.get_ydata()) == pytest.approx([80.0, 90.0])
    empty = width_frontier(summary_table(_records().assign(kernel_width_l1=np.nan)))
    assert "no method of this campaign has anisotropic kernel widths" in empty.axes[0].texts[0].get_text()


def test_selection_frequency_and_the_features_shown():
    from svmfs.analysis.correlation import correlation_figure, selection_frequency, shown_features

    rec = pd.DataFrame({
        "dataset": ["d"] * 5, "method": ["a", "a", "b", "b", "none"], "setting": ["default"] * 5,
        "selected": ["[0,2]", "[2]", "[1]", "[1,2]", "[0,1,2]"],
    })  # fmt: skip
    freq = selection_frequency(rec, "d", 3)
    assert list(freq.index) == ["a", "b"]  # "none" keeps everything: not a selection
    assert freq.loc["a"].tolist() == [0.5, 0.0, 1.0] and freq.loc["b"].tolist() == [0.0, 1.0, 0.5]
    assert shown_features(freq, 3, max_features=60).tolist() == [0, 1, 2]
    assert shown_features(freq, 3, max_features=2).tolist() == [1, 2]  # totals 0.5, 1.0, 1.5
    X = np.random.default_rng(0).normal(size=(20, 3))
    fig = correlation_figure(X, freq, "d", max_features=2)
    corr = fig.axes[0].images[0].get_array()
    assert corr.shape == (2, 2) and corr[0, 1] == pytest.approx(np.corrcoef(X[:, 1], X[:, 2])[0, 1])


def test_swept_parameter_is_read_from_the_setting_labels():
    from svmfs.analysis.figures import settings_sweep
    from svmfs.analysis.paths import swept_parameter

    assert swept_parameter(["C2-0.1", "C2-10", "C2-1e-3"]) == ("C2", [0.1, 10.0, 0.001])
    assert swept_parameter(["n_features_to_select-5", "n_features_to_select-20"]) == ("n_features_to_select", [5.0, 20.0])
    assert swept_parameter(["C-1_C2-0.5", "C-1_C2-0.7"]) is None  # two parameters: no single axis
    assert swept_parameter(["default"]) is None and swept_parameter(["C2-0.1", "beta-5"]) is None
    summary = pd.DataFrame({
        "dataset": ["d"] * 3, "method": ["kp_svm"] * 3, "setting": ["C2-100", "C2-1", "C2-10"],
        "test_accuracy_mean": [70.0, 84.0, 82.0], "test_accuracy_sd": [1.0] * 3, "n_selected_mean": [26.0, 2000.0, 895.0],
    })  # fmt: skip
    fig = settings_sweep(summary)
    acc = [ln for ln in fig.axes[0].lines if len(ln.get_xdata()) == 3][0]
    assert list(acc.get_xdata()) == [1.0, 10.0, 100.0] and list(acc.get_ydata()) == [84.0, 82.0, 70.0]
    assert fig.axes[0].get_xscale() == "log" and fig.axes[0].get_xlabel() == "C2"


def test_regularization_paths_draw_the_methods_swept_over_C_in_order_of_C():
    from svmfs.analysis.figures import regularization_paths

    summary = pd.DataFrame({
        "dataset": ["d"] * 6, "method": ["l1_by_C"] * 3 + ["mm_fs"] * 2 + ["svm_rbf"],
        "setting": ["C-10", "C-0.01", "C-1", "C2-0.1", "C2-0.9", "default"],
        "test_accuracy_mean": [96.0, 62.0, 97.0, 90.0, 91.0, 97.5], "n_selected_mean": [5.0, 0.0, 12.0, 3.0, 2.0, 30.0],
        "n_features_total": [30] * 6,
    })  # fmt: skip
    fig = regularization_paths(summary)
    ax = fig.axes[0]
    drawn = [ln for ln in ax.lines if len(ln.get_xdata()) > 1]
    assert len(drawn) == 2  # the C path (line and markers) only: the C2 sweep and the default are not paths over C
    for ln in drawn:  # in order of C (0.01, 1, 10), not of the number of features
        assert list(ln.get_xdata()) == [0.0, 12.0, 5.0] and list(ln.get_ydata()) == [62.0, 97.0, 96.0]
    assert ax.get_xscale() == "linear" and ax.get_xlim()[0] < 0.0 < 30.0 < ax.get_xlim()[1]  # 0 features shown
    none = regularization_paths(summary[summary["method"] != "l1_by_C"])
    assert "no method of this campaign sweeps C as settings" in none.axes[0].texts[0].get_text()


def test_a_setting_that_keeps_no_feature_stays_on_the_plot():
    """Fig. 2's smallest C keeps no feature (the majority class): its point is drawn at 0, not dropped by a
    log axis; the axis is linear below one feature and logarithmic above."""
    summary = pd.DataFrame({
        "dataset": ["d"] * 3, "method": ["l1_svm_by_C"] * 3, "setting": ["C-0.001", "C-1", "C-100"],
        "test_accuracy_mean": [65.0, 76.0, 77.0], "test_accuracy_sd": [0.5, 2.0, 2.0],
        "n_selected_mean": [0.0, 4.8, 8.0], "n_selected_sd": [0.0, 0.4, 0.0], "n_features_total": [8] * 3,
    })  # fmt: skip
    ax = accuracy_vs_features(summary).axes[0]
    (line,) = [ln for ln in ax.lines if len(ln.get_xdata()) == 3 and ln.get_linestyle() == "-"]
    assert list(line.get_xdata()) == [0.0, 4.8, 8.0]
    lo, hi = ax.get_xlim()
    assert lo < 0.0 < 8.0 < hi and ax.get_xscale() == "symlog"
    assert ax.transData.transform((0.0, 0.0))[0] < ax.transData.transform((1.0, 0.0))[0]  # 0 drawn left of 1
    assert [t for t in ax.get_xticks() if lo <= t <= hi] == [0.0, 1.0, 2.0, 5.0]
