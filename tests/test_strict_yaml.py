"""A YAML file with the same key twice is refused wherever the project reads one (campaign files,
through load_config and through Snakemake; the dataset registry; the download lock), naming the file,
the key and both lines. The repository's own YAML files have no duplicate key."""

import os
import subprocess
import sys

import pytest

from svmfs.config import ConfigError, load_config
from svmfs.data.download import read_lock
from svmfs.data.registry import load_registry
from svmfs.yamlio import DuplicateKeyError, load_yaml_file, load_yaml_text

TOP = """\
campaign: dup
datasets:
  sparse_polynomial: {params: {n: 60}}
splits: {kind: stratified_kfold, n_splits: 3}
methods:
  fisher:
    grid: {n_features_to_select: [1, 3]}
splits: {kind: stratified_kfold, n_splits: 5}
"""
NESTED = """\
campaign: dup
datasets:
  sparse_polynomial: {params: {n: 60}}
splits: {kind: stratified_kfold, n_splits: 3}
methods:
  fisher:
    grid: {n_features_to_select: [1, 3]}
    enabled: true
    grid: {n_features_to_select: [2]}
"""
CASES = [(TOP, "splits", 8, 4), (NESTED, "grid", 9, 7)]


def _names(message: str, path, key: str, line: int, first: int) -> bool:
    return f"{path}: duplicate key {key!r} at line {line} (first at line {first})" in message


@pytest.mark.parametrize("text, key, line, first", CASES, ids=["top-level", "nested"])
def test_load_config_refuses_a_duplicate_key(tmp_path, root, text, key, line, first):
    path = tmp_path / "campaign.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError) as e:
        load_config(path, workdir=root)
    assert _names(str(e.value), path, key, line, first), str(e.value)


@pytest.mark.parametrize("text, key, line, first", CASES, ids=["top-level", "nested"])
def test_snakemake_dry_run_refuses_a_duplicate_key(tmp_path, root, text, key, line, first):
    path = tmp_path / "campaign.yaml"
    path.write_text(text)
    cmd = [sys.executable, "-m", "snakemake", "-s", str(root / "Snakefile"), "-d", str(tmp_path / "wd"), "-n",
           "--configfile", str(path), "--replace-workflow-config"]  # fmt: skip
    proc = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "SVMFS_MIRROR": ""}, timeout=600)
    assert proc.returncode != 0
    assert _names(proc.stdout + proc.stderr, path, key, line, first), proc.stderr[-3000:]
    assert not (tmp_path / "wd" / "results").exists()


def test_registry_and_lock_refuse_a_duplicate_key(tmp_path):
    registry = tmp_path / "datasets.yaml"
    registry.write_text("datasets:\n  a: {kind: embedded, loader: x}\n  a: {kind: synthetic, generator: y}\n")
    with pytest.raises(ValueError, match=rf"{registry}: duplicate key 'a' at line 3 \(first at line 2\)"):
        load_registry(registry)
    lock = tmp_path / "lock.yaml"
    lock.write_text("pima:\n  pima/p.csv: 'aa'\n  pima/p.csv: 'bb'\n")
    with pytest.raises(DuplicateKeyError, match=rf"{lock}: duplicate key 'pima/p.csv' at line 3 \(first at line 2\)"):
        read_lock(lock)


def test_merge_keys_may_still_be_overridden():
    assert load_yaml_text("base: &b {C: 1, gamma: 2}\nm: {<<: *b, C: 10}\n")["m"] == {"C": 10, "gamma": 2}


def test_the_repositorys_yaml_files_have_no_duplicate_key(root):
    files = [*root.glob("config/**/*.yaml"), *root.glob("workflow/**/*.yaml"), *root.glob("envs/*.yaml"),
             root / "src" / "svmfs" / "analysis" / "published.yaml"]  # fmt: skip
    assert len(files) > 10
    for path in files:
        load_yaml_file(path)
