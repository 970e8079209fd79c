"""Time and memory of one fit of l1_svm, FS-SVMCP and SVM-RFE against the number of features.

Leukemia (72 x 7129, z-scored, loaded as in bench_rfe.py), first p probes for p in P. Fixed C = 1,
no inner CV (FS-SVMCP: C_grid=[1.0]); SVM-RFE with the MIT schedule (10 % while > 100, then one at a
time, kernel route), for reference. Each (method, p) runs in a fresh Python process; its peak
resident set is reset before the fits (Linux: "5" into /proc/self/clear_refs) so that the peak
memory of the fits is VmHWM after them minus VmRSS before (native HiGHS / libsvm memory included).
Time: best of 3, or the single run when it exceeds 30 s. A child is stopped after 360 s (300 s
plus start-up) and larger p are then skipped for that method. Inside FS-SVMCP and l1_svm the time of the linear
SVM (LinearSVC), of building the LP and of HiGHS (scipy linprog) is recorded separately.

Usage: python benchmarks/bench_linear_scaling.py
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

P = (500, 1000, 2000, 4000, 7129)
METHODS = ("l1_svm", "fs_svmcp", "svm_rfe")
TIMEOUT = 300.0


def _timed(parts, name, *modules):
    """Replace ``name`` in each module by one wrapper adding its wall time to parts[name]."""
    f = getattr(modules[0], name)

    def wrapper(*args, **kwargs):
        t0 = time.perf_counter()
        try:
            return f(*args, **kwargs)
        finally:
            parts[name] += time.perf_counter() - t0

    for module in modules:
        setattr(module, name, wrapper)


def _memory_kb():
    """(VmRSS, VmHWM) of this process in kB."""
    fields = dict(line.split(":") for line in Path("/proc/self/status").read_text().splitlines())
    return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])


def one(method: str, p: int) -> dict:
    """Fit ``method`` on the first p probes (run in a child process); returns the measurements."""
    import svmfs.methods.fs_svmcp as fs_mod
    import svmfs.methods.l1_svm as l1_mod
    import svmfs.solvers.linear_programs as lp_mod
    from bench_rfe import leukemia
    from svmfs.methods.fs_svmcp import FSSVMCP
    from svmfs.methods.l1_svm import L1SVM
    from svmfs.methods.svm_rfe import SVMRFE

    X, y, _ = leukemia()
    X = X[:, :p].copy()
    make = {
        "l1_svm": lambda: L1SVM(C=1.0),
        "fs_svmcp": lambda: FSSVMCP(C_grid=[1.0]),
        "svm_rfe": lambda: SVMRFE(C=1.0, step=0.1, switch_at=100, solver="kernel"),
    }[method]
    parts = defaultdict(float)
    _timed(parts, "_tuned_svm", fs_mod)  # LinearSVC fits of FS-SVMCP's step 1
    _timed(parts, "linprog", lp_mod)  # HiGHS dual simplex
    _timed(parts, "weighted_l1_svm", fs_mod, l1_mod)  # LP build + HiGHS + read-out
    Path("/proc/self/clear_refs").write_text("5")  # reset the peak resident set (VmHWM) to VmRSS
    rss_before, _ = _memory_kb()
    best, runs = None, 0
    while runs < 3:
        parts.clear()
        t0 = time.perf_counter()
        sel = make().fit(X, y)
        t, runs = time.perf_counter() - t0, runs + 1
        if best is None or t < best[0]:
            best = (t, dict(parts))
        if t > 30:
            break
    _, peak = _memory_kb()
    d = sel.diagnostics_
    out = {
        "method": method, "p": p, "time_s": best[0], "runs": runs,
        "selected": int(sel.support_.sum()) if method != "svm_rfe" else None,
        "status": d["status"], "n_iter": d.get("n_iter"),
        "peak_mb": (peak - rss_before) / 1024, "rss_before_mb": rss_before / 1024,
        "svm_s": best[1].get("_tuned_svm", 0.0), "lp_s": best[1].get("weighted_l1_svm", 0.0),
        "highs_s": best[1].get("linprog", 0.0),
    }  # fmt: skip
    if method == "fs_svmcp":
        out["path"] = [(s["n_active"], s["n_rows"], s["n_hat"]) for s in d["path"]]
    return out


def main():
    here = Path(__file__).resolve()
    rows, skip = [], set()
    for method in METHODS:
        for p in P:
            if method in skip:
                rows.append({"method": method, "p": p, "skipped": True})
                continue
            try:
                res = subprocess.run([sys.executable, str(here), method, str(p)], capture_output=True, text=True,
                                     timeout=TIMEOUT + 60, check=True)  # fmt: skip
            except subprocess.TimeoutExpired:
                rows.append({"method": method, "p": p, "timeout": True})
                skip.add(method)
                print(f"{method} p={p}: stopped after {TIMEOUT + 60:.0f} s", flush=True)
                continue
            row = json.loads(res.stdout.strip().splitlines()[-1])
            rows.append(row)
            print(json.dumps(row), flush=True)
            if row["time_s"] > TIMEOUT:
                skip.add(method)
    print("\n| method | p | time | runs | selected | status | iterations | LinearSVC | LP total (HiGHS) | peak memory |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        if r.get("skipped") or r.get("timeout"):
            print(f"| {r['method']} | {r['p']} | {'> 300 s' if r.get('timeout') else 'skipped'} | | | | | | | |")
            continue
        sel = "ranking" if r["selected"] is None else r["selected"]
        lp = f"{r['lp_s']:.2f} s ({r['highs_s']:.2f} s)" if r["lp_s"] else "-"
        svm = f"{r['svm_s']:.2f} s" if r["svm_s"] else "-"
        print(f"| {r['method']} | {r['p']} | {r['time_s']:.2f} s | {r['runs']} | {sel} | {r['status']} | {r['n_iter']} | "
              f"{svm} | {lp} | {r['peak_mb']:.0f} MB |")  # fmt: skip
    for r in rows:
        if r.get("path"):
            print(f"- fs_svmcp p={r['p']}: path (active, rows in I, nonzeros of w_hat) = {r['path']}")


if __name__ == "__main__":
    if len(sys.argv) == 3:
        print(json.dumps(one(sys.argv[1], int(sys.argv[2]))))
    else:
        main()
