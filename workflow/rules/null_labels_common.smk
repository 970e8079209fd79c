# The null-label audit's paths and params (rules in null_labels.smk).

from svmfs.config import LAYOUT_KEYS
from svmfs.protocol.null_labels import (
    null_labels_block,
    permutation_seed,
    permutations as null_permutations,
)

NULL = f"{OUT}/null_labels/perm-{{perm}}"
NULL_LOGS = f"{OUT}/logs/null_labels/perm-{{perm}}"
NULL_BENCH = f"{OUT}/benchmarks/null_labels/perm-{{perm}}"
NULL_PERMS = null_permutations(config)
NULL_SEED = null_labels_block(config)["seed"]


def null_path(path, perm):
    """A real job's file ``{OUT}/<rest>`` as the permutation's ``{OUT}/null_labels/perm-<p>/<rest>``."""
    return f"{OUT}/null_labels/perm-{perm}/{path[len(OUT) + 1:]}"


def null_select_input(wildcards):
    """The select job's inputs on the permuted dataset (the real splits file; no parts: the job runs whole)."""
    inputs = select_input(wildcards)
    inputs.pop("parts", None)
    for key in ("npz", "meta", "match", "initial"):
        if key in inputs:
            inputs[key] = null_path(inputs[key], wildcards.perm)
    return inputs


def null_method_cfg(wildcards):
    """The method's config as the real select job's (:func:`method_cfg`), without the execution layout."""
    return {k: v for k, v in method_cfg(wildcards).items() if k not in LAYOUT_KEYS}


def null_campaign_cfg(wildcards):
    """:func:`campaign_cfg` with the permutation's shared initial solution, where the method reads one."""
    cfg = campaign_cfg(wildcards)
    initial = initial_solution_input(wildcards)
    return (
        {**cfg, "initial_solution": null_path(initial, wildcards.perm)}
        if initial
        else cfg
    )


def null_job_config(wildcards):
    """The real job's config (:func:`job_config`) and the permutation: the record's ``config_hash``."""
    return {
        **job_config(wildcards),
        "null_labels": {"seed": NULL_SEED, "permutation": int(wildcards.perm)},
    }


def null_select_outputs():
    return [null_path(p, k) for k in NULL_PERMS for p in select_outputs()]


def null_audit_outputs():
    return [null_path(p, k) for k in NULL_PERMS for p in audit_global_outputs()]


def null_labels_outputs():
    """The audit's table and figure, when it is on."""
    if not NULL_PERMS:
        return []
    return [f"{OUT}/tables/null_labels.csv", f"{OUT}/figures/null_labels.png"]
