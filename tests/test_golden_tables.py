"""Golden files: a small fixed records fixture gives exactly the expected summary tables.

Regenerate after an intended change with ``SVMFS_UPDATE_GOLDEN=1 pytest tests/test_golden_tables.py``
and review the diff; the hand-checked values below must hold either way.
"""

import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from svmfs.analysis.tables import write_summary
from svmfs.results.record import flat_row

GOLDEN = Path(__file__).parent / "golden"


def fixture_records() -> pd.DataFrame:
    rows = []
    spec = [  # dataset, method, setting, fold, status, test acc, n_selected, recall, fit time
        ("toy", "fisher", "default", 0, "ok", 0.75, 2, 0.5, 0.01),
        ("toy", "fisher", "default", 1, "ok", 1.00, 3, 1.0, 0.02),
        ("toy", "mm_fs", "C2-0.5", 0, "max_iter", 0.50, 1, 0.5, 1.5),
        ("toy", "mm_fs", "C2-0.5", 1, "ok", 1.00, 2, 1.0, 2.5),
        ("wide", "fisher", "default", 0, "ok", 0.80, 5, None, 0.03),
        ("wide", "fisher", "default", 1, "time_limit", 0.60, 5, None, 0.05),
    ]
    for ds, m, s, k, status, acc, nsel, rec, t in spec:
        r = {"campaign": "golden", "dataset": ds, "dataset_group": ds, "method": m, "registry_method": m, "setting": s,
             "fold": k, "final_classifier": "linear", "status": status, "message": "", "n_train": 8, "n_test": 4,
             "n_features_total": 4 if ds == "toy" else 10, "n_selected": nsel, "train_accuracy": 1.0, "test_accuracy": acc,
             "test_balanced_accuracy": acc, "test_auc": min(1.0, acc + 0.1), "leaky_normalization": False,
             "selected": list(range(nsel)), "fit_time_s": t, "tune_time_s": 2 * t}  # fmt: skip
        if rec is not None:
            r.update(n_relevant=2, recall_relevant=rec, exact_relevant=rec == 1.0)
        if m == "mm_fs":
            r["kernel_widths"] = [0.5] * nsel + [0.0] * (4 - nsel)
        rows.append(flat_row(r))
    return pd.DataFrame(rows)


NAMES = ("summary.csv", "summary.md", "summary.tex", "timing.csv")


def test_summary_tables_match_the_golden_files(tmp_path):
    paths = [tmp_path / n for n in NAMES]
    write_summary(fixture_records(), *paths)
    if os.environ.get("SVMFS_UPDATE_GOLDEN"):
        GOLDEN.mkdir(exist_ok=True)
        for p in paths:
            (GOLDEN / p.name).write_bytes(p.read_bytes())
    for p in paths:
        assert p.read_bytes() == (GOLDEN / p.name).read_bytes(), p.name


def test_hand_checked_values_of_the_golden_summary():
    s = pd.read_csv(GOLDEN / "summary.csv").set_index(["dataset", "method"])
    assert s.loc[("toy", "fisher"), "test_accuracy_mean"] == 87.5
    assert s.loc[("toy", "fisher"), "test_accuracy_sd"] == pytest.approx(np.std([75, 100], ddof=1))
    assert s.loc[("toy", "mm_fs"), "failures"] == 1 and s.loc[("wide", "fisher"), "failures"] == 1
    assert s.loc[("toy", "mm_fs"), "kernel_width_l1_mean"] == pytest.approx((0.5 + 1.0) / 2)
    assert s.loc[("toy", "fisher"), "exact_relevant_rate"] == 0.5 and np.isnan(s.loc[("wide", "fisher"), "recall_relevant_mean"])
    md = (GOLDEN / "summary.md").read_text()
    assert "| toy       | mm_fs (C2-0.5) | 75.00 ± 35.36" in md and "| 1/2        |" in md
    assert r"87.50 $\pm$ 17.68" in (GOLDEN / "summary.tex").read_text()


def test_non_finite_numbers_survive_json_and_parquet(tmp_path):
    """A fold that selects nothing has precision NaN; a failed solver an objective NaN: the JSON
    record spells them as strings, the store must read them back as numbers (parquet needs a type)."""
    from svmfs.results.record import read_records, write_record, write_store

    rec = {"campaign": "c", "dataset": "d", "method": "m", "setting": "default", "fold": 0, "status": "time_limit",
           "message": "nan", "n_selected": 0, "precision_relevant": float("nan"), "objective": float("inf"),
           "test_accuracy": 0.5, "selected": []}  # fmt: skip
    ok = {**rec, "fold": 1, "status": "ok", "message": "", "precision_relevant": 0.5, "objective": 1.0}
    paths = []
    for r in (rec, ok):
        write_record(r, tmp_path / f"{r['fold']}.json", tmp_path / f"{r['fold']}.parquet")
        paths.append(tmp_path / f"{r['fold']}.json")
    df = read_records(paths)
    assert np.isnan(df.loc[0, "precision_relevant"]) and df.loc[0, "objective"] == np.inf
    assert df.loc[0, "message"] == "nan"  # text stays text
    write_store(df, tmp_path / "store.parquet", tmp_path / "store.csv")
    back = pd.read_parquet(tmp_path / "store.parquet")
    assert back["precision_relevant"].dtype == float and np.isnan(back.loc[0, "precision_relevant"])


def test_a_stand_in_campaign_heads_its_tables(tmp_path):
    """With ``stand_in`` the Markdown table starts with it and the LaTeX caption names it; the numbers are the same."""
    paths = [tmp_path / n for n in NAMES]
    write_summary(fixture_records(), *paths, stand_in="text_like for 20_newsgroups")
    md = paths[1].read_text()
    assert md.startswith("**Stand-in data:** text_like for 20_newsgroups\n\n")
    assert md.split("\n\n", 1)[1] == (GOLDEN / "summary.md").read_text()
    assert "Stand-in data: text\\_like for 20\\_newsgroups" in paths[2].read_text()
    assert paths[0].read_bytes() == (GOLDEN / "summary.csv").read_bytes()
