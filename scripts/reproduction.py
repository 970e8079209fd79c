"""Rule reproduction: published figures next to ours (CSV, Markdown and LaTeX tables, and the Markdown reproduction report)."""

from svmfs.analysis.reproduction import judge_campaign
from svmfs.jobs import job_context

with job_context(snakemake.log[0]):
    p, o = snakemake.params, snakemake.output
    optimism = snakemake.input.get("optimism") or None  # present only with audits
    judge_campaign(snakemake.input.parquet, p.papers, p.campaign, o.csv, o.md, o.report, o.tex, optimism_csv=optimism,
                   protocol=p.protocol)
