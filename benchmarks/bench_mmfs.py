"""MM-FS (Jimenez-Cordero, Morales & Pineda 2021) and KP-FS off-the-shelf at microarray size.

Cases (each in a fresh subprocess; time = wall clock of ``fit`` in that process, memory = peak RSS of
the process tree from ``os.wait4``, i.e. the largest process of the tree, plus a 1 s poll of the tree's
summed RSS, which also caps it at ``MEM_CAP``):

- colon: Alon 62 x 2000 (dataset registry + readers), outer splits as the jimenez2021 campaign makes
  them (stratified 10-fold, seed splits_seed(20210601, "colon")); the first fold with a
  56-sample training side (folds 0-1 have 55), min-max scaled to [-1, 1] on that training side.
- ``colon``: MMFS cyipopt L-BFGS, C = 1, gamma_ini = 1/M fixed, max_iter 3000, C2 in {0.1, 0.5, 0.9};
  ``colon_cv``: the same at C2 = 0.5 with the inner 5-fold CV over the paper's C and gamma grids.
- ``synth``: mit_example1(n=86, p=4026, k0=10, rho=0, seed=0) scaled to [-1, 1], C2 = 0.5, C = 1,
  gamma_ini = 1/M, time_limit 900 s.
- ``route``: colon training side x its first M genes, M in {50, 100, 200, 500, 1000}: cyipopt L-BFGS,
  cyipopt exact Hessian, Pyomo route (its default solver; exact Hessian), same start (svc_start at
  C = 1, gamma_ini = 1/M), C2 = 0.5, time_limit 600 s; the Pyomo chain stops growing M at the first M
  where it fails (time limit, memory cap, error).
- ``campaign_starts``: the slowest MM-FS fits of the jimenez2021 colon campaign, alone: the outer fold,
  C and gamma_ini its inner CV picked (CAMPAIGN_STARTS), one BLAS thread, L-BFGS (50 pairs) and exact Hessian.
- ``fig2_colon``: Fig. 2's colon path as the jimenez2021 select job fits it (C2 = 0.9, C fixed, gamma_ini by
  the inner 5-fold CV) at FIG2_CASES (outer fold, C), exact Hessian and L-BFGS, one BLAS thread
  (``fig2_colon_exact``: the exact Hessian only).
- ``goal2_*`` (issue 20 goal 2, one BLAS thread): MMFS ``route="reduced"`` (``_cyipopt``: today's default route)
  at CAMPAIGN_STARTS and the benchmark start (fold 2, C = 1, gamma_ini = 1/M, C2 in {0.1, 0.5, 0.9});
  ``goal2_sweep``: the 11 C2 of jimenez2021 at the benchmark start, each from the isotropic start (cold) or
  from the previous C2's gamma (warm); ``goal2_select``: a select job's fitting at GOAL2_SELECT (inner 5-fold
  CV over the paper's grids, the NLP, the final anisotropic SVM); ``goal2_synth``: the 86 x 4026 stand-in.
  Every record has F = (20a) at max(gamma, 0) with the SVM solved exactly (``mmfs_reduced.reduced_objective``),
  the objective the routes are compared by.
- ``kp``: KPFSOffShelf on colon 56 x 2000, C = 1, C2 = 0.5, v0 from the isotropic inner CV (paper's
  gamma grid), campaign defaults otherwise, time_limit 1800 s.

Run:  python benchmarks/bench_mmfs.py run OUT.jsonl GROUP...
          GROUP: colon colon_t1 colon_sweep colon_cv colon_exact synth route_cy route_pyomo kp campaign_starts
                 fig2_colon fig2_colon_exact goal2_starts goal2_starts_cyipopt goal2_sweep goal2_select
                 goal2_select_cyipopt goal2_synth goal2_synth_cyipopt
      python benchmarks/bench_mmfs.py write OUT.jsonl [MACHINE-NOTE]   (appends a RESULTS.md section)
"""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
ROUTE_MS = (50, 100, 200, 500, 1000)
MEM_CAP = 8 * 1024**3
ROUTE_LIMIT = 600.0


# ---------------------------------------------------------------- data
# (outer fold, C2, C, gamma_ini) of the slowest campaign fits (fit time under two concurrent jobs: 238, 128, 84 s)
CAMPAIGN_STARTS = ((1, 0.99, 7.0, 1e-3), (5, 0.99, 7.0, 1e-3), (9, 0.01, 100.0, 1e-4))
# issue 20 goal 2: the C2 sweep of jimenez2021, and (outer fold, C2) of whole select jobs (inner CV + NLP + refit)
GOAL2_C2S = (0.01, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.99)
GOAL2_SELECT = ((1, 0.99), (5, 0.99), (9, 0.01), (2, 0.5))
# (outer fold, C) of Fig. 2's colon path: small C, and C = 0.4-0.5 where L-BFGS took 18-861 s in the campaign
FIG2_CASES = ((0, 0.01), (0, 0.1), (4, 0.4), (5, 0.4), (6, 0.4), (1, 0.5), (3, 0.5), (5, 0.5))


def outer_fold(name: str, fold_index=None, n_train=None):
    """(X, y in {-1, 1}, fold) of one jimenez2021 outer fold: the registry's reader (WDBC: scikit-learn's copy),
    the campaign's stratified 10-fold splits and seed. ``fold_index`` None: the first fold with ``n_train``
    training rows."""
    from svmfs.data.embedded import sklearn_breast_cancer
    from svmfs.data.formats import read_download
    from svmfs.data.registry import load_registry
    from svmfs.protocol.seeds import splits_seed
    from svmfs.protocol.splits import make_splits

    if name == "wdbc":
        ds = sklearn_breast_cancer("wdbc")
    else:
        ds = read_download(name, load_registry(ROOT / "config" / "datasets.yaml")[name], SHARED)
    y = np.where(ds.y.astype(float) > 0, 1.0, -1.0)
    folds = make_splits(y, {"kind": "stratified_kfold", "n_splits": 10}, splits_seed(20210601, name))
    fold = next(f for f in folds if len(f["train"]) == n_train) if fold_index is None else folds[fold_index]
    return ds.X.astype(float), y, fold


def train_side(name: str, fold_index=None, n_train=None):
    """(X, y, fold) of one jimenez2021 outer fold's training side (:func:`outer_fold`), min-max to [-1, 1]
    fitted on that side."""
    from svmfs.protocol.normalize import make_normalizer

    X, y, fold = outer_fold(name, fold_index, n_train)
    tr = np.asarray(fold["train"])
    return make_normalizer("minmax_pm1").fit_transform(X[tr]), y[tr], fold["fold"]


def colon_train(fold_index=None):
    """Colon's training side of ``fold_index``, else of the first fold with 56 training rows."""
    return train_side("colon", fold_index, n_train=56)


def synth():
    from sklearn.preprocessing import MinMaxScaler

    from svmfs.data.synthetic import mit_example1

    X, y, rel = mit_example1(n=86, p=4026, k0=10, rho=0.0, seed=0)
    return MinMaxScaler((-1.0, 1.0)).fit_transform(X), y.astype(float), rel


# ---------------------------------------------------------------- one case (child process)
def run_case(spec: dict) -> dict:
    from svmfs.methods.mm_fs import MMFS

    kind = spec["kind"]
    out = {}
    if kind.startswith("goal2"):
        return run_goal2(spec)
    if kind == "kp":
        from svmfs.methods.kp_fs_offshelf import KPFSOffShelf

        X, y, fold = colon_train()
        sel = KPFSOffShelf(C=1.0, C2=0.5, time_limit=1800.0, random_state=0)
    elif kind == "synth":
        X, y, rel = synth()
        sel = MMFS(C2=0.5, C=1.0, gamma_ini=1.0 / X.shape[1], time_limit=900.0, max_iter=3000)
        out["relevant_true"] = rel
    elif kind == "fig2":
        X, y, fold = colon_train(spec["fold"])
        sel = MMFS(C2=0.9, C=spec["C"], n_folds=5, hessian=spec["hessian"], time_limit=7200.0)
    elif kind == "campaign_start":
        X, y, fold = colon_train(spec["fold"])
        sel = MMFS(C2=spec["C2"], C=spec["C"], gamma_ini=spec["gamma_ini"], hessian=spec["hessian"], max_iter=3000,
                   time_limit=900.0)
    else:
        X, y, fold = colon_train()
        if "M" in spec:
            X = X[:, : spec["M"]]
        kw = dict(C=1.0, gamma_ini=1.0 / X.shape[1]) if not spec.get("cv") else {}
        sel = MMFS(C2=spec["C2"], route=spec.get("route", "cyipopt"), hessian=spec.get("hessian", "limited-memory"),
                   max_iter=3000, time_limit=spec.get("time_limit"), pyomo_max_size=10**9, **kw)
    from threadpoolctl import threadpool_limits

    t = time.perf_counter()
    with threadpool_limits(limits=spec.get("threads")):  # None: the BLAS default (2 threads here)
        sel.fit(X, y)
    out["time_s"] = time.perf_counter() - t
    d = sel.diagnostics_
    out.update(shape=list(X.shape), status=d["status"], objective=d.get("objective"), n_iter=d.get("n_iter"),
               message=str(d.get("message")), n_selected=int(sel.support_.sum()),
               selected=np.flatnonzero(sel.support_).tolist())
    for key in ("lbfgs_history", "C", "gamma_ini", "cv_accuracy", "nlp_time_s", "ipopt_iterations", "converged", "v0",
                "stationarity", "constraint_violation"):
        if key in d:
            out[key] = d[key]
    return out


# ---------------------------------------------------------------- issue 20 goal 2: the reduced route
def _fit_record(sel, X, y, t):
    """Time, status, F at max(gamma, 0) (the objective every route is compared by) and the support of a fit."""
    from svmfs.solvers.mmfs_reduced import reduced_objective

    d = sel.diagnostics_
    return dict(time_s=t, status=d["status"], n_iter=d.get("n_iter"), objective=d.get("objective"),
                F=reduced_objective(X, y, d["C"], sel.C2, sel.weights_, sel.p), C=d["C"], gamma_ini=d["gamma_ini"],
                n_selected=int(sel.support_.sum()), selected=np.flatnonzero(sel.support_).tolist(),
                message=str(d.get("message")), nlp_time_s=d.get("nlp_time_s"))


def run_goal2(spec: dict) -> dict:
    """One case of the goal-2 groups (see ``specs``); one BLAS thread as a select job runs."""
    kind, route = spec["kind"], spec.get("route", "reduced")
    cpu0 = time.process_time()
    out = _run_goal2(spec, kind, route)
    out["cpu_s"] = time.process_time() - cpu0  # CPU time of the fit: less inflated than wall time on a loaded machine
    return out


def _run_goal2(spec, kind, route):
    from threadpoolctl import threadpool_limits

    from svmfs.methods.mm_fs import MMFS
    from svmfs.solvers.anisotropic import aniso_kernel
    from svmfs.solvers.mmfs_reduced import reduced_objective, solve_mmfs_reduced

    with threadpool_limits(limits=1):
        if kind == "goal2_start":
            X, y, _ = colon_train(spec["fold"])
            sel = MMFS(C2=spec["C2"], C=spec["C"], gamma_ini=spec["gamma_ini"], route=route, max_iter=3000,
                       time_limit=spec.get("time_limit", 900.0))
            t = time.perf_counter()
            sel.fit(X, y)
            return _fit_record(sel, X, y, time.perf_counter() - t)
        if kind == "goal2_synth":
            X, y, rel = synth()
            sel = MMFS(C2=spec["C2"], C=1.0, gamma_ini=1.0 / X.shape[1], route=route, max_iter=3000,
                       time_limit=spec.get("time_limit", 900.0))
            t = time.perf_counter()
            sel.fit(X, y)
            out = _fit_record(sel, X, y, time.perf_counter() - t)
            out["true_found"] = len(set(out["selected"]) & set(rel))
            return out
        if kind == "goal2_sweep":
            # C2 sweep at one start: each C2 from the isotropic start (cold) or from the previous C2's gamma (warm)
            X, y, _ = colon_train(spec["fold"])
            C, g0 = spec["C"], spec["gamma_ini"]
            rows, prev, t_all = [], None, time.perf_counter()
            for c2 in spec["C2s"]:
                start = g0 if (spec["mode"] == "cold" or prev is None) else prev
                t = time.perf_counter()
                r = solve_mmfs_reduced(X, y, C, c2, start, max_iter=3000)
                rows.append(dict(C2=c2, time_s=time.perf_counter() - t, n_iter=r.n_iter, status=r.status,
                                 F=reduced_objective(X, y, C, c2, r.gamma), n_selected=int(np.sum(r.gamma > 1e-2)),
                                 selected=np.flatnonzero(r.gamma > 1e-2).tolist()))
                prev = r.gamma
            return dict(time_s=time.perf_counter() - t_all, rows=rows)
        if kind == "goal2_select":
            # a whole select job's fitting: the inner 5-fold isotropic CV over the paper's grids, the NLP, and the
            # final anisotropic SVM refit (C_source: selector, widths: all, as jimenez2021 sets)
            from sklearn.svm import SVC

            X, y, _ = colon_train(spec["fold"])
            sel = MMFS(C2=spec["C2"], n_folds=5, route=route, time_limit=7200.0)
            t = time.perf_counter()
            sel.fit(X, y)
            SVC(C=sel.C_, kernel="precomputed").fit(aniso_kernel(X, sel.kernel_widths_), y)
            return _fit_record(sel, X, y, time.perf_counter() - t)
    raise ValueError(kind)


# ---------------------------------------------------------------- driver
def tree_rss(pid: int) -> int:
    """Summed VmRSS (bytes) of pid and its descendants (from /proc)."""
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) * 1024
            for tid in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{tid}/children") as f:
                    todo += [int(c) for c in f.read().split()]
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            pass
    return total


def measure(spec: dict, timeout: float) -> dict:
    load0 = os.getloadavg()
    t = time.perf_counter()
    proc = subprocess.Popen([sys.executable, __file__, "case", json.dumps(spec)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    state = {"peak_tree": 0, "killed": None}

    def watch():
        while proc.poll() is None:
            rss = tree_rss(proc.pid)
            state["peak_tree"] = max(state["peak_tree"], rss)
            over = "memory cap" if rss > MEM_CAP else "timeout" if time.perf_counter() - t > timeout else None
            if over and state["killed"] is None:
                state["killed"] = over
                os.killpg(proc.pid, signal.SIGKILL)  # the session this driver started
            time.sleep(1.0)

    th = threading.Thread(target=watch, daemon=True)
    th.start()
    stdout, stderr = proc.communicate()
    th.join()
    # Popen already reaped the child; its tree's max RSS is in RUSAGE_CHILDREN only cumulatively, so
    # each driver call reads the delta of the maximum over its own children (one case per driver call).
    maxrss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    res = dict(spec=spec, wall_s=time.perf_counter() - t, load_before=load0, load_after=os.getloadavg(),
               peak_tree_rss=state["peak_tree"], children_maxrss=maxrss, returncode=proc.returncode,
               killed=state["killed"])
    lines = [ln for ln in stdout.splitlines() if ln.startswith("{")]
    if proc.returncode == 0 and lines:
        res.update(json.loads(lines[-1]))
    else:
        res["error"] = (stderr or "")[-2000:]
    return res


def specs(group: str) -> list[dict]:
    if group == "colon":
        return [{"kind": "colon", "C2": c2} for c2 in (0.1, 0.5, 0.9)]
    if group == "colon_t1":  # one BLAS thread, as a select job with threads: 1 runs it
        return [{"kind": "colon", "C2": c2, "threads": 1} for c2 in (0.1, 0.5, 0.9)]
    if group == "colon_sweep":  # every C2 of the jimenez2021 campaign, one BLAS thread
        return [{"kind": "colon", "C2": c2, "threads": 1} for c2 in (0.01, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.99)]
    if group == "colon_exact":
        return [{"kind": "colon", "C2": 0.5, "hessian": "exact", "time_limit": 900.0}]
    if group == "colon_cv":
        return [{"kind": "colon", "C2": 0.5, "cv": True}]
    if group == "campaign_starts":
        return [{"kind": "campaign_start", "fold": f, "C2": c2, "C": C, "gamma_ini": g, "hessian": h, "threads": 1}
                for f, c2, C, g in CAMPAIGN_STARTS for h in ("limited-memory", "exact")]
    if group in ("fig2_colon", "fig2_colon_exact"):
        hessians = ("exact",) if group.endswith("exact") else ("exact", "limited-memory")
        return [{"kind": "fig2", "fold": f, "C": C, "hessian": h, "threads": 1} for f, C in FIG2_CASES for h in hessians]
    if group == "goal2_starts":  # the campaign's slowest starts and the benchmark start, reduced route
        starts = [(f, c2, C, g) for f, c2, C, g in CAMPAIGN_STARTS] + [(2, c2, 1.0, 5e-4) for c2 in (0.1, 0.5, 0.9)]
        return [{"kind": "goal2_start", "fold": f, "C2": c2, "C": C, "gamma_ini": g} for f, c2, C, g in starts]
    if group == "goal2_starts_cyipopt":  # the same with today's default route (L-BFGS, 50 pairs)
        return [{**s, "route": "cyipopt"} for s in specs("goal2_starts")]
    if group == "goal2_sweep":
        return [{"kind": "goal2_sweep", "fold": 2, "C": 1.0, "gamma_ini": 5e-4, "mode": m, "C2s": list(GOAL2_C2S)}
                for m in ("cold", "warm")]
    if group == "goal2_select":
        return [{"kind": "goal2_select", "fold": f, "C2": c2} for f, c2 in GOAL2_SELECT]
    if group == "goal2_select_cyipopt":
        return [{**s, "route": "cyipopt"} for s in specs("goal2_select")]
    if group == "goal2_synth":
        return [{"kind": "goal2_synth", "C2": c2} for c2 in (0.5, 0.99)]
    if group == "goal2_synth_cyipopt":
        return [{"kind": "goal2_synth", "C2": 0.5, "route": "cyipopt"}]
    if group == "synth":
        return [{"kind": "synth"}]
    if group == "kp":
        return [{"kind": "kp"}]
    if group == "route_cy":
        return [{"kind": "route", "M": M, "C2": 0.5, "hessian": h, "time_limit": ROUTE_LIMIT}
                for M in ROUTE_MS for h in ("limited-memory", "exact")]
    if group == "route_pyomo":
        return [{"kind": "route", "M": M, "C2": 0.5, "route": "pyomo", "hessian": "exact", "time_limit": ROUTE_LIMIT}
                for M in ROUTE_MS]
    raise ValueError(group)


def main_run(out: str, groups: list[str]):
    for group in groups:
        for spec in specs(group):
            timeout = {"goal2_start": 1000.0, "goal2_synth": 1000.0, "goal2_sweep": 1000.0, "goal2_select": 1000.0,
                       "synth": 1000.0, "kp": 1900.0, "campaign_start": 1000.0,
                       "fig2": 1000.0}.get(spec["kind"], ROUTE_LIMIT + 60.0)
            # fresh driver per case so RUSAGE_CHILDREN's maximum is this case's
            r = subprocess.run([sys.executable, __file__, "one", json.dumps(spec), str(timeout)],
                               capture_output=True, text=True)
            line = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else json.dumps({"spec": spec, "error": r.stderr[-2000:]})
            with open(out, "a") as f:
                f.write(line + "\n")
            res = json.loads(line)
            print({k: res.get(k) for k in ("spec", "time_s", "status", "n_iter", "n_selected", "objective", "F",
                                           "children_maxrss", "killed", "load_before")}, flush=True)
            if group == "route_pyomo" and (res.get("killed") or res.get("error") or res.get("status") not in ("ok", "acceptable")):
                break


# ---------------------------------------------------------------- RESULTS.md
def gb(b):
    return f"{b / 1024**3:.2f} GB"


def mem(r):
    return f"{gb(r['children_maxrss'])} / {gb(r['peak_tree_rss'])}"


def fmt_load(r):
    return f"{r['load_before'][0]:.1f}/{r['load_after'][0]:.1f}"


def row(r, label):
    if r.get("note"):
        label += f" [{r['note']}]"
    if r.get("error") or r.get("killed"):
        err = (r.get("error") or "").strip().splitlines()
        why = r.get("killed") or ("error: " + err[-1][:120] if err else "error")
        return (f"| {label} | - | - | {why} | - | - | {mem(r)} | "
                f"{r['wall_s']:.0f} s (killed/failed) | {fmt_load(r)} |")
    obj = "-" if r.get("objective") is None else f"{r['objective']:.8g}"
    return (f"| {label} | {r['time_s']:.1f} s | {'-' if r.get('n_iter') is None else r['n_iter']} | {r['status']} | {r['n_selected']} | {obj} | "
            f"{mem(r)} | {r['wall_s']:.0f} s | {fmt_load(r)} |")


LOADED = ("Machine: 2 cores, 24 GiB, shared and loaded (other engineers' pytest and snakemake jobs ran at the same time;\n"
          "1-min load average per case in the last column). Two queues ran in parallel (the Pyomo chain\n"
          "and the rest), so every case competed for the 2 cores: times are upper bounds of an idle machine.")


def main_write(path: str, machine: str = LOADED):
    rs = [json.loads(ln) for ln in open(path) if ln.strip()]
    head = ["| case | fit time | iterations | status | selected | objective | peak RSS: ru_maxrss / tree sum | process wall | load 1-min before/after |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    lines, seen = [], {}
    for r in rs:
        s = r["spec"]
        key = json.dumps(s, sort_keys=True) + r.get("note", "")
        seen[key] = seen.get(key, 0) + 1
        rep = f" (run {seen[key]})" if seen[key] > 1 else ""
        if s["kind"] == "colon":
            cv = (f", inner CV -> C={r.get('C')}, gamma_ini={r.get('gamma_ini')}, NLP {r.get('nlp_time_s', 0):.1f} s"
                  if s.get("cv") else "")
            h = "exact Hessian" if s.get("hessian") == "exact" else "L-BFGS"
            t1 = ", 1 BLAS thread" if s.get("threads") == 1 else ""
            if h == "L-BFGS":  # records from before MMFS's lbfgs_history had Ipopt's default, 6 pairs
                h += f" {r.get('lbfgs_history', 6)} pairs"
            lines.append(row(r, f"MM-FS colon 56 x 2000, {h}{t1}, C2={s['C2']}{cv}{rep}"))
        elif s["kind"] == "synth":
            lab = f"MM-FS mit_example1 86 x 4026, L-BFGS {r.get('lbfgs_history', 6)} pairs, C2=0.5"
            if "selected" in r:
                lab += f" (true relevant found: {len(set(r['selected']) & set(r['relevant_true']))}/10)"
            lines.append(row(r, lab))
        elif s["kind"] == "campaign_start":
            h = "exact Hessian" if s["hessian"] == "exact" else f"L-BFGS {r.get('lbfgs_history')} pairs"
            lines.append(row(r, f"MM-FS colon fold {s['fold']} training side, {h}, 1 BLAS thread, "
                                f"C2={s['C2']}, C={s['C']:g}, gamma_ini={s['gamma_ini']:g}"))
        elif s["kind"] == "fig2":
            h = "exact Hessian" if s["hessian"] == "exact" else f"L-BFGS {r.get('lbfgs_history')} pairs"
            lines.append(row(r, f"MM-FS Fig. 2 colon fold {s['fold']} training side, {h}, 1 BLAS thread, "
                                f"C2=0.9, C={s['C']:g}, inner CV -> gamma_ini={r.get('gamma_ini')}"))
        elif s["kind"] == "kp":
            lines.append(row(r, f"KP-FS off-shelf colon 56 x 2000, C=1, C2=0.5 ({r.get('message', '')})"))
    route = []
    for M in ROUTE_MS:
        got = {(r["spec"].get("route", "cyipopt"), r["spec"]["hessian"]): r for r in rs
               if r["spec"]["kind"] == "route" and r["spec"]["M"] == M}
        for key, r in got.items():
            lines.append(row(r, f"route colon 56 x {M}: {key[0]} {key[1]}"))
        a, b, p = got.get(("cyipopt", "limited-memory")), got.get(("cyipopt", "exact")), got.get(("pyomo", "exact"))
        if a and b and p and "objective" in p and p.get("objective") is not None:
            rel = lambda u, v: abs(u["objective"] - v["objective"]) / abs(v["objective"])  # noqa: E731
            route.append(
                f"- M={M}: Pyomo/cyipopt time {p['time_s'] / a['time_s']:.0f}x (L-BFGS), {p['time_s'] / b['time_s']:.0f}x "
                f"(exact); objective rel. diff Pyomo vs L-BFGS {rel(p, a):.1e}, vs exact {rel(p, b):.1e}, L-BFGS vs exact "
                f"{rel(a, b):.1e}; same relevant set: Pyomo=L-BFGS {p['selected'] == a['selected']}, "
                f"Pyomo=exact {p['selected'] == b['selected']}, L-BFGS=exact {a['selected'] == b['selected']}")
        elif a and b:
            route.append(f"- M={M}: L-BFGS vs exact objective rel. diff "
                         f"{abs(a['objective'] - b['objective']) / abs(b['objective']):.1e}, same relevant set "
                         f"{a['selected'] == b['selected']}; Pyomo route: {'not run' if not p else 'failed (' + str(p.get('killed') or p.get('status') or 'error') + ')'}")
    text = "\n".join(["", f"## MM-FS and KP-FS off-the-shelf at microarray size (`bench_mmfs.py`, {time.strftime('%Y-%m-%d')})", "",
                      *machine.splitlines(),
                      "Fit time = wall clock of `fit` (inner CV, start and NLP) inside a fresh process; peak RSS = ru_maxrss",
                      "of that process tree (its largest process) / summed RSS of the tree polled every 1 s (Pyomo: Python",
                      "process holding the model + ripopt); process wall includes Python start and data loading.", "",
                      *head, *lines, "", *route, ""])
    with open(ROOT / "benchmarks" / "RESULTS.md", "a") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "case":
        print(json.dumps(run_case(json.loads(sys.argv[2])), default=float), flush=True)
    elif cmd == "one":
        print(json.dumps(measure(json.loads(sys.argv[2]), float(sys.argv[3])), default=float), flush=True)
    elif cmd == "run":
        main_run(sys.argv[2], sys.argv[3:])
    elif cmd == "write":
        main_write(*sys.argv[2:4])
