"""Rule prepare: build the canonical dataset (npz + json) from its registry entry."""

from svmfs.data.canonical import check_dataset, save_dataset
from svmfs.data.registry import build_dataset
from svmfs.jobs import job_context

with job_context(snakemake.log[0]) as log:
    p = snakemake.params
    ds = build_dataset(p.name, p.entry, p.params, p.seed, raw_dir=p.raw_dir, options=p.options)
    ds = check_dataset(ds, **p.checks)
    for w in ds.meta.get("warnings", []):
        log.warning("dataset %s: %s", p.name, w)
    for step in ds.meta.get("preprocessing", []):
        log.info("dataset %s: %s", p.name, step)
    log.info("dataset %s: %d x %d, classes %s", p.name, *ds.X.shape, ds.class_counts)
    save_dataset(ds, snakemake.output.npz, snakemake.output.meta)
