"""Jimenez-Cordero, Morales & Pineda (2021) measured beside the campaigns.

- ``fig2_all_c``: Fig. 2 at all 25 values of C that sec. 5.2 names against the 9 decades the committed campaigns
  ran, from the committed records alone (``jimenez2021_fig2`` and ``jimenez2021_paper_fig2_all_C``, 25 values,
  against ``jimenez2021_fig2_reduced`` and ``jimenez2021_paper_fig2``, 9): the records at the 9 shared values
  compared (:func:`svmfs.reproduce.compare.compare_jobs`, every deterministic field but the campaign's name and
  ``config_hash``), then sec. 5.2's two statements read with thresholds fixed before any record was seen: (A)
  "either MM-FS provides a more accurate classifier than that given by l1-SVM, or a classifier with a similar level
  of accuracy but with a significantly lower number of features" (similar: within 1 point of pooled accuracy;
  significantly fewer: at most 0.65x l1-SVM's count at its best); (B) "For the database diabetes ... approximately
  half of the features" (0.35-0.65x). Accuracy pooled over the outer folds (test points right over test points).
- ``milp_c_path``: pima's MILP-FS on the 10 outer folds of jimenez2021 at each C of the paper's grid (sec. 4.3:
  1e-4 ... 1e-1, 1, 2, ..., 9, 10, ..., 1e4; the campaign tunes over 5), scored as the campaign's final classifier
  ``own`` scores it (w.x + b); how many folds predict one class for every test point (the paper's remark on its
  MILP-FS off the shelf).
- ``mmfs_campaign_routes``: every colon MM-FS select job of jimenez2021 (11 C2 x 10 outer folds) refitted as the
  job did (inner 5-fold isotropic CV over the paper's grids, then the NLP) by three routes: ``reduced`` (the
  campaign's: the refit must give the record again), ``cyipopt`` (Ipopt, L-BFGS 50 pairs) and ``cyipopt_exact``
  (Ipopt, exact Hessian), from the same start; compared by F at max(gamma, 0) and the genes (gamma_j > 1e-2).
- ``initial_solution``: the CPU of one ``isotropic_cv``, Algorithm 1's initial solution (sec. 3.3: 17 C x 9 gamma x
  5 inner folds): what each MM-FS or KP-FS job without ``initial_solution: shared`` spends before its NLP.
"""

from __future__ import annotations

import json
import time
from collections import Counter

import numpy as np

from benchmarks.common import ROOT, blas_threads, ci, dataset, outer_fold, train_side

QUESTION = "What do the values of C, the solver route and the initial solution do to Jimenez-Cordero et al.'s numbers?"
DATA = "The committed jimenez2021 campaigns' records and outer folds (colon, pima, WDBC)"
TOPIC = "reproduction evidence"
RESULTS = "jimenez2021"
CASES = {
    "fig2_all_c": {"question": "Does Fig. 2 at all 25 values of C read as sec. 5.2 says, and does it change the reading of the 9 decades the campaigns ran?",
                   "data": "Committed records of jimenez2021_fig2 (1 500 jobs) and jimenez2021_paper_fig2_all_C (250) against jimenez2021_fig2_reduced and jimenez2021_paper_fig2; nothing rerun"},
    "milp_c_path": {"question": "At which C of the paper's grid does MILP-FS on pima predict the majority class, and does any C hold the published 67.44 %?",
                    "data": "pima, jimenez2021's 10 outer folds, [-1, 1] per training side, the campaign's B, M and node limit, the paper's 17 C (quick: 1e-4, 1e-2, 1, 1e4)"},
    "mmfs_campaign_routes": {"question": "Over every colon MM-FS fit of jimenez2021, how often do Ipopt's routes end at the reduced route's point, and how long does each take?",
                             "data": "The 110 committed colon MM-FS jobs (11 C2 x 10 outer folds), each refitted by three routes from the same inner-CV start, 1 BLAS thread (quick: fold 2 at C2 = 0.1, 0.5, 0.99)"},
    "initial_solution": {"question": "How many CPU seconds does one isotropic inner CV (Algorithm 1's initial solution) cost per job?",
                         "data": "jimenez2021's outer fold 0 training side of colon, WDBC and pima, [-1, 1], 17 C x 9 gamma x 5 folds, 1 BLAS thread (quick: colon and WDBC)"},
}
METHODS = {"mm_fs_by_C": "MM-FS", "l1_svm_by_C": "l1-SVM", "mm_fs": "MM-FS"}  # mm_fs: the paper-protocol campaign
SIMILAR, FEWER, HALF = 1.0, 0.65, (0.35, 0.65)
DECADES = [1e-4, 1e-3, 1e-2, 1e-1, 1.0, 10.0, 100.0, 1e3, 1e4]
PAIRS = (("jimenez2021_fig2", "jimenez2021_fig2_reduced"), ("jimenez2021_paper_fig2_all_C", "jimenez2021_paper_fig2"))


# ---------------------------------------------------------------- fig2_all_c
def _records(name: str):
    import pandas as pd

    rec = pd.read_parquet(ROOT / "reproduction" / name / "records.parquet")
    return rec[rec["method"].isin(METHODS)].reset_index(drop=True)


def points(rec):
    """One row per (dataset, method, C): pooled and fold-mean accuracy (%), mean features, folds."""
    import pandas as pd

    rec = rec.assign(C=rec["setting"].str.removeprefix("C-").astype(float), correct=np.rint(rec["test_accuracy"] * rec["n_test"]))
    g = rec.groupby(["dataset", "method", "C"])
    return pd.DataFrame({"pooled": 100 * g["correct"].sum() / g["n_test"].sum(), "fold_mean": 100 * g["test_accuracy"].mean(),
                         "features": g["n_selected"].mean(), "folds": g.size()}).reset_index()  # fmt: skip


def best(p):
    """The point of highest pooled accuracy; ties: fewer features, then smaller C."""
    return p.sort_values(["pooled", "features", "C"], ascending=[False, True, True], kind="stable").iloc[0]


def statements(p, dataset: str) -> dict:
    mm, l1 = (p[(p["dataset"] == dataset) & (p["method"] == m)] for m in ("mm_fs_by_C", "l1_svm_by_C"))
    b_mm, b_l1 = best(mm), best(l1)
    near = mm[mm["pooled"] >= b_l1["pooled"] - SIMILAR]
    fewest = near.sort_values(["features", "C"], kind="stable").iloc[0] if len(near) else None
    ratio = (fewest["features"] / b_l1["features"]) if fewest is not None and b_l1["features"] > 0 else np.nan
    a = bool(b_mm["pooled"] > b_l1["pooled"] + SIMILAR or (fewest is not None and ratio <= FEWER))
    b = bool(len(near) and ((near["features"] / max(b_l1["features"], 1e-12)).between(*HALF)).any())
    return {"mm_best": b_mm, "l1_best": b_l1, "fewest_near": fewest, "ratio": ratio, "A": a, "B": b}


def _pt(r) -> str:
    return "" if r is None else f"{r['pooled']:.2f} % at {r['features']:.1f} (C = {r['C']:g})"


def fig2_all_c() -> dict:
    from svmfs.reproduce.compare import compare_jobs

    key, other = ["dataset", "method", "setting", "fold"], ["campaign", "config_hash"]
    rows, notes = [], {}
    for c25, c9 in PAIRS:
        r25, r9 = _records(c25), _records(c9)
        cmp = compare_jobs(r9.drop(columns=other), r25.merge(r9[key], on=key).drop(columns=other))
        same = sum(not d and not p for d, p in cmp.values())
        notes[f"{c25} at the 9 shared values against {c9}"] = f"{same} of {len(cmp)} records identical, {sum(bool(d) for d, _ in cmp.values())} differ"
        errs = r25[r25["status"] == "solver_error"]
        notes[f"{c25} fits ending as solver_error (kept as the last iterate)"] = (
            f"{len(errs)} of {len(r25[r25['method'].str.startswith('mm_fs')])} MM-FS fits"
            + (" (" + ", ".join(f"{d} {s}" for d, s in sorted(set(zip(errs['dataset'], errs['setting'])))) + ")" if len(errs) else ""))
        p25 = points(r25)
        p9 = p25[p25["C"].isin(DECADES)]
        for d in sorted(p25["dataset"].unique()):
            for label, p in (("9", p9), ("25", p25)):
                sub = p[p["dataset"] == d]
                if {"mm_fs_by_C", "l1_svm_by_C"} <= set(sub["method"]):
                    s = statements(p, d)
                    rows.append({"campaign": c25, "dataset": d, "values_of_C": label, "MM-FS best": _pt(s["mm_best"]), "l1-SVM best": _pt(s["l1_best"]),
                                 "MM-FS fewest within 1 point": _pt(s["fewest_near"]), "ratio": round(float(s["ratio"]), 2),
                                 "statement A": s["A"], "statement B": s["B"] if d == "pima" else ""})  # fmt: skip
                else:  # the paper-protocol campaign runs MM-FS alone
                    for m in sorted(sub["method"].unique()):
                        rows.append({"campaign": c25, "dataset": d, "values_of_C": label, "MM-FS best": _pt(best(sub[sub["method"] == m]))})
    return {"rows": rows, "notes": notes}


# ---------------------------------------------------------------- milp_c_path
PAPER_C = (1e-4, 1e-3, 1e-2, 1e-1, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 1e2, 1e3, 1e4)


def milp_c_path(quick: bool, name: str = "pima", published: float = 67.44) -> dict:
    import pandas as pd

    from svmfs.config import job_campaign_config, job_method_config, load_config
    from svmfs.methods.milp_fs import MILPFS
    from svmfs.protocol.normalize import normalize_fold
    from svmfs.protocol.seeds import job_seed, splits_seed
    from svmfs.protocol.select_job import run_select_job
    from svmfs.protocol.splits import make_splits

    cfg = load_config(ROOT / "reproduction" / "jimenez2021" / "config.yaml", workdir=ROOT)  # the export's config
    camp, method_cfg = job_campaign_config(cfg, name, "milp_fs"), job_method_config(cfg, name, "milp_fs")
    ds = dataset(name)
    folds = make_splits(ds.y, camp["splits"], splits_seed(cfg["seed"], name), name)
    rows = []
    for C in (1e-4, 1e-2, 1.0, 1e4) if quick else PAPER_C:
        accs, nsel, one_class = [], [], 0
        for f in folds:
            tr, te = np.asarray(f["train"]), np.asarray(f["test"])
            Xtr, Xte, _ = normalize_fold(ds.X.astype(float), tr, te, camp["normalization"]["method"])
            sel = MILPFS(C=C, **method_cfg["params"]).fit(Xtr, ds.y[tr])
            pred = sel.own_predict(Xte)  # how the campaign's final classifier ``own`` scores it
            accs.append(100.0 * float(np.mean(pred == ds.y[te])))
            nsel.append(int(sel.support_.sum()))
            one_class += int(np.unique(pred).size == 1)
        m, lo, hi = ci(accs)
        rows.append({"C": C, "test_accuracy": round(m, 2), "test_accuracy_lo": round(lo, 2), "test_accuracy_hi": round(hi, 2),
                     "published_inside": bool(lo <= published <= hi), "features": f"{min(nsel)}-{max(nsel)}",
                     "folds_predicting_one_class": f"{one_class} of {len(folds)}"})  # fmt: skip
    notes = {"published": published, "majority class": f"{100 * max(np.mean(ds.y == c) for c in np.unique(ds.y)):.2f} %"}
    if not quick:  # whole select jobs (inner 5-fold CV, the campaign's seeds) over the campaign's and the paper's grids
        committed = pd.read_parquet(ROOT / "reproduction" / "jimenez2021" / "records.parquet")
        committed = committed[(committed.dataset == name) & (committed.method == "milp_fs")].set_index("fold")
        for label, grid in (("campaign's 5 values", method_cfg["grid"]["C"]), ("paper's 17 values", list(PAPER_C))):
            nested, same = [], 0
            for f in folds:
                rec = run_select_job(ds.X, ds.y, f, "milp_fs", {**method_cfg, "grid": {"C": grid}}, camp,
                                     job_seed(cfg["seed"], name, f["fold"], "milp_fs", "default"))  # fmt: skip
                nested.append(100.0 * rec["test_accuracy"])
                c = committed.loc[f["fold"]]
                same += int(rec["test_accuracy"] == c["test_accuracy"] and json.loads(c["selected"]) == rec["selected"])
            m, lo, hi = ci(nested)
            notes[f"whole select jobs over the {label}"] = f"nested {m:.2f} [{lo:.2f}, {hi:.2f}], {same} of {len(folds)} equal to the committed records"
    return {"rows": rows, "notes": notes}


# ---------------------------------------------------------------- mmfs_campaign_routes
RECORDS = ROOT / "reproduction" / "jimenez2021" / "records.parquet"
SAME_F = 1e-6  # F within this relative difference and the same genes: "the same point"
ROUTES = {"reduced": "reduced (L-BFGS-B + Newton)", "cyipopt": "cyipopt L-BFGS 50", "cyipopt_exact": "cyipopt exact Hessian"}


def campaign_jobs() -> list[dict]:
    import pandas as pd

    d = pd.read_parquet(RECORDS)
    d = d[(d.dataset == "colon") & (d.method == "mm_fs")]
    jobs = [dict(fold=int(r.fold), C2=float(json.loads(r.selector_params)["C2"]), seed=int(r.seed), objective=float(r.objective),
                 selected=json.loads(r.selected), C=float(json.loads(r.final_params)["C"]), test_accuracy=float(r.test_accuracy))
            for r in d.itertuples()]  # fmt: skip
    return sorted(jobs, key=lambda j: (j["fold"], j["C2"]))


def fit_one(job: dict, route: str) -> dict:
    from svmfs.methods.mm_fs import MMFS
    from svmfs.protocol.classifiers import fit_predict
    from svmfs.protocol.normalize import normalize_fold
    from svmfs.solvers.mmfs_reduced import reduced_objective
    from svmfs.yamlio import load_yaml_file

    X, y, fold = outer_fold("colon", job["fold"])
    tr, te = np.asarray(fold["train"]), np.asarray(fold["test"])
    Xtr, Xte, _ = normalize_fold(X, tr, te, "minmax_pm1", "fold")
    kw = dict(route="cyipopt", hessian="exact") if route == "cyipopt_exact" else dict(route=route)
    sel = MMFS(C2=job["C2"], n_folds=5, time_limit=7200.0 if route == "reduced" else 1800.0, random_state=job["seed"], **kw)
    t, c = time.perf_counter(), time.process_time()
    sel.fit(Xtr, y[tr])
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    d = sel.diagnostics_
    final_cfg = load_yaml_file(RECORDS.parent / "config.yaml")["final_classifier"]
    pred, _ = fit_predict("anisotropic", {}, final_cfg, Xtr, y[tr], Xte, sel.support_, sel)
    return {"route": route, "fold": job["fold"], "C2": job["C2"], "C": d["C"], "gamma_ini": d["gamma_ini"], "status": d["status"],
            "n_iter": d.get("n_iter"), "time_s": wall, "cpu_s": cpu, "F": reduced_objective(Xtr, y[tr], d["C"], sel.C2, sel.weights_, sel.p),
            "n_selected": int(sel.support_.sum()), "selected": " ".join(map(str, np.flatnonzero(sel.support_))),
            "test_accuracy": float(np.mean(pred == y[te]))}  # fmt: skip


def mmfs_campaign_routes(quick: bool) -> dict:
    jobs = campaign_jobs()
    if quick:
        jobs = [j for j in jobs if j["fold"] == 2 and j["C2"] in (0.1, 0.5, 0.99)]
    rows = [fit_one(j, route) for route in ROUTES for j in jobs]
    refit = {(r["fold"], r["C2"]): r for r in rows if r["route"] == "reduced"}
    again = sum(" ".join(map(str, j["selected"])) == refit[(j["fold"], j["C2"])]["selected"] and refit[(j["fold"], j["C2"])]["C"] == j["C"]
                and refit[(j["fold"], j["C2"])]["test_accuracy"] == j["test_accuracy"] for j in jobs)  # fmt: skip
    return {"rows": rows, "notes": {"the reduced route's refit gives the record's genes, C* and test accuracy": f"{again} of {len(jobs)}"}}


def _same(a: dict, b: dict) -> str:
    rel = (float(a["F"]) - float(b["F"])) / abs(float(b["F"]))
    if abs(rel) <= SAME_F and a["selected"] == b["selected"]:
        return "same"
    return "lower" if rel < 0 else "higher"


def routes_table(rows: list[dict]) -> list[dict]:
    """Per route: fits, statuses, CPU median / max, and where it ends against the reduced route."""
    by = {(r["route"], r["fold"], r["C2"]): r for r in rows}
    out = []
    for rt, label in ROUTES.items():
        rs = [r for r in rows if r["route"] == rt]
        if not rs:
            continue
        cpu = [float(r["cpu_s"]) for r in rs]
        vs = Counter(_same(r, by[("reduced", r["fold"], r["C2"])]) for r in rs if ("reduced", r["fold"], r["C2"]) in by)
        acc = {}
        for r in rs:
            acc.setdefault(float(r["C2"]), []).append(100 * float(r["test_accuracy"]))
        best_c2 = max(acc, key=lambda c2: (np.mean(acc[c2]), -c2))
        m, lo, hi = ci(acc[best_c2])
        out.append({"route": label, "fits": len(rs), "status": ", ".join(f"{s} {n}" for s, n in sorted(Counter(r["status"] for r in rs).items())),
                    "cpu_s_median": round(float(np.median(cpu)), 1), "cpu_s_max": round(max(cpu), 1),
                    "same point as reduced": vs["same"], "lower F": vs["lower"], "higher F": vs["higher"],
                    "best C2 (mean test accuracy)": f"{best_c2:g}: {m:.2f} [{lo:.2f}, {hi:.2f}]"})  # fmt: skip
    return out


# ---------------------------------------------------------------- initial_solution
def initial_solution(quick: bool) -> list[dict]:
    from svmfs.solvers.mmfs_nlp import PAPER_C_GRID, PAPER_GAMMA_GRID, isotropic_cv

    rows = []
    for name in ("colon", "wdbc") if quick else ("colon", "wdbc", "pima"):
        X, y, fold = train_side(name, 0)
        t, c = time.perf_counter(), time.process_time()
        out = isotropic_cv(X, y, PAPER_C_GRID, PAPER_GAMMA_GRID, 5, 1)
        rows.append({"dataset": name, "training_side": f"{X.shape[0]} x {X.shape[1]}", "C_star_gamma_ini": str(tuple(float(v) for v in out[:2])),
                     "cpu_s": round(time.process_time() - c, 2), "wall_s": round(time.perf_counter() - t, 2)})  # fmt: skip
    return rows


def run(case: str, quick: bool = False):
    if case == "fig2_all_c":
        return fig2_all_c()
    with blas_threads(1):
        if case == "milp_c_path":
            return milp_c_path(quick)
        if case == "mmfs_campaign_routes":
            return mmfs_campaign_routes(quick)
        return initial_solution(quick)


def table(case: str, rows: list[dict]) -> list[dict]:
    if case == "mmfs_campaign_routes":
        return routes_table(rows)
    if case == "milp_c_path":
        from benchmarks.common import with_intervals

        return with_intervals(rows)
    return rows
