"""The reproduction table from a fixed records fixture: exact values, statuses, and the report."""

import json

import numpy as np
import pandas as pd
import pytest

from svmfs.analysis.reproduction import published, reproduction_markdown, reproduction_table, reproduction_latex


#: WDBC's names (scikit-learn's copy) of the fixture's selected features 20, 21, 24, 27 (0-based)
NAMES = ["worst radius", "worst texture", "worst smoothness", "worst concave points"]


def _records():
    """Two folds of colon for svm_linear and fs_svmcp and two settings of mm_fs on wdbc."""
    rows = []
    for fold, (acc_svm, acc_fs, nsel) in enumerate([(0.75, 0.5, 10), (1.0, 0.75, 12)]):
        rows.append(dict(dataset="colon", dataset_group="colon", method="svm_linear", setting="default", fold=fold,
                         status="ok", test_accuracy=acc_svm, train_accuracy=1.0, n_selected=2000, selected=list(range(2000)),
                         recall_relevant=np.nan, exact_relevant=None))  # fmt: skip
        rows.append(dict(dataset="colon", dataset_group="colon", method="fs_svmcp", setting="default", fold=fold,
                         status="ok" if fold == 0 else "max_iter", test_accuracy=acc_fs, train_accuracy=0.9,
                         n_selected=nsel, selected=[0, 5], recall_relevant=np.nan, exact_relevant=None))  # fmt: skip
    # gamma per fold (0-based features): fold 0: 24 > 20 > 21; fold 1: 24 > 21 > 20 > 27; the rest 0
    gammas = [{24: 5.0, 20: 3.0, 21: 2.0}, {24: 4.0, 21: 3.0, 20: 2.0, 27: 1.0}]
    for setting, acc in (("C2-0.1", 0.9), ("C2-0.7", 0.95)):
        for fold in range(2):
            scores = [gammas[fold].get(j, 0.0) for j in range(30)]
            rows.append(dict(dataset="wdbc", dataset_group="wdbc", method="mm_fs", setting=setting, fold=fold, status="ok",
                             test_accuracy=acc, train_accuracy=1.0, n_selected=len(gammas[fold]),
                             selected="[20, 21, 24, 27]" if fold else [20, 21, 24],
                             scores=str(scores) if fold else scores,
                             selected_names=json.dumps(NAMES) if fold else NAMES[:3],
                             recall_relevant=np.nan, exact_relevant=None))  # fmt: skip
    for setting, accs in (("C2-0.1", (0.5, 0.75)), ("C2-0.5", (0.75, 0.75))):  # KP-FS on colon: no published number
        for fold, acc in enumerate(accs):
            rows.append(dict(dataset="colon", dataset_group="colon", method="kp_fs_offshelf", setting=setting, fold=fold,
                             status="ok", test_accuracy=acc, train_accuracy=acc, n_selected=0, selected=[],
                             recall_relevant=np.nan, exact_relevant=None))  # fmt: skip
    frame = pd.DataFrame(rows)
    frame.loc[frame.method != "mm_fs", ["scores", "selected_names"]] = None
    return frame


def _row(frame, **key):
    mask = np.logical_and.reduce([frame[k] == v for k, v in key.items()])
    assert mask.sum() == 1, key
    return frame[mask].iloc[0]


def test_rinaldi_rows_from_the_fixture():
    t = reproduction_table(_records(), ["rinaldi2010"])
    assert len(t) == sum(e["paper"] == "rinaldi2010" for e in published()["entries"])
    r = _row(t, table="Tables 1-2", dataset="colon", method="svm_linear", metric="test_accuracy")
    assert (r.published, r.ours, r.runs, r.status) == (88.33, 87.5, 2, "reproduced")
    assert r.difference == pytest.approx(87.5 - 88.33) and r.ours_sd == pytest.approx(np.std([75, 100], ddof=1))
    r = _row(t, table="Tables 1-2", dataset="colon", method="fs_svmcp", metric="n_selected")
    assert (r.published, r.ours, r.failures) == (9.3, 11.0, 1)
    assert _row(t, table="Tables 1-2", dataset="duke", method="fs_svmcp", metric="test_accuracy").status == "not run: dataset not in campaign"
    assert _row(t, table="Tables 3-4", dataset="colon", method="rfe_svm_matched").status == "not run: method not in campaign"
    assert pd.isna(_row(t, table="Table 5", dataset="colon", setting="n_features_to_select-20").ours)


def test_best_setting_and_top_features():
    t = reproduction_table(_records(), ["jimenez2021"])
    r = _row(t, table="Table 2", dataset="wdbc", method="mm_fs")
    assert (r.setting, r.ours, r.published) == ("C2-0.7", 95.0, 97.35) and "published C2 = 0.7" in r.note
    r = _row(t, table="Table 3", dataset="wdbc", method="mm_fs", setting="C2-0.7")
    # section 4.2: ranks by gamma per fold, averaged: 25 (1, 1), 21 and 22 (2.5), 28 (mean of 4 and the
    # zeros' shared rank 17 in fold 0), then the zeros by index -> 25 21 22 28 1; published 21 22 25 29 28
    assert (r.ours, r.published, r.difference) == ("25 21 22 28 1", "21 22 25 29 28", "4/5 shared")
    # Table 4 names the features (Table 3 too): the names the records carry; 1 was never selected
    assert r.note.endswith("ours named: 25 worst smoothness, 21 worst radius, 22 worst texture, 28 worst concave points, 1 (not selected)")
    # without scores: the features selected most often (21, 22, 25 twice, 28 once)
    t_sel = reproduction_table(_records().drop(columns="scores"), ["jimenez2021"])
    assert _row(t_sel, table="Table 3", dataset="wdbc", method="mm_fs", setting="C2-0.7").ours == "21 22 25 28"
    assert "named" not in str(_row(reproduction_table(_records().drop(columns="selected_names"), ["jimenez2021"]),
                                    table="Table 4", dataset="wdbc", method="mm_fs").note)
    assert _row(t, table="Table 2", dataset="wdbc", method="kp_fs_adhoc").status == "not run: method not in campaign"
    # Table 4: the literature's three features against our top 5 at the best C2
    r = _row(t, table="Table 4", dataset="wdbc", method="mm_fs")
    assert (r.setting, r.published, r.difference) == ("C2-0.7", "21 22 28", "3/3 shared")
    assert r.note.startswith("literature (Ref. [14]): radius_worst, texture_worst, concave_points_worst; ours: C2-0.7; ours named: 25 worst smoothness, 21 worst radius")
    assert _row(t, table="Table 2", dataset="lymphoma", method="kp_fs_offshelf").status == "published without a number"
    # colon: the paper has no number (stopped at 24 h); ours is shown, best over C2, with no difference
    r = _row(t, table="Table 2", dataset="colon", method="kp_fs_offshelf")
    assert (r.setting, r.ours, r.status) == ("C2-0.5", 75.0, "ours only: published without a number") and pd.isna(r.difference)
    # mm_fs ran on wdbc, not on colon (a dataset's skip_methods): said so, not "not in campaign"
    assert _row(t, table="Table 2", dataset="colon", method="mm_fs").status == "not run: method skipped on this dataset"


def test_report_names_protocol_differences_and_counts():
    t = reproduction_table(_records(), ["rinaldi2010"])
    md = reproduction_markdown(t, "fixture")
    assert "Rinaldi, M. Sciandrone (2010)" in md and "z-scored per training fold" in md
    assert f"{(t.status == 'reproduced').sum()} of {len(t)} published numbers reproduced" in md
    assert "| colon | svm_linear | default | test_accuracy | 88.33 | 87.50 ± 17.68 | -0.83 | reproduced |" in md


def test_unknown_paper_is_an_error():
    with pytest.raises(ValueError, match="unknown paper"):
        reproduction_table(_records(), ["nature2030"])


def test_every_published_entry_is_well_formed():
    pub = published()
    metrics = {"test_accuracy", "train_accuracy", "test_error", "recall", "exact_rate", "n_selected", "top5_features"}
    for e in pub["entries"]:
        assert e["paper"] in pub["papers"] and e["metric"] in metrics, e
        assert e.get("value") is not None or e.get("note"), e
    assert {p: sum(e["paper"] == p for e in pub["entries"]) for p in pub["papers"]} == {
        "rinaldi2010": 9 * 6 + 9 + 6, "jimenez2021": 7 * 4 + 4 * 11 + 4, "mit9520": 10 * 3 * 2 + 2 * 3 * 2,
        "catala_martin": 3 * 3 + 7 * 5 * 2 + 4 + 3 + 20 * 2 * 4, "maldonado2011": 4 * 3 + 4 * 5,
    }


def test_latex_has_one_booktabs_table_per_published_table():
    t = reproduction_table(_records(), ["rinaldi2010"])
    tex = reproduction_latex(t)
    assert tex.count(r"\begin{table}") == t.groupby(["paper", "table"]).ngroups == tex.count(r"\toprule")
    assert r"colon & svm\_linear & default & test\_accuracy & 88.33 & 87.50 $\pm$ 17.68 & -0.83 & reproduced \\" in tex
    assert "rinaldi2010, Tables 1-2" in tex


def test_table3_ranks_the_scores_kept_in_the_parquet_store(tmp_path):
    """The select job's JSON record -> merged parquet store (scores kept; not in the CSV) -> Table 3."""
    from svmfs.results.record import read_records, write_record, write_store

    paths = []
    for fold, top in enumerate((7, 3)):
        scores = [0.0] * 30
        scores[top], scores[20], scores[0] = float("inf") if fold else 9.0, 1.0, 0.5  # inf: "inf" in the JSON
        rec = {"campaign": "c", "dataset": "wdbc", "dataset_group": "wdbc", "method": "mm_fs", "setting": "C2-0.7",
               "fold": fold, "status": "ok", "test_accuracy": 0.9, "selected": [0, top, 20], "scores": scores}  # fmt: skip
        write_record(rec, tmp_path / f"{fold}.json", tmp_path / f"{fold}.parquet")
        paths.append(tmp_path / f"{fold}.json")
    write_store(read_records(paths), tmp_path / "store.parquet", tmp_path / "store.csv")
    assert "scores" not in pd.read_csv(tmp_path / "store.csv").columns
    t = reproduction_table(pd.read_parquet(tmp_path / "store.parquet"), ["jimenez2021"])
    # 1-based: 21 second in both folds (mean rank 2), 1 third (3), 4 and 8 first in one fold and in the
    # zeros' shared rank 17 in the other (9 each; tie by index). The selection count would give 1 21 4 8.
    ours = _row(t, table="Table 3", dataset="wdbc", method="mm_fs", setting="C2-0.7").ours
    assert ours.split()[:4] == ["21", "1", "4", "8"]
