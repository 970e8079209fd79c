"""Rule optimism: audited minus nested accuracy per dataset, method and setting (table and figure)."""

from svmfs.analysis.optimism import read_audit_records, write_optimism
from svmfs.jobs import job_context

with job_context(snakemake.log[0]) as log:
    folds = read_audit_records(snakemake.input.records, snakemake.input.audits)
    log.info("%d fold accuracies (%s)", len(folds), ", ".join(sorted(folds["protocol"].unique())))
    write_optimism(folds, dict(snakemake.output.items()), snakemake.params.audits)
