"""One fit of every registry method, with its registry defaults, at omics size: time, peak memory, selection.

Synthetic MIT 9.520 Example 1 data (:func:`svmfs.data.synthetic.mit_example1`: 80 samples, half per class,
10 informative coordinates of mean +-1, rho = 0.2) with p = 12 600 (a prostate array's probes) and 54 675 (a GEO
HG-U133 Plus 2 array's), z-scored. Each (method, p) fits in a fresh (forked) process, one BLAS thread, stopped
after the per-fit limit (quick: 20 s, full: 120 s); a method stopped at the smaller p is not run at the larger.
Peak memory: VmHWM after the fit minus VmRSS before it (the peak reset first, as in ``linear_scaling``; data and
imports excluded, native solver memory included). ``selected``: the fit's support size; ``recall``: the share of
the 10 informative features in it, or, for a method that ranks all features (``truncation`` a size), in its 10
best-ranked (``recall_at_10``), the size a campaign's grid would read off the same fit.
"""

from __future__ import annotations

import multiprocessing
import time
from pathlib import Path

from benchmarks.common import blas_threads, zscore

QUESTION = "How long does one fit of each registry method take, and how much memory, at 80 x 12 600 and 80 x 54 675?"
DATA = ("synthetic MIT 9.520 Example 1, n = 80, 10 informative features, rho = 0.2, p in {12 600, 54 675} "
        "(quick: 12 600 only), z-scored, registry defaults, 1 BLAS thread, one fit per process")  # fmt: skip
TOPIC = "scale"
RESULTS = "omics_scale"
SIZES = (12600, 54675)
LIMIT_S = {True: 20.0, False: 120.0}  # per fit, quick / full
#: RESULTS.md keeps every method's row (the table the cost model of :mod:`svmfs.config.budget` reads).
SHOW_ALL_ROWS = True


def _memory_kb():
    """(VmRSS, VmHWM) of this process in kB."""
    fields = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines())
    return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])


def data(p: int):
    """(X z-scored, y in {-1, 1}, the informative indices) at 80 x p."""
    from svmfs.data.synthetic import mit_example1

    X, y, relevant = mit_example1(n=80, p=p, k0=10, rho=0.2, seed=0)
    return zscore(X), y, [int(i) for i in relevant]


def one(method: str, p: int) -> dict:
    """Fit ``method`` (registry defaults) on 80 x p; the measurements."""
    import numpy as np

    from svmfs.methods.registry import get_method

    spec = get_method(method)
    X, y, relevant = data(p)
    sel = spec.load()(**spec.params)
    try:
        Path("/proc/self/clear_refs").write_text("5")  # reset the peak resident set (VmHWM) to VmRSS
    except OSError:
        pass
    rss_before, _ = _memory_kb()
    with blas_threads(1):
        t, c = time.perf_counter(), time.process_time()
        sel.fit(X, y)
        t, c = time.perf_counter() - t, time.process_time() - c
    _, peak = _memory_kb()
    support = np.asarray(sel.get_support(), bool)
    ranked = spec.truncation == "n_features_to_select" and hasattr(sel, "ranking_")
    shown = np.asarray(sel.support_for_size(10), bool) if ranked else support
    d = getattr(sel, "diagnostics_", {}) or {}
    return {"method": method, "p": p, "wall_s": round(t, 2), "cpu_s": round(c, 2), "peak_mb": round((peak - rss_before) / 1024),
            "status": d.get("status"), "selected": int(support.sum()),
            "recall": round(float(shown[relevant].mean()), 2), "recall_of": "top 10 of the ranking" if ranked else "selection"}  # fmt: skip


def _child(method, p, queue):
    try:
        queue.put(one(method, p))
    except Exception as exc:  # a method that refuses the data says why, in its row
        queue.put({"method": method, "p": p, "status": f"error: {type(exc).__name__}: {str(exc)[:80]}"})


def _measure(ctx, method: str, p: int, limit: float) -> dict:
    q = ctx.Queue()
    proc = ctx.Process(target=_child, args=(method, p, q))
    t0 = time.perf_counter()
    proc.start()
    proc.join(limit)
    if proc.is_alive():
        proc.kill()
        proc.join()
        return {"method": method, "p": p, "wall_s": round(time.perf_counter() - t0, 1), "status": f"over {limit:.0f} s (stopped)"}
    return q.get() if not q.empty() else {"method": method, "p": p, "status": f"died (exit {proc.exitcode})"}


def table(case: str, rows: list[dict]) -> list[dict]:
    """One row per method: its wall seconds, peak memory, selected count, recall and status at each size."""
    by_method: dict[str, dict] = {}
    for r in rows:
        out = by_method.setdefault(r["method"], {"method": r["method"]})
        size = f"{int(r['p']) // 1000}k" if int(r["p"]) % 1000 == 0 else f"{int(r['p']) / 1000:.1f}k"
        for key in ("wall_s", "peak_mb", "selected", "recall", "status"):
            out[f"{key} {size}"] = r.get(key, "")
    for r in rows:  # what `recall` counts: the selection, or the 10 best-ranked of a ranking
        by_method[r["method"]].setdefault("recall of", r.get("recall_of") or "")
    return list(by_method.values())


def run(case: str = "", quick: bool = False) -> dict:
    from svmfs.methods.registry import METHODS

    ctx = multiprocessing.get_context("fork")
    limit, rows, stopped = LIMIT_S[quick], [], set()
    for p in SIZES[:1] if quick else SIZES:
        for method in sorted(METHODS):
            if method in stopped:
                rows.append({"method": method, "p": p, "status": "not run (stopped at a smaller p)"})
                continue
            row = _measure(ctx, method, p, limit + 10.0)  # data drawn in the child: 10 s beyond the fit's limit
            if str(row.get("status", "")).startswith(("over", "died")) or row.get("wall_s", 0) > limit:
                stopped.add(method)
            rows.append(row)
    return {"rows": rows, "notes": {"limit per fit": f"{limit:.0f} s (+10 s to draw the data in the child)"}}
