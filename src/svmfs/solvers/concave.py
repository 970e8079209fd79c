"""Concave approximations of the zero-norm (Rinaldi & Sciandrone 2010, eqs. 8-11) and their gradients.

F(z) = sum_j f(z_j) for z >= 0:
- ``exp``   (8):  f = 1 - exp(-alpha z),           f' = alpha exp(-alpha z)
- ``log``   (9):  f = ln(eps + z),                  f' = 1 / (eps + z)
- ``power`` (10): f = (z + eps)^p, 0 < p < 1,       f' = p (z + eps)^(p - 1)
- ``inverse`` (11): f = -(z + eps)^(-p), p >= 1,    f' = p (z + eps)^(-p - 1)
"""

from __future__ import annotations

import numpy as np

CONCAVE = ("exp", "log", "power", "inverse")


def check_concave(kind: str, eps: float, p: float, alpha: float) -> None:
    if kind not in CONCAVE:
        raise ValueError(f"concave must be one of {CONCAVE}, got {kind!r}")
    if kind == "power" and not 0 < p < 1:
        raise ValueError(f"formulation (10) needs 0 < p < 1, got p={p}")
    if kind == "inverse" and p < 1:
        raise ValueError(f"formulation (11) needs p >= 1, got p={p}")
    if eps <= 0 or alpha <= 0:
        raise ValueError("eps and alpha must be > 0")


def concave_value(z, kind="inverse", eps=1e-6, p=1.0, alpha=5.0) -> float:
    """A concave approximation of the zero-norm of z >= 0, summed over the components (Rinaldi & Sciandrone
    2010, eqs. 8-11): ``exp`` 1 - exp(-alpha z_j) (8), ``log`` log(eps + z_j) (9), ``power`` (z_j + eps)^p (10) and
    ``inverse`` -(z_j + eps)^(-p) (11).

    Examples
    --------
    >>> round(concave_value([0.0, 1.0], kind="exp", alpha=5.0), 4)  # about one nonzero
    0.9933
    """
    z = np.asarray(z, dtype=float)
    if kind == "exp":
        return float(np.sum(1 - np.exp(-alpha * z)))
    if kind == "log":
        return float(np.sum(np.log(eps + z)))
    if kind == "power":
        return float(np.sum((z + eps) ** p))
    return float(-np.sum((z + eps) ** (-p)))


def concave_gradient(z, kind="inverse", eps=1e-6, p=1.0, alpha=5.0) -> np.ndarray:
    z = np.asarray(z, dtype=float)
    if kind == "exp":
        return alpha * np.exp(-alpha * z)
    if kind == "log":
        return 1.0 / (eps + z)
    if kind == "power":
        return p * (z + eps) ** (p - 1)
    return p * (z + eps) ** (-p - 1)
