"""Rule statistics: Friedman / Nemenyi / Wilcoxon-Holm over the datasets, CD diagram, stability figure."""

import pandas as pd

from svmfs.analysis.comparison import write_comparison
from svmfs.jobs import job_context

with job_context(snakemake.log[0]):
    summary = pd.read_csv(snakemake.input.summary)
    stability = pd.read_csv(snakemake.input.stability)
    write_comparison(summary, stability, dict(snakemake.output.items()), snakemake.params.metric, snakemake.params.alpha)
