"""Rule split: the outer folds of one dataset, shared by every method."""

from svmfs.data.canonical import load_dataset
from svmfs.jobs import job_context
from svmfs.protocol.splits import make_splits
from svmfs.results.io import atomic_write_json

with job_context(snakemake.log[0]) as log:
    ds = load_dataset(snakemake.input.npz)
    folds = make_splits(ds.y, snakemake.params.spec, snakemake.params.seed, dataset=snakemake.wildcards.dataset)
    log.info("%d outer folds (%s)", len(folds), snakemake.params.spec["kind"])
    atomic_write_json(snakemake.output[0], {"dataset": snakemake.wildcards.dataset, "spec": snakemake.params.spec, "folds": folds})
