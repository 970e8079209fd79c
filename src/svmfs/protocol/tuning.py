"""Nested cross-validation: hyper-parameters are chosen by inner CV on the training side only.

:func:`tune_selector` scores every point of the method's grid jointly with the final classifier's
grid (the selected subset is judged by the classifier that will use it). Ranking methods
(``ranks_all_features``) are fitted once per inner fold and grid point of their other parameters;
every size of the ``truncation`` grid is read off the same ranking. Ties in mean inner accuracy go
to the smaller mean number of selected features (MIT 9.520 project: "ties -> smallest support"),
then to the earlier grid point, so the choice is deterministic. That is the default rule, ``best_mean``;
``inner_cv: {rule: one_se}`` takes instead the smallest candidate within one standard error of the best
(:func:`one_se_choice`; Hastie, Tibshirani & Friedman, *The Elements of Statistical Learning*, 2nd ed.,
sec. 7.10). The record's ``inner_cv_rule`` says which rule chose.

A method with nothing to choose (empty grid, no truncation grid: MM-FS, KP-FS, KP-SVM, which pick their
own C and widths inside ``fit``) is not fitted on the inner folds at all: the final classifier is tuned
once, on the training side's selection, by :func:`tune_final`, and the record's ``inner_accuracy`` is
NaN. Fitting it k more times would only estimate the pipeline's accuracy (an MM-FS job on colon took
~100 s instead of ~25 s for that estimate).

The anisotropic final classifier uses the selector's ``kernel_widths_``, the ``own`` one its hyperplane:
in :func:`tune_selector` those of the selector fitted on each inner fold; in :func:`tune_final` the
widths of the selector fitted on the whole training side, in every inner fold, as its ``support``
(see :mod:`.classifiers`).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
from sklearn.model_selection import ParameterGrid, StratifiedKFold

from .classifiers import c_from_selector, final_grid, fit_predict, selector_C
from .fit_memo import FitMemo


#: The inner CV's rules of choice (``inner_cv.rule``); the first is the default, the absent key.
RULES = ("best_mean", "one_se")


@dataclass
class TuningResult:
    selector_params: dict[str, Any]
    final_params: dict[str, Any]
    inner_accuracy: float
    n_candidates: int
    table: list[dict]  # one row per candidate: params, mean accuracy, its standard error, mean features
    rule: str | None = None  # the rule that chose (:data:`RULES`); None with nothing to choose


def inner_cv_rule(campaign: dict) -> str:
    """The campaign's ``inner_cv.rule``; absent, the default ``best_mean`` (no default is written into the
    config, so a campaign that does not set the key keeps its jobs' config hashes)."""
    rule = (campaign.get("inner_cv") or {}).get("rule", RULES[0])
    if rule not in RULES:
        raise ValueError(f"inner_cv.rule = {rule!r}: expected one of {', '.join(RULES)}")
    return rule


def one_se_choice(table: list[dict], best: int) -> int:
    """The one-standard-error rule: the index in ``table`` of the candidate with the smallest mean number of
    features among those whose mean inner accuracy is at least the best mean minus the best candidate's
    standard error (Hastie, Tibshirani & Friedman, *The Elements of Statistical Learning*, 2nd ed., sec. 7.10:
    "we choose the most parsimonious model whose error is no more than one standard error above the error of
    the best model"). ``best``: the index of the best-mean candidate. The standard error is the one ESL
    draws in its Fig. 7.9: over the K inner folds, the sample standard deviation (ddof 1) of the candidate's
    K fold accuracies divided by sqrt(K) (``accuracy_se`` of a row; 0 with one fold). Ties in the number of
    features go to the higher mean accuracy, then to the earlier candidate."""
    bar = round(table[best]["accuracy"] - table[best]["accuracy_se"], 12)
    within = [i for i, row in enumerate(table) if round(row["accuracy"], 12) >= bar]
    return min(within, key=lambda i: (table[i]["n_features"], -round(table[i]["accuracy"], 12), i))


def _standard_error(values: list[float]) -> float:
    """Standard error of a mean over inner folds: sample standard deviation (ddof 1) / sqrt(K); 0 for K = 1."""
    return float(np.std(values, ddof=1) / np.sqrt(len(values))) if len(values) > 1 else 0.0


def inner_cv(y: np.ndarray, n_splits: int, seed: int) -> StratifiedKFold:
    smallest = int(min(np.sum(y == c) for c in np.unique(y)))
    if n_splits > smallest:
        raise ValueError(
            f"inner_cv.n_splits = {n_splits} exceeds the smallest class on the training side "
            f"({smallest} samples)"
        )
    return StratifiedKFold(n_splits=n_splits, shuffle=True, random_state=seed)


def _effective_sizes(sizes, p: int) -> list[int]:
    """Sizes clipped to the number of features, duplicates removed, order kept."""
    out: list[int] = []
    for k in sizes:
        k = int(min(k, p))
        if k not in out:
            out.append(k)
    return out


def truncation_points(make_selector: Callable[..., Any], values, p: int) -> list:
    """The truncation grid a selector is read at: sizes clipped to p (:func:`_effective_sizes`), or, for a
    selector whose truncation is not a size (``truncation_is_size = False``), the values with duplicates
    removed, order kept."""
    if getattr(make_selector(), "truncation_is_size", True):
        return _effective_sizes(values, p)
    return list(dict.fromkeys(values))


def selector_fits(grid: dict[str, list], truncation: str | None, n_splits: int) -> int:
    """Selector fits in one select job, as :func:`tune_selector` and the refit do them: one per inner fold
    and point of the grid without its ``truncation`` sizes, plus the refit; 1 with nothing to choose."""
    if not grid:
        return 1
    return len(ParameterGrid({k: v for k, v in grid.items() if k != truncation})) * n_splits + 1


def classifier_fits(grid: dict[str, list], truncation: str | None, n_splits: int, n_final: int, own: bool = False) -> int:
    """Final-classifier fits one select job asks for: in :func:`tune_selector` one per inner fold, selector point,
    size (at most ``len(grid[truncation])``) and final point; in :func:`tune_final` one per inner fold and
    final point (none for ``own``); then two fits on the training side (training and test predictions). The
    job's :class:`~svmfs.protocol.fit_memo.FitMemo` fits a repeated one once, so it makes at most this many."""
    tuning = 0
    if grid:
        sizes = len(grid[truncation]) if truncation and truncation in grid else 1
        tuning = len(ParameterGrid({k: v for k, v in grid.items() if k != truncation})) * sizes * n_splits * n_final
    return tuning + (0 if own else n_splits * n_final) + 2


def candidates(make_selector, grid, truncation, X):
    """(selector points without the truncation sizes, the sizes or None): the candidates of
    :func:`tune_selector`, and of the test-side audit (:func:`~svmfs.protocol.audits.tune_on_test_side`)."""
    sizes = None
    if truncation and truncation in grid:
        sizes = truncation_points(make_selector, grid[truncation], X.shape[1])
        grid = {k: v for k, v in grid.items() if k != truncation}
    return (list(ParameterGrid(grid)) if grid else [{}]), sizes


def size_candidates(sel, sizes, final_kind: str, X: np.ndarray, y: np.ndarray) -> list[tuple]:
    """``[(size, support, the selector that scores it), ...]`` for a selector fitted on (X, y): its own support
    (size None) without a truncation grid; else each size read off its ranking (``support_for_size``). With
    the final classifier ``own`` a size is scored by the hyperplane solved at that size,
    ``sel.own_at_size(k, X, y)`` (:class:`~svmfs.methods.base.OwnSVMAtSize`), never by the one the fit ended
    with at another size."""
    if sizes is None:
        return [(None, sel.get_support(), sel)]
    if final_kind == "own":  # sizes that select the same features (1-norm RFE above its support) share one SVM
        out, solved = [], {}
        for k in sizes:
            key = np.asarray(sel.support_for_size(k), dtype=bool).tobytes()
            if key not in solved:
                solved[key] = sel.own_at_size(k, X, y)
            out.append((k, solved[key].support_, solved[key]))
        return out
    return [(k, sel.support_for_size(k), sel) for k in sizes]


def inner_fold_scores(
    make_selector: Callable[..., Any],
    grid: dict[str, list],
    truncation: str | None,
    final_kind: str,
    final_cfg: dict,
    X: np.ndarray,
    y: np.ndarray,
    cv,
    folds=None,
    fit: Callable | None = None,
    points=None,
    clock=None,
) -> dict[int, list[list]]:
    """The inner CV's scores, fold by fold: ``{k: [[selector point, size, final point, accuracy,
    n_features], ...]}`` for inner fold k of ``cv`` (``folds``: only those k; None: all), the candidates in
    :func:`tune_selector`'s order (``points``: only the selector points of those indices; None: all). The
    folds, and the selector points of a fold, are independent: parts of one job computed apart
    and merged give what one call over all folds gives (:func:`choose_candidate`). JSON-serializable.
    A final-classifier fit that repeats one of the same inner fold (the same selected columns at another
    selector point) is done once (:class:`~svmfs.protocol.fit_memo.FitMemo`, one per inner fold, released
    with it); ``fit``: the function that fits (default :func:`~svmfs.protocol.classifiers.fit_predict`).
    ``clock``: the job's budget (:class:`~svmfs.protocol.job_budget.JobClock`), asked before each selector fit;
    once spent, the remaining fits are skipped (a fold then holds the candidates scored before)."""
    sel_points, sizes = candidates(make_selector, grid, truncation, X)
    fin_points = final_grid(final_kind, final_cfg)
    out: dict[int, list[list]] = {}
    for k_fold, (tr, va) in enumerate(cv.split(X, y)):
        if folds is not None and k_fold not in folds:
            continue
        Xf, yf, Xv = X[tr], y[tr], X[va]  # once per inner fold, not per candidate
        memo = FitMemo(fit or fit_predict)
        rows = out[k_fold] = []
        for si, sp in enumerate(sel_points):
            if points is not None and si not in points:
                continue
            if clock is not None and clock.stop():  # the job's budget is spent (.job_budget)
                break
            extra = {truncation: None} if sizes is not None else {}
            sel = make_selector(**sp, **extra).fit(Xf, yf)
            if clock is not None:
                clock.fitted()
            for k, sup, scorer in size_candidates(sel, sizes, final_kind, Xf, yf):
                for fi, fp in enumerate(fin_points):
                    pred, _ = memo.fit_predict(final_kind, fp, final_cfg, Xf, yf, Xv, sup, scorer)
                    rows.append([si, k, fi, float(np.mean(pred == y[va])), int(sup.sum())])
    return out


def choose_candidate(
    make_selector: Callable[..., Any],
    grid: dict[str, list],
    truncation: str | None,
    final_kind: str,
    final_cfg: dict,
    X: np.ndarray,
    scores: dict[int, list[list]],
    n_folds: int | None = None,
    rule: str = "best_mean",
) -> TuningResult:
    """The candidate of :func:`tune_selector` from the fold-by-fold ``scores`` of every inner fold
    (:func:`inner_fold_scores`, in one call or merged from parts). ``rule`` ``best_mean``: the best mean
    accuracy, ties to the smaller mean number of features, then to the earlier candidate; ``one_se``: the
    smallest candidate within one standard error of that one (:func:`one_se_choice`). ``n_folds``: refuse
    scores that lack a fold, or a fold that lacks a selector point (a block of the grid run apart,
    ``split_grid``) or has one twice."""
    if rule not in RULES:
        raise ValueError(f"inner_cv.rule = {rule!r}: expected one of {', '.join(RULES)}")
    sel_points, sizes = candidates(make_selector, grid, truncation, X)
    fin_points = final_grid(final_kind, final_cfg)
    if n_folds is not None:
        missing = sorted(set(range(n_folds)) - {int(k) for k in scores})
        if missing:
            raise ValueError(f"inner folds 0-{n_folds - 1} of {n_folds}: missing {', '.join(map(str, missing))}")
        per_point = (len(sizes) if sizes is not None else 1) * len(fin_points)
        for k_fold, rows in scores.items():
            seen = Counter(int(row[0]) for row in rows)
            if seen != Counter({si: per_point for si in range(len(sel_points))}):
                raise ValueError(f"inner fold {k_fold}: {dict(sorted(seen.items()))} rows by selector point; expected "
                                 f"{per_point} for each of 0-{len(sel_points) - 1}")  # fmt: skip
    acc: dict[tuple, list[float]] = defaultdict(list)
    nfeat: dict[tuple, list[int]] = defaultdict(list)
    for k_fold in sorted(scores, key=int):  # inner-fold order, as one call over all folds
        for si, k, fi, a, nf in scores[k_fold]:
            acc[(si, k, fi)].append(a)
            nfeat[(si, k, fi)].append(nf)
    table, best, best_key = [], None, None
    for order, key in enumerate(acc):
        si, k, fi = key
        mean_acc, mean_nf = float(np.mean(acc[key])), float(np.mean(nfeat[key]))
        params = dict(sel_points[si])
        if sizes is not None:
            params[truncation] = k
        table.append({"selector": params, "final": fin_points[fi], "accuracy": mean_acc,
                      "accuracy_se": _standard_error(acc[key]), "n_features": mean_nf})  # fmt: skip
        rank_key = (round(mean_acc, 12), -mean_nf, -order)
        if best_key is None or rank_key > best_key:
            best_key, best = rank_key, order
    if rule == "one_se":
        best = one_se_choice(table, best)
    row = table[best]
    return TuningResult(row["selector"], row["final"], row["accuracy"], len(table), table, rule)


def tune_selector(
    make_selector: Callable[..., Any],
    grid: dict[str, list],
    truncation: str | None,
    final_kind: str,
    final_cfg: dict,
    X: np.ndarray,
    y: np.ndarray,
    cv,
    fit: Callable | None = None,
    rule: str = "best_mean",
    clock=None,
) -> TuningResult:
    """Choose the selector's and the final classifier's parameters by inner CV on (X, y): every inner
    fold's scores (:func:`inner_fold_scores`, ``fit`` passed on), then the candidate ``rule`` picks
    (:func:`choose_candidate`). ``clock``: the job's budget; once spent, the choice is among the candidates
    scored on the same inner folds (:meth:`~svmfs.protocol.job_budget.JobClock.usable_scores`).

    With nothing to choose for the selector, nothing is fitted: ({}, {}, NaN, 1 candidate).
    """
    if not grid:
        return TuningResult({}, {}, float("nan"), 1, [])
    scores = inner_fold_scores(make_selector, grid, truncation, final_kind, final_cfg, X, y, cv, fit=fit, clock=clock)
    if clock is not None:
        scores = clock.usable_scores(scores)
    return choose_candidate(make_selector, grid, truncation, final_kind, final_cfg, X, scores, rule=rule)


def tune_final(final_kind: str, final_cfg: dict, X: np.ndarray, y: np.ndarray, support, cv, selector=None) -> dict:
    """Inner-CV choice of the final classifier's parameters on the selected features.

    ``selector``: the selector fitted on the whole training side; an anisotropic final classifier keeps
    its ``kernel_widths_`` in every fold. The ``"own"`` hyperplane has nothing to tune and, fitted on
    every row of (X, y), no inner-CV estimate: ({}, NaN); nor has a grid of one point without inner folds
    (``cv`` None: the point, NaN). ``inner_fold_accuracies``: the accuracy on each
    inner fold at the chosen point (their mean is ``inner_accuracy``): the spread of the number Maldonado et
    al. (2011) report in Table 2, "the test error for the training subset using 10-fold cross-validation".
    """
    if final_kind == "own":
        return {"params": {}, "inner_accuracy": float("nan"), "inner_fold_accuracies": []}
    points = final_grid(final_kind, final_cfg)
    if cv is None and len(points) == 1:  # no inner CV to draw and nothing to choose (select_job._inner_cv_or_none)
        params = {"C": selector_C(selector)} if final_kind == "anisotropic" and c_from_selector(final_cfg) else points[0]
        return {"params": params, "inner_accuracy": float("nan"), "inner_fold_accuracies": []}
    folds = [(X[tr], y[tr], X[va], y[va]) for tr, va in cv.split(X, y)]  # the same folds for every point
    per_fold = []
    for fp in points:
        per_fold.append([float(np.mean(fit_predict(final_kind, fp, final_cfg, Xf, yf, Xv, support, selector)[0] == yv))
                         for Xf, yf, Xv, yv in folds])  # fmt: skip
    scores = [float(np.mean(s)) for s in per_fold]
    best = int(np.argmax(np.round(scores, 12)))  # first best in grid order
    params = points[best]
    if final_kind == "anisotropic" and c_from_selector(final_cfg):
        params = {"C": selector_C(selector)}  # not tuned: recorded as used
    return {"params": params, "inner_accuracy": scores[best], "inner_fold_accuracies": per_fold[best]}
