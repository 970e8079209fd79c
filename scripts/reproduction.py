"""Rule reproduction: published figures next to ours (CSV, Markdown and LaTeX tables, and the Markdown reproduction report)."""

import pandas as pd

from svmfs.analysis.reproduction import read_optimism, reproduction_table, write_reproduction
from svmfs.jobs import job_context

with job_context(snakemake.log[0]):
    p, o = snakemake.params, snakemake.output
    optimism = read_optimism(snakemake.input.get("optimism") or None)  # present only with audits
    table = reproduction_table(pd.read_parquet(snakemake.input.parquet), list(p.papers), optimism=optimism)
    write_reproduction(table, p.campaign, o.csv, o.md, o.report, o.tex)
