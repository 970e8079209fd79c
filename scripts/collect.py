"""Rule collect: merge every record of the campaign into one parquet (all) and one CSV (stable columns)."""

from svmfs.jobs import job_context
from svmfs.results.record import read_records, write_store

with job_context(snakemake.log[0]) as log:
    df = read_records(snakemake.input.records, snakemake.params.method_papers)
    log.info("%d records, %d not ok", len(df), int((~df["status"].isin(["ok", "acceptable"])).sum()))
    write_store(df, snakemake.output.parquet, snakemake.output.csv)
