"""KP-SVM: kernel-penalised SVM, Algorithm 1 of Maldonado, Weber & Basak (2011), section 4.2.

Kernel (11) with widths v (v_j = 1 / sigma_j), started isotropic at v = v0 e. Each iteration t:

1. step 1: the SVM dual (14) for the current v (libsvm, precomputed kernel on the features with v_j > 0)
   -> alpha (after the first iteration through scikit-learn's libsvm binding with SVC's arguments: the
   same alpha without SVC's per-call input validation, see :class:`_Dual`);
2. v^{t+1} = min(v^t - gamma * Delta F(v^t), v_max) with the gradient (16) for that alpha, on the
   features still in;
3. v_j^{t+1} = 0 where v_j^{t+1} < eps (feature eliminated for good, lines 6-8);
4. stop when ||v^{t+1} - v^t||_1 < ``tol`` ||v^t||_1 (line 9, "v^{t+1} == v^t", i.e. "v^{t+1} ~ v^t" in
   the text below it, monitored by the 1-norm as in section 6, Fig. 11), at the first iteration where it
   holds, or after ``max_iter`` iterations (status "max_iter").

Choices where the paper is open:

- the sign of (15): we descend (16) as printed, the gradient of -W^2 + C2 f (see
  :mod:`svmfs.solvers.anisotropic`); (15) as printed would drive every width to 0;
- defaults are section 6's suggestions: v0 and C from isotropic model selection (when not given:
  :func:`~svmfs.solvers.mmfs_nlp.isotropic_cv`, stratified ``n_folds``-fold CV on the training data over
  the paper's sigma grid (section 5.2) and a small C grid, ties to the smallest C, then the widest
  kernel; v0 = 1 / sigma), eps = v0 / 4, gamma = 0.25,
  beta = 5; C2 has no default in the paper (1.0 here; section 6: "the most influential parameter");
- step size: (16) scales with alpha^2 (so with C) and with the data, and gamma = 0.25 literally either
  barely moves v or overshoots (colon, 62 x 2000, C = 100, v0 = 0.01: ||v^1 - v^0||_1 = 178, one feature left after
  2 iterations). The default ``step_scale="shrink"`` fixes gamma once, from the first gradient, as the
  largest gamma for which the first step shrinks no width by more than ``step`` * v0 (section 4.2: gamma
  "has to be sufficiently small to avoid negative widths, especially at the first iterations"; with
  step = 0.25 and eps = v0 / 4 nothing is eliminated at the first step); growing widths are bounded by
  v_max (section 6), not by gamma. The iteration is still Algorithm 1 with a constant gamma.
  ``"relative"`` bounds the first change of every width, growing ones
  included, by step * v0; ``"absolute"`` is the paper's literal gamma;
- the stopping rule (line 9): the paper tests v^{t+1} == v^t and says "v^{t+1} ~ v^t", without a
  tolerance. A fixed-step gradient iteration reaches a fixed point only asymptotically (exactly only
  when every width left sits at v_max), so a tolerance is needed; we take it relative to ||v^t||_1
  (scale-free in v0, in the data's scaling and in the number of features), ``tol`` = 1e-3
  (docs/methods/kp_svm.md compares it with an absolute 1e-4);
- upper bound: section 6 recommends bounding v; ``v_max`` defaults to 10 v0 (``np.inf`` disables it);
- if an iteration would eliminate every remaining feature, the one with the largest v^t keeps v^t and
  the run stops (a usable, non-empty support; ``diagnostics_["message"]`` says so);
- ``ranking_``: features still in at the end first, by decreasing v; then eliminated ones, later
  eliminations first and, within one iteration's batch, larger v^t first (the paper's section 7 rule).

After ``fit``: ``weights_`` = v, ``support_`` = v > 0, ``kernel_widths_`` = v^2 / 2 = 1 / (2 sigma_j^2),
the gamma_j of exp(-sum_j gamma_j (x_j - z_j)^2) that equals kernel (11) (0 for eliminated features),
used by the workflow's "anisotropic" final classifier (the paper's final SVM with the widths found;
its C is tuned by the workflow's inner CV, ``C_`` is the C of Algorithm 1), ``diagnostics_["v_change"]``
= the list of ||v^{t+1} - v^t||_1 per iteration, ``diagnostics_["v_norm"]`` the matching ||v^t||_1,
``diagnostics_["n_selected"]`` the matching support sizes. (:class:`~svmfs.methods.kp_svm_rank.KPSVMRank`
inherits these widths, of Algorithm 1's run: a feature put back by its truncation has width 0, so that
method keeps an isotropic final SVM.)
"""

from __future__ import annotations

from numbers import Real

import numpy as np
from sklearn import config_context
from sklearn.svm import SVC
from sklearn.utils._param_validation import Interval, StrOptions

from ..solvers import libsvm
from ..solvers.anisotropic import kp_gradient, kp_kernel, penalty, w2
from ..solvers.mmfs_nlp import isotropic_cv
from .base import COUNT, FOLDS, POSITIVE, BaseSelector

#: Section 5.2's sigma grid; v0 = 1 / sigma, i.e. isotropic sklearn gamma = 1 / (2 sigma^2).
SIGMA_GRID = [0.1, 0.5, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 20, 100]
#: A small subset of section 5.2's C grid (the full grid has 18 values).
SMALL_C_GRID = [0.1, 1.0, 10.0, 100.0, 1000.0]


class KPSVM(BaseSelector):
    """Kernel-penalised SVM feature selection (Algorithm 1, eqs. 11, 13-16).

    Parameters
    ----------
    C : float or None
        SVM penalty of (14); ``None`` chooses it (with ``v0`` if also ``None``) by isotropic inner CV.
    C2 : float
        Weight of the feature penalty (13).
    v0 : float or None
        Isotropic starting width v0 = 1 / sigma; ``None`` from the isotropic inner CV.
    step : float
        Gradient step gamma of line 5 (paper: 0.25); see ``step_scale``.
    step_scale : {"shrink", "relative", "absolute"}
        "absolute": gamma = ``step`` (the paper, literally). "shrink": gamma = step * v0 / max_j Delta_j F(v0)
        over the positive components (falls back to max_j |Delta_j F(v0)| when none is positive), fixed
        after the first iteration, so the first step shrinks no width by more than step * v0. "relative":
        gamma = step * v0 / max_j |Delta_j F(v0)|, so the first step moves no width by more than step * v0.
    beta : float
        Approximation parameter of (13) (paper: 5).
    eps : float or None
        Elimination threshold of line 6; ``None`` = v0 / 4.
    v_max : float or None
        Upper bound on every v_j; ``None`` = 10 v0.
    tol : float
        Stop when ||v^{t+1} - v^t||_1 < tol * ||v^t||_1 (line 9).
    max_iter : int
        Iteration limit (section 6: convergence in fewer than 200 iterations).
    iterations : int or None
        Section 6's t: "Vary C2 ... using cross-validation for an increasing number of iterations, t" and
        "select the model by maximizing classification performance": the model after at most t iterations
        (the stopping rule may end it earlier), a grid point like C2, not a failure to converge (status
        "ok"); ``None``: the stopping rule (or ``max_iter``) alone.
    n_folds, random_state : folds and seed of the isotropic inner CV (used only when C or v0 is None).

    Attributes
    ----------
    support_ : ndarray of bool of shape (n_features,)
        The kept features.
    ranking_ : ndarray of int of shape (n_features,)
        1 = most important; the tuner reads smaller selections off it.
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
    Maldonado, Weber & Basak (2011), Algorithm 1 (section 4.2), eqs. 11, 13-16; C, v0 by isotropic CV in fit.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(40, 6))
    >>> y = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(int)
    >>> from svmfs.methods.kp_svm import KPSVM
    >>> sel = KPSVM(C=1.0).fit(X, y)
    >>> sel.get_support().nonzero()[0].tolist()
    [0, 1]
    """

    _parameter_constraints = {
        "C": [POSITIVE, None],
        "C2": [POSITIVE],
        "v0": [POSITIVE, None],
        "step": [POSITIVE],
        "step_scale": [StrOptions({"absolute", "relative", "shrink"})],
        "beta": [POSITIVE],
        "eps": [POSITIVE, None],
        "v_max": [Interval(Real, 0, None, closed="right"), None],  # inf: no cap
        "tol": [Interval(Real, 0, None, closed="left")],  # 0: run to max_iter
        "max_iter": [COUNT],
        "n_folds": [FOLDS],
        "random_state": ["random_state"],
        "iterations": [Interval(Real, 1, None, closed="left"), None],  # t of Algorithm 1's stop
    }

    def __init__(
        self, C=None, C2=1.0, v0=None, step=0.25, step_scale="shrink", beta=5.0, eps=None, v_max=None, tol=1e-3,
        max_iter=200, n_folds=5, random_state=0, iterations=None,
    ):
        self.C = C
        self.C2 = C2
        self.v0 = v0
        self.step = step
        self.step_scale = step_scale
        self.beta = beta
        self.eps = eps
        self.v_max = v_max
        self.tol = tol
        self.max_iter = max_iter
        self.n_folds = n_folds
        self.random_state = random_state
        self.iterations = iterations

    def _start(self, X, y):
        """(C, v0): the given ones, or isotropic model selection on the training data (section 6)."""
        C, v0 = self.C, self.v0
        if C is None or v0 is None:
            C_grid = [C] if C is not None else SMALL_C_GRID
            g_grid = [0.5 * v0**2] if v0 is not None else sorted(0.5 / s**2 for s in SIGMA_GRID)
            C, gamma, _ = _isotropic_cv(X, y, C_grid, g_grid, self.n_folds, self.random_state)
            v0 = np.sqrt(2.0 * gamma)
        return float(C), float(v0)

    def _fit(self, X, y):
        C, v0 = self._start(X, y)
        cap = self.max_iter if self.iterations is None else min(self.max_iter, int(self.iterations))
        run = kp_path(
            X, y, C=C, C2=self.C2, v0=v0, step=self.step, step_scale=self.step_scale, beta=self.beta,
            eps=v0 / 4.0 if self.eps is None else self.eps,
            v_max=10.0 * v0 if self.v_max is None else self.v_max, tol=self.tol, max_iter=cap,
        )
        stopped_at_t = self.iterations is not None and len(run["v_change"]) == cap < self.max_iter
        self.C_, self.v0_ = C, v0
        self.weights_ = run["v"]
        self.kernel_widths_ = 0.5 * run["v"] ** 2
        self.ranking_ = run["ranking"]
        self.n_iter_ = len(run["v_change"])
        self.support_ = run["v"] > 0
        self.diagnostics_.update(
            step_gamma=run["gamma"],
            status="ok" if run["converged"] or run["message"] or stopped_at_t else "max_iter",
            objective=run["objective"], message=run["message"], v_change=run["v_change"], v_norm=run["v_norm"],
            n_selected=run["n_selected"], converged=run["converged"], C=C, v0=v0,
        )


def kp_path(X, y, *, C, C2, v0, step, beta, eps, v_max, tol, max_iter, step_scale="shrink", stop_at=None) -> dict:
    """Algorithm 1 (and, with ``stop_at`` = r, Algorithm 2's stopping rule: |{v_j > 0}| <= r).

    Returns v, ranking (module doc), the per-iteration ||v^{t+1} - v^t||_1, ||v^t||_1 and support sizes, the
    final step-2 objective -W^2 + C2 f (alpha of the last SVM), convergence flag and message.
    """
    n = X.shape[1]
    v = np.full(n, float(v0))
    elim_iter = np.full(n, -1)  # iteration at which each feature was eliminated (-1: still in)
    last_v = np.zeros(n)  # v^t of an eliminated feature at its elimination
    norms = []
    changes, sizes, converged, message, objective = [], [], False, "", None
    if step_scale not in ("absolute", "relative", "shrink"):
        raise ValueError(f"step_scale must be 'absolute', 'relative' or 'shrink', got {step_scale!r}")
    gamma = step if step_scale == "absolute" else None
    dual = _Dual(y, C)
    for t in range(max_iter):
        A = np.flatnonzero(v > 0)
        XA = X[:, A]
        K = kp_kernel(XA, v[A])
        c = dual(K)  # step 1: (14), alpha_i y_i
        objective = -w2(c, K) + C2 * penalty(v[A], beta)
        new = np.zeros(n)
        grad = kp_gradient(XA, c, v[A], C2, beta, K)
        if gamma is None:  # fixed gamma: the first step shrinks ("shrink") / moves ("relative") no width by > step * v0
            g = grad.max() if step_scale == "shrink" and grad.max() > 0 else np.abs(grad).max()
            gamma = step * v0 / max(float(g), np.finfo(float).tiny)
        new[A] = np.minimum(v[A] - gamma * grad, v_max)  # line 5
        new[new < eps] = 0.0  # lines 6-8
        if not np.any(new > 0):
            keep = A[np.argmax(v[A])]
            new[keep] = v[keep]
            message = f"iteration {t}: every width fell below eps; kept feature {keep} and stopped"
        removed = A[new[A] == 0]
        elim_iter[removed], last_v[removed] = t, v[removed]
        changes.append(float(np.abs(new - v).sum()))
        norms.append(float(v.sum()))
        v = new
        sizes.append(int(np.count_nonzero(v)))
        if message:
            break
        if stop_at is not None:
            if sizes[-1] <= stop_at:
                converged = True
                break
        elif changes[-1] < tol * norms[-1]:  # line 9, v^{t+1} ~ v^t: relative 1-norm change
            converged = True
            break
    return {
        "v": v, "gamma": gamma, "ranking": _ranking(v, elim_iter, last_v), "v_change": changes, "v_norm": norms,
        "n_selected": sizes,
        "objective": objective, "converged": converged, "message": message,
    }


def _ranking(v, elim_iter, last_v) -> np.ndarray:
    """Survivors by decreasing v, then eliminated features: later iteration first, larger v^t first."""
    n = v.size
    alive = elim_iter < 0
    key_iter = np.where(alive, np.iinfo(np.int64).max, elim_iter)
    key_v = np.where(alive, v, last_v)
    order = np.lexsort((np.arange(n), -key_v, -key_iter))
    ranking = np.empty(n, dtype=np.int64)
    ranking[order] = np.arange(1, n + 1)
    return ranking


class _Dual:
    """alpha_i y_i of SVC(C, kernel="precomputed") (libsvm, tol 1e-3) for a sequence of kernels.

    The first solve goes through SVC (parameter and label validation); the later ones call scikit-learn's
    libsvm binding directly with exactly the arguments SVC passes (labels encoded 0/1, dual coefficients
    negated as SVC does for two classes), so alpha is the same, bit for bit, without SVC's ~1 ms of input
    validation per iteration. If the private binding is missing or its call fails, SVC for the rest.
    """

    def __init__(self, y, C):
        self.y = np.asarray(y)
        self.C = float(C)
        self.classes = np.unique(self.y)
        self.y01 = (self.y == self.classes[-1]).astype(np.float64)  # index into classes_
        self.direct = libsvm.AVAILABLE and self.classes.size == 2
        self.n_svc = 0

    def __call__(self, K):
        c = np.zeros(self.y.size)
        if self.direct and self.n_svc:
            try:
                support, _, _, dual_coef, *_ = libsvm.precomputed_fit(K, self.y01, self.C, tol=1e-3)
                c[support] = -dual_coef.ravel()  # SVC negates dual_coef_ for two classes
                return c
            except libsvm.API_ERRORS:  # the private API changed: public route
                self.direct = False
        with config_context(assume_finite=self.n_svc > 0, skip_parameter_validation=self.n_svc > 0):
            svc = SVC(C=self.C, kernel="precomputed").fit(K, self.y)
        self.n_svc += 1
        c[svc.support_] = svc.dual_coef_.ravel()
        return c


def _isotropic_cv(X, y, C_grid, gamma_grid, n_folds=5, random_state=0):
    """:func:`~svmfs.solvers.mmfs_nlp.isotropic_cv` (same folds, grid order, ties, result) with each SVC fit
    and predict replaced by scikit-learn's libsvm binding called with SVC's arguments (the model arrays
    libsvm returns are passed back to its predict as SVC does), which skips SVC's input validation
    (~2/3 of the time of the 350 fits of a colon start); falls back to ``isotropic_cv`` if the binding is
    missing, the labels are not two classes, or a call fails."""
    from sklearn.model_selection import StratifiedKFold

    from ..solvers.mmfs_nlp import sq_dists

    y = np.asarray(y)
    classes, counts = np.unique(y, return_counts=True)
    folds = int(min(n_folds, counts.min()))
    if not libsvm.AVAILABLE or classes.size != 2 or folds < 2:
        return isotropic_cv(X, y, C_grid, gamma_grid, n_folds, random_state)
    y01 = (y == classes[1]).astype(np.float64)
    D = sq_dists(X)
    splits = list(StratifiedKFold(folds, shuffle=True, random_state=random_state).split(X, y))
    acc = np.zeros((len(C_grid), len(gamma_grid)))
    try:
        for b, g in enumerate(gamma_grid):
            K = np.exp(-g * D)
            for tr, va in splits:
                Ktr, Kva = np.ascontiguousarray(K[np.ix_(tr, tr)]), np.ascontiguousarray(K[np.ix_(va, tr)])
                for a, C in enumerate(C_grid):
                    model = libsvm.precomputed_fit(Ktr, y01[tr], C, tol=1e-3)
                    pred = libsvm.precomputed_predict(Kva, model)
                    acc[a, b] += np.mean(classes.take(np.asarray(pred, dtype=np.intp)) == y[va]) / folds
    except libsvm.API_ERRORS:  # the private API changed: public route
        return isotropic_cv(X, y, C_grid, gamma_grid, n_folds, random_state)
    a, b = np.unravel_index(np.argmax(acc), acc.shape)  # first maximum in C-major order
    return float(C_grid[a]), float(gamma_grid[b]), float(acc[a, b])
