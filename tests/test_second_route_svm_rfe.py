"""SVM-RFE's inner-CV choice of the kept count on MIT 9.520's Example 3, checked by a second route.

The project (secs. 2.2-2.6, 4.1-4.2): SVM-RFE with a linear SVM, C and the elimination step chosen by 5-fold
stratified CV, "ties in cross-validation ... keeping the one with smallest support", and sec. 4.2 names
scikit-learn's RFE "selected by cross-validation". The paper-protocol campaign (``mit9520_paper``, rows M8,
M10, M12, M13, M18) keeps 10.8 / 7.8 features on Example 3 at rho = 0.2 / 0.8 where Table 3 has 30.6 / 27.0.

Second route, on one of the campaign's own draws (``ex3_rho02-r0``, rebuilt by the project's generator and split
function from ``reproduction/mit9520_paper/config.yaml``, z-scored on its training side) and its inner folds
(StratifiedKFold(5, shuffle) with the record's seed):

- the elimination written again (``rfe`` below, SVC(kernel="linear")) gives the ranking of the public selector
  ``SVMRFE`` under the campaign's schedule (the record's step 0.05 of the remaining features above 100, then one
  at a time) at every size of the campaign's grid;
- at the record's selector point (C 2^-9, step 0.05), the 14 grid counts scored with every final C of the
  campaign (2^-10 .. 2^10) by an own loop give the committed kept count (12) under the campaign's tie rule;
- one candidate (selector C, final C) driven through scikit-learn's ``RFECV`` on the same folds (one feature at a
  time: the first 100 columns, the campaign's one-at-a-time range) has SVMRFE's ranking on every fold and the
  same mean inner accuracy at every count 1..100 as the own loop; RFECV's choice (ties to fewer features) is the
  campaign rule's; the best counts are small and the scores flat near the top.

``/work/coord/routes/svm_rfe.md`` has the ten Example 3 jobs of Table 3's gaps (rho 0.2 and 0.8).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from sklearn import config_context
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.feature_selection import RFECV
from sklearn.model_selection import StratifiedKFold
from sklearn.svm import SVC

from svmfs.data.registry import build_dataset, load_registry
from svmfs.methods.svm_rfe import SVMRFE
from svmfs.protocol.normalize import normalize_fold
from svmfs.protocol.seeds import data_seed, splits_seed
from svmfs.protocol.splits import make_splits

ROOT = Path(__file__).resolve().parents[1]
EXPORT = ROOT / "reproduction" / "mit9520_paper"  # config.yaml (the campaign as run) and records.parquet
JOB = "ex3_rho02-r0"
GRID = [1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 30, 50, 100]  # the campaign's n_features_to_select grid


@pytest.fixture(scope="module")
def job():
    cfg = yaml.safe_load((EXPORT / "config.yaml").read_text())
    d = cfg["datasets"][JOB.split("-r")[0]]
    assert cfg["methods"]["svm_rfe"]["grid"]["n_features_to_select"] == GRID
    ds = build_dataset(JOB, load_registry(ROOT / "config" / "datasets.yaml")[d["source"]], d["params"],
                       data_seed(cfg["seed"], JOB))  # fmt: skip
    fold = make_splits(ds.y, {**cfg["splits"], **d.get("splits", {})}, splits_seed(cfg["seed"], JOB), dataset=JOB)[0]
    tr, te = np.asarray(fold["train"]), np.asarray(fold["test"])
    X, _, _ = normalize_fold(ds.X, tr, te, "zscore", "fold")
    rec = pd.read_parquet(EXPORT / "records.parquet")
    rec = rec[(rec.method == "svm_rfe") & (rec.dataset == JOB)].iloc[0]
    folds = list(StratifiedKFold(5, shuffle=True, random_state=int(rec.seed)).split(X, ds.y[tr]))
    return X, ds.y[tr].astype(float), folds, json.loads(rec.selector_params), int(rec.n_selected)


def rfe(X, y, C, step, switch_at):
    """Sec. 2.2 with sec. 2.5's schedule: the features in the order they leave (the survivor last)."""
    active, order = list(range(X.shape[1])), []
    while len(active) > 1:
        m = len(active)
        r = min(max(1, math.ceil(step * m)), m - switch_at) if m > switch_at else 1
        w = SVC(kernel="linear", C=C).fit(X[:, active], y).coef_.ravel()
        for j in sorted(np.argsort(np.abs(w), kind="stable")[:r], reverse=True):
            order.append(active.pop(j))
    return order + active


def test_campaign_schedule_ranking_by_a_second_route(job):
    X, y, folds, params, _ = job
    C, step = params["C"], params["step"]
    for tr, _ in folds[:2]:
        order = rfe(X[tr], y[tr], C, step, switch_at=100)
        ranking = SVMRFE(C=C, step=step, switch_at=100).fit(X[tr], y[tr]).ranking_
        for k in GRID:  # the supports the campaign's candidates are read at
            assert set(np.flatnonzero(ranking <= k)) == set(order[-k:])


class RankThenScore(ClassifierMixin, BaseEstimator):
    """One campaign candidate as an estimator RFECV can drive: the elimination ranks by the weights of the linear
    SVM at the selector's C (``coef_``), the kept features are scored by a linear SVM refitted at the final C."""

    def __init__(self, C_rank=1.0, C_final=1.0):
        self.C_rank = C_rank
        self.C_final = C_final

    def fit(self, X, y):
        self.coef_ = SVC(kernel="linear", C=self.C_rank).fit(X, y).coef_
        self.final_ = SVC(kernel="linear", C=self.C_final).fit(X, y)
        self.classes_ = self.final_.classes_
        return self

    def predict(self, X):
        return self.final_.predict(X)


def inner_scores(X, y, folds, C, step, final_C, sizes):
    """Mean inner accuracy of each kept count: SVMRFE's ranking on each inner fold, an SVC at each final C."""
    acc = np.zeros((len(folds), len(sizes), len(final_C)))
    with config_context(assume_finite=True, skip_parameter_validation=True):  # many tiny fits: skip the checks
        _fill(acc, X, y, folds, C, step, final_C, sizes)
    return acc.mean(axis=0)


def _fill(acc, X, y, folds, C, step, final_C, sizes):
    for i, (tr, va) in enumerate(folds):
        ranking = SVMRFE(C=C, step=step, switch_at=100).fit(X[tr], y[tr]).ranking_
        for a, k in enumerate(sizes):
            keep = ranking <= k
            for b, fc in enumerate(final_C):
                svm = SVC(kernel="linear", C=fc).fit(X[tr][:, keep], y[tr])
                acc[i, a, b] = np.mean(svm.predict(X[va][:, keep]) == y[va])


def smallest_best(scores, sizes):
    """The campaign's rule among kept counts: the best mean accuracy, ties to the smaller count."""
    return max(sizes, key=lambda k: (round(scores[k], 12), -k))


def test_inner_cv_choice_at_the_records_selector_point(job):
    """At the record's (C, step), scoring every grid count with every final C of the campaign reproduces the
    committed kept count, with the tie to the smaller count (another draw of the campaign's rule)."""
    X, y, folds, params, n_selected = job
    final_C = [2.0**e for e in range(-10, 11)]
    m = inner_scores(X, y, folds, params["C"], params["step"], final_C, GRID)
    best = {k: m[a].max() for a, k in enumerate(GRID)}
    assert smallest_best(best, GRID) == n_selected == params["n_features_to_select"]
    assert best[30] < best[n_selected]  # the paper's count scores lower at this draw


def test_kept_count_choice_agrees_with_rfecv_on_the_same_folds(job):
    """On the first 100 columns (x1..x10 and 90 noise features: the campaign's one-at-a-time part), one candidate
    (selector C 2^-9, final C 2^-6) through scikit-learn's RFECV and through SVMRFE plus an own scoring loop."""
    X, y, folds, _, _ = job
    X = X[:, :100]
    C_rank, C_final = 2.0**-9, 2.0**-6
    cv = RFECV(RankThenScore(C_rank, C_final), step=1, cv=folds, scoring="accuracy").fit(X, y)
    rfecv = dict(zip(cv.cv_results_["n_features"].tolist(), cv.cv_results_["mean_test_score"]))
    for i, (tr, _) in enumerate(folds):  # RFECV's ranking on each fold (its last step: one feature left)
        ref = cv.cv_results_[f"split{i}_ranking"][0]
        assert np.array_equal(SVMRFE(C=C_rank, switch_at=100).fit(X[tr], y[tr]).ranking_, ref)
    every = list(range(1, 101))
    own = dict(zip(every, inner_scores(X, y, folds, C_rank, 0.1, [C_final], every)[:, 0]))
    assert all(own[k] == pytest.approx(rfecv[k], abs=1e-12) for k in every)
    assert smallest_best(own, every) == cv.n_features_  # RFECV's rule: ties to fewer features, the same
    assert smallest_best(own, GRID) == smallest_best(rfecv, GRID)
    # flat near the top: several counts within one validation row (0.01 of the mean) of the best, the best small
    best = own[cv.n_features_]
    assert cv.n_features_ <= 20 and sum(own[k] >= best - 0.01 for k in every) >= 3
