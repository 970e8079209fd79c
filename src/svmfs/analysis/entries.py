"""The published figures (``published.yaml``, next to this module): each entry's identity, the papers' run
counts, and why a number cannot be run here (its data or its method).

Examples
--------
>>> entry_key({"paper": "rinaldi2010", "table": "Tables 1-2", "dataset": "colon", "method": "svm_linear",
...            "metric": "test_accuracy"})
'rinaldi2010|Tables 1-2|colon|svm_linear|test_accuracy||'
>>> "rinaldi2010" in published()["papers"]
True
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from ..yamlio import load_yaml_text


def entry_key(e: dict) -> str:
    """The published number's identity (unique in published.yaml): paper, table, dataset, method, metric,
    and the entry's own setting and aggregate; the index of committed campaigns matches rows on it."""
    return "|".join(str(e.get(k) or "") for k in ("paper", "table", "dataset", "method", "metric", "setting", "aggregate"))


@cache
def published() -> dict:
    """The project's copy of the published figures: ``{"papers": {...}, "entries": [...]}``."""
    source = resources.files("svmfs.analysis").joinpath("published.yaml")
    return load_yaml_text(source.read_text(), source)


def _published_runs(e: dict, ours_n: int) -> tuple[int, str | None]:
    """The paper's run count behind its sd (its ``runs`` per table), else the campaign's own count."""
    runs = published()["papers"][e["paper"]].get("runs", {})
    n = e.get("runs", runs.get(e["table"]) if isinstance(runs, dict) else runs)
    if n:
        return int(n), None
    return ours_n, f"paper's run count unknown: taken as the campaign's {ours_n}"


def data_not_run(e: dict) -> str | None:
    """The not-run verdict of a published entry whose data cannot be had here, else None: no public source
    (``unavailable``, by dataset), or public but not reachable from the machine that ran the committed
    campaigns (``unreachable``, by dataset or by "paper/table")."""
    pub = published()
    why = pub.get("unavailable", {}).get(e["dataset"])
    if why:
        return f"not run: no public source ({why})"
    unreachable = pub.get("unreachable", {})
    why = unreachable.get(e["dataset"]) or unreachable.get(f"{e['paper']}/{e['table']}")
    return f"not run: not reachable here ({why})" if why else None


def method_not_run(e: dict) -> str | None:
    """The not-run verdict of a published entry whose method cannot be run here, else None: a number the
    paper copies from another paper that ``published.yaml`` also holds (``same_as``: judged as that entry,
    :func:`same_as_key`), or a method no module implements (``not_implemented``, by method)."""
    if e.get("same_as"):
        ref = e["same_as"]
        return f"not run: copied from {ref['paper']} {ref['table']} ({ref['method']}), judged there"
    why = published().get("not_implemented", {}).get(e["method"])
    return f"not run: not implemented here ({why})" if why else None


def same_as_key(e: dict) -> str | None:
    """The key of the entry a copied number stands for (its ``same_as``: paper, table and method; the
    dataset, metric, setting and aggregate are the entry's own); None if it is not a copy."""
    return entry_key({**e, **e["same_as"]}) if e.get("same_as") else None


def not_run_verdict(e: dict, reason: str) -> str:
    """Why a published entry was not run: its data's or its method's own reason, else ``reason``."""
    return data_not_run(e) or method_not_run(e) or f"not run: {reason}"
