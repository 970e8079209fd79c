"""Issue 20 goal 2 over every MM-FS fit of the jimenez2021 colon campaign, not only its slowest starts.

The committed export (reproduction/jimenez2021/records.parquet) holds colon's 110 MM-FS select jobs (11 C2 x 10
outer folds), fitted by ``route: reduced``. For each of them this benchmark refits the selector as the select job
did (the fold's training side scaled to [-1, 1], ``MMFS(C2, n_folds=5, random_state=<the record's seed>)``: inner
5-fold isotropic CV over the paper's C and gamma grids, then the NLP), once by each route:

- ``reduced``: the campaign's route; the refit must give the record's objective and selected genes again;
- ``cyipopt``: the route the issue calls today's reference (Ipopt, L-BFGS with 50 pairs), from the same start
  (the same inner CV, so the same C* and gamma_ini), time limit ``CYIPOPT_LIMIT``;
- ``cyipopt_exact``: Ipopt with the exact Hessian of (20) (what the paper's Pyomo + Ipopt gives Ipopt), same start
  and limit.

The routes are compared by F at max(gamma, 0) (``mmfs_reduced.reduced_objective``), by the genes with
gamma_j > 1e-2 and by the test accuracy of the campaign's final classifier on the fit. One BLAS thread, one
process per route (a select job's threads: 1); time = wall and CPU of ``fit`` (the inner CV included). Rows are
appended to OUT.jsonl as they finish; a rerun skips the (route, fold, C2) already there. ``write`` also writes
every fit to ``PER_FIT``.

Run:   python benchmarks/bench_mmfs_campaign.py run OUT.jsonl {reduced|cyipopt|cyipopt_exact} [SHARD/SHARDS]
       python benchmarks/bench_mmfs_campaign.py write OUT.jsonl [MACHINE-NOTE]   (appends a RESULTS.md section)
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_mmfs import ROOT, _fit_record, outer_fold  # noqa: E402

RECORDS = ROOT / "reproduction" / "jimenez2021" / "records.parquet"
CYIPOPT_LIMIT = 1800.0
#: F within this relative difference and the same genes: "the same point" (the issue's 1e-6).
SAME_F = 1e-6


def campaign_jobs() -> list[dict]:
    """(fold, C2, seed, objective, selected, fit_time_s, C*, test accuracy) of colon's MM-FS records, in (fold, C2)
    order."""
    import pandas as pd

    d = pd.read_parquet(RECORDS)
    d = d[(d.dataset == "colon") & (d.method == "mm_fs")]
    jobs = [dict(fold=int(r.fold), C2=float(json.loads(r.selector_params)["C2"]), seed=int(r.seed),
                 objective=float(r.objective), selected=json.loads(r.selected), fit_time_s=float(r.fit_time_s),
                 C=float(json.loads(r.final_params)["C"]), test_accuracy=float(r.test_accuracy))
            for r in d.itertuples()]  # fmt: skip
    return sorted(jobs, key=lambda j: (j["fold"], j["C2"]))


def fold_sides(fold_index: int):
    """(X_train, y_train, X_test, y_test) of colon's outer fold as the select job scales them (normalize_fold)."""
    from svmfs.protocol.normalize import normalize_fold

    X, y, fold = outer_fold("colon", fold_index)
    tr, te = np.asarray(fold["train"]), np.asarray(fold["test"])
    Xtr, Xte, _ = normalize_fold(X, tr, te, "minmax_pm1", "fold")
    return Xtr, y[tr], Xte, y[te]


def test_accuracy(sel, Xtr, ytr, Xte, yte) -> float:
    """Test accuracy of the campaign's final classifier on the fit: the anisotropic SVM (10) with every gamma_j > 0
    and C* (``final_classifier.anisotropic``: C_source selector, widths all), through the select job's own
    ``fit_predict``."""
    from svmfs.protocol.classifiers import fit_predict
    from svmfs.yamlio import load_yaml_file

    cfg = load_yaml_file(RECORDS.parent / "config.yaml")["final_classifier"]  # the config the records ran with
    pred, _ = fit_predict("anisotropic", {}, cfg, Xtr, ytr, Xte, sel.support_, sel)
    return float(np.mean(pred == yte))


def fit_one(job: dict, route: str) -> dict:
    """The select job's selector fit by ``route``, one BLAS thread: wall, CPU, F at max(gamma, 0), genes, the
    widths (gamma_j > 0) and the final classifier's test accuracy."""
    from threadpoolctl import threadpool_limits

    from svmfs.methods.mm_fs import MMFS

    X, y, Xte, yte = fold_sides(job["fold"])
    kw = dict(route="cyipopt", hessian="exact") if route == "cyipopt_exact" else dict(route=route)
    limit = 7200.0 if route == "reduced" else CYIPOPT_LIMIT
    sel = MMFS(C2=job["C2"], n_folds=5, time_limit=limit, random_state=job["seed"], **kw)
    with threadpool_limits(limits=1):
        cpu, t = time.process_time(), time.perf_counter()
        sel.fit(X, y)
        wall, cpu = time.perf_counter() - t, time.process_time() - cpu
        out = _fit_record(sel, X, y, wall)
        acc = test_accuracy(sel, X, y, Xte, yte)
    on = np.flatnonzero(sel.kernel_widths_ > 0)
    return dict(out, route=route, fold=job["fold"], C2=job["C2"], cpu_s=cpu, load=os.getloadavg()[0], test_accuracy=acc,
                widths={int(j): float(sel.kernel_widths_[j]) for j in on})  # fmt: skip


def main_run(path: str, route: str, shard: str = "0/1"):
    k, n = (int(v) for v in shard.split("/"))
    done = set()
    if Path(path).exists():
        done = {(r["route"], r["fold"], r["C2"]) for r in map(json.loads, open(path)) if "test_accuracy" in r}
    for i, job in enumerate(campaign_jobs()):
        if i % n != k or (route, job["fold"], job["C2"]) in done:
            continue
        r = fit_one(job, route)
        with open(path, "a") as f:
            f.write(json.dumps(r, default=float) + "\n")
        print(f"{route} fold {job['fold']} C2 {job['C2']}: {r['time_s']:.1f} s, {r['status']}, F {r['F']:.10g}, "
              f"{r['n_selected']} genes, C {r['C']}, gamma_ini {r['gamma_ini']}", flush=True)


#: Every fit of every route, one row each (what the RESULTS.md section summarizes), for a reader to re-check.
PER_FIT = ROOT / "benchmarks" / "mmfs_campaign_routes.csv"


def write_per_fit(rows: list[dict]) -> None:
    """:data:`PER_FIT`: one row per (route, fold, C2), sorted, floats with 10 significant digits."""
    import pandas as pd

    cols = ["route", "fold", "C2", "C", "gamma_ini", "status", "n_iter", "time_s", "cpu_s", "F", "n_selected",
            "selected", "test_accuracy"]
    last = {(r["route"], r["fold"], r["C2"]): r for r in rows}
    df = pd.DataFrame([{c: r[c] for c in cols} for r in last.values()]).sort_values(["route", "fold", "C2"])
    df["selected"] = df["selected"].map(lambda v: " ".join(map(str, v)))
    df.to_csv(PER_FIT, index=False, float_format="%.10g", lineterminator="\n")


ROUTES = {"reduced": "reduced (L-BFGS-B + Newton)", "cyipopt": "cyipopt L-BFGS 50", "cyipopt_exact": "cyipopt exact Hessian"}


def compare(a: dict, b: dict) -> str:
    """'same' (F within SAME_F relative and the same genes), else 'lower' or 'higher' (a's F against b's)."""
    rel = (a["F"] - b["F"]) / abs(b["F"])
    if abs(rel) <= SAME_F and a["selected"] == b["selected"]:
        return "same"
    return "lower" if rel < 0 else "higher"


def colon_entry() -> dict:
    """jimenez2021 Table 2's colon MM-FS entry of the project's published.yaml (best over C2)."""
    from svmfs.analysis.reproduction import published

    return next(e for e in published()["entries"] if e["paper"] == "jimenez2021" and e.get("table") == "Table 2"
                and e["dataset"] == "colon" and e["method"] == "mm_fs")  # fmt: skip


def main_write(path: str, machine: str = ""):
    from svmfs.analysis.reproduction import verdict

    rows = [json.loads(ln) for ln in open(path) if ln.strip() and "test_accuracy" in ln]
    by = {(r["route"], r["fold"], r["C2"]): r for r in rows}
    jobs = campaign_jobs()
    keys = [(j["fold"], j["C2"]) for j in jobs]
    got = {rt: [by[(rt, *k)] for k in keys if (rt, *k) in by] for rt in ROUTES}
    refit = [(j, by[("reduced", *k)]) for j, k in zip(jobs, keys) if ("reduced", *k) in by]
    again = sum(abs(r["objective"] - j["objective"]) <= 1e-9 * abs(j["objective"]) and r["selected"] == j["selected"]
                and r["C"] == j["C"] and r["test_accuracy"] == j["test_accuracy"] for j, r in refit)  # fmt: skip
    lines = ["", f"## Issue 20 goal 2 over every MM-FS fit of the jimenez2021 colon campaign (`bench_mmfs_campaign.py`, "
             f"{time.strftime('%Y-%m-%d')})", "", *([machine, ""] if machine else []),
             f"The reduced route's refit of the campaign's {len(jobs)} records: {len(refit)} refitted, {again} with the "
             "record's objective (1e-9), genes, C* and test accuracy.", "",
             "| route | fits | status | fit time (inner CV + NLP), wall: median / max / sum | CPU: median / max | "
             "fits over 15 s (wall) |", "| --- | --- | --- | --- | --- | --- |"]
    for rt, rs in got.items():
        if rs:
            t, cpu = [r["time_s"] for r in rs], [r["cpu_s"] for r in rs]
            st = ", ".join(f"{s} {n}" for s, n in sorted(Counter(r["status"] for r in rs).items()))
            lines.append(f"| {ROUTES[rt]} | {len(rs)} | {st} | {np.median(t):.1f} / {max(t):.1f} / {sum(t):.0f} s | "
                         f"{np.median(cpu):.1f} / {max(cpu):.1f} s | {sum(v > 15 for v in t)} |")
    lines += ["", "Same start (the job's inner CV: C*, gamma_ini), end points compared by F at max(gamma, 0) and the genes "
              f"(gamma_j > 1e-2); 'same point': F within {SAME_F:g} relative and the same genes.", "",
              "| routes A vs B | fits | same point | A lower | A higher | where different: median abs. F rel. diff, median "
              "genes shared / in A |", "| --- | --- | --- | --- | --- | --- |"]
    for a, b in (("reduced", "cyipopt"), ("reduced", "cyipopt_exact"), ("cyipopt", "cyipopt_exact")):
        pairs = [(by[(a, *k)], by[(b, *k)]) for k in keys if (a, *k) in by and (b, *k) in by]
        if not pairs:
            continue
        v = [compare(x, y) for x, y in pairs]
        diff = [(x, y) for (x, y), w in zip(pairs, v) if w != "same"]
        rel = np.median([abs(x["F"] - y["F"]) / abs(y["F"]) for x, y in diff]) if diff else 0.0
        shared = (f"{np.median([len(set(x['selected']) & set(y['selected'])) for x, y in diff]):.0f} / "
                  f"{np.median([x['n_selected'] for x, _ in diff]):.0f}") if diff else "-"  # fmt: skip
        lines.append(f"| {ROUTES[a]} vs {ROUTES[b]} | {len(pairs)} | {v.count('same')} | {v.count('lower')} | "
                     f"{v.count('higher')} | {rel:.1e}, {shared} |")
    complete = [k for k in keys if all((rt, *k) in by for rt in ROUTES)]
    if complete:
        lowest = Counter()
        for k in complete:
            fmin = min(by[(rt, *k)]["F"] for rt in ROUTES)
            lowest.update(rt for rt in ROUTES if by[(rt, *k)]["F"] <= fmin * (1 + SAME_F))
        lines += ["", f"Lowest F of the three routes (within {SAME_F:g}; ties count for each), {len(complete)} fits: "
                  + ", ".join(f"{ROUTES[rt]} {lowest[rt]}" for rt in ROUTES) + "."]
    e = colon_entry()
    lines += ["", f"What the route does to Table 2's colon MM-FS figure (published {e['value']}, best C2 by mean test "
              "accuracy over the 10 outer folds; the final classifier as the campaign's: the anisotropic SVM (10) with "
              "C* and every gamma_j > 0; verdict by `analysis.reproduction.verdict`, audits not included):", "",
              "| route | " + " | ".join(f"C2 = {c2:g}" for c2 in sorted({k[1] for k in keys})) + " | best C2 | verdict |",
              "| --- |" + " --- |" * (len({k[1] for k in keys}) + 2)]
    for rt in ROUTES:
        acc = {c2: [by[(rt, f, c2)]["test_accuracy"] * 100 for f, c in keys if c == c2 and (rt, f, c2) in by]
               for c2 in sorted({k[1] for k in keys})}  # fmt: skip
        if not all(len(v) == 10 for v in acc.values()):
            continue
        means = {c2: float(np.mean(v)) for c2, v in acc.items()}
        best = max(means, key=lambda c2: (means[c2], -c2))  # the first C2 on ties, as _best_setting
        ver = verdict(e, acc[best])
        lines.append(f"| {ROUTES[rt]} | " + " | ".join(f"{m:.2f}" for m in means.values())
                     + f" | {best:g}: {means[best]:.2f} [{ver['ci_low']:.2f}, {ver['ci_high']:.2f}] | {ver['verdict']} |")
    lines += ["", f"Every fit (route, fold, C2, C*, gamma_ini, status, time, F, genes, test accuracy): `{PER_FIT.name}`."]
    write_per_fit(rows)
    text = "\n".join(lines + [""])
    with open(ROOT / "benchmarks" / "RESULTS.md", "a") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    if sys.argv[1] == "run":
        main_run(*sys.argv[2:5])
    elif sys.argv[1] == "write":
        main_write(*sys.argv[2:4])
    else:
        raise SystemExit(__doc__)
