"""The code fingerprint of a job (svmfs.reproduce.fingerprint): the rule script and every svmfs module it runs,
normalized, so that a docstring or comment edit leaves it as it is and any changed statement or constant of a
module the job imports, however indirectly, changes it."""

import shutil
from pathlib import Path

import pytest

from svmfs.reproduce import fingerprint
from svmfs.reproduce.fingerprint import SRC, code_fingerprint, code_modules, method_module

SCRIPTS = SRC.parent / "scripts"


@pytest.fixture
def tree(tmp_path):
    """A copy of this tree's svmfs package and rule scripts, to edit."""
    shutil.copytree(SRC / "svmfs", tmp_path / "src" / "svmfs", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(SCRIPTS, tmp_path / "scripts")
    fingerprint.clear_cache()
    yield tmp_path
    fingerprint.clear_cache()


def _fp(tree: Path, method: str = "svmfs.methods.svm_rfe") -> str:
    fingerprint.clear_cache()
    return code_fingerprint(tree / "scripts" / "select.py", [method], src=tree / "src")


def test_the_select_job_runs_the_solvers_and_the_protocol_it_imports_indirectly():
    mods = code_modules(SCRIPTS / "select.py", ["svmfs.methods.mm_fs"])
    assert {"script:select.py", "svmfs.protocol.select_job", "svmfs.protocol.tuning", "svmfs.methods.mm_fs",
            "svmfs.solvers.mmfs_nlp", "svmfs.results.record", "svmfs"} <= set(mods)  # fmt: skip
    assert "svmfs.analysis.tables" not in mods and "svmfs.reproduce.restore" not in mods


def test_a_docstring_or_comment_edit_leaves_the_fingerprint_unchanged(tree):
    before = _fp(tree)
    smo = tree / "src" / "svmfs" / "solvers" / "smo.py"
    text = smo.read_text()
    edited = text.replace('"""', '"""Another first line.\n\n', 1) + "\n# a trailing comment\n"
    assert edited != text
    smo.write_text(edited)
    script = tree / "scripts" / "select.py"
    script.write_text(script.read_text().replace("# noqa: E402", "# noqa: E402  (late import)"))
    assert _fp(tree) == before


def test_a_changed_constant_in_a_transitively_imported_solver_changes_it(tree):
    smo = tree / "src" / "svmfs" / "solvers" / "smo.py"
    assert "svmfs.solvers.smo" in code_modules(tree / "scripts" / "select.py", ["svmfs.methods.svm_rfe"], src=tree / "src")
    smo.write_text(smo.read_text() + "\n_PROBE = 1\n")
    one = _fp(tree)
    smo.write_text(smo.read_text().replace("_PROBE = 1", "_PROBE = 2"))
    assert _fp(tree) != one


def test_a_changed_rule_script_or_job_protocol_changes_it(tree):
    before = _fp(tree)
    job = tree / "src" / "svmfs" / "protocol" / "select_job.py"
    job.write_text(job.read_text() + "\n_PROBE = 1\n")
    assert _fp(tree) != before


def test_methods_differ_where_their_modules_differ(tree):
    assert _fp(tree, "svmfs.methods.svm_rfe") != _fp(tree, "svmfs.methods.fisher")
    fisher = _fp(tree, "svmfs.methods.fisher")
    rfe = tree / "src" / "svmfs" / "methods" / "svm_rfe.py"
    rfe.write_text(rfe.read_text() + "\n_PROBE = 1\n")
    assert _fp(tree, "svmfs.methods.fisher") == fisher  # fisher does not run svm_rfe.py


def test_method_module_of_a_registry_target_and_of_an_import_path():
    assert method_module("svm_rfe:SVMRFE") == "svmfs.methods.svm_rfe"
    assert method_module("mypkg.selectors:Mine") == "mypkg.selectors"
    assert method_module("mypkg.selectors.Mine") == "mypkg.selectors"


def test_a_module_outside_svmfs_is_hashed_as_found(tmp_path, monkeypatch):
    (tmp_path / "outside_mod_probe.py").write_text("X = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    mods = code_modules(SCRIPTS / "select.py", ["outside_mod_probe"])
    assert mods["outside_mod_probe"] != "missing"
    assert code_modules(SCRIPTS / "select.py", ["no_such_module_probe"])["no_such_module_probe"] == "missing"
