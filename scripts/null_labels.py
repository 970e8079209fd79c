"""Rule null_labels: every protocol's accuracy on permuted labels beside chance and the real labels'."""

from svmfs.analysis.null_labels import chance_rates, null_labels_table, read_null_records, write_null_labels
from svmfs.analysis.optimism import read_audit_records
from svmfs.jobs import job_context

with job_context(snakemake.log[0]) as log:
    i, p = snakemake.input, snakemake.params
    null = read_null_records(i.null_records, i.null_audits)
    real = read_audit_records(i.records, i.audits)
    table = null_labels_table(null, real, chance_rates(i.meta))
    log.info("%d rows over %d permutation(s)", len(table), len(p.permutations))
    write_null_labels(table, dict(snakemake.output.items()), len(p.permutations), p.seed)
