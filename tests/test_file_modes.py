"""Files the project writes get the mode the user's umask gives a new file (0644 under 022), not the
0600 of ``tempfile.mkstemp`` or of pooch's temporary download file."""

import os
import stat

import pytest
from conftest import serve_directory, url_of

from svmfs.data.download import fetch_dataset, sha256_of
from svmfs.data.registry import prepare_dataset
from svmfs.results.io import atomic_write_text, current_umask, new_file_mode
from svmfs.results.record import write_record


@pytest.fixture(params=[0o022, 0o027], ids=["umask022", "umask027"])
def umask(request):
    old = os.umask(request.param)
    try:
        yield request.param
    finally:
        os.umask(old)


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_the_umask_is_read_and_left_unchanged(umask):
    assert current_umask() == umask and new_file_mode() == 0o666 & ~umask
    assert current_umask() == umask


def test_atomic_write_gets_the_umask_mode_and_replaces_a_private_file(umask, tmp_path):
    target = tmp_path / "sub" / "a.txt"
    atomic_write_text(target, "one")
    assert _mode(target) == 0o666 & ~umask
    os.chmod(target, 0o600)  # a file left by an older version: rewritten with the umask's mode
    atomic_write_text(target, "two")
    assert _mode(target) == 0o666 & ~umask and target.read_text() == "two"
    assert sorted(p.name for p in target.parent.iterdir()) == ["a.txt"]  # no temporary left


def test_record_and_prepared_dataset_get_the_umask_mode(umask, tmp_path):
    write_record({"campaign": "c", "status": "ok"}, tmp_path / "fold-0.json", tmp_path / "fold-0.parquet")
    entry = {"kind": "synthetic", "generator": "mit_example1", "params": {"n": 20, "p": 5, "k0": 2, "rho": 0.0}}
    prepare_dataset("ex1", entry, tmp_path / "ex1.npz", tmp_path / "ex1.json", seed=1)
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == ["ex1.json", "ex1.npz", "fold-0.json", "fold-0.parquet"]
    assert {name: _mode(tmp_path / name) for name in written} == {name: 0o666 & ~umask for name in written}


def test_downloaded_file_manifest_and_lock_get_the_umask_mode(umask, tmp_path):
    served = tmp_path / "served"
    (served / "toy").mkdir(parents=True)
    (served / "toy" / "toy.csv").write_text("a,b,label\n1,2,1\n3,4,0\n")
    entry = {"kind": "download", "files": [{"path": "toy/toy.csv", "url": "https://example.org/toy.csv"}]}
    srv = serve_directory(served)
    try:
        lock = tmp_path / "raw" / "datasets.lock.yaml"
        fetch_dataset("toy", entry, tmp_path / "raw", mirror=url_of(srv), lock_path=lock)
    finally:
        srv.shutdown()
        srv.server_close()
    raw = tmp_path / "raw" / "toy"
    assert sha256_of(raw / "toy.csv") == sha256_of(served / "toy" / "toy.csv")
    for path in (raw / "toy.csv", raw / "MANIFEST.json", lock):
        assert _mode(path) == 0o666 & ~umask, path
