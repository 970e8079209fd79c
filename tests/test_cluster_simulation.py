"""The list scheduler behind ``python -m benchmarks run cluster_simulation``: known makespans and
Graham's bounds on random instances."""

import numpy as np
import pandas as pd
import pytest

from svmfs.analysis.cluster_simulation import bundle_jobs, campaign_dag, list_schedule, longest_path


def _check_feasible(durations, deps, slots, sched):
    """No slot runs two jobs at once; every job starts after its dependencies end."""
    for i, pre in enumerate(deps or [[] for _ in durations]):
        for j in pre:
            assert sched.start[i] >= sched.start[j] + durations[j] - 1e-9
    for s in range(slots):
        spans = sorted((sched.start[i], sched.start[i] + durations[i]) for i in range(len(durations)) if sched.slot[i] == s)
        assert all(a_end <= b_start + 1e-9 for (_, a_end), (b_start, _) in zip(spans, spans[1:]))


@pytest.mark.parametrize("slots, makespan", [(1, 16), (2, 8), (3, 6), (6, 5), (10, 5)])
def test_lpt_makespans_of_a_small_instance(slots, makespan):
    durations = [5, 3, 3, 2, 2, 1]
    sched = list_schedule(durations, slots)
    assert sched.makespan == makespan
    _check_feasible(durations, None, slots, sched)


def test_lpt_is_a_rule_not_an_optimum():
    # Graham's example: LPT puts 3 | 3, then 2 | 2, then the last 2 -> 7, where {3, 3} | {2, 2, 2} gives 6
    assert list_schedule([3, 3, 2, 2, 2], 2).makespan == 7
    # in index order instead (priority 0 for all), the same jobs pack 3+2+2 | 3+2 -> 7 as well, 5 jobs on 1 slot 12
    assert list_schedule([3, 3, 2, 2, 2], 2, priority=[0] * 5).makespan == 7
    assert list_schedule([3, 3, 2, 2, 2], 1).makespan == 12


def test_a_chain_takes_its_sum_on_any_number_of_slots():
    durations = [1.0, 2.0, 3.0, 4.0]
    deps = [[], [0], [1], [2]]
    for slots in (1, 2, 64):
        sched = list_schedule(durations, slots, deps)
        assert sched.makespan == 10.0
        assert sched.start == (0.0, 1.0, 3.0, 6.0)
    assert longest_path(durations, deps) == 10.0


def test_a_job_waits_for_its_dependency_and_the_free_slot_takes_another():
    # A (1) -> C (4); B (2) independent; 2 slots: A and B at 0, C at 1 -> 5
    sched = list_schedule([1, 2, 4], 2, [[], [], [0]])
    assert sched.start == (0.0, 0.0, 1.0)
    assert sched.makespan == 5


def test_graham_bounds_on_random_instances():
    rng = np.random.default_rng(34)
    for _ in range(300):
        n = int(rng.integers(1, 30))
        durations = [float(x) for x in rng.exponential(10.0, n)]
        slots = int(rng.integers(1, 9))
        total, longest = sum(durations), max(durations)
        sched = list_schedule(durations, slots)  # independent jobs
        assert max(longest, total / slots) - 1e-9 <= sched.makespan <= total / slots + longest + 1e-9
        _check_feasible(durations, None, slots, sched)
        # a random DAG: each job may wait for earlier ones
        deps = [[int(j) for j in np.flatnonzero(rng.random(i) < 0.15)] for i in range(n)]
        path = longest_path(durations, deps)
        sched = list_schedule(durations, slots, deps)
        assert max(path, total / slots) - 1e-9 <= sched.makespan <= total / slots + path + 1e-9
        _check_feasible(durations, deps, slots, sched)


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="slots must be a positive integer, got 0"):
        list_schedule([1.0], 0)
    with pytest.raises(ValueError, match="job 1: duration -1"):
        list_schedule([1.0, -1.0], 2)
    with pytest.raises(ValueError, match="cycle through jobs \\[0, 1\\]"):
        list_schedule([1.0, 1.0], 2, [[1], [0]])


def _records(methods=("a", "b"), folds=2):
    rows = [{"dataset": "d", "method": m, "setting": "default", "fold": k} for m in methods for k in range(folds)]
    return pd.DataFrame(rows)


def test_campaign_dag_follows_the_workflow():
    rec = _records()
    dag = campaign_dag(rec, pd.Series([10.0, 20.0, 1.0, 2.0]), match_size_of={"b": "a"}, setup_s=3.0, aggregation_s=5.0)
    assert dag.names[0] == "prepare+split d" and dag.names[-1] == "aggregate"
    # b's fold 1 waits for the split and for a's fold 1
    assert dag.deps[dag.names.index("select d/b/default/fold-1")] == (0, dag.names.index("select d/a/default/fold-1"))
    # critical path: split 3 + a fold 1 (20) + b fold 1 (2) + aggregate 5
    assert longest_path(dag.durations, dag.deps) == 30.0
    assert list_schedule(list(dag.durations), 1, dag.deps).makespan == 3 + 33 + 5
    with pytest.raises(ValueError, match="match_size_of job of d/b/default/fold-0 is not in the records"):
        campaign_dag(rec, pd.Series([1.0] * 4), match_size_of={"b": "c"})


def test_bundles_run_their_members_on_their_cores():
    rec = _records(methods=("a", "b", "c"), folds=2)
    dag = campaign_dag(rec, pd.Series([10.0] * 6), aggregation_s=1.0)
    # 6 independent jobs in bundles of 4 on 2 cores: a bundle of 4 (20 s) and one of 2 (10 s)
    bundled = bundle_jobs(dag, size=4, cores=2)
    assert sorted(d for d, s in zip(bundled.durations, bundled.select) if s) == [10.0, 20.0]
    assert list_schedule(list(bundled.durations), 8, bundled.deps).makespan == 21.0
    # a matched job and the job it waits for form one component: they stay in one bundle, in series
    dag = campaign_dag(_records(folds=1), pd.Series([10.0, 10.0]), match_size_of={"b": "a"})
    bundled = bundle_jobs(dag, size=1, cores=2)
    assert [d for d, s in zip(bundled.durations, bundled.select) if s] == [20.0]


def test_bundle_members_in_series_pay_their_overhead_each():
    """The SLURM plugin runs a bundle's members one after another, each through srun and a Snakemake of its
    own: on 1 core a bundle lasts the sum of its members plus one overhead per member; on 2 cores the same
    members pair up (the model the profile had before, when its bundles asked for 2 cores)."""
    rec = _records(methods=("a", "b", "c"), folds=2)
    dag = campaign_dag(rec, pd.Series([10.0, 1.0, 4.0, 2.0, 3.0, 6.0]))
    serial = bundle_jobs(dag, size=10, cores=1, member_overhead_s=5.0)
    assert [d for d, s in zip(serial.durations, serial.select) if s] == [26.0 + 6 * 5.0]
    paired = bundle_jobs(dag, size=10, cores=2, member_overhead_s=5.0)
    assert [d for d, s in zip(paired.durations, paired.select) if s] == [list_schedule([15, 6, 9, 7, 8, 11], 2).makespan]
    with pytest.raises(ValueError, match="member_overhead_s must be >= 0"):
        bundle_jobs(dag, size=10, cores=1, member_overhead_s=-1.0)


def test_prepare_and_split_seconds_per_dataset():
    rec = pd.DataFrame([{"dataset": d, "method": "a", "setting": "default", "fold": 0} for d in ("d", "e")])
    dag = campaign_dag(rec, pd.Series([1.0, 1.0]), setup_s={"d": 4.0, "e": 2.0})
    assert dag.durations[:2] == (4.0, 2.0)
    assert longest_path(dag.durations, dag.deps) == 5.0
    with pytest.raises(ValueError, match="setup_s has no time for the dataset\\(s\\) \\['e'\\]"):
        campaign_dag(rec, pd.Series([1.0, 1.0]), setup_s={"d": 4.0})


def test_a_split_jobs_parts_run_side_by_side_before_it_and_are_not_bundled():
    """split_inner_folds: a select job's select_part jobs follow the split and precede the job; on enough
    slots they run at once, so the critical path is the longest part plus the job, not their sum."""
    rec = _records(methods=("a",), folds=2)
    dag = campaign_dag(rec, pd.Series([5.0, 1.0]), setup_s=2.0, parts=[[30.0, 40.0, 10.0], []])
    job = dag.names.index("select d/a/default/fold-0")
    parts = [i for i, n in enumerate(dag.names) if n.startswith("select_part d/a/default/fold-0/")]
    assert len(parts) == 3 and dag.deps[job] == (0, *parts) and all(dag.deps[p] == (0,) for p in parts)
    assert longest_path(dag.durations, dag.deps) == 2 + 40 + 5
    assert list_schedule(list(dag.durations), 8, dag.deps).makespan == 47.0
    assert list_schedule(list(dag.durations), 1, dag.deps).makespan == 2 + 80 + 5 + 1
    bundled = bundle_jobs(dag, size=10, cores=2)  # both select jobs in one bundle, the parts outside it
    assert [d for d, s in zip(bundled.durations, bundled.select) if s] == [5.0]
    assert sum(n.startswith("select_part") for n in bundled.names) == 3
    assert list_schedule(list(bundled.durations), 8, bundled.deps).makespan == 47.0
    with pytest.raises(ValueError, match="parts has 1 entries for 2 records"):
        campaign_dag(rec, pd.Series([5.0, 1.0]), parts=[[1.0]])
