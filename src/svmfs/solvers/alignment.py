"""Kernel-target alignment and its incremental kernel updates (Catala & Martin, sections 3 and 5).

Pure numpy. The kernels are built from a *base* matrix that is additive over features:

- linear and polynomial kernels keep the linear Gram matrix ``G_F = X_F X_F'``;
- the RBF kernel keeps the squared-distance matrix ``D_F(a, b) = sum_{j in F} (x_aj - x_bj)^2`` (eq. 5).

Adding (removing) feature ``i`` adds (subtracts) its contribution ``x_i x_i'`` or
``(x_ai - x_bi)^2`` (eqs. 2, 3, 5), then the kernel map is applied: ``G`` (linear),
``(offset + G)^d`` (eq. 4), ``exp(-gamma D)`` (eq. 6). Scoring all candidates costs O(n^2) each.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import comb

import numpy as np

KERNELS = ("linear", "poly", "rbf")

#: Elements of the (candidates, n, n) stack formed at once when scoring nonlinear candidates.
_BATCH_ELEMENTS = 2**22


def target_vector(y: np.ndarray, unbalanced: bool = False) -> np.ndarray:
    """Labels defining the ideal kernel ``T = t t'``: ``y`` itself, or +1/m and -1/n when ``unbalanced``
    (m positives, n negatives; section 4.2)."""
    y = np.asarray(y, dtype=float)
    if not unbalanced:
        return y
    pos = y > 0
    return np.where(pos, 1.0 / max(pos.sum(), 1), -1.0 / max((~pos).sum(), 1))


def resolve_gamma(gamma, X: np.ndarray) -> float:
    """RBF width: ``gamma`` itself, or for ``None`` scikit-learn's "scale", 1 / (p * Var(X)), fixed from the
    full feature set for the whole search (eq. 6 keeps gamma constant while features are removed)."""
    if gamma is not None:
        return float(gamma)
    v = float(X.var()) * X.shape[1]
    return 1.0 / v if v > 0 else 1.0


def alignment(K: np.ndarray, t: np.ndarray) -> float:
    """Kernel-target alignment, Catala & Martin eq. (1): <K, T>_F / sqrt(<K, K>_F <T, T>_F) with T = t t'.

    Parameters
    ----------
    K : ndarray of shape (n, n)
        A kernel matrix.
    t : ndarray of shape (n,)
        The target vector (:func:`target_vector`).

    Returns
    -------
    float
        The alignment, in [-1, 1]; a zero kernel has alignment 0.

    Examples
    --------
    >>> import numpy as np
    >>> t = target_vector(np.array([1.0, 1.0, -1.0, -1.0]))
    >>> float(alignment(np.outer(t, t), t))  # the ideal kernel
    1.0
    """
    kt = float(t @ K @ t)
    kk = float(np.sum(K * K))
    return kt / np.sqrt(kk * float(t @ t) ** 2) if kk > 0 else 0.0


def _base_contribution(Xc: np.ndarray, kernel: str) -> np.ndarray:
    """Per-feature contributions to the base matrix, shape (k, n, n) for the k columns of ``Xc``."""
    cols = Xc.T[:, :, None]
    if kernel == "rbf":
        return (cols - Xc.T[:, None, :]) ** 2
    return cols * Xc.T[:, None, :]


def base_matrix(X: np.ndarray, kernel: str, features=None) -> np.ndarray:
    """The base matrix (Gram for linear/poly, squared distances for RBF) on the feature subset."""
    Xf = X if features is None else X[:, np.asarray(features, dtype=int)]
    if kernel != "rbf":
        return Xf @ Xf.T
    n = Xf.shape[0]
    D = np.zeros((n, n))
    step = max(1, _BATCH_ELEMENTS // max(n * n, 1))
    for s in range(0, Xf.shape[1], step):
        D += _base_contribution(Xf[:, s : s + step], "rbf").sum(axis=0)
    return D


def update_base(base: np.ndarray, x: np.ndarray, kernel: str, sign: float) -> np.ndarray:
    """Base matrix after adding (``sign=+1``, eq. 2) or removing (``sign=-1``, eqs. 3, 5) feature column ``x``."""
    return base + sign * _base_contribution(x[:, None], kernel)[0]


def kernel_from_base(base: np.ndarray, kernel: str, degree: int = 2, offset: float = 1.0, gamma: float = 1.0):
    """Apply the kernel map to a base matrix (or a stack of them): linear, eq. (4) or eq. (6)."""
    if kernel == "linear":
        return base
    if kernel == "poly":
        return (offset + base) ** degree
    if kernel == "rbf":
        return np.exp(-gamma * base)
    raise ValueError(f"kernel must be one of {KERNELS}, got {kernel!r}")


def kernel_matrix(X, features=None, kernel="linear", degree=2, offset=1.0, gamma=1.0) -> np.ndarray:
    """The kernel on a feature subset, computed from scratch (the reference for the updates)."""
    return kernel_from_base(base_matrix(X, kernel, features), kernel, degree, offset, gamma)


def _ratio(kt, kk, tt):
    kk = np.maximum(kk, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(kk > 0, kt / np.sqrt(kk * tt * tt), 0.0)


def _poly_candidate_alignments(C, Xc, t, sign, degree):
    """Closed form for K_i = (C + sign x_i x_i')^d with C = offset + G, d a positive integer.

    Binomial expansion: (C + s x x')^d = sum_k binom(d, k) s^k C^(d-k) o x^k (x^k)' (elementwise powers), so
    <K_i, T> = sum_k binom(d, k) s^k (t o x^k)' C^(d-k) (t o x^k) and
    <K_i, K_i> = sum_k binom(2d, k) s^k (x^k)' C^(2d-k) x^k: O(n^2) per candidate in 3d + 2 matrix products.
    """
    def quad(m, U):  # U_j' C^(m) U_j for every column j (C^(0) is the all-ones matrix)
        return U.sum(0) ** 2 if m == 0 else np.einsum("ij,ij->j", C**m @ U, U)

    kt = sum(comb(degree, k) * sign**k * quad(degree - k, t[:, None] * Xc**k) for k in range(degree + 1))
    kk = sum(comb(2 * degree, k) * sign**k * quad(2 * degree - k, Xc**k) for k in range(2 * degree + 1))
    return kt, kk


def candidate_alignments(base, Xc, t, kernel="linear", sign=1.0, degree=2, offset=1.0, gamma=1.0):
    """Alignment after adding (``sign=+1``) or removing (``sign=-1``) each column of ``Xc`` to ``base``.

    Linear (degree 1, offset 0) and polynomial kernels with an integer degree: closed form of eqs.
    (2)-(4) (:func:`_poly_candidate_alignments`), matrix products only. RBF (and a non-integer degree):
    each candidate kernel is formed from the updated base (eq. 6) in batches, in place.
    """
    if kernel not in KERNELS:
        raise ValueError(f"kernel must be one of {KERNELS}, got {kernel!r}")
    tt = float(t @ t)
    if kernel == "linear" or (kernel == "poly" and float(degree).is_integer() and degree >= 1):
        d, c = (1, 0.0) if kernel == "linear" else (int(degree), offset)
        return _ratio(*_poly_candidate_alignments(c + base, Xc, t, sign, d), tt)
    n = base.shape[0]
    out = np.empty(Xc.shape[1])
    step = max(1, _BATCH_ELEMENTS // max(n * n, 1))
    for s in range(0, Xc.shape[1], step):
        K = _base_contribution(Xc[:, s : s + step], kernel)  # updated in place to the candidate kernels
        (np.add if sign > 0 else np.subtract)(base, K, out=K)
        if kernel == "poly":
            K += offset
            np.power(K, degree, out=K)
        else:
            K *= -gamma
            np.exp(K, out=K)
        out[s : s + step] = _ratio((K @ t) @ t, np.einsum("bij,bij->b", K, K), tt)
    return out


def recomputed_candidate_alignments(X, features, candidates, t, kernel, sign, **kw):
    """Reference for :func:`candidate_alignments`: every candidate kernel recomputed from scratch."""
    features = list(features)
    out = []
    for i in candidates:
        subset = features + [i] if sign > 0 else [j for j in features if j != i]
        out.append(alignment(kernel_matrix(X, subset, kernel, **kw), t) if subset else 0.0)
    return np.array(out)


@dataclass
class EliminationResult:
    """Outcome of :func:`backward_elimination`: kept features, the features each iteration removed
    (``batches``; ``removed``: in removal order) and the alignment path."""

    kept: np.ndarray
    path: list[float] = field(default_factory=list)
    decrease_at_removal: list[float] = field(default_factory=list)
    batches: list[list[int]] = field(default_factory=list)
    kept_decrease: np.ndarray | None = None
    n_iter: int = 0
    stopped: str = "no_increase"

    @property
    def removed(self) -> list[int]:
        """The removed features in removal order (``batches`` flattened)."""
        return [f for b in self.batches for f in b]


def backward_elimination(X, t, kernel="linear", degree=2, offset=1.0, gamma=1.0, max_iter=None, incremental=True,
                         past_stop=False, batch=False):
    """Algorithm 2 (dFSA): remove, one at a time, the feature whose removal raises the alignment most;
    stop when every removal would lower it (``DecrAlign(out) > 0``) or after ``max_iter`` removals.

    Records ``DecrAlign`` (alignment lost by a removal; <= 0 for the removed features) at each removal
    and, for the kept features, at the final set (``kept_decrease``, > 0 after a ``no_increase`` stop).

    Choice: a removal that leaves the alignment unchanged (``DecrAlign = 0``) is taken, as written in
    step 9; ties pick the lowest feature index. The last feature is never removed.
    ``incremental=False`` recomputes each candidate kernel from scratch (reference/benchmark only).
    ``past_stop=True`` ignores the alignment stop and removes down to one feature, each time the feature
    whose removal lowers the alignment least (a path for another stopping rule, e.g. section 5.2's).
    ``batch=True`` adds Algorithm 2's optional step 13, "Remove from F features i with DecrAlign(i) > 0",
    read with the sign of step 9 (read literally it would remove the features whose removal lowers the
    alignment): an iteration removes, with step 9's ``out``, every feature whose removal alone does not
    lower the alignment (``DecrAlign <= 0``), in the order of their DecrAlign (``removed``; ``batches``
    lists each iteration's). Where every remaining feature qualifies, the iteration removes step 9's ``out``
    alone, so the set never empties. The alignment after a batch is recomputed from the updated kernel, and
    ``path`` has one entry per iteration; ``max_iter`` then counts iterations. With ``past_stop``, an
    iteration where no removal keeps the alignment removes step 9's ``out`` alone (the least lowering), and
    a later one may remove a batch again.
    """
    kw = dict(degree=degree, offset=offset, gamma=gamma)
    F = list(range(X.shape[1]))
    base = base_matrix(X, kernel)
    current = float(alignment(kernel_from_base(base, kernel, **kw), t))
    res = EliminationResult(kept=np.array(F), path=[current])
    while len(F) > 1 and (max_iter is None or res.n_iter < max_iter):
        if incremental:
            cand = candidate_alignments(base, X[:, F], t, kernel, -1.0, **kw)
        else:
            cand = recomputed_candidate_alignments(X, F, F, t, kernel, -1.0, **kw)
        k = int(np.argmax(cand))
        if current - cand[k] > 0 and not past_stop:
            res.stopped, res.kept_decrease = "no_increase", current - cand
            break
        if batch:
            decr = current - cand
            order = [int(j) for j in np.argsort(decr, kind="stable") if decr[j] <= 0]  # most raising first
            order = order if 0 < len(order) < len(F) else [k]  # past the stop (past_stop): one at a time
            out_batch = [F[j] for j in order]
            for f in sorted(out_batch):
                base = update_base(base, X[:, f], kernel, -1.0)
            res.decrease_at_removal.extend(float(decr[j]) for j in order)
            gone = set(out_batch)
            F = [f for f in F if f not in gone]
            current = float(alignment(kernel_from_base(base, kernel, **kw), t))
        else:
            out_batch = [F.pop(k)]
            base = update_base(base, X[:, out_batch[0]], kernel, -1.0)
            res.decrease_at_removal.append(current - float(cand[k]))
            current = float(cand[k])
        res.batches.append(out_batch)
        res.path.append(current)
        res.n_iter += 1
    else:
        res.stopped = "max_iter" if len(F) > 1 else "single_feature"
    if res.kept_decrease is None:
        res.kept_decrease = current - (candidate_alignments(base, X[:, F], t, kernel, -1.0, **kw) if len(F) > 1 else 0.0)
        res.kept_decrease = np.broadcast_to(res.kept_decrease, (len(F),)).astype(float)
    res.kept = np.array(F, dtype=int)
    return res
