"""What a cluster would give a finished campaign: its select jobs' measured times list-scheduled on N slots.

The campaign's DAG is the workflow's (``workflow/rules/*.smk``): per dataset, ``prepare -> split``; every
select job (dataset, method, setting, fold) after its dataset's split, and after the ``match_size_of``
method's default-setting job of the same fold where the method has one; the aggregation rules after
every select job. A job occupies one slot from its start to its end; nothing else is modelled (no
queueing delay, no file-system latency).

The scheduling rule is Graham's list scheduling: whenever a slot is free, it starts the ready job of the
highest priority, by default the longest (longest processing time first, ties to the lower index). Any
such schedule satisfies ``max(longest path, total / slots) <= makespan <= total / slots + longest path``
(Graham 1969, the bound for precedence constraints); for independent jobs the upper bound is
``total / slots + longest job``.

Grouping (``bundle_jobs``): the SLURM profile bundles select jobs into group jobs of up to ``size``
connected components (``group-components``); a bundle counts as one job of the bundle's own makespan, its
members list-scheduled on ``cores`` cores, each lasting its own time plus ``member_overhead_s``. With the
SLURM executor plugin the members run one after another (snakemake-executor-plugin-slurm 2.8 starts the
job's Snakemake with ``--jobs 1``), each through ``srun`` and a Snakemake of its own:
``cores=1`` and an overhead of a few seconds model that (measured on the tests' one-node SLURM,
``python -m benchmarks run cluster_simulation slurm``).

Reads records alone (a frame with dataset, method, setting, fold and a time per job).
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from typing import Sequence

import pandas as pd

JOB_KEY = ["dataset", "method", "setting", "fold"]


@dataclass(frozen=True)
class Schedule:
    """A list schedule: each job's start and slot, and the makespan (the last end)."""

    makespan: float
    start: tuple[float, ...]
    slot: tuple[int, ...]


def _check_dag(durations: Sequence[float], deps: Sequence[Sequence[int]] | None) -> list[list[int]]:
    n = len(durations)
    for i, d in enumerate(durations):
        if not (isinstance(d, (int, float)) and math.isfinite(d) and d >= 0):
            raise ValueError(f"job {i}: duration {d!r} is not a finite number >= 0")
    deps = [list(p) for p in deps] if deps is not None else [[] for _ in range(n)]
    if len(deps) != n:
        raise ValueError(f"deps has {len(deps)} entries for {n} jobs")
    for i, pre in enumerate(deps):
        for j in pre:
            if not (isinstance(j, int) and 0 <= j < n) or j == i:
                raise ValueError(f"job {i}: dependency {j!r} is not another job's index (0..{n - 1})")
    return deps


def _successors(deps: Sequence[Sequence[int]]) -> tuple[list[list[int]], list[int]]:
    """Each job's successors, and how many distinct jobs each waits for."""
    succ: list[list[int]] = [[] for _ in deps]
    waits = [0] * len(deps)
    for i, pre in enumerate(deps):
        for j in set(pre):
            succ[j].append(i)
            waits[i] += 1
    return succ, waits


def topological_order(deps: Sequence[Sequence[int]]) -> list[int]:
    """Jobs in an order where each comes after its dependencies (lowest index first among the free)."""
    n = len(deps)
    succ, indeg = _successors(deps)
    free = [i for i in range(n) if indeg[i] == 0]
    heapq.heapify(free)
    order = []
    while free:
        i = heapq.heappop(free)
        order.append(i)
        for k in succ[i]:
            indeg[k] -= 1
            if indeg[k] == 0:
                heapq.heappush(free, k)
    if len(order) != n:
        raise ValueError(f"the dependencies have a cycle through jobs {sorted(set(range(n)) - set(order))[:10]}")
    return order


def longest_path(durations: Sequence[float], deps: Sequence[Sequence[int]] | None = None) -> float:
    """The DAG's critical path: the largest sum of durations along a dependency chain."""
    deps = _check_dag(durations, deps)
    finish = [0.0] * len(durations)
    for i in topological_order(deps):
        finish[i] = max((finish[j] for j in deps[i]), default=0.0) + durations[i]
    return max(finish, default=0.0)


def list_schedule(durations: Sequence[float], slots: int, deps: Sequence[Sequence[int]] | None = None,
                  priority: Sequence[float] | None = None) -> Schedule:  # fmt: skip
    """Graham's list scheduling of ``durations`` on ``slots`` identical slots.

    ``deps[i]``: the jobs that must end before job i starts. ``priority``: the higher starts first among the
    ready jobs (default: the duration, i.e. longest processing time first); ties go to the lower index.
    """
    if not isinstance(slots, int) or slots < 1:
        raise ValueError(f"slots must be a positive integer, got {slots!r}")
    deps = _check_dag(durations, deps)
    topological_order(deps)  # refuses a cycle before scheduling
    n = len(durations)
    prio = list(durations) if priority is None else list(priority)
    if len(prio) != n:
        raise ValueError(f"priority has {len(prio)} entries for {n} jobs")
    succ, waiting = _successors(deps)
    ready = [(-prio[i], i) for i in range(n) if waiting[i] == 0]
    heapq.heapify(ready)
    free = list(range(slots))  # free slot ids, lowest first
    running: list[tuple[float, int, int]] = []  # (end, job, slot)
    start, slot = [0.0] * n, [0] * n
    t = 0.0
    while ready or running:
        while ready and free:
            _, i = heapq.heappop(ready)
            start[i], slot[i] = t, heapq.heappop(free)
            heapq.heappush(running, (t + durations[i], i, slot[i]))
        t = running[0][0]
        while running and running[0][0] == t:  # every job ending now frees its slot and successors
            _, i, s = heapq.heappop(running)
            heapq.heappush(free, s)
            for k in succ[i]:
                waiting[k] -= 1
                if waiting[k] == 0:
                    heapq.heappush(ready, (-prio[k], k))
    makespan = max((start[i] + durations[i] for i in range(n)), default=0.0)
    return Schedule(makespan, tuple(start), tuple(slot))


# ------------------------------------------------------------------------------------ a campaign's DAG
@dataclass(frozen=True)
class CampaignDag:
    """Jobs (names, durations, dependencies) of one campaign; ``select`` marks the select jobs."""

    names: tuple[str, ...]
    durations: tuple[float, ...]
    deps: tuple[tuple[int, ...], ...]
    select: tuple[bool, ...]


def campaign_dag(records: pd.DataFrame, seconds: pd.Series, match_size_of: dict[str, str] | None = None,
                 setup_s: float | dict[str, float] = 0.0, aggregation_s: float = 0.0,
                 parts: Sequence[Sequence[float]] | None = None) -> CampaignDag:  # fmt: skip
    """The workflow's DAG over ``records`` (one row per select job), each select job lasting ``seconds``
    (aligned with ``records``): one ``prepare+split`` job per dataset (``setup_s`` each, or per dataset
    name), the select jobs,
    one ``aggregate`` job after them all (``aggregation_s``). ``match_size_of``: method -> the method whose
    default-setting job of the same fold it waits for (the select rule's ``match`` input). ``parts``
    (aligned with ``records``): the seconds of a split job's ``select_part`` jobs (``split_inner_folds``),
    each a job after its dataset's split that the select job waits for; they are not select jobs (the
    SLURM profile does not bundle them)."""
    missing = [c for c in JOB_KEY if c not in records]
    if missing:
        raise ValueError(f"records lack the column(s) {missing}")
    if len(seconds) != len(records):
        raise ValueError(f"{len(seconds)} times for {len(records)} records")
    rec = records[JOB_KEY].astype({"fold": int}).reset_index(drop=True)
    datasets = sorted(rec["dataset"].astype(str).unique())
    names = [f"prepare+split {d}" for d in datasets]
    if isinstance(setup_s, dict) and set(datasets) - set(setup_s):
        raise ValueError(f"setup_s has no time for the dataset(s) {sorted(set(datasets) - set(setup_s))}")
    durations = [float(setup_s[d] if isinstance(setup_s, dict) else setup_s) for d in datasets]
    deps: list[tuple[int, ...]] = [()] * len(datasets)
    if parts is not None and len(parts) != len(rec):
        raise ValueError(f"parts has {len(parts)} entries for {len(records)} records")
    own_parts: list[list[int]] = []
    for i, r in enumerate(rec.itertuples()):
        own_parts.append([])
        for k, sec in enumerate((parts[i] if parts is not None else None) or []):
            own_parts[i].append(len(names))
            names.append(f"select_part {r.dataset}/{r.method}/{r.setting}/fold-{r.fold}/part-{k}")
            durations.append(float(sec))
            deps.append((datasets.index(str(r.dataset)),))
    first = len(names)
    index = {(str(r.dataset), str(r.method), str(r.setting), int(r.fold)): first + i for i, r in enumerate(rec.itertuples())}
    match = match_size_of or {}
    for i, r in enumerate(rec.itertuples()):
        pre = [datasets.index(str(r.dataset)), *own_parts[i]]
        other = match.get(str(r.method))
        if other is not None:
            key = (str(r.dataset), other, "default", int(r.fold))
            if key not in index:
                raise ValueError(f"job {'/'.join(map(str, key[:3]))}/fold-{key[3]}: the match_size_of job of "
                                 f"{r.dataset}/{r.method}/{r.setting}/fold-{r.fold} is not in the records")  # fmt: skip
            pre.append(index[key])
        names.append(f"select {r.dataset}/{r.method}/{r.setting}/fold-{r.fold}")
        durations.append(float(seconds.iloc[i]))
        deps.append(tuple(pre))
    names.append("aggregate")
    durations.append(float(aggregation_s))
    deps.append(tuple(range(first, first + len(rec))))
    select = tuple([False] * first + [True] * len(rec) + [False])
    return CampaignDag(tuple(names), tuple(durations), tuple(deps), select)


def bundle_jobs(dag: CampaignDag, size: int, cores: int, order: Sequence[int] | None = None,
                member_overhead_s: float = 0.0) -> CampaignDag:  # fmt: skip
    """The select jobs bundled as the SLURM profile's ``group-components``: connected components of select
    jobs (a job and the select jobs it waits for) taken ``size`` at a time in ``order`` (component
    indices, default: the DAG's order), each bundle one job whose duration is its members' list schedule
    on ``cores`` cores, each member lasting its own seconds plus ``member_overhead_s`` (its ``srun`` and
    Snakemake start inside the SLURM job)."""
    if size < 1 or cores < 1:
        raise ValueError(f"bundle size and cores must be >= 1, got {size}, {cores}")
    if member_overhead_s < 0:
        raise ValueError(f"member_overhead_s must be >= 0, got {member_overhead_s}")
    n = len(dag.names)
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(n):
        for j in dag.deps[i]:
            if dag.select[i] and dag.select[j]:
                parent[root(i)] = root(j)
    comps: dict[int, list[int]] = {}
    for i in range(n):
        if dag.select[i]:
            comps.setdefault(root(i), []).append(i)
    components = list(comps.values())
    order = list(range(len(components))) if order is None else list(order)
    if sorted(order) != list(range(len(components))):
        raise ValueError(f"order must be a permutation of the {len(components)} components")
    chunks = [sum((components[c] for c in order[k : k + size]), []) for k in range(0, len(order), size)]
    new_index: dict[int, int] = {}
    names, durations, deps, select = [], [], [], []
    for i in range(n):  # the non-select jobs before the bundles keep their order
        if not dag.select[i] and dag.names[i] != "aggregate":
            new_index[i] = len(names)
            names.append(dag.names[i])
            durations.append(dag.durations[i])
            deps.append(dag.deps[i])
            select.append(False)
    for k, members in enumerate(chunks):
        local = {m: p for p, m in enumerate(sorted(members))}
        inner = [[local[j] for j in dag.deps[m] if j in local] for m in sorted(members)]
        span = list_schedule([dag.durations[m] + member_overhead_s for m in sorted(members)], cores, inner).makespan
        for m in members:
            new_index[m] = len(names)
        outer = sorted({j for m in members for j in dag.deps[m] if j not in local})
        names.append(f"bundle {k} ({len(members)} select jobs)")
        durations.append(span)
        deps.append(tuple(outer))  # still old indices: remapped below
        select.append(True)
    agg = [i for i in range(n) if dag.names[i] == "aggregate"]
    for i in agg:
        new_index[i] = len(names)
        names.append("aggregate")
        durations.append(dag.durations[i])
        deps.append(dag.deps[i])
        select.append(False)
    remapped = tuple(tuple(sorted({new_index[j] for j in pre} - {p})) for p, pre in enumerate(deps))
    return CampaignDag(tuple(names), tuple(durations), remapped, tuple(select))
