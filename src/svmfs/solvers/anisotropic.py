"""Anisotropic Gaussian kernels and their per-feature pair sums; the KP-SVM kernel and the W^2(alpha)
criteria of kernel SVM-RFE (Maldonado, Weber & Basak 2011, eqs. 6-7, 11, 13, 15-16).

:func:`aniso_kernel` is kernel (13) of Jimenez-Cordero, Morales & Pineda (2021),
K_gamma(x_i, x_l) = exp(-sum_j gamma_j (x_ij - x_lj)^2): the MM-FS NLP (:mod:`svmfs.solvers.mmfs_nlp`)
and the anisotropic final classifier (:mod:`svmfs.protocol.classifiers`) both take it from here.
Every derivative of such a kernel is a pair sum weighted by squared coordinate differences,
:func:`pair_sqdiff_sums`, computed without forming anything of size n*n*M: for symmetric W,

    sum_{i,l} W_il (x_ij - x_lj)^2 = 2 sum_i x_ij^2 (W e)_i - 2 sum_i x_ij (W X)_ij.

Kernel (11) of KP-SVM, in the width parametrisation v = 1 / sigma of (10):

    K(x_i, x_s, v) = exp(-||v * x_i - v * x_s||^2 / 2) = exp(-sum_j v_j^2 (x_ij - x_sj)^2 / 2),

i.e. :func:`aniso_kernel` with gamma_j = v_j^2 / 2 (isotropic: sklearn's ``gamma = v0^2 / 2``). With
c = alpha * y (sklearn's ``dual_coef_``), W^2(alpha) = c' K c (eq. 6) and the per-feature sums
S_j = sum_{i,s} c_i c_s K_is (x_ij - x_sj)^2 are computed with :func:`pair_sqdiff_sums` (no m x m x n array).

Sign of (15)/(16). The paper prints the step-2 objective as F(v) = W^2(alpha, v) + C2 f(v) (15) and
its gradient as Delta_j F = v_j S_j + C2 beta exp(-beta v_j) (16). Since dK/dv_j = -v_j d_j^2 K, (16) is
NOT the gradient of (15) as printed but of

    F(v) = -W^2(alpha, v) + C2 f(v),     f(v) = sum_j (1 - exp(-beta v_j))  (13),

which is what (12) means for v: by Danskin, the gradient of the SVM optimum max_alpha (14) with respect
to v is -1/2 dW^2/dv at the optimal alpha, so descending (16) minimises (twice) the dual optimum plus
the penalty, i.e. min_v max_alpha of (12). (15) as printed is globally minimised by v = 0 (K = ee',
y'alpha = 0), and its gradient pushes relevant features (the most negative S_j) to zero first; (16)
makes them grow and the penalty shrink the rest, which is the behaviour the paper reports. We keep (16)
and use the objective it is the gradient of (:func:`kp_objective`); :func:`kp_gradient` is checked
against finite differences of it in the tests.
"""

from __future__ import annotations

import numpy as np


def sq_dists(A: np.ndarray, w: np.ndarray | None = None, B: np.ndarray | None = None) -> np.ndarray:
    """sum_j w_j (a_ij - b_lj)^2 for all pairs (rows of A x rows of B; B = A when omitted), >= 0."""
    same = B is None
    B = A if same else B
    w = np.ones(A.shape[1]) if w is None else np.asarray(w, dtype=float)
    # no sqrt(w): exact also at the slightly negative gamma Ipopt's bound relaxation may probe
    D = ((A * A) @ w)[:, None] + ((B * B) @ w)[None, :] - 2.0 * ((A * w) @ B.T)
    np.maximum(D, 0.0, out=D)
    if same:
        np.fill_diagonal(D, 0.0)
    return D


def aniso_kernel(A: np.ndarray, gamma: np.ndarray, B: np.ndarray | None = None) -> np.ndarray:
    """Anisotropic Gaussian kernel, Jimenez-Cordero et al. (2021) eq. (13): K_il = exp(-sum_j gamma_j (a_ij - b_lj)^2).

    Parameters
    ----------
    A : ndarray of shape (n, M)
    gamma : ndarray of shape (M,)
        One width per feature; gamma_j = 0 leaves feature j out of the kernel.
    B : ndarray of shape (m, M), optional
        The second set of points (default ``A``).

    Returns
    -------
    ndarray of shape (n, m)

    Examples
    --------
    >>> import numpy as np
    >>> A = np.array([[0.0, 0.0], [1.0, 2.0]])
    >>> aniso_kernel(A, np.array([1.0, 0.0])).round(4)  # the second feature ignored
    array([[1.    , 0.3679],
           [0.3679, 1.    ]])
    """
    return np.exp(-sq_dists(A, gamma, B))


def aniso_kernel_into(A: np.ndarray, A2: np.ndarray, gamma: np.ndarray, out: np.ndarray, work: np.ndarray) -> np.ndarray:
    """:func:`aniso_kernel` (A, gamma) written into ``out`` (n x n), with ``work`` (n x n) as scratch and
    ``A2`` = A * A: the same operations in the same order on the same values, so the same bits, without
    allocating the five n x n temporaries of :func:`sq_dists` and :func:`aniso_kernel` (a solver that
    evaluates the kernel thousands of times at n = 700 spends most of its time there). Returns ``out``."""
    gamma = np.asarray(gamma, dtype=float)
    a = A2 @ gamma
    np.matmul(A * gamma, A.T, out=work)
    np.add(a[:, None], a[None, :], out=out)
    work *= 2.0  # exact: 2.0 * ((A * w) @ A.T) of sq_dists
    out -= work
    np.maximum(out, 0.0, out=out)
    np.fill_diagonal(out, 0.0)
    np.negative(out, out=out)
    return np.exp(out, out=out)


def pair_sqdiff_sums(X: np.ndarray, X2: np.ndarray, W: np.ndarray) -> np.ndarray:
    """q_j = sum_{i,l} W_il (x_ij - x_lj)^2 for symmetric W (length M), via the identity above
    (``X2`` = X * X)."""
    return 2.0 * (X2.T @ W.sum(axis=1)) - 2.0 * np.einsum("ij,ij->j", X, W @ X)


def kp_kernel(A: np.ndarray, v: np.ndarray, B: np.ndarray | None = None) -> np.ndarray:
    """Kernel (11): exp(-sum_j v_j^2 (a_ij - b_sj)^2 / 2) for all pairs (B = A when omitted)."""
    v = np.asarray(v, dtype=float)
    return np.exp(-sq_dists(A, 0.5 * v * v, B))


def w2(c: np.ndarray, K: np.ndarray) -> float:
    """W^2(alpha) = sum_{i,s} alpha_i alpha_s y_i y_s K_is (eq. 6), with c = alpha * y."""
    return float(c @ K @ c)


def penalty(v: np.ndarray, beta: float) -> float:
    """0-"norm" approximation (13): sum_j (1 - exp(-beta v_j))."""
    return float(np.sum(1.0 - np.exp(-beta * np.asarray(v, dtype=float))))


def kp_objective(X: np.ndarray, c: np.ndarray, v: np.ndarray, C2: float, beta: float) -> float:
    """Step-2 objective whose gradient is (16): -W^2(alpha, v) + C2 f(v) (see the module note on (15))."""
    return -w2(c, kp_kernel(X, v)) + C2 * penalty(v, beta)


def kp_gradient(X: np.ndarray, c: np.ndarray, v: np.ndarray, C2: float, beta: float, K: np.ndarray | None = None):
    """Gradient (16): v_j sum_{i,s} (x_ij - x_sj)^2 c_i c_s K_is + C2 beta exp(-beta v_j).

    ``K`` (kernel (11) at ``v``) may be passed when already computed. Only rows with c_i != 0 (support
    vectors) contribute, so the sums run over them.
    """
    v = np.asarray(v, dtype=float)
    sv = np.flatnonzero(c)
    Xs, cs = X[sv], c[sv]
    Ks = kp_kernel(Xs, v) if K is None else K[np.ix_(sv, sv)]
    S = pair_sqdiff_sums(Xs, Xs * Xs, np.outer(cs, cs) * Ks)
    return v * S + C2 * beta * np.exp(-beta * v)


def w2_removal_changes(X: np.ndarray, c: np.ndarray, K: np.ndarray, w, chunk: int = 256) -> np.ndarray:
    """|W^2(alpha) - W^2_(-p)(alpha)| for every column p of ``X`` (eqs. 6-7), alpha fixed.

    ``K`` is the kernel exp(-sum_j w_j (x_ij - x_sj)^2) on the columns of ``X`` and ``w`` its per-feature
    weights (a scalar gamma for the isotropic RBF kernel). Removing p multiplies K_is by
    exp(w_p (x_ip - x_sp)^2), so W^2_(-p) = sum c_i c_s K_is exp(w_p d_isp^2); computed over the support
    vectors only, in chunks of features (memory k * k * chunk).
    """
    sv = np.flatnonzero(c)
    Xs, cs = X[sv], c[sv]
    CK = np.outer(cs, cs) * K[np.ix_(sv, sv)]
    base = float(CK.sum())
    w = np.broadcast_to(np.asarray(w, dtype=float), (X.shape[1],))
    out = np.empty(X.shape[1])
    for start in range(0, X.shape[1], chunk):
        cols = slice(start, min(start + chunk, X.shape[1]))
        d2 = (Xs[:, None, cols] - Xs[None, :, cols]) ** 2  # k x k x chunk
        out[cols] = np.abs(base - np.einsum("is,isp->p", CK, np.exp(w[cols] * d2)))
    return out


class SqDistSum:
    """Running D_is = sum_{j active} w_j (x_ij - x_sj)^2 over the active features, downdated on removal.

    Removing features R subtracts their contribution (O(m^2 |R|)) instead of recomputing D from all
    remaining columns; D is recomputed from scratch whenever the active set has halved since the last
    recomputation, so rounding does not accumulate. ``kernel()`` = exp(-D).
    """

    def __init__(self, X: np.ndarray, w=1.0):
        self.X = np.asarray(X, dtype=float)
        self.w = np.broadcast_to(np.asarray(w, dtype=float), (self.X.shape[1],)).copy()
        self.active = np.ones(self.X.shape[1], dtype=bool)
        self._recompute()

    def _recompute(self):
        self.D = sq_dists(self.X[:, self.active], self.w[self.active])
        self.n_at_recompute = int(self.active.sum())

    def remove(self, features) -> None:
        features = np.atleast_1d(np.asarray(features, dtype=np.int64))
        self.active[features] = False
        if 2 * int(self.active.sum()) <= self.n_at_recompute:
            self._recompute()
        else:
            self.D -= sq_dists(self.X[:, features], self.w[features])
            np.maximum(self.D, 0.0, out=self.D)

    def kernel(self) -> np.ndarray:
        return np.exp(-self.D)
