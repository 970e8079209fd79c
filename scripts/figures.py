"""Rule figures: accuracy vs number of selected features (all methods; the C paths and their table; the front with its knee), accuracy vs ||gamma||_1, and run times."""

import pandas as pd

from svmfs.analysis.figures import save_figure, write_figures
from svmfs.analysis.front import front_figure, front_table
from svmfs.analysis.paths import write_path_table
from svmfs.jobs import job_context

with job_context(snakemake.log[0]):
    o = snakemake.output
    summary = pd.read_csv(snakemake.input.summary)
    timing = pd.read_csv(snakemake.input.timing)
    write_figures(summary, timing, dict(o.items()))
    write_path_table(summary, o.paths_csv, o.paths_md)
    save_figure(front_figure(summary), o.front_png, o.front_pdf)
    front_table(summary).to_csv(o.front_csv, index=False, float_format="%.10g")
