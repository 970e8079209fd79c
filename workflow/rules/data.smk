rule download:
    output:
        f"{RAW}/{{source}}/MANIFEST.json",
    log:
        f"{OUT}/logs/download/{{source}}.log",
    benchmark:
        f"{OUT}/benchmarks/download/{{source}}.tsv"
    params:
        entry=lambda wc: REGISTRY[wc.source],
        raw_dir=RAW,
        mirror=mirror_url(config),
        lock=str(Path(workflow.basedir) / config["dataset_lock"]),
    resources:
        mem_mb=config["resources"]["light"]["mem_mb"],
        runtime=config["resources"]["light"]["runtime"],
    threads: 1
    retries: 2
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
    params:
        name=lambda wc: wc.dataset,
        entry=lambda wc: REGISTRY[_source(wc.dataset)],
        params=lambda wc: config["datasets"][wc.dataset].get("params", {}),
        options=lambda wc: config["datasets"][wc.dataset].get("options", {}),
        seed=lambda wc: derive_seed(config["seed"], "data", wc.dataset),
        raw_dir=lambda wc: f"{RAW}/{_source(wc.dataset)}",
        checks={},
    resources:
        mem_mb=config["resources"]["light"]["mem_mb"],
        runtime=config["resources"]["light"]["runtime"],
    threads: 1
    script:
        "../../scripts/prepare.py"
