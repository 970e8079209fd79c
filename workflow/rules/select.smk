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
        campaign=select_campaign_cfg,
        campaign_name=config["campaign"],
        group=lambda wc: DSCFG[wc.dataset]["group"],
        job_config=job_config,
        seed=lambda wc: job_seed(
            config["seed"], wc.dataset, wc.fold, wc.method, wc.setting
        ),
        workdir=workflow.basedir,
        method_module=lambda wc: method_module(wc.method),
        code=job_code("select.py"),
    script:
        "../../scripts/select.py"


# Jimenez-Cordero et al. (2021), Algorithm 1's (C*, gamma_ini): one inner CV per (dataset, outer fold),
# read by the select jobs of the methods with `initial_solution: shared` (every C2 setting, and NO-FS).
rule initial_solution:
    input:
        npz=f"{OUT}/datasets/{{dataset}}.npz",
        meta=f"{OUT}/datasets/{{dataset}}.json",
        splits=f"{OUT}/splits/{{dataset}}.json",
    output:
        f"{OUT}/initial_solution/{{dataset}}/fold-{{fold}}.json",
    log:
        f"{OUT}/logs/initial_solution/{{dataset}}/fold-{{fold}}.log",
    benchmark:
        f"{OUT}/benchmarks/initial_solution/{{dataset}}/fold-{{fold}}.tsv"
    conda:
        "../../envs/svmfs.yaml"
    threads: 1
    resources:
        mem_mb=config["resources"]["select"]["mem_mb"],
        runtime=config["resources"]["select"]["runtime"],
    params:
        normalization=config["normalization"],
        n_folds=config["inner_cv"]["n_splits"],
        seed=lambda wc: initial_solution_seed(config["seed"], wc.dataset, wc.fold),
        ties=config["inner_cv"].get("initial_solution_ties", "smallest"),
        libsvm_tol=config["inner_cv"].get("initial_solution_libsvm_tol", 1e-3),
        code=job_code("initial_solution.py", with_method=False),
    script:
        "../../scripts/initial_solution.py"


# A select job's inner fold run apart (execution.methods.<name>.split_inner_folds): the whole grid, or one block of it
# (execution.methods.<name>.split_grid), fitted and scored on one inner fold of the job's training side; or an audit of the
# job (split_audit, split_global_scaling); the select job merges the parts' results.
rule select_part:
    input:
        unpack(select_part_input),
    output:
        f"{OUT}/parts/{{dataset}}/{{method}}/{{setting}}/fold-{{fold}}/{{part}}.json",
    log:
        f"{OUT}/logs/select_part/{{dataset}}/{{method}}/{{setting}}/fold-{{fold}}/{{part}}.log",
    benchmark:
        f"{OUT}/benchmarks/select_part/{{dataset}}/{{method}}/{{setting}}/fold-{{fold}}/{{part}}.tsv"
    conda:
        "../../envs/svmfs.yaml"
    threads: lambda wc: method_resources(wc.method, "threads")
    resources:
        mem_mb=lambda wc: method_resources(wc.method, "mem_mb"),
        runtime=lambda wc: method_resources(wc.method, "runtime"),
    params:
        method_cfg=method_cfg,
        setting=lambda wc: SETTINGS[wc.method][wc.setting],
        campaign=select_campaign_cfg,
        job_config=job_config,
        seed=lambda wc: job_seed(
            config["seed"], wc.dataset, wc.fold, wc.method, wc.setting
        ),
        workdir=workflow.basedir,
        method_module=lambda wc: method_module(wc.method),
        code=job_code("select_part.py"),
    script:
        "../../scripts/select_part.py"
