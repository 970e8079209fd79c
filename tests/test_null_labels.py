"""The null-label audit (campaign key ``audits: [null_labels]``): chance on permuted labels for the nested
protocol, far above it for selection on all rows; seeded permutations; config errors; no select job reruns."""

import copy
import subprocess
import sys

import numpy as np
import pytest
import yaml
from scipy import stats
from sklearn.model_selection import StratifiedKFold

from svmfs.analysis.null_labels import COLUMNS, null_labels_table
from svmfs.config import ConfigError, job_campaign_config, job_config, load_config
from svmfs.protocol.audits import run_global_selection
from svmfs.protocol.null_labels import (
    check_null_labels,
    permutation_seed,
    permuted_labels,
    permuted_labels_for_folds,
    usable_on_every_side,
)
from svmfs.protocol.select_job import run_select_job

CAMPAIGN = {
    "normalization": {"method": "zscore", "scope": "fold"},
    "inner_cv": {"n_splits": 3},
    "final_classifier": {"linear": {"C": [1.0]}},
}
FISHER = {"grid": {"n_features_to_select": [10]}}


def _folds(y, k, seed=0):
    skf = StratifiedKFold(k, shuffle=True, random_state=seed)
    return [{"fold": i, "train": tr.tolist(), "test": te.tolist()} for i, (tr, te) in enumerate(skf.split(np.zeros(len(y)), y))]


def _chance_interval(n_predictions: int, level=0.99) -> tuple[float, float]:
    """Where the accuracy of ``n_predictions`` coin flips lies with probability ``level`` (balanced classes)."""
    lo, hi = stats.binom.interval(level, n_predictions, 0.5)
    return lo / n_predictions, hi / n_predictions


def test_nested_null_accuracy_is_chance_and_global_selection_is_not():
    """Noise only (40 x 1000, no signal), three permutations of the labels, the real data's folds: the nested
    CV's accuracy lies in the 99 % interval of chance; selecting the 10 best F-test features on all rows first
    (Ambroise & McLachlan 2002) lies above it."""
    rng = np.random.default_rng(11)
    X, y = rng.normal(size=(40, 1000)), np.repeat([-1, 1], 20)
    folds = _folds(y, 5, seed=1)
    nested, glob = [], []
    for p in range(3):
        yp = permuted_labels(y, permutation_seed(5, "noise", p))
        nested += [run_select_job(X, yp, f, "fisher", FISHER, CAMPAIGN, seed=100 + f["fold"])["test_accuracy"] for f in folds]
        rec = run_global_selection(X, yp, folds, "fisher", FISHER, CAMPAIGN, seed=2, fold_seeds=[100 + k for k in range(5)])
        glob += [f["accuracy"] for f in rec["folds"]]
    lo, hi = _chance_interval(3 * len(y))
    assert lo <= np.mean(nested) <= hi
    assert np.mean(glob) > hi


def test_permutations_are_seeded_byte_identical_and_keep_the_classes():
    y = np.repeat([-1, 1], [13, 29])
    a = permuted_labels(y, permutation_seed(20261123, "colon", 0))
    code = (
        "import numpy as np, sys; from svmfs.protocol.null_labels import permuted_labels, permutation_seed; "
        "sys.stdout.buffer.write(permuted_labels(np.repeat([-1, 1], [13, 29]), permutation_seed(20261123, 'colon', 0)).tobytes())"
    )
    other_process = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True).stdout
    assert a.tobytes() == other_process  # another interpreter (another hash seed) gives the same bytes
    assert sorted(a.tolist()) == sorted(y.tolist()) and not np.array_equal(a, y)
    b = permuted_labels(y, permutation_seed(20261123, "colon", 1))
    assert not np.array_equal(a, b)  # permutation 1 is another draw
    assert permutation_seed(1, "colon", 0) != permutation_seed(2, "colon", 0)


BASE = {
    "campaign": "nl",
    "datasets": {"mit_example1": {"params": {"n": 40, "p": 20, "k0": 3, "rho": 0.2}}},
    "splits": {"kind": "stratified_kfold", "n_splits": 4},
    "inner_cv": {"n_splits": 3},
    "final_classifier": {"linear": {"C": [1.0]}},
    "methods": {"fisher": {"grid": {"n_features_to_select": [2, 5]}}},
}


def _load(tmp_path, root, **change):
    path = tmp_path / "c.yaml"
    path.write_text(yaml.safe_dump({**copy.deepcopy(BASE), **change}))
    return load_config(path, workdir=root)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"audits": ["null_labels"], "null_labels": {"permutations": 0}}, "null_labels.permutations: a positive integer"),
        ({"audits": ["null_labels"], "null_labels": {"permutations": "3"}}, "null_labels.permutations: a positive integer"),
        ({"audits": ["null_labels"], "null_labels": {"permutations": True}}, "null_labels.permutations: a positive integer"),
        ({"audits": ["null_labels"], "null_labels": {"permutations": 2.5}}, "null_labels.permutations: a positive integer"),
        ({"audits": ["null_labels"], "null_labels": {"permutations": 2, "seed": -1}}, "null_labels.seed"),
        ({"null_labels": {"permutations": 2}}, "audits do not name null_labels"),
        ({"audits": ["null_labels"]}, "needs a null_labels block"),
    ],
)
def test_bad_null_labels_blocks_are_config_errors(tmp_path, root, change, message):
    with pytest.raises(ConfigError, match=message):
        _load(tmp_path, root, **change)


def test_a_dataset_too_small_for_its_folds_after_permutation_is_a_config_error(tmp_path, root):
    """16 rows, 8 per class, 4 outer folds: a class spread evenly over the test folds (2 a fold) leaves 6 of it
    on every training side, so 6 inner folds can be drawn on some permutation and 7 on none; a train/test split
    of 5 training rows cannot hold 6 of a class."""
    small = {"mit_example1": {"params": {"n": 16, "p": 20, "k0": 3, "rho": 0.2}}}
    on = {"audits": ["null_labels"], "null_labels": {"permutations": 2}}
    cfg = _load(tmp_path, root, datasets=small, inner_cv={"n_splits": 4}, **on)
    kfold = {"kind": "stratified_kfold", "n_splits": 4}
    assert check_null_labels({**cfg, "inner_cv": {"n_splits": 6}}, ["mit_example1"], lambda n: ([8, 8], kfold)) == []
    err = check_null_labels({**cfg, "inner_cv": {"n_splits": 7}}, ["mit_example1"], lambda n: ([8, 8], kfold))
    assert len(err) == 1 and "'mit_example1' is too small for its folds after permutation" in err[0] and "at most 6" in err[0]
    split = {"kind": "random_train_test", "train_size": 5}
    assert "at most 5" in check_null_labels({**cfg, "inner_cv": {"n_splits": 6}}, ["mit_example1"], lambda n: ([8, 8], split))[0]
    with pytest.raises(ConfigError, match="too small for its folds after permutation"):
        _load(tmp_path, root, datasets=small, splits={"kind": "random_train_test", "train_size": 4, "test_size": 12},
              inner_cv={"n_splits": 5}, **on)  # fmt: skip


def test_a_permutation_keeps_every_class_filling_the_inner_folds_on_every_training_side():
    """A half/half split of 62 rows (22 of the smaller class, colon's counts): a permutation over all rows leaves
    fewer than 10 of it on the training side about one time in four; the draws that do are rejected, the kept
    one is the first usable draw of the same generator (equal to the plain permutation when that is usable),
    and with no usable permutation the error names the dataset before any select job."""
    y = np.repeat([-1, 1], [40, 22])
    train = sorted(np.r_[np.arange(20), np.arange(40, 51)].tolist())
    folds = [{"fold": 0, "train": train, "test": sorted(set(range(62)) - set(train))}]
    rejected_any = False
    for p in range(12):
        seed = permutation_seed(20110101, "colon", p)
        yp, rejected = permuted_labels_for_folds(y, seed, folds, 10, "colon")
        assert usable_on_every_side(yp, folds, 10) and sorted(yp.tolist()) == sorted(y.tolist())
        plain = permuted_labels(y, seed)
        assert (rejected == 0) == usable_on_every_side(plain, folds, 10)
        if rejected == 0:
            assert np.array_equal(yp, plain)
        rejected_any |= rejected > 0
    assert rejected_any  # the restriction is exercised on these seeds
    with pytest.raises(ValueError, match="'colon' is too small for its folds after permutation"):
        permuted_labels_for_folds(y, 1, folds, 23, "colon")


def test_switching_the_audit_on_changes_no_select_jobs_config(tmp_path, root):
    off = _load(tmp_path, root, audits=["global_selection"])
    on = _load(tmp_path, root, audits=["global_selection", "null_labels"], null_labels={"permutations": 3, "seed": 4})
    assert job_campaign_config(on, "mit_example1", "fisher") == job_campaign_config(off, "mit_example1", "fisher")
    assert job_config(on, "mit_example1", "fisher", "default") == job_config(off, "mit_example1", "fisher", "default")


def test_table_columns_chance_and_real_beside_the_permuted():
    import pandas as pd

    keys = {"dataset": "d", "method": "fisher", "setting": "default", "group": "d"}
    null = pd.DataFrame([{**keys, "fold": f, "protocol": "nested", "accuracy": a, "n_selected": 2, "balanced_accuracy": a,
                          "perm": p} for p, accs in enumerate([[0.5, 0.4], [0.6, 0.5]]) for f, a in enumerate(accs)])  # fmt: skip
    real = pd.DataFrame([{**keys, "fold": f, "protocol": "nested", "accuracy": 0.9, "n_selected": 2} for f in range(2)])
    t = null_labels_table(null, real, {"d": 0.6})
    assert list(t.columns) == COLUMNS and len(t) == 1
    r = t.iloc[0]
    assert r["n"] == 2 and r["accuracy_mean"] == pytest.approx(50.0) and r["chance"] == pytest.approx(60.0)
    assert r["accuracy_real"] == pytest.approx(90.0) and r["balanced_accuracy_mean"] == pytest.approx(50.0)
    half = stats.t.ppf(0.975, 1) * np.std([45.0, 55.0], ddof=1) / np.sqrt(2)
    assert r["accuracy_ci_low"] == pytest.approx(50.0 - half) and r["accuracy_ci_high"] == pytest.approx(50.0 + half)


@pytest.mark.workflow
@pytest.mark.e2e
def test_switching_the_audit_on_reruns_no_select_job(tmp_path):
    """A finished campaign, then the audit switched on: a dry run plans the permutations' jobs and the table,
    and no real select (or audit_global) job."""
    from test_reruns import _copy_workflow, _run, planned

    wd = _copy_workflow(tmp_path)
    cfg = {**copy.deepcopy(BASE), "audits": ["global_selection"]}
    _run(wd, cfg, "--cores", "2")
    assert planned(wd, cfg) == []
    on = {**cfg, "audits": ["global_selection", "null_labels"], "null_labels": {"permutations": 2}}
    rules = [r for r, _ in planned(wd, on)]
    assert "select" not in rules and "audit_global" not in rules and "prepare" not in rules
    assert rules.count("null_select") == 2 * 4 and rules.count("null_audit_global") == 2
    assert {"null_labels_permute", "null_labels", "all"} <= set(rules)
