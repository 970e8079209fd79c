"""The library's layers import downwards only and no module imports itself back (design.md, "Layers").

From an AST scan of every module of src/svmfs, imports inside functions included: a lazy import is still a
dependency (and would still close a circle when it runs).
"""

import ast
import os
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"

#: what each layer may import from svmfs (a prefix: "results" is the package, "results.io" one module);
#: yamlio (strict YAML) and results.io (atomic writes) are the helpers data/ shares with the store
ALLOWED = {
    "solvers": {"solvers"},
    "methods": {"methods", "solvers"},
    "protocol": {"protocol", "methods", "solvers"},
    "data": {"data", "yamlio", "results.io"},
    "results": {"results", "yamlio"},
    "analysis": {"analysis", "results", "yamlio"},
    "yamlio": set(),
}


def _modules() -> dict[str, tuple[Path, bool]]:
    out = {}
    for path in sorted((SRC / "svmfs").rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        out[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return out


def _imports(name: str, path: Path, is_package: bool, modules) -> tuple[set[str], set[str]]:
    """(the svmfs modules ``name`` imports, every top-level name it imports)."""
    package = name if is_package else name.rpartition(".")[0]
    found, tops = set(), set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([node.module] if node.module else []))
            targets = [base] + [f"{base}.{a.name}" for a in node.names]
        else:
            continue
        tops.update(t.split(".")[0] for t in targets if t)
        found.update(t for t in targets if t in modules and t != "svmfs")
    return found - {name}, tops


def _graph():
    modules = _modules()
    return {name: _imports(name, path, pkg, modules) for name, (path, pkg) in modules.items()}


def _layer(module: str) -> str:
    return module.split(".")[1] if "." in module else ""


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles of ``graph``: its strongly connected components of more than one module (Tarjan)."""
    cycles, index, low, stack, on_stack = [], {}, {}, [], set()

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return cycles


def test_every_layer_imports_downwards_only():
    wrong = []
    for name, (deps, _) in _graph().items():
        allowed = ALLOWED.get(_layer(name))
        if allowed is None:  # the glue above the layers (config, jobs, worker, reproduce)
            continue
        for dep in sorted(deps):
            inner = dep.split(".", 1)[1]
            if not any(inner == a or inner.startswith(a + ".") for a in allowed):
                wrong.append(f"{name} -> {dep}")
    assert wrong == []


def test_the_library_imports_no_script():
    assert [name for name, (_, tops) in _graph().items() if "scripts" in tops] == []


def test_no_import_cycle_among_svmfs_modules():
    assert _cycles({name: deps for name, (deps, _) in _graph().items()}) == []


def test_the_scan_sees_a_lazy_import_and_a_circle(tmp_path):
    """What the checks above look for is found: a function-level relative import is an edge, and the
    circle protocol/audits.py and protocol/select_job.py once made is a cycle."""
    mod = tmp_path / "audits.py"
    mod.write_text("from .classifiers import fit_predict\n\n\ndef f():\n    from .select_job import method_plan\n")
    known = {f"svmfs.protocol.{m}": None for m in ("audits", "classifiers", "select_job")}
    deps, _ = _imports("svmfs.protocol.audits", mod, False, known)
    assert deps == {"svmfs.protocol.classifiers", "svmfs.protocol.select_job"}
    graph = {"svmfs.protocol.audits": deps, "svmfs.protocol.select_job": {"svmfs.protocol.audits"}}
    assert _cycles(graph) == [["svmfs.protocol.audits", "svmfs.protocol.select_job"]]


def test_analysis_imports_with_the_method_stack_blocked():
    """analysis/ runs from records and config alone: every module imports with methods, solvers and protocol
    made unimportable."""
    names = sorted(n for n in _modules() if n.startswith("svmfs.analysis"))
    blocked = ("svmfs.methods", "svmfs.solvers", "svmfs.protocol")
    code = (
        "import importlib, sys\n"
        "class Block:\n"
        f"    def find_spec(self, name, path=None, target=None):\n"
        f"        if name.startswith({blocked!r}):\n"
        "            raise ImportError(f'blocked: {name}')\n"
        "sys.meta_path.insert(0, Block())\n"
        f"for n in {names!r}:\n"
        "    importlib.import_module(n)\n"
        "print(sorted(m for m in sys.modules if m.startswith(('svmfs.methods', 'svmfs.solvers', 'svmfs.protocol'))))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(SRC), "MPLBACKEND": "Agg"}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "[]"
