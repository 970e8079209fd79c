"""Step 6 of a select job (:mod:`.select_job`): the record of the nested choice, from what steps 1-5 computed,
and its recovery scores against a synthetic dataset's known relevant features."""

from __future__ import annotations

from typing import Any

import numpy as np

from . import multiclass
from .job_status import status_fields


def _record_body(X, fold, method_name, method_cfg, final_kind, train, n_test, selected, fixed, tuned, final,
                 train_pred, ytr, test_metrics, norm, leaky, selector, fit_time, tune_time, seed, initial,
                 clock=None) -> dict[str, Any]:  # fmt: skip
    """Step 6: the record of the nested choice, its test-side scores and the selector's fitted attributes; its
    status as the job judges it (``collapsed``, ``time_limit`` past the budget ``clock``: :mod:`.job_status`)."""
    rec: dict[str, Any] = {
        "method": method_name,
        "registry_method": method_cfg.get("method", method_name),
        "final_classifier": final_kind,
        "fold": int(fold["fold"]),
        "n_train": len(train),
        "n_test": n_test,
        **({"n_validation": len(fold["validation"])} if "validation" in fold else {}),
        "n_features_total": int(X.shape[1]),
        "n_selected": int(selected.size),
        "selected": selected.tolist(),
        "selector_params": {**fixed, **tuned.selector_params},
        "final_params": final["params"],
        "inner_accuracy": tuned.inner_accuracy,
        "inner_final_accuracy": final["inner_accuracy"],
        **({"inner_final_accuracy_folds": final["inner_fold_accuracies"]} if final["inner_fold_accuracies"] else {}),
        "n_candidates": tuned.n_candidates,
        "inner_cv_rule": tuned.rule,
        "train_accuracy": float(np.mean(train_pred == ytr)),
        "test_accuracy": test_metrics["accuracy"],
        "test_balanced_accuracy": test_metrics["balanced_accuracy"],
        "test_auc": test_metrics["auc"],
        **({"test_accuracy_resamples": test_metrics["accuracy_resamples"]} if "accuracy_resamples" in test_metrics else {}),
        "normalization": norm["method"],
        "leaky_normalization": bool(leaky),
        "status": selector.diagnostics_["status"],
        "message": str(selector.diagnostics_.get("message", "")),
        "objective": selector.diagnostics_.get("objective"),
        "n_iter": selector.diagnostics_.get("n_iter"),
        "fit_time_s": fit_time,
        "tune_time_s": tune_time,
        "seed": int(seed),
    }
    if initial is not None:
        rec["initial_solution"] = {k: initial[k] for k in ("C", "gamma_ini", "cv_accuracy", "seed")}
    for attr in ("ranking_", "scores_", "weights_", "intercept_", "kernel_widths_"):
        if hasattr(selector, attr):
            rec[attr.rstrip("_")] = np.asarray(getattr(selector, attr)).tolist()
    rec.update(multiclass.record_fields(selector, ytr))  # the one-versus-rest per-class selections (multiclass only)
    extra = {k: v for k, v in selector.diagnostics_.items() if k not in ("status", "message", "objective", "n_iter", "time_s")}
    if extra:
        rec["diagnostics"] = extra
    rec.update(status_fields(rec, clock, train_pred, ytr))
    return rec


def _relevance(relevant: list[int], selected: np.ndarray) -> dict[str, Any]:
    """Against the known relevant features of a synthetic dataset: recall, precision, exact recovery."""
    rel = set(relevant)
    hits = len(rel.intersection(selected.tolist()))
    return {
        "n_relevant": len(rel),
        "recall_relevant": hits / len(rel) if rel else float("nan"),
        "precision_relevant": hits / selected.size if selected.size else float("nan"),
        "exact_relevant": bool(set(selected.tolist()) == rel),
    }
