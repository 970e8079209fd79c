"""Time and memory of one fit of l1_svm, FS-SVMCP and SVM-RFE against the number of features.

Leukemia (72 x 7129, z-scored; :func:`benchmarks.common.leukemia`), its first p probes. Fixed C = 1, no inner CV
(FS-SVMCP: ``C_grid=[1.0]``); SVM-RFE with the MIT schedule (10 % while > 100, then one at a time, kernel route),
for reference. Each (method, p) runs in a fresh (forked) process; its peak resident set is reset before the fits
(Linux: "5" into /proc/self/clear_refs), so the fits' peak memory is VmHWM after them minus VmRSS before (native
HiGHS / libsvm memory included). Time: best of 3, or the single run when it exceeds 30 s; CPU of that run. A
method whose fit exceeds 300 s is not run at larger p. One BLAS thread.
"""

from __future__ import annotations

import multiprocessing
import time
from pathlib import Path

from benchmarks.common import blas_threads, leukemia

QUESTION = "How do the time and memory of one l1_svm, FS-SVMCP and SVM-RFE fit grow with the number of features?"
DATA = "Leukemia (Golub, 72 x 7129, z-scored), its first p probes, p in {500, 1000, 2000, 4000, 7129} (quick: 500, 2000), C = 1, 1 BLAS thread"
TOPIC = "scale"
RESULTS = "linear_scaling"
P = (500, 1000, 2000, 4000, 7129)
METHODS = ("l1_svm", "fs_svmcp", "svm_rfe")
TIMEOUT = 300.0


def _memory_kb():
    """(VmRSS, VmHWM) of this process in kB."""
    fields = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines())
    return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])


def one(method: str, p: int) -> dict:
    """Fit ``method`` on the first p probes (in a child process); the measurements."""
    from svmfs.methods.fs_svmcp import FSSVMCP
    from svmfs.methods.l1_svm import L1SVM
    from svmfs.methods.svm_rfe import SVMRFE

    X, y, _ = leukemia()
    X = X[:, :p].copy()
    make = {"l1_svm": lambda: L1SVM(C=1.0), "fs_svmcp": lambda: FSSVMCP(C_grid=[1.0]),
            "svm_rfe": lambda: SVMRFE(C=1.0, step=0.1, switch_at=100, solver="kernel")}[method]  # fmt: skip
    try:
        Path("/proc/self/clear_refs").write_text("5")  # reset the peak resident set (VmHWM) to VmRSS
    except OSError:
        pass
    rss_before, _ = _memory_kb()
    best, runs = None, 0
    with blas_threads(1):
        while runs < 3:
            t, c = time.perf_counter(), time.process_time()
            sel = make().fit(X, y)
            t, c, runs = time.perf_counter() - t, time.process_time() - c, runs + 1
            if best is None or t < best[0]:
                best = (t, c)
            if t > 30:
                break
    _, peak = _memory_kb()
    d = getattr(sel, "diagnostics_", {}) or {}
    return {"method": method, "p": p, "wall_s": round(best[0], 2), "cpu_s": round(best[1], 2), "runs": runs,
            "selected": int(sel.support_.sum()) if method != "svm_rfe" else "ranking", "status": d.get("status"),
            "n_iter": d.get("n_iter"), "peak_mb": round((peak - rss_before) / 1024), "rss_before_mb": round(rss_before / 1024)}  # fmt: skip


def _child(method, p, queue):
    queue.put(one(method, p))


def run(case: str = "", quick: bool = False) -> list[dict]:
    ctx = multiprocessing.get_context("fork")
    rows, skip = [], set()
    for method in METHODS:
        for p in (500, 2000) if quick else P:
            if method in skip:
                rows.append({"method": method, "p": p, "status": "not run (an earlier p took over 300 s)"})
                continue
            q = ctx.Queue()
            proc = ctx.Process(target=_child, args=(method, p, q))
            proc.start()
            proc.join(TIMEOUT + 60)
            if proc.is_alive():
                proc.kill()
                proc.join()
                rows.append({"method": method, "p": p, "status": f"stopped after {TIMEOUT + 60:.0f} s"})
                skip.add(method)
                continue
            row = q.get()
            rows.append(row)
            if row["wall_s"] > TIMEOUT:
                skip.add(method)
    return rows
