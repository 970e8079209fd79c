"""A campaign run never writes into the source tree: the first download of an unpinned file pins its
sha256 into the lock beside the downloads (git-ignored data/raw/), and ``git status`` of the checkout
stays clean."""

import os
import shutil
import subprocess
import sys

import yaml
from conftest import serve_directory, url_of

from svmfs.config import dataset_lock_path
from svmfs.data.download import sha256_of

pytestmark = __import__("pytest").mark.workflow


def _git(cwd, *args) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t"}  # fmt: skip
    return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True).stdout


def _scratch_copy(root, dest):
    """The checkout's files (tracked and new, as they are on disk) committed into a fresh repository."""
    files = _git(root, "ls-files", "--cached", "--others", "--exclude-standard", "-z").split("\0")
    for rel in filter(None, files):
        if (root / rel).is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(root / rel, dest / rel)
    _git(dest, "init", "-q")
    _git(dest, "add", "-A")
    _git(dest, "commit", "-qm", "scratch")


def test_default_lock_lives_beside_the_downloads():
    assert dataset_lock_path({"raw_dir": "data/raw", "dataset_lock": None}) == "data/raw/datasets.lock.yaml"
    assert dataset_lock_path({"raw_dir": "data/raw", "dataset_lock": "/x/lock.yaml"}) == "/x/lock.yaml"


def test_first_download_pins_beside_the_downloads_and_leaves_the_checkout_clean(root, tmp_path):
    scratch = tmp_path / "checkout"
    _scratch_copy(root, scratch)
    served = tmp_path / "served" / "toy"
    served.mkdir(parents=True)
    (served / "toy.csv").write_text("a,b,label\n1,2,1\n3,4,0\n5,6,1\n7,8,0\n")
    registry = {"datasets": {"toy": {
        "kind": "download", "files": [{"path": "toy/toy.csv", "url": "https://example.invalid/toy.csv", "sha256": None}],
        "format": "matrix", "read": {"file": "toy/toy.csv", "sep": ",", "label_column": -1}, "labels": {"positive": ["1"]},
    }}}  # fmt: skip
    (tmp_path / "registry.yaml").write_text(yaml.safe_dump(registry))
    srv = serve_directory(tmp_path / "served")
    try:
        cfg = {"campaign": "toy", "mirror": url_of(srv), "dataset_registry": str(tmp_path / "registry.yaml"),
               "datasets": {"toy": {}}, "splits": {"kind": "stratified_kfold", "n_splits": 2},
               "inner_cv": {"n_splits": 2}, "methods": {"svm_linear": {}}}  # fmt: skip
        (tmp_path / "campaign.yaml").write_text(yaml.safe_dump(cfg))
        cmd = [sys.executable, "-m", "snakemake", "--cores", "1", "--configfile", str(tmp_path / "campaign.yaml"),
               "--replace-workflow-config", "data/raw/toy/MANIFEST.json"]  # fmt: skip
        proc = subprocess.run(cmd, cwd=scratch, capture_output=True, text=True, timeout=600,
                              env={**os.environ, "SVMFS_MIRROR": ""})  # fmt: skip
    finally:
        srv.shutdown()
        srv.server_close()
    assert proc.returncode == 0, proc.stderr[-4000:]
    lock = yaml.safe_load((scratch / "data" / "raw" / "datasets.lock.yaml").read_text())
    assert lock == {"toy": {"toy/toy.csv": sha256_of(served / "toy.csv")}}
    assert _git(scratch, "status", "--porcelain", "--untracked-files=all") == ""
    assert sorted(p.name for p in (scratch / "config").rglob("*") if "lock" in p.name) == []
