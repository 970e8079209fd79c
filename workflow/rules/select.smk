rule select:
    input:
        unpack(select_input),
    output:
        json=f"{OUT}/runs/{{dataset}}/{{method}}/{{setting}}/fold-{{fold}}.json",
        parquet=f"{OUT}/runs/{{dataset}}/{{method}}/{{setting}}/fold-{{fold}}.parquet",
    log:
        f"{OUT}/logs/select/{{dataset}}/{{method}}/{{setting}}/fold-{{fold}}.log",
    benchmark:
        f"{OUT}/benchmarks/select/{{dataset}}/{{method}}/{{setting}}/fold-{{fold}}.tsv"
    conda:
        "../../envs/svmfs.yaml"
    threads: lambda wc: method_resources(wc.method, "threads")
    resources:
        mem_mb=lambda wc: method_resources(wc.method, "mem_mb"),
        runtime=lambda wc: method_resources(wc.method, "runtime"),
    params:
        method_cfg=select_method_cfg,
        setting=lambda wc: SETTINGS[wc.method][wc.setting],
        campaign=campaign_cfg,
        campaign_name=config["campaign"],
        group=lambda wc: DSCFG[wc.dataset]["group"],
        job_config=job_config,
        seed=lambda wc: job_seed(
            config["seed"], wc.dataset, wc.fold, wc.method, wc.setting
        ),
        workdir=workflow.basedir,
    script:
        "../../scripts/select.py"


# A select job's inner fold run apart (methods.<name>.split_inner_folds): the whole grid fitted and
# scored on one inner fold of the job's training side; the select job merges the parts' scores.
rule select_part:
    input:
        unpack(select_part_input),
    output:
        f"{OUT}/parts/{{dataset}}/{{method}}/{{setting}}/fold-{{fold}}/inner-{{inner}}.json",
    log:
        f"{OUT}/logs/select_part/{{dataset}}/{{method}}/{{setting}}/fold-{{fold}}/inner-{{inner}}.log",
    benchmark:
        f"{OUT}/benchmarks/select_part/{{dataset}}/{{method}}/{{setting}}/fold-{{fold}}/inner-{{inner}}.tsv"
    conda:
        "../../envs/svmfs.yaml"
    threads: lambda wc: method_resources(wc.method, "threads")
    resources:
        mem_mb=lambda wc: method_resources(wc.method, "mem_mb"),
        runtime=lambda wc: method_resources(wc.method, "runtime"),
    params:
        method_cfg=method_cfg,
        setting=lambda wc: SETTINGS[wc.method][wc.setting],
        campaign=campaign_cfg,
        seed=lambda wc: job_seed(
            config["seed"], wc.dataset, wc.fold, wc.method, wc.setting
        ),
    script:
        "../../scripts/select_part.py"
