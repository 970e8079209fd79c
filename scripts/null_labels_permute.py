"""Rule null_labels_permute: a dataset with its labels permuted (svmfs.protocol.null_labels)."""

from svmfs.data.canonical import load_dataset, save_dataset
from svmfs.jobs import job_context
from svmfs.protocol.null_labels import permuted_labels

with job_context(snakemake.log[0]) as log:
    p = snakemake.params
    ds = load_dataset(snakemake.input.npz, snakemake.input.meta)
    ds.y = permuted_labels(ds.y, p.seed)
    ds.meta = {**ds.meta, "null_labels": {"permutation": int(snakemake.wildcards.perm), "seed": int(p.seed)}}
    log.info("labels permuted (seed %d): %d of %d rows keep their label", p.seed,
             int((load_dataset(snakemake.input.npz).y == ds.y).sum()), len(ds.y))  # fmt: skip
    save_dataset(ds, snakemake.output.npz, snakemake.output.meta)
