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
        method_cfg=method_cfg,
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
