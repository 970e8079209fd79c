"""Selection-bias audits (campaign key ``audits``): test_tuned, global_selection, global_scaling, the
optimism table, and what switching them on reruns."""

import copy
import functools
import json

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn.model_selection import StratifiedKFold
from sklearn.svm import SVC

from svmfs.analysis.optimism import COLUMNS, optimism_table, read_audit_records, t_interval, write_optimism
from svmfs.config import ConfigError, global_selection_methods, job_campaign_config, load_config
from svmfs.protocol.audits import run_global_selection, tune_on_test_side
from svmfs.protocol.normalize import normalize_fold
from svmfs.protocol.select_job import run_select_job

CAMPAIGN = {
    "normalization": {"method": "zscore", "scope": "fold"},
    "inner_cv": {"n_splits": 3},
    "final_classifier": {"linear": {"C": [0.01, 0.1, 1.0]}},
}


def _folds(y, k, seed=0):
    skf = StratifiedKFold(k, shuffle=True, random_state=seed)
    return [{"fold": i, "train": tr.tolist(), "test": te.tolist()} for i, (tr, te) in enumerate(skf.split(np.zeros(len(y)), y))]


@pytest.fixture(scope="module")
def weak_signal():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(60, 40))
    y = np.where(X[:, 0] + 0.7 * X[:, 1] + 1.5 * rng.normal(size=60) > 0, 1, -1)
    return X, y


METHOD_CASES = {
    "fisher": {"grid": {"n_features_to_select": [2, 5, 10, 40]}},  # ranking: sizes read off one ranking
    "svm_rfe": {"grid": {"C": [0.1, 1.0], "n_features_to_select": [2, 5, 10]}},  # ranking with a grid
    "l1_svm": {"grid": {"C": [0.1, 1.0]}},  # no ranking
    "svm_linear": {},  # nothing to choose for the selector: the final C only
}


@pytest.mark.parametrize("method", sorted(METHOD_CASES))
def test_test_tuned_is_never_below_nested_on_any_fold(weak_signal, method):
    """The nested choice is one of the candidates, so the best test accuracy over them is >= its own."""
    X, y = weak_signal
    camp = {**CAMPAIGN, "audits": ["test_tuned"]}
    gaps = []
    for fold in _folds(y, 4):
        rec = run_select_job(X, y, fold, method, METHOD_CASES[method], camp, seed=11 + fold["fold"])
        assert rec["audit_test_tuned_accuracy"] >= rec["test_accuracy"]
        audit = rec["audit_test_tuned"]
        assert audit["n_candidates"] >= 3 and set(audit) == {"selector_params", "final_params", "n_selected", "n_candidates"}
        gaps.append(rec["audit_test_tuned_accuracy"] - rec["test_accuracy"])
    if method in ("fisher", "svm_rfe"):  # many candidates on a weak signal: tuning on the test side pays
        assert max(gaps) > 0


def test_test_tuned_is_the_best_candidate_by_brute_force(weak_signal):
    """Fisher scores x sizes x final C: every candidate refitted by hand on the training side and scored on
    the test side; the audit reports their maximum and one of its maximisers."""
    from svmfs.methods.fisher import FisherScore

    X, y = weak_signal
    sizes, Cs = METHOD_CASES["fisher"]["grid"]["n_features_to_select"], CAMPAIGN["final_classifier"]["linear"]["C"]
    for fold in _folds(y, 4)[:2]:
        rec = run_select_job(X, y, fold, "fisher", METHOD_CASES["fisher"], {**CAMPAIGN, "audits": ["test_tuned"]}, seed=5)
        tr, te = np.asarray(fold["train"]), np.asarray(fold["test"])
        Xtr, Xte, _ = normalize_fold(X, tr, te, "zscore")
        ranking = FisherScore(n_features_to_select=None).fit(Xtr, y[tr]).ranking_
        accs = {}
        for k in sizes:
            sup = ranking <= k
            for C in Cs:
                accs[(k, C)] = float(np.mean(SVC(kernel="linear", C=C).fit(Xtr[:, sup], y[tr]).predict(Xte[:, sup]) == y[te]))
        best = max(accs.values())
        assert rec["audit_test_tuned_accuracy"] == pytest.approx(best)
        chosen = rec["audit_test_tuned"]
        assert accs[(chosen["selector_params"]["n_features_to_select"], chosen["final_params"]["C"])] == pytest.approx(best)
        assert rec["audit_test_tuned"]["n_candidates"] == len(sizes) * len(Cs)


class _Ranker:
    """A stand-in ranking selector: feature j has rank j + 1."""

    def __init__(self, n_features_to_select=None, shift=0):
        self.shift = shift

    def fit(self, X, y):
        self.ranking_ = np.arange(1, X.shape[1] + 1)
        return self

    def support_for_size(self, k):
        return self.ranking_ <= k

    def get_support(self):
        return np.ones(self.ranking_.size, dtype=bool)


def test_test_tuned_ties_go_to_the_smaller_selection_then_the_earlier_grid_point():
    X, y = np.zeros((6, 8)), np.array([0, 1] * 3)
    make = lambda **p: _Ranker(**p)  # noqa: E731
    cfg = {"linear": {"C": [1.0, 2.0, 3.0]}}
    nested = {"selector_params": {"shift": 9, "n_features_to_select": 99}, "final_params": {}, "accuracy": 0.0, "n_selected": 0}
    # every candidate scores the same: the smallest size wins, then the first shift and the first C
    flat = tune_on_test_side(make, {"shift": [0, 1], "n_features_to_select": [8, 2, 5]}, "n_features_to_select", "linear", cfg, X, y,
                             lambda fp, sup, sel: 0.5, nested)  # fmt: skip
    assert flat["selector_params"] == {"shift": 0, "n_features_to_select": 2} and flat["final_params"] == {"C": 1.0}
    assert flat["n_candidates"] == 2 * 3 * 3
    # equal accuracy at sizes 5 and 8 with C = 3 only: the smaller size; at one size, the earlier C
    score = lambda fp, sup, sel: 0.9 if sup.sum() in (5, 8) and fp["C"] >= 2.0 else 0.1  # noqa: E731
    best = tune_on_test_side(make, {"n_features_to_select": [8, 5]}, "n_features_to_select", "linear", cfg, X, y, score, nested)
    assert best["selector_params"] == {"n_features_to_select": 5} and best["final_params"] == {"C": 2.0} and best["accuracy"] == 0.9


def test_global_selection_is_optimistic_on_pure_noise_and_nested_is_not():
    """Ambroise & McLachlan (2002): 2000 noise features, 40 samples, no signal. Selecting 10 features on all
    samples and cross-validating only the classifier reports far above chance; the nested CV stays near 50 %."""
    rng = np.random.default_rng(1)
    X, y = rng.normal(size=(40, 2000)), np.repeat([-1, 1], 20)
    folds = _folds(y, 10, seed=1)
    camp = {**CAMPAIGN, "final_classifier": {"linear": {"C": [1.0]}}}
    cfg = {"grid": {"n_features_to_select": [10]}}
    rec = run_global_selection(X, y, folds, "fisher", cfg, camp, seed=2, fold_seeds=[100 + k for k in range(10)])
    assert [f["fold"] for f in rec["folds"]] == list(range(10)) and rec["n_selected"] == 10
    global_acc = np.mean([f["accuracy"] for f in rec["folds"]])
    nested_acc = np.mean([run_select_job(X, y, f, "fisher", cfg, camp, seed=100 + f["fold"])["test_accuracy"] for f in folds])
    assert global_acc >= 0.8
    assert nested_acc <= 0.75
    assert global_acc - nested_acc >= 0.2


def test_global_selection_refuses_own_and_match_size_of():
    X, y = np.random.default_rng(0).normal(size=(20, 5)), np.repeat([-1, 1], 10)
    with pytest.raises(ValueError, match="own"):
        run_global_selection(X, y, _folds(y, 2), "l1_svm", {"final": "own"}, CAMPAIGN, 1, [1, 2])
    with pytest.raises(ValueError, match="match_size_of"):
        run_global_selection(X, y, _folds(y, 2), "m", {"method": "svm_rfe", "match_size_of": "fisher"}, CAMPAIGN, 1, [1, 2])


def test_global_scaling_audit_refits_the_nested_choice_with_a_scaler_on_all_rows(weak_signal):
    X, y = weak_signal
    X = X * np.linspace(1, 50, X.shape[1]) + 3.0
    fold = _folds(y, 4)[0]
    base = run_select_job(X, y, fold, "l1_svm", METHOD_CASES["l1_svm"], CAMPAIGN, seed=3)
    rec = run_select_job(X, y, fold, "l1_svm", METHOD_CASES["l1_svm"], {**CAMPAIGN, "audits": ["global_scaling"]}, seed=3)
    assert "audit_test_tuned_accuracy" not in rec and "audit_global_scaling_accuracy" not in base
    assert rec["test_accuracy"] == base["test_accuracy"]  # the nested result does not change
    assert 0.0 <= rec["audit_global_scaling_accuracy"] <= 1.0 and rec["audit_global_scaling_n_selected"] >= 1
    glob = run_select_job(X, y, fold, "l1_svm", METHOD_CASES["l1_svm"],
                          {**CAMPAIGN, "normalization": {"method": "zscore", "scope": "global"}}, seed=3)  # fmt: skip
    if glob["selector_params"] == base["selector_params"] and glob["final_params"] == base["final_params"]:
        assert rec["audit_global_scaling_accuracy"] == glob["test_accuracy"]  # same choice: the global-scope run


def _count_fits(monkeypatch, cls):
    """Every call of ``cls.fit`` with the keyword arguments it got."""
    calls = []
    orig = cls.fit

    @functools.wraps(orig)  # keeps the signature: the select job asks it whether fit takes validation points
    def fit(self, X, y, **kw):
        calls.append((X.shape, sorted(kw)))
        return orig(self, X, y, **kw)

    monkeypatch.setattr(cls, "fit", fit)
    return calls


def test_global_scaling_audit_reuses_the_fit_when_its_inputs_are_the_same_bit_for_bit(weak_signal, monkeypatch):
    """Min-max scaling whose whole-data extremes lie on the training side scales the training side the same either
    way: the audit takes step 4's fit instead of repeating it (issue 34, goal 3), with the result a refit would give;
    z-scores (or an extreme on the test side) still refit."""
    from svmfs.methods.l1_svm import L1SVM

    X, y = weak_signal
    fold = _folds(y, 4)[0]
    tr, te = np.asarray(fold["train"]), np.asarray(fold["test"])
    inside = X.copy()
    inside[te] = np.clip(X[te], X[tr].min(axis=0), X[tr].max(axis=0))  # no test value beyond the training range
    camp = {**CAMPAIGN, "normalization": {"method": "minmax_pm1", "scope": "fold"}, "audits": ["global_scaling"]}
    n_tune = len(METHOD_CASES["l1_svm"]["grid"]["C"]) * CAMPAIGN["inner_cv"]["n_splits"]
    for data, scaling, refits in ((inside, "minmax_pm1", 0), (X, "minmax_pm1", 1), (inside, "zscore", 1)):
        calls = _count_fits(monkeypatch, L1SVM)
        c = {**camp, "normalization": {"method": scaling, "scope": "fold"}}
        rec = run_select_job(data, y, fold, "l1_svm", METHOD_CASES["l1_svm"], c, seed=3)
        assert len(calls) == n_tune + 1 + refits, (scaling, refits)
        monkeypatch.undo()
        if not refits:  # the same scaler on every row: the audit is the nested result itself
            assert rec["audit_global_scaling_accuracy"] == rec["test_accuracy"]
            assert rec["audit_global_scaling_n_selected"] == rec["n_selected"]


def test_global_scaling_audit_refit_takes_the_validation_points_as_the_fit_does(monkeypatch):
    """A selector with a validation stop (dFSA, Catala & Martin section 5.2) gets its validation points, scaled on
    all rows, in the audit's refit too: the refit repeats the nested choice, stopping rule included."""
    from svmfs.methods.dfsa import DFSA

    rng = np.random.default_rng(5)
    X = rng.normal(size=(90, 6))
    y = np.where(X[:, 0] * X[:, 1] > 0, 1, -1)
    fold = {"fold": 0, "train": list(range(50)), "validation": list(range(50, 70)), "test": list(range(70, 90))}
    camp = {**CAMPAIGN, "final_classifier": {"poly": {"C": [1.0], "degree": [2]}}, "audits": ["global_scaling"]}
    calls = _count_fits(monkeypatch, DFSA)
    run_select_job(X, y, fold, "dfsa_poly2", {"params": {"validation_rule": "first_drop"}}, camp, seed=1)
    whole = [kw for shape, kw in calls if shape[0] == 50]
    assert whole == [["validation"], ["validation"]]  # step 4's fit and the audit's refit (z-scores differ)


# ---- optimism table -------------------------------------------------------------------------------


def _fixture_records(tmp_path):
    """Hand-made records: one method on one dataset, 3 folds; test_tuned in the select records, a
    global_selection record, and a second method without audits."""
    nested, tuned, glob = [0.70, 0.80, 0.90], [0.80, 0.80, 1.00], [0.90, 1.00, 0.95]
    paths = []
    for k in range(3):
        for method, extra in (("m1", {"audit_test_tuned_accuracy": tuned[k]}), ("m2", {})):
            rec = {"dataset": "d", "method": method, "setting": "default", "fold": k, "test_accuracy": nested[k], **extra}
            p = tmp_path / f"{method}-{k}.json"
            p.write_text(json.dumps(rec))
            paths.append(p)
    g = tmp_path / "global.json"
    g.write_text(json.dumps({"dataset": "d", "method": "m1", "setting": "default",
                             "folds": [{"fold": k, "accuracy": glob[k]} for k in range(3)]}))  # fmt: skip
    return paths, [g], nested, tuned, glob


def test_optimism_table_columns_means_and_paired_t_intervals(tmp_path):
    paths, gpaths, nested, tuned, glob = _fixture_records(tmp_path)
    table = optimism_table(read_audit_records(paths, gpaths))
    assert list(table.columns) == COLUMNS == [
        "dataset", "method", "setting", "protocol", "n", "accuracy_mean", "accuracy_ci_low", "accuracy_ci_high",
        "optimism_mean", "optimism_ci_low", "optimism_ci_high", "n_selected_mean", "n_selected_ci_low",
        "n_selected_ci_high", "group",
    ]  # fmt: skip
    assert list(zip(table["method"], table["protocol"])) == [
        ("m1", "nested"), ("m1", "test_tuned"), ("m1", "global_selection"), ("m2", "nested")]  # fmt: skip
    r = table.set_index(["method", "protocol"])
    t = stats.t.ppf(0.975, 2)
    nest = r.loc[("m1", "nested")]
    assert nest["n"] == 3 and nest["accuracy_mean"] == pytest.approx(80.0)
    assert nest["accuracy_ci_low"] == pytest.approx(80.0 - t * 10.0 / np.sqrt(3))  # sd of 70, 80, 90 is 10
    assert (nest["optimism_mean"], nest["optimism_ci_low"], nest["optimism_ci_high"]) == (0.0, 0.0, 0.0)
    tt = r.loc[("m1", "test_tuned")]  # differences 10, 0, 10 points
    d = np.array([10.0, 0.0, 10.0])
    assert tt["accuracy_mean"] == pytest.approx(np.mean(tuned) * 100)
    assert tt["optimism_mean"] == pytest.approx(d.mean())
    assert tt["optimism_ci_high"] == pytest.approx(d.mean() + t * d.std(ddof=1) / np.sqrt(3))
    gs = r.loc[("m1", "global_selection")]  # differences 20, 20, 5
    assert gs["optimism_mean"] == pytest.approx(15.0) and gs["n"] == 3
    assert gs["optimism_ci_low"] < 15.0 < gs["optimism_ci_high"]


def test_optimism_pairs_by_fold(tmp_path):
    """An audit missing a fold is compared on the folds both have."""
    folds = pd.DataFrame(
        [("d", "m", "default", k, "nested", a) for k, a in enumerate([0.5, 0.6, 0.7])]
        + [("d", "m", "default", k, "test_tuned", a) for k, a in ((0, 0.6), (2, 0.9))],
        columns=["dataset", "method", "setting", "fold", "protocol", "accuracy"],
    )
    row = optimism_table(folds).set_index("protocol").loc["test_tuned"]
    assert row["n"] == 2 and row["optimism_mean"] == pytest.approx(15.0)  # (10 + 20) / 2


def test_replicates_are_pooled_by_group_paired_within_replicate_with_features_kept(tmp_path):
    """Two replicates of one example (``dataset_group``): a pooled row under the group's name pairs each
    fold with the same replicate's fold (fold numbers repeat across replicates), and every row carries the
    features each protocol kept (test_tuned from its audit record, global_selection from the global record)."""
    nested = {"g-r0": [0.6, 0.7], "g-r1": [0.8, 0.9]}
    tuned = {"g-r0": [0.7, 0.7], "g-r1": [1.0, 0.9]}
    paths = []
    for ds in nested:
        for k in range(2):
            rec = {"dataset": ds, "dataset_group": "g", "method": "m", "setting": "default", "fold": k,
                   "test_accuracy": nested[ds][k], "n_selected": 4 + k,
                   "audit_test_tuned_accuracy": tuned[ds][k], "audit_test_tuned": {"n_selected": 2}}  # fmt: skip
            paths.append(tmp_path / f"{ds}-{k}.json")
            paths[-1].write_text(json.dumps(rec))
    g = tmp_path / "global.json"
    g.write_text(json.dumps({"dataset": "g-r1", "method": "m", "setting": "default", "n_selected": 7,
                             "folds": [{"fold": k, "accuracy": 0.95} for k in range(2)]}))  # fmt: skip
    table = optimism_table(read_audit_records(paths, [g])).set_index(["dataset", "protocol"])
    assert set(table.index.get_level_values(0)) == {"g", "g-r0", "g-r1"}
    assert (table["group"] == "g").all()
    pooled = table.loc[("g", "test_tuned")]
    d = 100 * (np.concatenate(list(tuned.values())) - np.concatenate(list(nested.values())))  # 10, 0, 20, 0
    assert pooled["n"] == 4 and pooled["optimism_mean"] == pytest.approx(d.mean())
    assert pooled["optimism_ci_high"] == pytest.approx(d.mean() + stats.t.ppf(0.975, 3) * d.std(ddof=1) / 2)
    assert table.loc[("g", "nested"), "accuracy_mean"] == pytest.approx(75.0)
    assert table.loc[("g", "nested"), "n_selected_mean"] == pytest.approx(4.5)
    assert table.loc[("g", "test_tuned"), ["n_selected_mean", "n_selected_ci_low"]].tolist() == [2.0, 2.0]
    glob = table.loc[("g", "global_selection")]  # only g-r1 ran it: paired with g-r1's folds alone
    assert glob["n"] == 2 and glob["optimism_mean"] == pytest.approx(10.0) and glob["n_selected_mean"] == 7
    assert table.loc[("g-r0", "test_tuned"), "optimism_mean"] == pytest.approx(5.0)


def test_t_interval_edge_cases():
    assert t_interval([0.5])[0] == 0.5 and np.isnan(t_interval([0.5])[1])
    assert t_interval([2.0, 2.0, 2.0]) == (2.0, 2.0, 2.0)


def test_write_optimism_writes_csv_md_and_figure(tmp_path):
    paths, gpaths, *_ = _fixture_records(tmp_path)
    out = {k: tmp_path / f"optimism.{k}" for k in ("csv", "md", "png", "pdf")}
    write_optimism(read_audit_records(paths, gpaths), out, ["test_tuned", "global_selection"])
    assert pd.read_csv(out["csv"]).columns.tolist() == COLUMNS
    md = out["md"].read_text()
    assert "global_selection" in md and "0 (reference)" in md
    assert out["png"].read_bytes()[:4] == b"\x89PNG" and out["pdf"].stat().st_size > 0


# ---- config and rerun semantics ---------------------------------------------------------------------

BASE = {
    "campaign": "t",
    "datasets": {"mit_example1": {"params": {"n": 40, "p": 30, "k0": 3, "rho": 0.2}}},
    "splits": {"kind": "stratified_kfold", "n_splits": 3},
    "inner_cv": {"n_splits": 3},
    "methods": {
        "fisher": {"grid": {"n_features_to_select": [2, 3]}},
        "l1": {"method": "l1_svm", "final": "own"},
        "rfe_matched": {"method": "svm_rfe", "match_size_of": "fisher"},
    },
}


def _load(tmp_path, root, **change):
    cfg = {**copy.deepcopy(BASE), **change}
    path = tmp_path / "c.yaml"
    import yaml

    path.write_text(yaml.safe_dump(cfg))
    return load_config(path, workdir=root)


def test_audits_default_off_and_select_params_unchanged(tmp_path, root):
    off = _load(tmp_path, root)
    assert off["audits"] == []
    params_off = job_campaign_config(off, "mit_example1", "fisher")
    assert "audits" not in params_off
    only_global = _load(tmp_path, root, audits=["global_selection"])
    assert job_campaign_config(only_global, "mit_example1", "fisher") == params_off  # no select job reruns
    on = _load(tmp_path, root, audits=["global_scaling", "test_tuned"])
    assert job_campaign_config(on, "mit_example1", "fisher")["audits"] == ["test_tuned", "global_scaling"]
    assert global_selection_methods(on, "mit_example1") == []
    assert global_selection_methods(only_global, "mit_example1") == ["fisher"]  # not own, not match_size_of


def test_audits_config_errors(tmp_path, root):
    with pytest.raises(ConfigError, match="global_scaling"):
        _load(tmp_path, root, audits=["global_scaling"], normalization={"method": "zscore", "scope": "global"})
    with pytest.raises(ConfigError, match="audits"):
        _load(tmp_path, root, audits=["test_on_everything"])


@pytest.mark.workflow
@pytest.mark.e2e
def test_switching_audits_on_reruns_only_what_it_must(tmp_path):
    """Audits off -> on: global_selection alone adds its own jobs and the optimism table, no select job
    reruns; test_tuned (computed in the select job) reruns the select jobs, as documented."""
    from test_reruns import _copy_workflow, _run, planned

    wd = _copy_workflow(tmp_path)
    cfg = copy.deepcopy(BASE)
    cfg["methods"] = {"fisher": BASE["methods"]["fisher"]}
    _run(wd, cfg, "--cores", "2")
    assert planned(wd, cfg) == []
    jobs = planned(wd, {**cfg, "audits": ["global_selection"]})
    assert {r for r, _ in jobs} == {"audit_global", "optimism", "all"}
    assert {r for r, _ in planned(wd, {**cfg, "audits": ["test_tuned"]}) if r == "select"} == {"select"}


def test_one_kp_svm_split_pairs_its_audit_by_resample(tmp_path):
    """One split of the kp_svm protocol: nested and global_scaling are paired resample by resample (same fit
    and evaluation rows), so the audit gets an interval; without the audit's resamples, the split stays one unit."""
    per = [0.70, 0.72, 0.75, 0.71, 0.74]
    gs = [0.72, 0.73, 0.78, 0.71, 0.77]
    base = {"dataset": "pima", "method": "svm_linear", "setting": "default", "fold": 0,
            "test_accuracy": float(np.mean(per)), "test_accuracy_resamples": per,
            "audit_global_scaling_accuracy": float(np.mean(gs))}  # fmt: skip
    p = tmp_path / "r.json"
    p.write_text(json.dumps({**base, "audit_global_scaling_accuracy_resamples": gs}))
    r = optimism_table(read_audit_records([p], [])).set_index("protocol")
    d = 100 * (np.array(gs) - np.array(per))
    t = stats.t.ppf(0.975, 4)
    assert r.loc["nested", "n"] == 5 and r.loc["global_scaling", "n"] == 5
    assert r.loc["global_scaling", "optimism_mean"] == pytest.approx(d.mean())
    assert r.loc["global_scaling", "optimism_ci_low"] == pytest.approx(d.mean() - t * d.std(ddof=1) / np.sqrt(5))
    assert r.loc["nested", "accuracy_mean"] == pytest.approx(100 * np.mean(per))
    p.write_text(json.dumps(base))  # the audit's resamples missing: one unit, as before
    r = optimism_table(read_audit_records([p], [])).set_index("protocol")
    assert r.loc["nested", "n"] == 1 and r.loc["global_scaling", "n"] == 1 and np.isnan(r.loc["global_scaling", "accuracy_ci_low"])


def test_one_kp_svm_split_pairs_global_selection_by_resample_or_not_at_all(tmp_path):
    """The global_selection audit of one kp_svm split is paired with the nested job resample by resample
    where its record keeps the resamples; an older record without them keeps the split one unit (its mean
    against the nested mean), never its mean against resample 0 alone."""
    per = [0.70, 0.72, 0.75, 0.71, 0.74]
    glob = [0.80, 0.79, 0.85, 0.81, 0.83]
    p = tmp_path / "r.json"
    p.write_text(json.dumps({"dataset": "colon", "method": "kp_svm", "setting": "default", "fold": 0,
                             "test_accuracy": float(np.mean(per)), "test_accuracy_resamples": per}))  # fmt: skip
    g = tmp_path / "g.json"
    fold = {"fold": 0, "accuracy": float(np.mean(glob))}
    g.write_text(json.dumps({"dataset": "colon", "method": "kp_svm", "setting": "default", "n_selected": 20,
                             "folds": [{**fold, "accuracy_resamples": glob}]}))  # fmt: skip
    r = optimism_table(read_audit_records([p], [g])).set_index("protocol")
    d = 100 * (np.array(glob) - np.array(per))
    assert r.loc["global_selection", "n"] == 5 and r.loc["global_selection", "optimism_mean"] == pytest.approx(d.mean())
    assert r.loc["global_selection", "accuracy_ci_low"] < 100 * np.mean(glob) < r.loc["global_selection", "accuracy_ci_high"]
    g.write_text(json.dumps({"dataset": "colon", "method": "kp_svm", "setting": "default", "n_selected": 20, "folds": [fold]}))
    r = optimism_table(read_audit_records([p], [g])).set_index("protocol")
    assert r.loc["nested", "n"] == 1 and r.loc["global_selection", "n"] == 1
    assert r.loc["global_selection", "optimism_mean"] == pytest.approx(100 * (np.mean(glob) - np.mean(per)))
