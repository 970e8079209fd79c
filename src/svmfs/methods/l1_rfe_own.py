"""1-norm RFE scored by the SVM its elimination ends with (MIT 9.520 project, sec. 3.2 and 4.1; sheet row M18 of
docs/protocols/mit9520.md).

Sec. 4.1 lists the estimators compared: "3. 1-norm RFE by polishing the 1-norm SVM solution on its support with
SVM-RFE". The polishing's last step is a linear SVM on the features it keeps; that SVM, with the method's own C,
is the estimator scored here (final classifier ``own``), where the project's ``l1_rfe`` refits a linear SVM whose
C the inner CV chooses again. The selection is :class:`svmfs.methods.l1_rfe.L1RFE`'s.
"""

from __future__ import annotations

from .base import OwnSVMAtSize
from .l1_rfe import L1RFE


class L1RFEOwnSVM(L1RFE, OwnSVMAtSize):
    """:class:`~svmfs.methods.l1_rfe.L1RFE` whose ``weights_`` and ``intercept_`` are the linear SVM with penalty
    ``C`` on the selected features (0 on the others): the SVM the RFE on the 1-norm support ends with at that
    size. ``weights_`` is thus no longer the 1-norm SVM's w (kept as ``l1_weights_``). An empty 1-norm support
    gives the constant classifier of the larger class (:func:`~svmfs.methods.base.own_linear_svm`). Sizes of a
    tuning grid are scored by :meth:`~svmfs.methods.base.OwnSVMAtSize.own_at_size`.
    """

    def _fit(self, X, y):
        super()._fit(X, y)
        self.l1_weights_ = self.weights_
        self._solve_own(X, y)
