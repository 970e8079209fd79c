"""MM-FS at the slowest starts of the jimenez2021 campaign: Ipopt's user scaling by C and the Hessian choice.

Each case: one outer fold's training side (splits as the campaign makes them: stratified 10-fold, seed
splits_seed(20210601, name); min-max scaled to [-1, 1] on that side), the (C, gamma_ini) the
campaign's inner CV picked there, one MMFS fit with C and gamma_ini fixed, one BLAS thread, max_iter 3000,
time_limit 900 s, in a fresh process. Settings:

- ``before``: L-BFGS (50 pairs), Ipopt's gradient-based scaling (the defaults until this benchmark);
- ``exact``: exact Hessian, Ipopt's gradient-based scaling;
- ``lbfgs_scaled``: L-BFGS, user scaling by C (``MMFSProblem.scaling``);
- ``default``: the defaults now (``hessian="auto"``: exact up to 100 features, L-BFGS above; scaled by C).

Run:  python benchmarks/bench_mmfs_scaling.py run OUT.jsonl SETTING... [--datasets pima,wdbc]
      python benchmarks/bench_mmfs_scaling.py write OUT.jsonl   (appends a section to RESULTS.md)
pima and colon are read from ../shared/data (the registry's files); WDBC is scikit-learn's.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from bench_mmfs import train_side  # the campaign's outer fold, scaled on its training side

ROOT = Path(__file__).resolve().parents[1]
SETTINGS = {
    "before": dict(hessian="limited-memory", scale_by_C=False),
    "exact": dict(hessian="exact", scale_by_C=False),
    "lbfgs_scaled": dict(hessian="limited-memory", scale_by_C=True),
    "default": {},
}
# (dataset, outer fold, C2, C, gamma_ini, campaign fit time s [two jobs sharing the 2 cores], campaign status)
STARTS = (
    ("pima", 4, 0.3, 1e4, 1e-4, 544.3, "max_iter"),
    ("pima", 0, 0.9, 1e3, 1e-2, 482.3, "max_iter"),
    ("wdbc", 1, 0.99, 5.0, 0.1, 518.8, "acceptable"),
    ("wdbc", 4, 0.99, 10.0, 0.1, 396.1, "acceptable"),
    ("wdbc", 9, 0.99, 3.0, 0.1, 327.4, "acceptable"),
    ("wdbc", 8, 0.9, 1e4, 1e-4, 76.9, "acceptable"),
    ("colon", 1, 0.99, 7.0, 1e-3, 237.8, "acceptable"),
    ("colon", 9, 0.01, 100.0, 1e-4, 127.9, "ok"),
)


def run_one(start, setting: str) -> dict:
    from threadpoolctl import threadpool_limits

    from svmfs.methods.mm_fs import MMFS

    name, fold, C2, C, g0 = start[:5]
    X, y, _ = train_side(name, fold)
    sel = MMFS(C2=C2, C=C, gamma_ini=g0, max_iter=3000, time_limit=900.0, **SETTINGS[setting])
    t = time.perf_counter()
    with threadpool_limits(1):
        sel.fit(X, y)
    d = sel.diagnostics_
    return dict(start=list(start), setting=setting, shape=list(X.shape), time_s=time.perf_counter() - t,
                status=d["status"], n_iter=d["n_iter"], objective=d["objective"], hessian=d["hessian"],
                n_selected=int(sel.support_.sum()), gamma_l1=d["gamma_l1"],
                constraint_violation=d["constraint_violation"], stationarity=d["stationarity"])


def main_run(out: str, settings: list[str], datasets: set[str] | None = None):
    for setting in settings:
        for start in STARTS:
            if datasets and start[0] not in datasets:
                continue
            r = subprocess.run([sys.executable, __file__, "one", json.dumps(list(start)), setting],
                               capture_output=True, text=True, timeout=1200)
            line = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else json.dumps(
                {"start": list(start), "setting": setting, "error": r.stderr[-1000:]})
            with open(out, "a") as f:
                f.write(line + "\n")
            print(line[:200], flush=True)


def main_write(path: str):
    rs = [json.loads(ln) for ln in open(path) if ln.strip()]
    title = "MM-FS: scaling by C and the Hessian at the campaign's slowest starts"
    lines = ["", f"## {title} (`bench_mmfs_scaling.py`, {time.strftime('%Y-%m-%d')})", "",
             "Machine: 2 cores, 24 GiB, otherwise idle; one fit at a time, one BLAS thread. Campaign column: the",
             "select job's fit time (and status where recorded) in the jimenez2021 campaign before this change",
             "(L-BFGS 50 pairs, unscaled; two jobs sharing the cores).", "",
             "| start | campaign | setting | Hessian | time | iterations | status | (20a) | selected | gamma l1 norm "
             "| stationarity |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in rs:
        name, fold, C2, C, g0, t_c, s_c = r["start"]
        lab = f"{name} fold {fold}, C2={C2}, C={C:g}, gamma_ini={g0:g}"
        if r.get("error"):
            lines.append(f"| {lab} | {t_c} s {s_c} | {r['setting']} | - | error | - | - | - | - | - | - |")
            continue
        lines.append(f"| {lab} | {t_c:.0f} s {s_c} | {r['setting']} | {r['hessian']} | {r['time_s']:.1f} s | "
                     f"{r['n_iter']} | {r['status']} | {r['objective']:.6g} | {r['n_selected']} | "
                     f"{r['gamma_l1']:.3g} | {r['stationarity']:.1e} |")
    with open(ROOT / "benchmarks" / "RESULTS.md", "a") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    if sys.argv[1] == "one":
        print(json.dumps(run_one(tuple(json.loads(sys.argv[2])), sys.argv[3])))
    elif sys.argv[1] == "run":
        args = sys.argv[3:]
        only = set(args[args.index("--datasets") + 1].split(",")) if "--datasets" in args else None
        main_run(sys.argv[2], [a for a in args if a in SETTINGS], only)
    elif sys.argv[1] == "write":
        main_write(sys.argv[2])
    else:
        sys.exit(__doc__)
