"""Rule split: the outer folds of one dataset, shared by every method (in the warm worker, as prepare)."""

from svmfs.worker import delegate

delegate(snakemake, __file__)

from svmfs.data.canonical import load_dataset  # noqa: E402
from svmfs.jobs import job_context  # noqa: E402
from svmfs.protocol.splits import make_splits  # noqa: E402
from svmfs.results.io import atomic_write_json  # noqa: E402

with job_context(snakemake.log[0]) as log:
    ds = load_dataset(snakemake.input.npz)
    folds = make_splits(ds.y, snakemake.params.spec, snakemake.params.seed, dataset=snakemake.wildcards.dataset)
    log.info("%d outer folds (%s)", len(folds), snakemake.params.spec["kind"])
    atomic_write_json(snakemake.output[0], {"dataset": snakemake.wildcards.dataset, "spec": snakemake.params.spec, "folds": folds})
