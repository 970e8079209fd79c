"""Issue 35: why KP-SVM under the paper protocol of Maldonado, Weber & Basak (2011) keeps (almost) every feature.

Reproduces the KP-SVM select job of a paper campaign (``maldonado2011_paper``: colon, pima;
``maldonado2011_paper_wdbc``: wdbc) on its one outer split, with the campaign's seed, scaling, inner folds and
grids, through the same functions the job calls (:func:`~svmfs.protocol.tuning.inner_fold_scores`,
:func:`~svmfs.protocol.tuning.choose_candidate`), and prints:

1. the 10-fold CV table on the training side (sec. 5, "the training set is then further divided using 10-fold
   cross-validation"; sec. 6, "Vary C2 ... using cross-validation for an increasing number of iterations, t"):
   per (C2, t) the best mean accuracy over the final SVM's C grid and the mean number of features kept;
2. on the whole training side, per C2: the first gradient (16) at v = v0 e (how many components are positive,
   i.e. how many widths the first step shrinks), the fixed step gamma (``step_scale`` "shrink") and the number of
   features kept after t = 10, 25, 50, 100 iterations and at the stopping rule (Algorithm 1, lines 5-9).

Needs the campaign's dataset and split files: ``snakemake ... --configfile <campaign> results/<c>/splits/<d>.json``
(or a run of the campaign). Run (one core): OMP_NUM_THREADS=1 python benchmarks/bench_kp_svm_paper_cv.py \
config/campaigns/protocol/maldonado2011_paper.yaml colon
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from svmfs.config import job_campaign_config, job_method_config, load_config  # noqa: E402
from svmfs.data.canonical import load_dataset  # noqa: E402
from svmfs.methods.kp_svm import _Dual, kp_path  # noqa: E402
from svmfs.protocol.method_plan import method_plan, selector_factory  # noqa: E402
from svmfs.protocol.normalize import normalize_fold  # noqa: E402
from svmfs.protocol.seeds import job_seed  # noqa: E402
from svmfs.protocol.tuning import choose_candidate, inner_cv, inner_fold_scores  # noqa: E402
from svmfs.solvers.anisotropic import kp_gradient, kp_kernel  # noqa: E402


def main(config_path: str, dataset: str, method: str = "kp_svm") -> None:
    cfg = load_config(ROOT / config_path, workdir=ROOT)
    res = ROOT / "results" / cfg["campaign"]
    ds = load_dataset(res / "datasets" / f"{dataset}.npz")
    fold = json.loads((res / "splits" / f"{dataset}.json").read_text())["folds"][0]
    seed = job_seed(cfg["seed"], dataset, 0, method, "default")
    mcfg, camp = job_method_config(cfg, dataset, method), job_campaign_config(cfg, dataset, method)
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
    print(f"## {cfg['campaign']} {dataset}: {Xtr.shape[0]} x {Xtr.shape[1]} training side, fixed {fixed}")
    print("\n| C2 | t | best inner CV accuracy | at final C | mean features kept |\n|---|---|---|---|---|")
    best: dict[str, dict] = {}
    for row in tuned.table:
        key = json.dumps(row["selector"], sort_keys=True)
        if key not in best or row["accuracy"] > best[key]["accuracy"]:
            best[key] = row
    for row in best.values():
        s = row["selector"]
        print(f"| {s.get('C2')} | {s.get('iterations')} | {100 * row['accuracy']:.2f} | {row['final'].get('C', '-')} | "
              f"{row['n_features']:.1f} |")
    print(f"\nchosen: {tuned.selector_params} with final {tuned.final_params}, inner CV {100 * tuned.inner_accuracy:.2f}")
    C, v0 = float(fixed["C"]), float(fixed["v0"])
    v = np.full(Xtr.shape[1], v0)
    K = kp_kernel(Xtr, v)
    c = _Dual(ytr, C)(K)
    print("\n| C2 | first gradient (16): positive components | min / median / max | gamma | kept after t = 10, 25, "
          "50, 100 | at the stopping rule (iterations) |\n|---|---|---|---|---|---|")
    for C2 in grid.get("C2", [fixed.get("C2", 1.0)]):
        g = kp_gradient(Xtr, c, v, C2, 5.0, K)
        run = kp_path(Xtr, ytr, C=C, C2=C2, v0=v0, step=0.25, beta=5.0, eps=v0 / 4, v_max=10 * v0, tol=1e-3,
                      max_iter=int(fixed.get("max_iter", 1000)))  # fmt: skip
        ns = run["n_selected"]
        kept = " / ".join(str(ns[min(t, len(ns)) - 1]) for t in (10, 25, 50, 100))
        print(f"| {C2} | {int(np.sum(g > 0))} of {g.size} | {g.min():.3g} / {np.median(g):.3g} / {g.max():.3g} | "
              f"{run['gamma']:.3g} | {kept} | {ns[-1]} ({len(ns)}) |")


if __name__ == "__main__":
    main(*sys.argv[1:])
