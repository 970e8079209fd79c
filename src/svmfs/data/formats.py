"""Readers for downloaded source files -> :class:`~svmfs.data.canonical.Dataset`.

``entry["format"]`` selects the reader; ``entry["read"]`` holds its options; ``entry["labels"]``
maps source labels to {-1, +1}: ``positive`` lists the label values (as strings) that become +1,
``negative`` those that become -1 (or ``rest``); without ``negative`` the source must be two-class. Compressed files (.gz, .bz2, .Z) are decompressed transparently.

Readers:
- ``matrix``: a delimited numeric matrix (whitespace by default); ``transpose`` for features-in-rows
  files (Alon's colon I2000); labels from a column of the matrix (``label_column``) or from a
  separate file (``labels_file``, with ``label_transform: sign`` for Alon's signed tissue ids);
  ``drop_columns`` (musk's name columns); ``feature_names_file`` / ``feature_names_column``.
- ``csv``: CSV file(s) with a header, concatenated in the order given (Golub train + test); the
  label column named by ``label_column``.
- ``svmlight``: libsvm/svmlight files (scikit-learn's reader), concatenated.
- ``arff``: ARFF (scipy's reader), the label attribute named by ``label_column``.

Options (``options`` in the registry or the campaign): ``missing_zeros`` with
``missing_zero_columns`` (Pima: zeros mean "not measured" in 5 columns): ``keep`` (the papers'
choice, default), ``error``, or ``drop_rows``; the choice is recorded in the metadata.
Every error names the file and, where it applies, the row and column.
"""

from __future__ import annotations

import bz2
import gzip
import io
from pathlib import Path
from typing import Any

import numpy as np

from .canonical import Dataset, DatasetError
from .download import safe_relative, sha256_of


def read_bytes(path: Path) -> bytes:
    """The file's content, decompressed by suffix (.gz, .bz2, .Z)."""
    raw = path.read_bytes()
    try:
        if path.suffix == ".gz":
            return gzip.decompress(raw)
        if path.suffix == ".bz2":
            return bz2.decompress(raw)
        if path.suffix == ".Z":
            import unlzw3

            return unlzw3.unlzw(raw)
    except (OSError, EOFError, ValueError, RuntimeError) as e:
        raise DatasetError(f"{path}: corrupt or truncated compressed file ({type(e).__name__}: {e})") from None
    return raw


def read_text(path: Path) -> str:
    text = read_bytes(path).decode("utf-8", errors="replace")
    if not text.strip():
        raise DatasetError(f"{path}: empty file")
    return text


def _rows(path: Path, sep: str | None, skip_header: bool = False) -> list[list[str]]:
    lines = [ln for ln in read_text(path).replace("\r", "\n").split("\n") if ln.strip()]
    if skip_header:
        lines = lines[1:]
    rows = [ln.split(sep) if sep else ln.split() for ln in lines]
    width = len(rows[0])
    for i, r in enumerate(rows):
        if len(r) != width:
            raise DatasetError(f"{path}: ragged rows: row {i + 1} has {len(r)} fields, row 1 has {width}")
    return rows


def _floats(path: Path, rows: list[list[str]]) -> np.ndarray:
    try:
        return np.array(rows, dtype=np.float64)
    except ValueError:
        for i, r in enumerate(rows):
            for j, v in enumerate(r):
                try:
                    float(v)
                except ValueError:
                    raise DatasetError(f"{path}: non-numeric value {v!r} at row {i + 1}, column {j + 1}") from None
        raise


def read_matrix(folder: Path, opt: dict) -> tuple[np.ndarray, np.ndarray, list[str] | None, list[str] | None]:
    path = folder / opt["file"]
    rows = _rows(path, opt.get("sep"), opt.get("header", False))
    label_col = opt.get("label_column")
    labels = None
    if label_col is not None:
        labels = np.array([r[label_col].strip().strip('"') for r in rows])
        rows = [r[:label_col] + r[label_col + 1 :] if label_col != -1 else r[:-1] for r in rows]
    drop = sorted(opt.get("drop_columns", []), reverse=True)
    for j in drop:
        rows = [r[:j] + r[j + 1 :] for r in rows]
    X = _floats(path, rows)
    if opt.get("transpose"):
        X = X.T
    if labels is None:
        lab_path = folder / opt["labels_file"]
        raw = [r[0] for r in _rows(lab_path, None)]
        if opt.get("label_transform") == "sign":
            raw = ["-1" if float(v) < 0 else "1" for v in raw]
        labels = np.array(raw)
        if len(labels) != X.shape[0]:
            raise DatasetError(f"{lab_path}: {len(labels)} labels for {X.shape[0]} samples of {path}")
    names = opt.get("feature_names")
    if names is not None and len(names) != X.shape[1]:
        raise DatasetError(f"{path}: read.feature_names lists {len(names)} names for {X.shape[1]} features")
    if opt.get("feature_names_file"):
        npath = folder / opt["feature_names_file"]
        nrows = [ln.split(opt.get("feature_names_sep", "\t")) for ln in read_text(npath).splitlines() if ln.strip()]
        col = opt.get("feature_names_column", 0)
        names = [r[col].strip() for r in nrows]
        if len(names) != X.shape[1]:
            raise DatasetError(f"{npath}: {len(names)} feature names for {X.shape[1]} features")
        names = _dedupe(names)
    return X, labels, names, None


def _dedupe(names: list[str]) -> list[str]:
    """Make repeated names unique by suffixing '#k' (Alon's names.txt repeats some probes)."""
    seen: dict[str, int] = {}
    out = []
    for n in names:
        k = seen.get(n, 0)
        out.append(n if k == 0 else f"{n}#{k}")
        seen[n] = k + 1
    return out


def _check_header(path: Path, raw: bytes) -> None:
    """Refuse a repeated column name (pandas would silently rename the second 'a' to 'a.1')."""
    import csv

    header = next(csv.reader(io.StringIO(raw.decode("utf-8", errors="replace").split("\n", 1)[0])), [])
    seen: dict[str, int] = {}
    for j, n in enumerate(header, start=1):
        if n in seen:
            raise DatasetError(f"{path}: duplicated column name {n!r} in the header (columns {seen[n]} and {j})")
        seen[n] = j


def read_csv(folder: Path, opt: dict):
    import pandas as pd

    frames = []
    for f in opt["files"]:
        path = folder / f
        raw = read_bytes(path)
        try:
            frames.append(pd.read_csv(io.BytesIO(raw)))
        except (pd.errors.ParserError, pd.errors.EmptyDataError) as e:
            raise DatasetError(f"{path}: {e}") from None
        _check_header(path, raw)
    cols = [list(df.columns) for df in frames]
    if any(c != cols[0] for c in cols):
        raise DatasetError(f"{folder}: the files {opt['files']} have different columns")
    df = pd.concat(frames, ignore_index=True)
    label = opt["label_column"]
    if label not in df.columns:
        raise DatasetError(f"{folder / opt['files'][0]}: no label column {label!r}")
    labels = df[label].astype(str).to_numpy()
    feats = df.drop(columns=[label])
    bad = feats.apply(pd.to_numeric, errors="coerce").isna() & feats.notna()
    if bad.to_numpy().any():
        r, c = np.argwhere(bad.to_numpy())[0]
        raise DatasetError(f"{folder / opt['files'][0]}: non-numeric value at row {r + 1}, column {feats.columns[c]!r}")
    return feats.to_numpy(np.float64), labels, [str(c) for c in feats.columns], None


def read_svmlight(folder: Path, opt: dict):
    from sklearn.datasets import load_svmlight_file

    Xs, ys = [], []
    for f in opt["files"]:
        path = folder / f
        try:
            X, y = load_svmlight_file(io.BytesIO(read_bytes(path)), n_features=opt.get("n_features"))
        except ValueError as e:
            raise DatasetError(f"{path}: not a valid svmlight file: {e}") from None
        Xs.append(X.toarray())
        ys.append(y)
    widths = {x.shape[1] for x in Xs}
    if len(widths) != 1:
        raise DatasetError(f"{folder}: svmlight files of different widths {sorted(widths)}; set read.n_features")
    y = np.concatenate(ys)
    return np.vstack(Xs), np.array([f"{v:g}" for v in y]), None, None


def read_arff(folder: Path, opt: dict):
    from scipy.io import arff

    path = folder / opt["file"]
    try:
        data, meta = arff.loadarff(io.StringIO(read_text(path)))
    except (ValueError, arff.ParseArffError, NotImplementedError) as e:
        raise DatasetError(f"{path}: not a readable ARFF file: {e}") from None
    label = opt["label_column"]
    if label not in meta.names():
        raise DatasetError(f"{path}: no label attribute {label!r} (read.label_column); attributes: {meta.names()[:10]}")
    names = [n for n in meta.names() if n != label]
    labels = np.array([v.decode() if isinstance(v, bytes) else str(v) for v in data[label]])
    X = np.column_stack([data[n].astype(np.float64) for n in names])
    return X, labels, names, None


READERS = {"matrix": read_matrix, "csv": read_csv, "svmlight": read_svmlight, "arff": read_arff}


def _missing_zeros(name, X, opts, meta, names) -> tuple[np.ndarray, np.ndarray]:
    policy = opts.get("missing_zeros", "keep")
    cols = opts.get("missing_zero_columns", [])
    keep_rows = np.ones(X.shape[0], dtype=bool)
    if not cols:
        return X, keep_rows
    zero = X[:, cols] == 0
    counts = dict(zip(map(str, cols), zero.sum(0).tolist()))
    if policy == "keep":
        meta["preprocessing"].append(f"zeros kept as values in columns {cols} (zero counts {counts}), as the papers did")
    elif policy == "error":
        if zero.any():
            r, c = np.argwhere(zero)[0]
            raise DatasetError(
                f"dataset {name!r}: zero (missing) value at row {r}, column {cols[c]} ({names[cols[c]]!r}) "
                "(options.missing_zeros: error)"
            )
    elif policy == "drop_rows":
        keep_rows = ~zero.any(1)
        meta["preprocessing"].append(f"dropped {int((~keep_rows).sum())} rows with a zero in columns {cols}")
    else:
        raise DatasetError(f"dataset {name!r}: options.missing_zeros must be keep, error or drop_rows, got {policy!r}")
    return X, keep_rows


def _map_labels(name: str, spec: dict, labels: np.ndarray, source) -> np.ndarray:
    """+1 for ``labels.positive``, -1 for ``labels.negative`` (a list, or ``"rest"``).

    Without ``negative`` the source must be two-class: a third distinct label is an error, never
    silently folded into the negative class. With a list, a label in neither list is an error naming
    its first row (1-based, in sample order).
    """
    positive = {str(v) for v in spec.get("positive", [])}
    if not positive:
        raise DatasetError(f"dataset {name!r}: registry entry needs labels.positive")
    labels = np.asarray(labels).astype(str)
    found = sorted(set(labels.tolist()))
    if not positive & set(found):
        raise DatasetError(f"dataset {name!r} ({source}): positive label(s) {sorted(positive)} not among the labels {found[:10]}")
    negative = spec.get("negative")
    others = [v for v in found if v not in positive]
    if negative is None and len(others) > 1:
        raise DatasetError(
            f"dataset {name!r} ({source}): {len(found)} distinct labels {found[:10]} but labels.negative is not set; "
            "list the negative class's labels in labels.negative (or 'rest' for one-vs-rest)"
        )
    if negative is not None and negative != "rest":
        allowed = positive | {str(v) for v in negative}
        stray = ~np.isin(labels, list(allowed))
        if stray.any():
            i = int(np.flatnonzero(stray)[0])
            raise DatasetError(
                f"dataset {name!r} ({source}): label {str(labels[i])!r} at row {i + 1} is in neither labels.positive "
                f"{sorted(positive)} nor labels.negative {sorted(allowed - positive)}"
            )
    return np.where(np.isin(labels, list(positive)), 1, -1)


def read_download(name: str, entry: dict[str, Any], folder: Path, options: dict | None = None) -> Dataset:
    """Read the downloaded files of ``entry`` from ``folder`` (the ``raw_dir``; paths as in ``files``)."""
    fmt = entry.get("format")
    if fmt not in READERS:
        raise DatasetError(f"dataset {name!r}: unknown format {fmt!r}; known: {sorted(READERS)}")
    opt = entry.get("read", {})
    for key in ("file", "labels_file", "feature_names_file"):
        if key in opt:
            safe_relative(name, opt[key])
    for f in opt.get("files", []):
        safe_relative(name, f)
    X, labels, names, ids = READERS[fmt](folder, opt)
    y = _map_labels(name, entry.get("labels") or {}, labels, opt.get("labels_file") or opt.get("file") or opt.get("files"))
    found = set(np.unique(labels).tolist())
    positive = {str(v) for v in entry["labels"]["positive"]}
    meta = {
        "source": {
            "kind": "download",
            "format": fmt,
            "files": {str(f["path"]): sha256_of(folder / f["path"]) for f in entry.get("files", []) if (folder / f["path"]).exists()},
            "labels": {"positive": sorted(positive), "found": sorted(found)},
        },
        "preprocessing": [],
        "warnings": [],
    }
    names = names or [f"f{j + 1}" for j in range(X.shape[1])]
    X, keep = _missing_zeros(name, X, {**entry.get("options", {}), **(options or {})}, meta, names)
    ids = ids or [f"s{i}" for i in range(X.shape[0])]
    ids = [i for i, k in zip(ids, keep) if k]
    return Dataset(name, X[keep], y[keep], names, ids, None, meta)
