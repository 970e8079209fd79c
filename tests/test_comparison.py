"""The campaign-level comparison (rule statistics): Demsar's worked example fed through a summary table."""

import numpy as np
import pandas as pd
import pytest

from svmfs.analysis.comparison import comparison_tables, score_matrix, write_comparison
from test_statistics import DEMSAR


def demsar_summary() -> pd.DataFrame:
    """Demsar's Table 6 as a campaign summary: datasets d00..d13, each C4.5 variant a method."""
    long = DEMSAR.assign(dataset=[f"d{i:02d}" for i in range(len(DEMSAR))]).melt(
        id_vars="dataset", var_name="method", value_name="auc_mean"
    )
    return long.assign(setting="default", test_accuracy_mean=100 * long["auc_mean"])


def test_demsar_example_through_the_summary_table():
    friedman, ranks, wilcoxon, cd = comparison_tables(demsar_summary(), metric="auc_mean", alpha=0.10)
    row = friedman.iloc[0]
    assert (row["n_datasets"], row["n_methods"]) == (14, 4)
    assert row["chi2_f"] == pytest.approx(9.28, abs=5e-3) and row["iman_davenport_f"] == pytest.approx(3.69, abs=5e-3)
    assert cd == pytest.approx(1.12, abs=5e-3) and row["note"] == ""
    # rank order and Nemenyi groups at alpha .10: {m+cf, m, cf} and {cf, C4.5}
    assert ranks["method"].tolist() == ["C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5"]
    assert ranks["average_rank"].round(3).tolist() == [1.964, 2.0, 2.893, 3.143]
    assert ranks["nemenyi_groups"].tolist() == ["a", "a", "a b", "b"]
    assert len(wilcoxon) == 6 and (wilcoxon["pvalue_holm"] >= wilcoxon["pvalue"]).all()


def test_settings_are_competitors_and_incomplete_datasets_are_named():
    s = demsar_summary()
    extra = s[s["method"] == "C4.5"].assign(setting="k=5", test_accuracy_mean=50.0)
    s = pd.concat([s, extra]).reset_index(drop=True)
    s.loc[(s["dataset"] == "d03") & (s["setting"] == "k=5"), "test_accuracy_mean"] = np.nan
    scores, dropped, not_run = score_matrix(s)
    assert "C4.5 (k=5)" in scores.columns and scores.shape == (13, 5) and dropped == ["d03"] and not_run == []
    friedman, ranks, *_ = comparison_tables(s)
    assert "d03" in friedman["note"].iloc[0] and ranks["method"].iloc[-1] == "C4.5 (k=5)"


def test_competitor_not_run_on_a_dataset_is_left_out_not_the_dataset():
    """A dataset's ``skip_methods`` leaves no summary row: that competitor goes, the 14 datasets stay."""
    s = demsar_summary()
    extra = s[s["method"] == "C4.5"].assign(setting="k=5", test_accuracy_mean=50.0)
    s = pd.concat([s, extra[extra["dataset"] != "d03"]]).reset_index(drop=True)
    scores, dropped, not_run = score_matrix(s)
    assert scores.shape == (14, 4) and dropped == [] and not_run == ["C4.5 (k=5)"]
    friedman, ranks, *_ = comparison_tables(s, metric="auc_mean", alpha=0.10)
    assert friedman["n_datasets"].iloc[0] == 14 and "C4.5 (k=5)" not in set(ranks["method"])
    assert friedman["chi2_f"].iloc[0] == pytest.approx(9.28, abs=5e-3)  # Demsar's test, unchanged
    assert "left out (not run on every dataset): C4.5 (k=5)" in friedman["note"].iloc[0]


def test_one_dataset_is_not_tested_but_says_why(tmp_path):
    s = demsar_summary()
    s = s[s["dataset"] == "d00"]
    friedman, ranks, wilcoxon, cd = comparison_tables(s)
    assert np.isnan(cd) and ranks.empty and wilcoxon.empty
    assert "1 complete dataset(s)" in friedman["note"].iloc[0]


def test_unknown_metric_names_the_key():
    with pytest.raises(ValueError, match=r"statistics\.metric.*no_such"):
        comparison_tables(demsar_summary(), metric="no_such")


def test_outputs_are_byte_identical(tmp_path):
    stab = pd.DataFrame(
        {"dataset": ["d00", "d00"], "method": ["a", "b"], "setting": ["default"] * 2,
         "nogueira": [0.8, np.nan], "nogueira_ci_low": [0.7, np.nan], "nogueira_ci_high": [0.9, np.nan]}
    )  # fmt: skip
    digests = []
    for run in ("1", "2"):
        out = {k: tmp_path / run / f"{k}.{'png' if 'png' in k else 'pdf' if 'pdf' in k else 'csv'}"
               for k in ("friedman", "ranks", "wilcoxon", "cd_png", "cd_pdf", "stability_png", "stability_pdf")}  # fmt: skip
        (tmp_path / run).mkdir()
        write_comparison(demsar_summary(), stab, out, metric="auc_mean")
        digests.append({k: p.read_bytes() for k, p in out.items()})
    assert digests[0] == digests[1]
    assert digests[0]["ranks"].decode().splitlines()[0] == "method,average_rank,nemenyi_groups"
