"""The ``rdata`` format: an R workspace (``.RData``/``.rda``) or one serialized object (``.rds``).

Read by the ``rdata`` package (gzip, bzip2 and xz compression included). ``read.object`` names the
workspace's object (default: its only one). The object is one of:

- a ``data.frame`` with the labels in ``read.label_column`` (``read.drop_columns`` leaves out id
  columns): column names become feature names, explicit row names sample ids;
- a list whose elements ``read.x`` and ``read.y`` (default ``x``, ``y``) hold the data, as the
  datamicroarray collection stores its sets (``gordon.RData``: a matrix; others: a data frame):
  ``x`` a data frame or a matrix (its column names, ``dimnames(x)[[2]]``, become feature names, its
  row names sample ids; ``transpose: true`` for features in rows), ``y`` a factor or vector.

Columns of any numeric R type are read (integer, double, logical as 0/1, :mod:`.frames`); labels are
strings (factor levels, character values, integers as ``1``, doubles as ``%g``, logicals as
``TRUE``/``FALSE``). An ``NA`` in the data or the labels is refused naming the row and column.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .canonical import DatasetError
from .frames import frame_matrix, frame_xy, label_strings, matrix_values, row_names


def r_object(path: Path, opt: dict):
    """The R object of ``path``: an ``.rds`` file's one object, or the workspace's ``read.object``."""
    import rdata

    try:
        parsed = rdata.parser.parse_file(path)
        data = rdata.conversion.convert(parsed)
    except Exception as e:  # rdata raises plain exceptions for any malformed input
        raise DatasetError(f"{path}: not a readable R data file: {type(e).__name__}: {e}") from None
    if path.name.lower().endswith(".rds"):  # one serialized object
        return data
    key = opt.get("object")
    if key is None:
        if len(data) != 1:
            raise DatasetError(f"{path}: {len(data)} R objects {sorted(map(str, data))}; name one in read.object")
        key = next(iter(data))
    if key not in data:
        raise DatasetError(f"{path}: no R object {key!r} (read.object); objects: {sorted(map(str, data))}")
    return data[key]


def _matrix(path: Path, x, what: str, transpose: bool):
    """An R matrix (an xarray ``DataArray`` with its dimnames, or a plain array) -> (X, names, ids)."""
    dims = getattr(x, "dims", ())
    coords = [[str(v) for v in x.coords[d].values] if d in getattr(x, "coords", {}) else None for d in dims] or [None, None]
    values = x.values if hasattr(x, "dims") else x
    if transpose:
        values = np.ma.transpose(values) if np.ma.isMaskedArray(values) else np.asarray(values).T
        coords = coords[::-1]
    ids, names = (coords + [None, None])[:2]
    return matrix_values(path, values, what, ids, names), names, ids


def read_rdata(folder: Path, opt: dict):
    """``(X, labels, feature names, sample ids)`` of an R data file (module doc)."""
    import pandas as pd

    path = folder / opt["file"]
    obj = r_object(path, opt)
    drop = list(opt.get("drop_columns", []))
    if isinstance(obj, pd.DataFrame):
        return frame_xy(path, obj, opt.get("label_column"), drop, ("TRUE", "FALSE"))
    if not isinstance(obj, dict):
        raise DatasetError(f"{path}: the R object is a {type(obj).__name__}; expected a data.frame or a list with x and y")
    parts = {}
    for role in ("x", "y"):
        key = opt.get(role, role)
        if key not in obj:
            raise DatasetError(f"{path}: the R list has no element {key!r} (read.{role}); elements: {sorted(map(str, obj))}")
        parts[role] = obj[key]
    x, what = parts["x"], f"element {opt.get('x', 'x')!r}"
    if isinstance(x, pd.DataFrame):
        if opt.get("transpose"):
            raise DatasetError(f"{path}: read.transpose applies to a matrix; {what} is a data.frame (samples in rows)")
        ids = row_names(x.index)
        feats = x.drop(columns=drop)
        X, names = frame_matrix(path, feats, ids), [str(c) for c in feats.columns]
    else:
        X, names, ids = _matrix(path, x, what, bool(opt.get("transpose")))
    labels = label_strings(path, parts["y"], f"element {opt.get('y', 'y')!r}", ids)
    if len(labels) != X.shape[0]:
        raise DatasetError(f"{path}: {len(labels)} labels in element {opt.get('y', 'y')!r} for {X.shape[0]} samples in {what}")
    return X, labels, names, ids
