"""Bad configurations are rejected before any job, with a message naming the key."""

import copy

import pytest

from svmfs.config import ConfigError, campaign_datasets, campaign_methods, dataset_splits, job_method_config, load_config, method_settings, n_folds

BASE = {
    "campaign": "t",
    "datasets": {"sparse_polynomial": {"params": {"n": 60}}},
    "splits": {"kind": "stratified_kfold", "n_splits": 3},
    "methods": {"fisher": {"grid": {"n_features_to_select": [1, 3]}}},
}

BAD = [
    # (change, fragment of the expected message)
    ({"seed": "abc"}, "seed: 'abc' is not of type 'integer'"),
    ({"unknown_key": 1}, "Additional properties are not allowed ('unknown_key'"),
    ({"campaign": "../escape"}, "campaign: '../escape' does not match"),
    ({"campaign": "/abs/path"}, "campaign: '/abs/path' does not match"),
    ({"campaign": ""}, "campaign: '' does not match"),
    ({"campaign": "x" * 65}, "does not match"),
    ({"datasets": {}}, "datasets: {} should be non-empty"),
    ({"datasets": {"../x": {}}}, "datasets: '../x' does not match"),
    ({"datasets": {"nope": {}}}, "datasets.nope: unknown dataset 'nope'"),
    ({"methods": {"nope": {}}}, "methods.nope: unknown method 'nope'"),
    ({"methods": {"fisher": {"grid": {"n_features_to_select": []}}}}, "methods.fisher.grid.n_features_to_select: [] should be non-empty"),
    ({"methods": {"svm_rfe": {"grid": {"C": [1.0, -2.0]}}}}, "methods.svm_rfe.grid.C: must be > 0, got -2.0"),
    ({"methods": {"fisher": {"grid": {"k": [1]}}}}, "methods.fisher.grid.k: not a parameter of fisher"),
    ({"final_classifier": {"linear": {"C": [0]}}}, "final_classifier.linear.C.0: 0 is less than or equal to the minimum of 0"),
    ({"splits": {"kind": "stratified_kfold", "n_splits": 50}}, "splits.n_splits = 50 exceeds the smallest class of dataset 'sparse_polynomial'"),
    ({"splits": {"kind": "stratified_kfold", "n_splits": 3, "train_size": 20}}, "splits.train_size: not used by splits.kind 'stratified_kfold'"),
    ({"splits": {"kind": "random_train_test"}}, "splits.train_size: required by splits.kind 'random_train_test'"),
    ({"splits": {"kind": "loo"}}, "splits.kind: 'loo' is not one of"),
    ({"normalization": {"method": "l2"}}, "normalization.method: 'l2' is not one of"),
    ({"inner_cv": {"n_splits": 1}}, "inner_cv.n_splits: 1 is less than the minimum of 2"),
    ({"methods": {"svm_rfe": {"grid": {"C": [1.0]}, "settings": {"C": [2.0]}}}}, "'C' is both in grid and settings"),
    ({"methods": {"fisher": {}, "svm_rfe": {"match_size_of": "ghost"}}}, "methods.svm_rfe.match_size_of: 'ghost' is not a method"),
    ({"datasets": {"wdbc": {"replicates": 3}}}, "datasets.wdbc.replicates: only synthetic datasets can be replicated"),
    ({"mirror": "ftp://example.org/"}, "mirror: 'ftp://example.org/' does not match"),
    ({"datasets": {"sparse_polynomial": {"params": {"kind": "cubic"}}}}, "datasets.sparse_polynomial.params: kind must be 'f1', 'f2' or 'random'"),
    ({"datasets": {"sparse_polynomial": {"enabled": False}}}, "datasets: every dataset is disabled"),
    ({"methods": {"fisher": {"enabled": False}}}, "methods: every method is disabled"),
    ({"datasets": {"wdbc": {"splits": {"kind": "random_train_test"}}}}, "datasets.wdbc.splits.train_size: required by splits.kind 'random_train_test'"),
    ({"datasets": {"wdbc": {"splits": {"n_folds": 3}}}}, "Additional properties are not allowed ('n_folds'"),
    ({"datasets": {"wdbc": {"method_params": {"milp_fs": {"B": 3}}}}}, "datasets.wdbc.method_params.milp_fs: 'milp_fs' is not a method of this campaign"),
    ({"datasets": {"wdbc": {"method_params": {"fisher": {"budget": 3}}}}}, "datasets.wdbc.method_params.fisher.budget: not a parameter of fisher"),
    ({"methods": {"fisher": {"enabled": False}, "svm_rfe": {"match_size_of": "fisher"}}}, "'fisher' is not a method of this campaign (or it is disabled)"),
]


def _merge(base, change):
    out = copy.deepcopy(base)
    out.update(copy.deepcopy(change))
    return out


@pytest.mark.parametrize("change,fragment", BAD, ids=[f"bad{i}" for i in range(len(BAD))])
def test_bad_config_rejected_naming_the_key(change, fragment, write_config, root):
    path = write_config(_merge(BASE, change))
    with pytest.raises(ConfigError) as e:
        load_config(path, workdir=root)
    assert fragment in str(e.value)
    assert str(path) in str(e.value)


def test_bad_count_meets_issue_minimum():
    assert len(BAD) >= 15


def test_good_config_gets_defaults(write_config, root):
    cfg = load_config(write_config(BASE), workdir=root)
    assert cfg["normalization"] == {"method": "zscore", "scope": "fold"}
    assert cfg["inner_cv"]["n_splits"] == 5 and cfg["final_classifier"]["rbf"]["gamma_per_feature"] is True


def test_unsafe_yaml_is_refused(tmp_path, root):
    p = tmp_path / "c.yaml"
    p.write_text("campaign: !!python/object/apply:os.system ['echo hacked']\n")
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_config(p, workdir=root)


def test_settings_labels():
    assert method_settings({}) == {"default": {}}
    assert method_settings({"settings": {"C2": [0.1, 0.5]}}) == {"C2-0.1": {"C2": 0.1}, "C2-0.5": {"C2": 0.5}}


def test_default_and_campaign_configs_are_valid(root):
    for path in [root / "config" / "config.yaml", *sorted((root / "config" / "campaigns").glob("*.yaml"))]:
        load_config(path, workdir=root)


def test_enabled_false_and_per_dataset_splits(write_config, root):
    cfg = load_config(write_config(_merge(BASE, {
        "datasets": {
            "sparse_polynomial": {"params": {"n": 60}, "enabled": False},
            "wdbc": {"splits": {"kind": "random_train_test", "train_size": 400, "n_instances": 4}},
            "mit_example1": {"params": {"n": 40, "p": 20}},
        },
        "methods": {"fisher": {}, "svm_rfe": {"enabled": False}},
    })), workdir=root)
    assert sorted(campaign_datasets(cfg)) == ["mit_example1", "wdbc"]
    assert list(campaign_methods(cfg)) == ["fisher"]
    own, shared = dataset_splits(cfg, "wdbc"), dataset_splits(cfg, "mit_example1")
    assert own["kind"] == "random_train_test" and n_folds(own) == 4
    assert shared == {"kind": "stratified_kfold", "n_splits": 3, "n_repeats": 1} and n_folds(shared) == 3


def test_dataset_method_params_override_the_methods_params(write_config, root):
    cfg = load_config(write_config(_merge(BASE, {
        "datasets": {"wdbc": {"method_params": {"milp_fs": {"B": 10, "M": 200.0}}}, "mit_example1": {"params": {"n": 40, "p": 20}}},
        "methods": {"milp_fs": {"params": {"B": 5, "time_limit": 9.0}}},
    })), workdir=root)
    assert job_method_config(cfg, "wdbc", "milp_fs")["params"] == {"B": 10, "M": 200.0, "time_limit": 9.0}
    assert job_method_config(cfg, "mit_example1", "milp_fs")["params"] == {"B": 5, "time_limit": 9.0}
