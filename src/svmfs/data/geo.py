"""The ``geo_series_matrix`` format: a GEO series matrix file (``GSE..._series_matrix.txt(.gz)``).

The file is tab-separated text: ``!Series_...`` and ``!Sample_...`` lines (one value per sample, quoted),
then the probe x sample table between ``!series_matrix_table_begin`` and ``!series_matrix_table_end``,
whose header is ``"ID_REF"`` followed by the samples' GSM ids. The table is read transposed: samples in
rows (GSM ids as sample ids, checked against ``!Sample_geo_accession``), probes as features (probe ids
as feature names). An empty cell or ``null`` (GEO's missing value) is refused naming probe and sample.

The label of each sample comes from one of (``read``):

- ``label_field: tissue``: the value of the field ``tissue`` in the ``!Sample_characteristics_ch1``
  lines (``"tissue: tumor"`` -> ``tumor``); a file may have several such lines and a field may sit on
  different lines for different samples, so every line is searched;
- ``title_pattern: "^(tumou?r|normal)"``: a regular expression searched in ``!Sample_title``; the label
  is its first group (the whole match if it has none).

A missing field, or a sample without it (or whose title does not match), is refused naming the file
and the GSM id.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import numpy as np

from .canonical import DatasetError
from .compressed import read_text
from .tables import parse_table

BEGIN, END = "!series_matrix_table_begin", "!series_matrix_table_end"
MISSING = ("", "null", "NA", "NaN", "nan")


def _header_lines(lines: list[str]) -> dict[str, list[list[str]]]:
    """``!Sample_*`` key -> its lines' values (quotes removed), in file order."""
    out: dict[str, list[list[str]]] = {}
    for row in csv.reader(lines, delimiter="\t"):
        if row and row[0].startswith("!Sample_"):
            out.setdefault(row[0], []).append([v.strip() for v in row[1:]])
    return out


def _split(path: Path, text: str) -> tuple[list[str], list[str]]:
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.strip().lower() == BEGIN]
    ends = [i for i, line in enumerate(lines) if line.strip().lower() == END]
    if not starts or not ends or ends[0] < starts[0]:
        raise DatasetError(f"{path}: not a GEO series matrix file: no table between {BEGIN} and {END}")
    return lines[: starts[0]], lines[starts[0] + 1 : ends[0]]


def _table(path: Path, lines: list[str]) -> tuple[list[str], list[str], np.ndarray]:
    """(GSM ids, probe ids, samples x probes values) of the table's lines (read by pyarrow, :mod:`.tables`)."""
    if len([line for line in lines if line.strip()]) < 2:
        raise DatasetError(f"{path}: the series matrix table has no probe rows")
    header, cells = parse_table(path, "\n".join(lines).encode(), "\t", header=True)
    gsm, probes, cells = [g.strip() for g in header[1:]], [p.strip() for p in cells[:, 0]], np.char.strip(cells[:, 1:])
    missing = np.isin(cells, MISSING)
    if missing.any():
        p, s = map(int, np.argwhere(missing)[0])
        raise DatasetError(f"{path}: missing value {str(cells[p, s])!r} for probe {probes[p]!r}, sample {gsm[s]}; remove or impute it")
    try:
        values = cells.astype(np.float64)
    except ValueError:
        for p, s in np.ndindex(cells.shape):
            try:
                float(cells[p, s])
            except ValueError:
                raise DatasetError(f"{path}: non-numeric value {str(cells[p, s])!r} for probe {probes[p]!r}, sample {gsm[s]}") from None
        raise  # pragma: no cover - astype and float agree
    return gsm, probes, values.T


def _field_labels(path: Path, header: dict, field: str, gsm: list[str]) -> list[str]:
    lines = header.get("!Sample_characteristics_ch1", [])
    found: dict[int, str] = {}
    keys: set[str] = set()
    for values in lines:
        for s, v in enumerate(values):
            key, sep, value = v.partition(":")
            if not sep:
                continue
            keys.add(key.strip())
            if key.strip() == field:
                if s in found and found[s] != value.strip():
                    raise DatasetError(f"{path}: sample {gsm[s]} has field {field!r} twice ({found[s]!r}, {value.strip()!r})")
                found[s] = value.strip()
    if not found:
        raise DatasetError(
            f"{path}: no field {field!r} (read.label_field) in the !Sample_characteristics_ch1 lines; fields: {sorted(keys)[:20]}"
        )
    absent = [gsm[s] for s in range(len(gsm)) if not found.get(s)]
    if absent:
        raise DatasetError(f"{path}: sample {absent[0]} has no field {field!r} in !Sample_characteristics_ch1 ({len(absent)} such samples)")
    return [found[s] for s in range(len(gsm))]


def _title_labels(path: Path, header: dict, pattern: str, gsm: list[str]) -> list[str]:
    try:
        regex = re.compile(pattern)
    except re.error as e:
        raise DatasetError(f"{path}: read.title_pattern {pattern!r} is not a regular expression: {e}") from None
    titles = (header.get("!Sample_title") or [[]])[0]
    if len(titles) != len(gsm):
        raise DatasetError(f"{path}: {len(titles)} values in !Sample_title for {len(gsm)} samples in the table")
    out = []
    for s, title in enumerate(titles):
        m = regex.search(title)
        if m is None:
            raise DatasetError(f"{path}: the title {title!r} of sample {gsm[s]} does not match read.title_pattern {pattern!r}")
        out.append(m.group(1) if regex.groups else m.group(0))
    return out


def read_geo_series_matrix(folder: Path, opt: dict):
    """``(X, labels, probe ids, GSM ids)`` of a series matrix file (module doc)."""
    path = folder / opt["file"]
    field, pattern = opt.get("label_field"), opt.get("title_pattern")
    if (field is None) == (pattern is None):
        raise DatasetError(f"{path}: give one of read.label_field (a !Sample_characteristics_ch1 field) or read.title_pattern")
    head, body = _split(path, read_text(path))
    header = _header_lines(head)
    gsm, probes, X = _table(path, body)
    accessions = (header.get("!Sample_geo_accession") or [None])[0]
    if accessions is not None and accessions != gsm:
        raise DatasetError(f"{path}: the table's samples {gsm[:5]} differ from !Sample_geo_accession {accessions[:5]}")
    for key, values in header.items():
        bad = [v for v in values if len(v) != len(gsm)]
        if bad and key in ("!Sample_characteristics_ch1", "!Sample_title"):
            raise DatasetError(f"{path}: a {key} line has {len(bad[0])} values for {len(gsm)} samples")
    if field is not None:
        labels = _field_labels(path, header, str(field), gsm)
    else:
        labels = _title_labels(path, header, str(pattern), gsm)
    return X, np.array(labels, dtype=str), probes, gsm
