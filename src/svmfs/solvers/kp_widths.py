"""Ipopt on step 2 of KP-SVM: problem (15) of Maldonado, Weber & Basak (2011) over the widths v for fixed alpha,
with hand-derived derivatives (the KP-FS off-the-shelf comparator of Jimenez-Cordero et al. 2021, 4.3).

KP-SVM's kernel (11) is the anisotropic Gaussian kernel (13) with gamma_j = v_j^2 / 2
(:func:`~svmfs.solvers.anisotropic.aniso_kernel`); its derivatives are pair sums weighted by squared coordinate
differences (:func:`~svmfs.solvers.anisotropic.pair_sqdiff_sums`), as those of :mod:`svmfs.solvers.mmfs_nlp`.
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

from .anisotropic import aniso_kernel_into, pair_sqdiff_sums
from .mmfs_nlp import IPOPT_STATUS, ipopt_options, ipopt_solve


class KPWidthProblem:
    """KP-SVM step 2, problem (15): min_v F(v) = beta' K(v) beta + C2 sum_j (1 - exp(-b v_j)), v >= 0,
    with beta = y * alpha fixed and K(v) the kernel (11), K_is = exp(-1/2 sum_j v_j^2 (x_ij - x_sj)^2).

    dF/dv_j = -v_j q_j + C2 b exp(-b v_j), q = pair_sqdiff_sums(beta beta' * K) (eq. 16 up to the sign of
    its first term, which is the derivative of exp(-v_j^2 (.)/2): negative).
    """

    #: objective values kept, by the exact bytes of v: where v has collapsed to 0 Ipopt's line search tries
    #: the same point again and again (the step below v's last bit;
    #: docs/methods/kp_fs_offshelf.md)
    MEMO_POINTS = 64

    def __init__(self, X, beta, C2, b=5.0):
        self.X = np.ascontiguousarray(X, dtype=float)
        self.X2 = self.X**2
        self.beta, self.C2, self.b = np.asarray(beta, dtype=float), float(C2), float(b)
        self.n_iter = 0
        n = self.X.shape[0]
        self._kernel, self._work, self._kernel_of = np.empty((n, n)), np.empty((n, n)), None
        self._beta_outer = None  # beta beta', made at the first gradient
        self._values: OrderedDict[bytes, float] = OrderedDict()

    def _K(self, v):
        """K(v), the kernel (11); the last one computed is kept (the gradient asks at the objective's point).
        Bit for bit ``aniso_kernel(X, v * v / 2)`` (:func:`aniso_kernel_into`)."""
        key = np.asarray(v, dtype=float).tobytes()
        if key != self._kernel_of:
            aniso_kernel_into(self.X, self.X2, 0.5 * v * v, self._kernel, self._work)
            self._kernel_of = key
        return self._kernel

    def objective(self, v):
        key = np.asarray(v, dtype=float).tobytes()
        value = self._values.get(key)
        if value is None:  # the same v gives the same float: a kept value is what evaluating again would give
            K = self._K(v)
            value = float(self.beta @ K @ self.beta + self.C2 * np.sum(1.0 - np.exp(-self.b * v)))
            self._values[key] = value
            if len(self._values) > self.MEMO_POINTS:
                self._values.popitem(last=False)
        else:
            self._values.move_to_end(key)
        return value

    def gradient(self, v):
        K = self._K(v)
        if self._beta_outer is None:
            self._beta_outer = np.outer(self.beta, self.beta)
        W = np.multiply(self._beta_outer, K, out=self._work)  # the scratch is free once K is computed
        q = pair_sqdiff_sums(self.X, self.X2, W)
        return -v * q + self.C2 * self.b * np.exp(-self.b * v)

    def constraints(self, v):
        return np.zeros(0)

    def jacobian(self, v):
        return np.zeros(0)

    def jacobianstructure(self):
        return np.zeros(0, dtype=int), np.zeros(0, dtype=int)

    def intermediate(self, alg_mod, iter_count, *args):
        self.n_iter = int(iter_count)
        return True


#: solves of (15) kept by :func:`solve_kp_widths` (the last few, by problem and start)
KP_SOLVES_KEPT = 8
_kp_solves: OrderedDict[bytes, tuple] = OrderedDict()


def solve_kp_widths(X, beta, C2, v0, *, b=5.0, tol=1e-8, max_iter=500, time_limit=None):
    """Minimise (15) over v >= 0 from ``v0`` with Ipopt (L-BFGS); returns (v, F(v), status, n_iter).

    Ipopt is deterministic: the same problem (X, beta, C2, b, tol, max_iter) from the same start, once
    ``v0`` is clipped to v >= 0, gives the same result, so one solved before in this process (among the last
    :data:`KP_SOLVES_KEPT`) and not stopped by its time limit is returned without solving it again:
    once KP-FS off the shelf has collapsed the widths to v <= 0, its multistart's starts v * U(0, 2) all clip to
    v = 0, and each would be the same 500-iteration Ipopt run (docs/methods/kp_fs_offshelf.md).
    """
    x0 = np.maximum(v0, 0.0)
    key = _kp_solve_key(X, beta, C2, x0, b, tol, max_iter)
    if key in _kp_solves:
        _kp_solves.move_to_end(key)
        v, F, status, n_iter = _kp_solves[key]
        return v.copy(), F, status, n_iter
    prob = KPWidthProblem(X, beta, C2, b)
    M = X.shape[1]
    v, info, n_iter = ipopt_solve(
        prob, x0, np.zeros(M), np.full(M, 2e19), np.zeros(0), np.zeros(0),
        ipopt_options("limited-memory", tol, max_iter, time_limit),
    )
    out = (v, float(info["obj_val"]), IPOPT_STATUS.get(int(info["status"]), "solver_error"), n_iter)
    if out[2] != "time_limit":  # a run cut short by the clock depends on the machine: not kept
        _kp_solves[key] = (v.copy(), *out[1:])
        if len(_kp_solves) > KP_SOLVES_KEPT:
            _kp_solves.popitem(last=False)
    return out


def _kp_solve_key(X, beta, C2, x0, b, tol, max_iter) -> bytes:
    """A digest of everything :func:`solve_kp_widths`'s Ipopt run depends on (but its time limit)."""
    import hashlib

    h = hashlib.sha256()
    for a in (X, beta, x0):
        a = np.ascontiguousarray(a, dtype=float)
        h.update(repr(a.shape).encode())
        h.update(a.tobytes())
    h.update(repr((float(C2), float(b), float(tol), int(max_iter))).encode())
    return h.digest()
