"""Users' data as the field holds it (issue 32): R data frames and matrices of any numeric type, GEO
series matrices, comma-decimal spreadsheets, empty label cells, labels YAML would turn into booleans.

R files are written by the ``rdata`` package (R's XDR serialization, gzip-compressed, as ``save()``
and ``saveRDS()`` write them); a matrix with dimnames, which ``rdata`` cannot build from Python
objects, through a constructor of its own (:func:`_r_matrix`). Everything is generated in tmp_path.
"""

import gzip
import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from svmfs.config import check_config_files, load_config, load_dataset_registry
from svmfs.data.canonical import DatasetError, load_dataset
from svmfs.data.registry import load_registry, prepare_dataset
from svmfs.yamlio import load_yaml_text

rdata = pytest.importorskip("rdata")
from rdata.conversion.to_r import R_FLOAT_NA  # noqa: E402  (R's NA_real_, a NaN with R's payload)

N = 12
GENES = ["g1", "g2", "g3", "g4"]
CLASSES = ["tumor", "normal"] * (N // 2)
RNG = np.random.default_rng(32)
COUNTS = RNG.integers(0, 500, size=(N, 2)).astype(np.int32)  # R integer columns
LEVELS = RNG.normal(size=(N, 2)).round(4)  # R double columns
COUNTS[:, 0] += np.where(np.array(CLASSES) == "tumor", 400, 0).astype(np.int32)  # g1 separates the classes
X = np.column_stack([COUNTS, LEVELS])
PATIENTS = [f"p{i + 1}" for i in range(N)]


def _sha(path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _text(values) -> pd.arrays.StringArray:
    """An R character column (rdata writes pandas' python-backed strings)."""
    return pd.array(values, dtype=pd.StringDtype("python"))


def _frame(na_at=None, na_column="g1") -> pd.DataFrame:
    """An R data.frame: integer (nullable Int32, as rdata reads R integers) and double columns, R's automatic row names."""
    ints = {g: pd.array(COUNTS[:, j], dtype="Int32") for j, g in enumerate(GENES[:2])}
    df = pd.DataFrame({**ints, **{g: LEVELS[:, j] for j, g in enumerate(GENES[2:])}}, index=pd.RangeIndex(1, N + 1))
    if na_at is not None:
        df.loc[na_at + 1, na_column] = pd.NA if na_column in ints else np.nan
    return df


def write_r_list(path, na_at=None, na_column="g1", y=None):
    """save(study, file=path) with study = list(x = <data.frame>, y = <factor>), as datamicroarray's sets."""
    y = pd.Categorical(CLASSES) if y is None else y
    rdata.write_rda(path, {"study": {"x": _frame(na_at, na_column), "y": y}})


def write_r_frame(path, na_at=None):
    """saveRDS(df, path): a patient id column, genes (integer, double, logical), the class as text; row names p1..pN."""
    df = _frame(na_at, "g3").assign(
        g5=pd.array(np.arange(N) % 3 == 0, dtype="boolean"),
        patient=_text(PATIENTS),
        diagnosis=_text(["tumour" if c == "tumor" else "normal" for c in CLASSES]),
    )
    df.index = pd.Index(np.array(PATIENTS, dtype=object), dtype=object)
    rdata.write_rds(path, df)


class _RMatrix:
    """An R matrix with dimnames (rownames, colnames) to write."""

    def __init__(self, values, rows, cols):
        self.values, self.rows, self.cols = values, rows, cols


def _r_matrix(m: _RMatrix, converter):
    from rdata.conversion.to_r import build_r_object
    from rdata.parser import RObjectType

    kind = {"b": RObjectType.LGL, "i": RObjectType.INT, "f": RObjectType.REAL}[m.values.dtype.kind]
    attrs = converter.convert_to_r_attributes(
        {"dim": np.array(m.values.shape, dtype=np.int32), "dimnames": [np.array(m.rows), np.array(m.cols)]}
    )
    return build_r_object(kind, value=np.ravel(m.values, order="F"), attributes=attrs)  # R is column-major


def write_r_matrix(path, values, rows, cols, y):
    from rdata.conversion.to_r import DEFAULT_CLASS_MAP

    rdata.write_rda(path, {"study": {"x": _RMatrix(values, rows, cols), "y": y}}, constructor_dict={**DEFAULT_CLASS_MAP, _RMatrix: _r_matrix})


GSM = [f"GSM90{i:02d}" for i in range(N)]
PROBES = [f"{200 + j}_at" for j in range(5)]
GEO_VALUES = np.round(RNG.normal(8, 1, size=(len(PROBES), N)) + np.outer([2, 0, 0, 0, 0], np.array(CLASSES) == "tumor"), 3)


def series_matrix(characteristics=None, titles=None, cells=None, accessions=None) -> str:
    """A GEO series matrix: header lines (values quoted, tab-separated), then the probe x sample table."""

    def q(values):
        return "\t".join(f'"{v}"' for v in values)

    if characteristics is None:  # sample 0 has its tissue on the second line, its age on the first
        first = ["age: 61"] + [f"tissue: {c}" for c in CLASSES[1:]]
        second = [f"tissue: {CLASSES[0]}"] + ["age: 50"] * (N - 1)
        characteristics = [first, second]
    titles = titles or [f"{c} biopsy {i}" for i, c in enumerate(CLASSES)]
    cells = GEO_VALUES.astype(str) if cells is None else cells
    lines = ['!Series_title\t"A stand-in study"', '!Series_geo_accession\t"GSE00000"', "",
             f"!Sample_title\t{q(titles)}", f"!Sample_geo_accession\t{q(accessions or GSM)}"]  # fmt: skip
    lines += [f"!Sample_characteristics_ch1\t{q(c)}" for c in characteristics]
    lines += ["!series_matrix_table_begin", q(["ID_REF", *GSM])]
    lines += [f'"{p}"\t' + "\t".join(row) for p, row in zip(PROBES, cells)]
    return "\n".join([*lines, "!series_matrix_table_end", ""])


def write_geo(path, **kw):
    text = series_matrix(**kw).encode()
    Path(path).write_bytes(gzip.compress(text, mtime=0) if str(path).endswith(".gz") else text)


def sheet_csv(labels=None) -> str:
    """A spreadsheet saved as CSV in a comma-decimal locale: ';' between fields, '0,1257' in the cells."""
    labels = labels or ["yes" if c == "tumor" else "no" for c in CLASSES]
    rows = [";".join([*GENES, "relapse"])]
    rows += [";".join([*(f"{v:.4f}".replace(".", ",") for v in x), lab]) for x, lab in zip(X, labels)]
    return "\n".join(rows) + "\n"


def _prepare(tmp_path, write_config, root, entry, name="study"):
    cfg = {"campaign": "field", "registry_entries": {name: entry}, "datasets": {name: {}},
           "splits": {"kind": "stratified_kfold", "n_splits": 3}, "inner_cv": {"n_splits": 2},
           "methods": {"fisher": {"grid": {"n_features_to_select": [1, 2]}}}}  # fmt: skip
    cfg = load_config(write_config(cfg), workdir=root)
    out = tmp_path / "out"
    return prepare_dataset(name, load_dataset_registry(cfg, root)[name], out / f"{name}.npz", out / f"{name}.json")


def _local(path, fmt, read, labels) -> dict:
    return {"kind": "local", "path": str(path), "sha256": _sha(path), "format": fmt, "read": read, "labels": labels}


TUMOR = {"positive": ["tumor"], "negative": ["normal"]}
Y = [1 if c == "tumor" else -1 for c in CLASSES]


# --- R data -------------------------------------------------------------------------------------


def test_r_list_with_an_integer_and_double_data_frame_keeps_the_gene_names(tmp_path, write_config, root):
    """The issue's refusal: R integer columns arrive as pandas Int32; the data frame's names are the features."""
    write_r_list(tmp_path / "study.RData")
    ds = _prepare(tmp_path, write_config, root, _local(tmp_path / "study.RData", "rdata", {"object": "study"}, TUMOR))
    np.testing.assert_array_equal(ds.X, X)
    assert ds.feature_names == GENES and ds.y.tolist() == Y
    assert ds.sample_ids == [f"s{i}" for i in range(N)]  # R's automatic row names 1..N are not ids


def test_r_data_frame_with_a_label_column_row_names_logical_columns_and_drop_columns(tmp_path, write_config, root):
    write_r_frame(tmp_path / "frame.rds")
    read = {"label_column": "diagnosis", "drop_columns": ["patient"]}
    ds = _prepare(tmp_path, write_config, root, _local(tmp_path / "frame.rds", "rdata", read, {"positive": ["tumour"]}))
    np.testing.assert_array_equal(ds.X, np.column_stack([X, np.arange(N) % 3 == 0]))  # logical as 0/1
    assert ds.feature_names == [*GENES, "g5"] and ds.sample_ids == PATIENTS and ds.y.tolist() == Y


def test_r_matrix_dimnames_give_feature_names_and_sample_ids_also_transposed(tmp_path, write_config, root):
    write_r_matrix(tmp_path / "m.RData", COUNTS.copy(), PATIENTS, GENES[:2], np.array(CLASSES) == "tumor")
    labels = {"positive": ["TRUE"]}  # an R logical y: labels as R prints them
    ds = _prepare(tmp_path, write_config, root, _local(tmp_path / "m.RData", "rdata", {}, labels))
    np.testing.assert_array_equal(ds.X, COUNTS)
    assert ds.feature_names == GENES[:2] and ds.sample_ids == PATIENTS and ds.y.tolist() == Y
    # genes in rows (rownames = genes, colnames = samples), y an R integer vector
    write_r_matrix(tmp_path / "t.RData", X.T.copy(), GENES, PATIENTS, np.array(Y, dtype=np.int32))
    ds = _prepare(tmp_path, write_config, root, _local(tmp_path / "t.RData", "rdata", {"transpose": True}, {"positive": ["1"]}))
    np.testing.assert_array_equal(ds.X, X)
    assert ds.feature_names == GENES and ds.sample_ids == PATIENTS and ds.y.tolist() == Y


R_NA = [
    ("list-integer-column", lambda p: write_r_list(p, na_at=2, na_column="g1"), {"object": "study"},
     "missing value (NA) at row 3, column 'g1'"),
    ("list-double-column", lambda p: write_r_list(p, na_at=4, na_column="g4"), {}, "missing value (NA) at row 5, column 'g4'"),
    ("frame-row-names", lambda p: write_r_frame(p, na_at=1), {"label_column": "diagnosis", "drop_columns": ["patient"]},
     "missing value (NA) at row 2 ('p2'), column 'g3'"),
    ("matrix", lambda p: write_r_matrix(p, np.where(np.arange(2 * N).reshape(N, 2) == 7, R_FLOAT_NA, X[:, :2]), PATIENTS, GENES[:2],
                                        np.array(CLASSES)), {}, "missing value (NA) at row 4 ('p4'), column 'g2' of element 'x'"),
    ("label-character", lambda p: write_r_list(p, y=np.array([None if i == 1 else c for i, c in enumerate(CLASSES)], dtype=object)),
     {}, "missing label (NA) at row 2 of element 'y'"),
]  # fmt: skip


@pytest.mark.parametrize("case", R_NA, ids=[c[0] for c in R_NA])
def test_an_r_na_is_refused_naming_row_and_column(case, tmp_path, write_config, root):
    _, write, read, fragment = case
    path = tmp_path / ("study.rds" if "frame" in case[0] else "study.RData")
    write(path)
    labels = {"positive": ["tumour"]} if "frame" in case[0] else TUMOR
    with pytest.raises(DatasetError) as e:
        _prepare(tmp_path, write_config, root, _local(path, "rdata", read, labels))
    assert f"{path}: {fragment}" in str(e.value), str(e.value)


def test_parquet_nullable_integer_columns_and_a_missing_value(tmp_path, write_config, root):
    """The same column types in Parquet (pandas' nullable Int32/boolean): read, and a null named by row and column."""
    df = _frame().assign(diagnosis=CLASSES)
    df.index = pd.RangeIndex(N)
    df.to_parquet(tmp_path / "a.parquet")
    ds = _prepare(tmp_path, write_config, root, _local(tmp_path / "a.parquet", "parquet", {"label_column": "diagnosis"}, TUMOR))
    np.testing.assert_array_equal(ds.X, X)
    df.loc[3, "g2"] = pd.NA
    df.to_parquet(tmp_path / "b.parquet")
    with pytest.raises(DatasetError, match=re.escape(f"{tmp_path / 'b.parquet'}: missing value (NA) at row 4, column 'g2'")):
        _prepare(tmp_path, write_config, root, _local(tmp_path / "b.parquet", "parquet", {"label_column": "diagnosis"}, TUMOR))


# --- GEO series matrix --------------------------------------------------------------------------


def test_geo_series_matrix_label_from_a_characteristics_field_on_several_lines(tmp_path, write_config, root):
    write_geo(tmp_path / "GSE00000_series_matrix.txt.gz")
    entry = _local(tmp_path / "GSE00000_series_matrix.txt.gz", "geo_series_matrix", {"label_field": "tissue"}, TUMOR)
    ds = _prepare(tmp_path, write_config, root, entry)
    np.testing.assert_array_equal(ds.X, GEO_VALUES.T)
    assert ds.sample_ids == GSM and ds.feature_names == PROBES and ds.y.tolist() == Y


def test_geo_series_matrix_label_from_the_title_by_a_pattern(tmp_path, write_config, root):
    write_geo(tmp_path / "s.txt", characteristics=[])
    ds = _prepare(tmp_path, write_config, root, _local(tmp_path / "s.txt", "geo_series_matrix", {"title_pattern": r"^(\w+) biopsy"}, TUMOR))
    assert ds.y.tolist() == Y and ds.sample_ids == GSM


def _null_cell():
    cells = GEO_VALUES.astype(str)
    cells[3, 5] = "null"
    return cells


GEO_BAD = [
    ("no-field", {}, {"label_field": "disease"}, "no field 'disease' (read.label_field) in the !Sample_characteristics_ch1 lines; fields: ['age', 'tissue']"),
    ("sample-without-field", {"characteristics": [[f"tissue: {c}" for c in CLASSES[:-1]] + ["age: 3"]]}, {"label_field": "tissue"},
     f"sample {GSM[-1]} has no field 'tissue' in !Sample_characteristics_ch1"),
    ("title-mismatch", {"titles": [*(f"{c} biopsy" for c in CLASSES[:-1]), "control"]}, {"title_pattern": r"^(\w+) biopsy"},
     f"the title 'control' of sample {GSM[-1]} does not match read.title_pattern"),
    ("null-cell", {"cells": _null_cell()}, {"label_field": "tissue"}, f"missing value 'null' for probe {PROBES[3]!r}, sample {GSM[5]}"),
    ("neither", {}, {}, "give one of read.label_field (a !Sample_characteristics_ch1 field) or read.title_pattern"),
    ("accessions-differ", {"accessions": [*GSM[:-1], "GSM1"]}, {"label_field": "tissue"},
     f"the table's samples {GSM[:5]} differ from !Sample_geo_accession"),
]  # fmt: skip


@pytest.mark.parametrize("case", GEO_BAD, ids=[c[0] for c in GEO_BAD])
def test_geo_series_matrix_errors_name_the_file_and_the_sample(case, tmp_path, write_config, root):
    _, kw, read, fragment = case
    path = tmp_path / "GSE00000_series_matrix.txt.gz"
    write_geo(path, **kw)
    with pytest.raises(DatasetError) as e:
        _prepare(tmp_path, write_config, root, _local(path, "geo_series_matrix", read, TUMOR))
    assert f"{path}: {fragment}" in str(e.value), str(e.value)


# --- comma decimals, empty labels ---------------------------------------------------------------


def test_comma_decimal_csv(tmp_path, write_config, root):
    (tmp_path / "sheet.csv").write_text(sheet_csv())
    read = {"sep": ";", "decimal": ",", "label_column": "relapse"}
    ds = _prepare(tmp_path, write_config, root, _local(tmp_path / "sheet.csv", "csv", read, {"positive": ["yes"]}))
    np.testing.assert_array_equal(ds.X, X)
    assert ds.feature_names == GENES and ds.y.tolist() == Y


def _dot_in_row_1() -> str:
    """The comma-decimal sheet with its first row's g3 cell written with a '.'."""
    lines = sheet_csv().splitlines()
    cells = lines[1].split(";")
    cells[2] = cells[2].replace(",", ".")
    return "\n".join([lines[0], ";".join(cells), *lines[2:]]) + "\n"


@pytest.mark.parametrize("read, text, fragment", [
    ({"sep": ";", "decimal": ","}, _dot_in_row_1, "non-numeric value '{v}' at row 1, column 'g3' (read.decimal is ',')"),
    ({"decimal": ","}, sheet_csv, "read.decimal ',' is also the separator; set read.sep (e.g. ';')"),
    ({"sep": ";", "decimal": "·"}, sheet_csv, "read.decimal must be '.' or ',', got '·'"),
], ids=["dot-in-a-comma-file", "comma-separator", "unknown-mark"])  # fmt: skip
def test_comma_decimal_errors(read, text, fragment, tmp_path, write_config, root):
    content = text()
    (tmp_path / "sheet.csv").write_text(content)
    entry = _local(tmp_path / "sheet.csv", "csv", {**read, "label_column": "relapse"}, {"positive": ["yes"]})
    with pytest.raises(DatasetError) as e:
        _prepare(tmp_path, write_config, root, entry)
    first = content.splitlines()[1].split(";")[2]
    assert f"{tmp_path / 'sheet.csv'}: {fragment.format(v=first)}" in str(e.value), str(e.value)


def test_an_empty_label_cell_is_named_by_row_not_a_third_label(tmp_path, write_config, root):
    labels = list(CLASSES)
    labels[5] = ""
    (tmp_path / "sheet.csv").write_text("g1,g2,label\n" + "".join(f"{x[0]},{x[2]},{lab}\n" for x, lab in zip(X, labels)))
    entry = _local(tmp_path / "sheet.csv", "csv", {"label_column": "label"}, {"positive": ["tumor"]})
    with pytest.raises(DatasetError, match=re.escape(f"dataset 'study': empty label at row 6 (file {tmp_path / 'sheet.csv'})")):
        _prepare(tmp_path, write_config, root, entry)


# --- labels are strings, as typed ---------------------------------------------------------------

WORDS = ["yes", "no", "on", "off", "true", "1"]


def _word_csv(path, word):
    path.write_text("g1,g2,label\n" + "".join(f"{x[0]},{x[2]},{word if y == 1 else 'other'}\n" for x, y in zip(X, Y)))


@pytest.mark.parametrize("word", WORDS)
def test_a_label_yaml_would_make_a_boolean_is_the_string_typed_in_a_campaign_file(word, tmp_path, root):
    _word_csv(tmp_path / "w.csv", word)
    text = f"""\
campaign: words
registry_entries:
  w:
    kind: local
    path: {tmp_path / 'w.csv'}
    sha256: {_sha(tmp_path / 'w.csv')}
    format: csv
    read: {{label_column: label}}
    labels: {{positive: [{word}], negative: [other]}}
datasets: {{w: {{}}}}
splits: {{kind: stratified_kfold, n_splits: 3}}
inner_cv: {{n_splits: 2}}
methods: {{fisher: {{grid: {{n_features_to_select: [1]}}}}}}
"""
    (tmp_path / "c.yaml").write_text(text)
    cfg = load_config(tmp_path / "c.yaml", workdir=root)
    entry = load_dataset_registry(cfg, root)["w"]
    assert entry["labels"] == {"positive": [word], "negative": ["other"]}
    ds = prepare_dataset("w", entry, tmp_path / "w.npz", tmp_path / "w.json")
    assert ds.y.tolist() == Y and ds.meta["source"]["labels"]["positive"] == [word]
    # Snakemake reads the campaign by YAML 1.1 (booleans); the strict re-read restores the text typed
    snakemake_view = yaml.safe_load(text)
    check_config_files([tmp_path / "c.yaml"], snakemake_view)
    assert snakemake_view["registry_entries"]["w"]["labels"]["positive"] == [word]


@pytest.mark.parametrize("word", WORDS)
def test_a_label_yaml_would_make_a_boolean_is_the_string_typed_in_a_registry_file(word, tmp_path):
    (tmp_path / "reg.yaml").write_text(
        f"datasets:\n  w:\n    kind: local\n    path: w.csv\n    sha256: {'0' * 64}\n    format: csv\n"
        f"    labels:\n      positive:\n        - {word}\n      negative: {word}\n"
    )
    assert load_registry(tmp_path / "reg.yaml")["w"]["labels"] == {"positive": [word], "negative": word}


def test_only_label_values_are_read_as_typed():
    data = load_yaml_text("a: yes\nlabels: {positive: [on, 'x', +1, 1.0], negative: [~], other: [no]}\nread: {header: false}\n")
    assert data == {"a": True, "labels": {"positive": ["on", "x", "+1", "1.0"], "negative": ["~"], "other": [False]},
                    "read": {"header": False}}  # fmt: skip


# --- docs/own-data.md's examples, verbatim ------------------------------------------------------

DOC_BLOCKS = ("# r_study.yaml", "# geo_study.yaml", "# sheet_study.yaml")
WRITERS = {
    "r_list_study.RData": write_r_list,
    "r_frame_study.rds": write_r_frame,
    "GSE00000_series_matrix.txt.gz": write_geo,
    "sheet_study.csv": lambda p: p.write_text(sheet_csv()),
}


def doc_block(root, head: str) -> str:
    text = (root / "docs" / "own-data.md").read_text()
    block = text[text.index(head):]
    return block[: block.index("```")]


def with_data(block: str, folder: Path) -> str:
    """The block with each file it names written into ``folder`` and its sha256 pasted in."""
    for name in re.findall(r"<output of sha256sum (\S+)>", block):
        WRITERS[name](folder / name)
        block = block.replace(f"<output of sha256sum {name}>", _sha(folder / name))
    return block


FIELD_CAMPAIGN = """\
splits: {kind: stratified_kfold, n_splits: 3}
inner_cv: {n_splits: 2}
final_classifier: {linear: {C: [1.0]}}
methods:
  fisher: {grid: {n_features_to_select: [1, 2]}}
"""
EXPECTED = {  # dataset -> (feature names, sample ids or None for s0..)
    "r_list_study": (GENES, None),
    "r_frame_study": ([*GENES, "g5"], PATIENTS),
    "geo_study": (PROBES, GSM),
    "sheet_study": (GENES, None),
}


@pytest.mark.parametrize("head", DOC_BLOCKS)
def test_own_data_doc_example_prepares_as_written(head, tmp_path, root, monkeypatch):
    """Each new block of docs/own-data.md, as written, through the config loader and prepare."""
    monkeypatch.chdir(tmp_path)
    block = with_data(doc_block(root, head), tmp_path)
    names = list(load_yaml_text(block)["registry_entries"])
    datasets = "datasets: {" + ", ".join(f"{n}: {{}}" for n in names) + "}\n"
    (tmp_path / "c.yaml").write_text(f"campaign: doc\n{block}{datasets}{FIELD_CAMPAIGN}")
    cfg = load_config(tmp_path / "c.yaml", workdir=root)
    registry = load_dataset_registry(cfg, root)
    for name in names:
        ds = prepare_dataset(name, registry[name], tmp_path / f"{name}.npz", tmp_path / f"{name}.json")
        features, ids = EXPECTED[name]
        assert ds.feature_names == features and ds.sample_ids == (ids or [f"s{i}" for i in range(N)])
        assert ds.y.tolist() == Y, name


@pytest.mark.workflow
@pytest.mark.e2e
def test_a_campaign_of_r_geo_and_comma_decimal_data_runs_end_to_end(tmp_path, root):
    """The issue's "done when": one campaign file with local entries for an R list with a data frame
    (integer and double columns), an R data frame with a label column, a GEO series matrix and a
    comma-decimal CSV (labels yes/no), the entries exactly as docs/own-data.md writes them; Snakemake
    prepares each and runs one select job each, whose record names the selected genes/probes."""
    entries = []
    for head in DOC_BLOCKS:
        lines = with_data(doc_block(root, head), tmp_path).splitlines()
        entries += lines[lines.index("registry_entries:") + 1 :]
    datasets = "datasets: {" + ", ".join(f"{n}: {{}}" for n in EXPECTED) + "}\n"
    campaign = "campaign: field\nregistry_entries:\n" + "\n".join(entries) + "\n" + datasets + FIELD_CAMPAIGN
    (tmp_path / "field.yaml").write_text(campaign)
    targets = [f"results/field/runs/{d}/fisher/default/fold-0.json" for d in EXPECTED]
    cmd = [sys.executable, "-m", "snakemake", "-s", str(root / "Snakefile"), "--cores", "1",
           "--workflow-profile", str(root / "workflow" / "profiles" / "default"),
           "--configfile", "field.yaml", "--replace-workflow-config", *targets]  # fmt: skip
    run = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, env={**os.environ, "SVMFS_MIRROR": ""}, timeout=900)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    for name, (features, ids) in EXPECTED.items():
        ds = load_dataset(tmp_path / f"results/field/datasets/{name}.npz")
        assert ds.X.shape == (N, len(features)) and ds.feature_names == features, name
        assert ds.sample_ids == (ids or [f"s{i}" for i in range(N)]) and ds.y.tolist() == Y, name
        record = json.loads((tmp_path / f"results/field/runs/{name}/fisher/default/fold-0.json").read_text())
        assert record["selected_names"] and set(record["selected_names"]) <= set(features), (name, record["selected_names"])
