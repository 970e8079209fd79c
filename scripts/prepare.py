"""Rule prepare: build the canonical dataset (npz + json) from its registry entry.

Runs in the warm worker (svmfs.worker) where one can be used: a campaign of many small datasets (one per
replicate) spends most of this rule's time importing, not preparing.
"""

from svmfs.worker import delegate

delegate(snakemake, __file__)

from svmfs.data.registry import prepare_dataset  # noqa: E402
from svmfs.jobs import job_context  # noqa: E402

with job_context(snakemake.log[0]) as log:
    p = snakemake.params
    prepare_dataset(
        p.name, p.entry, snakemake.output.npz, snakemake.output.meta, params=p.params, seed=p.seed,
        raw_dir=p.raw_dir, options=p.options, checks=p.checks, log=log,
    )
