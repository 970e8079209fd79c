"""Readers for downloaded source files -> :class:`~svmfs.data.canonical.Dataset`.

``entry["format"]`` selects the reader; ``entry["read"]`` holds its options; ``entry["labels"]``
maps source labels to {-1, +1}: ``positive`` lists the label values (as strings) that become +1,
``negative`` those that become -1 (or ``rest``); without ``negative`` the source must be two-class. Without
``labels.positive`` a source of three or more classes is read multiclass (codes 0..K-1 for its sorted labels,
``meta["classes"]``; docs/multiclass.md). Compressed files (.gz, .bz2, .Z) are decompressed transparently.

Readers (text is read by a CSV library, :mod:`.tables`: quoting, a UTF-8 byte-order mark, CRLF):
- ``matrix``: a numeric matrix without header (whitespace-separated unless ``sep`` is set);
  ``transpose`` for features-in-rows files (Alon's colon I2000); labels from a column of the matrix
  (``label_column``) or from a separate file (``labels_file``, one label a line, ``labels_header: true`` when
  its first line is a header, ``label_transform: sign`` for Alon's signed tissue ids); ``drop_columns`` (musk's name columns); ``feature_names`` or
  ``feature_names_file`` / ``feature_names_column``.
- ``csv`` / ``tsv``: comma / tab-separated file(s) with a header (``header: false`` for none),
  concatenated in the order given (Golub train + test); ``label_column`` a column name (or index), or
  ``labels_file`` as for ``matrix``;
  ``decimal: ","`` for a comma-decimal locale (``sep: ";"``, ``0,1257``).
- ``svmlight``: libsvm/svmlight files (scikit-learn's reader), concatenated.
- ``arff``: ARFF (scipy's reader), the label attribute named by ``label_column``.
- ``npz``, ``parquet``, ``rdata`` (``.RData``/``.rds``): :mod:`.binary_formats`.
- ``geo_series_matrix``: GEO's ``GSE..._series_matrix.txt(.gz)``, labels from a sample
  characteristic or the sample titles: :mod:`.geo`.

Options (``options`` in the registry or the campaign): ``missing_zeros`` with
``missing_zero_columns`` (Pima: zeros mean "not measured" in 5 columns): ``keep`` (the papers'
choice, default), ``error``, or ``drop_rows``; the choice is recorded in the metadata.
Every error names the file and, where it applies, the row and column; an empty label cell is an
error naming its row, never a third label ``''``.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import numpy as np

from .binary_formats import MORE_READERS
from .canonical import Dataset, DatasetError
from .compressed import read_bytes, read_text
from .download import safe_relative, sha256_of
from .geo import read_geo_series_matrix
from .tables import parse_table, to_floats


def _table(path: Path, opt: dict, sep, header: bool):
    return parse_table(path, read_bytes(path), sep, header, opt.get("encoding", "utf8"))


def _column(path: Path, names: list | None, width: int, key: str, col) -> int:
    """0-based index of column ``col`` (a header name, or an index; negative counts from the end)."""
    if names is not None and isinstance(col, str):
        if col not in names:
            what = "label column" if key == "label_column" else "column"
            raise DatasetError(f"{path}: no {what} {col!r} (read.{key}); columns: {names[:10]}")
        return names.index(col)
    if isinstance(col, bool) or not isinstance(col, int) or not -width <= col < width:
        raise DatasetError(f"{path}: read.{key} = {col!r} is not a column of a {width}-column file")
    return col % width


def read_delimited(folder: Path, opt: dict, *, sep=",", header=False):
    """Delimited text file(s) with or without a header, concatenated in the order given.

    Labels come from ``label_column`` (a header name or an index) or from ``labels_file``;
    ``drop_columns`` (names or indices) are left out; ``transpose`` for features-in-rows files;
    ``decimal: ","`` for numbers written with a decimal comma (``0,1257``, with ``sep: ";"``).
    """
    files = opt["files"] if "files" in opt else [opt["file"]]
    sep, header = opt.get("sep", sep), opt.get("header", header)
    decimal = opt.get("decimal", ".")
    if decimal not in (".", ","):
        raise DatasetError(f"{folder / files[0]}: read.decimal must be '.' or ',', got {decimal!r}")
    if decimal == sep:
        raise DatasetError(f"{folder / files[0]}: read.decimal {decimal!r} is also the separator; set read.sep (e.g. ';')")
    label_col = opt.get("label_column")
    if label_col is None and not opt.get("labels_file"):
        raise DatasetError(f"{folder / files[0]}: read.label_column or read.labels_file is required")
    Xs, labels, names0 = [], [], None
    for k, f in enumerate(files):
        path = folder / f
        names, cells = _table(path, opt, sep, header)
        if k and names != names0:
            raise DatasetError(f"{folder}: the files {files} have different columns")
        names0, width = names, cells.shape[1]
        label = None if label_col is None else _column(path, names, width, "label_column", label_col)
        drop = {_column(path, names, width, "drop_columns", c) for c in opt.get("drop_columns", [])}
        keep = [j for j in range(width) if j != label and j not in drop]
        if label is not None:
            labels.append(np.char.strip(np.char.strip(cells[:, label]), '"'))
        columns = [repr(names[j]) if names is not None else str(j + 1) for j in keep]
        Xs.append(to_floats(path, cells[:, keep], columns, decimal))
    X = np.vstack(Xs)
    feature_names = [names0[j] for j in keep] if names0 is not None else None
    path = folder / files[0]
    if opt.get("transpose"):
        X = X.T
        feature_names = None
    lab_path = path
    if labels:
        labels = np.concatenate(labels)
    else:
        lab_path = folder / opt["labels_file"]
        raw = np.char.strip(_table(lab_path, opt, None, bool(opt.get("labels_header", False)))[1][:, 0], '"')
        if opt.get("label_transform") == "sign":
            raw = np.array(["-1" if v < 0 else "1" for v in to_floats(lab_path, raw[:, None], ["1"])[:, 0]])
        labels = raw
    if len(labels) != X.shape[0]:
        raise DatasetError(f"{lab_path}: {len(labels)} labels for {X.shape[0]} samples of {path}")
    names = opt.get("feature_names", feature_names)
    if opt.get("feature_names") is not None and len(names) != X.shape[1]:
        raise DatasetError(f"{path}: read.feature_names lists {len(names)} names for {X.shape[1]} features")
    if opt.get("feature_names_file"):
        npath = folder / opt["feature_names_file"]
        sep = opt.get("feature_names_sep", "\t")
        cells = parse_table(npath, read_bytes(npath), sep, False, opt.get("encoding", "utf8"), quoting=False)[1]
        col = _column(npath, None, cells.shape[1], "feature_names_column", opt.get("feature_names_column", 0))
        names = [str(v).strip() for v in cells[:, col]]
        if len(names) != X.shape[1]:
            raise DatasetError(f"{npath}: {len(names)} feature names for {X.shape[1]} features")
    return X, labels, (_dedupe(names) if opt.get("feature_names_file") else names), None


def read_matrix(folder: Path, opt: dict):
    """A numeric matrix without header, whitespace-separated unless ``sep`` is set."""
    return read_delimited(folder, opt, sep=None, header=False)


def read_csv(folder: Path, opt: dict):
    """CSV with a header (``header: false`` for none; ``sep`` for another separator)."""
    return read_delimited(folder, opt, sep=",", header=True)


def read_tsv(folder: Path, opt: dict):
    """Tab-separated text with a header (``header: false`` for none)."""
    return read_delimited(folder, opt, sep="\t", header=True)


def _dedupe(names: list[str]) -> list[str]:
    """Make repeated names unique by suffixing '#k' (Alon's names.txt repeats some probes)."""
    seen: dict[str, int] = {}
    out = []
    for n in names:
        k = seen.get(n, 0)
        out.append(n if k == 0 else f"{n}#{k}")
        seen[n] = k + 1
    return out


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


READERS = {
    "matrix": read_matrix, "csv": read_csv, "tsv": read_tsv, "svmlight": read_svmlight, "arff": read_arff,
    "geo_series_matrix": read_geo_series_matrix, **MORE_READERS,
}  # fmt: skip


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


def _refuse_empty_labels(name: str, labels, source) -> None:
    """An empty (or blank) label cell is an error naming its row (1-based, in sample order), never a label ''."""
    blank = np.char.strip(np.asarray(labels).astype(str)) == ""
    if blank.any():
        files = ", ".join(map(str, source)) if isinstance(source, list) else source
        raise DatasetError(
            f"dataset {name!r}: empty label at row {int(np.flatnonzero(blank)[0]) + 1} (file {files}); "
            f"{int(blank.sum())} sample(s) without a label"
        )


def _map_labels(name: str, spec: dict, labels: np.ndarray, source) -> np.ndarray:
    """+1 for ``labels.positive``, -1 for ``labels.negative`` (a list, or ``"rest"``).

    Without ``negative`` the source must be two-class: a third distinct label is an error, never
    silently folded into the negative class. With a list, a label in neither list is an error naming
    its first row (1-based, in sample order).
    """
    positive = {str(v) for v in spec.get("positive", [])}
    labels = np.asarray(labels).astype(str)
    if not positive:
        return multiclass_codes(name, spec, labels, source)[0]
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


def multiclass_codes(name: str, spec: dict, labels: np.ndarray, source) -> tuple[np.ndarray, list[str]]:
    """Without ``labels.positive``: a multiclass dataset, class codes 0..K-1 for the sorted distinct labels
    (as strings) and those names; three or more classes are needed (two classes need ``labels.positive``,
    the class that becomes +1), and ``labels.negative`` has no meaning without it."""
    labels = np.asarray(labels).astype(str)
    found = sorted(set(labels.tolist()))
    if spec.get("negative") is not None:
        raise DatasetError(f"dataset {name!r}: labels.negative is set but labels.positive is not; give both (binary) "
                           "or neither (multiclass, three or more classes)")
    if len(found) < 3:
        raise DatasetError(
            f"dataset {name!r} ({source}): labels.positive: the label value(s) of the positive class are required "
            f"for two classes ({found}); a dataset runs multiclass without it only with three or more classes"
        )
    return np.searchsorted(np.asarray(found), labels).astype(np.int64), found


def read_download(name: str, entry: dict[str, Any], folder: Path, options: dict | None = None) -> Dataset:
    """Read the downloaded files of ``entry`` from ``folder`` (the ``raw_dir``; paths as in ``files``)."""
    opt = entry.get("read", {})
    for key in ("file", "labels_file", "feature_names_file"):
        if key in opt:
            safe_relative(name, opt[key])
    for f in opt.get("files", []):
        safe_relative(name, f)
    paths = [f["path"] for f in entry.get("files", [])] + [p for f in entry.get("files", []) for p in f.get("extract", {})]
    hashes = {str(p): sha256_of(folder / p) for p in paths if (folder / p).exists()}
    return read_entry(name, entry, folder, opt, hashes, "download", options)


def read_entry(name: str, entry: dict, folder: Path, opt: dict, hashes: dict, kind: str, options: dict | None) -> Dataset:
    """Read ``entry``'s files below ``folder`` with its format's reader, map its labels, apply options."""
    fmt = entry.get("format")
    if fmt not in READERS:
        raise DatasetError(f"dataset {name!r}: unknown format {fmt!r}; known: {sorted(READERS)}")
    X, labels, names, ids = READERS[fmt](folder, opt)
    source = opt.get("labels_file") or opt.get("file") or opt.get("files")
    _refuse_empty_labels(name, labels, source)
    y = _map_labels(name, entry.get("labels") or {}, labels, source)
    found = set(np.unique(labels).tolist())
    positive = {str(v) for v in (entry.get("labels") or {}).get("positive") or []}
    meta = {
        "source": {
            "kind": kind,
            "format": fmt,
            "files": hashes,
            "labels": {"positive": sorted(positive), "found": sorted(found)},
        },
        "preprocessing": [],
        "warnings": [],
    }
    if not positive:  # multiclass: the codes 0..K-1 name the sorted labels
        meta["classes"] = multiclass_codes(name, entry.get("labels") or {}, labels, source)[1]
    names = names or [f"f{j + 1}" for j in range(X.shape[1])]
    X, keep = _missing_zeros(name, X, {**entry.get("options", {}), **(options or {})}, meta, names)
    ids = ids or [f"s{i}" for i in range(X.shape[0])]
    ids = [i for i, k in zip(ids, keep) if k]
    return Dataset(name, X[keep], y[keep], names, ids, None, meta)
