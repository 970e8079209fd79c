"""MM-FS: min-max feature selection for the Gaussian SVM (Jimenez-Cordero, Morales & Pineda 2021).

Algorithm 1 on the data given to ``fit`` (the paper's S~):

1. N-fold CV (seeded StratifiedKFold, N = ``n_folds``) of the SVM (10) with the isotropic kernel
   gamma_j = gamma over ``C_grid`` x ``gamma_grid`` -> (C*, gamma_ini);
2. the lower-level dual (18) for (C*, gamma_ini) with libsvm: alpha, nu = +intercept_, lam0, lamC
   (``solvers.mmfs_nlp.svc_start``; the complementarity residual of this start is recorded);
3. the single-level NLP (20a)-(20d) from that start, with Ipopt (``route="cyipopt"``) or the Pyomo
   model (``route="pyomo"``);
4. feature j is selected when gamma_j > ``threshold`` (section 5.2 follows [18]: 1e-2).

Choices where the paper leaves room: ties in step 1 go to the first (C, gamma) in grid order (C and
gamma ascending); Algorithm 1's last step (re-solving (10) with the anisotropic gamma) is not part of the
selector: the workflow's "anisotropic" final classifier (:mod:`svmfs.protocol.classifiers`) re-solves (10)
with kernel (13) and ``kernel_widths_`` on the selected features, its C tuned by the workflow's inner CV
(over ``final_classifier.anisotropic.C``; C* of step 1 is ``C_``). ``C`` and ``gamma_ini`` may be fixed
to skip step 1. Ipopt's "solved to acceptable level" is status "acceptable"; any other non-success keeps
the last iterate (all features when it is not finite; ``kernel_widths_`` is then the isotropic start
gamma_ini, the NO-FS kernel).

After ``fit``: ``weights_`` = ``scores_`` = gamma (inf when the NLP returned non-finite values),
``kernel_widths_`` = the gamma_j of kernel (13), ``C_``, ``gamma_ini_``.
"""

from __future__ import annotations

import time
from numbers import Integral, Real

import numpy as np
from sklearn.utils._param_validation import Interval, StrOptions

from ..solvers.mmfs_nlp import (
    HESSIAN_OPTIONS, PAPER_C_GRID, PAPER_GAMMA_GRID, aniso_kernel, isotropic_cv, resolve_hessian, resolve_scale_by_C,
    solve_mmfs, svc_start,
)
from .base import COUNT, FOLDS, POSITIVE, BaseSelector, ranking_from_scores

#: Values of ``route``.
ROUTES = ("cyipopt", "pyomo", "reduced")

#: C2 values of the paper's experiments (section 4.3), for a campaign's ``settings``.
PAPER_C2_GRID = [0.01] + [round(0.1 * k, 1) for k in range(1, 10)] + [0.99]


class MMFS(BaseSelector):
    """Min-max feature selection, problem (20), solved as in Algorithm 1 (Jimenez-Cordero et al. 2021, sec. 3-4).

    The single-level problem (20a)-(20d) joins the SVM dual (18) with the anisotropic Gaussian kernel (13)
    and the penalty C2 ||gamma||_p^p; feature j is kept where gamma_j > ``threshold`` (sec. 5.2).

    Parameters
    ----------
    C2 : float in [0, 1)
        Trade-off of (20a) between ||gamma||_p^p and the SVM dual objective (a job-level setting).
    p : float > 0
        Exponent of the penalty ||gamma||_p^p (paper: 1).
    C, gamma_ini : float or None
        Fix the SVM penalty / isotropic starting width; ``None`` chooses them by the inner CV.
    C_grid, gamma_grid : list or None
        Inner-CV grids; ``None`` = the paper's (C in {1e-4..1e-1, 1..9, 10..1e4}, gamma in {1e-4..1e4}).
    n_folds : int
        Folds of the inner CV (paper: 5).
    threshold : float
        gamma_j above it are selected (paper: 1e-2).
    route : {"cyipopt", "pyomo", "reduced"}
        Ipopt through cyipopt with hand-derived derivatives, the Pyomo model (small problems only; its
        time limit also covers the model build and kills the solver process; iterations read from its log),
        or "reduced": (20) in gamma alone, min_{gamma >= 0} C2 ||gamma||_p^p + (1 - C2) V(gamma) with V the
        SVM dual's optimal value (Wolfe duality; one libsvm solve per evaluation, Danskin's gradient), by
        L-BFGS-B, then Newton on the settled support (``solvers.mmfs_reduced``; p >= 1; ``hessian``,
        ``lbfgs_history``, ``scale_by_C``, ``tol`` and ``alpha_bounds`` do not apply). Same problem, another
        algorithm: (20) being non-convex, it may end at another local optimum than Ipopt from the same
        start (docs/methods/mm_fs.md counts how often).
    alpha_bounds : bool
        Include the redundant bounds (20d) 0 <= alpha <= C (paper: yes, helps the solver).
    hessian : {"auto", "limited-memory", "exact"}
        Ipopt's ``hessian_approximation`` on either route: L-BFGS, or exact second derivatives (cyipopt:
        the hand-derived Hessian of the Lagrangian, ``MMFSProblem.hessian``; Pyomo: the solver's own from
        the model). Exact takes fewer iterations; its gamma-gamma block costs O(n^2 M^2) per
        iteration. "auto" (default): exact up to 100 features, L-BFGS above
        (``mmfs_nlp.resolve_hessian``); the diagnostics record the one used.
    lbfgs_history : int
        Ipopt's ``limited_memory_max_history`` (L-BFGS pairs kept; Ipopt's default is 6). 50 by default:
        with 6 pairs the microarray fits stall at the iteration limit (docs/methods/mm_fs.md).
    scale_by_C : {"auto", True, False}
        cyipopt route, C > 1: Ipopt works in alpha / C, nu / C, lam0 / C, lamC / C with (20b) divided by C and
        (20a) by C^2 (``MMFSProblem.scaling``; the same problem, variables of order 1). Without it pima's
        fits at the C = 1e3-1e4 its inner CV picks stall to ``max_iter``. "auto" (default): with the exact
        Hessian only (``mmfs_nlp.resolve_scale_by_C``); diagnostics ``scaled_by_C`` records whether it was.
        The Pyomo route is left unscaled.
    tol, max_iter : Ipopt tolerance and iteration limit.
    time_limit : float or None
        Wall-clock seconds for the whole fit (the NLP gets what the inner CV left) -> "time_limit".
    pyomo_max_size : int
        Largest n * M the Pyomo route accepts.
    random_state : int
        Seed of the inner-CV folds.

    Attributes
    ----------
    weights_, scores_ : ndarray of shape (n_features,)
        gamma at the solution (inf where the NLP returned non-finite values).
    kernel_widths_ : ndarray of shape (n_features,)
        The gamma_j of kernel (13) for the final classifier (gamma_ini where the solution is not finite).
    support_ : ndarray of bool
        gamma_j > ``threshold``.
    ranking_ : ndarray of int
        Features by decreasing gamma_j.
    C_, gamma_ini_ : float
        The SVM penalty and the isotropic start (step 1's inner CV, or as given).
    n_iter_ : int
        Solver iterations.
    diagnostics_ : dict
        ``status``, ``objective`` (F at the returned gamma), route, Hessian, residuals, ``time_s``.

    Examples
    --------
    >>> import numpy as np
    >>> from svmfs.methods.mm_fs import MMFS
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(40, 6))
    >>> y = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(int)
    >>> sel = MMFS(C2=0.9, C=1.0, gamma_ini=0.2, route="reduced").fit(X, y)
    >>> sel.get_support().nonzero()[0].tolist()
    [0, 1]
    >>> sel.diagnostics_["status"]
    'ok'
    """

    _parameter_constraints = {
        "C2": [Interval(Real, 0, 1, closed="left")],  # 0 <= C2 < 1 (problem (20))
        "p": [POSITIVE],
        "C": [POSITIVE, None],
        "gamma_ini": [POSITIVE, None],
        "C_grid": ["array-like", None],
        "gamma_grid": ["array-like", None],
        "n_folds": [FOLDS],
        "threshold": [POSITIVE],
        "route": [StrOptions(set(ROUTES))],
        "alpha_bounds": ["boolean"],
        "tol": [POSITIVE],
        "max_iter": [COUNT],
        "time_limit": [POSITIVE, None],
        "pyomo_max_size": [Interval(Integral, 0, None, closed="left")],
        "random_state": ["random_state"],
        "hessian": [StrOptions(set(HESSIAN_OPTIONS))],
        "lbfgs_history": [COUNT],
        "scale_by_C": [StrOptions({"auto"}), "boolean"],
    }

    def __init__(
        self, C2=0.5, p=1.0, C=None, gamma_ini=None, C_grid=None, gamma_grid=None, n_folds=5, threshold=1e-2,
        route="cyipopt", alpha_bounds=True, tol=1e-8, max_iter=3000, time_limit=None, pyomo_max_size=20_000,
        random_state=0, hessian="auto", lbfgs_history=50, scale_by_C="auto",
    ):
        self.C2 = C2
        self.p = p
        self.C = C
        self.gamma_ini = gamma_ini
        self.C_grid = C_grid
        self.gamma_grid = gamma_grid
        self.n_folds = n_folds
        self.threshold = threshold
        self.route = route
        self.alpha_bounds = alpha_bounds
        self.tol = tol
        self.max_iter = max_iter
        self.time_limit = time_limit
        self.pyomo_max_size = pyomo_max_size
        self.random_state = random_state
        self.hessian = hessian
        self.lbfgs_history = lbfgs_history
        self.scale_by_C = scale_by_C

    def _fit(self, X, y):
        hessian = resolve_hessian(self.hessian, X.shape[1])
        scale_by_C = resolve_scale_by_C(self.scale_by_C, hessian)
        t0 = time.perf_counter()
        C, gamma_ini = self.C, self.gamma_ini
        cv_acc = None
        if C is None or gamma_ini is None:
            C_grid = [C] if C is not None else (self.C_grid or PAPER_C_GRID)
            g_grid = [gamma_ini] if gamma_ini is not None else (self.gamma_grid or PAPER_GAMMA_GRID)
            C, gamma_ini, cv_acc = isotropic_cv(X, y, C_grid, g_grid, self.n_folds, self.random_state)
        M = X.shape[1]
        alpha, nu, lam0, lamC, start_compl = svc_start(aniso_kernel(X, np.full(M, gamma_ini)), y, C)
        remaining = None if self.time_limit is None else max(self.time_limit - (time.perf_counter() - t0), 1e-3)
        kw = dict(p=self.p, alpha_bounds=self.alpha_bounds, hessian=hessian, tol=self.tol, max_iter=self.max_iter,
                  time_limit=remaining, lbfgs_history=self.lbfgs_history)
        start = (gamma_ini, alpha, nu, lam0, lamC)
        if self.route == "cyipopt":
            res = solve_mmfs(X, y, C, self.C2, start, scale_by_C=scale_by_C, **kw)
        elif self.route == "reduced":
            from ..solvers.mmfs_reduced import solve_mmfs_reduced

            res = solve_mmfs_reduced(X, y, C, self.C2, gamma_ini, p=self.p, max_iter=self.max_iter,
                                     time_limit=remaining)
        else:
            from ..solvers.mmfs_pyomo import solve_mmfs_pyomo

            res = solve_mmfs_pyomo(X, y, C, self.C2, start, max_size=self.pyomo_max_size, **kw)
        # clipped at 0 (Ipopt's bound relaxation may leave -1e-8); not finite -> keep every feature
        finite = np.all(np.isfinite(res.gamma))
        gamma = np.maximum(res.gamma, 0.0) if finite else np.full(M, np.inf)
        self.weights_ = gamma
        self.kernel_widths_ = gamma if finite else np.full(M, float(gamma_ini))
        self.scores_ = gamma
        self.ranking_ = ranking_from_scores(gamma)
        self.support_ = gamma > self.threshold
        self.C_, self.gamma_ini_ = C, gamma_ini
        self.n_iter_ = res.n_iter
        self.diagnostics_.update(
            status=res.status, objective=res.objective, n_iter=res.n_iter, message=res.message,
            route=self.route, hessian="L-BFGS-B (reduced)" if self.route == "reduced" else hessian,
            lbfgs_history=self.lbfgs_history,
            scaled_by_C=bool(scale_by_C and self.route == "cyipopt" and C > 1.0), C=C, gamma_ini=gamma_ini,
            cv_accuracy=cv_acc, start_complementarity=start_compl,
            gamma_l1=float(np.sum(np.abs(res.gamma))), n_selected=int(self.support_.sum()),
            nlp_time_s=res.time_s, **res.residuals,
        )
