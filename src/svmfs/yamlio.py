"""Every YAML file the project reads goes through :class:`StrictLoader`: YAML's safe loader that refuses
a mapping with the same key twice (plain YAML keeps the later value silently), naming the file, the key
and both lines. Merge keys (``<<``) may still be overridden, as YAML intends."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml


class DuplicateKeyError(yaml.constructor.ConstructorError):
    """A mapping with the same key twice."""


class StrictLoader(yaml.SafeLoader):
    """``yaml.SafeLoader`` refusing duplicate keys in any mapping."""

    def construct_mapping(self, node, deep=False):
        if isinstance(node, yaml.MappingNode):
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
