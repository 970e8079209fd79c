"""Rule tables: dataset x method summary (CSV, Markdown, LaTeX) and the timing table."""

import pandas as pd

from svmfs.analysis.tables import write_summary
from svmfs.jobs import job_context

with job_context(snakemake.log[0]):
    o = snakemake.output
    write_summary(pd.read_parquet(snakemake.input.parquet), o.csv, o.md, o.tex, o.timing)
