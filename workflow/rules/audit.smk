# Selection-bias audits (campaign key `audits`; docs/audits.md). test_tuned and
# global_scaling are computed inside the select jobs; global_selection has a job of its own per
# (dataset, method, setting); the optimism table pairs every audit with the nested accuracy by fold.


rule audit_global:
    input:
        npz=f"{OUT}/datasets/{{dataset}}.npz",
        meta=f"{OUT}/datasets/{{dataset}}.json",
        splits=f"{OUT}/splits/{{dataset}}.json",
    output:
        f"{OUT}/audits/global_selection/{{dataset}}/{{method}}/{{setting}}.json",
    log:
        f"{OUT}/logs/audit_global/{{dataset}}/{{method}}/{{setting}}.log",
    benchmark:
        f"{OUT}/benchmarks/audit_global/{{dataset}}/{{method}}/{{setting}}.tsv"
    wildcard_constraints:
        dataset=_alternatives(DATASETS),
        method=_alternatives(METHODS),
        setting=_alternatives(sorted({s for m in METHODS for s in SETTINGS[m]})),
    conda:
        "../../envs/svmfs.yaml"
    threads: lambda wc: method_resources(wc.method, "threads")
    resources:
        mem_mb=lambda wc: method_resources(wc.method, "mem_mb"),
        runtime=lambda wc: method_resources(wc.method, "runtime"),
    params:
        method_cfg=method_cfg,
        setting=lambda wc: SETTINGS[wc.method][wc.setting],
        campaign=lambda wc: {k: v for k, v in campaign_cfg(wc).items() if k != "audits"},
        campaign_name=config["campaign"],
        seed=lambda wc: audit_global_seed(
            config["seed"], wc.dataset, wc.method, wc.setting
        ),
        fold_seed=lambda wc: [
            job_seed(config["seed"], wc.dataset, k, wc.method, wc.setting)
            for k in range(n_folds(SPLITS[wc.dataset]))
        ],
        workdir=workflow.basedir,
        code=job_code("audit_global.py"),
    script:
        "../../scripts/audit_global.py"


rule optimism:
    input:
        records=select_outputs(),
        audits=audit_global_outputs(),
        code=library_file("analysis/optimism.py"),
    output:
        csv=report(
            f"{OUT}/tables/optimism.csv",
            caption="../report/optimism.rst",
            category="Selection-bias audits",
        ),
        md=f"{OUT}/tables/optimism.md",
        png=report(
            f"{OUT}/figures/optimism.png",
            caption="../report/optimism_figure.rst",
            category="Selection-bias audits",
        ),
        pdf=f"{OUT}/figures/optimism.pdf",
    log:
        f"{OUT}/logs/optimism.log",
    benchmark:
        f"{OUT}/benchmarks/optimism.tsv"
    conda:
        "../../envs/svmfs.yaml"
    threads: 1
    resources:
        mem_mb=config["resources"]["light"]["mem_mb"],
        runtime=config["resources"]["light"]["runtime"],
    params:
        audits=config["audits"],
    script:
        "../../scripts/optimism.py"
