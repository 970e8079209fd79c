"""A user's own data (issue 21): campaign-declared registry entries, the `local` kind, every file format.

Files are generated in tmp_path; nothing is read from or written to the repository.
"""

import csv
import hashlib
import io
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from svmfs.config import ConfigError, load_config, load_dataset_registry
from svmfs.data.canonical import DatasetError, load_dataset
from svmfs.data.download import ChecksumError
from svmfs.data.registry import prepare_dataset

X = np.array([[0.1257, 2.0, -1.5], [0.5, 3.0, 0.25], [0.7, 1.0, 4.0], [0.2, 5.0, 1e-3], [0.9, 2.5, -2.0], [0.1, 4.0, 3.5]])
LABELS = ["tumour", "normal", "tumour", "normal", "tumour", "normal"]
Y = [1, -1, 1, -1, 1, -1]
NAMES = ["g1", "g2", "g3"]


def _sha(path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _csv_text(sep=",", header=True) -> str:
    rows = [sep.join([*NAMES, "diagnosis"])] if header else []
    rows += [sep.join([*(repr(float(v)) for v in x), lab]) for x, lab in zip(X, LABELS)]
    return "\n".join(rows) + "\n"


def _quoted_csv() -> str:
    """Every field quoted, numbers too ("0.1257"): standard CSV (RFC 4180), as some exporters write it."""
    buf = io.StringIO()
    csv.writer(buf, quoting=csv.QUOTE_ALL, lineterminator="\n").writerows(
        [[*NAMES, "diagnosis"], *[[repr(float(v)) for v in x] + [lab] for x, lab in zip(X, LABELS)]]
    )
    return buf.getvalue()


def _write_rdata(path):
    rdata = pytest.importorskip("rdata")
    rdata.write_rda(path, {"study": {"x": X, "y": pd.Categorical(LABELS)}, "other": {"x": X[:2]}})


def _write_rds(path):
    rdata = pytest.importorskip("rdata")
    df = pd.DataFrame(X, columns=NAMES).assign(diagnosis=pd.Categorical(LABELS))
    rdata.write_rds(path, df)


def _write_svmlight(path):
    from sklearn.datasets import dump_svmlight_file

    dump_svmlight_file(X, np.array(Y), str(path))


# (file name, writer, format, read options, labels.positive, feature names expected)
FORMATS = [
    ("with_header.csv", lambda p: p.write_text(_csv_text()), "csv", {"label_column": "diagnosis"}, "tumour", NAMES),
    # a byte-order mark and standard CSV quoting of numbers ("0.1257"), as spreadsheets write them
    ("excel.csv", lambda p: p.write_bytes(b"\xef\xbb\xbf" + _quoted_csv().encode()),
     "csv", {"label_column": "diagnosis"}, "tumour", NAMES),
    ("no_header.csv", lambda p: p.write_text(_csv_text(header=False)), "csv", {"header": False, "label_column": -1}, "tumour", None),
    ("crlf.csv", lambda p: p.write_bytes(_csv_text().replace("\n", "\r\n").encode()), "csv", {"label_column": "diagnosis"}, "tumour", NAMES),
    ("table.tsv", lambda p: p.write_text(_csv_text("\t")), "tsv", {"label_column": "diagnosis"}, "tumour", NAMES),
    ("semicolon.txt", lambda p: p.write_text(_csv_text(";")), "csv", {"sep": ";", "label_column": "diagnosis"}, "tumour", NAMES),
    ("matrix.txt", lambda p: p.write_text(_csv_text(" ", header=False)), "matrix", {"label_column": 3}, "tumour", None),
    ("data.svm", _write_svmlight, "svmlight", {}, "1", None),
    ("data.arff", lambda p: p.write_text(
        "@relation study\n" + "".join(f"@attribute {n} numeric\n" for n in NAMES) + "@attribute diagnosis {tumour,normal}\n@data\n"
        + _csv_text(header=False)), "arff", {"label_column": "diagnosis"}, "tumour", NAMES),
    ("data.npz", lambda p: np.savez(p, X=X, y=np.array(LABELS), names=np.array(NAMES)), "npz", {"feature_names": "names"}, "tumour", NAMES),
    ("data.parquet", lambda p: pd.DataFrame(X, columns=NAMES).assign(diagnosis=LABELS).to_parquet(p), "parquet",
     {"label_column": "diagnosis"}, "tumour", NAMES),
    ("study.RData", _write_rdata, "rdata", {"object": "study"}, "tumour", None),
    ("study.rds", _write_rds, "rdata", {"label_column": "diagnosis"}, "tumour", NAMES),
]  # fmt: skip


def _campaign(entries: dict, datasets=None, **extra) -> dict:
    return {
        "campaign": "mine",
        "registry_entries": entries,
        "datasets": datasets or {name: {} for name in entries},
        "splits": {"kind": "stratified_kfold", "n_splits": 3},
        "inner_cv": {"n_splits": 2},
        "methods": {"fisher": {"grid": {"n_features_to_select": [1, 2]}}},
        **extra,
    }


def _local(path, fmt, read, positive, **extra) -> dict:
    return {"kind": "local", "path": str(path), "sha256": _sha(path), "format": fmt, "read": read, "labels": {"positive": [positive]}, **extra}


@pytest.mark.parametrize("case", FORMATS, ids=[c[0] for c in FORMATS])
def test_each_format_loads_as_a_local_file_without_conversion(case, tmp_path, write_config, root, monkeypatch):
    fname, write, fmt, read, positive, names = case
    monkeypatch.chdir(tmp_path)
    write(tmp_path / fname)
    before = (tmp_path / fname).read_bytes()
    cfg = load_config(write_config(_campaign({"study": _local(fname, fmt, read, positive)})), workdir=root)
    entry = load_dataset_registry(cfg, root)["study"]
    out = tmp_path / "out"
    ds = prepare_dataset("study", entry, out / "study.npz", out / "study.json")
    np.testing.assert_allclose(ds.X, X)
    assert ds.y.tolist() == Y and ds.feature_names == (names or ["f1", "f2", "f3"])
    assert ds.meta["source"]["kind"] == "local" and ds.meta["source"]["files"] == {str(tmp_path / fname): _sha(tmp_path / fname)}
    assert load_dataset(out / "study.npz").X.shape == (6, 3)
    assert (tmp_path / fname).read_bytes() == before  # read in place, never rewritten


def test_registry_files_relative_to_the_working_directory_paths_to_the_registry_file(tmp_path, write_config, root, monkeypatch):
    (tmp_path / "lab" / "files").mkdir(parents=True)
    data = tmp_path / "lab" / "files" / "study.csv"
    data.write_text(_csv_text())
    reg = {"datasets": {"study": {**_local(data, "csv", {"label_column": "diagnosis"}, "tumour"), "path": "files/study.csv",
                                  "expect": {"n_samples": 6, "n_features": 3, "class_counts": {"-1": 3, "+1": 3}}}}}  # fmt: skip
    (tmp_path / "lab" / "registry.yaml").write_text(yaml.safe_dump(reg))
    monkeypatch.chdir(tmp_path)
    raw = {**_campaign({}, datasets={"study": {}, "wdbc": {}}), "registry": ["lab/registry.yaml"]}
    cfg = load_config(write_config(raw), workdir=root)
    registry = load_dataset_registry(cfg, root)
    assert registry["study"]["files"][0]["path"] == str(data) and registry["wdbc"]["kind"] == "embedded"
    # the registry's expect is used as the built-in one's: 3 outer folds but a class of 3 -> 2 per training side
    with pytest.raises(ConfigError, match=r"inner_cv.n_splits = 3 exceeds the smallest class on the training side of dataset 'study'"):
        load_config(write_config({**raw, "inner_cv": {"n_splits": 3}}), workdir=root)  # a file as a user writes it


def test_checksum_mismatch_names_both_hashes_and_writes_nothing(tmp_path, write_config, root, monkeypatch):
    monkeypatch.chdir(tmp_path)
    data = tmp_path / "study.csv"
    data.write_text(_csv_text())
    pinned = _sha(data)
    cfg = load_config(write_config(_campaign({"study": _local(data, "csv", {"label_column": "diagnosis"}, "tumour")})), workdir=root)
    entry = load_dataset_registry(cfg, root)["study"]
    data.write_text(_csv_text().replace("0.1257", "0.1258"))  # the file changes after its sha256 was pinned
    out = tmp_path / "out"
    out.mkdir()
    with pytest.raises(ChecksumError) as e:
        prepare_dataset("study", entry, out / "study.npz", out / "study.json")
    assert str(data) in str(e.value) and pinned in str(e.value) and _sha(data) in str(e.value)
    assert list(out.iterdir()) == []


BAD_ENTRIES = [
    # (registry_entries, datasets, fragment)
    ({"colon": {"kind": "synthetic", "generator": "mit_example1"}}, None, "registry_entries.colon: the name is already declared in"),
    ({"mine": {"kind": "lokal"}}, None, "registry_entries.mine.kind must be one of"),
    ({"mine": {"kind": "local", "path": "study.csv", "sha256": "abc", "format": "csv", "labels": {"positive": ["a"]}}}, None,
     "registry_entries.mine.sha256: 64 lowercase hex digits are required"),
    ({"mine": {"kind": "local", "path": "study.csv", "sha256": "0" * 64, "format": "xlsx", "labels": {"positive": ["a"]}}}, None,
     "registry_entries.mine.format: 'xlsx' is not one of"),
    ({"mine": {"kind": "local", "path": "study.csv", "sha256": "0" * 64, "format": "csv", "labels": {"negative": ["normal"]}}}, None,
     "registry_entries.mine.labels.positive: the label value(s) of the positive class are required with labels.negative"),
    ({"mine": {"kind": "local", "path": "study.csv", "sha256": "0" * 64, "format": "matrix", "labels": {"positive": ["a"]},
               "read": {"label_column": -1, "labels_file": "labels.txt"}}}, None,
     "registry_entries.mine.read.labels_file: {tmp}/labels.txt is not one of the entry's files"),
    ({"mine": {"kind": "local", "path": "absent.csv", "sha256": "0" * 64, "format": "csv", "labels": {"positive": ["a"]}}}, None,
     "datasets.mine: local file {tmp}/absent.csv of 'mine' (declared in registry_entries) not found"),
]  # fmt: skip


@pytest.mark.parametrize("entries,datasets,fragment", BAD_ENTRIES, ids=[f"entry{i}" for i in range(len(BAD_ENTRIES))])
def test_bad_campaign_entries_name_the_file_and_key(entries, datasets, fragment, tmp_path, write_config, root, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "study.csv").write_text(_csv_text())
    path = write_config(_campaign(entries, datasets))
    with pytest.raises(ConfigError) as e:
        load_config(path, workdir=root)
    assert str(path) in str(e.value) and fragment.format(tmp=tmp_path) in str(e.value), str(e.value)


def test_a_registry_file_clashing_with_the_builtin_one_names_both_files(tmp_path, write_config, root, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "reg.yaml").write_text(yaml.safe_dump({"datasets": {"pima": {"kind": "embedded", "loader": "sklearn_breast_cancer"}}}))
    path = write_config({**_campaign({}, datasets={"pima": {}}), "registry": ["reg.yaml"]})
    with pytest.raises(ConfigError) as e:
        load_config(path, workdir=root)
    msg = str(e.value)
    assert f"{tmp_path / 'reg.yaml'}: datasets.pima: the name is already declared in {root / 'config' / 'datasets.yaml'}" in msg
    with pytest.raises(ConfigError, match=r"registry\[0\]: no registry file .*absent.yaml"):
        load_config(write_config({**_campaign({}, datasets={"wdbc": {}}), "registry": ["absent.yaml"]}), workdir=root)


def test_lymphoma_held_by_a_user_registers_as_local(tmp_path, write_config, root, monkeypatch):
    """docs/own-data.md's lymphoma entry (no public source): a local copy with its own sha256 (here a stand-in)."""
    monkeypatch.chdir(tmp_path)
    text = (root / "docs" / "own-data.md").read_text()
    block = text[text.index("# lymphoma.yaml"):]
    entry = yaml.safe_load(block[: block.index("```")])["registry_entries"]["lymphoma"]
    rng = np.random.default_rng(0)
    cells = np.column_stack([rng.normal(size=(12, 5)).round(4).astype(str), ["malignant", "normal"] * 6])
    (tmp_path / "alizadeh").mkdir()
    pd.DataFrame(cells).to_csv(tmp_path / "alizadeh" / "lymphoma.csv", header=False, index=False)
    entry["path"] = "alizadeh/lymphoma.csv"
    entry["sha256"] = _sha(tmp_path / "alizadeh" / "lymphoma.csv")
    cfg = load_config(write_config(_campaign({"lymphoma": entry})), workdir=root)
    ds = prepare_dataset("lymphoma", load_dataset_registry(cfg, root)["lymphoma"], tmp_path / "l.npz", tmp_path / "l.json")
    assert ds.X.shape == (12, 5) and ds.class_counts == {"-1": 6, "+1": 6}


def _readme_example(root):
    text = (root / "docs" / "own-data.md").read_text()
    section = text[text.index("# Your own data"):]
    blocks = re.findall(r"```(\w+)\n(.*?)```", section, flags=re.S)
    campaign = next(b for lang, b in blocks if lang == "yaml" and b.startswith("# my_campaign.yaml"))
    command = next(b for lang, b in blocks if lang == "bash" and "snakemake" in b)
    return campaign, command


@pytest.mark.workflow
def test_readme_example_runs(tmp_path, root):
    """Exactly the "Your own data" campaign of docs/own-data.md, on a generated file: a dry run, then prepare and one select job."""
    import subprocess
    import sys

    campaign, command = _readme_example(root)
    rng = np.random.default_rng(1)
    n = 24
    y = np.array(["tumour", "normal"] * (n // 2))
    df = pd.DataFrame(rng.normal(size=(n, 6)).round(4), columns=[f"gene{j}" for j in range(1, 7)])
    df.iloc[:, 0] += (y == "tumour") * 2.0
    df.insert(0, "sample", [f"p{i}" for i in range(n)])
    df["diagnosis"] = y
    buf = io.StringIO()
    df.to_csv(buf, index=False)
    (tmp_path / "my_study.csv").write_bytes(b"\xef\xbb\xbf" + buf.getvalue().encode())  # as Excel saves "CSV UTF-8"
    digest = _sha(tmp_path / "my_study.csv")
    (tmp_path / "my_campaign.yaml").write_text(campaign.replace("<output of sha256sum my_study.csv>", digest))
    assert "sha256sum my_study.csv" in command and "--configfile my_campaign.yaml --replace-workflow-config" in command
    base = [sys.executable, "-m", "snakemake", "-s", str(root / "Snakefile"), "--cores", "1",
            "--workflow-profile", str(root / "workflow" / "profiles" / "default"),
            "--configfile", "my_campaign.yaml", "--replace-workflow-config"]  # fmt: skip
    env = {**__import__("os").environ, "SVMFS_MIRROR": ""}
    dry = subprocess.run([*base, "--dry-run"], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=600)
    assert dry.returncode == 0, dry.stdout[-3000:] + dry.stderr[-3000:]
    assert "prepare" in dry.stdout and "select" in dry.stdout
    target = "results/my_study/runs/my_study/svm_rfe/default/fold-0.json"
    run = subprocess.run([*base, target], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    meta = yaml.safe_load((tmp_path / "results" / "my_study" / "datasets" / "my_study.json").read_text())
    assert meta["n_samples"] == n and meta["n_features"] == 6 and meta["class_counts"] == {"-1": 12, "+1": 12}
    assert meta["source"]["files"] == {str(tmp_path / "my_study.csv"): digest}
    assert (tmp_path / target).exists()
    assert not list(root.glob("**/my_study.csv"))  # nothing copied into the repository


def test_local_entry_with_several_files_genes_in_rows_and_a_labels_file(tmp_path, write_config, root, monkeypatch):
    """Alon-style data held locally: a genes x samples matrix plus a labels file, both checksummed."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "study").mkdir()
    (tmp_path / "study" / "expr.txt").write_text("\n".join(" ".join(map(repr, row)) for row in X.T.tolist()) + "\n")
    (tmp_path / "study" / "labels.txt").write_text("\n".join(LABELS) + "\n")
    files = [{"path": f"study/{f}", "sha256": _sha(tmp_path / "study" / f)} for f in ("expr.txt", "labels.txt")]
    entry = {"kind": "local", "files": files, "format": "matrix", "labels": {"positive": ["tumour"]},
             "read": {"file": "study/expr.txt", "transpose": True, "labels_file": "study/labels.txt"}}  # fmt: skip
    cfg = load_config(write_config(_campaign({"study": entry})), workdir=root)
    ds = prepare_dataset("study", load_dataset_registry(cfg, root)["study"], tmp_path / "s.npz", tmp_path / "s.json")
    np.testing.assert_allclose(ds.X, X)
    assert ds.y.tolist() == Y and sorted(ds.meta["source"]["files"]) == sorted(str(tmp_path / f["path"]) for f in files)


def test_prepare_checks_the_entrys_expect(tmp_path, write_config, root, monkeypatch):
    """An entry's expect (shape, class counts) is checked when the data are prepared; nothing is written if it fails."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "study.csv").write_text(_csv_text())
    entry = _local("study.csv", "csv", {"label_column": "diagnosis"}, "tumour",
                   expect={"n_samples": 7, "n_features": 3, "class_counts": {"-1": 3, "+1": 4}})  # fmt: skip
    cfg = load_config(write_config(_campaign({"study": entry})), workdir=root)
    out = tmp_path / "out"
    out.mkdir()
    with pytest.raises(DatasetError, match=r"expect does not hold: expect.n_samples = 7, got 6; expect.class_counts = \{'-1': 3, '\+1': 4\}, got \{'-1': 3, '\+1': 3\}"):
        prepare_dataset("study", load_dataset_registry(cfg, root)["study"], out / "s.npz", out / "s.json")
    assert list(out.iterdir()) == []
