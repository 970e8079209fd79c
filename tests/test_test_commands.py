"""The two test commands of tests/README.md: the default one leaves the ``e2e`` tests out, CI runs both."""

import shlex
import tomllib


def test_the_default_command_deselects_the_e2e_tests_and_the_marker_is_declared(root):
    ini = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    args = shlex.split(ini["addopts"])
    assert args[args.index("-m") + 1] == "not e2e"
    assert any(m.startswith("e2e:") for m in ini["markers"])


def test_ci_runs_the_default_command_then_the_e2e_command_and_fails_if_either_fails(root):
    lines = (root / ".ci" / "run").read_text().splitlines()
    default = lines.index(".venv/bin/python -m pytest -q || status=1")
    assert lines[default + 1] == ".venv/bin/python -m pytest -q -m e2e || status=1"
    assert lines[-1] == 'exit "$status"'
