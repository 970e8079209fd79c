"""Catala & Martin's Tables 4 and 5 (kernel-alignment selection, dFSA) measured beside the campaigns: the paper's
500 fresh Weston draws, the f2 problem with both stops, and the readings of Algorithm 2's optional step 13 and of
sec. 5.2's validation stop on the paper campaign's own draws.

Step 13 reads "[Optional] Remove from F features i with DecrAlign(i) > 0"; the campaign does not run it
(docs/protocols/catala_martin.md C8, C31). Rules of :func:`elimination_batches`:

- ``as run``: :func:`svmfs.solvers.alignment.backward_elimination` (one removal per pass), as the campaign's
  ``dfsa_poly2`` (checked: the same support as every committed record);
- ``freeze``: step 13 as iFSA's optional step reads (sec. 3): a feature whose removal lowers the alignment in some
  pass (DecrAlign > 0) is no longer a candidate for removal, and is kept;
- ``batch``: step 13 with the sign of step 9 (the literal "> 0" would drop x1 and x2 first): every feature whose
  removal alone raises the alignment in the pass (DecrAlign <= 0) is removed with ``out``.

Case ``batch_table5``: Table 5 with sec. 5.2's validation stop ("we measured at each iteration of dFSA if the
removal of features decrease the accuracy in a validation set, and stop in that case") checked once per
iteration, an iteration removing ``batch``'s features, first drop (C17 (d)), against the judged reading (one
feature per iteration, C17 (a)); the classifier scored on the validation points is the campaign's (an SVM with
eq. 4's kernel and C = 1). Case ``batch_margin``: how close to zero the batch decisions come (a DecrAlign
within round-off of zero could fall on the other side on another CPU and change a record).
"""

from __future__ import annotations

import json

import numpy as np

from benchmarks.common import ROOT, campaign_data, ci, with_intervals, zscore

QUESTION = "Do dFSA's Table 4 and Table 5 numbers hold on fresh draws, and what do the readings of step 13 and of the validation stop give?"
DATA = "Weston and sparse-polynomial draws (the paper's sizes), and the catala_martin_paper campaign's own draws"
TOPIC = "reproduction evidence"
RESULTS = "catala_martin"
FOLDER = ROOT / "reproduction" / "catala_martin_paper"
CASES = {
    "table4": {"question": "On the paper's 500 fresh Weston draws of 100 points, how often does dFSA (quadratic kernel) keep exactly {x1, x2} (Table 4: 95.9 %)?",
               "data": "weston_nonlinear(n=100), seeds 0-499, z-scored, DFSA(kernel='poly', degree=2) (quick: 100 seeds)"},
    "table5_f2": {"question": "On f2 = x1 x2 + x3 with 200 alignment points, what recall and size do the alignment stop and a validation stop give (Table 5: 100 % / 3.03), and how does the polynomial offset move the alignment stop?",
                  "data": "sparse_polynomial(n=300, 'f2'), seeds 0-99 (the offsets: 0-49), z-scored; validation: 100 held-out points (quick: 30 and 20 seeds)"},
    "step13_table4": {"question": "What do the readings of Algorithm 2's optional step 13 keep on Table 4's 50-point Weston draws (paper: recall 99.40, 6.38 features, exact 38.60 %)?",
                      "data": "catala_martin_paper's weston_train50 (500 unstratified draws of 50 points from a pool of 10 000), rebuilt through the workflow, z-scored per training side (quick: 100 draws)"},
    "batch_table5": {"question": "With the validation stop checked once per iteration of a batch elimination (step 13, C17 (d)), what recall and size does dFSA give on Table 5?",
                     "data": "catala_martin_paper's Table 5 draws (434 poly_* datasets, 100 validation points apart), rebuilt through the workflow, z-scored per training side (quick: 3 draws of the first dataset of each of the 35 groups)"},
    "batch_margin": {"question": "How close to zero do step 13's batch decisions (DecrAlign) come on Table 5's draws, relative to the alignment?",
                     "data": "catala_martin_paper's Table 5 draws (434 poly_* datasets), z-scored per training side (quick: 3 draws of the first dataset of each of the 35 groups)"},
}
PAPER_T4 = {  # Table 4: recall, number of features, exact rate per training size
    "weston_train50": {"recall": 99.40, "n_selected": 6.38, "exact_rate": 38.60},
    "weston_train100": {"recall": 100.00, "n_selected": 2.40, "exact_rate": 95.90},
    "weston_train150": {"recall": 100.00, "n_selected": 2.00, "exact_rate": 100.00},
}
KW = dict(degree=2, offset=1.0, gamma=1.0)


def eliminate(X, t, rule: str, degree=2, offset=1.0) -> list[int]:
    """Algorithm 2 with the quadratic kernel (eq. 4) and step 13 read as ``rule`` (see the module doc);
    the features kept."""
    gone = {f for b in elimination_batches(X, t, rule, degree, offset) for f in b}
    return [f for f in range(X.shape[1]) if f not in gone]


def elimination_batches(X, t, rule: str, degree=2, offset=1.0) -> list[list[int]]:
    """The features each iteration of :func:`eliminate` removes, in order (one per iteration but under
    ``batch``), down to the alignment stop."""
    from svmfs.solvers.alignment import alignment, base_matrix, candidate_alignments, kernel_from_base, update_base

    kw = dict(degree=degree, offset=offset, gamma=1.0)
    F = list(range(X.shape[1]))
    batches: list[list[int]] = []
    frozen: set[int] = set()
    base = base_matrix(X, "poly")
    current = float(alignment(kernel_from_base(base, "poly", **kw), t))
    while len(F) > 1:
        decr = current - candidate_alignments(base, X[:, F], t, "poly", -1.0, **kw)
        open_ = [j for j in range(len(F)) if F[j] not in frozen]
        if not open_:
            break
        k = min(open_, key=lambda j: (decr[j], F[j]))  # step 8, ties to the lower index (as backward_elimination)
        if decr[k] > 0:  # step 15
            break
        out = {F[k]}
        if rule == "batch":
            out |= {F[j] for j in open_ if decr[j] <= 0}
        elif rule == "freeze":
            frozen |= {F[j] for j in open_ if decr[j] > 0}
        if len(out) >= len(F):
            out = {F[k]}
        for f in sorted(out):
            base = update_base(base, X[:, f], "poly", -1.0)
        F = [f for f in F if f not in out]
        batches.append(sorted(out))
        current = float(alignment(kernel_from_base(base, "poly", **kw), t))
    return batches


def _stats(label: dict, values: dict) -> dict:
    row = dict(label)
    for k, v in values.items():
        m, lo, hi = ci(v)
        row.update({k: round(m, 2), f"{k}_lo": round(lo, 2), f"{k}_hi": round(hi, 2)})
    return row


def table4(reps: int) -> list[dict]:
    from svmfs.data.synthetic import weston_nonlinear
    from svmfs.methods.dfsa import DFSA

    exact, recall, sizes = [], [], []
    for seed in range(reps):
        X, y, rel = weston_nonlinear(n=100, seed=seed)
        sup = set(np.flatnonzero(DFSA(kernel="poly", degree=2).fit(zscore(X), y).support_).tolist())
        exact.append(100.0 * (sup == set(rel)))
        recall.append(100.0 * len(sup & set(rel)) / 2)
        sizes.append(len(sup))
    return [_stats({"draws": reps, "paper_exact_rate": 95.9, "paper_recall": 100.0, "paper_n_selected": 2.40},
                   {"exact_rate": exact, "recall": recall, "n_selected": sizes})]  # fmt: skip


def table5_f2(reps: int, reps_offset: int) -> list[dict]:
    from svmfs.data.synthetic import sparse_polynomial
    from svmfs.methods.dfsa import DFSA

    out = {"alignment stop": ([], []), "validation stop (100 held out)": ([], [])}
    for seed in range(reps):
        X, y, rel = sparse_polynomial(n=300, kind="f2", seed=seed)
        X = zscore(X)
        for key, sel in (("alignment stop", DFSA().fit(X[:200], y[:200])),
                         ("validation stop (100 held out)", DFSA(validation_size=100, random_state=seed).fit(X, y))):  # fmt: skip
            sup = set(np.flatnonzero(sel.support_).tolist())
            out[key][0].append(100.0 * len(sup & set(rel)) / 3)
            out[key][1].append(len(sup))
    rows = [_stats({"stop": k, "offset": 1.0, "draws": reps}, {"recall": r, "n_selected": s}) for k, (r, s) in out.items()]
    for offset in (0.25, 0.5, 1.0, 2.0):
        rec, size = [], []
        for seed in range(reps_offset):
            X, y, rel = sparse_polynomial(n=300, kind="f2", seed=seed)
            sup = set(np.flatnonzero(DFSA(offset=offset).fit(zscore(X)[:200], y[:200]).support_).tolist())
            rec.append(100.0 * len(sup & set(rel)) / 3)
            size.append(len(sup))
        rows.append(_stats({"stop": "alignment stop", "offset": offset, "draws": reps_offset}, {"recall": rec, "n_selected": size}))
    return rows


def _folds(res, name: str, limit: int | None):
    folds = json.loads((res / "splits" / f"{name}.json").read_text())["folds"]
    return folds[:limit] if limit else folds


def step13_table4(limit: int | None, dataset: str = "weston_train50") -> list[dict]:
    import pandas as pd

    from svmfs.data.canonical import load_dataset
    from svmfs.methods.dfsa import DFSA
    from svmfs.protocol.normalize import normalize_fold
    from svmfs.solvers.alignment import target_vector

    res = campaign_data(FOLDER, [dataset])
    ds = load_dataset(res / "datasets" / f"{dataset}.npz", res / "datasets" / f"{dataset}.json")
    records = pd.read_parquet(FOLDER / "records.parquet")
    committed = {int(r.fold): json.loads(r.selected) if isinstance(r.selected, str) else list(r.selected)
                 for r in records[(records.dataset == dataset) & (records.method == "dfsa_poly2")].itertuples()}  # fmt: skip
    rel = set(ds.relevant)
    out = {rule: {"recall": [], "n_selected": [], "exact_rate": []} for rule in ("as run", "freeze", "batch")}
    same = 0
    folds = _folds(res, dataset, limit)
    for fold in folds:
        train = np.asarray(fold["train"])
        Xtr = normalize_fold(ds.X, train, np.asarray(fold["test"]), "zscore", "fold")[0]
        ytr = ds.y[train]
        sel = DFSA(kernel="poly", degree=2).fit(Xtr, ytr)
        y_pm = np.where(ytr == sel.classes_[1], 1.0, -1.0)
        kept_lib = sorted(np.flatnonzero(sel.support_).tolist())
        same += kept_lib == sorted(committed.get(int(fold["fold"]), []))
        for rule in out:
            s = set(kept_lib if rule == "as run" else eliminate(Xtr, target_vector(y_pm), rule))
            out[rule]["recall"].append(100.0 * len(s & rel) / len(rel))
            out[rule]["n_selected"].append(len(s))
            out[rule]["exact_rate"].append(100.0 * (s == rel))
    paper = PAPER_T4[dataset]
    return [_stats({"dataset": dataset, "rule": rule, "draws": len(folds), "as_run_equals_committed": f"{same} of {len(folds)}",
                    **{f"paper_{k}": v for k, v in paper.items()}}, m) for rule, m in out.items()]  # fmt: skip


def _poly_names(quick: bool = False) -> dict[str, str]:
    """Table 5's datasets of the paper campaign and their groups (quick: the first dataset of each group)."""
    from svmfs.config import campaign_datasets
    from svmfs.yamlio import load_yaml_file

    cfg = dict(load_yaml_file(FOLDER / "config.yaml"))
    names = {n: d.get("group", n) for n, d in campaign_datasets(cfg).items() if n.startswith("poly_")}
    if quick:
        first = {g: min(n for n in names if names[n] == g) for g in set(names.values())}
        names = {n: g for g, n in first.items()}
    return names


def batch_table5(limit: int | None) -> dict:
    import pandas as pd

    from svmfs.data.canonical import load_dataset
    from svmfs.methods.dfsa import DFSA
    from svmfs.protocol.normalize import normalize_fold
    from svmfs.solvers.alignment import target_vector
    from svmfs.yamlio import load_yaml_file

    names = _poly_names(quick=limit is not None)
    res = campaign_data(FOLDER, sorted(names))
    records = pd.read_parquet(FOLDER / "records.parquet")
    records = records[records.method == "dfsa_poly2"]
    committed = {(r.dataset, int(r.fold)): set(json.loads(r.selected) if isinstance(r.selected, str) else r.selected)
                 for r in records.itertuples()}  # fmt: skip
    published = {(e["dataset"], e["metric"]): e["value"] for e in load_yaml_file(ROOT / "src" / "svmfs" / "analysis" / "published.yaml")["entries"]
                 if e.get("paper") == "catala_martin" and e.get("table") == "Table 5"}  # fmt: skip
    out: dict = {}
    same = same_lib = total = 0
    for name, group in sorted(names.items()):
        ds = load_dataset(res / "datasets" / f"{name}.npz", res / "datasets" / f"{name}.json")
        rel = set(ds.relevant)
        for fold in _folds(res, name, limit):
            tr, val = np.asarray(fold["train"]), np.asarray(fold["validation"])
            Xtr, Xv, _ = normalize_fold(ds.X, tr, val, "zscore", "fold")
            ytr = np.where(ds.y[tr] == np.unique(ds.y)[1], 1.0, -1.0)
            yv = np.where(ds.y[val] == np.unique(ds.y)[1], 1.0, -1.0)
            for rule in ("as run", "batch"):
                batches = elimination_batches(Xtr, target_vector(ytr), rule)
                n = DFSA(validation_rule="first_drop")._validation_cut(Xtr, ytr, Xv, yv, batches, None)
                kept = set(range(Xtr.shape[1])) - {f for b in batches[:n] for f in b}
                if rule == "as run":
                    total += 1
                    same += kept == committed.get((name, int(fold["fold"])))
                else:  # the library's route: DFSA(step13=True), the campaign's dfsa_poly2_batch
                    lib = DFSA(step13=True, validation_rule="first_drop").fit(Xtr, ytr, validation=(Xv, yv))
                    same_lib += kept == set(np.flatnonzero(lib.support_).tolist())
                m = out.setdefault((group, rule), {"recall": [], "n_selected": []})
                m["recall"].append(100.0 * len(kept & rel) / len(rel))
                m["n_selected"].append(len(kept))
    key = lambda g: (g.split("_train")[0], int(g.split("_train")[1]))  # noqa: E731
    rows = []
    for group in sorted({g for g, _ in out}, key=key):
        for rule in ("as run", "batch"):
            rows.append(_stats({"table5_row": group, "rule": rule, "draws": len(out[(group, rule)]["recall"]),
                                "paper_recall": published.get((group, "recall")), "paper_n_selected": published.get((group, "n_selected"))},
                               out[(group, rule)]))  # fmt: skip
    return {"rows": rows, "notes": {"'as run' equals the committed dfsa_poly2 support": f"{same} of {total}",
                                    "'batch' equals DFSA(step13=True)": f"{same_lib} of {total}"}}  # fmt: skip


def smallest_margin(X: np.ndarray, t: np.ndarray) -> float:
    """The smallest |DecrAlign| / alignment over every candidate of every pass of the batch elimination."""
    from svmfs.solvers.alignment import alignment, backward_elimination, kernel_matrix

    res = backward_elimination(X, t, "poly", batch=True, **KW)
    F, smallest = list(range(X.shape[1])), np.inf
    for b in res.batches + [[]]:  # the passes that removed a batch, then the one that stopped
        a = alignment(kernel_matrix(X, F, "poly", **KW), t)
        for j in F:
            rest = [f for f in F if f != j]
            smallest = min(smallest, abs(a - alignment(kernel_matrix(X, rest, "poly", **KW), t)) / abs(a))
        F = [f for f in F if f not in set(b)]
    return smallest


def batch_margin(limit: int | None) -> list[dict]:
    from svmfs.data.canonical import load_dataset
    from svmfs.protocol.normalize import normalize_fold
    from svmfs.solvers.alignment import target_vector

    names = _poly_names(quick=limit is not None)
    res = campaign_data(FOLDER, sorted(names))
    margins = []
    for name in sorted(names):
        ds = load_dataset(res / "datasets" / f"{name}.npz", res / "datasets" / f"{name}.json")
        for fold in _folds(res, name, limit):
            tr = np.asarray(fold["train"])
            Xtr, _, _ = normalize_fold(ds.X, tr, tr[:1], "zscore", "fold")
            margins.append(smallest_margin(Xtr, target_vector(np.where(ds.y[tr] == np.unique(ds.y)[1], 1.0, -1.0))))
    m = np.array(margins)
    return [{"draws": len(m), "smallest_relative_margin": float(f"{m.min():.3e}"), "percentile_1": float(f"{np.percentile(m, 1):.3e}"),
             "median": float(f"{np.median(m):.3e}"), "draws_under_1e-9": int((m < 1e-9).sum())}]  # fmt: skip


def run(case: str, quick: bool = False) -> list[dict]:
    if case == "table4":
        return table4(100 if quick else 500)
    if case == "table5_f2":
        return table5_f2(30 if quick else 100, 20 if quick else 50)
    if case == "step13_table4":
        return step13_table4(100 if quick else None)
    if case == "batch_table5":
        return batch_table5(3 if quick else None)
    assert case == "batch_margin", case
    return batch_margin(3 if quick else None)


def table(case: str, rows: list[dict]) -> list[dict]:
    """RESULTS.md: each mean with its 95 % interval in one cell; ``batch_table5`` one row per Table 5 row."""
    rows = with_intervals(rows)
    if case != "batch_table5":
        return rows
    out: dict[str, dict] = {}
    for r in rows:
        o = out.setdefault(r["table5_row"], {"table5_row": r["table5_row"], "draws": r["draws"], "paper_recall": r["paper_recall"]})
        o[f"recall, {r['rule']}"] = r["recall"]
    for r in rows:
        out[r["table5_row"]]["paper_n_selected"] = r["paper_n_selected"]
    for r in rows:
        out[r["table5_row"]][f"n_selected, {r['rule']}"] = r["n_selected"]
    return list(out.values())
