"""Ipopt (through cyipopt) problems on the anisotropic Gaussian kernel, with hand-derived derivatives.

- :class:`MMFSProblem`: the single-level NLP (20a)-(20d) of Jimenez-Cordero, Morales & Pineda (2021),
  variables z = (gamma [M], alpha [n], nu, lambda0 [n], lambdaC [n]);
- the isotropic start both methods share (:func:`isotropic_cv`, :func:`svc_start`), and the Ipopt driver
  (:func:`ipopt_solve`, :func:`ipopt_options`) that :mod:`svmfs.solvers.kp_widths` (KP-SVM's problem (15)
  over the widths, the KP-FS off-the-shelf comparator) uses too.

Kernel (13): K_gamma(x_i, x_l) = exp(-sum_j gamma_j (x_ij - x_lj)^2)
(:func:`~svmfs.solvers.anisotropic.aniso_kernel`); KP-SVM's kernel (11) is the same with
gamma_j = v_j^2 / 2. Every derivative is a pair sum weighted by squared coordinate differences,
computed without forming anything of size n*n*M: for symmetric W,

    sum_{i,l} W_il (x_ij - x_lj)^2 = 2 sum_i x_ij^2 (W e)_i - 2 sum_i x_ij (W X)_ij,

so an evaluation costs a few (n x n) @ (n x M) products and O(n M + n^2) memory.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from .anisotropic import aniso_kernel, pair_sqdiff_sums, sq_dists

#: Ipopt ApplicationReturnStatus -> svmfs status (base.STATUSES).
IPOPT_STATUS = {0: "ok", 1: "acceptable", 2: "infeasible", -1: "max_iter", -4: "time_limit", -5: "time_limit"}

#: gamma floor at which the curvature C2 p (p-1) gamma^(p-2) of ||gamma||_p^p is evaluated (p < 2).
HESS_GAMMA_FLOOR = 1e-8

#: Values of ``hessian`` accepted by :func:`solve_mmfs`: Ipopt's ``hessian_approximation``, or "auto".
HESSIAN_OPTIONS = ("auto", "limited-memory", "exact")

#: ``hessian="auto"`` takes the exact Hessian up to this many features and L-BFGS above: the exact Hessian's
#: dense M x M block is cheap at small M and dear at microarray size (docs/methods/mm_fs.md).
AUTO_EXACT_MAX_FEATURES = 100


def resolve_hessian(hessian: str, n_features: int) -> str:
    """The ``hessian_approximation`` Ipopt gets: ``hessian`` itself, or for "auto" exact / limited-memory
    by :data:`AUTO_EXACT_MAX_FEATURES`; an unknown value raises ValueError naming the parameter."""
    if hessian not in HESSIAN_OPTIONS:
        raise ValueError(f"hessian must be one of {HESSIAN_OPTIONS}, got {hessian!r}")
    if hessian == "auto":
        return "exact" if n_features <= AUTO_EXACT_MAX_FEATURES else "limited-memory"
    return hessian


def resolve_scale_by_C(scale_by_C, hessian: str) -> bool:
    """Whether :func:`solve_mmfs` scales by C (:meth:`MMFSProblem.scaling`): ``scale_by_C`` itself, or for
    "auto" with the exact Hessian only (with L-BFGS, scaling helps at some C and hurts at others;
    docs/methods/mm_fs.md)."""
    if scale_by_C == "auto":
        return hessian == "exact"
    if isinstance(scale_by_C, (bool, np.bool_)):
        return bool(scale_by_C)
    raise ValueError(f"scale_by_C must be 'auto', True or False, got {scale_by_C!r}")


def pair_sqdiff_outer(X: np.ndarray, W: np.ndarray, chunk_entries: int = 1 << 22, lower: bool = False) -> np.ndarray:
    """H_jk = sum_{i,l} W_il (x_ij - x_lj)^2 (x_ik - x_lk)^2 for symmetric W (M x M).

    = 2 D' diag(W_pairs) D over the pairs i < l (D: one row of squared differences per pair), accumulated
    over chunks of at most ``chunk_entries`` entries of D so memory stays O(chunk) whatever n and M. Each
    chunk is two symmetric rank-k updates (BLAS syrk, half the flops of a general product): the pairs
    with positive weight scaled by sqrt(w), minus those with negative weight scaled by sqrt(-w).
    ``lower=True`` returns only the lower triangle (the upper is zero), as the Hessian callback needs.
    """
    from scipy.linalg.blas import dsyrk

    n, M = X.shape
    iu, lu = np.triu_indices(n, 1)
    w = 2.0 * W[iu, lu]
    L = np.zeros((M, M), order="F")
    step = max(1, chunk_entries // max(M, 1))
    for a in range(0, iu.size, step):
        wa, ia, la = w[a:a + step], iu[a:a + step], lu[a:a + step]
        for sign in (1.0, -1.0):
            rows = sign * wa > 0.0
            if rows.any():
                D = np.sqrt(sign * wa[rows])[:, None] * (X[ia[rows]] - X[la[rows]]) ** 2
                L = dsyrk(sign, D.T, beta=1.0, c=L, trans=0, lower=1, overwrite_c=1)  # L += sign D'D
    return L if lower else L + np.tril(L, -1).T


def ipopt_solve(problem, x0, lb, ub, cl, cu, options: dict, scaling=None):
    """Run cyipopt on ``problem`` (an object with the cyipopt callbacks); return (x, info, n_iter).

    ``scaling = (obj, x, g)`` switches Ipopt to ``nlp_scaling_method = user-scaling`` with those factors.
    """
    import cyipopt

    nlp = cyipopt.Problem(n=x0.size, m=len(cl), problem_obj=problem, lb=lb, ub=ub, cl=cl, cu=cu)
    if scaling is not None:
        obj_s, x_s, g_s = scaling
        nlp.set_problem_scaling(obj_scaling=float(obj_s), x_scaling=np.asarray(x_s, dtype=float),
                                g_scaling=np.asarray(g_s, dtype=float))
        options = {**options, "nlp_scaling_method": "user-scaling"}
    for key, value in {"print_level": 0, "sb": "yes", **options}.items():
        nlp.add_option(key, value)
    problem.n_iter = 0
    x, info = nlp.solve(np.asarray(x0, dtype=float))
    return x, info, problem.n_iter


#: L-BFGS pairs Ipopt keeps (``limited_memory_max_history``) unless told otherwise; Ipopt's own default is 6.
LBFGS_HISTORY = 50


def ipopt_options(hessian: str, tol: float, max_iter: int, time_limit: float | None,
                  lbfgs_history: int | None = None) -> dict:
    """Ipopt options; ``lbfgs_history`` None keeps Ipopt's own default (6 pairs)."""
    opts = {"hessian_approximation": hessian, "tol": tol, "max_iter": int(max_iter)}
    if hessian == "limited-memory" and lbfgs_history is not None:
        opts["limited_memory_max_history"] = int(lbfgs_history)
    if time_limit is not None:
        opts["max_wall_time"] = float(time_limit)
    return opts


@dataclass
class MMFSResult:
    """A point of (20) with the solver's outcome and residuals (inf-norms)."""

    gamma: np.ndarray
    alpha: np.ndarray
    nu: float
    lam0: np.ndarray
    lamC: np.ndarray
    objective: float
    status: str
    message: str
    n_iter: int | None
    time_s: float
    residuals: dict = field(default_factory=dict)


class MMFSProblem:
    """Problem (20a)-(20d) with objective, gradient, constraints (20b) and their dense Jacobian.

    (20a)  min C2 ||gamma||_p^p - (1 - C2) (1/2 a'G a - s'a - C e'lamC),  s = e - nu y + lam0 - lamC
    (20b)  G a - s = 0,   G = diag(y) K_gamma diag(y)
    (20c)  gamma, lam0, lamC >= 0;   (20d)  0 <= alpha <= C  (redundant; ``alpha_bounds=False`` drops it)

    Derivatives (beta = y * alpha, W = beta beta' * K, q = pair_sqdiff_sums(W)):
      d(20a)/dgamma_j = C2 p gamma_j^(p-1) + (1 - C2) q_j / 2,   d/dalpha = -(1 - C2) (G a - s),
      d/dnu = -(1 - C2) y'a,   d/dlam0 = (1 - C2) a,   d/dlamC = -(1 - C2) (a - C e);
      d(G a)_i/dgamma_j = -y_i sum_l (x_ij - x_lj)^2 K_il beta_l
                        = -y_i [x_ij^2 (K beta)_i - 2 x_ij (K (beta*X))_ij + (K (beta*X^2))_ij],
      d(20b)/dalpha = G,  d/dnu = y,  d/dlam0 = -I,  d/dlamC = I.

    Hessian of the Lagrangian L = sigma f + mu'(20b) (``hessian``; sigma = obj_factor, w = 1 - C2,
    D^j_il = (x_ij - x_lj)^2, eta = y * mu). With Q = beta'K beta, f = C2 ||gamma||_p^p - w/2 Q + w (e - nu y
    + lam0 - lamC)'a + w C e'lamC and mu'(20b) = eta'K beta + (linear in nu, lam0, lamC), and
    dK_il/dgamma_j = -D^j_il K_il, d2K_il/dgamma_j dgamma_k = D^j_il D^k_il K_il, the nonzero blocks are
      gamma-gamma:  sum_{i,l} W_il D^j_il D^k_il + diag(sigma C2 p (p-1) gamma^(p-2)),
                    W = K * (sym(eta beta') - sigma w/2 beta beta'),  sym(A) = (A + A')/2;
      alpha_l-gamma_j:  -y_l sum_i zeta_i K_il D^j_il = -y_l [x_lj^2 (K zeta)_l - 2 x_lj (K (zeta*X))_lj
                    + (K (zeta*X^2))_lj],  zeta = eta - sigma w beta   (the Jacobian's formula, zeta for beta);
      alpha-alpha:  -sigma w G   ((20b) is linear in alpha);
      alpha-nu:  -sigma w y;   alpha_i-lam0_i:  +sigma w;   alpha_i-lamC_i:  -sigma w   (bilinear s'a of (20a)).
    The gamma-gamma block needs every pair (i, l): it is accumulated as D' diag(W) D over chunks of the
    pairs i < l (rows of D: the squared differences of one pair) by symmetric rank-k updates, O(n^2 M^2 / 2)
    flops, O(chunk M) memory.
    For 0 < p < 2, gamma^(p-2) is unbounded at gamma = 0 (the penalty is not twice differentiable there):
    it is evaluated at max(gamma, :data:`HESS_GAMMA_FLOOR`) (p = 1: the term is 0; p < 1: it is negative,
    the penalty being concave, and Ipopt's inertia correction handles the indefinite Hessian).
    """

    def __init__(self, X, y, C, C2, p=1.0, alpha_bounds=True):
        self.X = np.ascontiguousarray(X, dtype=float)
        self.X2 = self.X**2
        self.y = np.asarray(y, dtype=float)
        self.C, self.C2, self.p, self.alpha_bounds = float(C), float(C2), float(p), bool(alpha_bounds)
        self.n, self.M = self.X.shape
        n, M = self.n, self.M
        self.nvar = M + 3 * n + 1
        self._cache_gamma = None
        self.n_iter = 0
        # slices of z
        self.sg, self.sa = slice(0, M), slice(M, M + n)
        self.inu = M + n
        self.s0, self.sC = slice(M + n + 1, M + 2 * n + 1), slice(M + 2 * n + 1, M + 3 * n + 1)

    # -- layout ---------------------------------------------------------------------------------
    def split(self, z):
        z = np.asarray(z, dtype=float)
        return z[self.sg], z[self.sa], float(z[self.inu]), z[self.s0], z[self.sC]

    def pack(self, gamma, alpha, nu, lam0, lamC):
        return np.concatenate([np.broadcast_to(gamma, (self.M,)), alpha, [nu], lam0, lamC]).astype(float)

    def bounds(self):
        n, M, inf = self.n, self.M, 2e19
        a_lo, a_hi = (0.0, self.C) if self.alpha_bounds else (-inf, inf)
        lb = np.concatenate([np.zeros(M), np.full(n, a_lo), [-inf], np.zeros(2 * n)])
        ub = np.concatenate([np.full(M, inf), np.full(n, a_hi), [inf], np.full(2 * n, inf)])
        return lb, ub

    def scaling(self):
        """Ipopt user scaling for C > 1, else None: alpha, nu, lam0, lamC and (20b) divided by C, (20a) by C^2.

        In a = alpha / C, (20b) reads G a - (e / C - nu' y + lam0' - lamC') = 0, every term of order 1 at the
        isotropic start (alpha of order C there). Ipopt's default gradient-based scaling, computed once at
        that start, can stall at C = 1e3-1e4 (docs/methods/mm_fs.md).
        """
        if self.C <= 1.0:
            return None
        x = np.full(self.nvar, 1.0 / self.C)
        x[self.sg] = 1.0
        return self.C**-2, x, np.full(self.n, 1.0 / self.C)

    # -- shared pieces ----------------------------------------------------------------------------
    def _kernel(self, gamma):
        if self._cache_gamma is None or not np.array_equal(gamma, self._cache_gamma):
            self._cache_gamma = gamma.copy()
            self._K = aniso_kernel(self.X, gamma)
        return self._K

    def _parts(self, z):
        gamma, alpha, nu, lam0, lamC = self.split(z)
        K = self._kernel(gamma)
        Ga = self.y * (K @ (self.y * alpha))
        s = 1.0 - nu * self.y + lam0 - lamC
        return gamma, alpha, nu, lam0, lamC, K, Ga, s

    def _weighted_sqdiff(self, K, v):
        """R_lj = sum_i v_i K_il (x_ij - x_lj)^2 = x_lj^2 (K v)_l - 2 x_lj (K (v*X))_lj + (K (v*X^2))_lj."""
        X, X2 = self.X, self.X2
        return X2 * (K @ v)[:, None] - 2.0 * X * (K @ (v[:, None] * X)) + K @ (v[:, None] * X2)

    def _penalty(self, gamma):
        return gamma.sum() if self.p == 1.0 else float(np.sum(gamma**self.p))

    def _penalty_grad(self, gamma):
        return np.ones_like(gamma) if self.p == 1.0 else self.p * gamma ** (self.p - 1.0)

    # -- cyipopt callbacks -------------------------------------------------------------------------
    def objective(self, z):
        gamma, alpha, nu, lam0, lamC, K, Ga, s = self._parts(z)
        inner = 0.5 * alpha @ Ga - s @ alpha - self.C * lamC.sum()
        return float(self.C2 * self._penalty(gamma) - (1.0 - self.C2) * inner)

    def gradient(self, z):
        gamma, alpha, nu, lam0, lamC, K, Ga, s = self._parts(z)
        w = 1.0 - self.C2
        beta = self.y * alpha
        q = pair_sqdiff_sums(self.X, self.X2, np.outer(beta, beta) * K)
        g = np.empty(self.nvar)
        g[self.sg] = self.C2 * self._penalty_grad(gamma) + 0.5 * w * q
        g[self.sa] = -w * (Ga - s)
        g[self.inu] = -w * (self.y @ alpha)
        g[self.s0] = w * alpha
        g[self.sC] = -w * (alpha - self.C)
        return g

    def constraints(self, z):
        *_, Ga, s = self._parts(z)
        return Ga - s

    def jacobian_dense(self, z):
        gamma, alpha, nu, lam0, lamC, K, Ga, s = self._parts(z)
        n, y = self.n, self.y
        beta = y * alpha
        J = np.zeros((n, self.nvar))
        J[:, self.sg] = -y[:, None] * self._weighted_sqdiff(K, beta)
        J[:, self.sa] = (y[:, None] * K) * y[None, :]
        J[:, self.inu] = y
        J[:, self.s0] = -np.eye(n)
        J[:, self.sC] = np.eye(n)
        return J

    def jacobianstructure(self):
        """Row i: dense over (gamma, alpha, nu), one entry each for lam0_i and lamC_i."""
        if not hasattr(self, "_jac_idx"):
            n, dense = self.n, self.M + self.n + 1
            rows = np.repeat(np.arange(n), dense + 2)
            cols = np.empty((n, dense + 2), dtype=int)
            cols[:, :dense] = np.arange(dense)
            cols[:, dense] = self.s0.start + np.arange(n)
            cols[:, dense + 1] = self.sC.start + np.arange(n)
            self._jac_idx = (rows, cols.ravel())
        return self._jac_idx

    def jacobian(self, z):
        return self.jacobian_dense(z)[self.jacobianstructure()]

    def hessianstructure(self):
        """Lower triangle (row >= col) of the Lagrangian's Hessian: gamma-gamma (dense), alpha-gamma (dense),
        alpha-alpha (dense), nu-alpha, lam0_i-alpha_i, lamC_i-alpha_i."""
        if not hasattr(self, "_hess_idx"):
            n, M, a0 = self.n, self.M, self.sa.start
            ar = np.arange(n)
            gg, aa = np.tril_indices(M), np.tril_indices(n)
            rows = [gg[0], np.repeat(a0 + ar, M), a0 + aa[0], np.full(n, self.inu),
                    self.s0.start + ar, self.sC.start + ar]
            cols = [gg[1], np.tile(np.arange(M), n), a0 + aa[1], a0 + ar, a0 + ar, a0 + ar]
            self._hess_idx = (np.concatenate(rows), np.concatenate(cols))
        return self._hess_idx

    def hessian(self, z, lagrange, obj_factor):
        """Values of obj_factor * Hess f + sum_i lagrange_i Hess (20b)_i at :meth:`hessianstructure`."""
        gamma, alpha, nu, lam0, lamC, K, Ga, s = self._parts(z)
        y, n = self.y, self.n
        sw = float(obj_factor) * (1.0 - self.C2)
        beta, eta = y * alpha, y * np.asarray(lagrange, dtype=float)
        W = 0.5 * (np.outer(eta, beta) + np.outer(beta, eta)) - 0.5 * sw * np.outer(beta, beta)
        W *= K
        Hgg = pair_sqdiff_outer(self.X, W, lower=True)
        if self.p != 1.0:
            g = np.maximum(gamma, HESS_GAMMA_FLOOR)
            Hgg[np.diag_indices(self.M)] += obj_factor * self.C2 * self.p * (self.p - 1.0) * g ** (self.p - 2.0)
        zeta = eta - sw * beta
        Hag = -y[:, None] * self._weighted_sqdiff(K, zeta)
        Haa = -sw * (y[:, None] * K * y[None, :])
        return np.concatenate([
            Hgg[np.tril_indices(self.M)], Hag.ravel(), Haa[np.tril_indices(n)],
            -sw * y, np.full(n, sw), np.full(n, -sw),
        ])

    def hessian_dense(self, z, lagrange, obj_factor):
        """The full symmetric Hessian of the Lagrangian (for checks), assembled from :meth:`hessian`."""
        rows, cols = self.hessianstructure()
        H = np.zeros((self.nvar, self.nvar))
        H[rows, cols] = self.hessian(z, lagrange, obj_factor)
        return H + np.tril(H, -1).T

    def intermediate(self, alg_mod, iter_count, *args):
        self.n_iter = int(iter_count)
        return True

    # -- checks -----------------------------------------------------------------------------------
    def residuals(self, z, mult_g=None, mult_lo=None, mult_hi=None) -> dict:
        """Constraint violation of (20b)-(20d) and, given Ipopt's multipliers, KKT stationarity
        ||grad f + J' mult_g - z_L + z_U||_inf and bound complementarity."""
        lb, ub = self.bounds()
        z = np.asarray(z, dtype=float)
        bound_viol = max(float(np.max(lb - z, initial=0.0)), float(np.max(z - ub, initial=0.0)))
        out = {"constraint_violation": float(np.max(np.abs(self.constraints(z)))), "bound_violation": bound_viol}
        if mult_g is not None:
            stat = self.gradient(z) + self.jacobian_dense(z).T @ mult_g - mult_lo + mult_hi
            fin_lo, fin_hi = lb > -1e19, ub < 1e19
            compl = np.concatenate([(mult_lo * (z - lb))[fin_lo], (mult_hi * (ub - z))[fin_hi]])
            out["stationarity"] = float(np.max(np.abs(stat)))
            out["complementarity"] = float(np.max(np.abs(compl), initial=0.0))
        return out


def svc_start(K: np.ndarray, y: np.ndarray, C: float, tol: float = 1e-8):
    """Solve the lower-level SVM (10)/(18) for a fixed kernel with libsvm and build (alpha, nu, lam0, lamC).

    scikit-learn's SVC has ``dual_coef_ = alpha*y`` and decision ``dual_coef_ K + intercept_``; with
    nu = +intercept_ the stationarity (17) gives lam0 - lamC = G a - e + nu y = y f(x) - 1, split into its
    positive and negative parts. Returns the point and its complementarity residual
    max_i max(|lam0_i alpha_i|, |lamC_i (C - alpha_i)|), which is 0 at an exact SVM solution.
    """
    from sklearn.svm import SVC

    svc = SVC(C=C, kernel="precomputed", tol=tol).fit(K, y)
    # libsvm orders classes as classes_ = [-1, 1]: dual_coef_ = alpha * y with y = +1 for classes_[1]
    alpha = np.zeros(y.size)
    alpha[svc.support_] = np.abs(svc.dual_coef_.ravel())
    alpha = np.clip(alpha, 0.0, C)
    nu = float(svc.intercept_[0])
    r = y * (K @ (y * alpha)) - 1.0 + nu * y
    lam0, lamC = np.maximum(r, 0.0), np.maximum(-r, 0.0)
    compl = float(max(np.max(np.abs(lam0 * alpha)), np.max(np.abs(lamC * (C - alpha)))))
    return alpha, nu, lam0, lamC, compl


def solve_mmfs(
    X, y, C, C2, start, *, p=1.0, alpha_bounds=True, hessian="auto", tol=1e-8, max_iter=3000,
    time_limit=None, lbfgs_history=LBFGS_HISTORY, options=None, scale_by_C="auto",
) -> MMFSResult:
    """Solve (20) with Ipopt from ``start = (gamma, alpha, nu, lam0, lamC)`` (gamma may be a scalar).

    ``hessian``: "limited-memory" (L-BFGS), "exact" (:meth:`MMFSProblem.hessian`) or "auto"
    (:func:`resolve_hessian`); ``scale_by_C`` (True, False, "auto": :func:`resolve_scale_by_C`): Ipopt's user
    scaling of :meth:`MMFSProblem.scaling` when C > 1, else Ipopt's default gradient-based scaling.
    """
    prob = MMFSProblem(X, y, C, C2, p=p, alpha_bounds=alpha_bounds)
    hessian = resolve_hessian(hessian, prob.M)
    scaling = prob.scaling() if resolve_scale_by_C(scale_by_C, hessian) else None
    lb, ub = prob.bounds()
    z0 = np.clip(prob.pack(*start), lb, ub)
    opts = {**ipopt_options(hessian, tol, max_iter, time_limit, lbfgs_history), **(options or {})}
    t0 = time.perf_counter()
    z, info, n_iter = ipopt_solve(prob, z0, lb, ub, np.zeros(prob.n), np.zeros(prob.n), opts, scaling)
    elapsed = time.perf_counter() - t0
    res = prob.residuals(z, info["mult_g"], info["mult_x_L"], info["mult_x_U"])
    gamma, alpha, nu, lam0, lamC = prob.split(z)
    msg = info["status_msg"].decode() if isinstance(info["status_msg"], bytes) else str(info["status_msg"])
    return MMFSResult(
        gamma.copy(), alpha.copy(), nu, lam0.copy(), lamC.copy(), float(info["obj_val"]),
        IPOPT_STATUS.get(int(info["status"]), "solver_error"), msg, n_iter, elapsed, res,
    )


#: Paper grids (section 4.2-4.3): C in {1e-4..1e-1, 1, 2, ..., 9, 10..1e4}, isotropic gamma in {1e-4..1e4}.
PAPER_C_GRID = [10.0**k for k in range(-4, 0)] + [float(k) for k in range(1, 10)] + [10.0**k for k in range(1, 5)]
PAPER_GAMMA_GRID = [10.0**k for k in range(-4, 5)]


#: Tie rules of :func:`isotropic_cv` (the paper names none; docs/protocols/jimenez2021.md).
ISOTROPIC_TIES = ("smallest", "largest")


def isotropic_cv(X, y, C_grid, gamma_grid, n_folds=5, random_state=0, ties="smallest", tol=1e-3):
    """Algorithm 1, first step: N-fold CV of the SVM (10) with gamma_j = gamma for all j.

    Seeded StratifiedKFold; returns (C*, gamma_ini, best mean validation accuracy). ``tol``: libsvm's stopping
    tolerance of each SVM (its default 1e-3; section 4.2 solves them with CPLEX). ``ties="smallest"``: ties go
    to the first pair in grid order (C ascending outer, gamma ascending inner), i.e. the simplest model;
    ``"largest"``: to the largest C among the best pairs, then its smallest gamma (section 3.3 is silent on
    ties). With fewer members in a class than ``n_folds``, the number of folds is reduced to that count (at
    least 2).
    """
    if ties not in ISOTROPIC_TIES:
        raise ValueError(f"ties must be one of {ISOTROPIC_TIES}, got {ties!r}")
    from sklearn.model_selection import StratifiedKFold
    from sklearn.svm import SVC

    folds = int(min(n_folds, np.min(np.unique(y, return_counts=True)[1])))
    if folds < 2:
        return float(C_grid[0]), float(gamma_grid[0]), float("nan")
    D = sq_dists(X)
    splits = list(StratifiedKFold(folds, shuffle=True, random_state=random_state).split(X, y))
    acc = np.zeros((len(C_grid), len(gamma_grid)))
    for b, g in enumerate(gamma_grid):
        K = np.exp(-g * D)
        for tr, va in splits:
            Ktr, Kva = K[np.ix_(tr, tr)], K[np.ix_(va, tr)]
            for a, C in enumerate(C_grid):
                pred = SVC(C=C, kernel="precomputed", tol=tol).fit(Ktr, y[tr]).predict(Kva)
                acc[a, b] += np.mean(pred == y[va]) / folds
    a, b = np.unravel_index(np.argmax(acc), acc.shape)  # first maximum in C-major order
    if ties == "largest":  # the largest C holding the maximum, then its first (smallest) gamma
        a = int(np.flatnonzero((acc == acc[a, b]).any(axis=1))[-1])
        b = int(np.argmax(acc[a] == acc[a].max()))
    return float(C_grid[a]), float(gamma_grid[b]), float(acc[a, b])
