"""The default campaign (config/config.yaml) is a showcase: a method of every paper, every figure filled.

Checked on the config alone (no job runs): what each figure of rule figures / statistics needs exists in it.
The README's condensed table and figure (docs/, svmfs.analysis.showcase) are checked on a small summary.
"""

import shutil
from pathlib import Path

import pandas as pd
import yaml

from svmfs.analysis.paths import swept_parameter
from svmfs.analysis.showcase import NOT_RECORDED, PAPERS, condensed_table, paper_key, write_showcase
from svmfs.config import campaign_datasets, campaign_methods, dataset_methods, load_config, method_settings
from svmfs.methods.registry import METHODS, get_method

ROOT = Path(__file__).resolve().parents[1]


def paper_of(registry_method):
    """The showcase's paper of a registry method, from the paper text its records carry."""
    return paper_key(get_method(registry_method).paper)


def _default():
    cfg = load_config(ROOT / "config" / "config.yaml", workdir=ROOT)
    methods = campaign_methods(cfg)
    registry = {m: c.get("method", m) for m, c in methods.items()}
    run_on = {d: set(dataset_methods(cfg, d)) for d in campaign_datasets(cfg)}
    return cfg, methods, registry, run_on


def test_the_papers_mapping_covers_the_published_papers_and_attributes_methods():
    published = yaml.safe_load((ROOT / "src" / "svmfs" / "analysis" / "published.yaml").read_text())["papers"]
    assert set(PAPERS) == set(published)
    assert paper_of("svm_rfe") == "mit9520" and paper_of("l1_svm") == "mit9520"  # Guyon et al., then MIT 9.520
    assert paper_of("fs_svmcp") == "rinaldi2010" and paper_of("dfsa_poly2") == "catala_martin"
    assert paper_of("kp_svm") == "maldonado2011" and paper_of("kp_fs_offshelf") == "maldonado2011"
    assert paper_of("mm_fs") == "jimenez2021" and paper_of("svm_linear") is None
    # every paper has methods in the registry
    assert {paper_of(m) for m in METHODS} - {None} == set(PAPERS)


def test_default_campaign_runs_a_method_of_every_paper_beside_the_baselines_and_no_download():
    cfg, methods, registry, run_on = _default()
    covered = {paper_of(r) for r in registry.values()} - {None}
    assert covered == set(PAPERS), f"papers without a method in the default campaign: {set(PAPERS) - covered}"
    assert {"svm_linear", "svm_rbf"} <= set(registry.values())
    kinds = {cfg["datasets"][d].get("source", d) for d in campaign_datasets(cfg)}
    reg = yaml.safe_load((ROOT / "config" / "datasets.yaml").read_text())["datasets"]
    assert all(reg[k]["kind"] in ("embedded", "synthetic") for k in kinds)  # no network
    assert all(reg[k].get("loader") != "sklearn_20newsgroups" for k in kinds)  # fetched from the network once


def test_every_figure_of_the_default_campaign_has_something_to_draw():
    cfg, methods, registry, run_on = _default()
    final = {m: methods[m].get("final", get_method(registry[m]).final) for m in methods}
    # width frontier: a method with anisotropic kernel widths, run somewhere
    assert any(final[m] == "anisotropic" for ms in run_on.values() for m in ms)
    # settings sweep: a method whose settings sweep one parameter; regularization paths: one sweeping C
    swept = {m: swept_parameter(list(method_settings(methods[m]))) for m in methods}
    assert any(s is not None for s in swept.values())
    assert any(s is not None and s[0] == "C" for s in swept.values())
    assert any(s is not None and s[0] == "C2" and final[m] == "anisotropic" for m, s in swept.items())  # Fig. 1
    # the C path runs on at least one dataset
    assert any(s is not None and s[0] == "C" and m in ms for m, s in swept.items() for ms in run_on.values())
    # CD diagram, Friedman and stability: at least two datasets on which at least two competitors all run
    everywhere = set.intersection(*run_on.values())
    assert len(run_on) >= 2 and sum(len(method_settings(methods[m])) for m in everywhere) >= 2
    # the methods of every paper are compared over all datasets (none left out of the CD diagram)
    assert {paper_of(registry[m]) for m in everywhere} - {None} == set(PAPERS)


def _summary():
    rows = []
    for ds, p in (("a", 10), ("b", 20)):
        for m, s, acc, k in (("svm_linear", "default", 90.0, p), ("mm_fs", "C2-0.1", 95.0, 3.0), ("l1_path", "C-1", 85.0, 4.0)):
            rows.append({"dataset": ds, "method": m, "setting": s, "folds": 5, "test_accuracy_mean": acc + (ds == "b"),
                         "test_accuracy_sd": 1.0, "n_selected_mean": float(k), "n_selected_sd": 0.5, "n_features_total": p})
    return pd.DataFrame(rows)


def test_condensed_table_has_one_row_per_competitor_with_its_paper_and_rank(tmp_path):
    summary = _summary()
    ranks = pd.DataFrame({"method": ["mm_fs (C2-0.1)", "svm_linear", "l1_path (C-1)"], "average_rank": [1.0, 2.0, 3.0]})
    papers = {m: get_method(r).paper for m, r in (("svm_linear", "svm_linear"), ("mm_fs", "mm_fs"), ("l1_path", "l1_svm"))}
    t = condensed_table(summary, papers, ranks)
    assert list(t["method (setting)"]) == ["mm_fs (C2-0.1)", "svm_linear", "l1_path (C-1)"]  # by rank
    assert list(t["paper"]) == ["jimenez2021", "baseline", "mit9520"]
    assert list(t.columns[-2:]) == ["a (p = 10)", "b (p = 20)"]
    assert t.iloc[0]["b (p = 20)"] == "96.0 (3.0)"
    marked = condensed_table(summary.assign(failures=[0, 2, 0, 0, 0, 0]), papers)
    assert marked.set_index("method (setting)").loc["mm_fs (C2-0.1)", "a (p = 10)"] == "95.0 (3.0) *"
    # files: a Markdown table and a small PNG, the same bytes twice
    res = tmp_path / "results"
    (res / "tables").mkdir(parents=True)
    summary.to_csv(res / "tables" / "summary.csv", index=False)
    md, png = write_showcase(res, tmp_path / "docs", papers)
    first = png.read_bytes()
    assert "| mm_fs (C2-0.1) " in md.read_text() and first[:4] == b"\x89PNG" and len(first) < 300_000
    write_showcase(res, tmp_path / "docs", papers)
    assert png.read_bytes() == first


def test_the_showcase_names_papers_from_the_records_alone(tmp_path):
    """The merged records carry each method's paper (``method_paper``, rule collect); records made before
    they did still give a table, its paper column saying so (the method registry is not consulted)."""
    res = tmp_path / "results"
    (res / "tables").mkdir(parents=True)
    _summary().to_csv(res / "tables" / "summary.csv", index=False)
    rows = [("svm_linear", "svm_linear"), ("mm_fs", "mm_fs"), ("l1_path", "l1_svm")]
    pd.DataFrame({"method": [m for m, _ in rows], "method_paper": [get_method(r).paper for _, r in rows]}).to_parquet(res / "records.parquet")
    text = write_showcase(res, tmp_path / "docs")[0].read_text()
    assert _paper_column(text) == {"mm_fs (C2-0.1)": "jimenez2021", "svm_linear": "baseline", "l1_path (C-1)": "mit9520"}
    assert "records do not name it" not in text
    pd.DataFrame({"method": [m for m, _ in rows]}).to_parquet(res / "records.parquet")  # records from before
    text = write_showcase(res, tmp_path / "docs")[0].read_text()
    assert set(_paper_column(text).values()) == {NOT_RECORDED} and "records do not name it" in text
    # a committed campaign's export, its records as exported before records carried the paper
    old = tmp_path / "rinaldi2010"
    shutil.copytree(ROOT / "reproduction" / "rinaldi2010", old)
    pd.read_parquet(old / "records.parquet").drop(columns="method_paper", errors="ignore").to_parquet(old / "records.parquet")
    md, png = write_showcase(old, tmp_path / "committed")
    assert _paper_column(md.read_text())["fs_svmcp"] == NOT_RECORDED and png.read_bytes()[:4] == b"\x89PNG"


def _paper_column(md: str) -> dict[str, str]:
    rows = [[c.strip() for c in ln.strip().strip("|").split("|")] for ln in md.splitlines() if ln.startswith("| ")]
    return {r[0]: r[1] for r in rows[1:]}


def test_splice_replaces_only_the_block_between_the_markers():
    from svmfs.analysis.showcase import END, START, splice

    text = f"intro\n{START}\nold\ntable\n{END}\nrest\n"
    assert splice(text, "| new |\n") == f"intro\n{START}\n| new |\n{END}\nrest\n"
    readme = (ROOT / "README.md").read_text()
    assert readme.count(START) == 1 and readme.count(END) == 1  # the README carries the block regenerate.sh fills


def test_method_styles_stay_distinct_past_eight_methods():
    from svmfs.analysis.figures import method_styles

    styles = method_styles([f"m{i}" for i in range(12)])  # the default campaign draws 10 methods
    assert len(set(styles.values())) == 12
