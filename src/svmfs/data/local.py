"""The ``local`` dataset kind: a file the user holds, read in place, checked by its sha256.

A local entry names its file(s) with ``path`` + ``sha256`` (one file) or ``files: [{path, sha256}]``
and has ``format``, ``read``, ``labels`` as a download entry. Relative paths are relative to the
folder of the registry file that declares the entry, or to the working directory for entries written
inline in a campaign (``registry_entries``); :func:`resolve_local` makes them absolute when the
registry is loaded. ``read.file`` / ``read.files`` default to the entry's files; every file read must
be one of them, so every byte read is checked. Nothing is copied: ``prepare`` reads the file where
it is and refuses it (writing nothing) if its sha256 differs from the pinned one.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from .canonical import Dataset, DatasetError

SHA256_RE = re.compile(r"^[0-9a-f]{64}$")
FILE_KEYS = ("file", "labels_file", "feature_names_file")
MULTI_FILE_FORMATS = ("csv", "tsv", "svmlight")


def _abs(base: Path, path: Any, where: str) -> str:
    if not isinstance(path, str) or not path.strip():
        raise ValueError(f"{where}: must be a file path, got {path!r}")
    p = Path(path).expanduser()
    return str(p if p.is_absolute() else (base / p).resolve())


def resolve_local(name: str, entry: dict, base: Path, where: str) -> dict:
    """``entry`` with absolute paths and default read files; ``where`` prefixes every error (file and key)."""
    from .formats import READERS

    key = f"{where}.{name}"
    if "path" in entry and "files" in entry:
        raise ValueError(f"{key}: give either path + sha256 (one file) or files, not both")
    specs = [{"path": entry.get("path"), "sha256": entry.get("sha256")}] if "files" not in entry else entry["files"]
    if not isinstance(specs, list) or not specs:
        raise ValueError(f"{key}.files: a non-empty list of {{path, sha256}} is needed")
    files = []
    for i, spec in enumerate(specs):
        at = f"{key}.files[{i}]" if "files" in entry else key
        if not isinstance(spec, dict):
            raise ValueError(f"{at}: expected a mapping {{path, sha256}}")
        digest = spec.get("sha256")
        if not isinstance(digest, str) or not SHA256_RE.match(digest):
            raise ValueError(f"{at}.sha256: 64 lowercase hex digits are required (sha256sum <file>), got {digest!r}")
        files.append({"path": _abs(base, spec.get("path"), f"{at}.path"), "sha256": digest})
    fmt = entry.get("format")
    if fmt not in READERS:
        raise ValueError(f"{key}.format: {fmt!r} is not one of {sorted(READERS)}")
    labels = entry.get("labels", {})
    if not isinstance(labels, dict):
        raise ValueError(f"{key}.labels: expected a mapping (positive, negative), or none for a multiclass dataset")
    if labels.get("negative") is not None and not labels.get("positive"):
        raise ValueError(f"{key}.labels.positive: the label value(s) of the positive class are required with labels.negative "
                         "(leave both out for a multiclass dataset of three or more classes)")
    read = dict(entry.get("read") or {})
    if "file" not in read and "files" not in read:
        paths = [f["path"] for f in files]
        read.update({"files": paths} if fmt in MULTI_FILE_FORMATS else {"file": paths[0]})
    if "files" in read:
        if not isinstance(read["files"], list):
            raise ValueError(f"{key}.read.files: expected a list of file paths")
        read["files"] = [_abs(base, p, f"{key}.read.files") for p in read["files"]]
    for k in FILE_KEYS:
        if k in read:
            read[k] = _abs(base, read[k], f"{key}.read.{k}")
    declared = {f["path"] for f in files}
    for k, p in [("files", p) for p in read.get("files", [])] + [(k, read[k]) for k in FILE_KEYS if k in read]:
        if p not in declared:
            raise ValueError(f"{key}.read.{k}: {p} is not one of the entry's files (each file read needs its sha256)")
    out = {k: v for k, v in entry.items() if k not in ("path", "sha256")}
    return {**out, "files": files, "read": read, "declared_in": where}


def read_local(name: str, entry: dict[str, Any], options: dict | None = None) -> Dataset:
    """Check every file's sha256, then read the entry in place (nothing is copied or written)."""
    from .download import ChecksumError, sha256_of
    from .formats import read_entry

    hashes, where = {}, entry.get("declared_in", "the registry")
    for spec in entry["files"]:
        path = Path(spec["path"])
        if not path.is_file():
            raise DatasetError(f"dataset {name!r}: local file {path} not found (declared in {where})")
        actual = sha256_of(path)
        if actual != spec["sha256"]:
            raise ChecksumError(
                f"dataset {name!r}: checksum mismatch for local file {path}: expected sha256 {spec['sha256']}, "
                f"got {actual}; the file changed since its sha256 was pinned (declared in {where}); nothing was written"
            )
        hashes[str(path)] = actual
    return read_entry(name, entry, Path("/"), entry["read"], hashes, "local", options)
