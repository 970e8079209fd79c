"""Rule audit_global: the global_selection audit of one (dataset, method, setting) (svmfs.protocol.audits)."""

import json
from pathlib import Path

from svmfs.data.canonical import load_dataset
from svmfs.jobs import job_context
from svmfs.protocol.audits import run_global_selection
from svmfs.results.io import atomic_write_json
from svmfs.results.record import provenance

with job_context(snakemake.log[0], snakemake.threads) as log:
    w, p = snakemake.wildcards, snakemake.params
    prov = provenance(workdir=p.workdir)
    ds = load_dataset(snakemake.input.npz, snakemake.input.meta)
    folds = json.loads(Path(snakemake.input.splits).read_text())["folds"]
    rec = run_global_selection(ds.X, ds.y, folds, w.method, p.method_cfg, p.campaign, p.seed, p.fold_seed, setting=p.setting)
    rec.update(campaign=p.campaign_name, dataset=w.dataset, setting=w.setting, git_sha=prov["git_sha"], versions=prov["versions"])
    log.info(
        "global selection: %d of %d features, status %s, outer-fold accuracies %s",
        rec["n_selected"], rec["n_features_total"], rec["status"], [round(f["accuracy"], 4) for f in rec["folds"]],
    )  # fmt: skip
    atomic_write_json(snakemake.output[0], rec)
