"""A method by import path (``methods.<m>.class``): the example of docs/own-method.md runs as a tiny campaign
end to end beside a registry method; a bad path, class or parameter is a config error naming the key."""

import re
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from svmfs.config import ConfigError, load_config
from svmfs.methods.external import adapter_class, check_external, class_source_hash

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "own-method.md"


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"^```{lang}\n(.*?)^```", DOC.read_text(encoding="utf-8"), flags=re.M | re.S)


@pytest.fixture
def user_package(tmp_path, monkeypatch):
    """The docs' ``mylab/selectors.py`` in a folder on sys.path (and PYTHONPATH, for Snakemake's jobs)."""
    pkg = tmp_path / "userlib" / "mylab"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "selectors.py").write_text(_blocks("python")[0])
    monkeypatch.syspath_prepend(str(pkg.parent))
    monkeypatch.setenv("PYTHONPATH", str(pkg.parent))
    yield pkg
    for name in [m for m in sys.modules if m == "mylab" or m.startswith("mylab.")]:
        del sys.modules[name]


def _data(seed=0):
    """40 x 12, features 3 and 8 informative (shifted by 2 in the positive class)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(40, 12))
    y = np.repeat([0, 1], 20)
    X[y == 1, 3] += 2.0
    X[y == 1, 8] -= 2.0
    return X, y


def test_the_users_selector_ranks_the_informative_features_first(user_package):
    """Read off one fit at size 1, the size 2 selection is the two shifted features, as the user's own
    class fitted at n_features = 2 selects them: the adapter's truncation agrees with a direct fit."""
    from mylab.selectors import MeanGap

    X, y = _data()
    sel = adapter_class("mylab.selectors:MeanGap", "n_features")(n_features=2).fit(X, y)
    direct = MeanGap(n_features=2).fit(X, np.where(y == 1, 1, -1))
    assert np.flatnonzero(sel.get_support()).tolist() == [3, 8]
    assert np.array_equal(sel.get_support(), direct.get_support())


def test_an_estimator_is_thresholded_as_select_from_model():
    from sklearn.feature_selection import SelectFromModel
    from sklearn.svm import LinearSVC

    X, y = _data()
    sel = adapter_class("sklearn.svm:LinearSVC")(C=0.5).fit(X, y)
    ref = SelectFromModel(LinearSVC(C=0.5).fit(X, np.where(y == 1, 1, -1))).fit(X, y)
    assert np.array_equal(sel.get_support(), ref.get_support())
    assert {3, 8} <= set(np.flatnonzero(sel.get_support()))


@pytest.mark.parametrize(
    "entry, fragment",
    [
        ({"class": "no_such_pkg.mod:Sel"}, "methods.m.class: cannot import module 'no_such_pkg.mod'"),
        ({"class": "sklearn.feature_selection"}, "methods.m.class: 'sklearn.feature_selection' is not of the form"),
        ({"class": "sklearn.feature_selection:NoSuch"}, "methods.m.class: module 'sklearn.feature_selection' has no attribute 'NoSuch'"),
        ({"class": "sklearn.preprocessing:StandardScaler"}, "methods.m.class: sklearn.preprocessing._data.StandardScaler is neither a selector"),
        ({"class": "sklearn.feature_selection:SelectKBest", "grid": {"k": [2, -1]}}, "methods.m.grid.k: The 'k' parameter of SelectKBest"),
        ({"class": "sklearn.feature_selection:SelectKBest", "params": {"nu": 1}}, "methods.m.params.nu: not a parameter of SelectKBest"),
        ({"class": "sklearn.feature_selection:SelectKBest", "truncation": "n"}, "methods.m.truncation: 'n' is not a parameter"),
        ({"class": "sklearn.feature_selection:SelectKBest", "method": "fisher"}, "methods.m: give either method"),
    ],
)
def test_bad_entries_are_config_errors_naming_the_key(entry, fragment):
    errs = check_external("m", entry)
    assert any(fragment in e for e in errs), errs


def test_a_bad_class_stops_the_campaign_check_before_any_job():
    with pytest.raises(ConfigError, match=r"methods\.mine\.class: cannot import module 'no_such_pkg\.mod'"):
        load_config(ROOT / "config" / "config.yaml", overrides={"methods": {"mine": {"class": "no_such_pkg.mod:Sel"}}}, workdir=ROOT)


def test_a_datasets_method_params_are_checked_against_the_class(write_config, root):
    cfg = {"campaign": "own", "datasets": {"mit_example1": {"params": {"n": 40, "p": 30}, "method_params": {"kb": {"kk": 3}}}},
           "methods": {"kb": {"class": "sklearn.feature_selection:SelectKBest"}}}  # fmt: skip
    with pytest.raises(ConfigError, match=r"datasets\.mit_example1\.method_params\.kb\.kk: not a parameter of sklearn\.feature_selection:SelectKBest"):
        load_config(write_config(cfg), workdir=root)


def test_editing_the_users_module_changes_its_source_hash(user_package):
    before = class_source_hash("mylab.selectors:MeanGap")
    (user_package / "selectors.py").write_text((user_package / "selectors.py").read_text() + "\n# edited\n")
    assert class_source_hash("mylab.selectors:MeanGap") != before


@pytest.mark.workflow
def test_the_docs_example_runs_as_a_campaign_beside_a_registry_method(user_package, tmp_path):
    """The docs' methods beside fisher on a synthetic set: every job recorded, the two import-path methods
    named with their class and version in the records, and present in the summary table."""
    from test_workflow import TINY, snakemake

    methods = yaml.safe_load(_blocks("yaml")[0])["methods"]
    cfg = {**TINY, "campaign": "own", "methods": methods,
           "datasets": {"mit_example1": {"params": {"n": 40, "p": 30, "k0": 3, "rho": 0.2}}}}  # fmt: skip
    snakemake(tmp_path, "--cores", "2", config=cfg)
    out = tmp_path / "results" / "own"
    recs = pd.read_parquet(out / "records.parquet") if (out / "records.parquet").exists() else None
    runs = sorted((out / "runs").rglob("fold-*.json"))
    assert len(runs) == 3 * 3  # 3 methods x 3 outer folds
    by_method = {}
    for path in runs:
        rec = yaml.safe_load(path.read_text())
        by_method.setdefault(rec["method"], []).append(rec)
    assert by_method["kbest"][0]["method_class"] == "sklearn.feature_selection:SelectKBest"
    assert by_method["kbest"][0]["method_version"] == __import__("sklearn").__version__
    assert by_method["mean_gap"][0]["method_class"] == "mylab.selectors:MeanGap"
    assert all(r["n_selected"] in (2, 5) and r["status"] == "ok" for m in ("kbest", "mean_gap") for r in by_method[m])
    summary = pd.read_csv(out / "tables" / "summary.csv")
    assert {"fisher", "kbest", "mean_gap"} <= set(summary["method"])
    assert recs is None or {"kbest", "mean_gap"} <= set(recs["method"])
