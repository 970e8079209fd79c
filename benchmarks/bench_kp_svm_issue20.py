"""Issue 20 goal 3: KP-SVM fits that end at the 200-iteration cap, and the time of a colon fit, before/after.

Runs the same measurements in two child processes, one on the code of revision ``--before`` (extracted
with ``git archive``) and one on the working tree, back to back (same machine load), through the public
``KPSVM`` API only, with each version's defaults (before: step_scale "relative", stop when
||v^{t+1} - v^t||_1 < 1e-4; after: step_scale "shrink", stop when ||v^{t+1} - v^t||_1 < 1e-3 ||v^t||_1).

Fits (a reduced sample of the maldonado2011 campaigns): ``maldonado2011`` - WDBC, Pima, colon, three
class-stratified half/half splits each (the campaign has one; seeds 1-3), z-scored on the training side,
KP-SVM C2 = 10 with C and v0 from the isotropic inner CV; ``maldonado2011_params`` - colon, training sides
of folds 0-1 of the campaign's 10-fold split, its 25 settings (C = 100, v0 = 0.01, C2 = 10 unless varied).
Each fit is run with max_iter = 1000: the iterates do not depend on the stopping rule, so the fit stops
at the first iteration where its version's rule holds (the paper's line 9 as that version implements it);
a fit "ends at the 200 cap" when that iteration is beyond 200 or never comes.

Colon timing: KPSVM(C2=10) on the 56 x 2000 training side of ``bench_mmfs.colon_train`` (z-scored),
C and v0 by the isotropic inner CV (part of the fit), max_iter = 200; CPU (process) and wall time, best
and median of 3.

Run: python benchmarks/bench_kp_svm_issue20.py [--before REV] [--write]
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
MAX_ITER = 1000
CAP = 200
PARAMS_GRID = {
    "C2": [0.1, 1.0, 10.0, 100.0, 1000.0], "beta": [1.0, 2.0, 5.0, 10.0, 20.0], "step": [0.05, 0.1, 0.25, 0.5, 1.0],
    "eps": [0.0005, 0.001, 0.0025, 0.005, 0.01], "v0": [0.001, 0.003, 0.01, 0.03, 0.1],
}


def _z(X):
    sd = X.std(0)
    return (X - X.mean(0)) / np.where(sd > 0, sd, 1.0)


def _load(name):
    from svmfs.data.embedded import sklearn_breast_cancer
    from svmfs.data.formats import read_download
    from svmfs.data.registry import load_registry

    ds = sklearn_breast_cancer("wdbc") if name == "wdbc" else read_download(
        name, load_registry(ROOT / "config" / "datasets.yaml")[name], SHARED)
    return ds.X.astype(float), np.where(ds.y.astype(float) > 0, 1.0, -1.0)


def child():
    """One version's measurements (run with PYTHONPATH at that version's src); JSON on stdout."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_mmfs import colon_train

    import svmfs
    from svmfs.methods.kp_svm import KPSVM
    from svmfs.protocol.splits import make_splits

    fits = []

    def record(tag, sel):
        d = sel.diagnostics_
        n_iter = len(d["v_change"])
        stop = n_iter if (d["converged"] or d["message"]) else None
        fits.append({"tag": tag, "stop": stop, "capped": stop is None or stop > CAP,
                     "n_selected_at_stop": int(sel.support_.sum()) if stop else None,
                     "C": d["C"], "v0": d["v0"]})

    for name in ("wdbc", "pima", "colon"):
        X0, y0 = _load(name)
        for seed in (1, 2, 3):
            split = {"kind": "kp_svm", "train_size": 0.5, "n_resamples": 1, "fit_fraction": 0.6}
            tr = np.asarray(make_splits(y0, split, seed)[0]["train"])
            sel = KPSVM(C2=10.0, random_state=seed, max_iter=MAX_ITER).fit(_z(X0[tr]), y0[tr])
            record(f"maldonado2011 {name} split{seed}", sel)
    X0, y0 = _load("colon")
    folds = make_splits(y0, {"kind": "stratified_kfold", "n_splits": 10}, 20110106)
    for k in (0, 1):
        tr = np.asarray(folds[k]["train"])
        X, y = _z(X0[tr]), y0[tr]
        for p, vals in PARAMS_GRID.items():
            for val in vals:
                kw = {"C": 100.0, "v0": 0.01, "C2": 10.0, "max_iter": MAX_ITER}
                kw[p] = val
                record(f"maldonado2011_params colon fold{k} {p}={val:g}", KPSVM(**kw).fit(X, y))
    X, y, _ = colon_train()
    X = _z(X)
    cpu, wall = [], []
    for _ in range(3):
        c, w = time.process_time(), time.perf_counter()
        sel = KPSVM(C2=10.0).fit(X, y)
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
    d = sel.diagnostics_
    timing = {"cpu": cpu, "wall": wall, "n_iter": len(d["v_change"]), "status": d["status"],
              "n_selected": int(sel.support_.sum()), "C": d["C"], "v0": d["v0"], "shape": list(X.shape)}
    json.dump({"svmfs": svmfs.__file__, "fits": fits, "timing": timing}, sys.stdout)


def run_version(src: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=str(src), OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1",
               MKL_NUM_THREADS="1")
    out = subprocess.run([sys.executable, __file__, "--child"], env=env, check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def main():
    before = sys.argv[sys.argv.index("--before") + 1] if "--before" in sys.argv else "737468c"
    load0 = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", before, "src"], check=True, capture_output=True)
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        res = {"before": run_version(Path(tmp) / "src")}
    res["after"] = run_version(ROOT / "src")
    load1 = os.getloadavg()
    lines = [f"Load average (1, 5, 15 min) at start {load0[0]:.1f}, {load0[1]:.1f}, {load0[2]:.1f}; at end "
             f"{load1[0]:.1f}, {load1[1]:.1f}, {load1[2]:.1f} (2 cores). Before = `{before}`, after = this commit.", ""]
    lines += ["| campaign | fits | before: capped at 200 | of which the rule stops later (at) | after: capped at 200 "
              "| of which the rule stops later (at) |", "| --- | --- | --- | --- | --- | --- |"]
    for camp in ("maldonado2011 ", "maldonado2011_params "):
        row = [camp.strip(), None]
        for v in ("before", "after"):
            fs = [f for f in res[v]["fits"] if f["tag"].startswith(camp)]
            row[1] = len(fs)
            capped = [f for f in fs if f["capped"]]
            later = [f["stop"] for f in capped if f["stop"] is not None]
            row += [len(capped), f"{len(later)} ({', '.join(map(str, sorted(later)))})" if later else "0"]
        lines.append("| " + " | ".join(map(str, row)) + " |")
    lines += ["", "| fit | before: stop (selected) | after: stop (selected) |", "| --- | --- | --- |"]
    for fb, fa in zip(res["before"]["fits"], res["after"]["fits"]):
        def cell(f):
            return f"{f['stop']} ({f['n_selected_at_stop']})" if f["stop"] else f"none in {MAX_ITER}"
        lines.append(f"| {fb['tag']} | {cell(fb)} | {cell(fa)} |")
    lines += ["", "| colon 56 x 2000, KPSVM(C2=10), C and v0 by inner CV | CPU best / median | wall best / median "
              "| C, v0 | iterations | status | selected |", "| --- | --- | --- | --- | --- | --- | --- |"]
    for v in ("before", "after"):
        t = res[v]["timing"]
        lines.append(f"| {v} | {min(t['cpu']):.2f} / {statistics.median(t['cpu']):.2f} s | {min(t['wall']):.2f} / "
                     f"{statistics.median(t['wall']):.2f} s | {t['C']:g}, {t['v0']:.3g} | {t['n_iter']} | "
                     f"{t['status']} "
                     f"| {t['n_selected']} |")
    text = "\n".join(lines)
    print(text)
    if "--json" in sys.argv:
        Path(sys.argv[sys.argv.index("--json") + 1]).write_text(json.dumps(res, indent=1))
    if "--write" in sys.argv:
        with open(ROOT / "benchmarks" / "RESULTS.md", "a") as f:
            f.write(f"\n## Issue 20 goal 3: KP-SVM iteration cap and colon time (`bench_kp_svm_issue20.py`, "
                    f"{time.strftime('%Y-%m-%d')})\n\n{text}\n")


if __name__ == "__main__":
    child() if "--child" in sys.argv else main()
