"""The MIT 9.520 project's protocol as written (config/campaigns/mit9520/paper.yaml, issue 35;
docs/protocols/mit9520.md rows M6 and M13): what the campaign's keys must give, checked on its own
datasets and seeds."""

import numpy as np
import pytest

from svmfs.config import campaign_datasets, dataset_splits, load_config
from svmfs.data.synthetic import generate
from svmfs.methods.l1_rfe import L1RFE
from svmfs.protocol.seeds import data_seed, splits_seed
from svmfs.protocol.splits import make_splits

CAMPAIGN = "config/campaigns/mit9520/paper.yaml"


@pytest.fixture(scope="module")
def config(request):
    root = request.config.rootpath
    return load_config(root / CAMPAIGN, workdir=root)


def _draw(config, name, p=None):
    """One expanded dataset of the campaign as the prepare and split rules make it (``p`` smaller for speed:
    the labels and the split do not depend on p)."""
    d = campaign_datasets(config)[name]
    params = {**d["params"], **({"p": p} if p else {})}
    ds = generate(name, d["source"], params, data_seed(config["seed"], name))
    return ds, make_splits(ds.y, dataset_splits(config, name), splits_seed(config["seed"], name), name)


@pytest.mark.parametrize("name", ["ex1_rho05-r0", "ex2_rho05-r3"])
def test_examples_1_and_2_train_on_100_samples_half_from_each_class_and_test_on_100_more(config, name):
    # sec. 5.1: "We generate n samples, half from each class", n = 100 (Tables 1-2): the training side;
    # the test side is a separate draw of 100 made the same way
    ds, folds = _draw(config, name, p=20)
    assert len(folds) == 1
    train, test = np.array(folds[0]["train"]), np.array(folds[0]["test"])
    assert len(train) == len(test) == 100 and not set(train) & set(test)
    assert (ds.y[train] == 1).sum() == 50 and (ds.y[test] == 1).sum() == 50


def test_example_3_sides_are_not_stratified(config):
    # sec. 5.1, Example 3: "the training set is not necessary balanced": both sides plain random draws
    spec = dataset_splits(config, "ex3_rho05-r0")
    assert spec["stratify"] is False and spec["train_size"] == spec["test_size"] == 100
    ds, folds = _draw(config, "ex3_rho05-r0", p=50)
    assert len(folds[0]["train"]) == len(folds[0]["test"]) == 100


def test_one_norm_rfe_ignores_the_step_on_a_training_side_of_100(config):
    # why methods.l1_rfe has no step grid: the 1-norm SVM's LP vertex keeps at most n_train <= 100 =
    # switch_at features, so its RFE removes one at a time whatever the step (a step grid refits the same path)
    ds, folds = _draw(config, "ex1_rho05-r0")
    train = np.array(folds[0]["train"])
    X, y = ds.X[train], ds.y[train]
    X = (X - X.mean(0)) / X.std(0)
    switch_at = config["methods"]["svm_rfe"]["params"]["switch_at"]
    for C in (1.0, 1024.0):
        a = L1RFE(C=C, step=0.05, switch_at=switch_at).fit(X, y)
        b = L1RFE(C=C, step=0.2, switch_at=switch_at).fit(X, y)
        assert 0 < a.l1_support_size_ <= len(y) <= switch_at
        np.testing.assert_array_equal(a.ranking_, b.ranking_)
