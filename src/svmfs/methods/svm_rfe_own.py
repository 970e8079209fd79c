"""SVM-RFE scored by its own last SVM: Rinaldi & Sciandrone (2010), section 5.3 and Tables 3-4, "classification
accuracy of the linear machine determined by RFE-SVM" (the SPIDER toolbox's RFE, which trains its linear SVM
on the r features it keeps and classifies with it). After the elimination of
:class:`svmfs.methods.svm_rfe.SVMRFE` down to ``n_features_to_select`` features, the linear SVM with RFE's own
C is solved on those features, and the final classifier ``own`` scores that hyperplane as it is: no second
SVM with a separately tuned C (the project's refitted SVM, sheet row R28 of docs/protocols/rinaldi2010.md).
"""

from __future__ import annotations

from .base import OwnSVMAtSize
from .svm_rfe import SVMRFE


class SVMRFEOwnSVM(SVMRFE, OwnSVMAtSize):
    """:class:`~svmfs.methods.svm_rfe.SVMRFE` whose ``weights_`` and ``intercept_`` are the linear SVM (hinge
    loss, unpenalised intercept: libsvm, as the elimination's own solves) with penalty ``C`` on the selected
    features, 0 on the others: the machine RFE-SVM determines at size r (Rinaldi & Sciandrone 2010, sec. 5.3).

    The hyperplane belongs to one size. The size is a setting or ``match_size_of`` (Rinaldi & Sciandrone's
    r, "the number of features selected by our algorithm"), or a grid of the tuner, which scores each size k
    by :meth:`~svmfs.methods.base.OwnSVMAtSize.own_at_size`, the SVM at k that the elimination ends with when
    it stops there (the MIT 9.520 project's SVM-RFE scored as its sec. 4.1 states it: sheet row M18 of
    docs/protocols/mit9520.md).
    """

    def _fit(self, X, y):
        super()._fit(X, y)
        self._solve_own(X, y)
