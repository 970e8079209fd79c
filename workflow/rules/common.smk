import json
import re
from pathlib import Path

from svmfs.config import (
    campaign_datasets,
    campaign_methods,
    check_campaign,
    check_config_files,
    loaded_config_files,
    dataset_lock_path,
    dataset_methods,
    dataset_splits,
    global_selection_methods,
    job_campaign_config,
    job_config as job_config_of,
    job_method_config,
    load_dataset_registry,
    method_resources as method_resources_of,
    method_settings,
    mirror_url,
    n_folds,
    runtime_warnings,
    fit_count_warnings,
    campaign_budget_warnings,
    GLOBAL_SCALING_PART,
    is_audit_part,
    part_names,
    RESULT_FREE_KEYS,
    split_inner_folds,
)
from svmfs.methods.registry import method_module as method_module_name, method_spec
from svmfs.methods.external import class_source_hash, is_external
from svmfs.reproduce.fingerprint import code_fingerprint
from svmfs.protocol.seeds import (
    audit_global_seed,
    data_seed,
    initial_solution_seed,
    job_seed,
    splits_seed,
)

# Snakemake's loader keeps the later of two equal keys and turns labels such as yes/no into booleans:
# re-read the config files it was given strictly, and take the registry entries' labels from that read
check_config_files(loaded_config_files(workflow), config)
check_campaign(config, workdir=workflow.basedir)
for warning in (
    runtime_warnings(config)
    + fit_count_warnings(config)
    + campaign_budget_warnings(config, workflow.basedir)
):
    logger.warning(f"config: {warning}")

REGISTRY = load_dataset_registry(config, workflow.basedir)
OUT = f"{config['results_dir']}/{config['campaign']}"
RAW = config["raw_dir"]
DSCFG = campaign_datasets(config)
DATASETS = sorted(DSCFG)
MCFG = campaign_methods(config)
METHODS = sorted(MCFG)
SETTINGS = {m: method_settings(MCFG[m]) for m in METHODS}
SPLITS = {d: dataset_splits(config, d) for d in DATASETS}
# one correlation figure per dataset, but per group of replicates (fresh draws of one generator, the same
# correlation structure) only its first: a campaign of 360 replicate polynomials makes 18 figures, not 360
CORRELATION_DATASETS = sorted(
    {DSCFG[d]["group"]: d for d in reversed(DATASETS)}.values()
)


def campaign_cfg(wildcards):
    """The campaign-wide settings a select job sees: its dataset's splits, its own final classifier's grid."""
    return job_campaign_config(config, wildcards.dataset, wildcards.method)


def _source(dataset):
    return DSCFG[dataset]["source"]


DOWNLOADS = sorted(
    {_source(d) for d in DATASETS if REGISTRY[_source(d)]["kind"] == "download"}
)


def _alternatives(names):
    return "|".join(re.escape(n) for n in names) or "(?!)"


wildcard_constraints:
    dataset=_alternatives(DATASETS),
    method=_alternatives(METHODS),
    setting=_alternatives(sorted({s for m in METHODS for s in SETTINGS[m]})),
    fold=r"\d+",
    part=r"(inner-\d+|audit)(-grid-\d+)?|global-scaling",
    source=_alternatives(DOWNLOADS),


def method_papers():
    """The paper each method of the campaign comes from (its registry entry's), for the merged records."""
    return {m: method_spec(m, MCFG[m]).paper for m in METHODS}


def select_outputs():
    return [
        f"{OUT}/runs/{d}/{m}/{s}/fold-{k}.json"
        for d in DATASETS
        for m in dataset_methods(config, d)
        for s in SETTINGS[m]
        for k in range(n_folds(SPLITS[d]))
    ]


def audit_global_outputs():
    """One global_selection audit per (dataset, method, setting) when that audit is on."""
    return [
        f"{OUT}/audits/global_selection/{d}/{m}/{s}.json"
        for d in DATASETS
        for m in global_selection_methods(config, d)
        for s in SETTINGS[m]
    ]


def all_outputs():
    repro = [f"{OUT}/report/reproduction.md"] if config["reproduces"] else []
    if config["audits"]:
        repro += [f"{OUT}/tables/optimism.csv", f"{OUT}/figures/optimism.png"]
    return repro + [
        f"{OUT}/tables/summary.csv",
        f"{OUT}/tables/summary.md",
        f"{OUT}/tables/summary.tex",
        f"{OUT}/figures/accuracy_vs_features.png",
        f"{OUT}/figures/runtime.png",
        f"{OUT}/tables/friedman.csv",
        f"{OUT}/figures/cd_diagram.png",
        f"{OUT}/figures/stability.png",
        *[f"{OUT}/figures/correlation/{d}.png" for d in CORRELATION_DATASETS],
    ]


def prepare_input(wildcards):
    """A download's manifest, or a local entry's own files (read in place; editing one reruns prepare)."""
    src = _source(wildcards.dataset)
    if REGISTRY[src]["kind"] == "download":
        return [f"{RAW}/{src}/MANIFEST.json"]
    if REGISTRY[src]["kind"] == "local":
        return [f["path"] for f in REGISTRY[src]["files"]]
    return []


def prepare_raw_dir(wildcards):
    """The download folder, for a download entry (the other kinds read no downloaded file)."""
    return RAW if REGISTRY[_source(wildcards.dataset)]["kind"] == "download" else None


#: this workflow's own folder (not the user's, when svmfs is used as a Snakemake module)
SVMFS_ROOT = Path(str(workflow.current_basedir)).parents[1]


def library_file(path):
    """A file of the svmfs package: editing it reruns the jobs that take it as input."""
    return str(SVMFS_ROOT / "src" / "svmfs" / path)


def method_module(method):
    """The method's module (its dotted name), which its jobs import by name (through the registry):
    svmfs.methods.external for a class by import path, whose own source the job's method config
    fingerprints (class_source)."""
    return f"svmfs.methods.{method_module_name(method, MCFG[method])}"


def job_code(script, with_method=True):
    """A result rule's ``params: code``: the fingerprint of the code its job runs (the rule's script, every
    svmfs module it imports, transitively, and the job's method module; svmfs.reproduce.fingerprint), so
    that Snakemake's params trigger reruns a job when any of that code changes, and only then (a docstring
    or comment edit changes nothing)."""
    script, src = SVMFS_ROOT / "scripts" / script, SVMFS_ROOT / "src"
    if not with_method:
        return code_fingerprint(script, src=src)
    return lambda wc: code_fingerprint(script, [method_module(wc.method)], src=src)


def select_input(wildcards):
    inputs = {
        "npz": f"{OUT}/datasets/{wildcards.dataset}.npz",
        "meta": f"{OUT}/datasets/{wildcards.dataset}.json",
        "splits": f"{OUT}/splits/{wildcards.dataset}.json",
    }
    other = MCFG[wildcards.method].get("match_size_of")
    if other:
        inputs["match"] = (
            f"{OUT}/runs/{wildcards.dataset}/{other}/default/fold-{wildcards.fold}.json"
        )
    initial = initial_solution_input(wildcards)
    if initial:
        inputs["initial"] = initial
    if part_names(config, wildcards.method, wildcards.dataset):
        inputs["parts"] = select_parts(wildcards)
    return inputs


def select_parts(wildcards):
    """The parts of a select job run apart: one scores file per inner fold (``split_inner_folds``), or per inner
    fold and block of the grid (``split_grid``); the audits' parts (``split_audit``, ``split_global_scaling``).
    """
    base = f"{OUT}/parts/{wildcards.dataset}/{wildcards.method}/{wildcards.setting}/fold-{wildcards.fold}"
    return [
        f"{base}/{part}.json"
        for part in part_names(config, wildcards.method, wildcards.dataset)
    ]


def select_part_input(wildcards):
    """A part reads what its select job reads, but the parts."""
    inputs = select_input(wildcards)
    inputs.pop("parts", None)
    return inputs


def initial_solution_input(wildcards):
    """The fold's shared initial solution (rule initial_solution) for a method with
    ``initial_solution: shared``, else None."""
    if MCFG[wildcards.method].get("initial_solution") != "shared":
        return None
    return f"{OUT}/initial_solution/{wildcards.dataset}/fold-{wildcards.fold}.json"


def select_campaign_cfg(wildcards):
    """campaign_cfg, plus the path of the shared initial solution the job reads (an input of the job), for
    a method with ``initial_solution: shared`` only: the other jobs' params stay those of before.
    """
    cfg = campaign_cfg(wildcards)
    initial = initial_solution_input(wildcards)
    return {**cfg, "initial_solution": initial} if initial else cfg


def method_cfg(wildcards):
    """The method's config on this dataset (the dataset's ``method_params`` applied), without the keys no
    job's result depends on (``settings``, ``resources``): a value added to the settings leaves the other
    jobs' params as they were, so they do not rerun."""
    cfg = job_method_config(config, wildcards.dataset, wildcards.method)
    cfg = {k: v for k, v in cfg.items() if k not in RESULT_FREE_KEYS}
    if is_external(
        cfg
    ):  # a class by import path: editing its module's source reruns its jobs
        cfg["class_source"] = class_source_hash(cfg["class"])
    return cfg


def select_method_cfg(wildcards):
    """:func:`method_cfg`, and for a job whose inner folds run apart the parts' files (``inner_scores_from``; the
    ``test_tuned`` audit's parts, ``split_audit``: ``audit_from``):
    the select rule's script stays as it was, so committed records stay restorable."""
    cfg = method_cfg(wildcards)
    parts = select_parts(wildcards)
    if split_inner_folds(config, wildcards.method, wildcards.dataset):
        audit = [p for p in parts if is_audit_part(Path(p).stem)]
        cfg = {**cfg, "inner_scores_from": [p for p in parts if p not in audit]}
        audit = [p for p in audit if Path(p).stem != GLOBAL_SCALING_PART]
        if audit:  # split_audit: the test_tuned audit's candidates
            cfg["audit_from"] = audit
    for p in parts:  # split_global_scaling: the global_scaling audit's refit
        if Path(p).stem == GLOBAL_SCALING_PART:
            cfg = {**cfg, "global_scaling_from": p}
    return cfg


def job_config(wildcards):
    """Everything a select job's result depends on (hashed into the record)."""
    return job_config_of(config, wildcards.dataset, wildcards.method, wildcards.setting)


def method_resources(method, key):
    return method_resources_of(config, method, key)
