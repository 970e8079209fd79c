"""The fit count of a select job, warned about before any job above ``limits.max_fits_per_job``: the count
equals the fits a real select job makes, and the warning starts one fit above the bound."""

import pytest

import svmfs.protocol.select_job as select_job
import svmfs.protocol.tuning as tuning
from conftest import merge_config
from svmfs.config import fit_count_warnings, job_campaign_config, job_grid, load_config
from svmfs.data.synthetic import mit_example1
from svmfs.methods.registry import get_method
from svmfs.protocol.classifiers import final_grid
from svmfs.protocol.tuning import classifier_fits, selector_fits

BIG = {  # the issue's grid: 55 C values x 30 sizes, 10 final C values, 5 inner folds
    "campaign": "big",
    "datasets": {"mit_example1": {"params": {"n": 40, "p": 40, "k0": 3, "rho": 0.2}}},
    "splits": {"kind": "stratified_kfold", "n_splits": 3},
    "final_classifier": {"linear": {"C": [float(2**i) for i in range(10)]}},
    "methods": {"svm_rfe": {"grid": {"C": [float(1.1**i) for i in range(55)], "n_features_to_select": list(range(1, 31))}}},
}
BIG_FITS = (55 * 5 + 1) + (5 * 55 * 30 * 10 + 5 * 10 + 2)


def test_the_issues_grid_is_warned_about_by_default_and_the_bound_is_inclusive(write_config, root):
    cfg = load_config(write_config(BIG), workdir=root)
    assert cfg["limits"]["max_fits_per_job"] == 50000
    (warning,) = fit_count_warnings(cfg)
    assert warning.startswith(f"methods.svm_rfe: a select job fits {BIG_FITS} models (276 selector fits; ")
    assert "5 inner folds x 55 selector grid points x 30 sizes x 10 final_classifier.linear points" in warning
    assert "limits.max_fits_per_job = 50000" in warning
    at = load_config(write_config(merge_config(BIG, {"limits": {"max_fits_per_job": BIG_FITS}})), workdir=root)
    assert fit_count_warnings(at) == []
    below = load_config(write_config(merge_config(BIG, {"limits": {"max_fits_per_job": BIG_FITS - 1}})), workdir=root)
    assert len(fit_count_warnings(below)) == 1


def test_default_and_campaign_configs_stay_below_the_default_bound(root):
    for path in [root / "config" / "config.yaml", *sorted((root / "config" / "campaigns").glob("*.yaml"))]:
        assert fit_count_warnings(load_config(path, workdir=root)) == [], path.name


@pytest.mark.parametrize("method, grid, final", [
    ("svm_rfe", {"C": [0.1, 1.0], "n_features_to_select": [1, 2, 4]}, None),
    ("l1_svm", {"C": [0.1, 1.0, 10.0]}, "own"),
    ("fisher", {"n_features_to_select": [1, 3, 5]}, None),
    ("svm_linear", {}, None),
])  # fmt: skip
def test_the_count_equals_the_fits_a_select_job_makes(monkeypatch, write_config, root, method, grid, final):
    """The count is of the fits the job asks for; with the job's FitMemo off (every repeated fit redone) it
    makes them all (tests/test_fit_memo.py: with it on, fewer, same record)."""
    from svmfs.protocol.fit_memo import FitMemo

    monkeypatch.setattr(FitMemo, "enabled", False)
    mcfg = {"grid": grid, **({"final": final} if final else {})}
    cfg = load_config(write_config({**BIG, "methods": {method: mcfg}, "inner_cv": {"n_splits": 3},
                                    "final_classifier": {"linear": {"C": [0.1, 1.0]}}}), workdir=root)  # fmt: skip
    spec = get_method(method)
    selector_calls, classifier_calls = [], []
    fit = spec.load().fit
    monkeypatch.setattr(spec.load(), "fit", lambda self, X, y: selector_calls.append(1) or fit(self, X, y))
    for module in (tuning, select_job):
        real = module.fit_predict
        monkeypatch.setattr(module, "fit_predict", lambda *a, _real=real, **k: classifier_calls.append(1) or _real(*a, **k))
    X, y, _ = mit_example1(n=40, p=12, k0=3, rho=0.2, seed=0)
    fold = {"fold": 0, "train": list(range(0, 40, 2)) + [1, 3, 5, 7], "test": list(range(9, 40, 2))}
    select_job.run_select_job(X, y, fold, method, cfg["methods"][method], job_campaign_config(cfg, "mit_example1", method), 1)
    k, kind = 3, final or spec.final
    n_final = len(final_grid(kind, cfg["final_classifier"]))
    assert job_grid(cfg, method) == (grid or spec.default_grid)
    assert len(selector_calls) == selector_fits(job_grid(cfg, method), spec.truncation, k)
    assert len(classifier_calls) == classifier_fits(job_grid(cfg, method), spec.truncation, k, n_final, own=kind == "own")


def test_the_job_log_times_the_final_classifier_apart_from_the_selector(monkeypatch, write_config, root, caplog):
    """The select job logs the final classifier's inner-CV tuning, refit and test scoring (what the records'
    fit and tune times leave out; ``python -m benchmarks run job_overhead`` reads it). On a clock that only the selector's
    fit (10 s) and the final classifier's refit and test scoring (1 s each) move, the line says 2 s exactly."""
    import logging
    from types import SimpleNamespace

    clock = SimpleNamespace(t=0.0)
    monkeypatch.setattr(select_job, "time", SimpleNamespace(perf_counter=lambda: clock.t, process_time=lambda: clock.t))
    cfg = load_config(write_config({**BIG, "methods": {"svm_linear": {}}, "inner_cv": {"n_splits": 3},
                                    "final_classifier": {"linear": {"C": [0.1, 1.0]}}}), workdir=root)  # fmt: skip
    spec = get_method("svm_linear")
    fit, real = spec.load().fit, select_job.fit_predict

    def tick(seconds, f):
        def run(*a, **k):
            clock.t += seconds
            return f(*a, **k)

        return run

    monkeypatch.setattr(spec.load(), "fit", tick(10.0, fit))
    monkeypatch.setattr(select_job, "fit_predict", tick(1.0, real))  # the refit's training side and the test side
    X, y, _ = mit_example1(n=40, p=12, k0=3, rho=0.2, seed=0)
    fold = {"fold": 0, "train": list(range(0, 40, 2)) + [1, 3, 5, 7], "test": list(range(9, 40, 2))}
    with caplog.at_level(logging.INFO, logger="svmfs.select"):
        select_job.run_select_job(X, y, fold, "svm_linear", cfg["methods"]["svm_linear"],
                                  job_campaign_config(cfg, "mit_example1", "svm_linear"), 1)  # fmt: skip
    (line,) = [r.getMessage() for r in caplog.records if r.getMessage().startswith("final classifier:")]
    assert line.endswith(" 2.000 s")
    # the same stages in CPU seconds (here the same clock), the line an export's select_jobs.csv reads
    (cpu,) = [r.getMessage() for r in caplog.records if r.getMessage().startswith("cpu by stage:")]
    assert ", fit 10.000 s, final classifier 2.000 s, audits 0.000 s" in cpu
