"""Readers for binary matrix files: NumPy ``.npz``, Parquet, R ``.RData`` / ``.rds``.

Same contract as the text readers of :mod:`.formats`: ``reader(folder, read_options)`` returns
``(X, labels as strings, feature names or None, sample ids or None)``; errors name the file and the
key, column or object at fault.

- ``npz``: arrays ``X`` and ``y`` (``read.X``, ``read.y`` rename them; ``read.feature_names`` names an
  optional array of names); read with ``allow_pickle=False``.
- ``parquet``: a table (pandas / pyarrow), labels in ``read.label_column``.
- ``rdata``: an R workspace (``.RData``/``.rda``) or a single serialized object (``.rds``), read by the
  ``rdata`` package (gzip, bzip2 and xz compression included). ``read.object`` names the workspace's
  object (default: its only one); the object is a data.frame with ``read.label_column``, or a list
  whose elements ``read.x`` (a matrix; column names become feature names) and ``read.y`` (a factor
  or vector) hold the data, as ``gordon`` in datamicroarray's ``gordon.RData``.
``transpose: true`` (npz, an R matrix) for a features-in-rows matrix.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .canonical import DatasetError


def frame_xy(path: Path, df, label_column) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """A data frame -> (X, labels, feature names); a non-numeric cell names its row and column."""
    import pandas as pd

    if label_column not in df.columns:
        raise DatasetError(f"{path}: no label column {label_column!r} (read.label_column); columns: {list(df.columns)[:10]}")
    labels = df[label_column].astype(str).to_numpy()
    feats = df.drop(columns=[label_column])
    num = feats.apply(pd.to_numeric, errors="coerce")
    bad = (num.isna() & feats.notna()).to_numpy()
    if bad.any():
        r, c = np.argwhere(bad)[0]
        raise DatasetError(
            f"{path}: non-numeric value {str(feats.iat[r, c])!r} at row {r + 1}, column {str(feats.columns[c])!r}"
        )
    return num.to_numpy(np.float64), labels, [str(c) for c in feats.columns]


def read_npz(folder: Path, opt: dict):
    path = folder / opt["file"]
    keys = {"X": opt.get("X", "X"), "y": opt.get("y", "y")}
    if opt.get("feature_names"):
        keys["feature_names"] = opt["feature_names"]
    try:
        with np.load(path, allow_pickle=False) as f:
            missing = [f"{k!r} (read.{role})" for role, k in keys.items() if k not in f.files]
            if missing:
                raise DatasetError(f"{path}: no array {', '.join(missing)}; arrays: {sorted(f.files)}")
            arrays = {role: f[k] for role, k in keys.items()}
    except (ValueError, OSError) as e:  # not a zip file, or object arrays (pickle) refused
        raise DatasetError(f"{path}: not a readable .npz file: {e}") from None
    X = np.asarray(arrays["X"])
    if X.ndim != 2 or not (np.issubdtype(X.dtype, np.number) or X.dtype == bool):
        raise DatasetError(f"{path}: array {keys['X']!r} must be a 2-D numeric matrix, got {X.dtype} of shape {X.shape}")
    X = X.T if opt.get("transpose") else X
    y = np.asarray(arrays["y"]).ravel()
    labels = np.array([f"{v:g}" if isinstance(v, (float, np.floating)) else str(v) for v in y.tolist()])
    names = [str(n) for n in arrays["feature_names"].tolist()] if "feature_names" in arrays else None
    return X.astype(np.float64), labels, names, None


def read_parquet(folder: Path, opt: dict):
    import pandas as pd
    import pyarrow as pa

    path = folder / opt["file"]
    try:
        df = pd.read_parquet(path)
    except (pa.ArrowException, OSError, ValueError) as e:
        raise DatasetError(f"{path}: not a readable Parquet file: {e}") from None
    X, labels, names = frame_xy(path, df, opt.get("label_column"))
    return X, labels, names, None


def _r_object(path: Path, opt: dict):
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


def read_rdata(folder: Path, opt: dict):
    import pandas as pd

    path = folder / opt["file"]
    obj = _r_object(path, opt)
    if isinstance(obj, pd.DataFrame):
        X, labels, names = frame_xy(path, obj, opt.get("label_column"))
        return X, labels, names, None
    if not isinstance(obj, dict):
        raise DatasetError(f"{path}: the R object is a {type(obj).__name__}; expected a data.frame or a list with x and y")
    parts = {}
    for role in ("x", "y"):
        key = opt.get(role, role)
        if key not in obj:
            raise DatasetError(f"{path}: the R list has no element {key!r} (read.{role}); elements: {sorted(map(str, obj))}")
        parts[role] = obj[key]
    x = parts["x"]
    names = None
    if hasattr(x, "dims") and len(x.dims) == 2 and x.dims[1] in x.coords:  # xarray: matrix with colnames
        names = [str(n) for n in x.coords[x.dims[1]].values]
    X = np.asarray(x.to_numpy() if hasattr(x, "to_numpy") else x)
    if X.ndim != 2 or not np.issubdtype(X.dtype, np.number):
        raise DatasetError(f"{path}: element {opt.get('x', 'x')!r} must be a numeric matrix, got {X.dtype} of shape {X.shape}")
    if opt.get("transpose"):
        X, names = X.T, None
    y = parts["y"]
    labels = np.asarray(y.astype(str) if isinstance(y, pd.Categorical) else np.asarray(y).astype(str)).ravel()
    return X.astype(np.float64), labels, names, None


MORE_READERS = {"npz": read_npz, "parquet": read_parquet, "rdata": read_rdata}
