"""Issue 20 goal 2: a C2 sweep of MM-FS warm-started from the neighbouring C2, against independent fits.

Cases: colon training sides as bench_mmfs.py builds them (jimenez2021's outer folds, min-max to [-1, 1] on
the training side); the 11 C2 of jimenez2021. One process, one BLAS thread, CPU time (``time.process_time``)
per fit; each mode is run REPEATS times and the median sweep time is reported (the per-C2 rows are the
median run's). Modes, all on the reduced route (solvers/mmfs_reduced.py):

- ``cold, libsvm each time``: 11 independent fits from the isotropic start, with the SVM solved by libsvm at
  every evaluation (the route before ``SVMValue.alpha`` reused the support partition);
- ``cold``: 11 independent fits from the isotropic start (today's route);
- ``warm, full``: each C2 from the previous C2's gamma, L-BFGS-B on all M widths (last session's attempt);
- ``path``: ``c2_path`` in the listed order: the first C2 cold, each next one from the previous gamma on a
  working set (``solve_mmfs_reduced_from``); ``path, descending``: the same from C2 = 0.99 down.

Every row gives F at the fit's gamma (``reduced_objective``) and whether F (1e-6 relative, the goal's
criterion; the largest relative difference is printed) and the genes (gamma_j > 1e-2) equal the cold fit's.

Run:  python benchmarks/bench_mmfs_c2_path.py [REPEATS]   (prints a RESULTS.md section)
"""

from __future__ import annotations

import os
import platform
import statistics
import sys
import time
from pathlib import Path

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[var] = "1"

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_mmfs import GOAL2_C2S, colon_train  # noqa: E402

from svmfs.solvers import mmfs_reduced as mr  # noqa: E402

#: (outer fold, C, gamma_ini): the benchmark start of "Issue 20 goal 2", and a start the campaign's inner CV picked.
CASES = [(2, 1.0, 5e-4), (5, 7.0, 1e-3)]


def genes(gamma):
    return frozenset(np.flatnonzero(gamma > 1e-2).tolist())


def sweep(mode, X, y, C, g0, C2s):
    """[(C2, cpu_s, n_iter, gamma)] for one mode, in C2s order."""
    rows = []
    if mode.startswith("cold"):
        for c2 in C2s:
            t = time.process_time()
            r = mr.solve_mmfs_reduced(X, y, C, c2, g0)
            rows.append((c2, time.process_time() - t, r.n_iter, r.gamma))
        return rows
    if mode == "warm, full":
        prev = g0
        for c2 in C2s:
            t = time.process_time()
            r = mr.solve_mmfs_reduced(X, y, C, c2, prev)
            rows.append((c2, time.process_time() - t, r.n_iter, r.gamma))
            prev = r.gamma
        return rows
    order = list(C2s)[::-1] if mode.endswith("descending") else list(C2s)
    prev = None
    for i, c2 in enumerate(order):
        t = time.process_time()
        r = mr.solve_mmfs_reduced(X, y, C, c2, g0) if i == 0 else mr.solve_mmfs_reduced_from(X, y, C, c2, prev)
        rows.append((c2, time.process_time() - t, r.n_iter, r.gamma))
        prev = r.gamma
    return sorted(rows, key=lambda row: C2s.index(row[0]))


MODES = ["cold, libsvm each time", "cold", "warm, full", "path", "path, descending"]


def run_mode(mode, X, y, C, g0, repeats):
    runs = []
    original = mr.SVMValue.kkt_on
    if mode == "cold, libsvm each time":
        mr.SVMValue.kkt_on = lambda self, K, free, upper: None
    try:
        for _ in range(repeats):
            rows = sweep(mode, X, y, C, g0, list(GOAL2_C2S))
            runs.append((sum(r[1] for r in rows), rows))
    finally:
        mr.SVMValue.kkt_on = original
    runs.sort(key=lambda run: run[0])
    return runs[len(runs) // 2], [run[0] for run in runs]


def main(repeats=3):
    out = [f"## Issue 20 goal 2: the warm-started C2 sweep (`bench_mmfs_c2_path.py`, {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC)", ""]
    out += [f"Machine: {os.cpu_count()} cores, {platform.machine()}; 1-min load at the start {os.getloadavg()[0]:.1f} "
            f"(other jobs at nice 15). One process, one BLAS thread, CPU time; median of {repeats} sweeps per mode.", ""]  # fmt: skip
    for fold, C, g0 in CASES:
        X, y, _ = colon_train(fold)
        res = {m: run_mode(m, X, y, C, g0, repeats) for m in MODES}
        ref = {c2: g for c2, _, _, g in res["cold"][0][1]}
        out += [f"### colon fold {fold} ({X.shape[0]} x {X.shape[1]}), C = {C:g}, gamma_ini = {g0:g}", ""]
        out += ["| mode | sweep CPU (median) | runs | iterations | vs cold: max F rel. diff | same genes at all 11 | speed-up vs cold |",
                "| --- | --- | --- | --- | --- | --- | --- |"]  # fmt: skip
        cold_t = res["cold"][0][0]
        for m in MODES:
            (total, rows), all_t = res[m]
            Fs = [(mr.reduced_objective(X, y, C, c2, g), mr.reduced_objective(X, y, C, c2, ref[c2])) for c2, _, _, g in rows]
            rel = max(abs(a - b) / abs(b) for a, b in Fs)
            same = all(genes(g) == genes(ref[c2]) for c2, _, _, g in rows)
            out.append(f"| {m} | {total:.2f} s | {', '.join(f'{t:.2f}' for t in all_t)} | {sum(r[2] for r in rows)} | "
                       f"{rel:.1e} | {same} | {cold_t / total:.1f}x |")  # fmt: skip
        out += ["", "Per C2 (median run): CPU s / iterations, F, genes", "",
                "| C2 | " + " | ".join(MODES) + " | F (cold) | genes (cold) |",
                "| --- |" + " --- |" * (len(MODES) + 2)]  # fmt: skip
        for i, c2 in enumerate(GOAL2_C2S):
            cells = [f"{res[m][0][1][i][1]:.3f} / {res[m][0][1][i][2]}" for m in MODES]
            out.append(f"| {c2} | " + " | ".join(cells) + f" | {mr.reduced_objective(X, y, C, c2, ref[c2]):.10g} | {len(genes(ref[c2]))} |")
        out.append("")
    print("\n".join(out))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
