"""The code a job runs, as one hash: a rule script and every svmfs module it imports, transitively.

A job's result depends on its config (hashed into ``config_hash``) and on the code it runs. That code is the
rule's script, the svmfs modules the script imports (at module level or inside a function: a lazy import still
runs), the modules those import, and so on, plus the modules the job loads by name (a method's module, which
the registry imports through :func:`importlib.import_module`) and their own imports. Each module's source is
normalized to its syntax tree without docstrings (:func:`normalized_source`; comments and layout never reach
the tree), so that a corrected docstring or comment changes nothing, while any changed statement, name or
constant of any module the job runs changes the job's fingerprint (:func:`code_fingerprint`).

The Snakefile gives each result rule the fingerprint of its job as ``params: code``: Snakemake's ``params``
rerun trigger then reruns exactly the jobs whose code changed. The fingerprints are computed while the DAG is
built, once per (script, modules) and process (:func:`clear_cache` forgets them).

Examples
--------
>>> from svmfs.reproduce.fingerprint import normalized_source
>>> normalized_source("'A docstring.'\\nX = 1  # a comment\\n") == normalized_source("X = 1\\n")
True
>>> normalized_source("X = 1\\n") == normalized_source("X = 2\\n")
False
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import os
from pathlib import Path

#: the folder holding the ``svmfs`` package's source (``src/``) of this tree
SRC = Path(__file__).resolve().parents[2]
_CACHE: dict[tuple[str, int, int], tuple[str, frozenset[str]]] = {}
_FINGERPRINTS: dict[tuple, str] = {}


def normalized_source(text: str) -> str:
    """The source's syntax tree (:func:`ast.dump`) with the docstring of the module, of every class and of every
    function dropped; comments and layout never reach it."""
    tree = ast.parse(text)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and body
                and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)):  # fmt: skip
            node.body = body[1:] or [ast.Pass()]
    return ast.dump(tree)


def _imports(tree: ast.AST, package: str) -> set[str]:
    """Every dotted name an ``import`` or ``from ... import`` of ``tree`` may name as a module (relative imports
    resolved against ``package``): ``from a import b`` names ``a`` and ``a.b``."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            names.add(base)
            names.update(f"{base}.{a.name}" for a in node.names)
    return names


def module_path(name: str, src: Path = SRC) -> Path | None:
    """The source file of svmfs module ``name`` under ``src`` (a package's ``__init__.py``), None if none."""
    base = Path(src, *name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def module_info(path: Path, package: str) -> tuple[str, frozenset[str]]:
    """(sha256 of the file's :func:`normalized_source`, the dotted names it imports), cached per process by the
    file's path, size and mtime."""
    st = os.stat(path)
    key = (f"{path}|{package}", st.st_size, st.st_mtime_ns)
    if key not in _CACHE:
        text = Path(path).read_text()
        try:
            tree = ast.parse(text, str(path))
            digest = hashlib.sha256(normalized_source(text).encode()).hexdigest()
        except SyntaxError:  # fingerprinted as it is: the job will fail on it anyway
            tree, digest = ast.Module(body=[], type_ignores=[]), hashlib.sha256(text.encode()).hexdigest()
        _CACHE[key] = (digest, frozenset(_imports(tree, package)))
    return _CACHE[key]


def _parents(name: str) -> list[str]:
    """The packages importing ``name`` runs first: ``svmfs.a.b`` -> ``svmfs``, ``svmfs.a``."""
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def code_modules(script: str | Path, modules=(), src: Path = SRC) -> dict[str, str]:
    """Every svmfs module a job of rule script ``script`` runs, with its hash (:func:`module_info`): the script's
    imports, the job's ``modules`` (dotted names loaded by name, e.g. the method's module), the packages above
    each, transitively; and the script itself (``script:<file name>``). A module outside svmfs among ``modules``
    (a method given by import path) is hashed as found on ``sys.path``, without following its imports."""
    digest, names = module_info(Path(script), "")
    out = {f"script:{Path(script).name}": digest}
    todo = sorted(names | set(modules))
    while todo:
        name = todo.pop()
        if name in out:
            continue
        if name.split(".")[0] != "svmfs":
            if name in modules:
                out[name] = _outside_module(name)
            continue
        path = module_path(name, src)
        if path is None:  # a name imported from a module, not a module
            continue
        digest, names = module_info(path, name if path.name == "__init__.py" else name.rpartition(".")[0])
        out[name] = digest
        todo.extend(n for n in sorted(names | set(_parents(name))) if n not in out)
    return dict(sorted(out.items()))


def _outside_module(name: str) -> str:
    """The hash of a module outside svmfs (:func:`module_info`), or ``"missing"`` where it cannot be found."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.origin or not Path(spec.origin).is_file():
        return "missing"
    return module_info(Path(spec.origin), name.rpartition(".")[0])[0]


def code_fingerprint(script: str | Path, modules=(), src: Path = SRC) -> str:
    """sha256 (first 16 hex digits) of :func:`code_modules`: the fingerprint of the code a job runs.

    Parameters
    ----------
    script : str or Path
        The rule's script (e.g. ``scripts/select.py``).
    modules : iterable of str
        Modules the job imports by name, outside the static import graph (the method's module).
    src : Path
        The folder holding the ``svmfs`` package (this tree's ``src/`` by default).

    Returns
    -------
    str
        16 hex digits; equal for two jobs exactly when they run the same normalized code.

    Examples
    --------
    >>> from svmfs.reproduce.fingerprint import SRC, code_fingerprint
    >>> script = SRC.parent / "scripts" / "select.py"
    >>> a = code_fingerprint(script, ["svmfs.methods.svm_rfe"])
    >>> len(a), a == code_fingerprint(script, ["svmfs.methods.svm_rfe"])
    (16, True)
    >>> a == code_fingerprint(script, ["svmfs.methods.fisher"])
    False
    """
    key = (str(script), tuple(modules), str(src))
    if key not in _FINGERPRINTS:
        lines = "".join(f"{name} {digest}\n" for name, digest in code_modules(script, tuple(modules), src).items())
        _FINGERPRINTS[key] = hashlib.sha256(lines.encode()).hexdigest()[:16]
    return _FINGERPRINTS[key]


def clear_cache() -> None:
    """Forget the fingerprints and module hashes computed so far (the code changed within this process)."""
    _FINGERPRINTS.clear()
    _CACHE.clear()


def method_module(target: str) -> str:
    """The module a registry entry's ``target`` (``"<module>:<class>"`` under ``svmfs.methods``, or a dotted
    import path ``"pkg.mod:Cls"`` / ``"pkg.mod.Cls"``) loads: its dotted name."""
    module, sep, _ = target.partition(":")
    if not sep and "." in target:  # "pkg.mod.Cls"
        module = target.rpartition(".")[0]
    return module if "." in module else f"svmfs.methods.{module}"
