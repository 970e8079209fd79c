"""Seeded synthetic generators of the papers; each returns X, y in {-1,+1} and the relevant set
(:func:`class_per_feature`: K >= 3 classes as the codes 0..K-1, a multiclass test problem).

Registered by name in :data:`GENERATORS`; the dataset registry (config/datasets.yaml) names them.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

import numpy as np
from scipy.stats import norm

from .canonical import Dataset


def _equispaced(p: int, k0: int) -> np.ndarray:
    """k0 equi-spaced indices in 0..p-1 (nearest rounded integer), MIT 9.520 section 5.1."""
    return np.unique(np.rint(np.linspace(0, p - 1, k0)).astype(int))


def _toeplitz_normal(rng, n: int, p: int, rho: float) -> np.ndarray:
    """Rows ~ N(0, Sigma) with Sigma_ij = rho^|i-j|, drawn as a stationary AR(1) chain (exact)."""
    z = rng.standard_normal((n, p))
    if rho == 0:
        return z
    x = np.empty_like(z)
    x[:, 0] = z[:, 0]
    s = np.sqrt(1.0 - rho**2)
    for j in range(1, p):
        x[:, j] = rho * x[:, j - 1] + s * z[:, j]
    return x


def _equicorrelated_normal(rng, n: int, p: int, rho: float) -> np.ndarray:
    """Rows ~ N(0, Sigma) with unit variances and Sigma_ij = rho (i != j), rho in [0, 1)."""
    if not 0 <= rho < 1:
        raise ValueError(f"rho must be in [0, 1) for Example 2, got {rho}")
    return np.sqrt(rho) * rng.standard_normal((n, 1)) + np.sqrt(1 - rho) * rng.standard_normal((n, p))


def _balanced_labels(n: int) -> np.ndarray:
    return np.where(np.arange(n) < n - n // 2, 1, -1)


def _check_mit(n, p, k0, rho):
    if not (n >= 4 and p >= 1 and 1 <= k0 <= p):
        raise ValueError(f"need n >= 4 and 1 <= k0 <= p, got n={n}, p={p}, k0={k0}")
    if not -1 < rho < 1:
        raise ValueError(f"rho must be in (-1, 1), got {rho}")


def mit_example1(n=100, p=2000, k0=10, rho=0.0, seed=0):
    """MIT 9.520 Example 1: half per class, x ~ N(+-mu, Sigma), mu_i = 1 on k0 equi-spaced
    coordinates and 0 elsewhere, Sigma_ij = rho^|i-j|. Relevant: the k0 coordinates."""
    _check_mit(n, p, k0, rho)
    rng = np.random.default_rng(seed)
    y = _balanced_labels(n)
    relevant = _equispaced(p, k0)
    mu = np.zeros(p)
    mu[relevant] = 1.0
    X = _toeplitz_normal(rng, n, p, rho) + y[:, None] * mu
    return X, y, relevant.tolist()


def mit_example2(n=100, p=2000, k0=10, rho=0.0, seed=0):
    """MIT 9.520 Example 2: as Example 1 with Sigma_ij = rho (i != j) and
    mu_+ = (1/k0, 2/k0, ..., 1, 0_{p-k0}). Relevant: the first k0 coordinates."""
    _check_mit(n, p, k0, rho)
    rng = np.random.default_rng(seed)
    y = _balanced_labels(n)
    mu = np.zeros(p)
    mu[:k0] = np.arange(1, k0 + 1) / k0
    X = _equicorrelated_normal(rng, n, p, rho) + y[:, None] * mu
    return X, y, list(range(k0))


def mit_example3(n=100, p=500, k0=10, rho=0.0, seed=0):
    """MIT 9.520 Example 3: probit labels P(y = 1) = Phi(x . mu), mu = (1_{k0}, 0_{p-k0}), Sigma of
    Example 1. Classes need not be balanced. Relevant: the first k0 coordinates.

    Choice: x is drawn centred, x ~ N(0, Sigma), as the section's preamble states ("a p dimensional
    multivariate normal centered distribution"). Read literally, x ~ N(mu, Sigma) gives
    E[x . mu] = k0 = 10 and Phi(10) = 1, i.e. a single class, which no table of the paper shows.
    """
    _check_mit(n, p, k0, rho)
    rng = np.random.default_rng(seed)
    mu = np.zeros(p)
    mu[:k0] = 1.0
    X = _toeplitz_normal(rng, n, p, rho)
    prob = norm.cdf(X @ mu)
    y = np.where(rng.random(n) < prob, 1, -1)
    return X, y, list(range(k0))


def weston_nonlinear(n=100, p=52, noise_var=20.0, seed=0):
    """Weston et al. (2000) data as described by Catala & Martin, section 5.1.

    Balanced classes. y = -1: (x1, x2) ~ N((-3/4, -3), I) or N((3/4, 3), I) with probability 1/2;
    y = +1: (x1, x2) ~ N((3, -3), I) or N((-3, 3), I). Features x3..x52 are noise N(0, 20).
    Choice: N(0, 20) is read as variance 20 (mean, variance notation); ``noise_var`` sets it.
    Relevant: {x1, x2}.
    """
    if p < 2 or n < 4:
        raise ValueError(f"need p >= 2 and n >= 4, got p={p}, n={n}")
    rng = np.random.default_rng(seed)
    y = _balanced_labels(n)
    pick = rng.random(n) < 0.5
    neg_centres = np.array([[-0.75, -3.0], [0.75, 3.0]])
    pos_centres = np.array([[3.0, -3.0], [-3.0, 3.0]])
    centres = np.where((y > 0)[:, None], pos_centres[pick.astype(int)], neg_centres[pick.astype(int)])
    X = np.empty((n, p))
    X[:, :2] = centres + rng.standard_normal((n, 2))
    X[:, 2:] = np.sqrt(noise_var) * rng.standard_normal((n, p - 2))
    return X, y, [0, 1]


def quadratic_terms(p: int) -> list[tuple[int, ...]]:
    """The 230 = 2p + p(p-1)/2 monomials of degree 1 and 2 in p = 20 variables (Catala & Martin 5.2)."""
    return [(j,) for j in range(p)] + list(combinations_with_replacement(range(p), 2))


def sparse_polynomial(n=200, p=20, kind="f2", sparseness=0.95, seed=0, zeros="independent"):
    """Catala & Martin section 5.2: x ~ N(0, I_20), y = sign(f(x)).

    ``kind``: ``f1`` = x1; ``f2`` = x1 x2 + x3; ``random`` = a quadratic polynomial whose terms
    (the 230 monomials of degree 1-2) are zero with probability ``sparseness`` and otherwise have a
    coefficient drawn from {+1, -1}. Relevant: the variables of the nonzero terms.
    ``zeros`` (the two readings of "A given percentage of sparseness implies that that percentage of terms
    have zero coefficients", docs/protocols/catala_martin.md): ``independent`` (reading (b), the
    default): each term is zero independently with probability ``sparseness``, a draw with no nonzero term
    redrawn; ``exact`` (reading (a)): exactly round((1 - sparseness) x 230) terms nonzero (half up: 7 at
    0.97, 12 at 0.95, all 230 at 0), chosen uniformly without replacement. No constant term (the paper's 230
    dimensions exclude it). f = 0 maps to +1.
    """
    if zeros not in ("independent", "exact"):
        raise ValueError(f"zeros must be 'independent' or 'exact', got {zeros!r}")
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, p))
    if kind == "f1":
        f, relevant = X[:, 0], [0]
    elif kind == "f2":
        if p < 3:
            raise ValueError("f2 needs p >= 3")
        f, relevant = X[:, 0] * X[:, 1] + X[:, 2], [0, 1, 2]
    elif kind == "random":
        if not 0 <= sparseness < 1:
            raise ValueError(f"sparseness must be in [0, 1), got {sparseness}")
        terms = quadratic_terms(p)
        keep = nonzero_terms(rng, len(terms), sparseness, zeros)
        coef = rng.choice([-1.0, 1.0], size=len(terms))
        f = np.zeros(n)
        used: set[int] = set()
        for t, c, k in zip(terms, coef, keep):
            if k:
                f += c * np.prod(X[:, list(t)], axis=1)
                used.update(t)
        relevant = sorted(used)
    else:
        raise ValueError(f"kind must be 'f1', 'f2' or 'random', got {kind!r}")
    y = np.where(f >= 0, 1, -1)
    return X, y, relevant


def nonzero_terms(rng, n_terms: int, sparseness: float, zeros: str = "independent") -> np.ndarray:
    """Which of ``n_terms`` terms of a random sparse polynomial are nonzero (:func:`sparse_polynomial`'s
    ``zeros``): ``exact``: round((1 - sparseness) n_terms) of them, half up, at least one, uniformly without
    replacement; ``independent``: each with probability 1 - sparseness, an all-zero draw redrawn."""
    if zeros == "exact":
        keep = np.zeros(n_terms, dtype=bool)
        keep[rng.choice(n_terms, size=max(int(np.floor((1 - sparseness) * n_terms + 0.5)), 1), replace=False)] = True
        return keep
    while True:
        keep = rng.random(n_terms) >= sparseness
        if keep.any():
            return keep


def text_like(n=200, V=300, k=10, factor=4.0, positive_fraction=0.5, mean_length=60.0, zipf=1.0, min_df=3, seed=0):
    """A small text-like tf-idf matrix standing in for the text data of Catala & Martin, section 4.

    Word j (rank j + 1) has the Zipf rate r_j proportional to 1 / (j + 1)^zipf (summing to 1); a
    document has a length L ~ Poisson(mean_length) and counts c_j ~ Poisson(L r_j m_j), where m_j =
    ``factor`` for the k informative words in a positive document and 1 otherwise (the other rates
    are identical in both classes; the rates are not renormalised). The informative words are k
    distinct mid-frequency ranks drawn from V // 30 .. V // 2 (frequent enough to survive ``min_df``).
    ``round(n * positive_fraction)`` documents are positive (Table 3's one-vs-rest is 1:19, i.e.
    0.05). As the paper's step c, words occurring in fewer than ``min_df`` documents are dropped
    (``relevant`` is remapped to the kept columns); counts -> tf-idf by scikit-learn's
    TfidfTransformer (smooth idf, l2-normalised rows), dense. Relevant: the informative words kept.
    """
    from sklearn.feature_extraction.text import TfidfTransformer

    if not (n >= 4 and V >= 30 and 1 <= k <= V // 2 - V // 30 and factor > 0 and mean_length > 0):
        raise ValueError(
            f"need n >= 4, V >= 30, 1 <= k <= V/2 - V/30, factor > 0, mean_length > 0; got n={n}, V={V}, k={k}"
        )
    n_pos = int(round(n * positive_fraction))
    if not 2 <= n_pos <= n - 2:
        raise ValueError(f"positive_fraction {positive_fraction} gives {n_pos} of {n} positives; need 2 .. n-2")
    rng = np.random.default_rng(seed)
    rates = 1.0 / np.arange(1, V + 1) ** zipf
    rates /= rates.sum()
    informative = np.sort(rng.choice(np.arange(V // 30, V // 2), size=k, replace=False))
    y = np.where(np.arange(n) < n_pos, 1, -1)
    mult = np.ones((n, V))
    mult[np.ix_(y > 0, informative)] = factor
    lengths = rng.poisson(mean_length, size=n)
    counts = rng.poisson(lengths[:, None] * rates * mult)
    keep = (counts > 0).sum(axis=0) >= min_df
    if not keep.any():
        raise ValueError(f"no word occurs in {min_df} documents; raise n or mean_length")
    new_index = np.cumsum(keep) - 1
    relevant = [int(new_index[j]) for j in informative if keep[j]]
    X = TfidfTransformer(norm="l2", smooth_idf=True).fit_transform(counts[:, keep]).toarray()
    return X.astype(np.float64), y, relevant


def class_per_feature(n=90, p=20, n_classes=3, shift=3.0, seed=0):
    """A multiclass problem where each class is driven by a feature of its own: ``n_classes`` balanced
    classes (codes 0..K-1, sizes differing by at most one), x ~ N(0, I_p) plus ``shift`` on coordinate c for
    the points of class c. Feature c alone separates class c from the rest; no single feature separates all
    classes, so a selection keeping fewer than K of the first K coordinates confuses some class with the
    rest. Relevant: the first ``n_classes`` coordinates.
    """
    if not (n_classes >= 3 and p >= n_classes and n >= 2 * n_classes):
        raise ValueError(f"need n_classes >= 3, p >= n_classes and n >= 2 n_classes, got n={n}, p={p}, n_classes={n_classes}")
    rng = np.random.default_rng(seed)
    y = np.arange(n) % n_classes
    X = rng.standard_normal((n, p))
    X[np.arange(n), y] += float(shift)
    return X, y, list(range(n_classes))


GENERATORS = {
    "class_per_feature": class_per_feature,
    "mit_example1": mit_example1,
    "mit_example2": mit_example2,
    "mit_example3": mit_example3,
    "weston_nonlinear": weston_nonlinear,
    "sparse_polynomial": sparse_polynomial,
    "text_like": text_like,
}


def generate(name: str, generator: str, params: dict, seed: int) -> Dataset:
    """Run a registered generator into a :class:`Dataset` (features named x1..xp, 1-based)."""
    if generator not in GENERATORS:
        raise KeyError(f"dataset {name!r}: unknown generator {generator!r}; known: {sorted(GENERATORS)}")
    X, y, relevant = GENERATORS[generator](**params, seed=seed)
    return Dataset(
        name=name,
        X=X,
        y=y,
        feature_names=[f"x{j + 1}" for j in range(X.shape[1])],
        sample_ids=[f"s{i}" for i in range(X.shape[0])],
        relevant=[int(r) for r in relevant],
        meta={"source": {"kind": "synthetic", "generator": generator, "params": params, "seed": seed}},
    )
