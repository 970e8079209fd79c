"""Maldonado, Weber & Basak (2011), KP-SVM (Algorithm 1), measured beside the campaigns.

- ``microarray``: KP-SVM on colon and leukemia (z-scored), C and v0 from the isotropic inner CV (sec. 6's model
  selection; 5 folds, the sigma grid of sec. 5.2, C in {0.1, 1, 10, 100, 1000}), then Algorithm 1 with the paper's
  defaults (eps = v0 / 4, gamma = 0.25, beta = 5) for a few C2, with the default step (``shrink``) and the paper's
  literal (``absolute``) step; a stratified 5-fold CV accuracy of the KP-SVM model on colon (SVC on kernel (11) with
  the final v); and kernel SVM-RFE's time (C = 1, gamma = scale, 10 % per step down to 100 features, then one).
- ``iteration_cap``: how many KP-SVM fits of the maldonado2011 campaigns reach the 200-iteration cap under the
  current stopping rule (||v^{t+1} - v^t||_1 < 1e-3 ||v^t||_1, step ``shrink``) and under the earlier one (an
  absolute 1e-4, step ``relative``), and how many features each keeps where it stops. Each fit runs 1000 iterations
  without a stop (the iterates do not depend on the rule) and each rule's stop is read off the path. Fits: WDBC,
  pima, colon on three class-stratified half / half splits (seeds 1-3; the campaign has one), z-scored on the
  training side, C2 = 10, C and v0 by the isotropic inner CV; colon folds 0-1 of a 10-fold split at the
  maldonado2011_params settings (C = 100, v0 = 0.01, C2 = 10 unless varied).
- ``paper_cv``: why KP-SVM under the paper protocol keeps (almost) every feature: the KP-SVM select job of
  ``maldonado2011_paper`` (colon) and ``maldonado2011_paper_wdbc`` (WDBC) redone on its one outer split through the
  functions the job calls (:func:`svmfs.protocol.tuning.inner_fold_scores`, ``choose_candidate``): per (C2, t) the
  best inner 10-fold CV accuracy; then, on the whole training side, per C2, the first gradient (16) at v = v0 e (how
  many widths the first step shrinks) and the number of features kept after t = 10, 25, 50, 100 iterations.
"""

from __future__ import annotations

import json
import time

import numpy as np

from benchmarks.common import ROOT, blas_threads, campaign_data, dataset, zscore

QUESTION = "How many iterations and features does KP-SVM take on the maldonado2011 data, and why does the paper protocol keep almost every feature?"
DATA = "Colon, leukemia, WDBC and pima (the registry's copies), z-scored; the maldonado2011 paper campaigns' splits"
TOPIC = "reproduction evidence"
RESULTS = "maldonado2011"
CASES = {
    "microarray": {"question": "What C2 and step make KP-SVM keep few genes on colon and leukemia, with what CV accuracy, and how long do KP-SVM and kernel SVM-RFE take?",
                   "data": "Colon (62 x 2000) and leukemia (72 x 7129), z-scored; C2 in {1, 10, 100, 1000} (quick: colon, C2 in {1, 10}, no CV accuracy)"},
    "iteration_cap": {"question": "How many maldonado2011 KP-SVM fits reach the 200-iteration cap under the current and the earlier stopping rule, and how many features does each keep?",
                      "data": "WDBC, pima and colon on 3 half / half splits (seeds 1-3), and colon folds 0-1 at the 25 maldonado2011_params settings (quick: the 9 half / half fits)"},
    "paper_cv": {"question": "Under the maldonado2011 paper protocol, which (C2, t) does the inner 10-fold CV choose, and how many widths does the first gradient step shrink?",
                 "data": "The one outer split of maldonado2011_paper (colon) and maldonado2011_paper_wdbc (WDBC), rebuilt through the workflow (quick: colon)"},
}
C2S = (1.0, 10.0, 100.0, 1000.0)
CAP, MAX_ITER = 200, 1000
PARAMS_GRID = {"C2": [0.1, 1.0, 10.0, 100.0, 1000.0], "beta": [1.0, 2.0, 5.0, 10.0, 20.0], "step": [0.05, 0.1, 0.25, 0.5, 1.0],
               "eps": [0.0005, 0.001, 0.0025, 0.005, 0.01], "v0": [0.001, 0.003, 0.01, 0.03, 0.1]}  # fmt: skip


def _data(name):
    ds = dataset(name)
    return zscore(ds.X.astype(float)), np.where(ds.y == ds.y.max(), 1.0, -1.0)


# ---------------------------------------------------------------- microarray
def kp_cv_accuracy(X, y, C2, folds=5):
    from sklearn.model_selection import StratifiedKFold
    from sklearn.svm import SVC

    from svmfs.methods.kp_svm import KPSVM
    from svmfs.solvers.anisotropic import kp_kernel

    acc, sizes = [], []
    for tr, te in StratifiedKFold(folds, shuffle=True, random_state=0).split(X, y):
        sel = KPSVM(C2=C2).fit(X[tr], y[tr])
        v = sel.weights_
        svc = SVC(C=sel.C_, kernel="precomputed").fit(kp_kernel(X[tr], v), y[tr])
        acc.append(np.mean(svc.predict(kp_kernel(X[te], v, X[tr])) == y[te]))
        sizes.append(int(sel.support_.sum()))
    return float(np.mean(acc)), sizes


def microarray(quick: bool) -> list[dict]:
    from svmfs.methods.kp_svm import KPSVM
    from svmfs.methods.rfe_kernel import RFEKernel

    rows = []
    for name in ("colon",) if quick else ("colon", "leukemia"):
        X, y = _data(name)
        c2s = C2S[:2] if quick else C2S
        for C2, scale in [(c2, "shrink") for c2 in c2s] + [(1.0, "absolute")] + ([] if quick else [(100.0, "absolute")]):
            c0 = time.process_time()
            sel = KPSVM(C2=C2, step_scale=scale).fit(X, y)
            d = sel.diagnostics_
            cv = kp_cv_accuracy(X, y, C2) if (name == "colon" and scale == "shrink" and not quick) else (None, None)
            rows.append({"data": f"{name} {X.shape[0]} x {X.shape[1]}", "method": f"KP-SVM C2={C2:g}, step {scale}",
                         "start": f"C={d['C']:g}, v0={d['v0']:.4g}", "iterations": d["n_iter"], "status": d["status"],
                         "selected": int(sel.support_.sum()), "cpu_s": round(time.process_time() - c0, 1),
                         "cv_accuracy_5fold": None if cv[0] is None else round(cv[0], 3),
                         "cv_selected_per_fold": "" if cv[1] is None else " ".join(map(str, cv[1]))})  # fmt: skip
        if not quick:
            c0 = time.process_time()
            r = RFEKernel(C=1.0).fit(X, y)
            rows.append({"data": f"{name} {X.shape[0]} x {X.shape[1]}", "method": "kernel SVM-RFE (full ranking)", "start": "C=1, gamma=scale",
                         "iterations": r.n_iter_, "status": "ok", "selected": "", "cpu_s": round(time.process_time() - c0, 1)})  # fmt: skip
    return rows


# ---------------------------------------------------------------- iteration_cap
def _stops(sel) -> dict:
    """The current rule's and the earlier rule's stop (iteration, features kept) read off a fit's path."""
    d = sel.diagnostics_
    ch, norm, sizes = d["v_change"], d["v_norm"], d["n_selected"]
    ended = d["message"] or None  # every width below eps: the path ends there under both rules
    rel = next((t + 1 for t, (c, v) in enumerate(zip(ch, norm)) if c < 1e-3 * v), len(ch) if ended else None)
    ab = next((t + 1 for t, c in enumerate(ch) if c < 1e-4), len(ch) if ended else None)
    return {"relative": (rel, sizes[rel - 1] if rel else None), "absolute": (ab, sizes[ab - 1] if ab else None)}


def iteration_cap(quick: bool) -> list[dict]:
    from svmfs.methods.kp_svm import KPSVM
    from svmfs.protocol.splits import make_splits

    fits = []
    for name in ("wdbc", "pima", "colon"):
        ds = dataset(name)
        X0, y0 = ds.X.astype(float), np.where(ds.y == ds.y.max(), 1.0, -1.0)
        for seed in (1, 2, 3):
            tr = np.asarray(make_splits(y0, {"kind": "kp_svm", "train_size": 0.5, "n_resamples": 1, "fit_fraction": 0.6}, seed)[0]["train"])
            fits.append((f"maldonado2011 {name} split {seed}", zscore(X0[tr]), y0[tr], {"C2": 10.0, "random_state": seed}))
    if not quick:
        ds = dataset("colon")
        X0, y0 = ds.X.astype(float), np.where(ds.y == ds.y.max(), 1.0, -1.0)
        folds = make_splits(y0, {"kind": "stratified_kfold", "n_splits": 10}, 20110106)
        for k in (0, 1):
            tr = np.asarray(folds[k]["train"])
            for p, vals in PARAMS_GRID.items():
                for val in vals:
                    fits.append((f"maldonado2011_params colon fold {k} {p}={val:g}", zscore(X0[tr]), y0[tr],
                                 {"C": 100.0, "v0": 0.01, "C2": 10.0, p: val}))  # fmt: skip
    rows = []
    for tag, X, y, kw in fits:
        now = _stops(KPSVM(max_iter=MAX_ITER, tol=0.0, **kw).fit(X, y))["relative"]
        before = _stops(KPSVM(max_iter=MAX_ITER, tol=0.0, step_scale="relative", **kw).fit(X, y))["absolute"]
        rows.append({"fit": tag, "current_rule_stop": now[0], "current_rule_features": now[1], "current_capped_at_200": now[0] is None or now[0] > CAP,
                     "earlier_rule_stop": before[0], "earlier_rule_features": before[1],
                     "earlier_capped_at_200": before[0] is None or before[0] > CAP})  # fmt: skip
    return rows


# ---------------------------------------------------------------- paper_cv
def paper_cv(folder_name: str, name: str, method: str = "kp_svm") -> list[dict]:
    from svmfs.config import job_campaign_config, job_method_config, load_config
    from svmfs.data.canonical import load_dataset
    from svmfs.methods.kp_svm import _Dual, kp_path
    from svmfs.protocol.method_plan import method_plan, selector_factory
    from svmfs.protocol.normalize import normalize_fold
    from svmfs.protocol.seeds import job_seed
    from svmfs.protocol.tuning import choose_candidate, inner_cv, inner_fold_scores
    from svmfs.solvers.anisotropic import kp_gradient, kp_kernel

    folder = ROOT / "reproduction" / folder_name
    res = campaign_data(folder, [name])
    cfg = load_config(folder / "config.yaml", workdir=ROOT)
    ds = load_dataset(res / "datasets" / f"{name}.npz")
    fold = json.loads((res / "splits" / f"{name}.json").read_text())["folds"][0]
    seed = job_seed(cfg["seed"], name, 0, method, "default")
    mcfg, camp = job_method_config(cfg, name, method), job_campaign_config(cfg, name, method)
    spec, grid, fixed, final_kind = method_plan(method, mcfg)
    norm = camp["normalization"]
    train, test = np.asarray(fold["train"]), np.asarray(fold["test"])
    Xtr, _, _ = normalize_fold(ds.X, train, test, norm["method"], norm.get("scope", "fold"))
    ytr = ds.y[train]
    cv = inner_cv(ytr, int(camp["inner_cv"]["n_splits"]), seed)
    make = selector_factory(spec.load(), fixed, seed)
    final_cfg = camp["final_classifier"]
    scores = inner_fold_scores(make, grid, spec.truncation, final_kind, final_cfg, Xtr, ytr, cv)
    tuned = choose_candidate(make, grid, spec.truncation, final_kind, final_cfg, Xtr, scores, cv.get_n_splits())
    best: dict[str, dict] = {}
    for row in tuned.table:
        key = json.dumps(row["selector"], sort_keys=True)
        if key not in best or row["accuracy"] > best[key]["accuracy"]:
            best[key] = row
    C, v0 = float(fixed["C"]), float(fixed["v0"])
    v = np.full(Xtr.shape[1], v0)
    K = kp_kernel(Xtr, v)
    c = _Dual(ytr, C)(K)
    rows = []
    for C2 in grid.get("C2", [fixed.get("C2", 1.0)]):
        g = kp_gradient(Xtr, c, v, C2, 5.0, K)
        run = kp_path(Xtr, ytr, C=C, C2=C2, v0=v0, step=0.25, beta=5.0, eps=v0 / 4, v_max=10 * v0, tol=1e-3,
                      max_iter=int(fixed.get("max_iter", 1000)))  # fmt: skip
        ns = run["n_selected"]
        cells = {r["selector"].get("iterations"): round(100 * r["accuracy"], 2) for r in best.values() if r["selector"].get("C2") == C2}
        rows.append({"campaign": folder_name, "data": f"{name} {Xtr.shape[0]} x {Xtr.shape[1]}", "C2": C2,
                     "inner_cv_accuracy_by_t": " ".join(f"t={t}: {a}" for t, a in sorted(cells.items(), key=lambda kv: (kv[0] is None, kv[0]))),
                     "first_gradient_positive": f"{int(np.sum(g > 0))} of {g.size}", "gamma": float(f"{run['gamma']:.3g}"),
                     "kept_after_t_10_25_50_100": " / ".join(str(ns[min(t, len(ns)) - 1]) for t in (10, 25, 50, 100)),
                     "kept_at_stop": ns[-1], "iterations_at_stop": len(ns),
                     "chosen": json.dumps(tuned.selector_params, sort_keys=True) if C2 == tuned.selector_params.get("C2") else ""})  # fmt: skip
    return rows


def run(case: str, quick: bool = False) -> list[dict]:
    with blas_threads(1):
        if case == "microarray":
            return microarray(quick)
        if case == "iteration_cap":
            return iteration_cap(quick)
        rows = paper_cv("maldonado2011_paper", "colon")
        return rows if quick else rows + paper_cv("maldonado2011_paper_wdbc", "wdbc")


def table(case: str, rows: list[dict]) -> list[dict]:
    """RESULTS.md: ``iteration_cap`` as counts per campaign (every fit in the CSV)."""
    if case != "iteration_cap":
        return rows
    out = []
    for camp in ("maldonado2011 ", "maldonado2011_params "):
        fs = [r for r in rows if r["fit"].startswith(camp)]
        if not fs:
            continue
        stops = lambda k: sorted(int(r[k]) for r in fs if r[k] not in ("", None))  # noqa: E731
        feats = lambda k: sorted(int(r[k]) for r in fs if r[k] not in ("", None))  # noqa: E731
        out.append({"campaign": camp.strip(), "fits": len(fs),
                    "current rule: capped at 200": sum(r["current_capped_at_200"] == "True" for r in fs),
                    "current: stops (min-max)": f"{min(stops('current_rule_stop'), default='-')}-{max(stops('current_rule_stop'), default='-')}",
                    "current: features (min-max)": f"{min(feats('current_rule_features'), default='-')}-{max(feats('current_rule_features'), default='-')}",
                    "earlier rule: capped at 200": sum(r["earlier_capped_at_200"] == "True" for r in fs),
                    "earlier: stops (min-max)": f"{min(stops('earlier_rule_stop'), default='-')}-{max(stops('earlier_rule_stop'), default='-')}"})  # fmt: skip
    return out
