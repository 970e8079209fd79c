"""Rule figures: accuracy vs number of selected features (all methods; the C paths and their table), accuracy vs ||gamma||_1, and run times."""

import pandas as pd

from svmfs.analysis.figures import write_figures
from svmfs.analysis.paths import write_path_table
from svmfs.jobs import job_context

with job_context(snakemake.log[0]):
    o = snakemake.output
    summary = pd.read_csv(snakemake.input.summary)
    timing = pd.read_csv(snakemake.input.timing)
    write_figures(summary, timing, dict(o.items()))
    write_path_table(summary, o.paths_csv, o.paths_md)
