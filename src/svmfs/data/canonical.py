"""The canonical dataset: X float64 (samples x features), y, names, ids, relevant set.

y is in {-1, +1} for a two-class dataset; a multiclass one (three or more classes, no ``labels.positive``)
holds the class codes 0..K-1, ``meta["classes"]`` naming them in code order (docs/multiclass.md).

Saved as ``<name>.npz`` (plain arrays, read with ``allow_pickle=False``) plus ``<name>.json``
metadata (shape, class counts, source hashes, preprocessing applied, relevant features).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..results.io import atomic_write_bytes, atomic_write_json


class DatasetError(ValueError):
    """A dataset that cannot be used as it is; the message names the dataset and the problem."""


@dataclass
class Dataset:
    """One dataset in canonical form: two classes as -1/+1, or K >= 3 classes as the codes 0..K-1."""

    name: str
    X: np.ndarray
    y: np.ndarray
    feature_names: list[str]
    sample_ids: list[str]
    relevant: list[int] | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def class_counts(self) -> dict[str, int]:
        """Samples per class: ``{"-1": .., "+1": ..}`` for two classes, ``{class name: ..}`` in code order
        for a multiclass dataset."""
        if not is_multiclass(self.y):
            return {"-1": int(np.sum(self.y == -1)), "+1": int(np.sum(self.y == 1))}
        names = class_names(self)
        return {names[c]: int(np.sum(self.y == c)) for c in range(len(names))}


def is_multiclass(y) -> bool:
    """Whether canonical labels ``y`` are multiclass codes (three or more distinct values)."""
    return np.unique(np.asarray(y)).size > 2


def class_names(ds: Dataset) -> list[str]:
    """The names of a multiclass dataset's classes in code order (``meta["classes"]``, else the codes)."""
    k = int(np.max(ds.y)) + 1
    names = [str(c) for c in (ds.meta.get("classes") or [])]
    return names if len(names) == k else [str(c) for c in range(k)]


def describe(ds: Dataset) -> str:
    """``dataset 'name'`` plus its source files, the prefix of every :class:`DatasetError` about it."""
    files = sorted((ds.meta.get("source") or {}).get("files") or {})
    return f"dataset {ds.name!r}" + (f" (from {', '.join(files)})" if files else "")


def _at(seq, i):
    return seq[i] if i < len(seq) else i


def _check_finite(X: np.ndarray, ds: Dataset, where: str) -> None:
    """Raise :class:`DatasetError` on NaN or inf, naming the first offending row and column."""
    bad = ~np.isfinite(X)
    if bad.any():
        r, c = map(int, np.argwhere(bad)[0])
        kind = "NaN" if np.isnan(X[r, c]) else "inf"
        raise DatasetError(
            f"{where}: {int(bad.sum())} non-finite values ({kind} first at row {r}, column {c} (0-based; "
            f"sample {_at(ds.sample_ids, r)!r}, feature {_at(ds.feature_names, c)!r})); "
            "impute or drop them in the registry entry's preprocessing"
        )


def check_dataset(ds: Dataset, *, on_constant: str = "keep", on_duplicate: str = "keep") -> Dataset:
    """Validate and normalise a dataset; raise :class:`DatasetError` naming the problem.

    Rejected: X not 2-D, length mismatch, NaN or inf (with the first offending row and column),
    labels not -1/+1 (two classes) nor the codes 0..K-1 (K >= 3 classes), duplicated feature names, fewer than two samples in a class,
    every column constant. Messages start with :func:`describe` (the dataset and its source files).
    Constant and duplicated columns are logged in ``meta["warnings"]`` and kept (``"keep"``), or
    dropped (``"drop"``, recorded in ``meta["preprocessing"]``).
    """
    where = describe(ds)
    X = np.asarray(ds.X, dtype=np.float64)
    if X.ndim != 2 or X.shape[0] == 0 or X.shape[1] == 0:
        raise DatasetError(f"{where}: X must be a non-empty 2-D matrix, got shape {X.shape}")
    y = np.asarray(ds.y)
    if y.shape != (X.shape[0],):
        raise DatasetError(f"{where}: {X.shape[0]} rows in X but labels of shape {y.shape}")
    _check_finite(X, ds, where)
    _check_magnitude(X, ds, where)
    labels = np.unique(y)
    if labels.size < 2:
        raise DatasetError(
            f"{where}: needs exactly two classes, found {labels.size}: {labels[:10].tolist()} (or three or more, multiclass)"
        )
    if labels.size == 2 and set(labels.tolist()) != {-1, 1}:
        raise DatasetError(f"{where}: labels must be -1/+1 after mapping, got {labels.tolist()}")
    if labels.size > 2 and labels.tolist() != list(range(labels.size)):
        raise DatasetError(
            f"{where}: {labels.size} classes must be the codes 0..{labels.size - 1} after mapping, got {labels[:10].tolist()}"
        )
    y = y.astype(np.int64)
    if len(ds.feature_names) != X.shape[1]:
        raise DatasetError(
            f"{where}: {len(ds.feature_names)} feature names for {X.shape[1]} columns"
        )
    seen: dict[str, int] = {}
    for j, n in enumerate(ds.feature_names):
        if n in seen:
            raise DatasetError(
                f"{where}: duplicated feature name {n!r} (columns {seen[n]} and {j})"
            )
        seen[n] = j
    if len(ds.sample_ids) != X.shape[0]:
        raise DatasetError(f"{where}: {len(ds.sample_ids)} sample ids for {X.shape[0]} rows")
    small = int(min(np.sum(y == c) for c in labels))
    if small < 2:
        raise DatasetError(f"{where}: a class has only {small} sample(s)")
    meta = dict(ds.meta)
    warnings = list(meta.get("warnings", []))
    preprocessing = list(meta.get("preprocessing", []))
    keep = np.ones(X.shape[1], dtype=bool)
    constant = np.flatnonzero(np.ptp(X, axis=0) == 0)
    if constant.size == X.shape[1]:
        raise DatasetError(f"{where}: every one of the {X.shape[1]} columns is constant; nothing to select from")
    if constant.size:
        warnings.append(f"{constant.size} constant column(s): {constant[:10].tolist()}")
        if on_constant == "drop":
            keep[constant] = False
    _, first = np.unique(X.T, axis=0, return_index=True)
    dup = np.setdiff1d(np.arange(X.shape[1]), first)
    if dup.size:
        warnings.append(f"{dup.size} duplicated column(s): {dup[:10].tolist()}")
        if on_duplicate == "drop":
            keep[dup] = False
    relevant = ds.relevant
    if not keep.all():
        dropped = np.flatnonzero(~keep)
        preprocessing.append(f"dropped {dropped.size} constant/duplicated column(s): {dropped[:20].tolist()}")
        new_index = -np.ones(X.shape[1], dtype=int)
        new_index[keep] = np.arange(keep.sum())
        if relevant is not None:
            relevant = [int(new_index[j]) for j in relevant if keep[j]]
        X = X[:, keep]
        names = [n for n, k in zip(ds.feature_names, keep) if k]
    else:
        names = list(ds.feature_names)
    meta["warnings"] = warnings
    meta["preprocessing"] = preprocessing
    return Dataset(ds.name, X, y, names, [str(s) for s in ds.sample_ids], relevant, meta)


def _check_magnitude(X: np.ndarray, ds: Dataset, where: str) -> None:
    """Refuse a column whose sum of squares or range overflows float64 (e.g. a value of 1e308): every
    per-fold scaling (z-score's variance, min-max's range) and every kernel would turn it into inf."""
    with np.errstate(over="ignore", invalid="ignore"):
        overflow = ~np.isfinite(np.sum(X * X, axis=0)) | ~np.isfinite(np.max(X, axis=0) - np.min(X, axis=0))
    if overflow.any():
        c = int(np.flatnonzero(overflow)[0])
        r = int(np.argmax(np.abs(X[:, c])))
        raise DatasetError(
            f"{where}: feature {_at(ds.feature_names, c)!r} (column {c}, 0-based) holds {X[r, c]:.6g} "
            f"(row {r}, sample {_at(ds.sample_ids, r)!r}): its squares or range overflow float64, so scaling it "
            f"would give inf ({int(overflow.sum())} such column(s)); rescale or drop it in the registry entry's preprocessing"
        )


#: The arrays of a canonical ``.npz`` file.
ARRAYS = ("X", "y", "feature_names", "sample_ids", "relevant", "has_relevant")


def save_dataset(ds: Dataset, npz_path: str | Path, json_path: str | Path) -> None:
    """Write ``.npz`` and ``.json`` atomically (the JSON last, so it marks completeness)."""
    import io

    buf = io.BytesIO()
    np.savez_compressed(
        buf,
        X=ds.X,
        y=ds.y,
        feature_names=np.asarray(ds.feature_names, dtype=str),
        sample_ids=np.asarray(ds.sample_ids, dtype=str),
        relevant=np.asarray(ds.relevant if ds.relevant is not None else [], dtype=np.int64),
        has_relevant=np.asarray(ds.relevant is not None),
    )
    atomic_write_bytes(npz_path, buf.getvalue())
    meta = {
        "name": ds.name,
        "n_samples": int(ds.X.shape[0]),
        "n_features": int(ds.X.shape[1]),
        "class_counts": ds.class_counts,
        "relevant": ds.relevant,
        **ds.meta,
    }
    atomic_write_json(json_path, meta)


def load_dataset(npz_path: str | Path, json_path: str | Path | None = None) -> Dataset:
    """Read a canonical dataset; never unpickles (object arrays are refused, naming the file)."""
    npz_path = Path(npz_path)
    with np.load(npz_path, allow_pickle=False) as f:
        missing = sorted(set(ARRAYS) - set(f.files))
        if missing:
            raise DatasetError(f"{npz_path}: not a canonical dataset file, missing arrays {missing}")
        try:
            relevant = f["relevant"].tolist() if bool(f["has_relevant"]) else None
            ds = Dataset(
                name=npz_path.stem,
                X=f["X"],
                y=f["y"],
                feature_names=f["feature_names"].tolist(),
                sample_ids=f["sample_ids"].tolist(),
                relevant=relevant,
            )
        except ValueError as e:  # numpy: "Object arrays cannot be loaded when allow_pickle=False"
            raise DatasetError(f"{npz_path}: {e}") from None
    if json_path is not None:
        ds.meta = json.loads(Path(json_path).read_text())
        ds.name = ds.meta.get("name", ds.name)
    return ds
