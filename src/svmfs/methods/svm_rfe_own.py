"""SVM-RFE scored by its own last SVM: Rinaldi & Sciandrone (2010), section 5.3 and Tables 3-4, "classification
accuracy of the linear machine determined by RFE-SVM" (the SPIDER toolbox's RFE, which trains its linear SVM
on the r features it keeps and classifies with it). After the elimination of
:class:`svmfs.methods.svm_rfe.SVMRFE` down to ``n_features_to_select`` features, the linear SVM with RFE's own
C is solved on those features, and the final classifier ``own`` scores that hyperplane as it is: no second
SVM with a separately tuned C (the project's refitted SVM, sheet row R28 of docs/protocols/rinaldi2010.md).
"""

from __future__ import annotations

import numpy as np
from sklearn.svm import SVC

from .base import LinearModelSelector
from .svm_rfe import SVMRFE


class SVMRFEOwnSVM(SVMRFE, LinearModelSelector):
    """:class:`~svmfs.methods.svm_rfe.SVMRFE` whose ``weights_`` and ``intercept_`` are the linear SVM (hinge
    loss, unpenalised intercept: libsvm, as the elimination's own solves) with penalty ``C`` on the selected
    features, 0 on the others: the machine RFE-SVM determines at size r (Rinaldi & Sciandrone 2010, sec. 5.3).

    The hyperplane belongs to one size: reading other sizes off the ranking (the tuner's truncation) would
    score them with it, so the config check refuses the size in a grid of a method scored ``own``; the size
    is a setting or ``match_size_of`` (Rinaldi & Sciandrone's r, "the number of features selected by our
    algorithm").
    """

    def _fit(self, X, y):
        super()._fit(X, y)
        keep = self.support_
        svm = SVC(kernel="linear", C=self.C, max_iter=-1).fit(X[:, keep], y)
        # y is in {-1, +1} (BaseSelector.fit): SVC's positive class is +1, so w.x + b > 0 is classes_[1]
        self.weights_ = np.zeros(X.shape[1])
        self.weights_[keep] = svm.coef_.ravel()
        self.intercept_ = float(svm.intercept_[0])
