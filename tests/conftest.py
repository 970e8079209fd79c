"""Shared fixtures: the project root, a writer for campaign configs, local HTTP mirrors."""

import copy
import http.server
import os
import threading
from functools import partial

from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = ROOT.parent / "shared" / "data"
#: "1" (set by .ci/run, where shared/ always sits beside the clone): missing shared data fails the tests
#: that need it instead of skipping them, as SVMFS_REQUIRE_SLURM does for the SLURM tests.
REQUIRE_SHARED = "SVMFS_REQUIRE_SHARED"


def shared_data(path: Path = SHARED_DATA) -> Path:
    """The local copy of the real datasets (../shared/data); skip without it in a user's clone, fail
    when ``SVMFS_REQUIRE_SHARED=1`` says it must be there."""
    if not path.is_dir():
        reason = f"no local copy of the data at {path}"
        if os.environ.get(REQUIRE_SHARED) == "1":
            pytest.fail(f"shared data required ({REQUIRE_SHARED}=1) but {reason}")
        pytest.skip(reason)
    return path


@pytest.fixture
def root() -> Path:
    return ROOT


@pytest.fixture
def write_config(tmp_path):
    def write(cfg: dict, name: str = "campaign.yaml") -> Path:
        path = tmp_path / name
        path.write_text(yaml.safe_dump(cfg, sort_keys=False))
        return path

    return write


def merge_config(base: dict, change: dict) -> dict:
    """A copy of ``base`` with the top-level keys of ``change`` replaced (test configs)."""
    out = copy.deepcopy(base)
    out.update(copy.deepcopy(change))
    return out


def serve_directory(directory: Path) -> http.server.ThreadingHTTPServer:
    """A quiet HTTP server for ``directory`` on a free port of 127.0.0.1 (call ``shutdown()`` after)."""
    handler = partial(http.server.SimpleHTTPRequestHandler, directory=str(directory))
    handler.log_message = lambda *a: None
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


def url_of(srv: http.server.ThreadingHTTPServer) -> str:
    return f"http://127.0.0.1:{srv.server_address[1]}/"


@pytest.fixture(scope="module")
def shared_mirror():
    """../shared/data served on 127.0.0.1, as the download rule's mirror option expects."""
    srv = serve_directory(shared_data())
    yield url_of(srv)
    srv.shutdown()
    srv.server_close()


def pytest_terminal_summary(terminalreporter):
    """Say how many bad inputs test_bad_input.py tried (all of them were rejected if it passed)."""
    import sys

    mod = sys.modules.get("test_bad_input")
    if mod is not None and mod.TRIED:
        counts = ", ".join(f"{n} {k}" for k, n in sorted(mod.TRIED.items()))
        terminalreporter.write_line(f"bad input tried and rejected: {counts}")
