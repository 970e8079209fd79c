rule download:
    output:
        f"{RAW}/{{source}}/MANIFEST.json",
    log:
        f"{OUT}/logs/download/{{source}}.log",
    benchmark:
        f"{OUT}/benchmarks/download/{{source}}.tsv"
    retries: 2
    conda:
        "../../envs/svmfs.yaml"
    threads: 1
    resources:
        mem_mb=config["resources"]["light"]["mem_mb"],
        runtime=config["resources"]["light"]["runtime"],
    params:
        entry=lambda wc: REGISTRY[wc.source],
        raw_dir=lambda wc, output: str(Path(output[0]).parent.parent),
        mirror=mirror_url(config),
        lock=dataset_lock_path(config),
    script:
        "../../scripts/download.py"


rule prepare:
    input:
        prepare_input,
    output:
        npz=f"{OUT}/datasets/{{dataset}}.npz",
        meta=f"{OUT}/datasets/{{dataset}}.json",
    log:
        f"{OUT}/logs/prepare/{{dataset}}.log",
    benchmark:
        f"{OUT}/benchmarks/prepare/{{dataset}}.tsv"
    conda:
        "../../envs/svmfs.yaml"
    threads: 1
    resources:
        mem_mb=config["resources"]["light"]["mem_mb"],
        runtime=config["resources"]["light"]["runtime"],
    params:
        name=lambda wc: wc.dataset,
        entry=lambda wc: REGISTRY[_source(wc.dataset)],
        params=lambda wc: DSCFG[wc.dataset].get("params", {}),
        options=lambda wc: DSCFG[wc.dataset].get("options", {}),
        seed=lambda wc: data_seed(config["seed"], wc.dataset),
        raw_dir=prepare_raw_dir,
        checks={},
    script:
        "../../scripts/prepare.py"
