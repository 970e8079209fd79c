"""Issue 35, C17 (d): how close to zero step 13's batch decisions come on catala_martin_paper's 700 Table 5 draws.

A batch is every feature with DecrAlign <= 0 (``backward_elimination(batch=True)``); a DecrAlign within round-off
of zero could fall on the other side on another CPU and change a record. For each draw (the training side
z-scored as the campaign does), the library's own batch path is walked again and every candidate's DecrAlign is
computed on the set before each iteration and at the stop; prints the smallest |DecrAlign| / alignment met.
Needs a results folder of the campaign (its datasets and splits).

Usage: PYTHONPATH=src python benchmarks/bench_dfsa_batch_margin.py [RESULTS]   (default results/catala_martin_paper)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from svmfs.data.canonical import load_dataset
from svmfs.protocol.normalize import normalize_fold
from svmfs.solvers.alignment import alignment, backward_elimination, kernel_matrix, target_vector

KW = dict(degree=2, offset=1.0, gamma=1.0)


def smallest_margin(X: np.ndarray, t: np.ndarray) -> float:
    """The smallest |DecrAlign| / alignment over every candidate of every pass of the batch elimination."""
    res = backward_elimination(X, t, "poly", batch=True, **KW)
    F, smallest = list(range(X.shape[1])), np.inf
    for b in res.batches + [[]]:  # the passes that removed a batch, then the one that stopped
        a = alignment(kernel_matrix(X, F, "poly", **KW), t)
        for j in F:
            rest = [f for f in F if f != j]
            smallest = min(smallest, abs(a - alignment(kernel_matrix(X, rest, "poly", **KW), t)) / abs(a))
        F = [f for f in F if f not in set(b)]
    return smallest


def main(results: Path) -> None:
    margins = []
    for f in sorted(results.glob("datasets/poly_*.npz")):
        ds = load_dataset(f, f.with_suffix(".json"))
        for fold in json.loads((results / "splits" / f"{f.stem}.json").read_text())["folds"]:
            tr = np.asarray(fold["train"])
            Xtr, _, _ = normalize_fold(ds.X, tr, tr[:1], "zscore", "fold")
            margins.append(smallest_margin(Xtr, target_vector(np.where(ds.y[tr] == np.unique(ds.y)[1], 1.0, -1.0))))
    m = np.array(margins)
    print(f"{len(m)} draws; smallest |DecrAlign| / alignment over every pass: min {m.min():.2e}, "
          f"1st percentile {np.percentile(m, 1):.2e}, median {np.median(m):.2e}; draws under 1e-9: {(m < 1e-9).sum()}")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "results/catala_martin_paper"))
