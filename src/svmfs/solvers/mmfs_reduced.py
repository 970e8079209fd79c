"""Problem (20) of Jimenez-Cordero, Morales & Pineda (2021) solved in gamma alone (the "reduced" route).

For fixed gamma the rest of (20) is convex: minimising -(1 - C2) L(alpha, nu, lam0, lamC) over the points
with (20b) G a = s, lam0, lamC >= 0 and (20d) is (1 - C2) times the Wolfe dual of the SVM dual (18), whose
optimum is the SVM dual's optimal value (weak duality gives >=, the SVM's own KKT point gives =). So (20) is

    min_{gamma >= 0}  F(gamma) = C2 ||gamma||_p^p + (1 - C2) V(gamma),
    V(gamma) = max { e'a - 1/2 a' G(gamma) a : y'a = 0, 0 <= a <= C }   (the SVM dual's value),

and at a point of (20) with (20b) exact and complementarity, (20a) = F(gamma). The Gaussian kernel (13) is
positive definite on distinct points, so the SVM's alpha is unique, V is continuously differentiable and
Danskin's theorem gives its gradient at the SVM's solution a*:

    dV/dgamma_j = -1/2 a*' dG/dgamma_j a* = 1/2 q_j,   q = pair_sqdiff_sums(beta beta' * K),  beta = y * a*,

the gamma part of :meth:`MMFSProblem.gradient`. One evaluation is one SVM solve (libsvm, tolerance
:data:`SVM_TOL`, through scikit-learn's private binding as SVM-RFE does, SVC as the fallback) on an n x n
kernel plus a few (n x n) @ (n x M) products (docs/methods/mm_fs.md). The bound-constrained
problem in M variables is solved with L-BFGS-B (scipy), then, once the support {j: gamma_j > 0} has settled,
by projected Newton steps on it (:func:`newton_polish`, with the Hessian of F on the support from implicit
differentiation of the SVM's KKT equations, :meth:`SVMValue.hessian_free`). The alpha behind each evaluation
has its free part re-solved from those KKT equations (:meth:`SVMValue.refine`); where the previous
evaluation's support partition still gives an optimal alpha (every KKT condition checked), libsvm is skipped
(:meth:`SVMValue.alpha`). A C2 sweep (:func:`c2_path`) starts each C2 from the previous one's gamma on a
working set of widths, grown until the full problem's KKT conditions hold (:func:`solve_mmfs_reduced_from`).
The NLP (20) in cyipopt
carries gamma and 3n + 1 dual variables with n equality constraints and takes many more (and dearer)
iterations (docs/methods/mm_fs.md).

V is not twice differentiable where the SVM's support set changes, and (20) is non-convex: from one start a
different algorithm may end at a different local optimum. Where the problem has one optimum near the start
the routes agree (tests/test_mmfs_reduced.py). On colon (56 x 2000) they often do not, and Ipopt's own two
Hessian modes differ from each other too (docs/methods/mm_fs.md counts them).

Objective reported: F(gamma), which is (20a) at gamma with the SVM's exact solution. Ipopt's (20a) at its
own last iterate can sit slightly below F(max(gamma, 0)): its bound relaxation (bound_relax_factor 1e-8)
lets the ~2000 zero gammas go to -1e-8 each, which lowers ||gamma||_1 by ~2e-5 on colon. Compare routes by F
at max(gamma, 0) (:func:`reduced_objective`).
"""

from __future__ import annotations

import time

import numpy as np

from . import libsvm
from .anisotropic import pair_sqdiff_sums, sq_dists
from .mmfs_nlp import MMFSProblem, MMFSResult

#: libsvm's stopping tolerance (maximal KKT violation) for the SVM inside F: the gradient of F is exact
#: only at the SVM's optimum, and L-BFGS-B's line search needs F to ~1e-12.
SVM_TOL = 1e-12
#: L-BFGS-B pairs (``maxcor``) and stopping rules: relative reduction of F below FTOL (scipy's
#: factr * eps), or projected gradient below GTOL.
LBFGSB_HISTORY = 20
FTOL = 1e-15
GTOL = 1e-10
#: L-BFGS-B is restarted (fresh memory, at most MAX_RESTARTS times) when it stops on "relative reduction"
#: with the projected gradient of F above RESTART_PGTOL.
MAX_RESTARTS = 10
RESTART_PGTOL = 1e-7
#: Status after the restarts: "ok" when L-BFGS-B converged (or the projected gradient is below
#: RESTART_PGTOL), "acceptable" when it stalled with the projected gradient below ACCEPTABLE_PGTOL.
ACCEPTABLE_PGTOL = 1e-3
#: ``newton=True``: once the set of positive gamma_j has not changed for NEWTON_AFTER L-BFGS-B iterations,
#: :func:`newton_polish` takes over on it (L-BFGS-B otherwise needs hundreds of iterations there: F's
#: curvature on the ~20 selected widths is ill-conditioned); L-BFGS-B resumes if Newton stops short.
NEWTON_AFTER = 30


class _TimeUp(Exception):
    pass


class SVMValue:
    """F(gamma), its gradient and the SVM's alpha at gamma, for problem (20) in gamma alone."""

    def __init__(self, X, y, C, C2, p=1.0, svm_tol=SVM_TOL):
        self.X = np.ascontiguousarray(X, dtype=float)
        self.X2 = self.X**2
        self.y = np.asarray(y, dtype=float)
        self.y01 = (self.y > 0).astype(np.float64)  # SVC's label encoding: index into classes_ = [-1, 1]
        self.C, self.C2, self.p, self.svm_tol = float(C), float(C2), float(p), float(svm_tol)
        if self.p < 1.0:
            raise ValueError(f"the reduced route needs p >= 1 (||gamma||_p^p differentiable at 0), got p={p}")
        self.direct = libsvm.AVAILABLE
        self.n_eval = 0
        self.n_reused = 0  # evaluations whose alpha came from the previous support partition, without libsvm
        self._partition = None

    def kernel(self, gamma):
        on = gamma > 0.0  # zero widths do not enter the kernel: cheaper once most gamma_j are at 0
        return np.exp(-sq_dists(self.X[:, on], gamma[on]))

    def svm_alpha(self, K):
        """alpha of the SVM dual (18) on the precomputed kernel K (libsvm, tolerance ``svm_tol``)."""
        if self.direct:
            try:
                support, _, _, dual_coef, *_ = libsvm.precomputed_fit(K, self.y01, self.C, tol=self.svm_tol,
                                                                      shrinking=False)  # fmt: skip
                alpha = np.zeros(self.y.size)
                alpha[support] = np.abs(dual_coef.ravel())
                return np.clip(alpha, 0.0, self.C)
            except libsvm.API_ERRORS:  # the private API changed: public route
                self.direct = False
        from sklearn.svm import SVC

        svc = SVC(C=self.C, kernel="precomputed", tol=self.svm_tol, shrinking=False).fit(K, self.y)
        alpha = np.zeros(self.y.size)
        alpha[svc.support_] = np.abs(svc.dual_coef_.ravel())
        return np.clip(alpha, 0.0, self.C)

    def alpha(self, K):
        """The SVM's alpha at K. From the previous evaluation's support partition (free, at C, at 0) when the
        solution of the KKT equations on it satisfies every KKT condition of the dual (18) to ``svm_tol``
        (:meth:`kkt_on`): then it is the dual's optimum (unique, K positive definite) and libsvm is not
        called. Else libsvm and :meth:`refine`. Consecutive L-BFGS-B points mostly keep the partition."""
        if self._partition is not None:
            alpha = self.kkt_on(K, *self._partition)
            if alpha is not None:
                self.n_reused += 1
                return alpha
        alpha = self.refine(K, self.svm_alpha(K))
        edge = 1e-9 * self.C
        free, upper = (alpha > edge) & (alpha < self.C - edge), alpha >= self.C - edge
        self._partition = (free, upper) if free.any() else None
        return alpha

    def kkt_system(self, K, free, upper):
        """(G, [alpha_free; nu]) solving the SVM's KKT equations with ``free`` between the bounds and ``upper``
        at C: G_FF a_F + nu y_F = e_F - G_FU a_U, y_F'a_F = -y_U'a_U (G = diag(y) K diag(y)); None when the
        system is singular or its solution not finite."""
        C, y = self.C, self.y
        k = int(free.sum())
        G = (y[:, None] * K) * y[None, :]
        A = np.zeros((k + 1, k + 1))
        A[:k, :k] = G[np.ix_(free, free)]
        A[:k, k] = A[k, :k] = y[free]
        rhs = np.concatenate([1.0 - G[np.ix_(free, upper)] @ np.full(int(upper.sum()), C), [-C * y[upper].sum()]])
        try:
            sol = np.linalg.solve(A, rhs)
        except np.linalg.LinAlgError:
            return None
        return (G, sol) if np.all(np.isfinite(sol)) else None

    def kkt_on(self, K, free, upper):
        """alpha solving the SVM's KKT equations with ``free`` between the bounds, ``upper`` at C and the rest
        at 0 (:meth:`kkt_system`), if it is optimal: 0 < alpha_free < C, and r = y (K (y alpha)) - 1 + nu y
        (the dual's gradient) is >= -svm_tol at 0 and <= svm_tol at C; else None."""
        C, k = self.C, int(free.sum())
        system = self.kkt_system(K, free, upper)
        if system is None:
            return None
        G, sol = system
        if np.any(sol[:k] <= 1e-9 * C) or np.any(sol[:k] >= C - 1e-9 * C):
            return None
        alpha = np.where(upper, C, 0.0)
        alpha[free] = sol[:k]
        r = G @ alpha - 1.0 + sol[k] * self.y
        lower = ~free & ~upper
        if np.any(r[lower] < -self.svm_tol) or np.any(r[upper] > self.svm_tol):
            return None
        return alpha

    def refine(self, K, alpha, with_nu=False):
        """alpha with its free part (0 < alpha_i < C) re-solved from the SVM's KKT equations on that support,
        G_SS a_S + nu y_S = e_S - G_SB a_B, y_S'a_S = -y_B'a_B (B: alpha_i = C), when the solution stays in
        (0, C); else libsvm's alpha. libsvm stops at a KKT violation of ``svm_tol``, which on a nearly
        singular kernel (smallest eigenvalue 1e-7 at WDBC's optimum) leaves alpha, and Danskin's gradient
        with it, off by ~1e-5; the linear solve is exact to rounding."""
        C = self.C
        edge = 1e-9 * C
        S = (alpha > edge) & (alpha < C - edge)
        if not S.any():
            return (alpha, None) if with_nu else alpha
        B = alpha >= C - edge
        k = int(S.sum())
        system = self.kkt_system(K, S, B)
        if system is None or np.any(system[1][:k] <= 0.0) or np.any(system[1][:k] >= C):
            return (alpha, None) if with_nu else alpha
        sol = system[1]
        out = np.where(B, C, 0.0)
        out[S] = sol[:k]
        return (out, float(sol[k])) if with_nu else out

    def penalty(self, gamma):
        return float(gamma.sum()) if self.p == 1.0 else float(np.sum(gamma**self.p))

    def __call__(self, gamma):
        """(F(gamma), grad F(gamma)) for gamma >= 0."""
        self.n_eval += 1
        gamma = np.maximum(np.asarray(gamma, dtype=float), 0.0)
        K = self.kernel(gamma)
        alpha = self.alpha(K)
        beta = self.y * alpha
        V = alpha.sum() - 0.5 * beta @ K @ beta
        q = pair_sqdiff_sums(self.X, self.X2, np.outer(beta, beta) * K)
        pen_grad = np.ones_like(gamma) if self.p == 1.0 else self.p * gamma ** (self.p - 1.0)
        w = 1.0 - self.C2
        return self.C2 * self.penalty(gamma) + w * V, self.C2 * pen_grad + 0.5 * w * q


    def hessian_free(self, gamma, free):
        """Hessian of F on the coordinates ``free`` (boolean mask), where the SVM's support set is locally fixed:

            d2V/dgamma_j dgamma_k = -1/2 sum_il beta_i beta_l K_il D^j_il D^k_il + (y R)_S,j' Z (y R)_S,k,

        R_ij = sum_l K_il D^j_il beta_l, S the free support vectors (0 < alpha_i < C) and Z the S-block of the
        inverse of [[G_SS, y_S], [y_S', 0]] (implicit differentiation of the SVM's KKT equations; alpha at 0
        or C does not move). Plus C2 p (p - 1) gamma^(p - 2) for p > 1."""
        from .mmfs_nlp import pair_sqdiff_outer

        gamma = np.maximum(np.asarray(gamma, dtype=float), 0.0)
        K = self.kernel(gamma)
        alpha = self.alpha(K)
        y, C = self.y, self.C
        beta = y * alpha
        Xf = self.X[:, free]
        H = -0.5 * pair_sqdiff_outer(Xf, np.outer(beta, beta) * K)
        edge = 1e-9 * C
        S = (alpha > edge) & (alpha < C - edge)
        if S.any():
            Xf2 = Xf**2
            R = Xf2 * (K @ beta)[:, None] - 2.0 * Xf * (K @ (beta[:, None] * Xf)) + K @ (beta[:, None] * Xf2)
            YR = y[S, None] * R[S]
            k = int(S.sum())
            A = np.zeros((k + 1, k + 1))
            A[:k, :k] = (y[S, None] * K[np.ix_(S, S)]) * y[None, S]
            A[:k, k] = A[k, :k] = y[S]
            rhs = np.vstack([YR, np.zeros((1, YR.shape[1]))])
            H += YR.T @ np.linalg.lstsq(A, rhs, rcond=None)[0][:k]
        H = (1.0 - self.C2) * 0.5 * (H + H.T)
        if self.p != 1.0:
            g_free = np.maximum(gamma[free], 1e-12)
            H[np.diag_indices_from(H)] += self.C2 * self.p * (self.p - 1.0) * g_free ** (self.p - 2.0)
        return H


def newton_polish(fun, gamma, max_iter=30, pgtol=1e-10):
    """Projected Newton on F from ``gamma`` (near a local optimum, its support set found): steps on the
    coordinates that are positive or have a negative gradient, with :meth:`SVMValue.hessian_free` made
    positive definite (eigenvalues floored), projection on gamma >= 0 and Armijo backtracking on F.
    Returns (gamma, F, iterations); F never increases."""
    gamma = np.maximum(np.asarray(gamma, dtype=float), 0.0)
    f, g = fun(gamma)
    for it in range(max_iter):
        if projected_gradient(gamma, g) <= pgtol * max(1.0, abs(f)):
            return gamma, f, it
        free = (gamma > 0.0) | (g < 0.0)
        H = fun.hessian_free(gamma, free)
        lam, U = np.linalg.eigh(H)
        floor = 1e-8 * max(float(np.max(np.abs(lam), initial=0.0)), 1e-12)
        d = np.zeros_like(gamma)
        d[free] = -U @ ((U.T @ g[free]) / np.maximum(lam, floor))
        t, done = 1.0, False
        while t > 1e-10:
            cand = np.maximum(gamma + t * d, 0.0)
            fc, gc = fun(cand)
            if fc <= f + 1e-4 * (g @ (cand - gamma)) and fc <= f:
                done = True
                break
            t *= 0.5
        if not done:
            return gamma, f, it
        gamma, f, g = cand, fc, gc
    return gamma, f, max_iter


def reduced_objective(X, y, C, C2, gamma, p=1.0) -> float:
    """F(max(gamma, 0)): (20a) at gamma with the SVM solved exactly (to compare routes' end points)."""
    return SVMValue(X, y, C, C2, p)(np.maximum(np.asarray(gamma, dtype=float), 0.0))[0]


def projected_gradient(gamma, grad):
    """inf-norm of the projected gradient of F on gamma >= 0 (0 at a KKT point)."""
    return float(np.max(np.abs(np.maximum(gamma - grad, 0.0) - gamma), initial=0.0))


def solve_mmfs_reduced(
    X, y, C, C2, gamma0, *, p=1.0, max_iter=3000, time_limit=None, lbfgs_history=LBFGSB_HISTORY,
    ftol=FTOL, gtol=GTOL, svm_tol=SVM_TOL, restart_pgtol=RESTART_PGTOL, newton=True,
    newton_after=NEWTON_AFTER,
) -> MMFSResult:
    """Minimise F(gamma) over gamma >= 0 from ``gamma0`` (scalar or length M): L-BFGS-B, then (``newton``)
    projected Newton on the support once it has not changed for ``newton_after`` iterations.

    Returns the point of (20) at the end: gamma, the SVM's alpha and nu (:meth:`SVMValue.refine`; libsvm's
    alpha and intercept when the KKT solve does not apply), lam0, lamC (as :func:`svc_start` builds them),
    objective = F(gamma) ((20a) at the SVM's exact solution; residuals["objective_20a_at_point"] is (20a) at
    the returned point), status "ok" (converged), "acceptable" (stalled near a KKT point, see
    :data:`ACCEPTABLE_PGTOL`), "max_iter", "time_limit" or "solver_error", ``n_iter`` = L-BFGS-B iterations
    (Newton steps in the message), residuals: (20b) violation, bound violation, ``stationarity`` = the
    projected gradient of F, and the point's complementarity.
    """
    from scipy.optimize import minimize

    fun = SVMValue(X, y, C, C2, p, svm_tol)
    M = fun.X.shape[1]
    g0 = np.maximum(np.broadcast_to(np.asarray(gamma0, dtype=float), (M,)).copy(), 0.0)
    t0 = time.perf_counter()
    best = {"f": np.inf, "x": g0, "nit": 0}
    timed = _Timed(fun, t0, time_limit, best)
    state = {"mask": None, "same": 0, "newton": newton}

    def count(xk):
        best["nit"] += 1
        mask = xk > 0.0
        state["same"] = state["same"] + 1 if state["mask"] is not None and np.array_equal(mask, state["mask"]) else 0
        state["mask"] = mask
        if state["newton"] and state["same"] >= newton_after:
            raise StopIteration  # the support of gamma has settled: Newton on it (newton_polish)

    gamma, n_iter, restarts, newton_iter = g0, 0, 0, 0
    try:
        while True:
            state.update(mask=None, same=0)
            res = minimize(timed, gamma, jac=True, method="L-BFGS-B", bounds=[(0.0, None)] * M, callback=count,
                           options=dict(maxiter=max(int(max_iter) - n_iter, 1), maxfun=10 * int(max_iter) + 100,
                                        ftol=ftol, gtol=gtol, maxcor=int(lbfgs_history)))
            gamma, n_iter = np.maximum(res.x, 0.0), n_iter + int(res.nit)
            message = str(res.message)
            jac = res.jac
            if state["newton"] and state["same"] >= newton_after:
                state["newton"] = False  # once: if Newton does not finish, L-BFGS-B goes on from its point
                gamma, _, k = newton_polish(timed, gamma)
                newton_iter += k
                _, jac = fun(gamma)
                message = f"Newton on the support after L-BFGS-B ({k} steps)"
                if projected_gradient(gamma, jac) <= restart_pgtol:
                    res.status, res.success = 0, True
            pg = projected_gradient(gamma, jac)
            if res.status == 1 or n_iter >= max_iter or pg <= restart_pgtol or restarts >= MAX_RESTARTS:
                break
            # L-BFGS-B ended by "relative reduction" or a failed line search ("ABNORMAL") short of a KKT
            # point: F is not twice differentiable where the SVM's support set changes. Fresh memory.
            restarts += 1
        status = _lbfgsb_status(res, n_iter, max_iter, pg, restart_pgtol)
    except _TimeUp:
        gamma, n_iter, status, message = np.maximum(best["x"], 0.0), best["nit"], "time_limit", "time limit in L-BFGS-B"
    message += f"; {restarts} restart(s), {newton_iter} Newton step(s)"
    elapsed = time.perf_counter() - t0
    return _point_at(fun, gamma, status, message, n_iter, elapsed, svm_tol)


class _Timed:
    """F (recording the best point seen) and the free-set Hessian under the time limit, for
    L-BFGS-B and :func:`newton_polish`."""

    def __init__(self, fun, t0: float, time_limit, best: dict) -> None:
        self.fun, self.t0, self.time_limit, self.best = fun, t0, time_limit, best

    def _check(self) -> None:
        if self.time_limit is not None and time.perf_counter() - self.t0 > self.time_limit:
            raise _TimeUp

    def __call__(self, x):
        self._check()
        f, g = self.fun(x)
        if f < self.best["f"]:
            self.best.update(f=f, x=np.array(x, dtype=float))
        return f, g

    def hessian_free(self, x, free):
        self._check()
        return self.fun.hessian_free(x, free)


def _lbfgsb_status(res, n_iter: int, max_iter: int, pg: float, restart_pgtol: float) -> str:
    """The status of the last L-BFGS-B run from its result and the projected gradient ``pg`` at its end."""
    if res.status == 1 or (n_iter >= max_iter and pg > restart_pgtol):
        return "max_iter"
    if pg <= restart_pgtol or (res.success and pg <= ACCEPTABLE_PGTOL):
        return "ok"
    return "acceptable" if pg <= ACCEPTABLE_PGTOL else "solver_error"


def _point_at(fun, gamma, status: str, message: str, n_iter: int, elapsed: float, svm_tol: float) -> MMFSResult:
    """The point of (20) at ``gamma``: the SVM's alpha and nu, the multipliers, F and the residuals."""
    from .mmfs_nlp import svc_start

    K = fun.kernel(gamma)
    alpha, nu, lam0, lamC, compl = svc_start(K, fun.y, fun.C, tol=svm_tol)
    alpha_r, nu_r = fun.refine(K, fun.svm_alpha(K), with_nu=True)
    if nu_r is not None:  # the point F is evaluated at: alpha and nu from the SVM's KKT equations
        alpha, nu = alpha_r, nu_r
        r = fun.y * (K @ (fun.y * alpha)) - 1.0 + nu * fun.y
        lam0, lamC = np.maximum(r, 0.0), np.maximum(-r, 0.0)
        compl = float(max(np.max(np.abs(lam0 * alpha)), np.max(np.abs(lamC * (fun.C - alpha)))))
    prob = MMFSProblem(fun.X, fun.y, fun.C, fun.C2, p=fun.p)
    z = prob.pack(gamma, alpha, nu, lam0, lamC)
    lb, ub = prob.bounds()
    F, grad = fun(gamma)
    residuals = {
        "constraint_violation": float(np.max(np.abs(prob.constraints(z)))),
        "bound_violation": max(float(np.max(lb - z, initial=0.0)), float(np.max(z - ub, initial=0.0))),
        "stationarity": projected_gradient(gamma, grad),
        "complementarity": compl,
    }
    residuals["objective_20a_at_point"] = float(prob.objective(z))
    return MMFSResult(gamma, alpha, nu, lam0, lamC, float(F), status,
                      f"{message} ({fun.n_eval} SVM solves)", n_iter, elapsed, residuals)


#: From a neighbouring solution the support is nearly right: Newton takes over after this many L-BFGS-B
#: iterations with an unchanged support (cold fits: :data:`NEWTON_AFTER`).
WARM_NEWTON_AFTER = 10
#: KKT tolerance for a gamma_j at 0 outside the working set: dF/dgamma_j >= -WORKING_SET_TOL.
WORKING_SET_TOL = 1e-10


def solve_mmfs_reduced_from(X, y, C, C2, gamma_prev, *, max_rounds=20, time_limit=None,
                            newton_after=WARM_NEWTON_AFTER, **kwargs) -> MMFSResult:  # fmt: skip
    """Minimise F at ``C2`` from a neighbouring solution ``gamma_prev`` (another C2's), on a working set.

    F restricted to the columns W with gamma_j allowed to move is F itself at every point with gamma = 0
    off W (the kernel (13) and ||gamma||_p^p only see W). W starts as the support of ``gamma_prev`` plus
    every j with dF/dgamma_j < 0 there; :func:`solve_mmfs_reduced` solves on W; then the full gradient is
    checked, and each j off W with dF/dgamma_j < -:data:`WORKING_SET_TOL` (a violated KKT condition of
    gamma_j >= 0) joins W for another round. The result is a KKT point of the full problem, in ~30-50
    dimensions instead of M, so each evaluation is cheaper. Returns the last round's point with gamma
    embedded in R^M, ``stationarity`` the full problem's projected gradient, ``n_iter`` summed over rounds.
    """
    t0 = time.perf_counter()
    full = SVMValue(X, y, C, C2, kwargs.get("p", 1.0))
    M = full.X.shape[1]
    gamma = np.maximum(np.broadcast_to(np.asarray(gamma_prev, dtype=float), (M,)).copy(), 0.0)
    _, grad = full(gamma)
    work = (gamma > 0.0) | (grad < -WORKING_SET_TOL)
    n_iter, messages = 0, []
    for rnd in range(1, max_rounds + 1):
        left = None if time_limit is None else max(time_limit - (time.perf_counter() - t0), 1e-3)
        res = solve_mmfs_reduced(full.X[:, work], full.y, C, C2, gamma[work], time_limit=left,
                                 newton_after=newton_after, **kwargs)  # fmt: skip
        n_iter += int(res.n_iter or 0)
        messages.append(res.message)
        gamma = np.zeros(M)
        gamma[work] = res.gamma
        _, grad = full(gamma)
        add = ~work & (grad < -WORKING_SET_TOL)
        if not add.any() or res.status in ("time_limit", "solver_error"):
            break
        work |= add
    status = res.status if not add.any() or res.status in ("time_limit", "solver_error") else "max_iter"
    residuals = dict(res.residuals, stationarity=projected_gradient(gamma, grad))
    message = f"working set: {rnd} round(s), {int(work.sum())} of {M} widths; last round: {messages[-1]}"
    return MMFSResult(gamma, res.alpha, res.nu, res.lam0, res.lamC, res.objective, status, message, n_iter,
                      time.perf_counter() - t0, residuals)  # fmt: skip


def c2_path(X, y, C, C2s, gamma0, **kwargs) -> list[MMFSResult]:
    """Solutions of (20) along ``C2s`` (in the order given): the first from ``gamma0`` (a cold
    :func:`solve_mmfs_reduced`), each next one warm-started from the previous C2's gamma
    (:func:`solve_mmfs_reduced_from`). Each point is a KKT point of its own problem; (20) is non-convex,
    so a warm start may end at another local optimum than a cold fit (``python -m benchmarks run mmfs_solvers c2_path`` compares them)."""
    out = []
    for i, c2 in enumerate(C2s):
        if i == 0:
            out.append(solve_mmfs_reduced(X, y, C, c2, gamma0, **kwargs))
        else:
            out.append(solve_mmfs_reduced_from(X, y, C, c2, out[-1].gamma, **kwargs))
    return out
