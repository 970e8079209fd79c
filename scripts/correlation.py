"""Rule correlation: a dataset's feature correlations next to each method's selection frequency (in the
warm worker, as prepare)."""

from svmfs.worker import delegate

delegate(snakemake, __file__, modules=["svmfs.analysis.figures", "svmfs.analysis.correlation"])

import pandas as pd  # noqa: E402

from svmfs.analysis.correlation import correlation_figure, selection_frequency  # noqa: E402
from svmfs.analysis.figures import save_figure  # noqa: E402
from svmfs.data.canonical import load_dataset  # noqa: E402
from svmfs.jobs import job_context  # noqa: E402

with job_context(snakemake.log[0]):
    ds = load_dataset(snakemake.input.npz)
    records = pd.read_parquet(snakemake.input.parquet, columns=["dataset", "method", "setting", "selected"])
    freq = selection_frequency(records, snakemake.wildcards.dataset, ds.X.shape[1])
    fig = correlation_figure(ds.X, freq, f"{snakemake.wildcards.dataset}: feature correlations and selections", snakemake.params.max_features)
    save_figure(fig, snakemake.output.png, snakemake.output.pdf)
