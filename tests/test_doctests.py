"""The Examples sections of svmfs's docstrings run as doctests (each module's, through the doctest module).

Every module of src/svmfs is imported and its docstrings' examples run; a module without examples counts
as passing. The examples fit tiny problems, so the whole file takes seconds.
"""

import doctest
import importlib
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
MODULES = sorted(
    ".".join(p.relative_to(SRC).with_suffix("").parts).removesuffix(".__init__")
    for p in (SRC / "svmfs").rglob("*.py")
    if p.name != "__main__.py"  # a command line, run on import
)
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _examples(name: str) -> list[doctest.DocTest]:
    module = importlib.import_module(name)
    return [t for t in doctest.DocTestFinder().find(module, name) if t.examples]


WITH_EXAMPLES = []
for _name in MODULES:
    try:
        if _examples(_name):
            WITH_EXAMPLES.append(_name)
    except ImportError:  # an optional dependency missing: the module's own tests skip it too
        continue


@pytest.mark.parametrize("name", WITH_EXAMPLES)
def test_docstring_examples_run(name):
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    for test in _examples(name):
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {name} failed (output above)"


def test_the_registry_methods_carry_examples():
    """Each selector class of the method registry shows a fit in its docstring."""
    from svmfs.methods.registry import METHODS

    classes = {spec.target: spec.load() for spec in METHODS.values() if "_own" not in spec.target}
    missing = sorted(t for t, cls in classes.items() if ">>> " not in (cls.__doc__ or ""))
    assert missing == []
