"""Benchmarks' fit log: every selector fit a select job makes, timed (issue 34's job profiles).

``log_selector_fits(record)`` replaces :func:`svmfs.protocol.select_job.selector_factory` so that each selector the
job builds times its ``fit`` and then calls ``record(selector, X, wall_s, cpu_s)``; the job's results are those of
the job run plainly (the fit itself is untouched).
"""

from __future__ import annotations

import time
from typing import Any, Callable


def log_selector_fits(record: Callable[[Any, Any, float, float], None]) -> None:
    import svmfs.protocol.select_job as sj

    original = sj.selector_factory

    def logging_factory(cls, fixed, seed):
        make = original(cls, fixed, seed)

        def make_logged(**params):
            sel = make(**params)
            fit = sel.fit

            def timed_fit(X, y, **kw):
                w, c = time.perf_counter(), time.process_time()
                out = fit(X, y, **kw)
                record(sel, X, time.perf_counter() - w, time.process_time() - c)
                return out

            sel.fit = timed_fit
            return sel

        return make_logged

    sj.selector_factory = logging_factory
