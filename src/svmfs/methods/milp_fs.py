"""MILP-FS: the mixed-integer feature-selection SVM of Labbe, Martinez-Merino & Rodriguez-Chia (2019),
solved off the shelf as Jimenez-Cordero et al. (2021, section 4.3) do, with HiGHS through Pyomo.

    min  sum_j t_j + C sum_i xi_i
    s.t. y_i (w.x_i + b) >= 1 - xi_i, xi_i >= 0
         -t_j <= w_j <= t_j
         -M z_j <= w_j <= M z_j,  z_j in {0, 1}   (big-M bounds)
         sum_j z_j <= B                           (budget)

Choice: the 1-norm of w as the regulariser (the linear L1-SVM the paper names).

Choice: a node limit (``node_limit``, HiGHS's ``mip_max_nodes``) as the deterministic cap on the branch
and bound. The paper runs CPLEX with its defaults under a 24-hour limit; a wall-clock limit short enough
for a campaign makes the incumbent, and so the record, depend on the machine's speed and load. A node limit
stops at the same node on any machine (one HiGHS thread, fixed seed): status ``max_iter``, the incumbent kept,
its bound and the node count (``n_iter``) recorded.

Choice: ``time_limit`` counts the CPU seconds of the fit (the process's, HiGHS on one thread), checked by
HiGHS's interrupt callbacks, not wall-clock seconds: a loaded machine slows a fit's wall clock, not its CPU
(docs/methods/milp_fs.md). With a
``node_limit`` it is only a safety net: if it fires first, ``fit`` raises :class:`SafetyLimitReached` (the
job fails, naming the limit) instead of returning an incumbent that another machine or load would not
return. Without a node limit it is the fit's limit: the incumbent with status ``time_limit`` (or
``solver_error`` if there is none), which depends on the CPU. HiGHS's own wall-clock limit is set to
:data:`WALL_GUARD_FACTOR` x ``time_limit``, a guard against a fit that does not reach a callback; reaching it
raises too when a node limit is set.

Shortcut (``lp_first``, exact): the LP relaxation (z in [0, 1]) is solved first. If its w has at most B
nonzeros, setting z_j = 1 on them gives an integer point with the relaxation's objective, a lower bound
for the MILP: it is optimal, and the branch and bound is skipped. This happens when the budget does not
bind (colon, B = 50: the relaxation keeps about 32 genes, in 3-4 s where the MILP takes 0.5-4 min).
"""

from __future__ import annotations

import time

import numpy as np

from .base import COUNT, POSITIVE, LinearModelSelector

#: HiGHS's own wall-clock limit, as a multiple of the fit's CPU-time limit ``time_limit``: a guard only.
WALL_GUARD_FACTOR = 4.0


class SafetyLimitReached(RuntimeError):
    """A fit with a deterministic ``node_limit`` stopped at its time limit (CPU or wall-clock guard) first:
    its incumbent would depend on the machine, so no record is made of it."""


def build_model(X, y, C, B, M):
    import pyomo.environ as pyo

    n, p = X.shape
    m = pyo.ConcreteModel()
    m.I, m.J = pyo.RangeSet(0, n - 1), pyo.RangeSet(0, p - 1)
    m.w = pyo.Var(m.J, bounds=(-M, M))
    m.t = pyo.Var(m.J, within=pyo.NonNegativeReals)
    m.z = pyo.Var(m.J, within=pyo.Binary)
    m.b = pyo.Var()
    m.xi = pyo.Var(m.I, within=pyo.NonNegativeReals)
    m.obj = pyo.Objective(expr=sum(m.t[j] for j in m.J) + C * sum(m.xi[i] for i in m.I))
    m.margin = pyo.Constraint(m.I, rule=lambda m, i: float(y[i]) * (sum(float(X[i, j]) * m.w[j] for j in m.J) + m.b) >= 1 - m.xi[i])
    m.abs_pos = pyo.Constraint(m.J, rule=lambda m, j: m.w[j] <= m.t[j])
    m.abs_neg = pyo.Constraint(m.J, rule=lambda m, j: -m.t[j] <= m.w[j])
    m.big_m_up = pyo.Constraint(m.J, rule=lambda m, j: m.w[j] <= M * m.z[j])
    m.big_m_low = pyo.Constraint(m.J, rule=lambda m, j: -M * m.z[j] <= m.w[j])
    m.budget = pyo.Constraint(expr=sum(m.z[j] for j in m.J) <= B)
    return m


class MILPFS(LinearModelSelector):
    """Budget-constrained L1-SVM with binary feature indicators (B and M per dataset from the config).

    Parameters
    ----------
    C : float
        Weight of the slacks.
    B : int
        Maximum number of selected features (budget).
    M : float
        Big-M bound on |w_j|.
    time_limit : float
        CPU seconds for the fit (model build, relaxation and MILP together); HiGHS's wall-clock limit is
        :data:`WALL_GUARD_FACTOR` times it. With ``node_limit``: a safety net that raises
        :class:`SafetyLimitReached`; without: the incumbent with status ``time_limit``.
    node_limit : int or None
        Branch-and-bound nodes at most (HiGHS ``mip_max_nodes``); None: no limit. Reaching it gives
        status ``max_iter`` with the incumbent, the same on every machine.
    lp_first : bool
        Solve the LP relaxation first and keep it when it has at most B nonzeros (exact; see above).

    Attributes
    ----------
    support_ : ndarray of bool of shape (n_features,)
        The kept features.
    weights_ : ndarray of shape (n_features,)
        The model's weight of each feature (0 off the support).
    intercept_ : float
        With ``weights_``, the hyperplane the method solved (the final classifier ``own`` scores it).
    diagnostics_ : dict
        ``status``, ``objective``, ``n_iter``, ``message`` and ``time_s`` (:mod:`svmfs.methods.base`).

    References
    ----------
    Labbe, Martinez-Merino & Rodriguez-Chia (2019), as Jimenez-Cordero et al. (2021), 4.3.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(40, 6))
    >>> y = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(int)
    >>> from svmfs.methods.milp_fs import MILPFS
    >>> sel = MILPFS(B=2).fit(X, y)
    >>> sel.get_support().nonzero()[0].tolist()
    [0, 1]
    """

    _parameter_constraints = {
        "C": [POSITIVE],
        "B": [COUNT],
        "M": [POSITIVE],
        "time_limit": [POSITIVE],
        "lp_first": ["boolean"],
        "node_limit": [COUNT, None],
    }

    def __init__(self, C=1.0, B=10, M=1.0, time_limit=60.0, lp_first=True, node_limit=None):
        self.C = C
        self.B = B
        self.M = M
        self.time_limit = time_limit
        self.lp_first = lp_first
        self.node_limit = node_limit

    def _solve(self, m, cpu_deadline, wall_deadline):
        """HiGHS on ``m``, interrupted once the process's CPU clock passes ``cpu_deadline`` or its wall clock
        (``time.perf_counter``) ``wall_deadline``: (Pyomo's results, branch-and-bound nodes explored, which
        limit stopped it: None, "cpu" or "wall")."""
        stopped = []

        def check(event):
            if time.process_time() > cpu_deadline:
                stopped.append("cpu")
                event.interrupt()

        solver = _cpu_limited_highs()()
        solver.check = check
        solver.config.time_limit = max(wall_deadline - time.perf_counter(), 1e-3)
        solver.config.load_solution = False
        solver.highs_options = {"random_seed": 0, "threads": 1}
        if self.node_limit is not None:
            solver.highs_options["mip_max_nodes"] = int(self.node_limit)
        res = solver.solve(m)
        info = solver._solver_model.getInfo()  # appsi keeps the highspy model
        if "maxTimeLimit" in str(res.termination_condition):
            stopped.append("wall")
        elif stopped and solver._sol.value_valid:  # interrupted: appsi reports no solution, HiGHS keeps its incumbent
            res.best_feasible_objective, res.best_objective_bound = info.objective_function_value, info.mip_dual_bound
        return res, int(info.mip_node_count), (stopped or [None])[0]

    def _safety_net(self, which, n_nodes):
        """Raise :class:`SafetyLimitReached` when a limit stopped a fit that has a node limit."""
        if which is not None and self.node_limit is not None:
            clock = f"{self.time_limit:g} CPU seconds" if which == "cpu" else f"{WALL_GUARD_FACTOR * self.time_limit:g} wall-clock seconds"
            raise SafetyLimitReached(
                f"MILPFS: the safety limit time_limit ({clock}) stopped the fit after {n_nodes} branch-and-bound nodes, before "
                f"node_limit = {self.node_limit}; its incumbent would depend on the machine, so no record is made: raise "
                f"time_limit (methods.<name>.params.time_limit) or run on a faster machine"
            )  # fmt: skip

    def _relaxation_is_optimal(self, m, p, cpu_deadline, wall_deadline):
        """Solve the LP relaxation of ``m``; keep it (and return True) if its w has at most B nonzeros."""
        import pyomo.environ as pyo

        for j in m.J:
            m.z[j].domain = pyo.UnitInterval
        res, _, which = self._solve(m, cpu_deadline, wall_deadline)
        for j in m.J:
            m.z[j].domain = pyo.Binary
        self._safety_net(which, 0)
        if not str(res.termination_condition).endswith("optimal"):
            return False
        res.solution_loader.load_vars()
        w = np.array([pyo.value(m.w[j]) for j in range(p)])
        support = np.abs(w) > 1e-9
        if support.sum() > self.B:
            return False
        self.weights_, self.intercept_, self.support_ = w, float(pyo.value(m.b)), support
        objective = float(res.best_feasible_objective)
        self.diagnostics_.update(status="ok", objective=objective, bound=objective, route="lp_relaxation",
                                 message=f"LP relaxation optimal with {support.sum()} <= B = {self.B} nonzeros")  # fmt: skip
        return True

    def _fit(self, X, y):
        import pyomo.environ as pyo

        cpu_deadline = time.process_time() + float(self.time_limit)
        wall_deadline = time.perf_counter() + WALL_GUARD_FACTOR * float(self.time_limit)
        m = build_model(X, y, self.C, self.B, self.M)
        if self.lp_first and self._relaxation_is_optimal(m, X.shape[1], cpu_deadline, wall_deadline):
            return
        res, n_nodes, which = self._solve(m, cpu_deadline, wall_deadline)
        self._safety_net(which, n_nodes)
        tc = str(res.termination_condition)
        has_solution = res.best_feasible_objective is not None
        if has_solution:
            res.solution_loader.load_vars()
        status = "ok" if tc.endswith("optimal") else ("time_limit" if which is not None else "solver_error")
        if tc.endswith("maxIterations") and self.node_limit is not None and n_nodes >= self.node_limit:
            status = "max_iter"
        self.diagnostics_["n_iter"] = n_nodes
        if not has_solution:
            self.support_ = np.zeros(X.shape[1], dtype=bool)
            self.weights_, self.intercept_ = np.zeros(X.shape[1]), 0.0
            self.diagnostics_.update(status="solver_error" if status == "ok" else status, message=tc)
            return
        w = np.array([pyo.value(m.w[j]) for j in range(X.shape[1])])
        z = np.array([round(pyo.value(m.z[j])) for j in range(X.shape[1])])
        self.weights_ = w
        self.intercept_ = float(pyo.value(m.b))
        self.support_ = (z > 0.5) & (np.abs(w) > 1e-9)
        self.diagnostics_.update(status=status, objective=float(res.best_feasible_objective), message=tc, route="milp",
                                 bound=None if res.best_objective_bound is None else float(res.best_objective_bound))  # fmt: skip


def _cpu_limited_highs():
    """Pyomo's appsi HiGHS interface whose ``solve`` calls ``check(event)`` at HiGHS's MIP and simplex
    interrupt callbacks (``event.interrupt()`` stops HiGHS): built on first use (Pyomo imported lazily)."""
    global _CPU_LIMITED_HIGHS
    if _CPU_LIMITED_HIGHS is None:
        from pyomo.contrib.appsi.solvers.highs import Highs

        class CPULimitedHighs(Highs):
            check = None  # set on the instance (appsi's set_instance calls __init__ again, with its own arguments)

            def _solve(self, timer):
                self._solver_model.cbMipInterrupt += self.check  # the highspy model set_instance built
                self._solver_model.cbSimplexInterrupt += self.check
                return super()._solve(timer)

        _CPU_LIMITED_HIGHS = CPULimitedHighs
    return _CPU_LIMITED_HIGHS


_CPU_LIMITED_HIGHS = None
