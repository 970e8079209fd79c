"""The per-job budget (``limits.job_budget_s``, ``methods.<m>.job_budget_s``): its cost warning before any job,
the time limit it gives a method that has one, its place in the config hash, and bad values named."""

import pytest

from conftest import merge_config
from svmfs.config import ConfigError, job_config, load_config
from svmfs.config.budget import COST, REF_P, budget_warnings, fit_seconds
from svmfs.protocol.job_budget import budget_time_limit
from svmfs.config.sizes import expected_shape
from svmfs.config.campaign import load_dataset_registry
from svmfs.methods.milp_fs import MILPFS
from svmfs.protocol.tuning import selector_fits

BASE = {
    "campaign": "budget", "seed": 1,
    "datasets": {"mit_example1": {"params": {"n": 40, "p": 2000, "k0": 3, "rho": 0.2}}},
    "splits": {"kind": "stratified_kfold", "n_splits": 4}, "inner_cv": {"n_splits": 3},
    "methods": {"fisher": {}, "mm_fs": {}, "milp_fs": {"grid": {"C": [0.1, 1.0]}}},
}  # fmt: skip


def _warnings(cfg, root):
    registry = load_dataset_registry(cfg, root)
    return budget_warnings(cfg, lambda d: expected_shape(cfg, d, registry))


def test_the_model_is_the_measured_time_scaled_by_size():
    """At the benchmark's size the model returns the measured time; doubling p and n multiplies it by
    2^beta x 2."""
    for method, (t_ref, beta) in COST.items():
        assert fit_seconds(method, 80, REF_P) == pytest.approx(t_ref)
        assert fit_seconds(method, 160, 2 * REF_P) == pytest.approx(t_ref * 2**beta * 2)


def test_a_method_over_the_budget_is_named_with_its_size_time_and_jobs(write_config, root):
    """MM-FS (no grid: one fit per job, over 120 s at 80 x 12 600) on 30 training rows x 2000 features:
    120 x (2000 / 12600) x (30 / 80) = 7.1 s per job, over a 1 s budget; MILP-FS's 7 fits of 80.71 s at the
    reference size, 33.6 s; Fisher's (0.03 s at 80 x 12 600) are not."""
    cfg = load_config(write_config(merge_config(BASE, {"limits": {"job_budget_s": 1}})), workdir=root)
    warnings = _warnings(cfg, root)
    assert warnings == [
        "methods.milp_fs on mit_example1 (40 x 2000): about 34 s per job, 4 jobs; over the budget of 1 s "
        "(cost model: svmfs.config.budget)",
        "methods.mm_fs on mit_example1 (40 x 2000): about 7 s per job, 4 jobs; over the budget of 1 s "
        "(cost model: svmfs.config.budget)"
    ]


def test_a_prefilter_and_a_methods_own_budget_change_the_estimate(write_config, root):
    """MM-FS after a Fisher prefilter keeping 500: 120 x (500 / 12600) x (30 / 80) = 1.8 s, within 2 s (7.1 s
    without it); MILP-FS over its own budget of 1 ms."""
    cfg = merge_config(BASE, {"limits": {"job_budget_s": 2}})
    cfg["methods"] = {"fisher": {}, "mm_fs": {"prefilter": {"method": "fisher", "keep": 500}}, "milp_fs": {"job_budget_s": 0.001}}
    warnings = _warnings(load_config(write_config(cfg), workdir=root), root)
    assert [w.split(" on ")[0] for w in warnings] == ["methods.milp_fs"]


def test_a_method_with_a_time_limit_gets_the_budget_per_fit(write_config, root):
    """MILP-FS with a grid of 2 C values: 3 inner folds x 2 + the refit = 7 fits, each budget / 7 seconds."""
    fits = selector_fits({"C": [0.1, 1.0]}, None, 3)
    assert fits == 7
    fixed = budget_time_limit(MILPFS, {"B": 5}, {"C": [0.1, 1.0]}, None, {"job_budget_s": 70.0, "inner_cv": {"n_splits": 3}})
    assert fixed == {"B": 5, "time_limit": 10.0}
    # a time_limit the campaign sets wins
    assert budget_time_limit(MILPFS, {"time_limit": 3.0}, {}, None, {"job_budget_s": 70.0, "inner_cv": {"n_splits": 3}}) == {"time_limit": 3.0}


def test_the_budget_is_in_the_hash_of_the_jobs_that_have_one_only(write_config, root):
    """Every method honours a budget, so it is in the hash of every job that has one; a campaign without one
    keeps its jobs' hashes (no ``job_budget_s`` key at all)."""
    plain = load_config(write_config(BASE), workdir=root)
    budget = load_config(write_config(merge_config(BASE, {"limits": {"job_budget_s": 150}})), workdir=root)
    for method in ("fisher", "milp_fs"):
        assert "job_budget_s" not in job_config(plain, "mit_example1", method, "default")["campaign"]
        assert job_config(budget, "mit_example1", method, "default")["campaign"]["job_budget_s"] == 150.0
    own = merge_config(BASE, {})
    own["methods"] = {**BASE["methods"], "fisher": {"job_budget_s": 5}}
    own = load_config(write_config(own), workdir=root)
    assert job_config(own, "mit_example1", "fisher", "default")["campaign"]["job_budget_s"] == 5.0
    assert job_config(own, "mit_example1", "milp_fs", "default") == job_config(plain, "mit_example1", "milp_fs", "default")


@pytest.mark.parametrize(
    "change, fragment",
    [
        ({"limits": {"job_budget_s": 0}}, "limits.job_budget_s: must be a positive number of seconds, got 0"),
        ({"limits": {"job_budget_s": "fast"}}, "limits.job_budget_s: must be a positive number of seconds, got 'fast'"),
        ({"methods": {"fisher": {"job_budget_s": -5}}}, "methods.fisher.job_budget_s: must be a positive number of seconds, got -5"),
    ],
)
def test_a_budget_that_is_not_a_positive_number_is_a_config_error(change, fragment, write_config, root):
    with pytest.raises(ConfigError, match=fragment.replace(".", r"\.")):
        load_config(write_config(merge_config(BASE, change)), workdir=root)


def test_a_milp_job_past_its_budget_ends_with_status_time_limit():
    """A MILP-FS job (60 x 300, B = 20) given 0.02 s for its 4 fits stops each at 0.005 s: status time_limit."""
    import numpy as np

    from svmfs.protocol.select_job import run_select_job

    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(60, 300)), np.tile([0, 1], 30)
    X[y == 1, :5] += 0.8
    fold = {"fold": 0, "train": list(range(40)), "test": list(range(40, 60))}
    campaign = {"normalization": {"method": "zscore"}, "inner_cv": {"n_splits": 3}, "splits": {},
                "final_classifier": {"linear": {"C": [1.0]}}, "job_budget_s": 0.02}  # fmt: skip
    rec = run_select_job(X, y, fold, "milp_fs", {"method": "milp_fs", "grid": {"C": [1.0]}, "params": {"B": 20}}, campaign, 1)
    assert rec["selector_params"]["time_limit"] == pytest.approx(0.005)
    assert rec["status"] == "time_limit"


def _l1_job(grid_c, budget=None):
    """An l1_svm select job (60 x 200, 5 informative features) with the grid C = ``grid_c``."""
    import numpy as np

    from svmfs.protocol.select_job import run_select_job

    rng = np.random.default_rng(3)
    X, y = rng.normal(size=(60, 200)), np.tile([0, 1], 30)
    X[y == 1, :5] += 1.0
    fold = {"fold": 0, "train": list(range(45)), "test": list(range(45, 60))}
    campaign = {"normalization": {"method": "zscore"}, "inner_cv": {"n_splits": 3}, "splits": {},
                "final_classifier": {"linear": {"C": [0.1, 1.0]}}}  # fmt: skip
    if budget is not None:
        campaign["job_budget_s"] = budget
    return run_select_job(X, y, fold, "l1_svm", {"method": "l1_svm", "grid": {"C": grid_c}}, campaign, 1)


TIMES = ("fit_time_s", "tune_time_s")


def test_a_budget_far_below_one_fit_stops_the_tuning_after_its_first_fit():
    """Budget 1e-9 s: the first inner fit (C = 1 on inner fold 0) is the only one; the job chooses among its
    candidates (the final classifier's two C on fold 0), refits C = 1 on the training side, and so selects what
    a job whose grid is that point alone selects; status time_limit, the message says where the tuning stopped."""
    rec = _l1_job([1.0, 0.1, 10.0], budget=1e-9)
    alone = _l1_job([1.0])
    assert rec["status"] == "time_limit"
    assert "job budget of 1e-09 s spent" in rec["message"] and "1 selector fit(s)" in rec["message"]
    assert "inner fold(s) 0" in rec["message"] and rec["n_candidates"] == 2
    assert rec["selector_params"] == {"C": 1.0}
    assert rec["selected"] == alone["selected"] and rec["test_accuracy"] == alone["test_accuracy"]
    assert alone["n_candidates"] == 2 and alone["status"] == "ok"
    full = _l1_job([1.0, 0.1, 10.0])
    assert full["n_candidates"] == 6  # the whole grid without the budget


def test_a_large_budget_changes_nothing_in_the_record():
    """A budget never reached: the record (times aside) is the one of the job without a budget."""
    rec, plain = _l1_job([1.0, 0.1, 10.0], budget=1e6), _l1_job([1.0, 0.1, 10.0])
    assert {k: v for k, v in rec.items() if k not in TIMES} == {k: v for k, v in plain.items() if k not in TIMES}


def test_a_spent_budget_chooses_on_the_completed_inner_folds_only():
    """Stopped in inner fold 2 of 3: the choice is on folds 0-1, where every candidate was scored."""
    from svmfs.protocol.job_budget import JobClock

    clock = JobClock(1.0)
    clock.fits, clock.stopped_after = 7, 2.0
    scores = {0: [[0, None, 0, 0.5, 3], [1, None, 0, 0.6, 2]], 1: [[0, None, 0, 0.7, 3], [1, None, 0, 0.4, 2]],
              2: [[0, None, 0, 1.0, 3]]}  # fmt: skip
    assert clock.usable_scores(scores) == {0: scores[0], 1: scores[1]} and clock.folds_used == [0, 1]
    clock = JobClock(1.0)
    clock.fits, clock.stopped_after = 1, 2.0
    assert clock.usable_scores({0: [[0, None, 0, 0.5, 3]], 1: [], 2: []}) == {0: [[0, None, 0, 0.5, 3]]}
