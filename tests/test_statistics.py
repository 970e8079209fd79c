"""Stability indices, Friedman/Nemenyi/Wilcoxon, and the CD diagram (svmfs.analysis)."""

import json

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from svmfs.analysis.cd_diagram import plot_cd_diagram
from svmfs.analysis.significance import (
    average_ranks,
    friedman_test,
    holm,
    nemenyi_cliques,
    nemenyi_critical_difference,
    nemenyi_q,
    wilcoxon_pairs,
)
from svmfs.analysis.stability import (
    kuncheva_index,
    lustgarten_index,
    mean_jaccard,
    nogueira_confidence_interval,
    nogueira_stability,
    stability_table,
    subsets_to_matrix,
)

# ---------------------------------------------------------------- stability


def test_nogueira_identical_subsets_is_one_with_zero_width_ci():
    Z = subsets_to_matrix([[1, 4, 7]] * 5, 10)
    assert nogueira_stability(Z) == pytest.approx(1.0)
    phi, lo, hi = nogueira_confidence_interval(Z)
    assert (phi, lo, hi) == pytest.approx((1.0, 1.0, 1.0))


def test_nogueira_hand_example():
    # d = 4, M = 3 runs: {0,1}, {0,2}, {0,1}.  p = (1, 2/3, 1/3, 0), k_bar = 2, k_bar/d = 1/2.
    # s_f^2 = 3/2 p(1-p) = (0, 1/3, 1/3, 0), mean 1/6;  Phi = 1 - (1/6) / (1/2 * 1/2) = 1/3.
    Z = subsets_to_matrix([[0, 1], [0, 2], [0, 1]], 4)
    assert nogueira_stability(Z) == pytest.approx(1 / 3)


def _variance_pa_pe_form(Z):
    """Var(Phi_hat) written as in the paper's kappa-like form: gamma_i = (pa_i - pe_i) / (1 - pe)."""
    M, d = Z.shape
    k, p = Z.sum(1), Z.mean(0)
    pi1 = k.mean() / d
    pe = 1 - 2 * pi1 * (1 - pi1)
    stab = 1 - (1 - (1 - 2 / d * M / (M - 1) * np.sum(p * (1 - p)))) / (1 - pe)
    pa_i = 1 - k / d - pi1 + 2 / d * Z @ p
    pe_i = (1 - stab) * (pi1 * k / d + (1 - pi1) * (1 - k / d))
    g = (pa_i - pe_i) / (1 - pe)
    return stab, 4 / M**2 * np.sum((g - g.mean()) ** 2)


def test_nogueira_ci_matches_independent_variance_form():
    rng = np.random.default_rng(3)
    Z = (rng.random((8, 15)) < np.linspace(0.1, 0.9, 15)).astype(int)
    stab, var = _variance_pa_pe_form(Z)
    phi, lo, hi = nogueira_confidence_interval(Z, alpha=0.1)
    assert phi == pytest.approx(stab)
    assert hi - phi == pytest.approx(phi - lo)
    assert (hi - lo) / 2 == pytest.approx(stats.norm.ppf(0.95) * np.sqrt(var))


def test_nogueira_equals_mean_kuncheva_for_equal_sizes_and_is_centred_for_random_subsets():
    # Nogueira et al. (2018): with constant subset size, Phi_hat is the mean pairwise Kuncheva index;
    # for subsets drawn at random its expectation is 0.
    rng = np.random.default_rng(0)
    subs = [rng.choice(20, 5, replace=False) for _ in range(6)]
    assert nogueira_stability(subsets_to_matrix(subs, 20)) == pytest.approx(kuncheva_index(subs, 20))
    vals = [nogueira_stability(subsets_to_matrix([rng.choice(20, 5, replace=False) for _ in range(5)], 20)) for _ in range(1000)]
    assert abs(np.mean(vals)) < 0.015  # sd of the mean ~ 0.0023


@pytest.mark.parametrize("Z", [np.zeros((3, 5)), np.ones((3, 5)), np.ones((1, 5))])
def test_nogueira_undefined_raises(Z):
    with pytest.raises(ValueError):
        nogueira_stability(Z)


def test_kuncheva_identical_and_hand_example():
    assert kuncheva_index([[0, 3, 5]] * 4, 10) == pytest.approx(1.0)
    # d = 10, k = 3.  KI = (r d - k^2) / (k (d - k)) = (10 r - 9) / 21.
    # {0,1,2}-{0,1,3}: r = 2 -> 11/21;  {0,1,2}-{4,5,6} and {0,1,3}-{4,5,6}: r = 0 -> -9/21.
    # mean = (11 - 9 - 9) / 63 = -1/9.
    assert kuncheva_index([[0, 1, 2], [0, 1, 3], [4, 5, 6]], 10) == pytest.approx(-1 / 9)
    with pytest.raises(ValueError, match="equal subset sizes"):
        kuncheva_index([[0, 1], [0, 1, 2]], 10)


def test_lustgarten_hand_example():
    # d = 6, A = {0,1}, B = {0,1,2}: r = 2, ka kb / d = 1, min(2,3) - max(0, 2+3-6) = 2 -> (2-1)/2
    assert lustgarten_index([[0, 1], [0, 1, 2]], 6) == pytest.approx(0.5)
    with pytest.raises(ValueError):
        lustgarten_index([[], [0, 1]], 6)


def test_jaccard_examples():
    assert mean_jaccard([[2, 7]] * 3) == 1.0
    # {0,1,2}-{0,1,3}: 2/4;  the two pairs with {4,5,6}: 0  -> mean 1/6
    assert mean_jaccard([[0, 1, 2], [0, 1, 3], [4, 5, 6]]) == pytest.approx(1 / 6)
    assert mean_jaccard([[], []]) == 1.0


def test_stability_table_groups_and_parses_json():
    rows = []
    for fold, sel in enumerate([[0, 1], [0, 2], [0, 1]]):  # the Nogueira hand example: 1/3
        rows.append(dict(campaign="c", dataset="ds", method="a", setting="default", fold=fold,
                         n_features_total=4, selected=json.dumps(sel)))  # fmt: skip
    for fold in range(3):  # everything selected every time: undefined -> NaN
        rows.append(dict(campaign="c", dataset="ds", method="all", setting="default", fold=fold,
                         n_features_total=4, selected=[0, 1, 2, 3]))  # fmt: skip
    t = stability_table(pd.DataFrame(rows))
    assert list(t["method"]) == ["a", "all"]
    a, full = t.iloc[0], t.iloc[1]
    assert a["folds"] == 3 and a["nogueira"] == pytest.approx(1 / 3)
    assert a["kuncheva"] == pytest.approx(1 / 3)  # equal sizes: mean Kuncheva = Phi
    assert a["jaccard"] == pytest.approx((1 / 3 + 1 + 1 / 3) / 3)
    assert a["nogueira_ci_low"] < a["nogueira"] < a["nogueira_ci_high"]
    assert np.isnan(full["nogueira"]) and np.isnan(full["kuncheva"]) and full["jaccard"] == 1.0


# ------------------------------------------------------------- significance

# Demsar (2006) Table 6: AUC of C4.5 variants on 14 UCI data sets. In the "voting" row C4.5+cf and
# C4.5+m+cf both print as .975, but the paper's ranks (and chi^2_F = 9.28) need C4.5+cf ahead,
# i.e. the unrounded values differ: we use .97501.
DEMSAR = pd.DataFrame(
    [[.763, .768, .771, .798], [.599, .591, .590, .569], [.954, .971, .968, .967], [.628, .661, .654, .657],
     [.882, .888, .886, .898], [.936, .931, .916, .931], [.661, .668, .609, .685], [.583, .583, .563, .625],
     [.775, .838, .866, .875], [1.0, 1.0, 1.0, 1.0], [.940, .962, .965, .962], [.619, .666, .614, .669],
     [.972, .981, .97501, .975], [.957, .978, .946, .970]],
    columns=["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"],
)  # fmt: skip


def test_friedman_demsar_worked_example():
    r = friedman_test(DEMSAR)
    assert r.average_ranks.round(3).tolist() == [3.143, 2.000, 2.893, 1.964]
    assert r.statistic == pytest.approx(9.28, abs=5e-3)
    assert r.iman_davenport == pytest.approx(3.69, abs=5e-3)
    # Demsar: F(3, 39) critical value at alpha = .05 is 2.85 < 3.69 -> reject
    assert r.iman_davenport_pvalue < 0.05 and stats.f.ppf(0.95, 3, 39) == pytest.approx(2.85, abs=5e-3)


def test_friedman_small_hand_example_matches_scipy():
    # no ties; lower is better. rows: ranks (1,2,3), (2,1,3), (1,3,2), (1,2,3) -> R = (5/4, 2, 11/4)
    err = pd.DataFrame([[0.1, 0.2, 0.3], [0.25, 0.15, 0.35], [0.05, 0.4, 0.3], [0.2, 0.3, 0.5]], columns=list("ABC"))
    r = friedman_test(err, higher_is_better=False)
    assert r.average_ranks.tolist() == pytest.approx([1.25, 2.0, 2.75])
    # chi2 = 12*4/(3*4) * (1.5625 + 4 + 7.5625 - 12) = 4 * 1.125 = 4.5
    ref = stats.friedmanchisquare(*(err[c] for c in err))
    assert r.statistic == pytest.approx(4.5) and r.statistic == pytest.approx(ref.statistic)
    assert r.pvalue == pytest.approx(ref.pvalue)
    assert average_ranks(-err).tolist() == pytest.approx([1.25, 2.0, 2.75])


DEMSAR_Q = {0.05: [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164],
            0.10: [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920]}  # fmt: skip


@pytest.mark.parametrize("alpha", [0.05, 0.10])
def test_nemenyi_q_matches_demsar_table5(alpha):
    got = [nemenyi_q(k, alpha) for k in range(2, 11)]
    assert got == pytest.approx(DEMSAR_Q[alpha], abs=1e-3)


def test_nemenyi_cd_and_cliques_demsar_example():
    assert round(nemenyi_critical_difference(4, 14, 0.05), 2) == 1.25
    assert round(nemenyi_critical_difference(4, 14, 0.10), 2) == 1.12
    R = friedman_test(DEMSAR).average_ranks
    # alpha .05: 3.143 - 1.964 = 1.18 < 1.25, one group; alpha .10: C4.5 differs from m+cf and m
    assert nemenyi_cliques(R, 1.25) == [["C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5"]]
    assert nemenyi_cliques(R, 1.12) == [["C4.5+m+cf", "C4.5+m", "C4.5+cf"], ["C4.5+cf", "C4.5"]]


def test_holm_hand_example():
    # sorted .01, .03, .04 -> 3*.01, max(.03, 2*.03), max(.06, .04)
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])


def test_wilcoxon_pairs_matches_scipy_and_demsar_hand_sums():
    # integer thousandths: exact ties among |differences|
    scores = (DEMSAR * 1000).round().astype(int)
    w = wilcoxon_pairs(scores)
    assert len(w) == 6
    row = w[(w.method_a == "C4.5") & (w.method_b == "C4.5+m")].iloc[0]
    ref = stats.wilcoxon(scores["C4.5"], scores["C4.5+m"], zero_method="zsplit")
    assert row["pvalue"] == pytest.approx(ref.pvalue) and row["statistic"] == ref.statistic
    # Demsar 3.1.3 by hand: d = C4.5 - C4.5+m; |d| ranks: two zeros 1.5 each, 5 (x2) 3.5, 6: 5, 7: 6,
    # 8: 7, ...; positive d: iris +5 (3.5) and breast cancer +8 (7); R+ = 3.5 + 7 + 1.5 = 12, R- = 93
    assert row["statistic"] == 12.0
    assert np.all(w["pvalue_holm"] >= w["pvalue"])


def test_wilcoxon_exact_small_case_and_all_zero_pair():
    # 6 positive distinct differences: exact two-sided p = 2 / 2^6
    s = pd.DataFrame({"a": [1.0, 2, 3, 4, 5, 6], "b": [0.0] * 6, "c": [1.0, 2, 3, 4, 5, 6]})
    w = wilcoxon_pairs(s).set_index(["method_a", "method_b"])
    assert w.loc[("a", "b"), "pvalue"] == pytest.approx(2 / 64)
    assert w.loc[("a", "c"), "pvalue"] == 1.0 and np.isnan(w.loc[("a", "c"), "statistic"])


# ------------------------------------------------------------------ figure


def test_cd_diagram_is_byte_identical(tmp_path):
    R = friedman_test(DEMSAR).average_ranks
    for i in (1, 2):
        plot_cd_diagram(R, 1.25, tmp_path / f"cd{i}.png", tmp_path / f"cd{i}.pdf")
    png1, png2 = (tmp_path / "cd1.png").read_bytes(), (tmp_path / "cd2.png").read_bytes()
    assert png1[:8] == b"\x89PNG\r\n\x1a\n" and png1 == png2
    pdf1, pdf2 = (tmp_path / "cd1.pdf").read_bytes(), (tmp_path / "cd2.pdf").read_bytes()
    assert pdf1 == pdf2 and b"CreationDate" not in pdf1
