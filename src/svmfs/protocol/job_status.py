"""A select job's own judgement of its result, beside the selector's status (:data:`svmfs.methods.base.STATUSES`).

``collapsed``: the selector ended ``ok`` or ``acceptable`` with at least one feature, but the final classifier
refitted on the selection (step 5 of the job, on the whole training side) predicts one class for every
training point, where the training side holds two classes or more. The job sees it without ground truth: the
selection carries no information the classifier can use (e.g. MILP-FS at its time limit on pima, whose
incumbent's features leave the linear SVM predicting the majority class). Like ``empty``, it is not a success,
and the summary counts it among the failures (:data:`svmfs.analysis.tables.OK_STATUSES`).
"""

from __future__ import annotations

import numpy as np

#: The selector's statuses a collapsed selection replaces (an earlier failure says more and is kept).
SUCCESS = ("ok", "acceptable")


def collapsed_fields(rec: dict, train_pred, ytr) -> dict:
    """``{"status": "collapsed", "message": ...}`` for a job whose selector succeeded but whose final classifier
    predicts one class for every training point (``train_pred`` against the training labels ``ytr``);
    ``{}`` otherwise.

    Examples
    --------
    >>> rec = {"status": "ok", "message": "", "n_selected": 3}
    >>> collapsed_fields(rec, [1, 1, 1, 1], [0, 1, 0, 1])["status"]
    'collapsed'
    >>> collapsed_fields(rec, [0, 1, 1, 1], [0, 1, 0, 1]), collapsed_fields({**rec, "status": "max_iter"}, [1] * 4, [0, 1] * 2)
    ({}, {})
    """
    predicted = np.unique(np.asarray(train_pred))
    if rec["status"] not in SUCCESS or predicted.size != 1 or np.unique(np.asarray(ytr)).size < 2:
        return {}
    note = (f"the final classifier on the {rec['n_selected']} selected feature(s) predicts class {predicted[0].item()!r} "
            f"for all {len(train_pred)} training points (solver: {rec['status']})")  # fmt: skip
    return {"status": "collapsed", "message": "; ".join(filter(None, [note, rec.get("message", "")]))}


def status_fields(rec: dict, clock, train_pred, ytr) -> dict:
    """The record's ``status`` and ``message`` as the job judges them: ``collapsed`` (:func:`collapsed_fields`),
    then ``time_limit`` where the job's budget stopped its tuning
    (:meth:`~svmfs.protocol.job_budget.JobClock.record_fields`); ``{}`` where the selector's stand."""
    out = collapsed_fields(rec, train_pred, ytr)
    if clock is not None:
        out.update(clock.record_fields({**rec, **out}))
    return out
