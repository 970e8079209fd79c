"""Issue 35: Catala & Martin Table 4 at 50 training points (Weston data) on the paper campaign's own draws,
with Algorithm 2 as run (the alignment stop) and two readings of its step 13, "[Optional] Remove from F
features i with DecrAlign(i) > 0", which the campaign does not run (docs/protocols/catala_martin.md, C8):

- ``as run``: :func:`svmfs.solvers.alignment.backward_elimination` (one removal per pass), as the campaign's
  ``dfsa_poly2`` (checked: the same support as every committed record);
- ``freeze``: step 13 as iFSA's optional step reads (sec. 3: a candidate that would lower the alignment is
  dropped from the candidates): a feature whose removal lowers the alignment in some pass (DecrAlign > 0)
  is no longer a candidate for removal, and is kept;
- ``batch``: step 13 with the sign of step 9 (the literal "> 0" would drop the features whose removal
  lowers the alignment, x1 and x2 first): every feature whose removal alone raises the alignment in the pass
  (DecrAlign <= 0) is removed with ``out``.

Data: ``reproduction/catala_martin_paper/config.yaml``'s weston_train50 (a pool of 10,000, 500 unstratified
draws of 50 training points), rebuilt through the workflow in WORKDIR, z-scored on each training side as the
campaign does. Prints recall (mean share of {x1, x2} kept), the mean number of features and the exact rate,
each with its 95 % t interval over the 500 draws, against the paper (99.40 / 6.38 / 38.60).

Usage: PYTHONPATH=src python benchmarks/bench_dfsa_line13.py WORKDIR [DATASET [RULE ...]]  (default weston_train50, every rule)
"""

from __future__ import annotations

import json
import math
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "reproduction" / "catala_martin_paper"
PAPER = {  # Table 4: recall, number of features, exact rate per training size
    "weston_train50": {"recall": 99.40, "n_selected": 6.38, "exact_rate": 38.60},
    "weston_train100": {"recall": 100.00, "n_selected": 2.40, "exact_rate": 95.90},
    "weston_train150": {"recall": 100.00, "n_selected": 2.00, "exact_rate": 100.00},
}
RULES = ("as run", "freeze", "batch")


def eliminate(X, t, rule: str, degree=2, offset=1.0) -> list[int]:
    """Algorithm 2 with the quadratic kernel (eq. 4) and step 13 read as ``rule`` (see the module doc);
    the features kept."""
    batches = elimination_batches(X, t, rule, degree, offset)
    gone = {f for b in batches for f in b}
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


def _ci(v):
    from scipy import stats

    v = np.asarray(v, dtype=float)
    half = stats.t.ppf(0.975, len(v) - 1) * v.std(ddof=1) / math.sqrt(len(v))
    return v.mean(), v.mean() - half, v.mean() + half


def run(workdir: Path, dataset: str = "weston_train50", rules=RULES) -> None:
    import pandas as pd
    import yaml

    from svmfs.data.canonical import load_dataset
    from svmfs.methods.dfsa import DFSA
    from svmfs.protocol.normalize import normalize_fold
    from svmfs.reproduce.jobs import run_workflow
    from svmfs.solvers.alignment import target_vector
    from svmfs.yamlio import load_yaml_file

    cfg = dict(load_yaml_file(FOLDER / "config.yaml"))
    cfg["results_dir"] = str(workdir / "results")
    cfg["raw_dir"] = str(ROOT / "data" / "raw")
    cfg["datasets"] = {dataset: cfg["datasets"][dataset]}
    res = workdir / "results" / cfg["campaign"]
    targets = [str(res / "datasets" / f"{dataset}.npz"), str(res / "splits" / f"{dataset}.json")]
    if not all(Path(t).exists() for t in targets):
        workdir.mkdir(parents=True, exist_ok=True)
        (workdir / "config.yaml").write_text(yaml.safe_dump(cfg, sort_keys=False))
        run_workflow(workdir, workdir / "config.yaml", *targets, cores=1, failure="bench: the data rule failed")
    ds = load_dataset(res / "datasets" / f"{dataset}.npz", res / "datasets" / f"{dataset}.json")
    folds = json.loads((res / "splits" / f"{dataset}.json").read_text())["folds"]
    records = pd.read_parquet(FOLDER / "records.parquet")
    committed = {int(r.fold): json.loads(r.selected) if isinstance(r.selected, str) else list(r.selected)
                 for r in records[(records.dataset == dataset) & (records.method == "dfsa_poly2")].itertuples()}  # fmt: skip
    rel = set(ds.relevant)
    out = {rule: {"recall": [], "n_selected": [], "exact_rate": []} for rule in ("as run", *[r for r in rules if r != "as run"])}
    same, t0 = 0, time.perf_counter()
    for fold in folds:
        train = np.asarray(fold["train"])
        Xtr = normalize_fold(ds.X, train, np.asarray(fold["test"]), "zscore", "fold")[0]
        ytr = ds.y[train]
        sel = DFSA(kernel="poly", degree=2).fit(Xtr, ytr)
        y_pm = np.where(ytr == sel.classes_[1], 1.0, -1.0)
        kept_lib = sorted(np.flatnonzero(sel.support_).tolist())
        same += kept_lib == sorted(committed.get(int(fold["fold"]), []))
        for rule in out:
            kept = kept_lib if rule == "as run" else eliminate(Xtr, target_vector(y_pm), rule)
            s = set(kept)
            out[rule]["recall"].append(100.0 * len(s & rel) / len(rel))
            out[rule]["n_selected"].append(len(s))
            out[rule]["exact_rate"].append(100.0 * (s == rel))
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {len(folds)} draws of {dataset} in {time.perf_counter() - t0:.0f} s; "
          f"'as run' equals the committed dfsa_poly2 support in {same} of {len(folds)}")  # fmt: skip
    for rule, m in out.items():
        print(f"{rule}: " + "; ".join(f"{k} {a:.2f} [{lo:.2f}, {hi:.2f}] (paper {PAPER[dataset][k]:.2f})" for k, (a, lo, hi) in ((k, _ci(v)) for k, v in m.items())))


if __name__ == "__main__":
    run(Path(sys.argv[1]), *(sys.argv[2:3] or ["weston_train50"]), rules=sys.argv[3:] or RULES)
