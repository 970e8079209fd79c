"""svmfs's benchmarks: one module per question, run and reported by ``python -m benchmarks``.

Each benchmark module states, as module-level constants, its ``QUESTION`` (one sentence), its ``DATA``, its
``TOPIC`` (one of :data:`TOPICS`) and its ``RESULTS`` (the stem of the files it writes under
``benchmarks/results/``), optionally ``CASES`` (named measurements sharing the module, each
``{"question": ..., "data": ...}``, each written to ``RESULTS-<case>``), ``OPTIONS`` (``{name: (default,
help)}``) and ``SHOW_ALL_ROWS`` (RESULTS.md keeps the whole table, not its first rows); and ``run(case, quick, **options)``, which measures and returns the rows of its table (a list of
dicts). ``python -m benchmarks run NAME`` writes the rows as CSV with a JSON of provenance beside them;
``python -m benchmarks report`` turns those files into ``benchmarks/RESULTS.md``.
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

#: the topics RESULTS.md is organised by, in its order
TOPICS = (
    "methods' speed against their anchors",
    "solvers",
    "workflow overhead",
    "scale",
    "reproduction evidence",
)
#: modules of this package that are not benchmarks
NOT_BENCHMARKS = {"__main__", "common"}


def names() -> list[str]:
    """The benchmark modules' names, sorted."""
    here = [m.name for m in pkgutil.iter_modules([str(Path(__file__).parent)])]
    return sorted(n for n in here if n not in NOT_BENCHMARKS and not n.startswith("_"))


def load(name: str):
    """The benchmark module ``name``."""
    if name not in names():
        raise SystemExit(f"no benchmark {name!r}; `python -m benchmarks list` lists them")
    return importlib.import_module(f"benchmarks.{name}")


def cases(module) -> dict[str, dict]:
    """``{case: {"question", "data"}}`` of a module; a module without ``CASES`` is one case named ``""``."""
    declared = getattr(module, "CASES", None)
    if not declared:
        return {"": {"question": module.QUESTION, "data": module.DATA}}
    return {c: {"question": d.get("question", module.QUESTION), "data": d.get("data", module.DATA)} for c, d in declared.items()}


def stem(module, case: str) -> str:
    """The results file's name (without extension) of ``case`` of ``module``."""
    return module.RESULTS + (f"-{case}" if case else "")
