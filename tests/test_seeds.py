"""The campaign's seeds come from one place (svmfs.protocol.seeds) and stay the numbers committed records hold."""

from pathlib import Path

import pandas as pd
import pytest
import yaml

from svmfs.protocol.seeds import audit_global_seed, data_seed, initial_solution_seed, job_seed, splits_seed

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("campaign", ["rinaldi2010", "jimenez2021_colon", "mit9520_reduced"])
def test_job_seed_is_the_seed_of_every_committed_select_job(campaign):
    """Every committed record's seed, which the select rule gave it, is job_seed of its job: a changed formula
    would rerun nothing the same."""
    folder = ROOT / "reproduction" / campaign
    base = yaml.safe_load((folder / "config.yaml").read_text())["seed"]
    rec = pd.read_parquet(folder / "records.parquet", columns=["dataset", "fold", "method", "setting", "seed"])
    got = [job_seed(base, d, f, m, s) for d, f, m, s in rec[["dataset", "fold", "method", "setting"]].itertuples(index=False)]
    assert got == rec["seed"].tolist()


def test_seeds_are_the_old_formulas_numbers():
    # the values derive_seed(campaign seed, <names>) gave when the rules and benchmarks spelled the formula out
    assert job_seed(20100415, "colon", 0, "fs_svmcp", "default") == 807736441
    assert job_seed(20210601, "colon", 0, "mm_fs", "C2-0.5") == 1295369360
    assert job_seed(20210601, "colon", 3, "mm_fs", "C2-0.5") == job_seed(20210601, "colon", "3", "mm_fs", "C2-0.5") == 3993908163
    assert job_seed(95202010, "ex1_rho02-r0", 0, "l1_rfe", "default") == 109993
    # the shared initial solution's inner folds (jimenez2021_paper): per (dataset, fold), no method, no setting
    assert initial_solution_seed(20210601, "colon", 0) == 3079441623
    assert initial_solution_seed(20210601, "colon", 3) == initial_solution_seed(20210601, "colon", "3") == 1760866527
    assert splits_seed(20210601, "colon") == 2541756190 and splits_seed(20100415, "sonar") == 1991606935
    assert data_seed(95202010, "ex1_rho02-r0") == 2570598488
    assert audit_global_seed(20100415, "colon", "fs_svmcp", "default") == 3317445518
