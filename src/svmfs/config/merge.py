"""Reading and merging campaign files: the strict YAML read (duplicate keys refused, labels typed) and the
deep merge by which a later ``--configfile`` overlay wins over the files before it.

The merge is Snakemake's own (``snakemake.utils.update_config``): mappings are merged key by key, any other
value (a list, a number, a string) replaces the earlier one. One rule is added, which Snakemake's merge
carries as it is: a key whose value is ``null`` (``~``) is **deleted** from the config merged so far. An
overlay can thus leave out a key its base sets (``methods: {fsv: ~}`` drops the method), and a later file
can set it again. Deleting a key that no earlier file sets is an error naming the file and the key. A
``null`` inside a list is a value, not a deletion (``iterations: [10, null]``).
"""

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


def merge_config_files(paths) -> dict:
    """The config Snakemake builds from ``--configfile A B ... --replace-workflow-config``, with the
    deletion rule: files merged in order (the later wins), a ``null`` value deleting its key.

    Parameters
    ----------
    paths : iterable of str or Path
        The config files, base first.

    Returns
    -------
    dict
        The merged config (no ``null`` mapping value left).

    Raises
    ------
    ConfigError
        A file is not valid YAML, its top level is not a mapping, or it deletes a key no earlier file sets
        (the message names the file and the dotted key).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "base.yaml").write_text("methods: {fisher: {}, fsv: {params: {C: 1}}}\\nseed: 1\\n")
    >>> _ = (d / "overlay.yaml").write_text("methods: {fsv: ~}\\nseed: 2\\n")
    >>> merge_config_files([d / "base.yaml", d / "overlay.yaml"])
    {'methods': {'fisher': {}}, 'seed': 2}
    >>> _ = (d / "bad.yaml").write_text("methods: {svm_rfe: null}\\n")
    >>> merge_config_files([d / "base.yaml", d / "bad.yaml"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    svmfs.config.schema.ConfigError: ...bad.yaml: `methods.svm_rfe: null` deletes a key no earlier config file sets
    """
    config: dict = {}
    for path in paths:
        data = read_config_file(path)
        if not isinstance(data, dict):
            raise ConfigError(f"{path}: the top level must be a mapping")
        try:
            config = deep_update(config, data)
        except KeyError as e:
            raise ConfigError(f"{path}: `{e.args[0]}: null` deletes a key no earlier config file sets") from None
    return config


def campaign_chain(path: str | Path) -> list[Path]:
    """The ordered ``--configfile`` list that runs the campaign file ``path`` of ``config/campaigns/``, base
    first: ``<paper>/<base>/<what>.yaml`` overlays ``<paper>/<base>.yaml`` (recursively), ``<paper>/reduced.yaml``
    overlays ``<paper>/nested.yaml``; any other file directly under a paper's folder is a whole campaign.

    Examples
    --------
    >>> [str(p) for p in campaign_chain("config/campaigns/maldonado2011/paper/wdbc/train_third.yaml")]
    ['config/campaigns/maldonado2011/paper.yaml', 'config/campaigns/maldonado2011/paper/wdbc.yaml', \
'config/campaigns/maldonado2011/paper/wdbc/train_third.yaml']
    >>> [p.name for p in campaign_chain("config/campaigns/rinaldi2010/reduced.yaml")]
    ['nested.yaml', 'reduced.yaml']
    """
    path = Path(path)
    parts = path.parts
    depth = len(parts) - 1 - parts.index("campaigns") if "campaigns" in parts else 1
    if depth <= 1:
        return [path]
    if depth == 2:
        return [path.parent / "nested.yaml", path] if path.name == "reduced.yaml" else [path]
    return [*campaign_chain(path.parent.with_suffix(".yaml")), path]


def check_config_files(paths, config: dict | None = None) -> None:
    """Re-read the config files Snakemake loaded (``workflow.configfiles``) with the strict loader:
    Snakemake's own loader keeps the later of two equal keys silently, and reads label values by YAML
    1.1 (``positive: [yes]`` -> ``[True]``). With ``config``, the labels of its ``registry_entries`` are
    replaced by those of the strict read, which keeps them as typed (:mod:`.yamlio`)."""
    strict = merge_config_files(paths)
    if config is not None:
        typed = strict.get("registry_entries")
        for name, entry in (config.get("registry_entries") or {}).items():
            own = typed.get(name) if isinstance(typed, dict) else None
            if isinstance(entry, dict) and isinstance(own, dict) and isinstance(own.get("labels"), dict):
                entry["labels"] = own["labels"]


def loaded_config_files(workflow) -> list[Path]:
    """The config files a Snakemake ``workflow`` merged, in merge order: the ``--configfile`` files alone
    under ``--replace-workflow-config``, else the Snakefile's ``configfile:`` first, then them."""
    cli = [Path(p) for p in (workflow.overwrite_configfiles or [])]
    own = [Path(p) for p in workflow.configfiles if Path(p) not in cli]
    return cli if cli and workflow.config_settings.replace_workflow_config else [*own, *cli]


def apply_deletions(config: dict, paths) -> dict:
    """Apply the deletion rule to the ``config`` Snakemake merged from ``paths``, in place, before the
    schema sees it: Snakemake's merge keeps a ``null`` value as ``None``; each such key is removed. The files
    are re-read first so that a deletion of a key no earlier file sets is a ConfigError naming the file.

    Examples
    --------
    >>> apply_deletions({"methods": {"fisher": {}, "fsv": None}, "seed": 1}, [])
    {'methods': {'fisher': {}}, 'seed': 1}
    """
    merge_config_files(paths)
    for key in [k for k, v in config.items() if v is None]:
        del config[key]
    for value in config.values():
        if isinstance(value, dict):
            apply_deletions(value, [])
    return config


def deep_update(base: dict, new: dict, _at: tuple = ()) -> dict:
    """``base`` updated by ``new`` as Snakemake merges config files (mappings key by key, anything else
    replaced), a ``None`` value deleting its key; KeyError(dotted key) when ``base`` has no such key.

    Examples
    --------
    >>> deep_update({"a": {"b": 1, "c": 2}, "d": [1]}, {"a": {"c": None, "e": 3}, "d": [2]})
    {'a': {'b': 1, 'e': 3}, 'd': [2]}
    """
    out = dict(base)
    for k, v in new.items():
        if v is None:
            if k not in out:
                raise KeyError(".".join(map(str, (*_at, k))))
            del out[k]
        elif isinstance(v, dict):
            out[k] = deep_update(out[k] if isinstance(out.get(k), dict) else {}, v, (*_at, k))
        else:
            out[k] = v
    return out
