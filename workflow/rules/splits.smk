rule split:
    input:
        npz=f"{OUT}/datasets/{{dataset}}.npz",
    output:
        f"{OUT}/splits/{{dataset}}.json",
    log:
        f"{OUT}/logs/split/{{dataset}}.log",
    benchmark:
        f"{OUT}/benchmarks/split/{{dataset}}.tsv"
    conda:
        "../../envs/svmfs.yaml"
    threads: 1
    resources:
        mem_mb=config["resources"]["light"]["mem_mb"],
        runtime=config["resources"]["light"]["runtime"],
    params:
        spec=lambda wc: SPLITS[wc.dataset],
        seed=lambda wc: splits_seed(config["seed"], wc.dataset),
    script:
        "../../scripts/split.py"
