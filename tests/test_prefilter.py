"""The fold-local prefilter (``prefilter: {method, keep}``): fitted on the training side only, its kept columns
mapped back to the dataset's, in the config hash of the jobs it affects only, bad values named."""

import numpy as np
import pytest

from conftest import merge_config
from svmfs.config import ConfigError, job_config, load_config
from svmfs.methods.fisher import FisherScore
from svmfs.methods.svm_rfe import SVMRFE
from svmfs.protocol.normalize import normalize_fold
from svmfs.protocol.select_job import run_select_job

CAMPAIGN = {"normalization": {"method": "zscore"}, "inner_cv": {"n_splits": 3},
            "final_classifier": {"linear": {"C": [1.0]}}, "splits": {}}  # fmt: skip
RFE = {"method": "svm_rfe", "grid": {"C": [1.0], "n_features_to_select": [1, 2]}}


def _data(seed=0, n=60, p=40):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    y = np.tile([0, 1], n // 2)
    X[y == 1, 31] += 1.2
    X[y == 1, 12] -= 1.2
    train, test = np.arange(0, 40), np.arange(40, n)
    return X, y, {"fold": 0, "train": train.tolist(), "test": test.tolist()}


def test_selected_indices_are_the_datasets_columns_as_a_hand_run_finds_them():
    """The record's selection is what Fisher's top 6 on the scaled training side, then SVM-RFE on those
    columns at the tuned size, select, in the dataset's own column numbers."""
    X, y, fold = _data()
    rec = run_select_job(X, y, fold, "rfe", RFE, {**CAMPAIGN, "prefilter": {"method": "fisher", "keep": 6}}, seed=3)
    Xtr, _, _ = normalize_fold(X, np.array(fold["train"]), np.array(fold["test"]), "zscore")
    ytr = y[fold["train"]]
    kept = np.flatnonzero(FisherScore().fit(Xtr, ytr).ranking_ <= 6)
    k = rec["selector_params"]["n_features_to_select"]
    hand = kept[SVMRFE(C=1.0, n_features_to_select=k).fit(Xtr[:, kept], ytr).get_support()]
    assert rec["selected"] == hand.tolist()
    assert set(rec["selected"]) <= {12, 31} and rec["n_features_total"] == 40
    assert rec["diagnostics"]["prefilter_kept"] == kept.tolist()


def test_a_feature_informative_only_on_the_test_side_is_not_kept():
    """Column 5 equals the label on the test rows only (noise on the training side): a prefilter fitted on
    every row would keep it first; fitted on the training side, keep = 2 keeps the two training-side signals."""
    X, y, fold = _data(seed=1)
    test = np.array(fold["test"])
    X[:, 5] = 0.05 * X[:, 5]
    X[test, 5] = 2.0 * (2 * y[test] - 1)
    every_row = np.flatnonzero(FisherScore().fit(X, y).ranking_ <= 2)
    assert 5 in every_row  # the leak the fold-local prefilter must not have
    rec = run_select_job(X, y, fold, "rfe", RFE, {**CAMPAIGN, "prefilter": {"method": "fisher", "keep": 2}}, seed=3)
    assert rec["diagnostics"]["prefilter_kept"] == [12, 31]
    assert 5 not in rec["selected"]


BASE = {
    "campaign": "pf", "seed": 1,
    "datasets": {"mit_example1": {"params": {"n": 40, "p": 30, "k0": 3, "rho": 0.2}}},
    "splits": {"kind": "stratified_kfold", "n_splits": 3}, "inner_cv": {"n_splits": 3},
    "methods": {"fisher": {}, "svm_rfe": {}},
}  # fmt: skip


def test_the_prefilter_enters_the_hash_of_the_jobs_it_affects_only(write_config, root):
    plain = load_config(write_config(BASE), workdir=root)
    own = load_config(write_config(merge_config(BASE, {"methods": {"fisher": {}, "svm_rfe": {"prefilter": {"method": "fisher", "keep": 10}}}})), workdir=root)
    wide = load_config(write_config(merge_config(BASE, {"prefilter": {"method": "fisher", "keep": 10},
                                                        "methods": {"fisher": {"prefilter": False}, "svm_rfe": {}}})), workdir=root)  # fmt: skip
    same = job_config(plain, "mit_example1", "fisher", "default")
    assert job_config(own, "mit_example1", "fisher", "default") == same
    assert "prefilter" not in job_config(wide, "mit_example1", "fisher", "default")["campaign"]
    assert job_config(own, "mit_example1", "svm_rfe", "default")["campaign"]["prefilter"] == {"method": "fisher", "keep": 10}
    assert job_config(wide, "mit_example1", "svm_rfe", "default")["campaign"]["prefilter"] == {"method": "fisher", "keep": 10}


@pytest.mark.parametrize(
    "change, fragment",
    [
        ({"prefilter": {"method": "fisher", "keep": 31}}, "prefilter.keep: 31 is more than the 30 features of dataset 'mit_example1'"),
        ({"prefilter": {"method": "fisher", "keep": 0}}, "prefilter.keep: must be an integer >= 1, got 0"),
        ({"prefilter": {"method": "svm_rfe", "keep": 5}}, "prefilter.method: 'svm_rfe' is not a prefilter"),
        ({"prefilter": {"method": "variance", "keep": 5}}, "prefilter.method: 'variance' after normalization zscore"),
        ({"methods": {"fisher": {"prefilter": {"method": "fisher", "keep": 99}}}}, "methods.fisher.prefilter.keep: 99 is more than"),
    ],
)
def test_bad_prefilters_are_config_errors_naming_the_key(change, fragment, write_config, root):
    with pytest.raises(ConfigError, match=fragment.replace(".", r"\.").replace("(", r"\(")):
        load_config(write_config(merge_config(BASE, change)), workdir=root)
