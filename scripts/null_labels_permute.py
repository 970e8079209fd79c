"""Rule null_labels_permute: a dataset with its labels permuted (svmfs.protocol.null_labels)."""

import json
from pathlib import Path

from svmfs.data.canonical import load_dataset, save_dataset
from svmfs.jobs import job_context
from svmfs.protocol.null_labels import permuted_labels_for_folds

with job_context(snakemake.log[0]) as log:
    p = snakemake.params
    ds = load_dataset(snakemake.input.npz, snakemake.input.meta)
    folds = json.loads(Path(snakemake.input.splits).read_text())["folds"]
    real = ds.y.copy()
    ds.y, rejected = permuted_labels_for_folds(real, p.seed, folds, int(p.inner_splits), snakemake.wildcards.dataset)
    ds.meta = {**ds.meta, "null_labels": {"permutation": int(snakemake.wildcards.perm), "seed": int(p.seed)}}
    log.info("labels permuted (seed %d, %d draw(s) rejected for an outer training side too small for the inner "
             "folds): %d of %d rows keep their label", p.seed, rejected, int((real == ds.y).sum()), len(ds.y))  # fmt: skip
    save_dataset(ds, snakemake.output.npz, snakemake.output.meta)
