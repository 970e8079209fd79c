"""No selection: the SVM on all features (the papers' "SVM" / "NO-FS" baseline)."""

from __future__ import annotations

import numpy as np

from .base import BaseSelector


class NoSelection(BaseSelector):
    """Keep every feature; the final classifier (linear or RBF SVM, by registry entry) does the rest."""

    ranks_all_features = False

    def _fit(self, X, y):
        self.support_ = np.ones(X.shape[1], dtype=bool)
