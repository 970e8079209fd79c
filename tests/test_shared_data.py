"""Tests that need ../shared/data skip in a user's clone without it, and fail where
SVMFS_REQUIRE_SHARED=1 (.ci/run) says it must be there."""

import pytest
from conftest import REQUIRE_SHARED, shared_data


def test_missing_shared_data_skips_in_a_users_clone(tmp_path, monkeypatch):
    monkeypatch.delenv(REQUIRE_SHARED, raising=False)
    with pytest.raises(pytest.skip.Exception, match=f"no local copy of the data at {tmp_path / 'absent'}"):
        shared_data(tmp_path / "absent")


def test_missing_shared_data_fails_where_it_is_required(tmp_path, monkeypatch):
    monkeypatch.setenv(REQUIRE_SHARED, "1")
    with pytest.raises(pytest.fail.Exception, match=rf"shared data required \({REQUIRE_SHARED}=1\) but no local copy"):
        shared_data(tmp_path / "absent")
    assert shared_data(tmp_path) == tmp_path  # present: returned, required or not


def test_ci_requires_the_shared_data(root):
    lines = (root / ".ci" / "run").read_text().splitlines()
    assert f"export {REQUIRE_SHARED}=1" in lines
    assert lines.index(f"export {REQUIRE_SHARED}=1") < next(i for i, line in enumerate(lines) if "pytest" in line)
