"""Feature normalization fitted on the training side of each outer fold only.

``scope: global`` (fit on all rows) exists only to replicate papers that scaled the whole data set
(Jimenez-Cordero et al. 2021); it leaks test information and every record made with it says so.
"""

from __future__ import annotations

import numpy as np
from sklearn.preprocessing import FunctionTransformer, MinMaxScaler, StandardScaler

METHODS = ("minmax_pm1", "minmax_01", "zscore", "none")


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
    scaler = make_normalizer(method)
    scaler.fit(X if scope == "global" else X[train])
    return scaler.transform(X[train]), scaler.transform(X[test]), scope == "global"


def fit_transform_rows(X: np.ndarray, fit_rows, apply_rows, method: str):
    """Fit on ``fit_rows`` and transform ``apply_rows`` (used for evaluation resamples)."""
    scaler = make_normalizer(method).fit(X[fit_rows])
    return scaler.transform(X[apply_rows])
