"""The papers' synthetic generators: shapes, relevant sets, distributions, seeds."""

import numpy as np
import pytest

from svmfs.data.synthetic import (
    mit_example1,
    mit_example2,
    mit_example3,
    quadratic_terms,
    sparse_polynomial,
    weston_nonlinear,
)


def test_mit_example1_equispaced_relevant_and_class_means():
    X, y, rel = mit_example1(n=2000, p=50, k0=5, rho=0.0, seed=1)
    assert X.shape == (2000, 50) and (y == 1).sum() == 1000 and (y == -1).sum() == 1000
    assert rel == [0, 12, 24, 37, 49]  # equi-spaced, nearest rounded integer
    diff = X[y == 1].mean(0) - X[y == -1].mean(0)  # = 2 mu_+
    assert np.allclose(diff[rel], 2.0, atol=0.15)
    assert np.abs(np.delete(diff, rel)).max() < 0.2


@pytest.mark.parametrize("rho", [0.2, 0.5, 0.8])
def test_mit_example1_toeplitz_correlation(rho):
    X, y, _ = mit_example1(n=20000, p=6, k0=1, rho=rho, seed=2)
    C = np.corrcoef(X[y == 1][:, 1:].T)  # within a class, columns 1..5 are pure noise
    assert C[0, 1] == pytest.approx(rho, abs=0.03)
    assert C[0, 2] == pytest.approx(rho**2, abs=0.03)


def test_mit_example2_equicorrelation_and_means():
    X, y, rel = mit_example2(n=20000, p=12, k0=4, rho=0.5, seed=3)
    assert rel == [0, 1, 2, 3]
    diff = (X[y == 1].mean(0) - X[y == -1].mean(0)) / 2
    assert np.allclose(diff[:4], [0.25, 0.5, 0.75, 1.0], atol=0.05)
    C = np.corrcoef(X[y == 1][:, 4:].T)
    off = C[~np.eye(8, dtype=bool)]
    assert np.allclose(off, 0.5, atol=0.04)


def test_mit_example3_probit_labels_depend_on_first_k0():
    X, y, rel = mit_example3(n=5000, p=40, k0=10, rho=0.0, seed=4)
    assert rel == list(range(10))
    assert 0.3 < np.mean(y == 1) < 0.7  # centred x: both classes occur
    s = X[:, :10].sum(1)
    assert np.mean(y[s > 3] == 1) > 0.95 and np.mean(y[s < -3] == -1) > 0.95


def test_weston_structure():
    X, y, rel = weston_nonlinear(n=4000, seed=5)
    assert X.shape == (4000, 52) and rel == [0, 1] and (y == 1).sum() == 2000
    # +1 class lies in the quadrants x1 * x2 < 0, -1 class mostly in x1 * x2 > 0 (XOR-like)
    assert np.mean(X[y == 1, 0] * X[y == 1, 1] < 0) > 0.95
    assert np.mean(X[y == -1, 0] * X[y == -1, 1] > 0) > 0.7
    assert X[:, 2:].var() == pytest.approx(20.0, rel=0.05)


def test_sparse_polynomial_kinds():
    X, y, rel = sparse_polynomial(n=300, kind="f2", seed=6)
    assert rel == [0, 1, 2]
    assert np.array_equal(y, np.where(X[:, 0] * X[:, 1] + X[:, 2] >= 0, 1, -1))
    X, y, rel = sparse_polynomial(n=300, kind="f1", seed=6)
    assert rel == [0] and np.array_equal(y, np.where(X[:, 0] >= 0, 1, -1))
    assert len(quadratic_terms(20)) == 230  # the paper's 230-dimensional feature space
    _, _, rel0 = sparse_polynomial(kind="random", sparseness=0.0, seed=7)
    assert rel0 == list(range(20))
    sizes = [len(sparse_polynomial(kind="random", sparseness=0.97, seed=s)[2]) for s in range(20)]
    assert 3 < np.mean(sizes) < 16  # about 7 nonzero terms of 230



def test_sparse_polynomial_exact_zeros_reading_keeps_that_share_of_terms():
    """Reading (a) of Catala & Martin's "that percentage of terms have zero coefficients" (row C13): exactly
    round((1 - s) 230) nonzero terms at every draw; reading (b) (independent zeros) gives that count on
    average only; the generator's relevant variables are those of its nonzero terms."""
    from svmfs.data.synthetic import nonzero_terms

    for s, want in ((0.97, 7), (0.95, 12), (0.0, 230)):
        exact = [int(nonzero_terms(np.random.default_rng(k), 230, s, "exact").sum()) for k in range(30)]
        assert set(exact) == {want}
    independent = [int(nonzero_terms(np.random.default_rng(k), 230, 0.97, "independent").sum()) for k in range(200)]
    assert len(set(independent)) > 3 and abs(np.mean(independent) - 6.9) < 1.0
    rng = np.random.default_rng(3)
    rng.standard_normal((50, 20))  # the generator draws X first, then the terms
    keep = nonzero_terms(rng, 230, 0.97, "exact")
    _, _, rel = sparse_polynomial(n=50, kind="random", sparseness=0.97, seed=3, zeros="exact")
    assert rel == sorted({v for k in np.flatnonzero(keep) for v in quadratic_terms(20)[k]})
    _, _, rel0 = sparse_polynomial(kind="random", sparseness=0.0, seed=7, zeros="exact")
    assert rel0 == list(range(20))
    with pytest.raises(ValueError, match="zeros must be 'independent' or 'exact'"):
        sparse_polynomial(kind="random", zeros="some")


@pytest.mark.parametrize("gen", [mit_example1, mit_example2, mit_example3, weston_nonlinear, sparse_polynomial])
def test_seeds_reproduce_and_differ(gen):
    kw = {"p": 30} if gen not in (sparse_polynomial,) else {}
    a, b, c = gen(seed=11, **kw), gen(seed=11, **kw), gen(seed=12, **kw)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    assert not np.array_equal(a[0], c[0])
