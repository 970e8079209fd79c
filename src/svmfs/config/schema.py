"""The campaign config's JSON schema (``workflow/schemas/config.schema.yaml``): validation that fills the
schema's defaults in, and the error every config check raises."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from ..yamlio import load_yaml_file


NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


SCHEMA = Path(__file__).resolve().parents[3] / "workflow" / "schemas" / "config.schema.yaml"


class ConfigError(ValueError):
    """An invalid campaign configuration; the message names the file (if any) and the key."""


def _validator_with_defaults(schema):
    from jsonschema import Draft202012Validator, validators

    def set_defaults(validator, properties, instance, schema):
        if isinstance(instance, dict):
            for prop, sub in properties.items():
                if "default" in sub and prop not in instance:
                    instance[prop] = _copy(sub["default"])
        yield from Draft202012Validator.VALIDATORS["properties"](validator, properties, instance, schema)

    cls = validators.extend(Draft202012Validator, {"properties": set_defaults})
    return cls(schema)


def _copy(v):
    return yaml.safe_load(yaml.safe_dump(v))


def validate_schema(config: dict, schema_path: str | Path = SCHEMA, source: str = "config") -> dict:
    """Fill defaults and validate against the JSON schema; raise :class:`ConfigError` naming the key."""
    schema = load_yaml_file(schema_path)
    validator = _validator_with_defaults(schema)
    errors = sorted(validator.iter_errors(config), key=lambda e: list(map(str, e.absolute_path)))
    if errors:
        lines = [f"{'.'.join(map(str, e.absolute_path)) or '<top level>'}: {e.message}" for e in errors]
        raise ConfigError(f"{source}: invalid configuration:\n  " + "\n  ".join(lines))
    return config
