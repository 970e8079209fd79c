"""A small SMO for the C-SVC dual on a precomputed kernel, with a warm start.

Dual (libsvm's C-SVC, Chang & Lin 2011, eq. 2): min_a f(a) = 1/2 a'Qa - e'a, Q = (y y') * K,
0 <= a_i <= C, y'a = 0. Working-set selection as libsvm (Fan, Chen & Lin 2005, "WSS 2"): i is the
maximal violator, i = argmax_{t in I_up} -y_t G_t; j minimises the second-order decrease
-b_it^2 / a_it over t in I_low with -y_t G_t < -y_i G_i (a_it = K_ii + K_tt - 2 K_it, replaced by
tau = 1e-12 when not positive; b_it = -y_i G_i + y_t G_t). Stop when m(a) - M(a) < tol, m(a) =
max_{I_up} -y_t G_t, M(a) = min_{I_low} -y_t G_t: libsvm's criterion, default tol = 1e-3 as libsvm's
and scikit-learn's SVC. No shrinking and no kernel cache (the kernel is a dense n x n array).
"""

from __future__ import annotations

import numpy as np

TAU = 1e-12


def dual_objective(K: np.ndarray, y: np.ndarray, alpha: np.ndarray) -> float:
    """f(a) = 1/2 (a*y)' K (a*y) - sum(a)."""
    ay = alpha * y
    return 0.5 * float(ay @ K @ ay) - float(alpha.sum())


def smo(K, y, C, alpha0=None, tol=1e-3, max_iter=100_000):
    """Solve the C-SVC dual on the kernel ``K`` (n x n), labels ``y`` in {-1, +1}.

    ``alpha0`` (feasible: 0 <= a <= C, y'a = 0) warm-starts the solve; ``None`` starts at a = 0.
    Returns ``(alpha, n_iter, converged)``; the gradient is computed once from ``alpha0`` and then
    updated by two kernel columns per iteration. Working sets by libsvm's second-order selection (Fan, Chen &
    Lin 2005), no shrinking; stops when the maximal violation m(a) - M(a) < ``tol`` (libsvm's criterion).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[2.0, 0.1], [1.5, -0.2], [-2.0, 0.3], [-1.0, -0.1]])
    >>> y = np.array([1.0, 1.0, -1.0, -1.0])
    >>> alpha, n_iter, converged = smo(X @ X.T, y, C=10.0)
    >>> converged, ((alpha * y) @ X).round(2).tolist()  # w of the linear SVM
    (True, [0.8, -0.03])
    """
    y = np.asarray(y, dtype=np.float64)
    n = y.shape[0]
    alpha = np.zeros(n) if alpha0 is None else np.array(alpha0, dtype=np.float64)
    G = y * (K @ (alpha * y)) - 1.0 if alpha0 is not None else -np.ones(n)
    diag = np.diagonal(K)
    pos = y > 0
    for it in range(max_iter + 1):
        below, above = alpha < C, alpha > 0
        up = np.where(pos, below, above)  # I_up: a_t < C, y_t = 1  or  a_t > 0, y_t = -1
        low = np.where(pos, above, below)  # I_low: a_t < C, y_t = -1  or  a_t > 0, y_t = 1
        yg = -y * G
        m_up = np.where(up, yg, -np.inf)
        i = int(np.argmax(m_up))
        gi = m_up[i]
        cand = low & (yg < gi)
        if not cand.any() or gi - yg[low].min() < tol:
            return alpha, it, True
        if it == max_iter:
            return alpha, it, False
        b = gi - yg  # b_it > 0 on the candidates
        a = diag[i] + diag - 2.0 * K[i]
        a = np.where(a > 0, a, TAU)
        j = int(np.argmin(np.where(cand, -(b * b) / a, np.inf)))
        # move along u = y_i e_i - y_j e_j (keeps y'a = 0); f(a + t u) = f(a) - t b_ij + t^2/2 a_ij
        t = b[j] / a[j]
        cap_i = C - alpha[i] if pos[i] else alpha[i]
        cap_j = alpha[j] if pos[j] else C - alpha[j]
        t = min(t, cap_i, cap_j)
        alpha[i] += y[i] * t
        alpha[j] -= y[j] * t
        if t == cap_i:  # land exactly on the bound, as libsvm clips
            alpha[i] = C if pos[i] else 0.0
        if t == cap_j:
            alpha[j] = 0.0 if pos[j] else C
        G += t * y * (K[i] - K[j])  # Q[:, i] y_i - Q[:, j] y_j = y * (K[:, i] - K[:, j])
    raise AssertionError("unreachable")  # pragma: no cover
