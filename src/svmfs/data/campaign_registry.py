"""A campaign's own datasets: extra registry files and inline entries, merged after the built-in registry.

A campaign file may declare datasets without editing ``config/datasets.yaml``:

- ``registry: [my_datasets.yaml, ...]``: registry files of the same form (``datasets: {name: entry}``),
  paths relative to the working directory (Snakemake's ``--directory``, by default where it runs);
- ``registry_entries: {name: entry}``: entries written in the campaign file itself.

Entries are checked as the built-in registry's are (a known ``kind``; ``local`` entries by
:func:`.local.resolve_local`), each error naming the file and the key. A name already in the
built-in registry, or declared twice, is an error: entries add datasets, they never replace one
silently (a campaign changes a built-in dataset through ``datasets.<name>.params`` / ``options``).
"""

from __future__ import annotations

from pathlib import Path

from .local import resolve_local
from .registry import KINDS, load_registry


def _check(name: str, entry, where: str, base: Path) -> dict:
    if not isinstance(entry, dict) or entry.get("kind") not in KINDS:
        raise ValueError(f"{where}.{name}.kind must be one of {KINDS}")
    return resolve_local(name, entry, base, where) if entry["kind"] == "local" else entry


def merge_registries(builtin: dict, builtin_path: str | Path, files=(), inline=None, cwd: str | Path | None = None) -> dict:
    """The built-in registry plus the entries of ``files`` and ``inline``; a ValueError names file and key."""
    cwd = Path(cwd) if cwd is not None else Path.cwd()
    merged = {name: _check(name, e, f"{builtin_path}: datasets", Path(builtin_path).parent) for name, e in builtin.items()}
    origin = dict.fromkeys(builtin, str(builtin_path))
    declared = []
    for i, f in enumerate(files or []):
        path = Path(f).expanduser()
        path = path if path.is_absolute() else cwd / path
        if not path.is_file():
            raise ValueError(f"registry[{i}]: no registry file {path}")
        declared += [(n, e, f"{path}: datasets", path.parent) for n, e in load_registry(path).items()]
    declared += [(n, e, "registry_entries", cwd) for n, e in (inline or {}).items()]
    for name, entry, where, base in declared:
        if name in origin:
            raise ValueError(
                f"{where}.{name}: the name is already declared in {origin[name]}; choose another name "
                "(a campaign changes a built-in dataset with datasets.<name>.params / options)"
            )
        merged[name] = _check(name, entry, where, base)
        origin[name] = where.split(": ")[0] if ": " in where else "registry_entries"
    return merged
