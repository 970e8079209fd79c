"""The select record's schema (svmfs.results.record.SelectRecord): every field a job writes, with its type;
every column of every committed store is one of them."""

from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from svmfs.protocol.select_job import run_select_job
from svmfs.protocol.splits import make_splits
from svmfs.results.record import (DERIVED_COLUMNS, STABLE_COLUMNS, STORE_ONLY_COLUMNS, VOLATILE_COLUMNS, check_record,
                                  read_records, record_schema, write_record)  # fmt: skip

ROOT = Path(__file__).resolve().parents[1]
CAMPAIGN = {"normalization": {"method": "zscore", "scope": "fold"}, "inner_cv": {"n_splits": 3},
            "final_classifier": {"linear": {"C": [0.1, 1.0]}}, "audits": ["test_tuned", "global_scaling"]}  # fmt: skip


def test_every_committed_store_column_is_a_record_field():
    known = set(record_schema()) | set(DERIVED_COLUMNS)
    stores = sorted(ROOT.glob("reproduction/*/records.parquet"))
    assert stores
    extra = {p.parent.name: sorted(set(pq.read_schema(p).names) - known) for p in stores}
    assert {k: v for k, v in extra.items() if v} == {}


def test_the_store_columns_are_record_fields():
    assert set(STABLE_COLUMNS + VOLATILE_COLUMNS + STORE_ONLY_COLUMNS) <= set(record_schema()) | set(DERIVED_COLUMNS)


@pytest.fixture(scope="module")
def record():
    """A select job's record as rule select writes it: the job's body (with both in-job audits and the relevance
    scores) and what scripts/select.py adds."""
    rng = np.random.default_rng(5)
    y = np.where(rng.random(60) < 0.5, 1, -1)
    X = rng.normal(size=(60, 5))
    X[:, 0] += y
    fold = make_splits(y, {"kind": "stratified_kfold", "n_splits": 3}, 0)[0]
    rec = run_select_job(X, y, fold, "l1_svm", {"grid": {"C": [0.1, 1.0]}}, CAMPAIGN, seed=0, relevant=[0])
    rec.update(selected_names=[f"x{j}" for j in rec["selected"]], campaign="c", dataset="d", dataset_group="d",
               setting="default", config_hash="0" * 16, git_sha="unknown", code_hash="1" * 16, host="h",
               versions={"svmfs": "0"})  # fmt: skip
    return rec


def test_a_jobs_record_is_of_its_schema_and_reads_back(record, tmp_path):
    check_record(record)
    assert {"audit_test_tuned_accuracy", "audit_global_scaling_accuracy", "weights", "recall_relevant"} <= set(record)
    write_record(record, tmp_path / "fold-0.json", tmp_path / "fold-0.parquet")
    row = read_records([tmp_path / "fold-0.json"]).iloc[0]
    assert row["code_hash"] == "1" * 16 and row["test_accuracy"] == record["test_accuracy"]


def test_an_unknown_field_or_a_value_of_another_type_is_refused_by_name(record, tmp_path):
    with pytest.raises(ValueError, match="'n_selcted' is not a select record's"):
        write_record({**record, "n_selcted": 1}, tmp_path / "a.json", tmp_path / "a.parquet")
    assert not (tmp_path / "a.json").exists()
    with pytest.raises(ValueError, match="'n_selected' = '3' is not of type"):
        check_record({**record, "n_selected": "3"})
    with pytest.raises(ValueError, match="'selected' = 3"):
        check_record({**record, "selected": 3})
    check_record({**record, "inner_accuracy": "nan", "objective": None, "n_iter": None})  # NaN as the JSON spells it
