"""Selection-bias audits: the accuracy the papers' kinds of protocol would report, next to the nested CV's,
on the same outer splits (campaign key ``audits``; docs/audits.md).

* ``test_tuned`` (:func:`tune_on_test_side`, inside the select job): every hyper-parameter, the selector's
  grid and the final classifier's, picked by the best accuracy on the outer fold's test side, as a paper
  that tunes on its test set would. The candidates are the grid the inner CV sees: one selector fit on the
  whole training side per point of the grid without its ``truncation`` sizes (each size read off that one
  ranking, as :func:`~svmfs.protocol.tuning.tune_selector` does), times the final classifier's grid. Ties
  go as in the inner CV: the smaller selection, then the earlier grid point. The nested choice is one of
  the candidates and keeps its own test accuracy (the refitted selector of step 4), so the audited
  accuracy is never below the nested one.
* ``global_scaling`` (inside the select job): the nested choice (selector and final parameters) refitted
  on the training side scaled with a scaler fitted on all rows, scored on the test side scaled the same
  way; the tuning is not redone under the global scaler (a full rerun is the campaign overlay
  ``normalization: {scope: global}``).
* ``global_selection`` (:func:`run_global_selection`, the ``audit_global`` job): features selected once
  on all samples (scaled on all rows; the selector tuned by inner CV there), then only the final
  classifier cross-validated on the outer folds: scaled per fold as the campaign says, tuned by inner CV
  on each training side, scored on the test side (Ambroise & McLachlan 2002).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from .classifiers import final_grid, fit_predict
from .method_plan import method_plan, selector_factory  # the select job's own (random_state = the job's seed)
from .prefilter import apply_prefilter
from .normalize import fit_transform_rows, make_normalizer, normalize_fold
from .tuning import candidates, inner_cv, inner_cv_rule, size_candidates, tune_final, tune_selector


def tune_on_test_side(
    make_selector: Callable[..., Any],
    grid: dict[str, list],
    truncation: str | None,
    final_kind: str,
    final_cfg: dict,
    Xtr: np.ndarray,
    ytr: np.ndarray,
    score: Callable[[dict, np.ndarray, Any], float],
    nested: dict,
    refit_selector=None,
) -> dict[str, Any]:
    """The best candidate by test-side accuracy ``score(final_params, support, selector)``.

    ``nested``: the nested choice, ``{"selector_params", "final_params", "accuracy", "n_selected"}``; the
    candidate with those parameters takes its accuracy and size (the model step 4-5 fitted and scored).
    ``refit_selector``: the selector the select job fitted on the training side with the nested choice;
    with nothing to choose for the selector (empty grid) it is the only selector candidate.
    Returns accuracy, selector and final parameters, number of selected features and of candidates.
    """
    rows = test_side_scores(make_selector, grid, truncation, final_kind, final_cfg, Xtr, ytr, score, nested, refit_selector)
    return best_on_test_side(rows, nested, final_grid(final_kind, final_cfg), len(rows))


def n_test_side_candidates(make_selector, grid: dict[str, list], truncation: str | None, final_kind: str, final_cfg: dict,
                           Xtr: np.ndarray) -> int:  # fmt: skip
    """The number of the ``test_tuned`` audit's candidates (:func:`test_side_scores` over the whole grid)."""
    sel_points, sizes = candidates(make_selector, grid, truncation, Xtr)
    return len(sel_points) * len(sizes or [None]) * len(final_grid(final_kind, final_cfg))


def test_side_scores(
    make_selector: Callable[..., Any],
    grid: dict[str, list],
    truncation: str | None,
    final_kind: str,
    final_cfg: dict,
    Xtr: np.ndarray,
    ytr: np.ndarray,
    score: Callable[[dict, np.ndarray, Any], float],
    nested: dict | None = None,
    refit_selector=None,
    points=None,
) -> list[list]:
    """The ``test_tuned`` audit's candidates, scored: ``[[order, accuracy, n_selected, selector params, final
    params], ...]``, ``order`` the candidate's place in :func:`tune_on_test_side`'s enumeration (selector point,
    size, final point). ``points``: only the selector points of those indices (a block of the grid run as a part
    of its own, ``split_audit``); None: all. ``nested`` None (a part, run before the nested
    choice is known): every candidate is fitted and scored, the nested one too; :func:`best_on_test_side` then
    gives it the select job's own accuracy and size. JSON-serializable."""
    sel_points, sizes = candidates(make_selector, grid, truncation, Xtr)
    fin_points = final_grid(final_kind, final_cfg)
    per_point = len(sizes or [None]) * len(fin_points)
    nested_sel = dict(nested["selector_params"]) if nested is not None else None
    rows = []
    for si, sp in enumerate(sel_points):
        if points is not None and si not in points:
            continue
        if sizes is None and refit_selector is not None and nested is not None and all(nested_sel.get(k) == v for k, v in sp.items()):
            sel = refit_selector  # the nested choice's point: the select job's own refit (no second fit)
        else:
            extra = {truncation: None} if sizes is not None else {}
            sel = make_selector(**sp, **extra).fit(Xtr, ytr)
        for ki, (k, sup, scorer) in enumerate(size_candidates(sel, sizes, final_kind, Xtr, ytr)):
            params = dict(sp) if sizes is None else {**sp, truncation: k}
            is_nested_sel = nested is not None and all(nested_sel.get(key) == v for key, v in params.items())
            for fi, fp in enumerate(fin_points):
                if is_nested_sel and _same_final(fp, nested["final_params"], fin_points):
                    acc, nf = float(nested["accuracy"]), int(nested["n_selected"])
                else:
                    acc, nf = float(score(fp, sup, scorer)), int(np.sum(sup))
                rows.append([si * per_point + ki * len(fin_points) + fi, acc, nf, params, fp])
    return rows


def best_on_test_side(rows: list[list], nested: dict, fin_points: list[dict], n_candidates: int) -> dict[str, Any]:
    """:func:`tune_on_test_side`'s choice from the rows of :func:`test_side_scores` (one call's, or every part's
    of a job run apart, in any order): the nested candidate takes the select job's own accuracy and size, then
    the best accuracy, the smaller selection, the earlier candidate. Raises unless the rows are the
    ``n_candidates`` candidates once each (a part missing or twice)."""
    orders = sorted(int(r[0]) for r in rows)
    if orders != list(range(n_candidates)):
        raise ValueError(f"test_tuned audit: the parts' {len(rows)} candidates are not 0..{n_candidates - 1} once each (a part missing or twice)")
    nested_sel = dict(nested["selector_params"])
    best_key, best = None, None
    for order, acc, nf, params, fp in rows:
        if all(nested_sel.get(k) == v for k, v in params.items()) and _same_final(fp, nested["final_params"], fin_points):
            acc, nf = float(nested["accuracy"]), int(nested["n_selected"])
        key = (round(float(acc), 12), -int(nf), -int(order))
        if best_key is None or key > best_key:
            best_key = key
            best = {"accuracy": float(acc), "selector_params": params, "final_params": fp, "n_selected": int(nf)}
    best["n_candidates"] = len(rows)
    return best


def _same_final(point: dict, chosen: dict, points: list[dict]) -> bool:
    """Whether ``point`` of the final grid is the nested choice (a grid of one point, e.g. ``own`` or the
    anisotropic C taken from the selector, is always its choice)."""
    return len(points) == 1 or all(chosen.get(k) == v for k, v in point.items())


def run_global_selection(
    X: np.ndarray,
    y: np.ndarray,
    folds: list[dict],
    method_name: str,
    method_cfg: dict,
    campaign: dict,
    seed: int,
    fold_seeds: list[int],
    setting: dict | None = None,
) -> dict[str, Any]:
    """The ``global_selection`` audit of one (dataset, method, setting): the record body.

    Selection on all samples: scaler fitted on all rows, the selector's grid (jointly with the final
    classifier's, as in the select job) tuned by inner CV on all samples with ``seed``, the selector refitted
    on all samples. Then per outer fold: the campaign's normalization on the fold, the final classifier
    tuned by inner CV on the training side (seeded ``fold_seeds[i]``, the fold's select-job seed, so its
    inner folds are the nested job's) on the global selection and scored on the test side (for the kp_svm
    protocol the mean over the test side's resamples, each kept in ``accuracy_resamples``, the units the
    optimism table pairs with the nested job's).
    """
    if method_cfg.get("match_size_of"):
        raise ValueError(f"method {method_name!r}: global_selection does not apply to match_size_of methods")
    spec, grid, fixed, final_kind = method_plan(method_name, method_cfg, setting)
    final_cfg = campaign["final_classifier"]
    if final_kind == "own":
        raise ValueError(f"method {method_name!r}: final 'own' refits nothing on a fold; global_selection does not apply")
    norm = campaign["normalization"]
    n_inner = int(campaign["inner_cv"]["n_splits"])

    Xall = make_normalizer(norm["method"]).fit_transform(X)
    make = selector_factory(apply_prefilter(spec.load(), campaign), fixed, seed, y=y)
    tuned = tune_selector(make, grid, spec.truncation, final_kind, final_cfg, Xall, y, inner_cv(y, n_inner, seed), rule=inner_cv_rule(campaign))
    selector = make(**tuned.selector_params).fit(Xall, y)
    support = selector.get_support()

    per_fold = []
    for fold, fseed in zip(folds, fold_seeds):
        train, test = np.asarray(fold["train"]), np.asarray(fold["test"])
        Xtr, Xte, _ = normalize_fold(X, train, test, norm["method"], norm.get("scope", "fold"))
        ytr = y[train]
        final = tune_final(final_kind, final_cfg, Xtr, ytr, support, inner_cv(ytr, n_inner, fseed), selector)
        if "evaluation" in fold:
            accs = []
            for res in fold["evaluation"]:
                fit_rows, ev_rows = np.asarray(res["fit"]), np.asarray(res["test"])
                Xf = fit_transform_rows(X, fit_rows, fit_rows, norm["method"])
                Xe = fit_transform_rows(X, fit_rows, ev_rows, norm["method"])
                pred, _ = fit_predict(final_kind, final["params"], final_cfg, Xf, y[fit_rows], Xe, support, selector)
                accs.append(float(np.mean(pred == y[ev_rows])))
            acc = float(np.mean(accs))
        else:
            pred, _ = fit_predict(final_kind, final["params"], final_cfg, Xtr, ytr, Xte, support, selector)
            acc = float(np.mean(pred == y[test]))
        per_fold.append({"fold": int(fold["fold"]), "accuracy": acc, "final_params": final["params"]}
                        | ({"accuracy_resamples": accs} if "evaluation" in fold else {}))

    selected = np.flatnonzero(support)
    return {
        "protocol": "global_selection",
        "method": method_name,
        "registry_method": method_cfg.get("method", method_name),
        "final_classifier": final_kind,
        "n_samples": int(X.shape[0]),
        "n_features_total": int(X.shape[1]),
        "n_selected": int(selected.size),
        "selected": selected.tolist(),
        "selector_params": {**fixed, **tuned.selector_params},
        "inner_accuracy": tuned.inner_accuracy,
        "status": selector.diagnostics_["status"],
        "folds": per_fold,
        "seed": int(seed),
    }
