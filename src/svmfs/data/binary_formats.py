"""Readers for binary matrix files: NumPy ``.npz``, Parquet, R ``.RData`` / ``.rds``.

Same contract as the text readers of :mod:`.formats`: ``reader(folder, read_options)`` returns
``(X, labels as strings, feature names or None, sample ids or None)``; errors name the file and the
key, column or object at fault.

- ``npz``: arrays ``X`` and ``y`` (``read.X``, ``read.y`` rename them; ``read.feature_names`` names an
  optional array of names); read with ``allow_pickle=False``.
- ``parquet``: a table (pandas / pyarrow), labels in ``read.label_column`` (``read.drop_columns``
  leaves out id columns); columns of any numeric type, a missing value named by row and column
  (:mod:`.frames`).
- ``rdata``: an R workspace (``.RData``/``.rda``) or a single serialized object (``.rds``):
  :mod:`.r_data`.
``transpose: true`` (npz, an R matrix) for a features-in-rows matrix.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .canonical import DatasetError
from .frames import frame_xy
from .r_data import read_rdata


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
    return frame_xy(path, df, opt.get("label_column"), list(opt.get("drop_columns", [])))


MORE_READERS = {"npz": read_npz, "parquet": read_parquet, "rdata": read_rdata}
