"""Whether a committed record's code still holds: the files that made it hold the same code at the record's
commit as in this tree (docstrings and comments may differ), as ``reproduce restore`` requires."""

from __future__ import annotations

import subprocess
from pathlib import Path

from .jobs import ROOT


def git_ok(sha: str, files: list[Path]) -> str | None:
    """None if ``files`` hold the same code at commit ``sha`` as in the working tree (:func:`same_code`:
    docstrings and comments may differ), else why not."""
    if not sha or sha == "unknown" or sha.endswith("-dirty"):
        return "code unknown (record made from a dirty or unknown tree)"
    git = ["git", "-C", str(ROOT)]
    if subprocess.run([*git, "cat-file", "-e", f"{sha}^{{commit}}"], capture_output=True).returncode != 0:
        return "code unknown (commit not in this clone)"
    for f in files:
        rel = str(f.relative_to(ROOT))
        if subprocess.run([*git, "diff", "--quiet", sha, "--", rel], capture_output=True).returncode == 0:
            continue
        old = subprocess.run([*git, "show", f"{sha}:{rel}"], capture_output=True, text=True)
        if old.returncode != 0 or not f.is_file() or not same_code(old.stdout, f.read_text()):
            return "code changed"
    return None


def same_code(old: str, new: str) -> bool:
    """Whether two versions of a Python file hold the same code: equal syntax trees once every docstring is
    dropped (comments and layout never reach the tree). A corrected docstring or comment in a method module
    does not make its committed records stale; any change of a statement, name or constant does."""
    import ast

    def tree(text: str) -> str:
        node = ast.parse(text)
        for n in ast.walk(node):
            body = getattr(n, "body", None)
            if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and body and \
                    isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):  # fmt: skip
                n.body = body[1:] or [ast.Pass()]
        return ast.dump(node)

    try:
        return tree(old) == tree(new)
    except SyntaxError:
        return old == new
