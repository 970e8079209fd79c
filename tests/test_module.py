"""docs/module.md: a user's own Snakefile runs svmfs as a Snakemake module (local path): the dry run plans the
default campaign beside the user's own rule, and a tiny campaign runs through the module to the user's rule."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.workflow

USER_SNAKEFILE = f'''configfile: "config/config.yaml"


module svmfs:
    snakefile:
        "{ROOT / "Snakefile"}"
    config:
        config


use rule * from svmfs as svmfs_*


rule my_report:
    input:
        "results/default/tables/summary.csv",
    output:
        "my_report.txt",
    shell:
        "wc -l {{input}} > {{output}}"
'''


def test_a_users_workflow_uses_svmfs_as_a_module(tmp_path):
    (tmp_path / "config").mkdir()
    config = (ROOT / "config" / "config.yaml").read_text(encoding="utf-8")
    config += f"\ndataset_registry: {ROOT / 'config' / 'datasets.yaml'}\n"
    (tmp_path / "config" / "config.yaml").write_text(config, encoding="utf-8")
    (tmp_path / "Snakefile").write_text(USER_SNAKEFILE, encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "snakemake", "-n", "--cores", "1", "my_report.txt"],
        cwd=tmp_path, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-3000:]
    assert "svmfs_select" in out and "svmfs_tables" in out and "my_report" in out
    assert not (tmp_path / "results").exists()  # a dry run writes nothing


MINI = """campaign: mini
seed: 3
dataset_registry: {registry}
datasets:
  mit_example1:
    params: {{n: 40, p: 10, k0: 2, rho: 0.2}}
splits: {{kind: stratified_kfold, n_splits: 2}}
inner_cv: {{n_splits: 2}}
final_classifier: {{linear: {{C: [1.0]}}}}
methods:
  fisher: {{grid: {{n_features_to_select: [2]}}}}
"""


def test_a_users_workflow_runs_a_tiny_campaign_through_the_module(tmp_path):
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "config.yaml").write_text(MINI.format(registry=ROOT / "config" / "datasets.yaml"))
    (tmp_path / "Snakefile").write_text(USER_SNAKEFILE.replace("results/default/", "results/mini/"), encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "snakemake", "--cores", "2", "my_report.txt"],
        cwd=tmp_path, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT / "src"), "SVMFS_MIRROR": ""},
        timeout=900,
    )
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-4000:]
    assert (tmp_path / "results" / "mini" / "tables" / "summary.csv").is_file()
    assert (tmp_path / "my_report.txt").read_text().split()[0] == "2"  # header + fisher's row
