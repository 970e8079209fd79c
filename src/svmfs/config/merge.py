"""Reading and merging campaign files: the strict YAML read (duplicate keys refused, labels typed) and the
deep merge by which a later ``--configfile`` overlay wins over the files before it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from ..yamlio import load_yaml_file
from .schema import ConfigError


def read_config_file(path: str | Path) -> Any:
    """A campaign/config YAML read with the strict loader (duplicate keys refused); ConfigError names the file."""
    from ..yamlio import DuplicateKeyError

    try:
        return load_yaml_file(path) or {}
    except DuplicateKeyError as e:
        raise ConfigError(str(e)) from None
    except yaml.YAMLError as e:
        raise ConfigError(f"{path}: not valid YAML: {e}") from None


def check_config_files(paths, config: dict | None = None) -> None:
    """Re-read the config files Snakemake loaded (``workflow.configfiles``) with the strict loader:
    Snakemake's own loader keeps the later of two equal keys silently, and reads label values by YAML
    1.1 (``positive: [yes]`` -> ``[True]``). With ``config``, the labels of its ``registry_entries`` are
    replaced by those of the strict read, which keeps them as typed (:mod:`.yamlio`)."""
    strict: dict = {}
    for path in paths:
        data = read_config_file(path)
        strict = deep_update(strict, data) if isinstance(data, dict) else strict
    if config is not None:
        typed = strict.get("registry_entries")
        for name, entry in (config.get("registry_entries") or {}).items():
            own = typed.get(name) if isinstance(typed, dict) else None
            if isinstance(entry, dict) and isinstance(own, dict) and isinstance(own.get("labels"), dict):
                entry["labels"] = own["labels"]


def deep_update(base: dict, new: dict) -> dict:
    out = dict(base)
    for k, v in new.items():
        out[k] = deep_update(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out
