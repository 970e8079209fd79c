"""Rule prepare: build the canonical dataset (npz + json) from its registry entry."""

from svmfs.data.registry import prepare_dataset
from svmfs.jobs import job_context

with job_context(snakemake.log[0]) as log:
    p = snakemake.params
    prepare_dataset(
        p.name, p.entry, snakemake.output.npz, snakemake.output.meta, params=p.params, seed=p.seed,
        raw_dir=p.raw_dir, options=p.options, checks=p.checks, log=log,
    )
