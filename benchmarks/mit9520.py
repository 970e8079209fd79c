"""What the inner CV of the mit9520 paper campaign chose for the Table 2-3 gaps in the number of features, and what
the sheet's readings M11 and M18 (docs/protocols/mit9520.md) would have chosen instead.

For each job of ``reproduction/mit9520_paper/records.parquet`` in the given (setting, method) pairs, rebuilds
the job's data and split through the workflow (``WORKDIR/results``, once), recomputes its inner-CV scores
(:func:`svmfs.protocol.select_job.run_inner_folds`, every inner fold, 1 BLAS thread) and reads four choices
off the same score table:

- ``campaign``: the campaign's rule (:func:`svmfs.protocol.tuning.choose_candidate`: best mean inner accuracy
  over (selector point, kept count, final C), ties to the smaller mean support over the inner folds, then the
  earlier candidate); checked against the committed record's ``selector_params`` and ``final_params``;
- ``M18``: the classifier scored is the SVM the elimination ends with (sec. 4.1: "1. SVM RFE ... 3. 1-norm RFE
  by polishing ... with SVM-RFE"): only the candidates whose final C equals the selector's C (the RFE's last
  SVM is libsvm's linear SVM at that C on the k features kept, the same fit as the refitted SVC at that C);
  the same ranking rule;
- ``M11``: the campaign's candidates, ties in mean inner accuracy resolved as sec. 4.1 says: "by computing
  the estimator on the whole training set and keeping the one with smallest support" (SVM-RFE: the support
  is the kept count; 1-norm RFE: refitted per tied C, the count capped by the 1-norm support), ties left to
  the earlier candidate;
- ``M18+M11``: both.

Each choice is then fitted on the whole training side (the job's step 4) and scored on its test side by the
final classifier, its C re-tuned by inner CV on the features kept as the job's step 5 does (M18: the selector's C,
nothing re-tuned): its number of features and test error.
Rows per setting, method and rule: the number of features and the test error (mean, sd and the 95 % t interval
over the 5 draws, as the report's). The inner-CV scores of each job are cached in the scratch folder.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np

from benchmarks.common import ROOT, WORK

QUESTION = "Which kept count did the mit9520 paper campaign's inner CV choose, and what would the readings M11 (ties by support on the whole training side) and M18 (score the RFE's own SVM) have chosen?"
DATA = ("The committed mit9520_paper jobs of ex2_rho02 / l1_rfe, ex3_rho02 / svm_rfe, ex3_rho08 / svm_rfe and ex3_rho08 / l1_rfe "
        "(5 draws each), their data and splits rebuilt through the workflow, inner-CV scores recomputed, 1 BLAS thread (quick: ex3_rho02 / svm_rfe)")
TOPIC = "reproduction evidence"
RESULTS = "mit9520"
CASES = {"inner_choice": {}}
FOLDER = ROOT / "reproduction" / "mit9520_paper"
PAIRS = ("ex2_rho02:l1_rfe", "ex3_rho02:svm_rfe", "ex3_rho08:svm_rfe", "ex3_rho08:l1_rfe")
RULES = ("campaign", "M18", "M11", "M18+M11")


def _table(scores: dict, keep=None) -> list[tuple]:
    """(order, si, k, fi, mean accuracy, mean features) per candidate, in choose_candidate's order;
    ``keep(si, fi)``: the candidates kept."""
    acc, nf = {}, {}
    for k_fold in sorted(scores, key=int):
        for si, k, fi, a, n in scores[k_fold]:
            if keep is None or keep(si, fi):
                acc.setdefault((si, k, fi), []).append(a)
                nf.setdefault((si, k, fi), []).append(n)
    return [(o, *key, float(np.mean(acc[key])), float(np.mean(nf[key]))) for o, key in enumerate(acc)]


def _choose(table, refit_size=None):
    """The best mean accuracy; ties to the smaller mean inner support (``refit_size(si, k)`` None) or to the
    smaller support refitted on the whole training side, then the earlier candidate. Returns (row, ties)."""
    best = max(round(r[4], 12) for r in table)
    tied = [r for r in table if round(r[4], 12) == best]
    size = (lambda r: r[5]) if refit_size is None else (lambda r: refit_size(r[1], r[2]))
    return min(tied, key=lambda r: (size(r), r[0])), tied


def _ci(values):
    v = np.asarray(values, dtype=float)
    from scipy import stats

    half = stats.t.ppf(0.975, len(v) - 1) * v.std(ddof=1) / math.sqrt(len(v)) if len(v) > 1 else math.nan
    return v.mean(), v.std(ddof=1), v.mean() - half, v.mean() + half


def inner_choice(workdir: Path, pairs) -> dict:
    import pandas as pd

    from svmfs.config import job_campaign_config, job_method_config, method_settings
    from svmfs.data.canonical import load_dataset
    from svmfs.protocol.classifiers import final_grid, fit_predict
    from svmfs.protocol.method_plan import selector_factory
    from svmfs.protocol.normalize import normalize_fold
    from svmfs.protocol.seeds import job_seed
    from svmfs.protocol.select_job import _job_plan, run_inner_folds
    from svmfs.protocol.tuning import candidates, choose_candidate, inner_cv, tune_final
    from svmfs.reproduce.check import prepare_job_data
    from svmfs.reproduce.jobs import validated
    from svmfs.yamlio import load_yaml_file

    records = pd.read_parquet(FOLDER / "records.parquet")
    want = [tuple(p.split(":")) for p in pairs]
    jobs = records[[(g, m) in want for g, m in zip(records["dataset_group"], records["method"])]].sort_values(["dataset_group", "method", "dataset"])
    cfg, res = prepare_job_data(dict(load_yaml_file(FOLDER / "config.yaml")), jobs["dataset"], workdir)
    config = validated(cfg)
    out: dict[tuple, dict[str, list]] = {}
    reproduced = 0
    for _, job in jobs.iterrows():
        d, m, s, f = str(job["dataset"]), str(job["method"]), str(job["setting"]), int(job["fold"])
        ds = load_dataset(res / "datasets" / f"{d}.npz", res / "datasets" / f"{d}.json")
        fold = json.loads((res / "splits" / f"{d}.json").read_text())["folds"][f]
        mcfg, camp = job_method_config(config, d, m), job_campaign_config(config, d, m)
        seed = job_seed(config["seed"], d, f, m, s)
        setting = method_settings(mcfg)[s]
        cache = workdir / "scores" / f"{d}_{m}_{s}_{f}.json"
        if cache.exists():
            scores = json.loads(cache.read_text())
        else:
            scores = run_inner_folds(ds.X, ds.y, fold, m, mcfg, camp, seed, range(int(camp["inner_cv"]["n_splits"])), setting)
            cache.parent.mkdir(parents=True, exist_ok=True)
            cache.write_text(json.dumps(scores))
        spec, cls, grid, fixed, final_kind, final_cfg = _job_plan(m, mcfg, setting, None, camp)
        norm = camp["normalization"]
        train, test = np.asarray(fold["train"]), np.asarray(fold["test"])
        Xtr, Xte, _ = normalize_fold(ds.X, train, test, norm["method"], norm.get("scope", "fold"))
        ytr, yte = ds.y[train], ds.y[test]
        make = selector_factory(cls, fixed, seed)
        sel_points, sizes = candidates(make, grid, spec.truncation, Xtr)
        fin_points = final_grid(final_kind, final_cfg)
        check = choose_candidate(make, grid, spec.truncation, final_kind, final_cfg, Xtr, scores)
        recorded = json.loads(job["selector_params"]), json.loads(job["final_params"])
        reproduced += all(recorded[0].get(k) == v for k, v in check.selector_params.items())
        cv = inner_cv(ytr, int(camp["inner_cv"]["n_splits"]), seed)
        fitted: dict[int, object] = {}

        def selector(si):
            if si not in fitted:
                fitted[si] = make(**sel_points[si], **{spec.truncation: None}).fit(Xtr, ytr)
            return fitted[si]

        def refit_size(si, k):
            if cls.__name__ == "SVMRFE":  # a fixed-size elimination keeps k features (k <= p)
                return min(int(k), Xtr.shape[1])
            return int(selector(si).support_for_size(k).sum())

        own = lambda si, fi: fin_points[fi]["C"] == sel_points[si]["C"]  # noqa: E731
        tables = {"campaign": _table(scores), "M18": _table(scores, own)}
        for rule in RULES:
            table = tables["M18" if rule.startswith("M18") else "campaign"]
            row, tied = _choose(table, refit_size if rule.endswith("M11") else None)
            _, si, k, fi, acc, _ = row
            sup = selector(si).support_for_size(k)
            # the job's step 5 re-tunes the final C on the features kept; M18 scores the RFE's last SVM (its C)
            fp = fin_points[fi] if rule.startswith("M18") else tune_final(final_kind, final_cfg, Xtr, ytr, sup, cv, selector(si))["params"]
            pred, _ = fit_predict(final_kind, fp, final_cfg, Xtr, ytr, Xte, sup, selector(si))
            err = 100.0 * float(np.mean(pred != yte))
            slot = out.setdefault((str(job["dataset_group"]), m), {})
            slot.setdefault(rule, []).append((int(sup.sum()), err))
    return {"rows": _rows(out), "notes": {"the campaign's rule gives the committed selector_params": f"{reproduced} of {len(jobs)} jobs"}}


def _rows(out: dict) -> list[dict]:
    """Per (setting, method) and rule: features and test error, mean, sd and 95 % t interval over the draws."""
    rows = []
    for (g, m), by_rule in out.items():
        for rule in RULES:
            n = _ci([v[0] for v in by_rule[rule]])
            e = _ci([v[1] for v in by_rule[rule]])
            rows.append({"setting": g, "method": m, "rule": rule, "draws": len(by_rule[rule]),
                         "features": round(n[0], 2), "features_sd": round(n[1], 2), "features_lo": round(n[2], 2), "features_hi": round(n[3], 2),
                         "test_error": round(e[0], 2), "test_error_sd": round(e[1], 2), "test_error_lo": round(e[2], 2),
                         "test_error_hi": round(e[3], 2)})  # fmt: skip
    return rows


def run(case: str = "inner_choice", quick: bool = False) -> dict:
    from benchmarks.common import blas_threads

    with blas_threads(1):
        return inner_choice(WORK / "mit9520_paper", PAIRS[1:2] if quick else PAIRS)


def table(case: str, rows: list[dict]) -> list[dict]:
    """RESULTS.md: mean [95 % interval] per cell, the sd left in the CSV."""
    from benchmarks.common import with_intervals

    return with_intervals([{k: v for k, v in r.items() if not k.endswith("_sd")} for r in rows])
