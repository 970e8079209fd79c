"""Configurations: defaults, settings, per-dataset overrides (bad ones: test_bad_input.py)."""

import pytest

from conftest import merge_config
from svmfs.config import ConfigError, campaign_chain, campaign_datasets, campaign_methods, dataset_methods, dataset_splits, job_campaign_config, job_config, job_method_config, largest_training_side, load_config, method_settings, n_folds, runtime_warnings

BASE = {
    "campaign": "t",
    "datasets": {"sparse_polynomial": {"params": {"n": 60}}},
    "splits": {"kind": "stratified_kfold", "n_splits": 3},
    "methods": {"fisher": {"grid": {"n_features_to_select": [1, 3]}}},
}

def test_good_config_gets_defaults(write_config, root):
    cfg = load_config(write_config(BASE), workdir=root)
    assert cfg["normalization"] == {"method": "zscore", "scope": "fold"}
    assert cfg["inner_cv"]["n_splits"] == 5 and cfg["final_classifier"]["rbf"]["gamma_per_feature"] is True


def test_settings_labels():
    assert method_settings({}) == {"default": {}}
    assert method_settings({"settings": {"C2": [0.1, 0.5]}}) == {"C2-0.1": {"C2": 0.1}, "C2-0.5": {"C2": 0.5}}


def test_default_and_campaign_configs_are_valid(root):
    campaigns = root / "config" / "campaigns"  # every campaign file, run as its chain (base first)
    for path in [root / "config" / "config.yaml", *sorted(campaigns.rglob("*.yaml"))]:
        # valid, and no select job can outlast its runtime request before its methods' time limits end it
        assert runtime_warnings(load_config(campaign_chain(path), workdir=root)) == [], path.name


def test_runtime_warning_counts_every_fit_of_the_job_at_its_time_limit(root):
    jimenez = root / "config" / "campaigns" / "jimenez2021" / "nested.yaml"
    cfg = load_config(jimenez, overrides={"methods": {"milp_fs": {"resources": {"runtime": 120}}}}, workdir=root)
    # MILP-FS: 5 C x 5 inner folds + the refit = 26 fits x 600 s = 260 min; MM-FS (no grid): 1 fit x 7200 s <= 180 min
    assert runtime_warnings(cfg) == [
        "methods.milp_fs: a select job runs up to 26 fits x time_limit 600 s = 260 min, above resources.runtime = 120 min; "
        "a scheduler may kill it first (raise methods.milp_fs.resources.runtime or lower the time_limit)"
    ]
    # a per-dataset time limit counts too (the largest over the datasets that run the method)
    cfg = load_config(jimenez, overrides={"datasets": {"pima": {"method_params": {"mm_fs": {"time_limit": 36000.0}}}}}, workdir=root)
    assert [w.split(":")[0] for w in runtime_warnings(cfg)] == ["methods.mm_fs"]
    cfg = load_config(jimenez, overrides={
        "datasets": {"pima": {"method_params": {"mm_fs": {"time_limit": 36000.0}}, "skip_methods": ["mm_fs"]}},
    }, workdir=root)  # fmt: skip
    assert runtime_warnings(cfg) == []  # not run on pima


def test_enabled_false_and_per_dataset_splits(write_config, root):
    cfg = load_config(write_config(merge_config(BASE, {
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
    cfg = load_config(write_config(merge_config(BASE, {
        "datasets": {"wdbc": {"method_params": {"milp_fs": {"B": 10, "M": 200.0}}}, "mit_example1": {"params": {"n": 40, "p": 20}}},
        "methods": {"milp_fs": {"params": {"B": 5, "time_limit": 9.0}}},
    })), workdir=root)
    assert job_method_config(cfg, "wdbc", "milp_fs")["params"] == {"B": 10, "M": 200.0, "time_limit": 9.0}
    assert job_method_config(cfg, "mit_example1", "milp_fs")["params"] == {"B": 5, "time_limit": 9.0}


def test_skip_methods_leaves_a_method_out_on_one_dataset_only(write_config, root):
    cfg = load_config(write_config(merge_config(BASE, {
        "datasets": {"wdbc": {"skip_methods": ["svm_rfe", "milp_fs"]}, "sparse_polynomial": {"params": {"n": 60}}},
        "methods": {"fisher": {}, "svm_rfe": {}, "milp_fs": {"enabled": False}},
    })), workdir=root)
    assert dataset_methods(cfg, "wdbc") == ["fisher"]
    assert dataset_methods(cfg, "sparse_polynomial") == ["fisher", "svm_rfe"]


def test_per_dataset_params_of_a_disabled_method_are_ignored(write_config, root):
    """A reduced overlay may disable a method that the full campaign parameterises per dataset."""
    cfg = load_config(write_config(merge_config(BASE, {
        "datasets": {"wdbc": {"method_params": {"milp_fs": {"B": 10}}}},
        "methods": {"fisher": {}, "milp_fs": {"enabled": False}},
    })), workdir=root)
    assert list(campaign_methods(cfg)) == ["fisher"]


def test_the_schemas_final_kinds_are_the_ones_the_protocol_scores(root):
    """``methods.<name>.final`` in the schema lists exactly the classifiers.FINAL_KINDS (one list, checked)."""
    import yaml

    from svmfs.protocol.classifiers import FINAL_KINDS

    schema = yaml.safe_load((root / "workflow" / "schemas" / "config.schema.yaml").read_text())
    method = schema["properties"]["methods"]["additionalProperties"]["properties"]
    assert tuple(method["final"]["enum"]) == FINAL_KINDS


def test_pyomo_routes_size_limit_is_checked_before_any_job_at_the_largest_training_side(write_config, root):
    """MM-FS's model route: the config check counts the largest training side the splitter makes (k-fold and a
    train fraction), so a limit of exactly rows x features passes and one less is refused, naming the key;
    a per-dataset ``method_params`` route counts, and a dataset small enough passes."""
    from svmfs.data.embedded import sklearn_breast_cancer
    from svmfs.protocol.splits import make_splits

    y = sklearn_breast_cancer("wdbc").y
    for spec in ({"kind": "stratified_kfold", "n_splits": 10}, {"kind": "random_train_test", "train_size": 0.7, "n_instances": 3}):
        rows = max(len(f["train"]) for f in make_splits(y, spec, seed=0))
        assert largest_training_side(spec, y.size) == rows
        for limit in (rows * 30, rows * 30 - 1):
            change = {
                "datasets": {"sparse_polynomial": {"params": {"n": 60}},
                             "wdbc": {"splits": spec, "method_params": {"mm_fs": {"route": "pyomo", "pyomo_max_size": limit}}}},
                "methods": {"mm_fs": {}},
            }  # fmt: skip
            path = write_config(merge_config(BASE, change))
            if limit == rows * 30:
                load_config(path, workdir=root)
                continue
            with pytest.raises(ConfigError, match=f"methods.mm_fs.params.route: 'pyomo' on dataset 'wdbc': {rows} training rows"):
                load_config(path, workdir=root)


def test_a_select_job_sees_only_its_own_final_classifiers_section(root):
    """l1-SVM scored by its own hyperplane needs no final grid, NO-FS the RBF one, MM-FS the anisotropic one
    (with the schema's default widths: all); splits are the dataset's."""
    cfg = load_config(root / "config" / "campaigns" / "jimenez2021" / "nested.yaml", workdir=root)
    fc = cfg["final_classifier"]
    assert job_campaign_config(cfg, "colon", "l1_svm")["final_classifier"] == {}
    assert job_campaign_config(cfg, "colon", "svm_rbf")["final_classifier"] == {"rbf": fc["rbf"]}
    mm = job_campaign_config(cfg, "wdbc", "mm_fs")
    assert mm["final_classifier"] == {"anisotropic": fc["anisotropic"]} and fc["anisotropic"]["widths"] == "all"
    assert set(mm) == {"normalization", "inner_cv", "final_classifier", "splits", "audits"} and mm["splits"] == dataset_splits(cfg, "wdbc")
    assert mm["audits"] == ["test_tuned", "global_scaling"]  # the campaign's audits computed inside the select job


def test_a_jobs_config_slice_holds_its_own_setting_not_the_others_nor_the_resources(root):
    """Adding a value of C to Fig. 2's settings or raising a method's runtime leaves every other job's config slice
    (its record's ``config_hash``, its params) as it was; its own setting's value, the method's params or its grid
    change it."""
    cfg = load_config(root / "config" / "campaigns" / "jimenez2021" / "nested.yaml", workdir=root)
    m = campaign_methods(cfg)["l1_svm_by_C"]
    wider = {**cfg, "methods": {**cfg["methods"], "l1_svm_by_C": {**m, "settings": {"C": [*m["settings"]["C"], 5e4]},
                                                                  "resources": {"runtime": 999}}}}  # fmt: skip
    job = ("pima", "l1_svm_by_C", "C-1")
    assert job_config(wider, *job) == job_config(cfg, *job) and job_config(cfg, *job)["setting"] == {"C": 1.0}
    assert "settings" not in job_config(cfg, *job)["method"] and "resources" not in job_config(cfg, *job)["method"]
    tuned = {**cfg, "methods": {**cfg["methods"], "l1_svm_by_C": {**m, "params": {"threshold": 0.1}}}}
    assert job_config(tuned, *job) != job_config(cfg, *job)


def test_offline_text_overlay_is_a_stand_in_that_judges_nothing(root):
    """config/campaigns/catala_martin/text/offline.yaml: only text_like stand-ins at Table 3's sizes, no
    paper compared; a stand-in campaign that still names a paper is refused, naming the key."""
    from svmfs.config import read_config_file

    overlay = read_config_file(root / "config" / "campaigns" / "catala_martin" / "text" / "offline.yaml")
    path = root / "config" / "campaigns" / "catala_martin" / "text.yaml"
    cfg = load_config(path, overrides=overlay, workdir=root)
    assert cfg["reproduces"] == [] and "20 Newsgroups" in cfg["stand_in"]
    ds = campaign_datasets(cfg)
    assert len(ds) == 8 and all(d["source"] == "text_like" for d in ds.values())
    assert sorted({dataset_splits(cfg, n)["train_size"] for n in ds}) == [400, 1000]
    with pytest.raises(ConfigError, match=r"stand_in: .*reproduces lists \['catala_martin'\]"):
        load_config(path, overrides={**overlay, "reproduces": ["catala_martin"]}, workdir=root)
