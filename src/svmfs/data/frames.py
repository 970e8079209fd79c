"""Data frames and label vectors from binary files (Parquet, R) -> float matrices and label strings.

A column of any numeric type is read: NumPy integers and floats, pandas' nullable ``Int32``/``Int64``/
``Float64`` and ``boolean`` (R's integer, double and logical columns as the ``rdata`` package returns
them; logical as 0/1). Numbers stored as text are accepted. A missing value (R ``NA``, ``NaN``) or a
non-numeric cell is refused naming the file, the row (1-based, with its row name if the frame has
explicit ones) and the column. Labels (a factor, a character, integer, double or logical vector) are
returned as strings; a missing label is refused naming its row.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .canonical import DatasetError


def row_names(index) -> list[str] | None:
    """Explicit row names as strings; ``None`` for automatic ones (a range, as R's ``1..n``)."""
    import pandas as pd

    return None if isinstance(index, pd.RangeIndex) else [str(v) for v in index]


def _row(r: int, ids: list[str] | None) -> str:
    return f"row {r + 1}" + (f" ({ids[r]!r})" if ids else "")


def frame_matrix(path: Path, df, ids: list[str] | None = None) -> np.ndarray:
    """The columns of ``df`` as a float64 matrix (module doc); ``ids`` name the rows in errors."""
    import pandas as pd

    X = np.empty(df.shape, dtype=np.float64)
    missing = np.zeros(df.shape, dtype=bool)
    text = np.zeros(df.shape, dtype=bool)
    for j in range(df.shape[1]):
        col = df.iloc[:, j]
        missing[:, j] = col.isna().to_numpy()
        if pd.api.types.is_bool_dtype(col.dtype) or pd.api.types.is_numeric_dtype(col.dtype):
            X[:, j] = col.to_numpy(dtype=np.float64, na_value=np.nan)
        else:  # text, factor or object column: numbers written as text are read, anything else refused
            num = pd.to_numeric(col.astype(object), errors="coerce")
            X[:, j] = num.to_numpy(dtype=np.float64, na_value=np.nan)
            text[:, j] = num.isna().to_numpy() & ~missing[:, j]
    problem = missing | text | np.isnan(X)
    if problem.any():
        r, c = map(int, np.argwhere(problem)[0])
        where = f"{_row(r, ids)}, column {str(df.columns[c])!r}"
        if text[r, c]:
            raise DatasetError(f"{path}: non-numeric value {str(df.iat[r, c])!r} at {where}")
        raise DatasetError(f"{path}: missing value (NA) at {where}; remove or impute it before reading")
    return X


def matrix_values(path: Path, values, what: str, ids: list[str] | None, names: list[str] | None) -> np.ndarray:
    """A 2-D numeric (integer, double, logical) array -> float64; ``NA`` (masked or NaN) named by row and column."""
    mask = np.ma.getmaskarray(values) if np.ma.isMaskedArray(values) else None
    arr = np.asarray(np.ma.getdata(values))
    if arr.ndim != 2 or not (np.issubdtype(arr.dtype, np.number) or arr.dtype == bool):
        raise DatasetError(f"{path}: {what} must be a numeric matrix, got {arr.dtype} of shape {arr.shape}")
    X = arr.astype(np.float64)
    missing = np.isnan(X) if mask is None else mask | np.isnan(X)
    if missing.any():
        r, c = map(int, np.argwhere(missing)[0])
        col = repr(names[c]) if names else str(c + 1)
        raise DatasetError(f"{path}: missing value (NA) at {_row(r, ids)}, column {col} of {what}; remove or impute it before reading")
    return X


def label_strings(path: Path, values, what: str, ids: list[str] | None = None, true_false=("TRUE", "FALSE")) -> np.ndarray:
    """A factor or vector of labels -> strings (integers as ``1``, doubles as ``%g``, logicals as
    ``true_false``); a missing label (``NA``) is refused naming its row."""
    import pandas as pd

    if isinstance(values, pd.Series):
        values = values.array
    if isinstance(values, pd.Categorical):
        missing = np.asarray(values.codes) < 0
        out = np.asarray(values.astype(object).astype(str), dtype=object)
    else:
        mask = np.ma.getmaskarray(values).ravel() if np.ma.isMaskedArray(values) else None
        if isinstance(values, pd.api.extensions.ExtensionArray):  # nullable integer, logical or text vector
            flat = values.to_numpy(dtype=object, na_value=None).ravel()
        else:
            flat = np.asarray(np.ma.getdata(values)).ravel()
        missing = np.array([v is None or (isinstance(v, float) and np.isnan(v)) for v in flat.tolist()], dtype=bool)
        if mask is not None:
            missing |= mask
        out = np.array([_label(v, true_false) for v in flat.tolist()], dtype=object)
    if missing.any():
        r = int(np.flatnonzero(missing)[0])
        raise DatasetError(f"{path}: missing label (NA) at {_row(r, ids)} of {what}")
    return out.astype(str)


def _label(v, true_false) -> str:
    if isinstance(v, (bool, np.bool_)):
        return true_false[0] if v else true_false[1]
    if isinstance(v, (float, np.floating)):
        return "" if np.isnan(v) else f"{v:g}"
    return str(v)


def frame_xy(path: Path, df, label_column, drop=(), true_false=("True", "False")):
    """A data frame -> (X, labels, feature names, row ids or None); ``drop`` names columns left out."""
    if label_column not in df.columns:
        raise DatasetError(f"{path}: no label column {label_column!r} (read.label_column); columns: {list(df.columns)[:10]}")
    absent = [c for c in drop if c not in df.columns]
    if absent:
        raise DatasetError(f"{path}: no column {absent[0]!r} (read.drop_columns); columns: {list(df.columns)[:10]}")
    ids = row_names(df.index)
    labels = label_strings(path, df[label_column], f"column {label_column!r}", ids, true_false)
    feats = df.drop(columns=[label_column, *drop])
    return frame_matrix(path, feats, ids), labels, [str(c) for c in feats.columns], ids
