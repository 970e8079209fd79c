"""Rule tables: dataset x method summary (CSV, Markdown, LaTeX) and the timing table."""

import pandas as pd

from svmfs.analysis.stability import write_stability
from svmfs.analysis.tables import write_summary
from svmfs.jobs import job_context

with job_context(snakemake.log[0]):
    o = snakemake.output
    records = pd.read_parquet(snakemake.input.parquet)
    write_summary(records, o.csv, o.md, o.tex, o.timing, stand_in=snakemake.params.stand_in)
    write_stability(records, o.stability)
