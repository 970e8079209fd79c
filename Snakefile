# svmfs: campaigns comparing feature-selection methods for SVMs.
# Configuration: config/config.yaml (schema: workflow/schemas/config.schema.yaml).


from snakemake.utils import min_version, validate

from svmfs.config import apply_deletions, loaded_config_files

min_version("9.0")


configfile: "config/config.yaml"


# a key a later --configfile sets to null (~) is deleted (config/README.md, "Overlays")
apply_deletions(config, loaded_config_files(workflow))
validate(config, "workflow/schemas/config.schema.yaml")


include: "workflow/rules/common.smk"
include: "workflow/rules/data.smk"
include: "workflow/rules/splits.smk"
include: "workflow/rules/select.smk"
include: "workflow/rules/aggregate.smk"
include: "workflow/rules/audit.smk"
include: "workflow/rules/null_labels.smk"


# On a cluster these run on the submitting host: downloads need the network compute nodes may lack,
# and the aggregation steps take seconds.
localrules:
    all,
    download,
    collect,
    tables,
    figures,
    reproduction,
    statistics,
    correlation,
    optimism,
    null_labels,
    null_labels_permute,


rule all:
    default_target: True
    input:
        all_outputs(),
        null_labels_outputs(),
