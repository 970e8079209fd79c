"""Multiclass datasets (docs/multiclass.md): labels kept as classes, the one-versus-rest merge, the native
multiclass filters, the multiclass metrics and the campaign check."""

import hashlib
import json
import math

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import mutual_info_score, roc_auc_score
from sklearn.svm import SVC

from svmfs.analysis.tables import summary_table
from svmfs.config import ConfigError, load_config, load_dataset_registry
from svmfs.data.canonical import DatasetError, check_dataset
from svmfs.data.registry import build_dataset, prepare_dataset
from svmfs.data.synthetic import class_per_feature
from svmfs.methods.fisher import FisherScore, fisher_scores, fisher_scores_multiclass
from svmfs.methods.info_gain import InfoGain, equal_frequency_bins, information_gain, information_gain_codes
from svmfs.methods.l1_svm import L1SVM
from svmfs.methods.one_vs_rest import OneVsRestSelector
from svmfs.methods.svm_rfe import SVMRFE
from svmfs.protocol.multiclass import macro_ovr_auc, multiclass_metrics
from svmfs.protocol.select_job import run_select_job
from svmfs.protocol.splits import make_splits


def _problem(n=90, p=12, seed=0):
    X, y, relevant = class_per_feature(n=n, p=p, n_classes=3, shift=3.0, seed=seed)
    return X, y, relevant


# --- the merge ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("base", [SVMRFE(n_features_to_select=1), FisherScore(n_features_to_select=1)],
                         ids=["svm_rfe", "fisher"])  # fmt: skip
def test_union_keeps_the_feature_of_every_class(base):
    """Class c is driven by feature c alone: each per-class selector at size 1 keeps its class's feature, and
    the union keeps all three (a merge by one pooled score at size 1 would keep one of them)."""
    X, y, relevant = _problem()
    sel = OneVsRestSelector(base).fit(X, y)
    assert [np.flatnonzero(m).tolist() for m in sel.per_class_support_] == [[0], [1], [2]]
    assert np.flatnonzero(sel.get_support()).tolist() == relevant
    assert sel.per_class_selected() == {"0": [0], "1": [1], "2": [2]}
    # the merged ranking: ranking_ <= k is the union of the per-class top-k sets, at every k
    for k in (1, 2, 4):
        union = np.any([e.support_for_size(k) for e in sel.estimators_], axis=0)
        np.testing.assert_array_equal(sel.support_for_size(k), union)
        np.testing.assert_array_equal(sel.ranking_ <= k, union)


def test_union_of_a_non_ranking_selector_and_the_validation_labels():
    X, y, _ = _problem()
    sel = OneVsRestSelector(L1SVM(C=1.0)).fit(X, y)
    np.testing.assert_array_equal(sel.get_support(), sel.per_class_support_.any(axis=0))
    assert sel.get_support()[:3].all() and sel.diagnostics_["status"] == "ok"
    assert [d["class"] for d in sel.diagnostics_["per_class"]] == [0, 1, 2]


def test_two_classes_fit_the_binary_selector_once():
    X, y, _ = _problem()
    keep = y < 2
    one = SVMRFE(n_features_to_select=2).fit(X[keep], y[keep])
    meta = OneVsRestSelector(SVMRFE(n_features_to_select=2)).fit(X[keep], y[keep])
    assert len(meta.estimators_) == 1
    np.testing.assert_array_equal(meta.get_support(), one.get_support())
    np.testing.assert_array_equal(meta.ranking_, one.ranking_)


def test_binary_selectors_refuse_three_classes_and_the_filters_take_them():
    X, y, _ = _problem()
    with pytest.raises(ValueError, match="exactly two classes"):
        SVMRFE(n_features_to_select=1).fit(X, y)
    for sel in (FisherScore(n_features_to_select=3), InfoGain(n_features_to_select=3)):
        assert np.flatnonzero(sel.fit(X, y).get_support()).tolist() == [0, 1, 2]
        assert sel.__sklearn_tags__().classifier_tags.multi_class
    assert not SVMRFE().__sklearn_tags__().classifier_tags.multi_class


# --- the native multiclass filters --------------------------------------------------------------------------


def test_fisher_multiclass_is_the_between_over_within_class_variance_ratio():
    X, y, _ = _problem(n=30, p=4)
    by_hand = []
    for j in range(X.shape[1]):
        x, mu = X[:, j], X[:, j].mean()
        between = sum(np.sum(y == k) * (x[y == k].mean() - mu) ** 2 for k in range(3))
        within = sum(np.sum((x[y == k] - x[y == k].mean()) ** 2) for k in range(3))
        by_hand.append(between / within)
    np.testing.assert_allclose(fisher_scores_multiclass(X, y), by_hand, rtol=1e-12)
    np.testing.assert_allclose(FisherScore().fit(X, y).scores_, by_hand, rtol=1e-12)


def test_two_class_filters_keep_their_binary_scores():
    X, y, _ = _problem()
    keep = y < 2
    ypm = np.where(y[keep] == 1, 1, -1)
    np.testing.assert_array_equal(FisherScore().fit(X[keep], y[keep]).scores_, fisher_scores(X[keep], ypm))
    np.testing.assert_array_equal(InfoGain().fit(X[keep], y[keep]).scores_, information_gain(X[keep], ypm))


def test_information_gain_multiclass_is_the_mutual_information_in_bits():
    """Two routes: H(Y) - H(Y | B) over the three classes against scikit-learn's mutual information (nats)."""
    X, y, _ = _problem()
    ours = information_gain_codes(X, y, 3, n_bins=5)
    theirs = [mutual_info_score(y, equal_frequency_bins(X[:, j], 5)) / math.log(2) for j in range(X.shape[1])]
    np.testing.assert_allclose(ours, theirs, atol=1e-12)
    assert set(np.argsort(-ours)[:3].tolist()) == {0, 1, 2}


# --- metrics ------------------------------------------------------------------------------------------------


def test_macro_ovr_auc_agrees_with_scikit_learn_on_probabilities():
    rng = np.random.default_rng(1)
    y = np.arange(40) % 3
    prob = rng.dirichlet(np.ones(3), size=40)
    prob[np.arange(40), y] += 0.3
    prob /= prob.sum(1, keepdims=True)
    expected = roc_auc_score(y, prob, multi_class="ovr", average="macro")
    assert macro_ovr_auc(y, prob, [0, 1, 2]) == pytest.approx(expected, abs=1e-12)


def test_balanced_accuracy_by_hand_equals_the_record_and_the_table():
    """A select job on a 3-class fold: the final classifier refitted by hand on the recorded selection and final
    C, its per-class recalls averaged by hand, equal the record's balanced accuracy and the summary's."""
    X, y, relevant = _problem(n=60, p=8)
    campaign = {"normalization": {"method": "none"}, "inner_cv": {"n_splits": 3},
                "final_classifier": {"linear": {"C": [0.1, 1.0]}}}  # fmt: skip
    folds = make_splits(y, {"kind": "stratified_kfold", "n_splits": 3}, seed=3)
    rows, by_hand = [], []
    for fold in folds:
        rec = run_select_job(X, y, fold, "svm_rfe", {"grid": {"C": [0.1], "n_features_to_select": [1, 2]}, "final": "linear"},
                             campaign, seed=5, relevant=relevant)  # fmt: skip
        assert rec["n_classes"] == 3 and set(rec["per_class_selected"]) == {"0", "1", "2"}
        assert rec["selected"] == sorted(set().union(*rec["per_class_selected"].values()))
        tr, te = np.asarray(fold["train"]), np.asarray(fold["test"])
        cols = rec["selected"]
        pred = SVC(kernel="linear", C=rec["final_params"]["C"]).fit(X[tr][:, cols], y[tr]).predict(X[te][:, cols])
        recalls = [np.mean(pred[y[te] == k] == k) for k in range(3)]
        by_hand.append(float(np.mean(recalls)))
        assert rec["test_balanced_accuracy"] == pytest.approx(by_hand[-1], abs=1e-12)
        assert rec["test_accuracy"] == pytest.approx(float(np.mean(pred == y[te])), abs=1e-12)
        rows.append({**rec, "dataset": "cpf", "setting": "default"})
    table = summary_table(pd.DataFrame(rows))
    assert table["balanced_accuracy_mean"].iloc[0] == pytest.approx(100 * np.mean(by_hand), abs=1e-9)


def test_multiclass_metrics_by_hand():
    y = np.array([0, 0, 0, 1, 1, 2])
    pred = np.array([0, 1, 1, 1, 1, 2])
    m = multiclass_metrics(y, pred, np.eye(3)[pred])
    assert m["accuracy"] == pytest.approx(4 / 6)
    assert m["balanced_accuracy"] == pytest.approx((1 / 3 + 1 + 1) / 3)


# --- data and config ----------------------------------------------------------------------------------------


def _local_csv(tmp_path, labels: dict | None):
    rng = np.random.default_rng(0)
    lines = ["g1,g2,tissue"] + [f"{rng.normal():.6f},{rng.normal():.6f},{t}" for t in ["a", "b", "c"] * 4]
    path = tmp_path / "three.csv"
    path.write_text("\n".join(lines) + "\n")
    entry = {"kind": "local", "path": str(path), "sha256": hashlib.sha256(path.read_bytes()).hexdigest(), "format": "csv",
             "read": {"label_column": "tissue"}}  # fmt: skip
    if labels is not None:
        entry["labels"] = labels
    return entry


def _campaign(entry, **extra):
    return {"campaign": "mc", "registry_entries": {"three": entry}, "datasets": {"three": {}},
            "splits": {"kind": "stratified_kfold", "n_splits": 2}, "inner_cv": {"n_splits": 2},
            "methods": {"fisher": {"grid": {"n_features_to_select": [1]}}}, **extra}  # fmt: skip


def test_three_classes_without_positive_stay_multiclass_and_with_positive_binary(tmp_path, write_config, root, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for labels, y, counts in [
        (None, [0, 1, 2] * 4, {"a": 4, "b": 4, "c": 4}),
        ({"positive": ["a"], "negative": "rest"}, [1, -1, -1] * 4, {"-1": 8, "+1": 4}),
    ]:
        cfg = load_config(write_config(_campaign(_local_csv(tmp_path, labels))), workdir=root)
        entry = load_dataset_registry(cfg, root)["three"]
        ds = prepare_dataset("three", entry, tmp_path / "o" / "three.npz", tmp_path / "o" / "three.json")
        assert ds.y.tolist() == y and ds.class_counts == counts


def test_wine_is_multiclass_and_its_positive_asks_the_binary_question():
    ds = check_dataset(build_dataset("wine", {"kind": "embedded", "loader": "sklearn_wine"}))
    assert ds.class_counts == {"class_0": 59, "class_1": 71, "class_2": 48}
    one = check_dataset(build_dataset("wine", {"kind": "embedded", "loader": "sklearn_wine"}, {"positive": "class_1"}))
    assert sorted(set(one.y.tolist())) == [-1, 1] and one.class_counts == {"-1": 107, "+1": 71}


def test_two_classes_still_need_positive(tmp_path):
    path = tmp_path / "two.csv"
    path.write_text("g1,t\n" + "".join(f"{i}.5,{'ab'[i % 2]}\n" for i in range(6)))
    entry = {"kind": "local", "format": "csv", "read": {"label_column": "t", "files": [str(path)]},
             "files": [{"path": str(path), "sha256": hashlib.sha256(path.read_bytes()).hexdigest()}]}  # fmt: skip
    with pytest.raises(DatasetError, match="labels.positive: the label value"):
        build_dataset("two", entry)


def test_canonical_multiclass_labels_must_be_codes():
    from svmfs.data.canonical import Dataset

    X = np.arange(12.0).reshape(6, 2)
    ds = Dataset("d", X, np.array([0, 1, 2, 0, 1, 2]), ["a", "b"], [str(i) for i in range(6)])
    assert check_dataset(ds).class_counts == {"0": 2, "1": 2, "2": 2}
    with pytest.raises(DatasetError, match=r"3 classes must be the codes 0..2"):
        check_dataset(Dataset("d", X, np.array([1, 2, 3, 1, 2, 3]), ["a", "b"], [str(i) for i in range(6)]))


def test_config_refuses_own_final_and_too_many_folds_on_a_multiclass_dataset(write_config, root):
    base = {"campaign": "mc", "datasets": {"class_per_feature": {"params": {"n": 30, "p": 6}}},
            "splits": {"kind": "stratified_kfold", "n_splits": 3}, "inner_cv": {"n_splits": 2}}  # fmt: skip
    load_config(write_config({**base, "methods": {"l1_svm": {}}}), workdir=root)
    with pytest.raises(ConfigError, match=r"methods.l1_svm.final: 'own' .* dataset 'class_per_feature' has 3 classes"):
        load_config(write_config({**base, "methods": {"l1_svm": {"final": "own"}}}), workdir=root)
    with pytest.raises(ConfigError, match=r"splits.n_splits = 12 exceeds the smallest class of dataset 'class_per_feature' \(10\)"):
        load_config(write_config({**base, "splits": {"kind": "stratified_kfold", "n_splits": 12}, "methods": {"l1_svm": {}}}),
                    workdir=root)  # fmt: skip


# --- a tiny 3-class campaign end to end ---------------------------------------------------------------------

TINY_MC = {
    "campaign": "tiny_mc",
    "seed": 7,
    "datasets": {"class_per_feature": {"params": {"n": 60, "p": 10}}},
    "splits": {"kind": "stratified_kfold", "n_splits": 3},
    "inner_cv": {"n_splits": 3},
    "final_classifier": {"linear": {"C": [0.1, 1.0]}, "rbf": {"C": [1.0, 10.0], "gamma": [1.0]}},
    "methods": {
        "fisher": {"grid": {"n_features_to_select": [1, 3]}},
        "svm_rfe": {"grid": {"C": [0.1], "n_features_to_select": [1, 3]}},
        "l1_svm": {},
    },
}


@pytest.mark.workflow
def test_tiny_three_class_campaign_end_to_end(tmp_path):
    from test_workflow import snakemake

    snakemake(tmp_path, "--cores", "2", config=TINY_MC)
    out = tmp_path / "results" / "tiny_mc"
    rec = pd.read_parquet(out / "records.parquet")
    assert len(rec) == 3 * 3 and set(rec["status"]) == {"ok"} and set(rec["n_classes"]) == {3}
    assert rec["test_auc"].notna().all() and rec["test_balanced_accuracy"].notna().all()
    ovr = rec[rec["method"] != "fisher"]  # the binary selectors ran one versus rest, fisher took the classes itself
    assert ovr["per_class_selected"].notna().all() and rec.loc[rec["method"] == "fisher", "per_class_selected"].isna().all()
    rfe = rec[rec["method"] == "svm_rfe"]
    assert all(sorted(set(s) & {0, 1, 2}) == [0, 1, 2] for s in rfe["selected"].map(json.loads))
    summary = pd.read_csv(out / "tables" / "summary.csv")
    assert len(summary) == 3 and summary["balanced_accuracy_mean"].notna().all() and summary["auc_mean"].notna().all()
    for m, g in rec.groupby("method"):
        row = summary[summary["method"] == m].iloc[0]
        assert row["balanced_accuracy_mean"] == pytest.approx(100 * g["test_balanced_accuracy"].mean(), rel=1e-9)
    assert "**Multiclass**: class_per_feature (3 classes)" in (out / "tables" / "summary.md").read_text()
    assert (out / "tables" / "stability.csv").exists() and (out / "tables" / "friedman.csv").exists()
