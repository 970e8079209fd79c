"""Datasets shipped inside installed packages (no network)."""

from __future__ import annotations

import numpy as np

from .canonical import Dataset


def sklearn_breast_cancer(name: str, positive: str = "malignant") -> Dataset:
    """WDBC (Street, Wolberg & Mangasarian 1993) from scikit-learn: 569 x 30, 212 malignant / 357 benign.

    In scikit-learn's loader ``target`` 0 = malignant, 1 = benign; ``positive`` names the class mapped to +1.
    """
    from sklearn.datasets import load_breast_cancer

    b = load_breast_cancer()
    names = list(b.target_names)  # ['malignant', 'benign']
    if positive not in names:
        raise ValueError(f"dataset {name!r}: positive class {positive!r} is not one of {names}")
    y = np.where(b.target == names.index(positive), 1, -1)
    return Dataset(
        name=name,
        X=np.asarray(b.data, dtype=np.float64),
        y=y,
        feature_names=[str(f) for f in b.feature_names],
        sample_ids=[f"wdbc{i}" for i in range(b.data.shape[0])],
        meta={"source": {"kind": "embedded", "loader": "sklearn.datasets.load_breast_cancer",
                         "positive": positive}},
    )


LOADERS = {"sklearn_breast_cancer": sklearn_breast_cancer}
