"""KP-FS off-the-shelf: the KP-SVM model (Maldonado, Weber & Basak 2011, eqs. 11-15) solved by alternation
with general-purpose solvers, as the comparator of Jimenez-Cordero et al. (2021), section 4.3.

Kernel (11): K(x_i, x_s, v) = exp(-||v * x_i - v * x_s||^2 / 2) (= kernel (13) with gamma_j = v_j^2 / 2).
Alternation (at most ``max_alternations`` = 5 rounds, section 4.3):

- step 1: the convex SVM dual (14) for fixed v (libsvm, precomputed kernel) -> alpha;
- step 2: problem (15), min_{v >= 0} sum alpha_i alpha_s y_i y_s K(v) + C2 sum_j (1 - exp(-beta v_j)) with
  beta = 5, by Ipopt (L-BFGS, analytic gradient) from ``n_starts`` = 3 starts: the current v and
  v * U(0, 2) componentwise (seeded); the start reaching the lowest F is kept.

Stops when ||v_new - v_old||_1 <= ``tol_v`` (1 + ||v_old||_1), when v has collapsed (below), or after
``max_alternations`` rounds (the paper's design, not a failure: status "ok", ``diagnostics_["converged"]`` tells
which). Choices: v starts isotropic at v0 = sqrt(2 gamma_ini), and C (when ``None``) is chosen, by the same inner
CV as MM-FS's Algorithm 1 (section 4.3 gives a grid for C but not how v0 is set); feature j is selected when its
equivalent gamma_j = v_j^2 / 2 exceeds ``threshold`` (1e-2), the criterion MM-FS uses, so both methods threshold
the same kernel scale. (15) is written as in the paper, without the 1/2 of (14).
``kernel_widths_`` = ``scores_`` = v^2 / 2 (gamma_j of kernel (13)) for the workflow's "anisotropic" final
classifier on the selected features.

Note: K(0) = e e' and y'alpha = 0, so v = 0 attains F = 0, the global minimum of (15) for every alpha;
Ipopt returns a local minimum near its start, which is what the alternation relies on.

Collapse: a final v within the alternation's own stopping test of that minimum, ||v - 0||_1 <= ``tol_v``
(1 + ||0||_1), is returned as v = 0 exactly (``diagnostics_["collapsed"]``), and ends the alternation: v = 0 is
(15)'s global minimum for every alpha, and near it dF/dv_j = C2 beta > 0, so every later round's step 2 would
return it again (jimenez2021's 220 committed fits all collapsed in round 1 and ran a second round that did, with
up to 3 000 Ipopt iterations in a fit). Section 5.1 reports this outcome:
"the gamma variables of all features tend to zero, leading to inaccurate predictions, where all the elements
are classified with the label of the predominant class". Left at Ipopt's last iterate (v_j up to 3.6e-7 in
jimenez2021's 220 fits), the final SVM's kernel is 1 - O(1e-13): its decision values, and so its AUC, rank
round-off that another CPU orders differently (docs/methods/kp_fs_offshelf.md). At v = 0 it is
the majority-class classifier on every machine. ``objective`` is F (15) at the returned v, with the alpha of
the last step 1, not Ipopt's value at its unclipped iterate, which its bound relaxation can leave below zero; at
v = 0 it is (sum_i alpha_i y_i)^2, zero by (14)'s constraint up to libsvm's round-off (about 1e-28), computed in
that closed form: beta' K beta with K = e e' sums n terms as large as C and keeps a round-off of 1e-9 that
BLAS orders differently on another CPU.
The gradient (16) printed by Maldonado et al. is that of (15) with the opposite sign of its first term
(the KP-SVM module, ``kp_svm``, follows (16)); solved as printed, to optimality, the widths collapse to
zero, which is what Jimenez-Cordero et al. report for this comparator (section 5.1: "the gamma
variables of all features tend to zero"), so this module keeps (15) as printed.
"""

from __future__ import annotations

import time
from numbers import Real

import numpy as np
from sklearn.svm import SVC
from sklearn.utils._param_validation import Interval

from ..solvers.kp_widths import KPWidthProblem, solve_kp_widths
from ..solvers.mmfs_nlp import PAPER_C_GRID, PAPER_GAMMA_GRID, aniso_kernel, isotropic_cv
from .base import COUNT, FOLDS, POSITIVE, BaseSelector, ranking_from_scores


class KPFSOffShelf(BaseSelector):
    """KP-SVM model (12)-(15) by alternation: libsvm for (14), Ipopt multistart for (15).

    Parameters
    ----------
    C : float or None
        SVM penalty; ``None`` chooses it (with v0) by the isotropic inner CV.
    C2 : float
        Weight of the 0-"norm" approximation (13) in (15).
    beta : float
        Parameter of the approximation (13) (paper: 5).
    v0 : float or None
        Isotropic starting width; ``None`` = sqrt(2 gamma_ini) from the inner CV.
    C_grid, gamma_grid, n_folds : inner-CV grids (paper's when ``None``) and folds.
    max_alternations, n_starts : rounds of the alternation (5) and Ipopt starts per step 2 (3).
    threshold : float
        Selected when v_j^2 / 2 > threshold.
    tol_v : float
        Relative change of v that stops the alternation.
    max_iter : int
        Ipopt iteration limit per start.
    time_limit : float or None
        Wall-clock seconds per fit -> status "time_limit" with the best v so far.
    random_state : int
        Seeds the inner-CV folds and the multistart.

    Attributes
    ----------
    support_ : ndarray of bool of shape (n_features,)
        The kept features.
    ranking_ : ndarray of int of shape (n_features,)
        1 = most important; the tuner reads smaller selections off it.
    scores_ : ndarray of shape (n_features,)
        The per-feature score the selection ranks by.
    weights_ : ndarray of shape (n_features,)
        The model's weight of each feature (0 off the support).
    kernel_widths_ : ndarray of shape (n_features,)
        Kernel widths for the ``anisotropic`` final classifier.
    C_ : float
        The SVM penalty used (chosen by the method's own inner CV where not given).
    n_iter_ : int
        Iterations of the method's outer loop.
    diagnostics_ : dict
        ``status``, ``objective``, ``n_iter``, ``message`` and ``time_s`` (:mod:`svmfs.methods.base`).

    References
    ----------
    Maldonado, Weber & Basak (2011), eqs. 11-15; off-the-shelf as in Jimenez-Cordero et al. (2021), 4.3.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(40, 6))
    >>> y = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(int)
    >>> from svmfs.methods.kp_fs_offshelf import KPFSOffShelf
    >>> sel = KPFSOffShelf(C=10.0).fit(X, y)
    >>> int(sel.get_support().sum())  # the widths collapse to zero, as sec. 5.1 reports
    0
    """

    _parameter_constraints = {
        "C": [POSITIVE, None],
        "C2": [POSITIVE],
        "beta": [POSITIVE],
        "v0": [POSITIVE, None],
        "C_grid": ["array-like", None],
        "gamma_grid": ["array-like", None],
        "n_folds": [FOLDS],
        "max_alternations": [COUNT],
        "n_starts": [COUNT],
        "threshold": [POSITIVE],
        "tol_v": [Interval(Real, None, None, closed="neither")],  # < 0: both stopping tests off
        "max_iter": [COUNT],
        "time_limit": [POSITIVE, None],
        "random_state": ["random_state"],
    }

    def __init__(
        self, C=None, C2=0.5, beta=5.0, v0=None, C_grid=None, gamma_grid=None, n_folds=5, max_alternations=5,
        n_starts=3, threshold=1e-2, tol_v=1e-4, max_iter=500, time_limit=None, random_state=0,
    ):
        self.C = C
        self.C2 = C2
        self.beta = beta
        self.v0 = v0
        self.C_grid = C_grid
        self.gamma_grid = gamma_grid
        self.n_folds = n_folds
        self.max_alternations = max_alternations
        self.n_starts = n_starts
        self.threshold = threshold
        self.tol_v = tol_v
        self.max_iter = max_iter
        self.time_limit = time_limit
        self.random_state = random_state

    def _fit(self, X, y):
        t0 = time.perf_counter()
        rng = np.random.default_rng(self.random_state)
        C, v0 = self.C, self.v0
        if C is None or v0 is None:
            C_grid = [C] if C is not None else (self.C_grid or PAPER_C_GRID)
            g_grid = [0.5 * v0**2] if v0 is not None else (self.gamma_grid or PAPER_GAMMA_GRID)
            C, gamma_ini, _ = isotropic_cv(X, y, C_grid, g_grid, self.n_folds, self.random_state)
            v0 = np.sqrt(2.0 * gamma_ini)
        M = X.shape[1]
        v = np.full(M, float(v0))
        status, converged, objective, n_iter, rounds = "ok", False, None, 0, 0
        for rounds in range(1, self.max_alternations + 1):
            svc = SVC(C=C, kernel="precomputed").fit(aniso_kernel(X, 0.5 * v * v), y)  # step 1: (14)
            beta_vec = np.zeros(y.size)
            beta_vec[svc.support_] = svc.dual_coef_.ravel()  # alpha_i y_i
            best = None
            starts = [v] + [v * rng.uniform(0.0, 2.0, M) for _ in range(self.n_starts - 1)]
            for start in starts:  # step 2: (15), multistart
                left = None if self.time_limit is None else self.time_limit - (time.perf_counter() - t0)
                if left is not None and left <= 0:
                    status = "time_limit"
                    break
                cand, F, st, it = solve_kp_widths(X, beta_vec, self.C2, start, b=self.beta, max_iter=self.max_iter, time_limit=left)
                n_iter += it
                if st == "time_limit":
                    status = "time_limit"
                elif st != "ok" and status in ("ok", "acceptable"):
                    status = st  # acceptable, max_iter, solver_error: the first non-ok outcome is kept
                if np.all(np.isfinite(cand)) and (best is None or F < best[1]):
                    best = (cand, F)
            if best is None:
                break
            change = np.abs(best[0] - v).sum()
            v, objective = best
            if change <= self.tol_v * (1.0 + np.abs(v).sum()) or np.maximum(v, 0.0).sum() <= self.tol_v:
                converged = True  # a stopped v, or a collapsed one: every later round would return v = 0 again
                break
            if status == "time_limit":
                break
        v = np.maximum(v, 0.0)  # Ipopt's bound relaxation may leave -1e-9
        collapsed = bool(v.sum() <= self.tol_v)  # the stopping test between v and F's global minimum v = 0
        if collapsed:
            v = np.zeros(M)
        if objective is not None and collapsed:
            objective = float(np.sum(beta_vec)) ** 2  # F(0) = beta' e e' beta in closed form (module note)
        elif objective is not None:  # F (15) at the v returned, with the alpha of the last step 1
            objective = KPWidthProblem(X, beta_vec, self.C2, self.beta).objective(v)
        gamma_eq = 0.5 * v * v
        self.weights_ = v
        self.scores_ = gamma_eq
        self.kernel_widths_ = gamma_eq
        self.ranking_ = ranking_from_scores(gamma_eq)
        self.support_ = gamma_eq > self.threshold
        self.n_iter_ = rounds
        self.C_, self.v0_ = C, float(v0)
        self.diagnostics_.update(
            status=status, objective=objective, n_iter=rounds, message=f"{rounds} alternation(s), {n_iter} Ipopt iterations",
            converged=converged, collapsed=collapsed, ipopt_iterations=n_iter, C=C, v0=float(v0), n_selected=int(self.support_.sum()),
        )
