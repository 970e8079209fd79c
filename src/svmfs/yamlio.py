"""Every YAML file the project reads goes through :class:`StrictLoader`: YAML's safe loader that refuses
a mapping with the same key twice (plain YAML keeps the later value silently), naming the file, the key
and both lines. Merge keys (``<<``) may still be overridden, as YAML intends.

Label values are strings: under a ``labels:`` mapping (registry entries, campaign ``registry_entries``,
registry files), the scalars of ``positive`` and ``negative`` are read as the text the user typed.
YAML 1.1 would turn ``yes``/``no``/``on``/``off``/``true`` into booleans and ``1.0`` into a float, and
``str(True)`` cannot tell ``yes`` from ``on`` afterwards, so the loader tags these scalars as strings
before they are constructed (``[yes]`` is ``["yes"]``, ``[+1]`` is ``["+1"]``, ``[1.0]`` is ``["1.0"]``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml


class DuplicateKeyError(yaml.constructor.ConstructorError):
    """A mapping with the same key twice."""


#: Keys of a ``labels:`` mapping whose scalars are label values, kept as typed.
LABEL_KEYS = ("positive", "negative")
STR_TAG = "tag:yaml.org,2002:str"


def _as_typed(node) -> None:
    """Tag the plain scalars of ``node`` (a scalar or a sequence of scalars) as strings: their source text."""
    items = node.value if isinstance(node, yaml.SequenceNode) else [node]
    for item in items:
        if isinstance(item, yaml.ScalarNode) and item.tag != STR_TAG:
            item.tag = STR_TAG


def _label_values_as_strings(node) -> None:
    """In ``node`` (a mapping), ``labels: {positive: ..., negative: ...}`` scalars become strings as typed."""
    for key_node, value_node in node.value:
        if isinstance(key_node, yaml.ScalarNode) and key_node.value == "labels" and isinstance(value_node, yaml.MappingNode):
            for k, v in value_node.value:
                if isinstance(k, yaml.ScalarNode) and k.value in LABEL_KEYS:
                    _as_typed(v)


class StrictLoader(yaml.SafeLoader):
    """``yaml.SafeLoader`` refusing duplicate keys in any mapping; label values read as typed (module doc)."""

    def construct_mapping(self, node, deep=False):
        if isinstance(node, yaml.MappingNode):
            _label_values_as_strings(node)
            seen: dict[Any, int] = {}
            for key_node, _ in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    continue
                key = self.construct_object(key_node, deep=True)
                try:
                    first = seen.get(key)
                except TypeError:  # an unhashable key: the base class reports it
                    continue
                line = key_node.start_mark.line + 1
                if first is not None:
                    raise DuplicateKeyError(
                        None, None,
                        f"{key_node.start_mark.name}: duplicate key {key!r} at line {line} (first at line {first}); "
                        "YAML would keep only the later value",
                        key_node.start_mark,
                    )
                seen[key] = line
        return super().construct_mapping(node, deep)


def load_yaml_text(text: str, source: str | Path = "<string>") -> Any:
    """Parse ``text`` strictly; error marks and messages name ``source``."""
    loader = StrictLoader(text)
    loader.name = str(source)
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()


def load_yaml_file(path: str | Path) -> Any:
    """Read and parse a YAML file strictly (see :class:`StrictLoader`)."""
    return load_yaml_text(Path(path).read_text(), path)
