"""The select job's FitMemo (issue 34 goal 2): a repeated final-classifier fit is done once, and the job's record,
and NumPy's global generator after it, are those of the job that refits every time."""

import json

import numpy as np
import pytest

from svmfs.data.synthetic import mit_example1
from svmfs.protocol.classifiers import fit_predict
from svmfs.protocol.fit_memo import FitMemo
from svmfs.protocol.select_job import run_select_job
from svmfs.protocol.splits import make_splits

C_GRID = [2.0**e for e in range(-6, 7, 2)]
CAMPAIGN = {  # the mit9520 campaign's protocol, small: both in-job audits, the final linear SVM over the same C
    "normalization": {"method": "zscore", "scope": "fold"},
    "inner_cv": {"n_splits": 3},
    "final_classifier": {"linear": {"C": C_GRID}},
    "audits": ["test_tuned", "global_scaling"],
}
TIMES = ("fit_time_s", "tune_time_s", "audit_test_tuned_time_s")
MEMO_FIT_PREDICT = FitMemo.fit_predict


def _job(method, memo_on, monkeypatch, calls):
    X, y, rel = mit_example1(n=48, p=60, k0=4, rho=0.5, seed=3)
    fold = make_splits(y, {"kind": "stratified_kfold", "n_splits": 4}, 0)[1]
    cfg = {"grid": {"C": C_GRID, "n_features_to_select": [1, 2, 4, 8, 30]}, "params": {"step": 0.1, "switch_at": 20}}
    monkeypatch.setattr(FitMemo, "enabled", memo_on)
    def counting(self, *a, **k):
        calls.append(1)
        return MEMO_FIT_PREDICT(self, *a, **k)

    monkeypatch.setattr(FitMemo, "fit_predict", counting)
    np.random.seed(11)
    rec = run_select_job(X, y, fold, method, cfg, CAMPAIGN, seed=5, relevant=rel)
    return {k: v for k, v in rec.items() if k not in TIMES}, np.random.get_state()


@pytest.mark.parametrize("method", ["svm_rfe", "l1_rfe"])
def test_a_job_with_the_memo_has_the_record_and_generator_state_of_the_job_without(monkeypatch, method):
    """Same record field by field (the inner CV's choice, test accuracy, both audits, weights, ranking) and the
    same global generator state afterwards; and the memo answered most of the job's requests."""
    import svmfs.protocol.fit_memo as fm

    fits_on, fits_off = [], []
    real = fm.FitMemo.__init__
    memos = []
    monkeypatch.setattr(fm.FitMemo, "__init__", lambda self, *a, **k: memos.append(self) or real(self, *a, **k))
    on, state_on = _job(method, True, monkeypatch, fits_on)
    off, state_off = _job(method, False, monkeypatch, fits_off)
    assert json.dumps(on, sort_keys=True, default=str) == json.dumps(off, sort_keys=True, default=str)
    assert all(np.array_equal(a, b) if isinstance(a, np.ndarray) else a == b for a, b in zip(state_on, state_off))
    assert len(fits_on) == len(fits_off)  # the same requests
    hits, misses = sum(m.hits for m in memos), sum(m.misses for m in memos)
    assert hits + misses == len(fits_on) and hits > misses


def test_the_memo_tells_fits_apart_by_rows_columns_and_parameters():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 5))
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=40) > 0, 1, -1)
    cfg = {"linear": {"C": [0.01, 1.0]}}
    Xf, yf, Xe, Xe2 = X[:30], y[:30], X[30:], X[30:] * -1.0
    one, two = np.array([1, 0, 0, 0, 0], bool), np.array([1, 1, 0, 0, 0], bool)
    memo = FitMemo()
    cases = [({"C": 0.01}, Xe, one), ({"C": 1.0}, Xe, one), ({"C": 0.01}, Xe2, one), ({"C": 0.01}, Xe, two)]
    for params, Xev, sup in cases + cases:
        pred, dec = memo.fit_predict("linear", params, cfg, Xf, yf, Xev, sup)
        ref_pred, ref_dec = fit_predict("linear", params, cfg, Xf, yf, Xev, sup)
        assert np.array_equal(pred, ref_pred) and np.array_equal(dec, ref_dec)
    assert (memo.misses, memo.hits) == (4, 4)


def test_a_repeated_fit_draws_libsvms_seed_but_an_empty_selection_draws_nothing():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(30, 3))
    y = np.where(X[:, 0] > 0, 1, -1)
    cfg = {"linear": {"C": [1.0]}}
    sups = [np.array([1, 0, 1], bool), np.zeros(3, bool)]
    Xf, yf, Xe = X[:20], y[:20], X[20:]
    states = []
    for use_memo in (True, False):
        np.random.seed(4)
        memo = FitMemo()
        for sup in sups * 3:
            if use_memo:
                memo.fit_predict("linear", {"C": 1.0}, cfg, Xf, yf, Xe, sup)
            else:
                fit_predict("linear", {"C": 1.0}, cfg, Xf, yf, Xe, sup)
        _, key, pos, *_ = np.random.get_state()
        states.append((key.copy(), pos, memo.hits, memo.misses))
    assert states[0][2:] == (4, 2) and states[1][1] == 3  # memo: 4 repeats of 2 fits; plain: 3 SVC fits, 3 draws
    assert np.array_equal(states[0][0], states[1][0]) and states[0][1] == states[1][1]
