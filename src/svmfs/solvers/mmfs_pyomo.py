"""MM-FS problem (20a)-(20d) as a Pyomo model: the readable statement of the NLP, and a cross-check of
the cyipopt route (:mod:`svmfs.solvers.mmfs_nlp`).

Solved by the first NLP solver Pyomo finds: a real ``ipopt`` executable (e.g. from conda-forge) if one is
on the PATH, else ``ripopt`` (package pyomo-ripopt, registered as ``SolverFactory("ripopt")``, the same
AMPL .nl interface). The model has n^2 kernel expressions of M terms each, written to an .nl file; at
n = 86, M = 2000 that file is ~200 MB and ripopt exhausted 19 GB (shared/notes/stack.md), hence
:data:`DEFAULT_MAX_SIZE`.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
import time

import numpy as np

from .mmfs_nlp import MMFSProblem, MMFSResult, resolve_hessian

#: Largest n * M the Pyomo route accepts by default (config ``methods.mm_fs.params.pyomo_max_size``).
#: Measured here: n*M = 3600 (120 x 30) solves in ~40 s with ripopt L-BFGS; 172 000 (86 x 2000) runs out of memory.
DEFAULT_MAX_SIZE = 20_000


def build_model(X, y, C, C2, start, *, p=1.0, alpha_bounds=True):
    """Concrete Pyomo model of (20) initialised at ``start = (gamma, alpha, nu, lam0, lamC)``."""
    import pyomo.environ as pyo

    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    n, M = X.shape
    gamma0, alpha0, nu0, lam00, lamC0 = start
    gamma0 = np.broadcast_to(np.asarray(gamma0, dtype=float), (M,))
    m = pyo.ConcreteModel(name="MM-FS (20)")
    m.I = pyo.RangeSet(0, n - 1)
    m.J = pyo.RangeSet(0, M - 1)
    m.gamma = pyo.Var(m.J, domain=pyo.NonNegativeReals, initialize=lambda m, j: float(gamma0[j]))  # (20c)
    m.alpha = pyo.Var(m.I, bounds=(0.0, C) if alpha_bounds else (None, None),  # (20d)
                      initialize=lambda m, i: float(np.clip(alpha0[i], 0.0, C) if alpha_bounds else alpha0[i]))
    m.nu = pyo.Var(initialize=float(nu0))
    m.lam0 = pyo.Var(m.I, domain=pyo.NonNegativeReals, initialize=lambda m, i: float(lam00[i]))  # (20c)
    m.lamC = pyo.Var(m.I, domain=pyo.NonNegativeReals, initialize=lambda m, i: float(lamC0[i]))  # (20c)

    D = (X[:, None, :] - X[None, :, :]) ** 2  # n x n x M: fine at the sizes this route accepts

    def kernel(m, i, l):  # (13); K_il = K_li, K_ii = 1
        if i == l:
            return 1.0
        if i > l:
            return m.K[l, i]
        return pyo.exp(-sum(D[i, l, j] * m.gamma[j] for j in m.J if D[i, l, j] != 0.0))

    m.K = pyo.Expression(m.I, m.I, rule=kernel)
    m.Ga = pyo.Expression(m.I, rule=lambda m, i: sum(y[i] * y[l] * m.K[i, l] * m.alpha[l] for l in m.I))
    m.s = pyo.Expression(m.I, rule=lambda m, i: 1.0 - m.nu * y[i] + m.lam0[i] - m.lamC[i])
    penalty = sum(m.gamma[j] for j in m.J) if p == 1.0 else sum(m.gamma[j] ** p for j in m.J)
    inner = 0.5 * sum(m.alpha[i] * m.Ga[i] for i in m.I) - sum(m.s[i] * m.alpha[i] for i in m.I) \
        - C * sum(m.lamC[i] for i in m.I)
    m.obj = pyo.Objective(expr=C2 * penalty - (1.0 - C2) * inner, sense=pyo.minimize)  # (20a)
    m.stationarity = pyo.Constraint(m.I, rule=lambda m, i: m.Ga[i] - m.s[i] == 0.0)  # (20b)
    return m


def find_solver():
    """(name, SolverFactory) of the NLP solver to use: ``ipopt`` if available, else ``ripopt``."""
    from pyomo.environ import SolverFactory

    ipopt = SolverFactory("ipopt")
    if ipopt.available(exception_flag=False):
        return "ipopt", ipopt
    import pyomo_ripopt  # noqa: F401  (registers "ripopt")

    return "ripopt", SolverFactory("ripopt")


#: Iteration counts in the solver's log: Ipopt's summary line, ripopt's summary and diagnostics lines.
ITERATIONS_PATTERNS = (r"Number of Iterations\.*:\s*(\d+)", r"^iterations:\s*(\d+)", r"after (\d+) iterations")


def iterations_from_log(log: str) -> int | None:
    """The solver's iteration count as printed in its log (Ipopt or ripopt), or None if absent."""
    for pattern in ITERATIONS_PATTERNS:
        found = re.findall(pattern, log, flags=re.MULTILINE)
        if found:
            return int(found[-1])
    return None


def status_from(termination_condition, message: str) -> str:
    """Our status for Pyomo's termination condition and the solver's message. ripopt reports its own
    time limit as ``maxIterations`` with the message "Maximum CPU Time Exceeded", so the message decides;
    Ipopt's "acceptable" point arrives as a warning and is told apart by its message too."""
    from pyomo.opt import TerminationCondition as TC

    text = message.lower()
    if "acceptable" in text:
        return "acceptable"
    if re.search(r"(cpu|wall\w*) time exceeded", text):
        return "time_limit"
    return {TC.optimal: "ok", TC.locallyOptimal: "ok", TC.maxIterations: "max_iter",
            TC.maxTimeLimit: "time_limit", TC.maxEvaluations: "max_iter", TC.infeasible: "infeasible",
            TC.invalidProblem: "solver_error"}.get(termination_condition, "solver_error")


def _run_solver(solver, model, tee, time_limit):
    """``solver.solve`` with Pyomo's temporary files in a directory of our own, removed afterwards
    whatever happens, and the solver process killed ``time_limit`` seconds after it starts (Pyomo's
    ``timelimit``; it adds max(1 s, 1 %)). Returns (results or None when killed, log text)."""
    from pyomo.common.tempfiles import TempfileManager

    with tempfile.TemporaryDirectory(prefix="svmfs-pyomo-") as tmp:
        logfile = os.path.join(tmp, "solver.log")
        saved, TempfileManager.tempdir = TempfileManager.tempdir, tmp
        try:
            results = solver.solve(model, tee=tee, load_solutions=False, logfile=logfile, timelimit=time_limit)
        except subprocess.TimeoutExpired:
            TempfileManager.pop(remove=True)  # the context the interrupted solve pushed
            results = None
        finally:
            TempfileManager.tempdir = saved
        log = open(logfile).read() if os.path.exists(logfile) else ""
    return results, log


def solve_mmfs_pyomo(
    X, y, C, C2, start, *, p=1.0, alpha_bounds=True, hessian="auto", tol=1e-8, max_iter=3000,
    time_limit=None, lbfgs_history=None, max_size=DEFAULT_MAX_SIZE, tee=False,
) -> MMFSResult:
    """Build and solve (20) with Pyomo; same inputs and result type as ``mmfs_nlp.solve_mmfs``.

    ``time_limit`` covers the whole route: the model build is checked against it, and the solver gets
    what is left both as its own ``max_wall_time`` and as a hard kill of its process (ripopt's own limit
    is checked between iterations and was measured overrunning by ~55 s). Either ending has status
    ``time_limit``: stopped by its own check, the result is the solver's last iterate; killed, the start.
    The iteration count is read from the solver's log.
    ``lbfgs_history`` reaches a real Ipopt as ``limited_memory_max_history``; ripopt has no such option.
    """
    import pyomo.environ as pyo
    from pyomo.opt import SolverStatus

    n, M = np.shape(X)
    if n * M > max_size:
        raise ValueError(
            f"MM-FS Pyomo route refused: n*M = {n}*{M} = {n * M} exceeds the limit {max_size} "
            "(config key methods.mm_fs.params.pyomo_max_size); use route='cyipopt' or raise the limit"
        )
    t0 = time.perf_counter()
    prob = MMFSProblem(X, y, C, C2, p=p, alpha_bounds=alpha_bounds)
    model = build_model(X, y, C, C2, start, p=p, alpha_bounds=alpha_bounds)
    hessian = resolve_hessian(hessian, M)
    name, solver = find_solver()
    solver.options.update({"hessian_approximation": hessian, "tol": tol, "max_iter": int(max_iter)})
    remaining = None if time_limit is None else float(time_limit) - (time.perf_counter() - t0)
    if remaining is not None and remaining <= 0.0:
        return _start_result(prob, start, f"{name}: time limit reached while building the model", t0)
    if remaining is not None:
        solver.options["max_wall_time"] = remaining
    if name == "ripopt":
        solver.options["print_level"] = 5 if tee else 0
    elif hessian == "limited-memory" and lbfgs_history is not None:
        solver.options["limited_memory_max_history"] = int(lbfgs_history)
    results, log = _run_solver(solver, model, tee, remaining)
    if results is None:
        return _start_result(prob, start, f"{name}: process killed at the time limit ({time_limit:g} s)", t0)
    tc = results.solver.termination_condition
    message = f"{name}: {tc}; {results.solver.message or ''}".strip()
    status = status_from(tc, message)
    if len(results.solution) > 0:
        results.solver.status = SolverStatus.ok  # "acceptable" arrives as a warning; load it silently
        model.solutions.load_from(results)
    val = lambda comp: np.array([pyo.value(comp[k]) for k in comp], dtype=float)  # noqa: E731
    gamma, alpha, nu, lam0, lamC = val(model.gamma), val(model.alpha), float(pyo.value(model.nu)), val(model.lam0), val(model.lamC)
    z = prob.pack(gamma, alpha, nu, lam0, lamC)
    return MMFSResult(gamma, alpha, nu, lam0, lamC, prob.objective(z), status, message, iterations_from_log(log),
                      time.perf_counter() - t0, prob.residuals(z))


def _start_result(prob: MMFSProblem, start, message: str, t0: float) -> MMFSResult:
    """The start point as the result of a solve ended by the time limit before any iterate came back."""
    z = prob.pack(*start)
    g, a, v, l0, lC = prob.split(z)
    return MMFSResult(g.copy(), a.copy(), v, l0.copy(), lC.copy(), prob.objective(z), "time_limit", message, None,
                      time.perf_counter() - t0, prob.residuals(z))
