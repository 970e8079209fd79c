"""Rule reproduction: published figures next to ours (CSV, Markdown and LaTeX tables, and the Markdown reproduction report)."""

import pandas as pd

from svmfs.analysis.reproduction import reproduction_table, write_reproduction
from svmfs.jobs import job_context

with job_context(snakemake.log[0]):
    p, o = snakemake.params, snakemake.output
    table = reproduction_table(pd.read_parquet(snakemake.input.parquet), list(p.papers))
    write_reproduction(table, p.campaign, o.csv, o.md, o.report, o.tex)
