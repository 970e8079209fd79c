"""Rule correlation: a dataset's feature correlations next to each method's selection frequency."""

import pandas as pd

from svmfs.analysis.correlation import correlation_figure, selection_frequency
from svmfs.analysis.figures import save_figure
from svmfs.data.canonical import load_dataset
from svmfs.jobs import job_context

with job_context(snakemake.log[0]):
    ds = load_dataset(snakemake.input.npz)
    records = pd.read_parquet(snakemake.input.parquet, columns=["dataset", "method", "setting", "selected"])
    freq = selection_frequency(records, snakemake.wildcards.dataset, ds.X.shape[1])
    fig = correlation_figure(ds.X, freq, f"{snakemake.wildcards.dataset}: feature correlations and selections", snakemake.params.max_features)
    save_figure(fig, snakemake.output.png, snakemake.output.pdf)
