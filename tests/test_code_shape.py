"""The code base's shape, as a newcomer meets it: short functions, modules of a readable size, docstrings
that cite papers rather than the project's history, a small benchmark harness and short READMEs.

Each check scans the tree (AST or text) and names what it finds; a last test feeds the scanners a
made-up tree to show that each of them can fail.
"""

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest
from test_layers import _cycles, _graph

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "svmfs"

MAX_FUNCTION_LINES = 80
MAX_MODULE_LINES = 500
MAX_BENCHMARK_MODULES = 20
MAX_RESULTS_LINES = 420  # the scale table keeps every registry method's row
MAX_README_LINES = 200

#: a reference to the project's tracker or to a work session, in a docstring or comment
HISTORY = re.compile(r"\bissues?\b|\bsessions?\b|#\d{1,4}\b", re.I)
#: a commit SHA (7 to 40 hex digits with at least one letter and one digit)
SHA = re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b")

#: the READMEs a reader meets (the committed reproductions are data, not pages)
READMES = ["README.md", "tests/README.md", "config/README.md", "benchmarks/reruns/README.md", "docs/protocols/README.md"]



def _py_files(*roots: Path) -> list[Path]:
    return sorted(p for r in roots for p in r.rglob("*.py"))


def long_functions(paths: list[Path], limit: int = MAX_FUNCTION_LINES) -> list[str]:
    """``path:name (n lines)`` for every function or method longer than ``limit`` lines."""
    out = []
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                n = node.end_lineno - node.lineno + 1
                if n > limit:
                    out.append(f"{path.name}:{node.name} ({n} lines)")
    return out


def long_modules(paths: list[Path], limit: int = MAX_MODULE_LINES) -> dict[str, str]:
    """{module: its docstring's first sentence} for every module longer than ``limit`` lines."""
    out = {}
    for path in paths:
        text = path.read_text(encoding="utf-8")
        if text.count("\n") > limit:
            doc = ast.get_docstring(ast.parse(text)) or ""
            out[str(path)] = doc.split("\n\n")[0]
    return out


def history_references(paths: list[Path]) -> list[str]:
    """``path:line: text`` of every comment or string naming an issue, a session or a ``#<number>``."""
    out = []
    for path in paths:
        tokens = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
        for tok in tokens:
            if tok.type in (tokenize.COMMENT, tokenize.STRING):
                for k, line in enumerate(tok.string.splitlines()):
                    if HISTORY.search(line):
                        out.append(f"{path.name}:{tok.start[0] + k}: {line.strip()[:100]}")
    return out


def libsvm_sites(paths: list[Path]) -> list[str]:
    """The modules importing scikit-learn's private ``sklearn.svm._libsvm``."""
    out = []
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.ImportFrom) and node.module == "sklearn.svm" and any(a.name == "_libsvm" for a in node.names):
                out.append(str(path))
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("sklearn.svm._libsvm"):
                out.append(str(path))
            elif isinstance(node, ast.Import) and any(a.name.startswith("sklearn.svm._libsvm") for a in node.names):
                out.append(str(path))
    return sorted(set(out))


def commit_shas(text: str) -> list[str]:
    return SHA.findall(text)


def test_no_function_in_src_or_scripts_is_over_80_lines():
    assert long_functions(_py_files(SRC, ROOT / "scripts")) == []


def test_at_most_one_src_module_is_over_500_lines_and_it_says_why():
    found = long_modules(_py_files(SRC))
    assert len(found) <= 1, sorted(found)
    assert all(re.search(r"\b(why|because|one place|kept together)\b", first, re.I) for first in found.values()), found


def test_no_issue_or_session_reference_in_src():
    assert history_references(_py_files(SRC)) == []


def test_no_import_cycle():
    assert _cycles({name: deps for name, (deps, _) in _graph().items()}) == []


def test_at_most_20_benchmark_modules():
    modules = [p for p in (ROOT / "benchmarks").glob("*.py") if p.name not in ("__init__.py", "__main__.py")]
    assert len(modules) <= MAX_BENCHMARK_MODULES, sorted(p.name for p in modules)


def test_benchmark_results_page_is_short():
    assert (ROOT / "benchmarks" / "RESULTS.md").read_text(encoding="utf-8").count("\n") <= MAX_RESULTS_LINES


def test_the_readme_is_at_most_200_lines():
    assert (ROOT / "README.md").read_text(encoding="utf-8").count("\n") <= MAX_README_LINES


def test_no_commit_sha_in_the_readmes():
    found = {name: shas for name in READMES if (ROOT / name).is_file() and (shas := commit_shas((ROOT / name).read_text(encoding="utf-8")))}
    assert found == {}


def test_one_libsvm_call_site():
    assert len(libsvm_sites(_py_files(SRC, ROOT / "scripts"))) <= 1


def test_no_own_module():
    assert sorted(p.name for p in (SRC / "methods").glob("*_own.py")) == []


def test_the_scanners_find_what_they_look_for(tmp_path):
    long_fn = tmp_path / "long.py"
    long_fn.write_text('"""Short module."""\n\n\ndef f():\n' + "    x = 1\n" * 80 + "    return x\n")
    assert long_functions([long_fn]) == ["long.py:f (82 lines)"]
    assert list(long_modules([long_fn], limit=50).values()) == ["Short module."]
    hist = tmp_path / "hist.py"
    hist.write_text('"""Fixed in issue 12."""\n\nstart_new_session = 1  # see #34\nCOLOUR = "#0072B2"\n')
    assert [h.split(":")[1] for h in history_references([hist])] == ["1", "3"]
    lib = tmp_path / "lib.py"
    lib.write_text("from sklearn.svm import _libsvm\nimport sklearn.svm\n")
    assert libsvm_sites([lib, hist]) == [str(lib)]
    assert commit_shas("measured at 31376ab on 2026-11-29; sha256 " + "ab12" * 16) == ["31376ab"]
