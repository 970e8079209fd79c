"""The SVM weights SVM-RFE ranks by, one class per solver route (:class:`svmfs.methods.svm_rfe.SVMRFE`'s
``solver``): each gives w of the linear SVM (hinge loss, L2 penalty; MIT 9.520 project, section 2.2) on the active
features, and drops the features the elimination removes.

- :class:`LiblinearWeights`: LinearSVC refitted on the active columns;
- :class:`KernelWeights`: the SVM dual on the linear kernel of the active features, downdated as features leave
  (section 2.5's reuse of calculations), by libsvm (:mod:`svmfs.solvers.libsvm`) with SVC.fit as the fallback;
- :class:`WarmKernelWeights`: the same dual by SMO warm-started at the previous step's alpha;
- :class:`ActiveSetWeights`: the same dual solved exactly by rank-one updates of its KKT system.

Routes protocol: ``idx[:m]`` holds the original indices of the ``m`` active features in the order of the weights
``__call__()`` returns; ``select(n_remove)`` gives the positions to remove now; ``remove(positions)`` drops them.
Routes, tie rule and what each route gives against scikit-learn's RFE: docs/methods/svm_rfe.md.
"""

from __future__ import annotations

import math

import numpy as np
from sklearn.svm import SVC, LinearSVC

from . import libsvm
from .smo import smo


def smallest(w, idx, n_remove, tie=0.0):
    """Positions of the ``n_remove`` smallest |w|, smallest first; ties: higher original index first.

    One at a time, |w_j| <= min |w| + ``tie`` counts as a tie (the kernel routes pass a bound on the
    rounding of w_j, so that identical columns tie although BLAS may round their products differently);
    several at a time, the order is by the computed |w| and exact ties only.
    """
    a = np.abs(w)
    if n_remove == 1:
        j = int(np.argmin(a))
        ties = np.flatnonzero(a <= a[j] + tie)
        return ties[[int(np.argmax(idx[ties]))]] if ties.size > 1 else np.array([j])
    return np.lexsort((-idx, a))[:n_remove]


class LiblinearWeights:
    """w on the active features from LinearSVC (hinge loss, L2), refitted on the active columns.

    Route protocol (shared by all routes): ``idx[:m]`` holds the original indices of the ``m`` active
    features in the order of the weights that ``__call__()`` returns; ``remove(positions)`` drops the
    features at these positions of that order. Here the active columns stay in their original order.
    """

    def __init__(self, X, y, C, max_iter):
        self.X, self.y, self.svm = X, y, LinearSVC(C=C, loss="hinge", dual=True, max_iter=max_iter, random_state=0)
        self.idx, self.m = np.arange(X.shape[1]), X.shape[1]

    def __call__(self):
        return self.svm.fit(self.X[:, self.idx], self.y).coef_.ravel()

    def select(self, n_remove):
        """Positions of the features to remove now (refit, then the smallest |w|)."""
        return smallest(self(), self.idx, n_remove)

    def tie(self):
        return 0.0

    def remove(self, positions):
        self.idx = np.delete(self.idx, positions)
        self.m = self.idx.size


class KernelWeights:
    """w on the active features from the SVM dual on a downdated linear kernel (see module doc).

    The active columns are kept as the first ``m`` rows of a feature-major copy ``XT`` (p x n), so
    w = XT[:m] @ (alpha * y) is one matrix-vector product and a removal moves the last active row
    into the freed slot (O(n), ``idx`` follows); the order of ``idx`` is therefore not sorted.
    """

    prune = True  # False: w in full at every step (tests)

    def __init__(self, X, y, C, max_iter=None):
        self.X, self.y, self.C = X, y, C
        self.XT = np.array(X.T, dtype=np.float64, order="C")
        self.idx, self.m = np.arange(X.shape[1]), X.shape[1]
        self.K = X @ X.T
        self.n_at_recompute = X.shape[1]
        self.coef = np.zeros(X.shape[0])  # alpha_i y_i on all samples (0 off the support)
        self.norms = np.sqrt(np.einsum("ij,ij->i", self.XT, self.XT))  # ||x_j||, in the order of XT
        self.norm_max = float(self.norms.max(initial=0.0))
        self.abs_ref, self.coef_ref, self.ref_norm = np.zeros(X.shape[1]), None, 0.0  # |w| = |XT[:m] @ coef_ref|
        self.n_full = self.n_pruned = 0
        self.direct = libsvm.AVAILABLE
        self.y01 = (y > 0).astype(np.float64)  # SVC's label encoding: index into classes_ = [-1, 1]
        self.fits = {"libsvm": 0, "SVC": 0}
        self.tol = 1e-3  # libsvm's stopping tolerance, SVC's default

    def __call__(self):
        support, dual_coef = self._dual()
        self.coef[:] = 0.0
        self.coef[support] = dual_coef.ravel()
        w = self.XT[: self.m] @ self.coef
        self._reference(w, self.coef)
        self.n_full += 1
        return w

    def _reference(self, w, c):
        np.abs(w, out=self.abs_ref[: w.size])
        self.coef_ref = c.copy()
        self.ref_norm = math.sqrt(c @ c)

    def tie(self, c=None):
        """Tie margin of |w_j|: 1e-12 ||c|| max_j ||x_j||, ~100x a bound of the rounding of x_j' c."""
        c = self.coef if c is None else c
        return 1e-12 * math.sqrt(c @ c) * self.norm_max

    def select(self, n_remove):
        """Positions of the features to remove now: solve the dual, then the smallest |w|.

        One at a time, w is not recomputed for every active feature: with w_ref = X_A' c_ref from
        the last full product and the new c = alpha * y, |w_j - w_ref_j| <= ||x_j|| ||c - c_ref||
        (Cauchy-Schwarz), so only the features whose lower bound |w_ref_j| - ||x_j|| ||c - c_ref||
        is at most |w_j0| (j0: the smallest lower bound) can hold the minimum, or tie with it;
        their w is computed exactly and the rule of ``smallest`` applied to them (ties within
        ``tie()``: the candidates include every j with lower bound <= |w_j0| + tie). The bound carries
        a rounding margin (1e-12 (||c|| + ||c_ref||), against n eps ~ 1e-14 of a length-n dot
        product). When more than m/8 features remain candidates, w is recomputed in full.
        """
        if n_remove > 1 or self.coef_ref is None:
            return smallest(self(), self.idx[: self.m], n_remove, self.tie())
        support, dual_coef = self._dual()
        c, m = self.coef, self.m
        c[:] = 0.0
        c[support] = dual_coef.ravel()
        d = c - self.coef_ref
        c_norm = math.sqrt(c @ c)
        dist = math.sqrt(d @ d) + 1e-12 * (c_norm + self.ref_norm)
        lower = self.abs_ref[:m] - dist * self.norms[:m]
        tie = 1e-12 * c_norm * self.norm_max  # = self.tie(c)
        j0 = int(np.argmin(lower))
        cand = np.flatnonzero(lower <= abs(self.XT[j0] @ c) + tie)
        if cand.size > m // 8 or not self.prune:
            w = self.XT[:m] @ c
            self._reference(w, c)
            self.n_full += 1
            return smallest(w, self.idx[:m], 1, tie)
        self.n_pruned += 1
        return cand[smallest(self.XT[cand] @ c, self.idx[cand], 1, tie)]

    def _dual(self):
        """Support indices and alpha_i y_i of the C-SVC on the precomputed kernel self.K."""
        if self.direct and self.fits["SVC"]:  # the first fit goes through SVC: parameter validation
            try:
                support, _, _, dual_coef, *_ = libsvm.precomputed_fit(self.K, self.y01, self.C, tol=self.tol)
                self.fits["libsvm"] += 1
                return support, -dual_coef  # SVC negates dual_coef_ for two classes
            except libsvm.API_ERRORS:  # the private API changed: public route
                self.direct = False
        svc = SVC(kernel="precomputed", C=self.C, tol=self.tol).fit(self.K, self.y)
        self.fits["SVC"] += 1
        return svc.support_, svc.dual_coef_

    def remove(self, positions):
        m, XT, idx = self.m, self.XT, self.idx
        Xr = XT[positions].T  # n x r, in removal order
        self.m = m_new = m - len(positions)
        if len(positions) == 1:  # move the last active row into the freed slot
            j = int(positions[0])
            for a in (XT, idx, self.norms, self.abs_ref):
                a[j] = a[m - 1]
        else:
            keep = np.ones(m, dtype=bool)
            keep[positions] = False
            for a in (XT, idx, self.norms, self.abs_ref):
                a[:m_new] = a[:m][keep]
        if 2 * m_new <= self.n_at_recompute:  # recompute: the active columns in their original order
            Xa = self.X[:, np.sort(idx[:m_new])]
            self.K = Xa @ Xa.T
            self.n_at_recompute = m_new
        else:
            self.K -= Xr @ Xr.T


class WarmKernelWeights(KernelWeights):
    """The kernel route with our SMO (solvers/smo.py) warm-started from the previous step's alpha."""

    def __init__(self, X, y, C, max_iter, warm_start=True, tol=1e-3):
        super().__init__(X, y, C)
        self.max_iter, self.warm_start, self.tol = max_iter, warm_start, tol
        self.alpha, self.smo_iter, self.unconverged = None, [], 0

    def _dual(self):
        # alpha stays feasible after a removal (the constraints do not involve the features); smo
        # recomputes G = Q a - e once from the downdated kernel
        start = self.alpha if self.warm_start else None
        self.alpha, n_iter, converged = smo(self.K, self.y, float(self.C), start, tol=self.tol, max_iter=self.max_iter)
        self.smo_iter.append(n_iter)
        self.unconverged += not converged
        support = np.flatnonzero(self.alpha > 0)
        return support, (self.alpha * self.y)[support][None, :]


class ActiveSetWeights(KernelWeights):
    """The kernel route solved exactly by an active-set update (``solver="active_set"``, see module doc).

    With the free set F (0 < a_i < C) and the bound sets U (a_i = C) and L (a_i = 0) fixed, the dual's
    KKT conditions are the linear system [Q_FF y_F; y_F' 0] [a_F; b] = [1 - C Q_FU 1; -C y_U' 1]
    (Q = (y y') * K; b the intercept). Removing feature j changes K by -x_j x_j', so the system matrix
    changes by -u u', u = [y_F * x_jF; 0], and its inverse follows by Sherman-Morrison in O(|F|^2).
    The new solution is accepted when it satisfies all KKT conditions up to ``kkt_tol``: 0 < a_F < C,
    |y_i f(x_i) - 1| <= kkt_tol on F, y_i f(x_i) >= 1 - kkt_tol on L, <= 1 + kkt_tol on U. Otherwise
    the inverse is rebuilt once (rounding drift), and if that fails too (the active set changed) a
    fallback solves the dual from scratch with libsvm at tol 1e-12, reads F, U, L off its alpha and
    solves the system exactly; if that solution fails the check as well, libsvm's alpha is kept and
    the next step falls back again.
    """

    def __init__(self, X, y, C, max_iter=None, kkt_tol=1e-8):
        super().__init__(X, y, C)
        self.tol, self.kkt_tol = 1e-12, kkt_tol
        self.ys = np.where(y > 0, 1.0, -1.0)
        self.alpha = self.free = self.upper = self.Minv = None
        self.pending, self.recomputed = [], False  # removed columns since the last solve
        self.counts = {"update": 0, "refactor": 0, "set_change": 0, "fallback": 0}
        self.max_violation = 0.0

    def remove(self, positions):
        self.pending.append(self.XT[positions].T.copy())
        n_at = self.n_at_recompute
        super().remove(positions)
        self.recomputed |= self.n_at_recompute != n_at

    def _dual(self):
        Minv, pending, F, U = self.Minv, self.pending, self.free, self.upper
        if Minv is not None and (self.recomputed or len(pending) != 1 or pending[0].shape[1] != 1):
            Minv = None  # a batch removal or a recomputed kernel: rebuild the inverse
        elif Minv is not None:
            u = np.zeros(F.size + 1)
            u[:-1] = self.ys[F] * pending[0][F, 0]
            Mu = Minv @ u
            den = 1.0 - u @ Mu
            Minv = Minv + np.outer(Mu, Mu / den) if abs(den) > 1e-10 else None
        self.pending, self.recomputed = [], False
        if F is None:
            self._fallback()
        else:
            updated = Minv is not None
            if not updated:
                Minv = self._factor(F)
            trial = self._solve(Minv, F, U)
            if trial is not None and self._optimal(*trial, F, U):
                self._accept(*trial, F, U, Minv)
                self.counts["update" if updated else "refactor"] += 1
            elif not self._active_set_steps(trial, F, U):
                self._fallback()
        support = np.flatnonzero(self.alpha > 0)
        return support, (self.alpha * self.ys)[support][None, :]

    def _active_set_steps(self, trial, F, U, max_steps=10):
        """Primal-dual active-set iterations (Hintermueller, Ito & Kunisch 2002) from the sets F, U.

        Free alphas that left (0, C) go to the bound they crossed, bound alphas whose margin
        condition fails become free; the system is refactored and solved again, until a solution
        passes the KKT check (then it is the optimum: the problem is convex) or ``max_steps``.
        """
        n = self.ys.size
        for _ in range(max_steps):
            if trial is None:
                return False
            alpha, g = trial
            state = np.zeros(n, dtype=np.int8)  # 0: L, 1: F, 2: U
            state[F], state[U] = 1, 2
            new = state.copy()
            aF = alpha[F]
            new[F[aF <= 0.0]] = 0
            new[F[aF >= self.C]] = 2
            tol = self.kkt_tol
            new[(state == 0) & (g < -tol)] = 1
            new[(state == 2) & (g > tol)] = 1
            changed = not np.array_equal(new, state)
            F, U = np.flatnonzero(new == 1), np.flatnonzero(new == 2)
            Minv = self._factor(F)
            trial = self._solve(Minv, F, U)
            if trial is not None and self._optimal(*trial, F, U):
                self._accept(*trial, F, U, Minv)
                self.counts["set_change" if changed else "refactor"] += 1
                return True
        return False

    def _factor(self, F):
        ys = self.ys
        M = np.zeros((F.size + 1, F.size + 1))
        M[:-1, :-1] = (ys[F, None] * ys[None, F]) * self.K[np.ix_(F, F)]
        M[:-1, -1] = M[-1, :-1] = ys[F]
        try:
            return np.linalg.inv(M)
        except np.linalg.LinAlgError:
            return None

    def _solve(self, Minv, F, U):
        """alpha of the KKT system of the sets F, U through ``Minv``, and g_i = y_i f(x_i) - 1."""
        if Minv is None:
            return None
        ys, C, K = self.ys, self.C, self.K
        rhs = np.ones(F.size + 1)
        rhs[-1] = 0.0
        alpha = np.zeros(ys.size)
        if U.size:
            cu = C * ys[U]
            rhs[:-1] -= ys[F] * (K[np.ix_(F, U)] @ cu)
            rhs[-1] = -cu.sum()
            alpha[U] = C
        z = Minv @ rhs
        alpha[F] = z[:-1]
        return alpha, ys * (K @ (alpha * ys) + z[-1]) - 1.0

    def _optimal(self, alpha, g, F, U):
        aF, tol = alpha[F], self.kkt_tol
        if aF.size and (aF.min() <= 0.0 or aF.max() >= self.C or np.abs(g[F]).max() > tol):
            return False
        if U.size and g[U].max() > tol:
            return False
        low = np.ones(alpha.size, dtype=bool)
        low[F] = low[U] = False
        return not low.any() or g[low].min() >= -tol

    def _accept(self, alpha, g, F, U, Minv):
        self.alpha, self.free, self.upper, self.Minv = alpha, F, U, Minv
        self.max_violation = max(self.max_violation, max_violation(self.K, self.ys, self.C, alpha, g))

    def _fallback(self):
        self.counts["fallback"] += 1
        support, dual_coef = super()._dual()  # libsvm from scratch at self.tol = 1e-12
        alpha = np.zeros(self.ys.size)
        alpha[support] = np.abs(dual_coef.ravel())
        eps = 1e-9 * self.C
        F = np.flatnonzero((alpha > eps) & (alpha < self.C - eps))
        U = np.flatnonzero(alpha >= self.C - eps)
        Minv = self._factor(F)
        trial = self._solve(Minv, F, U)
        if trial is not None and self._optimal(*trial, F, U):
            self._accept(*trial, F, U, Minv)
        else:  # keep libsvm's alpha; the next step falls back too
            self._accept(alpha, None, None, None, None)


def max_violation(K, ys, C, alpha, g=None):
    """libsvm's optimality measure m(a) - M(a) (Fan, Chen & Lin 2005) of the dual solution ``alpha``.

    m - M = max_{I_up} -y_t G_t - min_{I_low} -y_t G_t with G = Q a - 1; given g = y * (K (a y) + b) - 1
    (any b), -y G = b - y g, and b cancels.
    """
    minus_yg = -ys * (ys * (K @ (alpha * ys)) - 1.0) if g is None else -ys * g
    up = np.where(ys > 0, alpha < C, alpha > 0)
    low = np.where(ys > 0, alpha > 0, alpha < C)
    return max(float(minus_yg[up].max(initial=-np.inf) - minus_yg[low].min(initial=np.inf)), 0.0)
