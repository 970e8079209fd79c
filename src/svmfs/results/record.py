"""The result record of one select job, its provenance, and the merged result store.

A record is a JSON object (``fold-<k>.json``) with the keys of :data:`STABLE_COLUMNS` and
:data:`VOLATILE_COLUMNS` plus list-valued fields (``selected``, ``ranking``, ``scores``,
``weights``) and ``diagnostics``. The same job also writes a one-row ``fold-<k>.parquet``; the parquet
rows and the merged parquet store also keep :data:`STORE_ONLY_COLUMNS`, the CSV store does not. The
merged parquet store of a campaign (rule collect) also names each method's paper (``method_paper``).
Stable columns depend only on the config and the code; volatile ones (times, host, versions, git SHA)
describe the run and are kept out of the deterministic tables.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import platform
import socket
import subprocess
from importlib import metadata
from pathlib import Path
import types
from typing import Any, TypedDict, get_args, get_type_hints

import pandas as pd

from .io import atomic_write_bytes, atomic_write_json, atomic_write_text, to_json

STABLE_COLUMNS = [
    "campaign", "dataset", "dataset_group", "method", "registry_method", "setting", "fold", "final_classifier",
    "status", "message", "n_train", "n_test", "n_features_total", "n_selected",
    "train_accuracy", "test_accuracy", "test_balanced_accuracy", "test_auc",
    "inner_accuracy", "inner_final_accuracy", "n_relevant", "recall_relevant",
    "precision_relevant", "exact_relevant", "objective", "n_iter", "kernel_width_l1", "selected",
    "selector_params", "final_params", "normalization", "leaky_normalization", "seed", "config_hash",
]  # fmt: skip
#: ``code_hash``: the fingerprint of the code the job ran (:func:`svmfs.reproduce.fingerprint.code_fingerprint`)
VOLATILE_COLUMNS = ["fit_time_s", "tune_time_s", "git_sha", "code_hash", "host", "versions"]
#: Per-feature columns kept in the parquet store only (a colon record has 2000 scores): the selector's
#: scores (e.g. MM-FS's gamma), which Table 3 of Jimenez-Cordero et al. ranks and averages over folds,
#: and the dataset's names of the selected features, which its Table 4 compares with the literature's; and
#: the kp_svm protocol's per-resample test accuracies, whose spread the reproduction verdicts use; the final
#: classifier's accuracy on each inner fold at its chosen point (a paper-protocol campaign may judge a
#: table by that inner CV: ``protocol.judged_by_inner_cv``).
#: The in-job audits' results (test_tuned, global_scaling) are kept too, so that a committed export restores
#: them with its records (reproduce restore) instead of leaving the optimism table without them.
AUDIT_COLUMNS = [
    "audit_test_tuned_accuracy", "audit_test_tuned", "audit_global_scaling_accuracy",
    "audit_global_scaling_accuracy_resamples", "audit_global_scaling_n_selected",
]  # fmt: skip
STORE_ONLY_COLUMNS = ["scores", "selected_names", "test_accuracy_resamples", "inner_final_accuracy_folds", *AUDIT_COLUMNS]
#: Store-only columns of some records only, kept in the parquet store where a record of the campaign has them
#: (so a store without them has no such column): a multiclass job's classes and per-class selections
#: (docs/multiclass.md), a method by import path's class and version (docs/own-method.md).
OPTIONAL_COLUMNS = ["n_classes", "per_class_selected", "method_class", "method_version"]
TEXT_COLUMNS = {
    "campaign", "dataset", "dataset_group", "method", "registry_method", "setting", "final_classifier", "status",
    "message", "normalization", "config_hash", "git_sha", "code_hash", "host",
}  # fmt: skip
NON_FINITE = {"nan", "inf", "-inf"}


class SelectRecord(TypedDict, total=False):
    """Every field a select job's record (``fold-<k>.json``) may hold, with its type: what rule select writes
    (:func:`write_record` checks it: :func:`check_record`) and :func:`read_records` reads. A float field may hold
    NaN (spelled ``"nan"`` in the JSON); ``None`` marks a value the method has not (e.g. a filter's ``n_iter``)."""

    # the job, as the workflow names it (scripts/select.py)
    campaign: str
    dataset: str
    dataset_group: str
    method: str
    registry_method: str
    setting: str
    fold: int
    seed: int
    # the nested choice and its scores (protocol.select_job, steps 3-6)
    final_classifier: str
    status: str
    message: str
    n_train: int
    n_test: int
    n_validation: int
    n_features_total: int
    n_selected: int
    selected: list
    selected_names: list
    selector_params: dict
    final_params: dict
    inner_accuracy: float | None
    inner_final_accuracy: float | None
    inner_final_accuracy_folds: list
    n_candidates: int
    inner_cv_rule: str | None
    train_accuracy: float
    test_accuracy: float
    test_balanced_accuracy: float
    test_auc: float | None
    test_accuracy_resamples: list
    normalization: str
    leaky_normalization: bool
    objective: float | None
    n_iter: int | None
    initial_solution: dict
    # the selector's fitted attributes (per feature) and solver diagnostics: the JSON record only, but scores
    ranking: list
    scores: list
    weights: list
    intercept: float | list
    kernel_widths: list
    diagnostics: dict
    # against a synthetic dataset's known relevant features
    n_relevant: int | None
    recall_relevant: float | None
    precision_relevant: float | None
    exact_relevant: bool | None
    # a multiclass job (docs/multiclass.md): the training side's classes, a one-versus-rest selector's per-class selections
    n_classes: int
    per_class_selected: dict
    # a method given by import path (docs/own-method.md): its class and that class's version
    method_class: str
    method_version: str | None
    # the in-job audits (campaign key ``audits``)
    audit_test_tuned_accuracy: float | None
    audit_test_tuned: dict
    audit_test_tuned_time_s: float
    audit_global_scaling_accuracy: float | None
    audit_global_scaling_accuracy_resamples: list
    audit_global_scaling_n_selected: int | None
    # how the job ran: config and code (config_hash, code_hash, git_sha), times, host, package versions
    config_hash: str
    code_hash: str | None
    git_sha: str
    fit_time_s: float
    tune_time_s: float
    host: str
    versions: dict
    restored_from: str


#: columns of the stores that no record holds: derived from one (``kernel_width_l1``: :func:`flat_row`) or added
#: by the merge (``method_paper``: :func:`read_records`)
DERIVED_COLUMNS = {"kernel_width_l1": float | None, "method_paper": str}


def record_schema() -> dict[str, Any]:
    """The record's fields and their types (:class:`SelectRecord`)."""
    return get_type_hints(SelectRecord)


def _accepts(kind, value) -> bool:
    """Whether ``value`` is of annotation ``kind`` (``float`` takes an int and NaN / inf spelled as text too)."""
    args = get_args(kind) if isinstance(kind, types.UnionType) else (kind,)
    for t in args:
        if t is type(None) and value is None:
            return True
        if t is float and (isinstance(value, (int, float)) and not isinstance(value, bool) or value in NON_FINITE):
            return True
        if t is int and isinstance(value, int) and not isinstance(value, bool):
            return True
        if t in (str, bool, list, dict) and isinstance(value, t):
            return True
    return False


def check_record(record: dict[str, Any], where: str = "record") -> None:
    """Raise ValueError naming ``where``, the field and its value if ``record`` holds a field :class:`SelectRecord`
    does not list or a value not of its type."""
    schema = record_schema()
    for key, value in record.items():
        if key not in schema:
            raise ValueError(f"{where}: field {key!r} is not a select record's (results.record.SelectRecord)")
        if not _accepts(schema[key], value):
            raise ValueError(f"{where}: field {key!r} = {value!r:.80} is not of type {schema[key]}")
PACKAGES = ("svmfs", "numpy", "scipy", "scikit-learn", "pandas", "cvxpy", "highspy", "pyomo", "snakemake")
FLOAT_FORMAT = "%.10g"


def config_hash(obj: Any) -> str:
    """sha256 (first 16 hex digits) of the canonical JSON of ``obj``."""
    return hashlib.sha256(to_json(obj).encode()).hexdigest()[:16]


def _git(workdir, *args) -> str:
    return subprocess.run(["git", *args], cwd=workdir, capture_output=True, text=True, timeout=10).stdout.strip()


def git_sha(workdir: str | Path = ".") -> str:
    """The workflow's commit, with ``-dirty`` if tracked files differ from it ("unknown" outside git).

    One ``git status`` (commit and changed tracked files together): it runs in every select job.
    """
    try:
        out = _git(workdir, "status", "--porcelain=v2", "--branch", "--untracked-files=no")
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    lines = out.splitlines()
    sha = next((ln.split()[2] for ln in lines if ln.startswith("# branch.oid ")), "")
    if not sha or sha == "(initial)":
        return "unknown"
    dirty = any(not ln.startswith("#") for ln in lines)
    return sha + "-dirty" if dirty else sha


@functools.lru_cache(maxsize=1)
def package_versions() -> dict[str, str | None]:
    """Versions of :data:`PACKAGES`, read once per process (a warm worker serves only the code it loaded,
    and restarts when a package folder changes: ``svmfs.worker``)."""
    versions = {}
    for pkg in PACKAGES:
        try:
            versions[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            versions[pkg] = None
    return versions


def provenance(workdir: str | Path = ".") -> dict[str, Any]:
    """Package versions, git SHA of the workflow (``git_sha``), host; a job reads it before it computes."""
    return {
        "versions": dict(package_versions()),
        "git_sha": git_sha(workdir),
        "host": socket.gethostname(),
        "python": platform.python_version(),
        "pid": os.getpid(),
    }


def flat_row(record: dict[str, Any]) -> dict[str, Any]:
    """One table row: scalars as they are, lists and dicts as compact JSON strings.

    ``kernel_width_l1`` is derived: sum_j gamma_j of the selector's anisotropic widths (MM-FS's
    ||gamma||_1, Jimenez-Cordero et al. Fig. 1), empty for methods without widths.
    """
    row = {}
    widths = record.get("kernel_widths")
    derived = {"kernel_width_l1": float(sum(widths)) if widths else None}
    for col in STABLE_COLUMNS + VOLATILE_COLUMNS + STORE_ONLY_COLUMNS:
        v = record[col] if col in record else derived.get(col)
        if isinstance(v, str) and v in NON_FINITE and col not in TEXT_COLUMNS:
            v = float(v)  # the JSON record spells NaN / inf as strings (io._clean); numbers again here
        if isinstance(v, (list, dict)):
            v = json.dumps(v, sort_keys=True, separators=(",", ":"))
        row[col] = v
    for col in OPTIONAL_COLUMNS:
        if col in record:
            v = record[col]
            row[col] = json.dumps(v, sort_keys=True, separators=(",", ":")) if isinstance(v, (list, dict)) else v
    return row


def write_record(record: dict[str, Any], json_path: str | Path, parquet_path: str | Path, check: bool = True) -> None:
    """Write the parquet row first and the JSON last: the JSON marks the job as complete. The record is checked
    against its schema first (:func:`check_record`; ``check=False`` for a record rebuilt from a store's row,
    whose integers may have come back as floats)."""
    import io

    if check:
        check_record(record, str(json_path))

    buf = io.BytesIO()
    pd.DataFrame([flat_row(record)]).to_parquet(buf, index=False)
    atomic_write_bytes(parquet_path, buf.getvalue())
    atomic_write_json(json_path, record)


def read_records(paths, method_papers: dict[str, str] | None = None) -> pd.DataFrame:
    """The records as rows of the store, sorted by job. With ``method_papers`` (campaign method name -> the
    method registry's ``paper``, as the collect rule gives it) a ``method_paper`` column too: analysis names
    a method's paper from the records alone, without the method registry."""
    rows = []
    for p in paths:
        record = json.loads(Path(p).read_text())
        if "restored_from" not in record:  # a restored record is its store row's (write_record's check=False)
            check_record(record, str(p))
        rows.append(flat_row(record))
    optional = [c for c in OPTIONAL_COLUMNS if any(c in r for r in rows)]
    df = pd.DataFrame(rows, columns=STABLE_COLUMNS + VOLATILE_COLUMNS + STORE_ONLY_COLUMNS + optional)
    if method_papers is not None:
        df["method_paper"] = df["method"].map(method_papers)
    return df.sort_values(["dataset", "method", "setting", "fold"], kind="stable").reset_index(drop=True)


def write_store(df: pd.DataFrame, parquet_path: str | Path, csv_path: str | Path) -> None:
    """The merged store: everything in parquet, the stable columns in a deterministic CSV."""
    import io

    buf = io.BytesIO()
    df.to_parquet(buf, index=False)
    atomic_write_bytes(parquet_path, buf.getvalue())
    atomic_write_text(csv_path, df[STABLE_COLUMNS].to_csv(index=False, float_format=FLOAT_FORMAT, lineterminator="\n"))
