"""Delimited text -> column names and a 2-D array of cell strings, read by a CSV library.

A one-character separator (``,``, ``;``, tab) is read by pyarrow's CSV reader: standard CSV quoting
(``"0.1257"``), a UTF-8 byte-order mark, CRLF line ends and blank lines are handled there, and rows
with another number of fields are reported with their row number. ``sep: null`` (whitespace, as in
Alon's colon matrix) is read by pandas' ``\\s+`` parser. Rows are numbered from 1, header excluded,
blank lines not counted; columns from 1.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import numpy as np

from .canonical import DatasetError


def parse_table(
    path: Path, raw: bytes, sep: str | None = ",", header: bool = False, encoding: str = "utf8", quoting: bool = True
):
    """``(names or None, cells)`` of the text ``raw`` read from ``path`` (named in every error);
    ``quoting=False`` takes ``"`` literally (annotation files whose descriptions hold quotes)."""
    if not raw.strip() or not raw.lstrip(b"\xef\xbb\xbf").strip():
        raise DatasetError(f"{path}: empty file")
    names, cells = (_whitespace if sep is None else _delimited)(path, raw, sep, header, encoding, quoting)
    if cells.shape[0] == 0:
        raise DatasetError(f"{path}: no data rows")
    return names, cells


def _delimited(path: Path, raw: bytes, sep: str, header: bool, encoding: str, quoting: bool):
    import pyarrow as pa
    import pyarrow.csv as pc

    if len(sep) != 1:
        raise DatasetError(f"{path}: read.sep must be one character or null (whitespace), got {sep!r}")
    bad = []

    def on_bad_row(row):
        bad.append(row)
        return "skip"

    read = pc.ReadOptions(autogenerate_column_names=not header, use_threads=False, encoding=encoding)
    parse = pc.ParseOptions(delimiter=sep, invalid_row_handler=on_bad_row, quote_char='"' if quoting else False)
    try:
        names = pc.open_csv(io.BytesIO(raw), read_options=read, parse_options=parse).schema.names
        if header:
            _check_names(path, names)
        convert = pc.ConvertOptions(
            column_types={n: pa.string() for n in names}, strings_can_be_null=False, quoted_strings_can_be_null=False
        )
        table = pc.read_csv(io.BytesIO(raw), read_options=read, parse_options=parse, convert_options=convert)
    except (pa.ArrowInvalid, UnicodeDecodeError, LookupError) as e:
        raise DatasetError(f"{path}: not a readable delimited text file: {e}") from None
    if bad:
        first = min(bad, key=lambda r: r.number if r.number is not None else 0)
        row = f"row {first.number - int(header)}" if first.number is not None else f"row {first.text[:40]!r}"
        raise DatasetError(
            f"{path}: ragged rows: {row} has {first.actual_columns} fields, row 1 has {first.expected_columns}"
        )
    cells = np.column_stack([c.to_numpy(zero_copy_only=False).astype(str) for c in table.columns])
    return (list(names) if header else None), cells


def _whitespace(path: Path, raw: bytes, sep, header: bool, encoding: str, quoting: bool):
    import csv

    import pandas as pd

    try:
        df = pd.read_csv(
            io.BytesIO(raw), sep=r"\s+", header=0 if header else None, dtype=str, na_filter=False,
            quoting=csv.QUOTE_MINIMAL if quoting else csv.QUOTE_NONE,
            encoding="utf-8-sig" if encoding.replace("-", "").lower() == "utf8" else encoding,
        )  # fmt: skip
    except pd.errors.ParserError as e:
        m = re.search(r"Expected (\d+) fields in line (\d+), saw (\d+)", str(e))
        if m:
            raise DatasetError(f"{path}: ragged rows: line {m[2]} has {m[3]} fields, row 1 has {m[1]}") from None
        raise DatasetError(f"{path}: not a readable whitespace-separated file: {e}") from None
    except (UnicodeDecodeError, LookupError) as e:
        raise DatasetError(f"{path}: not a readable whitespace-separated file: {e}") from None
    cells = df.to_numpy(dtype=str)
    short = np.flatnonzero((cells == "").any(axis=1))  # no field is empty between whitespace: the row is short
    if short.size:
        i = int(short[0])
        raise DatasetError(
            f"{path}: ragged rows: row {i + 1} has {int((cells[i] != '').sum())} fields, row 1 has {cells.shape[1]}"
        )
    if header:
        _check_names(path, list(df.columns))
    return ([str(c) for c in df.columns] if header else None), cells


def _check_names(path: Path, names: list[str]) -> None:
    """Refuse a repeated column name (readers would silently rename or keep both)."""
    seen: dict[str, int] = {}
    for j, n in enumerate(names, start=1):
        if n in seen:
            raise DatasetError(f"{path}: duplicated column name {n!r} in the header (columns {seen[n]} and {j})")
        seen[n] = j


def to_floats(path: Path, cells: np.ndarray, columns: list, decimal: str = ".") -> np.ndarray:
    """Cells as float64; a non-numeric cell is an error naming its row and column (``columns[j]``).

    With ``decimal=","`` the decimal mark is a comma (``0,1257``); a cell with a ``.`` is then refused,
    as a thousands separator or a mixed-locale file would be misread."""
    text = cells
    dotted = np.zeros(cells.shape, dtype=bool)
    if decimal == ",":
        dotted = np.char.find(cells.astype(str), ".") >= 0
        text = np.char.replace(cells.astype(str), ",", ".")
    if not dotted.any():
        try:
            return text.astype(np.float64)
        except ValueError:
            pass
    note = f" (read.decimal is {decimal!r})" if decimal != "." else ""
    for i, row in enumerate(text):
        for j, v in enumerate(row):
            try:
                float(v)
                if dotted[i, j]:
                    raise ValueError
            except ValueError:
                raise DatasetError(f"{path}: non-numeric value {str(cells[i, j])!r} at row {i + 1}, column {columns[j]}{note}") from None
    raise DatasetError(f"{path}: non-numeric values")  # pragma: no cover - astype and float agree
