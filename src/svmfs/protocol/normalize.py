"""Feature normalization fitted on the training side of each outer fold only.

``scope: global`` (fit on all rows) exists only to replicate papers that scaled the whole data set
(Jimenez-Cordero et al. 2021); it leaks test information and every record made with it says so.
"""

from __future__ import annotations

import numpy as np
from sklearn.preprocessing import FunctionTransformer, MinMaxScaler, StandardScaler

METHODS = ("minmax_pm1", "minmax_01", "zscore", "none")
NAMES = {"var_": "variance", "data_range_": "range"}


def make_normalizer(method: str):
    if method == "minmax_pm1":
        return MinMaxScaler(feature_range=(-1.0, 1.0))
    if method == "minmax_01":
        return MinMaxScaler(feature_range=(0.0, 1.0))
    if method == "zscore":
        return StandardScaler()
    if method == "none":
        return FunctionTransformer()
    raise ValueError(f"normalization.method must be one of {METHODS}, got {method!r}")


def normalize_fold(X, train, test, method: str, scope: str = "fold"):
    """Return (X_train, X_test, leaky): the scaler is fitted on ``train`` rows (or all rows if global)."""
    if scope not in ("fold", "global"):
        raise ValueError(f"normalization.scope must be 'fold' or 'global', got {scope!r}")
    scaler = _fit(make_normalizer(method), X if scope == "global" else X[train], method)
    return _checked(scaler.transform(X[train]), method), _checked(scaler.transform(X[test]), method), scope == "global"


def fit_transform_rows(X: np.ndarray, fit_rows, apply_rows, method: str):
    """Fit on ``fit_rows`` and transform ``apply_rows`` (used for evaluation resamples)."""
    return _checked(_fit(make_normalizer(method), X[fit_rows], method).transform(X[apply_rows]), method)


def _fit(scaler, X: np.ndarray, method: str):
    """Fit ``scaler``, refusing a column whose variance or range overflows float64 (scikit-learn would go on
    with a unit or zero scale and the kernels would overflow later: ``prepare`` refuses such data first)."""
    with np.errstate(over="ignore", invalid="ignore"):
        scaler.fit(X)
    for stat in NAMES:
        values = getattr(scaler, stat, None)
        if values is not None and not np.all(np.isfinite(values)):
            _refuse(method, int(np.flatnonzero(~np.isfinite(values))[0]), f"its {NAMES[stat]} overflows")
    return scaler


def _checked(Z: np.ndarray, method: str) -> np.ndarray:
    """``Z`` unless a scaled column is not finite or its squares overflow (every kernel would)."""
    with np.errstate(over="ignore", invalid="ignore"):
        bad = ~np.isfinite(np.sum(Z * Z, axis=0))
    if bad.any():
        _refuse(method, int(np.flatnonzero(bad)[0]), "its scaled values' squares overflow")
    return Z


def _refuse(method: str, column: int, why: str):
    raise ValueError(
        f"normalization {method!r}: feature column {column} (0-based) cannot be scaled: {why} in float64; "
        "rescale that column of the dataset (its values are too extreme)"
    )
