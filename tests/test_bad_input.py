"""Bad input, in one place, counted.

Every case is rejected with a message that names the file and the key or row at fault, and leaves
nothing behind. ``TRIED`` counts the cases actually run by category; the session summary prints it
(conftest.py) and ``test_counts_meet_the_issue`` holds the minimums (15 configs, 10 datasets).
What is validated is listed in docs/configuration.md ("What is validated").
"""

import bz2
import gzip
import hashlib
import io
from collections import Counter

import numpy as np
import pytest

from conftest import merge_config, serve_directory, url_of
from svmfs.config import ConfigError, load_config
from svmfs.data.canonical import DatasetError, load_dataset
from svmfs.data.download import ChecksumError, fetch_dataset, safe_relative, source_url
from svmfs.data.registry import load_registry, prepare_dataset

TRIED: Counter = Counter()

# ------------------------------------------------------------------ configs (schema + semantic checks)

BASE = {
    "campaign": "t",
    "datasets": {"sparse_polynomial": {"params": {"n": 60}}},
    "splits": {"kind": "stratified_kfold", "n_splits": 3},
    "methods": {"fisher": {"grid": {"n_features_to_select": [1, 3]}}},
}

BAD_CONFIGS = [
    # (change to BASE, fragment of the expected message)
    ({"seed": "abc"}, "seed: 'abc' is not of type 'integer'"),
    ({"unknown_key": 1}, "Additional properties are not allowed ('unknown_key'"),
    ({"campaign": "../escape"}, "campaign: '../escape' does not match"),
    ({"campaign": "/abs/path"}, "campaign: '/abs/path' does not match"),
    ({"campaign": ""}, "campaign: '' does not match"),
    ({"campaign": "x" * 65}, "does not match"),
    ({"datasets": {}}, "datasets: {} should be non-empty"),
    ({"datasets": {"../x": {}}}, "datasets: '../x' does not match"),
    ({"datasets": {"/etc": {}}}, "datasets: '/etc' does not match"),
    ({"datasets": {"nope": {}}}, "datasets.nope: unknown dataset 'nope'"),
    ({"methods": {"nope": {}}}, "methods.nope: unknown method 'nope'"),
    ({"methods": {"fs_svmcp": {"params": {"lp_solver": "cplex"}}}}, "methods.fs_svmcp.params.lp_solver: The 'lp_solver' parameter of FSSVMCP must be a str among"),
    ({"methods": {"svm_linear": {"method": "liblinear_svm", "final": "own", "params": {"C_ties": "middle"}}}}, "methods.svm_linear.params.C_ties: The 'C_ties' parameter of LinearSVMAllFeatures must be a str among"),
    ({"methods": {"l1_svm": {"params": {"refit_selected": "yes"}}}}, "methods.l1_svm.params.refit_selected: The 'refit_selected' parameter of L1SVM must be an instance of 'bool'"),
    ({"methods": {"../fisher": {}}}, "methods: '../fisher' does not match"),
    ({"methods": {"fisher": {"grid": {"n_features_to_select": []}}}}, "methods.fisher.grid.n_features_to_select: [] should be non-empty"),
    ({"methods": {"fisher": {"grid": {"n_features_to_select": [0]}}}}, "methods.fisher.grid.n_features_to_select: The 'n_features_to_select' parameter of FisherScore must be an int in the range [1, inf) or None. Got 0 instead."),
    ({"methods": {"svm_rfe": {"grid": {"C": [1.0, -2.0]}}}}, "methods.svm_rfe.grid.C: The 'C' parameter of SVMRFE must be a float in the range (0.0, inf). Got -2.0 instead."),
    ({"methods": {"milp_fs": {"params": {"node_limit": 2.5}}}}, "methods.milp_fs.params.node_limit: The 'node_limit' parameter of MILPFS must be an int in the range [1, inf) or None. Got 2.5 instead."),
    ({"methods": {"fisher": {"grid": {"k": [1]}}}}, "methods.fisher.grid.k: not a parameter of fisher"),
    ({"final_classifier": {"linear": {"C": [0]}}}, "final_classifier.linear.C.0: 0 is less than or equal to the minimum of 0"),
    ({"splits": {"kind": "stratified_kfold", "n_splits": 50}}, "splits.n_splits = 50 exceeds the smallest class of dataset 'sparse_polynomial'"),
    ({"splits": {"kind": "stratified_kfold", "n_splits": "ten"}}, "splits.n_splits: 'ten' is not of type 'integer'"),
    ({"splits": {"kind": "stratified_kfold", "n_splits": 3, "train_size": 20}}, "splits.train_size: not used by splits.kind 'stratified_kfold'"),
    ({"splits": {"kind": "random_train_test"}}, "splits.train_size: required by splits.kind 'random_train_test'"),
    ({"splits": {"kind": "loo"}}, "splits.kind: 'loo' is not one of"),
    ({"normalization": {"method": "l2"}}, "normalization.method: 'l2' is not one of"),
    ({"inner_cv": {"n_splits": 1}}, "inner_cv.n_splits: 1 is less than the minimum of 2"),
    ({"inner_cv": {"initial_solution_ties": "median"}}, "inner_cv.initial_solution_ties: 'median' is not one of ['smallest', 'largest']"),
    ({"inner_cv": {"initial_solution_libsvm_tol": 0}}, "inner_cv.initial_solution_libsvm_tol: 0 is less than or equal to the minimum of 0"),
    ({"final_classifier": {"libsvm_tol": "tight"}}, "final_classifier.libsvm_tol: 'tight' is not of type 'number'"),
    ({"statistics": {"alpha": 0.7}}, "statistics.alpha: 0.7 is greater than or equal to the maximum of 0.5"),
    ({"methods": {"svm_rfe": {"grid": {"C": [1.0]}, "settings": {"C": [2.0]}}}}, "'C' is both in grid and settings"),
    ({"methods": {"fisher": {}, "svm_rfe": {"match_size_of": "ghost"}}}, "methods.svm_rfe.match_size_of: 'ghost' is not a method"),
    ({"datasets": {"wdbc": {"replicates": 3}}}, "datasets.wdbc.replicates: only synthetic datasets can be replicated"),
    ({"mirror": "ftp://example.org/"}, "mirror: 'ftp://example.org/' does not match"),
    ({"datasets": {"sparse_polynomial": {"params": {"kind": "cubic"}}}}, "datasets.sparse_polynomial.params: kind must be 'f1', 'f2' or 'random'"),
    ({"datasets": {"sparse_polynomial": {"enabled": False}}}, "datasets: every dataset is disabled"),
    ({"methods": {"fisher": {"enabled": False}}}, "methods: every method is disabled"),
    ({"datasets": {"wdbc": {"splits": {"kind": "random_train_test"}}}}, "datasets.wdbc.splits.train_size: required by splits.kind 'random_train_test'"),
    ({"datasets": {"wdbc": {"splits": {"n_folds": 3}}}}, "Additional properties are not allowed ('n_folds'"),
    ({"datasets": {"wdbc": {"splits": {"kind": "random_train_test", "train_size": 100, "stratify": "no"}}}},
     "datasets.wdbc.splits.stratify: 'no' is not of type 'boolean'"),
    ({"datasets": {"wdbc": {"splits": {"kind": "random_train_test", "train_size": 100, "validation_size": 0.2}}}},
     "datasets.wdbc.splits.validation_size: 0.2 is not of type 'integer'"),
    ({"splits": {"kind": "kp_svm", "train_size": 40, "validation_size": 10}}, "splits.validation_size: only for splits.kind 'random_train_test'"),
    ({"splits": {"stratify": False}}, "splits.stratify: not used by splits.kind 'stratified_kfold' (contradictory options)"),
    ({"datasets": {"wdbc": {"method_params": {"milp_fs": {"B": 3}}}}}, "datasets.wdbc.method_params.milp_fs: 'milp_fs' is not a method of this campaign"),
    ({"datasets": {"wdbc": {"method_params": {"fisher": {"budget": 3}}}}}, "datasets.wdbc.method_params.fisher.budget: not a parameter of fisher"),
    ({"methods": {"fisher": {"enabled": False}, "svm_rfe": {"match_size_of": "fisher"}}}, "'fisher' is not a method of this campaign (or it is disabled)"),
    ({"datasets": {"wdbc": {"skip_methods": ["ghost"]}}}, "datasets.wdbc.skip_methods: 'ghost' is not a method of this campaign"),
    ({"datasets": {"wdbc": {"skip_methods": ["fisher", "fisher"]}}}, "datasets.wdbc.skip_methods: ['fisher', 'fisher'] has non-unique elements"),
    ({"methods": {"fisher": {}, "svm_rfe": {"match_size_of": "fisher"}}, "datasets": {"wdbc": {"skip_methods": ["fisher"]}}},
     "datasets.wdbc.skip_methods: skips 'fisher', which methods.svm_rfe.match_size_of needs"),
    ({"datasets": {"wdbc": {"skip_methods": ["fisher"]}}}, "datasets.wdbc.skip_methods: skips every enabled method"),
    ({"final_classifier": {"anisotropic": {"C": []}}}, "final_classifier.anisotropic.C: [] should be non-empty"),
    ({"final_classifier": {"poly": {"form": "inhomogeneous"}}}, "final_classifier.poly.form: 'inhomogeneous' is not one of"),
    ({"final_classifier": {"anisotropic": {"C": [-1]}}}, "final_classifier.anisotropic.C.0: -1 is less than or equal to the minimum of 0"),
    ({"methods": {"fisher": {"final": "own"}}}, "methods.fisher.final: 'own' needs a method that solves a linear SVM (weights and intercept); fisher does not"),
    ({"methods": {"l1_svm": {"final": "anisotropic"}}}, "methods.l1_svm.final: 'anisotropic' needs a method with kernel widths"),
    ({"methods": {"l1_svm": {"final": "refit"}}}, "methods.l1_svm.final: 'refit' is not one of"),
    ({"methods": {"l1_svm": {"final": "own"}}, "splits": {"kind": "kp_svm", "train_size": 40}},
     "methods.l1_svm.final: 'own' refits nothing, so splits.kind kp_svm (refit on test-side resamples) does not apply; datasets: sparse_polynomial"),
    ({"datasets": {"wdbc": {}}, "methods": {"mm_fs": {"params": {"route": "pyomo", "pyomo_max_size": 10000}}}},
     "methods.mm_fs.params.route: 'pyomo' on dataset 'wdbc': 380 training rows x 30 features = 11400 exceeds methods.mm_fs.params.pyomo_max_size = 10000"),
    # a campaign's own registry entries (docs/own-data.md)
    ({"registry_entries": {"wdbc": {"kind": "embedded", "loader": "sklearn_breast_cancer"}}}, "registry_entries.wdbc: the name is already declared in"),
    ({"registry_entries": {"mine": {"kind": "file"}}}, "registry_entries.mine.kind must be one of"),
    ({"registry_entries": {"mine": {"kind": "local", "path": "/nonexistent/m.csv", "sha256": "f00", "format": "csv", "labels": {"positive": ["1"]}}}},
     "registry_entries.mine.sha256: 64 lowercase hex digits are required"),
    ({"registry_entries": {"mine": {"kind": "local", "path": "/nonexistent/m.csv", "sha256": "0" * 64, "format": "csv", "labels": {"positive": ["1"]}}},
      "datasets": {"mine": {}}}, "datasets.mine: local file /nonexistent/m.csv of 'mine' (declared in registry_entries) not found"),
    ({"registry": ["/nonexistent/registry.yaml"]}, "registry[0]: no registry file /nonexistent/registry.yaml"),
    ({"registry_entries": {"mine": {"kind": "local", "path": "/nonexistent/m.csv", "sha256": "0" * 64, "format": "csv", "labels": {"positive": ["1"]}}},
      "datasets": {"mine": {"replicates": 2}}}, "datasets.mine.replicates: only synthetic datasets can be replicated ('mine' is local)"),
    ({"registry_entries": {"../up": {"kind": "embedded"}}}, "registry_entries: '../up' does not match"),
]  # fmt: skip


@pytest.mark.parametrize("change,fragment", BAD_CONFIGS, ids=[f"config{i}" for i in range(len(BAD_CONFIGS))])
def test_bad_config_rejected_naming_file_and_key(change, fragment, write_config, root, tmp_path):
    path = write_config(merge_config(BASE, change))
    with pytest.raises(ConfigError) as e:
        load_config(path, workdir=root)
    assert fragment in str(e.value) and str(path) in str(e.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]  # nothing written next to it
    TRIED["config"] += 1


@pytest.mark.parametrize(
    "text,fragment",
    [
        ("campaign: !!python/object/apply:os.system ['echo hacked']\n", "not valid YAML"),
        ("campaign: [unclosed\n", "not valid YAML"),
        ("- just\n- a list\n", "must be a mapping"),
    ],
    ids=["python-tag", "syntax", "not-a-mapping"],
)
def test_unsafe_or_malformed_yaml_is_refused(text, fragment, tmp_path, root):
    p = tmp_path / "c.yaml"
    p.write_text(text)
    with pytest.raises(ConfigError, match=fragment) as e:
        load_config(p, workdir=root)
    assert str(p) in str(e.value)
    TRIED["yaml"] += 1


def test_registry_yaml_is_loaded_safely(tmp_path):
    p = tmp_path / "registry.yaml"
    p.write_text("datasets:\n  x: !!python/object/apply:os.system ['echo hacked']\n")
    with pytest.raises(Exception, match="python/object/apply"):  # the unsafe loader would run os.system
        load_registry(p)
    TRIED["yaml"] += 1


def test_arrays_are_never_unpickled(tmp_path):
    arrays = {"X": np.array([[object()]], dtype=object), "y": np.array([1]), "feature_names": np.array(["a"]),
              "sample_ids": np.array(["s"]), "relevant": np.array([], dtype=np.int64), "has_relevant": np.array(False)}  # fmt: skip
    np.savez(tmp_path / "d.npz", **arrays)
    with pytest.raises(DatasetError, match=r"d\.npz: Object arrays cannot be loaded when allow_pickle=False"):
        load_dataset(tmp_path / "d.npz")
    np.savez(tmp_path / "e.npz", X=np.zeros((2, 2)))
    with pytest.raises(DatasetError, match=r"e\.npz: not a canonical dataset file, missing arrays \['feature_names'"):
        load_dataset(tmp_path / "e.npz")
    TRIED["arrays"] += 2


# ------------------------------------------------------------------ names and sources


@pytest.mark.parametrize("path", ["../etc/passwd", "/etc/passwd", "", "x/../../y", "a/" * 200 + "../../../../../.."])
def test_registry_paths_cannot_escape_the_data_folder(path):
    with pytest.raises(DatasetError, match="must be relative"):
        safe_relative("x", path)
    TRIED["names"] += 1


def test_sources_are_https_unless_a_mirror_is_configured():
    with pytest.raises(DatasetError, match="dataset 'x'.*is not https"):
        source_url("x", {"path": "x/a.csv", "url": "http://example.org/a.csv"}, None)
    assert source_url("x", {"path": "x/a.csv", "url": "http://example.org/a.csv"}, "http://127.0.0.1:1/") == "http://127.0.0.1:1/x/a.csv"
    with pytest.raises(DatasetError, match="only http"):
        source_url("x", {"path": "x/a"}, "ftp://127.0.0.1/")
    TRIED["sources"] += 2


def test_wrong_checksum_names_the_file_and_both_hashes_and_leaves_nothing(tmp_path):
    (tmp_path / "srv" / "bad").mkdir(parents=True)
    (tmp_path / "srv" / "bad" / "d.csv").write_bytes(b"1,2,1\n3,4,0\n")
    wrong = hashlib.sha256(b"what the registry expected").hexdigest()
    entry = {"kind": "download", "files": [{"path": "bad/d.csv", "url": "https://example.invalid/d.csv", "sha256": wrong}]}
    srv = serve_directory(tmp_path / "srv")
    try:
        with pytest.raises(ChecksumError) as e:
            fetch_dataset("bad", entry, tmp_path / "raw", mirror=url_of(srv))
    finally:
        srv.shutdown()
        srv.server_close()
    msg = str(e.value)
    assert "bad/d.csv" in msg and wrong in msg and hashlib.sha256(b"1,2,1\n3,4,0\n").hexdigest() in msg
    assert not (tmp_path / "raw").exists() or not [p for p in (tmp_path / "raw").rglob("*") if p.is_file()]
    TRIED["dataset"] += 1


# ------------------------------------------------------------------ dataset files (rule prepare)


def _npz(**arrays) -> bytes:
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    return buf.getvalue()


def _parquet() -> bytes:
    import pandas as pd

    buf = io.BytesIO()
    pd.DataFrame({"a": [1.0, 2.0], "label": ["1", "-1"]}).to_parquet(buf)
    return buf.getvalue()


def _gz_cut(b: bytes) -> bytes:
    return gzip.compress(b * 50)[:-20]


GOOD = b"1,2,1\n3,5,-1\n5,1,1\n7,8,-1\n"
HEADER = b"a,b,label\n"

BAD_DATASETS = [
    # (id, file name, bytes, format, read options, labels, fragments the message must contain)
    ("nan", "d.csv", b"1,2,1\n3,nan,-1\n5,6,1\n7,8,-1\n", "matrix", {}, {}, ["NaN first at row 1, column 1", "sample 's1'"]),
    ("inf", "d.csv", b"1,2,1\n3,4,-1\ninf,6,1\n7,8,-1\n", "matrix", {}, {}, ["inf first at row 2, column 0"]),
    ("one-class", "d.csv", b"1,2,1\n3,4,1\n5,6,1\n7,8,1\n", "matrix", {}, {}, ["needs exactly two classes, found 1"]),
    ("three-classes", "d.csv", b"1,2,1\n3,4,-1\n5,6,2\n7,8,-1\n", "matrix", {}, {}, ["3 distinct labels", "labels.negative"]),
    ("stray-label", "d.csv", b"1,2,1\n3,4,-1\n5,6,2\n7,8,-1\n", "matrix", {}, {"negative": ["-1"]}, ["label '2' at row 3"]),
    ("positive-absent", "d.csv", b"1,2,0\n3,4,-1\n5,6,0\n7,8,-1\n", "matrix", {}, {}, ["positive label(s) ['1'] not among"]),
    ("tiny-class", "d.csv", b"1,2,1\n3,4,-1\n5,6,-1\n7,8,-1\n", "matrix", {}, {}, ["a class has only 1 sample"]),
    ("all-constant", "d.csv", b"1,2,1\n1,2,-1\n1,2,1\n1,2,-1\n", "matrix", {}, {}, ["every one of the 2 columns is constant"]),
    ("duplicated-names", "d.csv", b"a,a,label\n1,2,1\n3,5,-1\n5,1,1\n7,8,-1\n", "csv", {}, {}, ["duplicated column name 'a'", "columns 1 and 2"]),
    ("ragged", "d.csv", b"1,2,1\n3,4\n5,6,1\n", "matrix", {}, {}, ["ragged rows: row 2 has 2 fields, row 1 has 3"]),
    ("empty", "d.csv", b"", "matrix", {}, {}, ["empty file"]),
    ("non-numeric", "d.csv", b"1,x,1\n3,4,-1\n", "matrix", {}, {}, ["non-numeric value 'x' at row 1, column 2"]),
    ("csv-non-numeric", "d.csv", HEADER + b"1,2,1\n3,?,-1\n5,1,1\n7,8,-1\n", "csv", {}, {}, ["non-numeric value '?' at row 2, column 'b'"]),
    ("csv-no-label", "d.csv", HEADER + GOOD, "csv", {"label_column": "class"}, {}, ["no label column 'class'"]),
    ("truncated-gz", "d.csv.gz", _gz_cut(GOOD), "matrix", {}, {}, ["corrupt or truncated compressed file"]),
    ("truncated-bz2", "d.csv.bz2", bz2.compress(GOOD * 50)[:-30], "matrix", {}, {}, ["corrupt or truncated compressed file"]),
    ("corrupt-Z", "d.csv.Z", b"\x1f\x9d\x90" + b"\xff" * 7, "matrix", {}, {}, ["corrupt or truncated compressed file"]),
    ("svmlight", "d.svm", b"1 1:0.5 3:2\n-1 2:x\n", "svmlight", {}, {}, ["not a valid svmlight file"]),
    ("arff", "d.arff", b"@relation t\n@attribute a numeric\n@data\n1,2,3\n", "arff", {"label_column": "label"}, {}, ["no label attribute 'label'"]),
    ("csv-ragged", "d.csv", HEADER + b"1,2,1\n3,5,-1\n5,1\n", "csv", {}, {}, ["ragged rows: row 3 has 2 fields, row 1 has 3"]),
    ("csv-ragged-long", "d.csv", b"1,2,1\n3,5,-1,7\n", "matrix", {}, {}, ["ragged rows: row 2 has 4 fields, row 1 has 3"]),
    ("whitespace-ragged", "d.txt", b"1 2 1\n3 5\n", "matrix", {"sep": None}, {}, ["ragged rows: row 2 has 2 fields, row 1 has 3"]),
    ("quoted-non-numeric", "d.csv", HEADER + b'"1","2","1"\n"3","n/a","-1"\n', "csv", {}, {}, ["non-numeric value 'n/a' at row 2, column 'b'"]),
    ("npz-no-array", "d.npz", _npz(X=np.ones((4, 2))), "npz", {}, {}, ["no array 'y' (read.y)"]),
    ("npz-pickled", "d.npz", _npz(X=np.array([[object()]], dtype=object), y=np.array([1])), "npz", {}, {}, ["not a readable .npz file", "allow_pickle=False"]),
    ("parquet-no-label", "d.parquet", _parquet(), "parquet", {"label_column": "class"}, {}, ["no label column 'class'"]),
    ("rdata-garbage", "d.RData", b"RDX3\nX\n" + b"\x00" * 20, "rdata", {}, {}, ["not a readable R data file"]),
    ("arff-syntax", "d.arff", b"@relation t\n@attribute a numeric\n@attribute label {0,1}\n@data\n1,2,3,4\n", "arff", {"label_column": "label"}, {}, ["not a readable ARFF file"]),
]  # fmt: skip


def _entry(fname, fmt, read, labels):
    rel = f"bad/{fname}"
    read = {"matrix": {"file": rel, "sep": ",", "label_column": -1}, "csv": {"files": [rel], "label_column": "label"},
            "svmlight": {"files": [rel]}, "arff": {"file": rel}, "npz": {"file": rel}, "parquet": {"file": rel, "label_column": "label"},
            "rdata": {"file": rel}}[fmt] | read  # fmt: skip
    return {"kind": "download", "files": [{"path": rel, "url": "https://example.invalid/x", "sha256": None}],
            "format": fmt, "read": read, "labels": {"positive": ["1"], **labels}}  # fmt: skip


@pytest.mark.parametrize("case", BAD_DATASETS, ids=[c[0] for c in BAD_DATASETS])
def test_bad_dataset_rejected_naming_file_and_row_leaving_nothing(case, tmp_path):
    _, fname, content, fmt, read, labels, fragments = case
    (tmp_path / "raw" / "bad").mkdir(parents=True)
    (tmp_path / "raw" / "bad" / fname).write_bytes(content)
    out = tmp_path / "out"
    out.mkdir()
    with pytest.raises(DatasetError) as e:
        prepare_dataset("bad", _entry(fname, fmt, read, labels), out / "bad.npz", out / "bad.json", raw_dir=tmp_path / "raw")
    msg = str(e.value)
    assert f"bad/{fname}" in msg, msg
    for f in fragments:
        assert f in msg, msg
    assert list(out.iterdir()) == []
    TRIED["dataset"] += 1


GOOD_VARIANTS = {
    "plain": GOOD,
    "byte-order-mark": b"\xef\xbb\xbf" + GOOD,  # Excel's "CSV UTF-8"
    "quoted-numbers": b'"1","2","1"\n"3","5","-1"\n"5","1","1"\n"7","8","-1"\n',  # standard CSV quoting
    "crlf-no-final-newline": GOOD.replace(b"\n", b"\r\n").rstrip(),
}


@pytest.mark.parametrize("variant", sorted(GOOD_VARIANTS))
def test_the_good_file_passes(variant, tmp_path):
    """The control: the same path accepts the well-formed file the cases above were made from, also
    with a UTF-8 byte-order mark, quoted numbers, or CRLF line ends."""
    (tmp_path / "raw" / "bad").mkdir(parents=True)
    (tmp_path / "raw" / "bad" / "d.csv").write_bytes(GOOD_VARIANTS[variant])
    ds = prepare_dataset("bad", _entry("d.csv", "matrix", {}, {}), tmp_path / "o.npz", tmp_path / "o.json", raw_dir=tmp_path / "raw")
    assert ds.X.tolist() == [[1, 2], [3, 5], [5, 1], [7, 8]] and ds.y.tolist() == [1, -1, 1, -1]
    assert load_dataset(tmp_path / "o.npz").X.shape == (4, 2)


def test_header_csv_with_byte_order_mark_and_quoted_numbers_passes(tmp_path):
    """The BOM must not stick to the first column's name; quoted numbers are numbers."""
    (tmp_path / "raw" / "bad").mkdir(parents=True)
    (tmp_path / "raw" / "bad" / "d.csv").write_bytes(b'\xef\xbb\xbf"a","b","label"\n"0.1257","2","1"\n"3","5","-1"\n"5","1","1"\n"7","8","-1"\n')
    ds = prepare_dataset("bad", _entry("d.csv", "csv", {}, {}), tmp_path / "o.npz", tmp_path / "o.json", raw_dir=tmp_path / "raw")
    assert ds.feature_names == ["a", "b"] and ds.X[0].tolist() == [0.1257, 2.0] and ds.y.tolist() == [1, -1, 1, -1]


def test_local_file_changed_since_pinned_names_both_hashes_and_leaves_nothing(tmp_path):
    from svmfs.data.local import resolve_local

    (tmp_path / "d.csv").write_bytes(GOOD)
    pinned = hashlib.sha256(b"the bytes the user pinned").hexdigest()
    entry = resolve_local("mine", {"kind": "local", "path": "d.csv", "sha256": pinned, "format": "matrix",
                                   "read": {"sep": ",", "label_column": -1}, "labels": {"positive": ["1"]}}, tmp_path, "registry_entries")  # fmt: skip
    out = tmp_path / "out"
    out.mkdir()
    with pytest.raises(ChecksumError) as e:
        prepare_dataset("mine", entry, out / "m.npz", out / "m.json")
    msg = str(e.value)
    assert str(tmp_path / "d.csv") in msg and pinned in msg and hashlib.sha256(GOOD).hexdigest() in msg
    assert list(out.iterdir()) == []
    TRIED["dataset"] += 1


def test_counts_meet_the_issue():
    assert len(BAD_CONFIGS) >= 15 and len(BAD_DATASETS) + 1 >= 10
