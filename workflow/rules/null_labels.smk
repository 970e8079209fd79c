# The null-label audit (campaign key `audits: [null_labels]` and block `null_labels`; docs/audits.md):
# every select job, and every other audit of the campaign, again on K seeded permutations of each
# dataset's labels, as further instances of the same rules under null_labels/perm-<p>/ (the real outer
# splits file; a select job's inner folds run in the job, never as parts). The real jobs are untouched.


include: "null_labels_common.smk"


rule null_labels_permute:
    input:
        npz=f"{OUT}/datasets/{{dataset}}.npz",
        meta=f"{OUT}/datasets/{{dataset}}.json",
        splits=f"{OUT}/splits/{{dataset}}.json",
    output:
        npz=f"{NULL}/datasets/{{dataset}}.npz",
        meta=f"{NULL}/datasets/{{dataset}}.json",
    log:
        f"{NULL_LOGS}/permute/{{dataset}}.log",
    benchmark:
        f"{NULL_BENCH}/permute/{{dataset}}.tsv"
    wildcard_constraints:
        perm=r"\d+",
    conda:
        "../../envs/svmfs.yaml"
    threads: 1
    resources:
        mem_mb=config["resources"]["light"]["mem_mb"],
        runtime=config["resources"]["light"]["runtime"],
    params:
        seed=lambda wc: permutation_seed(
            NULL_SEED, DSCFG[wc.dataset]["group"], int(wc.perm)
        ),
        inner_splits=config["inner_cv"]["n_splits"],
        code=job_code("null_labels_permute.py", with_method=False),
    script:
        "../../scripts/null_labels_permute.py"


use rule select as null_select with:
    input:
        unpack(null_select_input),
    output:
        json=f"{NULL}/runs/{{dataset}}/{{method}}/{{setting}}/fold-{{fold}}.json",
        parquet=f"{NULL}/runs/{{dataset}}/{{method}}/{{setting}}/fold-{{fold}}.parquet",
    log:
        f"{NULL_LOGS}/select/{{dataset}}/{{method}}/{{setting}}/fold-{{fold}}.log",
    benchmark:
        f"{NULL_BENCH}/select/{{dataset}}/{{method}}/{{setting}}/fold-{{fold}}.tsv"
    wildcard_constraints:
        perm=r"\d+",
    params:
        method_cfg=null_method_cfg,
        setting=lambda wc: SETTINGS[wc.method][wc.setting],
        campaign=null_campaign_cfg,
        campaign_name=config["campaign"],
        group=lambda wc: DSCFG[wc.dataset]["group"],
        job_config=null_job_config,
        seed=lambda wc: job_seed(
            config["seed"], wc.dataset, wc.fold, wc.method, wc.setting
        ),
        workdir=workflow.basedir,
        method_module=lambda wc: method_module(wc.method),
        code=job_code("select.py"),


use rule initial_solution as null_initial_solution with:
    input:
        npz=f"{NULL}/datasets/{{dataset}}.npz",
        meta=f"{NULL}/datasets/{{dataset}}.json",
        splits=f"{OUT}/splits/{{dataset}}.json",
    output:
        f"{NULL}/initial_solution/{{dataset}}/fold-{{fold}}.json",
    log:
        f"{NULL_LOGS}/initial_solution/{{dataset}}/fold-{{fold}}.log",
    benchmark:
        f"{NULL_BENCH}/initial_solution/{{dataset}}/fold-{{fold}}.tsv"
    wildcard_constraints:
        perm=r"\d+",


use rule audit_global as null_audit_global with:
    input:
        npz=f"{NULL}/datasets/{{dataset}}.npz",
        meta=f"{NULL}/datasets/{{dataset}}.json",
        splits=f"{OUT}/splits/{{dataset}}.json",
    output:
        f"{NULL}/audits/global_selection/{{dataset}}/{{method}}/{{setting}}.json",
    log:
        f"{NULL_LOGS}/audit_global/{{dataset}}/{{method}}/{{setting}}.log",
    benchmark:
        f"{NULL_BENCH}/audit_global/{{dataset}}/{{method}}/{{setting}}.tsv"
    wildcard_constraints:
        dataset=_alternatives(DATASETS),
        method=_alternatives(METHODS),
        setting=_alternatives(sorted({s for m in METHODS for s in SETTINGS[m]})),
        perm=r"\d+",


rule null_labels:
    input:
        records=select_outputs(),
        audits=audit_global_outputs(),
        null_records=null_select_outputs(),
        null_audits=null_audit_outputs(),
        meta=expand(f"{OUT}/datasets/{{dataset}}.json", dataset=DATASETS),
        code=library_file("analysis/null_labels.py"),
    output:
        csv=report(
            f"{OUT}/tables/null_labels.csv",
            caption="../report/null_labels.rst",
            category="Selection-bias audits",
        ),
        md=f"{OUT}/tables/null_labels.md",
        png=report(
            f"{OUT}/figures/null_labels.png",
            caption="../report/null_labels_figure.rst",
            category="Selection-bias audits",
        ),
        pdf=f"{OUT}/figures/null_labels.pdf",
    log:
        f"{OUT}/logs/null_labels.log",
    benchmark:
        f"{OUT}/benchmarks/null_labels.tsv"
    conda:
        "../../envs/svmfs.yaml"
    threads: 1
    resources:
        mem_mb=config["resources"]["light"]["mem_mb"],
        runtime=config["resources"]["light"]["runtime"],
    params:
        permutations=NULL_PERMS,
        seed=NULL_SEED,
    script:
        "../../scripts/null_labels.py"
