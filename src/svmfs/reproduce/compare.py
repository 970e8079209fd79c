"""A committed select job's record against its rerun, field by field as ``records.csv`` prints them: the
deterministic fields (:data:`svmfs.results.record.STABLE_COLUMNS`) must agree, except what another CPU may
change (a solver's path, the last digits of a converged float), which is listed apart."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..results.record import FLOAT_FORMAT, STABLE_COLUMNS
from .jobs import JOB_KEY

#: Fields that describe a solver's path, not its result: its status, message and iteration count follow the CPU's
#: rounding (another machine's BLAS kernels take another path to the same optimum). A rerun that differs only
#: there has the committed result; ``check`` reports it without failing.
PATH_COLUMNS = ("status", "message", "n_iter")
#: Real-valued results compared with a tolerance: |a - b| <= FLOAT_RTOL max(|a|, |b|) + FLOAT_ATOL, what an
#: iterative solver's converged output keeps across CPUs (its last digits do not; on one machine they are equal).
#: Accuracies are counts over n: any changed prediction moves them by at least 1 / n, far above it.
FLOAT_COLUMNS = ("train_accuracy", "test_accuracy", "test_balanced_accuracy", "test_auc", "inner_accuracy",
                 "inner_final_accuracy", "recall_relevant", "precision_relevant", "objective", "kernel_width_l1")  # fmt: skip
FLOAT_RTOL, FLOAT_ATOL = 1e-6, 1e-9


def compare_jobs(committed: pd.DataFrame, new: pd.DataFrame) -> dict[tuple, tuple[list[str], list[str]]]:
    """Per job (dataset, method, setting, fold): (the deterministic fields whose results differ, the fields that
    differ within what another CPU may change: :data:`PATH_COLUMNS`, and :data:`FLOAT_COLUMNS` within the
    tolerance), each as ``"<field>: committed '...', rerun '...'"``, compared as records.csv prints them."""
    out: dict[tuple, tuple[list[str], list[str]]] = {}
    new_by = {tuple(r[k] for k in JOB_KEY): r for _, r in new.iterrows()}
    for _, old in committed.iterrows():
        key = tuple(old[k] for k in JOB_KEY)
        row = new_by.get(key)
        if row is None:
            out[key] = (["no new record"], [])
            continue
        diff, path = [], []
        for col in STABLE_COLUMNS:
            a = _fmt_value(old[col]) if col in old else ""
            b = _fmt_value(row[col]) if col in row else ""
            if a != b:
                line = f"{col}: committed {a[:80]!r}, rerun {b[:80]!r}"
                (path if col in PATH_COLUMNS or (col in FLOAT_COLUMNS and _close(a, b)) else diff).append(line)
        out[key] = (diff, path)
    return out


def compare_records(committed: pd.DataFrame, new: pd.DataFrame) -> dict[tuple, list[str]]:
    """Per job: the fields whose results differ (:func:`compare_jobs`), nothing for a path or last-digit change."""
    return {key: diff for key, (diff, _) in compare_jobs(committed, new).items()}


def _fmt_value(v) -> str:
    """A value as ``records.csv`` prints it (floats with the store's format; lists as JSON text)."""
    if v is None or (isinstance(v, float) and np.isnan(v)):
        return ""
    if isinstance(v, (bool, np.bool_)):
        return str(bool(v))
    if isinstance(v, (float, np.floating)):
        return FLOAT_FORMAT % float(v)
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    return str(v)


def _close(a: str, b: str) -> bool:
    try:
        x, y = float(a), float(b)
    except ValueError:
        return False
    return abs(x - y) <= FLOAT_RTOL * max(abs(x), abs(y)) + FLOAT_ATOL
