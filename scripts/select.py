"""Rule select: one (dataset, method, setting, fold) job, steps 1-6 of the select job.

The job runs in a process forked from a warm worker (svmfs.worker: scikit-learn & co. already imported)
and, where none can be used, here; heavy imports therefore come after ``delegate``.
"""

from pathlib import Path

from svmfs.worker import delegate

delegate(snakemake, __file__, modules=[snakemake.params.method_module])

import json  # noqa: E402

from svmfs.data.canonical import load_dataset  # noqa: E402
from svmfs.jobs import job_context  # noqa: E402
from svmfs.protocol.select_job import run_select_job  # noqa: E402
from svmfs.results.record import config_hash, provenance, write_record  # noqa: E402

with job_context(snakemake.log[0], snakemake.threads) as log:
    w, p = snakemake.wildcards, snakemake.params
    prov = provenance(workdir=p.workdir)  # before the fit: the code the job starts with
    ds = load_dataset(snakemake.input.npz, snakemake.input.meta)
    fold = json.loads(Path(snakemake.input.splits).read_text())["folds"][int(w.fold)]
    fixed_size = None
    if snakemake.input.get("match"):
        fixed_size = json.loads(Path(snakemake.input.match).read_text())["n_selected"]
        log.info("match_size_of: %d features, as chosen by the other method on this fold", fixed_size)
    rec = run_select_job(
        ds.X, ds.y, fold, w.method, p.method_cfg, p.campaign, p.seed,
        setting=p.setting, relevant=ds.relevant, fixed_size=fixed_size,
    )  # fmt: skip
    rec["selected_names"] = [ds.feature_names[j] for j in rec["selected"]]
    rec.update(
        campaign=p.campaign_name, dataset=w.dataset, dataset_group=p.group, setting=w.setting, config_hash=config_hash(p.job_config),
        git_sha=prov["git_sha"], code_hash=p.code, host=prov["host"], versions=prov["versions"],
    )  # fmt: skip
    log.info(
        "status %s, %d of %d features, test accuracy %.4f, params %s",
        rec["status"], rec["n_selected"], rec["n_features_total"], rec["test_accuracy"], rec["selector_params"],
    )  # fmt: skip
    write_record(rec, snakemake.output.json, snakemake.output.parquet)
