"""The paper campaigns of config/campaigns/<paper>/nested.yaml, reduced by their overlays <paper>/reduced.yaml,
end to end on the embedded data and the local mirror of ../shared/data (served on 127.0.0.1)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from svmfs.analysis.reproduction import verdict_kind
from svmfs.analysis.tables import OK_STATUSES
from svmfs.config import campaign_chain

ROOT = Path(__file__).resolve().parents[1]
#: each paper campaign's reduced overlay (its chain: the nested campaign, or the offline text one, first)
REDUCED = {name: f"{name}/reduced.yaml" for name in ("mit9520", "rinaldi2010", "jimenez2021", "catala_martin", "maldonado2011")}
REDUCED["catala_martin_text"] = "catala_martin/text/offline/reduced.yaml"

pytestmark = [pytest.mark.workflow, pytest.mark.e2e]


def run_campaign(name: str, workdir: Path, mirror_url: str = "", *extra: str) -> Path:
    """snakemake with the campaign file and its reduced overlay, as the README shows."""
    cmd = [
        sys.executable, "-m", "snakemake", "-s", str(ROOT / "Snakefile"), "-d", str(workdir), "--cores", "2",
        "--workflow-profile", str(ROOT / "workflow" / "profiles" / "default"),
        "--configfile", *(str(p) for p in campaign_chain(ROOT / "config" / "campaigns" / REDUCED[name])),
        "--replace-workflow-config", *extra,
    ]  # fmt: skip
    proc = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "SVMFS_MIRROR": mirror_url}, timeout=1800)
    assert proc.returncode == 0, proc.stderr[-6000:]
    return workdir / "results" / f"{name}_reduced"  # the overlay names its own campaign


def _reproduced(out: Path) -> pd.DataFrame:
    rep = pd.read_csv(out / "tables" / "reproduction.csv")
    assert (out / "report" / "reproduction.md").read_text().startswith("# Reproduction report")
    rep["run"] = rep["verdict"].map(verdict_kind).isin(["agrees", "gap explained", "gap unexplained"])
    return rep


def test_mit9520_reduced(tmp_path):
    out = run_campaign("mit9520", tmp_path)
    rec = pd.read_csv(out / "records.csv")
    assert set(rec["dataset_group"]) == {"ex1_rho02", "ex2_rho05", "ex3_rho08"} and set(rec["status"]) <= set(OK_STATUSES)
    # the 1-norm SVM finds Example 1's relevant coordinates (MIT section 5: few errors, ~k0 features)
    ex1 = rec[(rec["dataset_group"] == "ex1_rho02") & (rec["method"] == "l1_svm")]
    assert ex1["recall_relevant"].mean() >= 0.8 - 1e-9
    rep = _reproduced(out)
    assert rep["run"].sum() == 3 * 3 * 2  # 3 datasets x 3 methods x (error, features), each with a verdict
    assert set(rep.loc[rep["dataset"] == "ex1_rho00", "verdict"]) == {"not run: dataset not in campaign"}
    opt = pd.read_csv(out / "tables" / "optimism.csv")  # the overlay's audits: test_tuned, global_scaling, global_selection
    assert set(opt["protocol"]) == {"nested", "test_tuned", "global_scaling", "global_selection"}
    assert set(opt.loc[opt["protocol"] == "global_selection", "method"]) == {"svm_rfe", "l1_rfe"}  # l1_svm: own
    assert (opt.loc[opt["protocol"] == "test_tuned", "optimism_mean"] >= 0).all()
    assert (out / "figures" / "optimism.png").exists()
    run_campaign("mit9520", tmp_path, "", "--report", str(tmp_path / "report.html"))
    html = (tmp_path / "report.html").read_text(errors="replace")
    for name in ("reproduction.rst", "optimism.rst", "optimism_figure.rst"):
        assert " ".join((ROOT / "workflow" / "report" / name).read_text().split()[:6]) in html, name


def test_rinaldi2010_reduced(tmp_path, shared_mirror):
    out = run_campaign("rinaldi2010", tmp_path, shared_mirror)
    rec = pd.read_csv(out / "records.csv")
    assert set(rec["dataset"]) == {"colon", "leukemia"} and (rec["n_train"] == rec["dataset"].map({"colon": 50, "leukemia": 58})).all()
    assert (rec["n_test"] == rec["dataset"].map({"colon": 12, "leukemia": 14})).all()
    key = ["dataset", "fold"]
    fs = rec[rec["method"] == "fs_svmcp"].set_index(key)["n_selected"]
    matched = rec[rec["method"] == "rfe_svm_matched"].set_index(key)["n_selected"]
    assert fs.equals(matched)  # RFE-SVM with r = FS-SVMCP's count on the same instance (Tables 3-4)
    assert fs.max() < 60  # FS-SVMCP keeps a few dozen of 2000-7129 genes at most (paper: 7-10)
    fixed = rec[rec["method"] == "rfe_svm_fixed"]
    assert (fixed["n_selected"] == fixed["setting"].str.rsplit("-", n=1).str[1].astype(int)).all()
    rep = _reproduced(out)
    assert rep.loc[rep["dataset"].isin(["colon", "leukemia"]) & (rep["table"] != "Table 5"), "run"].all()
    opt = pd.read_csv(out / "tables" / "optimism.csv")
    assert set(opt["protocol"]) == {"nested", "test_tuned", "global_scaling", "global_selection"}
    assert "rfe_svm_matched" not in set(opt.loc[opt["protocol"] == "global_selection", "method"])  # match_size_of


def test_jimenez2021_reduced(tmp_path, shared_mirror):
    out = run_campaign("jimenez2021", tmp_path, shared_mirror)
    rec = pd.read_csv(out / "records.csv")
    assert set(rec["dataset"]) == {"wdbc", "pima"}
    milp = rec[rec["method"] == "milp_fs"]
    budget = milp["dataset"].map({"wdbc": 10, "pima": 5})  # per-dataset B from method_params
    assert (milp["n_selected"] <= budget).all() and milp["n_selected"].max() > 0
    # section 4.3: l1-SVM and MILP-FS scored by their own hyperplane, the others by a refitted SVM
    assert set(rec.loc[rec["method"].isin(["l1_svm", "milp_fs", "l1_svm_by_C"]), "final_classifier"]) == {"own"}
    assert set(rec.loc[rec["method"] == "svm_rbf", "final_classifier"]) == {"rbf"}
    mm = rec[rec["method"] == "mm_fs"]
    assert set(mm["status"]) <= {"ok", "acceptable", "max_iter"}  # the reduced overlay caps Ipopt at 300
    assert set(mm["dataset"]) == {"wdbc"}  # the reduced overlay skips MM-FS on pima
    for ds in ("wdbc",):  # Fig. 1: the larger C2, the lower ||gamma|| (mean over folds)
        norms = {c2: np.mean([json.loads(p.read_text())["diagnostics"]["gamma_l1"]
                              for p in (out / "runs" / ds / "mm_fs" / c2).glob("fold-*.json")])
                 for c2 in ("C2-0.1", "C2-0.7")}  # fmt: skip
        assert norms["C2-0.7"] < norms["C2-0.1"], (ds, norms)
    kp = rec[rec["method"] == "kp_fs_offshelf"]
    assert (kp["n_selected"] == 0).all()  # the paper's observation: off the shelf, every width -> 0
    rep = _reproduced(out)
    row = rep[(rep["table"] == "Table 2") & (rep["dataset"] == "wdbc") & (rep["method"] == "mm_fs")].iloc[0]
    assert row["run"] and row["setting"] in ("C2-0.1", "C2-0.7")
    # Table 4 names our top 5 with the dataset's feature names (select -> collect -> reproduction)
    row = rep[(rep["table"] == "Table 4") & (rep["dataset"] == "wdbc")].iloc[0]
    assert "ours named: " in row["note"] and ("worst " in row["note"] or "mean " in row["note"]), row["note"]


def test_catala_martin_reduced(tmp_path):
    out = run_campaign("catala_martin", tmp_path)
    rec = pd.read_csv(out / "records.csv")
    weston = rec[rec["dataset"] == "weston_train100"]
    assert len(weston) == 10 and (weston["n_train"] == 100).all()
    assert weston["exact_relevant"].astype(float).mean() >= 0.8  # paper Table 4: 95.9 % exactly {x1, x2}
    f2 = rec[rec["dataset"] == "poly_f2_train200"]
    assert f2["recall_relevant"].mean() >= 0.8 and f2["n_selected"].mean() <= 6  # Table 5: 100 %, 3.03
    assert rec.loc[rec["dataset_group"] == "poly_sp095_train100", "dataset"].nunique() == 3  # 3 polynomials
    rep = _reproduced(out)
    assert rep["run"].sum() == 3 + 2 + 2


def test_maldonado2011_reduced(tmp_path, shared_mirror):
    out = run_campaign("maldonado2011", tmp_path, shared_mirror)
    rec = pd.read_csv(out / "records.csv")
    assert set(rec["dataset"]) == {"wdbc", "pima"}
    assert set(rec["status"]) <= {*OK_STATUSES, "max_iter"}  # KP-SVM may stop at its iteration limit (recorded)
    kp = rec[rec["method"] == "kp_svm"].set_index("dataset")["n_selected"]
    for other in ("fisher_matched", "rfe_svm_matched"):  # Table 3: compared at KP-SVM's feature count
        assert rec[rec["method"] == other].set_index("dataset")["n_selected"].equals(kp)
    assert kp["wdbc"] < 30  # KP-SVM removed features of WDBC (paper: 15 of 30)
    rep = _reproduced(out)
    assert rep["run"].sum() == 2 * (3 + 5)
