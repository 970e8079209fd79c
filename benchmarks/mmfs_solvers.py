"""MM-FS (Jimenez-Cordero, Morales & Pineda 2021, problem (20)) by each of its solver routes, at fixed starts.

Routes of :class:`svmfs.methods.mm_fs.MMFS` / :mod:`svmfs.solvers`: ``reduced`` (the campaigns' route: (20) in gamma
alone, the SVM (18) solved inside, L-BFGS-B with Newton steps), ``cyipopt`` with Ipopt's L-BFGS (50 pairs) or with
the exact Hessian of the Lagrangian, and the Pyomo model solved by Ipopt (exact Hessian, what the paper's Pyomo +
Ipopt gives Ipopt). Fits are compared by F at max(gamma, 0) (:func:`svmfs.solvers.mmfs_reduced.reduced_objective`)
and by the genes with gamma_j > 1e-2. Data: jimenez2021's outer folds (:func:`benchmarks.common.train_side`: the
campaign's stratified 10-fold splits, min-max to [-1, 1] on the training side) and WDBC subsamples. One BLAS
thread, as a select job runs; CPU seconds are the comparable time on a shared machine.
"""

from __future__ import annotations

import multiprocessing
import resource
import time

import numpy as np

from benchmarks.common import blas_threads, dataset, train_side

QUESTION = "How fast, and to which point, does each solver route of MM-FS's problem (20) go from the same start?"
DATA = "jimenez2021's outer folds of colon, WDBC and pima (min-max to [-1, 1] on the training side) and WDBC subsamples, 1 BLAS thread"
TOPIC = "solvers"
RESULTS = "mmfs_solvers"
CASES = {
    "hessian": {"question": "From the same start, does Ipopt with the exact Hessian of (20) reach L-BFGS's point, and how long does each take?",
                "data": "WDBC subsamples 60 x 8 and 120 x 30 and colon 56 x 500 (stratified), [-1, 1]; C = 1, gamma_ini = 1/M, C2 = 0.5, tol 1e-8, 300 s limit (quick: WDBC only)"},
    "pyomo_check": {"question": "Does cyipopt's L-BFGS route end where the Pyomo model solved by Ipopt (exact Hessian) ends?",
                    "data": "WDBC 120 x its first 8 features, [-1, 1], C = 1, gamma_ini = 0.1, C2 = 0.3, the same start (quick: 60 x 8)"},
    "scaling": {"question": "At the jimenez2021 campaign's slowest starts, what do Ipopt's user scaling by C and the Hessian choice do to time and status?",
                "data": "The outer fold, C2, C and gamma_ini of 8 slow campaign fits (pima, WDBC, colon), max_iter 3000, 900 s limit, four settings (quick: WDBC fold 8, the unscaled L-BFGS and the default)"},
    "routes": {"question": "At the colon campaign's slowest starts, how long do the reduced route, Ipopt's L-BFGS and Ipopt's exact Hessian take, and do they end at the same point?",
               "data": "Colon outer folds 1, 5, 9 at the (C2, C, gamma_ini) the campaign's inner CV picked, and fold 2 at C = 1, gamma_ini = 5e-4, C2 = 0.5 (quick: the last only); 900 s limit"},
    "c2_path": {"question": "Does a C2 sweep warm-started from the neighbouring C2 reach the cold fits' points, and how much CPU does it save?",
                "data": "Colon folds 2 (C = 1, gamma_ini = 5e-4) and 5 (C = 7, gamma_ini = 1e-3), jimenez2021's 11 C2, the reduced route, median of 3 sweeps (quick: fold 2, 1 sweep)"},
    "microarray": {"question": "How long and how much memory do MM-FS (default route) and KP-FS off the shelf take at microarray size?",
                   "data": "Colon's first 56-sample training side (2000 genes), C = 1, gamma_ini = 1/M, C2 = 0.1 / 0.5 / 0.9; KP-FS at C = 1, C2 = 0.5; MIT Example 1 86 x 4026 (quick: C2 = 0.5 and KP-FS)"},
}
C2S = (0.01, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.99)


def _genes(gamma) -> frozenset:
    return frozenset(np.flatnonzero(np.asarray(gamma) > 1e-2).tolist())


# ---------------------------------------------------------------- hessian, pyomo_check
def wdbc(n, M, seed=0):
    """A random n-sample subsample of WDBC on its first M features, [-1, 1], malignant = +1."""
    from sklearn.preprocessing import MinMaxScaler

    ds = dataset("wdbc")
    y = np.where(ds.y == ds.y.max(), 1.0, -1.0)
    idx = np.random.default_rng(seed).choice(y.size, n, replace=False)
    return MinMaxScaler((-1, 1)).fit_transform(ds.X.astype(float)[idx][:, :M]), y[idx]


def colon56(n=56, M=500, seed=0):
    from sklearn.model_selection import StratifiedShuffleSplit
    from sklearn.preprocessing import MinMaxScaler

    ds = dataset("colon")
    X, y = ds.X.astype(float)[:, :M], np.where(ds.y == ds.y.max(), 1.0, -1.0)
    idx, _ = next(StratifiedShuffleSplit(1, train_size=n, random_state=seed).split(X, y))
    return MinMaxScaler((-1, 1)).fit_transform(X[idx]), y[idx]


def hessian_eval_s(X, y, C, C2, reps=3) -> float:
    from svmfs.solvers.mmfs_nlp import MMFSProblem

    prob = MMFSProblem(X, y, C, C2)
    rng = np.random.default_rng(0)
    n, M = X.shape
    z = prob.pack(np.full(M, 1.0 / M), rng.uniform(0, C, n), 0.1, rng.uniform(0, 1, n), rng.uniform(0, 1, n))
    mu = rng.normal(size=n)
    prob.hessianstructure()
    t = time.perf_counter()
    for _ in range(reps):
        prob.hessian(z, mu, 1.0)
    return (time.perf_counter() - t) / reps


def hessian(quick: bool) -> list[dict]:
    from svmfs.solvers.anisotropic import aniso_kernel
    from svmfs.solvers.mmfs_nlp import solve_mmfs, svc_start

    C, C2 = 1.0, 0.5
    cases = [("WDBC", wdbc(60, 8)), ("WDBC", wdbc(120, 30))] + ([] if quick else [("colon", colon56())])
    rows = []
    for name, (X, y) in cases:
        n, M = X.shape
        start = (1.0 / M, *svc_start(aniso_kernel(X, np.full(M, 1.0 / M)), y, C)[:4])
        res = {}
        for h in ("limited-memory", "exact"):
            c0 = time.process_time()
            r = res[h] = solve_mmfs(X, y, C, C2, start, hessian=h, time_limit=300.0)
            rows.append({"data": f"{name} {n} x {M}", "hessian": h, "status": r.status, "iterations": r.n_iter,
                         "time_s": round(r.time_s, 2), "cpu_s": round(time.process_time() - c0, 2), "objective": float(f"{r.objective:.10g}"),
                         "genes": len(_genes(r.gamma)), "stationarity": float(f"{r.residuals['stationarity']:.2e}")})  # fmt: skip
        a, b = res["limited-memory"], res["exact"]
        rows[-1]["objective_rel_diff"] = rows[-2]["objective_rel_diff"] = float(f"{abs(a.objective - b.objective) / abs(a.objective):.2e}")
        rows[-1]["same_genes"] = rows[-2]["same_genes"] = _genes(a.gamma) == _genes(b.gamma)
        rows[-1]["hessian_eval_ms"] = rows[-2]["hessian_eval_ms"] = round(1e3 * hessian_eval_s(X, y, C, C2), 2)
    return rows


def pyomo_check(quick: bool) -> list[dict]:
    from svmfs.solvers.anisotropic import aniso_kernel
    from svmfs.solvers.mmfs_nlp import solve_mmfs, svc_start
    from svmfs.solvers.mmfs_pyomo import solve_mmfs_pyomo

    n, M, C, g, C2 = (60 if quick else 120), 8, 1.0, 0.1, 0.3
    ds = dataset("wdbc")
    from sklearn.preprocessing import MinMaxScaler

    y = np.where(ds.y == ds.y.max(), 1.0, -1.0)
    idx = np.random.default_rng(0).choice(y.size, n, replace=False)
    X, y = MinMaxScaler((-1, 1)).fit_transform(ds.X.astype(float))[idx][:, :M], y[idx]
    start = (g, *svc_start(aniso_kernel(X, np.full(M, g)), y, C)[:4])
    rows, out = [], {}
    for name, solve, h in (("cyipopt", solve_mmfs, "limited-memory"), ("pyomo", solve_mmfs_pyomo, "exact")):
        t0, c0 = time.perf_counter(), time.process_time()
        r = out[name] = solve(X, y, C, C2, start, hessian=h)
        rows.append({"data": f"WDBC {n} x {M}", "route": name, "hessian": h, "status": r.status, "objective": float(f"{r.objective:.10g}"),
                     "genes": " ".join(map(str, sorted(_genes(r.gamma)))), "wall_s": round(time.perf_counter() - t0, 1),
                     "cpu_s": round(time.process_time() - c0, 1)})  # fmt: skip
    a, b = out["cyipopt"], out["pyomo"]
    for r in rows:
        r["objective_rel_diff"] = float(f"{abs(a.objective - b.objective) / abs(a.objective):.2e}")
        r["same_genes"] = _genes(a.gamma) == _genes(b.gamma)
    return rows


# ---------------------------------------------------------------- scaling, routes
SETTINGS = {
    "L-BFGS, Ipopt's gradient scaling": dict(hessian="limited-memory", scale_by_C=False),
    "exact Hessian, Ipopt's gradient scaling": dict(hessian="exact", scale_by_C=False),
    "L-BFGS, scaled by C": dict(hessian="limited-memory", scale_by_C=True),
    "default (auto Hessian, scaled by C)": {},
}
#: (dataset, outer fold, C2, C, gamma_ini) of slow jimenez2021 fits
SLOW_STARTS = (("pima", 4, 0.3, 1e4, 1e-4), ("pima", 0, 0.9, 1e3, 1e-2), ("wdbc", 1, 0.99, 5.0, 0.1), ("wdbc", 4, 0.99, 10.0, 0.1),
               ("wdbc", 9, 0.99, 3.0, 0.1), ("wdbc", 8, 0.9, 1e4, 1e-4), ("colon", 1, 0.99, 7.0, 1e-3), ("colon", 9, 0.01, 100.0, 1e-4))  # fmt: skip


def _fit(X, y, **kw) -> tuple:
    from svmfs.methods.mm_fs import MMFS

    sel = MMFS(max_iter=3000, time_limit=900.0, **kw)
    t, c = time.perf_counter(), time.process_time()
    sel.fit(X, y)
    return sel, time.perf_counter() - t, time.process_time() - c


def scaling(quick: bool) -> list[dict]:
    starts = [SLOW_STARTS[5]] if quick else SLOW_STARTS
    settings = {k: SETTINGS[k] for k in list(SETTINGS)[::3]} if quick else SETTINGS  # quick: the first and the last
    rows = []
    for name, fold, C2, C, g0 in starts:
        X, y, _ = train_side(name, fold)
        for label, kw in settings.items():
            sel, wall, cpu = _fit(X, y, C2=C2, C=C, gamma_ini=g0, **kw)
            d = sel.diagnostics_
            rows.append({"start": f"{name} fold {fold}, C2 {C2}, C {C:g}, gamma_ini {g0:g}", "setting": label, "hessian": d["hessian"],
                         "wall_s": round(wall, 1), "cpu_s": round(cpu, 1), "iterations": d["n_iter"], "status": d["status"],
                         "objective": float(f"{d['objective']:.8g}"), "genes": int(sel.support_.sum())})  # fmt: skip
    return rows


#: (outer fold, C2, C, gamma_ini): the colon campaign's slowest fits, and the benchmark start
COLON_STARTS = ((1, 0.99, 7.0, 1e-3), (5, 0.99, 7.0, 1e-3), (9, 0.01, 100.0, 1e-4), (2, 0.5, 1.0, 5e-4))
ROUTES = {"reduced": dict(route="reduced"), "cyipopt L-BFGS": dict(route="cyipopt", hessian="limited-memory"),
          "cyipopt exact Hessian": dict(route="cyipopt", hessian="exact")}  # fmt: skip


def routes(quick: bool) -> list[dict]:
    from svmfs.solvers.mmfs_reduced import reduced_objective

    rows = []
    for fold, C2, C, g0 in COLON_STARTS[-1:] if quick else COLON_STARTS:
        X, y, _ = train_side("colon", fold)
        ref = None
        for label, kw in ROUTES.items():
            sel, wall, cpu = _fit(X, y, C2=C2, C=C, gamma_ini=g0, **kw)
            F = reduced_objective(X, y, C, C2, sel.weights_, sel.p)
            genes = _genes(sel.kernel_widths_)
            ref = ref or (F, genes)
            rows.append({"start": f"colon fold {fold}, C2 {C2}, C {C:g}, gamma_ini {g0:g}", "route": label, "wall_s": round(wall, 1),
                         "cpu_s": round(cpu, 1), "status": sel.diagnostics_["status"], "F": float(f"{F:.10g}"), "genes": len(genes),
                         "F_rel_to_reduced": float(f"{(F - ref[0]) / abs(ref[0]):.2e}"), "genes_shared_with_reduced": len(genes & ref[1])})  # fmt: skip
    return rows


# ---------------------------------------------------------------- c2_path
def _sweep(mode, X, y, C, g0):
    from svmfs.solvers import mmfs_reduced as mr

    rows = []
    if mode == "cold":
        for c2 in C2S:
            t = time.process_time()
            r = mr.solve_mmfs_reduced(X, y, C, c2, g0)
            rows.append((c2, time.process_time() - t, r.n_iter, r.gamma))
        return rows
    if mode == "warm, all widths":
        prev = g0
        for c2 in C2S:
            t = time.process_time()
            r = mr.solve_mmfs_reduced(X, y, C, c2, prev)
            rows.append((c2, time.process_time() - t, r.n_iter, r.gamma))
            prev = r.gamma
        return rows
    order = list(C2S)[::-1] if mode.endswith("descending") else list(C2S)
    prev = None
    for i, c2 in enumerate(order):
        t = time.process_time()
        r = mr.solve_mmfs_reduced(X, y, C, c2, g0) if i == 0 else mr.solve_mmfs_reduced_from(X, y, C, c2, prev)
        rows.append((c2, time.process_time() - t, r.n_iter, r.gamma))
        prev = r.gamma
    return sorted(rows, key=lambda row: C2S.index(row[0]))


def c2_path(quick: bool) -> list[dict]:
    from svmfs.solvers import mmfs_reduced as mr

    repeats = 1 if quick else 3
    rows = []
    for fold, C, g0 in [(2, 1.0, 5e-4)] + ([] if quick else [(5, 7.0, 1e-3)]):
        X, y, _ = train_side("colon", fold)
        res = {}
        for mode in ("cold", "warm, all widths", "path", "path, descending"):
            runs = sorted((sum(r[1] for r in rs), rs) for rs in (_sweep(mode, X, y, C, g0) for _ in range(repeats)))
            res[mode] = runs[len(runs) // 2]
        ref = {c2: g for c2, _, _, g in res["cold"][1]}
        for mode, (total, rs) in res.items():
            rel = max(abs(mr.reduced_objective(X, y, C, c2, g) - mr.reduced_objective(X, y, C, c2, ref[c2]))
                      / abs(mr.reduced_objective(X, y, C, c2, ref[c2])) for c2, _, _, g in rs)  # fmt: skip
            rows.append({"start": f"colon fold {fold} ({X.shape[0]} x {X.shape[1]}), C {C:g}, gamma_ini {g0:g}", "mode": mode,
                         "sweep_cpu_s": round(total, 2), "iterations": int(sum(r[2] for r in rs)), "max_F_rel_diff_vs_cold": float(f"{rel:.2e}"),
                         "same_genes_at_all_11": all(_genes(g) == _genes(ref[c2]) for c2, _, _, g in rs),
                         "speedup_vs_cold": round(res["cold"][0] / total, 2)})  # fmt: skip
    return rows


# ---------------------------------------------------------------- microarray (each fit in a child process: its peak memory)
def _child(spec: dict, queue) -> None:
    from svmfs.methods.kp_fs_offshelf import KPFSOffShelf
    from svmfs.methods.mm_fs import MMFS

    if spec["data"] == "synth":
        from sklearn.preprocessing import MinMaxScaler

        from svmfs.data.synthetic import mit_example1

        X, y, _ = mit_example1(n=86, p=4026, k0=10, rho=0.0, seed=0)
        X, y = MinMaxScaler((-1.0, 1.0)).fit_transform(X), y.astype(float)
    else:
        X, y, _ = train_side("colon", n_train=56)
    if spec["method"] == "kp_fs":
        sel = KPFSOffShelf(C=1.0, C2=0.5, time_limit=1800.0, random_state=0)
    else:
        sel = MMFS(C2=spec["C2"], C=1.0, gamma_ini=1.0 / X.shape[1], max_iter=3000, time_limit=1800.0)
    with blas_threads(1):
        t, c = time.perf_counter(), time.process_time()
        sel.fit(X, y)
    queue.put({"data": f"{spec['data']} {X.shape[0]} x {X.shape[1]}", "method": spec["method"], "C2": spec["C2"],
               "wall_s": round(time.perf_counter() - t, 1), "cpu_s": round(time.process_time() - c, 1),
               "status": sel.diagnostics_.get("status"), "genes": int(sel.support_.sum()),
               "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)})  # fmt: skip


def microarray(quick: bool) -> list[dict]:
    specs = [{"data": "colon", "method": "mm_fs", "C2": c2} for c2 in ((0.5,) if quick else (0.1, 0.5, 0.9))]
    specs += [{"data": "colon", "method": "kp_fs", "C2": 0.5}] + ([] if quick else [{"data": "synth", "method": "mm_fs", "C2": 0.5}])
    rows = []
    ctx = multiprocessing.get_context("fork")
    for spec in specs:
        q = ctx.Queue()
        p = ctx.Process(target=_child, args=(spec, q))
        p.start()
        rows.append(q.get())
        p.join()
    return rows


def run(case: str, quick: bool = False) -> list[dict]:
    with blas_threads(1):
        return {"hessian": hessian, "pyomo_check": pyomo_check, "scaling": scaling, "routes": routes, "c2_path": c2_path,
                "microarray": microarray}[case](quick)  # fmt: skip
