"""Outer splits, per-fold normalization, nested-CV isolation and the tuner."""

import numpy as np
import pytest

from svmfs.methods import registry
from svmfs.methods.base import BaseSelector
from svmfs.methods.fisher import FisherScore
from svmfs.protocol.normalize import normalize_fold
from svmfs.protocol.select_job import run_select_job
from svmfs.protocol.splits import SplitError, make_splits
from svmfs.protocol.tuning import inner_cv, selector_fits, tune_selector

FINAL = {"linear": {"C": [0.1, 1.0]}, "rbf": {"C": [1.0], "gamma": [1.0], "gamma_per_feature": True}}
CAMPAIGN = {
    "normalization": {"method": "zscore", "scope": "fold"},
    "inner_cv": {"n_splits": 3},
    "final_classifier": FINAL,
}


def _y(n_pos=30, n_neg=20):
    return np.array([1] * n_pos + [-1] * n_neg)


def test_stratified_kfold_disjoint_covering_stratified_reproducible():
    y = _y()
    folds = make_splits(y, {"kind": "stratified_kfold", "n_splits": 5, "n_repeats": 2}, seed=3)
    assert len(folds) == 10
    for rep in range(2):
        tests = [set(f["test"]) for f in folds[5 * rep : 5 * rep + 5]]
        assert set().union(*tests) == set(range(50)) and sum(map(len, tests)) == 50
    for f in folds:
        assert not set(f["train"]) & set(f["test"])
        assert np.sum(y[f["test"]] == 1) == 6 and np.sum(y[f["test"]] == -1) == 4
    assert folds == make_splits(y, {"kind": "stratified_kfold", "n_splits": 5, "n_repeats": 2}, seed=3)
    assert folds != make_splits(y, {"kind": "stratified_kfold", "n_splits": 5, "n_repeats": 2}, seed=4)


def test_random_train_test_sizes_as_in_rinaldi():
    y = np.array([1] * 40 + [-1] * 22)  # colon: Tr 50 / Ts 12
    folds = make_splits(y, {"kind": "random_train_test", "n_instances": 10, "train_size": 50, "test_size": 12}, 0)
    assert len(folds) == 10
    assert all(len(f["train"]) == 50 and len(f["test"]) == 12 for f in folds)
    assert len({tuple(f["test"]) for f in folds}) == 10


def test_unstratified_random_train_test_draws_unbalanced_training_sets_reproducibly():
    """Catala & Martin 5.1: random training sets of 50 from a balanced pool (splits.stratify: false) are
    not all balanced, as stratified draws are; the same seed gives the same draws."""
    y = _y(500, 500)
    spec = {"kind": "random_train_test", "n_instances": 20, "train_size": 50, "test_size": 100}
    positives = {int(np.sum(y[f["train"]] == 1)) for f in make_splits(y, {**spec, "stratify": False}, 5)}
    assert len(positives) > 1 and positives != {25}
    assert {int(np.sum(y[f["train"]] == 1)) for f in make_splits(y, spec, 5)} == {25}
    assert make_splits(y, {**spec, "stratify": False}, 5) == make_splits(y, {**spec, "stratify": False}, 5)
    assert make_splits(y, {**spec, "stratify": False}, 5) != make_splits(y, {**spec, "stratify": False}, 6)


@pytest.mark.parametrize("test_size", [500, None])
def test_validation_points_apart_from_training_and_test_sides(test_size):
    """Catala & Martin 5.2: 100 validation points beside a training side of 25 (splits.validation_size)."""
    y = _y(500, 500)
    spec = {"kind": "random_train_test", "n_instances": 3, "train_size": 25, "validation_size": 100, "stratify": False}
    spec = {**spec, **({"test_size": test_size} if test_size else {})}
    folds = make_splits(y, spec, 2)
    for f in folds:
        tr, te, va = set(f["train"]), set(f["test"]), set(f["validation"])
        assert (len(tr), len(va), len(te)) == (25, 100, test_size or 875)
        assert not (tr & va or tr & te or va & te)
    assert folds == make_splits(y, spec, 2)
    assert "validation" not in make_splits(y, {k: v for k, v in spec.items() if k != "validation_size"}, 2)[0]
    with pytest.raises(SplitError, match="splits.validation_size = 975 leaves no test side"):
        make_splits(y, {**{k: v for k, v in spec.items() if k != "test_size"}, "validation_size": 975}, 2)


def test_kp_svm_protocol_resamples_inside_test_side():
    y = _y(60, 40)
    (fold,) = make_splits(y, {"kind": "kp_svm", "train_size": 0.5, "n_resamples": 7, "fit_fraction": 0.6}, 1)
    assert len(fold["evaluation"]) == 7
    for r in fold["evaluation"]:
        assert set(r["fit"]) | set(r["test"]) == set(fold["test"])
        assert len(r["fit"]) == 30 and not set(r["fit"]) & set(r["test"])


def test_folds_exceeding_smallest_class_are_rejected():
    with pytest.raises(SplitError, match="splits.n_splits = 10 exceeds the smallest class"):
        make_splits(_y(20, 5), {"kind": "stratified_kfold", "n_splits": 10}, 0)


def test_normalization_fitted_on_training_side_only():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3))
    X[-5:] += 10.0  # test rows far away
    train, test = np.arange(35), np.arange(35, 40)
    Xtr, Xte, leaky = normalize_fold(X, train, test, "minmax_pm1")
    assert not leaky
    assert Xtr.min() == pytest.approx(-1) and Xtr.max() == pytest.approx(1)
    assert Xte.min() > 1  # had the scaler seen the test rows, they would lie within [-1, 1]
    Xtr_g, Xte_g, leaky_g = normalize_fold(X, train, test, "minmax_pm1", scope="global")
    assert leaky_g and Xte_g.max() == pytest.approx(1)


class RowSpy(BaseSelector):
    """Records every row it is fitted on (the nested-CV isolation witness)."""

    seen: list = []

    def __init__(self, n_features_to_select=None):
        self.n_features_to_select = n_features_to_select

    def _fit(self, X, y):
        RowSpy.seen.append(X.copy())
        self.ranking_ = np.arange(1, X.shape[1] + 1)
        self.support_ = self.ranking_ <= (self.n_features_to_select or X.shape[1])


def test_selector_never_sees_test_rows(monkeypatch):
    spec = registry.MethodSpec("x:RowSpy", "linear", {"n_features_to_select": [1, 2]}, truncation="n_features_to_select")
    monkeypatch.setattr(registry.MethodSpec, "load", lambda self: RowSpy)
    monkeypatch.setitem(registry.METHODS, "row_spy", spec)
    rng = np.random.default_rng(1)
    X, y = rng.normal(size=(60, 4)), _y(30, 30)
    X[:, 0] += y  # some signal
    fold = make_splits(y, {"kind": "stratified_kfold", "n_splits": 4}, 0)[0]
    RowSpy.seen = []
    rec = run_select_job(X, y, fold, "row_spy", {}, CAMPAIGN, seed=0)
    _, Xte, _ = normalize_fold(X, np.asarray(fold["train"]), np.asarray(fold["test"]), "zscore")
    seen = np.vstack(RowSpy.seen)
    assert len(RowSpy.seen) == 3 * 1 + 1  # 3 inner folds x 1 grid point (ranking reused), + final fit
    # the count the config's runtime warning relies on is the count the job makes
    assert selector_fits({"n_features_to_select": [1, 2]}, "n_features_to_select", 3) == len(RowSpy.seen)
    assert selector_fits({"C": [1, 2, 3], "n_features_to_select": [1, 2]}, "n_features_to_select", 5) == 16
    assert selector_fits({"C": [1, 2, 3], "n_features_to_select": [1, 2]}, None, 5) == 31 and selector_fits({}, None, 5) == 1
    for row in Xte:
        assert not np.any(np.all(np.isclose(seen, row), axis=1)), "a test row reached the selector"
    assert rec["n_test"] == len(fold["test"]) and 0 <= rec["test_accuracy"] <= 1


def test_truncated_ranking_equals_refitting_each_size():
    rng = np.random.default_rng(2)
    X, y = rng.normal(size=(60, 8)), _y(30, 30)
    X[:, :3] += 0.8 * y[:, None]
    cv = inner_cv(y, 3, 0)
    grid = {"n_features_to_select": [1, 3, 5, 20]}
    fast = tune_selector(FisherScore, grid, "n_features_to_select", "linear", FINAL, X, y, cv)
    slow = tune_selector(FisherScore, grid, None, "linear", FINAL, X, y, cv)
    # 20 is clipped to the 8 features available
    assert [r["selector"]["n_features_to_select"] for r in fast.table][::2] == [1, 3, 5, 8]
    by_k = {(min(r["selector"]["n_features_to_select"], 8), r["final"]["C"]): r["accuracy"] for r in slow.table}
    for r in fast.table:
        assert r["accuracy"] == pytest.approx(by_k[(r["selector"]["n_features_to_select"], r["final"]["C"])])


def test_ties_go_to_the_smallest_support():
    X = np.zeros((40, 5))
    y = _y(20, 20)
    X[:, 0] = y  # one perfectly separating feature: every size is 100 % accurate
    cv = inner_cv(y, 4, 0)
    res = tune_selector(FisherScore, {"n_features_to_select": [5, 3, 1]}, "n_features_to_select", "linear", FINAL, X, y, cv)
    assert res.inner_accuracy == 1.0 and res.selector_params["n_features_to_select"] == 1


def test_quadratic_final_classifier_solves_weston_xor_where_linear_fails():
    from svmfs.data.synthetic import weston_nonlinear
    from svmfs.protocol.classifiers import fit_predict

    X, y, _ = weston_nonlinear(n=400, seed=3)
    cfg = {"poly": {"C": [1.0], "degree": [2]}, "linear": {"C": [1.0]}}
    sup = np.zeros(52, dtype=bool)
    sup[:2] = True  # the two relevant features only
    tr, te = np.arange(300), np.arange(300, 400)
    acc = {k: np.mean(fit_predict(k, p, cfg, X[tr], y[tr], X[te], sup)[0] == y[te]) for k, p in (("poly", {"C": 1.0, "degree": 2}), ("linear", {"C": 1.0}))}
    assert acc["poly"] > 0.9 and acc["linear"] < 0.75


def test_a_selector_with_nothing_to_tune_is_not_fitted_on_the_inner_folds():
    """Empty grid (MM-FS, KP-FS: C and widths chosen inside fit): the tuner fits nothing and says so;
    with a grid it fits every (inner fold, grid point) once."""
    fits = []

    def counting(**params):
        fits.append(params)
        return FisherScore(n_features_to_select=params.get("n_features_to_select", 2))

    rng = np.random.default_rng(0)
    y = _y()
    X = rng.normal(size=(y.size, 6))
    cv = inner_cv(y, 3, 0)
    res = tune_selector(counting, {}, None, "linear", FINAL, X, y, cv)
    assert fits == [] and res.selector_params == {} and np.isnan(res.inner_accuracy) and res.n_candidates == 1
    tune_selector(counting, {"n_features_to_select": [1, 2]}, None, "linear", FINAL, X, y, cv)
    assert len(fits) == 3 * 2


def test_own_final_classifier_scores_the_selectors_hyperplane_and_tunes_by_it():
    """``final: own`` (Jimenez-Cordero et al. 4.3 score l1-SVM and MILP-FS by their own w.x + b): the
    record's test accuracy is that of sign(w.x + b) with the record's weights and intercept, labels
    mapped back to the data's (here 0/1 with 1 as +1), nothing is refitted, and C is the grid point
    whose own hyperplane is most accurate on the inner folds."""
    from svmfs.methods.l1_svm import L1SVM

    rng = np.random.default_rng(5)
    y01 = (rng.random(90) < 0.4).astype(int)
    X = rng.normal(size=(90, 6))
    X[:, 0] += 1.2 * (2 * y01 - 1)
    X[:, 1] += 0.6 * (2 * y01 - 1)
    fold = make_splits(y01, {"kind": "stratified_kfold", "n_splits": 3}, 0)[0]
    grid = [0.001, 0.1, 10.0]
    rec = run_select_job(X, y01, fold, "l1_svm", {"final": "own", "grid": {"C": grid}}, CAMPAIGN, seed=0)
    assert rec["final_classifier"] == "own" and rec["final_params"] == {} and np.isnan(rec["inner_final_accuracy"])
    tr, te = np.asarray(fold["train"]), np.asarray(fold["test"])
    Xtr, Xte, _ = normalize_fold(X, tr, te, "zscore")
    own = np.where(Xte @ np.asarray(rec["weights"]) + rec["intercept"] > 0, 1, 0)
    assert rec["test_accuracy"] == pytest.approx(np.mean(own == y01[te]))
    refit = run_select_job(X, y01, fold, "l1_svm", {"grid": {"C": grid}}, CAMPAIGN, seed=0)
    assert refit["final_classifier"] == "linear" and refit["final_params"] != {}
    # the tuner's choice: inner accuracy of each C's own hyperplane, fitted on each inner fold
    cv = inner_cv(y01[tr], 3, 0)
    inner = {C: np.mean([np.mean(L1SVM(C=C).fit(Xtr[a], y01[tr][a]).own_predict(Xtr[b]) == y01[tr][b]) for a, b in cv.split(Xtr, y01[tr])]) for C in grid}
    assert inner[0.001] < max(inner.values())  # the grid matters: a too-small C keeps w = 0
    assert rec["selector_params"]["C"] == max(grid, key=lambda C: (round(inner[C], 12), -grid.index(C)))
    assert rec["inner_accuracy"] == pytest.approx(max(inner.values()))


def test_kp_svm_protocol_records_each_resamples_accuracy():
    """The record keeps the per-resample test accuracies whose mean is its test accuracy (the verdicts' interval)."""
    rng = np.random.default_rng(2)
    y = _y(40, 40)
    X = rng.normal(size=(80, 3))
    X[:, 0] += y
    (fold,) = make_splits(y, {"kind": "kp_svm", "train_size": 0.5, "n_resamples": 7, "fit_fraction": 0.6}, 1)
    rec = run_select_job(X, y, fold, "svm_linear", {}, {**CAMPAIGN, "audits": ["global_scaling"]}, seed=0)
    per = rec["test_accuracy_resamples"]
    gs = rec["audit_global_scaling_accuracy_resamples"]  # paired with per, resample by resample
    assert len(gs) == 7 and rec["audit_global_scaling_accuracy"] == float(np.mean(gs))
    assert len(per) == 7 and len(set(per)) > 1
    assert rec["test_accuracy"] == float(np.mean(per))
    for r, acc in zip(fold["evaluation"], per):  # each one a share of that resample's evaluation rows
        assert acc * len(r["test"]) == pytest.approx(round(acc * len(r["test"])))
    plain = run_select_job(X, y, make_splits(y, {"kind": "stratified_kfold", "n_splits": 4}, 0)[0], "svm_linear", {}, CAMPAIGN, seed=0)
    assert "test_accuracy_resamples" not in plain


def test_a_select_job_hands_the_folds_validation_points_to_dfsa_and_refuses_a_method_without_them():
    """splits.validation_size through the select job (Catala & Martin 5.2): dFSA gets the validation points,
    scaled as the training side, and the record counts them; a method whose fit takes none is refused by name."""
    from svmfs.data.synthetic import weston_nonlinear
    from svmfs.protocol.select_job import run_select_job

    X, y = weston_nonlinear(n=160, seed=4)[:2]
    fold = make_splits(y, {"kind": "random_train_test", "n_instances": 1, "train_size": 40, "test_size": 20,
                           "validation_size": 100, "stratify": False}, 5)[0]  # fmt: skip
    campaign = {"normalization": {"method": "zscore", "scope": "fold"}, "inner_cv": {"n_splits": 3},
                "final_classifier": {"poly": {"C": [1.0], "degree": [2]}, "linear": {"C": [1.0]}}}  # fmt: skip
    rec = run_select_job(X, y, fold, "dfsa_poly2", {"params": {"validation_rule": "first_drop"}}, campaign, seed=1)
    assert rec["n_validation"] == 100 and 1 <= rec["n_selected"] <= X.shape[1]
    with pytest.raises(ValueError, match="method 'fisher' takes no validation points"):
        run_select_job(X, y, fold, "fisher", {"grid": {"n_features_to_select": [2]}}, campaign, seed=1)


def test_record_keeps_the_final_classifiers_inner_fold_accuracies_at_its_chosen_point():
    """Maldonado et al. (2011) Table 2 is "the test error for the training subset using 10-fold cross-validation":
    the record keeps the accuracy on each inner fold at the chosen grid point, whose mean is
    ``inner_final_accuracy``, and the same folds and point redone by hand give the same numbers."""
    from sklearn.svm import SVC

    from svmfs.protocol.tuning import inner_cv

    rng = np.random.default_rng(5)
    y = _y(40, 40)
    X = rng.normal(size=(80, 3))
    X[:, 0] += 0.7 * y
    (fold,) = make_splits(y, {"kind": "kp_svm", "train_size": 0.5, "n_resamples": 5, "fit_fraction": 0.6}, 3)
    rec = run_select_job(X, y, fold, "svm_linear", {}, CAMPAIGN, seed=11)
    per = rec["inner_final_accuracy_folds"]
    assert len(per) == CAMPAIGN["inner_cv"]["n_splits"]
    assert rec["inner_final_accuracy"] == pytest.approx(float(np.mean(per)))
    tr = np.asarray(fold["train"])
    Xtr, _, _ = normalize_fold(X, tr, np.asarray(fold["test"]), "zscore")
    C = rec["final_params"]["C"]
    by_hand = [float(np.mean(SVC(kernel="linear", C=C).fit(Xtr[a], y[tr][a]).predict(Xtr[b]) == y[tr][b]))
               for a, b in inner_cv(y[tr], CAMPAIGN["inner_cv"]["n_splits"], 11).split(Xtr, y[tr])]  # fmt: skip
    assert per == pytest.approx(by_hand)


def test_kp_svm_protocol_with_global_scaling_keeps_the_one_scaling_in_every_resample():
    """normalization.scope global ("as a preprocessing step the features were scaled between 0 and 1",
    Maldonado et al. 5.1.2): the test side's resamples are scored on the rows scaled once, not rescaled on
    each resample's fit part; a feature with one extreme row makes the two differ."""
    from sklearn.preprocessing import MinMaxScaler
    from sklearn.svm import SVC

    rng = np.random.default_rng(4)
    y = _y(40, 40)
    X = rng.normal(size=(80, 2))
    X[:, 0] += y
    X[0, 1] = 1e3  # one outlier: the global [0, 1] scaling squeezes column 1, a per-fit one may not
    (fold,) = make_splits(y, {"kind": "kp_svm", "train_size": 0.5, "n_resamples": 6, "fit_fraction": 0.6}, 2)
    campaign = {**CAMPAIGN, "normalization": {"method": "minmax_01", "scope": "global"},
                "final_classifier": {"linear": {"C": [1.0]}}}  # fmt: skip
    rec = run_select_job(X, y, fold, "svm_linear", {}, campaign, seed=0)
    Z = MinMaxScaler().fit_transform(X)
    expected = [float(np.mean(SVC(kernel="linear", C=1.0).fit(Z[r["fit"]], y[r["fit"]]).predict(Z[r["test"]]) == y[r["test"]]))
                for r in fold["evaluation"]]  # fmt: skip
    assert rec["leaky_normalization"] and rec["test_accuracy_resamples"] == pytest.approx(expected)


def test_inner_folds_scored_apart_and_merged_choose_what_one_tuning_chooses():
    """Issue 34 goal 3: a job's inner folds scored in separate parts (each through JSON, as files between
    jobs) and merged give :func:`tune_selector`'s choice, table and tie rule, for a ranking method read at
    several sizes and a grid where sizes tie (the smaller support wins)."""
    import json

    from svmfs.protocol.tuning import choose_candidate, inner_fold_scores

    rng = np.random.default_rng(7)
    y = _y(24, 24)
    X = rng.normal(size=(48, 6))
    X[:, 0] = y  # separates alone: several sizes reach the same accuracy
    X[:, 1] += 0.5 * y
    cv = inner_cv(y, 4, 3)
    grid = {"n_features_to_select": [6, 3, 2, 1]}
    whole = tune_selector(FisherScore, grid, "n_features_to_select", "linear", FINAL, X, y, cv)
    parts = [inner_fold_scores(FisherScore, grid, "n_features_to_select", "linear", FINAL, X, y, cv, folds=f) for f in ({3}, {0, 2}, {1})]
    merged = {k: v for part in parts for k, v in json.loads(json.dumps(part)).items()}  # keys come back as strings
    combined = choose_candidate(FisherScore, grid, "n_features_to_select", "linear", FINAL, X, merged)
    assert (combined.selector_params, combined.final_params) == (whole.selector_params, whole.final_params)
    assert combined.inner_accuracy == whole.inner_accuracy and combined.table == whole.table
    assert whole.selector_params["n_features_to_select"] == 1  # the tie went to the smallest support
    with pytest.raises(ValueError, match="inner folds 0-3 of 4: missing 1"):
        choose_candidate(FisherScore, grid, "n_features_to_select", "linear", FINAL, X, {k: v for k, v in merged.items() if k != "1"}, n_folds=4)


def _milp_fs_job():
    """A small MILP-FS select job (data, outer fold, method config) whose inner CV runs 3 folds x 3 C."""
    rng = np.random.default_rng(11)
    y = _y(36, 24)
    X = rng.normal(size=(60, 7))
    X[:, :3] += 0.7 * y[:, None]
    fold = make_splits(y, {"kind": "stratified_kfold", "n_splits": 3}, 2)[1]
    cfg = {"final": "own", "grid": {"C": [0.01, 1.0, 100.0]}, "params": {"B": 2, "M": 5.0, "node_limit": 200}}
    return X, y, fold, cfg


def test_a_milp_fs_job_from_its_inner_folds_run_apart_has_the_whole_jobs_record():
    """Issue 34 goal 3: MILP-FS's select job (final ``own``, both in-job audits) with step 3 done by one part
    per inner fold (:func:`run_inner_folds`, through JSON) gives the record of the job run whole, but for the
    tuning time (the parts' own)."""
    import json

    from svmfs.protocol.select_job import run_inner_folds

    X, y, fold, cfg = _milp_fs_job()
    campaign = {**CAMPAIGN, "audits": ["test_tuned", "global_scaling"]}
    whole = run_select_job(X, y, fold, "milp_fs", cfg, campaign, seed=4)
    parts = [json.loads(json.dumps(run_inner_folds(X, y, fold, "milp_fs", cfg, campaign, 4, [k]))) for k in range(3)]
    merged = {k: v for part in parts for k, v in part.items()}
    apart = run_select_job(X, y, fold, "milp_fs", cfg, campaign, seed=4, inner_scores=merged)
    timing = ("fit_time_s", "tune_time_s", "audit_test_tuned_time_s")
    same = [json.dumps({k: v for k, v in r.items() if k not in timing}, sort_keys=True) for r in (apart, whole)]
    assert same[0] == same[1]  # as text: NaN (inner_final_accuracy of ``own``) equals itself
    assert whole["n_selected"] <= 2 and whole["n_candidates"] == 3


def test_the_test_tuned_audit_from_parts_run_apart_is_the_whole_jobs(tmp_path):
    """Issue 34 goal 3 (``split_audit``): the ``test_tuned`` audit's candidates scored by parts of their own, per
    block of the C grid (:func:`run_audit_part`, before the nested choice is known, through JSON, in any order),
    merged by the select job with its nested choice, give the audit of the job run whole; a missing or repeated
    part is refused. A ranking method with a size grid and a final classifier's grid: every candidate's place."""
    import json

    from svmfs.protocol.select_job import audit_rows_from_parts, run_audit_part

    X, y, fold, cfg = _milp_fs_job()
    campaign = {**CAMPAIGN, "audits": ["test_tuned", "global_scaling"]}
    whole = run_select_job(X, y, fold, "milp_fs", cfg, campaign, seed=4)
    blocks = [{"C": [100.0]}, {"C": [0.01, 1.0]}]
    files = []
    for b, block in enumerate(blocks):
        rows = run_audit_part(X, y, fold, "milp_fs", cfg, campaign, 4, grid_block=block)
        assert sorted(r[0] for r in rows) == ([2] if b == 0 else [0, 1])  # the candidates' places in the whole grid
        files.append(tmp_path / f"audit-grid-{b}.json")
        files[-1].write_text(json.dumps({"audit_candidates": rows, "time_s": 2.0}))
    apart = run_select_job(X, y, fold, "milp_fs", {**cfg, "audit_from": files}, campaign, seed=4)
    timing = ("fit_time_s", "tune_time_s", "audit_test_tuned_time_s")
    same = [json.dumps({k: v for k, v in r.items() if k not in timing}, sort_keys=True) for r in (apart, whole)]
    assert same[0] == same[1] and whole["audit_test_tuned"]["n_candidates"] == 3
    assert apart["audit_test_tuned_time_s"] >= 4.0  # the parts' seconds
    with pytest.raises(ValueError, match="the parts' 2 candidates are not 0..2 once each"):
        run_select_job(X, y, fold, "milp_fs", {**cfg, "audit_from": files[1:]}, campaign, seed=4)
    with pytest.raises(ValueError, match="the parts' 4 candidates are not 0..2 once each"):
        run_select_job(X, y, fold, "milp_fs", {**cfg, "audit_from": files + files[:1]}, campaign, seed=4)

    fisher = {"grid": {"n_features_to_select": [1, 2, 4]}}  # sizes off one ranking, times the final grid's 3 C
    lin = {**CAMPAIGN, "audits": ["test_tuned"], "final_classifier": {"linear": {"C": [0.01, 1.0, 100.0]}}}
    whole = run_select_job(X, y, fold, "fisher", fisher, lin, seed=4)
    rows = run_audit_part(X, y, fold, "fisher", fisher, lin, 4)
    assert sorted(r[0] for r in rows) == list(range(9)) and audit_rows_from_parts([])[0] == []
    part = tmp_path / "audit.json"
    part.write_text(json.dumps({"audit_candidates": rows[::-1], "time_s": 1.0}))
    apart = run_select_job(X, y, fold, "fisher", {**fisher, "audit_from": [part]}, lin, seed=4)
    assert apart["audit_test_tuned"] == whole["audit_test_tuned"]
    assert apart["audit_test_tuned_accuracy"] == whole["audit_test_tuned_accuracy"] >= whole["test_accuracy"]


def test_a_milp_fs_job_from_blocks_of_its_grid_run_apart_has_the_whole_jobs_record(tmp_path):
    """Issue 34 goal 3 (``split_grid``): step 3 done by one part per inner fold and block of the C grid, the
    parts' files merged in any order (:func:`scores_from_parts`), gives the whole job's record; scores that lack
    a block, or hold one twice, are refused rather than chosen from."""
    import json

    from svmfs.protocol.select_job import run_inner_folds, scores_from_parts
    from svmfs.protocol.tuning import choose_candidate

    X, y, fold, cfg = _milp_fs_job()
    campaign = {**CAMPAIGN, "audits": ["test_tuned"]}
    whole = run_select_job(X, y, fold, "milp_fs", cfg, campaign, seed=4)
    blocks = [{"C": [100.0]}, {"C": [0.01, 1.0]}]  # the later C first: the merge restores the grid's order
    files = []
    for k in (2, 0, 1):
        for b, block in enumerate(blocks):
            scores = run_inner_folds(X, y, fold, "milp_fs", cfg, campaign, 4, [k], grid_block=block)
            assert {row[0] for row in scores[k]} == ({2} if b == 0 else {0, 1})
            files.append(tmp_path / f"inner-{k}-grid-{b}.json")
            files[-1].write_text(json.dumps({"scores": scores, "time_s": 1.0}))
    merged, seconds = scores_from_parts(files)
    assert seconds == 6.0
    apart = run_select_job(X, y, fold, "milp_fs", cfg, campaign, seed=4, inner_scores=merged)
    timing = ("fit_time_s", "tune_time_s", "audit_test_tuned_time_s")
    same = [json.dumps({k: v for k, v in r.items() if k not in timing}, sort_keys=True) for r in (apart, whole)]
    assert same[0] == same[1]
    from svmfs.methods.milp_fs import MILPFS

    make = MILPFS
    without = scores_from_parts([f for f in files if f.name != "inner-0-grid-0.json"])[0]
    with pytest.raises(ValueError, match="inner fold 0: {0: 1, 1: 1} rows by selector point; expected 1 for each of 0-2"):
        choose_candidate(make, cfg["grid"], None, "own", {}, X, without, n_folds=3)
    twice = scores_from_parts(files + files[:1])[0]
    with pytest.raises(ValueError, match="inner fold 2: {0: 1, 1: 1, 2: 2} rows by selector point"):
        choose_candidate(make, cfg["grid"], None, "own", {}, X, twice, n_folds=3)


def _whole_and_apart(tmp_path, X, y, fold, name, cfg, campaign, setting=None):
    """A select job run whole, and with its ``global_scaling`` audit run as a part of its own (through JSON)."""
    import json

    from svmfs.protocol.select_job import run_global_scaling_part

    whole = run_select_job(X, y, fold, name, cfg, campaign, seed=4, setting=setting)
    part = run_global_scaling_part(X, y, fold, name, cfg, campaign, 4, setting=setting)
    path = tmp_path / f"{name}-global-scaling.json"
    path.write_text(json.dumps(part))
    apart = run_select_job(X, y, fold, name, {**cfg, "global_scaling_from": path}, campaign, seed=4, setting=setting)

    def untimed(v):  # every seconds field, the solver's diagnostics' too
        return {k: untimed(x) for k, x in v.items() if not k.endswith("time_s")} if isinstance(v, dict) else v

    same = [json.dumps(untimed(r), sort_keys=True) for r in (apart, whole)]
    return whole, apart, part, same


def test_the_global_scaling_audit_run_apart_is_the_whole_jobs(tmp_path):
    """Issue 34 goal 3 (``split_global_scaling``): the ``global_scaling`` audit's refit as a part of its own, run
    before the job's nested choice is known, gives the job's audit fields: a linear method with a one-point grid
    scored on the kp_svm protocol's test-side resamples (the resamples' accuracies too), and MM-FS with the
    anisotropic final classifier whose C is the selector's own. Where the whole data's min-max scaling is the
    training side's (its extremes on the training side), the part leaves the refit to the job (step 4's fit)."""
    rng = np.random.default_rng(5)
    y = _y(36, 24)
    X = rng.normal(size=(60, 6))
    X[:, :2] += 0.9 * y[:, None]
    X[:, 5] *= 40.0  # a scale the z-scores of the fold and of all rows tell apart
    kp = make_splits(y, {"kind": "kp_svm", "train_size": 0.5, "n_resamples": 4}, 3)[0]
    lin = {**CAMPAIGN, "audits": ["global_scaling"], "final_classifier": {"linear": {"C": [1.0]}}}
    fisher = {"grid": {"n_features_to_select": [2]}}
    whole, apart, part, same = _whole_and_apart(tmp_path, X, y, kp, "fisher", fisher, lin)
    assert part["audit"] is not None and len(whole["audit_global_scaling_accuracy_resamples"]) == 4
    assert same[0] == same[1] and part["audit"]["audit_global_scaling_accuracy"] == whole["audit_global_scaling_accuracy"]

    fold = make_splits(y, {"kind": "stratified_kfold", "n_splits": 3}, 2)[1]
    aniso = {"normalization": {"method": "zscore", "scope": "fold"}, "inner_cv": {"n_splits": 3}, "audits": ["global_scaling"],
             "final_classifier": {"anisotropic": {"C": [1.0], "C_source": "selector", "widths": "all"}}}  # fmt: skip
    mm = {"params": {"C": 1.0, "gamma_ini": 0.1, "max_iter": 100}}
    Xo = X.copy()
    Xo[fold["test"][:2], 1] = -30.0  # two test-side outliers: the scaling of all rows shrinks the training side
    whole, apart, part, same = _whole_and_apart(tmp_path, Xo, y, fold, "mm_fs", mm, aniso, setting={"C2": 0.3})
    assert part["audit"] is not None and same[0] == same[1]
    audit = (whole["audit_global_scaling_accuracy"], whole["audit_global_scaling_n_selected"])
    assert audit != (whole["test_accuracy"], whole["n_selected"])  # so the part's equal numbers are the refit's

    Xm = X.copy()
    Xm[fold["train"][0]], Xm[fold["train"][1]] = 50.0, -50.0  # every column's extremes on the training side
    minmax = {**aniso, "normalization": {"method": "minmax_pm1", "scope": "fold"}}
    whole, apart, part, same = _whole_and_apart(tmp_path, Xm, y, fold, "mm_fs", mm, minmax, setting={"C2": 0.3})
    assert part["audit"] is None and same[0] == same[1]


def test_a_global_scaling_part_needs_the_nested_choice_before_the_job(tmp_path):
    """The part refits the nested choice, so it refuses a selector grid or a final classifier grid of more than one
    point, and the job refuses a part that refitted another point than the one it chose."""
    import json

    from svmfs.protocol.select_job import run_global_scaling_part

    X, y, fold, cfg = _milp_fs_job()
    campaign = {**CAMPAIGN, "audits": ["global_scaling"]}
    with pytest.raises(ValueError, match="split_global_scaling needs a selector grid and a final classifier grid of one point"):
        run_global_scaling_part(X, y, fold, "milp_fs", cfg, campaign, 4)
    with pytest.raises(ValueError, match="one point each"):
        run_global_scaling_part(X, y, fold, "fisher", {"grid": {"n_features_to_select": [2]}}, campaign, 4)  # 2 C
    one = {**cfg, "grid": {"C": [1.0]}}
    part = run_global_scaling_part(X, y, fold, "milp_fs", one, campaign, 4)
    part["selector_params"] = {"C": 100.0}
    path = tmp_path / "global-scaling.json"
    path.write_text(json.dumps(part))
    with pytest.raises(ValueError, match=r"the part refitted \{'C': 100.0\}, the job chose \{'C': 1.0\}"):
        run_select_job(X, y, fold, "milp_fs", {**one, "global_scaling_from": path}, campaign, seed=4)


def test_a_job_with_nothing_to_tune_runs_where_its_inner_folds_cannot_be_drawn():
    """An unstratified draw of a few training points can hold fewer of one class than the inner CV has folds
    (Catala & Martin's Table 5 at 25 points: 2 of one class). With nothing to choose (no selector grid, one final
    classifier point) the job runs and records no inner-CV estimate; with a grid to tune it still refuses."""
    rng = np.random.default_rng(2)
    y = _y(28, 4)
    X = rng.normal(size=(32, 5))
    X[:, 0] += y
    fold = {"fold": 0, "train": list(range(20)) + [28, 29], "test": list(range(20, 28)) + [30, 31]}  # 2 of class -1
    one = {**CAMPAIGN, "final_classifier": {"linear": {"C": [1.0]}}}
    rec = run_select_job(X, y, fold, "svm_linear", {}, one, seed=0)
    assert np.isnan(rec["inner_final_accuracy"]) and rec["final_params"] == {"C": 1.0} and 0.0 <= rec["test_accuracy"] <= 1.0
    with pytest.raises(ValueError, match=r"inner_cv.n_splits = 3 exceeds the smallest class on the training side \(2 samples\)"):
        run_select_job(X, y, fold, "svm_linear", {}, CAMPAIGN, seed=0)  # two C to choose from
