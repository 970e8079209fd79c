rule collect:
    input:
        records=select_outputs(),
        code=library_file("results/record.py"),
    output:
        parquet=f"{OUT}/records.parquet",
        csv=f"{OUT}/records.csv",
    log:
        f"{OUT}/logs/collect.log",
    benchmark:
        f"{OUT}/benchmarks/collect.tsv"
    conda:
        "../../envs/svmfs.yaml"
    threads: 1
    resources:
        mem_mb=config["resources"]["light"]["mem_mb"],
        runtime=config["resources"]["light"]["runtime"],
    params:
        campaign=config["campaign"],
        method_papers=method_papers(),
    script:
        "../../scripts/collect.py"


rule tables:
    input:
        parquet=f"{OUT}/records.parquet",
        code=[library_file("analysis/tables.py"), library_file("analysis/stability.py")],
    output:
        csv=report(
            f"{OUT}/tables/summary.csv",
            caption="../report/summary.rst",
            category="Tables",
        ),
        md=f"{OUT}/tables/summary.md",
        tex=f"{OUT}/tables/summary.tex",
        timing=report(
            f"{OUT}/tables/timing.csv",
            caption="../report/timing.rst",
            category="Tables",
        ),
        stability=report(
            f"{OUT}/tables/stability.csv",
            caption="../report/stability.rst",
            category="Tables",
        ),
    log:
        f"{OUT}/logs/tables.log",
    benchmark:
        f"{OUT}/benchmarks/tables.tsv"
    conda:
        "../../envs/svmfs.yaml"
    threads: 1
    resources:
        mem_mb=config["resources"]["light"]["mem_mb"],
        runtime=config["resources"]["light"]["runtime"],
    params:
        campaign=config["campaign"],
        stand_in=config["stand_in"],
    script:
        "../../scripts/tables.py"


rule figures:
    input:
        summary=f"{OUT}/tables/summary.csv",
        timing=f"{OUT}/tables/timing.csv",
        code=[
            library_file("analysis/figures.py"),
            library_file("analysis/paths.py"),
            library_file("analysis/front.py"),
        ],
    output:
        front_png=report(
            f"{OUT}/figures/front.png",
            caption="../report/front.rst",
            category="Figures",
        ),
        front_pdf=f"{OUT}/figures/front.pdf",
        front_csv=f"{OUT}/tables/front.csv",
        acc_png=report(
            f"{OUT}/figures/accuracy_vs_features.png",
            caption="../report/accuracy_vs_features.rst",
            category="Figures",
        ),
        acc_pdf=f"{OUT}/figures/accuracy_vs_features.pdf",
        width_png=report(
            f"{OUT}/figures/width_frontier.png",
            caption="../report/width_frontier.rst",
            category="Figures",
        ),
        width_pdf=f"{OUT}/figures/width_frontier.pdf",
        sweep_png=report(
            f"{OUT}/figures/settings_sweep.png",
            caption="../report/settings_sweep.rst",
            category="Figures",
        ),
        sweep_pdf=f"{OUT}/figures/settings_sweep.pdf",
        paths_png=report(
            f"{OUT}/figures/regularization_paths.png",
            caption="../report/regularization_paths.rst",
            category="Figures",
        ),
        paths_pdf=f"{OUT}/figures/regularization_paths.pdf",
        paths_csv=f"{OUT}/tables/regularization_paths.csv",
        paths_md=f"{OUT}/tables/regularization_paths.md",
        runtime_png=report(
            f"{OUT}/figures/runtime.png",
            caption="../report/runtime.rst",
            category="Figures",
        ),
        runtime_pdf=f"{OUT}/figures/runtime.pdf",
    log:
        f"{OUT}/logs/figures.log",
    benchmark:
        f"{OUT}/benchmarks/figures.tsv"
    conda:
        "../../envs/svmfs.yaml"
    threads: 1
    resources:
        mem_mb=config["resources"]["light"]["mem_mb"],
        runtime=config["resources"]["light"]["runtime"],
    params:
        campaign=config["campaign"],
    script:
        "../../scripts/figures.py"


rule statistics:
    input:
        summary=f"{OUT}/tables/summary.csv",
        stability=f"{OUT}/tables/stability.csv",
        code=[
            library_file("analysis/comparison.py"),
            library_file("analysis/significance.py"),
            library_file("analysis/cd_diagram.py"),
        ],
    output:
        friedman=report(
            f"{OUT}/tables/friedman.csv",
            caption="../report/friedman.rst",
            category="Statistics",
        ),
        ranks=report(
            f"{OUT}/tables/ranks.csv",
            caption="../report/ranks.rst",
            category="Statistics",
        ),
        wilcoxon=report(
            f"{OUT}/tables/wilcoxon.csv",
            caption="../report/wilcoxon.rst",
            category="Statistics",
        ),
        cd_png=report(
            f"{OUT}/figures/cd_diagram.png",
            caption="../report/cd_diagram.rst",
            category="Statistics",
        ),
        cd_pdf=f"{OUT}/figures/cd_diagram.pdf",
        stability_png=report(
            f"{OUT}/figures/stability.png",
            caption="../report/stability_figure.rst",
            category="Figures",
        ),
        stability_pdf=f"{OUT}/figures/stability.pdf",
    log:
        f"{OUT}/logs/statistics.log",
    benchmark:
        f"{OUT}/benchmarks/statistics.tsv"
    conda:
        "../../envs/svmfs.yaml"
    threads: 1
    resources:
        mem_mb=config["resources"]["light"]["mem_mb"],
        runtime=config["resources"]["light"]["runtime"],
    params:
        metric=config["statistics"]["metric"],
        alpha=config["statistics"]["alpha"],
    script:
        "../../scripts/statistics.py"


rule correlation:
    input:
        npz=f"{OUT}/datasets/{{dataset}}.npz",
        parquet=f"{OUT}/records.parquet",
        code=library_file("analysis/correlation.py"),
    output:
        png=report(
            f"{OUT}/figures/correlation/{{dataset}}.png",
            caption="../report/correlation.rst",
            category="Figures",
            subcategory="Correlation and selection",
        ),
        pdf=f"{OUT}/figures/correlation/{{dataset}}.pdf",
    log:
        f"{OUT}/logs/correlation/{{dataset}}.log",
    benchmark:
        f"{OUT}/benchmarks/correlation/{{dataset}}.tsv"
    conda:
        "../../envs/svmfs.yaml"
    threads: 1
    resources:
        mem_mb=config["resources"]["light"]["mem_mb"],
        runtime=config["resources"]["light"]["runtime"],
    params:
        max_features=60,
    script:
        "../../scripts/correlation.py"


rule reproduction:
    input:
        parquet=f"{OUT}/records.parquet",
        code=library_file("analysis/reproduction.py"),
        published=library_file("analysis/published.yaml"),
        # the audits' accuracies (campaigns with `audits:`): a gap inside one is "explained"
        optimism=f"{OUT}/tables/optimism.csv" if config.get("audits", []) else [],
    output:
        csv=report(
            f"{OUT}/tables/reproduction.csv",
            caption="../report/reproduction.rst",
            category="Reproduction",
        ),
        md=f"{OUT}/tables/reproduction.md",
        tex=f"{OUT}/tables/reproduction.tex",
        report=f"{OUT}/report/reproduction.md",
    log:
        f"{OUT}/logs/reproduction.log",
    benchmark:
        f"{OUT}/benchmarks/reproduction.tsv"
    conda:
        "../../envs/svmfs.yaml"
    threads: 1
    resources:
        mem_mb=config["resources"]["light"]["mem_mb"],
        runtime=config["resources"]["light"]["runtime"],
    params:
        campaign=config["campaign"],
        papers=config["reproduces"],
        protocol=config.get("protocol", {}),
    script:
        "../../scripts/reproduction.py"
