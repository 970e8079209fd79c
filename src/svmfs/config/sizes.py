"""What is known of a campaign's data before any download: class counts and shapes from the registry's
``expect`` or a generator run, and the size of the largest outer training side."""

from __future__ import annotations

import numpy as np

from .campaign import campaign_datasets
from .schema import ConfigError


def _synthetic_dataset(config: dict, name: str, entry: dict):
    """A synthetic dataset of the campaign, drawn as the ``prepare`` rule draws it (a bad ``params`` is a ConfigError)."""
    from ..data.registry import build_dataset
    from ..protocol.seeds import data_seed

    dcfg = campaign_datasets(config)[name]
    try:
        return build_dataset(name, entry, dcfg.get("params"), data_seed(config["seed"], name))
    except (TypeError, ValueError) as e:
        raise ConfigError(f"datasets.{dcfg['group']}.params: {e}") from None


def _registry_expect(dcfg: dict, entry: dict) -> dict:
    """The registry's ``expect`` of a dataset, unless the campaign's ``params``/``options`` change the data."""
    return {} if dcfg.get("params") or dcfg.get("options") else (entry.get("expect") or {})


def expected_class_counts(config: dict, name: str, registry: dict) -> list[int] | None:
    """Class sizes of a dataset if known without downloading (registry ``expect`` or a generator run)."""
    dcfg = campaign_datasets(config)[name]
    entry = registry[dcfg["source"]]
    if entry["kind"] == "synthetic":
        ds = _synthetic_dataset(config, name, entry)
        return [int(v) for v in ds.class_counts.values()]
    counts = _registry_expect(dcfg, entry).get("class_counts")
    return [int(v) for v in counts.values()] if counts else None


def expected_shape(config: dict, name: str, registry: dict) -> tuple[int, int] | None:
    """(samples, features) of a dataset if known without downloading (registry ``expect`` or a generator run)."""
    dcfg = campaign_datasets(config)[name]
    entry = registry[dcfg["source"]]
    if entry["kind"] == "synthetic":
        n, p = _synthetic_dataset(config, name, entry).X.shape
        return int(n), int(p)
    expect = _registry_expect(dcfg, entry)
    return (int(expect["n_samples"]), int(expect["n_features"])) if "n_samples" in expect and "n_features" in expect else None


def largest_training_side(spec: dict, n_samples: int) -> int:
    """Rows of the largest outer training side ``protocol.splits.make_splits`` makes from ``n_samples``:
    k-fold test folds differ in size by at most one, so n - floor(n / k); a train/test split takes
    ``train_size`` rows (a fraction: floor(fraction * n), as scikit-learn's splitter)."""
    if spec["kind"] == "stratified_kfold":
        return n_samples - n_samples // int(spec["n_splits"])
    size = spec["train_size"]
    return int(np.floor(size * n_samples)) if isinstance(size, float) and size < 1 else int(size)
