"""Issue 35, row J36 of docs/protocols/jimenez2021.md: Fig. 2 of Jimenez-Cordero et al. (2021) at all 25 values of
C that sec. 5.2 names against the 9 decades the committed campaign ran. Written before its records were read
(the measurement the campaign files declare: config/campaigns/subsets/jimenez2021_fig2_full.yaml and
config/campaigns/protocol/jimenez2021_paper_fig2_J36.yaml).

Usage: python benchmarks/bench_fig2_j36.py RECORDS_25 RECORDS_9
       (each a records.parquet, or a results folder whose runs/ hold the select jobs' records)

Prints, in markdown:
1. the records at the 9 shared values against the 9-value campaign's (:func:`svmfs.reproduce.compare.compare_jobs`
   on every deterministic field but the campaign's name and ``config_hash``, whose form changed on 2026-11-29);
2. per dataset and method, each C's point of Fig. 2: the accuracy pooled over the outer folds (test points right
   over test points) and the fold mean sec. 5.2 speaks of ("averaged over all folds"), and the mean number of
   features kept (``n_selected``: gamma_j or abs(w_j) > 1e-2); the best pooled accuracy over the 9 and over the 25
   values, with its count (ties: the fewer features, then the smaller C);
3. sec. 5.2's two statements, read with thresholds fixed here before any record was seen:
   - (A) "either MM-FS provides a more accurate classifier than that given by l1-SVM, or a classifier with a
     similar level of accuracy but with a significantly lower number of features": on a dataset, MM-FS's best
     pooled accuracy above l1-SVM's by more than 1 point, or MM-FS reaching within 1 point of l1-SVM's best with
     at most 0.65 times the features l1-SVM keeps at its best;
   - (B) for diabetes (pima), "an accuracy similar to that of l1-SVM, but with approximately half of the
     features": some MM-FS point within 1 point of l1-SVM's best pooled accuracy with 0.35-0.65 times l1-SVM's
     features at its best.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

from svmfs.reproduce.compare import compare_jobs
from svmfs.results.record import read_records

METHODS = {"mm_fs_by_C": "MM-FS", "l1_svm_by_C": "l1-SVM", "mm_fs": "MM-FS"}  # mm_fs: the paper-protocol campaign
SIMILAR = 1.0  # percentage points of pooled accuracy
FEWER = 0.65  # "significantly lower number of features": at most this fraction of l1-SVM's count
HALF = (0.35, 0.65)  # "approximately half of the features"
DECADES = [1e-4, 1e-3, 1e-2, 1e-1, 1.0, 10.0, 100.0, 1e3, 1e4]


def load(path: Path) -> pd.DataFrame:
    """Records from a records.parquet or from a results folder's runs/."""
    path = Path(path)
    rec = pd.read_parquet(path) if path.suffix == ".parquet" else read_records(sorted((path / "runs").rglob("*.parquet")))
    return rec[rec["method"].isin(METHODS)].reset_index(drop=True)


def points(rec: pd.DataFrame) -> pd.DataFrame:
    """One row per (dataset, method, C): pooled and fold-mean accuracy (%), mean features, folds."""
    rec = rec.assign(C=rec["setting"].str.removeprefix("C-").astype(float),
                     correct=np.rint(rec["test_accuracy"] * rec["n_test"]))  # fmt: skip
    g = rec.groupby(["dataset", "method", "C"])
    out = pd.DataFrame({
        "pooled": 100 * g["correct"].sum() / g["n_test"].sum(),
        "fold_mean": 100 * g["test_accuracy"].mean(),
        "features": g["n_selected"].mean(),
        "folds": g.size(),
    }).reset_index()  # fmt: skip
    return out


def best(p: pd.DataFrame) -> pd.Series:
    """The point of highest pooled accuracy; ties: fewer features, then smaller C."""
    return p.sort_values(["pooled", "features", "C"], ascending=[False, True, True], kind="stable").iloc[0]


def statements(p: pd.DataFrame, dataset: str) -> dict:
    mm, l1 = (p[(p["dataset"] == dataset) & (p["method"] == m)] for m in ("mm_fs_by_C", "l1_svm_by_C"))
    b_mm, b_l1 = best(mm), best(l1)
    near = mm[mm["pooled"] >= b_l1["pooled"] - SIMILAR]
    fewest = near.sort_values(["features", "C"], kind="stable").iloc[0] if len(near) else None
    ratio = (fewest["features"] / b_l1["features"]) if fewest is not None and b_l1["features"] > 0 else np.nan
    a = bool(b_mm["pooled"] > b_l1["pooled"] + SIMILAR or (fewest is not None and ratio <= FEWER))
    b = bool(len(near) and ((near["features"] / max(b_l1["features"], 1e-12)).between(*HALF)).any())
    return {"mm_best": b_mm, "l1_best": b_l1, "fewest_near": fewest, "ratio": ratio, "A": a, "B": b}


def fmt_point(r) -> str:
    return "-" if r is None else f"{r['pooled']:.2f} % at {r['features']:.1f} features (C = {r['C']:g})"


def main(path25: Path, path9: Path) -> None:
    r25, r9 = load(path25), load(path9)
    key = ["dataset", "method", "setting", "fold"]
    shared = r25.merge(r9[key], on=key)
    other = ["campaign", "config_hash"]  # the campaign's name, and the hash's form (the slice is the same)
    cmp = compare_jobs(r9.drop(columns=other), shared.drop(columns=other))
    same = sum(not d and not p for d, p in cmp.values())
    path_only = sum(bool(p) and not d for d, p in cmp.values())
    differ = {k: d for k, (d, _) in cmp.items() if d}
    print(f"## 1. The 9 shared values: {len(cmp)} records, {same} identical, {path_only} the same result by another "
          f"solver path, {len(differ)} differ\n")  # fmt: skip
    for k, d in sorted(differ.items()):
        print(f"- {'/'.join(map(str, k))}: {'; '.join(d)[:400]}")
    p25 = points(r25)
    print("\n## 2. Fig. 2's points (pooled accuracy %, fold mean %, mean features kept)\n")
    print("| dataset | method | C | pooled | fold mean | features | folds | decade |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |")
    for _, r in p25.sort_values(["dataset", "method", "C"]).iterrows():
        print(f"| {r['dataset']} | {METHODS[r['method']]} | {r['C']:g} | {r['pooled']:.2f} | {r['fold_mean']:.2f} "
              f"| {r['features']:.1f} | {r['folds']} | {'yes' if r['C'] in DECADES else ''} |")  # fmt: skip
    p9 = p25[p25["C"].isin(DECADES)]
    print("\n## 2b. Best pooled accuracy over 9 and over 25 values\n")
    print("| dataset | method | best of 9 | best of 25 |")
    print("| --- | --- | --- | --- |")
    for (d, m), _ in p25.groupby(["dataset", "method"]):
        sel = lambda p: p[(p["dataset"] == d) & (p["method"] == m)]  # noqa: E731
        print(f"| {d} | {METHODS[m]} | {fmt_point(best(sel(p9)))} | {fmt_point(best(sel(p25)))} |")
    print(f"\n## 3. Sec. 5.2's statements (similar: within {SIMILAR:g} point; significantly fewer: <= {FEWER:g}x; "
          f"about half: {HALF[0]:g}-{HALF[1]:g}x l1-SVM's features at its best)\n")  # fmt: skip
    print("| dataset | values | MM-FS best | l1-SVM best | MM-FS's fewest features within 1 point of l1-SVM's best | ratio | (A) | (B) |")
    print("| --- | ---: | --- | --- | --- | ---: | --- | --- |")
    for d in sorted(p25["dataset"].unique()):
        if not {"mm_fs_by_C", "l1_svm_by_C"} <= set(p25.loc[p25["dataset"] == d, "method"]):
            continue  # the paper-protocol campaign runs MM-FS alone
        for label, p in (("9", p9), ("25", p25)):
            s = statements(p, d)
            b = ("yes" if s["B"] else "no") if d == "pima" else ""
            print(f"| {d} | {label} | {fmt_point(s['mm_best'])} | {fmt_point(s['l1_best'])} | {fmt_point(s['fewest_near'])} "
                  f"| {s['ratio']:.2f} | {'yes' if s['A'] else 'no'} | {b} |")  # fmt: skip


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(Path(sys.argv[1]), Path(sys.argv[2]))
