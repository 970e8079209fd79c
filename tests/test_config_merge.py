"""The overlay merge: a later file wins, mappings merge key by key, and a ``null`` value deletes its key;
Snakemake's own merge followed by :func:`apply_deletions` gives the same config as svmfs's merge."""

import copy
import itertools
from pathlib import Path

import pytest
from snakemake.utils import update_config

from svmfs.config import ConfigError, apply_deletions, load_config, merge_config_files

ROOT = Path(__file__).resolve().parents[1]
BASE = """\
campaign: base
seed: 1
methods:
  fisher: {grid: {n_features_to_select: [5, 10]}}
  fsv: {params: {C: 1.0, alpha: 5.0}, grid: {C: [0.1, 1.0]}}
splits: {kind: stratified_kfold, n_splits: 5}
"""
DROP = """\
campaign: dropped
methods:
  fsv: {params: {alpha: ~}, grid: null}
"""
READD = """\
methods:
  fsv: {grid: {C: [10.0]}, params: {alpha: 2.0}}
  fisher: ~
"""


@pytest.fixture
def files(tmp_path):
    out = {}
    for name, text in (("base", BASE), ("drop", DROP), ("readd", READD)):
        out[name] = tmp_path / f"{name}.yaml"
        out[name].write_text(text)
    return out


def test_null_deletes_and_a_later_file_sets_again(files):
    dropped = merge_config_files([files["base"], files["drop"]])
    assert dropped["methods"]["fsv"] == {"params": {"C": 1.0}}
    assert dropped["campaign"] == "dropped" and dropped["seed"] == 1
    again = merge_config_files([files["base"], files["drop"], files["readd"]])
    assert again["methods"] == {"fsv": {"params": {"C": 1.0, "alpha": 2.0}, "grid": {"C": [10.0]}}}


def test_deleting_an_unknown_key_names_file_and_key(files, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("methods: {fsv: {params: {beta: ~}}}\n")
    with pytest.raises(ConfigError, match=r"bad\.yaml: `methods\.fsv\.params\.beta: null` deletes a key"):
        merge_config_files([files["base"], bad])
    with pytest.raises(ConfigError, match=r"drop\.yaml: `methods\.fsv\.params\.alpha: null`"):
        merge_config_files([files["drop"]])  # alone: nothing to delete


def test_null_in_a_list_is_a_value(tmp_path):
    f = tmp_path / "a.yaml"
    f.write_text("methods: {kp_svm: {grid: {iterations: [10, null]}}}\n")
    assert merge_config_files([f])["methods"]["kp_svm"]["grid"]["iterations"] == [10, None]


@pytest.mark.parametrize("order", list(itertools.permutations(["drop", "readd"])))
def test_snakemake_merge_then_deletions_agrees(files, order):
    """Snakemake's update_config keeps a null as None; pruning those gives svmfs's merge, for every
    order of the overlays after the base (a later file re-setting a key the earlier one deleted)."""
    import yaml

    paths = [files["base"], *(files[o] for o in order)]
    try:
        ours = merge_config_files(paths)
    except ConfigError:
        ours = None
    snake: dict = {}
    for p in paths:
        update_config(snake, yaml.safe_load(p.read_text()))
    if ours is None:
        with pytest.raises(ConfigError):
            apply_deletions(copy.deepcopy(snake), paths)
    else:
        assert apply_deletions(snake, paths) == ours


def test_load_config_applies_the_rule_to_overrides(tmp_path):
    f = tmp_path / "c.yaml"
    f.write_text("campaign: t\ndatasets: {sonar: {}}\nsplits: {kind: stratified_kfold, n_splits: 3}\n"
                 "methods: {fisher: {grid: {n_features_to_select: [2]}}, relieff: {}}\n")  # fmt: skip
    config = load_config(f, overrides={"methods": {"relieff": None}}, workdir=ROOT)
    assert set(config["methods"]) == {"fisher"}
