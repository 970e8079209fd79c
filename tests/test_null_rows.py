"""REPRODUCTION.md's null-label rows (svmfs.analysis.null_rows): they read the committed null-label tables,
each row's permuted-label accuracy is the table's (a changed table changes the row), the fold accuracies
committed beside a table give its numbers again, and the paper's choice on the test folds (best setting, best
run) is made again on each permutation."""

import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from svmfs.analysis.null_rows import (
    COLUMNS,
    NULL_DIR,
    OVERLAYS,
    campaign_null_rows,
    null_rows,
    null_rows_section,
)

ROOT = Path(__file__).resolve().parents[1]
COMMITTED = sorted(p.parents[1] for p in (ROOT / "reproduction").glob("*/tables/null_labels.csv"))
KEY = ["dataset", "method", "setting", "protocol"]


def _folder(tmp_path: Path) -> Path:
    """A committed-campaign folder: two settings of one method, two permutations of two outer folds each."""
    f = tmp_path / "camp_paper"
    (f / "tables").mkdir(parents=True)
    (f / NULL_DIR).mkdir()
    (f / "config.yaml").write_text(yaml.safe_dump({"campaign": "camp_paper", "protocol": {"kind": "paper"}}))
    head = "paper,table,dataset,method,setting,metric,published,runs,key\n"
    (f / "tables" / "reproduction.csv").write_text(
        head + "p,Table 1,d,m,C-1,test_accuracy,90.0,2,p|Table 1|d|m|test_accuracy||\n"
        "jimenez2021,Table 2,d,m,C-2,test_accuracy,95.0,2,jimenez2021|Table 2|d|m|test_accuracy||best_setting\n"
        "p,Table 1,d,m,C-1,n_selected,5,2,p|Table 1|d|m|n_selected||\n"
    )
    folds = pd.DataFrame({
        "perm": [0, 0, 0, 0, 1, 1, 1, 1], "dataset": "d", "method": "m",
        "setting": ["C-1", "C-1", "C-2", "C-2"] * 2, "protocol": "nested", "fold": [0, 1] * 4,
        "accuracy": [0.5, 0.6, 0.7, 0.4, 0.4, 0.5, 0.5, 0.8],
    })  # fmt: skip
    folds.to_csv(f / NULL_DIR / "folds.csv", index=False)
    table = pd.DataFrame({"dataset": ["d", "d"], "method": ["m", "m"], "setting": ["C-1", "C-2"],
                          "protocol": "nested", "n": 2, "accuracy_mean": [50.0, 60.0], "accuracy_ci_low": [0.0, 0.0],
                          "accuracy_ci_high": [100.0, 100.0], "balanced_accuracy_mean": [50.0, 60.0],
                          "chance": [55.0, 55.0], "accuracy_real": [88.0, 91.0]})  # fmt: skip
    table.to_csv(f / "tables" / "null_labels.csv", index=False)
    records = pd.DataFrame({"dataset": "d", "method": "m", "setting": ["C-1", "C-1", "C-2", "C-2"],
                            "fold": [0, 1, 0, 1], "test_accuracy": [0.9, 0.86, 0.95, 0.87], "n_test": 100})  # fmt: skip
    records.to_parquet(f / "records.parquet")
    return f


def test_a_row_per_judged_accuracy_with_the_tables_number_and_the_best_setting_made_again(tmp_path):
    rows = campaign_null_rows(_folder(tmp_path))
    assert list(rows.columns) == COLUMNS
    plain = rows[rows["protocol"] == "nested"].iloc[0]
    assert (plain["table"], plain["setting"], plain["published"], plain["real"], plain["null"], plain["chance"]) == (
        "Table 1", "C-1", 90.0, 88.0, 50.0, 55.0)
    best = rows[rows["protocol"] == "nested, best setting"].iloc[0]
    # pooled (the paper's rule), equal test sides: permutation 0: C-1 55, C-2 55 -> 55; permutation 1: C-1 45,
    # C-2 65 -> 65; real: C-1 88, C-2 91 -> 91
    assert best["null"] == pytest.approx(60.0) and best["real"] == pytest.approx(91.0) and best["permutations"] == 2
    assert len(rows) == 2  # n_selected is no accuracy: no row


def test_the_best_setting_pools_the_counts_where_the_paper_does(tmp_path):
    """jimenez2021 pools the correct counts over the folds (sheet row J21): unequal test sides weigh them."""
    f = _folder(tmp_path)
    pd.read_parquet(f / "records.parquet").assign(n_test=[100, 300, 100, 300]).to_parquet(f / "records.parquet")
    best = campaign_null_rows(f).query("protocol == 'nested, best setting'").iloc[0]
    # permutation 0: C-1 (50 + 180) / 400, C-2 (70 + 120) / 400 -> 57.5; permutation 1: C-1 (40 + 150) / 400,
    # C-2 (50 + 240) / 400 -> 72.5; real: C-1 (90 + 258) / 400 = 87, C-2 (95 + 261) / 400 = 89 (the mean of the
    # folds' accuracies would give 57.5 and 65 on the permutations, 91 on the real labels)
    assert best["null"] == pytest.approx((57.5 + 72.5) / 2) and best["real"] == pytest.approx(89.0)


def test_a_changed_table_changes_the_row(tmp_path):
    f = _folder(tmp_path)
    t = pd.read_csv(f / "tables" / "null_labels.csv")
    t.loc[0, "accuracy_mean"] = 73.5
    t.to_csv(f / "tables" / "null_labels.csv", index=False)
    assert campaign_null_rows(f).iloc[0]["null"] == 73.5


def test_an_error_row_is_100_less_each_accuracy(tmp_path):
    f = _folder(tmp_path)
    t = (f / "tables" / "reproduction.csv").read_text().replace("C-1,test_accuracy,90.0", "C-1,test_error,10.0")
    (f / "tables" / "reproduction.csv").write_text(t)
    row = campaign_null_rows(f).query("metric == 'test_error'").iloc[0]
    assert (row["published"], row["real"], row["null"], row["chance"]) == (10.0, 12.0, 50.0, 45.0)
    assert (row["null_ci_low"], row["null_ci_high"]) == (0.0, 100.0)


def test_the_best_run_is_chosen_on_each_permutation(tmp_path):
    f = _folder(tmp_path)
    (f / "config.yaml").write_text(yaml.safe_dump({"protocol": {"kind": "paper", "judged_by_best_run": ["Table 1"]}}))
    best = campaign_null_rows(f).query("protocol == 'nested, best run'").iloc[0]
    assert best["null"] == pytest.approx((60.0 + 50.0) / 2) and best["real"] == pytest.approx(90.0)


def test_committed_null_label_tables_are_what_reproduction_md_reads():
    """Every committed campaign with a null-label table has its overlay, its fold accuracies give the table's
    numbers again (mean over the outer folds, then over the permutations), and REPRODUCTION.md's rows hold the
    table's numbers."""
    assert COMMITTED, "no committed null-label table under reproduction/*/tables/"
    rows = null_rows(ROOT / "reproduction")
    for folder in COMMITTED:
        assert all((ROOT / "config" / "campaigns" / f).exists() for f in OVERLAYS[folder.name])
        table = pd.read_csv(folder / "tables" / "null_labels.csv")
        folds = pd.read_csv(folder / NULL_DIR / "folds.csv")
        again = folds.groupby([*KEY, "perm"])["accuracy"].mean().groupby(KEY).mean() * 100.0
        got = table.set_index(KEY)["accuracy_mean"]
        assert np.allclose(again.loc[got.index].to_numpy(), got.to_numpy(), atol=1e-6)
        mine = rows[(rows["campaign"] == folder.name) & ~rows["protocol"].str.contains(",")]
        assert not mine.empty, folder.name
        merged = mine.merge(table, on=KEY)
        sign = np.where(merged["metric"] == "test_error", -1.0, 1.0)  # an error row: 100 less the accuracy
        shift = np.where(merged["metric"] == "test_error", 100.0, 0.0)
        assert len(merged) == len(mine) and np.allclose(merged["null"], shift + sign * merged["accuracy_mean"])
        assert np.allclose(merged["real"], shift + sign * merged["accuracy_real"], equal_nan=True)


def test_the_section_lists_every_committed_campaign(tmp_path):
    section = "\n".join(null_rows_section(ROOT / "reproduction"))
    for folder in COMMITTED:
        assert f"`{folder.name}`" in section and " ".join(f"config/campaigns/{f}" for f in OVERLAYS[folder.name]) in section
    shutil.copytree(_folder(tmp_path), tmp_path / "root" / "camp_paper")
    assert "| `camp_paper` | p | Table 1 | d | m | test_accuracy | nested | 90.00 | 88.00 | 50.00 [0.00, 100.00] | 55.00 | 2 |" in (
        "\n".join(null_rows_section(tmp_path / "root")))


def test_each_overlays_chain_is_the_layouts_chain():
    from svmfs.config import campaign_chain

    for files in OVERLAYS.values():
        chain = [str(p.resolve().relative_to(ROOT / "config" / "campaigns")) for p in campaign_chain(ROOT / "config" / "campaigns" / files[-1])]
        assert chain == list(files)
