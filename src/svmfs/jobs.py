"""Helpers for the workflow's scripts: logging into the job's log file, thread limits, params access."""

from __future__ import annotations

import contextlib
import logging
import sys
import traceback
import warnings
from pathlib import Path


@contextlib.contextmanager
def job_context(log_path: str | None, threads: int = 1, name: str = "svmfs"):
    """Send logging, warnings and tracebacks of the job to ``log_path``; limit BLAS/OpenMP threads.

    The ``name`` logger (and its children, ``svmfs.*``) logs from INFO up, every other library from
    WARNING up: cyipopt alone logs each callback at INFO, thousands of lines per solve.
    An exception is logged with its traceback (so ``--show-failed-logs`` shows it) and re-raised.
    """
    from threadpoolctl import threadpool_limits

    handlers: list[logging.Handler] = [logging.StreamHandler(sys.stderr)]
    if log_path:
        Path(log_path).parent.mkdir(parents=True, exist_ok=True)
        handlers.append(logging.FileHandler(log_path, mode="w"))
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(message)s", handlers=handlers, force=True)
    logging.captureWarnings(True)
    log = logging.getLogger(name)
    log.setLevel(logging.INFO)
    with threadpool_limits(limits=max(1, int(threads))), warnings.catch_warnings():
        warnings.simplefilter("default")
        try:
            yield log
        except BaseException:
            log.error("job failed:\n%s", traceback.format_exc())
            raise
