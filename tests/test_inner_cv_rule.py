"""The inner CV's rules of choice: best_mean (the default) and the one-standard-error rule (ESL sec. 7.10)."""

import numpy as np
import pandas as pd
import pytest

from conftest import ROOT
from svmfs.methods.fisher import FisherScore
from svmfs.protocol.select_job import run_select_job
from svmfs.protocol.splits import make_splits
from svmfs.protocol.tuning import choose_candidate, inner_cv, inner_cv_rule, one_se_choice, tune_selector
from svmfs.yamlio import load_yaml_file

GRID = {"n_features_to_select": [1, 2, 5]}
FINAL = {"linear": {"C": [0.1, 1.0]}}
X10 = np.zeros((8, 10))  # only its width matters: sizes are clipped to 10 features

#: Four inner folds, rows [selector point, size, final point, accuracy, n_features]. Means (C=0.1 / C=1):
#: size 1: 0.75 / 0.70; size 2: 0.82 / 0.81; size 5: 0.85 / 0.80. The best mean is size 5 at C=0.1, whose
#: fold accuracies 0.95, 0.75, 0.85, 0.85 have sd sqrt(0.02 / 3) = 0.08165 and standard error 0.040825:
#: the bar is 0.809175, which both size-2 candidates pass and size 1 does not; of the two, C=0.1 is the more
#: accurate.
FOLD_ACC = {
    (1, 0): [0.70, 0.80, 0.75, 0.75], (1, 1): [0.70, 0.70, 0.70, 0.70],
    (2, 0): [0.82, 0.82, 0.82, 0.82], (2, 1): [0.81, 0.81, 0.81, 0.81],
    (5, 0): [0.95, 0.75, 0.85, 0.85], (5, 1): [0.80, 0.80, 0.80, 0.80],
}  # fmt: skip


def _scores(fold_acc=FOLD_ACC):
    return {k: [[0, size, fi, acc[k], size] for (size, fi), acc in fold_acc.items()] for k in range(4)}


def _choose(rule, scores=None):
    return choose_candidate(FisherScore, GRID, "n_features_to_select", "linear", FINAL, X10, scores or _scores(), 4, rule)


def test_the_two_rules_choose_differently_on_a_hand_built_table():
    best = _choose("best_mean")
    assert best.selector_params == {"n_features_to_select": 5} and best.final_params == {"C": 0.1}
    assert best.inner_accuracy == pytest.approx(0.85) and best.rule == "best_mean"
    se = next(r for r in best.table if r["selector"]["n_features_to_select"] == 5 and r["final"]["C"] == 0.1)["accuracy_se"]
    assert se == pytest.approx(np.sqrt(0.02 / 3) / 2)
    one = _choose("one_se")
    assert one.selector_params == {"n_features_to_select": 2} and one.final_params == {"C": 0.1}
    assert one.inner_accuracy == pytest.approx(0.82) and one.rule == "one_se" and one.n_candidates == 6


def test_one_se_is_best_mean_when_nothing_smaller_is_within_one_standard_error():
    tight = dict(FOLD_ACC)
    tight[(5, 0)] = [0.86, 0.84, 0.85, 0.85]  # se 0.00408: the bar 0.8459 leaves only size 5
    assert _choose("one_se", _scores(tight)).selector_params == _choose("best_mean", _scores(tight)).selector_params
    table = [{"accuracy": 0.9, "accuracy_se": 0.0, "n_features": 3.0}, {"accuracy": 0.9, "accuracy_se": 0.0, "n_features": 2.0}]
    assert one_se_choice(table, 1) == 1  # a tie at the bar goes to the smaller set


def test_an_unknown_rule_is_refused():
    with pytest.raises(ValueError, match=r"inner_cv.rule = 'median': expected one of best_mean, one_se"):
        _choose("median")
    assert inner_cv_rule({"inner_cv": {"n_splits": 5}}) == "best_mean"
    assert inner_cv_rule({"inner_cv": {"rule": "one_se"}}) == "one_se"


def _data(seed=0, n=60, p=12):
    rng = np.random.default_rng(seed)
    y = np.repeat([1, -1], n // 2)
    X = rng.normal(size=(n, p))
    X[:, :3] += 0.8 * y[:, None]
    return X, y


def test_one_se_never_picks_a_larger_set_and_the_record_names_its_rule():
    X, y = _data()
    args = (FisherScore, {"n_features_to_select": [1, 2, 3, 6, 12]}, "n_features_to_select", "linear", FINAL, X, y)
    best, one = (tune_selector(*args, inner_cv(y, 3, 0), rule=r) for r in ("best_mean", "one_se"))
    assert one.selector_params["n_features_to_select"] <= best.selector_params["n_features_to_select"]
    assert one.inner_accuracy >= best.inner_accuracy - next(r["accuracy_se"] for r in best.table
                                                           if r["selector"] == best.selector_params and r["final"] == best.final_params)
    fold = make_splits(y, {"kind": "stratified_kfold", "n_splits": 3}, seed=1)[0]
    campaign = {"normalization": {"method": "zscore", "scope": "fold"}, "final_classifier": FINAL}
    mcfg = {"grid": {"n_features_to_select": [1, 2, 3, 6, 12]}}
    recs = {r: run_select_job(X, y, fold, "fisher", mcfg, {**campaign, "inner_cv": {"n_splits": 3, **rr}}, 5)
            for r, rr in (("best_mean", {}), ("one_se", {"rule": "one_se"}))}  # fmt: skip
    assert recs["best_mean"]["inner_cv_rule"] == "best_mean" and recs["one_se"]["inner_cv_rule"] == "one_se"
    assert recs["one_se"]["n_selected"] <= recs["best_mean"]["n_selected"]


def test_the_absent_rule_keeps_the_committed_records_config_hashes():
    """The schema writes no default for ``inner_cv.rule``: an export's config validated by this tree hashes its jobs
    as its records say; setting the rule changes every job's hash."""
    from svmfs.reproduce.jobs import validated
    from svmfs.reproduce.restore import stands_for

    folder = ROOT / "reproduction" / "mit9520"
    config, rec = validated(load_yaml_file(folder / "config.yaml")), pd.read_parquet(folder / "records.parquet")
    assert "rule" not in config["inner_cv"]
    jobs = rec.drop_duplicates(["dataset", "method", "setting"]).head(5)
    for _, r in jobs.iterrows():
        assert stands_for(r["config_hash"], config, (r["dataset"], r["method"], r["setting"]))
    config["inner_cv"]["rule"] = "one_se"
    for _, r in jobs.iterrows():
        assert not stands_for(r["config_hash"], config, (r["dataset"], r["method"], r["setting"]))
