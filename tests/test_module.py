"""docs/module.md: a user's own Snakefile runs svmfs as a Snakemake module (local path), and the dry run plans it."""

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
