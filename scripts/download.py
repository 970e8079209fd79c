"""Rule download: fetch one dataset's source files (mirror, sha256 check, lock pinning)."""

from svmfs.data.download import fetch_dataset
from svmfs.jobs import job_context

with job_context(snakemake.log[0]) as log:
    fetch_dataset(
        snakemake.wildcards.source,
        snakemake.params.entry,
        snakemake.params.raw_dir,
        mirror=snakemake.params.mirror,
        lock_path=snakemake.params.lock,
        log=log,
    )
