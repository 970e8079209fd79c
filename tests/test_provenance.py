"""Run provenance: the record's git_sha names the commit, and says when tracked files differ from it."""

import subprocess

from svmfs.results.record import git_sha


def _git(cwd, *args):
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


def test_git_sha_marks_modified_tracked_files_not_untracked_ones(tmp_path):
    _git(tmp_path, "init", "-q")
    (tmp_path / "method.py").write_text("C = 1\n")
    _git(tmp_path, "add", "method.py")
    _git(tmp_path, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "one")
    sha = _git(tmp_path, "rev-parse", "HEAD")
    assert git_sha(tmp_path) == sha
    (tmp_path / "results.json").write_text("{}")  # outputs are untracked: still the commit
    assert git_sha(tmp_path) == sha
    (tmp_path / "method.py").write_text("C = 2\n")  # an edit not committed: the record must say so
    assert git_sha(tmp_path) == sha + "-dirty"


def test_git_sha_outside_a_repository_is_unknown(tmp_path):
    assert git_sha(tmp_path) == "unknown"
