"""The dataset registry (``config/datasets.yaml``): name -> how to obtain the data.

Kinds:
- ``embedded``: a loader of :data:`svmfs.data.embedded.LOADERS` (no network);
- ``synthetic``: a generator of :data:`svmfs.data.synthetic.GENERATORS` with default ``params``;
- ``download``: files fetched by URL (or a mirror), checked by sha256, read by a format reader;
- ``local``: a file on disk with its sha256, read in place (:mod:`.local`).

A campaign may add entries of its own (:mod:`.campaign_registry`).

A campaign names registry entries, may override ``params`` and ``options``, and gets a
:class:`~svmfs.data.canonical.Dataset` from :func:`build_dataset`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from ..yamlio import load_yaml_file
from .canonical import Dataset, DatasetError

KINDS = ("embedded", "synthetic", "download", "local")


def load_registry(path: str | Path) -> dict[str, dict[str, Any]]:
    """Read the registry YAML safely; each entry must name a known ``kind``."""
    path = Path(path)
    try:
        reg = load_yaml_file(path)
    except yaml.YAMLError as e:  # a duplicate key names the file, the key and both lines
        raise ValueError(str(e)) from None
    if not isinstance(reg, dict) or not isinstance(reg.get("datasets"), dict):
        raise ValueError(f"{path}: expected a mapping with key 'datasets'")
    out = reg["datasets"]
    for name, entry in out.items():
        if not isinstance(entry, dict) or entry.get("kind") not in KINDS:
            raise ValueError(f"{path}: datasets.{name}.kind must be one of {KINDS}")
    return out


def build_dataset(
    name: str,
    entry: dict[str, Any],
    params: dict[str, Any] | None = None,
    seed: int = 0,
    raw_dir: str | Path | None = None,
    options: dict[str, Any] | None = None,
) -> Dataset:
    """Materialise registry ``entry`` as dataset ``name`` (campaign ``params`` override the entry's)."""
    kind = entry["kind"]
    merged = {**entry.get("params", {}), **(params or {})}
    opts = {**entry.get("options", {}), **(options or {})}
    if kind == "embedded":
        from .embedded import LOADERS

        ds = LOADERS[entry["loader"]](name, **merged)
    elif kind == "synthetic":
        from .synthetic import generate

        ds = generate(name, entry["generator"], merged, seed)
    elif kind == "download":
        from .formats import read_download

        if raw_dir is None:
            raise DatasetError(f"dataset {name!r}: download kind needs the folder of the downloaded files")
        ds = read_download(name, entry, Path(raw_dir), options=opts)
    elif kind == "local":
        from .local import read_local

        ds = read_local(name, entry, options=opts)
    else:  # pragma: no cover - load_registry checks
        raise DatasetError(f"dataset {name!r}: unknown kind {kind!r}")
    ds.meta.setdefault("citation", entry.get("citation", ""))
    return ds


def check_expect(ds: Dataset, expect: dict[str, Any]) -> None:
    """Raise :class:`DatasetError` if ``ds`` differs from the registry's ``expect`` (shape, class counts)."""
    from .canonical import describe

    got = {"n_samples": int(ds.X.shape[0]), "n_features": int(ds.X.shape[1]), "class_counts": ds.class_counts}
    want = {k: ({str(c): int(n) for c, n in v.items()} if k == "class_counts" else int(v)) for k, v in expect.items() if k in got}
    wrong = [f"expect.{k} = {v}, got {got[k]}" for k, v in want.items() if v != got[k]]
    if wrong:
        raise DatasetError(f"{describe(ds)}: the registry entry's expect does not hold: {'; '.join(wrong)}")


def prepare_dataset(
    name: str,
    entry: dict[str, Any],
    npz_path: str | Path,
    json_path: str | Path,
    *,
    params: dict[str, Any] | None = None,
    seed: int = 0,
    raw_dir: str | Path | None = None,
    options: dict[str, Any] | None = None,
    checks: dict[str, str] | None = None,
    log=None,
) -> Dataset:
    """Build, check and save dataset ``name``: the whole of rule ``prepare``.

    Nothing is written unless every check passes (:func:`~.canonical.check_dataset`), and the two
    files are written atomically, so a rejected dataset leaves no output behind.
    """
    from .canonical import check_dataset, save_dataset

    ds = build_dataset(name, entry, params, seed, raw_dir=raw_dir, options=options)
    if not params and not options:  # the campaign changes nothing: the registry's expect must hold
        check_expect(ds, entry.get("expect") or {})
    ds = check_dataset(ds, **(checks or {}))
    if log is not None:
        for w in ds.meta.get("warnings", []):
            log.warning("dataset %s: %s", name, w)
        for step in ds.meta.get("preprocessing", []):
            log.info("dataset %s: %s", name, step)
        log.info("dataset %s: %d x %d, classes %s", name, *ds.X.shape, ds.class_counts)
    save_dataset(ds, npz_path, json_path)
    return ds
