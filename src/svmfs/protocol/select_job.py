"""One select job: (dataset, method, setting, outer fold) -> a result record. Steps (design.md):

1. take the fold's indices; 2. fit the normalizer on the training side, apply to both sides;
3. tune the method's grid by inner CV on the training side only; 4. fit the method on the whole
training side; 5. tune the final classifier on the selected features by inner CV, refit it on the
training side and score the test side once (or, for the kp_svm protocol, the mean over the test
side's fit/test resamples; the anisotropic final classifier keeps the training-side selector's widths
there, as it keeps its support); the final classifier ``own`` (a campaign's ``methods.<name>.final``)
refits nothing and scores the selector's own hyperplane; 6. return the record (selection, ranking,
weights and intercept, chosen parameters, metrics, recall of the true relevant features, times,
solver diagnostics). With the campaign's ``audits`` ``test_tuned`` / ``global_scaling`` on, the record also
holds the accuracy those optimistic protocols would report on this fold (:mod:`.audits`).
"""

from __future__ import annotations

import inspect
import json
import logging
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
from sklearn.metrics import accuracy_score, balanced_accuracy_score, roc_auc_score

from ..methods.external import record_fields
from .audits import best_on_test_side, n_test_side_candidates, test_side_scores, tune_on_test_side
from .classifiers import final_grid, fit_predict
from .fit_memo import FitMemo
from .job_budget import JobClock, budget_time_limit
from .initial_solution import apply_initial_solution, read_initial_solution
from . import multiclass
from .method_plan import method_plan, selector_factory
from .normalize import fit_transform_rows, make_normalizer, normalize_fold
from .job_record import _record_body, _relevance
from .parts import GLOBAL_SCALING_PART, grid_block
from .prefilter import apply_prefilter
from .tuning import candidates, choose_candidate, inner_cv, inner_cv_rule, inner_fold_scores, tune_final, tune_selector


def _metrics(y_true, pred, score) -> dict[str, float]:
    if multiclass.is_multiclass_score(y_true, score):  # three or more classes (docs/multiclass.md)
        return multiclass.multiclass_metrics(y_true, pred, score)
    auc = float(roc_auc_score(y_true, score)) if len(np.unique(y_true)) == 2 else float("nan")
    return {
        "accuracy": float(accuracy_score(y_true, pred)),
        "balanced_accuracy": float(balanced_accuracy_score(y_true, pred)),
        "auc": auc,
    }


def _accuracy_only(y_true, pred, score=None) -> dict[str, float]:
    """The "accuracy" of :func:`_metrics` without scikit-learn's per-call validation: the share of equal
    labels (a count over n, the same float as ``accuracy_score``)."""
    return {"accuracy": float(np.mean(np.asarray(y_true) == np.asarray(pred)))}


def _job_plan(method_name: str, method_cfg: dict, setting: dict | None, fixed_size: int | None, campaign: dict,
              initial: dict | None = None):  # fmt: skip
    """:func:`method_plan` with the selector's class loaded, a ``match_size_of`` size fixed and the fold's
    shared initial solution applied (``initial``, else the file ``campaign["initial_solution"]`` names, if
    any): (spec, class, grid, fixed parameters, final kind, final classifier config)."""
    spec, grid, fixed, final_kind = method_plan(method_name, method_cfg, setting)
    cls = apply_prefilter(spec.load(), campaign)  # a fold-local prefilter, if any (.prefilter)
    if fixed_size is not None:  # r = number chosen by another method on the same fold
        if not spec.truncation or not cls.truncation_is_size:
            raise ValueError(f"method {method_name!r}: match_size_of needs a ranking method")
        grid.pop(spec.truncation, None)
        fixed[spec.truncation] = int(fixed_size)
    fixed = budget_time_limit(cls, fixed, grid, spec.truncation, campaign)  # limits.job_budget_s, if any
    final_cfg = campaign["final_classifier"]
    if initial is None:
        initial = read_initial_solution(campaign)
    if initial is not None:  # Algorithm 1's (C*, gamma_ini), tuned once for the fold
        extra, final_cfg = apply_initial_solution(cls, final_kind, final_cfg, initial)
        grid = {k: v for k, v in grid.items() if k not in extra}
        fixed.update(extra)
    return spec, cls, grid, fixed, final_kind, final_cfg


def _block_points(make, grid: dict, truncation: str | None, Xtr: np.ndarray, grid_block: dict | None) -> set[int] | None:
    """The indices of the selector points (:func:`~svmfs.protocol.tuning.candidates`) in ``grid_block``, one of
    ``split_grid``; None (every point) without a block."""
    if grid_block is None:
        return None
    sel_points = candidates(make, grid, truncation, Xtr)[0]
    block = candidates(make, grid_block, None, Xtr)[0]
    return {si for si, sp in enumerate(sel_points) if {k: v for k, v in sp.items() if k in grid_block} in block}


def _part_inputs(X, y, fold, method_name, method_cfg, campaign, seed, setting, fixed_size, grid_block) -> SimpleNamespace:
    """What a part of a select job starts from (rule select_part): the job's plan, steps 1-2 as
    :func:`run_select_job` does them (the fold's sides, the normalizer fitted on the training side), the seeded
    selector factory, the job's test-side scorer (:func:`_test_side_scorer`) and the selector points of
    ``grid_block`` (None: all)."""
    spec, cls, grid, fixed, final_kind, final_cfg = _job_plan(method_name, method_cfg, setting, fixed_size, campaign)
    norm = campaign["normalization"]
    train, test = np.asarray(fold["train"]), np.asarray(fold["test"])
    Xtr, Xte, leaky = normalize_fold(X, train, test, norm["method"], norm.get("scope", "fold"))
    make = selector_factory(cls, fixed, seed, y=y)
    evaluate = _test_side_scorer(X, y, fold, norm, Xtr, Xte, y[train], y[test], leaky, final_kind, final_cfg, FitMemo(fit_predict))
    return SimpleNamespace(grid=grid, truncation=spec.truncation, final_kind=final_kind, final_cfg=final_cfg, make=make,
                           Xtr=Xtr, Xte=Xte, ytr=y[train], yte=y[test], leaky=leaky, evaluate=evaluate,
                           points=_block_points(make, grid, spec.truncation, Xtr, grid_block))  # fmt: skip


def run_inner_folds(
    X: np.ndarray,
    y: np.ndarray,
    fold: dict,
    method_name: str,
    method_cfg: dict,
    campaign: dict,
    seed: int,
    inner_folds,
    setting: dict | None = None,
    fixed_size: int | None = None,
    grid_block: dict | None = None,
) -> dict[int, list[list]]:
    """Step 3 of a select job on the given inner folds only (a part of the job): steps 1-2
    as :func:`run_select_job` does them, then :func:`~svmfs.protocol.tuning.inner_fold_scores` with the job's
    inner folds (its seed); ``grid_block``: only the selector points of this block of the grid (one of
    ``split_grid``; None: the whole grid). Every part merged (:func:`scores_from_parts`) is the
    ``inner_scores`` of :func:`run_select_job`."""
    p = _part_inputs(X, y, fold, method_name, method_cfg, campaign, seed, setting, fixed_size, grid_block)
    cv = inner_cv(p.ytr, int(campaign["inner_cv"]["n_splits"]), seed)
    return inner_fold_scores(p.make, p.grid, p.truncation, p.final_kind, p.final_cfg, p.Xtr, p.ytr, cv, set(inner_folds),
                             fit_predict, p.points)  # fmt: skip


def run_part(X, y, fold, method_name, method_cfg, campaign, seed, part: str, setting=None, fixed_size=None) -> tuple[dict, int]:
    """One part of a select job by its name (rule select_part, :func:`~svmfs.config.part_names`): an inner fold's
    scores (``inner-<k>``, ``inner-<k>-grid-<b>``: :func:`run_inner_folds`), the ``test_tuned`` audit's candidates
    (``audit``, ``audit-grid-<b>``: :func:`run_audit_part`) or the ``global_scaling`` audit's refit
    (``global-scaling``: :func:`run_global_scaling_part`). Returns the part's file body (without its time and
    provenance) and the number of candidates it scored."""
    common = dict(setting=setting, fixed_size=fixed_size)
    if part == GLOBAL_SCALING_PART:
        out = run_global_scaling_part(X, y, fold, method_name, method_cfg, campaign, seed, **common)
        return out, 1
    inner, block = grid_block(method_cfg, part)
    if inner is None:
        rows = run_audit_part(X, y, fold, method_name, method_cfg, campaign, seed, grid_block=block, **common)
        out = {"audit_candidates": rows}
    else:
        scores = run_inner_folds(X, y, fold, method_name, method_cfg, campaign, seed, [inner], grid_block=block, **common)
        out, rows = {"inner_fold": inner, "scores": scores}, scores[inner]
    if block is not None:
        out["grid_block"] = block
    return out, len(rows)


def scores_from_parts(paths) -> tuple[dict, float]:
    """The inner folds' scores merged from the parts' files (scripts/select_part.py), and their seconds: a
    fold's rows from its blocks of the grid (``split_grid``) in the order of the selector points, as one
    part over the whole grid gives them."""
    scores, seconds = {}, 0.0
    for path in paths:
        part = json.loads(Path(path).read_text())
        for k_fold, rows in part["scores"].items():
            scores.setdefault(k_fold, []).extend(rows)
        seconds += float(part["time_s"])
    return {k: sorted(rows, key=lambda row: row[0]) for k, rows in scores.items()}, seconds


def run_audit_part(
    X: np.ndarray,
    y: np.ndarray,
    fold: dict,
    method_name: str,
    method_cfg: dict,
    campaign: dict,
    seed: int,
    setting: dict | None = None,
    fixed_size: int | None = None,
    grid_block: dict | None = None,
) -> list[list]:
    """The ``test_tuned`` audit of a select job, or of one block of its grid, run as a part of its own
    (``split_audit``): steps 1-2 as :func:`run_select_job` does them, then every candidate of
    the block fitted on the whole training side and scored on the test side by the select job's own scorer
    (:func:`~svmfs.protocol.audits.test_side_scores`). The select job merges every part's rows with its nested
    choice (:func:`~svmfs.protocol.audits.best_on_test_side`) and records what it would have alone."""
    p = _part_inputs(X, y, fold, method_name, method_cfg, campaign, seed, setting, fixed_size, grid_block)
    return test_side_scores(
        p.make, p.grid, p.truncation, p.final_kind, p.final_cfg, p.Xtr, p.ytr,
        lambda fp, sup, sel: p.evaluate(fp, sup, sel, accuracy_only=True)["accuracy"], points=p.points,
    )  # fmt: skip


def audit_rows_from_parts(paths) -> tuple[list[list], float]:
    """The ``test_tuned`` audit parts' rows (scripts/select_part.py), all of them, and their seconds."""
    rows, seconds = [], 0.0
    for path in paths:
        part = json.loads(Path(path).read_text())
        rows.extend(part["audit_candidates"])
        seconds += float(part["time_s"])
    return rows, seconds


def same_inputs(a: list[np.ndarray], b: list[np.ndarray]) -> bool:
    """Whether two fits' input matrices are the same bit for bit (the global_scaling audit's refit against
    step 4's fit: a selector is a deterministic function of its inputs and seed, so the refit would repeat
    the fit). Unlike :class:`~.fit_memo.FitMemo`, taking the fit does not replay the draws of
    libsvm's seed from NumPy's global generator that the skipped refit's SVMs would make, so the generator ends
    the job in another state; no result depends on it (libsvm's seed drives only probability estimates, off here,
    and the LinearSVCs are seeded), and the rerun job's record was identical to the committed one."""
    return len(a) == len(b) and all(x.shape == z.shape and np.array_equal(x, z) for x, z in zip(a, b))


def _test_side_scorer(X, y, fold, norm, Xtr, Xte, ytr, yte, leaky, final_kind, final_cfg, memo):
    """Step 5's test-side scoring, ``evaluate(final params, support, selector, ...) -> metrics``: the select job's,
    and a ``test_tuned`` audit part's (:func:`run_audit_part`), the same function."""
    # normalization.scope global (the data scaled once, "as a preprocessing step"): the test side's
    # resamples keep that one scaling instead of a scaler fitted on each resample's fit part
    X_scaled_once = make_normalizer(norm["method"]).fit_transform(X) if leaky and "evaluation" in fold else None

    def evaluate(params, sup, sel, Xtr_=Xtr, Xte_=Xte, Xall=X_scaled_once, accuracy_only=False) -> dict[str, float]:
        """Test-side metrics of the final classifier ``params`` on ``sup``; ``Xall``: every row scaled
        by one scaler (global_scaling audit, or the campaign's global normalization) instead of a scaler
        per fit; ``accuracy_only``: the accuracy alone (the test_tuned audit scores thousands of candidates
        by it), the same number as in the full metrics. A fit on the whole training side that repeats one
        done before in this job (the test_tuned audit's candidates often select the same columns) comes
        from ``memo``."""
        metrics = _accuracy_only if accuracy_only else _metrics
        if "evaluation" in fold:  # Maldonado et al. protocol: mean over the test side's resamples
            per = []
            for res in fold["evaluation"]:
                fit_rows, ev_rows = np.asarray(res["fit"]), np.asarray(res["test"])
                if Xall is None:
                    Xf = fit_transform_rows(X, fit_rows, fit_rows, norm["method"])
                    Xe = fit_transform_rows(X, fit_rows, ev_rows, norm["method"])
                else:
                    Xf, Xe = Xall[fit_rows], Xall[ev_rows]
                pred, score = fit_predict(final_kind, params, final_cfg, Xf, y[fit_rows], Xe, sup, sel)
                per.append(metrics(y[ev_rows], pred, score))
            out = {k: float(np.mean([m[k] for m in per])) for k in per[0]}
            out["accuracy_resamples"] = [m["accuracy"] for m in per]  # the paper's mean (sd) is over these
            return out
        pred, score = memo.fit_predict(final_kind, params, final_cfg, Xtr_, ytr, Xte_, sup, sel)
        return metrics(yte, pred, score)

    return evaluate


def _global_scaling(X, y, fold, norm, make, selector_params, final_params, evaluate, step4=None) -> dict | None:
    """The ``global_scaling`` audit: the nested choice (``selector_params``, ``final_params``) refitted on the
    fold's training side scaled by one scaler fitted on every row, scored on the test side as scaled by it; the
    record's ``audit_global_scaling_*`` fields. ``step4``: the job's own fit (selector, scaled training side,
    its validation points), taken when the scaled inputs are the same bit for bit (:func:`same_inputs`); a
    part has none, and returns None there (the select job then takes its own fit)."""
    train, test = np.asarray(fold["train"]), np.asarray(fold["test"])
    Xall = make_normalizer(norm["method"]).fit_transform(X)
    gkw = {}
    if "validation" in fold:  # the validation points scaled as the training side, as in step 4
        val = np.asarray(fold["validation"])
        gkw["validation"] = (Xall[val], y[val])
    if step4 is not None:
        fitted, Xtr, fit_kw = step4
    else:  # a part: step 4's inputs as the job scales them (steps 1-2)
        fitted, Xtr, fit_kw = None, normalize_fold(X, train, test, norm["method"], norm.get("scope", "fold"))[0], {}
        if "validation" in fold:
            fit_kw["validation"] = (normalize_fold(X, train, val, norm["method"], norm.get("scope", "fold"))[1], None)
    if same_inputs([Xall[train], *(v[0] for v in gkw.values())], [Xtr, *(v[0] for v in fit_kw.values())]):
        if fitted is None:
            return None
        gsel = fitted  # e.g. min-max scaling whose whole-data extremes lie on the training side: step 4's fit
    else:
        gsel = make(**selector_params).fit(Xall[train], y[train], **gkw)
    gsup = gsel.get_support()
    gs = evaluate(final_params, gsup, gsel, Xall[train], Xall[test], Xall)
    out = {"audit_global_scaling_accuracy": gs["accuracy"]}
    if "accuracy_resamples" in gs:  # kp_svm protocol: paired with test_accuracy_resamples
        out["audit_global_scaling_accuracy_resamples"] = gs["accuracy_resamples"]
    out["audit_global_scaling_n_selected"] = int(gsup.sum())
    return out


def run_global_scaling_part(
    X: np.ndarray,
    y: np.ndarray,
    fold: dict,
    method_name: str,
    method_cfg: dict,
    campaign: dict,
    seed: int,
    setting: dict | None = None,
    fixed_size: int | None = None,
) -> dict:
    """The ``global_scaling`` audit of a select job run as a part of its own (``split_global_scaling``):
    the selector refitted on the globally scaled training side and scored by the select job's own test-side
    scorer, beside the job rather than after it. The nested choice it refits must be known before the job: the
    selector's grid and the final classifier's have one point each (the config check,
    ``config._check_split_global_scaling``; raised here too). Returns ``{"selector_params", "final_params",
    "audit": the record's fields, or None where the scaled inputs are step 4's (the job takes its own fit)}``."""
    p = _part_inputs(X, y, fold, method_name, method_cfg, campaign, seed, setting, fixed_size, None)
    sel_points, sizes = candidates(p.make, p.grid, p.truncation, p.Xtr)
    fin_points = final_grid(p.final_kind, p.final_cfg)
    if len(sel_points) != 1 or (sizes is not None and len(sizes) != 1) or len(fin_points) != 1:
        raise ValueError(f"method {method_name!r}: split_global_scaling needs a selector grid and a final classifier "
                         f"grid of one point each (the nested choice the audit refits)")  # fmt: skip
    selector_params = {**sel_points[0], **({p.truncation: sizes[0]} if sizes is not None else {})}
    audit = _global_scaling(X, y, fold, campaign["normalization"], p.make, selector_params, fin_points[0], p.evaluate)
    return {"selector_params": selector_params, "final_params": fin_points[0], "audit": audit}


def _plain(params: dict) -> dict:
    """``params`` as JSON gives it back (NumPy scalars as Python numbers): a part's file against the job's choice."""
    return json.loads(json.dumps(params, default=lambda o: o.item()))


def global_scaling_from_part(path, selector_params: dict) -> dict | None:
    """The ``global_scaling`` audit's fields from its part's file (:func:`run_global_scaling_part`), after checking
    that the part refitted the job's own nested choice; None without a part, or where the part left the refit to
    the job (its inputs were step 4's)."""
    if not path:
        return None
    part = json.loads(Path(path).read_text())
    if _plain(part["selector_params"]) != _plain(selector_params):
        raise ValueError(f"{path}: the part refitted {part['selector_params']}, the job chose {selector_params}")
    return part["audit"]


def _inner_cv_or_none(ytr, n_splits: int, seed: int, grid: dict, final_kind: str, final_cfg: dict):
    """The job's inner CV (:func:`~svmfs.protocol.tuning.inner_cv`), or None where its folds cannot be drawn (a
    class with fewer training points than folds: an unstratified random draw of 25 points can hold 2 of one class,
    Catala & Martin's Table 5) and there is nothing to choose (no selector grid, one final classifier point):
    the inner CV would only estimate the final classifier's accuracy, recorded as NaN then. Else the error."""
    try:
        return inner_cv(ytr, n_splits, seed)
    except ValueError as err:
        if grid or len(final_grid(final_kind, final_cfg)) > 1:
            raise
        logging.getLogger("svmfs.select").warning("%s: nothing to tune, so no inner CV (inner_final_accuracy NaN)", err)
        return None


def run_select_job(
    X: np.ndarray,
    y: np.ndarray,
    fold: dict,
    method_name: str,
    method_cfg: dict,
    campaign: dict,
    seed: int,
    setting: dict | None = None,
    relevant: list[int] | None = None,
    fixed_size: int | None = None,
    initial: dict | None = None,
    inner_scores: dict | None = None,
) -> dict[str, Any]:
    """Run steps 1-6 for one fold and return the record body (provenance is added by the caller).

    ``initial``: the fold's shared initial solution (:mod:`.initial_solution`), for a method configured
    with ``initial_solution: shared``; by default read from the file ``campaign["initial_solution"]`` names.
    ``inner_scores``: step 3's fold-by-fold scores computed beforehand, e.g. by parts of the job run apart
    (:func:`~svmfs.protocol.tuning.inner_fold_scores`, one inner fold each); the choice is
    then :func:`~svmfs.protocol.tuning.choose_candidate`'s, the same as the job's own tuning. The workflow
    passes the parts' files instead, as ``method_cfg["inner_scores_from"]`` (rule select_part writes them);
    the record's ``tune_time_s`` then adds the parts' seconds."""
    parts_s, clock = 0.0, JobClock(campaign.get("job_budget_s"))  # the budget every method honours (.job_budget)
    if inner_scores is None and method_cfg.get("inner_scores_from"):
        inner_scores, parts_s = scores_from_parts(method_cfg["inner_scores_from"])
    spec, cls, grid, fixed, final_kind, final_cfg = _job_plan(method_name, method_cfg, setting, fixed_size, campaign, initial)
    norm = campaign["normalization"]
    if final_kind == "own" and "evaluation" in fold:  # the config check refuses this before any job
        raise ValueError(f"method {method_name!r}: final 'own' refits nothing, so the kp_svm resampling protocol does not apply")

    # 1-2. fold indices, normalization fitted on the training side
    train, test = np.asarray(fold["train"]), np.asarray(fold["test"])
    Xtr, Xte, leaky = normalize_fold(X, train, test, norm["method"], norm.get("scope", "fold"))
    ytr, yte = y[train], y[test]
    cv = _inner_cv_or_none(ytr, int(campaign["inner_cv"]["n_splits"]), seed, grid, final_kind, final_cfg)
    make = selector_factory(cls, fixed, seed, y=y)

    # 3. inner-CV tuning of the selector (jointly with the final classifier's grid)
    t0 = time.perf_counter()
    cpu = [time.process_time()]  # CPU seconds at each stage's end, logged, not recorded
    tuned = _tune(make, grid, spec, final_kind, final_cfg, Xtr, ytr, cv, inner_scores, inner_cv_rule(campaign), clock)
    tune_time = time.perf_counter() - t0 + parts_s
    cpu.append(time.process_time())

    # 4. fit on the whole training side (with the fold's validation points, scaled as the training side,
    # for a selector that takes them: dFSA's validation stop, Catala & Martin section 5.2)
    t0 = time.perf_counter()
    fit_kw = _validation_points(X, y, fold, norm, cls, method_name)
    selector = make(**tuned.selector_params).fit(Xtr, ytr, **fit_kw)
    fit_time = time.perf_counter() - t0
    cpu.append(time.process_time())
    support = selector.get_support()

    # 5. final classifier: own inner-CV tuning on the selected features, one look at the test side
    final, train_pred, evaluate, test_metrics = _final_classifier(X, y, fold, norm, Xtr, Xte, ytr, yte, leaky,
                                                                  final_kind, final_cfg, support, cv, selector)  # fmt: skip
    cpu.append(time.process_time())
    n_test = int(np.mean([len(r["test"]) for r in fold["evaluation"]])) if "evaluation" in fold else len(test)

    # 6. the record
    selected = np.flatnonzero(support)
    rec = _record_body(X, fold, method_name, method_cfg, final_kind, train, n_test, selected, fixed, tuned, final,
                       train_pred, ytr, test_metrics, norm, leaky, selector, fit_time, tune_time, seed, initial, clock)  # fmt: skip
    rec.update(record_fields(method_cfg))  # a class by import path: its name and version
    audits = campaign.get("audits") or []
    if "test_tuned" in audits:  # the selector's and the final classifier's grids tuned on the test side
        rec.update(_test_tuned_audit(method_cfg, make, grid, spec, final_kind, final_cfg, Xtr, ytr, tuned, final,
                                     test_metrics, selected, fixed, evaluate, selector))  # fmt: skip
    if "global_scaling" in audits:  # the nested choice refitted with the scaler fitted on all rows
        part = global_scaling_from_part(method_cfg.get("global_scaling_from"), tuned.selector_params)
        if part is None:  # split_global_scaling's part did not refit (step 4's fit), or the job runs it
            part = _global_scaling(X, y, fold, norm, make, tuned.selector_params, final["params"], evaluate, (selector, Xtr, fit_kw))
        rec.update(part)
    cpu.append(time.process_time())
    logging.getLogger("svmfs.select").info("cpu by stage: tune %.3f s, fit %.3f s, final classifier %.3f s, audits %.3f s",
                                           *np.diff(cpu))  # fmt: skip
    if relevant is not None:
        rec.update(_relevance(relevant, selected))
    return rec


def _final_classifier(X, y, fold, norm, Xtr, Xte, ytr, yte, leaky, final_kind, final_cfg, support, cv, selector):
    """Step 5: the final classifier's own inner-CV tuning on the selected features, its training-side
    predictions, the test-side scorer and one look at the test side."""
    t0 = time.perf_counter()
    memo = FitMemo(fit_predict)  # test-side fits the test_tuned audit repeats are done once
    final = tune_final(final_kind, final_cfg, Xtr, ytr, support, cv, selector)
    train_pred, _ = fit_predict(final_kind, final["params"], final_cfg, Xtr, ytr, Xtr, support, selector)
    evaluate = _test_side_scorer(X, y, fold, norm, Xtr, Xte, ytr, yte, leaky, final_kind, final_cfg, memo)
    test_metrics = evaluate(final["params"], support, selector)
    # logged, not recorded (records keep the selector's fit and tuning times): what a job computes beyond them
    logging.getLogger("svmfs.select").info("final classifier: inner-CV tuning, refit and test scoring %.3f s",
                                           time.perf_counter() - t0)  # fmt: skip
    return final, train_pred, evaluate, test_metrics


def _tune(make, grid, spec, final_kind, final_cfg, Xtr, ytr, cv, inner_scores, rule, clock=None):
    """Step 3: the inner-CV choice of the selector's parameters (jointly with the final classifier's grid),
    from fold-by-fold scores computed beforehand when there are some, else by tuning here."""
    if inner_scores is not None and grid:
        return choose_candidate(make, grid, spec.truncation, final_kind, final_cfg, Xtr, inner_scores, cv.get_n_splits(), rule)
    return tune_selector(make, grid, spec.truncation, final_kind, final_cfg, Xtr, ytr, cv, fit_predict, rule, clock)


def _validation_points(X, y, fold: dict, norm: dict, cls, method_name: str) -> dict:
    """Step 4's keyword for a selector that takes the fold's validation points, scaled as the training
    side (dFSA's validation stop, Catala & Martin section 5.2); empty when the fold has none."""
    if "validation" not in fold:
        return {}
    if "validation" not in inspect.signature(cls.fit).parameters:
        raise ValueError(f"method {method_name!r} takes no validation points (splits.validation_size)")
    train, val = np.asarray(fold["train"]), np.asarray(fold["validation"])
    return {"validation": (normalize_fold(X, train, val, norm["method"], norm.get("scope", "fold"))[1], y[val])}


def _test_tuned_audit(method_cfg, make, grid, spec, final_kind, final_cfg, Xtr, ytr, tuned, final, test_metrics,
                      selected, fixed, evaluate, selector) -> dict[str, Any]:
    """The ``test_tuned`` audit: both grids tuned on the test side (read from ``split_audit``'s parts
    when they ran apart), the record's ``audit_test_tuned*`` keys."""
    rec: dict[str, Any] = {}
    t0 = time.perf_counter()
    nested = {"selector_params": tuned.selector_params, "final_params": final["params"],
              "accuracy": test_metrics["accuracy"], "n_selected": int(selected.size)}  # fmt: skip
    audit_s = 0.0
    if method_cfg.get("audit_from"):  # split_audit: the candidates scored by parts of their own
        rows, audit_s = audit_rows_from_parts(method_cfg["audit_from"])
        n_all = n_test_side_candidates(make, grid, spec.truncation, final_kind, final_cfg, Xtr)
        choice = best_on_test_side(rows, nested, final_grid(final_kind, final_cfg), n_all)
    else:
        choice = tune_on_test_side(
            make, grid, spec.truncation, final_kind, final_cfg, Xtr, ytr,
            lambda fp, sup, sel: evaluate(fp, sup, sel, accuracy_only=True)["accuracy"], nested, refit_selector=selector,
        )  # fmt: skip
    rec["audit_test_tuned_accuracy"] = choice.pop("accuracy")
    rec["audit_test_tuned"] = {**choice, "selector_params": {**fixed, **choice["selector_params"]}}
    rec["audit_test_tuned_time_s"] = time.perf_counter() - t0 + audit_s
    return rec
